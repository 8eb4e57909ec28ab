// lib/kernels/scalar.cpp: the plain C++ kernel set, present on every target.
#include "sarnn/kernels/generic/define_set.hpp"
#include "sarnn/kernels/generic/scalar.hpp"

namespace sarnn::kernel {
namespace {
template <class T>
using Impl = scalar::Plain<T>;
}  // namespace
SARNN_DEFINE_SET(Scalar)
bool Scalar::runs_here() noexcept { return true; }
}  // namespace sarnn::kernel
