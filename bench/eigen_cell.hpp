// bench/eigen_cell.hpp: the GRU and the LSTM in Eigen 3.4 fixed-size types, written the way a competent Eigen user
// would (as eigen_dot.hpp: row-major weights, noalias() on every product, Eigen's own vectorised tanh and
// logistic). Same equations as naive_cell.hpp:
//   GRU   gi = W_ih x + b_ih, gh = W_hh h + b_hh; r, z = σ(gi + gh) (first two thirds), n = tanh(gi_n + r ⊙ gh_n),
//         h' = (1 - z) ⊙ n + z ⊙ h
//   LSTM  z = W_ih x + W_hh h + b; c' = σ(z_f) ⊙ c + σ(z_i) ⊙ tanh(z_g), h' = σ(z_o) ⊙ tanh(c')
// eigen_dot.hpp raises Eigen's stack limit for fixed-size objects, so it is included first.
#ifndef SARNN_BENCH_EIGEN_CELL_HPP
#define SARNN_BENCH_EIGEN_CELL_HPP

#include "eigen_dot.hpp"

#include <Eigen/Core>

#include "naive_cell.hpp"  // Weights

namespace sarnn_bench {

template <int In, int Hidden>
class EigenGru {
public:
    using Weights = typename NaiveGru<In, Hidden>::Weights;
    using MatIh = Eigen::Matrix<float, 3 * Hidden, In, Eigen::RowMajor>;
    using MatHh = Eigen::Matrix<float, 3 * Hidden, Hidden, Eigen::RowMajor>;
    using Vec3H = Eigen::Matrix<float, 3 * Hidden, 1>;
    using VecH = Eigen::Matrix<float, Hidden, 1>;
    using VecIn = Eigen::Matrix<float, In, 1>;

    explicit EigenGru(const Weights& w)
        : W_ih_(Eigen::Map<const MatIh>(w.W_ih)),
          W_hh_(Eigen::Map<const MatHh>(w.W_hh)),
          b_ih_(Eigen::Map<const Vec3H>(w.b_ih)),
          b_hh_(Eigen::Map<const Vec3H>(w.b_hh)) {
        reset();
    }
    void reset() { h_.setZero(); }

    void step(const float* x) {
        gi_.noalias() = W_ih_ * Eigen::Map<const VecIn>(x);
        gi_ += b_ih_;
        gh_.noalias() = W_hh_ * h_;
        gh_ += b_hh_;
        const auto r = (gi_.template head<Hidden>() + gh_.template head<Hidden>()).array().logistic();
        const auto z = (gi_.template segment<Hidden>(Hidden) + gh_.template segment<Hidden>(Hidden)).array().logistic();
        n_.array() = (gi_.template tail<Hidden>().array() + r * gh_.template tail<Hidden>().array()).tanh();
        h_.array() = (1.0f - z) * n_.array() + z * h_.array();
    }
    const float* hidden() const { return h_.data(); }

private:
    MatIh W_ih_;
    MatHh W_hh_;
    Vec3H b_ih_, b_hh_, gi_, gh_;
    VecH h_, n_;
};

template <int In, int Hidden>
class EigenLstm {
public:
    using Weights = typename NaiveLstm<In, Hidden>::Weights;
    using MatIh = Eigen::Matrix<float, 4 * Hidden, In, Eigen::RowMajor>;
    using MatHh = Eigen::Matrix<float, 4 * Hidden, Hidden, Eigen::RowMajor>;
    using Vec4H = Eigen::Matrix<float, 4 * Hidden, 1>;
    using VecH = Eigen::Matrix<float, Hidden, 1>;
    using VecIn = Eigen::Matrix<float, In, 1>;

    explicit EigenLstm(const Weights& w)
        : W_ih_(Eigen::Map<const MatIh>(w.W_ih)),
          W_hh_(Eigen::Map<const MatHh>(w.W_hh)),
          b_(Eigen::Map<const Vec4H>(w.b)) {
        reset();
    }
    void reset() {
        h_.setZero();
        c_.setZero();
    }

    void step(const float* x) {
        z_.noalias() = W_ih_ * Eigen::Map<const VecIn>(x);
        z_.noalias() += W_hh_ * h_;
        z_ += b_;
        const auto i = z_.template segment<Hidden>(0).array().logistic();
        const auto f = z_.template segment<Hidden>(Hidden).array().logistic();
        const auto g = z_.template segment<Hidden>(2 * Hidden).array().tanh();
        const auto o = z_.template segment<Hidden>(3 * Hidden).array().logistic();
        c_.array() = f * c_.array() + i * g;
        h_.array() = o * c_.array().tanh();
    }
    const float* hidden() const { return h_.data(); }
    const float* cell() const { return c_.data(); }

private:
    MatIh W_ih_;
    MatHh W_hh_;
    Vec4H b_, z_;
    VecH h_, c_;
};

}  // namespace sarnn_bench

#endif
