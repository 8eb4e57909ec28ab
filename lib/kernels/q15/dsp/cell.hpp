// lib/kernels/q15/dsp/cell.hpp: the DSP set's q15 loops (Cortex-M4, M7; the set: dsp/loops.hpp), the LSTM cell
// (lstm_cell) and the GRU cell (gru_cell) with their activations inline, each interpolation one SMUAD.
#ifndef SARNN_LIB_KERNELS_Q15_DSP_CELL_HPP
#define SARNN_LIB_KERNELS_Q15_DSP_CELL_HPP

#include <cstddef>
#include <cstdint>

#include "kernels/q15/dsp/common.hpp"
#include "kernels/tanh.hpp"

namespace sarnn::kernel::q15_dsp {

/// tanh_wide(z) (kernels/tanh.hpp) for |z| < 2^31: a = min(|z|, 32767) (the table's last two entries are equal: the
/// same value as beyond), i = a >> 6, f = a & 63; T_i + ((T_(i+1) - T_i)·f + 32) >> 6 = (T_i·(64 - f) + T_(i+1)·f +
/// 32) >> 6, the pair (T_i, T_(i+1)) one word and the sum one SMUAD with (64 - f, f) (< 2^22); the sign back with
/// the rounding: ((X ^ m) + 32) >> 6 for m = z >> 31 (z < 0: (31 - X) >> 6 = -((X + 32) >> 6)).
__attribute__((always_inline)) inline std::int32_t tanh_dsp(std::int32_t z) noexcept {
    const std::int32_t m = z >> 31;
    const auto a = static_cast<std::uint32_t>(__usat((z ^ m) - m, 15));
    const std::int32_t pair = dsp::word(fixed::detail::kTanhTable + (a >> 6));
    const auto f = static_cast<std::int32_t>(a & 63u);
    const std::int32_t x = __smuad(
        pair, static_cast<std::int32_t>((static_cast<std::uint32_t>(f) << 16) + 64u - static_cast<std::uint32_t>(f)));
    return ((x ^ m) + 32) >> 6;
}

/// sigmoid_inline(z) (kernels/tanh.hpp) for z in int16: a = |z| <= 32768, i = a >> 7 <= 256, f = a & 127; t = T_i +
/// ((T_(i+1) - T_i)·f + 64) >> 7 = (T_i·(128 - f) + T_(i+1)·f + 64) >> 7 (>= 0: the table rises), one SMUAD as
/// tanh_dsp's; y = min((32769 + t) >> 1, 32767) for z >= 0, (32769 - t) >> 1 for z < 0 (at most 16384).
__attribute__((always_inline)) inline std::int32_t sigmoid_dsp(std::int32_t z) noexcept {
    const std::int32_t m = z >> 31;
    const auto a = static_cast<std::uint32_t>((z ^ m) - m);
    const std::int32_t pair = dsp::word(fixed::detail::kTanhTable + (a >> 7));
    const auto f = static_cast<std::int32_t>(a & 127u);
    const std::int32_t t = (__smuad(pair, static_cast<std::int32_t>((static_cast<std::uint32_t>(f) << 16) + 128u -
                                                                    static_cast<std::uint32_t>(f))) +
                            64) >>
                           7;
    const std::int32_t y = (32769 + ((t ^ m) - m)) >> 1;
    return y > 32767 ? 32767 : y;
}

/// The LSTM cell, Q15::lstm_cell's contract (kernels_q15.hpp: q15.cpp's generic loop, the same integers), one lane a
/// pass with i, f, o = sigmoid_dsp, g and tanh(c) = tanh_dsp; the products' rounding shifts as q15.cpp's (|f·c~|,
/// |i·g|, |o·tanh c| < 2^30), c saturated by SSAT and counted.
inline std::size_t lstm_cell(const q15* z, const q15* c_tilde, std::size_t hidden, q15* c, q15* h) noexcept {
    std::size_t saturated = 0;
    const q15* const zf = z + hidden;
    const q15* const zg = z + 2 * hidden;
    const q15* const zo = z + 3 * hidden;
    for (std::size_t k = 0; k < hidden; ++k) {
        const std::int32_t i = sigmoid_dsp(z[k].raw);
        const std::int32_t f = sigmoid_dsp(zf[k].raw);
        const std::int32_t g = tanh_dsp(zg[k].raw);
        const std::int32_t o = sigmoid_dsp(zo[k].raw);
        // c = f·c~ / 2^15 + i·g / 2^18 in Q3.12, each rounded half up, saturated to int16 and counted
        const std::int32_t ck = ((f * c_tilde[k].raw + (1 << 14)) >> 15) + ((i * g + (1 << 17)) >> 18);
        const std::int32_t cs = __ssat(ck, 16);
        saturated += cs != ck ? 1u : 0u;
        c[k] = q15{static_cast<std::int16_t>(cs)};
        // h = o·tanh(c) in Q15, rounded half up
        h[k] = q15{static_cast<std::int16_t>((o * tanh_dsp(cs) + (1 << 14)) >> 15)};
    }
    return saturated;
}

/// The GRU cell, Q15::gru_cell's contract (kernels_q15.hpp: q15/seam.hpp's generic form, the same integers), one lane
/// a pass: r, z = sigmoid_dsp of the sums saturated to int16 (SSAT), n = tanh_dsp(gi_n + round(r·gh_n / 2^15)) (the
/// sum beyond int16 as tanh_wide takes it), h = n + round(z·(h_prev - n) / 2^15).
inline void gru_cell(const q15* gi, const q15* gh, const q15* h_prev, std::size_t hidden, q15* h) noexcept {
    for (std::size_t d = 0; d < hidden; ++d) {
        const std::int32_t r = sigmoid_dsp(__ssat(gi[d].raw + gh[d].raw, 16));
        const std::int32_t z = sigmoid_dsp(__ssat(gi[hidden + d].raw + gh[hidden + d].raw, 16));
        const std::int32_t n = tanh_dsp(gi[2 * hidden + d].raw + ((r * gh[2 * hidden + d].raw + (1 << 14)) >> 15));
        h[d] = q15{static_cast<std::int16_t>(n + ((z * (h_prev[d].raw - n) + (1 << 14)) >> 15))};
    }
}

}  // namespace sarnn::kernel::q15_dsp

#endif
