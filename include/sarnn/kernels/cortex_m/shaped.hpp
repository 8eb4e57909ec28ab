// sarnn/kernels/cortex_m/shaped.hpp: the shaped forms of the Cortex-M float set (kernel::CortexM: Cortex-M4F, M7):
// gemv, gemv_add, affine_tanh, lstm_cell, gru_cell and the dot context (attend_dot) for float with the sizes as
// template parameters, so that each is compiled in the model's translation unit for the model's shape
// (detail/shaped.hpp chooses them). Each is one function per shape (not inlined into the model: an image holds one copy
// per shape it uses, named by it, e.g. `sarnn::kernel::cortex_m::Shaped::gemv<32, 3, 3>`), built from
// kernels/cortex_m/{gemv,affine_tanh,lstm_cell,gru_cell,attend}.hpp. Plain C++ (with VLDM blocks on the FPU targets:
// gemv.hpp, dot_scores.hpp, weighted_sum.hpp), so it builds and is tested on every host, as the set itself is.
#ifndef SARNN_KERNELS_CORTEX_M_SHAPED_HPP
#define SARNN_KERNELS_CORTEX_M_SHAPED_HPP

#include <cstddef>

#include "sarnn/kernels.hpp"
#include "sarnn/kernels/shaped.hpp"
#include "sarnn/kernels/cortex_m/affine_tanh.hpp"
#include "sarnn/kernels/cortex_m/attend.hpp"
#include "sarnn/kernels/cortex_m/gemv.hpp"
#include "sarnn/kernels/cortex_m/gru_cell.hpp"
#include "sarnn/kernels/cortex_m/lstm_cell.hpp"

namespace sarnn::kernel::cortex_m {

/// The shaped float operations (contracts: kernels.hpp, with the sizes as template parameters). Costs as the
/// run-time forms, without their loops' counts read at run time.
struct Shaped {
    /// What detail::shaped reads: every operation below is here. (Their pointers are __restrict: the contracts forbid
    /// the outputs to alias the inputs.)
    static constexpr unsigned kCaps = shaped_gemv | shaped_gemv_add | shaped_lstm_cell | shaped_gru_cell |
                                      shaped_affine_tanh | shaped_attend_dot;

    /// y = M·v, M Rows x Cols row-major with leading dimension Ld; y must not alias v.
    template <std::size_t Rows, std::size_t Cols, std::size_t Ld>
    __attribute__((noinline)) static void gemv(const float* __restrict M, const float* __restrict v,
                                               float* __restrict y) noexcept {
        gemv_rows<false, Rows, Cols, Ld>(M, v, y);
    }
    /// y += M·v, as gemv.
    template <std::size_t Rows, std::size_t Cols, std::size_t Ld>
    __attribute__((noinline)) static void gemv_add(const float* __restrict M, const float* __restrict v,
                                                   float* __restrict y) noexcept {
        gemv_rows<true, Rows, Cols, Ld>(M, v, y);
    }
    /// y = tanh(A·[x; r] + b): A Rows x (Nx + Nr) row-major, b Rows values, x Nx values, r Nr; y must not alias x, r.
    template <std::size_t Rows, std::size_t Nx, std::size_t Nr>
    __attribute__((noinline)) static void affine_tanh(const float* __restrict A, const float* __restrict b,
                                                      const float* __restrict x, const float* __restrict r,
                                                      float* __restrict y) noexcept {
        affine_tanh_rows<Rows, Nx, Nr>(A, b, x, r, y);
    }
    /// The LSTM cell of H lanes: z, b 4·H values; c_prev, c, h rows of H (kernels.hpp's lstm_cell).
    template <std::size_t H>
    __attribute__((noinline)) static void lstm_cell(const float* __restrict z, const float* __restrict b,
                                                    const float* __restrict c_prev, float* __restrict c,
                                                    float* __restrict h) noexcept {
        lstm_cell_lanes<H>(z, b, c_prev, c, h);
    }
    /// The GRU cell of H lanes: gi, gh, b_ih, b_hh 3·H values; h_prev, h rows of H (kernels.hpp's gru_cell).
    template <std::size_t H>
    __attribute__((noinline)) static void gru_cell(const float* __restrict gi, const float* __restrict gh,
                                                   const float* __restrict b_ih, const float* __restrict b_hh,
                                                   const float* __restrict h_prev, float* __restrict h) noexcept {
        gru_cell_lanes<H>(gi, gh, b_ih, b_hh, h_prev, h);
    }
    /// alpha = softmax_j(scale·(S_j·q)), c = Σ_j alpha_j S_j over the n >= 1 rows of S (Dim values, Stride apart, Cap
    /// physical rows: kernels.hpp's attend_dot); c must not alias S or q (q may be a row of S).
    template <std::size_t Dim, std::size_t Stride, std::size_t Cap>
    __attribute__((noinline)) static void attend_dot(const Rows<float>& S, const float* q, float scale,
                                                     float* __restrict alpha, float* __restrict c) noexcept {
        attend_dot_rows<Dim, Stride, Cap>(S, q, scale, alpha, c);
    }
};

}  // namespace sarnn::kernel::cortex_m

namespace sarnn::kernel {
/// kernel::CortexM takes the shaped forms for float (double runs the scalar set's code).
template <>
struct Shaped<Arch::cortex_m, float> : cortex_m::Shaped {};
}  // namespace sarnn::kernel

#endif
