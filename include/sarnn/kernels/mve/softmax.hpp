// sarnn/kernels/mve/softmax.hpp: y = softmax(y) over n values whose max m is known (the shaped dot context's scores
// pass finds it, kernels/mve/dot_scores.hpp), on Helium (MVE float): two tail-predicated passes (DLSTP/LETP: the last
// pass loads, computes and stores only the lanes below n), e^max(y_k - m, -87) and its sums per lane together with a
// finite check (the sum of the inputs: NaN or Inf in any of them, or a sum past float's range, gives NaN in chk -
// chk), then y_k·(1/Σ) (Σ as (l0 + l1) + (l2 + l3), one divide). The mve set's softmax less its pass for the max:
// 21 instructions per four values, then 4. Clamping y_k - m at -87 moves a result by less than 2e-38 against a sum of
// at least 1.
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

/// y = softmax(y) over n >= 1 values, m their max. Returns nonzero when an input is NaN or Inf or their sum is
/// past float's range (y then holds partial results: the caller starts the context again by an exact path).
inline std::uint32_t softmax_with_max(float* y, std::size_t n, float m) noexcept {
    const float* p;
    const void* k = kExpConstants;  // then c5's bits, then the check's result
    __asm__ volatile(
        "ldm %[k], {r4-r11}\n\t"
        "vldrw.32 q6, [%[k], #32]\n\t"  // log2(e)
        "vldrw.32 q5, [%[k], #64]\n\t"  // -87
        "ldr %[k], [%[k], #48]\n\t"     // c5
        "vmov.i32 q4, #0\n\t"           // the sums of e^(y_k - m)
        "vmov.i32 q7, #0\n\t"           // the sums of y_k (the check)
        "mov %[p], %[y]\n\t"
        "dlstp.32 lr, %[n]\n"
        "1:\n\t"
        "vldrw.32 q0, [%[p]]\n\t"
        "vadd.f32 q7, q7, q0\n\t"
        "vsub.f32 q0, q0, %[m]\n\t"
        "vmaxnm.f32 q0, q0, q5\n\t" SARNN_MVE_EXP_WITH_("vdup.32 q1, %[k]\n\t")
        "vadd.f32 q4, q4, q1\n\t"
        "vstrw.32 q1, [%[p]], #16\n\t"
        "letp lr, 1b\n\t"
        "vsub.f32 q7, q7, q7\n\t"
        "vcmp.f32 ne, q7, q7\n\t"
        "vmrs %[k], p0\n\t"
        "cmp %[k], #0\n\t"
        "bne 4f\n\t"
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
        "movs %[k], #0\n"
        "4:\n\t"
        : [p] "=&r"(p), [k] "+r"(k), [m] "+r"(m)
        : [y] "r"(y), [n] "r"(n)
        : "r4", "r5", "r6", "r7", "r8", "r9", "r10", "r11", "d0", "d1", "d2", "d3", "d4", "d5", "d6", "d7", "d8", "d9",
          "d10", "d11", "d12", "d13", "d14", "d15", "lr", "cc", "memory");
    return k != nullptr;
}

}  // namespace sarnn::kernel::mve_shaped

#if defined(__GNUC__) && !defined(__clang__) && !defined(__OPTIMIZE__)
#pragma GCC pop_options
#endif

#endif
