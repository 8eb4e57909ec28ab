// sarnn/self_attention_rnn.hpp: an RNN whose recurrent input is attention over its own past states.
//
//   h_i = tanh(A·[x_i; c_{i-1}] + b),  c_0 = 0
//   e_ij = align(h_j, h_i)  for j = 1..i (the new state included)
//   alpha_ij = softmax_j(e_ij)
//   c_i = Σ_j alpha_ij h_j                (so c_1 = h_1)
#ifndef SARNN_SELF_ATTENTION_RNN_HPP
#define SARNN_SELF_ATTENTION_RNN_HPP

#include <array>
#include <cstddef>

#include "sarnn/align.hpp"
#include "sarnn/detail/input.hpp"
#include "sarnn/kernels.hpp"
#include "sarnn/params.hpp"
#include "sarnn/status.hpp"
#include "sarnn/view.hpp"

namespace sarnn {

/// Self-attention RNN with compile-time sizes.
///
/// Template parameters: T (float or double), In (size of x_i), Hidden (size of h_i and c_i), Capacity (how
/// many states the memory holds), Align (DotAlign, ScaledDotAlign, ...: see align.hpp).
///
/// Static storage, all members (`sizeof` is the RAM it needs): the memory of Capacity padded rows h_1..h_i,
/// the context c_i (one padded row), the weights alpha_i1..alpha_ii (Capacity values), the align's state,
/// a params reference and a step counter. No heap, no exceptions.
///
/// Memory policy: bounded. When the memory already holds Capacity states, step() returns
/// Status::memory_full and changes nothing; reset() starts a new sequence.
///
/// Cost of step() at length i: Hidden·(In + Hidden) multiply-adds and Hidden tanh for h_i, then
/// 2·i·Hidden multiply-adds and i exps for the context: O(i) per step, O(n²) for a sequence of n.
template <class T, std::size_t In, std::size_t Hidden, std::size_t Capacity, class Align = DotAlign>
class SelfAttentionRnn {
    static_assert(Capacity > 0, "sarnn: Capacity (states the memory holds) must be at least 1");
    using AlignState = typename Align::template State<T, Hidden, Capacity>;

public:
    using value_type = T;
    using Params = RnnParams<T, In, Hidden>;
    static constexpr std::size_t in_size = In;
    static constexpr std::size_t hidden_size = Hidden;
    static constexpr std::size_t capacity = Capacity;

    /// Keeps a reference to `params` (which must outlive the model); copies nothing. O(Hidden).
    explicit SelfAttentionRnn(const Params& params) noexcept : p_(params) {
        static_assert(!AlignState::has_params, "sarnn: this Align needs its params: Model{params, align_params}");
        init();
    }

    /// Back to c_0 = 0, an empty memory and length 0. O(Hidden).
    void reset() noexcept {
        for (T& v : c_) v = T(0);
        length_ = 0;
        align_.reset();
    }

    /// One step: h_i from x_i and c_{i-1}, into the memory, then the context c_i over h_1..h_i.
    /// x points at In values. Returns Status::ok, or (changing nothing) memory_full / null_input /
    /// non_finite_input.
    Status step(const T* x) noexcept {
        if (length_ == Capacity) return Status::memory_full;
        const Status s = detail::check_input(x, In);
        if (s != Status::ok) return s;
        const Kernels<T>& k = kernels<T>();
        T* h = memory_[length_];
        // h_i = tanh(A·[x_i; c_{i-1}] + b)
        k.affine_tanh(&p_.A[0][0], p_.b, Hidden, x, In, c_, Hidden, h);
        align_.push(k, length_, h);
        ++length_;
        // alpha_ij = softmax_j(align(h_j, h_i)); c_i = Σ_j alpha_ij h_j
        align_.attend(k, rows(), h, alpha_, c_);
        return Status::ok;
    }
    Status step(const std::array<T, In>& x) noexcept { return step(x.data()); }

    /// h_i, Hidden values (zero before the first step).
    View<T> hidden() const noexcept { return {length_ ? memory_[length_ - 1] : c_, Hidden}; }
    /// c_i, Hidden values (c_0 = 0 before the first step).
    View<T> context() const noexcept { return {c_, Hidden}; }
    /// alpha_i1..alpha_ii of the last step, oldest state first; size() is the number of states attended.
    View<T> attention() const noexcept { return {alpha_, length_}; }
    /// i, the number of steps taken since construction or reset().
    std::size_t length() const noexcept { return length_; }
    /// True when step() would return Status::memory_full.
    bool full() const noexcept { return length_ == Capacity; }
    const Params& params() const noexcept { return p_; }

private:
    static constexpr std::size_t kStride = padded<T>(Hidden);

    void init() noexcept {
        // Padding lanes are zero for good: kernels read whole vectors and write only valid lanes.
        for (auto& row : memory_)
            for (T& v : row) v = T(0);
        for (T& v : alpha_) v = T(0);
        reset();
    }
    Rows<T> rows() const noexcept { return {&memory_[0][0], kStride, Hidden, Capacity, 0, length_}; }

    const Params& p_;
    alignas(storage_alignment<T>()) T memory_[Capacity][kStride];
    alignas(storage_alignment<T>()) T c_[kStride];
    alignas(storage_alignment<T>()) T alpha_[padded<T>(Capacity)];
    std::size_t length_ = 0;
    AlignState align_{};
};

}  // namespace sarnn

#endif
