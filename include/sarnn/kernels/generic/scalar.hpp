// sarnn/kernels/generic/scalar.hpp: the kernel set in plain C++. No xsimd, no intrinsics: this is what runs on
// Cortex-M (where xsimd has no arch) and the path every SIMD set is tested against.
// Contracts: the operations listed in include/sarnn/kernels.hpp.
#ifndef SARNN_KERNELS_GENERIC_SCALAR_HPP
#define SARNN_KERNELS_GENERIC_SCALAR_HPP

#include <cmath>
#include <cstddef>
#include <limits>

#include "sarnn/kernels.hpp"

namespace sarnn::scalar {

template <class T>
T dot(const T* a, const T* b, std::size_t n) {
    T s = T(0);
    for (std::size_t k = 0; k < n; ++k) s += a[k] * b[k];
    return s;
}

template <class T>
void gemv(const T* M, std::size_t rows, std::size_t cols, std::size_t ld, const T* v, T* y) {
    // y = M·v
    for (std::size_t r = 0; r < rows; ++r) y[r] = dot(M + r * ld, v, cols);
}

template <class T>
void gemv_add(const T* M, std::size_t rows, std::size_t cols, std::size_t ld, const T* v, T* y) {
    // y += M·v
    for (std::size_t r = 0; r < rows; ++r) y[r] += dot(M + r * ld, v, cols);
}

template <class T>
void gemv_t(const T* M, std::size_t rows, std::size_t cols, std::size_t ld, const T* v, T* y) {
    for (std::size_t d = 0; d < cols; ++d) y[d] = T(0);
    for (std::size_t r = 0; r < rows; ++r)
        // y += v_r M_r
        for (std::size_t d = 0; d < cols; ++d) y[d] += v[r] * M[r * ld + d];
}

template <class T>
void affine_tanh(const T* A, const T* b, std::size_t rows, const T* x, std::size_t nx, const T* r, std::size_t nr,
                 T* y) {
    const std::size_t ld = nx + nr;
    for (std::size_t i = 0; i < rows; ++i) {
        const T* a = A + i * ld;
        // y_i = tanh(A_i·[x; r] + b_i)
        y[i] = std::tanh(dot(a, x, nx) + dot(a + nx, r, nr) + b[i]);
    }
}

template <class T>
void tanh_map(T* y, std::size_t n) {
    for (std::size_t k = 0; k < n; ++k) y[k] = std::tanh(y[k]);
}

template <class T>
void exp_map(T* y, std::size_t n) {
    for (std::size_t k = 0; k < n; ++k) y[k] = std::exp(y[k]);
}

template <class T>
void softmax(T* y, std::size_t n) {
    T m = y[0];
    for (std::size_t k = 1; k < n; ++k) m = y[k] > m ? y[k] : m;
    T l = T(0);
    // y_k = exp(y_k - max) / Σ exp(y_j - max)
    for (std::size_t k = 0; k < n; ++k) l += (y[k] = std::exp(y[k] - m));
    const T inv = T(1) / l;
    for (std::size_t k = 0; k < n; ++k) y[k] *= inv;
}

template <class T>
void weighted_sum(const T* w, const Rows<T>& S, T* c) {
    for (std::size_t d = 0; d < S.dim; ++d) c[d] = T(0);
    for (std::size_t j = 0; j < S.n; ++j) {
        const T* s = S.row(j);
        // c += w_j S_j
        for (std::size_t d = 0; d < S.dim; ++d) c[d] += w[j] * s[d];
    }
}

template <class T>
void additive_scores(const Rows<T>& P, const T* q, const T* v, T* e) {
    for (std::size_t j = 0; j < P.n; ++j) {
        const T* p = P.row(j);
        T s = T(0);
        // e_j = v·tanh(P_j + q)
        for (std::size_t k = 0; k < P.dim; ++k) s += v[k] * std::tanh(p[k] + q[k]);
        e[j] = s;
    }
}

template <class T>
T sigmoid(T x) {
    return T(1) / (T(1) + std::exp(-x));
}

template <class T>
void lstm_cell(const T* z, const T* b, const T* c_prev, std::size_t H, T* c, T* h) {
    for (std::size_t d = 0; d < H; ++d) {
        const T i = sigmoid(z[d] + b[d]);
        const T f = sigmoid(z[H + d] + b[H + d]);
        const T g = std::tanh(z[2 * H + d] + b[2 * H + d]);
        const T o = sigmoid(z[3 * H + d] + b[3 * H + d]);
        // c = f ⊙ c_prev + i ⊙ g; h = o ⊙ tanh(c)
        c[d] = f * c_prev[d] + i * g;
        h[d] = o * std::tanh(c[d]);
    }
}

template <class T>
void gru_cell(const T* gi, const T* gh, const T* b_ih, const T* b_hh, const T* h_prev, std::size_t H, T* h) {
    for (std::size_t d = 0; d < H; ++d) {
        const T r = sigmoid(gi[d] + b_ih[d] + (gh[d] + b_hh[d]));
        const T z = sigmoid(gi[H + d] + b_ih[H + d] + (gh[H + d] + b_hh[H + d]));
        const T n = std::tanh(gi[2 * H + d] + b_ih[2 * H + d] + r * (gh[2 * H + d] + b_hh[2 * H + d]));
        // h = (1 - z) ⊙ n + z ⊙ h_prev = n + z ⊙ (h_prev - n)
        h[d] = n + z * (h_prev[d] - n);
    }
}

// The context over the rows of S with scores e_j = score(j), in one pass with an online softmax: m is the running
// max, l the running Σ exp(e_j - m), c unnormalised until the end.
template <class T, class Score>
void attend_scored(const Rows<T>& S, Score score, T* alpha, T* c) {
    T m = -std::numeric_limits<T>::infinity();
    T l = T(0);
    for (std::size_t d = 0; d < S.dim; ++d) c[d] = T(0);
    for (std::size_t j = 0; j < S.n; ++j) {
        const T* s = S.row(j);
        const T e = score(j);
        alpha[j] = e;
        if (e > m) {
            const T shrink = std::exp(m - e);
            l *= shrink;
            for (std::size_t d = 0; d < S.dim; ++d) c[d] *= shrink;
            m = e;
        }
        const T p = std::exp(e - m);
        l += p;
        // c += exp(e_j - m) S_j
        for (std::size_t d = 0; d < S.dim; ++d) c[d] += p * s[d];
    }
    const T inv = T(1) / l;
    for (std::size_t d = 0; d < S.dim; ++d) c[d] *= inv;
    // alpha_j = exp(e_j - m) / l
    for (std::size_t j = 0; j < S.n; ++j) alpha[j] = std::exp(alpha[j] - m) * inv;
}

template <class T>
void attend_dot(const Rows<T>& S, const T* q, T scale, T* alpha, T* c) {
    // e_j = scale·(S_j·q)
    attend_scored(
        S, [&](std::size_t j) { return scale * dot(S.row(j), q, S.dim); }, alpha, c);
}

template <class T>
void attend_keys(const KeyBlocks<T>& P, const T* u, const Rows<T>& S, T* alpha, T* c) {
    attend_scored(
        S,
        [&](std::size_t j) {
            const T* key = P.key(j);
            T s = T(0);
            // e_j = P_j·u (the key's values KeyBlocks<T>::L apart)
            for (std::size_t k = 0; k < P.dim; ++k) s += key[k * KeyBlocks<T>::L] * u[k];
            return s;
        },
        alpha, c);
}

// The operations as one type (what kernels/generic/define_set.hpp forwards to): Plain<T>::op = scalar::op<T>.
template <class T>
struct Plain {
#define SARNN_PLAIN_OP_(T_, R, name, impl, params, args) \
    static R impl params { return scalar::impl args; }
    SARNN_LOOP_OPS(SARNN_PLAIN_OP_, T)
    SARNN_SET_OPS(SARNN_PLAIN_OP_, T)
#undef SARNN_PLAIN_OP_
};

}  // namespace sarnn::scalar

#endif
