// sarnn/kernels/q15/thumb/cells.hpp: the LSTM and GRU cells of the Thumb loops (q15/thumb/loops.hpp, for ARMv6-M: M0, M0+;
// and ARMv7-M without DSP: M3), the integers of the generic cells (q15/cells.hpp's lstm_cell, q15/seam.hpp's gru_cell: the
// contracts of kernels_q15.hpp) with their activations written for eight low registers: kernels/q15/tanh.hpp's
// interpolation with its floor as an arithmetic shift (as q15/internals.hpp's round_shift; tanh.hpp adds and removes an offset
// of 2^24, two constants that ARMv6-M reloads from the literal pool for every value), and the table's entries read
// unsigned (they are tanh of non-negative values, 0 .. 32767: LDRH with an offset, no register for i + 1). C++, no
// table of its own: a few hundred bytes of code.
#ifndef SARNN_KERNELS_Q15_THUMB_CELLS_HPP
#define SARNN_KERNELS_Q15_THUMB_CELLS_HPP

#include <cstddef>
#include <cstdint>

#include "sarnn/kernels/q15/tanh.hpp"
#include "sarnn/fixed.hpp"

namespace sarnn::kernel::q15_thumb {

/// T[i] + floor(((T[i+1] - T[i])·frac + 2^(B-1)) / 2^B), T = kTanhTable (interpolate's integers: |product| < 2^24,
/// and the arithmetic shift of a negative sum is its floor), the entries read as uint16 (all in 0 .. 32767)
template <int B>
__attribute__((always_inline)) inline std::int32_t tanh_entry(std::uint32_t i, std::uint32_t frac) noexcept {
    const auto* const e = reinterpret_cast<const std::uint16_t*>(fixed::detail::kTanhTable) + i;
    const std::int32_t t0 = e[0];
    return t0 + (((static_cast<std::int32_t>(e[1]) - t0) * static_cast<std::int32_t>(frac) + (1 << (B - 1))) >> B);
}

/// tanh(z / 4096) in Q15 (fixed::detail::tanh_wide's integers, any |z| < 2^31)
__attribute__((always_inline)) inline std::int32_t tanh_cell(std::int32_t z) noexcept {
    const std::uint32_t a = z < 0 ? 0u - static_cast<std::uint32_t>(z) : static_cast<std::uint32_t>(z);
    const std::uint32_t i = a >> fixed::detail::kTanhSegmentBits;
    const std::int32_t y = i >= 512u ? fixed::detail::kTanhTable[512] : tanh_entry<6>(i, a & 63u);
    return z < 0 ? -y : y;
}

/// sigmoid(z / 4096) in Q15 for int16 z (fixed::detail::sigmoid_inline's integers): (32768 +- t + 1) / 2, t =
/// tanh(|z| / 8192) (|z| <= 32768: i <= 256), in [1, 32767]
__attribute__((always_inline)) inline std::int32_t sigmoid_cell(std::int32_t z) noexcept {
    const std::uint32_t a = z < 0 ? 0u - static_cast<std::uint32_t>(z) : static_cast<std::uint32_t>(z);
    const std::int32_t t = tanh_entry<7>(a >> 7, a & 127u);
    if (z < 0) return (32769 - t) >> 1;  // (t >= 0: at most 16384)
    const std::int32_t y = (32769 + t) >> 1;
    return y > 32767 ? 32767 : y;
}

/// Q15::lstm_cell's contract (kernels_q15.hpp), q15/cells.hpp's generic cell's integers
inline std::size_t lstm_cell(const q15* z, const q15* c_tilde, std::size_t hidden, q15* c, q15* h) noexcept {
    std::size_t saturated = 0;
    for (std::size_t k = 0; k < hidden; ++k) {
        // i, f, o in Q15 (1 .. 32767), g in Q15 (-32767 .. 32767)
        const std::int32_t i = sigmoid_cell(z[k].raw);
        const std::int32_t g = tanh_cell(z[2 * hidden + k].raw);
        const std::int32_t f = sigmoid_cell(z[hidden + k].raw);
        // c = f·c~ / 2^15 + i·g / 2^18 in Q3.12, each rounded half up: |f·c~|, |i·g| < 2^30, |c| < 2^15 + 2^12
        const std::int32_t ck = ((f * c_tilde[k].raw + (1 << 14)) >> 15) + ((i * g + (1 << 17)) >> 18);
        // saturated to int16 (|c| < 8), and counted
        const std::int32_t cs = ck > 32767 ? 32767 : (ck < -32768 ? -32768 : ck);
        saturated += cs != ck ? 1u : 0u;
        c[k] = q15{static_cast<std::int16_t>(cs)};
        // h = o·tanh(c) in Q15, rounded half up: |o·tanh| < 2^30
        const std::int32_t o = sigmoid_cell(z[3 * hidden + k].raw);
        h[k] = q15{static_cast<std::int16_t>((o * tanh_cell(cs) + (1 << 14)) >> 15)};
    }
    return saturated;
}

/// v (|v| < 2^17) saturated to int16
__attribute__((always_inline)) inline std::int32_t sat16(std::int32_t v) noexcept {
    return v > 32767 ? 32767 : (v < -32768 ? -32768 : v);
}

/// (p + 2^14) >> 15, p rounded half up to Q15 (p + 2^14 < 2^31), as ((p >> 14) + 1) >> 1: the same floor (p = 2^14·q
/// + s, 0 <= s < 2^14: both are floor((q + 1) / 2)) without the constant 2^14, which ARMv6-M builds in a register
__attribute__((always_inline)) inline std::int32_t round15(std::int32_t p) noexcept { return ((p >> 14) + 1) >> 1; }

/// sigmoid_cell's integers without a branch on the sign: (32769 + (t with z's sign)) >> 1, at most 32767
__attribute__((always_inline)) inline std::int32_t sigmoid_signed(std::int32_t z) noexcept {
    const std::int32_t m = z >> 31;  // 0 or -1
    const auto a = static_cast<std::uint32_t>((z ^ m) - m);
    const std::int32_t t = tanh_entry<7>(a >> 7, a & 127u);
    const std::int32_t y = (32769 + ((t ^ m) - m)) >> 1;
    return y > 32767 ? 32767 : y;
}

/// Q15::gru_cell's contract (kernels_q15.hpp), q15/seam.hpp's generic cell's integers
inline void gru_cell(const q15* gi, const q15* gh, const q15* h_prev, std::size_t hidden, q15* h) noexcept {
    for (std::size_t d = 0; d < hidden; ++d) {
        // r = σ(gi_r + gh_r), z = σ(gi_z + gh_z) in Q15 (0 .. 32767), the sums saturated to Q3.12
        const std::int32_t r = sigmoid_signed(sat16(gi[d].raw + gh[d].raw));
        // n = tanh(gi_n + r·gh_n / 2^15), the product rounded half up (|r·gh_n| < 2^30), |sum| < 2^17
        const std::int32_t n = tanh_cell(gi[2 * hidden + d].raw + round15(r * gh[2 * hidden + d].raw));
        const std::int32_t z = sigmoid_signed(sat16(gi[hidden + d].raw + gh[hidden + d].raw));
        // h = n + z·(h_prev - n) / 2^15, rounded half up: |z·(h_prev - n)| + 2^14 < 2^31
        h[d] = q15{static_cast<std::int16_t>(n + round15(z * (h_prev[d].raw - n)))};
    }
}

}  // namespace sarnn::kernel::q15_thumb

#endif
