// lib/kernels/simd/weighted_sum.hpp: weighted_sum, c = Σ_j w_j S_j over stored rows (the additive align's
// context), and its pieces.
// Part of Simd<A, T> (lib/kernels/simd.hpp, which declares it and includes this file; include that one).
#ifndef SARNN_LIB_KERNELS_SIMD_WEIGHTED_SUM_HPP
#define SARNN_LIB_KERNELS_SIMD_WEIGHTED_SUM_HPP

namespace sarnn::simd {
namespace {  // NOLINT(cert-dcl59-cpp): the set's internal linkage, as in simd.hpp

// c[0..stride) += Σ_k p[k] row[k], k < count, in chunks of 4 vectors with two accumulators per vector
// so that the FMA chains overlap.
template <class A, class T>
inline void Simd<A, T>::accumulate(const T* const* row, const T* p, std::size_t count, std::size_t stride, T* c) {
    constexpr std::size_t U = 4;
    for (std::size_t v = 0; v < stride; v += U * W) {
        const std::size_t nv = (stride - v) / W < U ? (stride - v) / W : U;
        B even[U], odd[U];
        for (std::size_t u = 0; u < U; ++u) {
            even[u] = u < nv ? load_a(c + v + u * W) : B(T(0));
            odd[u] = B(T(0));
        }
        std::size_t k = 0;
        for (; k + 2 <= count; k += 2) {
            const B p0(p[k]), p1(p[k + 1]);
            for (std::size_t u = 0; u < nv; ++u) {
                even[u] = xsimd::fma(p0, load_a(row[k] + v + u * W), even[u]);
                odd[u] = xsimd::fma(p1, load_a(row[k + 1] + v + u * W), odd[u]);
            }
        }
        if (k < count) {
            const B p0(p[k]);
            for (std::size_t u = 0; u < nv; ++u) even[u] = xsimd::fma(p0, load_a(row[k] + v + u * W), even[u]);
        }
        for (std::size_t u = 0; u < nv; ++u) (even[u] + odd[u]).store_aligned(c + v + u * W);
    }
}

template <class A, class T>
inline void Simd<A, T>::zero(T* c, std::size_t stride) {
    for (std::size_t v = 0; v < stride; v += W) B(T(0)).store_aligned(c + v);
}

template <class A, class T>
inline void Simd<A, T>::scale_row(T* c, std::size_t stride, T f) {
    const B fv(f);
    for (std::size_t v = 0; v < stride; v += W) (load_a(c + v) * fv).store_aligned(c + v);
}

template <class A, class T>
void Simd<A, T>::weighted_sum(const T* w, const Rows<T>& S, T* c) {
    const std::size_t stride = S.stride;
    zero(c, stride);
    for (std::size_t j0 = 0; j0 < S.n; j0 += W) {
        const std::size_t count = S.n - j0 < W ? S.n - j0 : W;
        const T* row[W];
        for (std::size_t k = 0; k < count; ++k) row[k] = S.row(j0 + k);
        // c += Σ_j w_j S_j
        accumulate(row, w + j0, count, stride, c);
    }
}

}  // namespace
}  // namespace sarnn::simd

#endif
