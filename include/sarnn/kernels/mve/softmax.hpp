// sarnn/kernels/mve/softmax.hpp: y = softmax(y) over n values whose max m is known (the shaped dot context's scores
// pass finds it, kernels/mve/dot_scores.hpp), on Helium (MVE float): two tail-predicated passes (DLSTP/LETP: the last
// pass loads, computes and stores only the lanes below n), e^(y_k - m) and its sums per lane, then y_k·(1/Σ) (Σ as
// (l0 + l1) + (l2 + l3), one divide). The exp (kernels/mve/exp.hpp's) floors k at -127 in the bits of its shifted
// t instead of clamping its argument: 2^-127 is built as +0, so e^x < 2^-126.5 gives 0 (against a sum of at least 1),
// and a NaN (a NaN score, inf - inf, or -inf - -inf) stays NaN through r into the sum, which is the finite check: no
// pass of its own. The mve set's softmax less its pass for the max: 20 instructions per four values, then 4.
#ifndef SARNN_KERNELS_MVE_SOFTMAX_HPP
#define SARNN_KERNELS_MVE_SOFTMAX_HPP

#include <cstddef>
#include <cstdint>

#include "sarnn/kernels/mve/exp.hpp"

// The loops name core registers themselves (r4-r11 among them): an unoptimised build (-O0) keeps r7 for its frame,
// so these functions are built without a frame pointer there (else GCC: "r7 cannot be used in 'asm' here").
#if defined(__GNUC__) && !defined(__clang__) && !defined(__OPTIMIZE__)
#pragma GCC push_options
#pragma GCC optimize("omit-frame-pointer")
#endif

namespace sarnn::kernel::mve_shaped {

/// y_k = e^(y_k - M·ln2) over n >= 1 values, m their max (M = ceil(m·log2 e)), and inv = 1/Σ_k y_k: softmax(y) is
/// inv·y, which the weighted sum applies in place (weighted_sum.hpp, Norm). Returns nonzero when an input is NaN or
/// Inf, or |m| passes 1.4e6 (y then holds partial results, or none, and inv nothing: the caller starts the context
/// again by an exact path).
inline std::uint32_t softmax_exp(float* y, std::size_t n, float m, float& inv) noexcept {
    const float* p;
    const void* k = kExpConstants;  // then c5's bits, then the check's result
    __asm__ volatile(
        // the shift M·ln2, M = ceil(m·log2(e)) (so that e^(y_k - M·ln2) <= 1, the largest in (1/2, 1]), enters t's
        // constant: t = y_k·log2(e) + (1.5·2^23 - M), whose bits are those of 1.5·2^23 less M (M in [-2^21, 2^21),
        // else, and for m = +-inf: the exact path, k still the constants' address)
        "vmov s0, %[m]\n\t"
        "vldr s1, [%[k], #32]\n\t"
        "vmul.f32 s0, s0, s1\n\t"
        "vcvtp.s32.f32 s0, s0\n\t"
        "vmov %[m], s0\n\t"
        "add r4, %[m], #0x200000\n\t"
        "cmp r4, #0x400000\n\t"
        "bhs 4f\n\t"
        "ldm %[k], {r4-r11}\n\t"
        "sub r4, r4, %[m]\n\t"          // 1.5·2^23 - M
        "vldrw.32 q6, [%[k], #32]\n\t"  // log2(e)
        "vldrw.32 q5, [%[k], #80]\n\t"  // the bits of 1.5·2^23 - 127: k's floor
        "ldr %[k], [%[k], #48]\n\t"     // c5
        "vmov.i32 q4, #0\n\t"           // the sums of e^(y_k - M·ln2)
        "mov %[p], %[y]\n\t"
        "dlstp.32 lr, %[n]\n"
        "1:\n\t"
        "vldrw.32 q0, [%[p]]\n\t"
        "vmov q2, q0\n\t"  // t = y_k·log2(e) + 1.5·2^23 - M: k + 1.5·2^23, k = round(y_k·log2(e)) - M
        "vfmas.f32 q2, q6, r4\n\t"
        "vsub.f32 q3, q2, r4\n\t"   // k + M
        "vmax.s32 q2, q2, q5\n\t"   // k >= -127 (in t's bits: 2^-127 is built as +0; a NaN t of either sign stays NaN
                                    // through r)
        "vshl.i32 q2, q2, #23\n\t"  // 2^k: k into the exponent field, plus the bias
        "vadd.i32 q2, q2, r11\n\t"
        "vfma.f32 q0, q3, r5\n\t"  // r = y_k - (k + M)·ln2, ln2 in two parts (NaN when y_k is NaN or +-inf)
        "vfma.f32 q0, q3, r6\n\t"
        "vdup.32 q1, %[k]\n\t"  // e^r = c0 + c1·r + ... + c5·r^5, Horner
        "vfmas.f32 q1, q0, r7\n\t"
        "vfmas.f32 q1, q0, r8\n\t"
        "vfmas.f32 q1, q0, r9\n\t"
        "vfmas.f32 q1, q0, r10\n\t"
        "vfmas.f32 q1, q0, r11\n\t"
        "vmul.f32 q1, q1, q2\n\t"  // e^(y_k - M·ln2) (NaN·0 = NaN)
        "vadd.f32 q4, q4, q1\n\t"
        "vstrw.32 q1, [%[p]], #16\n\t"
        "letp lr, 1b\n\t"
        "vadd.f32 s16, s16, s17\n\t"  // Σ = (l0 + l1) + (l2 + l3): NaN when an input was NaN or Inf
        "vadd.f32 s18, s18, s19\n\t"
        "vadd.f32 s16, s16, s18\n\t"
        "movs %[k], #1\n\t"
        "vcmp.f32 s16, s16\n\t"
        "vmrs APSR_nzcv, fpscr\n\t"
        "bvs 4f\n\t"
        "vmov.f32 s17, #1.0\n\t"  // 1/Σ
        "vdiv.f32 s16, s17, s16\n\t"
        "vmov %[m], s16\n\t"
        "movs %[k], #0\n"
        "4:\n\t"
        : [p] "=&r"(p), [k] "+r"(k), [m] "+r"(m)
        : [y] "r"(y), [n] "r"(n)
        : "r4", "r5", "r6", "r7", "r8", "r9", "r10", "r11", "d0", "d1", "d2", "d3", "d4", "d5", "d6", "d7", "d8", "d9",
          "d10", "d11", "d12", "d13", "d14", "d15", "lr", "cc", "memory");
    inv = m;
    return k != nullptr;
}

}  // namespace sarnn::kernel::mve_shaped

#if defined(__GNUC__) && !defined(__clang__) && !defined(__OPTIMIZE__)
#pragma GCC pop_options
#endif

#endif
