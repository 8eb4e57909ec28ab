// bench/ours.hpp: sarnn's own SelfAttentionRnn and Lstmn (Bounded memory, kernel::Dispatch, the arch pinned with
// set_arch(): a default model on x86-64 makes these calls), with what a benchmark needs beside step(): put the
// memory in a given state and take it back to length n-1 after each timed step.
//
// Why: a model's step() at memory length n cannot be timed in a loop on its public interface alone, since each
// step makes the memory one state longer and there is no way back but reset(). sarnn::detail::Access (declared by
// the library, defined here only) sets the ring's count and writes memory rows as step() would, so what is timed
// is the model's own step(), and the peers (naive_dot.hpp, naive_scored.hpp, eigen_*.hpp) get the same states through
// the same calls (store, set_length, set_context / set_tilde).
#ifndef SARNN_BENCH_OURS_HPP
#define SARNN_BENCH_OURS_HPP

#include <cstddef>
#include <cstdint>
#include <utility>

#include <sarnn/sarnn.hpp>

namespace sarnn {
namespace detail {

struct Access {
    template <class M>
    using Set = typename M::kernel_set;

    /// The memory holds rows 0..n-1 (ring start 0), n states taken.
    template <class M>
    static void set_length(M& m, std::size_t n) {
        m.ring_.first_ = 0;
        m.ring_.count_ = n;
        m.length_ = n;
    }
    // ---- SelfAttentionRnn ----
    /// Memory row j holds h, and the align has seen it enter (its query, as step() makes it).
    template <class M>
    static void store(M& m, std::size_t j, const float* h) {
        for (std::size_t i = 0; i < M::hidden_size; ++i) m.memory_[j][i] = h[i];
        (void)m.align_.template query<Set<M>>(j, m.memory_[j]);
    }
    template <class M>
    static void set_context(M& m, const float* c) {
        for (std::size_t i = 0; i < M::hidden_size; ++i) m.c_[i] = c[i];
    }
    /// The context alone (the align's query and attend, as in step()) over the stored states, the newest as h_i.
    template <class M>
    static void attend(M& m) {
        const std::size_t newest = m.ring_.newest();
        (void)m.align_.template query<Set<M>>(newest, m.memory_[newest]);
        m.align_.template attend<Set<M>>(m.rows(), m.memory_[newest], m.alpha_, m.c_);
    }
    // ---- Lstmn ----
    /// Tape entry j holds h and c, with its key W_h h cached as step() caches it.
    template <class M>
    static void store(M& m, std::size_t j, const float* h, const float* c) {
        for (std::size_t i = 0; i < M::hidden_size; ++i) {
            m.h_[j][i] = h[i];
            m.c_[j][i] = c[i];
        }
        Set<M>::gemv(&m.p_.W_h[0][0], M::key_size, M::hidden_size, M::hidden_size, m.h_[j], m.P_[j]);
    }
    /// The tapes hold entries 0..n-1 (ring start 0), n steps taken, the last of which attended n-1 entries.
    template <class M>
    static void set_tape_length(M& m, std::size_t n) {
        set_length(m, n);
        m.attended_ = n > 0 ? n - 1 : 0;
    }
    template <class M>
    static void set_tilde(M& m, const float* h) {
        for (std::size_t i = 0; i < M::hidden_size; ++i) m.h_tilde_[m.cur_][i] = h[i];
    }
    /// h~ = Σ_j s_j h_j over the first k tape entries, with the model's own kernel: how the step that attended
    /// those k entries with weights s left h~ (the model does not show h~).
    template <class M>
    static void set_tilde_from(M& m, const float* s, std::size_t k) {
        const Rows<float> first_k{&m.h_[0][0], M::kStride, M::hidden_size, M::Ring::rows, 0, k};
        Set<M>::weighted_sum(s, first_k, m.h_tilde_[m.cur_]);
    }
};

}  // namespace detail
}  // namespace sarnn

namespace sarnn_bench {

using Access = sarnn::detail::Access;

/// SelfAttentionRnn<float, In, Hidden, Capacity, Align> on kernel::Dispatch, the arch pinned, with the harness calls.
template <std::size_t In, std::size_t Hidden, std::size_t Capacity, class Align>
class OursStep {
public:
    using Model = sarnn::SelfAttentionRnn<float, In, Hidden, Capacity, Align, sarnn::Bounded, sarnn::kernel::Dispatch>;
    using Params = typename Model::Params;

    /// For aligns without params (DotAlign, ScaledDotAlign).
    template <class M = Model, std::enable_if_t<std::is_void_v<typename M::AlignParams>, int> = 0>
    OursStep(const Params& params, sarnn::Arch arch) : m_((pin(arch), params)) {}
    /// For aligns with params (BilinearAlign, KeyQueryAlign<K>, AdditiveAlign<K>).
    template <class AP, class M = Model, std::enable_if_t<!std::is_void_v<typename M::AlignParams>, int> = 0>
    OursStep(const Params& params, const AP& align_params, sarnn::Arch arch) : m_((pin(arch), params), align_params) {}

    void reset() { m_.reset(); }
    /// The model's own step().
    sarnn::Status step(const float* x) { return m_.step(x); }
    /// The context alone (the align's query and attend) over the stored states, the newest as the query.
    void attend() { Access::attend(m_); }

    void store(std::size_t j, const float* h) { Access::store(m_, j, h); }
    void set_length(std::size_t n) { Access::set_length(m_, n); }
    void set_context(const float* c) { Access::set_context(m_, c); }
    std::uint64_t length() const { return m_.length(); }
    const float* context() const { return m_.context().data(); }
    const float* attention() const { return m_.attention().data(); }
    const float* hidden() const { return m_.hidden().data(); }
    const Model& model() const { return m_; }

private:
    static int pin(sarnn::Arch arch) { return static_cast<int>(sarnn::set_arch(arch)); }
    Model m_;
};

/// Lstmn<float, In, Hidden, Capacity, K> on kernel::Dispatch, the arch pinned, with the harness calls. The tape
/// length before a step is n (entries attended); the step writes entry n.
template <std::size_t In, std::size_t Hidden, std::size_t Capacity, std::size_t K>
class OursLstmn {
public:
    using Model = sarnn::Lstmn<float, In, Hidden, Capacity, K, sarnn::Bounded, sarnn::kernel::Dispatch>;
    using Params = typename Model::Params;

    OursLstmn(const Params& params, sarnn::Arch arch) : m_((pin(arch), params)) {}

    void reset() { m_.reset(); }
    /// The model's own step().
    sarnn::Status step(const float* x) { return m_.step(x); }

    void store(std::size_t j, const float* h, const float* c) { Access::store(m_, j, h, c); }
    void set_length(std::size_t n) { Access::set_tape_length(m_, n); }
    void set_tilde(const float* h) { Access::set_tilde(m_, h); }
    void set_tilde_from(const float* s, std::size_t k) { Access::set_tilde_from(m_, s, k); }
    std::uint64_t length() const { return m_.length(); }
    const float* hidden() const { return m_.hidden().data(); }
    const float* cell() const { return m_.cell().data(); }
    const float* attention() const { return m_.attention().data(); }

private:
    static int pin(sarnn::Arch arch) { return static_cast<int>(sarnn::set_arch(arch)); }
    Model m_;
};

/// Gru<float, In, Hidden> or Lstm<float, In, Hidden> (Cell) on kernel::Dispatch, the arch pinned: a cell's step()
/// costs the same from any state, so it is timed on its public interface alone.
template <template <class, std::size_t, std::size_t, class> class Cell, std::size_t In, std::size_t Hidden>
class OursCell {
public:
    using Model = Cell<float, In, Hidden, sarnn::kernel::Dispatch>;
    using Params = typename Model::Params;

    OursCell(const Params& params, sarnn::Arch arch) : m_((pin(arch), params)) {}

    void reset() { m_.reset(); }
    /// The model's own step().
    sarnn::Status step(const float* x) { return m_.step(x); }
    const float* hidden() const { return m_.hidden().data(); }
    /// c (the Lstm only).
    template <class M = Model>
    auto cell() const -> decltype(std::declval<const M&>().cell().data()) {
        return m_.cell().data();
    }
    const Model& model() const { return m_; }

private:
    static int pin(sarnn::Arch arch) { return static_cast<int>(sarnn::set_arch(arch)); }
    Model m_;
};

}  // namespace sarnn_bench

#endif
