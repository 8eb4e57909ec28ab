// sarnn/align.hpp: the align functions e_ij = align(h_j, h_i) of SelfAttentionRnn.
//
// An align is a tag type used as the `Align` template argument. It names a nested `State<T, Hidden, Capacity>`
// that the model holds as a member: whatever the align must keep between steps (nothing for the dot forms;
// a params reference, a transformed query or cached per-state keys for the parameterised forms) is in it, so
// `sizeof(model)` still shows all the RAM. The model calls, in this order, each step:
//   state.push(k, slot, h)            h_i has just been written to memory row `slot` (cache per-state data)
//   state.attend(k, memory, h, alpha, c)   alpha_i = softmax_j(align(h_j, h_i)), c_i = Σ_j alpha_ij h_j
// and `reset()` on model reset. `has_params` tells whether the model's constructor takes align params.
#ifndef SARNN_ALIGN_HPP
#define SARNN_ALIGN_HPP

#include <cmath>
#include <cstddef>

#include "sarnn/kernels.hpp"

namespace sarnn {

/// e_ij = h_j · h_i (Luong's "dot"; Keras Attention(score_mode="dot")).
/// Cost per step: O(i·Hidden) multiply-adds for the scores and as many for the weighted sum. No extra RAM.
struct DotAlign {
    template <class T, std::size_t Hidden, std::size_t Capacity>
    struct State {
        static constexpr bool has_params = false;
        void reset() noexcept {}
        void push(const Kernels<T>&, std::size_t, const T*) noexcept {}
        // e_ij = h_j·h_i; alpha = softmax(e); c = Σ alpha_j h_j
        void attend(const Kernels<T>& k, const Rows<T>& memory, const T* h, T* alpha, T* c) const noexcept {
            k.attend_dot(memory, h, T(1), alpha, c);
        }
    };
};

/// e_ij = h_j · h_i / sqrt(Hidden) (the scaled dot product of Transformers; Keras MultiHeadAttention).
/// Cost per step: as DotAlign. No extra RAM.
struct ScaledDotAlign {
    template <class T, std::size_t Hidden, std::size_t Capacity>
    struct State {
        static constexpr bool has_params = false;
        void reset() noexcept {}
        void push(const Kernels<T>&, std::size_t, const T*) noexcept {}
        // e_ij = h_j·h_i / sqrt(Hidden); alpha = softmax(e); c = Σ alpha_j h_j
        void attend(const Kernels<T>& k, const Rows<T>& memory, const T* h, T* alpha, T* c) const noexcept {
            k.attend_dot(memory, h, T(1) / std::sqrt(T(Hidden)), alpha, c);
        }
    };
};

}  // namespace sarnn

#endif
