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
#ifndef SARNN_CELL_HPP
#define SARNN_CELL_HPP

#include <cstddef>

#include "sarnn/detail/affine.hpp"
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

}  // namespace sarnn

#endif
