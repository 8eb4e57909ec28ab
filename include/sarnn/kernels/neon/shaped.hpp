// sarnn/kernels/neon/shaped.hpp: the shaped forms of the NEON sets (kernel::Neon64 on AArch64, kernel::Neon on ARMv7
// with NEON): gemv, gemv_add, affine_tanh, lstm_cell, gru_cell and the context (attend_dot, weighted_sum, softmax) for
// float with the sizes as template parameters, so that each is compiled in the model's translation unit for the model's
// shape (detail/shaped.hpp chooses them). Each is one function per shape (not inlined into the model: an image holds
// one copy per shape it uses, named by it, e.g. `sarnn::kernel::neon::Shaped::gemv<32, 3, 3>`), built from
// kernels/neon/{gemv,affine_tanh,lstm_cell,gru_cell,attend,weighted_sum,softmax}.hpp. Included by detail/shaped.hpp
// where __ARM_NEON is defined; nothing here exists elsewhere.
#ifndef SARNN_KERNELS_NEON_SHAPED_HPP
#define SARNN_KERNELS_NEON_SHAPED_HPP

#include <cstddef>

#include "sarnn/kernels.hpp"
#include "sarnn/kernels/shaped.hpp"
#include "sarnn/kernels/neon/affine_tanh.hpp"
#include "sarnn/kernels/neon/attend.hpp"
#include "sarnn/kernels/neon/gemv.hpp"
#include "sarnn/kernels/neon/gru_cell.hpp"
#include "sarnn/kernels/neon/lstm_cell.hpp"
#include "sarnn/kernels/neon/math.hpp"
#include "sarnn/kernels/neon/softmax.hpp"
#include "sarnn/kernels/neon/weighted_sum.hpp"

namespace sarnn::kernel::neon {

/// The shaped float operations (contracts: kernels.hpp, with the sizes as template parameters). Costs as the
/// run-time forms; the column and lane tails take up to 3 more multiply-adds per row or lanes per gate.
struct Shaped {
    /// What detail::shaped reads: every operation below is here. (Their pointers are __restrict: the contracts forbid
    /// the outputs to alias the inputs, and so the compiler keeps v in registers across the stores of y.)
    static constexpr unsigned kCaps = shaped_gemv | shaped_gemv_add | shaped_lstm_cell | shaped_gru_cell |
                                      shaped_affine_tanh | shaped_attend_dot | shaped_weighted_sum | shaped_softmax;

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
    /// The dot-score context over S (Dim values per row, Stride apart, Cap physical rows; S.n >= 1 states):
    /// alpha = softmax_j(scale·(S_j·q)), c = Σ_j alpha_j S_j. q (a padded row) may be a row of S; alpha, c must not
    /// alias S or q.
    template <std::size_t Dim, std::size_t Stride, std::size_t Cap>
    __attribute__((noinline)) static void attend_dot(const Rows<float>& S, const float* __restrict q, float scale,
                                                     float* __restrict alpha, float* __restrict c) noexcept {
        attend_dot_rows<Dim, Stride, Cap>(S, q, scale, alpha, c);
    }
    /// c = Σ_j w_j S_j (S as for attend_dot, w its S.n weights); c must not alias S or w.
    template <std::size_t Dim, std::size_t Stride, std::size_t Cap>
    __attribute__((noinline)) static void weighted_sum(const float* __restrict w, const Rows<float>& S,
                                                       float* __restrict c) noexcept {
        weighted_sum_rows<Dim, Stride, Cap>(w, S, c);
    }
    /// y = softmax(y) in place over n >= 1 values (n at run time: one copy for every shape).
    __attribute__((noinline)) static void softmax(float* y, std::size_t n) noexcept { softmax_run(y, n); }
};

}  // namespace sarnn::kernel::neon

namespace sarnn::kernel {
#if defined(__aarch64__)
/// kernel::Neon64 takes the shaped forms for float.
template <>
struct Shaped<Arch::neon64, float> : neon::Shaped {};
#else
/// kernel::Neon (ARMv7 with NEON) takes the shaped forms for float (double runs the scalar set's code).
template <>
struct Shaped<Arch::neon, float> : neon::Shaped {};
#endif
}  // namespace sarnn::kernel

#endif
