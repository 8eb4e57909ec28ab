// lib/fixed.cpp: the integer activations of include/sarnn/fixed.hpp. Integers only: every line has its twin in
// python/sarnn/q15.py, which must compute the same integers (tests/test_fixed.cpp and python/tests/test_fixed.py).
// Shifts are applied to non-negative values only (no implementation-defined right shift of a negative number),
// and no intermediate can overflow (bounds beside each line).
#include "sarnn/fixed.hpp"

#include "sarnn/kernels/q15/exp.hpp"
#include "sarnn/kernels/q15/requantize.hpp"
#include "sarnn/kernels/q15/tanh.hpp"

#include <cstdint>
#include <climits>

namespace sarnn::fixed {
namespace detail {

// kTanhTable and kExp2Table have external linkage (declared extern in kernels/q15/tanh.hpp and kernels/q15/exp.hpp, for the
// q15 kernels)
#include "sarnn/kernels/q15/fixed_tables.inc"

}  // namespace detail

std::int16_t tanh_q15(std::int16_t z) noexcept {
    // kernels/q15/tanh.hpp: interpolated between tanh(i / 64) and tanh((i + 1) / 64), i = |z| / 64
    return static_cast<std::int16_t>(detail::tanh_wide(z));
}

std::int16_t sigmoid_q15(std::int16_t z) noexcept {
    // kernels/q15/tanh.hpp: (1 + tanh(z / 2)) / 2, tanh interpolated from the table's entries every 128 LSB of |z|
    return static_cast<std::int16_t>(detail::sigmoid_inline(z));
}

std::int32_t exp_q16(std::int32_t d) noexcept {
    // kernels/q15/exp.hpp: 2^-t interpolated from the table, t = -d · log2(e)
    return detail::exp_q16_inline(d);
}

std::int32_t requantize(std::int32_t acc, std::int32_t multiplier, int shift) noexcept {
    // in 32-bit operations only (kernels/q15/requantize.hpp), as the q15 kernels call it
    return detail::requantize(acc, multiplier, shift);
}

std::int16_t requantize_q15(std::int32_t acc, std::int32_t multiplier, int shift) noexcept {
    const std::int32_t r = requantize(acc, multiplier, shift);
    return static_cast<std::int16_t>(r > 32767 ? 32767 : (r < -32768 ? -32768 : r));
}

}  // namespace sarnn::fixed
