// sarnn/kernels/q15/dsp/scores.hpp: the DSP set's q15 loops (Cortex-M4, M7; the set: dsp/loops.hpp), the scores:
// dot_states<3>, dot_states<1>, scores4 (four states at the strides of Hidden 16, 32, 64), scores6 (q' of six pairs
// in registers), scores3 (three states a pass at any stride, q' of an even or odd number of pairs) and scores_at (the
// rounded scores of many states, the stride known at compile time or not).
#ifndef SARNN_KERNELS_Q15_DSP_SCORES_HPP
#define SARNN_KERNELS_Q15_DSP_SCORES_HPP

#include <cstddef>
#include <cstdint>

#include "sarnn/kernels/q15/dsp/common.hpp"

namespace sarnn::kernel::q15_dsp {

// One state's four values (its row pointer p, post-incremented) times q's four: two SMLADs.
// clang-format off
#define SARNN_DSP_STATE(a, p)                          \
    "ldrd   %[x], %[y], [%[" p "]], #8\n\t"            \
    "smlad  %[" a "], %[x], %[q0], %[" a "]\n\t"       \
    "smlad  %[" a "], %[y], %[q1], %[" a "]\n\t"
// clang-format on

/// Three states, two pairs of q per iteration (12 instructions for 12 multiply-adds), an odd last pair after.
template <>
inline void dot_states<3>(const q15* s, std::size_t stride, const q15* q, std::size_t npairs,
                          std::int32_t* d) noexcept {
    std::int32_t a0 = 0, a1 = 0, a2 = 0;
    const q15* p0 = s;
    const q15* p1 = s + stride;
    const q15* p2 = s + 2 * stride;
    const std::size_t n2 = npairs & ~std::size_t{1};
    if (n2 > 0) {
        const q15* qp = q;
        const q15* const end = q + 2 * n2;
        std::int32_t q0, q1, x, y;
        // clang-format off
        __asm__ volatile("1:\n\t"
                         "ldrd   %[q0], %[q1], [%[qp]], #8\n\t" SARNN_DSP_STATE("a0", "p0") SARNN_DSP_STATE("a1", "p1")
                             SARNN_DSP_STATE("a2", "p2") "cmp    %[qp], %[end]\n\t"
                         "bne    1b"
                         : [a0] "+r"(a0), [a1] "+r"(a1), [a2] "+r"(a2), [p0] "+r"(p0), [p1] "+r"(p1), [p2] "+r"(p2),
                           [qp] "+r"(qp), [q0] "=&r"(q0), [q1] "=&r"(q1), [x] "=&r"(x), [y] "=&r"(y)
                         : [end] "r"(end), "m"(*reinterpret_cast<const q15(*)[]>(s)),
                           "m"(*reinterpret_cast<const q15(*)[]>(q))
                         : "cc");
        // clang-format on
    }
    if (n2 < npairs) {
        const std::int32_t q2 = dsp::word(q + 2 * n2);
        a0 = __smlad(dsp::word(p0), q2, a0);
        a1 = __smlad(dsp::word(p1), q2, a1);
        a2 = __smlad(dsp::word(p2), q2, a2);
    }
    d[0] = a0;
    d[1] = a1;
    d[2] = a2;
}

/// One state (the last of a segment): SMLAD a pair.
template <>
inline void dot_states<1>(const q15* s, std::size_t, const q15* q, std::size_t npairs, std::int32_t* d) noexcept {
    std::int32_t a = 0;
    for (std::size_t k = 0; k < 2 * npairs; k += 2) a = __smlad(dsp::word(s + k), dsp::word(q + k), a);
    d[0] = a;
}

/// The rounded scores of groups of four states whose rows are STEP bytes apart (a constant: the common strides,
/// Hidden 16, 32 and 64, dispatched by scores below), q' of a multiple of 4 pairs: eight values of q' (two LDRDs) per
/// iteration times the four states' eight, each state's reached by an immediate offset from one pointer (28
/// instructions for 32 multiply-adds; the runtime stride of dot_states<3> takes a pointer a state: 12 for 12).
/// e_j = (d_j + 2^(t-1)) >> t as in scores; the pass's constants in memory (thirteen registers hold the loop).
/// Returns the states done (4·groups); s and e move past them.
template <int STEP>
inline std::size_t scores4(const q15*& s, std::size_t groups, const q15* q, std::size_t npairs, int t,
                           q15*& e) noexcept {
    static_assert(STEP % 4 == 0 && 3 * STEP + 8 <= 1020, "LDRD's immediate offsets");
    const std::int32_t half = std::int32_t{1} << (t - 1);
    // the step from where a pass's loop leaves p (its first row, 4·npairs bytes on) to the next pass's first row
    const std::int32_t gap = 4 * STEP - static_cast<std::int32_t>(4 * npairs);
    const std::int32_t tt = t;
    q15* ep = e;
    q15* const e_end = e + 4 * groups;
    const q15* p = s;
    const q15* const end = q + 2 * npairs;
    std::int32_t a0, a1, a2, a3, q0, q1, q2, q3, x, y;
    const q15* qp;
// clang-format off
#define SARNN_DSP_STATE8(a, o)                           \
    "ldrd   %[x], %[y], [%[p], #" #o "]\n\t"             \
    "smlad  %[" a "], %[x], %[q0], %[" a "]\n\t"         \
    "smlad  %[" a "], %[y], %[q1], %[" a "]\n\t"         \
    "ldrd   %[x], %[y], [%[p], #" #o " + 8]\n\t"         \
    "smlad  %[" a "], %[x], %[q2], %[" a "]\n\t"         \
    "smlad  %[" a "], %[y], %[q3], %[" a "]\n\t"
    // clang-format on
    // clang-format off
    __asm__ volatile("2:\n\t"
                     "ldr    %[qp], %[q]\n\t"
                     "ldr    %[a0], %[half]\n\t"
                     "mov    %[a1], %[a0]\n\t"
                     "mov    %[a2], %[a0]\n\t"
                     "mov    %[a3], %[a0]\n\t"
                     "1:\n\t"
                     "ldrd   %[q2], %[q3], [%[qp], #8]\n\t"
                     "ldrd   %[q0], %[q1], [%[qp]], #16\n\t"
                     SARNN_DSP_STATE8("a1", (%c[s1])) SARNN_DSP_STATE8("a2", (%c[s2])) SARNN_DSP_STATE8("a3", (%c[s3]))
                     "ldrd   %[x], %[y], [%[p], #8]\n\t"
                     "smlad  %[a0], %[x], %[q2], %[a0]\n\t"
                     "smlad  %[a0], %[y], %[q3], %[a0]\n\t"
                     "ldrd   %[x], %[y], [%[p]], #16\n\t"
                     "smlad  %[a0], %[x], %[q0], %[a0]\n\t"
                     "smlad  %[a0], %[y], %[q1], %[a0]\n\t"
                     "cmp    %[qp], %[end]\n\t"
                     "bne    1b\n\t"
                     "ldr    %[x], %[t]\n\t"
                     "asr    %[a0], %[a0], %[x]\n\t"
                     "asr    %[a1], %[a1], %[x]\n\t"
                     "asr    %[a2], %[a2], %[x]\n\t"
                     "asr    %[a3], %[a3], %[x]\n\t"
                     "ldr    %[y], %[ep]\n\t"
                     "strh   %[a0], [%[y]], #2\n\t"
                     "strh   %[a1], [%[y]], #2\n\t"
                     "strh   %[a2], [%[y]], #2\n\t"
                     "strh   %[a3], [%[y]], #2\n\t"
                     "str    %[y], %[ep]\n\t"
                     "ldr    %[x], %[gap]\n\t"
                     "add    %[p], %[p], %[x]\n\t"
                     "ldr    %[x], %[e_end]\n\t"
                     "cmp    %[y], %[x]\n\t"
                     "bne    2b"
                     : [a0] "=&r"(a0), [a1] "=&r"(a1), [a2] "=&r"(a2), [a3] "=&r"(a3), [q0] "=&r"(q0), [q1] "=&r"(q1),
                       [q2] "=&r"(q2), [q3] "=&r"(q3), [x] "=&r"(x), [y] "=&r"(y), [p] "+r"(p), [qp] "=&r"(qp),
                       [ep] "+m"(ep)
                     : [end] "r"(end), [q] "m"(q), [half] "m"(half), [t] "m"(tt), [gap] "m"(gap), [e_end] "m"(e_end),
                       [s1] "i"(STEP), [s2] "i"(2 * STEP), [s3] "i"(3 * STEP)
                     : "cc", "memory");
    // clang-format on
#undef SARNN_DSP_STATE8
    s = p;
    e = ep;
    return 4 * groups;
}

/// The rounded scores (q15/seam.hpp), three states a pass: the passes themselves in one assembly loop (the two pairs
/// of q' per iteration of dot_states<3>, an odd last pair after the loop: kOdd; then e_j = (d_j + 2^(t-1)) >> t, the
/// 2^(t-1) being the sums' start), the pass's constants in memory (fourteen registers would not hold them). Returns
/// the states done (3·groups, groups >= 1); s and e move past them.
template <bool kOdd>
inline std::size_t scores3(const q15*& s, std::size_t stride, std::size_t groups, const q15* q, std::size_t npairs,
                           int t, q15*& e) noexcept {
    const std::int32_t half = std::int32_t{1} << (t - 1);
    // what a pass reads: q', 2^(t-1), t, the step from the end of a pass's three rows to the next pass's (three rows
    // less the 2·npairs values read), where e goes, where it ends
    struct Pass {
        const q15* q;
        std::int32_t half, t, gap;
        q15* e;
        const q15* e_end;
    } pass{q, half, t, static_cast<std::int32_t>((3 * stride - 2 * npairs) * sizeof(q15)), e, e + 3 * groups};
    const q15* p0 = s;
    const q15* p1 = s + stride;
    const q15* p2 = s + 2 * stride;
    // the loop's end: the last even pair (kOdd: the odd pair after it)
    const q15* const end = q + 2 * (npairs & ~std::size_t{1});
    std::int32_t a0, a1, a2, q0, q1, x, y;
    const q15* qp;
    // clang-format off
#define SARNN_DSP_SCORES3(odd)                                                                                     \
    __asm__ volatile("2:\n\t"                                                                                     \
                     "ldr    %[qp], [%[ps]]\n\t"                                                                  \
                     "ldr    %[a0], [%[ps], #4]\n\t"                                                              \
                     "mov    %[a1], %[a0]\n\t"                                                                    \
                     "mov    %[a2], %[a0]\n\t"                                                                    \
                     "1:\n\t"                                                                                     \
                     "ldrd   %[q0], %[q1], [%[qp]], #8\n\t" SARNN_DSP_STATE("a0", "p0") SARNN_DSP_STATE("a1", "p1") \
                         SARNN_DSP_STATE("a2", "p2") "cmp    %[qp], %[end]\n\t"                                   \
                     "bne    1b\n\t"                                                                              \
                     odd                                                                                          \
                     "ldr    %[x], [%[ps], #8]\n\t"                                                               \
                     "asr    %[a0], %[a0], %[x]\n\t"                                                              \
                     "asr    %[a1], %[a1], %[x]\n\t"                                                              \
                     "asr    %[a2], %[a2], %[x]\n\t"                                                              \
                     "ldr    %[y], [%[ps], #16]\n\t"                                                              \
                     "strh   %[a0], [%[y]], #2\n\t"                                                               \
                     "strh   %[a1], [%[y]], #2\n\t"                                                               \
                     "strh   %[a2], [%[y]], #2\n\t"                                                               \
                     "str    %[y], [%[ps], #16]\n\t"                                                              \
                     "ldr    %[x], [%[ps], #12]\n\t"                                                              \
                     "add    %[p0], %[p0], %[x]\n\t"                                                              \
                     "add    %[p1], %[p1], %[x]\n\t"                                                              \
                     "add    %[p2], %[p2], %[x]\n\t"                                                              \
                     "ldr    %[x], [%[ps], #20]\n\t"                                                              \
                     "cmp    %[y], %[x]\n\t"                                                                      \
                     "bne    2b"                                                                                  \
                     : [a0] "=&r"(a0), [a1] "=&r"(a1), [a2] "=&r"(a2), [p0] "+r"(p0), [p1] "+r"(p1), [p2] "+r"(p2), \
                       [qp] "=&r"(qp), [q0] "=&r"(q0), [q1] "=&r"(q1), [x] "=&r"(x), [y] "=&r"(y)                  \
                     : [end] "r"(end), [ps] "r"(&pass)                                                            \
                     : "cc", "memory")
    // clang-format on
    if constexpr (kOdd) {
        // the odd last pair of q' (qp at the loop's end) times each state's: one SMLAD a state
        SARNN_DSP_SCORES3(
            "ldr    %[q0], [%[qp]]\n\t"
            "ldr    %[x], [%[p0]], #4\n\t"
            "smlad  %[a0], %[x], %[q0], %[a0]\n\t"
            "ldr    %[x], [%[p1]], #4\n\t"
            "smlad  %[a1], %[x], %[q0], %[a1]\n\t"
            "ldr    %[x], [%[p2]], #4\n\t"
            "smlad  %[a2], %[x], %[q0], %[a2]\n\t");
    } else {
        SARNN_DSP_SCORES3("");
    }
#undef SARNN_DSP_SCORES3
    s += 3 * groups * stride;
    e += 3 * groups;
    return 3 * groups;
}

// One state of scores6: its six pairs (row pointer p, post-incremented) times q' in q0..q5, the sum from 2^(t-1) (in
// memory), into a; GAP: the instructions that move p on to the next row (none where the rows are 12 values apart).
// clang-format off
#define SARNN_DSP_STATE6(a, GAP)                         \
    "ldr    %[" a "], %[half]\n\t"                      \
    "ldrd   %[x], %[y], [%[p]], #8\n\t"                 \
    "smlad  %[" a "], %[x], %[q0], %[" a "]\n\t"        \
    "smlad  %[" a "], %[y], %[q1], %[" a "]\n\t"        \
    "ldrd   %[x], %[y], [%[p]], #8\n\t"                 \
    "smlad  %[" a "], %[x], %[q2], %[" a "]\n\t"        \
    "smlad  %[" a "], %[y], %[q3], %[" a "]\n\t"        \
    "ldrd   %[x], %[y], [%[p]], #8\n\t"                 \
    "smlad  %[" a "], %[x], %[q4], %[" a "]\n\t"        \
    "smlad  %[" a "], %[y], %[q5], %[" a "]\n\t" GAP
#define SARNN_DSP_SCORES6(GAP)                                                                                    \
    __asm__ volatile("ldrd   %[q0], %[q1], [%[x]]\n\t"                                                           \
                     "ldrd   %[q2], %[q3], [%[x], #8]\n\t"                                                       \
                     "ldrd   %[q4], %[q5], [%[x], #16]\n"                                                         \
                     "1:\n\t"                                                                                    \
                     SARNN_DSP_STATE6("a0", GAP) SARNN_DSP_STATE6("a1", GAP)                                     \
                     "ldr    %[x], %[t]\n\t"                                                                     \
                     "asr    %[a0], %[a0], %[x]\n\t"                                                             \
                     "asr    %[a1], %[a1], %[x]\n\t"                                                             \
                     "strh   %[a0], [%[e]], #2\n\t"                                                              \
                     "strh   %[a1], [%[e]], #2\n\t"                                                              \
                     "cmp    %[e], %[e_end]\n\t"                                                                 \
                     "bne    1b"                                                                                 \
                     : [a0] "=&r"(a0), [a1] "=&r"(a1), [q0] "=&r"(q0), [q1] "=&r"(q1), [q2] "=&r"(q2),            \
                       [q3] "=&r"(q3), [q4] "=&r"(q4), [q5] "=&r"(q5), [x] "+&r"(x), [y] "=&r"(y), [p] "+r"(p),    \
                       [e] "+r"(ep)                                                                              \
                     : [e_end] "r"(e_end), [half] "m"(c.half), [t] "m"(c.t), [gap] "m"(c.gap)                    \
                     : "cc", "memory")
// clang-format on

/// The rounded scores (q15/seam.hpp) where q' has six pairs (dim 11 or 12): q' in six registers for all the states,
/// two states an iteration (27 instructions for 24 multiply-adds where the rows are 12 values apart, 31 with a gap
/// between them; scores3's passes: 60 for 36). Returns the states done (2·(count / 2)); s and e move past them.
inline std::size_t scores6(const q15*& s, std::size_t stride, std::size_t count, const q15* q, int t,
                           q15*& e) noexcept {
    const std::size_t done = count & ~std::size_t{1};
    if (done == 0) return 0;
    // what the loop reads from memory: 2^(t-1), t, the bytes between a row's twelfth value and the next row
    const struct {
        std::int32_t half, t, gap;
    } c{std::int32_t{1} << (t - 1), t, static_cast<std::int32_t>((stride - 12) * sizeof(q15))};
    const q15* p = s;
    q15* ep = e;
    q15* const e_end = e + done;
    auto x = reinterpret_cast<std::uintptr_t>(q);  // q' (read before the loop), then a value of a row
    std::int32_t a0, a1, q0, q1, q2, q3, q4, q5, y;
    if (stride == 12) {
        SARNN_DSP_SCORES6("");
    } else {
        SARNN_DSP_SCORES6("ldr    %[y], %[gap]\n\tadd    %[p], %[p], %[y]\n\t");
    }
    s = p;
    e = ep;
    return done;
}
#undef SARNN_DSP_SCORES6
#undef SARNN_DSP_STATE6

/// The rounded scores (q15/seam.hpp): four states a pass where q' has a multiple of 4 pairs and the stride is one of
/// scores4's, else three (scores3, where q' has at least two pairs); the last count % 3 states (and every state of a
/// q' of one pair) by dot_states; where q' has six pairs and the stride is not a constant of scores4, scores6. Stride:
/// the stride as the caller knows it at compile time (q15/seam.hpp): 16, 32 or 64 (that stride's scores4 alone, where
/// the stride is it), 0 (another: no scores4), or kAnyStride (every scores4, chosen by the stride at run time). Not
/// inlined: inlined, its code kept q15/attention.hpp's query from being inlined into its caller (about 20 instructions a
/// step more than the call).
template <std::size_t Stride>
__attribute__((noinline)) void scores_at(const q15* s, std::size_t stride, std::size_t count, const q15* q,
                                         std::size_t npairs, int t, q15* e) noexcept {
    // four states a pass where the stride is one of the constants of scores4 (the rest after, as below)
    if constexpr (Stride != 0) {
        if (npairs % 4 == 0 && count >= 4) {
            const std::size_t groups = count / 4;
            if constexpr (Stride == q15_loops::kAnyStride) {
                switch (stride) {
                case 16: count -= scores4<32>(s, groups, q, npairs, t, e); break;
                case 32: count -= scores4<64>(s, groups, q, npairs, t, e); break;
                case 64: count -= scores4<128>(s, groups, q, npairs, t, e); break;
                default: break;
                }
            } else {
                static_assert(Stride == 16 || Stride == 32 || Stride == 64, "scores_at: a stride of scores4's");
                if (stride == Stride) count -= scores4<static_cast<int>(2 * Stride)>(s, groups, q, npairs, t, e);
            }
            if (count == 0) return;
        }
    }
    // six pairs (dim 11 or 12) at a stride not a constant here: q' in registers (scores6)
    if constexpr (Stride == 0 || Stride == q15_loops::kAnyStride) {
        if (npairs == 6) {
            count -= scores6(s, stride, count, q, t, e);
            if (count == 0) return;
        }
    }
    const std::int32_t half = std::int32_t{1} << (t - 1);
    const std::size_t groups = npairs >= 2 ? count / 3 : 0;
    if (groups > 0) {
        if (npairs % 2 == 0) {
            scores3<false>(s, stride, groups, q, npairs, t, e);
        } else {
            scores3<true>(s, stride, groups, q, npairs, t, e);
        }
    }
    for (std::size_t i = 3 * groups; i < count;) {
        std::int32_t d[3];
        if (i + 3 <= count) {
            dot_states<3>(s, stride, q, npairs, d);
            for (const std::int32_t dk : d) (e++)->raw = static_cast<std::int16_t>((dk + half) >> t);
            i += 3;
            s += 3 * stride;
        } else {
            dot_states<1>(s, stride, q, npairs, d);
            (e++)->raw = static_cast<std::int16_t>((d[0] + half) >> t);
            ++i;
            s += stride;
        }
    }
}

#undef SARNN_DSP_STATE

}  // namespace sarnn::kernel::q15_dsp

#endif
