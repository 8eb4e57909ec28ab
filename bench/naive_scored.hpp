// bench/naive_scored.hpp: the parameterised aligns and the LSTM-network written the way a user would write them
// without sarnn: the formulas as plain loops over fixed-size arrays, float throughout, std::tanh / std::exp
// from libm, a two-pass softmax that subtracts the max. No sarnn code, no intrinsics.
//
// "Plain" is not "careless": each peer does once what the textbook form does once, as a user who read the
// paper would, so that the benchmark compares implementations and not algorithms:
//   bilinear   e_ij = h_j·(W h_i): the query W h_i once per step (Luong writes the score this way)
//   keyquery   e_ij = k_j·(Wq h_i) with the key k_j = Wk h_j computed once, when h_j enters the memory
//              (the usual key cache; sarnn instead folds Wk into the query: q = Wkᵀ(Wq h_i), e_ij = h_j·q)
//   additive   e_ij = v·tanh(p_j + W[:, H:] h_i) with p_j = W[:, :H] h_j kept per state (Bahdanau's
//              "pre-computed keys"; sarnn does the same)
//   LSTMN      a_j = v·tanh(W_h h_j + W_x x_t + W_ht h~_{t-1}) with W_h h_j kept per tape entry (as sarnn)
// The recurrent part of the self-attention RNN is as in naive_dot.hpp: h_i = tanh(A·[x_i; c_{i-1}] + b).
//
// The objects are large (Capacity rows): allocate them once, outside any timed region. Nothing in step()
// touches the heap.
#ifndef SARNN_BENCH_NAIVE_SCORED_HPP
#define SARNN_BENCH_NAIVE_SCORED_HPP

#include <cmath>
#include <cstddef>
#include <cstring>

namespace sarnn_bench {

/// The parameterised scores of the self-attention RNN.
enum class Score { bilinear, keyquery, additive };

/// The weights of a score, as pointers into row-major arrays the caller owns (copied by the peers):
///   bilinear: W (Hidden x Hidden); keyquery: Wk, Wq (K x Hidden each); additive: W (K x 2·Hidden), v (K).
struct ScoreWeights {
    const float* W = nullptr;
    const float* Wk = nullptr;
    const float* Wq = nullptr;
    const float* v = nullptr;
};

/// Size of the query / key vectors of a score: Hidden for bilinear, K otherwise.
constexpr std::size_t score_width(Score s, std::size_t hidden, std::size_t k) {
    return s == Score::bilinear ? hidden : k;
}

template <std::size_t In, std::size_t Hidden, std::size_t Capacity, Score S, std::size_t K>
class NaiveScoredSarnn {
    static constexpr std::size_t kQ = score_width(S, Hidden, K);

public:
    /// A is Hidden x (In + Hidden) row-major, b has Hidden values; w as documented at ScoreWeights.
    NaiveScoredSarnn(const float* A, const float* b, const ScoreWeights& w) {
        for (std::size_t i = 0; i < Hidden; ++i) {
            for (std::size_t k = 0; k < In + Hidden; ++k) A_[i][k] = A[i * (In + Hidden) + k];
            b_[i] = b[i];
        }
        if constexpr (S == Score::bilinear) {
            std::memcpy(W_, w.W, sizeof W_);
        } else if constexpr (S == Score::keyquery) {
            std::memcpy(Wk_, w.Wk, sizeof Wk_);
            std::memcpy(Wq_, w.Wq, sizeof Wq_);
        } else {
            std::memcpy(Wa_, w.W, sizeof Wa_);
            std::memcpy(v_, w.v, sizeof v_);
        }
        for (auto& row : mem_)
            for (float& x : row) x = 0.0f;
        for (auto& row : keys_)
            for (float& x : row) x = 0.0f;
        for (float& x : alpha_) x = 0.0f;
        reset();
    }

    void reset() {
        for (float& x : c_) x = 0.0f;
        len_ = 0;
    }

    /// One step: h_i into the memory (and its key), then the context over h_1..h_i.
    void step(const float* x) {
        float* h = mem_[len_];
        for (std::size_t i = 0; i < Hidden; ++i) {
            float acc = b_[i];
            for (std::size_t k = 0; k < In; ++k) acc += A_[i][k] * x[k];
            for (std::size_t k = 0; k < Hidden; ++k) acc += A_[i][In + k] * c_[k];
            h[i] = std::tanh(acc);
        }
        make_key(len_);
        ++len_;
        attend();
    }

    /// The memory row j holds h (Hidden values); its key is computed as in step().
    void store(std::size_t j, const float* h) {
        for (std::size_t i = 0; i < Hidden; ++i) mem_[j][i] = h[i];
        make_key(j);
    }
    void set_length(std::size_t n) { len_ = n; }
    void set_context(const float* c) {
        for (std::size_t i = 0; i < Hidden; ++i) c_[i] = c[i];
    }
    std::size_t length() const { return len_; }
    const float* context() const { return c_; }
    const float* attention() const { return alpha_; }
    const float* hidden() const { return mem_[len_ - 1]; }

private:
    void make_key(std::size_t j) {
        if constexpr (S == Score::keyquery) {
            // k_j = Wk h_j
            for (std::size_t r = 0; r < K; ++r) {
                float acc = 0.0f;
                for (std::size_t i = 0; i < Hidden; ++i) acc += Wk_[r][i] * mem_[j][i];
                keys_[j][r] = acc;
            }
        } else if constexpr (S == Score::additive) {
            // p_j = W[:, :Hidden] h_j
            for (std::size_t r = 0; r < K; ++r) {
                float acc = 0.0f;
                for (std::size_t i = 0; i < Hidden; ++i) acc += Wa_[r][i] * mem_[j][i];
                keys_[j][r] = acc;
            }
        } else {
            (void)j;
        }
    }

    void attend() {
        const std::size_t n = len_;
        const float* h = mem_[n - 1];
        // the query, once per step
        float q[kQ];
        for (std::size_t r = 0; r < kQ; ++r) {
            float acc = 0.0f;
            for (std::size_t i = 0; i < Hidden; ++i) {
                if constexpr (S == Score::bilinear)
                    acc += W_[r][i] * h[i];
                else if constexpr (S == Score::keyquery)
                    acc += Wq_[r][i] * h[i];
                else
                    acc += Wa_[r][Hidden + i] * h[i];
            }
            q[r] = acc;
        }
        // the scores, and their max
        float mx = -INFINITY;
        for (std::size_t j = 0; j < n; ++j) {
            float e = 0.0f;
            if constexpr (S == Score::bilinear) {
                for (std::size_t i = 0; i < Hidden; ++i) e += mem_[j][i] * q[i];
            } else if constexpr (S == Score::keyquery) {
                for (std::size_t r = 0; r < K; ++r) e += keys_[j][r] * q[r];
            } else {
                for (std::size_t r = 0; r < K; ++r) e += v_[r] * std::tanh(keys_[j][r] + q[r]);
            }
            alpha_[j] = e;
            if (e > mx) mx = e;
        }
        // softmax
        float sum = 0.0f;
        for (std::size_t j = 0; j < n; ++j) {
            alpha_[j] = std::exp(alpha_[j] - mx);
            sum += alpha_[j];
        }
        for (std::size_t j = 0; j < n; ++j) alpha_[j] /= sum;
        // c = Σ_j alpha_j h_j
        for (std::size_t i = 0; i < Hidden; ++i) c_[i] = 0.0f;
        for (std::size_t j = 0; j < n; ++j)
            for (std::size_t i = 0; i < Hidden; ++i) c_[i] += alpha_[j] * mem_[j][i];
    }

    static constexpr std::size_t kW = S == Score::bilinear ? Hidden : 1;
    static constexpr std::size_t kKQ = S == Score::keyquery ? K : 1;
    static constexpr std::size_t kAdd = S == Score::additive ? K : 1;
    static constexpr std::size_t kKey = S == Score::bilinear ? 1 : K;
    static constexpr std::size_t kKeyRows = S == Score::bilinear ? 1 : Capacity;

    float A_[Hidden][In + Hidden];
    float b_[Hidden];
    float W_[kW][Hidden];         // bilinear
    float Wk_[kKQ][Hidden];       // keyquery
    float Wq_[kKQ][Hidden];       // keyquery
    float Wa_[kAdd][2 * Hidden];  // additive
    float v_[kAdd];               // additive
    float mem_[Capacity][Hidden];
    float keys_[kKeyRows][kKey];  // keyquery: Wk h_j; additive: W[:, :Hidden] h_j
    float c_[Hidden];
    float alpha_[Capacity];
    std::size_t len_ = 0;
};

/// The LSTM-network (Cheng, Dong and Lapata 2016) as plain loops; gate rows in the order i, f, g, o.
template <std::size_t In, std::size_t Hidden, std::size_t Capacity, std::size_t K>
class NaiveLstmn {
public:
    /// Row-major weights as in sarnn::LstmnParams (pointers to each array; copied).
    struct Weights {
        const float* W_ih;  ///< 4·Hidden x In
        const float* W_hh;  ///< 4·Hidden x Hidden
        const float* b;     ///< 4·Hidden
        const float* W_h;   ///< K x Hidden
        const float* W_x;   ///< K x In
        const float* W_ht;  ///< K x Hidden
        const float* v;     ///< K
    };

    explicit NaiveLstmn(const Weights& w) {
        std::memcpy(W_ih_, w.W_ih, sizeof W_ih_);
        std::memcpy(W_hh_, w.W_hh, sizeof W_hh_);
        std::memcpy(b_, w.b, sizeof b_);
        std::memcpy(W_h_, w.W_h, sizeof W_h_);
        std::memcpy(W_x_, w.W_x, sizeof W_x_);
        std::memcpy(W_ht_, w.W_ht, sizeof W_ht_);
        std::memcpy(v_, w.v, sizeof v_);
        for (auto* tape : {&h_, &c_})
            for (auto& row : *tape)
                for (float& x : row) x = 0.0f;
        for (auto& row : keys_)
            for (float& x : row) x = 0.0f;
        for (float& x : s_) x = 0.0f;
        reset();
    }

    void reset() {
        for (float& x : h_tilde_) x = 0.0f;
        for (float& x : c_tilde_) x = 0.0f;
        len_ = 0;
    }

    /// One step over the len_ tape entries; h_t, c_t become entry len_.
    void step(const float* x) {
        const std::size_t n = len_;
        if (n > 0) {
            // q = W_x x_t + W_ht h~_{t-1}
            float q[K];
            for (std::size_t r = 0; r < K; ++r) {
                float acc = 0.0f;
                for (std::size_t k = 0; k < In; ++k) acc += W_x_[r][k] * x[k];
                for (std::size_t k = 0; k < Hidden; ++k) acc += W_ht_[r][k] * h_tilde_[k];
                q[r] = acc;
            }
            // a_j = v·tanh(W_h h_j + q), s = softmax(a)
            float mx = -INFINITY;
            for (std::size_t j = 0; j < n; ++j) {
                float a = 0.0f;
                for (std::size_t r = 0; r < K; ++r) a += v_[r] * std::tanh(keys_[j][r] + q[r]);
                s_[j] = a;
                if (a > mx) mx = a;
            }
            float sum = 0.0f;
            for (std::size_t j = 0; j < n; ++j) {
                s_[j] = std::exp(s_[j] - mx);
                sum += s_[j];
            }
            for (std::size_t j = 0; j < n; ++j) s_[j] /= sum;
            // h~ = Σ s_j h_j, c~ = Σ s_j c_j
            for (std::size_t i = 0; i < Hidden; ++i) h_tilde_[i] = c_tilde_[i] = 0.0f;
            for (std::size_t j = 0; j < n; ++j)
                for (std::size_t i = 0; i < Hidden; ++i) {
                    h_tilde_[i] += s_[j] * h_[j][i];
                    c_tilde_[i] += s_[j] * c_[j][i];
                }
        }
        // z = W_ih x + W_hh h~ + b, then the cell
        float z[4 * Hidden];
        for (std::size_t r = 0; r < 4 * Hidden; ++r) {
            float acc = b_[r];
            for (std::size_t k = 0; k < In; ++k) acc += W_ih_[r][k] * x[k];
            for (std::size_t k = 0; k < Hidden; ++k) acc += W_hh_[r][k] * h_tilde_[k];
            z[r] = acc;
        }
        for (std::size_t i = 0; i < Hidden; ++i) {
            const float ig = sigmoid(z[i]);
            const float fg = sigmoid(z[Hidden + i]);
            const float gg = std::tanh(z[2 * Hidden + i]);
            const float og = sigmoid(z[3 * Hidden + i]);
            c_[n][i] = fg * c_tilde_[i] + ig * gg;
            h_[n][i] = og * std::tanh(c_[n][i]);
        }
        make_key(n);
        ++len_;
    }

    /// Tape entry j holds h and c (Hidden values each); its key is computed as in step().
    void store(std::size_t j, const float* h, const float* c) {
        for (std::size_t i = 0; i < Hidden; ++i) {
            h_[j][i] = h[i];
            c_[j][i] = c[i];
        }
        make_key(j);
    }
    void set_length(std::size_t n) { len_ = n; }
    /// h~_{t-1}, the summary the next step's query uses.
    void set_tilde(const float* h) {
        for (std::size_t i = 0; i < Hidden; ++i) h_tilde_[i] = h[i];
    }
    std::size_t length() const { return len_; }
    const float* hidden() const { return h_[len_ - 1]; }
    const float* cell() const { return c_[len_ - 1]; }
    /// s over the length() - 1 entries attended by the last step.
    const float* attention() const { return s_; }

private:
    static float sigmoid(float x) { return 1.0f / (1.0f + std::exp(-x)); }

    void make_key(std::size_t j) {
        for (std::size_t r = 0; r < K; ++r) {
            float acc = 0.0f;
            for (std::size_t i = 0; i < Hidden; ++i) acc += W_h_[r][i] * h_[j][i];
            keys_[j][r] = acc;
        }
    }

    float W_ih_[4 * Hidden][In];
    float W_hh_[4 * Hidden][Hidden];
    float b_[4 * Hidden];
    float W_h_[K][Hidden];
    float W_x_[K][In];
    float W_ht_[K][Hidden];
    float v_[K];
    float h_[Capacity][Hidden];
    float c_[Capacity][Hidden];
    float keys_[Capacity][K];
    float h_tilde_[Hidden];
    float c_tilde_[Hidden];
    float s_[Capacity];
    std::size_t len_ = 0;
};

}  // namespace sarnn_bench

#endif
