// lib/kernels/q15/mve/softmax.hpp: the Helium set's q15 loops (Cortex-M55, M85; the set: mve/loops.hpp), the softmax's
// passes: exps (the first) and normalize (the last).
#ifndef SARNN_LIB_KERNELS_Q15_MVE_SOFTMAX_HPP
#define SARNN_LIB_KERNELS_Q15_MVE_SOFTMAX_HPP

#include <arm_mve.h>

#include <cstddef>
#include <cstdint>

#include "kernels/q15/mve/common.hpp"

namespace sarnn::kernel::q15_mve {

/// softmax's first pass (q15/seam.hpp), four values a pass: exp_q16 (lib/fixed.cpp) written out for four lanes of
/// int32, its table read by gather loads, every lane computed and those at or below zero_below set to 0 after (as
/// the scalar form skips them: their wrapped products give some value, masked; the table offsets stay in range).
inline std::uint32_t exps(q15* alpha, std::size_t n, std::int32_t m, std::int32_t to_q16,
                          std::int32_t zero_below) noexcept {
    const std::uint32_t* const T = fixed::detail::kExp2Table;
    mve::touch(alpha);
    mve::touch(T);
    std::int16_t* a = mve::raw(alpha);
    // y·2^12 = (e_j - m)·(-to_q16·2^12): y = -(e_j - m)·to_q16 < 12·2^16 where live, so y·2^12 < 2^32 (modulo 2^32:
    // exact)
    const auto down12 = static_cast<std::uint32_t>(-(to_q16 << 12));
    // t = y·log2(e) in Q16 rounded half up = (y·2^12 · 94548·2^4 + 2^31) >> 32: VRMULH (exp_q16's t, the same
    // integer: floor((y·94548 + 2^15) / 2^16))
    const uint32x4_t log2e = vdupq_n_u32(94548u << 4);
    const uint32x4_t cap = vdupq_n_u32(65535u), zero = vdupq_n_u32(0);
    std::uint32_t l = 0;
    std::size_t j = 0;
    for (; j + 4 <= n; j += 4) {
        const int32x4_t d = vsubq_n_s32(vldrhq_s32(a + j), m);
        const mve_pred16_t live = vcmpgtq_n_s32(d, zero_below);
        const uint32x4_t tq = vrmulhq_u32(vmulq_n_u32(vreinterpretq_u32_s32(d), down12), log2e);
        // 2^-t = 2^-k·2^-f: k = t >> 16; f = t & 0xFFFF (VMOVLB.U16), i = f >> 8 (VMOVLT.U8), frac = f & 255
        // (VMOVLB.U8)
        const uint16x8_t f = vreinterpretq_u16_u32(vmovlbq_u16(vreinterpretq_u16_u32(tq)));
        const uint32x4_t i = vreinterpretq_u32_u16(vmovltq_u8(vreinterpretq_u8_u16(f)));
        const int32x4_t frac = vreinterpretq_s32_u16(vmovlbq_u8(vreinterpretq_u8_u16(f)));
        const int32x4_t negk = vnegq_s32(vreinterpretq_s32_u32(vshrq_n_u32(tq, 16)));
        // 2^-f = T[i] + floor(((T[i+1] - T[i])·frac + 128) / 256) (interpolate; VRSHR: + 2^7, then >> 8)
        const int32x4_t t0 = vreinterpretq_s32_u32(vldrwq_gather_shifted_offset_u32(T, i));
        const int32x4_t t1 = vreinterpretq_s32_u32(vldrwq_gather_shifted_offset_u32(T + 1, i));
        const int32x4_t mf = vaddq_s32(t0, vrshrq_n_s32(vmulq_s32(vsubq_s32(t1, t0), frac), 8));
        // p = 2^-f·2^-k rounded half up (VRSHL by -k), at most 65535, 0 where not live
        const uint32x4_t p = vminq_m_u32(zero, vrshlq_u32(vreinterpretq_u32_s32(mf), negk), cap, live);
        l = vaddvaq_u32(l, p);
        vstrhq_s32(a + j, vreinterpretq_s32_u32(vsubq_n_u32(p, 32768u)));
    }
    // the last n % 4 values (at most three: a count the compiler sees bounded, where n is a constant too)
    for (std::size_t k = 0; k < (n & 3u); ++k, ++j) {
        const std::int32_t d = a[j] - m;
        std::int32_t p = 0;
        if (d > zero_below) {
            p = fixed::exp_q16(d * to_q16);
            p = p > 65535 ? 65535 : p;
        }
        a[j] = static_cast<std::int16_t>(p - 32768);
        l += static_cast<std::uint32_t>(p);
    }
    return l;
}

/// softmax's last pass (q15/seam.hpp), eight values a pass: p_j = alpha_j + 32768 as uint16 (the top bit flipped),
/// VMULH.U16 the top half of p_j·rec (rec <= 65535), shifted right by down - 16 (so (p_j·rec) >> down: floors of
/// floors), at most 32767.
inline void normalize(q15* alpha, std::size_t n, std::uint32_t rec, int down) noexcept {
    mve::touch(alpha);
    auto* a = reinterpret_cast<std::uint16_t*>(alpha);  // NOLINT(cppcoreguidelines-pro-type-reinterpret-cast)
    const auto r16 = static_cast<std::uint16_t>(rec);
    std::size_t j = 0;
    for (; j + 8 <= n; j += 8) {
        const uint16x8_t p = veorq_u16(vld1q_u16(a + j), vdupq_n_u16(0x8000u));
        const uint16x8_t av = vshlq_r_u16(vmulhq_u16(p, vdupq_n_u16(r16)), 16 - down);
        vst1q_u16(a + j, vminq_u16(av, vdupq_n_u16(32767u)));
    }
    for (; j < n; ++j) {
        const auto p = static_cast<std::uint32_t>(static_cast<std::int16_t>(a[j]) + 32768);
        const std::uint32_t av = (p * rec) >> down;
        a[j] = static_cast<std::uint16_t>(av > 32767u ? 32767u : av);
    }
}

}  // namespace sarnn::kernel::q15_mve

#endif
