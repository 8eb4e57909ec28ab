// lib/kernels/cortex_m0.cpp: kernel::CortexM0, the set for cores without an FPU (Cortex-M0, M0+, and the M3 or M4
// built with soft float): kernels/cortex_m/set.hpp with its sums of products in integers. double runs the
// scalar set's code.
#define SARNN_CM_SOFT_MACS 1
#include "sarnn/kernels/cortex_m/set.hpp"

#include <type_traits>

#include "sarnn/kernels/generic/define_set.hpp"

namespace sarnn::kernel {
namespace {
template <class T>
using Impl = std::conditional_t<std::is_same_v<T, float>, cm::Ops, scalar::Plain<T>>;
}  // namespace
SARNN_DEFINE_SET(CortexM0)
bool CortexM0::runs_here() noexcept { return true; }  // plain C++: every CPU
}  // namespace sarnn::kernel
