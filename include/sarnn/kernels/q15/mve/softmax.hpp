// sarnn/kernels/q15/mve/softmax.hpp: the Helium set's q15 loops (Cortex-M55, M85; the set: mve/loops.hpp), the softmax's
// passes: exps (the first) and normalize (the last).
#ifndef SARNN_KERNELS_Q15_MVE_SOFTMAX_HPP
#define SARNN_KERNELS_Q15_MVE_SOFTMAX_HPP

#include <arm_mve.h>

#include <cstddef>
#include <cstdint>

#include "sarnn/kernels/q15/mve/common.hpp"

namespace sarnn::kernel::q15_mve {

/// exps' table (built at compile time from kernels/q15/fixed_tables.inc's kExp2Table, T): a_i = T_i - 32768 and
/// d_i = T_i - T_(i+1), i = 0..255, both in uint16 (T_i in [32768, 65536], d_i in [0, 177]), for the eight-lane gathers
struct ExpHalves {
    std::uint16_t a[256];
    std::uint16_t d[256];
};
namespace exp_source {
#include "sarnn/kernels/q15/fixed_tables.inc"  // (a compile-time copy of kExp2Table: only ExpHalves reaches the binary)
}  // namespace exp_source
constexpr ExpHalves make_exp_halves() noexcept {
    ExpHalves h{};
    for (std::size_t i = 0; i < 256; ++i) {
        h.a[i] = static_cast<std::uint16_t>(exp_source::kExp2Table[i] - 32768u);
        h.d[i] = static_cast<std::uint16_t>(exp_source::kExp2Table[i] - exp_source::kExp2Table[i + 1]);
    }
    return h;
}
inline constexpr ExpHalves kExpHalves = make_exp_halves();

/// One pass of exps over the eight values at a (kTail: the first `count` lanes only, the others neither read nor
/// stored and summed as 0): exp_q16 written out for eight lanes of uint16 (the same integers, the derivation beside
/// each line); returns l plus the pass's p_j. nd = m - e_j in [0, 65535] (m >= e_j); the lanes with nd >= lim + 1
/// (the scalar form's d <= zero_below) are dead: p = 0.
template <bool kTail>
__attribute__((always_inline)) inline std::uint32_t exps_pass(std::int16_t* a, std::uint32_t count, uint16x8_t mv,
                                                              std::uint16_t lim, std::int32_t neg_r,
                                                              std::uint32_t l) noexcept {
    const mve_pred16_t tail = kTail ? vctp16q(count) : mve_pred16_t{0xFFFF};
    const uint16x8_t e = kTail ? vldrhq_z_u16(reinterpret_cast<const std::uint16_t*>(a), tail)  // NOLINT
                               : vld1q_u16(reinterpret_cast<const std::uint16_t*>(a));          // NOLINT
    const uint16x8_t nd = vsubq_u16(mv, e);
    // t = floor((y·94548 + 2^15) / 2^16), y = nd·2^sh (exp_q16's t): 94548 = 4·23637, so with P = nd·23637 (< 2^31,
    // VMULLB/VMULLT: the even and the odd lanes) t = floor((P·2^(sh + 2) + 2^15) / 2^16), P rounded right by
    // r = 14 - sh (VRSHL by -r; r <= 0: shifted left, exactly P·2^-r). Live lanes: y < 12·2^16, so t < 2^21
    const uint32x4_t tb = vrshlq_n_u32(vmullbq_int_u16(nd, vdupq_n_u16(23637u)), neg_r);
    const uint32x4_t tt = vrshlq_n_u32(vmulltq_int_u16(nd, vdupq_n_u16(23637u)), neg_r);
    // back to eight lanes in order: k = t >> 16 (<= 17 where live), f = t & 0xFFFF; i = f >> 8, frac = f & 255
    const uint16x8_t k = vshrntq_n_u32(vshrnbq_n_u32(vreinterpretq_u16_u32(tb), tb, 16), tt, 16);
    const uint16x8_t f = vmovntq_u32(vmovnbq_u32(vreinterpretq_u16_u32(tb), tb), tt);
    const uint16x8_t i = vshrq_n_u16(f, 8);
    const uint16x8_t frac = vandq_u16(f, vdupq_n_u16(255u));
    // 2^-f = T_i + floor(((T_(i+1) - T_i)·frac + 128) / 256) = T_i - floor((d_i·frac + 127) / 256) (interpolate's
    // rounding: floor((128 - x) / 256) = -floor((x + 127) / 256)); d_i·frac + 127 <= 177·255 + 127 < 2^16 (VMLAS)
    const uint16x8_t ai = vldrhq_gather_shifted_offset_u16(kExpHalves.a, i);
    const uint16x8_t di = vldrhq_gather_shifted_offset_u16(kExpHalves.d, i);
    const uint16x8_t down = vshrq_n_u16(vmlasq_n_u16(di, frac, 127), 8);
    // m = 2^-f in Q16 in [32768, 65536]: min(m, 65535) = a_i - down + 32768 saturated (VQADD), and min(m, 65535)
    // rounded right by k gives min(m·2^-k rounded, 65535) (m = 65536 only at f = 0, where (65535 + 2^(k-1)) >> k =
    // (65536 + 2^(k-1)) >> k for k >= 1)
    const uint16x8_t m16 = vqaddq_n_u16(vsubq_u16(ai, down), 32768u);
    const uint16x8_t p = vrshlq_u16(m16, vnegq_s16(vreinterpretq_s16_u16(k)));
    // dead lanes 0 (and in the tail the lanes past count, which read as 0, are neither stored nor summed)
    const uint16x8_t pl = vpselq_u16(vdupq_n_u16(0), p, vcmphiq_n_u16(nd, lim));
    // alpha_j = p_j - 32768 (the top bit flipped)
    const uint16x8_t out = veorq_u16(pl, vdupq_n_u16(0x8000u));
    if constexpr (kTail) {
        vstrhq_p_u16(reinterpret_cast<std::uint16_t*>(a), out, tail);  // NOLINT
        return vaddvaq_p_u16(l, pl, tail);
    } else {
        vst1q_u16(reinterpret_cast<std::uint16_t*>(a), out);  // NOLINT
        return vaddvaq_u16(l, pl);
    }
}

/// softmax's first pass (q15/seam.hpp), eight values a pass (exps_pass; the last n % 8 under a tail predicate), for
/// to_q16 = 2^sh, 1 <= sh <= 18: the seam's contract (softmax's f in [-2, 15]; the DSP and Thumb loops rely on it
/// too). (No plain fallback for another to_q16: it linked exp_q16's table, 1,028 B, into every Helium image.)
inline std::uint32_t exps(q15* alpha, std::size_t n, std::int32_t m, std::int32_t to_q16,
                          std::int32_t zero_below) noexcept {
    const int sh = __builtin_ctz(static_cast<std::uint32_t>(to_q16));
    mve::touch(alpha);
    std::int16_t* a = mve::raw(alpha);
    const uint16x8_t mv = vdupq_n_u16(static_cast<std::uint16_t>(m));
    // live: nd < -zero_below, that is nd <= lim (-zero_below >= 1; all live where it is past 65535)
    const std::uint16_t lim = zero_below < -65535 ? 65535u : static_cast<std::uint16_t>(-zero_below - 1);
    const std::int32_t neg_r = sh - 14;
    register std::uint32_t l __asm__("r6") = 0;  // (VADDVA's sum: an even register)
    const std::size_t passes = n / 8;
    if (passes > 0) {
        // exps_pass<false>'s steps in an assembly loop (25 instructions a pass where GCC 12 made 30 of the intrinsics:
        // register copies, the predicate moved through a core register, a constant reloaded; 66 instructions fewer a
        // step at n = 64, measured: 2.7% of the M55's q15 dot step at Hidden 16 and In 9 Hidden 12, 1.7% at the
        // reference): q6 = m, q7 = 23637
        // clang-format off
        __asm__ volatile(
            "vdup.16 q6, %[m]\n\t"
            "vdup.16 q7, %[c]\n\t"
            "dls lr, %[passes]\n"
            "1:\n\t"
            "vldrh.u16 q0, [%[a]]\n\t"
            "vsub.i16 q0, q6, q0\n\t"            // nd = m - e
            "vmullb.u16 q1, q0, q7\n\t"          // P, even lanes
            "vmullt.u16 q2, q0, q7\n\t"          // P, odd lanes
            "vrshl.u32 q1, %[negr]\n\t"          // t
            "vrshl.u32 q2, %[negr]\n\t"
            "vshrnb.i32 q3, q1, #16\n\t"         // k = t >> 16, eight lanes
            "vshrnt.i32 q3, q2, #16\n\t"
            "vmovnt.i32 q1, q2\n\t"              // f = t & 0xFFFF (the even lanes' are in place)
            "vshr.u16 q2, q1, #8\n\t"            // i
            "vmovlb.u8 q1, q1\n\t"               // frac
            "vldrh.u16 q4, [%[ta], q2, uxtw #1]\n\t"  // a_i
            "vldrh.u16 q5, [%[td], q2, uxtw #1]\n\t"  // d_i
            "vmlas.u16 q5, q1, %[c127]\n\t"      // d_i·frac + 127
            "vshr.u16 q5, q5, #8\n\t"
            "vsub.i16 q4, q4, q5\n\t"
            "vqadd.u16 q4, q4, %[c32768]\n\t"    // min(2^-f in Q16, 65535)
            "vneg.s16 q3, q3\n\t"
            "vrshl.u16 q4, q4, q3\n\t"           // p, rounded right by k
            "vpt.u16 hi, q0, %[lim]\n\t"         // dead lanes: 0
            "vmovt.i16 q4, #0\n\t"
            "vaddva.u16 %[l], q4\n\t"
            "vsub.i16 q4, q4, %[c32768]\n\t"     // alpha_j = p_j - 32768
            "vstrh.16 q4, [%[a]], #16\n\t"
            "le lr, 1b"
            : [a] "+r"(a), [l] "+r"(l)
            : [m] "r"(m), [c] "r"(23637), [passes] "r"(passes), [negr] "r"(neg_r), [ta] "r"(kExpHalves.a),
              [td] "r"(kExpHalves.d), [c127] "r"(127), [c32768] "r"(32768), [lim] "r"(static_cast<std::uint32_t>(lim))
            : "d0", "d1", "d2", "d3", "d4", "d5", "d6", "d7", "d8", "d9", "d10", "d11", "d12", "d13", "d14", "d15",
              "lr", "memory");
        // clang-format on
    }
    if (n % 8 != 0) l = exps_pass<true>(a, static_cast<std::uint32_t>(n % 8), mv, lim, neg_r, l);
    return l;
}

/// softmax's last pass (q15/seam.hpp), eight values a pass: p_j = alpha_j + 32768 as uint16 (the top bit flipped),
/// VMULH.U16 the top half of p_j·rec (rec <= 65535), shifted right by down - 16 (so (p_j·rec) >> down: floors of
/// floors), at most 32767.
inline void normalize(q15* alpha, std::size_t n, std::uint32_t rec, int down) noexcept {
    mve::touch(alpha);
    auto* a = reinterpret_cast<std::uint16_t*>(alpha);  // NOLINT(cppcoreguidelines-pro-type-reinterpret-cast)
    const auto r16 = static_cast<std::uint16_t>(rec);
    // (a count of passes and a pointer: GCC 12 kept no index beside the loop's)
    for (std::size_t i = n / 8; i > 0; --i, a += 8) {
        const uint16x8_t p = veorq_u16(vld1q_u16(a), vdupq_n_u16(0x8000u));
        const uint16x8_t av = vshlq_r_u16(vmulhq_u16(p, vdupq_n_u16(r16)), 16 - down);
        vst1q_u16(a, vminq_u16(av, vdupq_n_u16(32767u)));
    }
    for (std::size_t j = 0; j < n % 8; ++j) {
        const auto p = static_cast<std::uint32_t>(static_cast<std::int16_t>(a[j]) + 32768);
        const std::uint32_t av = (p * rec) >> down;
        a[j] = static_cast<std::uint16_t>(av > 32767u ? 32767u : av);
    }
}

}  // namespace sarnn::kernel::q15_mve

#endif
