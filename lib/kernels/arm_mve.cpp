// lib/kernels/arm_mve.cpp: kernel::Mve, the set for cores with Helium, the M-profile Vector Extension with float
// (Cortex-M55, M85): kernels/mve/set.hpp, four floats per vector. double runs the scalar set's code (MVE has
// no double lanes).
#include "sarnn/kernels/mve/set.hpp"

#include <type_traits>

#include "sarnn/kernels/generic/define_set.hpp"

namespace sarnn::kernel {
namespace {
template <class T>
using Impl = std::conditional_t<std::is_same_v<T, float>, mve::Ops, scalar::Plain<T>>;
}  // namespace
SARNN_DEFINE_SET(Mve)
bool Mve::runs_here() noexcept { return true; }  // built only for targets with MVE float
}  // namespace sarnn::kernel
