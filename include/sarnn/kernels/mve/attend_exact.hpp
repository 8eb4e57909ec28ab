// sarnn/kernels/mve/attend_exact.hpp: the exact path of the shaped dot context (kernels/mve/shaped.hpp) on Helium,
// for the steps its fast path hands back: a NaN or Inf score, or a max score past the softmax's shift (1.4e6). Plain
// float loops over the sizes of S, in the header (no run-time kernel of the mve set, so that an image links the
// shaped code of its own shapes and this one function): e_j = scale·(S_j·q) with the products summed in k order, m = the largest e_j (from e_0 on, NaN
// scores passed over as `e_j > m` passes them), alpha_j = e^{e_j - m}/Σ_k e^{e_k - m} with the Cortex-M set's scalar
// exp (kernels/cortex_m/math.hpp: e^NaN = NaN, e^-inf = 0), c = Σ_j alpha_j S_j. So IEEE arithmetic decides what a
// non-finite input gives: NaN everywhere for a NaN or +inf score (inf - inf), a weight 0 for a -inf score (and NaN in
// c where 0·inf meets it). Cost: 2·n·Dim multiply-adds and n exps, scalar: about 5 instructions per multiply-add.
#ifndef SARNN_KERNELS_MVE_ATTEND_EXACT_HPP
#define SARNN_KERNELS_MVE_ATTEND_EXACT_HPP

#include <cstddef>

#include "sarnn/kernels/cortex_m/math.hpp"
#include "sarnn/kernels.hpp"

namespace sarnn::kernel::mve_shaped {

/// e_j = scale·(S_j·q), alpha = softmax(e), c = Σ_j alpha_j S_j over S's n >= 1 states in plain float loops (see
/// above). q and c S.dim values each (c written only below S.dim, and only after every score is taken: q may be c).
/// One function for every shape (the sizes read from S): the exact path is rare, its code one copy an image.
__attribute__((noinline)) inline void attend_dot_exact(const Rows<float>& S, const float* q, float scale, float* alpha,
                                                       float* c) noexcept {
    const auto row = [&](std::size_t j) {
        return S.base + (S.first + j < S.cap ? S.first + j : S.first + j - S.cap) * S.stride;
    };
    // e_j = scale·(S_j·q) and m = max_j e_j
    float m = 0.0f;
    for (std::size_t j = 0; j < S.n; ++j) {
        const float* r = row(j);
        float s = 0.0f;
        for (std::size_t k = 0; k < S.dim; ++k) s += r[k] * q[k];
        alpha[j] = scale * s;
        m = j == 0 || alpha[j] > m ? alpha[j] : m;
    }
    // alpha_j = e^{e_j - m} / Σ_k e^{e_k - m}
    float l = 0.0f;
    for (std::size_t j = 0; j < S.n; ++j) l += (alpha[j] = cortex_m::exp(alpha[j] - m));
    const float inv = 1.0f / l;
    for (std::size_t j = 0; j < S.n; ++j) alpha[j] *= inv;
    // c = Σ_j alpha_j S_j
    for (std::size_t k = 0; k < S.dim; ++k) c[k] = 0.0f;
    for (std::size_t j = 0; j < S.n; ++j) {
        const float* r = row(j);
        for (std::size_t k = 0; k < S.dim; ++k) c[k] += alpha[j] * r[k];
    }
}

}  // namespace sarnn::kernel::mve_shaped

#endif
