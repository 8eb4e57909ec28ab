// bench/eigen_scored.hpp: the parameterised aligns and the LSTM-network in Eigen 3.4 fixed-size types, written
// the way a competent Eigen user would (as eigen_dot.hpp: row-major, noalias() on every product, Eigen's own
// vectorised tanh / exp / logistic, a softmax from maxCoeff / exp / sum). Same algebra as the naive peers
// (naive_scored.hpp): the query once per step, keys cached per stored state for keyquery, additive and LSTMN.
//   bilinear   q = W h_i,        e = M_{1..i} q
//   keyquery   k_i = Wk h_i (row i of Keys, on push),  e = Keys_{1..i} (Wq h_i)
//   additive   p_i = W_l h_i (row i of Keys, on push), e = tanh(Keys_{1..i} + 1 (W_r h_i)ᵀ) v
//   LSTMN      keys W_h h_j per tape entry; a = tanh(Keys + 1 qᵀ) v; h~ = Hᵀ s, c~ = Cᵀ s; gates from
//              z = W_ih x + W_hh h~ + b
// eigen_dot.hpp raises Eigen's stack limit for fixed-size objects, so it is included first.
#ifndef SARNN_BENCH_EIGEN_SCORED_HPP
#define SARNN_BENCH_EIGEN_SCORED_HPP

#include "eigen_dot.hpp"

#include <cstddef>

#include <Eigen/Core>

#include "naive_scored.hpp"  // Score, ScoreWeights, score_width

namespace sarnn_bench {

template <int In, int Hidden, int Capacity, Score S, int K>
class EigenScoredSarnn {
    static constexpr int kQ = static_cast<int>(score_width(S, Hidden, K));
    static constexpr int kKey = S == Score::bilinear ? 1 : K;
    static constexpr int kKeyRows = S == Score::bilinear ? 1 : Capacity;

public:
    using MatA = Eigen::Matrix<float, Hidden, In + Hidden, Eigen::RowMajor>;
    using VecH = Eigen::Matrix<float, Hidden, 1>;
    using VecIn = Eigen::Matrix<float, In, 1>;
    using VecXC = Eigen::Matrix<float, In + Hidden, 1>;
    using VecQ = Eigen::Matrix<float, kQ, 1>;
    using MatQ = Eigen::Matrix<float, kQ, Hidden, Eigen::RowMajor>;  // W (bilinear), Wk / Wq, W_l / W_r
    using VecK = Eigen::Matrix<float, K, 1>;
    using Memory = Eigen::Matrix<float, Capacity, Hidden, Eigen::RowMajor>;
    using Keys = Eigen::Matrix<float, kKeyRows, kKey, Eigen::RowMajor>;
    using VecCap = Eigen::Matrix<float, Capacity, 1>;

    /// A is Hidden x (In + Hidden) row-major, b has Hidden values; w as documented at ScoreWeights (copied).
    EigenScoredSarnn(const float* A, const float* b, const ScoreWeights& w)
        : A_(Eigen::Map<const MatA>(A)), b_(Eigen::Map<const VecH>(b)) {
        if constexpr (S == Score::bilinear) {
            Wq_ = Eigen::Map<const MatQ>(w.W);
        } else if constexpr (S == Score::keyquery) {
            Wk_ = Eigen::Map<const MatQ>(w.Wk);
            Wq_ = Eigen::Map<const MatQ>(w.Wq);
        } else {
            // W = [W_l | W_r], K x 2·Hidden row-major
            using MatW = Eigen::Matrix<float, K, 2 * Hidden, Eigen::RowMajor>;
            const Eigen::Map<const MatW> W(w.W);
            Wk_ = W.template leftCols<Hidden>();
            Wq_ = W.template rightCols<Hidden>();
            v_ = Eigen::Map<const VecK>(w.v);
        }
        M_.setZero();
        keys_.setZero();
        tanh_.setZero();
        alpha_.setZero();
        reset();
    }

    void reset() {
        c_.setZero();
        len_ = 0;
    }

    void step(const float* x) {
        xc_.template head<In>() = Eigen::Map<const VecIn>(x);
        xc_.template tail<Hidden>() = c_;
        h_.noalias() = A_ * xc_;
        h_ = (h_ + b_).array().tanh().matrix();
        M_.row(static_cast<Eigen::Index>(len_)) = h_.transpose();
        make_key(len_);
        ++len_;
        attend();
    }

    void store(std::size_t j, const float* h) {
        M_.row(static_cast<Eigen::Index>(j)) = Eigen::Map<const VecH>(h).transpose();
        make_key(j);
    }
    void set_length(std::size_t n) { len_ = n; }
    void set_context(const float* c) { c_ = Eigen::Map<const VecH>(c); }
    std::size_t length() const { return len_; }
    const float* context() const { return c_.data(); }
    const float* attention() const { return alpha_.data(); }
    const float* hidden() const { return M_.row(static_cast<Eigen::Index>(len_ - 1)).data(); }

private:
    void make_key(std::size_t j) {
        if constexpr (S != Score::bilinear)
            keys_.row(static_cast<Eigen::Index>(j)).noalias() =
                (Wk_ * M_.row(static_cast<Eigen::Index>(j)).transpose()).transpose();
        else
            (void)j;
    }

    void attend() {
        const Eigen::Index n = static_cast<Eigen::Index>(len_);
        h_ = M_.row(n - 1).transpose();
        auto e = alpha_.head(n);
        q_.noalias() = Wq_ * h_;
        if constexpr (S == Score::bilinear) {
            e.noalias() = M_.topRows(n) * q_;
        } else if constexpr (S == Score::keyquery) {
            e.noalias() = keys_.topRows(n) * q_;
        } else {
            tanh_.topRows(n) = (keys_.topRows(n).rowwise() + q_.transpose()).array().tanh().matrix();
            e.noalias() = tanh_.topRows(n) * v_;
        }
        const float mx = e.maxCoeff();
        e = (e.array() - mx).exp().matrix();
        e /= e.sum();
        c_.noalias() = M_.topRows(n).transpose() * e;
    }

    MatA A_;
    VecH b_;
    MatQ Wk_, Wq_;
    VecK v_;
    Memory M_;
    Keys keys_;
    Keys tanh_;
    VecH c_, h_;
    VecXC xc_;
    VecQ q_;
    VecCap alpha_;
    std::size_t len_ = 0;
};

template <int In, int Hidden, int Capacity, int K>
class EigenLstmn {
public:
    using Weights = typename NaiveLstmn<In, Hidden, Capacity, K>::Weights;
    using MatIh = Eigen::Matrix<float, 4 * Hidden, In, Eigen::RowMajor>;
    using MatHh = Eigen::Matrix<float, 4 * Hidden, Hidden, Eigen::RowMajor>;
    using Vec4H = Eigen::Matrix<float, 4 * Hidden, 1>;
    using MatKH = Eigen::Matrix<float, K, Hidden, Eigen::RowMajor>;
    using MatKIn = Eigen::Matrix<float, K, In, Eigen::RowMajor>;
    using VecK = Eigen::Matrix<float, K, 1>;
    using VecH = Eigen::Matrix<float, Hidden, 1>;
    using VecIn = Eigen::Matrix<float, In, 1>;
    using Tape = Eigen::Matrix<float, Capacity, Hidden, Eigen::RowMajor>;
    using Keys = Eigen::Matrix<float, Capacity, K, Eigen::RowMajor>;
    using VecCap = Eigen::Matrix<float, Capacity, 1>;

    explicit EigenLstmn(const Weights& w)
        : W_ih_(Eigen::Map<const MatIh>(w.W_ih)),
          W_hh_(Eigen::Map<const MatHh>(w.W_hh)),
          b_(Eigen::Map<const Vec4H>(w.b)),
          W_h_(Eigen::Map<const MatKH>(w.W_h)),
          W_x_(Eigen::Map<const MatKIn>(w.W_x)),
          W_ht_(Eigen::Map<const MatKH>(w.W_ht)),
          v_(Eigen::Map<const VecK>(w.v)) {
        H_.setZero();
        C_.setZero();
        keys_.setZero();
        tanh_.setZero();
        s_.setZero();
        reset();
    }

    void reset() {
        h_tilde_.setZero();
        c_tilde_.setZero();
        len_ = 0;
    }

    void step(const float* x) {
        const Eigen::Index n = static_cast<Eigen::Index>(len_);
        const Eigen::Map<const VecIn> xt(x);
        if (n > 0) {
            q_.noalias() = W_x_ * xt;
            q_.noalias() += W_ht_ * h_tilde_;
            auto s = s_.head(n);
            tanh_.topRows(n) = (keys_.topRows(n).rowwise() + q_.transpose()).array().tanh().matrix();
            s.noalias() = tanh_.topRows(n) * v_;
            const float mx = s.maxCoeff();
            s = (s.array() - mx).exp().matrix();
            s /= s.sum();
            h_tilde_.noalias() = H_.topRows(n).transpose() * s;
            c_tilde_.noalias() = C_.topRows(n).transpose() * s;
        }
        z_.noalias() = W_ih_ * xt;
        z_.noalias() += W_hh_ * h_tilde_;
        z_ += b_;
        const auto i = z_.template segment<Hidden>(0).array().logistic();
        const auto f = z_.template segment<Hidden>(Hidden).array().logistic();
        const auto g = z_.template segment<Hidden>(2 * Hidden).array().tanh();
        const auto o = z_.template segment<Hidden>(3 * Hidden).array().logistic();
        c_.array() = f * c_tilde_.array() + i * g;
        h_.array() = o * c_.array().tanh();
        C_.row(n) = c_.transpose();
        H_.row(n) = h_.transpose();
        keys_.row(n).noalias() = (W_h_ * h_).transpose();
        ++len_;
    }

    void store(std::size_t j, const float* h, const float* c) {
        const Eigen::Index r = static_cast<Eigen::Index>(j);
        H_.row(r) = Eigen::Map<const VecH>(h).transpose();
        C_.row(r) = Eigen::Map<const VecH>(c).transpose();
        keys_.row(r).noalias() = (W_h_ * H_.row(r).transpose()).transpose();
    }
    void set_length(std::size_t n) { len_ = n; }
    void set_tilde(const float* h) { h_tilde_ = Eigen::Map<const VecH>(h); }
    std::size_t length() const { return len_; }
    const float* hidden() const { return H_.row(static_cast<Eigen::Index>(len_ - 1)).data(); }
    const float* cell() const { return C_.row(static_cast<Eigen::Index>(len_ - 1)).data(); }
    const float* attention() const { return s_.data(); }

private:
    MatIh W_ih_;
    MatHh W_hh_;
    Vec4H b_;
    MatKH W_h_;
    MatKIn W_x_;
    MatKH W_ht_;
    VecK v_;
    Tape H_, C_;
    Keys keys_, tanh_;
    VecH h_tilde_, c_tilde_, h_, c_;
    VecK q_;
    Vec4H z_;
    VecCap s_;
    std::size_t len_ = 0;
};

}  // namespace sarnn_bench

#endif
