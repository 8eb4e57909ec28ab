// sarnn/self_attention_rnn.hpp: an RNN whose recurrent input is attention over its own past states.
//
//   h_i = tanh(A·[x_i; c_{i-1}] + b),  c_0 = 0      (the Elman cell; any Cell: h_i = cell(x_i, c_{i-1}))
//   e_ij = align(h_j, h_i)  for the states j in memory (the new state included)
//   alpha_ij = softmax_j(e_ij)
//   c_i = Σ_j alpha_ij h_j                (so c_1 = h_1)
#ifndef SARNN_SELF_ATTENTION_RNN_HPP
#define SARNN_SELF_ATTENTION_RNN_HPP

#include <array>
#include <cstddef>
#include <cstdint>

#include "sarnn/align.hpp"
#include "sarnn/cell.hpp"
#include "sarnn/detail/finite.hpp"
#include "sarnn/detail/input.hpp"
#include "sarnn/kernels.hpp"
#include "sarnn/numeric.hpp"
#include "sarnn/memory.hpp"
#include "sarnn/params.hpp"
#include "sarnn/run.hpp"
#include "sarnn/status.hpp"
#include "sarnn/view.hpp"

namespace sarnn {

/// Self-attention RNN with compile-time sizes.
///
/// Template parameters: T (float, double, or sarnn::q15 with any Align: integers only, see RnnParams<q15> and the
/// aligns' q15 params in params.hpp, and kernels_q15.hpp), In (size of x_i), Hidden (size of h_i and c_i), Capacity
/// (how many states the memory holds), Align (DotAlign, ScaledDotAlign, BilinearAlign, KeyQueryAlign<K>,
/// AdditiveAlign<K>: see align.hpp), Memory (Bounded or Window: see memory.hpp), Set (the kernel set: see kernels.hpp;
/// kernel::Default is the build's choice), Cell (ElmanCell, the default, or another cell of cell.hpp: h_i =
/// cell(x_i, c_{i-1}); Params is the cell's params_type).
///
/// Static storage, all members (`sizeof` is the RAM it needs): the memory of Capacity padded rows of Hidden
/// (Window: one spare row more, so that a refused step loses nothing),
/// the context c_i (one padded row), the weights alpha (Capacity values, padded), the align's state (see the
/// table in align.hpp), a params reference, ring indices and a step counter. No heap, no exceptions.
///
/// Memory: Bounded (default): when the memory already holds Capacity states, step() returns
/// Status::memory_full and changes nothing; reset() starts a new sequence. Window: the newest Capacity states
/// are kept and attended, oldest first.
///
/// Cost of step() with i states attended: the cell's for h_i (ElmanCell: Hidden·(In + Hidden) multiply-adds and
/// Hidden tanh; see cell.hpp), then the align's cost (2·i·Hidden multiply-adds and i exps for the dot forms): O(i)
/// per step, O(n²) for a sequence of n (Bounded), O(Capacity) per step once a Window is full.
template <class T, std::size_t In, std::size_t Hidden, std::size_t Capacity, class Align = DotAlign,
          class Memory = Bounded, class Set = kernel::Default, class Cell = ElmanCell>
class SelfAttentionRnn : private Cell::template State<T, In, Hidden> {
    static_assert(Numeric<T>::supported,
                  "sarnn: T must be float, double or sarnn::q15 (a type with a sarnn::Numeric policy)");
    using V = activation_t<T>;              // x, h, c, alpha, the memory: the activations of T (numeric.hpp)
    using Ops = kernel::set_for_t<T, Set>;  // the kernels it runs: Set, or kernel::Q15 for q15 (kernels_q15.hpp)
    static_assert(Numeric<T>::floating || Capacity < 32768, "sarnn: q15 models hold at most 32767 states");
    using Ring = detail::Ring<Capacity, Memory>;
    using AlignState = typename Align::template State<T, Hidden, Ring::rows>;
    using CellState = typename Cell::template State<T, In, Hidden>;  // a base: an empty one (ElmanCell) costs no RAM

public:
    using value_type = T;
    using kernel_set = Set;
    using cell_type = Cell;
    using Params = typename CellState::params_type;
    using AlignParams = typename AlignState::params_type;
    static constexpr std::size_t in_size = In;
    static constexpr std::size_t hidden_size = Hidden;
    static constexpr std::size_t capacity = Capacity;

    /// For aligns without params (DotAlign, ScaledDotAlign). Keeps a reference to `params` (which must outlive
    /// the model); copies nothing. O(Capacity·Hidden) (zeroes the storage once).
    template <class A = AlignState>
    explicit SelfAttentionRnn(const Params& params) noexcept : p_(params) {
        static_assert(!A::has_params,
                      "sarnn: this Align needs its params: construct the model with (params, align_params)");
        init();
    }
    /// For aligns with params: keeps references to both (which must outlive the model).
    template <class A = AlignState, std::enable_if_t<A::has_params, int> = 0>
    SelfAttentionRnn(const Params& params, const typename A::params_type& align_params) noexcept
        : p_(params), align_(align_params) {
        init();
    }
    /// Params are kept by reference, so a temporary would dangle: these overloads make that a compile-time error
    /// (the comment on each line is what the compiler quotes).
    // clang-format off
    explicit SelfAttentionRnn(const Params&&) = delete;  // sarnn: params must outlive the model: pass a named object, not a temporary
    template <class AP>
    SelfAttentionRnn(const Params&&, const AP&) = delete;  // sarnn: params must outlive the model: pass a named object, not a temporary
    template <class A = AlignState, std::enable_if_t<A::has_params, int> = 0>
    SelfAttentionRnn(const Params&, const typename A::params_type&&) = delete;  // sarnn: align params must outlive the model: pass a named object, not a temporary
    // clang-format on
    /// (Aligns without params take none: this overload exists only to say so at compile time.)
    template <class AP, class A = AlignState, std::enable_if_t<!A::has_params, int> = 0>
    SelfAttentionRnn(const Params& params, const AP&) noexcept : p_(params) {
        static_assert(A::has_params, "sarnn: this Align takes no params: construct the model with (params) only");
    }

    /// Back to c_0 = 0, an empty memory and length 0. O(Hidden).
    void reset() noexcept {
        for (V& v : c_) v = V{};
        ring_.reset();
        length_ = 0;
        align_.reset();
    }

    /// One step: h_i from x_i and c_{i-1}, into the memory, then the context c_i over the memory.
    /// x points at In values. Returns Status::ok, or (changing nothing) memory_full (Bounded only) /
    /// null_input / non_finite_input / non_finite_result (a finite x for which a pre-activation of the cell,
    /// A·[x_i; c_{i-1}] + b for ElmanCell, is NaN, e.g. inf - inf, or an align query so large that a score could
    /// overflow). A step that returns ok leaves h, c, alpha and the memory finite.
    Status step(const V* x) noexcept {
        if (ring_.refuses()) return Status::memory_full;
        const Status s = detail::check_input(x, In);
        if (s != Status::ok) return s;
        // the free row (see Ring): nothing is lost until ring_.push()
        const std::size_t slot = ring_.next_slot();
        V* h = memory_[slot];
        // h_i = cell(x_i, c_{i-1}) (ElmanCell: tanh(A·[x_i; c_{i-1}] + b))
        CellState::template step<Ops>(p_, x, c_, h);
        // tanh and σ saturate at +-inf, so only an overflowed pre-activation (inf - inf) leaves h_i non-finite
        if (!detail::all_finite(h, Hidden)) return Status::non_finite_result;
        const Status q = align_.template query<Ops>(slot, h);
        if (q != Status::ok) return q;
        ring_.push();
        ++length_;
        // alpha_ij = softmax_j(align(h_j, h_i)); c_i = Σ_j alpha_ij h_j
        align_.template attend<Ops>(rows(), h, alpha_, c_);
        return Status::ok;
    }
    Status step(const std::array<V, In>& x) noexcept { return step(x.data()); }

    /// Steps over n inputs xs[0..n·In) and, when out is not null, writes each step's h_i (Emit::hidden) or
    /// c_i (Emit::context) to out[t·Hidden..(t+1)·Hidden). Stops at the first step that is not ok; returns
    /// its status and the number of steps taken. Emit::cell gives {invalid_argument, 0}.
    RunResult run(const V* xs, std::size_t n, V* out, Emit emit = Emit::hidden) noexcept {
        if (emit == Emit::hidden)
            return detail::run_steps(*this, xs, n, out, [](const SelfAttentionRnn& m) { return m.hidden(); });
        if (emit == Emit::context)
            return detail::run_steps(*this, xs, n, out, [](const SelfAttentionRnn& m) { return m.context(); });
        return {Status::invalid_argument, 0};
    }

    /// h_i, Hidden values (zero before the first step).
    View<V> hidden() const noexcept { return {ring_.count() ? memory_[ring_.newest()] : c_, Hidden}; }
    /// c_i, Hidden values (c_0 = 0 before the first step).
    View<V> context() const noexcept { return {c_, Hidden}; }
    /// alpha_ij of the last step over the states attended, oldest first; size() == attended().
    View<V> attention() const noexcept { return {alpha_, ring_.count()}; }
    /// i, the number of steps taken since construction or reset() (keeps counting once a Window is full): 64 bits on
    /// every target, no wrap.
    std::uint64_t length() const noexcept { return length_; }
    /// The number of states in memory, attended by the last step: min(length(), Capacity).
    std::size_t attended() const noexcept { return ring_.count(); }
    /// True when the memory holds Capacity states (for Bounded: step() would return Status::memory_full).
    bool full() const noexcept { return ring_.full(); }
    const Params& params() const noexcept { return p_; }

private:
    friend struct detail::Access;  // bench/ours.hpp only (see memory.hpp)
    static constexpr std::size_t kStride = padded<V>(Hidden);

    void init() noexcept {
        // Padding lanes are zero for good: kernels read whole vectors and write only valid lanes.
        for (auto& row : memory_)
            for (V& v : row) v = V{};
        for (V& v : alpha_) v = V{};
        reset();
    }
    Rows<V> rows() const noexcept {
        return {&memory_[0][0], kStride, Hidden, Ring::rows, ring_.first(), ring_.count()};
    }

    const Params& p_;
    alignas(storage_alignment<V>()) V memory_[Ring::rows][kStride];
    alignas(storage_alignment<V>()) V c_[kStride];
    alignas(storage_alignment<V>()) V alpha_[padded<V>(Capacity)];
    Ring ring_;
    std::uint64_t length_ = 0;  ///< 64 bits on every target: no wrap (5.8e8 years at 1 kHz)
    AlignState align_;
};

}  // namespace sarnn

#endif
