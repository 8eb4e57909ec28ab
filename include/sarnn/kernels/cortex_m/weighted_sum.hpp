// sarnn/kernels/cortex_m/weighted_sum.hpp: the weighted sum of the shaped dot context of the Cortex-M float set, the
// softmax's division folded in: c = inv·Σ_j p_j S_j over the two runs of the ring (kernels/cortex_m/ring.hpp), and
// alpha_j = inv·p_j written in the same pass. The columns in chunks of at most 12 (kChunk), each chunk of c held in
// registers over all the states (s0-s11), four states an iteration: their weights by one VLDM (s12-s15), each row's
// chunk by one VLDM (s16..), then the chunk's multiply-adds; c is stored once per chunk, scaled by inv. Per four
// states and a chunk of L columns 4·L VFMA and 7 loads, branches and counts, 4 pointer adds when the row is longer
// than the chunk (none when one VLDM loads a whole row: Dim <= 12, Stride <= 14), 5 more (alpha) in the last chunk.
// Assembly on the M4F and M7 (SARNN_CM_SHAPED_VLDM, cortex_m/gemv.hpp): GCC 12 keeps neither c nor the weights in
// registers over a loop whose count it does not know, and loads one VLDR a value (measured, SelfAttentionRnn dot, n
// 64, instructions a step with the plain C++ below instead: In 9, Hidden 12 6,639 against 5,169; In 16, Hidden 32
// 14,733 against 11,349). Every other target runs the plain C++ (the same sums in the same order).
#ifndef SARNN_KERNELS_CORTEX_M_WEIGHTED_SUM_HPP
#define SARNN_KERNELS_CORTEX_M_WEIGHTED_SUM_HPP

#include <cstddef>

#include "sarnn/kernels/cortex_m/gemv.hpp"
#include "sarnn/kernels/cortex_m/math.hpp"
#include "sarnn/kernels/cortex_m/ring.hpp"

#if SARNN_CM_SHAPED_VLDM
// c_k += S_k·p (k < L) with the row's chunk in s16.. and p the given register
#define SARNN_CM_FMA1_(k, r, p) ".if %c[len] > " #k "\n\tvfma.f32 s" #k ", s" #r ", " p "\n\t.endif\n\t"
#define SARNN_CM_FMA_ROW_(p)  \
    SARNN_CM_FMA1_(0, 16, p)  \
    SARNN_CM_FMA1_(1, 17, p)  \
    SARNN_CM_FMA1_(2, 18, p)  \
    SARNN_CM_FMA1_(3, 19, p)  \
    SARNN_CM_FMA1_(4, 20, p)  \
    SARNN_CM_FMA1_(5, 21, p)  \
    SARNN_CM_FMA1_(6, 22, p)  \
    SARNN_CM_FMA1_(7, 23, p)  \
    SARNN_CM_FMA1_(8, 24, p)  \
    SARNN_CM_FMA1_(9, 25, p)  \
    SARNN_CM_FMA1_(10, 26, p) \
    SARNN_CM_FMA1_(11, 27, p)
// the next row's chunk: SARNN_CM_LOAD_ROW_ (cortex_m/gemv.hpp)
// c_k = inv·c_k (k < L)
#define SARNN_CM_SCALE1_(k) ".if %c[len] > " #k "\n\tvmul.f32 s" #k ", s" #k ", %[inv]\n\t.endif\n\t"
// c_k = 0 (k < L), two registers a VMOV from the zero in a core register
#define SARNN_CM_ZERO2_(k, k1)                                                                             \
    ".if %c[len] > " #k1 "\n\tvmov s" #k ", s" #k1 ", %[z], %[z]\n\t.elseif %c[len] > " #k "\n\tvmov s" #k \
    ", %[z]\n\t.endif\n\t"
#endif

namespace sarnn::kernel::cortex_m {

/// The columns of c a chunk holds in registers.
inline constexpr std::size_t kChunk = 12;

/// c[Off..Off+L) = inv·Σ_j p_j S_j[Off..Off+L) over the runs (the rows Stride apart, p = w in logical order); Last:
/// also w_j = inv·p_j.
template <std::size_t Off, std::size_t L, std::size_t Stride, bool Last>
SARNN_CM_INLINE void weighted_chunk(const float* const base[2], const std::size_t n[2], float* w, float inv,
                                    float* c) noexcept {
    static_assert(L >= 1 && L <= kChunk && Off + L <= Stride, "sarnn: weighted_chunk: 1 to 12 columns of a row");
#if SARNN_CM_SHAPED_VLDM
    // one VLDM a row: the whole row (its padding too) when it fits s16-s29, so the load's writeback steps to the next
    // row; else the chunk, and an add for the rest of the row
    constexpr std::size_t regs = (Off == 0 && Stride <= 14) ? Stride : L;
    constexpr std::size_t skip = (Stride - regs) * sizeof(float);
    static_assert(skip < 4096, "sarnn: weighted_chunk: rows of at most 1023 values");
    const float* pr = base[0] + Off;
    const float* pb = base[1] + Off;
    std::size_t cnt = n[0], cnt_b = n[1];
    const float* pa = w;
    float* pw = w;
    unsigned k;
    __asm__ volatile(
        // c = 0
        SARNN_CM_ZERO2_(0, 1) SARNN_CM_ZERO2_(2, 3) SARNN_CM_ZERO2_(4, 5) SARNN_CM_ZERO2_(6, 7)
            SARNN_CM_ZERO2_(8, 9) SARNN_CM_ZERO2_(10, 11)
        // a run: its states four at a time, then one at a time
        "5:\n\t"
        "lsrs %[k], %[cnt], #2\n\t"
        "beq 2f\n\t"
        "1:\n\t"
        "vldmia %[pa]!, {s12-s15}\n\t"
        SARNN_CM_LOAD_ROW_ SARNN_CM_FMA_ROW_("s12")
        SARNN_CM_LOAD_ROW_ SARNN_CM_FMA_ROW_("s13")
        SARNN_CM_LOAD_ROW_ SARNN_CM_FMA_ROW_("s14")
        SARNN_CM_LOAD_ROW_ SARNN_CM_FMA_ROW_("s15")
        ".if %c[last]\n\t"
        "vmul.f32 s12, s12, %[inv]\n\t"
        "vmul.f32 s13, s13, %[inv]\n\t"
        "vmul.f32 s14, s14, %[inv]\n\t"
        "vmul.f32 s15, s15, %[inv]\n\t"
        "vstmia %[pw]!, {s12-s15}\n\t"
        ".endif\n\t"
        "subs %[k], %[k], #1\n\t"
        "bne 1b\n\t"
        "2:\n\t"
        "ands %[k], %[cnt], #3\n\t"
        "beq 3f\n\t"
        "4:\n\t"
        "vldmia %[pa]!, {s12}\n\t"
        SARNN_CM_LOAD_ROW_ SARNN_CM_FMA_ROW_("s12")
        ".if %c[last]\n\t"
        "vmul.f32 s12, s12, %[inv]\n\t"
        "vstmia %[pw]!, {s12}\n\t"
        ".endif\n\t"
        "subs %[k], %[k], #1\n\t"
        "bne 4b\n\t"
        // the next run (none after the second: its count is 0 then)
        "3:\n\t"
        "mov %[pr], %[pb]\n\t"
        "mov %[k], %[cnt_b]\n\t"
        "mov %[cnt_b], #0\n\t"
        "movs %[cnt], %[k]\n\t"
        "bne 5b\n\t"
        // c = inv·c, stored
        SARNN_CM_SCALE1_(0) SARNN_CM_SCALE1_(1) SARNN_CM_SCALE1_(2) SARNN_CM_SCALE1_(3) SARNN_CM_SCALE1_(4)
            SARNN_CM_SCALE1_(5) SARNN_CM_SCALE1_(6) SARNN_CM_SCALE1_(7) SARNN_CM_SCALE1_(8) SARNN_CM_SCALE1_(9)
                SARNN_CM_SCALE1_(10) SARNN_CM_SCALE1_(11)
        ".if %c[len] == 1\n\t"
        "vstmia %[c], {s0}\n\t"
        ".else\n\t"
        "vstmia %[c], {s0-s%c[last_c]}\n\t"
        ".endif\n\t"
        : [pr] "+r"(pr), [pb] "+r"(pb), [cnt] "+r"(cnt), [cnt_b] "+r"(cnt_b), [pa] "+r"(pa), [pw] "+r"(pw),
          [k] "=&r"(k)
        : [c] "r"(c + Off), [inv] "t"(inv), [z] "r"(0u), [len] "i"(L), [regs] "i"(regs),
          [last_reg] "i"(16 + regs - 1), [last_c] "i"(L - 1), [skip] "i"(skip), [last] "i"(Last ? 1 : 0)
        : "s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "s12", "s13", "s14", "s15", "s16",
          "s17", "s18", "s19", "s20", "s21", "s22", "s23", "s24", "s25", "s26", "s27", "s28", "s29", "cc", "memory");
#else
    // c_k = Σ_j p_j S_jk in logical order, then inv·c_k
    float acc[L] = {};
    const float* p = w;
    for (std::size_t r = 0; r < 2; ++r) {
        const float* row = base[r] + Off;
        for (std::size_t j = 0; j < n[r]; ++j, row += Stride, ++p)
            for (std::size_t k = 0; k < L; ++k) acc[k] = madd(row[k], *p, acc[k]);
    }
    for (std::size_t k = 0; k < L; ++k) c[Off + k] = acc[k] * inv;
    if constexpr (Last)
        for (std::size_t j = 0; j < n[0] + n[1]; ++j) w[j] *= inv;
#endif
}

/// weighted_chunk over the chunks Off = 0, kChunk, 2·kChunk, ... of Dim.
template <std::size_t Dim, std::size_t Stride, std::size_t Off = 0>
SARNN_CM_INLINE void weighted_chunks(const float* const base[2], const std::size_t n[2], float* w, float inv,
                                     float* c) noexcept {
    constexpr std::size_t L = Dim - Off < kChunk ? Dim - Off : kChunk;
    weighted_chunk<Off, L, Stride, Off + L == Dim>(base, n, w, inv, c);
    if constexpr (Off + L < Dim) weighted_chunks<Dim, Stride, Off + L>(base, n, w, inv, c);
}

/// c[0..Dim) = inv·Σ_j p_j S_j over the rows of runs (p = w[0..n), logical order), then w_j = inv·p_j.
template <std::size_t Dim, std::size_t Stride, std::size_t Cap>
SARNN_CM_INLINE void weighted_sum_scaled(float* w, const RingRuns<Stride, Cap>& runs, float inv, float* c) noexcept {
    weighted_chunks<Dim, Stride>(runs.base, runs.n, w, inv, c);
}

}  // namespace sarnn::kernel::cortex_m

#if SARNN_CM_SHAPED_VLDM
#undef SARNN_CM_FMA1_
#undef SARNN_CM_FMA_ROW_
#undef SARNN_CM_SCALE1_
#undef SARNN_CM_ZERO2_
#endif

#endif
