// sarnn/kernels/cortex_m/dot_scores.hpp: the scores of the dot context of the Cortex-M float set with the row length
// known at compile time: e_j = scale·(S_j·q) over one run of contiguous rows (kernels/cortex_m/ring.hpp), and their
// max, as the scores are written (`e > m`: a NaN score is passed over, and then makes the softmax's sum NaN). Rows of
// at most 12 values on the M4F and M7: q in registers over the whole run, one VLDM a row, four states an iteration
// (assembly: GCC 12 loads q again for every row; measured at In 9, Hidden 12, n 64: 5,539 -> 5,169 instructions a step
// against the blocks below). Longer rows and the other targets: four states a pass over q (cortex_m/gemv.hpp's
// rows_dot: on the M4F and M7 each block of four values of q loaded once by VLDM for the four rows), the n % 4 states
// past the last four one at a time. One function per shape, not inlined (the context calls it once per run of the
// ring: inlined, the M4F's reference image held two copies of the unrolled blocks, and of their 1-, 2- and 3-row forms
// for the remainder: 3,046 B of code more than the run-time attend_dot, 66 B less now, for 2 instructions a step).
// Cost: n·Dim multiply-adds; per four states four scalings, four compare-selects, the stores and the loop.
#ifndef SARNN_KERNELS_CORTEX_M_DOT_SCORES_HPP
#define SARNN_KERNELS_CORTEX_M_DOT_SCORES_HPP

#include <cstddef>

#include "sarnn/kernels/cortex_m/gemv.hpp"
#include "sarnn/kernels/cortex_m/math.hpp"

namespace sarnn::kernel::cortex_m {

/// e_t = scale·s_t for t < NR, written to e[0..NR); returns the max of m and them.
template <std::size_t NR>
SARNN_CM_INLINE float scale_max(float s0, float s1, float s2, float s3, float scale, float* e, float m) noexcept {
    const float s[4] = {s0, s1, s2, s3};
    for (std::size_t t = 0; t < NR; ++t) {
        // e_t = scale·(S_t·q); m = max(m, e_t)
        const float v = scale * s[t];
        e[t] = v;
        m = v > m ? v : m;
    }
    return m;
}

#if SARNN_CM_SHAPED_VLDM
// s_t = S_t·q with q in s0..s(D-1) and the row in s16..: a VMUL and D - 1 VFMA
#define SARNN_CM_QFMA_(k, r, acc) ".if %c[dim] > " #k "\n\tvfma.f32 " acc ", s" #r ", s" #k "\n\t.endif\n\t"
#define SARNN_CM_SCORE_(acc)                                                                                        \
    SARNN_CM_LOAD_ROW_ "vmul.f32 " acc ", s16, s0\n\t" SARNN_CM_QFMA_(1, 17, acc) SARNN_CM_QFMA_(2, 18, acc)        \
        SARNN_CM_QFMA_(3, 19, acc) SARNN_CM_QFMA_(4, 20, acc) SARNN_CM_QFMA_(5, 21, acc) SARNN_CM_QFMA_(6, 22, acc) \
            SARNN_CM_QFMA_(7, 23, acc) SARNN_CM_QFMA_(8, 24, acc) SARNN_CM_QFMA_(9, 25, acc)                        \
                SARNN_CM_QFMA_(10, 26, acc) SARNN_CM_QFMA_(11, 27, acc)
// e_t = scale·s_t; m = e_t > m ? e_t : m (unordered: m kept)
#define SARNN_CM_SCALE_MAX_(acc) \
    "vmul.f32 " acc ", " acc     \
    ", %[scale]\n\t"             \
    "vcmp.f32 " acc              \
    ", %[m]\n\t"                 \
    "vmrs APSR_nzcv, fpscr\n\t"  \
    "it gt\n\t"                  \
    "vmovgt.f32 %[m], " acc "\n\t"
#endif

/// The rows of at most kQRegs values whose scores keep q in registers (s0-s11) over the run (assembly, below).
inline constexpr std::size_t kQRegs = 12;

/// e_j = scale·(S_j·q) for the n rows at `row` (Stride apart, Dim values each), j = 0..n-1; returns the max of m and
/// them. q holds Dim values (it may be one of the rows).
template <std::size_t Dim, std::size_t Stride>
__attribute__((noinline)) float dot_scores(const float* row, std::size_t n, const float* q, float scale, float* e,
                                           float m) noexcept {
#if SARNN_CM_SHAPED_VLDM
    if constexpr (Dim <= kQRegs) {
        // q in s0.., loaded once; each row by one VLDM into s16.. (the whole row, padding too, when it fits s16-s29,
        // so the load's writeback steps to the next row), four states an iteration (their scores in s12-s15, stored by
        // one VSTM), then one at a time. Per four states at Dim 12: 4 VLDM, 48 VMUL/VFMA, 4 scalings, 16 for the
        // max, 1 store, 2 for the loop (where rows_dot's blocks reload q: 63 for the products).
        constexpr std::size_t regs = Stride <= 14 ? Stride : Dim;
        constexpr std::size_t skip = (Stride - regs) * sizeof(float);
        static_assert(skip < 4096, "sarnn: dot_scores: rows of at most 1023 values");
        const float* pr = row;
        float* pe = e;
        unsigned k;
        __asm__ volatile(
            ".if %c[dim] == 1\n\t"
            "vldmia %[q], {s0}\n\t"
            ".else\n\t"
            "vldmia %[q], {s0-s%c[last_q]}\n\t"
            ".endif\n\t"
            "lsrs %[k], %[n], #2\n\t"
            "beq 2f\n\t"
            "1:\n\t" SARNN_CM_SCORE_("s12") SARNN_CM_SCORE_("s13") SARNN_CM_SCORE_("s14") SARNN_CM_SCORE_("s15")
                SARNN_CM_SCALE_MAX_("s12") SARNN_CM_SCALE_MAX_("s13") SARNN_CM_SCALE_MAX_("s14")
                    SARNN_CM_SCALE_MAX_("s15")
            "vstmia %[pe]!, {s12-s15}\n\t"
            "subs %[k], %[k], #1\n\t"
            "bne 1b\n\t"
            "2:\n\t"
            "ands %[k], %[n], #3\n\t"
            "beq 3f\n\t"
            "4:\n\t" SARNN_CM_SCORE_("s12") SARNN_CM_SCALE_MAX_("s12")
            "vstmia %[pe]!, {s12}\n\t"
            "subs %[k], %[k], #1\n\t"
            "bne 4b\n\t"
            "3:\n\t"
            : [pr] "+r"(pr), [pe] "+r"(pe), [k] "=&r"(k), [m] "+t"(m)
            : [n] "r"(n), [q] "r"(q), [scale] "t"(scale), [dim] "i"(Dim), [last_q] "i"(Dim - 1), [regs] "i"(regs),
              [last_reg] "i"(16 + regs - 1), [skip] "i"(skip)
            : "s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "s12", "s13", "s14", "s15",
              "s16", "s17", "s18", "s19", "s20", "s21", "s22", "s23", "s24", "s25", "s26", "s27", "s28", "s29", "cc",
              "memory");
        return m;
    }
#endif
    for (; n >= 4; n -= 4, row += 4 * Stride, e += 4) {
        float s0 = 0.0f, s1 = 0.0f, s2 = 0.0f, s3 = 0.0f;
        rows_dot<4, Dim, Stride, true>(row, q, s0, s1, s2, s3);
        m = scale_max<4>(s0, s1, s2, s3, scale, e, m);
    }
    // the last n % 4 states, one at a time (one pass of that many rows would be three more copies of the blocks)
    for (; n > 0; --n, row += Stride, ++e) {
        float s0 = 0.0f, s1 = 0.0f, s2 = 0.0f, s3 = 0.0f;
        rows_dot<1, Dim, Stride, true>(row, q, s0, s1, s2, s3);
        m = scale_max<1>(s0, s1, s2, s3, scale, e, m);
    }
    return m;
}

}  // namespace sarnn::kernel::cortex_m

#if SARNN_CM_SHAPED_VLDM
#undef SARNN_CM_QFMA_
#undef SARNN_CM_SCORE_
#undef SARNN_CM_SCALE_MAX_
#endif

#endif
