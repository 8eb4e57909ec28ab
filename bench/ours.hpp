// bench/ours.hpp: sarnn's SelfAttentionRnn::step(), line for line, with the kernel set passed in.
//
// Why: a model's step() at memory length n cannot be timed in a loop on the model itself, since each step
// makes the memory one state longer and there is no way back but reset(). This harness owns the same
// storage as SelfAttentionRnn (padded, aligned rows; zero padding lanes), makes the same calls in the same
// order with the same arguments (check_input, affine_tanh, the Align's push and attend), and lets the
// benchmark set the length back to n-1 after each step. The agreement check in bench_main.cpp proves it is
// bit-identical to the real model on every arch, and the whole-sequence benchmarks time the real model.
#ifndef SARNN_BENCH_OURS_HPP
#define SARNN_BENCH_OURS_HPP

#include <cstddef>

#include <sarnn/sarnn.hpp>

namespace sarnn_bench {

template <std::size_t In, std::size_t Hidden, std::size_t Capacity, class Align>
class OursStep {
public:
    using Params = sarnn::RnnParams<float, In, Hidden>;

    OursStep(const Params& params, const sarnn::Kernels<float>& k) : p_(params), k_(k) {
        for (auto& row : mem_)
            for (float& v : row) v = 0.0f;
        for (float& v : alpha_) v = 0.0f;
        reset();
    }

    void reset() {
        for (float& v : c_) v = 0.0f;
        len_ = 0;
        align_.reset();
    }

    /// SelfAttentionRnn::step(x) with k_ in place of sarnn::kernels<float>().
    sarnn::Status step(const float* x) {
        if (len_ == Capacity) return sarnn::Status::memory_full;
        const sarnn::Status s = sarnn::detail::check_input(x, In);
        if (s != sarnn::Status::ok) return s;
        float* h = mem_[len_];
        k_.affine_tanh(&p_.A[0][0], p_.b, Hidden, x, In, c_, Hidden, h);
        align_.push(k_, len_, h);
        ++len_;
        align_.attend(k_, rows(), h, alpha_, c_);
        return sarnn::Status::ok;
    }

    /// The context alone (the Align's attend) over the len_ stored states, the last one as the query.
    void attend() { align_.attend(k_, rows(), mem_[len_ - 1], alpha_, c_); }

    // Access for the benchmark harness (prefilling the memory) and the agreement check.
    float* memory_row(std::size_t j) { return mem_[j]; }
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
    using AlignState = typename Align::template State<float, Hidden, Capacity>;

    sarnn::Rows<float> rows() const { return {&mem_[0][0], kStride, Hidden, Capacity, 0, len_}; }

    const Params& p_;
    const sarnn::Kernels<float>& k_;
    alignas(sarnn::storage_alignment<float>()) float mem_[Capacity][kStride];
    alignas(sarnn::storage_alignment<float>()) float c_[kStride];
    alignas(sarnn::storage_alignment<float>()) float alpha_[sarnn::padded<float>(Capacity)];
    std::size_t len_ = 0;
    AlignState align_{};
};

}  // namespace sarnn_bench

#endif
