// lib/fixed.cpp: the integer activations of include/sarnn/fixed.hpp. Integers only: every line has its twin in
// python/sarnn/fixed.py, which must compute the same integers (tests/test_fixed.cpp and python/tests/test_fixed.py).
// Shifts are applied to non-negative values only (no implementation-defined right shift of a negative number),
// and no intermediate can overflow (bounds beside each line).
#include "sarnn/fixed.hpp"

#include "kernels/exp_table.hpp"
#include "kernels/requantize.hpp"
#include "kernels/tanh.hpp"

#include <cstdint>
#include <climits>

namespace sarnn::fixed {
namespace detail {

// both tables have external linkage (declared extern in kernels/tanh.hpp and kernels/exp_table.hpp, for the q15
// kernels)
#include "fixed_tables.inc"

}  // namespace detail
namespace {

using detail::interpolate;
using detail::kExp2Table;
using detail::kTanhSegmentBits;
using detail::kTanhTable;

constexpr int kExp2SegmentBits = 8;   // 2^(-i / 256)
constexpr std::uint32_t kLog2eQ16 = 94548;  // round(log2(e) · 65536)
constexpr std::uint32_t kExpZeroBelow = 12u * 65536u;  // e^-12 · 65536 = 0.40 < 0.5: the nearest Q16 value is 0

}  // namespace

std::int16_t tanh_q15(std::int16_t z) noexcept {
    // kernels/tanh.hpp: interpolated between tanh(i / 64) and tanh((i + 1) / 64), i = |z| / 64
    return static_cast<std::int16_t>(detail::tanh_wide(z));
}

std::int16_t sigmoid_q15(std::int16_t z) noexcept {
    const std::uint32_t a = z < 0 ? static_cast<std::uint32_t>(-static_cast<std::int32_t>(z)) : static_cast<std::uint32_t>(z);
    // t = tanh(a / 8192): the table's entries every 128 LSB of a (a <= 32768: i <= 256)
    const std::uint32_t i = a >> (kTanhSegmentBits + 1), frac = a & ((1u << (kTanhSegmentBits + 1)) - 1u);
    const std::int32_t t = interpolate(kTanhTable, i, frac, kTanhSegmentBits + 1);
    // sigmoid(z) = (1 + tanh(z / 2)) / 2, rounded half up; 32768 +- t is in 1 .. 65535
    const std::int32_t y = static_cast<std::int32_t>(static_cast<std::uint32_t>(z >= 0 ? 32768 + t + 1 : 32768 - t + 1) >> 1);
    return static_cast<std::int16_t>(y > 32767 ? 32767 : y);
}

std::int32_t exp_q16(std::int32_t d) noexcept {
    if (d >= 0) return 65536;
    // y = -d > 0; below -12 the nearest Q16 value is 0 (this also keeps -d from overflowing for INT32_MIN)
    if (d <= -static_cast<std::int32_t>(kExpZeroBelow)) return 0;
    const auto y = static_cast<std::uint32_t>(-d);  // < 12 · 2^16
    // t = y · log2(e) in Q16, rounded: y · 94548 < 2^37, in 32-bit pieces (a 64-bit multiply is a library call on
    // the M0/M0+): y = yh·2^10 + yl, a = yh·94548 < 2^27, b = yl·94548 + 2^15 < 2^27, and
    // (a·2^10 + b) >> 16 = (a >> 6) + (((a & 63) << 10) + b) >> 16
    const std::uint32_t a = (y >> 10) * kLog2eQ16, b = (y & 1023u) * kLog2eQ16 + (1u << 15);
    const std::uint32_t t = (a >> 6) + ((((a & 63u) << 10) + b) >> 16);
    // e^-y = 2^-t = 2^-k · 2^-f, k = t >> 16 (< 18), f = the fraction of t in Q16
    const std::uint32_t k = t >> 16, f = t & 0xFFFFu;
    const std::uint32_t i = f >> kExp2SegmentBits, frac = f & ((1u << kExp2SegmentBits) - 1u);
    const auto m = static_cast<std::uint32_t>(interpolate(kExp2Table, i, frac, kExp2SegmentBits));  // 2^-f in Q16
    // m · 2^-k, rounded half up
    return static_cast<std::int32_t>(k > 0 ? (m + (1u << (k - 1))) >> k : m);
}

std::int32_t requantize(std::int32_t acc, std::int32_t multiplier, int shift) noexcept {
    // in 32-bit operations only (lib/kernels/requantize.hpp), as the q15 kernels call it
    return detail::requantize(acc, multiplier, shift);
}

std::int16_t requantize_q15(std::int32_t acc, std::int32_t multiplier, int shift) noexcept {
    const std::int32_t r = requantize(acc, multiplier, shift);
    return static_cast<std::int16_t>(r > 32767 ? 32767 : (r < -32768 ? -32768 : r));
}

}  // namespace sarnn::fixed
