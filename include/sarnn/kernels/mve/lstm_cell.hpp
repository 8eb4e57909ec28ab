// sarnn/kernels/mve/lstm_cell.hpp: the LSTM cell (kernels.hpp's lstm_cell) for Hidden = H known at compile time, on
// Helium (MVE float): i = σ(z_i + b_i), f = σ(z_f + b_f), g = tanh(z_g + b_g), o = σ(z_o + b_o),
// c = f ⊙ c_prev + i ⊙ g, h = o ⊙ tanh(c). In chunks of up to 32 lanes, each in passes over a stack row t of 4·L
// values (L the chunk's lanes rounded up to 4): t = [z_i + b_i; z_f + b_f; z_o + b_o; z_g + b_g], σ over its first
// three parts (kernels/mve/tanh.hpp) and tanh over the last (tanh.hpp: one loop each, constants loaded once), then
// c (into c and t's last part), tanh(c), then h. Four lanes a pass, the chunk's last L % 4 lanes under a tail
// predicate (VCTP): nothing read past 4·H values of z and b, nothing written past H. Errors against double: σ within
// 1.5e-7 (2.5e-7 relative), tanh within 2.5e-7 absolute. NaN stays NaN through every gate, ±inf gives σ 1 or 0 and
// tanh ±1 (as the run-time cell). Cost per four lanes: 5 passes of σ or tanh (about 30 instructions each) and 17
// more, and about 40 a chunk; 512 bytes of stack.
#ifndef SARNN_KERNELS_MVE_LSTM_CELL_HPP
#define SARNN_KERNELS_MVE_LSTM_CELL_HPP

#include <arm_mve.h>

#include <cstddef>
#include <type_traits>

#include "sarnn/kernels/mve/lanes.hpp"
#include "sarnn/kernels/mve/tanh.hpp"

namespace sarnn::kernel::mve_shaped {

/// The lanes of one pass of a cell: at most this many (the stack row of a chunk holds 4·32 floats).
inline constexpr std::size_t kCellChunk = 32;

/// One chunk of L lanes of the LSTM cell, the gates H values apart in z and b (c_prev, c, h at the chunk's lanes).
template <std::size_t H, std::size_t L>
__attribute__((always_inline)) inline void lstm_chunk(const float* z, const float* b, const float* c_prev, float* c,
                                                      float* h) noexcept {
    constexpr std::size_t Lp = (L + 3) / 4 * 4, whole = L / 4, rest = L % 4;
    // the gates' sums in t: [i; f; o] (σ's) then g (tanh's), Lp floats each
    constexpr std::size_t kRow[4] = {0, Lp, 3 * Lp, 2 * Lp};
    alignas(16) float t[4 * Lp];
    // t = [z_i + b_i; z_f + b_f; z_o + b_o; z_g + b_g]
    const auto gates = [&](std::size_t d, mve_pred16_t p, auto tail) {
        constexpr bool T = decltype(tail)::value;
        for (std::size_t g = 0; g < 4; ++g)
            vst1q_f32(t + kRow[g] + d, vaddq_f32(load_lanes<T>(z + g * H + d, p), load_lanes<T>(b + g * H + d, p)));
    };
#pragma GCC unroll 1
    for (std::size_t d = 0; d < 4 * whole; d += 4) gates(d, 0xFFFF, std::false_type{});
    if constexpr (rest != 0) gates(4 * whole, vctp32q(rest), std::true_type{});
    sigmoid_inplace<3 * Lp>(t);
    tanh_inplace<Lp>(t + 3 * Lp);
    // c = f ⊙ c_prev + i ⊙ g; c next into t's g part, for tanh(c)
    const auto cell = [&](std::size_t d, mve_pred16_t p, auto tail) {
        const float32x4_t ig = vmulq_f32(vld1q_f32(t + d), vld1q_f32(t + 3 * Lp + d));
        const float32x4_t cn = vfmaq_f32(ig, vld1q_f32(t + Lp + d), vld1q_f32(c_prev + d));
        store_lanes<decltype(tail)::value>(c + d, cn, p);
        vst1q_f32(t + 3 * Lp + d, cn);
    };
#pragma GCC unroll 1
    for (std::size_t d = 0; d < 4 * whole; d += 4) cell(d, 0xFFFF, std::false_type{});
    if constexpr (rest != 0) cell(4 * whole, vctp32q(rest), std::true_type{});
    tanh_inplace<Lp>(t + 3 * Lp);
    // h = o ⊙ tanh(c)
    const auto out = [&](std::size_t d, mve_pred16_t p, auto tail) {
        store_lanes<decltype(tail)::value>(h + d, vmulq_f32(vld1q_f32(t + 2 * Lp + d), vld1q_f32(t + 3 * Lp + d)), p);
    };
#pragma GCC unroll 1
    for (std::size_t d = 0; d < 4 * whole; d += 4) out(d, 0xFFFF, std::false_type{});
    if constexpr (rest != 0) out(4 * whole, vctp32q(rest), std::true_type{});
}

/// The LSTM cell of H lanes: z, b 4·H values (gates i, f, g, o; any alignment of a float); c_prev, c, h padded rows of
/// H values (c must not alias c_prev). Chunks of kCellChunk lanes, then the rest.
template <std::size_t H>
__attribute__((noinline)) void lstm_cell(const float* z, const float* b, const float* c_prev, float* c,
                                         float* h) noexcept {
    static_assert(H >= 1, "sarnn: mve lstm_cell<H>: H >= 1");
    constexpr std::size_t whole = H / kCellChunk, rest = H % kCellChunk;
    for (std::size_t d = 0; d < whole * kCellChunk; d += kCellChunk)
        lstm_chunk<H, kCellChunk>(z + d, b + d, c_prev + d, c + d, h + d);
    if constexpr (rest != 0) {
        constexpr std::size_t d = whole * kCellChunk;
        lstm_chunk<H, rest>(z + d, b + d, c_prev + d, c + d, h + d);
    }
}

}  // namespace sarnn::kernel::mve_shaped

#endif
