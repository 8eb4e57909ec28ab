// sarnn/kernels/simd/xsimd_fixes.hpp: workarounds for bugs and slow spots of Debian's xsimd 8.1, kept apart from the
// kernels.
#ifndef SARNN_KERNELS_SIMD_XSIMD_FIXES_HPP
#define SARNN_KERNELS_SIMD_XSIMD_FIXES_HPP

#include <cstddef>
#include <type_traits>

#include <xsimd/xsimd.hpp>

#include "sarnn/kernels/simd/float_math.hpp"
#if defined(__aarch64__)
#include <arm_neon.h>
#endif
#if defined(__AVX512F__)
#include <immintrin.h>
#endif

namespace sarnn::simd {
namespace {  // NOLINT(cert-dcl59-cpp): internal linkage on purpose, as in simd.hpp (one copy per arch TU)

#if defined(__AVX512F__)
/// lane i = Σ row[i] for 16 rows of batch<float, avx512f>, as a tree of 4 levels: each level combines pairs of
/// vectors by one blend (ports 0 and 5), one shuffle (port 5) and one add, 45 instructions in all, 15 of them
/// shuffles. xsimd 8.1's haddp takes 51, 35 of them shuffles on port 5 (which also runs half the FMAs), and
/// returns lanes 2,3 <-> 4,5 and 10,11 <-> 12,13 swapped (seen on this machine). Measured on the Xeon: the
/// context of Hidden 64 in L1 (n = 128) 7% faster.
template <class A>
inline __attribute__((always_inline)) __m512 row_sums_avx512(const xsimd::batch<float, A>* r) {
    // level 1: lanes 0-7 sum the halves of row k, lanes 8-15 those of row k + 8
    __m512 x[8];
    for (int k = 0; k < 8; ++k)
        x[k] = _mm512_add_ps(_mm512_mask_blend_ps(0xFF00, r[k], r[k + 8]),
                             _mm512_shuffle_f32x4(r[k], r[k + 8], _MM_SHUFFLE(1, 0, 3, 2)));
    // level 2: 128-bit quarter q of y[k] sums the two quarters of x that hold row k + 4·q
    const __m512i pick2 = _mm512_setr_epi32(4, 5, 6, 7, 16, 17, 18, 19, 12, 13, 14, 15, 24, 25, 26, 27);
    __m512 y[4];
    for (int k = 0; k < 4; ++k)
        y[k] = _mm512_add_ps(_mm512_mask_blend_ps(0xF0F0, x[k], x[k + 4]),
                             _mm512_permutex2var_ps(x[k], pick2, x[k + 4]));
    // level 3: pairs of lanes
    __m512 z[2];
    for (int k = 0; k < 2; ++k)
        z[k] = _mm512_add_ps(_mm512_mask_blend_ps(0xCCCC, y[k], y[k + 2]),
                             _mm512_shuffle_ps(y[k], y[k + 2], _MM_SHUFFLE(1, 0, 3, 2)));
    // level 4: single lanes, now in row order
    const __m512i pick4 = _mm512_setr_epi32(1, 16, 3, 18, 5, 20, 7, 22, 9, 24, 11, 26, 13, 28, 15, 30);
    return _mm512_add_ps(_mm512_mask_blend_ps(0xAAAA, z[0], z[1]), _mm512_permutex2var_ps(z[0], pick4, z[1]));
}
#endif

/// lane i = Σ row[i]: xsimd::haddp, except for batch<float, avx512f> (row_sums_avx512 above) and
/// batch<float, neon64>: xsimd's is ARMv7's form (pairwise adds of 64-bit halves: 11 instructions on AArch64, 4 of
/// them moves of a high half), AArch64 adds pairs of whole vectors (FADDP): 3.
template <class T, class A>
__attribute__((always_inline)) inline xsimd::batch<T, A> row_sums(const xsimd::batch<T, A>* row) {
#if defined(__aarch64__)
    if constexpr (std::is_same_v<T, float> && std::is_base_of_v<xsimd::neon64, A>) {
        return xsimd::batch<T, A>(vpaddq_f32(vpaddq_f32(row[0], row[1]), vpaddq_f32(row[2], row[3])));
    } else
#endif
#if defined(__AVX512F__)
        if constexpr (std::is_same_v<T, float> && std::is_base_of_v<xsimd::avx512f, A>) {
        return row_sums_avx512(row);
    } else
#endif
    {
        return xsimd::haddp(row);
    }
}

/// xsimd::exp and xsimd::tanh with arguments clamped where the result no longer changes, NaN passed through.
/// xsimd 8.1's exp of batch<double> (also inside its tanh) converts round(x / ln 2) to int64 lane by lane in plain
/// C++ (x86 has no packed double->int64 conversion before AVX-512DQ); for |x| above about 6.4e18, and for NaN,
/// that conversion is undefined behaviour (found by fuzz/: UBSan "outside the range of representable values of
/// type 'long'"). The lanes it spoiled were then replaced by 0, inf or NaN, so results were right only by the
/// hardware's grace. exp is 0 / inf beyond -+800 and tanh is exactly -+1 beyond -+40 in double, so clamping
/// changes no result. float takes float_math.hpp's exp everywhere, its tanh on NEON (a third of xsimd's
/// instructions there), NaN passed through.
template <class T, class A>
__attribute__((always_inline)) inline xsimd::batch<T, A> exp_safe(const xsimd::batch<T, A>& x) {
    if constexpr (std::is_same_v<T, double>) {
        using B = xsimd::batch<T, A>;
        const auto nan = xsimd::isnan(x);
        const B clamped = xsimd::select(nan, B(0.0), xsimd::min(xsimd::max(x, B(-800.0)), B(800.0)));
        return xsimd::select(nan, x, xsimd::exp(clamped));
    } else {
        // ours on every arch: xsimd 8.1's float exp is +inf from 88.38 on, below ln FLT_MAX = 88.72 (found by
        // tests/test_kernels.cpp on x86)
        return exp_float(x);
    }
}
template <class T, class A>
__attribute__((always_inline)) inline xsimd::batch<T, A> tanh_safe(const xsimd::batch<T, A>& x) {
    if constexpr (std::is_same_v<T, double>) {
        using B = xsimd::batch<T, A>;
        const auto nan = xsimd::isnan(x);
        const B clamped = xsimd::select(nan, B(0.0), xsimd::min(xsimd::max(x, B(-40.0)), B(40.0)));
        return xsimd::select(nan, x, xsimd::tanh(clamped));
    } else if constexpr (std::is_base_of_v<xsimd::neon, A>) {
        // NEON: our own (float_math.hpp), a third of xsimd's instructions; it passes NaN through as std::tanh does
        return tanh_float(x);
    } else {
        // x86 keeps xsimd's: ours evaluates both of its branches and divides on every vector, and the AVX-512
        // division's throughput made the additive align's step 1.4x slower (measured side by side,
        // scripts/bench-compare). xsimd 8.1's float tanh turns NaN into a finite value on AVX2/AVX-512 (its
        // min/max clamp drops NaN): pass NaN through, as std::tanh does, so a step sees an overflowed
        // pre-activation on every set alike
        return xsimd::select(xsimd::isnan(x), x, xsimd::tanh(x));
    }
}

}  // namespace
}  // namespace sarnn::simd

#endif
