// sarnn/gru.hpp: the GRU (PyTorch nn.GRU's equations, one layer, gate order r, z, n), h_0 = 0:
//   r = σ(W_ir x + b_ir + W_hr h + b_hr),  z = σ(W_iz x + b_iz + W_hz h + b_hz),
//   n = tanh(W_in x + b_in + r ⊙ (W_hn h + b_hn)),  h' = (1 - z) ⊙ n + z ⊙ h.
#ifndef SARNN_GRU_HPP
#define SARNN_GRU_HPP

#include <array>
#include <cstddef>
#include <cstdint>

#include "sarnn/detail/finite.hpp"
#include "sarnn/detail/gru_step.hpp"
#include "sarnn/detail/input.hpp"
#include "sarnn/kernels.hpp"
#include "sarnn/kernels_q15.hpp"
#include "sarnn/memory.hpp"  // detail::Access
#include "sarnn/numeric.hpp"
#include "sarnn/params.hpp"
#include "sarnn/run.hpp"
#include "sarnn/status.hpp"
#include "sarnn/view.hpp"

namespace sarnn {

/// GRU with compile-time sizes.
///
/// Template parameters: T (float, double, or sarnn::q15: integers only, see GruParams<q15> in params.hpp), In (size
/// of x), Hidden (size of h), Set (the kernel set: see kernels.hpp; kernel::Default is the build's choice; q15 models
/// run kernel::Q15, kernels_q15.hpp).
/// Static storage: two padded rows of Hidden values (h and h') and the gate rows gi = W_ih x (+ b_ih for q15) and
/// gh = W_hh h (+ b_hh), 3·Hidden values each, plus a reference to the params and a step counter;
/// `sizeof(Gru)` is all the RAM it uses. No heap, no exceptions.
/// Cost of step(): 3·Hidden·(In + Hidden) multiply-adds, 2·Hidden sigmoid and Hidden tanh.
///
/// q15 (kernels_q15.hpp: gru_gates, gru_cell): x raw int16 (real value raw·x_scale), h in Q15, the gate rows in Q3.12;
/// gi and gh come from one pass over W_ih and W_hh (one requantisation per row each), the cell rounds each product half up (the
/// formulas and their headroom: GruParams<q15>). Nothing saturates but the gates' pre-activations, where sigmoid and
/// tanh are flat anyway. The python twin, python/sarnn/q15.py (run_gru), computes the same bits.
template <class T, std::size_t In, std::size_t Hidden, class Set = kernel::Default>
class Gru {
    static_assert(Numeric<T>::supported,
                  "sarnn: T must be float, double or sarnn::q15 (a type with a sarnn::Numeric policy)");
    using V = activation_t<T>;              // x, h: the activations of T (numeric.hpp)
    using Ops = kernel::set_for_t<T, Set>;  // the kernels it runs: Set, or kernel::Q15 for q15 (kernels_q15.hpp)
public:
    using value_type = T;
    using kernel_set = Set;
    using Params = GruParams<T, In, Hidden>;
    static constexpr std::size_t in_size = In;
    static constexpr std::size_t hidden_size = Hidden;

    /// Keeps a reference to `params` (which must outlive the model); copies nothing. O(Hidden).
    explicit Gru(const Params& params) noexcept : p_(params) {
        for (V& v : gi_) v = V{};
        for (V& v : gh_) v = V{};
        reset();
    }
    /// Params are kept by reference, so a temporary would dangle: a compile-time error (sarnn: params must outlive
    /// the model: pass a named object, not a temporary).
    explicit Gru(const Params&&) = delete;

    /// Back to h_0 = 0 and length 0. O(Hidden).
    void reset() noexcept {
        for (auto& row : h_)
            for (V& v : row) v = V{};
        cur_ = 0;
        length_ = 0;
    }

    /// One step (see the formulas above). x points at In values.
    /// Returns Status::ok, or (changing nothing) null_input / non_finite_input / non_finite_result (a finite x for
    /// which a gate's pre-activation is NaN, e.g. inf - inf). A step that returns ok leaves h finite.
    Status step(const V* x) noexcept {
        const Status s = detail::check_input(x, In);
        if (s != Status::ok) return s;
        const std::size_t next = cur_ ^ 1u;
        // h' = GRU(x, h): r, z = σ(W_i x + b_i + W_h h + b_h), n = tanh(W_in x + b_in + r ⊙ (W_hn h + b_hn)),
        // h' = n + z ⊙ (h - n)
        // (the rows in the opposite order every other step: the last step's rows are still in cache, gru_step.hpp)
        detail::gru_step<Ops>(p_, x, h_[cur_], gi_, gh_, h_[next], cur_ != 0);
        // σ and tanh saturate at +-inf, so only a NaN pre-activation (inf - inf, or 0·inf in r ⊙ ..) is left
        if (!detail::all_finite(h_[next], Hidden)) return Status::non_finite_result;
        cur_ = next;
        ++length_;
        return Status::ok;
    }
    Status step(const std::array<V, In>& x) noexcept { return step(x.data()); }

    /// Steps over n inputs xs[0..n·In) and, when out is not null, writes each h to out[t·Hidden..(t+1)·Hidden).
    /// Stops at the first step that is not ok; returns its status and the number of steps taken. Only
    /// Emit::hidden exists here; any other gives {invalid_argument, 0}.
    RunResult run(const V* xs, std::size_t n, V* out, Emit emit = Emit::hidden) noexcept {
        if (emit != Emit::hidden) return {Status::invalid_argument, 0};
        return detail::run_steps(*this, xs, n, out, [](const Gru& m) { return m.hidden(); });
    }

    /// h (h_0 = 0 before the first step), Hidden values.
    View<V> hidden() const noexcept { return {h_[cur_], Hidden}; }
    /// The number of steps taken since construction or reset(): 64 bits on every target, no wrap.
    std::uint64_t length() const noexcept { return length_; }
    const Params& params() const noexcept { return p_; }

private:
    friend struct detail::Access;  // bench/ours.hpp only (see memory.hpp)
    static constexpr std::size_t kStride = padded<V>(Hidden);
    const Params& p_;
    alignas(storage_alignment<V>()) V h_[2][kStride];
    alignas(storage_alignment<V>()) V gi_[3 * Hidden];
    alignas(storage_alignment<V>()) V gh_[3 * Hidden];
    std::size_t cur_ = 0;
    std::uint64_t length_ = 0;  ///< 64 bits on every target: no wrap (5.8e8 years at 1 kHz)
};

}  // namespace sarnn

#endif
