// lib/kernels/arm_neon64.cpp: the xsimd kernel set for AArch64 Advanced SIMD.
#include "kernels/sets.hpp"
#include "kernels/simd.hpp"

namespace sarnn::sets {
constexpr Kernels<float> neon64_f = simd::Simd<xsimd::neon64, float>::table(Arch::neon64);
constexpr Kernels<double> neon64_d = simd::Simd<xsimd::neon64, double>::table(Arch::neon64);
}  // namespace sarnn::sets
