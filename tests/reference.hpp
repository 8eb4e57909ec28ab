// tests/reference.hpp: an independent, plain double-precision reference of both sarnn models.
//
// Written from the formulas of the issue, not from the library code:
//   SimpleRnn         h_i = tanh(A·[x_i; h_{i-1}] + b),  h_0 = 0
//   SelfAttentionRnn  h_i = tanh(A·[x_i; c_{i-1}] + b),  c_0 = 0
//                     memory h_1..h_i (the new state included; a window keeps only the newest W)
//                     e_ij = align(h_j, h_i), alpha_ij = softmax_j(e_ij) (max subtracted), c_i = Σ_j alpha_ij h_j
//
// Everything is std::vector<double>; speed does not matter here, clarity does. An align is any callable
// `double(const Vec& h_j, const Vec& h_i)`, so the parameterised aligns (bilinear h_j·W·h_i, key/query
// (K h_j)·(Q h_i), additive v·tanh(W1 h_j + W2 h_i)) are a small struct each, holding their weights.
#ifndef SARNN_TESTS_REFERENCE_HPP
#define SARNN_TESTS_REFERENCE_HPP

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <deque>
#include <limits>
#include <utility>
#include <vector>

namespace ref {

// ---- tolerances (absolute, library vs this reference) ------------------------------------------------------
/// h, c and alpha of a float model, and the sum of its alpha (which must be 1).
inline constexpr double kFloatTol = 1e-5;
/// h, c and alpha of a double model, and the sum of its alpha.
inline constexpr double kDoubleTol = 1e-12;
/// |c_1 - h_1| (c_1 = 1·h_1: exact in any sane implementation, allowed one rounding of slack).
inline constexpr double kFloatC1Tol = 1e-6;
inline constexpr double kDoubleC1Tol = 1e-15;
/// Kernel level, for the unbounded sums (dot, gemv, the pre-activation of affine_tanh): the error allowed is
/// the tolerance above times max(1, Σ_k |a_k·b_k|), i.e. relative to the size of the terms summed.
/// exp is checked relatively: |got - exact| <= tol·exact.

template <class T>
constexpr double tol() noexcept {
    return sizeof(T) == sizeof(float) ? kFloatTol : kDoubleTol;
}
template <class T>
constexpr double c1_tol() noexcept {
    return sizeof(T) == sizeof(float) ? kFloatC1Tol : kDoubleC1Tol;
}

using Vec = std::vector<double>;

// ---- small plain helpers -------------------------------------------------------------------------------------
inline double dot(const Vec& a, const Vec& b) {
    double s = 0.0;
    for (std::size_t k = 0; k < a.size(); ++k) s += a[k] * b[k];
    return s;
}

/// softmax with the max subtracted first, so huge scores never overflow.
inline Vec softmax(const Vec& e) {
    const double m = *std::max_element(e.begin(), e.end());
    Vec a(e.size());
    double s = 0.0;
    for (std::size_t j = 0; j < e.size(); ++j) {
        a[j] = std::exp(e[j] - m);
        s += a[j];
    }
    for (double& v : a) v /= s;
    return a;
}

// ---- weights -------------------------------------------------------------------------------------------------
/// A is hidden x (in + hidden), row-major; its first `in` columns act on x, the rest on the recurrent vector.
struct Weights {
    std::size_t in = 0;
    std::size_t hidden = 0;
    Vec A;  // hidden * (in + hidden)
    Vec b;  // hidden

    double a(std::size_t row, std::size_t col) const { return A[row * (in + hidden) + col]; }
};

/// Copies any params aggregate with members `A[Hidden][In + Hidden]` and `b[Hidden]` into doubles.
template <class Params>
Weights weights_of(const Params& p, std::size_t in, std::size_t hidden) {
    Weights w;
    w.in = in;
    w.hidden = hidden;
    w.A.resize(hidden * (in + hidden));
    w.b.resize(hidden);
    for (std::size_t r = 0; r < hidden; ++r) {
        for (std::size_t k = 0; k < in + hidden; ++k) w.A[r * (in + hidden) + k] = static_cast<double>(p.A[r][k]);
        w.b[r] = static_cast<double>(p.b[r]);
    }
    return w;
}

/// tanh(A·[x; r] + b): the recurrent step of both models (r = h_{i-1} or c_{i-1}).
inline Vec rnn_cell(const Weights& w, const Vec& x, const Vec& r) {
    Vec h(w.hidden);
    for (std::size_t row = 0; row < w.hidden; ++row) {
        double z = w.b[row];
        for (std::size_t k = 0; k < w.in; ++k) z += w.a(row, k) * x[k];
        for (std::size_t k = 0; k < w.hidden; ++k) z += w.a(row, w.in + k) * r[k];
        h[row] = std::tanh(z);
    }
    return h;
}

// ---- aligns: e = align(h_j, h_i) -------------------------------------------------------------------------
// Each align also splits its score as e = score(key(h_j), query(h_i)), so that a long run can keep the keys of
// its stored states (tools/limits); operator() and the split are checked against each other there.
/// e = h_j·h_i
struct Dot {
    double operator()(const Vec& hj, const Vec& hi) const { return dot(hj, hi); }
    Vec key(const Vec& h) const { return h; }
    Vec query(const Vec& h) const { return h; }
    double score(const Vec& key, const Vec& q) const { return dot(key, q); }
};
/// e = h_j·h_i / sqrt(Hidden)
struct ScaledDot {
    double operator()(const Vec& hj, const Vec& hi) const {
        return dot(hj, hi) / std::sqrt(static_cast<double>(hi.size()));
    }
    Vec key(const Vec& h) const { return h; }
    Vec query(const Vec& h) const { return h; }
    double score(const Vec& key, const Vec& q) const { return dot(key, q) / std::sqrt(static_cast<double>(q.size())); }
};

// ---- attention -------------------------------------------------------------------------------------------
struct Attention {
    Vec alpha;  // one weight per state in memory, oldest first
    Vec c;      // Σ_j alpha_j h_j
};

/// alpha_j = softmax_j(align(h_j, h)), c = Σ_j alpha_j h_j over the states of `memory` (oldest first).
template <class Memory, class Align>
Attention attend(const Memory& memory, const Vec& h, const Align& align) {
    Vec e;
    e.reserve(memory.size());
    for (const Vec& hj : memory) e.push_back(align(hj, h));
    Attention out;
    out.alpha = softmax(e);
    out.c.assign(h.size(), 0.0);
    std::size_t j = 0;
    for (const Vec& hj : memory) {
        for (std::size_t k = 0; k < h.size(); ++k) out.c[k] += out.alpha[j] * hj[k];
        ++j;
    }
    return out;
}

// ---- the models --------------------------------------------------------------------------------------------
/// h_i = tanh(A·[x_i; h_{i-1}] + b), h_0 = 0.
class SimpleRnn {
public:
    explicit SimpleRnn(Weights w) : w_(std::move(w)) { reset(); }
    void reset() {
        h_.assign(w_.hidden, 0.0);
        length_ = 0;
    }
    const Vec& step(const Vec& x) {
        h_ = rnn_cell(w_, x, h_);
        ++length_;
        return h_;
    }
    const Vec& hidden() const { return h_; }
    std::size_t length() const { return length_; }
    const Weights& weights() const { return w_; }

private:
    Weights w_;
    Vec h_;
    std::size_t length_ = 0;
};

/// h_i = tanh(A·[x_i; c_{i-1}] + b), c_0 = 0; the memory holds h_1..h_i, or only the newest `window` of them
/// when window > 0 (a sliding window); c_i = Σ_j softmax_j(align(h_j, h_i)) h_j over the memory.
template <class Align>
class SelfAttentionRnn {
public:
    explicit SelfAttentionRnn(Weights w, Align align = Align{}, std::size_t window = 0)
        : w_(std::move(w)), align_(std::move(align)), window_(window) {
        reset();
    }
    void reset() {
        memory_.clear();
        h_.assign(w_.hidden, 0.0);
        att_.c.assign(w_.hidden, 0.0);
        att_.alpha.clear();
        length_ = 0;
    }
    void step(const Vec& x) {
        h_ = rnn_cell(w_, x, att_.c);
        memory_.push_back(h_);
        if (window_ != 0 && memory_.size() > window_) memory_.pop_front();
        att_ = attend(memory_, h_, align_);
        ++length_;
    }
    const Vec& hidden() const { return h_; }
    const Vec& context() const { return att_.c; }
    const Vec& attention() const { return att_.alpha; }
    std::size_t length() const { return length_; }
    const std::deque<Vec>& memory() const { return memory_; }
    const Weights& weights() const { return w_; }
    const Align& align() const { return align_; }

private:
    Weights w_;
    Align align_;
    std::size_t window_;
    std::deque<Vec> memory_;
    Vec h_;
    Attention att_;
    std::size_t length_ = 0;
};

}  // namespace ref

#endif
