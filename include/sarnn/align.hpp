// sarnn/align.hpp: the align functions e_ij = align(h_j, h_i) of SelfAttentionRnn.
//
// An align is a tag type used as the `Align` template argument. It names a nested `State<T, Hidden, NRows>`
// (NRows: the physical rows of the model's memory) that the model holds as a member: whatever the align must
// keep between steps (nothing for the dot forms; a params reference, a transformed query or cached per-state
// keys for the parameterised forms) is in it, so `sizeof(model)` still shows all the RAM. The model calls, in
// this order, each step:
//   state.query(k, slot, h)           h_i has just been written to the free memory row `slot`: compute what
//                                      this step's scores need (the query; the key of h_i, cached in row
//                                      `slot`) and return Status::non_finite_result, changing nothing any view
//                                      shows, if a score could overflow (|e_ij| > score_limit<T>())
//   state.attend(k, memory, h, alpha, c)   alpha_i = softmax_j(align(h_j, h_i)), c_i = Σ_j alpha_ij h_j
// and `reset()` on model reset. Every stored h_j is in [-1, 1], so a score e_ij = h_j·q is bounded by the
// query's Σ|q_k|, and v·tanh(..) by Σ|v_k|: query() checks those sums, once per step, never per state. `has_params` tells whether the model's constructor takes align params,
// `params_type` (for the parameterised aligns) is their aggregate.
//
// | align               | e_ij                      | cost of a step at i states       | RAM beyond the memory  |
// |---------------------|---------------------------|----------------------------------|------------------------|
// | DotAlign            | h_j·h_i                   | 2·i·Hidden                       | none                   |
// | ScaledDotAlign      | h_j·h_i / sqrt(Hidden)    | 2·i·Hidden                       | none                   |
// | BilinearAlign       | h_jᵀ W h_i                | Hidden² + 2·i·Hidden             | one row of Hidden      |
// | KeyQueryAlign<K>    | (Wk h_j)·(Wq h_i)         | 2·K·Hidden + 2·i·Hidden          | rows of K and Hidden   |
// | AdditiveAlign<K>    | v·tanh(W [h_j; h_i])      | 2·K·Hidden + i·K tanh + i·Hidden | memory rows of K + 1   |
// (multiply-adds; all add i exps for the softmax)
#ifndef SARNN_ALIGN_HPP
#define SARNN_ALIGN_HPP

#include <cmath>
#include <cstddef>

#include "sarnn/detail/finite.hpp"
#include "sarnn/kernels.hpp"
#include "sarnn/params.hpp"
#include "sarnn/status.hpp"

namespace sarnn {

/// e_ij = h_j · h_i (Luong's "dot"; Keras Attention(score_mode="dot")).
/// Cost per step: O(i·Hidden) multiply-adds for the scores and as many for the weighted sum. No extra RAM.
struct DotAlign {
    template <class T, std::size_t Hidden, std::size_t NRows>
    struct State {
        static constexpr bool has_params = false;
        using params_type = void;
        void reset() noexcept {}
        // |e_ij| <= Hidden: nothing can overflow
        Status query(const Kernels<T>&, std::size_t, const T*) noexcept { return Status::ok; }
        // e_ij = h_j·h_i; alpha = softmax(e); c = Σ alpha_j h_j
        void attend(const Kernels<T>& k, const Rows<T>& memory, const T* h, T* alpha, T* c) const noexcept {
            k.attend_dot(memory, h, T(1), alpha, c);
        }
    };
};

/// e_ij = h_j · h_i / sqrt(Hidden) (the scaled dot product of Transformers; Keras MultiHeadAttention).
/// Cost per step: as DotAlign. No extra RAM.
struct ScaledDotAlign {
    template <class T, std::size_t Hidden, std::size_t NRows>
    struct State {
        static constexpr bool has_params = false;
        using params_type = void;
        void reset() noexcept {}
        // |e_ij| <= sqrt(Hidden): nothing can overflow
        Status query(const Kernels<T>&, std::size_t, const T*) noexcept { return Status::ok; }
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
    template <class T, std::size_t Hidden, std::size_t NRows>
    struct State {
        static constexpr bool has_params = true;
        using params_type = BilinearParams<T, Hidden>;

        State(const params_type&&) = delete;  // sarnn: align params must outlive the model: pass a named object, not a temporary
        explicit State(const params_type& p) noexcept : p_(p) {
            for (T& v : q_) v = T(0);
        }
        void reset() noexcept {}
        Status query(const Kernels<T>& k, std::size_t, const T* h) noexcept {
            // q = W h_i
            k.gemv(&p_.W[0][0], Hidden, Hidden, Hidden, h, q_);
            // |e_ij| = |h_j·q| <= Σ|q_k|
            return detail::bounds_scores(q_, Hidden) ? Status::ok : Status::non_finite_result;
        }
        void attend(const Kernels<T>& k, const Rows<T>& memory, const T*, T* alpha, T* c) const noexcept {
            // e_ij = h_j·q; alpha = softmax(e); c = Σ alpha_j h_j
            k.attend_dot(memory, q_, T(1), alpha, c);
        }

    private:
        const params_type& p_;
        alignas(storage_alignment<T>()) T q_[padded<T>(Hidden)];
    };
};

/// e_ij = (Wk h_j)·(Wq h_i), params KeyQueryParams<T, Hidden, K>. No 1/sqrt(K) is applied: fold a scale into Wq.
/// Done once per step, not per state: u = Wq h_i, q = Wkᵀ u (2·K·Hidden multiply-adds), then e_ij = h_j·q, so a
/// step costs 2·K·Hidden + 2·i·Hidden, never i·K·Hidden. RAM: rows of K and Hidden values, a params reference.
template <std::size_t K>
struct KeyQueryAlign {
    template <class T, std::size_t Hidden, std::size_t NRows>
    struct State {
        static constexpr bool has_params = true;
        using params_type = KeyQueryParams<T, Hidden, K>;

        State(const params_type&&) = delete;  // sarnn: align params must outlive the model: pass a named object, not a temporary
        explicit State(const params_type& p) noexcept : p_(p) {
            for (T& v : u_) v = T(0);
            for (T& v : q_) v = T(0);
        }
        void reset() noexcept {}
        Status query(const Kernels<T>& k, std::size_t, const T* h) noexcept {
            // u = Wq h_i
            k.gemv(&p_.Wq[0][0], K, Hidden, Hidden, h, u_);
            // q = Wkᵀ u, so that h_j·q = (Wk h_j)·(Wq h_i)
            k.gemv_t(&p_.Wk[0][0], K, Hidden, Hidden, u_, q_);
            // |e_ij| = |h_j·q| <= Σ|q_k|
            return detail::bounds_scores(q_, Hidden) ? Status::ok : Status::non_finite_result;
        }
        void attend(const Kernels<T>& k, const Rows<T>& memory, const T*, T* alpha, T* c) const noexcept {
            // e_ij = h_j·q; alpha = softmax(e); c = Σ alpha_j h_j
            k.attend_dot(memory, q_, T(1), alpha, c);
        }

    private:
        const params_type& p_;
        alignas(storage_alignment<T>()) T u_[padded<T>(K)];
        alignas(storage_alignment<T>()) T q_[padded<T>(Hidden)];
    };
};

/// e_ij = v·tanh(W [h_j; h_i]) (Bahdanau), params AdditiveParams<T, Hidden, K>.
/// The stored-state half is applied once, when a state enters the memory: P_j = W[:, :Hidden] h_j is kept
/// (a row of K values per memory row: `sizeof` shows them). A step then computes q = W[:, Hidden:] h_i (K·Hidden) and
/// e_ij = v·tanh(P_j + q) (i·K tanh), then c_i = Σ alpha_ij h_j (i·Hidden): O(i·K) per step.
template <std::size_t K>
struct AdditiveAlign {
    template <class T, std::size_t Hidden, std::size_t NRows>
    struct State {
        static constexpr bool has_params = true;
        using params_type = AdditiveParams<T, Hidden, K>;

        State(const params_type&&) = delete;  // sarnn: align params must outlive the model: pass a named object, not a temporary
        explicit State(const params_type& p) noexcept : p_(p) {
            for (auto& row : P_)
                for (T& v : row) v = T(0);
            for (T& v : q_) v = T(0);
        }
        void reset() noexcept {}
        Status query(const Kernels<T>& k, std::size_t slot, const T* h) noexcept {
            // P_i = W[:, :Hidden] h_i, once per state, into the free row `slot`
            k.gemv(&p_.W[0][0], K, Hidden, 2 * Hidden, h, P_[slot]);
            // q = W[:, Hidden:] h_i
            k.gemv(&p_.W[0][Hidden], K, Hidden, 2 * Hidden, h, q_);
            // P_j + q is finite or +-inf (tanh gives +-1), never NaN; |e_ij| = |v·tanh(..)| <= Σ|v_k|
            const bool ok = detail::all_finite(P_[slot], K) && detail::all_finite(q_, K) &&
                            detail::bounds_scores(p_.v, K);
            return ok ? Status::ok : Status::non_finite_result;
        }
        void attend(const Kernels<T>& k, const Rows<T>& memory, const T*, T* alpha, T* c) const noexcept {
            // e_ij = v·tanh(P_j + q)
            const Rows<T> P{&P_[0][0], padded<T>(K), K, memory.cap, memory.first, memory.n};
            k.additive_scores(P, q_, p_.v, alpha);
            // alpha_ij = softmax_j(e_ij)
            k.softmax(alpha, memory.n);
            // c_i = Σ_j alpha_ij h_j
            k.weighted_sum(alpha, memory, c);
        }

    private:
        const params_type& p_;
        alignas(storage_alignment<T>()) T P_[NRows][padded<T>(K)];
        alignas(storage_alignment<T>()) T q_[padded<T>(K)];
    };
};

}  // namespace sarnn

#endif
