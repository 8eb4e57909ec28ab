// sarnn/kernels/q15/tanh_words.hpp: tanh_q15 of the sum of two Q3.12 values as one table word per 64 LSB of the sum,
// for the ARMv6-M additive scores (q15/thumb/loops.hpp): the sign, the saturation and the interpolation's rounding folded
// into a table of 2048 words (8 KiB of flash, built at compile time from kernels/q15/fixed_tables.inc), so that a value
// takes one load, one multiply and five shifts or adds where tanh_wide takes about twenty instructions. The same
// integers as tanh_wide (tests/test_q15_models.cpp checks every sum).
#ifndef SARNN_KERNELS_Q15_TANH_WORDS_HPP
#define SARNN_KERNELS_Q15_TANH_WORDS_HPP

#include <cstdint>

namespace sarnn::fixed::detail {
namespace tanh_words_source {
#include "sarnn/kernels/q15/fixed_tables.inc"  // (a compile-time copy of kTanhTable: only the words below reach the binary)
}  // namespace tanh_words_source

/// The word of index i = z >> 6 (z the sum, in [-65536, 65534]; i in [-1024, 1023]) is D·2^22 + (A mod 2^22), with
/// S_i = tanh(i / 64) in Q15 (the table's, odd, 32767 beyond it), D = S_(i+1) - S_i in [0, 512] and A = 64·S_i + c,
/// c = 32 for i >= 0 and 31 below. tanh of z = 64·i + f is then floor((A + D·f) / 64): tanh_wide rounds
/// D·f / 64 half up for |z| (c = 32), which for z < 0, interpolated from the other end of the segment, is
/// -floor((D·(64 - f) + 32) / 64) = floor((D·f - 32 + 63) / 64) - D (c = 31). |A + D·f| < 2^21 (it is at most
/// 64·S_(i+1) + 32 and at least 64·S_i + 31), so bits 6 to 21 of the word plus D·f, taken signed, are the value
/// and D's bits may take the carries.
struct TanhWords {
    std::uint32_t w[2048];
};

constexpr std::int32_t tanh_words_entry(std::int32_t i) noexcept {
    const std::int32_t a = i < 0 ? -i : i;
    const std::int32_t t = a > 512 ? 32767 : tanh_words_source::kTanhTable[a];
    return i < 0 ? -t : t;
}

constexpr TanhWords make_tanh_words() noexcept {
    TanhWords t{};
    for (std::int32_t i = -1024; i < 1024; ++i) {
        const std::int32_t s = tanh_words_entry(i), d = tanh_words_entry(i + 1) - s;
        const std::int32_t a = 64 * s + (i >= 0 ? 32 : 31);
        t.w[i + 1024] = (static_cast<std::uint32_t>(d) << 22) | (static_cast<std::uint32_t>(a) & 0x3FFFFFu);
    }
    return t;
}

inline constexpr TanhWords kTanhWords = make_tanh_words();

/// the words' step for z >> 6 (the interpolation's slopes fit D's ten bits)
constexpr bool tanh_words_fit() noexcept {
    for (std::int32_t i = -1024; i < 1024; ++i) {
        const std::int32_t d = tanh_words_entry(i + 1) - tanh_words_entry(i);
        if (d < 0 || d > 1023) return false;
    }
    return true;
}
static_assert(tanh_words_fit(), "sarnn: tanh's table steps by 0 to 1023");

/// tanh_wide(z) for z in [-65536, 65534] from the words, as q15/thumb/loops.hpp's loop computes it: w = word(z >> 6),
/// y = ((w + (w >> 22)·(z & 63)) << 10) >> 16, the last shift arithmetic.
inline std::int32_t tanh_from_words(std::int32_t z) noexcept {
    const std::uint32_t w = kTanhWords.w[(z >> 6) + 1024];
    const std::uint32_t s = (w + (w >> 22) * static_cast<std::uint32_t>(z & 63)) << 10;
    return static_cast<std::int32_t>(s) >> 16;
}

}  // namespace sarnn::fixed::detail

#endif
