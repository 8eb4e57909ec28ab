// lib/kernels/q15/cells.cpp: the translation unit of kernel::Q15's cells (lstm_cell, gru_cell) with the lanes as a
// run-time argument, whose code is include/sarnn/kernels/q15/cells.hpp (the shaped forms, compiled in a model's
// translation unit: include/sarnn/kernels/q15/shaped.hpp).
#include "sarnn/kernels/q15/cells.hpp"

namespace sarnn::kernel {

template <class Which>
std::size_t Q15Set<Which>::lstm_cell(const q15* z, const q15* c_tilde, std::size_t hidden, q15* c, q15* h) noexcept {
    return kernel::lstm_cell<loops_t<Which>>(z, c_tilde, hidden, c, h);
}

template <class Which>
void Q15Set<Which>::gru_cell(const q15* gi, const q15* gh, const q15* h_prev, std::size_t hidden, q15* h) noexcept {
    kernel::gru_cell<loops_t<Which>>(gi, gh, h_prev, hidden, h);
}

// the two sets of kernels_q15.hpp (this target's loops, the plain ones): this file's members
template std::size_t Q15Set<TargetLoops>::lstm_cell(const q15*, const q15*, std::size_t, q15*, q15*) noexcept;
template void Q15Set<TargetLoops>::gru_cell(const q15*, const q15*, const q15*, std::size_t, q15*) noexcept;
template std::size_t Q15Set<PlainLoops>::lstm_cell(const q15*, const q15*, std::size_t, q15*, q15*) noexcept;
template void Q15Set<PlainLoops>::gru_cell(const q15*, const q15*, const q15*, std::size_t, q15*) noexcept;

}  // namespace sarnn::kernel
