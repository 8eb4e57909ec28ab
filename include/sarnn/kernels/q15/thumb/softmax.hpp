// sarnn/kernels/q15/thumb/softmax.hpp: softmax's first and last passes (q15/seam.hpp's exps and normalize) for the
// Thumb loops (q15/thumb/loops.hpp: ARMv6-M, whose 64-bit multiply is a library call; and the M3), exp_q16
// (kernels/q15/exp.hpp) written out in Thumb assembly that ARMv6-M runs (in unified syntax: SARNN_THUMB_BEGIN and _END,
// which q15/thumb/loops.hpp defines before it includes this file), the same integers as the generic form's call of exp_q16
// a state.
#ifndef SARNN_KERNELS_Q15_THUMB_SOFTMAX_HPP
#define SARNN_KERNELS_Q15_THUMB_SOFTMAX_HPP

#include <cstddef>
#include <cstdint>

#include "sarnn/kernels/q15/exp.hpp"
#include "sarnn/fixed.hpp"

namespace sarnn::kernel::q15_thumb {

/// softmax's first pass (q15/seam.hpp: p_j = min(exp_q16((e_j - m)·to_q16), 65535) where e_j - m > zero_below, else
/// 0, written over e_j as p_j - 32768; returns l = Σ p_j), the states from the last to the first: 31 instructions a
/// state above the cut, the loop's among them (the generic form's call of exp_q16: about 90), 7 below it. With
/// to_q16 = 2^s (1 <= s <= 18: softmax's f in [-2, 15]) and d = m - e_j >= 0, exp_q16's y = d·2^s and
///   t = (y·94548 + 2^15) >> 16 = (d·23637·2^(s+2) + 2^15) >> 16 (94548 = 4·23637)
///     = (d·23637 + 2^(13-s)) >> (14 - s)   for s <= 13 (d·23637 < 2^31: d <= 65535)
///     = d·(23637·2^(s-14))                 for s >= 14 (exact: above the cut y < 12·2^16, so d < 48)
/// that is t = (d·K + r) >> sh = (m·K + r - e_j·K) >> sh, one MULS (m·K + r and -K once, modulo 2^32: the true value
/// is in [0, 2^32)); then k = t >> 16, i = (t >> 8) & 255, frac = t & 255, v = T[i] + floor(((T[i+1] - T[i])·frac +
/// 128) / 256) (interpolate's), and p = (v + 2^(k-1)) >> k (v where k = 0) = (((2v) >> k) + 1) >> 1 (both k = 0 and
/// k > 0: floor((floor(2v / 2^k) + 1) / 2) = floor((2v + 2^k) / 2^(k+1))); min(p, 65535) = p - (p >> 16) (p <= 65536).
/// Above the cut: e_j > m + zero_below (as the generic form's e_j - m > zero_below).
inline std::uint32_t exps(q15* alpha, std::size_t n, std::int32_t m, std::int32_t to_q16,
                          std::int32_t zero_below) noexcept {
    if (n == 0) return 0;
    // s = log2(to_q16)
    auto v = static_cast<std::uint32_t>(to_q16);
    int s = 0;
    if (v >= (1u << 16)) v >>= 16, s += 16;
    if (v >= (1u << 8)) v >>= 8, s += 8;
    if (v >= (1u << 4)) v >>= 4, s += 4;
    if (v >= (1u << 2)) v >>= 2, s += 2;
    if (v >= (1u << 1)) s += 1;
    constexpr std::uint32_t kK = fixed::detail::kLog2eQ16 / 4;  // 23637
    static_assert(kK * 4 == fixed::detail::kLog2eQ16, "log2(e) in Q16 a multiple of 4");
    const std::uint32_t k_mul = s <= 13 ? kK : kK << (s - 14);
    const std::uint32_t r = s <= 13 ? 1u << (13 - s) : 0u;
    std::uint32_t sh = s <= 13 ? static_cast<std::uint32_t>(14 - s) : 0u;
    register std::int32_t thr __asm__("r8") = m + zero_below;
    register std::uint32_t mkr __asm__("r9") = static_cast<std::uint32_t>(m) * k_mul + r;
    register const std::uint32_t* tab __asm__("r10") = fixed::detail::kExp2Table;
    register std::uint32_t l __asm__("r11") = 0;
    register std::uint32_t nk __asm__("r12") = 0u - k_mul;
    q15* const base = alpha;
    auto j = static_cast<std::int32_t>(2 * (n - 1));  // the byte offset of the state, the last first
    // -32768, added to p_j for what is written over e_j: in lr (where MOVS and LSLS made it twice a state), clobbered
    // (lr as a register variable: GCC's far jumps by BL on ARMv6-M clobber it around the block), in by a
    std::uint32_t d, a = 0xFFFF8000u, b, c;
    // clang-format off
    __asm__ volatile(
        SARNN_THUMB_BEGIN
        "mov   lr, %[a]\n"
        "1:\n\t"
        "ldrsh %[d], [%[base], %[j]]\n\t"
        "cmp   %[d], %[thr]\n\t"
        "ble   2f\n\t"
        // t = (m·K + r - e_j·K) >> sh
        "mov   %[a], %[nk]\n\t"
        "muls  %[d], %[a], %[d]\n\t"
        "add   %[d], %[mkr]\n\t"
        "lsrs  %[d], %[d], %[sh]\n\t"
        // v = T[i] + floor(((T[i+1] - T[i])·frac + 128) / 256)
        "lsrs  %[a], %[d], #8\n\t"
        "uxtb  %[a], %[a]\n\t"
        "lsls  %[a], %[a], #2\n\t"
        "add   %[a], %[tab]\n\t"
        "ldr   %[b], [%[a], #4]\n\t"
        "ldr   %[a], [%[a], #0]\n\t"
        "subs  %[b], %[b], %[a]\n\t"
        "uxtb  %[c], %[d]\n\t"
        "muls  %[b], %[c], %[b]\n\t"
        "adds  %[b], #128\n\t"
        "asrs  %[b], %[b], #8\n\t"
        "adds  %[a], %[a], %[b]\n\t"
        // p = (((2v) >> k) + 1) >> 1, at most 65535
        "lsrs  %[d], %[d], #16\n\t"
        "lsls  %[a], %[a], #1\n\t"
        "lsrs  %[a], %[a], %[d]\n\t"
        "adds  %[a], #1\n\t"
        "lsrs  %[a], %[a], #1\n\t"
        "lsrs  %[b], %[a], #16\n\t"
        "subs  %[a], %[a], %[b]\n\t"
        // l += p; p - 32768 over e_j
        "add   %[l], %[a]\n\t"
        "add   %[a], lr\n\t"
        "strh  %[a], [%[base], %[j]]\n\t"
        "subs  %[j], #2\n\t"
        "bpl   1b\n\t"
        "b     3f\n"
        // below the cut: p = 0, -32768 over e_j
        "2:\n\t"
        "mov   %[a], lr\n\t"
        "strh  %[a], [%[base], %[j]]\n\t"
        "subs  %[j], #2\n\t"
        "bpl   1b\n"
        "3:" SARNN_THUMB_END
        : [l] "+r"(l), [j] "+l"(j), [d] "=&l"(d), [a] "+l"(a), [b] "=&l"(b), [c] "=&l"(c), [sh] "+l"(sh)
        : [thr] "r"(thr), [mkr] "r"(mkr), [tab] "r"(tab), [nk] "r"(nk), [base] "l"(base)
        : "cc", "memory", "lr");
    // clang-format on
    return l;
}

/// softmax's last pass (q15/seam.hpp: alpha_j = min((p_j·rec) >> down, 32767), p_j = alpha_j + 32768, p_j·rec <
/// 2^32): 7 instructions a state where down >= 17 (the generic form's: 17), p_j the halfword's bits with the top one
/// flipped, one MULS, the min never acting there (q15/dsp/softmax.hpp's normalize says why); down = 16 (the max alone
/// above the cut) in C.
inline void normalize(q15* alpha, std::size_t n, std::uint32_t rec, int down) noexcept {
    if (down <= 16 || n == 0) {
        for (q15* const end = alpha + n; alpha != end; ++alpha) {
            const auto p = static_cast<std::uint32_t>(alpha->raw + 32768);
            const std::uint32_t av = (p * rec) >> down;
            alpha->raw = static_cast<std::int16_t>(av > 32767u ? 32767u : av);
        }
        return;
    }
    q15* const base = alpha;
    auto j = static_cast<std::int32_t>(2 * (n - 1));  // the byte offset of the state, the last first
    std::uint32_t r = rec, sh = static_cast<std::uint32_t>(down), top = 0x8000u, a;
    // clang-format off
    __asm__ volatile(
        SARNN_THUMB_BEGIN
        "1:\n\t"
        "ldrh  %[a], [%[base], %[j]]\n\t"
        "eors  %[a], %[top]\n\t"
        "muls  %[a], %[r], %[a]\n\t"
        "lsrs  %[a], %[a], %[sh]\n\t"
        "strh  %[a], [%[base], %[j]]\n\t"
        "subs  %[j], #2\n\t"
        "bpl   1b" SARNN_THUMB_END
        : [j] "+l"(j), [a] "=&l"(a)
        : [base] "l"(base), [r] "l"(r), [sh] "l"(sh), [top] "l"(top)
        : "cc", "memory");
    // clang-format on
}

}  // namespace sarnn::kernel::q15_thumb

#endif
