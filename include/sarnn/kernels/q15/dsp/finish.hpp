// sarnn/kernels/q15/dsp/finish.hpp: the DSP set's q15 loops (Cortex-M4, M7; the set: dsp/loops.hpp), affine_tanh's and
// affine's rows finished from their sums (finish_tanh).
#ifndef SARNN_KERNELS_Q15_DSP_FINISH_HPP
#define SARNN_KERNELS_Q15_DSP_FINISH_HPP

#include <cstddef>
#include <cstdint>

#include "sarnn/kernels/q15/dsp/common.hpp"

namespace sarnn::kernel::q15_dsp {

/// Whether finish_sum and finish_gru have their eight-row passes: not at -Os, where each would add about 0.4 to 0.6 kB
/// (the flash, not the instruction count, is what -Os asks for).
#if defined(__OPTIMIZE_SIZE__)
constexpr bool kFinish8 = false;
#else
constexpr bool kFinish8 = true;
#endif

/// affine_tanh's rows finished (q15/affine.hpp's finish_row, the same integers) from their sums s = (s_x, s_r) pairs,
/// for an input factor x_m / 2^(31 + x_shift) with x_shift = 1 - UP (UP 1 or 2) and x_m >= 0; one row in 34
/// instructions where GCC's form of the same took about 70. Stops before the first row whose shift is outside 2 .. 31
/// (the short form below needs shift >= 2; a shift above 31, which validate() refuses, counts as 31 in
/// requantize_short: the caller finishes that row) and returns how many rows it wrote. With kTanh false, y = pre
/// (affine's rows: 21 instructions a row; b may not be null).
///   xq  = clamp(floor((s_x·x_m + 2^(s-1)) / 2^s), +-2^30), s = 31 + x_shift: one SMLAL from 2^(s-1); hi >= 2^(s-2)
///         (or < -2^(s-2)) is exactly the clamp (one unsigned comparison of hi + 2^(s-2)); else hi·2^UP + the low
///         word's top UP bits, both added to s_r
///   pre = ssat16(qadd(floor((H + 2^(shift-2)) / 2^(shift-1)), b_r)), H the high word of (xq + s_r)·m_r: taken as
///         ssat16(qdadd((H >> (shift - 2)) + 1, b_r) >> 1), QDADD adding 2·b_r saturated (|H| <= 2^30: where
///         nothing saturates, floor((u + 2·b_r) / 2) = floor(u / 2) + b_r; where a sum saturates, both forms do on
///         the same side, beyond int16)
///   y   = tanh(pre): |pre| clamped to 32767 (the table's last two entries are equal), i = |pre| >> 6, f = |pre| & 63,
///         T_i + ((T_(i+1) - T_i)·f + 32) >> 6 as (T_i·(64 - f) + T_(i+1)·f + 32) >> 6: one (unaligned) LDR of
///         (T_i, T_(i+1)) and SMUAD with (64 - f, f); the sign back with the rounding, ((X ^ m) + 32) >> 6 for
///         m = pre >> 31 (for pre < 0: (31 - X) >> 6 = -((X + 32) >> 6))
// The rows' loop up to pre (in sr), before its tail stores y and tests the end.
// clang-format off
#define SARNN_DSP_FINISH_HEAD                          \
    "1:\n\t"                                           \
    "ldrd   %[sx], %[sr], [%[s]], #8\n\t"               \
    "mov    %[lo], %[half]\n\t"                         \
    "mov    %[hi], #0\n\t"                              \
    "smlal  %[lo], %[hi], %[sx], %[xm]\n\t"             \
    "add    %[sx], %[hi], %[lim]\n\t"                   \
    "cmp    %[sx], %[lim2]\n\t"                         \
    "bhs    5f\n\t"                                     \
    "add    %[sr], %[sr], %[hi], lsl %[up]\n\t"         \
    "add    %[sr], %[sr], %[lo], lsr %[down]\n\t"       \
    "2:\n\t"                                           \
    "ldrsb  %[t], [%[sh]], #1\n\t"                      \
    "sub    %[t], %[t], #2\n\t"                          \
    "cmp    %[t], #29\n\t"                               \
    "bhi    7f\n\t"                                     \
    "ldr    %[sx], [%[m]], #4\n\t"                      \
    "smull  %[lo], %[hi], %[sr], %[sx]\n\t"             \
    "asr    %[hi], %[hi], %[t]\n\t"                     \
    "add    %[hi], %[hi], #1\n\t"                       \
    "ldr    %[t], [%[b]], #4\n\t"                       \
    "qdadd  %[hi], %[hi], %[t]\n\t"                     \
    "ssat   %[sr], #16, %[hi], asr #1\n\t"
// clang-format on
// The loop's end test and the clamp of xq out of line.
// clang-format off
#define SARNN_DSP_FINISH_TAIL                          \
    "cmp    %[yp], %[end]\n\t"                          \
    "bne    1b\n\t"                                     \
    "b      7f\n\t"                                     \
    "5:\n\t"                                           \
    "cmp    %[hi], #0\n\t"                              \
    "ite    ge\n\t"                                     \
    "addge  %[sr], %[sr], #0x40000000\n\t"              \
    "sublt  %[sr], %[sr], #0x40000000\n\t"              \
    "b      2b\n\t"                                     \
    "7:"
#define SARNN_DSP_FINISH_OPERANDS                                                                                   \
    : [s] "+r"(s), [m] "+r"(m), [sh] "+r"(shift), [b] "+r"(b), [yp] "+r"(yp), [sx] "=&r"(sx), [sr] "=&r"(sr),     \
      [lo] "=&r"(lo), [hi] "=&r"(hi), [t] "=&r"(t)                                                                 \
    : [xm] "r"(x_m), [tab] "r"(tab), [end] "r"(end), [half] "i"(1 << (29 + 2 - UP)), [lim] "i"(1 << (28 + 2 - UP)), \
      [lim2] "i"(1 << (29 + 2 - UP)), [up] "i"(UP), [down] "i"(32 - UP)                                            \
    : "cc", "memory"
// clang-format on
template <int UP, bool kTanh = true>
inline std::size_t finish_tanh(const std::int32_t* s, std::size_t rows, const std::int32_t* m, const std::int8_t* shift,
                               const std::int32_t* b, std::int32_t x_m, q15* y) noexcept {
    static_assert(UP == 1 || UP == 2, "x_shift 0 or -1");
    if (rows == 0) return 0;
    q15* yp = y;
    q15* const end = y + rows;
    const std::int16_t* const tab = fixed::detail::kTanhTable;
    std::int32_t sx, sr, lo, hi, t;
    if constexpr (kTanh) {
        // clang-format off
        __asm__ volatile(SARNN_DSP_FINISH_HEAD
                         "eor    %[t], %[sr], %[sr], asr #31\n\t"
                         "sub    %[t], %[t], %[sr], asr #31\n\t"
                         "usat   %[t], #15, %[t]\n\t"
                         "lsr    %[lo], %[t], #6\n\t"
                         "ldr    %[lo], [%[tab], %[lo], lsl #1]\n\t"
                         "and    %[t], %[t], #63\n\t"
                         "rsb    %[hi], %[t], %[t], lsl #16\n\t"
                         "add    %[hi], %[hi], #64\n\t"
                         "smuad  %[hi], %[lo], %[hi]\n\t"
                         "eor    %[hi], %[hi], %[sr], asr #31\n\t"
                         "add    %[hi], %[hi], #32\n\t"
                         "asr    %[hi], %[hi], #6\n\t"
                         "strh   %[hi], [%[yp]], #2\n\t" SARNN_DSP_FINISH_TAIL SARNN_DSP_FINISH_OPERANDS);
        // clang-format on
    } else {
        // clang-format off
        __asm__ volatile(SARNN_DSP_FINISH_HEAD "strh   %[sr], [%[yp]], #2\n\t" SARNN_DSP_FINISH_TAIL
                             SARNN_DSP_FINISH_OPERANDS);
        // clang-format on
    }
    return static_cast<std::size_t>(yp - y);
}
// Two rows of finish_sum, the first's shift less 2 in the bottom byte of T (t or t2), the second's in the next (T
// moves on by a byte: LSR #8) (16 instructions).
// clang-format off
#define SARNN_DSP_FINISH_SUM_PAIR_BY(T)            \
    "ldrd   %[z], %[z1], [%[s]], #8\n\t"           \
    "ldrd   %[mv], %[m1], [%[m]], #8\n\t"          \
    "smmul  %[z], %[z], %[mv]\n\t"                 \
    "smmul  %[z1], %[z1], %[m1]\n\t"               \
    "asr    %[z], %[z], %[" T "]\n\t"              \
    "lsr    %[" T "], %[" T "], #8\n\t"            \
    "asr    %[z1], %[z1], %[" T "]\n\t"            \
    "ldrd   %[mv], %[m1], [%[b]], #8\n\t"          \
    "add    %[z], %[z], #1\n\t"                    \
    "add    %[z1], %[z1], #1\n\t"                  \
    "qdadd  %[z], %[z], %[mv]\n\t"                 \
    "qdadd  %[z1], %[z1], %[m1]\n\t"               \
    "ssat   %[z], #16, %[z], asr #1\n\t"           \
    "ssat   %[z1], #16, %[z1], asr #1\n\t"         \
    "strh   %[z], [%[yp]], #2\n\t"                 \
    "strh   %[z1], [%[yp]], #2\n\t"
#define SARNN_DSP_FINISH_SUM_PAIR SARNN_DSP_FINISH_SUM_PAIR_BY("t")
// clang-format on
/// affine's rows finished from one sum each (the x part's factor 1: s = z = s_x + s_r, rows_packed_sum's),
/// q15/affine.hpp's affine_one, the same integers: pre = ssat16(qadd(floor((H + 2^(shift-2)) / 2^(shift-1)), b_r)), H
/// the high word of z·m_r, taken as finish_tanh's ssat16(qdadd((H >> (shift - 2)) + 1, b_r) >> 1). Four rows a pass (40
/// instructions for four rows, where one at a time took 15 a row and GCC's form 28): two rows' sums, factors and biases
/// one LDRD each, the four shifts one LDR (any alignment) less 2 in each byte (SUB of 0x02020202: a byte below 2 wraps
/// above 29, and a borrow comes only from such a byte), checked against 2 .. 31 at once (UQSUB8 of 29 from each byte:
/// nonzero where one is above 29), ASR by the bottom byte (LSR #8 from one row's to the next's). Eight rows a pass
/// first where there are eight (76 instructions: the two words of shifts checked by two UQSUB8 and one ORRS, the end
/// tested once; M4 Lstm<q15, 16, 32> 12,740 -> 12,684 instructions a step); a pass with a shift outside 2 .. 31 goes on
/// four rows a pass, and one with such a shift, and the last rows % 4, one row at a time (15 instructions). Stops before the first row whose shift
/// is outside 2 .. 31 (the caller finishes it) and returns how many rows it wrote (s, m and b word aligned; b may not
/// be null).
inline std::size_t finish_sum(const std::int32_t* s, std::size_t rows, const std::int32_t* m, const std::int8_t* shift,
                              const std::int32_t* b, q15* y) noexcept {
    if (rows == 0) return 0;
    q15* yp = y;
    q15* const end = y + rows;
    std::int32_t z, mv, t;
    const std::int32_t k29 = 0x1D1D1D1D;
    if (kFinish8 && rows >= 8) {
        const q15* const end8 = y + (rows & ~std::size_t{7});
        std::int32_t z1, m1, t2;
        // clang-format off
        __asm__ volatile("1:\n\t"
                         "ldr    %[t], [%[sh]], #4\n\t"
                         "ldr    %[t2], [%[sh]], #4\n\t"
                         "sub    %[t], %[t], #0x02020202\n\t"
                         "sub    %[t2], %[t2], #0x02020202\n\t"
                         "uqsub8 %[z], %[t], %[k29]\n\t"
                         "uqsub8 %[z1], %[t2], %[k29]\n\t"
                         "orrs   %[z], %[z], %[z1]\n\t"
                         "bne    6f\n\t"
                         SARNN_DSP_FINISH_SUM_PAIR_BY("t")
                         "lsr    %[t], %[t], #8\n\t"
                         SARNN_DSP_FINISH_SUM_PAIR_BY("t")
                         SARNN_DSP_FINISH_SUM_PAIR_BY("t2")
                         "lsr    %[t2], %[t2], #8\n\t"
                         SARNN_DSP_FINISH_SUM_PAIR_BY("t2")
                         "cmp    %[yp], %[end8]\n\t"
                         "bne    1b\n\t"
                         "b      7f\n\t"
                         "6:\n\t"
                         "sub    %[sh], %[sh], #8\n\t"
                         "7:"
                         : [s] "+r"(s), [m] "+r"(m), [sh] "+r"(shift), [b] "+r"(b), [yp] "+r"(yp), [z] "=&r"(z),
                           [z1] "=&r"(z1), [mv] "=&r"(mv), [m1] "=&r"(m1), [t] "=&r"(t), [t2] "=&r"(t2)
                         : [end8] "r"(end8), [k29] "r"(k29)
                         : "cc", "memory");
        // clang-format on
        if (yp == end) return rows;
    }
    if (end - yp >= 4) {
        const q15* const end4 = yp + ((end - yp) & ~std::ptrdiff_t{3});
        std::int32_t z1, m1;
        // clang-format off
        __asm__ volatile("1:\n\t"
                         "ldr    %[t], [%[sh]], #4\n\t"
                         "sub    %[t], %[t], #0x02020202\n\t"
                         "uqsub8 %[z], %[t], %[k29]\n\t"
                         "cmp    %[z], #0\n\t"
                         "bne    6f\n\t"
                         SARNN_DSP_FINISH_SUM_PAIR
                         "lsr    %[t], %[t], #8\n\t"
                         SARNN_DSP_FINISH_SUM_PAIR
                         "cmp    %[yp], %[end4]\n\t"
                         "bne    1b\n\t"
                         "b      7f\n\t"
                         "6:\n\t"
                         "sub    %[sh], %[sh], #4\n\t"
                         "7:"
                         : [s] "+r"(s), [m] "+r"(m), [sh] "+r"(shift), [b] "+r"(b), [yp] "+r"(yp), [z] "=&r"(z),
                           [z1] "=&r"(z1), [mv] "=&r"(mv), [m1] "=&r"(m1), [t] "=&r"(t)
                         : [end4] "r"(end4), [k29] "r"(k29)
                         : "cc", "memory");
        // clang-format on
        if (yp == end) return rows;
    }
    // clang-format off
    __asm__ volatile("1:\n\t"
                     "ldrsb  %[t], [%[sh]], #1\n\t"
                     "sub    %[t], %[t], #2\n\t"
                     "cmp    %[t], #29\n\t"
                     "bhi    7f\n\t"
                     "ldr    %[z], [%[s]], #4\n\t"
                     "ldr    %[mv], [%[m]], #4\n\t"
                     "smmul  %[z], %[z], %[mv]\n\t"
                     "asr    %[z], %[z], %[t]\n\t"
                     "add    %[z], %[z], #1\n\t"
                     "ldr    %[t], [%[b]], #4\n\t"
                     "qdadd  %[z], %[z], %[t]\n\t"
                     "ssat   %[z], #16, %[z], asr #1\n\t"
                     "strh   %[z], [%[yp]], #2\n\t"
                     "cmp    %[yp], %[end]\n\t"
                     "bne    1b\n\t"
                     "7:"
                     : [s] "+r"(s), [m] "+r"(m), [sh] "+r"(shift), [b] "+r"(b), [yp] "+r"(yp), [z] "=&r"(z),
                       [mv] "=&r"(mv), [t] "=&r"(t)
                     : [end] "r"(end)
                     : "cc", "memory");
    // clang-format on
    return static_cast<std::size_t>(yp - y);
}

// clang-format off
// The sums' loads of two rows and of one: the (s_x, s_h) pairs (PAIRS), or s_x at s and s_h at s + off bytes (APART).
#define SARNN_DSP_GRU_PAIRS2                          \
    "ldrd   %[sx0], %[sh0], [%[s]], #8\n\t"           \
    "ldrd   %[sx1], %[sh1], [%[s]], #8\n\t"
#define SARNN_DSP_GRU_APART2                          \
    "ldrd   %[sh0], %[sh1], [%[s], %[off]]\n\t"       \
    "ldrd   %[sx0], %[sx1], [%[s]], #8\n\t"
#define SARNN_DSP_GRU_PAIRS1 "ldrd   %[sx], %[sh], [%[s]], #8\n\t"
#define SARNN_DSP_GRU_APART1                          \
    "ldr    %[sh], [%[s], %[off]]\n\t"                \
    "ldr    %[sx], [%[s]], #4\n\t"
// clang-format on
// Two rows of finish_gru, the first's shift less 2 in the bottom byte of t, the second's in the next (t moves on by a
// byte: LSR #8): their sums (s_x, s_h) one LDRD each, their factors, b_ih and b_hh one LDRD each (30 instructions).
// clang-format off
#define SARNN_DSP_FINISH_GRU_PAIR(LOADS)              \
    LOADS                                             \
    "ldrd   %[m0], %[m1], [%[m]], #8\n\t"             \
    "smmul  %[sx0], %[sx0], %[m0]\n\t"                \
    "smmul  %[sh0], %[sh0], %[m0]\n\t"                \
    "smmul  %[sx1], %[sx1], %[m1]\n\t"                \
    "smmul  %[sh1], %[sh1], %[m1]\n\t"                \
    "asr    %[sx0], %[sx0], %[t]\n\t"                 \
    "asr    %[sh0], %[sh0], %[t]\n\t"                 \
    "lsr    %[t], %[t], #8\n\t"                       \
    "asr    %[sx1], %[sx1], %[t]\n\t"                 \
    "asr    %[sh1], %[sh1], %[t]\n\t"                 \
    "add    %[sx0], %[sx0], #1\n\t"                   \
    "add    %[sh0], %[sh0], #1\n\t"                   \
    "add    %[sx1], %[sx1], #1\n\t"                   \
    "add    %[sh1], %[sh1], #1\n\t"                   \
    "ldrd   %[m0], %[m1], [%[bi]], #8\n\t"            \
    "qdadd  %[sx0], %[sx0], %[m0]\n\t"                \
    "qdadd  %[sx1], %[sx1], %[m1]\n\t"                \
    "ldrd   %[m0], %[m1], [%[bh]], #8\n\t"            \
    "qdadd  %[sh0], %[sh0], %[m0]\n\t"                \
    "qdadd  %[sh1], %[sh1], %[m1]\n\t"                \
    "ssat   %[sx0], #16, %[sx0], asr #1\n\t"          \
    "ssat   %[sx1], #16, %[sx1], asr #1\n\t"          \
    "ssat   %[sh0], #16, %[sh0], asr #1\n\t"          \
    "ssat   %[sh1], #16, %[sh1], asr #1\n\t"          \
    "strh   %[sx0], [%[yp]], #2\n\t"                  \
    "strh   %[sx1], [%[yp]], #2\n\t"                  \
    "strh   %[sh0], [%[gh]], #2\n\t"                  \
    "strh   %[sh1], [%[gh]], #2\n\t"
// One row of finish_gru, its shift less 2 in the bottom byte of t: gi and gh from its sums (s_x, s_h) (17
// instructions).
#define SARNN_DSP_FINISH_GRU_ROW(LOADS)               \
    LOADS                                             \
    "ldr    %[mv], [%[m]], #4\n\t"                    \
    "smmul  %[sx], %[sx], %[mv]\n\t"                  \
    "smmul  %[sh], %[sh], %[mv]\n\t"                  \
    "asr    %[sx], %[sx], %[t]\n\t"                   \
    "asr    %[sh], %[sh], %[t]\n\t"                   \
    "add    %[sx], %[sx], #1\n\t"                     \
    "add    %[sh], %[sh], #1\n\t"                     \
    "ldr    %[mv], [%[bi]], #4\n\t"                   \
    "qdadd  %[sx], %[sx], %[mv]\n\t"                  \
    "ldr    %[mv], [%[bh]], #4\n\t"                   \
    "qdadd  %[sh], %[sh], %[mv]\n\t"                  \
    "ssat   %[sx], #16, %[sx], asr #1\n\t"            \
    "ssat   %[sh], #16, %[sh], asr #1\n\t"            \
    "strh   %[sx], [%[yp]], #2\n\t"                   \
    "strh   %[sh], [%[gh]], #2\n\t"
// clang-format on
/// gru_gates's rows finished from their sums s = (s_x, s_h) pairs where the x part's factor is 1 (q15/affine.hpp's
/// gru_gates, the same integers): gi = ssat16(qadd(requantize(s_x, m_r, shift_r), b_ih)), gh the same of s_h and b_hh,
/// each as finish_sum's. Four rows a pass (17.5 instructions a row, against 18.5 one row at a time within the pass: M4
/// q15 Gru<16, 32> 10,854 -> 10,761 instructions a step): the four shifts one LDR (any alignment) less 2 in each byte
/// and checked against 2 .. 31 at once as finish_sum's, ASR taking the bottom byte of the register as its count (the
/// next row's after LSR #8), two rows' factors and biases one LDRD each (fourteen registers: 29 in each byte and the
/// pass's end on the stack); a pass with a shift outside 2 .. 31, and the last rows % 4, one row at a time (23
/// instructions). Stops before the first row whose shift is outside 2 .. 31 and returns how many rows it wrote (s, m,
/// b_ih and b_hh word aligned). finish_gru_at<kOff>: for kOff < 0 the (s_x, s_h) pairs (finish_gru), else s_x[i] =
/// s[i] and s_h[i] = s[kOff / 4 + i] (finish_gru_apart: kOff bytes, a multiple of 4 up to 1020, LDRD's offset; two
/// rows' s_x one LDRD and their s_h another, as the pairs take). Always inline but at -Os: with the eight-row passes GCC
/// would call it from gru_gates, 8 arguments through the stack (M4 Gru<q15, 3, 8> 1,995 -> 2,005 instructions a step
/// that way, 1,981 inline); at -Os one copy is shared (about 0.6 kB each).
#if defined(__OPTIMIZE_SIZE__)
#define SARNN_DSP_FINISH_GRU_INLINE inline
#else
#define SARNN_DSP_FINISH_GRU_INLINE __attribute__((always_inline)) inline
#endif
template <int kOff>
SARNN_DSP_FINISH_GRU_INLINE std::size_t finish_gru_at(const std::int32_t* s, std::size_t rows, const std::int32_t* m,
                                                      const std::int8_t* shift, const std::int32_t* b_ih,
                                                      const std::int32_t* b_hh, q15* gi, q15* gh) noexcept {
    static_assert(kOff < 0 || (kOff % 4 == 0 && kOff <= 1020), "finish_gru_at: LDRD's offset");
    constexpr int off = kOff < 0 ? 0 : kOff;
    if (rows == 0) return 0;
    q15* yp = gi;
    q15* const end = gi + rows;
    std::int32_t sx, sh, mv, t;
    if (rows >= 4) {
        const std::int32_t k29 = 0x1D1D1D1D;
        std::int32_t sx1, sh1, m1;
// clang-format off
// Eight rows a pass: both words of shifts checked at once (two UQSUB8 and an ORRS), the second loaded again after
// the first four rows (all registers hold the pass's values), the end tested once (16 instructions a pass besides the
// pairs, against 20 for two passes of four rows: M4 Gru<q15, 16, 32> 10,001 -> 9,957 instructions a step). A pass
// with a shift outside 2 .. 31 goes on four rows a pass.
#define SARNN_DSP_FINISH_GRU_PASSES8(LOADS)                                                                      \
    "1:\n\t"                                                                                                    \
    "ldr    %[t], [%[shp]], #4\n\t"                                                                             \
    "ldr    %[m1], [%[shp]], #4\n\t"                                                                            \
    "sub    %[t], %[t], #0x02020202\n\t"                                                                        \
    "sub    %[m1], %[m1], #0x02020202\n\t"                                                                      \
    "ldr    %[m0], %[k29]\n\t"                                                                                  \
    "uqsub8 %[sx0], %[t], %[m0]\n\t"                                                                            \
    "uqsub8 %[sx1], %[m1], %[m0]\n\t"                                                                           \
    "orrs   %[sx0], %[sx0], %[sx1]\n\t"                                                                         \
    "bne    6f\n\t"                                                                                             \
    SARNN_DSP_FINISH_GRU_PAIR(LOADS)                                                                            \
    "lsr    %[t], %[t], #8\n\t"                                                                                 \
    SARNN_DSP_FINISH_GRU_PAIR(LOADS)                                                                            \
    "ldr    %[t], [%[shp], #-4]\n\t"                                                                            \
    "sub    %[t], %[t], #0x02020202\n\t"                                                                        \
    SARNN_DSP_FINISH_GRU_PAIR(LOADS)                                                                            \
    "lsr    %[t], %[t], #8\n\t"                                                                                 \
    SARNN_DSP_FINISH_GRU_PAIR(LOADS)                                                                            \
    "ldr    %[m0], %[end8]\n\t"                                                                                 \
    "cmp    %[yp], %[m0]\n\t"                                                                                   \
    "bne    1b\n\t"                                                                                             \
    "b      7f\n\t"                                                                                             \
    "6:\n\t"                                                                                                    \
    "sub    %[shp], %[shp], #8\n\t"                                                                             \
    "7:"                                                                                                        \
    : [s] "+r"(s), [m] "+r"(m), [shp] "+r"(shift), [bi] "+r"(b_ih), [bh] "+r"(b_hh), [yp] "+r"(yp),              \
      [gh] "+r"(gh), [sx0] "=&r"(sx), [sh0] "=&r"(sh), [sx1] "=&r"(sx1), [sh1] "=&r"(sh1), [m0] "=&r"(mv),       \
      [m1] "=&r"(m1), [t] "=&r"(t)                                                                              \
    : [end8] "m"(end8), [k29] "m"(k29), [off] "i"(off)                                                          \
    : "cc", "memory"
#define SARNN_DSP_FINISH_GRU_PASSES(LOADS)                                                                       \
    "1:\n\t"                                                                                                    \
    "ldr    %[t], [%[shp]], #4\n\t"                                                                             \
    "sub    %[t], %[t], #0x02020202\n\t"                                                                        \
    "ldr    %[m0], %[k29]\n\t"                                                                                  \
    "uqsub8 %[m0], %[t], %[m0]\n\t"                                                                             \
    "cmp    %[m0], #0\n\t"                                                                                      \
    "bne    6f\n\t"                                                                                             \
    SARNN_DSP_FINISH_GRU_PAIR(LOADS)                                                                            \
    "lsr    %[t], %[t], #8\n\t"                                                                                 \
    SARNN_DSP_FINISH_GRU_PAIR(LOADS)                                                                            \
    "ldr    %[m0], %[end4]\n\t"                                                                                 \
    "cmp    %[yp], %[m0]\n\t"                                                                                   \
    "bne    1b\n\t"                                                                                             \
    "b      7f\n\t"                                                                                             \
    "6:\n\t"                                                                                                    \
    "sub    %[shp], %[shp], #4\n\t"                                                                             \
    "7:"                                                                                                        \
    : [s] "+r"(s), [m] "+r"(m), [shp] "+r"(shift), [bi] "+r"(b_ih), [bh] "+r"(b_hh), [yp] "+r"(yp),              \
      [gh] "+r"(gh), [sx0] "=&r"(sx), [sh0] "=&r"(sh), [sx1] "=&r"(sx1), [sh1] "=&r"(sh1), [m0] "=&r"(mv),       \
      [m1] "=&r"(m1), [t] "=&r"(t)                                                                              \
    : [end4] "m"(end4), [k29] "m"(k29), [off] "i"(off)                                                          \
    : "cc", "memory"
#define SARNN_DSP_FINISH_GRU_ROWS(LOADS)                                                                         \
    "1:\n\t"                                                                                                    \
    "ldrsb  %[t], [%[shp]], #1\n\t"                                                                             \
    "sub    %[t], %[t], #2\n\t"                                                                                 \
    "cmp    %[t], #29\n\t"                                                                                      \
    "bhi    7f\n\t"                                                                                             \
    SARNN_DSP_FINISH_GRU_ROW(LOADS)                                                                             \
    "cmp    %[yp], %[end]\n\t"                                                                                  \
    "bne    1b\n\t"                                                                                             \
    "7:"                                                                                                        \
    : [s] "+r"(s), [m] "+r"(m), [shp] "+r"(shift), [bi] "+r"(b_ih), [bh] "+r"(b_hh), [yp] "+r"(yp),              \
      [gh] "+r"(gh), [sx] "=&r"(sx), [sh] "=&r"(sh), [mv] "=&r"(mv), [t] "=&r"(t)                               \
    : [end] "r"(end), [off] "i"(off)                                                                            \
    : "cc", "memory"
        // clang-format on
        if (kFinish8 && rows >= 8) {
            const q15* const end8 = gi + (rows & ~std::size_t{7});
            if constexpr (kOff < 0) {
                __asm__ volatile(SARNN_DSP_FINISH_GRU_PASSES8(SARNN_DSP_GRU_PAIRS2));
            } else {
                __asm__ volatile(SARNN_DSP_FINISH_GRU_PASSES8(SARNN_DSP_GRU_APART2));
            }
            if (yp == end) return rows;
        }
        if (end - yp >= 4) {
            const q15* const end4 = yp + ((end - yp) & ~std::ptrdiff_t{3});
            if constexpr (kOff < 0) {
                __asm__ volatile(SARNN_DSP_FINISH_GRU_PASSES(SARNN_DSP_GRU_PAIRS2));
            } else {
                __asm__ volatile(SARNN_DSP_FINISH_GRU_PASSES(SARNN_DSP_GRU_APART2));
            }
        }
    }
    if (yp == end) return rows;
    if constexpr (kOff < 0) {
        __asm__ volatile(SARNN_DSP_FINISH_GRU_ROWS(SARNN_DSP_GRU_PAIRS1));
    } else {
        __asm__ volatile(SARNN_DSP_FINISH_GRU_ROWS(SARNN_DSP_GRU_APART1));
    }
    return static_cast<std::size_t>(yp - gi);
}
/// finish_gru: the (s_x, s_h) pairs (q15/seam.hpp's kFinishGru).
inline std::size_t finish_gru(const std::int32_t* s, std::size_t rows, const std::int32_t* m, const std::int8_t* shift,
                              const std::int32_t* b_ih, const std::int32_t* b_hh, q15* gi, q15* gh) noexcept {
    return finish_gru_at<-1>(s, rows, m, shift, b_ih, b_hh, gi, gh);
}
#undef SARNN_DSP_FINISH_GRU_ROWS
#undef SARNN_DSP_FINISH_GRU_PASSES
#undef SARNN_DSP_FINISH_GRU_PASSES8
#undef SARNN_DSP_FINISH_GRU_INLINE
#undef SARNN_DSP_GRU_APART1
#undef SARNN_DSP_GRU_PAIRS1
#undef SARNN_DSP_GRU_APART2
#undef SARNN_DSP_GRU_PAIRS2
#undef SARNN_DSP_FINISH_GRU_ROW
#undef SARNN_DSP_FINISH_GRU_PAIR
#undef SARNN_DSP_FINISH_SUM_PAIR
#undef SARNN_DSP_FINISH_SUM_PAIR_BY

#undef SARNN_DSP_FINISH_OPERANDS
#undef SARNN_DSP_FINISH_TAIL
#undef SARNN_DSP_FINISH_HEAD

}  // namespace sarnn::kernel::q15_dsp

#endif
