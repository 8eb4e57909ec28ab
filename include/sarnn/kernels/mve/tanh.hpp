// sarnn/kernels/mve/tanh.hpp: y = tanh(y) over N values (N known at compile time) on Helium (MVE float), for the
// shaped affine_tanh (kernels/mve/shaped.hpp): four lanes a pass, the last N % 4 under a tail predicate (VCTP). The
// form of the mve set's tanh (lib/kernels/arm_mve_loops.hpp, tanh4_asm): |x| clamped to 9.1 (from where tanh rounds
// to ±1 in float; ±Inf gives ±1), tanh |x| = 1 - 2/(e^{2|x|} + 1), x's sign put back, NaN stays NaN; e^t = 2^k·e^r
// (k = round(t/ln2), r = t - k·ln2 with ln2 in two parts) with e^r by a polynomial of degree 5 fitted over |r| <=
// ln2/2 (1.6e-7 relative over the range), the quotient by the FPU's divide lane by lane (correctly rounded). Error
// against double: within 2.5e-7 absolute. Cost: 31 instructions per four values.
#ifndef SARNN_KERNELS_MVE_TANH_HPP
#define SARNN_KERNELS_MVE_TANH_HPP

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

// tanh of the four lanes of q0 (x, also kept in q3 for the NaN check) into q0; q1, q2, q4 temporaries; q5 9.1; the
// constants of kernels/mve/exp.hpp in r4-r11, q6 and q7 (its exp, with q1 where it has q3).
#define SARNN_MVE_TANH_LANES_                                                      \
    "vmov q3, q0\n\t"                                                              \
    "vshr.u32 q4, q0, #31\n\t" /* the sign of x */                                 \
    "vminnma.f32 q0, q5\n\t"   /* a = min(|x|, 9.1) */                             \
    "vshl.i32 q4, q4, #31\n\t"                                                     \
    "vadd.f32 q0, q0, q0\n\t" /* t = 2a */                                         \
    "vmov q2, q0\n\t"         /* u = t·log2(e) + 1.5·2^23: k in its low bits */  \
    "vfmas.f32 q2, q6, r4\n\t"                                                     \
    "vsub.f32 q1, q2, r4\n\t"  /* k */                                             \
    "vshl.i32 q2, q2, #23\n\t" /* 2^k: k into the exponent field, plus the bias */ \
    "vadd.i32 q2, q2, r11\n\t"                                                     \
    "vfma.f32 q0, q1, r5\n\t" /* r = t - k·ln2 */                                 \
    "vfma.f32 q0, q1, r6\n\t"                                                      \
    "vmov q1, q7\n\t" /* e^r = c0 + c1·r + ... + c5·r^5, Horner */               \
    "vfmas.f32 q1, q0, r7\n\t"                                                     \
    "vfmas.f32 q1, q0, r8\n\t"                                                     \
    "vfmas.f32 q1, q0, r9\n\t"                                                     \
    "vfmas.f32 q1, q0, r10\n\t"                                                    \
    "vfmas.f32 q1, q0, r11\n\t"                                                    \
    "vmul.f32 q1, q1, q2\n\t"  /* e^t */                                           \
    "vadd.f32 q1, q1, r11\n\t" /* d = e^t + 1 (s4..s7) */                          \
    "vmov.f32 s8, #-2.0\n\t"   /* q0 = -2/d, lane by lane */                       \
    "vdiv.f32 s0, s8, s4\n\t"                                                      \
    "vdiv.f32 s1, s8, s5\n\t"                                                      \
    "vdiv.f32 s2, s8, s6\n\t"                                                      \
    "vdiv.f32 s3, s8, s7\n\t"                                                      \
    "vadd.f32 q0, q0, r11\n\t" /* tanh a = 1 - 2/d */                              \
    "vorr q0, q0, q4\n\t"                                                          \
    "vcmp.f32 eq, q3, q3\n\t" /* NaN stays NaN: x where x != x */                  \
    "vpsel q0, q0, q3\n\t"

/// y[i] = tanh(y[i]) for i < N, in place; nothing read or written past N.
template <std::size_t N>
__attribute__((noinline)) void tanh_inplace(float* y) noexcept {
    static_assert(N >= 1, "sarnn: mve tanh_inplace: N >= 1");
    const std::uint32_t clamp = 0x4111999Au;  // 9.1f
    __asm__ volatile(
        "vdup.32 q5, %[clamp]\n\t"
        "ldm %[k], {r4-r11}\n\t"
        "vldrw.32 q6, [%[k], #32]\n\t"
        "vldrw.32 q7, [%[k], #48]\n\t"
        ".if %c[whole] > 0\n\t"
        "dls lr, %[groups]\n"
        "1:\n\t"
        "vldrw.32 q0, [%[y]]\n\t" SARNN_MVE_TANH_LANES_
        "vstrw.32 q0, [%[y]], #16\n\t"
        "le lr, 1b\n\t"
        ".endif\n\t"
        ".if %c[rest] > 0\n\t"
        "mov lr, #%c[rest]\n\t"
        "vctp.32 lr\n\t"
        "vpst\n\t"
        "vldrwt.32 q0, [%[y]]\n\t" SARNN_MVE_TANH_LANES_
        "vctp.32 lr\n\t"
        "vpst\n\t"
        "vstrwt.32 q0, [%[y]]\n\t"
        ".endif\n\t"
        : [y] "+r"(y)
        : [groups] "r"(N / 4), [clamp] "r"(clamp), [k] "r"(kExpConstants), [whole] "i"(N / 4), [rest] "i"(N % 4)
        : "r4", "r5", "r6", "r7", "r8", "r9", "r10", "r11", "d0", "d1", "d2", "d3", "d4", "d5", "d6", "d7", "d8", "d9",
          "d10", "d11", "d12", "d13", "d14", "d15", "lr", "memory");
}
#undef SARNN_MVE_TANH_LANES_

}  // namespace sarnn::kernel::mve_shaped

#if defined(__GNUC__) && !defined(__clang__) && !defined(__OPTIMIZE__)
#pragma GCC pop_options
#endif

#endif
