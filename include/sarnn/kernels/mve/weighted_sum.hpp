// sarnn/kernels/mve/weighted_sum.hpp: c = Σ_j w_j S_j over the n stored states of a ring of Cap rows (Stride floats
// apart, Dim values each), with Dim and Stride known at compile time, on Helium (MVE float). c is taken 16 columns
// (four vectors) at a time, held in q0-q3 through all the states (no load or store of c inside the loops): the states
// in their two runs (the ring from `first` to its end, then from its start), eight a pass (their weights by one LDM
// into r4-r11, each row's vectors at offsets from one pointer that its last load's writeback moves to the next row),
// then the run's last 1 to 7 states one a pass; the second run's start and the chunk's end are read from memory
// (WeightedChunkTail: the weights take the registers). The last chunk (Dim % 16 columns, one to four vectors) stores
// its last vector under a tail predicate (VCTP): nothing written at or past Dim. The chunks are inlined into one
// function. Cost per state and 16 columns: 8 instructions and a quarter (the run-time set's: 9, in pairs of states).
// Assembly: the form of the mve set's weighted_chunk_asm (kernels/mve/set_loops.hpp, measured there against
// intrinsics) with eight weights a load.
#ifndef SARNN_KERNELS_MVE_WEIGHTED_SUM_HPP
#define SARNN_KERNELS_MVE_WEIGHTED_SUM_HPP

#include <cstddef>
#include <cstdint>
#include <type_traits>

// The loops name core registers themselves (r4-r11 among them): an unoptimised build (-O0) keeps r7 for its frame,
// so these functions are built without a frame pointer there (else GCC: "r7 cannot be used in 'asm' here").
#if defined(__GNUC__) && !defined(__clang__) && !defined(__OPTIMIZE__)
#pragma GCC push_options
#pragma GCC optimize("omit-frame-pointer")
#endif

namespace sarnn::kernel::mve_shaped {

// One state of a chunk of NV vectors: its row's vectors at offsets from p (which runs .Lsarnn_bias bytes behind the
// row), each loaded into q4, times W, onto q0..q(NV-1); the last load moves p one row on.
#define SARNN_MVE_WSTATE_(W)                      \
    ".if %c[nv] > 1\n\t"                          \
    "vldrw.32 q4, [%[p], #.Lsarnn_bias]\n\t"      \
    "vfma.f32 q0, q4, " W                         \
    "\n\t"                                        \
    ".endif\n\t"                                  \
    ".if %c[nv] > 2\n\t"                          \
    "vldrw.32 q4, [%[p], #.Lsarnn_bias + 16]\n\t" \
    "vfma.f32 q1, q4, " W                         \
    "\n\t"                                        \
    ".endif\n\t"                                  \
    ".if %c[nv] > 3\n\t"                          \
    "vldrw.32 q4, [%[p], #.Lsarnn_bias + 32]\n\t" \
    "vfma.f32 q2, q4, " W                         \
    "\n\t"                                        \
    ".endif\n\t"                                  \
    "vldrw.32 q4, [%[p], #%c[rb]]!\n\t"           \
    ".if %c[nv] == 1\n\t"                         \
    "vfma.f32 q0, q4, " W                         \
    "\n\t"                                        \
    ".elseif %c[nv] == 2\n\t"                     \
    "vfma.f32 q1, q4, " W                         \
    "\n\t"                                        \
    ".elseif %c[nv] == 3\n\t"                     \
    "vfma.f32 q2, q4, " W                         \
    "\n\t"                                        \
    ".else\n\t"                                   \
    "vfma.f32 q3, q4, " W                         \
    "\n\t"                                        \
    ".endif\n\t"

// The states of one run: n of them (N, a register) from the row p runs behind, eight a pass (their weights
// by one LDM into r4-r11; %c[norm]: first multiplied by the vector q7 in place, 1/Σ of the softmax), then one a pass
// (L: a label suffix).
#define SARNN_MVE_WRUN_(N, L)                                                                            \
    "lsrs lr, " N                                                                                        \
    ", #3\n\t"                                                                                           \
    "wls lr, lr, 2" L                                                                                    \
    "f\n"                                                                                                \
    "1" L                                                                                                \
    ":\n\t"                                                                                              \
    ".if %c[norm]\n\t"                                                                                   \
    "vldrw.32 q5, [%[w]]\n\t"                                                                            \
    "vldrw.32 q6, [%[w], #16]\n\t"                                                                       \
    "vmul.f32 q5, q5, q7\n\t"                                                                            \
    "vmul.f32 q6, q6, q7\n\t"                                                                            \
    "vstrw.32 q5, [%[w]]\n\t"                                                                            \
    "vstrw.32 q6, [%[w], #16]\n\t"                                                                       \
    ".endif\n\t"                                                                                         \
    "ldm %[w]!, {r4-r11}\n\t" SARNN_MVE_WSTATE_("r4") SARNN_MVE_WSTATE_("r5") SARNN_MVE_WSTATE_("r6")    \
        SARNN_MVE_WSTATE_("r7") SARNN_MVE_WSTATE_("r8") SARNN_MVE_WSTATE_("r9") SARNN_MVE_WSTATE_("r10") \
            SARNN_MVE_WSTATE_("r11") "le lr, 1" L                                                        \
                                     "b\n"                                                               \
                                     "2" L                                                               \
                                     ":\n\t"                                                             \
                                     "and lr, " N                                                        \
                                     ", #7\n\t"                                                          \
                                     "wls lr, lr, 4" L                                                   \
                                     "f\n"                                                               \
                                     "3" L                                                               \
                                     ":\n\t"                                                             \
                                     ".if %c[norm]\n\t"                                                  \
                                     "vldr s20, [%[w]]\n\t"                                              \
                                     "vmul.f32 s20, s20, s28\n\t"                                        \
                                     "vstr s20, [%[w]]\n\t"                                              \
                                     ".endif\n\t"                                                        \
                                     "ldr r4, [%[w]], #4\n\t" SARNN_MVE_WSTATE_("r4") "le lr, 3" L       \
                                                                                      "b\n"              \
                                                                                      "4" L ":\n\t"

/// The second run and the end of a chunk, read by weighted_chunk from memory (its registers hold eight weights).
struct WeightedChunkTail {
    const float* row1;   ///< the second run's first row, at the chunk's column
    std::size_t n1;      ///< its states
    float* c;            ///< the chunk's first value of c
    std::uint32_t last;  ///< the predicate of the chunk's last vector (its lanes below Dim)
    float scale;         ///< (Norm) what the weights are multiplied by in place first
};

/// c[k..k + 4·NV) = Σ_j w_j R_j[k..k + 4·NV) over the n0 rows from row0 and then t.n1 rows from t.row1 (each run's
/// rows Stride floats apart; row0, t.row1 already at column k), w their n0 + n1 weights (Norm: w_j = t.scale·w_j in
/// place first); the last vector of c stored under the predicate t.last.
template <int NV, std::size_t Stride, bool Norm>
__attribute__((always_inline)) inline void weighted_chunk(const float* row0, std::size_t n0, const float* w,
                                                          const WeightedChunkTail& t) noexcept {
    static_assert(NV >= 1 && NV <= 4 && Stride * sizeof(float) <= 508, "sarnn: mve weighted_chunk: rows of <= 127");
    constexpr int kRowBytes = static_cast<int>(Stride * sizeof(float));
    const float* p;
    __asm__ volatile(
        // p runs .Lsarnn_bias = B - 16·(NV - 1) bytes behind the row (B a row's bytes): the last load [p, #B]! then
        // leaves p as far behind the next row
        ".set .Lsarnn_last, 16 * (%c[nv] - 1)\n\t"
        ".set .Lsarnn_bias, %c[rb] - .Lsarnn_last\n\t"
        ".if %c[norm]\n\t"
        "ldr r4, [%[t], #16]\n\t"
        "vdup.32 q7, r4\n\t"
        ".endif\n\t"
        "vmov.i32 q0, #0\n\t"
        ".if %c[nv] > 1\n\t"
        "vmov.i32 q1, #0\n\t"
        ".endif\n\t"
        ".if %c[nv] > 2\n\t"
        "vmov.i32 q2, #0\n\t"
        ".endif\n\t"
        ".if %c[nv] > 3\n\t"
        "vmov.i32 q3, #0\n\t"
        ".endif\n\t"
        "sub %[p], %[r0], #%c[rb] - .Lsarnn_last\n"
        "5:\n\t" SARNN_MVE_WRUN_("%[n0]", "")
        // then the second run, its row and count from t, when it has states (r0 zero once it is taken)
        "cmp %[r0], #0\n\t"
        "beq 6f\n\t"
        "ldr %[n0], [%[t], #4]\n\t"
        "cmp %[n0], #0\n\t"
        "beq 6f\n\t"
        "mov %[r0], #0\n\t"
        "ldr %[p], [%[t]]\n\t"
        "sub %[p], %[p], #%c[rb] - .Lsarnn_last\n\t"
        "b 5b\n"
        "6:\n\t"
        // the whole vectors, then the last under its predicate (c and the predicate from t)
        "ldr %[p], [%[t], #8]\n\t"
        "ldr %[n0], [%[t], #12]\n\t"
        ".if %c[nv] > 1\n\t"
        "vstrw.32 q0, [%[p]]\n\t"
        ".endif\n\t"
        ".if %c[nv] > 2\n\t"
        "vstrw.32 q1, [%[p], #16]\n\t"
        ".endif\n\t"
        ".if %c[nv] > 3\n\t"
        "vstrw.32 q2, [%[p], #32]\n\t"
        ".endif\n\t"
        "vmsr p0, %[n0]\n\t"
        "vpst\n\t"
        ".if %c[nv] == 1\n\t"
        "vstrwt.32 q0, [%[p]]\n\t"
        ".elseif %c[nv] == 2\n\t"
        "vstrwt.32 q1, [%[p], #16]\n\t"
        ".elseif %c[nv] == 3\n\t"
        "vstrwt.32 q2, [%[p], #32]\n\t"
        ".else\n\t"
        "vstrwt.32 q3, [%[p], #48]\n\t"
        ".endif\n\t"
        : [p] "=&r"(p), [w] "+r"(w), [n0] "+r"(n0), [r0] "+r"(row0)
        : [t] "r"(&t), [nv] "i"(NV), [rb] "i"(kRowBytes), [norm] "i"(Norm ? 1 : 0)
        : "r4", "r5", "r6", "r7", "r8", "r9", "r10", "r11", "lr", "d0", "d1", "d2", "d3", "d4", "d5", "d6", "d7", "d8",
          "d9", "d10", "d11", "d12", "d13", "d14", "d15", "cc", "memory");
}
#undef SARNN_MVE_WRUN_
#undef SARNN_MVE_WSTATE_

/// The chunk of 16 columns from column 16·k on (Cols of them, 1 to 16), over both runs.
template <std::size_t Cols, std::size_t Stride, bool Norm>
__attribute__((always_inline)) inline void weighted_chunk_at(std::size_t k, const float* row0, std::size_t n0,
                                                             const float* row1, std::size_t n1, const float* w,
                                                             float* c, float scale) noexcept {
    // the chunk's last vector: its lanes below Dim
    constexpr std::uint32_t kLeft = static_cast<std::uint32_t>(Cols - (Cols - 1) / 4 * 4);
    const WeightedChunkTail t{row1 + 16 * k, n1, c + 16 * k, (1u << (4 * kLeft)) - 1u, scale};
    weighted_chunk<static_cast<int>((Cols + 3) / 4), Stride, Norm>(row0 + 16 * k, n0, w, t);
}

/// The chunks: the first (which scales the weights when Norm), the whole ones between in a loop (one copy of their
/// code), the last (1 to 16 columns).
template <std::size_t Dim, std::size_t Stride, bool Norm>
__attribute__((always_inline)) inline void weighted_chunks(const float* row0, std::size_t n0, const float* row1,
                                                           std::size_t n1, const float* w, float* c,
                                                           float scale) noexcept {
    constexpr std::size_t kChunks = (Dim + 15) / 16;
    constexpr std::size_t kLastCols = Dim - 16 * (kChunks - 1);
    if constexpr (kChunks == 1) {
        weighted_chunk_at<kLastCols, Stride, Norm>(0, row0, n0, row1, n1, w, c, scale);
    } else {
        weighted_chunk_at<16, Stride, Norm>(0, row0, n0, row1, n1, w, c, scale);
#pragma GCC unroll 1
        for (std::size_t k = 1; k + 1 < kChunks; ++k)
            weighted_chunk_at<16, Stride, false>(k, row0, n0, row1, n1, w, c, scale);
        weighted_chunk_at<kLastCols, Stride, false>(kChunks - 1, row0, n0, row1, n1, w, c, scale);
    }
}

/// c[0..Dim) = Σ_j w_j R_j, R_j = base + ((first + j) mod Cap)·Stride floats the j-th stored state, j < n (n in
/// 1..Cap, first < Cap); w n values (any 4-byte alignment; Norm: w_j = scale·w_j in place first, the softmax's
/// normalisation). c: nothing written at or past Dim.
template <std::size_t Dim, std::size_t Stride, std::size_t Cap, bool Norm = false>
__attribute__((noinline)) void weighted_sum(const float* base, std::size_t first, std::size_t n,
                                            std::conditional_t<Norm, float*, const float*> w, float* c,
                                            float scale = 1.0f) noexcept {
    static_assert(Dim >= 1 && Stride >= Dim && Stride % 4 == 0 && Stride <= 127, "sarnn: mve weighted_sum: Stride");
    // the two runs: physical rows first..first + n0 - 1, then 0..n1 - 1
    const std::size_t n0 = Cap - first < n ? Cap - first : n;
    weighted_chunks<Dim, Stride, Norm>(base + first * Stride, n0, base, n - n0, w, c, scale);
}

}  // namespace sarnn::kernel::mve_shaped

#if defined(__GNUC__) && !defined(__clang__) && !defined(__OPTIMIZE__)
#pragma GCC pop_options
#endif

#endif
