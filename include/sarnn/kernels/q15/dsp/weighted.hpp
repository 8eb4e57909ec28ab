// sarnn/kernels/q15/dsp/weighted.hpp: the DSP set's q15 loops (Cortex-M4, M7; the set: dsp/loops.hpp), the weighted sum c
// = Σ_j alpha_j S_j (weighted_sum: eight columns a pass).
#ifndef SARNN_KERNELS_Q15_DSP_WEIGHTED_HPP
#define SARNN_KERNELS_Q15_DSP_WEIGHTED_HPP

#include <cstddef>
#include <cstdint>

#include "sarnn/kernels/q15/dsp/common.hpp"

namespace sarnn::kernel::q15_dsp {

// The weighted sum (weighted_sum below). One state: the eight columns' sums c0..c7 += alpha_j·S_j,k..k+7, its eight
// values in two LDRDs (lo, hi: their addresses), its weight the bottom (h = "b") or top ("t") half of aw.
// clang-format off
#define SARNN_DSP_WS_MACS(h, lo, hi)           \
    "ldrd   %[x], %[y], " lo "\n\t"            \
    "smla" h "b %[c0], %[aw], %[x], %[c0]\n\t" \
    "smla" h "t %[c1], %[aw], %[x], %[c1]\n\t" \
    "smla" h "b %[c2], %[aw], %[y], %[c2]\n\t" \
    "smla" h "t %[c3], %[aw], %[y], %[c3]\n\t" \
    "ldrd   %[x], %[y], " hi "\n\t"            \
    "smla" h "b %[c4], %[aw], %[x], %[c4]\n\t" \
    "smla" h "t %[c5], %[aw], %[x], %[c5]\n\t" \
    "smla" h "b %[c6], %[aw], %[y], %[c6]\n\t" \
    "smla" h "t %[c7], %[aw], %[y], %[c7]\n\t"
// clang-format on
// State i of eight, the row step S bytes a constant: at vp + (i + 1)·S, the eighth moving vp on by 8·S (LDRD's
// pre-index writeback: 8·S <= 1020) ...
// clang-format off
#define SARNN_DSP_WS_WB(S, i, h) \
    SARNN_DSP_WS_MACS(h, "[%[vp], #((" #i "+1)*" #S ")]", "[%[vp], #((" #i "+1)*" #S "+8)]")
#define SARNN_DSP_WS_WB_LAST(S) SARNN_DSP_WS_MACS("t", "[%[vp], #(8*" #S ")]!", "[%[vp], #8]")
// clang-format on
// ... or at vp + i·S, vp moved on by an ADD after the eighth (8·S beyond LDRD's offsets) ...
// clang-format off
#define SARNN_DSP_WS_ADD(S, i, h) SARNN_DSP_WS_MACS(h, "[%[vp], #(" #i "*" #S ")]", "[%[vp], #(" #i "*" #S "+8)]")
#define SARNN_DSP_WS_ADD_LAST(S) SARNN_DSP_WS_ADD(S, 7, "t") "add    %[vp], %[vp], #(8*" #S ")\n\t"
// clang-format on
// ... or (a step known at run time only, read from the stack) at vp, moved on by the step after each state.
// clang-format off
#define SARNN_DSP_WS_RT(i, h)                      \
    SARNN_DSP_WS_MACS(h, "[%[vp]]", "[%[vp], #8]") \
    "ldr    %[x], %[step]\n\t"                     \
    "add    %[vp], %[vp], %[x]\n\t"
// clang-format on
// After a run: the next one (the list's pointer in y).
// clang-format off
#define SARNN_DSP_WS_NEXT    \
    "ldr    %[y], %[rp]\n\t" \
    "b      .Lws%=d\n"
// clang-format on
// Entry e (odd) of loop L: its first weight alone, the top half of aw.
// clang-format off
#define SARNN_DSP_WS_ODD(L, e)        \
    ".Lws%=" L "o" #e ":\n\t"         \
    "ldrh   %[aw], [%[ap]], #2\n\t"   \
    "lsl    %[aw], %[aw], #16\n\t"    \
    "b      .Lws%=" L "e" #e "\n"
// clang-format on
// Loop L, eight states an iteration (ST(S, i, h): state i, LAST(S): the eighth), entered at any of them.
// clang-format off
#define SARNN_DSP_WS_LOOP8(L, ST, LAST, S)                                           \
    ".Lws%=" L "e0:\n\t"                                                             \
    "ldr    %[aw], [%[ap]], #4\n\t" ST(S, 0, "b") ".Lws%=" L "e1:\n\t" ST(S, 1, "t") \
    ".Lws%=" L "e2:\n\t"                                                             \
    "ldr    %[aw], [%[ap]], #4\n\t" ST(S, 2, "b") ".Lws%=" L "e3:\n\t" ST(S, 3, "t") \
    ".Lws%=" L "e4:\n\t"                                                             \
    "ldr    %[aw], [%[ap]], #4\n\t" ST(S, 4, "b") ".Lws%=" L "e5:\n\t" ST(S, 5, "t") \
    ".Lws%=" L "e6:\n\t"                                                             \
    "ldr    %[aw], [%[ap]], #4\n\t" ST(S, 6, "b") ".Lws%=" L "e7:\n\t" LAST(S)       \
    "ldr    %[x], %[end]\n\t"                                                        \
    "cmp    %[ap], %[x]\n\t"                                                         \
    "bne    .Lws%=" L "e0\n\t" SARNN_DSP_WS_NEXT
#define SARNN_DSP_WS_TAB8(L)                                                                                        \
    "(.Lws%=" L "e0-.Lws%=t)/2, (.Lws%=" L "o1-.Lws%=t)/2, (.Lws%=" L "e2-.Lws%=t)/2, (.Lws%=" L "o3-.Lws%=t)/2, " \
    "(.Lws%=" L "e4-.Lws%=t)/2, (.Lws%=" L "o5-.Lws%=t)/2, (.Lws%=" L "e6-.Lws%=t)/2, (.Lws%=" L "o7-.Lws%=t)/2"
#define SARNN_DSP_WS_ODD8(L) SARNN_DSP_WS_ODD(L, 1) SARNN_DSP_WS_ODD(L, 3) SARNN_DSP_WS_ODD(L, 5) SARNN_DSP_WS_ODD(L, 7)
// clang-format on

namespace dsp {

/// A run of the weighted sum's states (weighted_sum): v the address of its first row less (e + bias) row steps, its
/// weights a to a_end, entry its loop's first entry in the table plus e (the states the loop's first iteration
/// skips), or kWsAlone (a state alone), or the table's end (the end of the list).
struct WeightedRun {
    std::uintptr_t v;
    const q15* a;
    const q15* a_end;
    std::uint32_t entry;
};
/// What the passes read: the sums' start (2^14 each, the rounding's half: one LDM), the runs.
struct WeightedRuns {
    std::int32_t half[8];
    WeightedRun run[5];
};
constexpr std::uint32_t kWsAlone = 0;  // (the end of the list: weighted_passes's kEnd)

}  // namespace dsp

/// The columns k .. k + W (W = 2 or 4) of weighted_sum (below), for the last dim % 8: c_k+i = (Σ_j alpha_j S_j,k+i +
/// 2^14) >> 15 within +-32767, one SMLAxy a product (the sums from 2^14 as the passes' are), the W values of a row in
/// one word or two (word aligned, the stride even); the first `store` of them written (W = 4: 3 or 4; W = 2: 1 or 2;
/// an odd dim's last column past dim is the padding of a padded row, read, its sum never written). Two states an
/// iteration in assembly, their weights one word (7.5 instructions a state for four columns, 5.5 for two; GCC 12's
/// loop of a state took 11 for four), a segment's state whose weight starts off a word, and an odd last one, in C.
template <int W>
inline void weighted_columns(const q15* const base[2], const std::size_t n[2], std::size_t stride, const q15* alpha,
                             std::size_t k, std::size_t store, q15* c) noexcept {
    static_assert(W == 2 || W == 4, "two or four columns");
    std::int32_t s0 = 1 << 14, s1 = s0, s2 = s0, s3 = s0;
    // one state: its weight a, its row's W values at v
    const auto one = [&](std::int32_t a, const q15* v) __attribute__((always_inline)) {
        const std::int32_t x = dsp::word(v);
        s0 = __smlabb(a, x, s0);
        s1 = __smlabt(a, x, s1);
        if constexpr (W == 4) {
            const std::int32_t y = dsp::word(v + 2);
            s2 = __smlabb(a, y, s2);
            s3 = __smlabt(a, y, s3);
        }
    };
    const std::size_t step = stride * sizeof(q15);
    const q15* ap = alpha;
    for (int g = 0; g < 2; ++g) {
        const q15* v = base[g] + k;
        std::size_t count = n[g];
        if (count > 0 && (reinterpret_cast<std::uintptr_t>(ap) & 3u) != 0) {
            one((ap++)->raw, v);
            v += stride;
            --count;
        }
        if (count >= 2) {
            const q15* const a_end = ap + (count & ~std::size_t{1});
            std::int32_t aw, x, y;
            // clang-format off
            if constexpr (W == 4) {
                __asm__ volatile("1:\n\t"
                                 "ldr    %[aw], [%[ap]], #4\n\t"
                                 "ldrd   %[x], %[y], [%[v]]\n\t"
                                 "add    %[v], %[v], %[step]\n\t"
                                 "smlabb %[s0], %[aw], %[x], %[s0]\n\t"
                                 "smlabt %[s1], %[aw], %[x], %[s1]\n\t"
                                 "smlabb %[s2], %[aw], %[y], %[s2]\n\t"
                                 "smlabt %[s3], %[aw], %[y], %[s3]\n\t"
                                 "ldrd   %[x], %[y], [%[v]]\n\t"
                                 "add    %[v], %[v], %[step]\n\t"
                                 "smlatb %[s0], %[aw], %[x], %[s0]\n\t"
                                 "smlatt %[s1], %[aw], %[x], %[s1]\n\t"
                                 "smlatb %[s2], %[aw], %[y], %[s2]\n\t"
                                 "smlatt %[s3], %[aw], %[y], %[s3]\n\t"
                                 "cmp    %[ap], %[a_end]\n\t"
                                 "bne    1b"
                                 : [s0] "+r"(s0), [s1] "+r"(s1), [s2] "+r"(s2), [s3] "+r"(s3), [ap] "+r"(ap),
                                   [v] "+r"(v), [aw] "=&r"(aw), [x] "=&r"(x), [y] "=&r"(y)
                                 : [step] "r"(step), [a_end] "r"(a_end), "m"(*reinterpret_cast<const q15(*)[]>(v)),
                                   "m"(*reinterpret_cast<const q15(*)[]>(ap))
                                 : "cc");
            } else {
                __asm__ volatile("1:\n\t"
                                 "ldr    %[aw], [%[ap]], #4\n\t"
                                 "ldr    %[x], [%[v]]\n\t"
                                 "add    %[v], %[v], %[step]\n\t"
                                 "ldr    %[y], [%[v]]\n\t"
                                 "add    %[v], %[v], %[step]\n\t"
                                 "smlabb %[s0], %[aw], %[x], %[s0]\n\t"
                                 "smlabt %[s1], %[aw], %[x], %[s1]\n\t"
                                 "smlatb %[s0], %[aw], %[y], %[s0]\n\t"
                                 "smlatt %[s1], %[aw], %[y], %[s1]\n\t"
                                 "cmp    %[ap], %[a_end]\n\t"
                                 "bne    1b"
                                 : [s0] "+r"(s0), [s1] "+r"(s1), [ap] "+r"(ap), [v] "+r"(v), [aw] "=&r"(aw),
                                   [x] "=&r"(x), [y] "=&r"(y)
                                 : [step] "r"(step), [a_end] "r"(a_end), "m"(*reinterpret_cast<const q15(*)[]>(v)),
                                   "m"(*reinterpret_cast<const q15(*)[]>(ap))
                                 : "cc");
            }
            // clang-format on
        }
        if ((count & 1u) != 0) one((ap++)->raw, v);
    }
    const auto put = [c, k](std::size_t i, std::int32_t sum) {
        const std::int32_t ck = __ssat(sum >> 15, 16);
        c[k + i].raw = static_cast<std::int16_t>(ck < -32767 ? -32767 : ck);
    };
    put(0, s0);
    if (store >= 2) put(1, s1);
    if constexpr (W == 4) {
        put(2, s2);
        if (store == 4) put(3, s3);
    }
}

// The passes of weighted_passes (below) over the run list: TAB the jump table's entries past the first (a state
// alone), ODD the odd entries of the loops, LOOPS the loops (the strides' constant and the run-time one).
// clang-format off
#define SARNN_DSP_WS_PASSES(TAB, ODD, LOOPS)                                                                        \
    __asm__ volatile(                                                                                              \
        ".Lws%=p:\n\t"                                                                                             \
        "ldr    %[y], %[runs]\n\t"                                                                                 \
        "ldm    %[y]!, {%[c0], %[c1], %[c2], %[c3], %[c4], %[c5], %[c6], %[c7]}\n"                                 \
        ".Lws%=d:\n\t"                                                                                             \
        "ldrd   %[x], %[aw], [%[y], #8]\n\t"                                                                       \
        "cmp    %[aw], %[fin]\n\t"                                                                                 \
        "beq    .Lws%=f\n\t"                                                                                       \
        "ldrd   %[vp], %[ap], [%[y]]\n\t"                                                                          \
        "str    %[x], %[end]\n\t"                                                                                  \
        "add    %[x], %[vp], #16\n\t"                                                                              \
        "str    %[x], [%[y]], #16\n\t"                                                                             \
        "str    %[y], %[rp]\n\t"                                                                                   \
        "tbh    [pc, %[aw], lsl #1]\n"                                                                             \
        ".Lws%=t:\n\t"                                                                                             \
        ".hword (.Lws%=s-.Lws%=t)/2, " TAB "\n"                                                                    \
        /* a state alone */                                                                                        \
        ".Lws%=s:\n\t"                                                                                             \
        "ldrsh  %[aw], [%[ap]]\n\t" SARNN_DSP_WS_MACS("b", "[%[vp]]", "[%[vp], #8]") SARNN_DSP_WS_NEXT             \
        ODD LOOPS                                                                                                  \
        /* the pass's end: c_k .. c_k+7 */                                                                         \
        ".Lws%=f:\n\t"                                                                                             \
        "ssat   %[c0], #16, %[c0], asr #15\n\t"                                                                    \
        "ssat   %[c1], #16, %[c1], asr #15\n\t"                                                                    \
        "ssat   %[c2], #16, %[c2], asr #15\n\t"                                                                    \
        "ssat   %[c3], #16, %[c3], asr #15\n\t"                                                                    \
        "ssat   %[c4], #16, %[c4], asr #15\n\t"                                                                    \
        "ssat   %[c5], #16, %[c5], asr #15\n\t"                                                                    \
        "ssat   %[c6], #16, %[c6], asr #15\n\t"                                                                    \
        "ssat   %[c7], #16, %[c7], asr #15\n\t"                                                                    \
        "pkhbt  %[c0], %[c0], %[c1], lsl #16\n\t"                                                                  \
        "pkhbt  %[c2], %[c2], %[c3], lsl #16\n\t"                                                                  \
        "pkhbt  %[c4], %[c4], %[c5], lsl #16\n\t"                                                                  \
        "pkhbt  %[c6], %[c6], %[c7], lsl #16\n\t"                                                                  \
        "mov    %[x], #0\n\t"                                                                                      \
        "qsub16 %[c0], %[x], %[c0]\n\t"                                                                            \
        "qsub16 %[c0], %[x], %[c0]\n\t"                                                                            \
        "qsub16 %[c2], %[x], %[c2]\n\t"                                                                            \
        "qsub16 %[c2], %[x], %[c2]\n\t"                                                                            \
        "qsub16 %[c4], %[x], %[c4]\n\t"                                                                            \
        "qsub16 %[c4], %[x], %[c4]\n\t"                                                                            \
        "qsub16 %[c6], %[x], %[c6]\n\t"                                                                            \
        "qsub16 %[c6], %[x], %[c6]\n\t"                                                                            \
        "ldr    %[y], %[cp]\n\t"                                                                                   \
        "stm    %[y]!, {%[c0], %[c2], %[c4], %[c6]}\n\t"                                                           \
        "str    %[y], %[cp]\n\t"                                                                                   \
        "ldr    %[x], %[cend]\n\t"                                                                                 \
        "cmp    %[y], %[x]\n\t"                                                                                    \
        "bne    .Lws%=p"                                                                                           \
        : [c0] "=&r"(c0), [c1] "=&r"(c1), [c2] "=&r"(c2), [c3] "=&r"(c3), [c4] "=&r"(c4), [c5] "=&r"(c5),         \
          [c6] "=&r"(c6), [c7] "=&r"(c7), [vp] "=&r"(vp), [ap] "=&r"(a), [aw] "=&r"(aw), [x] "=&r"(x),             \
          [y] "=&r"(y), [rp] "+m"(rp), [end] "+m"(end), [cp] "+m"(cp)                                              \
        : [runs] "m"(runs), [cend] "m"(cend), [step] "m"(step), [fin] "i"(kEnd)                                    \
        : "cc", "memory")
// The loop of any even step (read from the stack), four states an iteration, and its odd entries.
#define SARNN_DSP_WS_LOOP_RT                                                                                       \
    ".Lws%=re0:\n\t"                                                                                               \
    "ldr    %[aw], [%[ap]], #4\n\t" SARNN_DSP_WS_RT(0, "b") ".Lws%=re1:\n\t" SARNN_DSP_WS_RT(1, "t")               \
    ".Lws%=re2:\n\t"                                                                                               \
    "ldr    %[aw], [%[ap]], #4\n\t" SARNN_DSP_WS_RT(2, "b") ".Lws%=re3:\n\t" SARNN_DSP_WS_RT(3, "t")               \
    "ldr    %[x], %[end]\n\t"                                                                                      \
    "cmp    %[ap], %[x]\n\t"                                                                                       \
    "bne    .Lws%=re0\n\t" SARNN_DSP_WS_NEXT
#define SARNN_DSP_WS_TAB_RT "(.Lws%=re0-.Lws%=t)/2, (.Lws%=ro1-.Lws%=t)/2, (.Lws%=re2-.Lws%=t)/2, (.Lws%=ro3-.Lws%=t)/2"
#define SARNN_DSP_WS_ODD_RT SARNN_DSP_WS_ODD("r", 1) SARNN_DSP_WS_ODD("r", 3)
// The loops of the row steps 32, 64 and 128 bytes (Hidden 16, 32, 64).
#define SARNN_DSP_WS_LOOP_A SARNN_DSP_WS_LOOP8("a", SARNN_DSP_WS_WB, SARNN_DSP_WS_WB_LAST, 32)
#define SARNN_DSP_WS_LOOP_B SARNN_DSP_WS_LOOP8("b", SARNN_DSP_WS_WB, SARNN_DSP_WS_WB_LAST, 64)
#define SARNN_DSP_WS_LOOP_C SARNN_DSP_WS_LOOP8("c", SARNN_DSP_WS_ADD, SARNN_DSP_WS_ADD_LAST, 128)
// clang-format on

/// weighted_sum's passes over the first `full` columns (a multiple of 8, at least 8), the rows and c word aligned, the
/// stride even (weighted_sum below: the loops, their runs). Stride (q15/seam.hpp's): the stride the caller knows at
/// compile time, whose loop alone is assembled: 16, 32 or 64 (the stride must be it), 0 (another stride: the loop of
/// any step), or kAnyStride (every loop, chosen by the stride at run time).
template <std::size_t Stride>
__attribute__((noinline)) void weighted_passes(const q15* const base[2], const std::size_t n[2], std::size_t stride,
                                               std::size_t full, const q15* alpha, q15* c) noexcept {
    static_assert(Stride == q15_loops::kAnyStride || Stride == 0 || Stride == 16 || Stride == 32 || Stride == 64,
                  "weighted_passes: a stride of its loops, 0 or q15_loops::kAnyStride");
    const std::size_t step = stride * sizeof(q15);
    // the loop for this step: its first entry in the table, how many states an iteration (mask + 1), the bytes back
    // per state skipped and the row steps before the first row its offsets start at; the table's end (kEnd)
    std::uint32_t first = 1, mask = 3;
    std::size_t skip = 0, bias = 0;
    constexpr std::uint32_t kEnd = Stride == q15_loops::kAnyStride ? 29 : (Stride == 0 ? 5 : 9);
    if constexpr (Stride == q15_loops::kAnyStride) {
        first = 25;  // (the loop of any step, after the three of the constant steps)
        switch (stride) {
        case 16: first = 1, mask = 7, skip = step, bias = 1; break;
        case 32: first = 9, mask = 7, skip = step, bias = 1; break;
        case 64: first = 17, mask = 7, skip = step; break;
        default: break;
        }
    } else if constexpr (Stride != 0) {
        mask = 7, skip = step, bias = Stride == 64 ? 0 : 1;
    }
    dsp::WeightedRuns list;
    for (std::int32_t& h : list.half) h = std::int32_t{1} << 14;
    dsp::WeightedRun* r = list.run;
    const q15* ap = alpha;
    for (int g = 0; g < 2; ++g) {
        std::size_t count = n[g];
        const auto v = reinterpret_cast<std::uintptr_t>(base[g]);
        if (count > 0 && (reinterpret_cast<std::uintptr_t>(ap + count) & 3u) != 0) {
            --count;
            *r++ = {v + count * step, ap + count, ap + count + 1, dsp::kWsAlone};
        }
        if (count > 0) {
            const std::uint32_t e = static_cast<std::uint32_t>(0 - count) & mask;
            *r++ = {v - (e + bias) * skip, ap, ap + count, first + e};
        }
        ap += n[g];
    }
    *r = {0, nullptr, nullptr, kEnd};
    const dsp::WeightedRuns* runs = &list;
    const dsp::WeightedRun* rp = list.run;
    const q15* end = alpha;
    q15* cp = c;
    const q15* cend = c + full;
    {
        // the sums in r0-r6, r8 (ascending: LDM, STM; r7 may be the frame pointer)
        register std::int32_t c0 __asm__("r0");
        register std::int32_t c1 __asm__("r1");
        register std::int32_t c2 __asm__("r2");
        register std::int32_t c3 __asm__("r3");
        register std::int32_t c4 __asm__("r4");
        register std::int32_t c5 __asm__("r5");
        register std::int32_t c6 __asm__("r6");
        register std::int32_t c7 __asm__("r8");
        std::int32_t aw, x, y;
        const q15* vp;
        const q15* a;
        // clang-format off
        if constexpr (Stride == q15_loops::kAnyStride) {
            SARNN_DSP_WS_PASSES(SARNN_DSP_WS_TAB8("a") ", " SARNN_DSP_WS_TAB8("b") ", " SARNN_DSP_WS_TAB8("c") ", "
                                    SARNN_DSP_WS_TAB_RT,
                                SARNN_DSP_WS_ODD8("a") SARNN_DSP_WS_ODD8("b") SARNN_DSP_WS_ODD8("c") SARNN_DSP_WS_ODD_RT,
                                SARNN_DSP_WS_LOOP_A SARNN_DSP_WS_LOOP_B SARNN_DSP_WS_LOOP_C SARNN_DSP_WS_LOOP_RT);
        } else if constexpr (Stride == 16) {
            SARNN_DSP_WS_PASSES(SARNN_DSP_WS_TAB8("a"), SARNN_DSP_WS_ODD8("a"), SARNN_DSP_WS_LOOP_A);
        } else if constexpr (Stride == 32) {
            SARNN_DSP_WS_PASSES(SARNN_DSP_WS_TAB8("b"), SARNN_DSP_WS_ODD8("b"), SARNN_DSP_WS_LOOP_B);
        } else if constexpr (Stride == 64) {
            SARNN_DSP_WS_PASSES(SARNN_DSP_WS_TAB8("c"), SARNN_DSP_WS_ODD8("c"), SARNN_DSP_WS_LOOP_C);
        } else {
            SARNN_DSP_WS_PASSES(SARNN_DSP_WS_TAB_RT, SARNN_DSP_WS_ODD_RT, SARNN_DSP_WS_LOOP_RT);
        }
        // clang-format on
    }
}

/// c = Σ_j alpha_j S_j (q15/attention.hpp's weighted_sum: c_k = (Σ_j alpha_j S_j,k + 2^14) >> 15 within +-32767), the
/// states in the two segments base[0] (n[0] states) and base[1] (n[1]), alpha's values in that order. Eight columns a
/// pass, the pass in assembly: its sums from 2^14 (|Σ| + 2^14 < 2^31 by q15/attention.hpp's bound: every partial sum in
/// int32, in any order); each run of the list (a segment's states, read at constant offsets from
/// one pointer where the row step is that of Hidden 16, 32 or 64); then the eight sums rounded (SSAT's shift),
/// saturated, packed in pairs, clamped at -32767 (QSUB16 from 0 twice: -(-32768) saturates to 32767) and stored (one
/// STM). A run enters its loop (TBH) as Duff's device, skipping the loop's first -count mod 8 (or 4) states in its
/// first iteration; the loop reads alpha in pairs (an odd entry's first weight alone, the top half of aw), so where
/// a segment's weights would end off a word its last state is a run alone. The loops: 87 instructions for 64
/// multiply-adds where the row step is 32 or 64 bytes (the eighth state's LDRD moves vp on), 88 for 128 (an ADD),
/// 53 for 32 at any other even step (read from the stack). The last dim % 8 columns four, then two at a time
/// (weighted_columns; three as four, the fourth an odd dim's padding; one as two); where the rows or c are not word
/// aligned or the stride is odd, one column at a time in C. (Not inlined: one
/// copy of the assembly for q15/attention.hpp's three calls.) Stride: the stride as the caller knows it at compile time
/// (weighted_passes: 16, 32, 64, 0 for another, kAnyStride), of whose loops alone the image holds the code; a stride
/// other than a constant Stride takes the columns four at a time.
template <std::size_t Stride>
__attribute__((noinline)) void weighted_sum_at(const q15* const base[2], const std::size_t n[2], std::size_t stride,
                                               std::size_t dim, const q15* alpha, q15* c) noexcept {
    std::size_t k = 0;
    // c and the rows word aligned (the stride even)
    const std::uintptr_t at = reinterpret_cast<std::uintptr_t>(c) | reinterpret_cast<std::uintptr_t>(base[0]) |
                              reinterpret_cast<std::uintptr_t>(base[1]) | (stride << 1);
    if ((at & 3u) == 0) {
        // the passes where their loop takes the stride (Stride 16, 32, 64: that stride alone), else four columns at a
        // time from the first
        if (Stride == q15_loops::kAnyStride || Stride == 0 || stride == Stride) {
            const std::size_t full = dim & ~std::size_t{7};
            if (full > 0) weighted_passes<Stride>(base, n, stride, full, alpha, c);
            k = full;
        }
        while (k + 3 <= dim) {
            const std::size_t w = dim - k < 4 ? dim - k : 4;
            weighted_columns<4>(base, n, stride, alpha, k, w, c);
            k += w;
        }
        // the last one or two (one: with the padding lane of the padded rows, the stride even and above dim)
        if (k < dim) {
            weighted_columns<2>(base, n, stride, alpha, k, dim - k, c);
            k = dim;
        }
    }
    for (; k < dim; ++k) {
        std::int32_t acc = std::int32_t{1} << 14;
        const q15* ap = alpha;
        for (int g = 0; g < 2; ++g) {
            const q15* v = base[g] + k;
            for (std::size_t i = 0; i < n[g]; ++i, ++ap, v += stride) acc = __smlabb(ap->raw, v->raw, acc);
        }
        const std::int32_t ck = __ssat(acc >> 15, 16);
        c[k].raw = static_cast<std::int16_t>(ck < -32767 ? -32767 : ck);
    }
}

#undef SARNN_DSP_WS_PASSES
#undef SARNN_DSP_WS_LOOP_RT
#undef SARNN_DSP_WS_TAB_RT
#undef SARNN_DSP_WS_ODD_RT
#undef SARNN_DSP_WS_LOOP_A
#undef SARNN_DSP_WS_LOOP_B
#undef SARNN_DSP_WS_LOOP_C
#undef SARNN_DSP_WS_ODD8
#undef SARNN_DSP_WS_TAB8
#undef SARNN_DSP_WS_LOOP8
#undef SARNN_DSP_WS_ODD
#undef SARNN_DSP_WS_NEXT
#undef SARNN_DSP_WS_RT
#undef SARNN_DSP_WS_ADD_LAST
#undef SARNN_DSP_WS_ADD
#undef SARNN_DSP_WS_WB_LAST
#undef SARNN_DSP_WS_WB
#undef SARNN_DSP_WS_MACS

}  // namespace sarnn::kernel::q15_dsp

#endif
