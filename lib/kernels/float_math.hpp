// lib/kernels/float_math.hpp: exp and tanh of xsimd float batches for the kernels (softmax weights, the recurrent
// tanh, the LSTM gates, the additive scores), our own polynomials; xsimd 8.1's cost 3-5x the instructions (its
// tanh: about 110 per NEON vector, its int <-> float bit casts through a table of function pointers that GCC does
// not inline on NEON), and its exp is +inf from 88.38 on. Included by xsimd_fixes.hpp, whose exp_safe calls exp_float
// for float on every arch and tanh_safe calls tanh_float on NEON (x86 keeps xsimd's tanh: there the time of the
// division, not the count of instructions, decides).
//
// Accuracy, measured against double over [-88, 88] (tests/test_kernels.cpp checks the same bounds on every set):
// exp within 2 ulp (relative 2.4e-7) for x in [-86.5, 88.7]; below -86.5 (results under 2^-124) it returns 0, above
// 88.72 +inf.
// tanh within 2 ulp; both pass NaN through, exp(+inf) = +inf, exp(-inf) = 0, tanh(+-inf) = +-1.
// The coefficients were fitted for sarnn (least squares on Chebyshev nodes, relative weight, then checked in
// float arithmetic).
#ifndef SARNN_LIB_KERNELS_FLOAT_MATH_HPP
#define SARNN_LIB_KERNELS_FLOAT_MATH_HPP

#include <cstdint>
#include <cstring>
#include <type_traits>

#include <xsimd/xsimd.hpp>

#include "kernels/madd.hpp"
#if defined(__SSE2__)
#include <immintrin.h>
#endif
#if defined(__ARM_NEON)
#include <arm_neon.h>
#endif

namespace sarnn::simd {
namespace {  // NOLINT(cert-dcl59-cpp): internal linkage on purpose, as in simd.hpp (one copy per arch TU)

#define SARNN_FM_INLINE __attribute__((always_inline)) inline

/// 2^(n - 1) for the float t = n + 1.5·2^23 (n an integer in [-125, 128]), whose low mantissa bits hold n:
/// the bits (bits(t) + 126) << 23 (the shift drops the magic number's bits). One integer add and one shift, in
/// the arch's own instructions.
template <class A>
SARNN_FM_INLINE xsimd::batch<float, A> pow2_from_magic(const xsimd::batch<float, A>& t) {
    using B = xsimd::batch<float, A>;
#if defined(__AVX512F__)
    if constexpr (std::is_base_of_v<xsimd::avx512f, A>) {
        return B(_mm512_castsi512_ps(
            _mm512_slli_epi32(_mm512_add_epi32(_mm512_castps_si512(t), _mm512_set1_epi32(126)), 23)));
    } else
#endif
#if defined(__AVX2__)
    if constexpr (std::is_base_of_v<xsimd::avx2, A>) {
        return B(_mm256_castsi256_ps(
            _mm256_slli_epi32(_mm256_add_epi32(_mm256_castps_si256(t), _mm256_set1_epi32(126)), 23)));
    } else
#endif
#if defined(__SSE2__)
    if constexpr (std::is_base_of_v<xsimd::sse2, A>) {
        return B(_mm_castsi128_ps(_mm_slli_epi32(_mm_add_epi32(_mm_castps_si128(t), _mm_set1_epi32(126)), 23)));
    } else
#endif
#if defined(__ARM_NEON)
    if constexpr (std::is_base_of_v<xsimd::neon, A>) {
        return B(vreinterpretq_f32_s32(vshlq_n_s32(vaddq_s32(vreinterpretq_s32_f32(t), vdupq_n_s32(126)), 23)));
    } else
#endif
    {
        alignas(A::alignment()) float lanes[B::size];
        t.store_aligned(lanes);
        for (float& v : lanes) {
            std::uint32_t u = 0;
            std::memcpy(&u, &v, sizeof u);
            u = (u + 126u) << 23;
            std::memcpy(&v, &u, sizeof u);
        }
        return B::load_aligned(lanes);
    }
}

/// exp(x) = 2^n · exp(r), n = round(x / ln 2), r = x - n·ln 2 in [-ln 2 / 2, ln 2 / 2]; 2·exp(r) by a polynomial,
/// times 2^(n - 1) (so that n = 128 still has an exponent). Underflow (x < -86.5) gives 0; x is clamped at 89,
/// where n = 128 and the product overflows to +inf as it should (for x > ln FLT_MAX = 88.72).
template <class A>
SARNN_FM_INLINE xsimd::batch<float, A> exp_float(const xsimd::batch<float, A>& x) {
    using B = xsimd::batch<float, A>;
    const B lo(-86.5f), hi(89.0f);
    const B xc = xsimd::min(xsimd::max(x, lo), hi);  // a NaN lane is replaced at the end
    // t = x / ln 2 + 1.5·2^23 rounds x / ln 2 to an integer n in t's low mantissa bits
    const B magic(12582912.0f);
    const B t = madd(xc, B(1.44269504088896341f), magic);
    const B n = t - magic;
    // r = x - n·ln 2, ln 2 in two parts: n·0.693145751953125 (15 bits) is exact
    B r = nmadd(n, B(0.693145751953125f), xc);
    r = nmadd(n, B(1.428606765330187e-6f), r);
    // 2·exp(r) = 2 + 2r + r^2·(2·Q(r)), Q fitted to (exp(r) - 1 - r) / r^2
    B q = madd(B(2.75028158e-3f), r, B(1.67378326e-2f));
    q = madd(q, r, B(8.33390662e-2f));
    q = madd(q, r, B(3.33330369e-1f));
    q = madd(q, r, B(9.99999772e-1f));
    const B e2 = madd(r * r, q, madd(r, B(2.0f), B(2.0f)));
    const B y = e2 * pow2_from_magic(t);
    // exp(x) = 0 below the range, NaN stays NaN (isnan: xsimd 8.1's x != x is an ordered compare on AVX, false
    // for NaN)
    return xsimd::select(x < lo, B(0.0f), xsimd::select(xsimd::isnan(x), x, y));
}

/// tanh(x): x + x^3·P(x^2) for |x| < 0.5 (P fitted to (tanh(x) - x) / x^3), else sign(x)·(1 - 2 / (exp(2|x|) + 1)).
template <class A>
SARNN_FM_INLINE xsimd::batch<float, A> tanh_float(const xsimd::batch<float, A>& x) {
    using B = xsimd::batch<float, A>;
    const B sign_bit(-0.0f);
    const B ax = xsimd::abs(x);
    // the small branch
    const B z = x * x;
    B p = madd(B(1.76143597e-2f), z, B(-5.32246726e-2f));
    p = madd(p, z, B(1.33284762e-1f));
    p = madd(p, z, B(-3.33332508e-1f));
    const B small = madd(x * z, p, x);
    // the large branch: exp(2|x|) is +inf for |x| > 44.4, where 1 - 2 / (inf + 1) = 1
    const B e = exp_float(ax + ax);
    const B large = B(1.0f) - divide(B(2.0f), e + B(1.0f));
    const B signed_large = large | (x & sign_bit);
    // NaN: ax < 0.5 is false and e is NaN, so the large branch carries it
    return xsimd::select(ax < B(0.5f), small, signed_large);
}

#undef SARNN_FM_INLINE

}  // namespace
}  // namespace sarnn::simd

#endif
