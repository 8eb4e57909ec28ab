// lib/kernels/x86_avx2_fma.cpp: the xsimd kernel set for x86 AVX2 with FMA (compiled with -mavx2 -mfma).
#include "kernels/sets.hpp"
#include "kernels/simd.hpp"

namespace sarnn::sets {
constexpr Kernels<float> avx2_fma_f = simd::Simd<xsimd::fma3<xsimd::avx2>, float>::table(Arch::avx2_fma);
constexpr Kernels<double> avx2_fma_d = simd::Simd<xsimd::fma3<xsimd::avx2>, double>::table(Arch::avx2_fma);
}  // namespace sarnn::sets
