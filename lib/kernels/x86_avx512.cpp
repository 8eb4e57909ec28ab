// lib/kernels/x86_avx512.cpp: the xsimd kernel set for x86 AVX-512 (compiled with -mavx512f -mavx512dq -mfma:
// xsimd 8.1's avx512f haddp uses AVX-512DQ instructions).
#include "sarnn/kernels/generic/define_set.hpp"
#include "sarnn/kernels/simd/simd.hpp"

namespace sarnn::simd {
namespace {  // NOLINT(cert-dcl59-cpp): the set's internal linkage, as in simd.hpp
template <>
struct Tuning<xsimd::avx512f> {
    static constexpr std::size_t vector_registers = 32;
    static constexpr bool walk_pointers = false;
    static constexpr bool load_pairs = false;
};
}  // namespace
}  // namespace sarnn::simd

namespace sarnn::kernel {
namespace {
template <class T>
using Impl = simd::Simd<xsimd::avx512f, T>;
}  // namespace
SARNN_DEFINE_SET(Avx512)
bool Avx512::runs_here() noexcept { return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq"); }
}  // namespace sarnn::kernel
