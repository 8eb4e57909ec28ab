// sarnn/kernels/q15/thumb/loops.hpp: the q15 kernels' inner loops (the seam: q15/seam.hpp) for the Cortex-M cores without
// the DSP extension (M0, M0+, M3), in Thumb assembly that ARMv6-M runs: there GCC 12 at -Os spent 8 to 13
// instructions on a multiply-add (index registers reloaded with constants, values moved through ip); these spend
// 4.19 (four rows) to 4.75. Each computes exactly what q15/plain.hpp computes (integer sums, the same bounds). The
// cells and the rows' finish: q15/thumb/cells.hpp, q15/thumb/finish.hpp; the GRU's gates whole: q15/thumb/gru.hpp;
// the scores: q15/thumb/scores.hpp; softmax's passes: q15/thumb/softmax.hpp.
// Registers: values and pointers in low registers ("l": ARMv6-M's loads and MULS take no others; at most seven, so
// that r7 may stay the frame pointer), accumulators, loop ends and strides in high ones, r8 to r12 (ADD, CMP and MOV
// take them), so that nothing spills: as explicit register variables, since GCC 12 gives an asm at most one
// register of its "h" class on ARMv6-M.
#ifndef SARNN_KERNELS_Q15_THUMB_LOOPS_HPP
#define SARNN_KERNELS_Q15_THUMB_LOOPS_HPP

#include <cstddef>
#include <cstdint>

#include "sarnn/kernels/q15/plain.hpp"
#include "sarnn/kernels/q15/seam.hpp"
#include "sarnn/kernels/q15/thumb/cells.hpp"
#include "sarnn/kernels/q15/tanh.hpp"
#include "sarnn/config.hpp"  // SARNN_Q15_COMPACT
#if !SARNN_Q15_COMPACT
#include "sarnn/kernels/q15/tanh_words.hpp"
#endif
#include "sarnn/fixed.hpp"

// The blocks are in unified syntax; GCC hands ARMv6-M inline asm to the assembler in divided syntax (and switches
// back to unified after it), ARMv7-M in unified.
// clang-format off
#define SARNN_THUMB_BEGIN ".syntax unified\n\t"
// clang-format on
#if defined(__ARM_ARCH_6M__)
// clang-format off
#define SARNN_THUMB_END "\n\t.syntax divided"
// clang-format on
#else
// clang-format off
#define SARNN_THUMB_END ""
// clang-format on
#endif

#include "sarnn/kernels/q15/thumb/finish.hpp"   // (its assembly takes the macros above)
#include "sarnn/kernels/q15/thumb/gru.hpp"      // (and this one)
#include "sarnn/kernels/q15/thumb/scores.hpp"   // (and this one)
#include "sarnn/kernels/q15/thumb/softmax.hpp"  // (and this one)

namespace sarnn::kernel::q15_thumb {

// Four rows of the product, two states of the scores, six columns of the weighted sum per pass (then four, then two).
constexpr std::size_t kRows = 4, kStates = 2, kColumns = 6;

// The group sizes without a loop of their own: q15_plain's (the specialisations below are this target's).
template <std::size_t G>
inline void dot_rows(const std::int8_t* w, std::size_t ld, const q15* v, std::size_t n, std::int32_t* acc) noexcept {
    q15_plain::dot_rows<G>(w, ld, v, n, acc);
}
template <std::size_t G>
inline void dot_states(const q15* s, std::size_t stride, const q15* q, std::size_t npairs, std::int32_t* d) noexcept {
    q15_plain::dot_states<G>(s, stride, q, npairs, d);
}
template <std::size_t G>
inline void columns(const q15* a, const q15* v, std::size_t stride, std::size_t count, std::int32_t* acc) noexcept {
    q15_plain::columns<G>(a, v, stride, count, acc);
}

// One column of G rows' loop (SARNN_THUMB_COL1, 2): v's value at byte offset `off` of vp, times the column at
// index i of each row (w0, w1), into a0, a1; then the next column.
// clang-format off
#define SARNN_THUMB_VALUE(off)                \
    "ldrh  %[t], [%[vp], #" off "]\n\t"      \
    "sxth  %[t], %[t]\n\t"
#define SARNN_THUMB_MAC(w, a)                 \
    "ldrsb %[p], [%[" w "], %[i]]\n\t"       \
    "muls  %[p], %[t]\n\t"                   \
    "add   %[" a "], %[p]\n\t"
#define SARNN_THUMB_COL1(off) SARNN_THUMB_VALUE(off) SARNN_THUMB_MAC("w0", "a0") "adds  %[i], #1\n\t"
#define SARNN_THUMB_COL2(off) SARNN_THUMB_VALUE(off) SARNN_THUMB_MAC("w0", "a0") SARNN_THUMB_MAC("w1", "a1") \
    "adds  %[i], #1\n\t"
// clang-format on

/// One row: four columns per iteration (6.75 instructions a multiply-add), the last n % 4 one by one in the same
/// block (no loop of C per element).
template <>
inline void dot_rows<1>(const std::int8_t* w, std::size_t, const q15* v, std::size_t n, std::int32_t* acc) noexcept {
    register std::int32_t a0 __asm__("r8") = acc[0];
    register std::size_t end4 __asm__("r9") = n & ~std::size_t{3};
    register std::size_t end __asm__("r10") = n;
    std::size_t i = 0;
    std::int32_t t, p;
    const q15* vp = v;
    // clang-format off
    __asm__ volatile(
        SARNN_THUMB_BEGIN
        "cmp   %[i], %[n4]\n\t"
        "beq   2f\n"
        "1:\n\t"
        SARNN_THUMB_COL1("0") SARNN_THUMB_COL1("2") SARNN_THUMB_COL1("4") SARNN_THUMB_COL1("6")
        "adds  %[vp], #8\n\t"
        "cmp   %[i], %[n4]\n\t"
        "bne   1b\n"
        "2:\n\t"
        "cmp   %[i], %[n]\n\t"
        "beq   3f\n"
        "4:\n\t"
        SARNN_THUMB_COL1("0")
        "adds  %[vp], #2\n\t"
        "cmp   %[i], %[n]\n\t"
        "bne   4b\n"
        "3:" SARNN_THUMB_END
        : [a0] "+r"(a0), [i] "+l"(i), [vp] "+l"(vp), [t] "=&l"(t), [p] "=&l"(p)
        : [w0] "l"(w), [n4] "r"(end4), [n] "r"(end), "m"(*reinterpret_cast<const std::int8_t(*)[]>(w)),
          "m"(*reinterpret_cast<const q15(*)[]>(v))
        : "cc");
    // clang-format on
    acc[0] = a0;
}

/// Two rows: two columns per iteration (v read by halfwords: any alignment), an odd last column in the same block.
template <>
inline void dot_rows<2>(const std::int8_t* w, std::size_t ld, const q15* v, std::size_t n, std::int32_t* acc) noexcept {
    register std::int32_t a0 __asm__("r8") = acc[0];
    register std::int32_t a1 __asm__("r9") = acc[1];
    register std::size_t end2 __asm__("r10") = n & ~std::size_t{1};
    register std::size_t end __asm__("r11") = n;
    std::size_t i = 0;
    std::int32_t t, p;
    const q15* vp = v;
    // clang-format off
    __asm__ volatile(
        SARNN_THUMB_BEGIN
        "cmp   %[i], %[n2]\n\t"
        "beq   2f\n"
        "1:\n\t"
        SARNN_THUMB_COL2("0") SARNN_THUMB_COL2("2")
        "adds  %[vp], #4\n\t"
        "cmp   %[i], %[n2]\n\t"
        "bne   1b\n"
        "2:\n\t"
        "cmp   %[i], %[n]\n\t"
        "beq   3f\n\t"
        SARNN_THUMB_COL2("0")
        "3:" SARNN_THUMB_END
        : [a0] "+r"(a0), [a1] "+r"(a1), [i] "+l"(i), [vp] "+l"(vp), [t] "=&l"(t), [p] "=&l"(p)
        : [w0] "l"(w), [w1] "l"(w + ld), [n2] "r"(end2), [n] "r"(end),
          "m"(*reinterpret_cast<const std::int8_t(*)[]>(w)), "m"(*reinterpret_cast<const std::int8_t(*)[]>(w + ld)),
          "m"(*reinterpret_cast<const q15(*)[]>(v))
        : "cc");
    // clang-format on
    acc[0] = a0;
    acc[1] = a1;
}

// One column of the four rows' loop: v's value at byte offset `off` of vp, times the column at wp of each row (row 0
// by LDRB and SXTB: no register for a zero offset; rows 1 to 3 at the offsets o1 to o3); then the next column.
// clang-format off
#define SARNN_THUMB_COL4(off)                 \
    SARNN_THUMB_VALUE(off)                    \
    "ldrb  %[p], [%[wp], #0]\n\t"            \
    "sxtb  %[p], %[p]\n\t"                   \
    "muls  %[p], %[t]\n\t"                   \
    "add   %[a0], %[p]\n\t"                  \
    SARNN_THUMB_MAC_AT("o1", "a1")           \
    SARNN_THUMB_MAC_AT("o2", "a2")           \
    SARNN_THUMB_MAC_AT("o3", "a3")           \
    "adds  %[wp], #1\n\t"
#define SARNN_THUMB_MAC_AT(o, a)              \
    "ldrsb %[p], [%[wp], %[" o "]]\n\t"     \
    "muls  %[p], %[t]\n\t"                   \
    "add   %[" a "], %[p]\n\t"
// clang-format on

/// Four rows: four columns per iteration, each value loaded once for the four (4.19 instructions a multiply-add),
/// the last n % 4 columns one a pass in the same block (4.5 a multiply-add; no loop of C per element): their end on
/// the stack for the block (no register left).
template <>
inline void dot_rows<4>(const std::int8_t* w, std::size_t ld, const q15* v, std::size_t n, std::int32_t* acc) noexcept {
    register std::int32_t a0 __asm__("r8") = acc[0];
    register std::int32_t a1 __asm__("r9") = acc[1];
    register std::int32_t a2 __asm__("r10") = acc[2];
    register std::int32_t a3 __asm__("r11") = acc[3];
    register const std::int8_t* end __asm__("r12") = w + (n & ~std::size_t{3});
    const std::int8_t* wp = w;
    const q15* vp = v;
    std::int32_t p;
    auto t = reinterpret_cast<std::intptr_t>(w + n);  // (the last column's end, pushed; then v's values)
    // clang-format off
    __asm__ volatile(
        SARNN_THUMB_BEGIN
        "push  {%[t]}\n\t"
        "cmp   %[wp], %[end]\n\t"
        "beq   2f\n"
        "1:\n\t"
        SARNN_THUMB_COL4("0") SARNN_THUMB_COL4("2") SARNN_THUMB_COL4("4") SARNN_THUMB_COL4("6")
        "adds  %[vp], #8\n\t"
        "cmp   %[wp], %[end]\n\t"
        "bne   1b\n"
        "2:\n\t"
        "ldr   %[p], [sp, #0]\n\t"
        "cmp   %[wp], %[p]\n\t"
        "beq   3f\n"
        "4:\n\t"
        SARNN_THUMB_COL4("0")
        "adds  %[vp], #2\n\t"
        "ldr   %[p], [sp, #0]\n\t"
        "cmp   %[wp], %[p]\n\t"
        "bne   4b\n"
        "3:\n\t"
        "add   sp, #4" SARNN_THUMB_END
        : [a0] "+r"(a0), [a1] "+r"(a1), [a2] "+r"(a2), [a3] "+r"(a3), [wp] "+l"(wp), [vp] "+l"(vp), [t] "+l"(t),
          [p] "=&l"(p)
        : [o1] "l"(ld), [o2] "l"(2 * ld), [o3] "l"(3 * ld), [end] "r"(end),
          "m"(*reinterpret_cast<const std::int8_t(*)[]>(w)), "m"(*reinterpret_cast<const q15(*)[]>(v))
        : "cc");
    // clang-format on
    acc[0] = a0;
    acc[1] = a1;
    acc[2] = a2;
    acc[3] = a3;
}
#undef SARNN_THUMB_COL4
#undef SARNN_THUMB_MAC_AT
#undef SARNN_THUMB_COL2
#undef SARNN_THUMB_COL1
#undef SARNN_THUMB_MAC
#undef SARNN_THUMB_VALUE

/// Two states: each pair of q loaded once for both (4.75 instructions a multiply-add).
template <>
inline void dot_states<2>(const q15* s, std::size_t stride, const q15* q, std::size_t npairs,
                          std::int32_t* d) noexcept {
    register std::int32_t a0 __asm__("r8") = 0;
    register std::int32_t a1 __asm__("r9") = 0;
    register const q15* end __asm__("r10") = q + 2 * npairs;
    const q15* qp = q;
    const q15* p0 = s;
    const q15* p1 = s + stride;
    std::uint32_t x, y, t, u;
    // clang-format off
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
        : [end] "r"(end), "m"(*reinterpret_cast<const q15(*)[]>(s)), "m"(*reinterpret_cast<const q15(*)[]>(q))
        : "cc");
    // clang-format on
    d[0] = a0;
    d[1] = a1;
}

/// Two columns: the weights read by pairs, each row by one word (5.25 instructions a multiply-add).
template <>
inline void columns<2>(const q15* a, const q15* v, std::size_t stride, std::size_t count, std::int32_t* acc) noexcept {
    register std::int32_t c0 __asm__("r8") = acc[0];
    register std::int32_t c1 __asm__("r9") = acc[1];
    register const q15* end __asm__("r10") = a + count;
    register std::size_t step __asm__("r11") = stride * sizeof(q15);
    const q15* ap = a;
    const q15* vp = v;
    std::uint32_t w, s, t, b;
    // clang-format off
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
    // clang-format on
    acc[0] = c0;
    acc[1] = c1;
}

// One state's four values (two words at vp, then vp += step) times its weight b, into c0..c3.
// clang-format off
#define SARNN_THUMB_STATE4                    \
    "ldr   %[s], [%[vp], #0]\n\t"             \
    "sxth  %[t], %[s]\n\t"                    \
    "muls  %[t], %[b]\n\t"                    \
    "add   %[c0], %[t]\n\t"                   \
    "asrs  %[s], %[s], #16\n\t"               \
    "muls  %[s], %[b]\n\t"                    \
    "add   %[c1], %[s]\n\t"                   \
    "ldr   %[s], [%[vp], #4]\n\t"             \
    "sxth  %[t], %[s]\n\t"                    \
    "muls  %[t], %[b]\n\t"                    \
    "add   %[c2], %[t]\n\t"                   \
    "asrs  %[s], %[s], #16\n\t"               \
    "muls  %[s], %[b]\n\t"                    \
    "add   %[c3], %[s]\n\t"                   \
    "add   %[vp], %[step]\n\t"
// clang-format on

/// Four columns: two words of each row per weight (4.4 instructions a multiply-add).
template <>
inline void columns<4>(const q15* a, const q15* v, std::size_t stride, std::size_t count, std::int32_t* acc) noexcept {
    register std::int32_t c0 __asm__("r8") = acc[0];
    register std::int32_t c1 __asm__("r9") = acc[1];
    register std::int32_t c2 __asm__("r10") = acc[2];
    register std::int32_t c3 __asm__("r11") = acc[3];
    register std::size_t step __asm__("r12") = stride * sizeof(q15);
    const q15* end = a + count;
    const q15* ap = a;
    const q15* vp = v;
    std::uint32_t w, s, t, b;
    // clang-format off
    __asm__ volatile(
        SARNN_THUMB_BEGIN
        "1:\n\t"
        "ldmia %[ap]!, {%[w]}\n\t"
        "sxth  %[b], %[w]\n\t" SARNN_THUMB_STATE4
        "asrs  %[b], %[w], #16\n\t" SARNN_THUMB_STATE4
        "cmp   %[ap], %[end]\n\t"
        "bne   1b" SARNN_THUMB_END
        : [c0] "+r"(c0), [c1] "+r"(c1), [c2] "+r"(c2), [c3] "+r"(c3), [ap] "+l"(ap), [vp] "+l"(vp), [w] "=&l"(w),
          [s] "=&l"(s), [t] "=&l"(t), [b] "=&l"(b)
        : [step] "r"(step), [end] "l"(end), "m"(*reinterpret_cast<const q15(*)[]>(a)),
          "m"(*reinterpret_cast<const q15(*)[]>(v))
        : "cc");
    // clang-format on
    acc[0] = c0;
    acc[1] = c1;
    acc[2] = c2;
    acc[3] = c3;
}
#undef SARNN_THUMB_STATE4

// One state's six values (three words at vp, then vp += step) times its weight b, into c0..c5.
// clang-format off
#define SARNN_THUMB_STATE6_WORD(off, lo, hi)  \
    "ldr   %[s], [%[vp], #" off "]\n\t"       \
    "sxth  %[t], %[s]\n\t"                    \
    "muls  %[t], %[b]\n\t"                    \
    "add   " lo ", %[t]\n\t"                  \
    "asrs  %[s], %[s], #16\n\t"               \
    "muls  %[s], %[b]\n\t"                    \
    "add   " hi ", %[s]\n\t"
#define SARNN_THUMB_STATE6                          \
    SARNN_THUMB_STATE6_WORD("0", "%[c0]", "%[c1]")  \
    SARNN_THUMB_STATE6_WORD("4", "%[c2]", "%[c3]")  \
    SARNN_THUMB_STATE6_WORD("8", "%[c4]", "lr")     \
    "adds  %[vp], %[vp], %[step]\n\t"
// clang-format on

/// Six columns: three words of each row per weight, the sums in r8 to r12 and lr (4.17 instructions a multiply-add);
/// the weights' end pushed (no register left for it).
template <>
inline void columns<6>(const q15* a, const q15* v, std::size_t stride, std::size_t count, std::int32_t* acc) noexcept {
    register std::int32_t c0 __asm__("r8") = acc[0];
    register std::int32_t c1 __asm__("r9") = acc[1];
    register std::int32_t c2 __asm__("r10") = acc[2];
    register std::int32_t c3 __asm__("r11") = acc[3];
    register std::int32_t c4 __asm__("r12") = acc[4];
    const std::size_t step = stride * sizeof(q15);
    const q15* ap = a;
    const q15* vp = v;
    auto t = reinterpret_cast<std::intptr_t>(a + count);  // (the weights' end, pushed; then products)
    // c5 in lr, clobbered (lr as a register variable: GCC's far jumps by BL on ARMv6-M clobber it around the block),
    // in and out through w
    auto w = static_cast<std::uint32_t>(acc[5]);
    std::uint32_t s, b;
    // clang-format off
    __asm__ volatile(
        SARNN_THUMB_BEGIN
        "push  {%[t]}\n\t"
        "mov   lr, %[w]\n"
        "1:\n\t"
        "ldmia %[ap]!, {%[w]}\n\t"
        "sxth  %[b], %[w]\n\t" SARNN_THUMB_STATE6
        "asrs  %[b], %[w], #16\n\t" SARNN_THUMB_STATE6
        "ldr   %[w], [sp, #0]\n\t"
        "cmp   %[ap], %[w]\n\t"
        "bne   1b\n\t"
        "mov   %[w], lr\n\t"
        "add   sp, #4" SARNN_THUMB_END
        : [c0] "+r"(c0), [c1] "+r"(c1), [c2] "+r"(c2), [c3] "+r"(c3), [c4] "+r"(c4), [ap] "+l"(ap), [vp] "+l"(vp),
          [t] "+l"(t), [w] "+l"(w), [s] "=&l"(s), [b] "=&l"(b)
        : [step] "l"(step), "m"(*reinterpret_cast<const q15(*)[]>(a)), "m"(*reinterpret_cast<const q15(*)[]>(v))
        : "cc", "lr");
    // clang-format on
    acc[0] = c0;
    acc[1] = c1;
    acc[2] = c2;
    acc[3] = c3;
    acc[4] = c4;
    acc[5] = static_cast<std::int32_t>(w);
}
#undef SARNN_THUMB_STATE6
#undef SARNN_THUMB_STATE6_WORD

#if !SARNN_Q15_COMPACT  // (cmake -DSARNN_Q15_COMPACT=ON: without the table's 8 KiB, the C form of q15/seam.hpp)
// One key value of the additive score's sum (kernels/q15/tanh_words.hpp): z = P_k + q_k (q at dq bytes from the key),
// w = the word of z >> 6, y = ((w + (w >> 22)·(z & 63)) << 10) >> 16 = tanh(z), d += v_k·y, v_k at byte `off` of vp.
// clang-format off
#define SARNN_THUMB_ADDITIVE(off)             \
    "ldrh  %[z], [%[kp], #0]\n\t"            \
    "sxth  %[z], %[z]\n\t"                   \
    "ldrsh %[t], [%[kp], %[dq]]\n\t"         \
    "adds  %[z], %[z], %[t]\n\t"             \
    "asrs  %[y], %[z], #6\n\t"               \
    "lsls  %[y], %[y], #2\n\t"               \
    "add   %[y], %[T]\n\t"                   \
    "ldr   %[w], [%[y], #0]\n\t"             \
    "lsls  %[z], %[z], #26\n\t"              \
    "lsrs  %[z], %[z], #26\n\t"              \
    "lsrs  %[y], %[w], #22\n\t"              \
    "muls  %[y], %[z], %[y]\n\t"             \
    "adds  %[w], %[w], %[y]\n\t"             \
    "lsls  %[w], %[w], #10\n\t"              \
    "asrs  %[w], %[w], #16\n\t"              \
    "ldrb  %[t], [%[vp], #" off "]\n\t"      \
    "sxtb  %[t], %[t]\n\t"                   \
    "muls  %[w], %[t], %[w]\n\t"             \
    "add   %[d], %[w]\n\t"                   \
    "adds  %[kp], #2\n\t"
// clang-format on

/// The additive score's sum (q15/seam.hpp: the same integers as its C form), tanh from the table words of
/// kernels/q15/tanh_words.hpp (the sign, the saturation and the rounding in the table): two key values a pass, 21.5
/// instructions each (the C form's tanh: 31). The query read at a fixed distance from the key (one register for
/// both), the words, the end and the sum in high registers; an odd K's first value in C.
inline std::int32_t additive_sum(const q15* key, const q15* q, const std::int8_t* v, std::size_t K) noexcept {
    std::int32_t sum = 0;
    if (K % 2 != 0) {
        sum = v[0] * fixed::detail::tanh_from_words(key[0].raw + q[0].raw);
        ++key;
        ++q;
        ++v;
        --K;
    }
    if (K == 0) return sum;
    // the word of z >> 6 = i at T + 4·i (i in [-1024, 1023])
    register const std::uint32_t* T __asm__("r8") = fixed::detail::kTanhWords.w + 1024;
    register const q15* end __asm__("r9") = key + K;
    register std::int32_t d __asm__("r10") = sum;
    const q15* kp = key;
    const std::int8_t* vp = v;
    // q's bytes from the key's: q_k = *(kp + dq)
    const std::int32_t dq = static_cast<std::int32_t>(reinterpret_cast<std::uintptr_t>(q) -
                                                      reinterpret_cast<std::uintptr_t>(key));
    std::int32_t z, t, y, w;
    // clang-format off
    __asm__ volatile(
        SARNN_THUMB_BEGIN
        "1:\n\t"
        SARNN_THUMB_ADDITIVE("0") SARNN_THUMB_ADDITIVE("1")
        "adds  %[vp], #2\n\t"
        "cmp   %[kp], %[end]\n\t"
        "bne   1b" SARNN_THUMB_END
        : [d] "+r"(d), [kp] "+l"(kp), [vp] "+l"(vp), [z] "=&l"(z), [t] "=&l"(t), [y] "=&l"(y), [w] "=&l"(w)
        : [T] "r"(T), [end] "r"(end), [dq] "l"(dq)
        : "cc", "memory");  // (reads key, q, v and the words: "m" operands would each take one more low register)
    return d;
    // clang-format on
}
#undef SARNN_THUMB_ADDITIVE
#endif

}  // namespace sarnn::kernel::q15_thumb

namespace sarnn::kernel::q15_loops {

/// The Thumb loops: the products, the scores and their max (q15/thumb/scores.hpp), additive_sum, softmax's exps and
/// normalize (q15/thumb/softmax.hpp), the cells (q15/thumb/cells.hpp), the rows finished (q15/thumb/finish.hpp) and the
/// GRU's gates (q15/thumb/gru.hpp); the rest generic.
struct ThumbLoops : Loops<ThumbLoops> {
    static constexpr std::size_t kRows = q15_thumb::kRows, kStates = q15_thumb::kStates, kColumns = q15_thumb::kColumns;
    static constexpr unsigned kCaps = kScores | kAdditiveSum | kExps | kNormalize | kGruCell | kCell | kFinishGru |
                                      kFinishSum | kGruGates | kScoresMax;
    template <std::size_t G>
    __attribute__((always_inline)) static void dot_rows(const std::int8_t* w, std::size_t ld, const q15* v,
                                                        std::size_t n, std::int32_t* acc) noexcept {
        q15_thumb::dot_rows<G>(w, ld, v, n, acc);
    }
    template <std::size_t G>
    __attribute__((always_inline)) static void dot_states(const q15* s, std::size_t stride, const q15* q,
                                                          std::size_t npairs, std::int32_t* d) noexcept {
        q15_thumb::dot_states<G>(s, stride, q, npairs, d);
    }
    template <std::size_t G>
    __attribute__((always_inline)) static void columns(const q15* a, const q15* v, std::size_t stride,
                                                       std::size_t count, std::int32_t* acc) noexcept {
        q15_thumb::columns<G>(a, v, stride, count, acc);
    }
    __attribute__((always_inline)) static std::int32_t additive_sum(const q15* key, const q15* q, const std::int8_t* v,
                                                                    std::size_t K) noexcept {
        return q15_thumb::additive_sum(key, q, v, K);
    }
    __attribute__((always_inline)) static void scores(const q15* s, std::size_t stride, std::size_t count, const q15* q,
                                                      std::size_t npairs, int t, q15* e) noexcept {
        q15_thumb::scores(s, stride, count, q, npairs, t, e);
    }
    __attribute__((always_inline)) static std::int32_t scores_max(const q15* s, std::size_t stride, std::size_t count,
                                                                  const q15* q, std::size_t npairs, int t, q15* e,
                                                                  std::int32_t m) noexcept {
        return q15_thumb::scores_max(s, stride, count, q, npairs, t, e, m);
    }
    __attribute__((always_inline)) static std::uint32_t exps(q15* alpha, std::size_t n, std::int32_t m,
                                                             std::int32_t to_q16, std::int32_t zero_below) noexcept {
        return q15_thumb::exps(alpha, n, m, to_q16, zero_below);
    }
    __attribute__((always_inline)) static void normalize(q15* alpha, std::size_t n, std::uint32_t rec,
                                                         int down) noexcept {
        q15_thumb::normalize(alpha, n, rec, down);
    }
    static std::size_t lstm_cell(const q15* z, const q15* c_tilde, std::size_t hidden, q15* c, q15* h) noexcept {
        return q15_thumb::lstm_cell(z, c_tilde, hidden, c, h);
    }
    static void gru_cell(const q15* gi, const q15* gh, const q15* h_prev, std::size_t hidden, q15* h) noexcept {
        q15_thumb::gru_cell(gi, gh, h_prev, hidden, h);
    }
    template <class RowsT, class NxT, class NhT>
    static void gru_gates(const QGru& a, RowsT rows, const q15* x, NxT nx, const q15* h, NhT nh, q15* gi,
                          q15* gh) noexcept {
        q15_thumb::gru_gates<ThumbLoops>(a, rows, x, nx, h, nh, gi, gh);
    }
    static std::size_t finish_gru(const std::int32_t* s, std::size_t rows, const std::int32_t* m,
                                  const std::int8_t* shift, const std::int32_t* b_ih, const std::int32_t* b_hh, q15* gi,
                                  q15* gh) noexcept {
        return q15_thumb::finish_gru(s, rows, m, shift, b_ih, b_hh, gi, gh);
    }
    static std::size_t finish_sum(const std::int32_t* s, std::size_t rows, const std::int32_t* m,
                                  const std::int8_t* shift, const std::int32_t* b, q15* y) noexcept {
        return q15_thumb::finish_sum(s, rows, m, shift, b, y);
    }
};

}  // namespace sarnn::kernel::q15_loops

#endif
