// sarnn/lstmn.hpp: the LSTM-network of Cheng, Dong and Lapata (EMNLP 2016): an LSTM whose recurrent inputs
// are attention summaries of its own hidden and cell tapes.
//
// At step t, with tapes h_1..h_{t-1} and c_1..c_{t-1} (the newest Capacity of them for Window):
//   a_j  = v·tanh(W_h h_j + W_x x_t + W_ht h~_{t-1})      s = softmax(a)
//   h~_t = Σ_j s_j h_j,  c~_t = Σ_j s_j c_j               (zero while the tapes are empty; h~_0 = 0)
//   z = W_ih x_t + W_hh h~_t + b,   i = σ(z_i), f = σ(z_f), g = tanh(z_g), o = σ(z_o)
//   c_t = f ⊙ c~_t + i ⊙ g,   h_t = o ⊙ tanh(c_t)          then h_t and c_t join the tapes.
#ifndef SARNN_LSTMN_HPP
#define SARNN_LSTMN_HPP

#include <array>
#include <cstddef>
#include <cstdint>

#include "sarnn/detail/finite.hpp"
#include "sarnn/detail/input.hpp"
#include "sarnn/detail/q15_rows.hpp"
#include "sarnn/kernels.hpp"
#include "sarnn/kernels_q15.hpp"
#include "sarnn/numeric.hpp"
#include "sarnn/memory.hpp"
#include "sarnn/params.hpp"
#include "sarnn/run.hpp"
#include "sarnn/status.hpp"
#include "sarnn/view.hpp"

namespace sarnn {

/// LSTM-network with compile-time sizes.
///
/// Template parameters: T (float, double, or sarnn::q15: integers only, see below), In (size of x_t), Hidden (size of h_t and c_t), Capacity (tape
/// length), K (attention size), Memory (Bounded or Window), Set (the kernel set: see kernels.hpp; kernel::Default is
/// the build's choice).
///
/// Static storage, all members (`sizeof` is the RAM it needs): the h and c tapes (2·Capacity padded rows of
/// Hidden), the cached keys W_h h_j (Capacity padded rows of K) (Window: one spare row more in each), h~ (two
/// rows of Hidden: current and next) and c~ (one row), the attention query (K), the gate pre-activations z
/// (4·Hidden), the weights s (two rows of Capacity: current and next), a params reference, ring indices and a
/// step counter. The spare rows and second buffers let a refused step lose nothing. No heap, no exceptions.
///
/// Memory: Bounded (default): when the tapes already hold Capacity entries, step() returns
/// Status::memory_full and changes nothing. Window: the newest Capacity entries are kept and attended.
///
/// Cost of step() with n = t-1 tape entries: K·(In + Hidden) for the query, n·K tanh for the scores,
/// 2·n·Hidden for the summaries, 4·Hidden·(In + Hidden) for the gates, K·Hidden to cache W_h h_t: O(n·(K +
/// Hidden)) per step.
///
/// q15 (LstmnParams<q15> in params.hpp, kernels_q15.hpp: affine, gemv, additive_scores, attend_scored_pair,
/// lstm_cell): integers only, no float and no 64-bit division; the same order of operations and the same cost (the
/// keys W_h h_j cached per stored state, as int16). Formats: x raw int16 (real value raw·x_scale); h_t, h~ and the
/// attention s in Q15; the cell c_t and c~ in Q3.12 (int16, raw / 4096: |c| < 8); the query, the keys and the gates'
/// pre-activations z in Q3.12; the scores in Q(f). Each gate pre-activation is one requantisation per row (saturated
/// to Q3.12, where sigmoid and tanh are flat anyway); i, f, o = sigmoid_q15(z), g = tanh_q15(z) in Q15;
/// c_t = f·c~_t + i·g with each product rounded half up to Q3.12; h_t = o·tanh_q15(c_t) rounded half up to Q15;
/// h~_t and c~_t = Σ_j s_j h_j, Σ_j s_j c_j rounded half up to their rows' formats (s_1 = 32767 and h~ = h_1, c~ =
/// c_1 exactly while one entry is stored). The python twin, python/sarnn/q15.py (run_lstmn), computes the same bits.
///
/// The cell saturates: c_t beyond Q3.12's range [-8, 8) is clamped to it (to -32768 or 32767 raw) and the step still
/// returns ok, but each clamped lane is counted: saturated() is the number of lanes clamped since construction or
/// reset(), 0 while every cell value is exactly what the formulas give. A clamped c_t is off by what passed 8: h_t
/// barely (tanh(8) = 1 - 2e-7), but the tape keeps the clamped value, so later c~ and f·c~ are off too. Check
/// saturated() after a run (or each step) to know whether the results are those of an unsaturated model; a trained
/// model whose cells pass 8 needs its cells rescaled (or the float form). (float and double never saturate:
/// saturated() is 0.)
template <class T, std::size_t In, std::size_t Hidden, std::size_t Capacity, std::size_t K, class Memory = Bounded,
          class Set = kernel::Default>
class Lstmn {
    static_assert(Numeric<T>::supported,
                  "sarnn: T must be float or double or sarnn::q15 (a type with a sarnn::Numeric policy)");
    static_assert(Numeric<T>::floating || Capacity < 32768, "sarnn: q15 models hold at most 32767 states");
    using V = activation_t<T>;              // x, h, c, alpha, the memory: the activations of T (numeric.hpp)
    using Ops = kernel::set_for_t<T, Set>;  // the kernels it runs: Set, or kernel::Q15 for q15 (kernels_q15.hpp)
public:
    using value_type = T;
    using kernel_set = Set;
    using Params = LstmnParams<T, In, Hidden, K>;
    static constexpr std::size_t in_size = In;
    static constexpr std::size_t hidden_size = Hidden;
    static constexpr std::size_t capacity = Capacity;
    static constexpr std::size_t key_size = K;

    /// Keeps a reference to `params` (which must outlive the model); copies nothing. O(Capacity·(Hidden + K))
    /// (zeroes the storage once).
    explicit Lstmn(const Params& params) noexcept : p_(params) {
        for (auto* tape : {&h_, &c_})
            for (auto& row : *tape)
                for (V& v : row) v = V{};
        for (auto& row : P_)
            for (V& v : row) v = V{};
        for (auto& row : s_)
            for (V& v : row) v = V{};
        for (V& v : q_) v = V{};
        for (V& v : z_) v = V{};
        reset();
    }
    /// Params are kept by reference, so a temporary would dangle: a compile-time error.
    explicit Lstmn(const Params&&) = delete;  // sarnn: params must outlive the model: pass a named object

    /// Back to empty tapes, h~_0 = 0 and length 0. O(Hidden).
    void reset() noexcept {
        for (auto& row : h_tilde_)
            for (V& v : row) v = V{};
        for (V& v : c_tilde_) v = V{};
        ring_.reset();
        cur_ = 0;
        length_ = 0;
        saturated_ = 0;
    }

    /// One step (see the formulas above). x points at In values. Returns Status::ok, or (changing nothing)
    /// memory_full (Bounded only) / null_input / non_finite_input / non_finite_result (a finite x for which the
    /// attention query, a gate pre-activation or the new key overflowed into NaN, e.g. inf - inf, or v so large
    /// that a score could overflow). A step that returns ok leaves h, c, s and the tapes finite.
    ///
    /// Nothing a view shows, and nothing the next step reads, is written before every check has passed: the
    /// new tape entries go to a free row (see Ring), s and h~ to the buffers not in use (flipped at the end).
    Status step(const V* x) noexcept {
        if (ring_.refuses()) return Status::memory_full;
        const Status st = detail::check_input(x, In);
        if (st != Status::ok) return st;
        const std::size_t n = ring_.count();
        const std::size_t next = n > 0 ? cur_ ^ 1u : cur_;  // h~_0 = 0 stays in the current buffer
        if (n > 0) {
            if (!attend(x, next, n)) return Status::non_finite_result;
        }
        const std::size_t slot = ring_.next_slot();
        std::size_t saturated = 0;
        if constexpr (Numeric<T>::floating) {
            // z = W_ih x_t + W_hh h~_t
            Ops::gemv(&p_.W_ih[0][0], 4 * Hidden, In, In, x, z_);
            Ops::gemv_add(&p_.W_hh[0][0], 4 * Hidden, Hidden, Hidden, h_tilde_[next], z_);
            // c_t = σ(z_f + b_f) ⊙ c~_t + σ(z_i + b_i) ⊙ tanh(z_g + b_g); h_t = σ(z_o + b_o) ⊙ tanh(c_t)
            Ops::lstm_cell(z_, p_.b, c_tilde_, Hidden, c_[slot], h_[slot]);
            // the key of h_t, once: P_t = W_h h_t
            Ops::gemv(&p_.W_h[0][0], K, Hidden, Hidden, h_[slot], P_[slot]);
            // σ and tanh saturate at +-inf, so only a NaN pre-activation (inf - inf) or key is left to refuse
            if (!detail::all_finite(c_[slot], Hidden) || !detail::all_finite(h_[slot], Hidden) ||
                !detail::all_finite(P_[slot], K))
                return Status::non_finite_result;
        } else {
            // z = W_ih x_t + W_hh h~_t + b in Q3.12
            detail::q15_affine<Ops, 4 * Hidden, In, Hidden>(
                QGates{&p_.W_ih[0][0], &p_.W_hh[0][0], p_.b, p_.m, p_.shift, p_.x_m, p_.x_shift}, x, h_tilde_[next],
                z_);
            // c_t = f ⊙ c~_t + i ⊙ g in Q3.12 (saturated lanes counted); h_t = o ⊙ tanh(c_t) in Q15
            saturated = detail::q15_lstm_cell<Ops, Hidden>(z_, c_tilde_, c_[slot], h_[slot]);
            // the key of h_t, once: P_t = W_h h_t in Q3.12
            Ops::gemv(QMatrix{&p_.W_h[0][0], K, Hidden, Hidden, p_.m_a, p_.shift_a}, h_[slot], P_[slot]);
        }
        cur_ = next;
        ring_.push();
        attended_ = n;
        ++length_;
        saturated_ += saturated;
        return Status::ok;
    }
    Status step(const std::array<V, In>& x) noexcept { return step(x.data()); }

    /// Steps over n inputs xs[0..n·In) and, when out is not null, writes each step's h_t (Emit::hidden) or c_t
    /// (Emit::cell) to out[t·Hidden..(t+1)·Hidden). Stops at the first step that is not ok; returns its status
    /// and the number of steps taken. Emit::context gives {invalid_argument, 0}.
    RunResult run(const V* xs, std::size_t n, V* out, Emit emit = Emit::hidden) noexcept {
        if (emit == Emit::hidden)
            return detail::run_steps(*this, xs, n, out, [](const Lstmn& m) { return m.hidden(); });
        if (emit == Emit::cell) return detail::run_steps(*this, xs, n, out, [](const Lstmn& m) { return m.cell(); });
        return {Status::invalid_argument, 0};
    }

    /// h_t, Hidden values (zero before the first step).
    View<V> hidden() const noexcept { return {ring_.count() ? h_[ring_.newest()] : h_tilde_[cur_], Hidden}; }
    /// c_t, Hidden values (zero before the first step). q15: in Q3.12 (raw / 4096), not Q15 (see above).
    View<V> cell() const noexcept { return {ring_.count() ? c_[ring_.newest()] : c_tilde_, Hidden}; }
    /// s_j of the last step over the tape entries it attended (t-1 of them, at most Capacity), oldest first.
    View<V> attention() const noexcept { return {s_[cur_], length_ ? attended_ : 0}; }
    /// t, the number of steps taken since construction or reset(): 64 bits on every target, no wrap (a Window keeps
    /// counting).
    std::uint64_t length() const noexcept { return length_; }
    /// Entries on the tapes now: min(length(), Capacity).
    std::size_t stored() const noexcept { return ring_.count(); }
    /// True when the tapes hold Capacity entries (for Bounded: step() would return Status::memory_full).
    bool full() const noexcept { return ring_.full(); }
    /// The lanes of c clamped to Q3.12's range since construction or reset() (q15 only: see above; 0 for float and
    /// double, and 0 for q15 while every c_t is exact).
    std::size_t saturated() const noexcept { return saturated_; }
    const Params& params() const noexcept { return p_; }

private:
    friend struct detail::Access;  // bench/ours.hpp only (see memory.hpp)
    static constexpr std::size_t kStride = padded<V>(Hidden);
    static constexpr std::size_t kStrideK = padded<V>(K);
    using Ring = detail::Ring<Capacity, Memory>;
    using Tape = V[Ring::rows][kStride];

    /// s over the n tape entries, h~_t and c~_t into the buffers `next` (n >= 1). False: a non-finite query (float).
    bool attend(const V* x, std::size_t next, std::size_t n) noexcept {
        const Rows<V> P{&P_[0][0], kStrideK, K, Ring::rows, ring_.first(), n};
        if constexpr (Numeric<T>::floating) {
            // q = W_x x_t + W_ht h~_{t-1}
            Ops::gemv(&p_.W_x[0][0], K, In, In, x, q_);
            Ops::gemv_add(&p_.W_ht[0][0], K, Hidden, Hidden, h_tilde_[cur_], q_);
            // W_h h_j + q is finite or +-inf (tanh gives +-1), never NaN; |a_j| = |v·tanh(..)| <= Σ|v_k|
            if (!detail::all_finite(q_, K) || !detail::bounds_scores(p_.v, K)) return false;
            // a_j = v·tanh(W_h h_j + q)
            Ops::additive_scores(P, q_, p_.v, s_[next]);
            // s = softmax(a)
            Ops::softmax(s_[next], n);
            // h~_t = Σ_j s_j h_j, c~_t = Σ_j s_j c_j
            Ops::weighted_sum(s_[next], tape(h_), h_tilde_[next]);
            Ops::weighted_sum(s_[next], tape(c_), c_tilde_);
        } else {
            // q = W_x x_t + W_ht h~_{t-1} in Q3.12
            detail::q15_affine<Ops, K, In, Hidden>(
                QGates{&p_.W_x[0][0], &p_.W_ht[0][0], nullptr, p_.m_a, p_.shift_a, p_.x_m, p_.x_shift}, x,
                h_tilde_[cur_], q_);
            // a_j = v·tanh(P_j + q) in Q(f)
            Ops::additive_scores(P, q_, p_.v, p_.m_v, p_.shift_v, s_[next]);
            // s = softmax(a); h~_t = Σ_j s_j h_j (Q15), c~_t = Σ_j s_j c_j (Q3.12)
            Ops::template attend_scored_pair_at<kernel::q15_stride(kStride)>(tape(h_), tape(c_), p_.f, s_[next],
                                                                             h_tilde_[next], c_tilde_);
        }
        return true;
    }

    Rows<V> tape(const Tape& t) const noexcept {
        return {&t[0][0], kStride, Hidden, Ring::rows, ring_.first(), ring_.count()};
    }

    const Params& p_;
    alignas(storage_alignment<V>()) Tape h_;
    alignas(storage_alignment<V>()) Tape c_;
    alignas(storage_alignment<V>()) V P_[Ring::rows][kStrideK];
    alignas(storage_alignment<V>()) V h_tilde_[2][kStride];
    alignas(storage_alignment<V>()) V c_tilde_[kStride];
    alignas(storage_alignment<V>()) V q_[kStrideK];
    alignas(storage_alignment<V>()) V z_[4 * Hidden];
    alignas(storage_alignment<V>()) V s_[2][padded<V>(Capacity)];
    Ring ring_;
    std::size_t cur_ = 0;  ///< which of h~ and s is the current one
    std::size_t attended_ = 0;
    std::uint64_t length_ = 0;   ///< 64 bits on every target: no wrap (5.8e8 years at 1 kHz)
    std::size_t saturated_ = 0;  ///< c lanes clamped since reset() (q15)
};

}  // namespace sarnn

#endif
