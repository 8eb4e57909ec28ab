// sarnn/kernels/q15/tanh.hpp: tanh_q15 (include/sarnn/fixed.hpp), inline: the one definition behind fixed::tanh_q15
// (lib/fixed.cpp) and the q15 kernels' inner loops (kernels/q15/{affine,attention,cells}.hpp: the additive scores take n·K of them a
// step, where a call per value cost about a third of the LSTMN's step on the M0+). The table is lib/fixed.cpp's.
#ifndef SARNN_KERNELS_Q15_TANH_HPP
#define SARNN_KERNELS_Q15_TANH_HPP

#include <cstdint>

namespace sarnn::fixed::detail {

/// tanh(i / 64) in Q15, i = 0..512 (kernels/q15/fixed_tables.inc, defined in lib/fixed.cpp)
extern const std::int16_t kTanhTable[513];
constexpr int kTanhSegmentBits = 6;  // one table entry per 64 LSB of Q3.12 (1/64)

/// table[i] + (table[i + 1] - table[i]) · frac / 2^bits, rounded half up; |difference| < 2^15 and frac < 2^bits
/// <= 2^8, so the product fits in 24 bits. The rounded quotient of a negative product: floor division by the
/// shift, done on the offset value to keep the shift on a non-negative number.
template <class Entry>
inline std::int32_t interpolate(const Entry* table, std::uint32_t i, std::uint32_t frac, int bits) noexcept {
    const std::int32_t d = static_cast<std::int32_t>(table[i + 1]) - static_cast<std::int32_t>(table[i]);
    const std::int32_t p = d * static_cast<std::int32_t>(frac) + (std::int32_t{1} << (bits - 1));
    // floor(p / 2^bits) for any sign of p: p + 2^24 >= 0 (|p| < 2^24)
    constexpr std::int32_t kOffset = std::int32_t{1} << 24;
    const std::int32_t q = static_cast<std::int32_t>(static_cast<std::uint32_t>(p + kOffset) >> bits) -
                           (kOffset >> bits);
    return static_cast<std::int32_t>(table[i]) + q;
}

/// tanh(z / 4096) in Q15 for any z with |z| < 2^31: tanh_q15(z) for z in int16, and beyond it the value at the
/// nearest int16 (|z| >= 32768 gives table[512] = 32767, as does 32767: the table's last two entries are equal), so
/// that a sum of two Q3.12 values needs no saturation first.
__attribute__((always_inline)) inline std::int32_t tanh_wide(std::int32_t z) noexcept {
    // a = |z| (z / 4096 in [0, 8] for int16 z)
    const std::uint32_t a = z < 0 ? 0u - static_cast<std::uint32_t>(z) : static_cast<std::uint32_t>(z);
    const std::uint32_t i = a >> kTanhSegmentBits, frac = a & ((1u << kTanhSegmentBits) - 1u);
    // tanh(a / 4096), interpolated between tanh(i / 64) and tanh((i + 1) / 64)
    const std::int32_t y = i >= 512u ? kTanhTable[512] : interpolate(kTanhTable, i, frac, kTanhSegmentBits);
    return z < 0 ? -y : y;
}

/// sigmoid(z / 4096) in Q15 for z in int16: sigmoid_q15 (fixed.hpp), inline: (1 + tanh(z / 8192)) / 2 rounded half up,
/// tanh from the table's entries every 128 LSB of |z| (|z| <= 32768: i <= 256), the result in [1, 32767].
__attribute__((always_inline)) inline std::int32_t sigmoid_inline(std::int32_t z) noexcept {
    const std::uint32_t a = z < 0 ? 0u - static_cast<std::uint32_t>(z) : static_cast<std::uint32_t>(z);
    const std::uint32_t i = a >> (kTanhSegmentBits + 1), frac = a & ((1u << (kTanhSegmentBits + 1)) - 1u);
    const std::int32_t t = interpolate(kTanhTable, i, frac, kTanhSegmentBits + 1);
    // 32768 +- t is in 1 .. 65535
    const std::int32_t y = static_cast<std::int32_t>(
        static_cast<std::uint32_t>(z >= 0 ? 32768 + t + 1 : 32768 - t + 1) >> 1);
    return y > 32767 ? 32767 : y;
}

}  // namespace sarnn::fixed::detail

#endif
