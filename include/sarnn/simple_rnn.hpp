// sarnn/simple_rnn.hpp: the Elman RNN, h_i = tanh(A·[x_i; h_{i-1}] + b), h_0 = 0.
#ifndef SARNN_SIMPLE_RNN_HPP
#define SARNN_SIMPLE_RNN_HPP

#include <array>
#include <cstddef>
#include <cstdint>

#include "sarnn/detail/affine.hpp"
#include "sarnn/detail/finite.hpp"
#include "sarnn/detail/input.hpp"
#include "sarnn/kernels.hpp"
#include "sarnn/memory.hpp"  // detail::Access
#include "sarnn/numeric.hpp"
#include "sarnn/params.hpp"
#include "sarnn/run.hpp"
#include "sarnn/status.hpp"
#include "sarnn/view.hpp"

namespace sarnn {

/// SimpleRNN with compile-time sizes.
///
/// Template parameters: T (float, double, or sarnn::q15: integers only, see RnnParams<q15> in params.hpp), In (size
/// of x_i), Hidden (size of h_i), Set (the kernel set: see kernels.hpp; kernel::Default is the build's choice; q15
/// models run kernel::Q15, kernels_q15.hpp).
/// Static storage: two padded rows of Hidden values (h_{i-1} and h_i) plus a reference to the params and a
/// step counter; `sizeof(SimpleRnn)` is all the RAM it uses. No heap, no exceptions.
/// Cost of step(): Hidden·(In + Hidden) multiply-adds and Hidden tanh.
template <class T, std::size_t In, std::size_t Hidden, class Set = kernel::Default>
class SimpleRnn {
    static_assert(Numeric<T>::supported,
                  "sarnn: T must be float, double or sarnn::q15 (a type with a sarnn::Numeric policy)");
    using V = activation_t<T>;              // x, h, c, alpha, the memory: the activations of T (numeric.hpp)
    using Ops = kernel::set_for_t<T, Set>;  // the kernels it runs: Set, or kernel::Q15 for q15 (kernels_q15.hpp)
public:
    using value_type = T;
    using kernel_set = Set;
    using Params = RnnParams<T, In, Hidden>;
    static constexpr std::size_t in_size = In;
    static constexpr std::size_t hidden_size = Hidden;

    /// Keeps a reference to `params` (which must outlive the model); copies nothing. O(Hidden).
    explicit SimpleRnn(const Params& params) noexcept : p_(params) { reset(); }
    /// Params are kept by reference, so a temporary would dangle: a compile-time error.
    explicit SimpleRnn(const Params&&) = delete;  // sarnn: params must outlive the model: pass a named object

    /// Back to h_0 = 0 and length 0. O(Hidden).
    void reset() noexcept {
        for (auto& row : h_)
            for (V& v : row) v = V{};
        cur_ = 0;
        length_ = 0;
    }

    /// h_i = tanh(A·[x_i; h_{i-1}] + b). x points at In values.
    /// Returns Status::ok, or (changing nothing) null_input / non_finite_input / non_finite_result (a finite x
    /// for which A·[x_i; h_{i-1}] + b is NaN, e.g. inf - inf). A step that returns ok leaves h finite.
    Status step(const V* x) noexcept {
        const Status s = detail::check_input(x, In);
        if (s != Status::ok) return s;
        const std::size_t next = cur_ ^ 1u;
        // h_i = tanh(A·[x_i; h_{i-1}] + b), into the row that is not h_{i-1}
        detail::affine_tanh<Ops>(p_, x, h_[cur_], h_[next]);
        // tanh(+-inf) = +-1, so only an overflowed pre-activation (inf - inf) leaves h_i non-finite
        if (!detail::all_finite(h_[next], Hidden)) return Status::non_finite_result;
        cur_ = next;
        ++length_;
        return Status::ok;
    }
    Status step(const std::array<V, In>& x) noexcept { return step(x.data()); }

    /// Steps over n inputs xs[0..n·In) and, when out is not null, writes each h_i to
    /// out[t·Hidden..(t+1)·Hidden). Stops at the first step that is not ok; returns its status and the number
    /// of steps taken. Only Emit::hidden exists here; any other gives {invalid_argument, 0}.
    RunResult run(const V* xs, std::size_t n, V* out, Emit emit = Emit::hidden) noexcept {
        if (emit != Emit::hidden) return {Status::invalid_argument, 0};
        return detail::run_steps(*this, xs, n, out, [](const SimpleRnn& m) { return m.hidden(); });
    }

    /// h_i (h_0 = 0 before the first step), Hidden values.
    View<V> hidden() const noexcept { return {h_[cur_], Hidden}; }
    /// i, the number of steps taken since construction or reset(): 64 bits on every target, no wrap.
    std::uint64_t length() const noexcept { return length_; }
    const Params& params() const noexcept { return p_; }

private:
    friend struct detail::Access;  // bench/ours.hpp and tests/test_length.cpp only (see memory.hpp)
    static constexpr std::size_t kStride = padded<V>(Hidden);
    const Params& p_;
    alignas(storage_alignment<V>()) V h_[2][kStride];
    std::size_t cur_ = 0;
    std::uint64_t length_ = 0;  ///< 64 bits on every target: no wrap (5.8e8 years at 1 kHz)
};

}  // namespace sarnn

#endif
