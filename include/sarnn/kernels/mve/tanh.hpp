// sarnn/kernels/mve/tanh.hpp: y = tanh(y) and y = σ(y) = 1/(1 + e^{-y}) over N values (N known at compile time) on
// Helium (MVE float), for the shaped affine_tanh and cells (kernels/mve/shaped.hpp, {lstm,gru}_cell.hpp): four lanes a
// pass, the last N % 4 under a tail predicate (VCTP); one loop (SARNN_MVE_LANES_INPLACE_) and one exp for both.
// tanh a = 1 - 2/(e^{2a} + 1) for a = |x|, x's sign put back; e^{2a} = 2^k·e^r (k = round(2a/ln2), r = 2a - k·ln2
// with ln2 in two parts) with e^r by kernels/mve/exp.hpp's polynomial of degree 5 (1.6e-7 relative), the quotient by
// the FPU's divide lane by lane (correctly rounded). Error against double: within 2.5e-7 absolute. The factor 2 is
// in the constants (kTanhConstants: 2·log2(e), ln2/2, c_i·2^i, all exact scalings), so the pass computes r/2 and the
// same sums as with 2a, bit for bit. No clamp of x: k is capped at 128 (vminnm), where 2^k is built as +inf, so
// e^{2a} overflows to +inf and tanh a = 1 for every a from 44.4 up and for a = +inf (r then +inf: e^r = +inf); a NaN
// stays NaN through r (vminnm's 128 for k, the NaN in r). Cost: 26 instructions per four values and 4.
// σ: s = 1/(e^a + 1) for a = |x| (σ(-a)), then σ(x) = s for x < 0 and 1 - s otherwise, so that a small σ keeps its
// relative precision (2.5e-7); e^a as above with exp.hpp's constants (kSigmoidConstants: e^a = +inf from a = 88.8 on
// and for a = +inf, where σ = 0 or 1). NaN stays NaN. Error against double: within 1.5e-7 absolute. Cost: 26
// instructions per four values and 4.
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

/// r4 1.5·2^23, r5 -ln2/2 (high part), r6 -ln2/2 (low part), r7..r10 the exp polynomial's c4·16, c3·8, c2·4, c1·2,
/// r11 1 (c0, and 127 << 23: the exponent bias); then 2·log2(e) and c5·32 in four lanes each (q6, q7), then k's cap
/// 128 (q5). kExpConstants' values times powers of two.
alignas(16) inline constexpr std::uint32_t kTanhConstants[20] = {
    0x4b400000u, 0xbeb17200u, 0xb53fbe8eu, 0x3f2b9d2au, 0x3faaad35u, 0x3ffffee3u, 0x3ffffffbu,
    0x3f800000u, 0x4038aa3bu, 0x4038aa3bu, 0x4038aa3bu, 0x4038aa3bu, 0x3e87d41au, 0x3e87d41au,
    0x3e87d41au, 0x3e87d41au, 0x43000000u, 0x43000000u, 0x43000000u, 0x43000000u};

/// r4 1.5·2^23, r5 -ln2 (high part), r6 -ln2 (low part), r7..r10 the exp polynomial's c4..c1, r11 1 (c0, and
/// 127 << 23: the exponent bias); then log2(e) and c5 in four lanes each (q6, q7), then k's cap 128 (q5): exp.hpp's
/// kExpConstants, then the cap of kTanhConstants.
alignas(16) inline constexpr std::uint32_t kSigmoidConstants[20] = {
    0x4b400000u, 0xbf317200u, 0xb5bfbe8eu, 0x3d2b9d2au, 0x3e2aad35u, 0x3efffee3u, 0x3f7ffffbu,
    0x3f800000u, 0x3fb8aa3bu, 0x3fb8aa3bu, 0x3fb8aa3bu, 0x3fb8aa3bu, 0x3c07d41au, 0x3c07d41au,
    0x3c07d41au, 0x3c07d41au, 0x43000000u, 0x43000000u, 0x43000000u, 0x43000000u};

// q1 = e^{a·m} for the lanes a >= 0 (or NaN) of q0, with m = 2 (kTanhConstants) or 1 (kSigmoidConstants); q0
// clobbered (it ends as r/m), q2 a temporary; the constants in r4-r11, q5, q6 and q7. k is capped at
// 128, where 2^k is built as +inf: e^{a·m} overflows to +inf from a·m = 88.8 on and for a = +inf; a NaN stays NaN
// through r.
#define SARNN_MVE_EXP_CAPPED_                                                       \
    "vmov q2, q0\n\t" /* u = a·m·log2(e) + 1.5·2^23: k in its low bits */        \
    "vfmas.f32 q2, q6, r4\n\t"                                                      \
    "vsub.f32 q1, q2, r4\n\t"   /* k */                                             \
    "vminnm.f32 q1, q1, q5\n\t" /* k <= 128 (NaN: 128) */                           \
    "vadd.f32 q2, q1, r4\n\t"   /* 2^k: k into the exponent field, plus the bias */ \
    "vshl.i32 q2, q2, #23\n\t"                                                      \
    "vadd.i32 q2, q2, r11\n\t"                                                      \
    "vfma.f32 q0, q1, r5\n\t" /* r/m = a - k·ln2/m, ln2 in two parts */            \
    "vfma.f32 q0, q1, r6\n\t"                                                       \
    "vmov q1, q7\n\t" /* e^r = c0 + m·c1·(r/m) + ... + m^5·c5·(r/m)^5, Horner */ SARNN_MVE_EXP_HORNER_

// tanh of the four lanes of q0 (x) into q0; q1, q2, q4 temporaries; the constants of kTanhConstants in r4-r11, q5,
// q6 and q7, -2 in s12.
#define SARNN_MVE_TANH_LANES_                                                      \
    "vshr.u32 q4, q0, #31\n\t"                       /* the sign of x */           \
    "vabs.f32 q0, q0\n\t"                            /* a = |x| */                 \
    "vshl.i32 q4, q4, #31\n\t" SARNN_MVE_EXP_CAPPED_ /* e^{2a} */                  \
    "vadd.f32 q1, q1, r11\n\t"                       /* d = e^{2a} + 1 (s4..s7) */ \
    "vdiv.f32 s0, s12, s4\n\t"                       /* q0 = -2/d, lane by lane */ \
    "vdiv.f32 s1, s12, s5\n\t"                                                     \
    "vdiv.f32 s2, s12, s6\n\t"                                                     \
    "vdiv.f32 s3, s12, s7\n\t"                                                     \
    "vadd.f32 q0, q0, r11\n\t" /* tanh a = 1 - 2/d */                              \
    "vorr q0, q0, q4\n\t"

// y[i] = f(y[i]) for i < N in place, by LANES (four lanes of q0 into q0) with the constants K (loaded into r4-r11,
// q6, q7 and q5) and the numerator NUM of its quotients (in s12: q3 is free in the lanes); nothing read or written
// past N.
#define SARNN_MVE_LANES_INPLACE_(LANES, K, NUM)                                                                   \
    __asm__ volatile(                                                                                             \
        "ldm %[k], {r4-r11}\n\t"                                                                                  \
        "vldrw.32 q6, [%[k], #32]\n\t"                                                                            \
        "vldrw.32 q7, [%[k], #48]\n\t"                                                                            \
        "vldrw.32 q5, [%[k], #64]\n\t"                                                                            \
        "vmov.f32 s12, #" NUM                                                                                     \
        "\n\t"                                                                                                    \
        ".if %c[whole] > 0\n\t"                                                                                   \
        "dls lr, %[groups]\n"                                                                                     \
        "1:\n\t"                                                                                                  \
        "vldrw.32 q0, [%[y]]\n\t" LANES                                                                           \
        "vstrw.32 q0, [%[y]], #16\n\t"                                                                            \
        "le lr, 1b\n\t"                                                                                           \
        ".endif\n\t"                                                                                              \
        ".if %c[rest] > 0\n\t"                                                                                    \
        "mov lr, #%c[rest]\n\t"                                                                                   \
        "vctp.32 lr\n\t"                                                                                          \
        "vpst\n\t"                                                                                                \
        "vldrwt.32 q0, [%[y]]\n\t" LANES                                                                          \
        "vctp.32 lr\n\t"                                                                                          \
        "vpst\n\t"                                                                                                \
        "vstrwt.32 q0, [%[y]]\n\t"                                                                                \
        ".endif\n\t"                                                                                              \
        : [y] "+r"(y)                                                                                             \
        : [groups] "r"(N / 4), [k] "r"(K), [whole] "i"(N / 4), [rest] "i"(N % 4)                                  \
        : "r4", "r5", "r6", "r7", "r8", "r9", "r10", "r11", "d0", "d1", "d2", "d3", "d4", "d5", "d6", "d7", "d8", \
          "d9", "d10", "d11", "d12", "d13", "d14", "d15", "lr", "memory")

/// y[i] = tanh(y[i]) for i < N, in place; nothing read or written past N.
template <std::size_t N>
__attribute__((noinline)) void tanh_inplace(float* y) noexcept {
    static_assert(N >= 1, "sarnn: mve tanh_inplace: N >= 1");
    SARNN_MVE_LANES_INPLACE_(SARNN_MVE_TANH_LANES_, kTanhConstants, "-2.0");
}
#undef SARNN_MVE_TANH_LANES_

// σ of the four lanes of q0 (x) into q0; q1, q2 temporaries; the constants of kSigmoidConstants in r4-r11, q5, q6
// and q7, -1 in s12. The predicate x >= 0 is set first and held in VPR (nothing between writes it) for the VPSEL
// at the end.
#define SARNN_MVE_SIGMOID_LANES_                                                                           \
    "vcmp.f32 ge, q0, zr\n\t"                   /* x >= 0: σ(a) at the end, else (x < 0 or NaN) σ(-a) */ \
    "vabs.f32 q0, q0\n\t" SARNN_MVE_EXP_CAPPED_ /* e^a for a = |x| */                                      \
    "vadd.f32 q1, q1, r11\n\t"                  /* d = e^a + 1 (s4..s7) */                                 \
    "vdiv.f32 s0, s12, s4\n\t"                  /* q0 = -s = -1/d, lane by lane */                         \
    "vdiv.f32 s1, s12, s5\n\t"                                                                             \
    "vdiv.f32 s2, s12, s6\n\t"                                                                             \
    "vdiv.f32 s3, s12, s7\n\t"                                                                             \
    "vadd.f32 q1, q0, r11\n\t" /* 1 - s: σ(a) */                                                          \
    "vneg.f32 q0, q0\n\t"      /* s: σ(-a) */                                                             \
    "vpsel q0, q1, q0\n\t"

/// y[i] = σ(y[i]) for i < N, in place; nothing read or written past N.
template <std::size_t N>
__attribute__((noinline)) void sigmoid_inplace(float* y) noexcept {
    static_assert(N >= 1, "sarnn: mve sigmoid_inplace: N >= 1");
    SARNN_MVE_LANES_INPLACE_(SARNN_MVE_SIGMOID_LANES_, kSigmoidConstants, "-1.0");
}
#undef SARNN_MVE_SIGMOID_LANES_
#undef SARNN_MVE_LANES_INPLACE_
#undef SARNN_MVE_EXP_CAPPED_

}  // namespace sarnn::kernel::mve_shaped

#if defined(__GNUC__) && !defined(__clang__) && !defined(__OPTIMIZE__)
#pragma GCC pop_options
#endif

#endif
