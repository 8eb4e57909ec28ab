// lib/kernels/x86_sse2.cpp: the xsimd kernel set for x86 SSE2 (compiled with -msse2).
#include "sarnn/kernels/generic/define_set.hpp"
#include "sarnn/kernels/simd/simd.hpp"

namespace sarnn::simd {
namespace {  // NOLINT(cert-dcl59-cpp): the set's internal linkage, as in simd.hpp
template <>
struct Tuning<xsimd::sse2> {
#if defined(__x86_64__)
    static constexpr std::size_t vector_registers = 16;
#else
    static constexpr std::size_t vector_registers = 8;  // i686
#endif
    static constexpr bool walk_pointers = false;
    static constexpr bool load_pairs = false;
};
}  // namespace
}  // namespace sarnn::simd

namespace sarnn::kernel {
namespace {
template <class T>
using Impl = simd::Simd<xsimd::sse2, T>;
}  // namespace
SARNN_DEFINE_SET(Sse2)
#if defined(__x86_64__)
bool Sse2::runs_here() noexcept { return __builtin_cpu_supports("sse2"); }
#else
bool Sse2::runs_here() noexcept { return true; }        // i686: the build's -msse2 already requires it
#endif
}  // namespace sarnn::kernel
