// bench/ours.hpp: sarnn's SelfAttentionRnn::step() and Lstmn::step(), line for line, on the kernel set of the
// arch passed in (pinned with set_arch(): the calls go through kernel::Dispatch, as a default model's do on x86-64).
//
// Why: a model's step() at memory length n cannot be timed in a loop on the model itself, since each step
// makes the memory one state longer and there is no way back but reset(). This harness owns the same
// storage as SelfAttentionRnn (padded, aligned rows; zero padding lanes), makes the same calls in the same
// order with the same arguments (check_input, affine_tanh and its check, the Align's query and attend), and lets the
// benchmark set the length back to n-1 after each step. The agreement check in bench_main.cpp proves it is
// bit-identical to the real model on every arch, and the whole-sequence benchmarks time the real model.
// Both harnesses are the Bounded memory (ring start 0); the Window memory is timed on the real model.
#ifndef SARNN_BENCH_OURS_HPP
#define SARNN_BENCH_OURS_HPP

#include <cstddef>
#include <type_traits>

#include <sarnn/sarnn.hpp>

namespace sarnn_bench {

/// The kernel calls of the harnesses: through the run-time table set_arch() chose.
using Set = sarnn::kernel::Dispatch;

template <std::size_t In, std::size_t Hidden, std::size_t Capacity, class Align>
class OursStep {
public:
    using Params = sarnn::RnnParams<float, In, Hidden>;

    using AlignState = typename Align::template State<float, Hidden, Capacity>;

    /// For aligns without params (DotAlign, ScaledDotAlign).
    template <class A = AlignState, std::enable_if_t<!A::has_params, int> = 0>
    OursStep(const Params& params, sarnn::Arch arch) : p_(params) {
        (void)sarnn::set_arch(arch);
        init();
    }
    /// For aligns with params (BilinearAlign, KeyQueryAlign<K>, AdditiveAlign<K>).
    template <class A = AlignState, std::enable_if_t<A::has_params, int> = 0>
    OursStep(const Params& params, const typename A::params_type& align_params, sarnn::Arch arch)
        : p_(params), align_(align_params) {
        (void)sarnn::set_arch(arch);
        init();
    }

    void reset() {
        for (float& v : c_) v = 0.0f;
        len_ = 0;
        align_.reset();
    }

    /// SelfAttentionRnn::step(x) 
    sarnn::Status step(const float* x) {
        if (len_ == Capacity) return sarnn::Status::memory_full;
        const sarnn::Status s = sarnn::detail::check_input(x, In);
        if (s != sarnn::Status::ok) return s;
        float* h = mem_[len_];
        Set::affine_tanh(&p_.A[0][0], p_.b, Hidden, x, In, c_, Hidden, h);
        if (!sarnn::detail::all_finite(h, Hidden)) return sarnn::Status::non_finite_result;
        const sarnn::Status q = align_.template query<Set>(len_, h);
        if (q != sarnn::Status::ok) return q;
        ++len_;
        align_.template attend<Set>(rows(), h, alpha_, c_);
        return sarnn::Status::ok;
    }

    /// The context alone (the Align's query and attend) over the len_ stored states, the last one as the query.
    void attend() {
        (void)align_.template query<Set>(len_ - 1, mem_[len_ - 1]);
        align_.template attend<Set>(rows(), mem_[len_ - 1], alpha_, c_);
    }

    // Access for the benchmark harness (prefilling the memory) and the agreement check.
    /// Memory row j holds h (Hidden values), and the align has seen it enter (its query, as in step()).
    void store(std::size_t j, const float* h) {
        for (std::size_t i = 0; i < Hidden; ++i) mem_[j][i] = h[i];
        (void)align_.template query<Set>(j, mem_[j]);
    }
    void set_length(std::size_t n) { len_ = n; }
    void set_context(const float* c) {
        for (std::size_t i = 0; i < Hidden; ++i) c_[i] = c[i];
    }
    std::size_t length() const { return len_; }
    const float* context() const { return c_; }
    const float* attention() const { return alpha_; }
    const float* hidden() const { return mem_[len_ - 1]; }

private:
    static constexpr std::size_t kStride = sarnn::padded<float>(Hidden);

    void init() {
        for (auto& row : mem_)
            for (float& v : row) v = 0.0f;
        for (float& v : alpha_) v = 0.0f;
        reset();
    }
    sarnn::Rows<float> rows() const { return {&mem_[0][0], kStride, Hidden, Capacity, 0, len_}; }

    const Params& p_;
    alignas(sarnn::storage_alignment<float>()) float mem_[Capacity][kStride];
    alignas(sarnn::storage_alignment<float>()) float c_[kStride];
    alignas(sarnn::storage_alignment<float>()) float alpha_[sarnn::padded<float>(Capacity)];
    std::size_t len_ = 0;
    AlignState align_{};
};

/// sarnn's Lstmn::step() (Bounded memory), call for call, with the kernel set passed in. The tape length
/// before a step is n (entries attended); the step writes entry n.
template <std::size_t In, std::size_t Hidden, std::size_t Capacity, std::size_t K>
class OursLstmn {
public:
    using Params = sarnn::LstmnParams<float, In, Hidden, K>;

    OursLstmn(const Params& params, sarnn::Arch arch) : p_(params) {
        (void)sarnn::set_arch(arch);
        for (auto* tape : {&h_, &c_})
            for (auto& row : *tape)
                for (float& v : row) v = 0.0f;
        for (auto& row : P_)
            for (float& v : row) v = 0.0f;
        for (float& v : q_) v = 0.0f;
        for (float& v : z_) v = 0.0f;
        for (float& v : s_) v = 0.0f;
        reset();
    }

    void reset() {
        for (float& v : h_tilde_) v = 0.0f;
        for (float& v : c_tilde_) v = 0.0f;
        len_ = 0;
    }

    /// Lstmn::step(x) 
    sarnn::Status step(const float* x) {
        if (len_ == Capacity) return sarnn::Status::memory_full;
        const sarnn::Status st = sarnn::detail::check_input(x, In);
        if (st != sarnn::Status::ok) return st;
        const std::size_t n = len_;
        if (n > 0) {
            Set::gemv(&p_.W_x[0][0], K, In, In, x, q_);
            Set::gemv_add(&p_.W_ht[0][0], K, Hidden, Hidden, h_tilde_, q_);
            if (!sarnn::detail::all_finite(q_, K) || !sarnn::detail::bounds_scores(p_.v, K))
                return sarnn::Status::non_finite_result;
            const sarnn::Rows<float> P{&P_[0][0], kStrideK, K, Capacity, 0, n};
            Set::additive_scores(P, q_, p_.v, s_);
            Set::softmax(s_, n);
            Set::weighted_sum(s_, tape(h_), h_tilde_);
            Set::weighted_sum(s_, tape(c_), c_tilde_);
        }
        Set::gemv(&p_.W_ih[0][0], 4 * Hidden, In, In, x, z_);
        Set::gemv_add(&p_.W_hh[0][0], 4 * Hidden, Hidden, Hidden, h_tilde_, z_);
        const std::size_t slot = n;
        Set::lstm_cell(z_, p_.b, c_tilde_, Hidden, c_[slot], h_[slot]);
        Set::gemv(&p_.W_h[0][0], K, Hidden, Hidden, h_[slot], P_[slot]);
        if (!sarnn::detail::all_finite(c_[slot], Hidden) || !sarnn::detail::all_finite(h_[slot], Hidden) ||
            !sarnn::detail::all_finite(P_[slot], K))
            return sarnn::Status::non_finite_result;
        ++len_;
        return sarnn::Status::ok;
    }

    // Access for the benchmark harness (prefilling the tapes) and the agreement check.
    /// Tape entry j holds h and c (Hidden values each), with its key W_h h cached as step() does.
    void store(std::size_t j, const float* h, const float* c) {
        for (std::size_t i = 0; i < Hidden; ++i) {
            h_[j][i] = h[i];
            c_[j][i] = c[i];
        }
        Set::gemv(&p_.W_h[0][0], K, Hidden, Hidden, h_[j], P_[j]);
    }
    void set_length(std::size_t n) { len_ = n; }
    void set_tilde(const float* h) {
        for (std::size_t i = 0; i < Hidden; ++i) h_tilde_[i] = h[i];
    }
    /// h~ = Σ_j s_j h_j over the first m tape entries, with the model's own kernel: this is how the step that
    /// attended those m entries with weights s left h~ (the model does not show h~, the check rebuilds it).
    void set_tilde_from(const float* s, std::size_t m) {
        const std::size_t keep = len_;
        len_ = m;
        Set::weighted_sum(s, tape(h_), h_tilde_);
        len_ = keep;
    }
    std::size_t length() const { return len_; }
    const float* hidden() const { return h_[len_ - 1]; }
    const float* cell() const { return c_[len_ - 1]; }
    const float* attention() const { return s_; }

private:
    static constexpr std::size_t kStride = sarnn::padded<float>(Hidden);
    static constexpr std::size_t kStrideK = sarnn::padded<float>(K);
    using Tape = float[Capacity][kStride];

    sarnn::Rows<float> tape(const Tape& t) const { return {&t[0][0], kStride, Hidden, Capacity, 0, len_}; }

    const Params& p_;
    alignas(sarnn::storage_alignment<float>()) Tape h_;
    alignas(sarnn::storage_alignment<float>()) Tape c_;
    alignas(sarnn::storage_alignment<float>()) float P_[Capacity][kStrideK];
    alignas(sarnn::storage_alignment<float>()) float h_tilde_[kStride];
    alignas(sarnn::storage_alignment<float>()) float c_tilde_[kStride];
    alignas(sarnn::storage_alignment<float>()) float q_[kStrideK];
    alignas(sarnn::storage_alignment<float>()) float z_[4 * Hidden];
    alignas(sarnn::storage_alignment<float>()) float s_[sarnn::padded<float>(Capacity)];
    std::size_t len_ = 0;
};

}  // namespace sarnn_bench

#endif
