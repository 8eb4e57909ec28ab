// sarnn/kernels/mve/shaped.hpp: the shaped forms of kernel::Mve (Helium, MVE float: Cortex-M55, M85) for float, with
// the sizes as template parameters, compiled in the model's translation unit for the model's shape (detail/shaped.hpp
// chooses them): gemv, gemv_add and affine_tanh (kernels/mve/rows.hpp: eight rows a pass by gathers), lstm_cell and
// gru_cell (kernels/mve/{lstm,gru}_cell.hpp: four lanes a pass, tanh.hpp's loop for the gates), the dot
// context attend_dot and its weighted_sum (kernels/mve/dot_scores.hpp for the scores, then the set's softmax and
// weighted sum). Each shaped kernel is one function per shape (not inlined into the model: an image holds one copy
// per shape it uses). Included by detail/shaped.hpp where MVE float is on (__ARM_FEATURE_MVE & 2); nothing here exists
// elsewhere.
#ifndef SARNN_KERNELS_MVE_SHAPED_HPP
#define SARNN_KERNELS_MVE_SHAPED_HPP

#include <cstddef>

#include "sarnn/kernels.hpp"
#include "sarnn/kernels/mve/attend_exact.hpp"
#include "sarnn/kernels/mve/dot_scores.hpp"
#include "sarnn/kernels/mve/gru_cell.hpp"
#include "sarnn/kernels/mve/lstm_cell.hpp"
#include "sarnn/kernels/mve/rows.hpp"
#include "sarnn/kernels/mve/softmax.hpp"
#include "sarnn/kernels/mve/tanh.hpp"
#include "sarnn/kernels/mve/weighted_sum.hpp"
#include "sarnn/kernels/shaped.hpp"

namespace sarnn::kernel::mve_shaped {

/// The shaped float operations of the mve set (contracts: kernels.hpp, with the sizes as template parameters).
struct Shaped {
    /// What detail::shaped reads.
    static constexpr unsigned kCaps = shaped_gemv | shaped_gemv_add | shaped_affine_tanh | shaped_lstm_cell |
                                      shaped_gru_cell | shaped_attend_dot | shaped_weighted_sum;

    /// y = M·v (End none) or y += M·v (add_b, b = y), M Rows x Cols row-major with leading dimension Ld; y must not
    /// alias v. Eight rows a pass (rows_product); rows of more than 128 values: kernel::Mve's gemv or gemv_add.
    template <RowsEnd End, std::size_t Rows, std::size_t Cols, std::size_t Ld>
    static void product(const float* M, const float* v, float* y) noexcept {
        if constexpr (Cols <= 128)
            rows_product<Rows, Cols, 0, Ld, End>(M, v, v, End == RowsEnd::add_b ? y : nullptr, y);
        else if constexpr (End == RowsEnd::none)
            Mve::gemv(M, Rows, Cols, Ld, v, y);
        else
            Mve::gemv_add(M, Rows, Cols, Ld, v, y);
    }
    /// y = M·v (product).
    template <std::size_t Rows, std::size_t Cols, std::size_t Ld>
    static void gemv(const float* M, const float* v, float* y) noexcept {
        product<RowsEnd::none, Rows, Cols, Ld>(M, v, y);
    }
    /// y += M·v (product).
    template <std::size_t Rows, std::size_t Cols, std::size_t Ld>
    static void gemv_add(const float* M, const float* v, float* y) noexcept {
        product<RowsEnd::add_b, Rows, Cols, Ld>(M, v, y);
    }
    /// y = tanh(A·[x; r] + b): A Rows x (Nx + Nr) row-major, b Rows values, x Nx values, r Nr; y must not alias x, r.
    /// The products eight rows a pass (rows_product, x and r read in place), then tanh over y (kernels/mve/tanh.hpp); rows of
    /// more than 128 values: kernel::Mve's affine_tanh.
    template <std::size_t Rows, std::size_t Nx, std::size_t Nr>
    static void affine_tanh(const float* A, const float* b, const float* x, const float* r, float* y) noexcept {
        if constexpr (Nx + Nr <= 128) {
            rows_product<Rows, Nx, Nr, Nx + Nr, RowsEnd::add_b>(A, x, r, b, y);
            tanh_inplace<Rows>(y);
        } else {
            Mve::affine_tanh(A, b, Rows, x, Nx, r, Nr, y);
        }
    }
    /// The LSTM cell of H lanes: z, b 4·H values; c_prev, c, h padded rows of H (kernels.hpp's lstm_cell;
    /// kernels/mve/lstm_cell.hpp).
    template <std::size_t H>
    static void lstm_cell(const float* z, const float* b, const float* c_prev, float* c, float* h) noexcept {
        mve_shaped::lstm_cell<H>(z, b, c_prev, c, h);
    }
    /// The GRU cell of H lanes: gi, gh, b_ih, b_hh 3·H values; h_prev, h padded rows of H (kernels.hpp's gru_cell;
    /// kernels/mve/gru_cell.hpp).
    template <std::size_t H>
    static void gru_cell(const float* gi, const float* gh, const float* b_ih, const float* b_hh, const float* h_prev,
                         float* h) noexcept {
        mve_shaped::gru_cell<H>(gi, gh, b_ih, b_hh, h_prev, h);
    }

    /// c = Σ_j w_j S_j over S's n >= 1 states (S.dim = Dim, S.stride = Stride, S.cap = Cap; weighted_sum.hpp); rows
    /// of more than 124 floats: kernel::Mve's weighted_sum.
    template <std::size_t Dim, std::size_t Stride, std::size_t Cap>
    static void weighted_sum(const float* w, const Rows<float>& S, float* c) noexcept {
        if constexpr (Stride <= 124)
            mve_shaped::weighted_sum<Dim, Stride, Cap>(S.base, S.first, S.n, w, c);
        else
            Mve::weighted_sum(w, S, c);
    }
    /// e_j = scale·(S_j·q), alpha = softmax(e), c = Σ_j alpha_j S_j over S's n >= 1 states (S.dim = Dim, S.stride =
    /// Stride, S.cap = Cap; q and c distinct rows): a scale other than 1 folded into q first (scale·q in c), the
    /// scores and their max eight states a pass (dot_scores), the softmax's exps and 1/Σ from that max (softmax.hpp;
    /// a NaN or Inf score, or a max past 1.4e6: attend_exact.hpp's plain loops), then the weighted sum,
    /// which scales the weights by 1/Σ in place as it loads them (weighted_sum.hpp). Rows of more than 128 values:
    /// kernel::Mve's attend_dot.
    template <std::size_t Dim, std::size_t Stride, std::size_t Cap>
    static void attend_dot(const Rows<float>& S, const float* q, float scale, float* alpha, float* c) noexcept {
        if constexpr (Dim <= 128) {
            // the scale into the query (scale·q_k in c, which the weighted sum writes last), then e_j = S_j·q and
            // their max; alpha = softmax(e) (a NaN or Inf score: the set's exact context)
            const float* qs = q;
            if (scale != 1.0f) {
                for (std::size_t k = 0; k < Dim; ++k) c[k] = scale * q[k];
                qs = c;
            }
            const float m = dot_scores<Dim, Stride, Cap>(S.base, S.first, S.n, qs, alpha);
            if (S.n == 1 && m - m == 0.0f) {
                // one state, its score finite: alpha = 1 and c = S_0, exactly
                alpha[0] = 1.0f;
                const float* s0 = S.base + S.first * Stride;
                for (std::size_t k = 0; k < Dim; ++k) c[k] = s0[k];
                return;
            }
            // alpha_j = e^{e_j - M·ln2} and inv = 1/Σ_j alpha_j (a NaN or Inf score, or a max past 1.4e6: the exact
            // path)
            float inv;
            if (softmax_exp(alpha, S.n, m, inv) != 0) {
                attend_dot_exact(S, q, scale, alpha, c);
                return;
            }
            // alpha_j = inv·alpha_j (the softmax's end) and c = Σ_j alpha_j S_j in one pass over the weights
            if constexpr (Stride <= 124) {
                mve_shaped::weighted_sum<Dim, Stride, Cap, true>(S.base, S.first, S.n, alpha, c, inv);
            } else {
                for (std::size_t j = 0; j < S.n; ++j) alpha[j] *= inv;
                Mve::weighted_sum(alpha, S, c);
            }
        } else {
            Mve::attend_dot(S, q, scale, alpha, c);
        }
    }
};

}  // namespace sarnn::kernel::mve_shaped

namespace sarnn::kernel {
/// kernel::Mve takes the shaped forms for float (double runs the scalar set's code).
template <>
struct Shaped<Arch::mve, float> : mve_shaped::Shaped {};
}  // namespace sarnn::kernel

#endif
