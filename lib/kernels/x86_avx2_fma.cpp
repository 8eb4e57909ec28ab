// lib/kernels/x86_avx2_fma.cpp: the xsimd kernel set for x86 AVX2 with FMA (compiled with -mavx2 -mfma).
#include "sarnn/kernels/generic/define_set.hpp"
#include "sarnn/kernels/simd/simd.hpp"

namespace sarnn::simd {
namespace {  // NOLINT(cert-dcl59-cpp): the set's internal linkage, as in simd.hpp
template <>
struct Tuning<xsimd::fma3<xsimd::avx2>> {
    static constexpr std::size_t vector_registers = 16;
    static constexpr bool walk_pointers = false;
    static constexpr bool load_pairs = false;
};
}  // namespace
}  // namespace sarnn::simd

namespace sarnn::kernel {
namespace {
template <class T>
using Impl = simd::Simd<xsimd::fma3<xsimd::avx2>, T>;
}  // namespace
SARNN_DEFINE_SET(Avx2Fma)
bool Avx2Fma::runs_here() noexcept { return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"); }
}  // namespace sarnn::kernel
