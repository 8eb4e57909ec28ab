// lib/kernels/q15/affine.cpp: the translation unit of kernel::Q15's products of rows (affine_tanh, affine, gemv,
// gemv_t, gru_gates) with their sizes as run-time arguments, whose code is include/sarnn/kernels/q15/affine.hpp (the
// shaped forms, compiled in a model's translation unit: include/sarnn/kernels/q15/shaped.hpp).
#include "sarnn/kernels/q15/affine.hpp"

namespace sarnn::kernel {

template <class Which>
void Q15Set<Which>::affine_tanh(const QAffine& a, std::size_t rows, const q15* x, std::size_t nx, const q15* r,
                                std::size_t nr, q15* y) noexcept {
    kernel::affine_tanh<loops_t<Which>>(a, rows, x, nx, r, nr, y);
}

template <class Which>
void Q15Set<Which>::gemv(const QMatrix& W, const q15* v, q15* y) noexcept {
    kernel::gemv<loops_t<Which>>(W, v, y);
}

template <class Which>
void Q15Set<Which>::gemv_t(const QMatrix& W, const q15* v, std::int32_t m, int shift, q15* y) noexcept {
    kernel::gemv_t<loops_t<Which>>(W, v, m, shift, y);
}

template <class Which>
void Q15Set<Which>::affine(const QGates& a, std::size_t rows, const q15* x, std::size_t nx, const q15* r,
                           std::size_t nr, q15* z) noexcept {
    kernel::affine<loops_t<Which>>(a, rows, x, nx, r, nr, z);
}

template <class Which>
void Q15Set<Which>::gru_gates(const QGru& a, std::size_t rows, const q15* x, std::size_t nx, const q15* h,
                              std::size_t nh, q15* gi, q15* gh) noexcept {
    kernel::gru_gates_any<loops_t<Which>>(a, rows, x, nx, h, nh, gi, gh);
}

// the two sets of kernels_q15.hpp (this target's loops, the plain ones): this file's members
template void Q15Set<TargetLoops>::affine_tanh(const QAffine&, std::size_t, const q15*, std::size_t, const q15*,
                                               std::size_t, q15*) noexcept;
template void Q15Set<TargetLoops>::gemv(const QMatrix&, const q15*, q15*) noexcept;
template void Q15Set<TargetLoops>::gemv_t(const QMatrix&, const q15*, std::int32_t, int, q15*) noexcept;
template void Q15Set<TargetLoops>::affine(const QGates&, std::size_t, const q15*, std::size_t, const q15*, std::size_t,
                                          q15*) noexcept;
template void Q15Set<TargetLoops>::gru_gates(const QGru&, std::size_t, const q15*, std::size_t, const q15*, std::size_t,
                                             q15*, q15*) noexcept;
template void Q15Set<PlainLoops>::affine_tanh(const QAffine&, std::size_t, const q15*, std::size_t, const q15*,
                                              std::size_t, q15*) noexcept;
template void Q15Set<PlainLoops>::gemv(const QMatrix&, const q15*, q15*) noexcept;
template void Q15Set<PlainLoops>::gemv_t(const QMatrix&, const q15*, std::int32_t, int, q15*) noexcept;
template void Q15Set<PlainLoops>::affine(const QGates&, std::size_t, const q15*, std::size_t, const q15*, std::size_t,
                                         q15*) noexcept;
template void Q15Set<PlainLoops>::gru_gates(const QGru&, std::size_t, const q15*, std::size_t, const q15*, std::size_t,
                                            q15*, q15*) noexcept;

}  // namespace sarnn::kernel
