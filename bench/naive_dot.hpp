// bench/naive_dot.hpp: the self-attention RNN written the way a user would write it without sarnn: the formulas
// as plain loops over fixed-size arrays, float throughout, std::tanh / std::exp from libm, a two-pass softmax
// that subtracts the max. No sarnn code, no intrinsics, no tricks: whatever the compiler makes of it at
// -O3 -march=native is what the user gets (the dot products are reductions, so without -ffast-math GCC
// keeps them serial; the weighted sum is vectorised).
//
//   h_i = tanh(A·[x_i; c_{i-1}] + b),  c_0 = 0
//   e_ij = h_j·h_i  (times 1/sqrt(Hidden) when Scaled)
//   alpha_ij = softmax_j(e_ij),  c_i = Σ_j alpha_ij h_j
//
// The object is large (Capacity x Hidden floats): allocate it once, outside any timed region. Nothing in
// step() or attend() touches the heap.
#ifndef SARNN_BENCH_NAIVE_DOT_HPP
#define SARNN_BENCH_NAIVE_DOT_HPP

#include <cmath>
#include <cstddef>

namespace sarnn_bench {

template <std::size_t In, std::size_t Hidden, std::size_t Capacity, bool Scaled>
class NaiveSarnn {
public:
    /// A is Hidden x (In + Hidden) row-major, b has Hidden values; both are copied (the user owns them).
    /// With window < Capacity the context attends over the newest `window` states only (the reference of
    /// the Window memory: no ring, the whole history stays in memory; attention() is then the weights of
    /// those states, oldest first).
    NaiveSarnn(const float* A, const float* b, std::size_t window = Capacity) : window_(window) {
        for (std::size_t i = 0; i < Hidden; ++i) {
            for (std::size_t k = 0; k < In + Hidden; ++k) A_[i][k] = A[i * (In + Hidden) + k];
            b_[i] = b[i];
        }
        for (auto& row : mem_)
            for (float& v : row) v = 0.0f;
        for (float& v : alpha_) v = 0.0f;
        reset();
    }

    void reset() {
        for (float& v : c_) v = 0.0f;
        len_ = 0;
    }

    /// One step: h_i into the memory, then the context over h_1..h_i. Capacity is the caller's business.
    void step(const float* x) {
        float* h = mem_[len_];
        // h = tanh(A·[x; c] + b)
        for (std::size_t i = 0; i < Hidden; ++i) {
            float acc = b_[i];
            for (std::size_t k = 0; k < In; ++k) acc += A_[i][k] * x[k];
            for (std::size_t k = 0; k < Hidden; ++k) acc += A_[i][In + k] * c_[k];
            h[i] = std::tanh(acc);
        }
        ++len_;
        attend();
    }

    /// The context alone over the len_ stored states, the last one as the query.
    void attend() {
        const std::size_t n = len_ < window_ ? len_ : window_;
        const float(*m)[Hidden] = mem_ + (len_ - n);  // the n states attended
        const float* q = mem_[len_ - 1];
        // e_j = h_j·q (scaled), and their max
        float mx = -INFINITY;
        for (std::size_t j = 0; j < n; ++j) {
            float s = 0.0f;
            for (std::size_t i = 0; i < Hidden; ++i) s += m[j][i] * q[i];
            if (Scaled) s *= kScale;
            alpha_[j] = s;
            if (s > mx) mx = s;
        }
        // alpha_j = exp(e_j - max) / Σ
        float sum = 0.0f;
        for (std::size_t j = 0; j < n; ++j) {
            alpha_[j] = std::exp(alpha_[j] - mx);
            sum += alpha_[j];
        }
        for (std::size_t j = 0; j < n; ++j) alpha_[j] /= sum;
        // c = Σ_j alpha_j h_j
        for (std::size_t i = 0; i < Hidden; ++i) c_[i] = 0.0f;
        for (std::size_t j = 0; j < n; ++j)
            for (std::size_t i = 0; i < Hidden; ++i) c_[i] += alpha_[j] * m[j][i];
    }

    // Access for the benchmark harness (prefilling the memory) and the agreement check.
    void store(std::size_t j, const float* h) {
        for (std::size_t i = 0; i < Hidden; ++i) mem_[j][i] = h[i];
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
    static inline const float kScale = 1.0f / std::sqrt(static_cast<float>(Hidden));

    float A_[Hidden][In + Hidden];
    float b_[Hidden];
    float mem_[Capacity][Hidden];
    float c_[Hidden];
    float alpha_[Capacity];
    std::size_t window_;
    std::size_t len_ = 0;
};

}  // namespace sarnn_bench

#endif
