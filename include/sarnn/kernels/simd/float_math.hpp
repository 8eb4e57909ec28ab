// sarnn/kernels/simd/float_math.hpp: exp and tanh of xsimd float batches for the kernels (softmax weights, the
// recurrent tanh, the LSTM gates, the additive scores): the polynomials of kernels/generic/float_math.hpp (shared
// with the shaped NEON kernels) on xsimd's operations; xsimd 8.1's cost 3-5x the instructions (its
// tanh: about 110 per NEON vector, its int <-> float bit casts through a table of function pointers that GCC does
// not inline on NEON), and its exp is +inf from 88.38 on. Included by xsimd_fixes.hpp, whose exp_safe calls exp_float
// for float on every arch and tanh_safe calls tanh_float on NEON (x86 keeps xsimd's tanh: there the time of the
// division, not the count of instructions, decides).
//
// Accuracy and the fitted coefficients: see there.
#ifndef SARNN_KERNELS_SIMD_FLOAT_MATH_HPP
#define SARNN_KERNELS_SIMD_FLOAT_MATH_HPP

#include <cstdint>
#include <cstring>
#include <type_traits>

#include <xsimd/xsimd.hpp>

#include "sarnn/kernels/generic/float_math.hpp"
#include "sarnn/kernels/simd/madd.hpp"
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

/// The vector operations of kernels/generic/float_math.hpp on xsimd::batch<float, A>.
template <class A>
struct BatchOps {
    using V = xsimd::batch<float, A>;
    static SARNN_FM_INLINE V splat(float s) { return V(s); }
    static SARNN_FM_INLINE V add(const V& a, const V& b) { return a + b; }
    static SARNN_FM_INLINE V sub(const V& a, const V& b) { return a - b; }
    static SARNN_FM_INLINE V mul(const V& a, const V& b) { return a * b; }
    static SARNN_FM_INLINE V divide(const V& a, const V& b) { return simd::divide(a, b); }
    static SARNN_FM_INLINE V min(const V& a, const V& b) { return xsimd::min(a, b); }
    static SARNN_FM_INLINE V max(const V& a, const V& b) { return xsimd::max(a, b); }
    static SARNN_FM_INLINE V abs(const V& a) { return xsimd::abs(a); }
    static SARNN_FM_INLINE V neg(const V& a) { return -a; }
    static SARNN_FM_INLINE V madd(const V& a, const V& b, const V& c) { return simd::madd(a, b, c); }
    static SARNN_FM_INLINE V nmadd(const V& a, const V& b, const V& c) { return simd::nmadd(a, b, c); }
    static SARNN_FM_INLINE V pow2_from_magic(const V& t) { return simd::pow2_from_magic(t); }
    /// 0 below the range, NaN stays NaN (isnan: xsimd 8.1's x != x is an ordered compare on AVX, false for NaN)
    static SARNN_FM_INLINE V exp_edges(const V& x, const V& lo, const V& y) {
        return xsimd::select(x < lo, V(0.0f), xsimd::select(xsimd::isnan(x), x, y));
    }
    static SARNN_FM_INLINE V select_lt(const V& a, const V& b, const V& p, const V& q) {
        return xsimd::select(a < b, p, q);
    }
    static SARNN_FM_INLINE V copy_sign(const V& m, const V& x) { return m | (x & V(-0.0f)); }
};

/// exp(x): kernels/generic/float_math.hpp's, on xsimd batches.
template <class A>
SARNN_FM_INLINE xsimd::batch<float, A> exp_float(const xsimd::batch<float, A>& x) {
    return kernel::float_math::exp<BatchOps<A>>(x);
}

/// tanh(x): kernels/generic/float_math.hpp's, on xsimd batches.
template <class A>
SARNN_FM_INLINE xsimd::batch<float, A> tanh_float(const xsimd::batch<float, A>& x) {
    return kernel::float_math::tanh<BatchOps<A>>(x);
}

#undef SARNN_FM_INLINE

}  // namespace
}  // namespace sarnn::simd

#endif
