// sarnn/cell.hpp: the recurrent cells of SelfAttentionRnn, h_i = cell(x_i, c_{i-1}).
//
// A cell is a tag type used as the `Cell` template argument of SelfAttentionRnn. It names a nested
// `State<T, In, Hidden>` that the model derives from (an empty State costs no RAM): `params_type`, the aggregate of
// its weights, and
//   state.step<Set>(p, x, r, h)    h = cell(x, r): x has In values, r (the recurrent input, c_{i-1}) and h are
//                                  padded rows of Hidden (h must not alias r); Set is the model's kernel set
// whose result the model checks for non-finite values (float) before it keeps it. What the step needs between its
// kernel calls (the GRU's gate pre-activations) is in the State, so `sizeof(model)` still shows all the RAM.
//
// | cell      | h_i                        | multiply-adds per step | RAM in the model |
// |-----------|----------------------------|------------------------|------------------|
// | ElmanCell | tanh(A·[x_i; c_{i-1}] + b) | Hidden·(In + Hidden)   | none             |
// | GruCell   | GRU(x_i, c_{i-1})          | 3·Hidden·(In + Hidden) | 6·Hidden values  |
// GruCell is PyTorch's GRU with the context c_{i-1} as its recurrent input in every gate and in the interpolation:
// r = σ(W_ir x_i + b_ir + W_hr c_{i-1} + b_hr), z = σ(W_iz x_i + b_iz + W_hz c_{i-1} + b_hz),
// n = tanh(W_in x_i + b_in + r ⊙ (W_hn c_{i-1} + b_hn)), h_i = (1 - z) ⊙ n + z ⊙ c_{i-1}; params GruParams<T, In,
// Hidden> (params.hpp; for q15 its integer formulas, the same as Gru<q15>'s).
#ifndef SARNN_CELL_HPP
#define SARNN_CELL_HPP

#include <cstddef>

#include "sarnn/detail/affine.hpp"
#include "sarnn/detail/gru_step.hpp"
#include "sarnn/kernels.hpp"
#include "sarnn/numeric.hpp"
#include "sarnn/params.hpp"

namespace sarnn {

/// The Elman cell (the default): h_i = tanh(A·[x_i; c_{i-1}] + b), params RnnParams<T, In, Hidden>.
/// Cost per step: Hidden·(In + Hidden) multiply-adds and Hidden tanh. No RAM of its own.
struct ElmanCell {
    template <class T, std::size_t In, std::size_t Hidden>
    struct State {
        using V = activation_t<T>;
        using params_type = RnnParams<T, In, Hidden>;
        // h = tanh(A·[x; r] + b)
        template <class Set>
        void step(const params_type& p, const V* x, const V* r, V* h) noexcept {
            detail::affine_tanh<Set>(p, x, r, h);
        }
    };
};

/// The GRU cell: h_i = GRU(x_i, c_{i-1}) (the formulas above), params GruParams<T, In, Hidden>.
/// Cost per step: 3·Hidden·(In + Hidden) multiply-adds, 2·Hidden σ and Hidden tanh. RAM: the gate rows gi and gh,
/// 3·Hidden values each (rewritten every step: a refused step leaves nothing in them that the next one reads).
struct GruCell {
    template <class T, std::size_t In, std::size_t Hidden>
    struct State {
        using V = activation_t<T>;
        using params_type = GruParams<T, In, Hidden>;
        // h = GRU(x, c): r, z = σ(W_i x + b_i + W_h c + b_h), n = tanh(W_in x + b_in + r ⊙ (W_hn c + b_hn)),
        // h = n + z ⊙ (c - n)
        template <class Set>
        void step(const params_type& p, const V* x, const V* c, V* h) noexcept {
            detail::gru_step<Set>(p, x, c, gi_, gh_, h);
        }

    private:
        alignas(storage_alignment<V>()) V gi_[3 * Hidden] = {};
        alignas(storage_alignment<V>()) V gh_[3 * Hidden] = {};
    };
};

}  // namespace sarnn

#endif
