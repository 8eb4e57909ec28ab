// sarnn/kernels/mve/sigmoid.hpp: y = σ(y) = 1/(1 + e^{-y}) over N values (N known at compile time) on Helium (MVE
// float), for the shaped cells (kernels/mve/{lstm,gru}_cell.hpp): four lanes a pass, the last N % 4 under a tail
// predicate (VCTP), by tanh.hpp's loop. s = 1/(e^a + 1) for a = |x| (σ(-a)), then σ(x) = s for x < 0 and 1 - s
// otherwise, so that a small σ keeps its relative precision (2.5e-7); e^a = 2^k·e^r by tanh.hpp's exp with the
// constants of exp.hpp (k = round(a/ln2), k capped at 128: e^a = +inf from a = 88.8 on and for a = +inf, where
// σ = 0 or 1), the quotient by the FPU's divide lane by lane. NaN stays NaN. Error against double: within 1.5e-7
// absolute. Cost: 27 instructions per four values and 3.
#ifndef SARNN_KERNELS_MVE_SIGMOID_HPP
#define SARNN_KERNELS_MVE_SIGMOID_HPP

#include <cstddef>
#include <cstdint>

#include "sarnn/kernels/mve/tanh.hpp"

// The loops name core registers themselves (r4-r11 among them): an unoptimised build (-O0) keeps r7 for its frame,
// so these functions are built without a frame pointer there (else GCC: "r7 cannot be used in 'asm' here").
#if defined(__GNUC__) && !defined(__clang__) && !defined(__OPTIMIZE__)
#pragma GCC push_options
#pragma GCC optimize("omit-frame-pointer")
#endif

namespace sarnn::kernel::mve_shaped {

/// r4 1.5·2^23, r5 -ln2 (high part), r6 -ln2 (low part), r7..r10 the exp polynomial's c4..c1, r11 1 (c0, and
/// 127 << 23: the exponent bias); then log2(e) and c5 in four lanes each (q6, q7), then k's cap 128 (q5): exp.hpp's
/// kExpConstants, then the cap of kTanhConstants.
alignas(16) inline constexpr std::uint32_t kSigmoidConstants[20] = {
    0x4b400000u, 0xbf317200u, 0xb5bfbe8eu, 0x3d2b9d2au, 0x3e2aad35u, 0x3efffee3u, 0x3f7ffffbu,
    0x3f800000u, 0x3fb8aa3bu, 0x3fb8aa3bu, 0x3fb8aa3bu, 0x3fb8aa3bu, 0x3c07d41au, 0x3c07d41au,
    0x3c07d41au, 0x3c07d41au, 0x43000000u, 0x43000000u, 0x43000000u, 0x43000000u};

// σ of the four lanes of q0 (x) into q0; q1, q2 temporaries; the constants of kSigmoidConstants in r4-r11, q5, q6
// and q7. The predicate x >= 0 is set first and held in VPR (nothing between writes it) for the VPSEL at the end.
#define SARNN_MVE_SIGMOID_LANES_                                                                           \
    "vcmp.f32 ge, q0, zr\n\t"                   /* x >= 0: σ(a) at the end, else (x < 0 or NaN) σ(-a) */ \
    "vabs.f32 q0, q0\n\t" SARNN_MVE_EXP_CAPPED_ /* e^a for a = |x| */                                      \
    "vadd.f32 q1, q1, r11\n\t"                  /* d = e^a + 1 (s4..s7) */                                 \
    "vmov.f32 s8, #-1.0\n\t"                    /* q0 = -s = -1/d, lane by lane */                         \
    "vdiv.f32 s0, s8, s4\n\t"                                                                              \
    "vdiv.f32 s1, s8, s5\n\t"                                                                              \
    "vdiv.f32 s2, s8, s6\n\t"                                                                              \
    "vdiv.f32 s3, s8, s7\n\t"                                                                              \
    "vadd.f32 q1, q0, r11\n\t" /* 1 - s: σ(a) */                                                          \
    "vneg.f32 q0, q0\n\t"      /* s: σ(-a) */                                                             \
    "vpsel q0, q1, q0\n\t"

/// y[i] = σ(y[i]) for i < N, in place; nothing read or written past N.
template <std::size_t N>
__attribute__((noinline)) void sigmoid_inplace(float* y) noexcept {
    static_assert(N >= 1, "sarnn: mve sigmoid_inplace: N >= 1");
    SARNN_MVE_LANES_INPLACE_(SARNN_MVE_SIGMOID_LANES_, kSigmoidConstants);
}
#undef SARNN_MVE_SIGMOID_LANES_

}  // namespace sarnn::kernel::mve_shaped

#if defined(__GNUC__) && !defined(__clang__) && !defined(__OPTIMIZE__)
#pragma GCC pop_options
#endif

#endif
