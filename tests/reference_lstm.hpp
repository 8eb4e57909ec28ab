// tests/reference_lstm.hpp: the plain double-precision reference of the LSTM (PyTorch's nn.LSTM, one layer).
//
// Written from the formulas of issue 33, not from the library code:
//   z = W_ih x_t + W_hh h_{t-1} + b   (4·Hidden rows: i, f, g, o; b = b_ih + b_hh)
//   i = σ(z_i), f = σ(z_f), g = tanh(z_g), o = σ(z_o)
//   c_t = f ⊙ c_{t-1} + i ⊙ g,  h_t = o ⊙ tanh(c_t),  h_0 = c_0 = 0
//
// Matrices are vectors of rows of doubles; every loop is the textbook one. Speed does not matter here.
#ifndef SARNN_TESTS_REFERENCE_LSTM_HPP
#define SARNN_TESTS_REFERENCE_LSTM_HPP

#include <cmath>
#include <cstddef>
#include <utility>
#include <vector>

#include "reference.hpp"
#include "reference_family.hpp"

namespace ref {

struct LstmWeights {
    std::size_t in = 0, hidden = 0;
    Mat W_ih, W_hh;  // 4·Hidden x In, 4·Hidden x Hidden; rows i, f, g, o
    Vec b;           // 4·Hidden
};

/// Copies any params aggregate with the members of LstmParams (W_ih, W_hh, b) into doubles.
template <class P>
LstmWeights lstm_weights_of(const P& p) {
    LstmWeights w;
    w.W_ih = mat_of(p.W_ih);
    w.W_hh = mat_of(p.W_hh);
    w.b = vec_of(p.b);
    w.in = w.W_ih[0].size();
    w.hidden = w.W_hh[0].size();
    return w;
}

/// h_t and c_t of one step.
struct LstmState {
    Vec h, c;
};

/// One step from x_t, h_{t-1} and c_{t-1}.
inline LstmState lstm_step(const LstmWeights& w, const Vec& x, const Vec& h_prev, const Vec& c_prev) {
    const std::size_t H = w.hidden;
    Vec z(4 * H);
    for (std::size_t r = 0; r < 4 * H; ++r) {
        // (rows and vectors through plain pointers: the same sums, quicker in the unoptimised sanitizer builds)
        const double *a = w.W_ih[r].data(), *u = w.W_hh[r].data(), *xp = x.data(), *hp = h_prev.data();
        double s = w.b[r];
        for (std::size_t k = 0; k < w.in; ++k) s += a[k] * xp[k];
        for (std::size_t k = 0; k < H; ++k) s += u[k] * hp[k];
        z[r] = s;
    }
    LstmState out{Vec(H), Vec(H)};
    for (std::size_t d = 0; d < H; ++d) {
        const double i = sigmoid(z[d]), f = sigmoid(z[H + d]), g = std::tanh(z[2 * H + d]), o = sigmoid(z[3 * H + d]);
        out.c[d] = f * c_prev[d] + i * g;
        out.h[d] = o * std::tanh(out.c[d]);
    }
    return out;
}

/// The LSTM over a sequence, from h_0 = c_0 = 0.
class Lstm {
public:
    explicit Lstm(LstmWeights w) : w_(std::move(w)) { reset(); }
    void reset() {
        s_.h.assign(w_.hidden, 0.0);
        s_.c.assign(w_.hidden, 0.0);
        length_ = 0;
    }
    void step(const Vec& x) {
        s_ = lstm_step(w_, x, s_.h, s_.c);
        ++length_;
    }
    const Vec& hidden() const { return s_.h; }
    const Vec& cell() const { return s_.c; }
    std::size_t length() const { return length_; }

private:
    LstmWeights w_;
    LstmState s_;
    std::size_t length_ = 0;
};

}  // namespace ref

#endif
