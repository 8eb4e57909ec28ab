// sarnn/kernels/q15/mve/activations.hpp: the Helium set's q15 loops (Cortex-M55, M85; the set: mve/loops.hpp), tanh and
// sigmoid eight lanes at a time: tanh_rows, the additive align's sum (additive_sum), the LSTM cell (lstm_cell) and the
// GRU cell (gru_cell).
#ifndef SARNN_KERNELS_Q15_MVE_ACTIVATIONS_HPP
#define SARNN_KERNELS_Q15_MVE_ACTIVATIONS_HPP

#include <arm_mve.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "sarnn/kernels/q15/mve/common.hpp"

namespace sarnn::kernel::q15_mve {

/// tanh_rows's last n < 8 values: as its passes, the lanes past n read as 0 (their gathers T[0], T[1]) and not
/// stored. A function of its own: in tanh_rows its code cost the whole passes about 9 instructions a call.
__attribute__((noinline)) inline void tanh_tail(std::int16_t* p, std::size_t n) noexcept {
    const std::int16_t* const T = fixed::detail::kTanhTable;
    const mve_pred16_t t = vctp16q(static_cast<std::uint32_t>(n));
    const int16x8_t z = vldrhq_z_s16(p, t);
    const uint16x8_t a = vreinterpretq_u16_s16(vqabsq_s16(z));
    const uint16x8_t i = vshrq_n_u16(a, 6);
    const int16x8_t frac = vreinterpretq_s16_u16(vandq_u16(a, vdupq_n_u16(63u)));
    const int16x8_t t0 = vldrhq_gather_shifted_offset_s16(T, i);
    const int16x8_t t1 = vldrhq_gather_shifted_offset_s16(T + 1, i);
    const int16x8_t y = vaddq_s16(t0, vrshrq_n_s16(vmulq_s16(vsubq_s16(t1, t0), frac), 6));
    vstrhq_p_s16(p, vpselq_s16(vnegq_s16(y), y, vcmpltq_n_s16(z, 0)), t);
}

/// y_k = tanh_q15(y_k) in place (q15/seam.hpp), eight values a pass (the last n % 8 under a tail predicate: those
/// lanes read as 0, their gathers read T[0] and T[1], nothing stored past n): as additive_sum writes tanh_q15 out
/// (q15/seam.hpp), |z| saturated to 32767 (VQABS; the table's last two entries are 32767, so 32768 gives the same),
/// i = |z| >> 6, frac = |z| & 63, T[i] + ((T[i+1] - T[i])·frac + 32) >> 6 (VRSHR; the product is below 2^15: the
/// table's steps are at most 512), the sign put back. The table read by gather loads.
inline void tanh_rows(q15* y, std::size_t n) noexcept {
    const std::int16_t* const T = fixed::detail::kTanhTable;
    mve::touch(y);
    mve::touch(T);
    std::int16_t* p = mve::raw(y);
    const uint16x8_t low6 = vdupq_n_u16(63u);
    const auto tanh8 = [&](const int16x8_t z) __attribute__((always_inline)) {
        const uint16x8_t a = vreinterpretq_u16_s16(vqabsq_s16(z));
        const uint16x8_t i = vshrq_n_u16(a, 6);
        const int16x8_t frac = vreinterpretq_s16_u16(vandq_u16(a, low6));
        const int16x8_t t0 = vldrhq_gather_shifted_offset_s16(T, i);
        const int16x8_t t1 = vldrhq_gather_shifted_offset_s16(T + 1, i);
        const int16x8_t t = vaddq_s16(t0, vrshrq_n_s16(vmulq_s16(vsubq_s16(t1, t0), frac), 6));
        return vpselq_s16(vnegq_s16(t), t, vcmpltq_n_s16(z, 0));
    };
    std::size_t k = 0;
    for (; k + 8 <= n; k += 8) vst1q_s16(p + k, tanh8(vld1q_s16(p + k)));
    if (k < n) tanh_tail(p + k, n - k);
}

/// additive_sum's last n < 8 values added onto d: as its passes, the lanes past n read as 0 (their gathers T[0], T[1])
/// and not added.
__attribute__((noinline)) inline std::int32_t additive_tail(const std::int16_t* kp, const std::int16_t* qp,
                                                            const std::int8_t* v, std::size_t n,
                                                            std::int32_t d) noexcept {
    const std::int16_t* const T = fixed::detail::kTanhTable;
    const mve_pred16_t p = vctp16q(static_cast<std::uint32_t>(n));
    const int16x8_t z = vqaddq_s16(vldrhq_z_s16(kp, p), vldrhq_z_s16(qp, p));
    const uint16x8_t a = vreinterpretq_u16_s16(vqabsq_s16(z));
    const uint16x8_t i = vshrq_n_u16(a, 6);
    const int16x8_t frac = vreinterpretq_s16_u16(vandq_u16(a, vdupq_n_u16(63u)));
    const int16x8_t t0 = vldrhq_gather_shifted_offset_s16(T, i);
    const int16x8_t t1 = vldrhq_gather_shifted_offset_s16(T + 1, i);
    const int16x8_t y = vaddq_s16(t0, vrshrq_n_s16(vmulq_s16(vsubq_s16(t1, t0), frac), 6));
    return vmladavaq_p_s16(d, vpselq_s16(vnegq_s16(y), y, vcmpltq_n_s16(z, 0)), vldrbq_z_s16(v, p), p);
}

/// The additive align's sum for one state (q15/seam.hpp), eight values a pass (the last K % 8 under a tail predicate:
/// those lanes read as 0 and add nothing, v is not read past K): z = key + q saturated to int16 (VQADD: the sign and
/// min(|z|, 32767), which is what the generic form takes of the int32 sum), then tanh as tanh_rows, the sign put onto
/// it and VMLADAVA with eight of v (widened in the load).
inline std::int32_t additive_sum(const q15* key, const q15* q, const std::int8_t* v, std::size_t K) noexcept {
    const std::int16_t* const T = fixed::detail::kTanhTable;
    mve::touch(key);
    mve::touch(q);
    mve::touch(v);
    mve::touch(T);
    const std::int16_t* kp = mve::raw(key);
    const std::int16_t* qp = mve::raw(q);
    const uint16x8_t low6 = vdupq_n_u16(63u);
    const std::int8_t* vp = v;
    std::int32_t d = 0;
    std::size_t k = 0;
    for (; k + 8 <= K; k += 8, vp += 8) {
        const int16x8_t z = vqaddq_s16(vld1q_s16(kp + k), vld1q_s16(qp + k));
        const uint16x8_t a = vreinterpretq_u16_s16(vqabsq_s16(z));
        const uint16x8_t i = vshrq_n_u16(a, 6);
        const int16x8_t frac = vreinterpretq_s16_u16(vandq_u16(a, low6));
        const int16x8_t t0 = vldrhq_gather_shifted_offset_s16(T, i);
        const int16x8_t t1 = vldrhq_gather_shifted_offset_s16(T + 1, i);
        const int16x8_t y = vaddq_s16(t0, vrshrq_n_s16(vmulq_s16(vsubq_s16(t1, t0), frac), 6));
        d = vmladavaq_s16(d, vpselq_s16(vnegq_s16(y), y, vcmpltq_n_s16(z, 0)), vldrbq_s16(vp));
    }
    // the last K % 8 (a function of its own, and v by its own pointer: GCC spent about 7 instructions a call more)
    return k < K ? additive_tail(kp + k, qp + k, vp, K - k, d) : d;
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

/// The LSTM cell (Q15::lstm_cell's contract, kernels_q15.hpp) eight lanes a pass (the last hidden % 8 under a tail
/// predicate: the lanes past hidden read as 0, written nowhere, not counted): sigmoid8 and tanh8 for the gates;
/// round(f·c~ / 2^15) = VQRDMULH (2·f·c~ + 2^15) >> 16, exact (f >= 1: no saturation); round(i·g / 2^18) = (VMULH's
/// floor(i·g / 2^16) + 2) >> 2 (VRSHR #2: floors of floors); their sum saturated (VQADD), a lane counted where it
/// differs from the wrapped sum (|sum| < 2^16: it differs exactly where it saturated); h = VQRDMULH(o, tanh(c)).
inline std::size_t lstm_cell(const q15* z, const q15* c_tilde, std::size_t hidden, q15* c, q15* h) noexcept {
    mve::touch(z);
    mve::touch(c_tilde);
    const std::int16_t* zr = mve::raw(z);
    const std::int16_t* ct = mve::raw(c_tilde);
    std::int16_t* cp = mve::raw(c);
    std::int16_t* hp = mve::raw(h);
    // one pass: the saturated lanes counted on from sat_in
    const auto pass = [&](std::size_t k, mve_pred16_t p, auto tail, std::uint32_t sat_in)
        __attribute__((always_inline)) {
        constexpr bool kTail = decltype(tail)::value;
        const int16x8_t i = mve::sigmoid8(mve::load_s16<kTail>(zr + k, p));
        const int16x8_t f = mve::sigmoid8(mve::load_s16<kTail>(zr + hidden + k, p));
        const int16x8_t g = mve::tanh8(mve::load_s16<kTail>(zr + 2 * hidden + k, p));
        const int16x8_t o = mve::sigmoid8(mve::load_s16<kTail>(zr + 3 * hidden + k, p));
        const int16x8_t fc = vqrdmulhq_s16(f, mve::load_s16<kTail>(ct + k, p));
        const int16x8_t ig = vrshrq_n_s16(vmulhq_s16(i, g), 2);
        const int16x8_t cs = vqaddq_s16(fc, ig);
        const mve_pred16_t sat = vcmpneq_s16(cs, vaddq_s16(fc, ig));
        mve::store_s16<kTail>(cp + k, cs, p);
        mve::store_s16<kTail>(hp + k, vqrdmulhq_s16(o, mve::tanh8(cs)), p);
        return vaddvaq_p_u16(sat_in, vdupq_n_u16(1u), kTail ? sat & p : sat);
    };
    std::uint32_t saturated = 0;
    std::size_t k = 0;
    for (; k + 8 <= hidden; k += 8) saturated = pass(k, 0, std::false_type{}, saturated);
    if (k < hidden) saturated = pass(k, vctp16q(static_cast<std::uint32_t>(hidden - k)), std::true_type{}, saturated);
    return saturated;
}

/// The GRU cell (Q15::gru_cell's contract, kernels_q15.hpp) eight lanes a pass, each under a tail predicate (the
/// lanes past hidden read as 0 and are written nowhere): the gates' sums saturated (VQADD), sigmoid8
/// and tanh8; round(r·gh_n / 2^15) = VQRDMULH (2·r·gh_n + 2^15) >> 16, exact (r >= 1: no saturation);
/// h' = n + round(z·(h - n) / 2^15) in 32-bit lanes (h - n needs 17 bits), even and odd lanes apart (VMOVLB/VMOVLT,
/// VRSHR #15, VMOVNB/VMOVNT: h' lies between n and h, within int16).
inline void gru_cell(const q15* gi, const q15* gh, const q15* h_prev, std::size_t hidden, q15* h) noexcept {
    mve::touch(gi);
    mve::touch(gh);
    mve::touch(h_prev);
    const std::int16_t* ip = mve::raw(gi);
    const std::int16_t* hp = mve::raw(gh);
    const std::int16_t* pp = mve::raw(h_prev);
    std::int16_t* op = mve::raw(h);
    const auto pass = [&](std::size_t k, mve_pred16_t p, auto tail) __attribute__((always_inline)) {
        constexpr bool kTail = decltype(tail)::value;
        const auto gate = [&](std::size_t g) __attribute__((always_inline)) {
            return vqaddq_s16(mve::load_s16<kTail>(ip + g * hidden + k, p),
                              mve::load_s16<kTail>(hp + g * hidden + k, p));
        };
        const int16x8_t r = mve::sigmoid8(gate(0));
        const int16x8_t z = mve::sigmoid8(gate(1));
        const int16x8_t rg = vqrdmulhq_s16(r, mve::load_s16<kTail>(hp + 2 * hidden + k, p));
        const int16x8_t n = mve::tanh8(vqaddq_s16(mve::load_s16<kTail>(ip + 2 * hidden + k, p), rg));
        const int16x8_t hv = mve::load_s16<kTail>(pp + k, p);
        // h' = n + round(z·(h - n) / 2^15), the even lanes (b) and the odd ones (t)
        const int32x4_t nb = vmovlbq_s16(n), nt = vmovltq_s16(n);
        const int32x4_t ob = vaddq_s32(nb, vrshrq_n_s32(vmulq_s32(vmovlbq_s16(z), vsubq_s32(vmovlbq_s16(hv), nb)), 15));
        const int32x4_t ot = vaddq_s32(nt, vrshrq_n_s32(vmulq_s32(vmovltq_s16(z), vsubq_s32(vmovltq_s16(hv), nt)), 15));
        mve::store_s16<kTail>(op + k, vmovntq_s32(vmovnbq_s32(vdupq_n_s16(0), ob), ot), p);
    };
    std::size_t k = 0;
    // every pass under its tail predicate (one copy of the pass: 512 B less flash than whole passes and a tail, for
    // 38 instructions more a step at Hidden 32; the LSTM cell keeps both, for the Lstm's and the Lstmn's speed)
    for (; k < hidden; k += 8) pass(k, vctp16q(static_cast<std::uint32_t>(hidden - k)), std::true_type{});
}

}  // namespace sarnn::kernel::q15_mve

#endif
