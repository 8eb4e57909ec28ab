// sarnn/kernels/simd/lstm_cell.hpp: lstm_cell: the LSTM cell's gates from the pre-activations z (rows i, f, g, o) and
// b. Part of Simd<A, T> (kernels/simd/simd.hpp, which declares it and includes this file; include that one).
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

}  // namespace
}  // namespace sarnn::simd

#endif
