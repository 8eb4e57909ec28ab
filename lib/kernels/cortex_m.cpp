// lib/kernels/cortex_m.cpp: kernel::CortexM, the set for cores with a single-precision FPU and no SIMD (Cortex-M4F,
// M7): kernels/cortex_m/set.hpp with float arithmetic in the FPU. double runs the scalar set's code.
#include "sarnn/config.hpp"

// The packages compile every file of lib/ they hold; their config.hpp (packaging/include) leaves this set out where
// float is in software (SARNN_CORTEX_M_SET_OUT), as cmake/SarnnArch.cmake does, and the file is then empty.
#if !defined(SARNN_CORTEX_M_SET_OUT)
#define SARNN_CM_SOFT_MACS 0
#include "sarnn/kernels/cortex_m/set.hpp"

#include <type_traits>

#include "sarnn/kernels/generic/define_set.hpp"

namespace sarnn::kernel {
namespace {
template <class T>
using Impl = std::conditional_t<std::is_same_v<T, float>, cm::Ops, scalar::Plain<T>>;
}  // namespace
SARNN_DEFINE_SET(CortexM)
bool CortexM::runs_here() noexcept { return true; }  // plain C++: every CPU
}  // namespace sarnn::kernel
#endif
