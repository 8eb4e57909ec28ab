// sarnn/kernels/q15/cells.hpp: kernel::Q15's cells (contracts: include/sarnn/kernels_q15.hpp): lstm_cell and
// gru_cell, by the target's loops where it has its own (q15/seam.hpp's kCell, kGruCell), else the generic ones;
// function templates of internal linkage on the loops L, compiled with the lanes H as a run-time argument by
// lib/kernels/q15/cells.cpp (Q15Set's members) and as std::integral_constant by q15/shaped.hpp in a model's
// translation unit (lstm_cell_at<H>, gru_cell_at<H>). Plain C++, integers only, the same on every target; their twins
// are in python/sarnn/q15.py.
#ifndef SARNN_KERNELS_Q15_CELLS_HPP
#define SARNN_KERNELS_Q15_CELLS_HPP
#include <cstddef>
#include <cstdint>

#include "sarnn/kernels/q15/internals.hpp"
#include "sarnn/kernels/q15/tanh.hpp"
#include "sarnn/kernels_q15.hpp"

namespace sarnn::kernel {

namespace {  // NOLINT(cert-dcl59-cpp): internal linkage on purpose: a copy per including translation unit

/// lstm_cell with the loops L (Q15::lstm_cell's contract)
template <class L, class HT>
__attribute__((always_inline)) inline std::size_t lstm_cell(const q15* z, const q15* c_tilde, HT hidden, q15* c,
                                                            q15* h) noexcept {
    if constexpr (q15_loops::has(L::kCaps, q15_loops::kCell)) return L::lstm_cell(z, c_tilde, hidden, c, h);
    std::size_t saturated = 0;
    for (std::size_t k = 0; k < hidden; ++k) {
        // i, f, o in Q15 (1 .. 32767), g in Q15 (-32767 .. 32767): sigmoid_q15 and tanh_q15 inline (kernels/q15/tanh.hpp,
        // the same integers; a call each cost about as much as the activation itself)
        const std::int32_t i = fixed::detail::sigmoid_inline(z[k].raw);
        const std::int32_t f = fixed::detail::sigmoid_inline(z[hidden + k].raw);
        const std::int32_t g = fixed::detail::tanh_wide(z[2 * hidden + k].raw);
        const std::int32_t o = fixed::detail::sigmoid_inline(z[3 * hidden + k].raw);
        // c = f·c~ / 2^15 + i·g / 2^18 in Q3.12, each rounded half up: |f·c~|, |i·g| < 2^30, |c| < 2^15 + 2^12
        const std::int32_t ck = round_shift(f * c_tilde[k].raw, 15) + round_shift(i * g, 18);
        // saturated to int16 (|c| < 8), and counted
        const std::int32_t cs = ck > 32767 ? 32767 : (ck < -32768 ? -32768 : ck);
        saturated += cs != ck ? 1u : 0u;
        c[k] = q15{static_cast<std::int16_t>(cs)};
        // h = o·tanh(c) in Q15, rounded half up: |o·tanh| < 2^30, |h| <= 32766
        h[k] = q15{static_cast<std::int16_t>(round_shift(o * fixed::detail::tanh_wide(cs), 15))};
    }
    return saturated;
}

/// gru_cell with the loops L (Q15::gru_cell's contract): the target's form where it has one (kGruCell), else the
/// generic one (q15/seam.hpp)
template <class L>
__attribute__((always_inline)) inline void gru_cell(const q15* gi, const q15* gh, const q15* h_prev, std::size_t hidden,
                                                    q15* h) noexcept {
    L::gru_cell(gi, gh, h_prev, hidden, h);
}

}  // namespace

}  // namespace sarnn::kernel
#endif
