// sarnn/kernels/cortex_m/gemv.hpp: y = M·v and y += M·v of the Cortex-M float set with the shape known at compile
// time (M: Rows x Cols, row-major, leading dimension Ld). Four rows at a time, so that each value of v loaded feeds
// four multiply-adds and four independent sums hide the FPU's multiply-add latency; the columns in blocks of four
// (block4: the loop over them of compile-time length), the Cols % 4 columns past the last block by straight-line
// code, the Rows % 4 rows past the last group of four by one group of that many rows: no loop whose count is read
// at run time, no per-element loop for a remainder.
// Cost: Rows·Cols multiply-adds; a block of four columns of four rows is 16 VFMA and 5 VLDM, the tail of T < 4
// columns 4·T VFMA and 5 VLDM, a group of four rows about 14 more (its pointers, sums and stores).
// Reads exactly M's Rows rows of Cols values and v's Cols values; writes exactly y[0..Rows).
#ifndef SARNN_KERNELS_CORTEX_M_GEMV_HPP
#define SARNN_KERNELS_CORTEX_M_GEMV_HPP

#include <cstddef>
#include <utility>

#include "sarnn/kernels/cortex_m/math.hpp"

// Thumb-2 with a single-precision FPU that has VFMA (FPv4-SP and later: M4F, M7): a block loads four consecutive
// floats of v and of each row with one VLDM each, which GCC does not emit by itself (it loads them one VLDR at a
// time): the 16 multiply-adds of a block then take 21 instructions instead of 36 (assembly, as
// kernels/cortex_m/set.hpp's dot4: measured there, a block 40% fewer instructions than the plain C++ below it).
// Every other target runs the plain C++, which computes the same sums in the same order.
#if defined(__ARM_FP) && (__ARM_FP & 4) && defined(__ARM_FEATURE_FMA) && defined(__thumb2__) && defined(__GNUC__) && \
    !defined(__ARM_NEON)
#define SARNN_CM_SHAPED_VLDM 1
#else
#define SARNN_CM_SHAPED_VLDM 0
#endif

#if SARNN_CM_SHAPED_VLDM
// The context's loops (dot_scores.hpp, weighted_sum.hpp): the next row's chunk (%[regs] values, s16 on) by one VLDM,
// the row pointer %[pr] on past the rest of the row (%[skip] bytes) to the next row's chunk.
#define SARNN_CM_LOAD_ROW_                   \
    ".if %c[regs] == 1\n\t"                  \
    "vldmia %[pr]!, {s16}\n\t"               \
    ".else\n\t"                              \
    "vldmia %[pr]!, {s16-s%c[last_reg]}\n\t" \
    ".endif\n\t"                             \
    ".if %c[skip]\n\t"                       \
    "add %[pr], %[pr], #%c[skip]\n\t"        \
    ".endif\n\t"
#endif

#if SARNN_CM_SHAPED_VLDM
// The assembly of block4 and tail (below), each used with two operand lists: the sums read and written (+t), or
// only written (=t, Init: the first column multiplies).
#define SARNN_CM_BLOCK4_ASM        \
    "vldmia %[pv]!, {s16-s19}\n\t" \
    "vldmia %[p0]!, {s20-s23}\n\t" \
    ".if %c[nr] >= 2\n\t"          \
    "vldmia %[p1]!, {s24-s27}\n\t" \
    ".endif\n\t"                   \
    ".if %c[init]\n\t"             \
    "vmul.f32 %[s0], s20, s16\n\t" \
    ".else\n\t"                    \
    "vfma.f32 %[s0], s20, s16\n\t" \
    ".endif\n\t"                   \
    ".if %c[nr] >= 2\n\t"          \
    ".if %c[init]\n\t"             \
    "vmul.f32 %[s1], s24, s16\n\t" \
    ".else\n\t"                    \
    "vfma.f32 %[s1], s24, s16\n\t" \
    ".endif\n\t"                   \
    ".endif\n\t"                   \
    "vfma.f32 %[s0], s21, s17\n\t" \
    ".if %c[nr] >= 2\n\t"          \
    "vfma.f32 %[s1], s25, s17\n\t" \
    ".endif\n\t"                   \
    "vfma.f32 %[s0], s22, s18\n\t" \
    ".if %c[nr] >= 2\n\t"          \
    "vfma.f32 %[s1], s26, s18\n\t" \
    ".endif\n\t"                   \
    "vfma.f32 %[s0], s23, s19\n\t" \
    ".if %c[nr] >= 2\n\t"          \
    "vfma.f32 %[s1], s27, s19\n\t" \
    ".endif\n\t"                   \
    ".if %c[nr] >= 3\n\t"          \
    "vldmia %[p2]!, {s20-s23}\n\t" \
    ".endif\n\t"                   \
    ".if %c[nr] >= 4\n\t"          \
    "vldmia %[p3]!, {s24-s27}\n\t" \
    ".endif\n\t"                   \
    ".if %c[nr] >= 3\n\t"          \
    ".if %c[init]\n\t"             \
    "vmul.f32 %[s2], s20, s16\n\t" \
    ".else\n\t"                    \
    "vfma.f32 %[s2], s20, s16\n\t" \
    ".endif\n\t"                   \
    ".endif\n\t"                   \
    ".if %c[nr] >= 4\n\t"          \
    ".if %c[init]\n\t"             \
    "vmul.f32 %[s3], s24, s16\n\t" \
    ".else\n\t"                    \
    "vfma.f32 %[s3], s24, s16\n\t" \
    ".endif\n\t"                   \
    ".endif\n\t"                   \
    ".if %c[nr] >= 3\n\t"          \
    "vfma.f32 %[s2], s21, s17\n\t" \
    ".endif\n\t"                   \
    ".if %c[nr] >= 4\n\t"          \
    "vfma.f32 %[s3], s25, s17\n\t" \
    ".endif\n\t"                   \
    ".if %c[nr] >= 3\n\t"          \
    "vfma.f32 %[s2], s22, s18\n\t" \
    ".endif\n\t"                   \
    ".if %c[nr] >= 4\n\t"          \
    "vfma.f32 %[s3], s26, s18\n\t" \
    ".endif\n\t"                   \
    ".if %c[nr] >= 3\n\t"          \
    "vfma.f32 %[s2], s23, s19\n\t" \
    ".endif\n\t"                   \
    ".if %c[nr] >= 4\n\t"          \
    "vfma.f32 %[s3], s27, s19\n\t" \
    ".endif\n\t"

#define SARNN_CM_TAIL_ASM              \
    ".if %c[t] == 1\n\t"               \
    "vldmia %[pv], {s16}\n\t"          \
    ".else\n\t"                        \
    "vldmia %[pv], {s16-s%c[e16]}\n\t" \
    ".endif\n\t"                       \
    ".if %c[t] == 1\n\t"               \
    "vldmia %[p0], {s20}\n\t"          \
    ".else\n\t"                        \
    "vldmia %[p0], {s20-s%c[e20]}\n\t" \
    ".endif\n\t"                       \
    ".if %c[nr] >= 2\n\t"              \
    ".if %c[t] == 1\n\t"               \
    "vldmia %[p1], {s24}\n\t"          \
    ".else\n\t"                        \
    "vldmia %[p1], {s24-s%c[e24]}\n\t" \
    ".endif\n\t"                       \
    ".endif\n\t"                       \
    ".if %c[init]\n\t"                 \
    "vmul.f32 %[s0], s20, s16\n\t"     \
    ".else\n\t"                        \
    "vfma.f32 %[s0], s20, s16\n\t"     \
    ".endif\n\t"                       \
    ".if %c[nr] >= 2\n\t"              \
    ".if %c[init]\n\t"                 \
    "vmul.f32 %[s1], s24, s16\n\t"     \
    ".else\n\t"                        \
    "vfma.f32 %[s1], s24, s16\n\t"     \
    ".endif\n\t"                       \
    ".endif\n\t"                       \
    ".if %c[t] > 1\n\t"                \
    "vfma.f32 %[s0], s21, s17\n\t"     \
    ".if %c[nr] >= 2\n\t"              \
    "vfma.f32 %[s1], s25, s17\n\t"     \
    ".endif\n\t"                       \
    ".endif\n\t"                       \
    ".if %c[t] > 2\n\t"                \
    "vfma.f32 %[s0], s22, s18\n\t"     \
    ".if %c[nr] >= 2\n\t"              \
    "vfma.f32 %[s1], s26, s18\n\t"     \
    ".endif\n\t"                       \
    ".endif\n\t"                       \
    ".if %c[nr] >= 3\n\t"              \
    ".if %c[t] == 1\n\t"               \
    "vldmia %[p2], {s20}\n\t"          \
    ".else\n\t"                        \
    "vldmia %[p2], {s20-s%c[e20]}\n\t" \
    ".endif\n\t"                       \
    ".endif\n\t"                       \
    ".if %c[nr] >= 4\n\t"              \
    ".if %c[t] == 1\n\t"               \
    "vldmia %[p3], {s24}\n\t"          \
    ".else\n\t"                        \
    "vldmia %[p3], {s24-s%c[e24]}\n\t" \
    ".endif\n\t"                       \
    ".endif\n\t"                       \
    ".if %c[nr] >= 3\n\t"              \
    ".if %c[init]\n\t"                 \
    "vmul.f32 %[s2], s20, s16\n\t"     \
    ".else\n\t"                        \
    "vfma.f32 %[s2], s20, s16\n\t"     \
    ".endif\n\t"                       \
    ".endif\n\t"                       \
    ".if %c[nr] >= 4\n\t"              \
    ".if %c[init]\n\t"                 \
    "vmul.f32 %[s3], s24, s16\n\t"     \
    ".else\n\t"                        \
    "vfma.f32 %[s3], s24, s16\n\t"     \
    ".endif\n\t"                       \
    ".endif\n\t"                       \
    ".if %c[t] > 1\n\t"                \
    ".if %c[nr] >= 3\n\t"              \
    "vfma.f32 %[s2], s21, s17\n\t"     \
    ".endif\n\t"                       \
    ".if %c[nr] >= 4\n\t"              \
    "vfma.f32 %[s3], s25, s17\n\t"     \
    ".endif\n\t"                       \
    ".endif\n\t"                       \
    ".if %c[t] > 2\n\t"                \
    ".if %c[nr] >= 3\n\t"              \
    "vfma.f32 %[s2], s22, s18\n\t"     \
    ".endif\n\t"                       \
    ".if %c[nr] >= 4\n\t"              \
    "vfma.f32 %[s3], s26, s18\n\t"     \
    ".endif\n\t"                       \
    ".endif\n\t"
#endif

namespace sarnn::kernel::cortex_m {

/// s_k += row_k[0..4)·v[0..4) (Init: s_k = row_k[0..4)·v[0..4), whatever s_k held) for the NR <= 4 rows at p_k
/// (rows from NR on: untouched), then p_k and pv 4 values on.
template <std::size_t NR, bool Init>
SARNN_CM_INLINE void block4(const float*& p0, const float*& p1, const float*& p2, const float*& p3, const float*& pv,
                            float& s0, float& s1, float& s2, float& s3) noexcept {
#if SARNN_CM_SHAPED_VLDM
    // s_k += p_k[0..4)·v[0..4): v in s16-s19, rows 0 and 2 in s20-s23, rows 1 and 3 in s24-s27
    if constexpr (Init) {
        __asm__(SARNN_CM_BLOCK4_ASM
                : [s0] "=t"(s0), [s1] "=t"(s1), [s2] "=t"(s2), [s3] "=t"(s3), [p0] "+r"(p0), [p1] "+r"(p1),
                  [p2] "+r"(p2), [p3] "+r"(p3), [pv] "+r"(pv)
                : [nr] "i"(NR), [init] "i"(Init ? 1 : 0)
                : "s16", "s17", "s18", "s19", "s20", "s21", "s22", "s23", "s24", "s25", "s26", "s27", "memory");
    } else {
        __asm__(SARNN_CM_BLOCK4_ASM
                : [s0] "+t"(s0), [s1] "+t"(s1), [s2] "+t"(s2), [s3] "+t"(s3), [p0] "+r"(p0), [p1] "+r"(p1),
                  [p2] "+r"(p2), [p3] "+r"(p3), [pv] "+r"(pv)
                : [nr] "i"(NR), [init] "i"(Init ? 1 : 0)
                : "s16", "s17", "s18", "s19", "s20", "s21", "s22", "s23", "s24", "s25", "s26", "s27", "memory");
    }
#else
    // s_k (+)= Σ_j p_k[j]·v[j], j = 0..3, in that order
    float* const s[4] = {&s0, &s1, &s2, &s3};
    const float** const p[4] = {&p0, &p1, &p2, &p3};
    for (std::size_t k = 0; k < NR; ++k) {
        if constexpr (Init) *s[k] = (*p[k])[0] * pv[0];
        for (std::size_t j = Init ? 1 : 0; j < 4; ++j) *s[k] = madd((*p[k])[j], pv[j], *s[k]);
        *p[k] += 4;
    }
    pv += 4;
#endif
}

/// s_k += row_k[0..T)·v[0..T) (Init: s_k = ...) for the T < 4 columns past the last block, for the NR <= 4 rows at
/// p_k.
template <std::size_t NR, std::size_t T, bool Init>
SARNN_CM_INLINE void tail(const float* p0, const float* p1, const float* p2, const float* p3, const float* pv,
                          float& s0, float& s1, float& s2, float& s3) noexcept {
    static_assert(T >= 1 && T <= 3, "sarnn: tail: 1 to 3 columns");
#if SARNN_CM_SHAPED_VLDM
    // v in s16.., rows 0 and 2 in s20.., rows 1 and 3 in s24.., T values each by one VLDM (where the plain code
    // takes a VLDR a value: 4·T + 5 instructions for four rows, not 9·T)
    if constexpr (Init) {
        __asm__(SARNN_CM_TAIL_ASM
                : [s0] "=t"(s0), [s1] "=t"(s1), [s2] "=t"(s2), [s3] "=t"(s3)
                : [p0] "r"(p0), [p1] "r"(p1), [p2] "r"(p2), [p3] "r"(p3), [pv] "r"(pv), [nr] "i"(NR), [t] "i"(T),
                  [init] "i"(Init ? 1 : 0), [e16] "i"(16 + T - 1), [e20] "i"(20 + T - 1), [e24] "i"(24 + T - 1)
                : "s16", "s17", "s18", "s20", "s21", "s22", "s24", "s25", "s26", "memory");
    } else {
        __asm__(SARNN_CM_TAIL_ASM
                : [s0] "+t"(s0), [s1] "+t"(s1), [s2] "+t"(s2), [s3] "+t"(s3)
                : [p0] "r"(p0), [p1] "r"(p1), [p2] "r"(p2), [p3] "r"(p3), [pv] "r"(pv), [nr] "i"(NR), [t] "i"(T),
                  [init] "i"(Init ? 1 : 0), [e16] "i"(16 + T - 1), [e20] "i"(20 + T - 1), [e24] "i"(24 + T - 1)
                : "s16", "s17", "s18", "s20", "s21", "s22", "s24", "s25", "s26", "memory");
    }
#else
    // s_k (+)= row_k[j]·v[j], j = 0..T-1 in that order
    for (std::size_t j = 0; j < T; ++j) {
        const float vj = pv[j];
        const bool set = Init && j == 0;
        s0 = set ? p0[j] * vj : madd(p0[j], vj, s0);
        if constexpr (NR >= 2) s1 = set ? p1[j] * vj : madd(p1[j], vj, s1);
        if constexpr (NR >= 3) s2 = set ? p2[j] * vj : madd(p2[j], vj, s2);
        if constexpr (NR >= 4) s3 = set ? p3[j] * vj : madd(p3[j], vj, s3);
    }
#endif
}

/// block4 once per element of the sequence, straight-line.
template <std::size_t NR, bool Init, std::size_t... U>
SARNN_CM_INLINE void blocks4(const float*& p0, const float*& p1, const float*& p2, const float*& p3, const float*& pv,
                             float& s0, float& s1, float& s2, float& s3, std::index_sequence<U...>) noexcept {
    (block4 < NR, Init && U == 0 > (p0, p1, p2, p3, pv, s0, s1, s2, s3), ...);
}

/// s_k += row_k·v (Init: s_k = row_k·v) for the NR <= 4 rows row_k = first + k·Ld of Cols values (s_k, k >= NR:
/// untouched).
template <std::size_t NR, std::size_t Cols, std::size_t Ld, bool Init = false>
SARNN_CM_INLINE void rows_dot(const float* first, const float* v, float& s0, float& s1, float& s2, float& s3) noexcept {
    static_assert(NR >= 1 && NR <= 4, "sarnn: rows_dot: 1 to 4 rows");
    const float* p0 = first;
    const float* p1 = NR >= 2 ? first + Ld : first;
    const float* p2 = NR >= 3 ? first + 2 * Ld : first;
    const float* p3 = NR >= 4 ? first + 3 * Ld : first;
    const float* pv = v;
    // the blocks of four columns, unrolled (a loop over asm statements costs its count and register copies)
#if defined(__OPTIMIZE_SIZE__)
    // -Os: the blocks in a loop, one copy of the block (the flash, not the instruction count, is what -Os asks for)
    if constexpr (Cols / 4 >= 1) {
        block4<NR, Init>(p0, p1, p2, p3, pv, s0, s1, s2, s3);
        for (std::size_t u = 1; u < Cols / 4; ++u) block4<NR, false>(p0, p1, p2, p3, pv, s0, s1, s2, s3);
    }
#else
    blocks4<NR, Init>(p0, p1, p2, p3, pv, s0, s1, s2, s3, std::make_index_sequence<Cols / 4>{});
#endif
    // the last Cols % 4 columns
    if constexpr (Cols % 4 != 0) tail < NR, Cols % 4, Init&& Cols<4>(p0, p1, p2, p3, pv, s0, s1, s2, s3);
}

/// y = M·v (Add: y += M·v), M Rows x Cols with leading dimension Ld; y must not alias v.
template <bool Add, std::size_t Rows, std::size_t Cols, std::size_t Ld>
SARNN_CM_INLINE void gemv_rows(const float* M, const float* v, float* y) noexcept {
    static_assert(Rows >= 1 && Cols >= 1 && Ld >= Cols, "sarnn: gemv<Rows, Cols, Ld>: Rows, Cols >= 1, Ld >= Cols");
    constexpr std::size_t full = Rows / 4 * 4;
    // y[r..r+4) (+)= M[r..r+4)·v, four rows at a time
    for (std::size_t r = 0; r < full; r += 4) {
        // (gemv: the sums start at the first products, not at 0)
        float s0, s1, s2, s3;
        if constexpr (Add) {
            s0 = y[r];
            s1 = y[r + 1];
            s2 = y[r + 2];
            s3 = y[r + 3];
        }
        rows_dot<4, Cols, Ld, !Add>(M + r * Ld, v, s0, s1, s2, s3);
        y[r] = s0;
        y[r + 1] = s1;
        y[r + 2] = s2;
        y[r + 3] = s3;
    }
    // the last Rows % 4 rows
    constexpr std::size_t rest = Rows % 4;
    if constexpr (rest != 0) {
        float s[4] = {0.0f, 0.0f, 0.0f, 0.0f};
        for (std::size_t k = 0; k < rest; ++k) s[k] = Add ? y[full + k] : 0.0f;
        rows_dot<rest, Cols, Ld, !Add>(M + full * Ld, v, s[0], s[1], s[2], s[3]);
        for (std::size_t k = 0; k < rest; ++k) y[full + k] = s[k];
    }
}

}  // namespace sarnn::kernel::cortex_m

#undef SARNN_CM_BLOCK4_ASM
#undef SARNN_CM_TAIL_ASM

#endif
