// sarnn/kernels/simd/gru_cell.hpp: gru_cell: the GRU cell's gates (rows r, z, n) from gi = W_ih·x, gh = W_hh·h_prev and
// the biases. Part of Simd<A, T> (kernels/simd/simd.hpp, which declares it and includes this file; include that one).
#ifndef SARNN_KERNELS_SIMD_GRU_CELL_HPP
#define SARNN_KERNELS_SIMD_GRU_CELL_HPP

namespace sarnn::simd {
namespace {  // NOLINT(cert-dcl59-cpp): the set's internal linkage, as in simd.hpp

// r = σ(r_pre), z = σ(z_pre), n = tanh(ni + r ⊙ nh); h = n + z ⊙ (h_prev - n)
template <class A, class T>
SARNN_INLINE auto Simd<A, T>::gru(B r_pre, B z_pre, B ni, B nh, B h_prev) -> B {
    const B r = sigmoid(r_pre);
    const B z = sigmoid(z_pre);
    const B n = tanh_safe(madd(r, nh, ni));
    return madd(z, h_prev - n, n);
}

template <class A, class T>
void Simd<A, T>::gru_cell(const T* gi, const T* gh, const T* b_ih, const T* b_hh, const T* h_prev, std::size_t H,
                          T* h) {
    std::size_t d = 0;
    for (; d + W <= H; d += W) {
        const B hv = gru(load(gi + d) + load(b_ih + d) + (load(gh + d) + load(b_hh + d)),
                         load(gi + H + d) + load(b_ih + H + d) + (load(gh + H + d) + load(b_hh + H + d)),
                         load(gi + 2 * H + d) + load(b_ih + 2 * H + d), load(gh + 2 * H + d) + load(b_hh + 2 * H + d),
                         load_a(h_prev + d));
        hv.store_aligned(h + d);
    }
    if (d < H) {
        // the tail through zero-padded copies: gi, gh and the biases end at 3·H, h's lanes past H stay untouched
        alignas(A::alignment()) T g[5][W] = {};
        for (std::size_t t = 0; d + t < H; ++t) {
            for (std::size_t gate = 0; gate < 2; ++gate)
                g[gate][t] = gi[gate * H + d + t] + b_ih[gate * H + d + t] +
                             (gh[gate * H + d + t] + b_hh[gate * H + d + t]);
            g[2][t] = gi[2 * H + d + t] + b_ih[2 * H + d + t];
            g[3][t] = gh[2 * H + d + t] + b_hh[2 * H + d + t];
            g[4][t] = h_prev[d + t];
        }
        store_rows(gru(load_a(g[0]), load_a(g[1]), load_a(g[2]), load_a(g[3]), load_a(g[4])), h + d, H - d);
    }
}

}  // namespace
}  // namespace sarnn::simd

#endif
