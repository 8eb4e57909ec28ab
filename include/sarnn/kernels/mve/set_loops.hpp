// sarnn/kernels/mve/set_loops.hpp: the inner loops of the mve set (mve/set.hpp) in Helium assembly: tail-predicated
// low-overhead loops (WLSTP/LETP: the last pass loads, multiplies and stores only the lanes below n, so no scalar
// remainder and no access past the end), post-incremented vector loads, and the four sums of dot4 reduced by a
// 4 x 4 transpose (VST, then VLD40..VLD43). GCC 12 keeps spare address arithmetic and spills in the same loops
// written with intrinsics (17 instructions per 16 multiply-adds instead of 10).
//
// Both take float pointers aligned to 4 bytes (VLDRW/VSTRW need no more) and use q0-q7 and lr themselves.
#ifndef SARNN_KERNELS_MVE_SET_LOOPS_HPP
#define SARNN_KERNELS_MVE_SET_LOOPS_HPP

#include <arm_mve.h>

#include <cstddef>
#include <cstdint>

#include "sarnn/kernels/mve/exp.hpp"

// The loops keep constants in r4-r11: an unoptimised build (-O0) keeps r7 for its frame, so these functions are
// built without a frame pointer there (else GCC: "r7 cannot be used in 'asm' here"); optimised builds have none.
#if defined(__GNUC__) && !defined(__clang__) && !defined(__OPTIMIZE__)
#pragma GCC push_options
#pragma GCC optimize("omit-frame-pointer")
#endif

namespace sarnn::kernel {
namespace {  // NOLINT(cert-dcl59-cpp): one copy, in the mve set's file
namespace mve {

// The four sums' vectors q0..q3 stored to t (64 bytes) and read back transposed (VLD40..43: MVE float has no add
// across a vector), then q0 + q1 and q2 + q3: lane j of (q0 + q2) is then the sum of the lanes of the old q_j.
#define SARNN_MVE_TRANSPOSE_ADD                          \
    "vstrw.32 q0, [%[t]]\n\t"                           \
    "vstrw.32 q1, [%[t], #16]\n\t"                      \
    "vstrw.32 q2, [%[t], #32]\n\t"                      \
    "vstrw.32 q3, [%[t], #48]\n\t"                      \
    "vld40.32 {q0, q1, q2, q3}, [%[t]]\n\t"             \
    "vld41.32 {q0, q1, q2, q3}, [%[t]]\n\t"             \
    "vld42.32 {q0, q1, q2, q3}, [%[t]]\n\t"             \
    "vld43.32 {q0, q1, q2, q3}, [%[t]]\n\t"             \
    "vadd.f32 q0, q0, q1\n\t"                           \
    "vadd.f32 q2, q2, q3\n\t"

/// t[i] = M_i·v over n values for the four rows M0..M3 (t: 16 floats, 16-byte aligned, the scratch of the
/// transpose; the four results in t[0..4)). Rows and v: any 4-byte alignment.
inline void dot4_asm(const float* M0, const float* M1, const float* M2, const float* M3, const float* v, std::size_t n,
                     float* t) {
    __asm__ volatile(
        "vmov.i32 q0, #0\n\t"
        "vmov.i32 q1, #0\n\t"
        "vmov.i32 q2, #0\n\t"
        "vmov.i32 q3, #0\n\t"
        // q_i += M_i[k..k+3]·v[k..k+3], four lanes a pass (fewer in the last)
        "wlstp.32 lr, %[n], 2f\n"
        "1:\n\t"
        "vldrw.32 q4, [%[v]], #16\n\t"
        "vldrw.32 q5, [%[m0]], #16\n\t"
        "vfma.f32 q0, q5, q4\n\t"
        "vldrw.32 q6, [%[m1]], #16\n\t"
        "vfma.f32 q1, q6, q4\n\t"
        "vldrw.32 q7, [%[m2]], #16\n\t"
        "vfma.f32 q2, q7, q4\n\t"
        "vldrw.32 q5, [%[m3]], #16\n\t"
        "vfma.f32 q3, q5, q4\n\t"
        "letp lr, 1b\n"
        "2:\n\t"
        // lane j of the vector out is the sum of the lanes of q_j: transpose and add
        SARNN_MVE_TRANSPOSE_ADD
        "vadd.f32 q0, q0, q2\n\t"
        "vstrw.32 q0, [%[t]]\n\t"
        : [m0] "+r"(M0), [m1] "+r"(M1), [m2] "+r"(M2), [m3] "+r"(M3), [v] "+r"(v)
        : [n] "r"(n), [t] "r"(t)
        : "d0", "d1", "d2", "d3", "d4", "d5", "d6", "d7", "d8", "d9", "d10", "d11", "d12", "d13", "d14", "d15", "lr",
          "memory");
}

/// c[d] += p0·S0[d] + p1·S1[d] + p2·S2[d] + p3·S3[d] for d < n (in that order, each a fused multiply-add); c is
/// written only below n.
inline void add_rows4_asm(const float* S0, const float* S1, const float* S2, const float* S3, float p0, float p1,
                          float p2, float p3, std::size_t n, float* c) {
    __asm__ volatile(
        "wlstp.32 lr, %[n], 2f\n"
        "1:\n\t"
        "vldrw.32 q0, [%[c]]\n\t"
        "vldrw.32 q1, [%[s0]], #16\n\t"
        "vfma.f32 q0, q1, %[p0]\n\t"
        "vldrw.32 q2, [%[s1]], #16\n\t"
        "vfma.f32 q0, q2, %[p1]\n\t"
        "vldrw.32 q3, [%[s2]], #16\n\t"
        "vfma.f32 q0, q3, %[p2]\n\t"
        "vldrw.32 q1, [%[s3]], #16\n\t"
        "vfma.f32 q0, q1, %[p3]\n\t"
        "vstrw.32 q0, [%[c]], #16\n\t"
        "letp lr, 1b\n"
        "2:\n\t"
        : [s0] "+r"(S0), [s1] "+r"(S1), [s2] "+r"(S2), [s3] "+r"(S3), [c] "+r"(c)
        : [p0] "r"(p0), [p1] "r"(p1), [p2] "r"(p2), [p3] "r"(p3), [n] "r"(n)
        : "d0", "d1", "d2", "d3", "d4", "d5", "d6", "d7", "lr", "memory");
}

/// Scores of `groups` x 4 consecutive padded rows: e[i] = scale·(R_i·q) for rows R_i = row + i·stride (stride =
/// padded(dim) floats: each row's loop moves its pointer exactly one row on), q a padded row, dim >= 1. t: 20 floats,
/// 16-byte aligned (the transpose; t[16..20) the scale, e's end and dim, set here). e receives 4·groups floats.
inline void scores_asm(const float* row, std::size_t stride, std::size_t groups, const float* q, std::size_t dim,
                       float scale, float* t, float* e) {
    float* const e_end = e + 4 * groups;
    __builtin_memcpy(t + 16, &scale, sizeof scale);
    __builtin_memcpy(t + 17, &e_end, sizeof e_end);
    const std::size_t rest = dim > 4 ? dim - 4 : 0;  // after the first vector
    __builtin_memcpy(t + 18, &rest, sizeof rest);
    const std::size_t st = stride * sizeof(float);
    const float *m1, *m2, *m3, *v;
    __asm__ volatile(
        "3:\n\t"
        "add %[m1], %[m0], %[st]\n\t"
        "add %[m2], %[m1], %[st]\n\t"
        "add %[m3], %[m2], %[st]\n\t"
        "mov %[v], %[q]\n\t"
        // the first four lanes (a padded row has them) by multiplies, the rest in the loop
        "vldrw.32 q4, [%[v]], #16\n\t"
        "vldrw.32 q5, [%[m0]], #16\n\t"
        "vmul.f32 q0, q5, q4\n\t"
        "vldrw.32 q6, [%[m1]], #16\n\t"
        "vmul.f32 q1, q6, q4\n\t"
        "vldrw.32 q7, [%[m2]], #16\n\t"
        "vmul.f32 q2, q7, q4\n\t"
        "vldrw.32 q5, [%[m3]], #16\n\t"
        "vmul.f32 q3, q5, q4\n\t"
        "ldr lr, [%[t], #72]\n\t"
        "wlstp.32 lr, lr, 2f\n"
        "1:\n\t"
        "vldrw.32 q4, [%[v]], #16\n\t"
        "vldrw.32 q5, [%[m0]], #16\n\t"
        "vfma.f32 q0, q5, q4\n\t"
        "vldrw.32 q6, [%[m1]], #16\n\t"
        "vfma.f32 q1, q6, q4\n\t"
        "vldrw.32 q7, [%[m2]], #16\n\t"
        "vfma.f32 q2, q7, q4\n\t"
        "vldrw.32 q5, [%[m3]], #16\n\t"
        "vfma.f32 q3, q5, q4\n\t"
        "letp lr, 1b\n"
        "2:\n\t"
        SARNN_MVE_TRANSPOSE_ADD
        "vadd.f32 q0, q0, q2\n\t"
        "ldr lr, [%[t], #64]\n\t"
        "vmul.f32 q0, q0, lr\n\t"
        "vstrw.32 q0, [%[e]], #16\n\t"
        // the next group's first row: where the fourth row's pointer stopped
        "mov %[m0], %[m3]\n\t"
        "ldr lr, [%[t], #68]\n\t"
        "cmp %[e], lr\n\t"
        "bne 3b\n\t"
        : [m0] "+r"(row), [e] "+r"(e), [m1] "=&r"(m1), [m2] "=&r"(m2), [m3] "=&r"(m3), [v] "=&r"(v)
        : [st] "r"(st), [q] "r"(q), [t] "r"(t)
        : "d0", "d1", "d2", "d3", "d4", "d5", "d6", "d7", "d8", "d9", "d10", "d11", "d12", "d13", "d14", "d15", "lr",
          "cc", "memory");
}

/// c[d] += Σ_{i < 4·groups} w_i·R_i[d] for d < dim, rows R_i = row + i·stride (stride = padded(dim) floats), four rows
/// per pass over c (each a fused multiply-add, in the order of i); c written below dim only. dim, groups >= 1.
inline void weighted_asm(const float* row, std::size_t stride, std::size_t groups, const float* w, std::size_t dim,
                         float* c) {
    alignas(8) std::size_t args[2] = {groups, dim};
    const std::size_t st = stride * sizeof(float);
    const std::size_t* a = args;
    const float *s1, *s2, *s3;
    std::uint32_t p0, p1, p2;
    __asm__ volatile(
        "ldrd %[p0], %[p1], [%[a]]\n\t"
        "sub sp, sp, #8\n\t"
        "strd %[p0], %[p1], [sp]\n"  // [sp]: groups left, [sp, #4]: dim
        "3:\n\t"
        "add %[s1], %[s0], %[st]\n\t"
        "add %[s2], %[s1], %[st]\n\t"
        "add %[s3], %[s2], %[st]\n\t"
        "ldrd %[p0], %[p1], [%[w]], #8\n\t"
        "ldrd %[p2], %[a], [%[w]], #8\n\t"
        "ldr lr, [sp, #4]\n\t"
        "wlstp.32 lr, lr, 2f\n"
        "1:\n\t"
        "vldrw.32 q0, [%[c]]\n\t"
        "vldrw.32 q1, [%[s0]], #16\n\t"
        "vfma.f32 q0, q1, %[p0]\n\t"
        "vldrw.32 q2, [%[s1]], #16\n\t"
        "vfma.f32 q0, q2, %[p1]\n\t"
        "vldrw.32 q3, [%[s2]], #16\n\t"
        "vfma.f32 q0, q3, %[p2]\n\t"
        "vldrw.32 q1, [%[s3]], #16\n\t"
        "vfma.f32 q0, q1, %[a]\n\t"
        "vstrw.32 q0, [%[c]], #16\n\t"
        "letp lr, 1b\n"
        "2:\n\t"
        // c back to its start (it moved one padded row on), the next group's first row where the fourth stopped
        "sub %[c], %[c], %[st]\n\t"
        "mov %[s0], %[s3]\n\t"
        "ldr lr, [sp]\n\t"
        "subs lr, lr, #1\n\t"
        "str lr, [sp]\n\t"
        "bne 3b\n\t"
        "add sp, sp, #8\n\t"
        : [s0] "+r"(row), [w] "+r"(w), [c] "+r"(c), [a] "+r"(a), [s1] "=&r"(s1), [s2] "=&r"(s2), [s3] "=&r"(s3),
          [p0] "=&r"(p0), [p1] "=&r"(p1), [p2] "=&r"(p2)
        : [st] "r"(st)
        : "d0", "d1", "d2", "d3", "d4", "d5", "d6", "d7", "lr", "cc", "memory");
}

/// Scores of `groups` x 4 consecutive rows of ST floats with no padding (ST = dim, a multiple of 4, 16 to 64):
/// e[i] = scale·(R_i·q), R_i = row + i·ST, q a padded row of ST floats. As scores_asm, with the loop over q
/// unrolled (.rept) and every load at an offset from two pointers (rows 0-1 and 2-3 of the group): no loop
/// counter, no pointer per row. t: 16 floats, 16-byte aligned (the transpose). e receives 4·groups floats. Not
/// inlined: GCC sizes an asm by its lines, not by what .rept makes of them, and a caller holding it can place its
/// literal pool out of the loads' reach.
template <std::size_t ST>
__attribute__((noinline)) void scores_rows_asm(const float* row, std::size_t groups, const float* q, float scale,
                                               float* t, float* e) {
    static_assert(ST % 4 == 0 && ST >= 16 && ST <= 64, "rows of 16 to 64 floats: offsets within the immediates");
    constexpr int kB = static_cast<int>(ST * sizeof(float));  // a row's bytes
    const float* const e_end = e + 4 * groups;
    const float* p2;
    __asm__ volatile(
        "3:\n\t"
        "add %[p2], %[p], #%c[b2]\n\t"
        // the first vector by multiplies, the others (at offset .Lsarnn_o) by fused multiply-adds
        "vldrw.32 q4, [%[q]]\n\t"
        "vldrw.32 q5, [%[p]]\n\t"
        "vmul.f32 q0, q5, q4\n\t"
        "vldrw.32 q6, [%[p], #%c[b]]\n\t"
        "vmul.f32 q1, q6, q4\n\t"
        "vldrw.32 q7, [%[p2]]\n\t"
        "vmul.f32 q2, q7, q4\n\t"
        "vldrw.32 q5, [%[p2], #%c[b]]\n\t"
        "vmul.f32 q3, q5, q4\n\t"
        ".set .Lsarnn_o, 16\n\t"
        ".rept %c[nv] - 1\n\t"
        "vldrw.32 q4, [%[q], #.Lsarnn_o]\n\t"
        "vldrw.32 q5, [%[p], #.Lsarnn_o]\n\t"
        "vfma.f32 q0, q5, q4\n\t"
        "vldrw.32 q6, [%[p], #%c[b] + .Lsarnn_o]\n\t"
        "vfma.f32 q1, q6, q4\n\t"
        "vldrw.32 q7, [%[p2], #.Lsarnn_o]\n\t"
        "vfma.f32 q2, q7, q4\n\t"
        "vldrw.32 q5, [%[p2], #%c[b] + .Lsarnn_o]\n\t"
        "vfma.f32 q3, q5, q4\n\t"
        ".set .Lsarnn_o, .Lsarnn_o + 16\n\t"
        ".endr\n\t"
        // lane j of the vector out is the sum of the lanes of q_j: transpose and add
        SARNN_MVE_TRANSPOSE_ADD
        "vadd.f32 q0, q0, q2\n\t"
        "vmul.f32 q0, q0, %[scale]\n\t"
        "vstrw.32 q0, [%[e]], #16\n\t"
        "add %[p], %[p], #%c[b4]\n\t"
        "cmp %[e], %[e_end]\n\t"
        "bne 3b\n\t"
        : [p] "+r"(row), [e] "+r"(e), [p2] "=&r"(p2)
        : [q] "r"(q), [t] "r"(t), [e_end] "r"(e_end), [scale] "r"(scale), [b] "i"(kB), [b2] "i"(2 * kB),
          [b4] "i"(4 * kB), [nv] "i"(ST / 4)
        : "d0", "d1", "d2", "d3", "d4", "d5", "d6", "d7", "d8", "d9", "d10", "d11", "d12", "d13", "d14", "d15", "cc",
          "memory");
}

// One row of weighted_chunk_asm: the pointer p runs B - 48 bytes behind the row (B a row's bytes), so that the
// row's four vectors are at [p, #B-48] .. [p, #B] and the last load's writeback leaves p as far behind the next row.
#define SARNN_MVE_WROW_(W)                         \
    "vldrw.32 q4, [%[p], #%c[o0]]\n\t"             \
    "vfma.f32 q0, q4, " W "\n\t"                   \
    "vldrw.32 q5, [%[p], #%c[o1]]\n\t"             \
    "vfma.f32 q1, q5, " W "\n\t"                   \
    "vldrw.32 q6, [%[p], #%c[o2]]\n\t"             \
    "vfma.f32 q2, q6, " W "\n\t"                   \
    "vldrw.32 q7, [%[p], #%c[o3]]!\n\t"            \
    "vfma.f32 q3, q7, " W "\n\t"

/// c[0..16) (= or +=, add) Σ_{i < n} w_i·R_i[0..16) for the 16 columns of one chunk, rows R_i = row + i·ST floats
/// (ST a multiple of 4, 16 to 64: every offset within the load's immediate), the chunk kept in q0-q3 through the
/// rows: two rows per pass (8 loads, 8 fused multiply-adds by w_i from a core register, in the order of i in every
/// lane; the step to the next row folded into each row's last load), no load or store of c inside the loop.
/// n >= 0.
template <std::size_t ST>
inline void weighted_chunk_asm(const float* row, std::size_t n, const float* w, float* c, bool add) {
    static_assert(ST % 4 == 0 && ST >= 16 && ST <= 64, "rows of 16 to 64 floats: offsets within the immediates");
    constexpr int kB = static_cast<int>(ST * sizeof(float));  // a row's bytes
    const std::size_t pairs = n / 2, odd = n % 2;
    const float* p = row;  // moved B - 48 bytes back first
    std::uint32_t wa, wb;
    __asm__ volatile(
        "sub %[p], %[p], #%c[o0]\n\t"
        "cmp %[add], #0\n\t"
        "beq 5f\n\t"
        "vldrw.32 q0, [%[c]]\n\t"
        "vldrw.32 q1, [%[c], #16]\n\t"
        "vldrw.32 q2, [%[c], #32]\n\t"
        "vldrw.32 q3, [%[c], #48]\n\t"
        "b 6f\n"
        "5:\n\t"
        "vmov.i32 q0, #0\n\t"
        "vmov.i32 q1, #0\n\t"
        "vmov.i32 q2, #0\n\t"
        "vmov.i32 q3, #0\n"
        "6:\n\t"
        "wls lr, %[pairs], 2f\n"
        "1:\n\t"
        "ldrd %[wa], %[wb], [%[w]], #8\n\t" SARNN_MVE_WROW_("%[wa]") SARNN_MVE_WROW_("%[wb]")
        "le lr, 1b\n"
        "2:\n\t"
        "cmp %[odd], #0\n\t"  // the odd last row
        "beq 3f\n\t"
        "ldr %[wa], [%[w]]\n\t" SARNN_MVE_WROW_("%[wa]")
        "3:\n\t"
        "vstrw.32 q0, [%[c]]\n\t"
        "vstrw.32 q1, [%[c], #16]\n\t"
        "vstrw.32 q2, [%[c], #32]\n\t"
        "vstrw.32 q3, [%[c], #48]\n\t"
        : [p] "+r"(p), [w] "+r"(w), [wa] "=&r"(wa), [wb] "=&r"(wb)
        : [c] "r"(c), [pairs] "r"(pairs), [odd] "r"(odd), [add] "r"(add), [o0] "i"(kB - 48), [o1] "i"(kB - 32),
          [o2] "i"(kB - 16), [o3] "i"(kB)
        : "d0", "d1", "d2", "d3", "d4", "d5", "d6", "d7", "d8", "d9", "d10", "d11", "d12", "d13", "d14", "d15", "lr",
          "cc", "memory");
}
#undef SARNN_MVE_WROW_

// One row of weighted_chunk_nv_asm: NV vectors of the row at p (offsets 0, 16, 32, 48), each times W onto q0..q3,
// then p one row on (st bytes).
#define SARNN_MVE_WROW_NV_(W)                      \
    "vldrw.32 q4, [%[p]]\n\t"                      \
    "vfma.f32 q0, q4, " W "\n\t"                   \
    ".if %c[nv] > 1\n\t"                           \
    "vldrw.32 q5, [%[p], #16]\n\t"                 \
    "vfma.f32 q1, q5, " W "\n\t"                   \
    ".endif\n\t"                                   \
    ".if %c[nv] > 2\n\t"                           \
    "vldrw.32 q6, [%[p], #32]\n\t"                 \
    "vfma.f32 q2, q6, " W "\n\t"                   \
    ".endif\n\t"                                   \
    ".if %c[nv] > 3\n\t"                           \
    "vldrw.32 q7, [%[p], #48]\n\t"                 \
    "vfma.f32 q3, q7, " W "\n\t"                   \
    ".endif\n\t"                                   \
    "add %[p], %[p], %[st]\n\t"

/// c[0..4·NV) (= or +=, add) Σ_{i < n} w_i·R_i[0..4·NV) for the 4·NV columns of one chunk (NV = 1 to 4 vectors), rows
/// R_i = row + i·stride floats (any stride: a register, one add a row, where weighted_chunk_asm folds its immediate
/// into the last load), the chunk kept in q0..q(NV-1) through the rows, two rows per pass, in the order of i in every
/// lane. c's last vector is stored under the predicate last (the columns below the row's dim: c is a padded row,
/// nothing written past dim); its vectors are read whole (padded). n >= 0.
template <int NV>
inline void weighted_chunk_nv_asm(const float* row, std::size_t stride, std::size_t n, const float* w, float* c,
                                  bool add, mve_pred16_t last) {
    static_assert(NV >= 1 && NV <= 4, "a chunk of one to four vectors");
    const std::size_t pairs = n / 2, odd = n % 2, st = stride * sizeof(float);
    const float* p = row;
    std::uint32_t wa, wb;
    const std::uint32_t pred = last;
    __asm__ volatile(
        "cmp %[add], #0\n\t"
        "beq 5f\n\t"
        "vldrw.32 q0, [%[c]]\n\t"
        ".if %c[nv] > 1\n\t"
        "vldrw.32 q1, [%[c], #16]\n\t"
        ".endif\n\t"
        ".if %c[nv] > 2\n\t"
        "vldrw.32 q2, [%[c], #32]\n\t"
        ".endif\n\t"
        ".if %c[nv] > 3\n\t"
        "vldrw.32 q3, [%[c], #48]\n\t"
        ".endif\n\t"
        "b 6f\n"
        "5:\n\t"
        "vmov.i32 q0, #0\n\t"
        "vmov.i32 q1, #0\n\t"
        "vmov.i32 q2, #0\n\t"
        "vmov.i32 q3, #0\n"
        "6:\n\t"
        "wls lr, %[pairs], 2f\n"
        "1:\n\t"
        "ldrd %[wa], %[wb], [%[w]], #8\n\t" SARNN_MVE_WROW_NV_("%[wa]") SARNN_MVE_WROW_NV_("%[wb]")
        "le lr, 1b\n"
        "2:\n\t"
        "cmp %[odd], #0\n\t"  // the odd last row
        "beq 3f\n\t"
        "ldr %[wa], [%[w]]\n\t" SARNN_MVE_WROW_NV_("%[wa]")
        "3:\n\t"
        // the whole vectors, then the last under its predicate
        ".if %c[nv] == 1\n\t"
        "vmsr p0, %[pred]\n\t"
        "vpst\n\t"
        "vstrwt.32 q0, [%[c]]\n\t"
        ".endif\n\t"
        ".if %c[nv] == 2\n\t"
        "vstrw.32 q0, [%[c]]\n\t"
        "vmsr p0, %[pred]\n\t"
        "vpst\n\t"
        "vstrwt.32 q1, [%[c], #16]\n\t"
        ".endif\n\t"
        ".if %c[nv] == 3\n\t"
        "vstrw.32 q0, [%[c]]\n\t"
        "vstrw.32 q1, [%[c], #16]\n\t"
        "vmsr p0, %[pred]\n\t"
        "vpst\n\t"
        "vstrwt.32 q2, [%[c], #32]\n\t"
        ".endif\n\t"
        ".if %c[nv] == 4\n\t"
        "vstrw.32 q0, [%[c]]\n\t"
        "vstrw.32 q1, [%[c], #16]\n\t"
        "vstrw.32 q2, [%[c], #32]\n\t"
        "vmsr p0, %[pred]\n\t"
        "vpst\n\t"
        "vstrwt.32 q3, [%[c], #48]\n\t"
        ".endif\n\t"
        : [p] "+r"(p), [w] "+r"(w), [wa] "=&r"(wa), [wb] "=&r"(wb)
        : [c] "r"(c), [pairs] "r"(pairs), [odd] "r"(odd), [add] "r"(add), [st] "r"(st), [pred] "r"(pred),
          [nv] "i"(NV)
        : "d0", "d1", "d2", "d3", "d4", "d5", "d6", "d7", "d8", "d9", "d10", "d11", "d12", "d13", "d14", "d15", "lr",
          "cc", "memory");
}
#undef SARNN_MVE_WROW_NV_

/// y[i] = A_i·v + b[i] for i < 4·groups (b may be y itself), rows A_i = A + i·ld (ld floats apart), v of n values
/// (n >= 4), four rows per pass over v. t: 20 floats, 16-byte aligned (the transpose; t[16..20) the
/// columns after the first four and y's end, set here).
inline void affine_asm(const float* A, std::size_t ld, std::size_t groups, const float* v, std::size_t n,
                       const float* b, float* t, float* y) {
    float* const y_end = y + 4 * groups;
    const std::size_t ldb = ld * sizeof(float);
    const std::size_t rest = n - 4;
    __builtin_memcpy(t + 16, &rest, sizeof rest);
    __builtin_memcpy(t + 17, &y_end, sizeof y_end);
    const float *a0, *a1, *a2, *a3, *x;
    __asm__ volatile(
        "3:\n\t"
        "mov %[a0], %[A]\n\t"
        "add %[a1], %[a0], %[ld]\n\t"
        "add %[a2], %[a1], %[ld]\n\t"
        "add %[a3], %[a2], %[ld]\n\t"
        "add %[A], %[a3], %[ld]\n\t"
        "mov %[x], %[v]\n\t"
        // the first four columns (n >= 4) by multiplies, the rest in the loop
        "vldrw.32 q4, [%[x]], #16\n\t"
        "vldrw.32 q5, [%[a0]], #16\n\t"
        "vmul.f32 q0, q5, q4\n\t"
        "vldrw.32 q6, [%[a1]], #16\n\t"
        "vmul.f32 q1, q6, q4\n\t"
        "vldrw.32 q7, [%[a2]], #16\n\t"
        "vmul.f32 q2, q7, q4\n\t"
        "vldrw.32 q5, [%[a3]], #16\n\t"
        "vmul.f32 q3, q5, q4\n\t"
        "ldr lr, [%[t], #64]\n\t"
        "wlstp.32 lr, lr, 2f\n"
        "1:\n\t"
        "vldrw.32 q4, [%[x]], #16\n\t"
        "vldrw.32 q5, [%[a0]], #16\n\t"
        "vfma.f32 q0, q5, q4\n\t"
        "vldrw.32 q6, [%[a1]], #16\n\t"
        "vfma.f32 q1, q6, q4\n\t"
        "vldrw.32 q7, [%[a2]], #16\n\t"
        "vfma.f32 q2, q7, q4\n\t"
        "vldrw.32 q5, [%[a3]], #16\n\t"
        "vfma.f32 q3, q5, q4\n\t"
        "letp lr, 1b\n"
        "2:\n\t"
        SARNN_MVE_TRANSPOSE_ADD
        "vldrw.32 q1, [%[b]], #16\n\t"
        "vadd.f32 q0, q0, q2\n\t"
        "vadd.f32 q0, q0, q1\n\t"
        "vstrw.32 q0, [%[y]], #16\n\t"
        "ldr lr, [%[t], #68]\n\t"
        "cmp %[y], lr\n\t"
        "bne 3b\n\t"
        : [A] "+r"(A), [b] "+r"(b), [y] "+r"(y), [a0] "=&r"(a0), [a1] "=&r"(a1), [a2] "=&r"(a2), [a3] "=&r"(a3),
          [x] "=&r"(x)
        : [ld] "r"(ldb), [v] "r"(v), [t] "r"(t)
        : "d0", "d1", "d2", "d3", "d4", "d5", "d6", "d7", "d8", "d9", "d10", "d11", "d12", "d13", "d14", "d15", "lr",
          "cc", "memory");
}

/// y[i] = A_i·v + b[i] for i < 4·groups (b may be y itself), rows A_i = A + i·ld floats, v of N values (N a multiple
/// of 4, 16 to 128: the offsets within the immediates). As affine_asm, with the pass over v unrolled (.rept) and
/// every load at an offset from a pointer per row: no loop counter. t: 16 floats, 16-byte aligned. Not inlined (see
/// scores_rows_asm).
template <std::size_t N>
__attribute__((noinline)) void affine_rows_asm(const float* A, std::size_t ld, std::size_t groups, const float* v,
                                               const float* b, float* t, float* y) {
    static_assert(N % 4 == 0 && N >= 16 && N <= 128, "16 to 128 columns: offsets within the immediates");
    const std::size_t ldb = ld * sizeof(float);
    const float* const y_end = y + 4 * groups;
    const float *a1, *a2, *a3;
    __asm__ volatile(
        "3:\n\t"
        "add %[a1], %[a0], %[ld]\n\t"
        "add %[a2], %[a1], %[ld]\n\t"
        "add %[a3], %[a2], %[ld]\n\t"
        // the first four columns by multiplies, the others (at offset .Lsarnn_o) by fused multiply-adds
        "vldrw.32 q4, [%[v]]\n\t"
        "vldrw.32 q5, [%[a0]]\n\t"
        "vmul.f32 q0, q5, q4\n\t"
        "vldrw.32 q6, [%[a1]]\n\t"
        "vmul.f32 q1, q6, q4\n\t"
        "vldrw.32 q7, [%[a2]]\n\t"
        "vmul.f32 q2, q7, q4\n\t"
        "vldrw.32 q5, [%[a3]]\n\t"
        "vmul.f32 q3, q5, q4\n\t"
        ".set .Lsarnn_o, 16\n\t"
        ".rept %c[nv] - 1\n\t"
        "vldrw.32 q4, [%[v], #.Lsarnn_o]\n\t"
        "vldrw.32 q5, [%[a0], #.Lsarnn_o]\n\t"
        "vfma.f32 q0, q5, q4\n\t"
        "vldrw.32 q6, [%[a1], #.Lsarnn_o]\n\t"
        "vfma.f32 q1, q6, q4\n\t"
        "vldrw.32 q7, [%[a2], #.Lsarnn_o]\n\t"
        "vfma.f32 q2, q7, q4\n\t"
        "vldrw.32 q5, [%[a3], #.Lsarnn_o]\n\t"
        "vfma.f32 q3, q5, q4\n\t"
        ".set .Lsarnn_o, .Lsarnn_o + 16\n\t"
        ".endr\n\t"
        SARNN_MVE_TRANSPOSE_ADD
        "vldrw.32 q1, [%[b]], #16\n\t"
        "vadd.f32 q0, q0, q2\n\t"
        "vadd.f32 q0, q0, q1\n\t"
        "vstrw.32 q0, [%[y]], #16\n\t"
        "add %[a0], %[a3], %[ld]\n\t"
        "cmp %[y], %[y_end]\n\t"
        "bne 3b\n\t"
        : [a0] "+r"(A), [b] "+r"(b), [y] "+r"(y), [a1] "=&r"(a1), [a2] "=&r"(a2), [a3] "=&r"(a3)
        : [v] "r"(v), [t] "r"(t), [y_end] "r"(y_end), [ld] "r"(ldb), [nv] "i"(N / 4)
        : "d0", "d1", "d2", "d3", "d4", "d5", "d6", "d7", "d8", "d9", "d10", "d11", "d12", "d13", "d14", "d15", "cc",
          "memory");
}

// ---- exp on vectors, for tanh4_asm and softmax_asm ------------------------------------------------------------
// The form of mve/set_math.hpp's exp_in_range: q1 = e^q0 for lanes in [-87, 88], q0 clobbered (it ends as r), q2
// and q3 temporaries; but e^r by a polynomial of degree 5 fitted to e^r over |r| <= ln2/2 for the least largest
// relative error (c0 = 1; 9.2e-8 in exact arithmetic, 1.7e-7 for the Taylor polynomial of degree 6 there; 1.6e-7
// over [-87, 88] in float, found by simulating the float operations): one multiply-add less. Constants: r4
// 1.5·2^23, r5 -ln2 (high part), r6 -ln2 (low part), r7..r10 the polynomial's c4..c1, r11 1 (c0, and 127 << 23:
// the exponent bias); q6 log2(e), q7 c5: SARNN_MVE_EXP_CONSTANTS loads them from kExpConstants (operand %[k]: one
// LDM and two vector loads).
// (kernels/mve/exp.hpp: written once for the set and its shaped forms)
#define SARNN_MVE_EXP_CONSTANTS SARNN_MVE_EXP_LOAD_
#define SARNN_MVE_EXP SARNN_MVE_EXP_
using mve_shaped::kExpConstants;
#define SARNN_MVE_EXP_CLOBBERS                                                                                   \
    "r4", "r5", "r6", "r7", "r8", "r9", "r10", "r11", "d0", "d1", "d2", "d3", "d4", "d5", "d6", "d7", "d8", "d9",  \
        "d10", "d11", "d12", "d13", "d14", "d15", "lr", "memory"

/// y[i] = tanh(y[i]) for i < 4·groups (groups >= 1), in place: mve/set_math.hpp's form (|x| clamped to 9.1, so ±Inf
/// gives ±1; 1 - 2/(e^{2|x|} + 1); x's sign put back; NaN stays NaN), the quotient by the FPU's divide lane by lane
/// (a q register's lanes are the s registers s4k..s4k+3: four instructions, where the reciprocal's Newton steps
/// took eleven, and correctly rounded).
inline void tanh4_asm(float* y, std::size_t groups) {
    const std::uint32_t clamp = 0x4111999Au;  // 9.1f
    __asm__ volatile(
        "vdup.32 q5, %[clamp]\n\t" SARNN_MVE_EXP_CONSTANTS
        "dls lr, %[groups]\n"
        "1:\n\t"
        "vldrw.32 q0, [%[y]]\n\t"
        "vshr.u32 q4, q0, #31\n\t"  // the sign of x
        "vminnma.f32 q0, q5\n\t"    // a = min(|x|, 9.1)
        "vshl.i32 q4, q4, #31\n\t"
        "vadd.f32 q0, q0, q0\n\t" SARNN_MVE_EXP
        "vadd.f32 q1, q1, r11\n\t"  // d = e^{2a} + 1 (s4..s7)
        "vmov.f32 s8, #-2.0\n\t"    // q0 = -2/d, lane by lane
        "vdiv.f32 s0, s8, s4\n\t"
        "vdiv.f32 s1, s8, s5\n\t"
        "vdiv.f32 s2, s8, s6\n\t"
        "vdiv.f32 s3, s8, s7\n\t"
        "vadd.f32 q0, q0, r11\n\t"  // tanh a = 1 - 2/d
        "vorr q0, q0, q4\n\t"
        "vldrw.32 q2, [%[y]]\n\t"   // NaN stays NaN: x where x != x
        "vcmp.f32 eq, q2, q2\n\t"
        "vpsel q0, q0, q2\n\t"
        "vstrw.32 q0, [%[y]], #16\n\t"
        "le lr, 1b\n\t"
        : [y] "+r"(y)
        : [groups] "r"(groups), [clamp] "r"(clamp), [k] "r"(kExpConstants)
        : SARNN_MVE_EXP_CLOBBERS);
}

/// y = softmax(y) over n >= 1 values in three tail-predicated passes (DLSTP/LETP: the last pass loads, computes and
/// stores only the lanes below n; the lanes it leaves keep their values, so the max and the sums stay right): the
/// max and a finite check (the sum of the inputs; NaN or Inf in any of them, or a sum past float's range, gives
/// NaN in chk - chk), then e^max(y_k - max, -87) and its sums per lane, then y_k·(1/Σ) (Σ as
/// (l0 + l1) + (l2 + l3) on the s registers of the sums' vector, one divide). Returns nonzero, y untouched, when
/// the check fails (the caller takes the exact loop).
inline std::uint32_t softmax_asm(float* y, std::size_t n) {
    const float* p;
    std::uint32_t m;
    __asm__ volatile(
        "ldr %[m], [%[y]]\n\t"
        "vdup.32 q4, %[m]\n\t"  // the max's lanes start at y[0]
        "vmov.i32 q5, #0\n\t"
        "mov %[p], %[y]\n\t"
        "dlstp.32 lr, %[n]\n"
        "1:\n\t"
        "vldrw.32 q0, [%[p]], #16\n\t"
        "vmaxnm.f32 q4, q4, q0\n\t"
        "vadd.f32 q5, q5, q0\n\t"
        "letp lr, 1b\n\t"
        "vsub.f32 q5, q5, q5\n\t"
        "vcmp.f32 ne, q5, q5\n\t"
        "vmrs %[m], p0\n\t"
        "cmp %[m], #0\n\t"
        "bne 4f\n\t"
        "ldr %[m], [%[y]]\n\t"
        "vmaxnmv.f32 %[m], q4\n\t" SARNN_MVE_EXP_CONSTANTS
        "vldrw.32 q5, [%[k], #64]\n\t"  // -87
        "vmov.i32 q4, #0\n\t"
        "mov %[p], %[y]\n\t"
        "dlstp.32 lr, %[n]\n"
        "2:\n\t"
        "vldrw.32 q0, [%[p]]\n\t"
        "vsub.f32 q0, q0, %[m]\n\t"
        "vmaxnm.f32 q0, q0, q5\n\t" SARNN_MVE_EXP
        "vadd.f32 q4, q4, q1\n\t"
        "vstrw.32 q1, [%[p]], #16\n\t"
        "letp lr, 2b\n\t"
        "vadd.f32 s16, s16, s17\n\t"  // Σ = (l0 + l1) + (l2 + l3), then 1/Σ
        "vadd.f32 s18, s18, s19\n\t"
        "vadd.f32 s16, s16, s18\n\t"
        "vmov.f32 s17, #1.0\n\t"
        "vdiv.f32 s16, s17, s16\n\t"
        "vmov %[m], s16\n\t"
        "mov %[p], %[y]\n\t"
        "dlstp.32 lr, %[n]\n"
        "3:\n\t"
        "vldrw.32 q0, [%[p]]\n\t"
        "vmul.f32 q0, q0, %[m]\n\t"
        "vstrw.32 q0, [%[p]], #16\n\t"
        "letp lr, 3b\n\t"
        "movs %[m], #0\n"
        "4:\n\t"
        : [p] "=&r"(p), [m] "=&r"(m)
        : [y] "r"(y), [n] "r"(n), [k] "r"(kExpConstants)
        : SARNN_MVE_EXP_CLOBBERS, "cc");
    return m;
}

/// to[0..n) = from[0..n), n >= 1: a tail-predicated loop (DLSTP/LETP), one load and one store a vector; nothing
/// read or written past n.
inline void copy_asm(const float* from, std::size_t n, float* to) {
    __asm__ volatile(
        "dlstp.32 lr, %[n]\n"
        "1:\n\t"
        "vldrw.32 q0, [%[f]], #16\n\t"
        "vstrw.32 q0, [%[t]], #16\n\t"
        "letp lr, 1b\n\t"
        : [f] "+r"(from), [t] "+r"(to)
        : [n] "r"(n)
        : "d0", "d1", "lr", "memory");
}

/// A compiler barrier over the memory at p (see load_after_stores).
inline void touch(const float* p) { __asm__ volatile("" : : "r"(p) : "memory"); }

/// A vector load after stores the compiler must not drop or move past it: GCC 12's MVE load intrinsics are not
/// seen to read memory, so plain stores to a local array before vld1q_f32 of it can be lost (seen: lanes 1-3 of a
/// vector built from four scalar stores came back as garbage). The empty asm takes the address and clobbers memory.
inline float32x4_t load_after_stores(const float* p) {
    touch(p);
    return vld1q_f32(p);
}

}  // namespace mve
}  // namespace
}  // namespace sarnn::kernel

#if defined(__GNUC__) && !defined(__clang__) && !defined(__OPTIMIZE__)
#pragma GCC pop_options
#endif

#endif
