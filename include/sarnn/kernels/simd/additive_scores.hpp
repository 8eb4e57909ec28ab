// sarnn/kernels/simd/additive_scores.hpp: additive_scores, e_j = v·tanh(P_j + q) for every cached key row P_j
// (AdditiveAlign and the LSTMN).
// Part of Simd<A, T> (kernels/simd/simd.hpp, which declares it and includes this file; include that one).
#ifndef SARNN_KERNELS_SIMD_ADDITIVE_SCORES_HPP
#define SARNN_KERNELS_SIMD_ADDITIVE_SCORES_HPP

namespace sarnn::simd {
namespace {  // NOLINT(cert-dcl59-cpp): the set's internal linkage, as in simd.hpp

template <class A, class T>
void Simd<A, T>::additive_scores(const Rows<T>& P, const T* q, const T* v, T* e) {
    const std::size_t K = P.dim, stride = P.stride, full = K / W * W;
    // v as whole vectors: its last partial vector through a zero-padded copy (v itself may end at K)
    alignas(A::alignment()) T v_tail[W] = {};
    for (std::size_t k = full; k < K; ++k) v_tail[k - full] = v[k];
    for (std::size_t j0 = 0; j0 < P.n; j0 += W) {
        const std::size_t count = P.n - j0 < W ? P.n - j0 : W;
        const T* row[W];
        for (std::size_t k = 0; k < W; ++k) row[k] = P.row(j0 + (k < count ? k : count - 1));
        B acc[W];
        for (auto& a : acc) a = B(T(0));
        for (std::size_t o = 0; o < stride && o < K; o += W) {
            const B vv = o < full ? load(v + o) : load_a(v_tail);
            const B qv = load_a(q + o);
            // e_j += v·tanh(P_j + q), W states at once
            for (std::size_t k = 0; k < W; ++k) acc[k] = madd(vv, tanh_safe(load_a(row[k] + o) + qv), acc[k]);
        }
        store_rows(row_sums(acc), e + j0, count);
    }
}

}  // namespace
}  // namespace sarnn::simd

#endif
