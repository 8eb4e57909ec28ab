// sarnn/kernels/neon/gemv.hpp: y = M·v and y += M·v with the shape known at compile time (M: Rows x Cols, row-major,
// leading dimension Ld), on NEON float32x4_t. Four rows at a time, each row's whole vectors unrolled, the columns
// past the last whole vector by one more vector load ending at the row's end against a masked v (Cols >= 4), or by
// a de-interleaving load of four rows (vld2q / vld3q: Cols 1 to 3), the rows past the last group of four by a group
// of Rows % 4: no loop whose count is read at run time, no scalar loop per element.
// AArch64 loads four vectors of a row at once (LD1 of four registers); ARMv7 walks one pointer per row (VLD1 with
// writeback: VLD1 takes no offset). Cost: Rows·Cols multiply-adds (and up to 3 more per row for the column tail).
// Reads exactly M's Rows rows of Cols values and v's Cols values; writes exactly y[0..Rows).
#ifndef SARNN_KERNELS_NEON_GEMV_HPP
#define SARNN_KERNELS_NEON_GEMV_HPP

#include <cstddef>
#include <cstdint>

#include "sarnn/kernels/neon/math.hpp"

namespace sarnn::kernel::neon {

/// v's last vector for a row of Cols values, Cols % 4 != 0: v[Cols - 4 .. Cols) with its lanes before the tail
/// (those of the last whole vector, already counted) zeroed.
template <std::size_t Cols>
SARNN_NEON_INLINE F masked_tail(const float* v) noexcept {
    constexpr std::size_t t = Cols % 4;  // 1, 2 or 3 values past the last whole vector
    static_assert(Cols > 4 && t != 0, "sarnn: masked_tail: for rows past a whole vector only");
    constexpr std::uint64_t ones = ~std::uint64_t{0};
    constexpr std::uint64_t lo = t == 3 ? ones << 32 : 0;     // lanes 0, 1
    constexpr std::uint64_t hi = t == 1 ? ones << 32 : ones;  // lanes 2, 3
    const uint32x4_t mask = vcombine_u32(vcreate_u32(lo), vcreate_u32(hi));
    return vreinterpretq_f32_u32(vandq_u32(vreinterpretq_u32_f32(vld1q_f32(v + Cols - 4)), mask));
}

/// acc[k] (First: =, else +=) row_k[0..Cols)·v lane by lane (a vector whose lanes sum to the product), for the
/// NR <= 4 rows row_k = first + k·Ld. tail is masked_tail<Cols>(v) when Cols > 4 is not a multiple of 4 (unused
/// otherwise). acc[k], k >= NR, is left as it is.
template <std::size_t NR, std::size_t Cols, std::size_t Ld, bool First>
SARNN_NEON_INLINE void rows_acc(const float* first, const float* v, F tail, F* acc) noexcept {
    static_assert(NR >= 1 && NR <= 4, "sarnn: rows_acc: 1 to 4 rows");
    if constexpr (Cols < 4) {
        // each row's Cols values in one vector
        const F vp = load_part<Cols>(v);
        for (std::size_t k = 0; k < NR; ++k) {
            const F a = load_part<Cols>(first + k * Ld);
            acc[k] = First ? vmulq_f32(a, vp) : madd(a, vp, acc[k]);
        }
    } else {
        // acc_k (+)= Σ_u row_k[4u..4u+4) ⊙ v[4u..4u+4) over the whole vectors, then the tail vector
        constexpr std::size_t nv = Cols / 4;
#if defined(__aarch64__)
        std::size_t u0 = 1;
        if constexpr (nv >= 4) {
            // AArch64: four vectors of v and of each row a load (LD1 of four registers), while four are left
            constexpr std::size_t quads = nv / 4;
#pragma GCC unroll 16
            for (std::size_t q = 0; q < quads; ++q) {
                const float32x4x4_t vq = vld1q_f32_x4(v + 16 * q);
                for (std::size_t k = 0; k < NR; ++k) {
                    const float32x4x4_t a = vld1q_f32_x4(first + k * Ld + 16 * q);
                    F s = (First && q == 0) ? vmulq_f32(a.val[0], vq.val[0]) : madd(a.val[0], vq.val[0], acc[k]);
                    s = madd(a.val[1], vq.val[1], s);
                    s = madd(a.val[2], vq.val[2], s);
                    acc[k] = madd(a.val[3], vq.val[3], s);
                }
            }
            u0 = 4 * quads;
        }
        if (u0 == 1) {
            const F v0 = vld1q_f32(v);
            for (std::size_t k = 0; k < NR; ++k) {
                const F a = vld1q_f32(first + k * Ld);
                acc[k] = First ? vmulq_f32(a, v0) : madd(a, v0, acc[k]);
            }
        }
#pragma GCC unroll 64
        for (std::size_t u = u0; u < nv; ++u) {
            const F vu = vld1q_f32(v + 4 * u);
            for (std::size_t k = 0; k < NR; ++k) acc[k] = madd(vld1q_f32(first + k * Ld + 4 * u), vu, acc[k]);
        }
#else
        // ARMv7: one pointer per row and one for v, each load a VLD1 with writeback
        const float* rp[4] = {first, first, first, first};
        for (std::size_t k = 0; k < NR; ++k) rp[k] = first + k * Ld;
        const float* vp = v;
#pragma GCC unroll 64
        for (std::size_t u = 0; u < nv; ++u) {
            const F vu = load_next(vp);
            for (std::size_t k = 0; k < NR; ++k) {
                const F a = load_next(rp[k]);
                acc[k] = (First && u == 0) ? vmulq_f32(a, vu) : madd(a, vu, acc[k]);
            }
        }
#endif
        if constexpr (Cols % 4 != 0)
            for (std::size_t k = 0; k < NR; ++k) acc[k] = madd(vld1q_f32(first + k * Ld + Cols - 4), tail, acc[k]);
    }
}

/// Lane k < NR: row_k·v for the NR <= 4 rows row_k = first + k·Ld of Cols values (lanes from NR on: 0); tail as
/// for rows_acc.
template <std::size_t NR, std::size_t Cols, std::size_t Ld>
SARNN_NEON_INLINE F block_dots(const float* first, const float* v, F tail) noexcept {
    if constexpr (Cols < 4 && NR == 4 && Ld == Cols) {
        // four contiguous rows of 1 to 3 values: loaded column by column (vld2q / vld3q de-interleave), then
        // s = Σ_j column_j · v_j
        if constexpr (Cols == 1) {
            return vmulq_n_f32(vld1q_f32(first), v[0]);
        } else if constexpr (Cols == 2) {
            const float32x4x2_t m = vld2q_f32(first);
            return madd_n(m.val[1], v[1], vmulq_n_f32(m.val[0], v[0]));
        } else {
            const float32x4x3_t m = vld3q_f32(first);
            return madd_n(m.val[2], v[2], madd_n(m.val[1], v[1], vmulq_n_f32(m.val[0], v[0])));
        }
    } else {
        F acc[4] = {vdupq_n_f32(0.0f), vdupq_n_f32(0.0f), vdupq_n_f32(0.0f), vdupq_n_f32(0.0f)};
        rows_acc<NR, Cols, Ld, true>(first, v, tail, acc);
        return row_sums(acc[0], acc[1], acc[2], acc[3]);
    }
}

/// y = M·v (Add: y += M·v), M Rows x Cols with leading dimension Ld; y must not alias v.
template <bool Add, std::size_t Rows, std::size_t Cols, std::size_t Ld>
SARNN_NEON_INLINE void gemv_rows(const float* M, const float* v, float* y) noexcept {
    static_assert(Rows >= 1 && Cols >= 1 && Ld >= Cols, "sarnn: gemv<Rows, Cols, Ld>: Rows, Cols >= 1, Ld >= Cols");
    F tail = vdupq_n_f32(0.0f);
    if constexpr (Cols > 4 && Cols % 4 != 0) tail = masked_tail<Cols>(v);
    constexpr std::size_t full = Rows / 4 * 4;
    // y[r..r+4) (+)= M[r..r+4)·v, four rows at a time
    for (std::size_t r = 0; r < full; r += 4) {
        F s = block_dots<4, Cols, Ld>(M + r * Ld, v, tail);
        if constexpr (Add) s = vaddq_f32(s, vld1q_f32(y + r));
        vst1q_f32(y + r, s);
    }
    // the last Rows % 4 rows
    constexpr std::size_t rest = Rows % 4;
    if constexpr (rest != 0) {
        F s = block_dots<rest, Cols, Ld>(M + full * Ld, v, tail);
        if constexpr (Add) s = vaddq_f32(s, load_part<rest>(y + full));
        store_part<rest>(y + full, s);
    }
}

}  // namespace sarnn::kernel::neon

#endif
