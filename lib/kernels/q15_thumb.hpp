// lib/kernels/q15_thumb.hpp: the inner loops of the q15 kernels (lib/kernels/q15.cpp) for the Cortex-M cores, in
// Thumb assembly that ARMv6-M (M0, M0+) runs: there GCC 12 at -Os spent 8 to 13 instructions on a multiply-add
// (index registers reloaded with constants, values moved through ip); these spend 4.75 to 5.25. Each computes
// exactly what its plain C++ twin beside it computes (integer sums, the same bounds), which the other targets run.
// Registers: the values and pointers in low registers ("l": ARMv6-M's loads and MULS take no others), the
// accumulators and loop ends in high ones, r8 to r11 (ADD and CMP take them), so that nothing spills: as explicit
// register variables, since GCC 12 gives an asm at most one register of its "h" class on ARMv6-M.
#ifndef SARNN_LIB_KERNELS_Q15_THUMB_HPP
#define SARNN_LIB_KERNELS_Q15_THUMB_HPP

#include <cstddef>
#include <cstdint>

#include "sarnn/fixed.hpp"

#if defined(__thumb__) && (defined(__ARM_ARCH_6M__) || defined(__ARM_ARCH_7M__) || defined(__ARM_ARCH_7EM__))
#define SARNN_Q15_THUMB 1
// The blocks are in unified syntax; GCC hands ARMv6-M inline asm to the assembler in divided syntax (and switches
// back to unified after it), ARMv7-M in unified.
#define SARNN_THUMB_BEGIN ".syntax unified\n\t"
#if defined(__ARM_ARCH_6M__)
#define SARNN_THUMB_END "\n\t.syntax divided"
#else
#define SARNN_THUMB_END ""
#endif
#endif

namespace sarnn::kernel::thumb {

/// acc0 += Σ_k w0_k·v_k, acc1 += Σ_k w1_k·v_k over an even n >= 2 of int8 weights (two rows) and q15 values (any
/// alignment): the two rows share each load of v. |terms| <= 2^22, n <= 511: every partial sum fits int32.
inline void dot2_w8(const std::int8_t* w0, const std::int8_t* w1, const q15* v, std::size_t n, std::int32_t& acc0,
                    std::int32_t& acc1) noexcept {
#ifdef SARNN_Q15_THUMB
    register std::int32_t a0 __asm__("r8") = acc0;
    register std::int32_t a1 __asm__("r9") = acc1;
    register std::size_t end __asm__("r10") = n;
    std::size_t i = 0;
    std::int32_t t, p;
    const q15* vp = v;
    __asm__ volatile(
        SARNN_THUMB_BEGIN
        "1:\n\t"
        "ldrh  %[t], [%[vp], #0]\n\t"
        "sxth  %[t], %[t]\n\t"
        "ldrsb %[p], [%[w0], %[i]]\n\t"
        "muls  %[p], %[t]\n\t"
        "add   %[a0], %[p]\n\t"
        "ldrsb %[p], [%[w1], %[i]]\n\t"
        "muls  %[p], %[t]\n\t"
        "add   %[a1], %[p]\n\t"
        "adds  %[i], #1\n\t"
        "ldrh  %[t], [%[vp], #2]\n\t"
        "sxth  %[t], %[t]\n\t"
        "ldrsb %[p], [%[w0], %[i]]\n\t"
        "muls  %[p], %[t]\n\t"
        "add   %[a0], %[p]\n\t"
        "ldrsb %[p], [%[w1], %[i]]\n\t"
        "muls  %[p], %[t]\n\t"
        "add   %[a1], %[p]\n\t"
        "adds  %[i], #1\n\t"
        "adds  %[vp], #4\n\t"
        "cmp   %[i], %[n]\n\t"
        "bne   1b" SARNN_THUMB_END
        : [a0] "+r"(a0), [a1] "+r"(a1), [i] "+l"(i), [vp] "+l"(vp), [t] "=&l"(t), [p] "=&l"(p)
        : [w0] "l"(w0), [w1] "l"(w1), [n] "r"(end), "m"(*reinterpret_cast<const std::int8_t(*)[]>(w0)),
          "m"(*reinterpret_cast<const std::int8_t(*)[]>(w1)), "m"(*reinterpret_cast<const q15(*)[]>(v))
        : "cc");
    acc0 = a0;
    acc1 = a1;
#else
    for (std::size_t k = 0; k < n; ++k) {
        acc0 += w0[k] * v[k].raw;
        acc1 += w1[k] * v[k].raw;
    }
#endif
}

/// acc0 += s0·q, acc1 += s1·q over npairs >= 1 pairs of q15 values, all three 4-byte aligned: the two stored states
/// share each load of q. The caller bounds Σ|q_k| <= 2^16, so |s·q| < 2^31.
inline void dot2_pairs(const q15* s0, const q15* s1, const q15* q, std::size_t npairs, std::int32_t& acc0,
                       std::int32_t& acc1) noexcept {
#ifdef SARNN_Q15_THUMB
    register std::int32_t a0 __asm__("r8") = acc0;
    register std::int32_t a1 __asm__("r9") = acc1;
    register const q15* end __asm__("r10") = q + 2 * npairs;
    const q15* qp = q;
    const q15* p0 = s0;
    const q15* p1 = s1;
    std::uint32_t x, y, t, u;
    __asm__ volatile(
        SARNN_THUMB_BEGIN
        "1:\n\t"
        "ldmia %[qp]!, {%[x]}\n\t"
        "ldmia %[p0]!, {%[y]}\n\t"
        "sxth  %[t], %[x]\n\t"
        "sxth  %[u], %[y]\n\t"
        "muls  %[u], %[t]\n\t"
        "add   %[a0], %[u]\n\t"
        "asrs  %[y], %[y], #16\n\t"
        "asrs  %[x], %[x], #16\n\t"
        "muls  %[y], %[x]\n\t"
        "add   %[a0], %[y]\n\t"
        "ldmia %[p1]!, {%[y]}\n\t"
        "sxth  %[u], %[y]\n\t"
        "muls  %[u], %[t]\n\t"
        "add   %[a1], %[u]\n\t"
        "asrs  %[y], %[y], #16\n\t"
        "muls  %[y], %[x]\n\t"
        "add   %[a1], %[y]\n\t"
        "cmp   %[qp], %[end]\n\t"
        "bne   1b" SARNN_THUMB_END
        : [a0] "+r"(a0), [a1] "+r"(a1), [qp] "+l"(qp), [p0] "+l"(p0), [p1] "+l"(p1), [x] "=&l"(x), [y] "=&l"(y),
          [t] "=&l"(t), [u] "=&l"(u)
        : [end] "r"(end), "m"(*reinterpret_cast<const q15(*)[]>(s0)), "m"(*reinterpret_cast<const q15(*)[]>(s1)),
          "m"(*reinterpret_cast<const q15(*)[]>(q))
        : "cc");
    acc0 = a0;
    acc1 = a1;
#else
    for (std::size_t k = 0; k < 2 * npairs; ++k) {
        acc0 += s0[k].raw * q[k].raw;
        acc1 += s1[k].raw * q[k].raw;
    }
#endif
}

/// acc0 += Σ_j a_j·v_j[0], acc1 += Σ_j a_j·v_j[1] over an even count >= 2 of rows v_j = v + j·stride (4-byte
/// aligned, stride even) and weights a (4-byte aligned): two columns of the weighted sum of the states, the
/// weights read by pairs. |a_j| <= 32767 with Σ a_j <= 32769, |v| <= 32767: every partial sum fits int32.
inline void columns2(const q15* a, const q15* v, std::size_t stride, std::size_t count, std::int32_t& acc0,
                     std::int32_t& acc1) noexcept {
#ifdef SARNN_Q15_THUMB
    register std::int32_t c0 __asm__("r8") = acc0;
    register std::int32_t c1 __asm__("r9") = acc1;
    register const q15* end __asm__("r10") = a + count;
    register std::size_t step __asm__("r11") = stride * sizeof(q15);
    const q15* ap = a;
    const q15* vp = v;
    std::uint32_t w, s, t, b;
    __asm__ volatile(
        SARNN_THUMB_BEGIN
        "1:\n\t"
        "ldmia %[ap]!, {%[w]}\n\t"
        "sxth  %[b], %[w]\n\t"
        "ldr   %[s], [%[vp], #0]\n\t"
        "add   %[vp], %[step]\n\t"
        "sxth  %[t], %[s]\n\t"
        "muls  %[t], %[b]\n\t"
        "add   %[c0], %[t]\n\t"
        "asrs  %[s], %[s], #16\n\t"
        "muls  %[s], %[b]\n\t"
        "add   %[c1], %[s]\n\t"
        "asrs  %[b], %[w], #16\n\t"
        "ldr   %[s], [%[vp], #0]\n\t"
        "add   %[vp], %[step]\n\t"
        "sxth  %[t], %[s]\n\t"
        "muls  %[t], %[b]\n\t"
        "add   %[c0], %[t]\n\t"
        "asrs  %[s], %[s], #16\n\t"
        "muls  %[s], %[b]\n\t"
        "add   %[c1], %[s]\n\t"
        "cmp   %[ap], %[end]\n\t"
        "bne   1b" SARNN_THUMB_END
        : [c0] "+r"(c0), [c1] "+r"(c1), [ap] "+l"(ap), [vp] "+l"(vp), [w] "=&l"(w), [s] "=&l"(s), [t] "=&l"(t),
          [b] "=&l"(b)
        : [step] "r"(step), [end] "r"(end), "m"(*reinterpret_cast<const q15(*)[]>(a)),
          "m"(*reinterpret_cast<const q15(*)[]>(v))
        : "cc");
    acc0 = c0;
    acc1 = c1;
#else
    for (std::size_t j = 0; j < count; ++j) {
        acc0 += a[j].raw * v[j * stride].raw;
        acc1 += a[j].raw * v[j * stride + 1].raw;
    }
#endif
}

}  // namespace sarnn::kernel::thumb

#endif
