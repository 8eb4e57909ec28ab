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

/// Self-attention RNN, dot or scaled dot score, Bounded memory of C states:
/// h_i = tanh(A·[x_i; c_{i-1}] + b); e_j = scale·h_j·h_i; alpha = softmax(e); c_i = Σ_j alpha_j h_j
template <std::size_t In, std::size_t H, std::size_t C, class Params>
struct SelfAttentionRnn {
    const Params& p;
    float scale;
    float mem[C][H] = {};
    float c[H] = {};
    float alpha[C] = {};
    std::size_t n = 0;
    SelfAttentionRnn(const Params& params, float score_scale) : p(params), scale(score_scale) {}
    void reset() {
        n = 0;
        for (float& v : c) v = 0.0f;
    }
    sarnn::Status step(const float* x) {
        if (n == C) return sarnn::Status::memory_full;
        float* h = mem[n++];
        cell<In, H>(p, x, c, h);
        float m = -INFINITY;
        for (std::size_t j = 0; j < n; ++j) {
            float e = 0.0f;
            for (std::size_t k = 0; k < H; ++k) e += mem[j][k] * h[k];
            alpha[j] = scale * e;
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

}  // namespace plain

#endif
