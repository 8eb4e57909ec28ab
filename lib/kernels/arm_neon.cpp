// lib/kernels/arm_neon.cpp: the xsimd kernel set for 32-bit ARM NEON (compiled with -mfpu=neon).
// ARMv7 NEON has no double-precision lanes, so double runs the plain C++ code (Neon::double_arch is scalar).
#include <type_traits>

#include "sarnn/kernels/generic/define_set.hpp"
#include "sarnn/kernels/generic/scalar.hpp"
#include "sarnn/kernels/simd/simd.hpp"

namespace sarnn::simd {
namespace {  // NOLINT(cert-dcl59-cpp): the set's internal linkage, as in simd.hpp
template <>
struct Tuning<xsimd::neon> {
    static constexpr std::size_t vector_registers = 16;
    static constexpr bool walk_pointers = true;  // VLD1 has no offset form
    static constexpr bool load_pairs = false;
};
}  // namespace
}  // namespace sarnn::simd

namespace sarnn::kernel {
namespace {
template <class T>
using Impl = std::conditional_t<std::is_same_v<T, float>, simd::Simd<xsimd::neon, float>, scalar::Plain<T>>;
}  // namespace
SARNN_DEFINE_SET(Neon)
bool Neon::runs_here() noexcept { return true; }  // the build's -mfpu=neon already requires it
}  // namespace sarnn::kernel
