// bench/eigen_dot.hpp: the self-attention RNN in Eigen 3.4 fixed-size types, written the way a competent
// Eigen user would: row-major weights and memory, [x; c] stacked into one vector for a single product,
// noalias() on every product, Eigen's own vectorised tanh and exp, a softmax from maxCoeff / exp / sum.
//
//   h_i = tanh(A·[x_i; c_{i-1}] + b),  c_0 = 0
//   e = M_{1..i}·h_i  (times 1/sqrt(Hidden) when Scaled)
//   alpha = softmax(e),  c_i = M_{1..i}ᵀ·alpha
//
// The memory is one fixed-size Capacity x Hidden row-major matrix (up to 4096 x 128 floats = 2 MiB here),
// above Eigen's default 128 KiB limit for fixed-size objects, which exists to stop them landing on the
// stack: this file raises the limit (the objects are heap-allocated once, outside the timed code), so it
// must be the first Eigen include of its translation unit. EIGEN_RUNTIME_NO_MALLOC lets the agreement check
// assert that step() never allocates.
#ifndef SARNN_BENCH_EIGEN_DOT_HPP
#define SARNN_BENCH_EIGEN_DOT_HPP

#if defined(EIGEN_CORE_H) || defined(EIGEN_CORE_MODULE_H)
#error "bench/eigen_dot.hpp must be included before any other Eigen header"
#endif
#ifndef EIGEN_STACK_ALLOCATION_LIMIT
#define EIGEN_STACK_ALLOCATION_LIMIT (4 * 1024 * 1024)
#endif
#ifndef EIGEN_RUNTIME_NO_MALLOC
#define EIGEN_RUNTIME_NO_MALLOC
#endif

#include <cmath>
#include <cstddef>

#include <Eigen/Core>

namespace sarnn_bench {

template <int In, int Hidden, int Capacity, bool Scaled>
class EigenSarnn {
public:
    using MatA = Eigen::Matrix<float, Hidden, In + Hidden, Eigen::RowMajor>;
    using VecH = Eigen::Matrix<float, Hidden, 1>;
    using VecIn = Eigen::Matrix<float, In, 1>;
    using VecXC = Eigen::Matrix<float, In + Hidden, 1>;
    using Memory = Eigen::Matrix<float, Capacity, Hidden, Eigen::RowMajor>;
    using VecCap = Eigen::Matrix<float, Capacity, 1>;

    /// A is Hidden x (In + Hidden) row-major, b has Hidden values; both are copied (the user owns them).
    EigenSarnn(const float* A, const float* b) : A_(Eigen::Map<const MatA>(A)), b_(Eigen::Map<const VecH>(b)) {
        M_.setZero();
        alpha_.setZero();
        reset();
    }

    void reset() {
        c_.setZero();
        len_ = 0;
    }

    /// One step: h_i into the memory, then the context over h_1..h_i. Capacity is the caller's business.
    void step(const float* x) {
        // h = tanh(A·[x; c] + b)
        xc_.template head<In>() = Eigen::Map<const VecIn>(x);
        xc_.template tail<Hidden>() = c_;
        h_.noalias() = A_ * xc_;
        h_ = (h_ + b_).array().tanh().matrix();
        M_.row(static_cast<Eigen::Index>(len_)) = h_.transpose();
        ++len_;
        context_of(h_);
    }

    /// The context alone over the len_ stored states, the last one as the query.
    void attend() {
        h_ = M_.row(static_cast<Eigen::Index>(len_ - 1)).transpose();
        context_of(h_);
    }

    // Access for the benchmark harness (prefilling the memory) and the agreement check.
    void store(std::size_t j, const float* h) {
        M_.row(static_cast<Eigen::Index>(j)) = Eigen::Map<const VecH>(h).transpose();
    }
    void set_length(std::size_t n) { len_ = n; }
    void set_context(const float* c) { c_ = Eigen::Map<const VecH>(c); }
    std::size_t length() const { return len_; }
    const float* context() const { return c_.data(); }
    const float* attention() const { return alpha_.data(); }
    const float* hidden() const { return M_.row(static_cast<Eigen::Index>(len_ - 1)).data(); }

private:
    void context_of(const VecH& q) {
        const Eigen::Index n = static_cast<Eigen::Index>(len_);
        const auto Mn = M_.topRows(n);
        auto e = alpha_.head(n);
        // e = M·q (scaled)
        e.noalias() = Mn * q;
        if (Scaled) e *= kScale;
        // alpha = softmax(e)
        const float mx = e.maxCoeff();
        e = (e.array() - mx).exp().matrix();
        e /= e.sum();
        // c = Mᵀ·alpha
        c_.noalias() = Mn.transpose() * e;
    }

    static inline const float kScale = 1.0f / std::sqrt(static_cast<float>(Hidden));

    MatA A_;
    VecH b_;
    Memory M_;
    VecH c_, h_;
    VecXC xc_;
    VecCap alpha_;
    std::size_t len_ = 0;
};

}  // namespace sarnn_bench

#endif
