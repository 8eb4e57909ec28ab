// lib/kernels/q15/dsp/cell.hpp: the DSP set's q15 loops (Cortex-M4, M7; the set: dsp/loops.hpp), the LSTM cell
// (lstm_cell) and the GRU cell (gru_cell) with their activations inline, each interpolation one SMUAD.
#ifndef SARNN_LIB_KERNELS_Q15_DSP_CELL_HPP
#define SARNN_LIB_KERNELS_Q15_DSP_CELL_HPP

#include <cstddef>
#include <cstdint>
#include <cstring>

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

/// sigmoid_inline(z) (kernels/tanh.hpp) for z in int16: a = |z| <= 32768, i = a >> 7 <= 256, f = a & 127; S =
/// T_i·(128 - f) + T_(i+1)·f (>= 0: the table rises; one SMUAD as tanh_dsp's), t = (S + 64) >> 7, and y = min((32769
/// + t) >> 1, 32767) for z >= 0, (32769 - t) >> 1 for z < 0, the two shifts one: floor((32769·128 + 64 + S) / 256)
/// and, as -t = floor((63 - S) / 128), floor((32769·128 + 64 + ~S) / 256), both ((S ^ m) + 32769·128 + 64) >> 8 for
/// m = z >> 31 (>= 0), clamped to 32767 by USAT (its shift the >> 8).
/// kSigmoidBias: 32769·128 + 64 (a caller's loop may hold it in a register: pinned(), passed as bias).
constexpr std::int32_t kSigmoidBias = 32769 * 128 + 64;
__attribute__((always_inline)) inline std::int32_t sigmoid_dsp(std::int32_t z,
                                                               std::int32_t bias = kSigmoidBias) noexcept {
    const std::int32_t m = z >> 31;
    const auto a = static_cast<std::uint32_t>((z ^ m) - m);
    const std::int32_t pair = dsp::word(fixed::detail::kTanhTable + (a >> 7));
    const auto f = static_cast<std::int32_t>(a & 127u);
    const std::int32_t s = __smuad(
        pair, static_cast<std::int32_t>((static_cast<std::uint32_t>(f) << 16) + 128u - static_cast<std::uint32_t>(f)));
    return static_cast<std::int32_t>(__usat(((s ^ m) + bias) >> 8, 15));
}

/// v, held in a register from here on (GCC 12 otherwise splits a constant such as kSigmoidBias into two ADDs at
/// each use in the loops below).
__attribute__((always_inline)) inline std::int32_t pinned(std::int32_t v) noexcept {
    __asm__("" : "+r"(v));
    return v;
}

/// The LSTM cell, Q15::lstm_cell's contract (kernels_q15.hpp: q15/cells.cpp's generic loop, the same integers), one
/// lane a pass with i, f, o = sigmoid_dsp, g and tanh(c) = tanh_dsp; the products' rounding shifts as q15/cells.cpp's
/// (|f·c~|, |i·g|, |o·tanh c| < 2^30: f·c~ + 2^14 one SMLABB), c saturated by SSAT and counted. The gates' rows i, f, g
/// one pointer and one offset (f and g at 2·hidden and 4·hidden bytes on: [pz, off] and [pz, off, lsl #1]), o a pointer
/// of its own, so that fewer of the loop's values live on the stack (86 -> 85 instructions a lane).
inline std::size_t lstm_cell(const q15* z, const q15* c_tilde, std::size_t hidden, q15* c, q15* h) noexcept {
    std::size_t saturated = 0;
    const std::int32_t bias = pinned(kSigmoidBias);
    const auto* pz = reinterpret_cast<const char*>(z);
    const auto* po = pz + 6 * hidden;
    const std::size_t off = 2 * hidden;
    for (const q15* const end = c_tilde + hidden; c_tilde != end; pz += 2, po += 2, ++c_tilde, ++c, ++h) {
        std::int16_t zi, zf, zg, zo;
        std::memcpy(&zi, pz, sizeof zi);
        std::memcpy(&zf, pz + off, sizeof zf);
        std::memcpy(&zg, pz + 2 * off, sizeof zg);
        std::memcpy(&zo, po, sizeof zo);
        const std::int32_t i = sigmoid_dsp(zi, bias);
        const std::int32_t f = sigmoid_dsp(zf, bias);
        const std::int32_t g = tanh_dsp(zg);
        const std::int32_t o = sigmoid_dsp(zo, bias);
        // c = f·c~ / 2^15 + i·g / 2^18 in Q3.12, each rounded half up, saturated to int16 and counted
        const std::int32_t ck = (__smlabb(f, c_tilde->raw, 1 << 14) >> 15) + ((i * g + (1 << 17)) >> 18);
        const std::int32_t cs = __ssat(ck, 16);
        saturated += cs != ck ? 1u : 0u;
        c->raw = static_cast<std::int16_t>(cs);
        // h = o·tanh(c) in Q15, rounded half up
        h->raw = static_cast<std::int16_t>((o * tanh_dsp(cs) + (1 << 14)) >> 15);
    }
    return saturated;
}

/// One lane of the GRU cell (gru_cell below) from its sums r_s = sat16(gi_r + gh_r), z_s = sat16(gi_z + gh_z), gi_n
/// and h_prev, gh_n in the bottom half (B) or the top half (T) of the word ghn: r, z = sigmoid_dsp, n = tanh_dsp(gi_n
/// + round(r·gh_n / 2^15)) (SMLABB / SMLABT from 2^14: |r·gh_n| < 2^30; the sum beyond int16 as tanh_wide takes it),
/// h = n + round(z·(h_prev - n) / 2^15).
template <bool kTop>
__attribute__((always_inline)) inline std::int32_t gru_lane(std::int32_t rs, std::int32_t zs, std::int32_t ghn,
                                                            std::int32_t gin, std::int32_t hp, std::int32_t bias,
                                                            std::int32_t half) noexcept {
    const std::int32_t r = sigmoid_dsp(rs, bias);
    const std::int32_t z = sigmoid_dsp(zs, bias);
    const std::int32_t rg = kTop ? __smlabt(r, ghn, half) : __smlabb(r, ghn, half);
    const std::int32_t n = tanh_dsp(gin + (rg >> 15));
    return n + ((z * (hp - n) + half) >> 15);
}

/// The GRU cell, Q15::gru_cell's contract (kernels_q15.hpp: q15/seam.hpp's generic form, the same integers), two lanes
/// a pass (gru_lane's arithmetic, each stage for both lanes before the next: fewer words live at once, 57 -> 56.5
/// instructions a lane): each input's pair one word (LDR: any alignment), the sums of r's and z's pairs saturated to
/// int16 by one QADD16 each (SSAT's value per half), the two h stored as one word (h a padded row: word aligned); an
/// odd last lane alone.
inline void gru_cell(const q15* gi, const q15* gh, const q15* h_prev, std::size_t hidden, q15* h) noexcept {
    // the gates' rows r, z, n of gi and gh one pointer each, the rows z and n at 2·hidden and 4·hidden bytes on
    const auto* pi = reinterpret_cast<const char*>(gi);
    const auto* ph = reinterpret_cast<const char*>(gh);
    const std::size_t z_off = 2 * hidden, n_off = 4 * hidden;
    const q15* const hp_end = h_prev + (hidden & ~std::size_t{1});
    const std::int32_t bias = pinned(kSigmoidBias), half = pinned(1 << 14);
    for (; h_prev != hp_end; pi += 4, ph += 4, h_prev += 2, h += 2) {
        // the pair's stages one after the other, both lanes in each (fewer words live at once than lane by lane)
        const std::int32_t rs = __qadd16(dsp::word(pi), dsp::word(ph));
        const std::int32_t r0 = sigmoid_dsp(static_cast<std::int16_t>(rs), bias), r1 = sigmoid_dsp(rs >> 16, bias);
        const std::int32_t ghn = dsp::word(ph + n_off);
        const std::int32_t rg0 = __smlabb(r0, ghn, half), rg1 = __smlabt(r1, ghn, half);
        const std::int32_t gin = dsp::word(pi + n_off);
        const std::int32_t n0 = tanh_dsp(static_cast<std::int16_t>(gin) + (rg0 >> 15));
        const std::int32_t n1 = tanh_dsp((gin >> 16) + (rg1 >> 15));
        const std::int32_t zs = __qadd16(dsp::word(pi + z_off), dsp::word(ph + z_off));
        const std::int32_t z0 = sigmoid_dsp(static_cast<std::int16_t>(zs), bias), z1 = sigmoid_dsp(zs >> 16, bias);
        const std::int32_t hp = dsp::word(h_prev);
        h[0].raw = static_cast<std::int16_t>(n0 + ((z0 * (static_cast<std::int16_t>(hp) - n0) + half) >> 15));
        h[1].raw = static_cast<std::int16_t>(n1 + ((z1 * ((hp >> 16) - n1) + half) >> 15));
    }
    if ((hidden & 1u) != 0) {
        const std::size_t d = hidden - 1;
        h[0].raw = static_cast<std::int16_t>(
            gru_lane<false>(__ssat(gi[d].raw + gh[d].raw, 16), __ssat(gi[hidden + d].raw + gh[hidden + d].raw, 16),
                            gh[2 * hidden + d].raw, gi[2 * hidden + d].raw, h_prev[0].raw, bias, half));
    }
}

}  // namespace sarnn::kernel::q15_dsp

#endif
