// sarnn/kernels/q15/shaped.hpp: Q15Set's shaped forms (kernels_q15.hpp: affine_tanh_at, affine_at, gru_gates_at,
// lstm_cell_at, gru_cell_at, attend_dot_shaped, attend_query_shaped), compiled in the including translation unit for
// the sizes given as template parameters: q15/affine.hpp's and q15/cells.hpp's one algorithm with the sizes as
// std::integral_constant, so that its groups of rows, their remainders and the target's inner loops' counts are known
// at compile time, and q15/attention.hpp's with the keys' size (the target's scores for it: kScoresDim); an image
// holds only the forms of its own shapes. The models include this where SARNN_Q15_SHAPED (q15/target.hpp: the M4, M7
// and M55); anything may include it (the host's tests do, to check the shaped forms against the run-time ones).
#ifndef SARNN_KERNELS_Q15_SHAPED_HPP
#define SARNN_KERNELS_Q15_SHAPED_HPP

#include <cstddef>
#include <type_traits>

#include "sarnn/kernels/q15/affine.hpp"
#include "sarnn/kernels/q15/attention.hpp"
#include "sarnn/kernels/q15/cells.hpp"
#include "sarnn/kernels_q15.hpp"

namespace sarnn::kernel {

// (noinline: one call from the model's step, as the run-time forms are; the model's frame stays its own)
template <class Which>
template <std::size_t R, std::size_t Nx, std::size_t Nr>
__attribute__((noinline)) void Q15Set<Which>::affine_tanh_at(const QAffine& a, const q15* x, const q15* r,
                                                             q15* y) noexcept {
    kernel::affine_tanh<loops_t<Which>>(a, Group<R>{}, x, Group<Nx>{}, r, Group<Nr>{}, y);
}

template <class Which>
template <std::size_t R, std::size_t Nx, std::size_t Nr>
__attribute__((noinline)) void Q15Set<Which>::affine_at(const QGates& a, const q15* x, const q15* r, q15* z) noexcept {
    kernel::affine<loops_t<Which>>(a, Group<R>{}, x, Group<Nx>{}, r, Group<Nr>{}, z);
}

template <class Which>
template <std::size_t R, std::size_t Nx, std::size_t Nr>
__attribute__((noinline)) void Q15Set<Which>::gru_gates_at(const QGru& a, const q15* x, const q15* h, q15* gi,
                                                           q15* gh) noexcept {
    kernel::gru_gates_any<loops_t<Which>>(a, Group<R>{}, x, Group<Nx>{}, h, Group<Nr>{}, gi, gh);
}

template <class Which>
template <std::size_t Dim, Q15Stride St>
__attribute__((noinline)) void Q15Set<Which>::attend_dot_shaped(const Rows<q15>& S, const q15* q, q15* alpha,
                                                                q15* c) noexcept {
    kernel::Attention<Which, stride_of<Which>(St), Dim>::dot(S, q, alpha, c);
}

template <class Which>
template <std::size_t Dim>
__attribute__((noinline)) void Q15Set<Which>::attend_query_shaped(const Rows<q15>& E, const q15* q, QueryScale scale,
                                                                  const Rows<q15>& S, q15* alpha, q15* c) noexcept {
    kernel::Attention<Which, q15_loops::kAnyStride, Dim>::query(E, q, scale, S, alpha, c);
}

template <class Which>
template <std::size_t H>
__attribute__((noinline)) std::size_t Q15Set<Which>::lstm_cell_at(const q15* z, const q15* c_tilde, q15* c,
                                                                  q15* h) noexcept {
    return kernel::lstm_cell<loops_t<Which>>(z, c_tilde, Group<H>{}, c, h);
}

template <class Which>
template <std::size_t H>
__attribute__((noinline)) void Q15Set<Which>::gru_cell_at(const q15* gi, const q15* gh, const q15* h_prev,
                                                          q15* h) noexcept {
    kernel::gru_cell<loops_t<Which>>(gi, gh, h_prev, H, h);
}

}  // namespace sarnn::kernel

#endif
