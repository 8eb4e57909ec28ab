// sarnn/kernels/q15/mve/finish.hpp: the Helium set's q15 loops (Cortex-M55, M85; the set: mve/loops.hpp), affine_tanh's
// and affine's pre-activations from their sums (finish_rows), gru_gates's rows (finish_gru).
#ifndef SARNN_KERNELS_Q15_MVE_FINISH_HPP
#define SARNN_KERNELS_Q15_MVE_FINISH_HPP

#include <arm_mve.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "sarnn/kernels/q15/mve/common.hpp"

namespace sarnn::kernel::q15_mve {

/// finish_rows's last rows k .. count (one to three), the lanes under a tail predicate: false, nothing written, where
/// their factors do not allow finish_rows's forms; else their pre-activations written. A function of its own: in
/// finish_rows' body the tail's code made GCC spill the main loop's constants (about 50 instructions a call more).
__attribute__((noinline)) inline bool finish_rows_tail(const std::int32_t* s_x, const std::int32_t* s_r,
                                                       std::size_t count, std::size_t k, std::int32_t x_m, int x_shift,
                                                       const std::int32_t* m, const std::int8_t* shift,
                                                       const std::int32_t* b, q15* out) noexcept {
    const mve_pred16_t p = vctp32q(static_cast<std::uint32_t>(count - k));
    const int32x4_t sx0 = vldrwq_z_s32(s_x + k, p);
    const int32x4_t mv = vldrwq_z_s32(m + k, p);
    const int32x4_t sh = vldrbq_z_s32(shift + k, p);
    mve_pred16_t bad = vcmpltq_n_s32(mv, 0) | vcmpltq_n_s32(sh, 1) | vcmpgtq_n_s32(sh, 31);
    if (x_shift == -1) bad |= vcmpcsq_n_u32(vreinterpretq_u32_s32(vabsq_s32(sx0)), std::uint32_t{1} << 30);
    if ((bad & p) != 0) return false;
    const int32x4_t one = vdupq_n_s32(1);
    const int32x4_t sx = x_shift == -1 ? vshlq_n_s32(sx0, 1) : sx0;
    const int32x4_t x = vmaxq_s32(vminq_s32(vqrdmulhq_n_s32(sx, x_m), vdupq_n_s32(std::int32_t{1} << 30)),
                                  vdupq_n_s32(-(std::int32_t{1} << 30)));
    const int32x4_t z = vaddq_s32(x, vldrwq_z_s32(s_r + k, p));
    const int32x4_t q2 = vrshlq_s32(vmulhq_s32(z, mv), vsubq_s32(one, sh));
    int32x4_t q = vpselq_s32(vrmulhq_s32(z, mv), q2, vcmpeqq_s32(sh, one));
    if (b != nullptr) q = vqaddq_s32(q, vldrwq_z_s32(b + k, p));
    vstrhq_p_s32(mve::raw(out) + k, vmaxq_s32(vminq_s32(q, vdupq_n_s32(32767)), vdupq_n_s32(-32768)), p);
    return true;
}

/// The rows' pre-activations from their sums, four rows a pass (the last count % 4 under a tail predicate:
/// finish_rows_tail), where the factors allow (else false, and the caller takes its scalar loop): x =
/// requantize(s_x, x_m, x_shift) clamped to +-2^30, z = x + s_r, out = requantize(z, m_r, shift_r) + b_r (b null: 0)
/// saturated to int32 then int16 (kernels_q15.hpp's affine). Taken when x_shift is 0 or -1 with x_m >= 0 (|s_x| <
/// 2^30 for -1), every m_r >= 0 and shift_r in 1 .. 31, and count >= 4 (one to three rows alone, as the last chunk of
/// 33 rows, cost less in the caller's scalar loop than in a predicated pass); then:
///   x = VQRDMULH(s_x, x_m) = floor((s_x·x_m + 2^30) / 2^31) (x_shift 0; with 2·s_x for -1: s = 30), exact (x_m >=
///       0: no saturation), clamped;
///   r part, s = 31 + shift_r >= 32: h = VMULH(z, m_r) = floor(z·m_r / 2^32); shift_r >= 2: (h + 2^(shift_r-2)) >>
///       (shift_r - 1) (VRSHL), shift_r = 1: VRMULH (floor((z·m_r + 2^31) / 2^32)) — requantize_short's forms;
///   + b_r by VQADD (QADD's int32 saturation), clamped to int16.
/// Nothing of m, shift, b, s_x, s_r or out is read or written at or past count.
inline bool finish_rows(const std::int32_t* s_x, const std::int32_t* s_r, std::size_t count, std::int32_t x_m,
                        int x_shift, const std::int32_t* m, const std::int8_t* shift, const std::int32_t* b,
                        q15* out) noexcept {
    if ((x_shift != 0 && x_shift != -1) || x_m < 0 || count < 4) return false;
    mve::touch(s_x);
    mve::touch(s_r);
    mve::touch(m);
    mve::touch(shift);
    mve::touch(b);
    const std::size_t whole = count & ~std::size_t{3};  // the rows of whole passes
    std::int32_t min_m = 0, min_shift = 127, max_shift = -128;
    std::uint32_t max_x = 0;
    for (std::size_t k = 0; k < whole; k += 4) {
        min_m = vminvq_s32(min_m, vld1q_s32(m + k));
        min_shift = vminvq_s32(min_shift, vldrbq_s32(shift + k));
        max_shift = vmaxvq_s32(max_shift, vldrbq_s32(shift + k));
        max_x = vmaxavq_s32(max_x, vld1q_s32(s_x + k));
    }
    if (min_m < 0 || min_shift < 1 || max_shift > 31 || (x_shift == -1 && max_x >= (std::uint32_t{1} << 30)))
        return false;
    // the tail first (checked, then written), then the whole passes
    if (whole < count && !finish_rows_tail(s_x, s_r, count, whole, x_m, x_shift, m, shift, b, out)) return false;
    const int32x4_t hi = vdupq_n_s32(std::int32_t{1} << 30), lo = vdupq_n_s32(-(std::int32_t{1} << 30));
    const int32x4_t one = vdupq_n_s32(1);
    const int32x4_t top = vdupq_n_s32(32767), bottom = vdupq_n_s32(-32768);
    std::int16_t* o = mve::raw(out);
    // the passes, as kShift1 (a shift_r of 1 among the rows: VRMULH's form where it is) and kB (a bias) say
    const auto passes = [&](auto shift1, auto with_b) __attribute__((always_inline)) {
        constexpr bool kShift1 = decltype(shift1)::value, kB = decltype(with_b)::value;
        // (pointers stepped a pass at a time: GCC 12 then takes post-incrementing loads, not index arithmetic)
        const std::int32_t *px = s_x, *pr = s_r, *pm = m, *pb = b;
        const std::int8_t* ps = shift;
        for (std::int16_t* const end = o + whole; o != end; o += 4, px += 4, pr += 4, pm += 4, ps += 4) {
            int32x4_t sx = vld1q_s32(px);
            if (x_shift == -1) sx = vshlq_n_s32(sx, 1);
            const int32x4_t x = vmaxq_s32(vminq_s32(vqrdmulhq_n_s32(sx, x_m), hi), lo);
            const int32x4_t z = vaddq_s32(x, vld1q_s32(pr));
            const int32x4_t mv = vld1q_s32(pm);
            const int32x4_t sh = vldrbq_s32(ps);
            int32x4_t q = vrshlq_s32(vmulhq_s32(z, mv), vsubq_s32(one, sh));
            if constexpr (kShift1) q = vpselq_s32(vrmulhq_s32(z, mv), q, vcmpeqq_s32(sh, one));
            if constexpr (kB) {
                q = vqaddq_s32(q, vld1q_s32(pb));
                pb += 4;
            }
            vstrhq_s32(o, vmaxq_s32(vminq_s32(q, top), bottom));
        }
    };
    if (min_shift >= 2) {
        if (b != nullptr) {
            passes(std::false_type{}, std::true_type{});
        } else {
            passes(std::false_type{}, std::false_type{});
        }
    } else if (b != nullptr) {
        passes(std::true_type{}, std::true_type{});
    } else {
        passes(std::true_type{}, std::false_type{});
    }
    return true;
}

/// gru_gates's rows from their (s_x, s_h) sums where the x part's factor is 1 (q15/seam.hpp: kFinishGru), four rows
/// a pass: gi = requantize(s_x, m_r, shift_r) + b_ih, gh = requantize(s_h, m_r, shift_r) + b_hh, each saturated to
/// int16 (q15/affine.hpp). For shift_r in 2 .. 31 (any m_r) requantize is (H + 2^(shift_r - 2)) >> (shift_r - 1)
/// with H = floor(acc·m_r / 2^32) (its rescale_hi): VMULH, then VRSHL by 1 - shift_r; + b by VQADD (QADD's int32
/// saturation), clamped. Stops at the first row whose shift is outside 2 .. 31 and returns the rows done (the caller
/// finishes the rest); the last rows % 4 (or those before that row) under a predicate. s: the pairs (s_x, s_h) of the
/// rows, readable up to the next multiple of four rows (VLD20/VLD21 take the pairs apart); nothing of m, shift, b_ih,
/// b_hh, gi or gh is read or written at or past rows.
inline std::size_t finish_gru(const std::int32_t* s, std::size_t rows, const std::int32_t* m, const std::int8_t* shift,
                              const std::int32_t* b_ih, const std::int32_t* b_hh, q15* gi, q15* gh) noexcept {
    mve::touch(s);
    mve::touch(m);
    mve::touch(shift);
    mve::touch(b_ih);
    mve::touch(b_hh);
    std::int16_t* oi = mve::raw(gi);
    std::int16_t* oh = mve::raw(gh);
    // rows k..k+3 (those under p where kTail)
    const auto pass = [&](std::size_t k, const int32x4_t mv, const int32x4_t sh, mve_pred16_t p, auto tail)
        __attribute__((always_inline)) {
        constexpr bool kTail = decltype(tail)::value;
        const int32x4x2_t sv = vld2q_s32(s + 2 * k);  // (s_x lanes, s_h lanes)
        const int32x4_t down = vsubq_s32(vdupq_n_s32(1), sh);
        const int32x4_t top = vdupq_n_s32(32767), bottom = vdupq_n_s32(-32768);
        const int32x4_t qi = vqaddq_s32(vrshlq_s32(vmulhq_s32(sv.val[0], mv), down), mve::load_s32<kTail>(b_ih + k, p));
        const int32x4_t qh = vqaddq_s32(vrshlq_s32(vmulhq_s32(sv.val[1], mv), down), mve::load_s32<kTail>(b_hh + k, p));
        mve::store_s32_s16<kTail>(oi + k, vmaxq_s32(vminq_s32(qi, top), bottom), p);
        mve::store_s32_s16<kTail>(oh + k, vmaxq_s32(vminq_s32(qh, top), bottom), p);
    };
    // the whole passes where every shift of theirs is in 2 .. 31 (the usual case), without a test per pass
    const std::size_t whole = rows & ~std::size_t{3};
    std::int32_t min_shift = 127, max_shift = -128;
    for (std::size_t k = 0; k < whole; k += 4) {
        min_shift = vminvq_s32(min_shift, vldrbq_s32(shift + k));
        max_shift = vmaxvq_s32(max_shift, vldrbq_s32(shift + k));
    }
    std::size_t k = 0;
    if (min_shift >= 2 && max_shift <= 31) {
        for (; k < whole; k += 4) pass(k, vld1q_s32(m + k), vldrbq_s32(shift + k), 0, std::false_type{});
    }
    // the rest (the tail, or every pass where a shift is outside), pass by pass
    for (; k < rows; k += 4) {
        const std::size_t left = rows - k;
        mve_pred16_t p = vctp32q(static_cast<std::uint32_t>(left));
        const int32x4_t sh = vldrbq_z_s32(shift + k, p);
        // the lanes (four bits each) whose shift is outside 2 .. 31
        const auto bad = static_cast<unsigned>((vcmpltq_n_s32(sh, 2) | vcmpgtq_n_s32(sh, 31)) & p);
        if (bad == 0 && left >= 4) {
            pass(k, vld1q_s32(m + k), sh, p, std::false_type{});
            continue;
        }
        // the last pass: the rows below rows, and below the first row with such a shift
        const std::size_t lanes = bad != 0 ? static_cast<std::size_t>(__builtin_ctz(bad)) / 4 : left;
        if (lanes > 0) {
            p = vctp32q(static_cast<std::uint32_t>(lanes));
            pass(k, vldrwq_z_s32(m + k, p), sh, p, std::true_type{});
        }
        return k + lanes;
    }
    return rows;
}

}  // namespace sarnn::kernel::q15_mve

#endif
