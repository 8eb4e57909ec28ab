// lib/kernels/scalar.cpp: the plain C++ kernel set, present on every target.
#include "kernels/scalar.hpp"
#include "kernels/sets.hpp"

namespace sarnn::sets {
constexpr Kernels<float> scalar_f = scalar::table<float>();
constexpr Kernels<double> scalar_d = scalar::table<double>();
}  // namespace sarnn::sets
