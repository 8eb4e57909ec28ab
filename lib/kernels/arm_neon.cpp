// lib/kernels/arm_neon.cpp: the xsimd kernel set for 32-bit ARM NEON (compiled with -mfpu=neon).
// ARMv7 NEON has no double-precision lanes, so double uses the plain C++ set.
#include "kernels/scalar.hpp"
#include "kernels/sets.hpp"
#include "kernels/simd.hpp"

namespace sarnn::sets {
constexpr Kernels<float> neon_f = simd::Simd<xsimd::neon, float>::table(Arch::neon);
constexpr Kernels<double> neon_d = scalar::table<double>();
}  // namespace sarnn::sets
