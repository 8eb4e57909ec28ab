// sarnn/detail/gru_step.hpp: one GRU step, h = GRU(x, h_prev), for every value type: the kernel calls of Gru
// (h_prev = h_{i-1}) and of SelfAttentionRnn's GruCell (h_prev = c_{i-1}), with what the params of T hold.
#ifndef SARNN_DETAIL_GRU_STEP_HPP
#define SARNN_DETAIL_GRU_STEP_HPP

#include <cstddef>

#include "sarnn/detail/q15_rows.hpp"
#include "sarnn/detail/shaped.hpp"
#include "sarnn/kernels_q15.hpp"
#include "sarnn/numeric.hpp"
#include "sarnn/params.hpp"

namespace sarnn::detail {

/// h = GRU(x, h_prev) on the kernel set Ops: r = σ(W_ir x + b_ir + W_hr h_prev + b_hr), z = σ(..), n = tanh(W_in x
/// + b_in + r ⊙ (W_hn h_prev + b_hn)), h = (1 - z) ⊙ n + z ⊙ h_prev (the recurrent input h_prev in every gate and in
/// the interpolation). x has In values; h_prev and h are padded rows of Hidden (h must not alias h_prev); gi and gh hold 3·Hidden values each
/// (scratch: the gate rows). backward: the set may visit the rows in the opposite order (float and double on the x86
/// sets: kernels.hpp's gru_step), the same result either way; a model that alternates it from step
/// to step begins each step on the rows the last one ended on, still in cache where the weights outgrow L1.
/// Cost: 3·Hidden·(In + Hidden) multiply-adds, 2·Hidden σ and Hidden tanh.
template <class Ops, class T, std::size_t In, std::size_t Hidden>
void gru_step(const GruParams<T, In, Hidden>& p, const activation_t<T>* x, const activation_t<T>* h_prev,
              activation_t<T>* gi, activation_t<T>* gh, activation_t<T>* h, bool backward = false) noexcept {
    (void)backward;  // (float and double on the x86 sets only)
    if constexpr (Numeric<T>::floating) {
        using K = shaped<Ops, T>;
        if constexpr (!K::whole_steps()) {
            // gi = W_ih x, gh = W_hh h_prev
            // (the sizes at compile time: the set's shaped forms where it has them, detail/shaped.hpp)
            K::template gemv<3 * Hidden, In, In>(&p.W_ih[0][0], x, gi);
            K::template gemv<3 * Hidden, Hidden, Hidden>(&p.W_hh[0][0], h_prev, gh);
            // r, z = σ(gi + b_ih + gh + b_hh), n = tanh(gi_n + b_in + r ⊙ (gh_n + b_hn)); h = n + z ⊙ (h_prev - n)
            K::template gru_cell<Hidden>(gi, gh, p.b_ih, p.b_hh, h_prev, h);
        } else {
            // the whole step in one call (x86: the set's one pass over W_ih and W_hh where it has one)
            Ops::gru_step(&p.W_ih[0][0], &p.W_hh[0][0], p.b_ih, p.b_hh, In, Hidden, x, h_prev, gi, gh, h, backward);
        }
    } else {
        // gi = W_ih x + b_ih and gh = W_hh h_prev + b_hh in Q3.12, one pass over both matrices
        q15_gru_gates<Ops, 3 * Hidden, In, Hidden>(
            QGru{&p.W_ih[0][0], &p.W_hh[0][0], p.b_ih, p.b_hh, p.m, p.shift, p.x_m, p.x_shift}, x, h_prev, gi, gh);
        // r, z = σ(gi + gh), n = tanh(gi_n + r·gh_n), h = n + z·(h_prev - n), in Q15
        q15_gru_cell<Ops, Hidden>(gi, gh, h_prev, h);
    }
}

}  // namespace sarnn::detail

#endif
