// sarnn/kernels/mve/dot_scores.hpp: the scores of the dot context, e_j = S_j·q for the n stored states of a ring of Cap
// rows (Stride floats apart, Dim values each), with Dim, Stride and Cap known at compile time, on Helium (MVE float);
// the caller folds the scale into q. Eight states per pass: their row addresses in two vectors (VIWDUP: the physical
// rows (first + j) mod Cap, wrapping inside the vector, so the ring needs no second run), then for each k of q the
// k-th values of the eight rows by two gathers at the immediate offset 4·k (VLDRW.U32 Qd, [Qm, #4k]) and two
// multiply-adds by q_k held in a core register (eight q values a load, LDM into r6-r12 and lr): the scores of four
// states come out in the four lanes of a vector, no transpose and no sum across a vector (MVE float has none). The
// last pass stores its 1 to 7 scores under a tail predicate (VCTP); the lanes past n read rows of the ring that hold
// no state (any value: never stored).
// Cost: per eight states 4·Dim + Dim/8 + 13 instructions, the max among them (0.5 per multiply-add in the loop).
// Assembly, measured: the same pass in intrinsics (vldrwq_gather_base_f32 at each offset, vfmaq_n_f32 by q[k]; GCC
// 12.2 -O3) made the reference dot step (In 16, Hidden 32, 64 states) 4,616 instructions, against 4,128 with the
// first form of this pass (four q values a load, the scale a multiply per vector; 11% fewer).
#ifndef SARNN_KERNELS_MVE_DOT_SCORES_HPP
#define SARNN_KERNELS_MVE_DOT_SCORES_HPP

#include <cstddef>
#include <cstdint>

// The loops name core registers themselves (r4-r11 among them): an unoptimised build (-O0) keeps r7 for its frame,
// so these functions are built without a frame pointer there (else GCC: "r7 cannot be used in 'asm' here").
#if defined(__GNUC__) && !defined(__clang__) && !defined(__OPTIMIZE__)
#pragma GCC push_options
#pragma GCC optimize("omit-frame-pointer")
#endif

namespace sarnn::kernel::mve_shaped {

// One k of the pass (the assembler's .Lsarnn_k): the k-th values of the eight rows, times q_k (R: the core register
// of k % 8), onto q2 (states 0-3) and q3 (states 4-7); the first k by multiplies.
#define SARNN_MVE_SCORE_K_(R)                \
    "vldrw.u32 q4, [q0, #4 * .Lsarnn_k]\n\t" \
    "vldrw.u32 q5, [q1, #4 * .Lsarnn_k]\n\t" \
    ".if .Lsarnn_k == 0\n\t"                 \
    "vmul.f32 q2, q4, " R                    \
    "\n\t"                                   \
    "vmul.f32 q3, q5, " R                    \
    "\n\t"                                   \
    ".else\n\t"                              \
    "vfma.f32 q2, q4, " R                    \
    "\n\t"                                   \
    "vfma.f32 q3, q5, " R                    \
    "\n\t"                                   \
    ".endif\n\t"

// The load of q_k..q_{k+7} (or the last Dim - k of them) into r6-r12 and lr, at each k that is a multiple of 8.
#define SARNN_MVE_SCORE_LOAD_              \
    ".if (.Lsarnn_k %% 8) == 0\n\t"        \
    ".if %c[dim] - .Lsarnn_k >= 8\n\t"     \
    "ldm %[qp]!, {r6-r12, lr}\n\t"         \
    ".elseif %c[dim] - .Lsarnn_k == 7\n\t" \
    "ldm %[qp]!, {r6-r12}\n\t"             \
    ".elseif %c[dim] - .Lsarnn_k == 6\n\t" \
    "ldm %[qp]!, {r6-r11}\n\t"             \
    ".elseif %c[dim] - .Lsarnn_k == 5\n\t" \
    "ldm %[qp]!, {r6-r10}\n\t"             \
    ".elseif %c[dim] - .Lsarnn_k == 4\n\t" \
    "ldm %[qp]!, {r6-r9}\n\t"              \
    ".elseif %c[dim] - .Lsarnn_k == 3\n\t" \
    "ldm %[qp]!, {r6-r8}\n\t"              \
    ".elseif %c[dim] - .Lsarnn_k == 2\n\t" \
    "ldm %[qp]!, {r6-r7}\n\t"              \
    ".else\n\t"                            \
    "ldr r6, [%[qp]], #4\n\t"              \
    ".endif\n\t"                           \
    ".endif\n\t"

/// e[j] = R_j·q for j < n, and their max returned (vmaxnm: a NaN score is passed over, the softmax finds it), R_j =
/// base + ((first + j) mod Cap)·Stride floats the j-th stored state (Dim values), q Dim values (any 4-byte alignment;
/// the caller folds the scale into q). n in 1..Cap, first < Cap. e receives n floats, nothing past them.
template <std::size_t Dim, std::size_t Stride, std::size_t Cap>
__attribute__((noinline)) float dot_scores(const float* base, std::size_t first, std::size_t n, const float* q,
                                           float* e) noexcept {
    static_assert(Dim >= 1 && Dim <= 128, "sarnn: mve dot_scores: Dim 1 to 128 (the gathers' offsets are immediates)");
    static_assert(Stride >= Dim && Stride % 4 == 0 && Cap >= 1, "sarnn: mve dot_scores: padded rows");
    constexpr std::uint32_t kRowBytes = Stride * sizeof(float);
    // r4: the next state's physical row (VIWDUP wants an even register), r5: Cap (an odd one); r6-r12 and lr: eight
    // values of q at a time
    register std::uint32_t at __asm__("r4") = static_cast<std::uint32_t>(first);
    register std::uint32_t rows __asm__("r5") = static_cast<std::uint32_t>(Cap);
    std::uint32_t left = static_cast<std::uint32_t>(n);
    const float* qp = q;
    float m;
    __asm__ volatile(
        // q7: a row's bytes in every lane; q6: the scores' max, lane by lane, from -inf (-2^127 doubled)
        "movw r6, #%c[rb]\n\t"
        "vdup.32 q7, r6\n\t"
        "vmov.i32 q6, #0xff000000\n\t"
        "vadd.f32 q6, q6, q6\n"
        "1:\n\t"
        // q0, q1: the addresses of the rows of states j..j+3 and j+4..j+7 (physical row·bytes + base)
        "viwdup.u32 q0, %[at], %[rows], #1\n\t"
        "viwdup.u32 q1, %[at], %[rows], #1\n\t"
        "vmlas.u32 q0, q7, %[base]\n\t"
        "vmlas.u32 q1, q7, %[base]\n\t"
        // q2, q3 = Σ_k q_k·(value k of the rows), q_k eight at a time in r6-r12, lr
        ".set .Lsarnn_k, 0\n\t"
        ".rept %c[dim]\n\t" SARNN_MVE_SCORE_LOAD_
        ".if (.Lsarnn_k %% 8) == 0\n\t" SARNN_MVE_SCORE_K_("r6")
        ".elseif (.Lsarnn_k %% 8) == 1\n\t" SARNN_MVE_SCORE_K_("r7")
        ".elseif (.Lsarnn_k %% 8) == 2\n\t" SARNN_MVE_SCORE_K_("r8")
        ".elseif (.Lsarnn_k %% 8) == 3\n\t" SARNN_MVE_SCORE_K_("r9")
        ".elseif (.Lsarnn_k %% 8) == 4\n\t" SARNN_MVE_SCORE_K_("r10")
        ".elseif (.Lsarnn_k %% 8) == 5\n\t" SARNN_MVE_SCORE_K_("r11")
        ".elseif (.Lsarnn_k %% 8) == 6\n\t" SARNN_MVE_SCORE_K_("r12")
        ".else\n\t" SARNN_MVE_SCORE_K_("lr")
        ".endif\n\t"
        ".set .Lsarnn_k, .Lsarnn_k + 1\n\t"
        ".endr\n\t"
        "sub %[qp], %[qp], #4 * %c[dim]\n\t"
        // e_j = R_j·q: eight whole, or the last 1 to 7 under a tail predicate
        "cmp %[left], #8\n\t"
        "blo 2f\n\t"
        "vmaxnm.f32 q6, q6, q2\n\t"
        "vmaxnm.f32 q6, q6, q3\n\t"
        "vstrw.32 q2, [%[e]], #16\n\t"
        "vstrw.32 q3, [%[e]], #16\n\t"
        "subs %[left], %[left], #8\n\t"
        "bne 1b\n\t"
        "b 3f\n"
        "2:\n\t"
        "vctp.32 %[left]\n\t"
        "vpstt\n\t"
        "vmaxnmt.f32 q6, q6, q2\n\t"
        "vstrwt.32 q2, [%[e]]\n\t"
        "subs %[left], %[left], #4\n\t"
        "bls 3f\n\t"
        "vctp.32 %[left]\n\t"
        "vpstt\n\t"
        "vmaxnmt.f32 q6, q6, q3\n\t"
        "vstrwt.32 q3, [%[e], #16]\n"
        "3:\n\t"
        "vmov %[m], s24\n\t"
        "vmaxnmv.f32 %[m], q6\n\t"
        : [e] "+r"(e), [left] "+r"(left), [qp] "+r"(qp), [at] "+r"(at), [m] "=r"(m)
        : [base] "r"(base), [rows] "r"(rows), [dim] "i"(Dim), [rb] "i"(kRowBytes)
        : "r6", "r7", "r8", "r9", "r10", "r11", "r12", "lr", "d0", "d1", "d2", "d3", "d4", "d5", "d6", "d7", "d8", "d9",
          "d10", "d11", "d12", "d13", "d14", "d15", "cc", "memory");
    return m;
}
#undef SARNN_MVE_SCORE_LOAD_
#undef SARNN_MVE_SCORE_K_

}  // namespace sarnn::kernel::mve_shaped

#if defined(__GNUC__) && !defined(__clang__) && !defined(__OPTIMIZE__)
#pragma GCC pop_options
#endif

#endif
