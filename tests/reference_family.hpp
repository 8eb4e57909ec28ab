// tests/reference_family.hpp: the plain double-precision reference of the attention family (issue 3).
//
// Written from the formulas of the issue, not from the library code:
//   Bilinear   e = h_jᵀ W h_i                       W: Hidden x Hidden
//   KeyQuery   e = (Wk h_j)·(Wq h_i)                 Wk, Wq: K x Hidden (no 1/sqrt(K))
//   Additive   e = v·tanh(W [h_j; h_i])              W: K x 2·Hidden, its first Hidden columns act on h_j
// Each is a callable `double(const Vec& h_j, const Vec& h_i)`, usable as the Align of ref::SelfAttentionRnn
// (reference.hpp), whose `window` argument gives the sliding window (the newest W states, attended directly).
//
//   Lstmn (Cheng, Dong and Lapata 2016), at step t with tapes h_1..h_{t-1}, c_1..c_{t-1} (the newest
//   `window` of them when window > 0):
//     a_j = v·tanh(W_h h_j + W_x x_t + W_ht h~_{t-1}),  s = softmax(a)
//     h~_t = Σ s_j h_j,  c~_t = Σ s_j c_j               (zero when the tapes are empty; h~_0 = 0)
//     z = W_ih x_t + W_hh h~_t + b  (rows i, f, g, o),  i = σ(z_i), f = σ(z_f), g = tanh(z_g), o = σ(z_o)
//     c_t = f ⊙ c~_t + i ⊙ g,  h_t = o ⊙ tanh(c_t);     then h_t, c_t join the tapes.
//
// Matrices are vectors of rows of doubles; every loop is the textbook one. Speed does not matter here.
#ifndef SARNN_TESTS_REFERENCE_FAMILY_HPP
#define SARNN_TESTS_REFERENCE_FAMILY_HPP

#include <cmath>
#include <cstddef>
#include <deque>
#include <utility>
#include <vector>

#include "reference.hpp"

namespace ref {

using Mat = std::vector<Vec>;  // rows

/// Any T[R][C] array as rows of doubles.
template <class T, std::size_t R, std::size_t C>
Mat mat_of(const T (&a)[R][C]) {
    Mat m(R, Vec(C));
    for (std::size_t r = 0; r < R; ++r)
        for (std::size_t c = 0; c < C; ++c) m[r][c] = static_cast<double>(a[r][c]);
    return m;
}
/// Any T[N] array as doubles.
template <class T, std::size_t N>
Vec vec_of(const T (&a)[N]) {
    Vec v(N);
    for (std::size_t k = 0; k < N; ++k) v[k] = static_cast<double>(a[k]);
    return v;
}

/// M·x (M has x.size() columns).
inline Vec matvec(const Mat& M, const Vec& x) {
    Vec y(M.size(), 0.0);
    for (std::size_t r = 0; r < M.size(); ++r)
        for (std::size_t c = 0; c < x.size(); ++c) y[r] += M[r][c] * x[c];
    return y;
}

inline double sigmoid(double z) { return 1.0 / (1.0 + std::exp(-z)); }

// ---- the parameterised aligns: e = align(h_j, h_i) --------------------------------------------------------
/// e = h_jᵀ W h_i = Σ_r Σ_c h_j[r] W[r][c] h_i[c]
struct Bilinear {
    Mat W;
    double operator()(const Vec& hj, const Vec& hi) const {
        double e = 0.0;
        for (std::size_t r = 0; r < hj.size(); ++r)
            for (std::size_t c = 0; c < hi.size(); ++c) e += hj[r] * W[r][c] * hi[c];
        return e;
    }
    // e = h_j·(W h_i)
    Vec key(const Vec& h) const { return h; }
    Vec query(const Vec& h) const { return matvec(W, h); }
    double score(const Vec& key, const Vec& q) const { return dot(key, q); }
};

/// e = (Wk h_j)·(Wq h_i)
struct KeyQuery {
    Mat Wk, Wq;
    double operator()(const Vec& hj, const Vec& hi) const { return dot(matvec(Wk, hj), matvec(Wq, hi)); }
    Vec key(const Vec& h) const { return matvec(Wk, h); }
    Vec query(const Vec& h) const { return matvec(Wq, h); }
    double score(const Vec& key, const Vec& q) const { return dot(key, q); }
};

/// e = v·tanh(W [h_j; h_i]), the first Hidden columns of W on h_j.
struct Additive {
    Mat W;  // K x 2·Hidden
    Vec v;  // K
    double operator()(const Vec& hj, const Vec& hi) const {
        Vec both = hj;
        both.insert(both.end(), hi.begin(), hi.end());
        const Vec u = matvec(W, both);
        double e = 0.0;
        for (std::size_t k = 0; k < v.size(); ++k) e += v[k] * std::tanh(u[k]);
        return e;
    }
    // e = v·tanh(key + query), key = W[:, :Hidden] h_j, query = W[:, Hidden:] h_i
    Vec key(const Vec& h) const { return half(h, 0); }
    Vec query(const Vec& h) const { return half(h, h.size()); }
    double score(const Vec& key, const Vec& q) const {
        double e = 0.0;
        for (std::size_t k = 0; k < v.size(); ++k) e += v[k] * std::tanh(key[k] + q[k]);
        return e;
    }
    /// W's columns [from, from + h.size()) times h.
    Vec half(const Vec& h, std::size_t from) const {
        Vec u(W.size(), 0.0);
        for (std::size_t r = 0; r < W.size(); ++r)
            for (std::size_t c = 0; c < h.size(); ++c) u[r] += W[r][from + c] * h[c];
        return u;
    }
};

template <class P>
Bilinear bilinear_of(const P& p) {
    return Bilinear{mat_of(p.W)};
}
template <class P>
KeyQuery key_query_of(const P& p) {
    return KeyQuery{mat_of(p.Wk), mat_of(p.Wq)};
}
template <class P>
Additive additive_of(const P& p) {
    return Additive{mat_of(p.W), vec_of(p.v)};
}

// ---- the LSTM-network --------------------------------------------------------------------------------------
struct LstmnWeights {
    std::size_t in = 0, hidden = 0, k = 0;
    Mat W_ih, W_hh;      // 4·Hidden x In, 4·Hidden x Hidden; rows i, f, g, o
    Vec b;               // 4·Hidden
    Mat W_h, W_x, W_ht;  // K x Hidden, K x In, K x Hidden
    Vec v;               // K
};

/// Copies any params aggregate with the members of LstmnParams into doubles.
template <class P>
LstmnWeights lstmn_weights_of(const P& p) {
    LstmnWeights w;
    w.W_ih = mat_of(p.W_ih);
    w.W_hh = mat_of(p.W_hh);
    w.b = vec_of(p.b);
    w.W_h = mat_of(p.W_h);
    w.W_x = mat_of(p.W_x);
    w.W_ht = mat_of(p.W_ht);
    w.v = vec_of(p.v);
    w.hidden = w.W_hh[0].size();
    w.in = w.W_ih[0].size();
    w.k = w.v.size();
    return w;
}

/// Everything one LSTMN step computes.
struct LstmnStep {
    Vec s;                 // attention over the tapes given (oldest first), empty when they are
    Vec h_tilde, c_tilde;  // Σ s_j h_j, Σ s_j c_j (zero for empty tapes)
    Vec h, c;              // h_t, c_t
};

/// One step from x_t, the tapes (oldest first, as attended) and h~_{t-1}.
inline LstmnStep lstmn_step(const LstmnWeights& w, const Vec& x, const std::vector<Vec>& tape_h,
                            const std::vector<Vec>& tape_c, const Vec& h_tilde_prev) {
    const std::size_t H = w.hidden;
    LstmnStep out;
    out.h_tilde.assign(H, 0.0);
    out.c_tilde.assign(H, 0.0);
    if (!tape_h.empty()) {
        // a_j = v·tanh(W_h h_j + W_x x_t + W_ht h~_{t-1})
        const Vec wx = matvec(w.W_x, x);
        const Vec wht = matvec(w.W_ht, h_tilde_prev);
        Vec a;
        for (const Vec& hj : tape_h) {
            const Vec wh = matvec(w.W_h, hj);
            double e = 0.0;
            for (std::size_t k = 0; k < w.k; ++k) e += w.v[k] * std::tanh(wh[k] + wx[k] + wht[k]);
            a.push_back(e);
        }
        out.s = softmax(a);
        for (std::size_t j = 0; j < tape_h.size(); ++j) {
            for (std::size_t d = 0; d < H; ++d) {
                out.h_tilde[d] += out.s[j] * tape_h[j][d];
                out.c_tilde[d] += out.s[j] * tape_c[j][d];
            }
        }
    }
    // z = W_ih x_t + W_hh h~_t + b, rows i, f, g, o
    const Vec zx = matvec(w.W_ih, x);
    const Vec zh = matvec(w.W_hh, out.h_tilde);
    out.h.assign(H, 0.0);
    out.c.assign(H, 0.0);
    for (std::size_t d = 0; d < H; ++d) {
        auto z = [&](std::size_t gate) { return zx[gate * H + d] + zh[gate * H + d] + w.b[gate * H + d]; };
        const double i = sigmoid(z(0)), f = sigmoid(z(1)), g = std::tanh(z(2)), o = sigmoid(z(3));
        out.c[d] = f * out.c_tilde[d] + i * g;
        out.h[d] = o * std::tanh(out.c[d]);
    }
    return out;
}

/// The LSTMN over a sequence. window == 0: the tapes grow without bound (a Bounded model stops at its
/// Capacity before that matters); window > 0: only the newest `window` entries are kept and attended.
class Lstmn {
public:
    explicit Lstmn(LstmnWeights w, std::size_t window = 0) : w_(std::move(w)), window_(window) { reset(); }
    void reset() {
        tape_h_.clear();
        tape_c_.clear();
        last_ = LstmnStep{};
        last_.h_tilde.assign(w_.hidden, 0.0);
        last_.h.assign(w_.hidden, 0.0);
        last_.c.assign(w_.hidden, 0.0);
        length_ = 0;
    }
    void step(const Vec& x) {
        const std::vector<Vec> th(tape_h_.begin(), tape_h_.end()), tc(tape_c_.begin(), tape_c_.end());
        last_ = lstmn_step(w_, x, th, tc, last_.h_tilde);
        tape_h_.push_back(last_.h);
        tape_c_.push_back(last_.c);
        if (window_ != 0 && tape_h_.size() > window_) {
            tape_h_.pop_front();
            tape_c_.pop_front();
        }
        ++length_;
    }
    const Vec& hidden() const { return last_.h; }
    const Vec& cell() const { return last_.c; }
    const Vec& attention() const { return last_.s; }
    const Vec& h_tilde() const { return last_.h_tilde; }
    std::size_t length() const { return length_; }
    std::size_t stored() const { return tape_h_.size(); }
    const LstmnWeights& weights() const { return w_; }

private:
    LstmnWeights w_;
    std::size_t window_;
    std::deque<Vec> tape_h_, tape_c_;
    LstmnStep last_;
    std::size_t length_ = 0;
};

}  // namespace ref

#endif
