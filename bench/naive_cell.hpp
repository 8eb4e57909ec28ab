// bench/naive_cell.hpp: the GRU and the LSTM (PyTorch's equations and gate orders) written the way a user would
// write them without sarnn: the formulas as plain loops over fixed-size arrays, float throughout, std::tanh and
// std::exp from libm. No sarnn code, no intrinsics.
//   GRU   r = σ(W_ir x + b_ir + W_hr h + b_hr), z = σ(W_iz x + b_iz + W_hz h + b_hz),
//         n = tanh(W_in x + b_in + r ⊙ (W_hn h + b_hn)), h' = (1 - z) ⊙ n + z ⊙ h
//   LSTM  [i; f; g; o] = W_ih x + W_hh h + b, c' = σ(f) ⊙ c + σ(i) ⊙ tanh(g), h' = σ(o) ⊙ tanh(c')
#ifndef SARNN_BENCH_NAIVE_CELL_HPP
#define SARNN_BENCH_NAIVE_CELL_HPP

#include <cmath>
#include <cstddef>
#include <cstring>

namespace sarnn_bench {

inline float naive_sigmoid(float v) { return 1.0f / (1.0f + std::exp(-v)); }

template <std::size_t In, std::size_t Hidden>
class NaiveGru {
public:
    /// Row-major weights as in sarnn::GruParams (copied).
    struct Weights {
        const float* W_ih;  ///< 3·Hidden x In
        const float* W_hh;  ///< 3·Hidden x Hidden
        const float* b_ih;  ///< 3·Hidden
        const float* b_hh;  ///< 3·Hidden
    };

    explicit NaiveGru(const Weights& w) {
        std::memcpy(W_ih_, w.W_ih, sizeof W_ih_);
        std::memcpy(W_hh_, w.W_hh, sizeof W_hh_);
        std::memcpy(b_ih_, w.b_ih, sizeof b_ih_);
        std::memcpy(b_hh_, w.b_hh, sizeof b_hh_);
        reset();
    }
    void reset() {
        for (float& v : h_) v = 0.0f;
    }

    void step(const float* x) {
        // gi = W_ih x + b_ih, gh = W_hh h + b_hh
        float gi[3 * Hidden], gh[3 * Hidden];
        for (std::size_t r = 0; r < 3 * Hidden; ++r) {
            float a = b_ih_[r], b = b_hh_[r];
            for (std::size_t k = 0; k < In; ++k) a += W_ih_[r][k] * x[k];
            for (std::size_t k = 0; k < Hidden; ++k) b += W_hh_[r][k] * h_[k];
            gi[r] = a;
            gh[r] = b;
        }
        // r, z = σ(gi + gh), n = tanh(gi_n + r ⊙ gh_n), h' = (1 - z) ⊙ n + z ⊙ h
        for (std::size_t d = 0; d < Hidden; ++d) {
            const float r = naive_sigmoid(gi[d] + gh[d]);
            const float z = naive_sigmoid(gi[Hidden + d] + gh[Hidden + d]);
            const float n = std::tanh(gi[2 * Hidden + d] + r * gh[2 * Hidden + d]);
            h_[d] = (1.0f - z) * n + z * h_[d];
        }
    }
    const float* hidden() const { return h_; }

private:
    float W_ih_[3 * Hidden][In];
    float W_hh_[3 * Hidden][Hidden];
    float b_ih_[3 * Hidden], b_hh_[3 * Hidden];
    float h_[Hidden];
};

template <std::size_t In, std::size_t Hidden>
class NaiveLstm {
public:
    /// Row-major weights as in sarnn::LstmParams (copied); b = b_ih + b_hh.
    struct Weights {
        const float* W_ih;  ///< 4·Hidden x In
        const float* W_hh;  ///< 4·Hidden x Hidden
        const float* b;     ///< 4·Hidden
    };

    explicit NaiveLstm(const Weights& w) {
        std::memcpy(W_ih_, w.W_ih, sizeof W_ih_);
        std::memcpy(W_hh_, w.W_hh, sizeof W_hh_);
        std::memcpy(b_, w.b, sizeof b_);
        reset();
    }
    void reset() {
        for (float& v : h_) v = 0.0f;
        for (float& v : c_) v = 0.0f;
    }

    void step(const float* x) {
        // z = W_ih x + W_hh h + b
        float z[4 * Hidden];
        for (std::size_t r = 0; r < 4 * Hidden; ++r) {
            float a = b_[r];
            for (std::size_t k = 0; k < In; ++k) a += W_ih_[r][k] * x[k];
            for (std::size_t k = 0; k < Hidden; ++k) a += W_hh_[r][k] * h_[k];
            z[r] = a;
        }
        // c' = σ(f) ⊙ c + σ(i) ⊙ tanh(g), h' = σ(o) ⊙ tanh(c')
        for (std::size_t d = 0; d < Hidden; ++d) {
            const float i = naive_sigmoid(z[d]), f = naive_sigmoid(z[Hidden + d]);
            const float g = std::tanh(z[2 * Hidden + d]), o = naive_sigmoid(z[3 * Hidden + d]);
            c_[d] = f * c_[d] + i * g;
            h_[d] = o * std::tanh(c_[d]);
        }
    }
    const float* hidden() const { return h_; }
    const float* cell() const { return c_; }

private:
    float W_ih_[4 * Hidden][In];
    float W_hh_[4 * Hidden][Hidden];
    float b_[4 * Hidden];
    float h_[Hidden], c_[Hidden];
};

}  // namespace sarnn_bench

#endif
