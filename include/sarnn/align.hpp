// sarnn/align.hpp: the align functions e_ij = align(h_j, h_i) of SelfAttentionRnn.
//
// An align is a tag type used as the `Align` template argument. It names a nested `State<T, Hidden, Capacity>`
// that the model holds as a member: whatever the align must keep between steps (nothing for the dot forms;
// a params reference, a transformed query or cached per-state keys for the parameterised forms) is in it, so
// `sizeof(model)` still shows all the RAM. The model calls, in this order, each step:
//   state.push(k, slot, h)            h_i has just been written to memory row `slot` (cache per-state data)
//   state.attend(k, memory, h, alpha, c)   alpha_i = softmax_j(align(h_j, h_i)), c_i = Σ_j alpha_ij h_j
// and `reset()` on model reset. `has_params` tells whether the model's constructor takes align params,
// `params_type` (for the parameterised aligns) is their aggregate.
//
// | align            | e_ij                   | cost of a step at i states                               | RAM beyond the memory  |
// |------------------|------------------------|----------------------------------------------------------|------------------------|
// | DotAlign         | h_j·h_i                | 2·i·Hidden                                               | none                   |
// | ScaledDotAlign   | h_j·h_i / sqrt(Hidden) | 2·i·Hidden                                               | none                   |
// | BilinearAlign    | h_jᵀ W h_i             | Hidden² + 2·i·Hidden                                     | one row of Hidden      |
// | KeyQueryAlign<K> | (Wk h_j)·(Wq h_i)      | 4·K <= Hidden (keys cached): 2·K·Hidden + i·(K + Hidden) | Capacity rows of K + 1 |
// |                  |                        | otherwise (Wk folded): 2·K·Hidden + 2·i·Hidden           | rows of K and Hidden   |
// | AdditiveAlign<K> | v·tanh(W [h_j; h_i])   | 2·K·Hidden + i·K tanh + i·Hidden                         | Capacity rows of K + 1 |
// (multiply-adds; all add i exps for the softmax). KeyQueryAlign<K, KeyQueryPlan::cache> / <K, KeyQueryPlan::fold>
// force either form of key/query whatever K and Hidden are.
#ifndef SARNN_ALIGN_HPP
#define SARNN_ALIGN_HPP

#include <cmath>
#include <cstddef>
#include <type_traits>

#include "sarnn/kernels.hpp"
#include "sarnn/params.hpp"

namespace sarnn {

/// e_ij = h_j · h_i (Luong's "dot"; Keras Attention(score_mode="dot")).
/// Cost per step: O(i·Hidden) multiply-adds for the scores and as many for the weighted sum. No extra RAM.
struct DotAlign {
    template <class T, std::size_t Hidden, std::size_t Capacity>
    struct State {
        static constexpr bool has_params = false;
        using params_type = void;
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
        using params_type = void;
        void reset() noexcept {}
        void push(const Kernels<T>&, std::size_t, const T*) noexcept {}
        // e_ij = h_j·h_i / sqrt(Hidden); alpha = softmax(e); c = Σ alpha_j h_j
        void attend(const Kernels<T>& k, const Rows<T>& memory, const T* h, T* alpha, T* c) const noexcept {
            k.attend_dot(memory, h, T(1) / std::sqrt(T(Hidden)), alpha, c);
        }
    };
};

/// e_ij = h_j^T W h_i (Luong's "general" score), params BilinearParams<T, Hidden>.
/// Done once per step, not per state: q = W h_i (Hidden² multiply-adds), then e_ij = h_j·q, so a step costs
/// Hidden² + 2·i·Hidden. RAM: one padded row (q) and a params reference.
struct BilinearAlign {
    template <class T, std::size_t Hidden, std::size_t Capacity>
    struct State {
        static constexpr bool has_params = true;
        using params_type = BilinearParams<T, Hidden>;

        explicit State(const params_type& p) noexcept : p_(p) {
            for (T& v : q_) v = T(0);
        }
        void reset() noexcept {}
        void push(const Kernels<T>&, std::size_t, const T*) noexcept {}
        void attend(const Kernels<T>& k, const Rows<T>& memory, const T* h, T* alpha, T* c) noexcept {
            // q = W h_i
            k.gemv(&p_.W[0][0], Hidden, Hidden, Hidden, h, q_);
            // e_ij = h_j·q; alpha = softmax(e); c = Σ alpha_j h_j
            k.attend_dot(memory, q_, T(1), alpha, c);
        }

    private:
        const params_type& p_;
        alignas(storage_alignment<T>()) T q_[padded<T>(Hidden)];
    };
};

/// How KeyQueryAlign<K, Plan> computes its scores (both give the same e_ij, up to rounding):
///   cache    keys P_j = Wk h_j kept per stored state (Capacity rows of K: `sizeof` shows them), e_ij = P_j·(Wq h_i):
///            K + Hidden multiply-adds per state and step
///   fold     no keys kept: q = Wkᵀ(Wq h_i) once per step, e_ij = h_j·q: 2·Hidden per state and step, no RAM
///   by_size  (the default) cache when 4·K <= Hidden, fold otherwise. Caching saves Hidden - K multiply-adds per
///            state but reads K more values per state (the keys, beside the states c needs anyway), so it pays
///            only for small keys. Measured on a Xeon (AVX-512, Hidden 64, float, n = 1024, one run side by side):
///            K = 16 cache 12% faster than fold; K = 24 fold 4% faster, K = 32 even, K = 64 and 96 fold 24-26% faster.
enum class KeyQueryPlan : unsigned char { by_size, cache, fold };

/// e_ij = (Wk h_j)·(Wq h_i), params KeyQueryParams<T, Hidden, K>. No 1/sqrt(K) is applied: fold a scale into Wq.
/// The algebra is done once per step or once per state, never once per pair (i, j): each step computes
/// u = Wq h_i (K·Hidden). Then, by Plan (see KeyQueryPlan; by default cache when 4·K <= Hidden):
///   cache: P_i = Wk h_i when h_i enters the memory (K·Hidden), e_ij = P_j·u over the cached keys: a step costs
///          2·K·Hidden + i·(K + Hidden). RAM: Capacity rows of K (the keys) and one more (u), a params reference.
///   fold:  q = Wkᵀ u (K·Hidden), e_ij = h_j·q: a step costs 2·K·Hidden + 2·i·Hidden. RAM: rows of K and Hidden.
template <std::size_t K, KeyQueryPlan Plan = KeyQueryPlan::by_size>
struct KeyQueryAlign {
    template <class T, std::size_t Hidden, std::size_t Capacity>
    struct State {
        static constexpr bool has_params = true;
        using params_type = KeyQueryParams<T, Hidden, K>;
        /// true: keys cached per state; false: Wk folded into the query.
        static constexpr bool caches_keys =
            Plan == KeyQueryPlan::cache || (Plan == KeyQueryPlan::by_size && 4 * K <= Hidden);

        explicit State(const params_type& p) noexcept : p_(p) {
            for (T& v : u_) v = T(0);
            for (auto& row : buf_.rows)
                for (T& v : row) v = T(0);
        }
        void reset() noexcept {}
        // The step's query (and, when caching, the new state's key): h_i has just been written to row `slot`.
        void push(const Kernels<T>& k, std::size_t slot, const T* h) noexcept {
            // u = Wq h_i
            k.gemv(&p_.Wq[0][0], K, Hidden, Hidden, h, u_);
            if constexpr (caches_keys) {
                // P_i = Wk h_i, once per state
                k.gemv(&p_.Wk[0][0], K, Hidden, Hidden, h, buf_.rows[slot]);
            } else {
                // q = Wkᵀ u, so that h_j·q = (Wk h_j)·(Wq h_i)
                (void)slot;
                k.gemv_t(&p_.Wk[0][0], K, Hidden, Hidden, u_, buf_.rows[0]);
            }
        }
        void attend(const Kernels<T>& k, const Rows<T>& memory, const T*, T* alpha, T* c) const noexcept {
            if constexpr (caches_keys) {
                // e_ij = P_j·u; alpha = softmax(e); c = Σ alpha_j h_j
                const Rows<T> P{&buf_.rows[0][0], padded<T>(K), K, Capacity, memory.first, memory.n};
                k.attend_keys(P, u_, memory, alpha, c);
            } else {
                // e_ij = h_j·q; alpha = softmax(e); c = Σ alpha_j h_j
                k.attend_dot(memory, buf_.rows[0], T(1), alpha, c);
            }
        }

    private:
        // cache: the keys P_j (row j of the memory's row j); fold: q in one row of Hidden
        struct Keys {
            alignas(storage_alignment<T>()) T rows[Capacity][padded<T>(K)];
        };
        struct Query {
            alignas(storage_alignment<T>()) T rows[1][padded<T>(Hidden)];
        };

        const params_type& p_;
        alignas(storage_alignment<T>()) T u_[padded<T>(K)];
        std::conditional_t<caches_keys, Keys, Query> buf_;
    };
};

/// e_ij = v·tanh(W [h_j; h_i]) (Bahdanau), params AdditiveParams<T, Hidden, K>.
/// The stored-state half is applied once, when a state enters the memory: P_j = W[:, :Hidden] h_j is kept
/// (Capacity rows of K values: `sizeof` shows them). A step then computes q = W[:, Hidden:] h_i (K·Hidden) and
/// e_ij = v·tanh(P_j + q) (i·K tanh), then c_i = Σ alpha_ij h_j (i·Hidden): O(i·K) per step.
template <std::size_t K>
struct AdditiveAlign {
    template <class T, std::size_t Hidden, std::size_t Capacity>
    struct State {
        static constexpr bool has_params = true;
        using params_type = AdditiveParams<T, Hidden, K>;

        explicit State(const params_type& p) noexcept : p_(p) {
            for (auto& row : P_)
                for (T& v : row) v = T(0);
            for (T& v : q_) v = T(0);
        }
        void reset() noexcept {}
        void push(const Kernels<T>& k, std::size_t slot, const T* h) noexcept {
            // P_j = W[:, :Hidden] h_j, once per state
            k.gemv(&p_.W[0][0], K, Hidden, 2 * Hidden, h, P_[slot]);
        }
        void attend(const Kernels<T>& k, const Rows<T>& memory, const T* h, T* alpha, T* c) noexcept {
            // q = W[:, Hidden:] h_i
            k.gemv(&p_.W[0][Hidden], K, Hidden, 2 * Hidden, h, q_);
            // e_ij = v·tanh(P_j + q)
            const Rows<T> P{&P_[0][0], padded<T>(K), K, Capacity, memory.first, memory.n};
            k.additive_scores(P, q_, p_.v, alpha);
            // alpha_ij = softmax_j(e_ij)
            k.softmax(alpha, memory.n);
            // c_i = Σ_j alpha_ij h_j
            k.weighted_sum(alpha, memory, c);
        }

    private:
        const params_type& p_;
        alignas(storage_alignment<T>()) T P_[Capacity][padded<T>(K)];
        alignas(storage_alignment<T>()) T q_[padded<T>(K)];
    };
};

}  // namespace sarnn

#endif
