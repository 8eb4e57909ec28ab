// bench/mcu/plain.hpp: the formulas as plain loops, what a firmware engineer writes without sarnn: one
// accumulator per dot product, libm's tanhf and expf, a two-pass softmax. The same params aggregates as sarnn
// (in flash), the state in the caller's static storage. The benchmark's baseline, not a reference for accuracy.
#ifndef SARNN_BENCH_MCU_PLAIN_HPP
#define SARNN_BENCH_MCU_PLAIN_HPP

#include <cmath>
#include <cstddef>

#include <sarnn/status.hpp>

namespace plain {

/// h = tanh(A·[x; r] + b)
template <std::size_t In, std::size_t H, class Params>
void cell(const Params& p, const float* x, const float* r, float* h) {
    for (std::size_t i = 0; i < H; ++i) {
        float s = p.b[i];
        for (std::size_t k = 0; k < In; ++k) s += p.A[i][k] * x[k];
        for (std::size_t k = 0; k < H; ++k) s += p.A[i][In + k] * r[k];
        h[i] = std::tanh(s);
    }
}

/// SimpleRnn: h_i = tanh(A·[x_i; h_{i-1}] + b)
template <std::size_t In, std::size_t H, class Params>
struct SimpleRnn {
    const Params& p;
    float h[H] = {};
    float next[H] = {};
    explicit SimpleRnn(const Params& params) : p(params) {}
    void reset() {
        for (float& v : h) v = 0.0f;
    }
    sarnn::Status step(const float* x) {
        cell<In, H>(p, x, h, next);
        for (std::size_t k = 0; k < H; ++k) h[k] = next[k];
        return sarnn::Status::ok;
    }
};

// ---- the scores, as one writes them: what can be computed once per state or once per step is ------------------
/// e_j = scale·h_j·h_i (dot, scaled dot)
template <std::size_t H>
struct Dot {
    float scale;
    void store(std::size_t, const float*) {}
    void query(const float*) {}
    float score(std::size_t, const float* hj, const float* hi) const {
        float e = 0.0f;
        for (std::size_t k = 0; k < H; ++k) e += hj[k] * hi[k];
        return scale * e;
    }
};
/// e_j = h_j·(W h_i): q = W h_i once per step
template <std::size_t H, class P>
struct Bilinear {
    const P& p;
    float q[H] = {};
    void store(std::size_t, const float*) {}
    void query(const float* hi) {
        for (std::size_t r = 0; r < H; ++r) {
            float s = 0.0f;
            for (std::size_t k = 0; k < H; ++k) s += p.W[r][k] * hi[k];
            q[r] = s;
        }
    }
    float score(std::size_t, const float* hj, const float*) const {
        float e = 0.0f;
        for (std::size_t k = 0; k < H; ++k) e += hj[k] * q[k];
        return e;
    }
};
/// e_j = (Wk h_j)·(Wq h_i): the key Wk h_j kept per state, the query Wq h_i once per step
template <std::size_t H, std::size_t K, std::size_t C, class P>
struct KeyQuery {
    const P& p;
    float keys[C][K] = {};
    float u[K] = {};
    void store(std::size_t slot, const float* h) {
        for (std::size_t r = 0; r < K; ++r) {
            float s = 0.0f;
            for (std::size_t k = 0; k < H; ++k) s += p.Wk[r][k] * h[k];
            keys[slot][r] = s;
        }
    }
    void query(const float* hi) {
        for (std::size_t r = 0; r < K; ++r) {
            float s = 0.0f;
            for (std::size_t k = 0; k < H; ++k) s += p.Wq[r][k] * hi[k];
            u[r] = s;
        }
    }
    float score(std::size_t j, const float*, const float*) const {
        float e = 0.0f;
        for (std::size_t k = 0; k < K; ++k) e += keys[j][k] * u[k];
        return e;
    }
};
/// e_j = v·tanh(W[h_j; h_i]): W[:, :H] h_j kept per state, W[:, H:] h_i once per step
template <std::size_t H, std::size_t K, std::size_t C, class P>
struct Additive {
    const P& p;
    float keys[C][K] = {};
    float q[K] = {};
    void store(std::size_t slot, const float* h) {
        for (std::size_t r = 0; r < K; ++r) {
            float s = 0.0f;
            for (std::size_t k = 0; k < H; ++k) s += p.W[r][k] * h[k];
            keys[slot][r] = s;
        }
    }
    void query(const float* hi) {
        for (std::size_t r = 0; r < K; ++r) {
            float s = 0.0f;
            for (std::size_t k = 0; k < H; ++k) s += p.W[r][H + k] * hi[k];
            q[r] = s;
        }
    }
    float score(std::size_t j, const float*, const float*) const {
        float e = 0.0f;
        for (std::size_t k = 0; k < K; ++k) e += p.v[k] * std::tanh(keys[j][k] + q[k]);
        return e;
    }
};

/// Self-attention RNN, Bounded memory of C states, any score above:
/// h_i = tanh(A·[x_i; c_{i-1}] + b); e_j = align(h_j, h_i); alpha = softmax(e); c_i = Σ_j alpha_j h_j
template <std::size_t In, std::size_t H, std::size_t C, class Params, class Score>
struct SelfAttentionRnn {
    const Params& p;
    Score align;
    float mem[C][H] = {};
    float c[H] = {};
    float alpha[C] = {};
    std::size_t n = 0;
    SelfAttentionRnn(const Params& params, const Score& score) : p(params), align(score) {}
    void reset() {
        n = 0;
        for (float& v : c) v = 0.0f;
    }
    sarnn::Status step(const float* x) {
        if (n == C) return sarnn::Status::memory_full;
        float* h = mem[n];
        cell<In, H>(p, x, c, h);
        align.store(n++, h);
        align.query(h);
        float m = -INFINITY;
        for (std::size_t j = 0; j < n; ++j) {
            alpha[j] = align.score(j, mem[j], h);
            if (alpha[j] > m) m = alpha[j];
        }
        float l = 0.0f;
        for (std::size_t j = 0; j < n; ++j) l += (alpha[j] = std::exp(alpha[j] - m));
        for (std::size_t j = 0; j < n; ++j) alpha[j] /= l;
        for (std::size_t k = 0; k < H; ++k) c[k] = 0.0f;
        for (std::size_t j = 0; j < n; ++j)
            for (std::size_t k = 0; k < H; ++k) c[k] += alpha[j] * mem[j][k];
        return sarnn::Status::ok;
    }
};

/// The LSTMN (Cheng, Dong and Lapata), Bounded tapes of C entries, W_h h_j kept per entry:
/// a_j = v·tanh(W_h h_j + W_x x_t + W_ht h~_{t-1}); s = softmax(a); h~_t = Σ s_j h_j, c~_t = Σ s_j c_j;
/// z = W_ih x_t + W_hh h~_t + b; c_t = σ(z_f) ⊙ c~_t + σ(z_i) ⊙ tanh(z_g); h_t = σ(z_o) ⊙ tanh(c_t)
template <std::size_t In, std::size_t H, std::size_t C, std::size_t K, class P>
struct Lstmn {
    const P& p;
    float th[C][H] = {}, tc[C][H] = {}, keys[C][K] = {};
    float ht[H] = {}, ct[H] = {}, s[C] = {};
    std::size_t n = 0;
    explicit Lstmn(const P& params) : p(params) {}
    static float sigmoid(float v) { return 1.0f / (1.0f + std::exp(-v)); }
    void reset() {
        n = 0;
        for (float& v : ht) v = 0.0f;
    }
    sarnn::Status step(const float* x) {
        if (n == C) return sarnn::Status::memory_full;
        float q[K];
        for (std::size_t r = 0; r < K; ++r) {
            float a = 0.0f;
            for (std::size_t k = 0; k < In; ++k) a += p.W_x[r][k] * x[k];
            for (std::size_t k = 0; k < H; ++k) a += p.W_ht[r][k] * ht[k];
            q[r] = a;
        }
        float hs[H] = {}, cs[H] = {};
        if (n > 0) {
            float m = -INFINITY;
            for (std::size_t j = 0; j < n; ++j) {
                float a = 0.0f;
                for (std::size_t r = 0; r < K; ++r) a += p.v[r] * std::tanh(keys[j][r] + q[r]);
                s[j] = a;
                if (a > m) m = a;
            }
            float l = 0.0f;
            for (std::size_t j = 0; j < n; ++j) l += (s[j] = std::exp(s[j] - m));
            for (std::size_t j = 0; j < n; ++j) s[j] /= l;
            for (std::size_t j = 0; j < n; ++j)
                for (std::size_t k = 0; k < H; ++k) {
                    hs[k] += s[j] * th[j][k];
                    cs[k] += s[j] * tc[j][k];
                }
        }
        float* h = th[n];
        float* c = tc[n];
        for (std::size_t d = 0; d < H; ++d) {
            float z[4];
            for (std::size_t g = 0; g < 4; ++g) {
                float a = p.b[g * H + d];
                for (std::size_t k = 0; k < In; ++k) a += p.W_ih[g * H + d][k] * x[k];
                for (std::size_t k = 0; k < H; ++k) a += p.W_hh[g * H + d][k] * hs[k];
                z[g] = a;
            }
            c[d] = sigmoid(z[1]) * cs[d] + sigmoid(z[0]) * std::tanh(z[2]);
            h[d] = sigmoid(z[3]) * std::tanh(c[d]);
        }
        for (std::size_t r = 0; r < K; ++r) {
            float a = 0.0f;
            for (std::size_t k = 0; k < H; ++k) a += p.W_h[r][k] * h[k];
            keys[n][r] = a;
        }
        for (std::size_t k = 0; k < H; ++k) ht[k] = hs[k];
        ++n;
        return sarnn::Status::ok;
    }
};

/// Lstm (nn.LSTM): z = W_ih x + W_hh h + b (rows i, f, g, o), c = σ(z_f) c + σ(z_i) tanh(z_g), h = σ(z_o) tanh(c)
template <std::size_t In, std::size_t H, class P>
struct Lstm {
    const P& p;
    float h[H] = {}, c[H] = {}, z[4 * H] = {};
    explicit Lstm(const P& params) : p(params) {}
    static float sigmoid(float v) { return 1.0f / (1.0f + std::exp(-v)); }
    void reset() {
        for (float& v : h) v = 0.0f;
        for (float& v : c) v = 0.0f;
    }
    sarnn::Status step(const float* x) {
        for (std::size_t r = 0; r < 4 * H; ++r) {
            float a = p.b[r];
            for (std::size_t k = 0; k < In; ++k) a += p.W_ih[r][k] * x[k];
            for (std::size_t k = 0; k < H; ++k) a += p.W_hh[r][k] * h[k];
            z[r] = a;
        }
        for (std::size_t d = 0; d < H; ++d) {
            c[d] = sigmoid(z[H + d]) * c[d] + sigmoid(z[d]) * std::tanh(z[2 * H + d]);
            h[d] = sigmoid(z[3 * H + d]) * std::tanh(c[d]);
        }
        return sarnn::Status::ok;
    }
};

}  // namespace plain

#endif
