// lib/kernels/q15/mve/finish.hpp: the Helium set's q15 loops (Cortex-M55, M85; the set: mve/loops.hpp), affine_tanh's
// and affine's pre-activations from their sums (finish_rows).
#ifndef SARNN_LIB_KERNELS_Q15_MVE_FINISH_HPP
#define SARNN_LIB_KERNELS_Q15_MVE_FINISH_HPP

#include <arm_mve.h>

#include <cstddef>
#include <cstdint>

#include "kernels/q15/mve/common.hpp"

namespace sarnn::kernel::q15_mve {

/// The rows' pre-activations from their sums, four rows a pass, where the factors allow (else false, and the caller
/// takes its scalar loop): x = requantize(s_x, x_m, x_shift) clamped to +-2^30, z = x + s_r, out = requantize(z,
/// m_r, shift_r) + b_r (b null: 0) saturated to int32 then int16 (kernels_q15.hpp's affine). Taken when x_shift is 0
/// or -1 with x_m >= 0 (|s_x| < 2^30 for -1), every m_r >= 0 and shift_r in 1 .. 31, count a multiple of 4; then:
///   x = VQRDMULH(s_x, x_m) = floor((s_x·x_m + 2^30) / 2^31) (x_shift 0; with 2·s_x for -1: s = 30), exact (x_m >=
///       0: no saturation), clamped;
///   r part, s = 31 + shift_r >= 32: h = VMULH(z, m_r) = floor(z·m_r / 2^32); shift_r >= 2: (h + 2^(shift_r-2)) >>
///       (shift_r - 1) (VRSHL), shift_r = 1: VRMULH (floor((z·m_r + 2^31) / 2^32)) — requantize_short's forms;
///   + b_r by VQADD (QADD's int32 saturation), clamped to int16.
inline bool finish_rows(const std::int32_t* s_x, const std::int32_t* s_r, std::size_t count, std::int32_t x_m,
                        int x_shift, const std::int32_t* m, const std::int8_t* shift, const std::int32_t* b,
                        q15* out) noexcept {
    if ((x_shift != 0 && x_shift != -1) || x_m < 0 || count % 4 != 0) return false;
    mve::touch(s_x);
    mve::touch(s_r);
    mve::touch(m);
    mve::touch(shift);
    mve::touch(b);
    std::int32_t min_m = 0, min_shift = 127, max_shift = -128;
    std::uint32_t max_x = 0;
    for (std::size_t k = 0; k < count; k += 4) {
        min_m = vminvq_s32(min_m, vld1q_s32(m + k));
        min_shift = vminvq_s32(min_shift, vldrbq_s32(shift + k));
        max_shift = vmaxvq_s32(max_shift, vldrbq_s32(shift + k));
        max_x = vmaxavq_s32(max_x, vld1q_s32(s_x + k));
    }
    if (min_m < 0 || min_shift < 1 || max_shift > 31 || (x_shift == -1 && max_x >= (std::uint32_t{1} << 30)))
        return false;
    const int32x4_t hi = vdupq_n_s32(std::int32_t{1} << 30), lo = vdupq_n_s32(-(std::int32_t{1} << 30));
    const int32x4_t one = vdupq_n_s32(1);
    const int32x4_t top = vdupq_n_s32(32767), bottom = vdupq_n_s32(-32768);
    std::int16_t* o = mve::raw(out);
    for (std::size_t k = 0; k < count; k += 4) {
        int32x4_t sx = vld1q_s32(s_x + k);
        if (x_shift == -1) sx = vshlq_n_s32(sx, 1);
        const int32x4_t x = vmaxq_s32(vminq_s32(vqrdmulhq_n_s32(sx, x_m), hi), lo);
        const int32x4_t z = vaddq_s32(x, vld1q_s32(s_r + k));
        const int32x4_t mv = vld1q_s32(m + k);
        const int32x4_t sh = vldrbq_s32(shift + k);
        const int32x4_t q2 = vrshlq_s32(vmulhq_s32(z, mv), vsubq_s32(one, sh));
        int32x4_t q = vpselq_s32(vrmulhq_s32(z, mv), q2, vcmpeqq_s32(sh, one));
        if (b != nullptr) q = vqaddq_s32(q, vld1q_s32(b + k));
        vstrhq_s32(o + k, vmaxq_s32(vminq_s32(q, top), bottom));
    }
    return true;
}

}  // namespace sarnn::kernel::q15_mve

#endif
