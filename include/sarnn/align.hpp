// sarnn/align.hpp: the align functions e_ij = align(h_j, h_i) of SelfAttentionRnn.
//
// An align is a tag type used as the `Align` template argument. It names a nested `State<T, Hidden, NRows>`
// (NRows: the physical rows of the model's memory) that the model holds as a member: whatever the align must
// keep between steps (nothing for the dot forms; a params reference, a transformed query or cached per-state
// keys for the parameterised forms) is in it, so `sizeof(model)` still shows all the RAM. The model calls, in
// this order, each step:
//   state.query<Set>(slot, h)         h_i has just been written to the free memory row `slot`: compute what
//                                      this step's scores need (the query; the key of h_i, cached in row
//                                      `slot`) and return Status::non_finite_result, changing nothing any view
//                                      shows, if a score could overflow (|e_ij| > score_limit<T>())
//   state.attend<Set>(memory, h, alpha, c)   alpha_i = softmax_j(align(h_j, h_i)), c_i = Σ_j alpha_ij h_j
// (Set: the model's kernel set, see kernels.hpp)
// and `reset()` on model reset. Every stored h_j is in [-1, 1], so a score e_ij = h_j·q is bounded by the
// query's Σ|q_k|, and v·tanh(..) by Σ|v_k|: query() checks those sums, once per step, never per state.
// `has_params` tells whether the model's constructor takes align params, `params_type` (for the parameterised
// aligns) is their aggregate.
//
// | align            | e_ij                   | cost of a step at i states                               | RAM beyond the memory  |
// |------------------|------------------------|----------------------------------------------------------|------------------------|
// | DotAlign         | h_j·h_i                | 2·i·Hidden                                               | none                   |
// | ScaledDotAlign   | h_j·h_i / sqrt(Hidden) | 2·i·Hidden                                               | none                   |
// | BilinearAlign    | h_jᵀ W h_i             | Hidden² + 2·i·Hidden                                     | one row of Hidden      |
// | KeyQueryAlign<K> | (Wk h_j)·(Wq h_i)      | 4·K <= Hidden (keys cached): 2·K·Hidden + i·(K + Hidden) | memory rows of K + 1   |
// |                  |                        | otherwise (Wk folded): 2·K·Hidden + 2·i·Hidden           | rows of K and Hidden   |
// | AdditiveAlign<K> | v·tanh(W [h_j; h_i])   | 2·K·Hidden + i·K tanh + i·Hidden                         | memory rows of K + 1   |
// (multiply-adds; all add i exps for the softmax). KeyQueryAlign<K, KeyQueryPlan::cache> / <K, KeyQueryPlan::fold>
// force either form of key/query whatever K and Hidden are.
#ifndef SARNN_ALIGN_HPP
#define SARNN_ALIGN_HPP

#include <cmath>
#include <cstddef>
#include <type_traits>

#include "sarnn/detail/finite.hpp"
#include "sarnn/detail/q15_rows.hpp"
#include "sarnn/detail/shaped.hpp"
#include "sarnn/fixed.hpp"
#include "sarnn/kernels.hpp"
#include "sarnn/kernels_q15.hpp"
#include "sarnn/numeric.hpp"
#include "sarnn/params.hpp"
#include "sarnn/status.hpp"

namespace sarnn {

/// The dot-score context of the float aligns (dot, scaled dot, bilinear, folded key/query): alpha = softmax_j(scale·
/// (h_j·q)), c = Σ_j alpha_j h_j over the memory of NRows rows of Hidden values, by Set's form shaped for these sizes
/// where it has one (detail/shaped.hpp), else its run-time attend_dot.
namespace detail {
template <class Set, class V, std::size_t Hidden, std::size_t NRows>
void dot_context(const Rows<V>& memory, const V* q, V scale, V* alpha, V* c) noexcept {
    shaped<Set, V>::template attend_dot<Hidden, padded<V>(Hidden), NRows>(memory, q, scale, alpha, c);
}
}  // namespace detail

/// e_ij = h_j · h_i (Luong's "dot"; Keras Attention(score_mode="dot")).
/// Cost per step: O(i·Hidden) multiply-adds for the scores and as many for the weighted sum. No extra RAM.
struct DotAlign {
    template <class T, std::size_t Hidden, std::size_t NRows>
    struct State {
        using V = activation_t<T>;  // h, queries, keys (numeric.hpp)
        static constexpr bool has_params = false;
        using params_type = void;
        void reset() noexcept {}
        // |e_ij| <= Hidden: nothing can overflow
        template <class Set>
        Status query(std::size_t, const V*) noexcept {
            return Status::ok;
        }
        // e_ij = h_j·h_i; alpha = softmax(e); c = Σ alpha_j h_j
        template <class Set>
        void attend(const Rows<V>& memory, const V* h, V* alpha, V* c) const noexcept {
            if constexpr (Numeric<T>::floating)
                detail::dot_context<Set, V, Hidden, NRows>(memory, h, scale_t<T>(1), alpha, c);
            else
                detail::q15_attend_dot<Set, Hidden, padded<V>(Hidden)>(memory, h, alpha, c);
        }
    };
};

/// e_ij = h_j · h_i / sqrt(Hidden) (the scaled dot product of Transformers; Keras MultiHeadAttention).
/// Cost per step: as DotAlign. No extra RAM (q15: one padded row, the query h_i / sqrt(Hidden) in Q15).
struct ScaledDotAlign {
    template <class T, std::size_t Hidden, std::size_t NRows, bool Floating = Numeric<T>::floating>
    struct State {
        using V = activation_t<T>;  // h, queries, keys (numeric.hpp)
        static constexpr bool has_params = false;
        using params_type = void;
        void reset() noexcept {}
        // |e_ij| <= sqrt(Hidden): nothing can overflow
        template <class Set>
        Status query(std::size_t, const V*) noexcept {
            return Status::ok;
        }
        // e_ij = h_j·h_i / sqrt(Hidden); alpha = softmax(e); c = Σ alpha_j h_j
        template <class Set>
        void attend(const Rows<V>& memory, const V* h, V* alpha, V* c) const noexcept {
            detail::dot_context<Set, V, Hidden, NRows>(memory, h, scale_t<T>(1) / std::sqrt(scale_t<T>(Hidden)), alpha,
                                                       c);
        }
    };
    /// q15: the query q = h_i / sqrt(Hidden), rounded half up to Q15 once per step, then the dot context over it.
    template <class T, std::size_t Hidden, std::size_t NRows>
    struct State<T, Hidden, NRows, false> {
        using V = activation_t<T>;
        static constexpr bool has_params = false;
        using params_type = void;
        /// round(32768 / sqrt(Hidden)), from an integer square root at compile time
        static constexpr std::int32_t kScale = fixed::inv_sqrt_q15(Hidden);

        State() noexcept {
            for (V& v : q_) v = V{};
        }
        void reset() noexcept {}
        // q = h_i / sqrt(Hidden): |e_ij| <= sqrt(Hidden), nothing can overflow
        template <class Set>
        Status query(std::size_t, const V* h) noexcept {
            for (std::size_t k = 0; k < Hidden; ++k) q_[k] = fixed::mul_q15(h[k], kScale);
            return Status::ok;
        }
        // e_ij = h_j·q; alpha = softmax(e); c = Σ alpha_j h_j
        template <class Set>
        void attend(const Rows<V>& memory, const V*, V* alpha, V* c) const noexcept {
            detail::q15_attend_dot<Set, Hidden, padded<V>(Hidden)>(memory, q_, alpha, c);
        }

    private:
        alignas(storage_alignment<V>()) V q_[padded<V>(Hidden)];
    };
};

/// e_ij = h_j^T W h_i (Luong's "general" score), params BilinearParams<T, Hidden>.
/// Done once per step, not per state: q = W h_i (Hidden² multiply-adds), then e_ij = h_j·q, so a step costs
/// Hidden² + 2·i·Hidden. RAM: one padded row (q) and a params reference.
struct BilinearAlign {
    template <class T, std::size_t Hidden, std::size_t NRows, bool Floating = Numeric<T>::floating>
    struct State {
        using V = activation_t<T>;  // h, queries, keys (numeric.hpp)
        static constexpr bool has_params = true;
        using params_type = BilinearParams<T, Hidden>;

        State(const params_type&&) =
            delete;  // sarnn: align params must outlive the model: pass a named object, not a temporary
        explicit State(const params_type& p) noexcept : p_(p) {
            for (V& v : q_) v = V(0);
        }
        void reset() noexcept {}
        template <class Set>
        Status query(std::size_t, const V* h) noexcept {
            // q = W h_i
            Set::gemv(&p_.W[0][0], Hidden, Hidden, Hidden, h, q_);
            // |e_ij| = |h_j·q| <= Σ|q_k|
            return detail::bounds_scores(q_, Hidden) ? Status::ok : Status::non_finite_result;
        }
        template <class Set>
        void attend(const Rows<V>& memory, const V*, V* alpha, V* c) const noexcept {
            // e_ij = h_j·q; alpha = softmax(e); c = Σ alpha_j h_j
            detail::dot_context<Set, V, Hidden, NRows>(memory, q_, scale_t<T>(1), alpha, c);
        }

    private:
        const params_type& p_;
        alignas(storage_alignment<V>()) V q_[padded<V>(Hidden)];
    };
    /// q15: q = W h_i in Q(15 - g) (BilinearParams<q15>), rounded for the scores once per step (prepare_query), then
    /// the context with the scores h_j·q. Nothing can overflow. RAM: one padded row (q), its scale, a params reference.
    template <class T, std::size_t Hidden, std::size_t NRows>
    struct State<T, Hidden, NRows, false> {
        using V = activation_t<T>;
        static constexpr bool has_params = true;
        using params_type = BilinearParams<T, Hidden>;

        State(const params_type&&) =
            delete;  // sarnn: align params must outlive the model: pass a named object, not a temporary
        explicit State(const params_type& p) noexcept : p_(p) {
            for (V& v : q_) v = V{};
        }
        void reset() noexcept {}
        template <class Set>
        Status query(std::size_t, const V* h) noexcept {
            // q = W h_i, then q' = q / 2^s for exact scores
            Set::gemv(QMatrix{&p_.W[0][0], Hidden, Hidden, Hidden, p_.m, p_.shift}, h, q_);
            scale_ = Set::prepare_query(q_, q_, Hidden, p_.g);
            return Status::ok;
        }
        template <class Set>
        void attend(const Rows<V>& memory, const V*, V* alpha, V* c) const noexcept {
            // e_ij = h_j·q; alpha = softmax(e); c = Σ alpha_j h_j
            detail::q15_attend_query<Set, Hidden>(memory, q_, scale_, memory, alpha, c);
        }

    private:
        const params_type& p_;
        alignas(storage_alignment<V>()) V q_[padded<V>(Hidden)];
        QueryScale scale_{1, 15};
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
    template <class T, std::size_t Hidden, std::size_t NRows, bool Floating = Numeric<T>::floating>
    struct State {
        using V = activation_t<T>;  // h, queries, keys (numeric.hpp)
        static constexpr bool has_params = true;
        using params_type = KeyQueryParams<T, Hidden, K>;
        /// true: keys cached per state; false: Wk folded into the query.
        static constexpr bool caches_keys = Plan == KeyQueryPlan::cache ||
                                            (Plan == KeyQueryPlan::by_size && 4 * K <= Hidden);

        State(const params_type&&) =
            delete;  // sarnn: align params must outlive the model: pass a named object, not a temporary
        explicit State(const params_type& p) noexcept : p_(p) {
            for (V& v : u_) v = V(0);
            buf_.clear();
        }
        void reset() noexcept {
            if constexpr (caches_keys) buf_.key_max = V(0);
        }
        // The step's query (and, when caching, the new state's key): h_i has just been written to the free row
        // `slot`. Refuses (Status::non_finite_result) when a score could overflow.
        template <class Set>
        Status query(std::size_t slot, const V* h) noexcept {
            // u = Wq h_i
            Set::gemv(&p_.Wq[0][0], K, Hidden, Hidden, h, u_);
            if constexpr (caches_keys) {
                // P_i = Wk h_i, once per state, into the free row `slot` of the key blocks: straight there where a
                // block is one row (kL = 1: Cortex-M), else into `scratch` and from there into the row's lanes
                V scratch[K];
                V* const key = kL == 1 ? &buf_.blocks[slot][0][0] : scratch;
                Set::gemv(&p_.Wk[0][0], K, Hidden, Hidden, h, key);
                if constexpr (kL > 1)
                    for (std::size_t k = 0; k < K; ++k) buf_.blocks[slot / kL][k][slot % kL] = key[k];
                // |e_ij| = |P_j·u| <= max_j |P_j|_inf · Σ|u_k|; the max runs over every key taken since reset()
                if (!detail::all_finite(key, K) || !detail::all_finite(u_, K)) return Status::non_finite_result;
                const V key_abs = detail::max_abs(key, K);
                const V key_max = key_abs > buf_.key_max ? key_abs : buf_.key_max;
                if (key_max > V(0) && !(detail::sum_abs(u_, K) <= detail::score_limit<V>() / key_max))
                    return Status::non_finite_result;
                buf_.key_max = key_max;
                return Status::ok;
            } else {
                // q = Wkᵀ u, so that h_j·q = (Wk h_j)·(Wq h_i)
                (void)slot;
                Set::gemv_t(&p_.Wk[0][0], K, Hidden, Hidden, u_, buf_.q);
                // |e_ij| = |h_j·q| <= Σ|q_k|
                return detail::bounds_scores(buf_.q, Hidden) ? Status::ok : Status::non_finite_result;
            }
        }
        template <class Set>
        void attend(const Rows<V>& memory, const V*, V* alpha, V* c) const noexcept {
            if constexpr (caches_keys) {
                // e_ij = P_j·u; alpha = softmax(e); c = Σ alpha_j h_j
                const KeyBlocks<V> P{&buf_.blocks[0][0][0], K, memory.cap, memory.first, memory.n};
                Set::attend_keys(P, u_, memory, alpha, c);
            } else {
                // e_ij = h_j·q; alpha = softmax(e); c = Σ alpha_j h_j
                detail::dot_context<Set, V, Hidden, NRows>(memory, buf_.q, scale_t<T>(1), alpha, c);
            }
        }

    private:
        // cache: the keys P_j of the memory's rows, in blocks of kL rows (KeyBlocks, kernels.hpp: value k of the
        // key of row r at blocks[r / kL][k][r % kL]); fold: q in one row of Hidden
        static constexpr std::size_t kL = lanes<V>();
        struct Keys {
            alignas(storage_alignment<V>()) V blocks[padded<V>(NRows) / kL][K][kL];
            V key_max = V(0);  ///< the largest |P_j,r| of the keys taken since reset()
            void clear() noexcept {
                for (auto& block : blocks)
                    for (auto& row : block)
                        for (V& v : row) v = V(0);
            }
        };
        struct Query {
            alignas(storage_alignment<V>()) V q[padded<V>(Hidden)];
            void clear() noexcept {
                for (V& v : q) v = V(0);
            }
        };

        const params_type& p_;
        alignas(storage_alignment<V>()) V u_[padded<V>(K)];
        std::conditional_t<caches_keys, Keys, Query> buf_;
    };
    /// q15 (KeyQueryParams<q15>): the same two forms in integers, chosen by the same rule. cache: the key P_i of each
    /// state in a ring of rows beside the memory's, u = Wq h_i, the context with scores P_j·u. fold: u' = Wq h_i
    /// scaled by Wk's row scales, q = Wk_qᵀ u', the context with scores h_j·q. Nothing can overflow.
    template <class T, std::size_t Hidden, std::size_t NRows>
    struct State<T, Hidden, NRows, false> {
        using V = activation_t<T>;
        static constexpr bool has_params = true;
        using params_type = KeyQueryParams<T, Hidden, K>;
        static constexpr bool caches_keys = Plan == KeyQueryPlan::cache ||
                                            (Plan == KeyQueryPlan::by_size && 4 * K <= Hidden);

        State(const params_type&&) =
            delete;  // sarnn: align params must outlive the model: pass a named object, not a temporary
        explicit State(const params_type& p) noexcept : p_(p) {
            for (V& v : u_) v = V{};
            buf_.clear();
        }
        void reset() noexcept {}
        template <class Set>
        Status query(std::size_t slot, const V* h) noexcept {
            if constexpr (caches_keys) {
                // P_i = Wk h_i into the free row `slot`; u = Wq h_i, rounded for exact scores P_j·u
                Set::gemv(QMatrix{&p_.Wk[0][0], K, Hidden, Hidden, p_.m_k, p_.shift_k}, h, buf_.P[slot]);
                Set::gemv(QMatrix{&p_.Wq[0][0], K, Hidden, Hidden, p_.m_q, p_.shift_q}, h, u_);
                scale_ = Set::prepare_query(u_, u_, K, p_.g_k + p_.g_u);
            } else {
                // u' = diag(wk) Wq h_i; q = Wk_qᵀ u', rounded for exact scores h_j·q
                (void)slot;
                Set::gemv(QMatrix{&p_.Wq[0][0], K, Hidden, Hidden, p_.m_f, p_.shift_f}, h, u_);
                Set::gemv_t(QMatrix{&p_.Wk[0][0], K, Hidden, Hidden, nullptr, nullptr}, u_, p_.m_t, p_.shift_t, buf_.q);
                scale_ = Set::prepare_query(buf_.q, buf_.q, Hidden, p_.g);
            }
            return Status::ok;
        }
        template <class Set>
        void attend(const Rows<V>& memory, const V*, V* alpha, V* c) const noexcept {
            if constexpr (caches_keys) {
                // e_ij = P_j·u; alpha = softmax(e); c = Σ alpha_j h_j
                const Rows<V> P{&buf_.P[0][0], padded<V>(K), K, memory.cap, memory.first, memory.n};
                detail::q15_attend_query<Set, K>(P, u_, scale_, memory, alpha, c);
            } else {
                // e_ij = h_j·q; alpha = softmax(e); c = Σ alpha_j h_j
                detail::q15_attend_query<Set, Hidden>(memory, buf_.q, scale_, memory, alpha, c);
            }
        }

    private:
        struct Keys {
            alignas(storage_alignment<V>()) V P[NRows][padded<V>(K)];  ///< the keys of the memory's rows
            void clear() noexcept {
                for (auto& row : P)
                    for (V& v : row) v = V{};
            }
        };
        struct Query {
            alignas(storage_alignment<V>()) V q[padded<V>(Hidden)];
            void clear() noexcept {
                for (V& v : q) v = V{};
            }
        };

        const params_type& p_;
        alignas(storage_alignment<V>()) V u_[padded<V>(K)];
        std::conditional_t<caches_keys, Keys, Query> buf_;
        QueryScale scale_{1, 15};
    };
};

/// e_ij = v·tanh(W [h_j; h_i]) (Bahdanau), params AdditiveParams<T, Hidden, K>.
/// The stored-state half is applied once, when a state enters the memory: P_j = W[:, :Hidden] h_j is kept
/// (a row of K values per memory row: `sizeof` shows them). A step then computes q = W[:, Hidden:] h_i (K·Hidden) and
/// e_ij = v·tanh(P_j + q) (i·K tanh), then c_i = Σ alpha_ij h_j (i·Hidden): O(i·K) per step.
template <std::size_t K>
struct AdditiveAlign {
    template <class T, std::size_t Hidden, std::size_t NRows, bool Floating = Numeric<T>::floating>
    struct State {
        using V = activation_t<T>;  // h, queries, keys (numeric.hpp)
        static constexpr bool has_params = true;
        using params_type = AdditiveParams<T, Hidden, K>;

        State(const params_type&&) =
            delete;  // sarnn: align params must outlive the model: pass a named object, not a temporary
        explicit State(const params_type& p) noexcept : p_(p) {
            for (auto& row : P_)
                for (V& v : row) v = V(0);
            for (V& v : q_) v = V(0);
        }
        void reset() noexcept {}
        template <class Set>
        Status query(std::size_t slot, const V* h) noexcept {
            // P_i = W[:, :Hidden] h_i, once per state, into the free row `slot`
            Set::gemv(&p_.W[0][0], K, Hidden, 2 * Hidden, h, P_[slot]);
            // q = W[:, Hidden:] h_i
            Set::gemv(&p_.W[0][Hidden], K, Hidden, 2 * Hidden, h, q_);
            // P_j + q is finite or +-inf (tanh gives +-1), never NaN; |e_ij| = |v·tanh(..)| <= Σ|v_k|
            const bool ok = detail::all_finite(P_[slot], K) && detail::all_finite(q_, K) &&
                            detail::bounds_scores(p_.v, K);
            return ok ? Status::ok : Status::non_finite_result;
        }
        template <class Set>
        void attend(const Rows<V>& memory, const V*, V* alpha, V* c) const noexcept {
            // e_ij = v·tanh(P_j + q)
            const Rows<V> P{&P_[0][0], padded<V>(K), K, memory.cap, memory.first, memory.n};
            Set::additive_scores(P, q_, p_.v, alpha);
            // alpha_ij = softmax_j(e_ij)
            detail::shaped<Set, V>::softmax(alpha, memory.n);
            // c_i = Σ_j alpha_ij h_j
            detail::shaped<Set, V>::template weighted_sum<Hidden, padded<V>(Hidden), NRows>(alpha, memory, c);
        }

    private:
        const params_type& p_;
        alignas(storage_alignment<V>()) V P_[NRows][padded<V>(K)];
        alignas(storage_alignment<V>()) V q_[padded<V>(K)];
    };
    /// q15 (AdditiveParams<q15>): the keys P_j = W[:, :Hidden] h_j in Q3.12, kept per stored state as int16 (a row of
    /// K per memory row), q = W[:, Hidden:] h_i in Q3.12, then e_ij = v·tanh(P_j + q) in Q(f) with the integer tanh:
    /// i·K tanh per step, as the float form. Nothing can overflow; P_j + q saturates to Q3.12's range.
    template <class T, std::size_t Hidden, std::size_t NRows>
    struct State<T, Hidden, NRows, false> {
        using V = activation_t<T>;
        static constexpr bool has_params = true;
        using params_type = AdditiveParams<T, Hidden, K>;

        State(const params_type&&) =
            delete;  // sarnn: align params must outlive the model: pass a named object, not a temporary
        explicit State(const params_type& p) noexcept : p_(p) {
            for (auto& row : P_)
                for (V& v : row) v = V{};
            for (V& v : q_) v = V{};
        }
        void reset() noexcept {}
        template <class Set>
        Status query(std::size_t slot, const V* h) noexcept {
            // P_i = W[:, :Hidden] h_i in Q3.12, once per state, into the free row `slot`
            Set::gemv(QMatrix{&p_.W[0][0], K, Hidden, 2 * Hidden, p_.m, p_.shift}, h, P_[slot]);
            // q = W[:, Hidden:] h_i in Q3.12
            Set::gemv(QMatrix{&p_.W[0][Hidden], K, Hidden, 2 * Hidden, p_.m, p_.shift}, h, q_);
            return Status::ok;
        }
        template <class Set>
        void attend(const Rows<V>& memory, const V*, V* alpha, V* c) const noexcept {
            // e_ij = v·tanh(P_j + q) in Q(f)
            const Rows<V> P{&P_[0][0], padded<V>(K), K, memory.cap, memory.first, memory.n};
            Set::additive_scores(P, q_, p_.v, p_.m_v, p_.shift_v, alpha);
            // alpha_ij = softmax_j(e_ij); c_i = Σ_j alpha_ij h_j
            Set::template attend_scored_at<kernel::q15_stride(padded<V>(Hidden))>(memory, p_.f, alpha, c);
        }

    private:
        const params_type& p_;
        alignas(storage_alignment<V>()) V P_[NRows][padded<V>(K)];
        alignas(storage_alignment<V>()) V q_[padded<V>(K)];
    };
};

}  // namespace sarnn

#endif
