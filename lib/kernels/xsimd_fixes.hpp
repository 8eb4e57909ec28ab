// lib/kernels/xsimd_fixes.hpp: workarounds for bugs of Debian's xsimd 8.1, kept apart from the kernels.
#ifndef SARNN_LIB_KERNELS_XSIMD_FIXES_HPP
#define SARNN_LIB_KERNELS_XSIMD_FIXES_HPP

#include <cstddef>
#include <type_traits>

#include <xsimd/xsimd.hpp>

namespace sarnn::simd {
namespace {

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

}  // namespace
}  // namespace sarnn::simd

#endif
