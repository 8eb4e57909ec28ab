// sarnn/kernels/simd/weighted_sum.hpp: weighted_sum, c = Σ_j w_j S_j over stored rows (the additive align's
// context), and its pieces.
// Part of Simd<A, T> (kernels/simd/simd.hpp, which declares it and includes this file; include that one).
#ifndef SARNN_KERNELS_SIMD_WEIGHTED_SUM_HPP
#define SARNN_KERNELS_SIMD_WEIGHTED_SUM_HPP

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
                even[u] = madd(p0, load_a(row[k] + v + u * W), even[u]);
                odd[u] = madd(p1, load_a(row[k + 1] + v + u * W), odd[u]);
            }
        }
        if (k < count) {
            const B p0(p[k]);
            for (std::size_t u = 0; u < nv; ++u) even[u] = madd(p0, load_a(row[k] + v + u * W), even[u]);
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

// c[v0·W .. (v0 + NV)·W) = Σ_j w_j S_j over the same columns: the NV vectors of c in registers for the whole pass
// over the states (both segments of the ring), one broadcast of w_j and NV loads and FMAs per state. Fewer than 4
// vectors: two accumulators per vector, alternate states, so that the FMA chains overlap.
template <class A, class T>
template <std::size_t NV>
SARNN_INLINE void Simd<A, T>::weighted_columns(const T* w, const Rows<T>& S, std::size_t v0, T* c) {
    constexpr std::size_t Split = NV >= 4 ? 1 : 2;
    const std::size_t stride = S.stride;
    B acc[Split][NV];
    for (auto& part : acc)
        for (auto& a : part) a = B(T(0));
    const std::size_t in_first = S.cap - S.first < S.n ? S.cap - S.first : S.n;
    const T* const seg_base[2] = {S.base + S.first * stride + v0 * W, S.base + v0 * W};
    const std::size_t seg_n[2] = {in_first, S.n - in_first};
    const T* wj = w;
    for (std::size_t seg = 0; seg < 2; ++seg) {
        const T* row = seg_base[seg];
        std::size_t k = 0;
        // c += w_j S_j
        if constexpr (kWalkPointers || kLoadPairs) {
            // one pointer along the rows (ARMv7: VLD1 with writeback; AArch64: LDP with post-index)
            const auto skip = static_cast<std::ptrdiff_t>(stride) - static_cast<std::ptrdiff_t>(NV * W);
            for (; k + Split <= seg_n[seg]; k += Split, wj += Split) {
                SARNN_UNROLL(16)
                for (std::size_t t = 0; t < Split; ++t) add_row<NV>(B(wj[t]), row, skip, acc[t]);
            }
            for (; k < seg_n[seg]; ++k, ++wj) add_row<NV>(B(*wj), row, skip, acc[0]);
        }
        if constexpr (Split == 2) {
            for (; k + 2 <= seg_n[seg]; k += 2, wj += 2, row += 2 * stride) {
                const B p0(wj[0]), p1(wj[1]);
                for (std::size_t u = 0; u < NV; ++u) {
                    acc[0][u] = madd(p0, load_a(row + u * W), acc[0][u]);
                    acc[1][u] = madd(p1, load_a(row + stride + u * W), acc[1][u]);
                }
            }
        }
        for (; k < seg_n[seg]; ++k, ++wj, row += stride) {
            const B p(*wj);
            for (std::size_t u = 0; u < NV; ++u) acc[0][u] = madd(p, load_a(row + u * W), acc[0][u]);
        }
    }
    for (std::size_t u = 0; u < NV; ++u) {
        B sum = acc[0][u];
        for (std::size_t sp = 1; sp < Split; ++sp) sum += acc[sp][u];
        sum.store_aligned(c + (v0 + u) * W);
    }
}

// c = Σ_j w_j S_j, 8 vectors of c at a time (in registers; 8 fit the 16 vector registers of SSE2, AVX2 and
// ARMv7 NEON with room for the loads), 16 on the arches with 32 registers (AVX-512, AArch64: Hidden 64 on AArch64
// in one pass over the states rather than two, 2 instructions per state fewer), the last 1-7 in one more pass.
template <class A, class T>
void Simd<A, T>::weighted_sum(const T* w, const Rows<T>& S, T* c) {
    constexpr std::size_t CV = kRegisters >= 32 ? 16 : 8;
    const std::size_t nv = S.stride / W;
    std::size_t v = 0;
    for (; v + CV <= nv; v += CV) weighted_columns<CV>(w, S, v, c);
    if constexpr (CV > 8)
        for (; v + 8 <= nv; v += 8) weighted_columns<8>(w, S, v, c);
    if (v < nv) with_fixed_width(nv - v, [&](auto k) { weighted_columns<k()>(w, S, v, c); });
}

}  // namespace
}  // namespace sarnn::simd

#endif
