// lib/kernels/arm_neon64.cpp: the xsimd kernel set for AArch64 Advanced SIMD (part of every AArch64 core).
#include "sarnn/kernels/generic/define_set.hpp"
#include "sarnn/kernels/simd/simd.hpp"

namespace sarnn::simd {
namespace {  // NOLINT(cert-dcl59-cpp): the set's internal linkage, as in simd.hpp
template <>
struct Tuning<xsimd::neon64> {
    static constexpr std::size_t vector_registers = 32;
    static constexpr bool walk_pointers = false;
    static constexpr bool load_pairs = true;  // LDP with post-index
};
}  // namespace
}  // namespace sarnn::simd

namespace sarnn::kernel {
namespace {
template <class T>
using Impl = simd::Simd<xsimd::neon64, T>;
}  // namespace
SARNN_DEFINE_SET(Neon64)
bool Neon64::runs_here() noexcept { return true; }
}  // namespace sarnn::kernel
