// sarnn/lstm.hpp: the LSTM of PyTorch's nn.LSTM (one layer, one direction), gate rows in its order i, f, g, o.
//
//   z = W_ih x_t + b_ih + W_hh h_{t-1} + b_hh,   i = σ(z_i), f = σ(z_f), g = tanh(z_g), o = σ(z_o)
//   c_t = f ⊙ c_{t-1} + i ⊙ g,   h_t = o ⊙ tanh(c_t),   h_0 = c_0 = 0
#ifndef SARNN_LSTM_HPP
#define SARNN_LSTM_HPP

#include <array>
#include <cstddef>
#include <cstdint>

#include "sarnn/detail/finite.hpp"
#include "sarnn/detail/input.hpp"
#include "sarnn/detail/q15_rows.hpp"
#include "sarnn/detail/shaped.hpp"
#include "sarnn/kernels.hpp"
#include "sarnn/kernels_q15.hpp"
#include "sarnn/numeric.hpp"
#include "sarnn/params.hpp"
#include "sarnn/run.hpp"
#include "sarnn/status.hpp"
#include "sarnn/view.hpp"

namespace sarnn {

/// LSTM with compile-time sizes.
///
/// Template parameters: T (float, double, or sarnn::q15: integers only, see below), In (size of x_t), Hidden (size of
/// h_t and c_t), Set (the kernel set: see kernels.hpp; kernel::Default is the build's choice; q15 models run
/// kernel::Q15, or kernel::Q15Plain when Set names it: kernels_q15.hpp).
///
/// Static storage, all members (`sizeof` is the RAM it needs): h and c, two padded rows of Hidden each (the last
/// step's and the next one's), the gate pre-activations z (4·Hidden), a params reference, a step counter and the
/// saturation count. The second rows let a refused step lose nothing. No heap, no exceptions.
///
/// Cost of step(): 4·Hidden·(In + Hidden) multiply-adds (gemv and gemv_add for float and double, one Ops::affine
/// for q15) and the cell, 3·Hidden sigmoid and 2·Hidden tanh (lstm_cell). float and double call the kernels with In
/// and Hidden at compile time (detail/shaped.hpp): the set's shaped forms where it has them (the NEON sets, float),
/// its run-time operations with the sizes as arguments elsewhere.
///
/// q15 (LstmParams<q15> in params.hpp; kernels_q15.hpp: affine, lstm_cell): integers only, the gates and the cell of
/// Lstmn<q15> (lstmn.hpp) on h_{t-1} and c_{t-1} instead of the attention summaries. Formats: x raw int16 (real
/// value raw·x_scale); h_t in Q15; the cell c_t in Q3.12 (int16, raw / 4096: |c| < 8); the gates' pre-activations z
/// in Q3.12, one requantisation per row, saturated (sigmoid and tanh are flat there anyway); i, f, o =
/// sigmoid_q15(z), g = tanh_q15(z) in Q15; c_t = f·c_{t-1} + i·g with each product rounded half up to Q3.12; h_t =
/// o·tanh_q15(c_t) rounded half up to Q15. The python twin, python/sarnn/q15.py (run_lstm), computes the same bits.
///
/// The cell saturates: c_t beyond Q3.12's range [-8, 8) is clamped to it (to -32768 or 32767 raw) and the step still
/// returns ok, but each clamped lane is counted: saturated() is the number of lanes clamped since construction or
/// reset(), 0 while every cell value is exactly what the formulas give. A clamped c_t is off by what passed 8: h_t
/// barely (tanh(8) = 1 - 2e-7), but f·c_t carries the clamped value into the next steps. Check saturated() after a
/// run (or each step) to know whether the results are those of an unsaturated model; a trained model whose cells
/// pass 8 needs the float form. (float and double never saturate: saturated() is 0.)
template <class T, std::size_t In, std::size_t Hidden, class Set = kernel::Default>
class Lstm {
    static_assert(Numeric<T>::supported,
                  "sarnn: T must be float or double or sarnn::q15 (a type with a sarnn::Numeric policy)");
    using V = activation_t<T>;              // x, h, c: the activations of T (numeric.hpp)
    using Ops = kernel::set_for_t<T, Set>;  // the kernels it runs: Set, or kernel::Q15 for q15 (kernels_q15.hpp)
public:
    using value_type = T;
    using kernel_set = Set;
    using Params = LstmParams<T, In, Hidden>;
    static constexpr std::size_t in_size = In;
    static constexpr std::size_t hidden_size = Hidden;

    /// Keeps a reference to `params` (which must outlive the model); copies nothing. O(Hidden).
    explicit Lstm(const Params& params) noexcept : p_(params) {
        for (V& v : z_) v = V{};
        reset();
    }
    /// Params are kept by reference, so a temporary would dangle: a compile-time error.
    explicit Lstm(const Params&&) = delete;  // sarnn: params must outlive the model: pass a named object

    /// Back to h_0 = c_0 = 0, length 0 and no saturated lane. O(Hidden).
    void reset() noexcept {
        for (auto* rows : {&h_, &c_})
            for (auto& row : *rows)
                for (V& v : row) v = V{};
        cur_ = 0;
        length_ = 0;
        saturated_ = 0;
    }

    /// One step (see the formulas above). x points at In values. Returns Status::ok, or (changing nothing)
    /// null_input / non_finite_input / non_finite_result (a finite x for which a gate pre-activation overflowed into
    /// NaN, e.g. inf - inf). A step that returns ok leaves h and c finite.
    ///
    /// Nothing a view shows, and nothing the next step reads, is written before every check has passed: h_t and c_t
    /// go to the rows not in use, which become the current ones at the end.
    Status step(const V* x) noexcept {
        const Status st = detail::check_input(x, In);
        if (st != Status::ok) return st;
        const std::size_t next = cur_ ^ 1u;
        std::size_t saturated = 0;
        if constexpr (Numeric<T>::floating) {
            using K = detail::shaped<Ops, T>;
            if constexpr (!K::whole_steps()) {
                // z = W_ih x_t + W_hh h_{t-1}
                // (the sizes at compile time: the set's shaped forms where it has them, detail/shaped.hpp)
                K::template gemv<4 * Hidden, In, In>(&p_.W_ih[0][0], x, z_);
                K::template gemv_add<4 * Hidden, Hidden, Hidden>(&p_.W_hh[0][0], h_[cur_], z_);
                // c_t = σ(z_f + b_f) ⊙ c_{t-1} + σ(z_i + b_i) ⊙ tanh(z_g + b_g); h_t = σ(z_o + b_o) ⊙ tanh(c_t)
                K::template lstm_cell<Hidden>(z_, p_.b, c_[cur_], c_[next], h_[next]);
            } else {
                // the whole step in one call (x86: kernels.hpp's lstm_step, the set's one pass over W_ih and W_hh
                // where it has one), the rows in the opposite order every other step: a step begins on the rows the last
                // one ended on, still in cache where the weights outgrow L1; the result is the same either way
                Ops::lstm_step(&p_.W_ih[0][0], &p_.W_hh[0][0], p_.b, In, Hidden, x, h_[cur_], c_[cur_], z_, c_[next],
                               h_[next], cur_ != 0);
            }
            // σ and tanh saturate at +-inf, so only a NaN pre-activation (inf - inf) is left to refuse
            if (!detail::all_finite(c_[next], Hidden) || !detail::all_finite(h_[next], Hidden))
                return Status::non_finite_result;
        } else {
            // z = W_ih x_t + W_hh h_{t-1} + b in Q3.12
            detail::q15_affine<Ops, 4 * Hidden, In, Hidden>(
                QGates{&p_.W_ih[0][0], &p_.W_hh[0][0], p_.b, p_.m, p_.shift, p_.x_m, p_.x_shift}, x, h_[cur_], z_);
            // c_t = f ⊙ c_{t-1} + i ⊙ g in Q3.12 (saturated lanes counted); h_t = o ⊙ tanh(c_t) in Q15
            saturated = detail::q15_lstm_cell<Ops, Hidden>(z_, c_[cur_], c_[next], h_[next]);
        }
        cur_ = next;
        ++length_;
        saturated_ += saturated;
        return Status::ok;
    }
    Status step(const std::array<V, In>& x) noexcept { return step(x.data()); }

    /// Steps over n inputs xs[0..n·In) and, when out is not null, writes each step's h_t (Emit::hidden) or c_t
    /// (Emit::cell) to out[t·Hidden..(t+1)·Hidden). Stops at the first step that is not ok; returns its status
    /// and the number of steps taken. Emit::context gives {invalid_argument, 0}.
    RunResult run(const V* xs, std::size_t n, V* out, Emit emit = Emit::hidden) noexcept {
        if (emit == Emit::hidden) return detail::run_steps(*this, xs, n, out, [](const Lstm& m) { return m.hidden(); });
        if (emit == Emit::cell) return detail::run_steps(*this, xs, n, out, [](const Lstm& m) { return m.cell(); });
        return {Status::invalid_argument, 0};
    }

    /// h_t, Hidden values (h_0 = 0 before the first step).
    View<V> hidden() const noexcept { return {h_[cur_], Hidden}; }
    /// c_t, Hidden values (c_0 = 0 before the first step). q15: in Q3.12 (raw / 4096), not Q15 (see above).
    View<V> cell() const noexcept { return {c_[cur_], Hidden}; }
    /// t, the number of steps taken since construction or reset(): 64 bits on every target, no wrap.
    std::uint64_t length() const noexcept { return length_; }
    /// The lanes of c clamped to Q3.12's range since construction or reset() (q15 only: see above; 0 for float and
    /// double, and 0 for q15 while every c_t is exact).
    std::size_t saturated() const noexcept { return saturated_; }
    const Params& params() const noexcept { return p_; }

private:
    static constexpr std::size_t kStride = padded<V>(Hidden);

    const Params& p_;
    alignas(storage_alignment<V>()) V h_[2][kStride];
    alignas(storage_alignment<V>()) V c_[2][kStride];
    alignas(storage_alignment<V>()) V z_[4 * Hidden];
    std::size_t cur_ = 0;        ///< which of the rows of h and c is h_t, c_t
    std::uint64_t length_ = 0;   ///< 64 bits on every target: no wrap (5.8e8 years at 1 kHz)
    std::size_t saturated_ = 0;  ///< c lanes clamped since reset() (q15)
};

}  // namespace sarnn

#endif
