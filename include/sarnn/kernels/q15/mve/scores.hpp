// sarnn/kernels/q15/mve/scores.hpp: the Helium set's q15 loops (Cortex-M55, M85; the set: mve/loops.hpp), the rounded
// scores of many states (scores) and their max (max_raw).
#ifndef SARNN_KERNELS_Q15_MVE_SCORES_HPP
#define SARNN_KERNELS_Q15_MVE_SCORES_HPP

#include <arm_mve.h>

#include <cstddef>
#include <cstdint>

#include "sarnn/kernels/q15/mve/common.hpp"

namespace sarnn::kernel::q15_mve {

/// The rounded scores (q15/seam.hpp), four states a pass, the passes themselves in one assembly loop: dot_states<4>'s
/// loop, then e_j = (d_j + 2^(t-1)) >> t for the four at once (VRSHL by -t: a right shift rounded half up, exact),
/// stored as int16 (VSTRH.32 keeps the low halves, as the cast). What a pass reads that fourteen registers would not
/// hold is in memory. The last count % 4 states: dot_states<1>.
/// Where q' has at most 56 values (n = 2·npairs: the models' Hidden up to 56), q' stays in vector registers (C8 of
/// eight values, then kTail: the last n % 8 under a predicate, VCTP's, the lanes past n zero) and each state's row is
/// read by one pointer walking from row to row: no inner loop (scores_in_registers). The tail's loads are predicated
/// (VPST): nothing past a row's n values is read. kGap: a step from a row's last vector to the next row (the tail and
/// the padding: stride > 8·C8).
template <int C8, bool kTail, bool kGap>
inline void scores_in_registers(const q15* s, std::size_t stride, std::size_t groups, const q15* q, std::size_t n,
                                int t, q15* e) noexcept {
    static_assert(C8 >= 1 && C8 + (kTail ? 1 : 0) <= 7 && (kGap || !kTail), "scores_in_registers: n <= 56");
    mve::touch(q);
    mve::touch(s);
    const std::int16_t* sp = mve::raw(s);
    std::int16_t* ep = mve::raw(e);
    const std::int32_t gap = static_cast<std::int32_t>(stride * sizeof(q15)) - 16 * C8;
    const std::uint32_t tail = static_cast<std::uint32_t>(n % 8);
    register std::int32_t a0 __asm__("r4");
    register std::int32_t a1 __asm__("r6");
    register std::int32_t a2 __asm__("r8");
    register std::int32_t a3 __asm__("r10");
// one state's score: its C8 vectors times q' in q4.. (VMLADAV starts the sum, VMLADAVA adds), then its tail (R_T: the
// tail's q' in q) and the step to the next row (R_G)
// clang-format off
#define SARNN_MVE_R1(a) "vldrh.u16 q0, [%[s]], #16\n\tvmladav.s16 %[" a "], q0, q4\n\t"
#define SARNN_MVE_R2(a) SARNN_MVE_R1(a) "vldrh.u16 q0, [%[s]], #16\n\tvmladava.s16 %[" a "], q0, q5\n\t"
#define SARNN_MVE_R3(a) SARNN_MVE_R2(a) "vldrh.u16 q0, [%[s]], #16\n\tvmladava.s16 %[" a "], q0, q6\n\t"
#define SARNN_MVE_R4(a) SARNN_MVE_R3(a) "vldrh.u16 q0, [%[s]], #16\n\tvmladava.s16 %[" a "], q0, q7\n\t"
#define SARNN_MVE_R5(a) SARNN_MVE_R4(a) "vldrh.u16 q0, [%[s]], #16\n\tvmladava.s16 %[" a "], q0, q1\n\t"
#define SARNN_MVE_R6(a) SARNN_MVE_R5(a) "vldrh.u16 q0, [%[s]], #16\n\tvmladava.s16 %[" a "], q0, q2\n\t"
#define SARNN_MVE_R7(a) SARNN_MVE_R6(a) "vldrh.u16 q0, [%[s]], #16\n\tvmladava.s16 %[" a "], q0, q3\n\t"
#define SARNN_MVE_R_T(a, q) "vpst\n\tvldrht.u16 q0, [%[s]]\n\tvmladava.s16 %[" a "], q0, " q "\n\t"
#define SARNN_MVE_R_G "add %[s], %[s], %[gap]\n\t"
// q' into q4.. (the tail: VCTP's predicate, kept in VPR for the rows' tails)
#define SARNN_MVE_Q1 "vldrh.u16 q4, [%[q]]\n\t"
#define SARNN_MVE_Q2 SARNN_MVE_Q1 "vldrh.u16 q5, [%[q], #16]\n\t"
#define SARNN_MVE_Q3 SARNN_MVE_Q2 "vldrh.u16 q6, [%[q], #32]\n\t"
#define SARNN_MVE_Q4 SARNN_MVE_Q3 "vldrh.u16 q7, [%[q], #48]\n\t"
#define SARNN_MVE_Q5 SARNN_MVE_Q4 "vldrh.u16 q1, [%[q], #64]\n\t"
#define SARNN_MVE_Q6 SARNN_MVE_Q5 "vldrh.u16 q2, [%[q], #80]\n\t"
#define SARNN_MVE_Q7 SARNN_MVE_Q6 "vldrh.u16 q3, [%[q], #96]\n\t"
#define SARNN_MVE_Q_T(q, off) "vctp.16 %[tail]\n\tvpst\n\tvldrht.u16 " q ", [%[q], #" off "]\n\t"
// the four scores into q0 (VMOV of two registers into two lanes, twice), rounded (VRSHL by -t) and stored as int16;
// the groups counted by a low-overhead loop (DLS/LE)
#define SARNN_MVE_GROUP(ROW)                                                     \
    "dls lr, %[groups]\n"                                                        \
    "1:\n\t" ROW("a0") ROW("a1") ROW("a2") ROW("a3")                              \
    "vmov q0[2], q0[0], %[a0], %[a2]\n\t"                                        \
    "vmov q0[3], q0[1], %[a1], %[a3]\n\t"                                        \
    "vrshl.s32 q0, %[negt]\n\t"                                                  \
    "vstrh.32 q0, [%[e]], #8\n\t"                                                \
    "le lr, 1b"
#define SARNN_MVE_ASM(Q, ROW)                                                                                     \
    __asm__ volatile(Q SARNN_MVE_GROUP(ROW)                                                                       \
                     : [a0] "=&r"(a0), [a1] "=&r"(a1), [a2] "=&r"(a2), [a3] "=&r"(a3), [s] "+r"(sp), [e] "+l"(ep) \
                     : [q] "r"(mve::raw(q)), [gap] "r"(gap), [negt] "r"(-t), [groups] "r"(groups), [tail] "r"(tail) \
                     : "lr", "cc", "memory", "d0", "d1", "d2", "d3", "d4", "d5", "d6", "d7", "d8", "d9", "d10", "d11", \
                       "d12", "d13", "d14", "d15")
    // clang-format on
    // the rows as C8 (kTail, kGap) say
#define SARNN_MVE_K1N(a) SARNN_MVE_R1(a)
#define SARNN_MVE_K2N(a) SARNN_MVE_R2(a)
#define SARNN_MVE_K3N(a) SARNN_MVE_R3(a)
#define SARNN_MVE_K4N(a) SARNN_MVE_R4(a)
#define SARNN_MVE_K5N(a) SARNN_MVE_R5(a)
#define SARNN_MVE_K6N(a) SARNN_MVE_R6(a)
#define SARNN_MVE_K7N(a) SARNN_MVE_R7(a)
#define SARNN_MVE_K1G(a) SARNN_MVE_R1(a) SARNN_MVE_R_G
#define SARNN_MVE_K2G(a) SARNN_MVE_R2(a) SARNN_MVE_R_G
#define SARNN_MVE_K3G(a) SARNN_MVE_R3(a) SARNN_MVE_R_G
#define SARNN_MVE_K4G(a) SARNN_MVE_R4(a) SARNN_MVE_R_G
#define SARNN_MVE_K5G(a) SARNN_MVE_R5(a) SARNN_MVE_R_G
#define SARNN_MVE_K6G(a) SARNN_MVE_R6(a) SARNN_MVE_R_G
#define SARNN_MVE_K7G(a) SARNN_MVE_R7(a) SARNN_MVE_R_G
#define SARNN_MVE_K1T(a) SARNN_MVE_R1(a) SARNN_MVE_R_T(a, "q5") SARNN_MVE_R_G
#define SARNN_MVE_K2T(a) SARNN_MVE_R2(a) SARNN_MVE_R_T(a, "q6") SARNN_MVE_R_G
#define SARNN_MVE_K3T(a) SARNN_MVE_R3(a) SARNN_MVE_R_T(a, "q7") SARNN_MVE_R_G
#define SARNN_MVE_K4T(a) SARNN_MVE_R4(a) SARNN_MVE_R_T(a, "q1") SARNN_MVE_R_G
#define SARNN_MVE_K5T(a) SARNN_MVE_R5(a) SARNN_MVE_R_T(a, "q2") SARNN_MVE_R_G
#define SARNN_MVE_K6T(a) SARNN_MVE_R6(a) SARNN_MVE_R_T(a, "q3") SARNN_MVE_R_G
    if constexpr (kTail) {
        if constexpr (C8 == 1) SARNN_MVE_ASM(SARNN_MVE_Q1 SARNN_MVE_Q_T("q5", "16"), SARNN_MVE_K1T);
        if constexpr (C8 == 2) SARNN_MVE_ASM(SARNN_MVE_Q2 SARNN_MVE_Q_T("q6", "32"), SARNN_MVE_K2T);
        if constexpr (C8 == 3) SARNN_MVE_ASM(SARNN_MVE_Q3 SARNN_MVE_Q_T("q7", "48"), SARNN_MVE_K3T);
        if constexpr (C8 == 4) SARNN_MVE_ASM(SARNN_MVE_Q4 SARNN_MVE_Q_T("q1", "64"), SARNN_MVE_K4T);
        if constexpr (C8 == 5) SARNN_MVE_ASM(SARNN_MVE_Q5 SARNN_MVE_Q_T("q2", "80"), SARNN_MVE_K5T);
        if constexpr (C8 == 6) SARNN_MVE_ASM(SARNN_MVE_Q6 SARNN_MVE_Q_T("q3", "96"), SARNN_MVE_K6T);
    } else if constexpr (kGap) {
        if constexpr (C8 == 1) SARNN_MVE_ASM(SARNN_MVE_Q1, SARNN_MVE_K1G);
        if constexpr (C8 == 2) SARNN_MVE_ASM(SARNN_MVE_Q2, SARNN_MVE_K2G);
        if constexpr (C8 == 3) SARNN_MVE_ASM(SARNN_MVE_Q3, SARNN_MVE_K3G);
        if constexpr (C8 == 4) SARNN_MVE_ASM(SARNN_MVE_Q4, SARNN_MVE_K4G);
        if constexpr (C8 == 5) SARNN_MVE_ASM(SARNN_MVE_Q5, SARNN_MVE_K5G);
        if constexpr (C8 == 6) SARNN_MVE_ASM(SARNN_MVE_Q6, SARNN_MVE_K6G);
        if constexpr (C8 == 7) SARNN_MVE_ASM(SARNN_MVE_Q7, SARNN_MVE_K7G);
    } else {
        if constexpr (C8 == 1) SARNN_MVE_ASM(SARNN_MVE_Q1, SARNN_MVE_K1N);
        if constexpr (C8 == 2) SARNN_MVE_ASM(SARNN_MVE_Q2, SARNN_MVE_K2N);
        if constexpr (C8 == 3) SARNN_MVE_ASM(SARNN_MVE_Q3, SARNN_MVE_K3N);
        if constexpr (C8 == 4) SARNN_MVE_ASM(SARNN_MVE_Q4, SARNN_MVE_K4N);
        if constexpr (C8 == 5) SARNN_MVE_ASM(SARNN_MVE_Q5, SARNN_MVE_K5N);
        if constexpr (C8 == 6) SARNN_MVE_ASM(SARNN_MVE_Q6, SARNN_MVE_K6N);
        if constexpr (C8 == 7) SARNN_MVE_ASM(SARNN_MVE_Q7, SARNN_MVE_K7N);
    }
#undef SARNN_MVE_K6T
#undef SARNN_MVE_K5T
#undef SARNN_MVE_K4T
#undef SARNN_MVE_K3T
#undef SARNN_MVE_K2T
#undef SARNN_MVE_K1T
#undef SARNN_MVE_K7G
#undef SARNN_MVE_K6G
#undef SARNN_MVE_K5G
#undef SARNN_MVE_K4G
#undef SARNN_MVE_K3G
#undef SARNN_MVE_K2G
#undef SARNN_MVE_K1G
#undef SARNN_MVE_K7N
#undef SARNN_MVE_K6N
#undef SARNN_MVE_K5N
#undef SARNN_MVE_K4N
#undef SARNN_MVE_K3N
#undef SARNN_MVE_K2N
#undef SARNN_MVE_K1N
#undef SARNN_MVE_ASM
#undef SARNN_MVE_GROUP
#undef SARNN_MVE_Q_T
#undef SARNN_MVE_Q7
#undef SARNN_MVE_Q6
#undef SARNN_MVE_Q5
#undef SARNN_MVE_Q4
#undef SARNN_MVE_Q3
#undef SARNN_MVE_Q2
#undef SARNN_MVE_Q1
#undef SARNN_MVE_R_G
#undef SARNN_MVE_R_T
#undef SARNN_MVE_R7
#undef SARNN_MVE_R6
#undef SARNN_MVE_R5
#undef SARNN_MVE_R4
#undef SARNN_MVE_R3
#undef SARNN_MVE_R2
#undef SARNN_MVE_R1
}

/// scores_in_registers for q' of n values (8 <= n <= 56, n even) and rows of stride values: its form for n
template <int C8>
inline void scores_in_registers_n(const q15* s, std::size_t stride, std::size_t groups, const q15* q, std::size_t n,
                                  int t, q15* e) noexcept {
    if (n % 8 != 0) {
        if constexpr (C8 < 7) scores_in_registers<C8, true, true>(s, stride, groups, q, n, t, e);
    } else if (stride == n) {
        scores_in_registers<C8, false, false>(s, stride, groups, q, n, t, e);
    } else {
        scores_in_registers<C8, false, true>(s, stride, groups, q, n, t, e);
    }
}

/// Whether scores keeps q' in registers for n <= 56 (scores_in_registers: a form for each n / 8, twenty in all, which
/// an image that calls scores links, as n is known at run time here): not at -Os, where they took the M55's q15 dot
/// model from 7,952 to 16,000 B of code; there every n takes the looped form (the same integers, more instructions a
/// state). The models call scores_dim (below), which links the form of their own size only, at -Os too.
#if defined(__OPTIMIZE_SIZE__)
constexpr bool kScoresInRegisters = false;
#else
constexpr bool kScoresInRegisters = true;
#endif

/// The scores of groups of four states, q' read from memory each pass: an inner loop of eight values a pass
/// (WLSTP/LETP: the last n % 8 under the loop's tail predicate), any n.
inline void scores_looped(const q15* s, std::size_t stride, std::size_t groups, const q15* q, std::size_t n, int t,
                          q15* e) noexcept {
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
}

/// The scores of the last states one at a time (dot_states<1>), after the groups of four.
inline void scores_rest(const q15* s, std::size_t stride, std::size_t count, const q15* q, std::size_t npairs, int t,
                        q15* e) noexcept {
    const std::int32_t half = std::int32_t{1} << (t - 1);
    for (std::size_t i = 0; i < count; ++i, s += stride) {
        std::int32_t d[1];
        dot_states<1>(s, stride, q, npairs, d);
        (e++)->raw = static_cast<std::int16_t>((d[0] + half) >> t);
    }
}

inline void scores(const q15* s, std::size_t stride, std::size_t count, const q15* q, std::size_t npairs, int t,
                   q15* e) noexcept {
    const std::size_t groups = count / 4;
    const std::size_t n = 2 * npairs;
    if (kScoresInRegisters && groups > 0 && n >= 8 && n <= 56) {
        // q' in registers: n / 8 vectors, the last n % 8 values in one more
        switch (n / 8) {
        case 1: scores_in_registers_n<1>(s, stride, groups, q, n, t, e); break;
        case 2: scores_in_registers_n<2>(s, stride, groups, q, n, t, e); break;
        case 3: scores_in_registers_n<3>(s, stride, groups, q, n, t, e); break;
        case 4: scores_in_registers_n<4>(s, stride, groups, q, n, t, e); break;
        case 5: scores_in_registers_n<5>(s, stride, groups, q, n, t, e); break;
        case 6: scores_in_registers_n<6>(s, stride, groups, q, n, t, e); break;
        default: scores_in_registers_n<7>(s, stride, groups, q, n, t, e); break;
        }
        if (count % 4 == 0) return;  // (no tail: its set-up skipped, about 15 instructions)
    } else if (groups > 0) {
        scores_looped(s, stride, groups, q, n, t, e);
    }
    scores_rest(s + 4 * groups * stride, stride, count % 4, q, npairs, t, e + 4 * groups);
}

/// scores for rows of Dim values known at compile time (the model's Hidden; n = Dim rounded up to even, the padding
/// lane zero): for 8 <= n <= 56 q' in registers (scores_in_registers: its form for n alone, and for a stride of n
/// where n % 8 = 0; at -Os too: one form, not the twenty of scores), else the looped form; the same integers.
template <std::size_t Dim>
inline void scores_dim(const q15* s, std::size_t stride, std::size_t count, const q15* q, int t, q15* e) noexcept {
    constexpr std::size_t n = 2 * ((Dim + 1) / 2);
    constexpr int C8 = static_cast<int>(n / 8);
#if defined(__OPTIMIZE_SIZE__)
    constexpr bool kSmall = true;
#else
    constexpr bool kSmall = false;
#endif
    const std::size_t groups = count / 4;
    if (groups > 0) {
        if constexpr (n >= 8 && n <= 56 && n % 8 != 0) {
            scores_in_registers<C8, true, true>(s, stride, groups, q, n, t, e);
        } else if constexpr (n >= 8 && n <= 56) {
            if (!kSmall && stride == n) {
                scores_in_registers<C8, false, false>(s, stride, groups, q, n, t, e);
            } else {
                scores_in_registers<C8, false, true>(s, stride, groups, q, n, t, e);
            }
        } else {
            scores_looped(s, stride, groups, q, n, t, e);
        }
        if (count % 4 == 0) return;
    }
    scores_rest(s + 4 * groups * stride, stride, count % 4, q, n / 2, t, e + 4 * groups);
}

/// max_j e_j, eight values a pass: the lanes' maxima by VMAX (the last n % 8 under a tail predicate: the other lanes
/// keep theirs), then VMAXV, the largest of the eight lanes and a scalar.
inline std::int32_t max_raw(const q15* e, std::size_t n) noexcept {
    mve::touch(e);
    const std::int16_t* p = mve::raw(e);
    int16x8_t m = vdupq_n_s16(-32768);
    // (a count of passes and a pointer: GCC 12 kept no index beside the loop's, 2 instructions a pass fewer)
    for (std::size_t i = n / 8; i > 0; --i, p += 8) m = vmaxq_s16(m, vld1q_s16(p));
    if (n % 8 != 0) {
        const mve_pred16_t tail = vctp16q(static_cast<std::uint32_t>(n % 8));
        m = vmaxq_m_s16(m, m, vldrhq_z_s16(p, tail), tail);
    }
    return vmaxvq_s16(-32768, m);
}

}  // namespace sarnn::kernel::q15_mve

#endif
