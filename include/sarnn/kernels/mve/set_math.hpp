// sarnn/kernels/mve/set_math.hpp: exp, tanh, sigmoid and 1/d on four floats at a time with Helium (MVE float), for
// the mve set (mve/set.hpp). The forms are the cortex-m set's (cortex_m/set.hpp), lane by lane:
//   exp(x)     = 2^k·e^r, k = round(x/ln2), r = x - k·ln2 (ln2 in two parts), e^r by its Taylor polynomial of
//                degree 6, 2^k built in the exponent bits; the vector form for x in [-87, 88], cm::exp lane by lane
//                for a vector with any lane outside (the edges, Inf, NaN: rare in a step).
//   recip(d)   = 1/d for d in [1, 2^126]: the exponent-bits guess 0x7EF311C3 - bits(d) (relative error below
//                1/8), then three Newton steps r <- r·(2 - d·r) (the error squares each step: below 1e-7, then a
//                few roundings). MVE has no vector divide.
//   tanh(x)    = 1 - 2/(e^{2|x|} + 1) with the sign of x, |x| clamped to 9.1 (from where tanh rounds to ±1 in
//                float); a NaN lane keeps its NaN.
//   sigmoid(x) = 1/(1 + e^{-x}), x clamped to [-80, 80] (beyond, the result moves by less than 2e-35); a NaN lane
//                keeps its NaN.
// Errors against double (the firmware tests' models check them through every step): exp as cm::exp (2.5e-7
// relative), tanh and sigmoid within 2e-7 absolute.
#ifndef SARNN_KERNELS_MVE_SET_MATH_HPP
#define SARNN_KERNELS_MVE_SET_MATH_HPP

#include <arm_mve.h>

#include <cstdint>

#define SARNN_CM_SOFT_MACS 0
#include "sarnn/kernels/mve/set_loops.hpp"
#include "sarnn/kernels/cortex_m/set.hpp"

namespace sarnn::kernel {
namespace {  // NOLINT(cert-dcl59-cpp): one copy, in the mve set's file
namespace mve {

using f32x4 = float32x4_t;
constexpr mve_pred16_t kAll = 0xFFFF;

/// f(x) lane by lane with a scalar function (the rare vectors the vector forms do not take).
template <class F>
inline f32x4 lanes_by(f32x4 x, F f) {
    alignas(16) float t[4];
    vst1q_f32(t, x);
    touch(t);
    for (float& v : t) v = f(v);
    return load_after_stores(t);
}

/// e^x for every lane in [-87, 88].
inline f32x4 exp_in_range(f32x4 x) {
    constexpr float kMagic = 12582912.0f;  // 1.5·2^23: adding it rounds to an integer
    // t = x·log2(e) + 1.5·2^23, k = t - 1.5·2^23
    const f32x4 t = vfmasq_n_f32(x, vdupq_n_f32(1.44269504f), kMagic);
    const f32x4 kf = vsubq_n_f32(t, kMagic);
    // 2^k: the low bits of t are k, shifted into the exponent field
    const f32x4 two_k = vreinterpretq_f32_u32(
        vaddq_n_u32(vshlq_n_u32(vreinterpretq_u32_f32(t), 23), 127u << 23));
    // r = x - k·ln2
    f32x4 r = vfmaq_n_f32(x, kf, -0.693145751953125f);
    r = vfmaq_n_f32(r, kf, -1.428606765330187e-06f);
    // e^r = 1 + r + r²/2! + ... + r^6/6! (Horner: p <- p·r + c)
    f32x4 p = vdupq_n_f32(1.0f / 720.0f);
    p = vfmasq_n_f32(p, r, 1.0f / 120.0f);
    p = vfmasq_n_f32(p, r, 1.0f / 24.0f);
    p = vfmasq_n_f32(p, r, 1.0f / 6.0f);
    p = vfmasq_n_f32(p, r, 0.5f);
    p = vfmasq_n_f32(p, r, 1.0f);
    p = vfmasq_n_f32(p, r, 1.0f);
    return vmulq_f32(p, two_k);
}

/// e^x, every x (underflow 0, overflow +inf, NaN NaN).
inline f32x4 exp(f32x4 x) {
    const mve_pred16_t in = vcmpleq_m_n_f32(x, 88.0f, vcmpgeq_n_f32(x, -87.0f));
    if (in == kAll) return exp_in_range(x);
    return lanes_by(x, [](float v) { return cm::exp(v); });
}

/// 1/d for every lane in [1, 2^126].
inline f32x4 recip(f32x4 d) {
    f32x4 r = vreinterpretq_f32_u32(vsubq_u32(vdupq_n_u32(0x7EF311C3u), vreinterpretq_u32_f32(d)));
    const f32x4 two = vdupq_n_f32(2.0f);
    // r <- r·(2 - d·r)
    r = vmulq_f32(r, vfmsq_f32(two, d, r));
    r = vmulq_f32(r, vfmsq_f32(two, d, r));
    r = vmulq_f32(r, vfmsq_f32(two, d, r));
    return r;
}

inline f32x4 tanh(f32x4 x) {
    const f32x4 a = vminnmq_f32(vabsq_f32(x), vdupq_n_f32(9.1f));  // NaN gives 9.1 here, and x back at the end
    // t = 1 - 2/(e^{2a} + 1), then the sign of x
    const f32x4 e = exp_in_range(vaddq_f32(a, a));
    const f32x4 t = vfmaq_n_f32(vdupq_n_f32(1.0f), recip(vaddq_n_f32(e, 1.0f)), -2.0f);
    const uint32x4_t sign = vandq_u32(vreinterpretq_u32_f32(x), vdupq_n_u32(0x80000000u));
    return vpselq_f32(vreinterpretq_f32_u32(vorrq_u32(vreinterpretq_u32_f32(t), sign)), x, vcmpeqq_f32(x, x));
}

inline f32x4 sigmoid(f32x4 x) {
    const f32x4 c = vmaxnmq_f32(vminnmq_f32(x, vdupq_n_f32(80.0f)), vdupq_n_f32(-80.0f));  // NaN: x at the end
    // 1/(1 + e^{-x})
    return vpselq_f32(recip(vaddq_n_f32(exp_in_range(vnegq_f32(c)), 1.0f)), x, vcmpeqq_f32(x, x));
}

}  // namespace mve
}  // namespace
}  // namespace sarnn::kernel

#endif
