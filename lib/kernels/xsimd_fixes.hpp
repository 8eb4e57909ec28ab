// lib/kernels/xsimd_fixes.hpp: workarounds for bugs of Debian's xsimd 8.1, kept apart from the kernels.
#ifndef SARNN_LIB_KERNELS_XSIMD_FIXES_HPP
#define SARNN_LIB_KERNELS_XSIMD_FIXES_HPP

#include <cstddef>
#include <type_traits>

#include <xsimd/xsimd.hpp>

namespace sarnn::simd {
namespace {  // NOLINT(cert-dcl59-cpp): internal linkage on purpose, as in simd.hpp (one copy per arch TU)

/// lane i = Σ row[i] (xsimd::haddp with its bugs fixed).
/// xsimd 8.1's haddp for batch<float, avx512f> returns lanes 2,3 <-> 4,5 and 10,11 <-> 12,13 swapped (seen on
/// this machine: sums of 16 rows came back in the order 0 1 4 5 2 3 6 7 8 9 12 13 10 11 14 15). The swap is its
/// own inverse, so handing it the rows in that order gives the sums in the right one.
template <class T, class A>
__attribute__((always_inline)) inline xsimd::batch<T, A> row_sums(const xsimd::batch<T, A>* row) {
    if constexpr (std::is_same_v<T, float> && std::is_base_of_v<xsimd::avx512f, A>) {
        constexpr std::size_t order[16] = {0, 1, 4, 5, 2, 3, 6, 7, 8, 9, 12, 13, 10, 11, 14, 15};
        xsimd::batch<T, A> shuffled[16];
        for (std::size_t k = 0; k < 16; ++k) shuffled[k] = row[order[k]];
        return xsimd::haddp(shuffled);
    } else {
        return xsimd::haddp(row);
    }
}

/// xsimd::exp and xsimd::tanh with arguments clamped where the result no longer changes, NaN passed through.
/// xsimd 8.1's exp of batch<double> (also inside its tanh) converts round(x / ln 2) to int64 lane by lane in plain
/// C++ (x86 has no packed double->int64 conversion before AVX-512DQ); for |x| above about 6.4e18, and for NaN,
/// that conversion is undefined behaviour (found by fuzz/: UBSan "outside the range of representable values of
/// type 'long'"). The lanes it spoiled were then replaced by 0, inf or NaN, so results were right only by the
/// hardware's grace. exp is 0 / inf beyond -+800 and tanh is exactly -+1 beyond -+40 in double, so clamping
/// changes no result. float needs nothing: its conversion is one packed instruction.
template <class T, class A>
__attribute__((always_inline)) inline xsimd::batch<T, A> exp_safe(const xsimd::batch<T, A>& x) {
    if constexpr (std::is_same_v<T, double>) {
        using B = xsimd::batch<T, A>;
        const auto nan = xsimd::isnan(x);
        const B clamped = xsimd::select(nan, B(0.0), xsimd::min(xsimd::max(x, B(-800.0)), B(800.0)));
        return xsimd::select(nan, x, xsimd::exp(clamped));
    } else {
        return xsimd::exp(x);
    }
}
template <class T, class A>
__attribute__((always_inline)) inline xsimd::batch<T, A> tanh_safe(const xsimd::batch<T, A>& x) {
    if constexpr (std::is_same_v<T, double>) {
        using B = xsimd::batch<T, A>;
        const auto nan = xsimd::isnan(x);
        const B clamped = xsimd::select(nan, B(0.0), xsimd::min(xsimd::max(x, B(-40.0)), B(40.0)));
        return xsimd::select(nan, x, xsimd::tanh(clamped));
    } else {
        return xsimd::tanh(x);
    }
}

}  // namespace
}  // namespace sarnn::simd

#endif
