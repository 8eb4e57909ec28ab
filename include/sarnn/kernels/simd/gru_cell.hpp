// sarnn/kernels/simd/gru_cell.hpp: gru_cell: the GRU cell's gates (rows r, z, n) from gi = W_ih·x, gh = W_hh·h_prev and
// the biases; gru_step: the whole step in one pass over W_ih and W_hh. Part of Simd<A, T> (kernels/simd/simd.hpp,
// which declares it and includes this file; include that one).
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

// h = GRU(x, h_prev) for H = NH·W, W hidden lanes d..d+W at a time: the lanes' rows of each gate (d, H + d, 2·H + d
// in W_ih and W_hh) summed with h_prev in registers, the cell on the sums at once, nothing stored in between.
// One transposing sum per row of r and z (its W_ih and W_hh products in one FMA chain), two for n (r multiplies
// only W_hn h + b_hn). backward: the blocks of lanes last to first and in each the gates n, z, r, so that a step
// begins on the rows the step before ended on: where the weights outgrow L1 (Hidden 64: 72 kB in float against the
// 48 kB of this Xeon's L1d), the rows the previous step read last are still there. Each sum is taken in the same
// order either way: the result does not depend on the direction.
template <class A, class T>
template <std::size_t NH>
SARNN_FLAT void Simd<A, T>::gru_step_fixed(const T* W_ih, const T* W_hh, const T* b_ih, const T* b_hh, std::size_t nx,
                                           const T* x, const T* h_prev, T* h, bool backward) {
    constexpr std::size_t H = NH * W;
    B hv[NH];
    for (std::size_t u = 0; u < NH; ++u) hv[u] = load_a(h_prev + u * W);
    for (std::size_t i = 0; i < NH; ++i) {
        const std::size_t d = (backward ? NH - 1 - i : i) * W;
        // pre[0], pre[1] = W_i x + W_h h + b_i + b_h (r, z); pre[2] = W_in x + b_in; pre[3] = W_hn h + b_hn
        alignas(A::alignment()) T pre[4][W];
        for (std::size_t j = 0; j < 3; ++j) {
            const std::size_t g = backward ? 2 - j : j;
            const T* ih = W_ih + (g * H + d) * nx;
            const T* hh = W_hh + (g * H + d) * H;
            if (g < 2) {
                (two_block_dot<NH>(ih, nx, x, hh, hv) + (load(b_ih + g * H + d) + load(b_hh + g * H + d)))
                    .store_aligned(pre[g]);
            } else {
                (block_dot(ih, nx, x, nx) + load(b_ih + 2 * H + d)).store_aligned(pre[2]);
                (block_dot_fixed<NH>(hh, H, hv) + load(b_hh + 2 * H + d)).store_aligned(pre[3]);
            }
        }
        // r, z = σ(..), n = tanh(gi_n + r ⊙ gh_n); h = n + z ⊙ (h_prev - n)
        gru(load_a(pre[0]), load_a(pre[1]), load_a(pre[2]), load_a(pre[3]), load_a(h_prev + d)).store_aligned(h + d);
    }
}

// h = GRU(x, h_prev): one pass (gru_step_fixed), float, where H is 1 to 8 whole vectors and one_pass_step (gemv.hpp) says so; otherwise gi = W_ih x and
// gh = W_hh h_prev, then the cell.
template <class A, class T>
void Simd<A, T>::gru_step(const T* W_ih, const T* W_hh, const T* b_ih, const T* b_hh, std::size_t In, std::size_t H,
                          const T* x, const T* h_prev, T* gi, T* gh, T* h, bool backward) {
    // float only: double keeps the two products and the cell (its eight forms would double the set's build time)
    if constexpr (std::is_same_v<T, float>)
        if (H % W == 0 && one_pass_step(3, In, H) && with_fixed_width(H / W, [&](auto nh) {
                gru_step_fixed<nh()>(W_ih, W_hh, b_ih, b_hh, In, x, h_prev, h, backward);
            }))
            return;
    gemv(W_ih, 3 * H, In, In, x, gi);
    gemv(W_hh, 3 * H, H, H, h_prev, gh);
    gru_cell(gi, gh, b_ih, b_hh, h_prev, H, h);
}

}  // namespace
}  // namespace sarnn::simd

#endif
