// lib/kernels/x86_sse2.cpp: the xsimd kernel set for x86 SSE2 (compiled with -msse2).
#include "kernels/sets.hpp"
#include "kernels/simd.hpp"

namespace sarnn::sets {
constexpr Kernels<float> sse2_f = simd::Simd<xsimd::sse2, float>::table(Arch::sse2);
constexpr Kernels<double> sse2_d = simd::Simd<xsimd::sse2, double>::table(Arch::sse2);
}  // namespace sarnn::sets
