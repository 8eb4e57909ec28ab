// lib/kernels/q15/mve/activations.hpp: the Helium set's q15 loops (Cortex-M55, M85; the set: mve/loops.hpp), tanh and
// sigmoid eight lanes at a time: tanh_rows, the additive align's sum (additive_sum), the LSTM cell (lstm_cell) and the
// GRU cell (gru_cell).
#ifndef SARNN_LIB_KERNELS_Q15_MVE_ACTIVATIONS_HPP
#define SARNN_LIB_KERNELS_Q15_MVE_ACTIVATIONS_HPP

#include <arm_mve.h>

#include <cstddef>
#include <cstdint>

#include "kernels/q15/mve/common.hpp"

namespace sarnn::kernel::q15_mve {

/// y_k = tanh_q15(y_k) in place (q15/seam.hpp), eight values a pass: as additive_sum writes tanh_q15 out
/// (q15/seam.hpp), |z| saturated to 32767 (VQABS; the table's last two entries are 32767, so 32768 gives the same),
/// i = |z| >> 6, frac = |z| & 63, T[i] + ((T[i+1] - T[i])·frac + 32) >> 6 (VRSHR; the product is below 2^15: the
/// table's steps are at most 512), the sign put back. The table read by gather loads.
inline void tanh_rows(q15* y, std::size_t n) noexcept {
    const std::int16_t* const T = fixed::detail::kTanhTable;
    mve::touch(y);
    mve::touch(T);
    std::int16_t* p = mve::raw(y);
    const uint16x8_t low6 = vdupq_n_u16(63u);
    std::size_t k = 0;
    for (; k + 8 <= n; k += 8) {
        const int16x8_t z = vld1q_s16(p + k);
        const uint16x8_t a = vreinterpretq_u16_s16(vqabsq_s16(z));
        const uint16x8_t i = vshrq_n_u16(a, 6);
        const int16x8_t frac = vreinterpretq_s16_u16(vandq_u16(a, low6));
        const int16x8_t t0 = vldrhq_gather_shifted_offset_s16(T, i);
        const int16x8_t t1 = vldrhq_gather_shifted_offset_s16(T + 1, i);
        const int16x8_t t = vaddq_s16(t0, vrshrq_n_s16(vmulq_s16(vsubq_s16(t1, t0), frac), 6));
        vst1q_s16(p + k, vpselq_s16(vnegq_s16(t), t, vcmpltq_n_s16(z, 0)));
    }
    for (; k < n; ++k) p[k] = static_cast<std::int16_t>(fixed::detail::tanh_wide(p[k]));
}

/// The additive align's sum for one state (q15/seam.hpp), eight values a pass: z = key + q saturated to int16
/// (VQADD: the sign and min(|z|, 32767), which is what the generic form takes of the int32 sum), then tanh as
/// tanh_rows, the sign put onto it and VMLADAVA with eight of v (widened in the load). The last K % 8 as the
/// generic form.
inline std::int32_t additive_sum(const q15* key, const q15* q, const std::int8_t* v, std::size_t K) noexcept {
    const std::int16_t* const T = fixed::detail::kTanhTable;
    mve::touch(key);
    mve::touch(q);
    mve::touch(v);
    mve::touch(T);
    const std::int16_t* kp = mve::raw(key);
    const std::int16_t* qp = mve::raw(q);
    const uint16x8_t low6 = vdupq_n_u16(63u);
    std::int32_t d = 0;
    std::size_t k = 0;
    for (; k + 8 <= K; k += 8) {
        const int16x8_t z = vqaddq_s16(vld1q_s16(kp + k), vld1q_s16(qp + k));
        const uint16x8_t a = vreinterpretq_u16_s16(vqabsq_s16(z));
        const uint16x8_t i = vshrq_n_u16(a, 6);
        const int16x8_t frac = vreinterpretq_s16_u16(vandq_u16(a, low6));
        const int16x8_t t0 = vldrhq_gather_shifted_offset_s16(T, i);
        const int16x8_t t1 = vldrhq_gather_shifted_offset_s16(T + 1, i);
        const int16x8_t y = vaddq_s16(t0, vrshrq_n_s16(vmulq_s16(vsubq_s16(t1, t0), frac), 6));
        d = vmladavaq_s16(d, vpselq_s16(vnegq_s16(y), y, vcmpltq_n_s16(z, 0)), vldrbq_s16(v + k));
    }
    // the last K % 8: v_k·tanh(z) with tanh_wide (the same value: its |z| >= 32768 gives 32767 as the clamp does)
    for (; k < K; ++k) d += v[k] * fixed::detail::tanh_wide(kp[k] + qp[k]);
    return d;
}

namespace mve {

/// tanh_q15 of eight int16 (tanh_rows' steps)
__attribute__((always_inline)) inline int16x8_t tanh8(int16x8_t z) noexcept {
    const std::int16_t* const T = fixed::detail::kTanhTable;
    const uint16x8_t a = vreinterpretq_u16_s16(vqabsq_s16(z));
    const uint16x8_t i = vshrq_n_u16(a, 6);
    const int16x8_t frac = vreinterpretq_s16_u16(vandq_u16(a, vdupq_n_u16(63u)));
    const int16x8_t t0 = vldrhq_gather_shifted_offset_s16(T, i);
    const int16x8_t t1 = vldrhq_gather_shifted_offset_s16(T + 1, i);
    const int16x8_t t = vaddq_s16(t0, vrshrq_n_s16(vmulq_s16(vsubq_s16(t1, t0), frac), 6));
    return vpselq_s16(vnegq_s16(t), t, vcmpltq_n_s16(z, 0));
}

/// sigmoid_q15 of eight int16 (lib/fixed.cpp): a = |z| as uint16 (VABS wraps -32768 to 0x8000 = 32768), t = tanh(a /
/// 8192) from the table every 128 LSB (i = a >> 7 <= 256, frac = a & 127; the table non-decreasing, its steps at most
/// 512: the product below 2^16 in uint16, VRSHR its + 64 >> 7), y = (32768 + t + 1) >> 1 or (32768 - t + 1) >> 1
/// (VHADD, VHSUB: the halved sum without overflow), at most 32767.
__attribute__((always_inline)) inline int16x8_t sigmoid8(int16x8_t z) noexcept {
    const std::int16_t* const T = fixed::detail::kTanhTable;
    const uint16x8_t a = vreinterpretq_u16_s16(vabsq_s16(z));
    const uint16x8_t i = vshrq_n_u16(a, 7);
    const uint16x8_t frac = vandq_u16(a, vdupq_n_u16(127u));
    const uint16x8_t t0 = vreinterpretq_u16_s16(vldrhq_gather_shifted_offset_s16(T, i));
    const uint16x8_t t1 = vreinterpretq_u16_s16(vldrhq_gather_shifted_offset_s16(T + 1, i));
    const uint16x8_t t = vaddq_u16(t0, vrshrq_n_u16(vmulq_u16(vsubq_u16(t1, t0), frac), 7));
    const uint16x8_t one = vdupq_n_u16(32769u);
    const uint16x8_t y = vpselq_u16(vhaddq_u16(one, t), vhsubq_u16(one, t), vcmpgeq_n_s16(z, 0));
    return vreinterpretq_s16_u16(vminq_u16(y, vdupq_n_u16(32767u)));
}

}  // namespace mve

/// The LSTM cell (Q15::lstm_cell's contract, kernels_q15.hpp) eight lanes a pass: sigmoid8 and tanh8 for the gates;
/// round(f·c~ / 2^15) = VQRDMULH (2·f·c~ + 2^15) >> 16, exact (f >= 1: no saturation); round(i·g / 2^18) = (VMULH's
/// floor(i·g / 2^16) + 2) >> 2 (VRSHR #2: floors of floors); their sum saturated (VQADD), a lane counted where it
/// differs from the wrapped sum (|sum| < 2^16: it differs exactly where it saturated); h = VQRDMULH(o, tanh(c)).
/// The last hidden % 8 lanes in plain C++ (lib/kernels/q15.cpp's form).
inline std::size_t lstm_cell(const q15* z, const q15* c_tilde, std::size_t hidden, q15* c, q15* h) noexcept {
    mve::touch(z);
    mve::touch(c_tilde);
    const std::int16_t* zr = mve::raw(z);
    const std::int16_t* ct = mve::raw(c_tilde);
    std::int16_t* cp = mve::raw(c);
    std::int16_t* hp = mve::raw(h);
    std::uint32_t saturated = 0;
    std::size_t k = 0;
    for (; k + 8 <= hidden; k += 8) {
        const int16x8_t i = mve::sigmoid8(vld1q_s16(zr + k));
        const int16x8_t f = mve::sigmoid8(vld1q_s16(zr + hidden + k));
        const int16x8_t g = mve::tanh8(vld1q_s16(zr + 2 * hidden + k));
        const int16x8_t o = mve::sigmoid8(vld1q_s16(zr + 3 * hidden + k));
        const int16x8_t fc = vqrdmulhq_s16(f, vld1q_s16(ct + k));
        const int16x8_t ig = vrshrq_n_s16(vmulhq_s16(i, g), 2);
        const int16x8_t cs = vqaddq_s16(fc, ig);
        saturated = vaddvaq_p_u16(saturated, vdupq_n_u16(1u), vcmpneq_s16(cs, vaddq_s16(fc, ig)));
        vst1q_s16(cp + k, cs);
        vst1q_s16(hp + k, vqrdmulhq_s16(o, mve::tanh8(cs)));
    }
    for (; k < hidden; ++k) {
        const std::int32_t i = fixed::sigmoid_q15(zr[k]);
        const std::int32_t f = fixed::sigmoid_q15(zr[hidden + k]);
        const std::int32_t g = fixed::tanh_q15(zr[2 * hidden + k]);
        const std::int32_t o = fixed::sigmoid_q15(zr[3 * hidden + k]);
        const std::int32_t ck = ((f * ct[k] + (1 << 14)) >> 15) + ((i * g + (1 << 17)) >> 18);
        const std::int32_t cs = ck > 32767 ? 32767 : (ck < -32768 ? -32768 : ck);
        saturated += cs != ck ? 1u : 0u;
        cp[k] = static_cast<std::int16_t>(cs);
        hp[k] = static_cast<std::int16_t>((o * fixed::tanh_q15(static_cast<std::int16_t>(cs)) + (1 << 14)) >> 15);
    }
    return saturated;
}

/// The GRU cell (Q15::gru_cell's contract, kernels_q15.hpp) eight lanes a pass: the gates' sums saturated (VQADD),
/// sigmoid8 and tanh8; round(r·gh_n / 2^15) = VQRDMULH (2·r·gh_n + 2^15) >> 16, exact (r >= 1: no saturation);
/// h' = n + round(z·(h - n) / 2^15) in 32-bit lanes (h - n needs 17 bits), even and odd lanes apart (VMOVLB/VMOVLT,
/// VRSHR #15, VMOVNB/VMOVNT: h' lies between n and h, within int16). The last hidden % 8 lanes in plain C++.
inline void gru_cell(const q15* gi, const q15* gh, const q15* h_prev, std::size_t hidden, q15* h) noexcept {
    mve::touch(gi);
    mve::touch(gh);
    mve::touch(h_prev);
    const std::int16_t* ip = mve::raw(gi);
    const std::int16_t* hp = mve::raw(gh);
    const std::int16_t* pp = mve::raw(h_prev);
    std::int16_t* op = mve::raw(h);
    std::size_t k = 0;
    for (; k + 8 <= hidden; k += 8) {
        const int16x8_t r = mve::sigmoid8(vqaddq_s16(vld1q_s16(ip + k), vld1q_s16(hp + k)));
        const int16x8_t z = mve::sigmoid8(vqaddq_s16(vld1q_s16(ip + hidden + k), vld1q_s16(hp + hidden + k)));
        const int16x8_t rg = vqrdmulhq_s16(r, vld1q_s16(hp + 2 * hidden + k));
        const int16x8_t n = mve::tanh8(vqaddq_s16(vld1q_s16(ip + 2 * hidden + k), rg));
        const int16x8_t hv = vld1q_s16(pp + k);
        // h' = n + round(z·(h - n) / 2^15), the even lanes (b) and the odd ones (t)
        const int32x4_t nb = vmovlbq_s16(n), nt = vmovltq_s16(n);
        const int32x4_t ob = vaddq_s32(nb, vrshrq_n_s32(vmulq_s32(vmovlbq_s16(z), vsubq_s32(vmovlbq_s16(hv), nb)), 15));
        const int32x4_t ot = vaddq_s32(nt, vrshrq_n_s32(vmulq_s32(vmovltq_s16(z), vsubq_s32(vmovltq_s16(hv), nt)), 15));
        vst1q_s16(op + k, vmovntq_s32(vmovnbq_s32(vdupq_n_s16(0), ob), ot));
    }
    for (; k < hidden; ++k) {
        const auto sat16 = [](std::int32_t v) { return v > 32767 ? 32767 : (v < -32768 ? -32768 : v); };
        const std::int32_t r = fixed::detail::sigmoid_inline(sat16(ip[k] + hp[k]));
        const std::int32_t z = fixed::detail::sigmoid_inline(sat16(ip[hidden + k] + hp[hidden + k]));
        const std::int32_t n = fixed::detail::tanh_wide(ip[2 * hidden + k] +
                                                        ((r * hp[2 * hidden + k] + (1 << 14)) >> 15));
        op[k] = static_cast<std::int16_t>(n + ((z * (pp[k] - n) + (1 << 14)) >> 15));
    }
}

}  // namespace sarnn::kernel::q15_mve

#endif
