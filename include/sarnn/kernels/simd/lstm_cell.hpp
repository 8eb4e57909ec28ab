// sarnn/kernels/simd/lstm_cell.hpp: lstm_cell: the LSTM cell's gates from the pre-activations z (rows i, f, g, o) and
// b; lstm_step: the whole step in one pass over W_ih and W_hh. Part of Simd<A, T> (kernels/simd/simd.hpp, which
// declares it and includes this file; include that one).
#ifndef SARNN_KERNELS_SIMD_LSTM_CELL_HPP
#define SARNN_KERNELS_SIMD_LSTM_CELL_HPP

namespace sarnn::simd {
namespace {  // NOLINT(cert-dcl59-cpp): the set's internal linkage, as in simd.hpp

template <class A, class T>
SARNN_INLINE auto Simd<A, T>::sigmoid(B x) -> B {
    return divide(B(T(1)), B(T(1)) + exp_safe(-x));
}

// c = σ(f) ⊙ c_prev + σ(i) ⊙ tanh(g); h = σ(o) ⊙ tanh(c)
template <class A, class T>
SARNN_INLINE void Simd<A, T>::cell(B zi, B zf, B zg, B zo, B c_prev, B& c, B& h) {
    c = sigmoid(zf) * c_prev + sigmoid(zi) * tanh_safe(zg);
    h = sigmoid(zo) * tanh_safe(c);
}

template <class A, class T>
void Simd<A, T>::lstm_cell(const T* z, const T* b, const T* c_prev, std::size_t H, T* c, T* h) {
    std::size_t d = 0;
    for (; d + W <= H; d += W) {
        B cv, hv;
        cell(load(z + d) + load(b + d), load(z + H + d) + load(b + H + d), load(z + 2 * H + d) + load(b + 2 * H + d),
             load(z + 3 * H + d) + load(b + 3 * H + d), load_a(c_prev + d), cv, hv);
        cv.store_aligned(c + d);
        hv.store_aligned(h + d);
    }
    if (d < H) {
        // the tail through zero-padded copies: z and b end at 4·H, c and h lanes past H stay untouched
        alignas(A::alignment()) T g[5][W] = {};
        for (std::size_t t = 0; d + t < H; ++t) {
            for (std::size_t gate = 0; gate < 4; ++gate) g[gate][t] = z[gate * H + d + t] + b[gate * H + d + t];
            g[4][t] = c_prev[d + t];
        }
        B cv, hv;
        cell(load_a(g[0]), load_a(g[1]), load_a(g[2]), load_a(g[3]), load_a(g[4]), cv, hv);
        store_rows(cv, c + d, H - d);
        store_rows(hv, h + d, H - d);
    }
}

// c, h = LSTM(x, h_prev, c_prev) for H = NH·W, W hidden lanes d..d+W at a time: the lanes' rows of each gate (i, f,
// g, o: d, H + d, 2·H + d, 3·H + d in W_ih and W_hh), each row's two products in one FMA chain and one transposing
// sum, h_prev in registers, the cell on the sums at once, nothing stored in between. backward: the blocks of lanes
// last to first and in each the gates o, g, f, i, so that a step begins on the rows the step before ended on (as
// gru_step_fixed: Hidden 64 reads 96 kB in float against a 48 kB L1d). The result does not depend on the direction.
template <class A, class T>
template <std::size_t NH>
SARNN_FLAT void Simd<A, T>::lstm_step_fixed(const T* W_ih, const T* W_hh, const T* b, std::size_t nx, const T* x,
                                            const T* h_prev, const T* c_prev, T* c, T* h, bool backward) {
    constexpr std::size_t H = NH * W;
    B hv[NH];
    for (std::size_t u = 0; u < NH; ++u) hv[u] = load_a(h_prev + u * W);
    for (std::size_t i = 0; i < NH; ++i) {
        const std::size_t d = (backward ? NH - 1 - i : i) * W;
        // pre[g] = W_ih x + W_hh h + b, gate g's rows
        alignas(A::alignment()) T pre[4][W];
        for (std::size_t j = 0; j < 4; ++j) {
            const std::size_t g = backward ? 3 - j : j;
            (two_block_dot<NH>(W_ih + (g * H + d) * nx, nx, x, W_hh + (g * H + d) * H, hv) + load(b + g * H + d))
                .store_aligned(pre[g]);
        }
        // c = σ(f) ⊙ c_prev + σ(i) ⊙ tanh(g); h = σ(o) ⊙ tanh(c)
        B cv, hn;
        cell(load_a(pre[0]), load_a(pre[1]), load_a(pre[2]), load_a(pre[3]), load_a(c_prev + d), cv, hn);
        cv.store_aligned(c + d);
        hn.store_aligned(h + d);
    }
}

// c, h = LSTM(x, h_prev, c_prev): one pass (lstm_step_fixed), float, where H is 1 to 8 whole vectors and one_pass_step
// (gemv.hpp) says so; otherwise
// z = W_ih x + W_hh h_prev, then the cell.
template <class A, class T>
void Simd<A, T>::lstm_step(const T* W_ih, const T* W_hh, const T* b, std::size_t In, std::size_t H, const T* x,
                           const T* h_prev, const T* c_prev, T* z, T* c, T* h, bool backward) {
    // float only: double keeps the two products and the cell (its eight forms would double the set's build time)
    if constexpr (std::is_same_v<T, float>)
        if (H % W == 0 && one_pass_step(4, In, H) && with_fixed_width(H / W, [&](auto nh) {
                lstm_step_fixed<nh()>(W_ih, W_hh, b, In, x, h_prev, c_prev, c, h, backward);
            }))
            return;
    gemv(W_ih, 4 * H, In, In, x, z);
    gemv_add(W_hh, 4 * H, H, H, h_prev, z);
    lstm_cell(z, b, c_prev, H, c, h);
}

}  // namespace
}  // namespace sarnn::simd

#endif
