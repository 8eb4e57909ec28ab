// sarnn/params.hpp: the weights of each model, as plain aggregates.
//
// They hold no pointers and need no constructor, so they can be `constexpr` or `const` and sit in flash.
// A model keeps a reference to its params and never copies them.
#ifndef SARNN_PARAMS_HPP
#define SARNN_PARAMS_HPP

#include <cstddef>

#include "sarnn/detail/checks.hpp"

namespace sarnn {

/// Weights of SimpleRnn and SelfAttentionRnn: `h_i = tanh(A·[x_i; r_{i-1}] + b)`.
/// `A` is Hidden x (In + Hidden), row-major; its first In columns act on x_i, the other Hidden on the
/// recurrent vector r (h_{i-1} for SimpleRnn, c_{i-1} for SelfAttentionRnn).
/// PyTorch nn.RNNCell: A = [W_ih | W_hh], b = b_ih + b_hh.
template <class T, std::size_t In, std::size_t Hidden>
struct RnnParams {
    static_assert(detail::supported_scalar<T>, "sarnn: T must be float or double");
    static_assert(In > 0, "sarnn: In (input size) must be at least 1");
    static_assert(Hidden > 0, "sarnn: Hidden (state size) must be at least 1");

    T A[Hidden][In + Hidden];
    T b[Hidden];
};

}  // namespace sarnn

#endif
