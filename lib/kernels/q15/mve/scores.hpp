// lib/kernels/q15/mve/scores.hpp: the Helium set's q15 loops (Cortex-M55, M85; the set: mve/loops.hpp), the rounded
// scores of many states (scores) and their max (max_raw).
#ifndef SARNN_LIB_KERNELS_Q15_MVE_SCORES_HPP
#define SARNN_LIB_KERNELS_Q15_MVE_SCORES_HPP

#include <arm_mve.h>

#include <cstddef>
#include <cstdint>

#include "kernels/q15/mve/common.hpp"

namespace sarnn::kernel::q15_mve {

/// The rounded scores (q15/seam.hpp), four states a pass, the passes themselves in one assembly loop: dot_states<4>'s
/// loop, then e_j = (d_j + 2^(t-1)) >> t for the four at once (VRSHL by -t: a right shift rounded half up, exact),
/// stored as int16 (VSTRH.32 keeps the low halves, as the cast). What a pass reads that fourteen registers would not
/// hold is in memory. The last count % 4 states: dot_states<1>.
/// Where q' has 16 or 32 values (the models' Hidden 16 and 32), q' stays in two or four vector registers and each
/// state's row is read by one pointer walking from row to row: no inner loop (scores_in_registers).
template <int C, bool kGap>
inline void scores_in_registers(const q15* s, std::size_t stride, std::size_t groups, const q15* q, int t,
                                q15* e) noexcept {
    static_assert(C == 2 || C == 4, "scores_in_registers: q' of 16 or 32 values");
    mve::touch(q);
    mve::touch(s);
    const std::int16_t* sp = mve::raw(s);
    std::int16_t* ep = mve::raw(e);
    // the step from a row's last vector to the next row (kGap: not 0; else the rows follow each other, no step)
    const std::int32_t gap = static_cast<std::int32_t>(stride * sizeof(q15)) - 16 * C;
    register std::int32_t a0 __asm__("r4");
    register std::int32_t a1 __asm__("r6");
    register std::int32_t a2 __asm__("r8");
    register std::int32_t a3 __asm__("r10");
    // one state's score: its C vectors times q' (VMLADAV starts the sum, VMLADAVA adds)
// clang-format off
#define SARNN_MVE_ROW2(a)           \
    "vldrh.u16 q0, [%[s]], #16\n\t" \
    "vmladav.s16 %[" a              \
    "], q0, q4\n\t"                 \
    "vldrh.u16 q0, [%[s]], #16\n\t" \
    "vmladava.s16 %[" a "], q0, q5\n\t"
#define SARNN_MVE_ROW4(a)           \
    SARNN_MVE_ROW2(a)               \
    "vldrh.u16 q0, [%[s]], #16\n\t" \
    "vmladava.s16 %[" a             \
    "], q0, q6\n\t"                 \
    "vldrh.u16 q0, [%[s]], #16\n\t" \
    "vmladava.s16 %[" a "], q0, q7\n\t"
// clang-format on
// the four scores into q0 (VMOV of two registers into two lanes, twice), rounded (VRSHL by -t) and stored as int16;
// the groups counted by a low-overhead loop (DLS/LE)
// clang-format off
#define SARNN_MVE_ROUND4                          \
    "vmov q0[2], q0[0], %[a0], %[a2]\n\t"         \
    "vmov q0[3], q0[1], %[a1], %[a3]\n\t"         \
    "vrshl.s32 q0, %[negt]\n\t"                   \
    "vstrh.32 q0, [%[e]], #8\n\t"                 \
    "le lr, 1b"
#define SARNN_MVE_GROUP(ROW, NEXT)                                                          \
    "dls lr, %[groups]\n"                                                                   \
    "1:\n\t" ROW("a0") NEXT ROW("a1") NEXT ROW("a2") NEXT ROW("a3") NEXT SARNN_MVE_ROUND4
    // clang-format on
#define SARNN_MVE_OUT [a0] "=&r"(a0), [a1] "=&r"(a1), [a2] "=&r"(a2), [a3] "=&r"(a3), [s] "+r"(sp), [e] "+l"(ep)
#define SARNN_MVE_IN [q] "r"(mve::raw(q)), [gap] "r"(gap), [negt] "r"(-t), [groups] "r"(groups)
// q' of 16 or 32 values in q4, q5 (q6, q7)
#define SARNN_MVE_Q2 "vldrh.u16 q4, [%[q]]\n\tvldrh.u16 q5, [%[q], #16]\n\t"
#define SARNN_MVE_Q4 SARNN_MVE_Q2 "vldrh.u16 q6, [%[q], #32]\n\tvldrh.u16 q7, [%[q], #48]\n\t"
#define SARNN_MVE_GAP "add %[s], %[s], %[gap]\n\t"
#define SARNN_MVE_NONE ""
#define SARNN_MVE_ASM(Q, ROW, NEXT, ...) \
    __asm__ volatile(Q SARNN_MVE_GROUP(ROW, NEXT) : SARNN_MVE_OUT:SARNN_MVE_IN : "lr", "cc", "memory", __VA_ARGS__)
    if constexpr (C == 2 && kGap) {
        SARNN_MVE_ASM(SARNN_MVE_Q2, SARNN_MVE_ROW2, SARNN_MVE_GAP, "d0", "d1", "d8", "d9", "d10", "d11");
    } else if constexpr (C == 2) {
        SARNN_MVE_ASM(SARNN_MVE_Q2, SARNN_MVE_ROW2, SARNN_MVE_NONE, "d0", "d1", "d8", "d9", "d10", "d11");
    } else if constexpr (kGap) {
        SARNN_MVE_ASM(SARNN_MVE_Q4, SARNN_MVE_ROW4, SARNN_MVE_GAP, "d0", "d1", "d8", "d9", "d10", "d11", "d12", "d13",
                      "d14", "d15");
    } else {
        SARNN_MVE_ASM(SARNN_MVE_Q4, SARNN_MVE_ROW4, SARNN_MVE_NONE, "d0", "d1", "d8", "d9", "d10", "d11", "d12", "d13",
                      "d14", "d15");
    }
#undef SARNN_MVE_ASM
#undef SARNN_MVE_NONE
#undef SARNN_MVE_GAP
#undef SARNN_MVE_Q4
#undef SARNN_MVE_Q2
#undef SARNN_MVE_IN
#undef SARNN_MVE_OUT
#undef SARNN_MVE_GROUP
#undef SARNN_MVE_ROUND4
#undef SARNN_MVE_ROW4
#undef SARNN_MVE_ROW2
}

inline void scores(const q15* s, std::size_t stride, std::size_t count, const q15* q, std::size_t npairs, int t,
                   q15* e) noexcept {
    const std::size_t groups = count / 4;
    const std::size_t n = 2 * npairs;
    if (groups > 0 && (n == 16 || n == 32)) {
        // (rows that follow each other: stride = n, no step between them)
        if (n == 16) {
            if (stride == 16) {
                scores_in_registers<2, false>(s, stride, groups, q, t, e);
            } else {
                scores_in_registers<2, true>(s, stride, groups, q, t, e);
            }
        } else if (stride == 32) {
            scores_in_registers<4, false>(s, stride, groups, q, t, e);
        } else {
            scores_in_registers<4, true>(s, stride, groups, q, t, e);
        }
        s += 4 * groups * stride;
        e += 4 * groups;
    } else if (groups > 0) {
        mve::touch(q);
        mve::touch(s);
        // q', a row's step in bytes, n, -t, the step from the fourth row's end (16 bytes a pass of the inner loop)
        // to the next group's first row, where e ends
        const std::int32_t row = static_cast<std::int32_t>(stride * sizeof(q15));
        const struct {
            const std::int16_t* q;
            std::int32_t row, n, neg_t, gap;
            const std::int16_t* e_end;
        } pass{mve::raw(q),
               row,
               static_cast<std::int32_t>(n),
               -t,
               row - static_cast<std::int32_t>(16 * ((n + 7) / 8)),
               mve::raw(e) + 4 * groups};
        register std::int32_t a0 __asm__("r4");
        register std::int32_t a1 __asm__("r6");
        register std::int32_t a2 __asm__("r8");
        register std::int32_t a3 __asm__("r10");
        const std::int16_t* s0 = mve::raw(s);
        const std::int16_t *s1, *s2, *s3, *qp;
        std::int16_t* ep = mve::raw(e);
        std::int32_t x;
        // clang-format off
        __asm__ volatile(
            "2:\n\t"
            "ldr %[qp], [%[ps]]\n\t"
            "ldr %[x], [%[ps], #4]\n\t"
            "add %[s1], %[s0], %[x]\n\t"
            "add %[s2], %[s1], %[x]\n\t"
            "add %[s3], %[s2], %[x]\n\t"
            "mov %[a0], #0\n\t"
            "mov %[a1], #0\n\t"
            "mov %[a2], #0\n\t"
            "mov %[a3], #0\n\t"
            "ldr %[x], [%[ps], #8]\n\t"
            "wlstp.16 lr, %[x], 3f\n"
            "1:\n\t"
            SARNN_MVE_DOT4("vldrh.u16 q0, [%[qp]], #16\n\t")
            "letp lr, 1b\n"
            "3:\n\t"
            "lctp\n\t"
            "vmov q0[2], q0[0], %[a0], %[a2]\n\t"
            "vmov q0[3], q0[1], %[a1], %[a3]\n\t"
            "ldr %[x], [%[ps], #12]\n\t"
            "vrshl.s32 q0, %[x]\n\t"
            "vstrh.32 q0, [%[e]], #8\n\t"
            "ldr %[x], [%[ps], #16]\n\t"
            "add %[s0], %[s3], %[x]\n\t"
            "ldr %[x], [%[ps], #20]\n\t"
            "cmp %[e], %[x]\n\t"
            "bne 2b"
            : [a0] "=&r"(a0), [a1] "=&r"(a1), [a2] "=&r"(a2), [a3] "=&r"(a3), [s0] "+r"(s0), [s1] "=&r"(s1),
              [s2] "=&r"(s2), [s3] "=&r"(s3), [qp] "=&r"(qp), [x] "=&r"(x), [e] "+l"(ep)
            : [ps] "r"(&pass)
            : "d0", "d1", "d2", "d3", "d4", "d5", "d6", "d7", "lr", "cc", "memory");
        // clang-format on
        s += 4 * groups * stride;
        e += 4 * groups;
    }
    const std::int32_t half = std::int32_t{1} << (t - 1);
    for (std::size_t i = 4 * groups; i < count; ++i, s += stride) {
        std::int32_t d[1];
        dot_states<1>(s, stride, q, npairs, d);
        (e++)->raw = static_cast<std::int16_t>((d[0] + half) >> t);
    }
}

/// max_j e_j: VMAXV, the largest of eight lanes and a scalar, eight values a pass.
inline std::int32_t max_raw(const q15* e, std::size_t n) noexcept {
    mve::touch(e);
    const std::int16_t* p = mve::raw(e);
    std::int16_t m = -32768;
    std::size_t j = 0;
    for (; j + 8 <= n; j += 8) m = vmaxvq_s16(m, vld1q_s16(p + j));
    for (; j < n; ++j) m = p[j] > m ? p[j] : m;
    return m;
}

}  // namespace sarnn::kernel::q15_mve

#endif
