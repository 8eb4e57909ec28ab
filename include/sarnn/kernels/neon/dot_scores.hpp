// sarnn/kernels/neon/dot_scores.hpp: the dot scores e_j = scale·(S_j·q) of a run of stored states (rows of Stride
// values, Stride a multiple of 4 known at compile time), on NEON float32x4_t: four rows a pass, each row's Stride / 4
// vectors unrolled, one transposing sum per four rows; the last n % 4 rows by a block of 1 to 3 rows. AArch64: q's
// vectors loaded once, the rows walked by one pointer (a run's rows are contiguous), four vectors a load (LD1 of four
// registers); ARMv7: two vectors a load (VLD2, q's once per block of rows: 16 registers hold no more).
// The padding lanes of the rows and of q (past the values, up to Stride) are 0 (kernels.hpp's padding contract) and
// add nothing. Also the running max of the scores, for the softmax. Cost: n·Stride multiply-adds.
#ifndef SARNN_KERNELS_NEON_DOT_SCORES_HPP
#define SARNN_KERNELS_NEON_DOT_SCORES_HPP

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "sarnn/kernels/neon/math.hpp"
#include "sarnn/kernels/neon/ring.hpp"

namespace sarnn::kernel::neon {

#if defined(__aarch64__)
/// Lane k < NR: row_k·q for the NR <= 4 rows from p on (p then past them), q's Stride / 4 vectors in qv; lanes from
/// NR on: 0.
template <std::size_t NR, std::size_t Stride>
SARNN_NEON_INLINE F walk_dots(const float*& p, const F* qv) noexcept {
    constexpr std::size_t nv = Stride / 4;
    F acc[4] = {vdupq_n_f32(0.0f), vdupq_n_f32(0.0f), vdupq_n_f32(0.0f), vdupq_n_f32(0.0f)};
#pragma GCC unroll 4
    for (std::size_t k = 0; k < NR; ++k) {
        // acc_k = Σ_u row_k[4u..4u+4) ⊙ q[4u..4u+4)
        std::size_t u = 0;
#pragma GCC unroll 16
        for (; u + 4 <= nv; u += 4) {
            const float32x4x4_t a = vld1q_f32_x4(p);
            p += 16;
            F s = u == 0 ? vmulq_f32(a.val[0], qv[u]) : madd(a.val[0], qv[u], acc[k]);
            s = madd(a.val[1], qv[u + 1], s);
            s = madd(a.val[2], qv[u + 2], s);
            acc[k] = madd(a.val[3], qv[u + 3], s);
        }
        if constexpr (nv % 4 == 3) {
            const float32x4x3_t a = vld1q_f32_x3(p);
            p += 12;
            F s = nv < 4 ? vmulq_f32(a.val[0], qv[u]) : madd(a.val[0], qv[u], acc[k]);
            s = madd(a.val[1], qv[u + 1], s);
            acc[k] = madd(a.val[2], qv[u + 2], s);
        } else if constexpr (nv % 4 == 2) {
            const float32x4x2_t a = vld1q_f32_x2(p);
            p += 8;
            const F s = nv < 4 ? vmulq_f32(a.val[0], qv[u]) : madd(a.val[0], qv[u], acc[k]);
            acc[k] = madd(a.val[1], qv[u + 1], s);
        } else if constexpr (nv % 4 == 1) {
            const F a = vld1q_f32(p);
            p += 4;
            acc[k] = nv < 4 ? vmulq_f32(a, qv[u]) : madd(a, qv[u], acc[k]);
        }
    }
    return row_sums(acc[0], acc[1], acc[2], acc[3]);
}
#else
/// Lane k < NR: row_k·q for the NR <= 4 rows from p on (p then past them); lanes from NR on: 0. ARMv7: two vectors
/// of q and of each row a load (VLD2: de-interleaved, the same for both, so the products pair up as in order),
/// q's loaded once per block, each row walked by its own pointer.
template <std::size_t NR, std::size_t Stride>
SARNN_NEON_INLINE F walk_dots(const float*& p, const float* q) noexcept {
    constexpr std::size_t nv = Stride / 4;
    F acc[4] = {vdupq_n_f32(0.0f), vdupq_n_f32(0.0f), vdupq_n_f32(0.0f), vdupq_n_f32(0.0f)};
    const float* rp[4] = {p, p + Stride, p + 2 * Stride, p + 3 * Stride};
    std::size_t u = 0;
    // acc_k += row_k[4u..4u+8) ⊙ q[4u..4u+8), both de-interleaved alike
#pragma GCC unroll 16
    for (; u + 2 <= nv; u += 2) {
        const float32x4x2_t qq = load2_next(q);
#pragma GCC unroll 4
        for (std::size_t k = 0; k < NR; ++k) {
            const float32x4x2_t a = load2_next(rp[k]);
            acc[k] = madd(a.val[1], qq.val[1], madd(a.val[0], qq.val[0], acc[k]));
        }
    }
    if constexpr (nv % 2 != 0) {
        const F qu = vld1q_f32(q);
#pragma GCC unroll 4
        for (std::size_t k = 0; k < NR; ++k) acc[k] = madd(vld1q_f32(rp[k]), qu, acc[k]);
    }
    p += NR * Stride;
    return row_sums(acc[0], acc[1], acc[2], acc[3]);
}
#endif

/// Lanes 0..NR-1 of v, -inf in the others (for the max of a block of NR < 4 scores).
template <std::size_t NR>
SARNN_NEON_INLINE F keep_lanes(F v) noexcept {
    constexpr std::uint64_t ones = ~std::uint64_t{0};
    constexpr std::uint64_t lo = NR == 1 ? ones >> 32 : ones;  // lanes 0, 1
    constexpr std::uint64_t hi = NR == 3 ? ones >> 32 : 0;     // lanes 2, 3
    const uint32x4_t mask = vcombine_u32(vcreate_u32(lo), vcreate_u32(hi));
    return vbslq_f32(mask, v, vdupq_n_f32(-__builtin_inff()));
}

/// e[0..n) = scale·(row_j·q) for the n rows row_j = rows + j·Stride; q a padded row of Stride values. Returns
/// max(mv, the scores) lane by lane.
template <std::size_t Stride>
SARNN_NEON_INLINE F dot_scores(const float* rows, std::size_t n, const float* q, F scale, float* e, F mv) noexcept {
    static_assert(Stride >= 4 && Stride % 4 == 0, "sarnn: dot_scores<Stride>: rows of whole vectors");
    std::size_t j = 0;
#if defined(__aarch64__)
    F qv[Stride / 4];
    for (std::size_t u = 0; u < Stride / 4; ++u) qv[u] = vld1q_f32(q + 4 * u);
    const float* p = rows;
    // e[j..j+4) = scale·(row_j..j+3 · q)
    for (; j + 4 <= n; j += 4) {
        const F s = vmulq_f32(walk_dots<4, Stride>(p, qv), scale);
        mv = vmaxq_f32(mv, s);
        vst1q_f32(e + j, s);
    }
    const auto last = [&](auto nr) SARNN_NEON_LAMBDA {
        const F s = vmulq_f32(walk_dots<nr(), Stride>(p, qv), scale);
        mv = vmaxq_f32(mv, keep_lanes<nr()>(s));
        store_part<nr()>(e + j, s);
    };
#else
    const float* p = rows;
    for (; j + 4 <= n; j += 4) {
        const F s = vmulq_f32(walk_dots<4, Stride>(p, q), scale);
        mv = vmaxq_f32(mv, s);
        vst1q_f32(e + j, s);
    }
    const auto last = [&](auto nr) SARNN_NEON_LAMBDA {
        const F s = vmulq_f32(walk_dots<nr(), Stride>(p, q), scale);
        mv = vmaxq_f32(mv, keep_lanes<nr()>(s));
        store_part<nr()>(e + j, s);
    };
#endif
    // the last 1 to 3 rows
    switch (n - j) {
    case 1: last(std::integral_constant<std::size_t, 1>{}); break;
    case 2: last(std::integral_constant<std::size_t, 2>{}); break;
    case 3: last(std::integral_constant<std::size_t, 3>{}); break;
    default: break;
    }
    return mv;
}

}  // namespace sarnn::kernel::neon

#endif
