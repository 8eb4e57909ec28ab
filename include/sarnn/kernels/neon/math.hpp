// sarnn/kernels/neon/math.hpp: the vector arithmetic of the shaped NEON kernels (kernels/neon/*.hpp), on <arm_neon.h>
// float32x4_t: multiply-add, division, exp, tanh and sigmoid, and loads and stores of a part of a vector whose length
// is known at compile time. exp, tanh and sigmoid are kernels/generic/float_math.hpp's (as the run-time NEON sets'),
// the multiply-add rounds as madd.hpp's: exp within 2 ulp on [-86.5, 88.7] (0 below, +inf above), tanh within 2 ulp, NaN passes
// through both. AArch64, and ARMv7 with NEON (there without a fused multiply-add unless __ARM_FEATURE_FMA: VMLA,
// rounded twice, as the run-time set).
// Only for AArch64 or a 32-bit ARM build with NEON (__ARM_NEON); included by kernels/neon/shaped.hpp.
#ifndef SARNN_KERNELS_NEON_MATH_HPP
#define SARNN_KERNELS_NEON_MATH_HPP

#include <arm_neon.h>

#include <cstddef>

#include "sarnn/kernels/generic/float_math.hpp"

#define SARNN_NEON_INLINE __attribute__((always_inline)) inline
#define SARNN_NEON_LAMBDA __attribute__((always_inline))

namespace sarnn::kernel::neon {

using F = float32x4_t;

/// a·b + c (fused on AArch64 and where the FPU has VFPv4; ARMv7 NEON otherwise: VMLA, a multiply and an add)
SARNN_NEON_INLINE F madd(F a, F b, F c) noexcept {
#if defined(__aarch64__) || defined(__ARM_FEATURE_FMA)
    return vfmaq_f32(c, a, b);
#else
    return vmlaq_f32(c, a, b);
#endif
}
/// a·s + c for a scalar s (AArch64: FMLA by element)
SARNN_NEON_INLINE F madd_n(F a, float s, F c) noexcept {
#if defined(__aarch64__) || defined(__ARM_FEATURE_FMA)
    return vfmaq_n_f32(c, a, s);
#else
    return vmlaq_n_f32(c, a, s);
#endif
}
/// c - a·b
SARNN_NEON_INLINE F nmadd(F a, F b, F c) noexcept {
#if defined(__aarch64__) || defined(__ARM_FEATURE_FMA)
    return vfmsq_f32(c, a, b);
#else
    return vmlsq_f32(c, a, b);
#endif
}
/// a / b: AArch64 divides (FDIV, exact); ARMv7 NEON has no division: the reciprocal estimate and two Newton steps.
SARNN_NEON_INLINE F divide(F a, F b) noexcept {
#if defined(__aarch64__)
    return vdivq_f32(a, b);
#else
    F r = vrecpeq_f32(b);
    r = vmulq_f32(vrecpsq_f32(b, r), r);
    r = vmulq_f32(vrecpsq_f32(b, r), r);
    return vmulq_f32(a, r);
#endif
}
/// m ? a : b, lane by lane
SARNN_NEON_INLINE F select(uint32x4_t m, F a, F b) noexcept { return vbslq_f32(m, a, b); }

/// The vector operations of kernels/generic/float_math.hpp's exp, tanh and sigmoid on float32x4_t.
struct VecOps {
    using V = F;
    static SARNN_NEON_INLINE F splat(float s) noexcept { return vdupq_n_f32(s); }
    static SARNN_NEON_INLINE F add(F a, F b) noexcept { return vaddq_f32(a, b); }
    static SARNN_NEON_INLINE F sub(F a, F b) noexcept { return vsubq_f32(a, b); }
    static SARNN_NEON_INLINE F mul(F a, F b) noexcept { return vmulq_f32(a, b); }
    static SARNN_NEON_INLINE F divide(F a, F b) noexcept { return neon::divide(a, b); }
    static SARNN_NEON_INLINE F min(F a, F b) noexcept { return vminq_f32(a, b); }
    static SARNN_NEON_INLINE F max(F a, F b) noexcept { return vmaxq_f32(a, b); }
    static SARNN_NEON_INLINE F abs(F a) noexcept { return vabsq_f32(a); }
    static SARNN_NEON_INLINE F neg(F a) noexcept { return vnegq_f32(a); }
    static SARNN_NEON_INLINE F madd(F a, F b, F c) noexcept { return neon::madd(a, b, c); }
    static SARNN_NEON_INLINE F nmadd(F a, F b, F c) noexcept { return neon::nmadd(a, b, c); }
    /// 2^(n - 1): the bits (bits(t) + 126) << 23
    static SARNN_NEON_INLINE F pow2_from_magic(F t) noexcept {
        return vreinterpretq_f32_s32(vshlq_n_s32(vaddq_s32(vreinterpretq_s32_f32(t), vdupq_n_s32(126)), 23));
    }
    static SARNN_NEON_INLINE F exp_edges(F x, F lo, F y) noexcept {
        return select(vcltq_f32(x, lo), vdupq_n_f32(0.0f), select(vceqq_f32(x, x), y, x));
    }
    static SARNN_NEON_INLINE F select_lt(F a, F b, F p, F q) noexcept { return select(vcltq_f32(a, b), p, q); }
    static SARNN_NEON_INLINE F copy_sign(F m, F x) noexcept {
        const uint32x4_t sign = vandq_u32(vreinterpretq_u32_f32(x), vdupq_n_u32(0x80000000u));
        return vreinterpretq_f32_u32(vorrq_u32(vreinterpretq_u32_f32(m), sign));
    }
};

/// exp(x) within 2 ulp on [-86.5, 88.7], 0 below, +inf above, NaN through (kernels/generic/float_math.hpp)
SARNN_NEON_INLINE F exp(F x) noexcept { return float_math::exp<VecOps>(x); }
/// tanh(x) within 2 ulp, NaN through (kernels/generic/float_math.hpp)
SARNN_NEON_INLINE F tanh(F x) noexcept { return float_math::tanh<VecOps>(x); }
/// σ(x) = 1 / (1 + exp(-x))
SARNN_NEON_INLINE F sigmoid(F x) noexcept { return float_math::sigmoid<VecOps>(x); }

/// The vector at p, then p advanced past it: on ARMv7 one VLD1 with writeback (VLD1 takes no offset, and GCC 12
/// addresses an unrolled loop's loads from one base, with an address add before each), elsewhere a load and an add.
SARNN_NEON_INLINE F load_next(const float*& p) noexcept {
#if defined(__aarch64__)
    const F v = vld1q_f32(p);
    p += 4;
    return v;
#else
    F v;
    // the asm reads the 16 bytes at p (the "m" operand says so) and leaves p 16 bytes on
    __asm__("vld1.32 {%e0-%f0}, [%1]!" : "=w"(v), "+r"(p) : "m"(*reinterpret_cast<const float(*)[4]>(p)));
    return v;
#endif
}

/// The first N < 4 values at p in lanes 0..N-1, 0 in the others; reads exactly N values.
template <std::size_t N>
SARNN_NEON_INLINE F load_part(const float* p) noexcept {
    static_assert(N >= 1 && N <= 3, "sarnn: load_part<N>: 1 <= N <= 3");
    const float32x2_t zero = vdup_n_f32(0.0f);
    if constexpr (N == 1)
        return vcombine_f32(vld1_lane_f32(p, zero, 0), zero);
    else if constexpr (N == 2)
        return vcombine_f32(vld1_f32(p), zero);
    else
        return vcombine_f32(vld1_f32(p), vld1_lane_f32(p + 2, zero, 0));
}
/// Lanes 0..N-1 of s to p (N <= 4); writes exactly N values.
template <std::size_t N>
SARNN_NEON_INLINE void store_part(float* p, F s) noexcept {
    static_assert(N >= 1 && N <= 4, "sarnn: store_part<N>: 1 <= N <= 4");
    if constexpr (N == 4) {
        vst1q_f32(p, s);
    } else if constexpr (N == 1) {
        vst1q_lane_f32(p, s, 0);
    } else {
        vst1_f32(p, vget_low_f32(s));
        if constexpr (N == 3) vst1q_lane_f32(p + 2, s, 2);
    }
}

/// Lane k: the sum of the four lanes of a[k] (k < 4): the transposing sum of four rows' accumulators.
SARNN_NEON_INLINE F row_sums(F a0, F a1, F a2, F a3) noexcept {
#if defined(__aarch64__)
    return vpaddq_f32(vpaddq_f32(a0, a1), vpaddq_f32(a2, a3));
#else
    // [a_0 + a_2, a_1 + a_3] per row, then the pairs added across rows
    const float32x2_t t0 = vadd_f32(vget_low_f32(a0), vget_high_f32(a0));
    const float32x2_t t1 = vadd_f32(vget_low_f32(a1), vget_high_f32(a1));
    const float32x2_t t2 = vadd_f32(vget_low_f32(a2), vget_high_f32(a2));
    const float32x2_t t3 = vadd_f32(vget_low_f32(a3), vget_high_f32(a3));
    return vcombine_f32(vpadd_f32(t0, t1), vpadd_f32(t2, t3));
#endif
}

}  // namespace sarnn::kernel::neon

#endif
