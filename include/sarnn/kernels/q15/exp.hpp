// sarnn/kernels/q15/exp.hpp: exp_q16 (include/sarnn/fixed.hpp), inline: the one definition behind fixed::exp_q16
// (lib/fixed.cpp) and the q15 softmax (kernels/q15/attention.hpp), where a call per stored state cost about a fifth
// of the exponential. The table is lib/fixed.cpp's.
#ifndef SARNN_KERNELS_Q15_EXP_HPP
#define SARNN_KERNELS_Q15_EXP_HPP

#include <cstdint>

#include "sarnn/kernels/q15/tanh.hpp"  // interpolate

namespace sarnn::fixed::detail {

/// 2^(-i / 256) in Q16, i = 0..256 (kernels/q15/fixed_tables.inc, defined in lib/fixed.cpp)
extern const std::uint32_t kExp2Table[257];
constexpr int kExp2SegmentBits = 8;                    // 2^(-i / 256)
constexpr std::uint32_t kLog2eQ16 = 94548;             // round(log2(e) · 65536)
constexpr std::uint32_t kExpZeroBelow = 12u * 65536u;  // e^-12 · 65536 = 0.40 < 0.5: the nearest Q16 value is 0

/// e^(d / 65536) in Q16 for d <= 0 (65536 for d >= 0), rounded as exp_q16's contract states
__attribute__((always_inline)) inline std::int32_t exp_q16_inline(std::int32_t d) noexcept {
    if (d >= 0) return 65536;
    // y = -d > 0; below -12 the nearest Q16 value is 0 (this also keeps -d from overflowing for INT32_MIN)
    if (d <= -static_cast<std::int32_t>(kExpZeroBelow)) return 0;
    const auto y = static_cast<std::uint32_t>(-d);  // < 12 · 2^16
    // t = y · log2(e) in Q16, rounded: y · 94548 + 2^15 < 2^37, shifted by 16
#if defined(__ARM_ARCH_6M__)
    // in 32-bit pieces (a 64-bit multiply is a library call on the M0/M0+): y = yh·2^10 + yl, a = yh·94548 < 2^27,
    // b = yl·94548 + 2^15 < 2^27, and (a·2^10 + b) >> 16 = (a >> 6) + (((a & 63) << 10) + b) >> 16
    const std::uint32_t a = (y >> 10) * kLog2eQ16, b = (y & 1023u) * kLog2eQ16 + (1u << 15);
    const std::uint32_t t = (a >> 6) + ((((a & 63u) << 10) + b) >> 16);
#else
    const auto t = static_cast<std::uint32_t>((std::uint64_t{y} * kLog2eQ16 + (1u << 15)) >> 16);
#endif
    // e^-y = 2^-t = 2^-k · 2^-f, k = t >> 16 (< 18), f = the fraction of t in Q16
    const std::uint32_t k = t >> 16, f = t & 0xFFFFu;
    const std::uint32_t i = f >> kExp2SegmentBits, frac = f & ((1u << kExp2SegmentBits) - 1u);
    const auto m = static_cast<std::uint32_t>(interpolate(kExp2Table, i, frac, kExp2SegmentBits));  // 2^-f in Q16
    // m · 2^-k, rounded half up
    return static_cast<std::int32_t>(k > 0 ? (m + (1u << (k - 1))) >> k : m);
}

}  // namespace sarnn::fixed::detail

#endif
