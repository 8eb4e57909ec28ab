// lib/kernels/x86_avx512.cpp: the xsimd kernel set for x86 AVX-512 (compiled with -mavx512f -mavx512dq -mfma:
// xsimd 8.1's avx512f haddp uses AVX-512DQ instructions).
#include "kernels/sets.hpp"
#include "kernels/simd.hpp"

namespace sarnn::sets {
constexpr Kernels<float> avx512_f = simd::Simd<xsimd::avx512f, float>::table(Arch::avx512);
constexpr Kernels<double> avx512_d = simd::Simd<xsimd::avx512f, double>::table(Arch::avx512);
}  // namespace sarnn::sets
