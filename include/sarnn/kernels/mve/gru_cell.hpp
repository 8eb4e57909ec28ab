// sarnn/kernels/mve/gru_cell.hpp: the GRU cell (kernels.hpp's gru_cell, PyTorch's gate order r, z, n) for Hidden = H
// known at compile time, on Helium (MVE float): r = σ(gi_r + b_ir + gh_r + b_hr), z = σ(gi_z + b_iz + gh_z + b_hz),
// n = tanh(gi_n + b_in + r ⊙ (gh_n + b_hn)), h = n + z ⊙ (h_prev - n). In chunks of up to 32 lanes
// (kernels/mve/lstm_cell.hpp's kCellChunk), each in passes over a stack row t of 3·L values (L the chunk's lanes
// rounded up to 4): t = [a_r; a_z] for the sums a of r and z, σ over both (kernels/mve/tanh.hpp: one loop), then
// n's sum into t's third part, its tanh (tanh.hpp), then h. Four lanes a pass, the chunk's last L % 4 lanes under a
// tail predicate (VCTP): nothing read past 3·H values of gi, gh and the biases, nothing written past H. Errors
// against double: σ within 1.5e-7 (2.5e-7 relative), tanh within 2.5e-7 absolute; NaN stays NaN, ±inf gives σ 1 or 0
// and tanh ±1 (as the run-time cell). Cost per four lanes: 3 passes of σ or tanh (about 30 instructions each) and
// about 26 more, and about 30 a chunk; 384 bytes of stack.
#ifndef SARNN_KERNELS_MVE_GRU_CELL_HPP
#define SARNN_KERNELS_MVE_GRU_CELL_HPP

#include <arm_mve.h>

#include <cstddef>
#include <type_traits>

#include "sarnn/kernels/mve/lanes.hpp"
#include "sarnn/kernels/mve/lstm_cell.hpp"
#include "sarnn/kernels/mve/tanh.hpp"

namespace sarnn::kernel::mve_shaped {

/// One chunk of L lanes of the GRU cell, the gates H values apart in gi, gh, b_ih and b_hh (h_prev, h at the
/// chunk's lanes).
template <std::size_t H, std::size_t L>
__attribute__((always_inline)) inline void gru_chunk(const float* gi, const float* gh, const float* b_ih,
                                                     const float* b_hh, const float* h_prev, float* h) noexcept {
    constexpr std::size_t Lp = (L + 3) / 4 * 4, whole = L / 4, rest = L % 4;
    alignas(16) float t[3 * Lp];
    // t = [gi_r + b_ir + gh_r + b_hr; gi_z + b_iz + gh_z + b_hz]
    const auto gates = [&](std::size_t d, mve_pred16_t p, auto tail) {
        constexpr bool T = decltype(tail)::value;
        for (std::size_t g = 0; g < 2; ++g) {
            const float32x4_t a = vaddq_f32(load_lanes<T>(gi + g * H + d, p), load_lanes<T>(b_ih + g * H + d, p));
            const float32x4_t e = vaddq_f32(load_lanes<T>(gh + g * H + d, p), load_lanes<T>(b_hh + g * H + d, p));
            vst1q_f32(t + g * Lp + d, vaddq_f32(a, e));
        }
    };
#pragma GCC unroll 1
    for (std::size_t d = 0; d < 4 * whole; d += 4) gates(d, 0xFFFF, std::false_type{});
    if constexpr (rest != 0) gates(4 * whole, vctp32q(rest), std::true_type{});
    sigmoid_inplace<2 * Lp>(t);
    // n's sum gi_n + b_in + r ⊙ (gh_n + b_hn), into t's third part
    const auto sum_n = [&](std::size_t d, mve_pred16_t p, auto tail) {
        constexpr bool T = decltype(tail)::value;
        const float32x4_t r = vld1q_f32(t + d);
        const float32x4_t a = vaddq_f32(load_lanes<T>(gi + 2 * H + d, p), load_lanes<T>(b_ih + 2 * H + d, p));
        const float32x4_t e = vaddq_f32(load_lanes<T>(gh + 2 * H + d, p), load_lanes<T>(b_hh + 2 * H + d, p));
        vst1q_f32(t + 2 * Lp + d, vfmaq_f32(a, r, e));
    };
#pragma GCC unroll 1
    for (std::size_t d = 0; d < 4 * whole; d += 4) sum_n(d, 0xFFFF, std::false_type{});
    if constexpr (rest != 0) sum_n(4 * whole, vctp32q(rest), std::true_type{});
    tanh_inplace<Lp>(t + 2 * Lp);
    // h = n + z ⊙ (h_prev - n)
    const auto out = [&](std::size_t d, mve_pred16_t p, auto tail) {
        const float32x4_t z = vld1q_f32(t + Lp + d);
        const float32x4_t n = vld1q_f32(t + 2 * Lp + d);
        store_lanes<decltype(tail)::value>(h + d, vfmaq_f32(n, z, vsubq_f32(vld1q_f32(h_prev + d), n)), p);
    };
#pragma GCC unroll 1
    for (std::size_t d = 0; d < 4 * whole; d += 4) out(d, 0xFFFF, std::false_type{});
    if constexpr (rest != 0) out(4 * whole, vctp32q(rest), std::true_type{});
}

/// The GRU cell of H lanes: gi, gh, b_ih, b_hh 3·H values (any alignment of a float); h_prev, h padded rows of H
/// values (h must not alias h_prev). Chunks of kCellChunk lanes, then the rest.
template <std::size_t H>
__attribute__((noinline)) void gru_cell(const float* gi, const float* gh, const float* b_ih, const float* b_hh,
                                        const float* h_prev, float* h) noexcept {
    static_assert(H >= 1, "sarnn: mve gru_cell<H>: H >= 1");
    constexpr std::size_t whole = H / kCellChunk, rest = H % kCellChunk;
    for (std::size_t d = 0; d < whole * kCellChunk; d += kCellChunk)
        gru_chunk<H, kCellChunk>(gi + d, gh + d, b_ih + d, b_hh + d, h_prev + d, h + d);
    if constexpr (rest != 0) {
        constexpr std::size_t d = whole * kCellChunk;
        gru_chunk<H, rest>(gi + d, gh + d, b_ih + d, b_hh + d, h_prev + d, h + d);
    }
}

}  // namespace sarnn::kernel::mve_shaped

#endif
