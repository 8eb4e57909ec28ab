// sarnn/kernels/simd/softmax.hpp: tanh, exp, max and softmax over a vector (the tail through a padded temporary).
// Part of Simd<A, T> (kernels/simd/simd.hpp, which declares it and includes this file; include that one).
#ifndef SARNN_KERNELS_SIMD_SOFTMAX_HPP
#define SARNN_KERNELS_SIMD_SOFTMAX_HPP

namespace sarnn::simd {
namespace {  // NOLINT(cert-dcl59-cpp): the set's internal linkage, as in simd.hpp

// max(t[0..N)) as a tree (depth log2 N, not a chain of N - 1 dependent compares). NaN-free input.
template <class A, class T>
template <std::size_t N>
SARNN_INLINE T Simd<A, T>::lane_max(const T* t) {
    if constexpr (N == 1) {
        return t[0];
    } else {
        const T a = lane_max<N / 2>(t), b = lane_max<N - N / 2>(t + N / 2);
        return a > b ? a : b;
    }
}

// y = f(y) for whole vectors, the tail through a padded temporary.
template <class A, class T>
template <class F>
inline void Simd<A, T>::map(T* y, std::size_t n, F f) {
    std::size_t k = 0;
    for (; k + W <= n; k += W) f(load(y + k)).store_unaligned(y + k);
    if (k < n) {
        alignas(A::alignment()) T tmp[W] = {};
        for (std::size_t t = 0; k + t < n; ++t) tmp[t] = y[k + t];
        const B out = f(load_a(tmp));
        out.store_aligned(tmp);
        for (std::size_t t = 0; k + t < n; ++t) y[k + t] = tmp[t];
    }
}

template <class A, class T>
void Simd<A, T>::tanh_map(T* y, std::size_t n) {
    map(y, n, [](B v) { return tanh_safe(v); });
}

template <class A, class T>
void Simd<A, T>::exp_map(T* y, std::size_t n) {
    map(y, n, [](B v) { return exp_safe(v); });
}

template <class A, class T>
inline T Simd<A, T>::max_of(const T* y, std::size_t n) {
    T m = y[0];
    std::size_t k = 0;
    if (n >= W) {
        B mv = load(y);
        for (k = W; k + W <= n; k += W) mv = xsimd::max(mv, load(y + k));
        alignas(A::alignment()) T tmp[W];
        mv.store_aligned(tmp);
        const T vm = lane_max<W>(tmp);
        m = vm > m ? vm : m;
    }
    for (; k < n; ++k) m = y[k] > m ? y[k] : m;
    return m;
}

template <class A, class T>
void Simd<A, T>::softmax(T* y, std::size_t n) {
    const B m(max_of(y, n));
    // y_k = exp(y_k - max) (only the n valid values: the tail goes through map's temporary)
    map(y, n, [m](B v) { return exp_safe(v - m); });
    T l = T(0);
    std::size_t k = 0;
    B lv(T(0));
    for (; k + W <= n; k += W) lv += load(y + k);
    l = xsimd::hadd(lv);
    for (; k < n; ++k) l += y[k];
    const B inv(T(1) / l);
    // y_k /= Σ_j y_j
    map(y, n, [inv](B v) { return v * inv; });
}

}  // namespace
}  // namespace sarnn::simd

#endif
