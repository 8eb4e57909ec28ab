// sarnn/kernels/q15/thumb/scores.hpp: the rounded scores (q15/seam.hpp's scores) for the Thumb loops (q15/thumb/loops.hpp:
// ARMv6-M and the M3), two states a pass, the passes themselves in Thumb assembly that ARMv6-M runs (in unified
// syntax: SARNN_THUMB_BEGIN and _END, which q15/thumb/loops.hpp defines before it includes this file).
#ifndef SARNN_KERNELS_Q15_THUMB_SCORES_HPP
#define SARNN_KERNELS_Q15_THUMB_SCORES_HPP

#include <cstddef>
#include <cstdint>

#include "sarnn/kernels/q15/plain.hpp"
#include "sarnn/fixed.hpp"

namespace sarnn::kernel::q15_thumb {

// One pair of q' (x: its word; t, x: its two values) times the same pair of two states' rows (p0, p1), into a0, a1.
// clang-format off
#define SARNN_THUMB_SCORES_PAIR               \
    "ldmia %[qp]!, {%[x]}\n\t"               \
    "ldmia %[p0]!, {%[y]}\n\t"               \
    "sxth  %[t], %[x]\n\t"                   \
    "sxth  %[u], %[y]\n\t"                   \
    "muls  %[u], %[t], %[u]\n\t"             \
    "add   %[a0], %[u]\n\t"                  \
    "asrs  %[y], %[y], #16\n\t"              \
    "asrs  %[x], %[x], #16\n\t"              \
    "muls  %[y], %[x], %[y]\n\t"             \
    "add   %[a0], %[y]\n\t"                  \
    "ldmia %[p1]!, {%[y]}\n\t"               \
    "sxth  %[u], %[y]\n\t"                   \
    "muls  %[u], %[t], %[u]\n\t"             \
    "add   %[a1], %[u]\n\t"                  \
    "asrs  %[y], %[y], #16\n\t"              \
    "muls  %[y], %[x], %[y]\n\t"             \
    "add   %[a1], %[y]\n\t"
// The passes: the sums from 2^(t-1) (the rounding's half), the pairs of q' (FIRST: none or one, then INNER: one or two
// a loop), then e_j = sum >> t for both states and the max m of the e_j so far (in lr; in and out by x), the rows
// moved on to the next two (gap: the two rows less the values read); x holds ps again where a pass starts.
#define SARNN_THUMB_SCORES_PASSES(FIRST, INNER)                                                                \
    __asm__ volatile(                                                                                         \
        SARNN_THUMB_BEGIN                                                                                     \
        "mov   lr, %[x]\n\t"                                                                                  \
        "mov   %[x], %[ps]\n"                                                                                  \
        "2:\n\t"                                                                                              \
        "ldr   %[qp], [%[x], #0]\n\t"                                                                         \
        "ldr   %[y], [%[x], #4]\n\t"                                                                          \
        "mov   %[a0], %[y]\n\t"                                                                               \
        "mov   %[a1], %[y]\n\t"                                                                               \
        FIRST                                                                                                 \
        "1:\n\t"                                                                                              \
        INNER                                                                                                 \
        "cmp   %[qp], %[qend]\n\t"                                                                            \
        "bne   1b\n\t"                                                                                        \
        "mov   %[x], %[ps]\n\t"                                                                               \
        "ldr   %[t], [%[x], #8]\n\t"                                                                          \
        "mov   %[u], %[ep]\n\t"                                                                               \
        "mov   %[y], %[a0]\n\t"                                                                               \
        "asrs  %[y], %[y], %[t]\n\t"                                                                          \
        "strh  %[y], [%[u], #0]\n\t"                                                                          \
        "cmp   %[y], lr\n\t"                                                                                  \
        "ble   3f\n\t"                                                                                        \
        "mov   lr, %[y]\n"                                                                                     \
        "3:\n\t"                                                                                              \
        "mov   %[y], %[a1]\n\t"                                                                               \
        "asrs  %[y], %[y], %[t]\n\t"                                                                          \
        "strh  %[y], [%[u], #2]\n\t"                                                                          \
        "cmp   %[y], lr\n\t"                                                                                  \
        "ble   4f\n\t"                                                                                        \
        "mov   lr, %[y]\n"                                                                                     \
        "4:\n\t"                                                                                              \
        "adds  %[u], #4\n\t"                                                                                  \
        "mov   %[ep], %[u]\n\t"                                                                               \
        "ldr   %[y], [%[x], #12]\n\t"                                                                         \
        "adds  %[p0], %[p0], %[y]\n\t"                                                                        \
        "adds  %[p1], %[p1], %[y]\n\t"                                                                        \
        "ldr   %[y], [%[x], #16]\n\t"                                                                         \
        "cmp   %[u], %[y]\n\t"                                                                                \
        "bne   2b\n\t"                                                                                        \
        "mov   %[x], lr" SARNN_THUMB_END                                                                      \
        : [a0] "=&r"(a0), [a1] "=&r"(a1), [ep] "+r"(ep), [qp] "=&l"(qp), [p0] "+l"(p0), [p1] "+l"(p1),        \
          [x] "+l"(x), [y] "=&l"(y), [t] "=&l"(tt), [u] "=&l"(u)                                               \
        : [qend] "r"(qend), [ps] "r"(ps)                                                                      \
        : "cc", "memory", "lr")
// clang-format on

/// The rounded scores (q15/seam.hpp: e_j = (S_j·q' + 2^(t-1)) >> t for the count states at s, row stride `stride`;
/// s, q word aligned, stride even, npairs >= 1) and their max (kScoresMax: max(m, e_0, ..., e_{count-1}), the e_j in
/// int16 as the callers' t makes them), two states a pass (the two rows read once per pair of q', as dot_states<2>),
/// two pairs of q' an iteration (an odd npairs's first pair alone before them): 8.5 instructions a pair of each state
/// and 12.5 a state for the pass and the max (the generic form's: 9.5 and 17, its passes and rounding in C, then
/// max_raw's 7.75 a state). An odd last state: q15_plain's.
inline std::int32_t scores_max(const q15* s, std::size_t stride, std::size_t count, const q15* q, std::size_t npairs,
                               int t, q15* e, std::int32_t m) noexcept {
    const std::size_t pairs = count / 2;
    if (pairs > 0) {
        // what a pass reads: q', 2^(t-1), t, the bytes from where the loop leaves the rows to the next two, e's end
        struct Pass {
            const q15* q;
            std::int32_t half, t, gap;
            const q15* e_end;
        } pass{q, std::int32_t{1} << (t - 1), t, static_cast<std::int32_t>((2 * stride - 2 * npairs) * sizeof(q15)),
               e + 2 * pairs};
        register std::int32_t a0 __asm__("r8");
        register std::int32_t a1 __asm__("r9");
        register const q15* qend __asm__("r10") = q + 2 * npairs;
        register const Pass* ps __asm__("r11") = &pass;
        register q15* ep __asm__("r12") = e;
        const q15* qp;
        const q15* p0 = s;
        const q15* p1 = s + stride;
        // the max in lr, clobbered (lr as a register variable: GCC's far jumps by BL on ARMv6-M clobber it around the
        // block), in and out through x
        auto x = static_cast<std::uint32_t>(m);
        std::uint32_t y, tt, u;
        if (npairs % 2 == 0) {
            SARNN_THUMB_SCORES_PASSES("", SARNN_THUMB_SCORES_PAIR SARNN_THUMB_SCORES_PAIR);
        } else if (npairs > 1) {
            SARNN_THUMB_SCORES_PASSES(SARNN_THUMB_SCORES_PAIR, SARNN_THUMB_SCORES_PAIR SARNN_THUMB_SCORES_PAIR);
        } else {
            SARNN_THUMB_SCORES_PASSES("", SARNN_THUMB_SCORES_PAIR);
        }
        (void)a0;
        (void)a1;
        m = static_cast<std::int32_t>(x);
    }
    if (count % 2 != 0) {
        const q15* const last = s + (count - 1) * stride;
        std::int32_t d[1];
        q15_plain::dot_states<1>(last, stride, q, npairs, d);
        const auto ej = static_cast<std::int16_t>((d[0] + (std::int32_t{1} << (t - 1))) >> t);
        e[count - 1].raw = ej;
        m = ej > m ? ej : m;
    }
    return m;
}

/// The rounded scores alone (q15/seam.hpp's scores): scores_max's, the max left
inline void scores(const q15* s, std::size_t stride, std::size_t count, const q15* q, std::size_t npairs, int t,
                   q15* e) noexcept {
    (void)scores_max(s, stride, count, q, npairs, t, e, -32768);
}

#undef SARNN_THUMB_SCORES_PASSES
#undef SARNN_THUMB_SCORES_PAIR

}  // namespace sarnn::kernel::q15_thumb

#endif
