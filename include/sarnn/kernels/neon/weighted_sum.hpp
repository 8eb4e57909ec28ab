// sarnn/kernels/neon/weighted_sum.hpp: c = f·Σ_j w_j S_j over the stored states (the two runs of kernels/neon/ring.hpp,
// rows of Stride values, Dim of them valid), Dim and Stride known at compile time, on NEON float32x4_t. The vectors of
// c are held in registers in groups (at most 16 on AArch64, 12 on ARMv7: the registers left beside the loads), as even
// as the register count allows, each group one pass over the states: four weights per load, each taken by lane
// (AArch64: FMLA by element; ARMv7: VMLA by scalar), every vector of a row unrolled (AArch64: four vectors per LD1,
// ARMv7: two per VLD2, de-interleaved, interleaved back once at the end); groups of fewer than 4 vectors keep two
// accumulators per vector (even and odd states), so that the multiply-add chains overlap. The last n % 4 states of a
// run by one weight each. With Scale (the context's normalisation 1 / Σ p): the first group's pass also writes w_j·f
// back to w. c receives its Dim values (the last vector's lanes past Dim are not written). Cost: n·Stride
// multiply-adds.
#ifndef SARNN_KERNELS_NEON_WEIGHTED_SUM_HPP
#define SARNN_KERNELS_NEON_WEIGHTED_SUM_HPP

#include <cstddef>

#include "sarnn/kernels/neon/math.hpp"
#include "sarnn/kernels/neon/ring.hpp"

namespace sarnn::kernel::neon {

/// a + b·w[L] (w's lane L): AArch64 FMLA by element; ARMv7 with the fused unit a broadcast and VFMA; else VMLA by
/// scalar (rounded twice, as madd there).
template <int L>
SARNN_NEON_INLINE F madd_lane(F b, F w, F a) noexcept {
#if defined(__aarch64__)
    return vfmaq_laneq_f32(a, b, w, L);
#elif defined(__ARM_FEATURE_FMA)
    return vfmaq_f32(a, b, vdupq_n_f32(vgetq_lane_f32(w, L)));
#else
    return vmlaq_lane_f32(a, b, L < 2 ? vget_low_f32(w) : vget_high_f32(w), L % 2);
#endif
}

/// acc[u] += w[L]·row[4u..4u+4) for u < G, the row at p (p then Stride values on).
template <int L, std::size_t G, std::size_t Stride>
SARNN_NEON_INLINE void add_row(const float*& p, F w, F* acc) noexcept {
#if defined(__aarch64__)
    std::size_t u = 0;
#pragma GCC unroll 16
    for (; u + 4 <= G; u += 4) {
        const float32x4x4_t v = vld1q_f32_x4(p + 4 * u);
        acc[u] = madd_lane<L>(v.val[0], w, acc[u]);
        acc[u + 1] = madd_lane<L>(v.val[1], w, acc[u + 1]);
        acc[u + 2] = madd_lane<L>(v.val[2], w, acc[u + 2]);
        acc[u + 3] = madd_lane<L>(v.val[3], w, acc[u + 3]);
    }
    if constexpr (G % 4 == 3) {
        const float32x4x3_t v = vld1q_f32_x3(p + 4 * u);
        acc[u] = madd_lane<L>(v.val[0], w, acc[u]);
        acc[u + 1] = madd_lane<L>(v.val[1], w, acc[u + 1]);
        acc[u + 2] = madd_lane<L>(v.val[2], w, acc[u + 2]);
    } else if constexpr (G % 4 == 2) {
        const float32x4x2_t v = vld1q_f32_x2(p + 4 * u);
        acc[u] = madd_lane<L>(v.val[0], w, acc[u]);
        acc[u + 1] = madd_lane<L>(v.val[1], w, acc[u + 1]);
    } else if constexpr (G % 4 == 1) {
        acc[u] = madd_lane<L>(vld1q_f32(p + 4 * u), w, acc[u]);
    }
    p += Stride;
#else
    // two vectors a load (VLD2): acc[u], acc[u + 1] hold c's 8 values from 4u de-interleaved (weighted_group's store
    // interleaves them back)
    const float* r = p;
    std::size_t u = 0;
#pragma GCC unroll 16
    for (; u + 2 <= G; u += 2) {
        const float32x4x2_t v = load2_next(r);
        acc[u] = madd_lane<L>(v.val[0], w, acc[u]);
        acc[u + 1] = madd_lane<L>(v.val[1], w, acc[u + 1]);
    }
    if constexpr (G % 2 != 0) acc[u] = madd_lane<L>(vld1q_f32(r), w, acc[u]);
    p += Stride;
#endif
}

/// c's vectors U0..U0+G = f·Σ_j w_j S_j over both runs, in registers for the whole pass; with Scale, w_j = w_j·f too.
template <std::size_t Dim, std::size_t Stride, std::size_t Cap, std::size_t U0, std::size_t G, bool Scale, class W>
SARNN_NEON_INLINE void weighted_group(W* w, const RingRuns<Stride, Cap>& runs, float f, float* c) noexcept {
    constexpr std::size_t Split = G < 4 ? 2 : 1;
    F acc[Split][G];
#pragma GCC unroll 16
    for (std::size_t u = 0; u < G; ++u) {
        acc[0][u] = vdupq_n_f32(0.0f);
        acc[Split - 1][u] = vdupq_n_f32(0.0f);
    }
    const F fv = vdupq_n_f32(f);
    W* wj = w;
#pragma GCC unroll 1
    for (std::size_t run = 0; run < 2; ++run) {
        const std::size_t n = runs.n[run];
        const float* p = runs.base[run] + 4 * U0;
        std::size_t j = 0;
        // four states a pass, their weights in one vector
        for (; j + 4 <= n; j += 4, wj += 4) {
            const F wv = vld1q_f32(wj);
            if constexpr (Scale) vst1q_f32(wj, vmulq_f32(wv, fv));
            add_row<0, G, Stride>(p, wv, acc[0]);
            add_row<1, G, Stride>(p, wv, acc[Split - 1]);
            add_row<2, G, Stride>(p, wv, acc[0]);
            add_row<3, G, Stride>(p, wv, acc[Split - 1]);
        }
        // the last 1 to 3 states of the run
        for (; j < n; ++j, ++wj) {
            const F wv = vdupq_n_f32(*wj);
            if constexpr (Scale) *wj *= f;
            add_row<0, G, Stride>(p, wv, acc[0]);
        }
    }
    // c[4u..4u+4) = f·acc_u
    F out[G];
#pragma GCC unroll 16
    for (std::size_t u = 0; u < G; ++u)
        out[u] = vmulq_f32(Split == 2 ? vaddq_f32(acc[0][u], acc[Split - 1][u]) : acc[0][u], fv);
#if !defined(__aarch64__)
        // ARMv7: the pairs back in order (add_row)
#pragma GCC unroll 16
    for (std::size_t u = 0; u + 2 <= G; u += 2) {
        const float32x4x2_t z = vzipq_f32(out[u], out[u + 1]);
        out[u] = z.val[0];
        out[u + 1] = z.val[1];
    }
#endif
    constexpr std::size_t dl = Dim / 4 * 4;  // c's values in whole vectors
#pragma GCC unroll 16
    for (std::size_t u = 0; u < G; ++u) {
        const F sum = out[u];
        const std::size_t d = 4 * (U0 + u);
        if (d + 4 <= Dim)
            vst1q_f32(c + d, sum);
        else if constexpr (Dim % 4 != 0)
            if (d == dl) store_part<Dim % 4>(c + d, sum);  // the vector that ends past Dim: its Dim % 4 lanes
    }
}

/// c = f·Σ_j w_j S_j for the vectors U0.. of c: as few groups as the register budget allows, of even sizes.
template <std::size_t Dim, std::size_t Stride, std::size_t Cap, bool Scale, std::size_t U0 = 0, class W>
SARNN_NEON_INLINE void weighted_columns(W* w, const RingRuns<Stride, Cap>& runs, float f, float* c) noexcept {
#if defined(__aarch64__)
    constexpr std::size_t kMaxGroup = 16;
#else
    constexpr std::size_t kMaxGroup = 12;
#endif
    constexpr std::size_t left = Stride / 4 - U0;  // vectors still to do
    constexpr std::size_t passes = (left + kMaxGroup - 1) / kMaxGroup;
    constexpr std::size_t G = (left + passes - 1) / passes;  // this group's vectors
    weighted_group<Dim, Stride, Cap, U0, G, Scale && U0 == 0>(w, runs, f, c);
    // with Scale, the first group has written w_j·f back: the others take those weights as they are
    if constexpr (U0 + G < Stride / 4) weighted_columns<Dim, Stride, Cap, Scale, U0 + G>(w, runs, Scale ? 1.0f : f, c);
}

/// c[0..Dim) = Σ_j w_j S_j over S's n >= 1 rows (S.stride == Stride, S.cap == Cap); w has S.n values in logical order.
template <std::size_t Dim, std::size_t Stride, std::size_t Cap>
SARNN_NEON_INLINE void weighted_sum_rows(const float* w, const Rows<float>& S, float* c) noexcept {
    static_assert(Dim >= 1 && Stride % 4 == 0 && Dim <= Stride && Stride - Dim < 4,
                  "sarnn: weighted_sum<Dim, Stride, Cap>: Stride is Dim padded to whole vectors");
    weighted_columns<Dim, Stride, Cap, false>(w, RingRuns<Stride, Cap>(S), 1.0f, c);
}

/// c[0..Dim) = f·Σ_j p_j S_j and p_j = f·p_j (the context's normalisation, f = 1 / Σ p), S as weighted_sum_rows.
template <std::size_t Dim, std::size_t Stride, std::size_t Cap>
SARNN_NEON_INLINE void weighted_sum_scaled(float* p, const RingRuns<Stride, Cap>& runs, float f, float* c) noexcept {
    static_assert(Dim >= 1 && Stride % 4 == 0 && Dim <= Stride && Stride - Dim < 4,
                  "sarnn: weighted_sum<Dim, Stride, Cap>: Stride is Dim padded to whole vectors");
    weighted_columns<Dim, Stride, Cap, true>(p, runs, f, c);
}

}  // namespace sarnn::kernel::neon

#endif
