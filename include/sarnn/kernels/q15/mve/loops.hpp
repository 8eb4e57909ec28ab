// sarnn/kernels/q15/mve/loops.hpp: the q15 loops of the cores with Helium (MVE integer: M55, M85) as the seam's type
// (q15/seam.hpp): MveLoops, from the operations in this folder (common.hpp says how they are written).
#ifndef SARNN_KERNELS_Q15_MVE_LOOPS_HPP
#define SARNN_KERNELS_Q15_MVE_LOOPS_HPP

#include <cstddef>
#include <cstdint>

#include "sarnn/kernels/q15/mve/activations.hpp"
#include "sarnn/kernels/q15/mve/common.hpp"
#include "sarnn/kernels/q15/mve/finish.hpp"
#include "sarnn/kernels/q15/mve/products.hpp"
#include "sarnn/kernels/q15/mve/query.hpp"
#include "sarnn/kernels/q15/mve/rows.hpp"
#include "sarnn/kernels/q15/mve/scores.hpp"
#include "sarnn/kernels/q15/mve/softmax.hpp"
#include "sarnn/kernels/q15/mve/weighted.hpp"
#include "sarnn/kernels/q15/seam.hpp"

namespace sarnn::kernel::q15_loops {

/// The Helium loops: every operation of a step vectorised; affine_tanh takes every row's tanh at the end (tanh_rows,
/// eight lanes at a time) after the pre-activations (rows_pre, finish_rows for the rest); gru_gates's rows four at a
/// time (finish_gru).
struct MveLoops : Loops<MveLoops> {
    static constexpr std::size_t kRows = q15_mve::kRows, kStates = q15_mve::kStates, kColumns = q15_mve::kColumns;
    static constexpr unsigned kCaps = kScores | kMaxRaw | kAdditiveSum | kAbsSum | kRoundQuery | kExps | kNormalize |
                                      kTanhRows | kFinishRows | kRowsPre | kWeighted | kCell | kGruCell | kFinishGru |
                                      kScoresDim;

    template <std::size_t G>
    __attribute__((always_inline)) static void dot_rows(const std::int8_t* w, std::size_t ld, const q15* v,
                                                        std::size_t n, std::int32_t* acc) noexcept {
        q15_mve::dot_rows<G>(w, ld, v, n, acc);
    }
    template <std::size_t G>
    __attribute__((always_inline)) static void dot_states(const q15* s, std::size_t stride, const q15* q,
                                                          std::size_t npairs, std::int32_t* d) noexcept {
        q15_mve::dot_states<G>(s, stride, q, npairs, d);
    }
    template <std::size_t G>
    __attribute__((always_inline)) static void columns(const q15* a, const q15* v, std::size_t stride,
                                                       std::size_t count, std::int32_t* acc) noexcept {
        q15_mve::columns<G>(a, v, stride, count, acc);
    }
    __attribute__((always_inline)) static void scores(const q15* s, std::size_t stride, std::size_t count, const q15* q,
                                                      std::size_t npairs, int t, q15* e) noexcept {
        // (an empty segment: no call, about 20 instructions less)
        if (count > 0) q15_mve::scores(s, stride, count, q, npairs, t, e);
    }
    template <std::size_t Dim>
    __attribute__((always_inline)) static void scores_dim(const q15* s, std::size_t stride, std::size_t count,
                                                          const q15* q, int t, q15* e) noexcept {
        if (count > 0) q15_mve::scores_dim<Dim>(s, stride, count, q, t, e);
    }
    __attribute__((always_inline)) static std::int32_t max_raw(const q15* e, std::size_t n) noexcept {
        return q15_mve::max_raw(e, n);
    }
    __attribute__((always_inline)) static std::int32_t additive_sum(const q15* key, const q15* q, const std::int8_t* v,
                                                                    std::size_t K) noexcept {
        return q15_mve::additive_sum(key, q, v, K);
    }
    __attribute__((always_inline)) static std::uint32_t abs_sum(const q15* q, std::size_t dim) noexcept {
        return q15_mve::abs_sum(q, dim);
    }
    __attribute__((always_inline)) static std::uint32_t round_query(const q15* q, q15* qp, std::size_t dim,
                                                                    int s) noexcept {
        return q15_mve::round_query(q, qp, dim, s);
    }
    __attribute__((always_inline)) static std::uint32_t exps(q15* alpha, std::size_t n, std::int32_t m,
                                                             std::int32_t to_q16, std::int32_t zero_below) noexcept {
        return q15_mve::exps(alpha, n, m, to_q16, zero_below);
    }
    __attribute__((always_inline)) static void normalize(q15* alpha, std::size_t n, std::uint32_t rec,
                                                         int down) noexcept {
        q15_mve::normalize(alpha, n, rec, down);
    }
    __attribute__((always_inline)) static void tanh_rows(q15* y, std::size_t n) noexcept { q15_mve::tanh_rows(y, n); }
    __attribute__((always_inline)) static bool finish_rows(const std::int32_t* s_x, const std::int32_t* s_r,
                                                           std::size_t count, std::int32_t x_m, int x_shift,
                                                           const std::int32_t* m, const std::int8_t* shift,
                                                           const std::int32_t* b, q15* out) noexcept {
        return q15_mve::finish_rows(s_x, s_r, count, x_m, x_shift, m, shift, b, out);
    }
    __attribute__((always_inline)) static std::size_t rows_pre(const QAffine& a, std::size_t rows, const q15* x,
                                                               std::size_t nx, const q15* r, std::size_t nr,
                                                               q15* y) noexcept {
        return q15_mve::rows_pre(a, rows, x, nx, r, nr, y);
    }
    __attribute__((always_inline)) static std::size_t finish_gru(const std::int32_t* s, std::size_t rows,
                                                                 const std::int32_t* m, const std::int8_t* shift,
                                                                 const std::int32_t* b_ih, const std::int32_t* b_hh,
                                                                 q15* gi, q15* gh) noexcept {
        return q15_mve::finish_gru(s, rows, m, shift, b_ih, b_hh, gi, gh);
    }
    __attribute__((always_inline)) static void weighted_sum(const q15* const base[2], const std::size_t n[2],
                                                            std::size_t stride, std::size_t dim, const q15* alpha,
                                                            q15* c) noexcept {
        q15_mve::weighted_sum(base, n, stride, dim, alpha, c);
    }
    __attribute__((always_inline)) static std::size_t lstm_cell(const q15* z, const q15* c_tilde, std::size_t hidden,
                                                                q15* c, q15* h) noexcept {
        return q15_mve::lstm_cell(z, c_tilde, hidden, c, h);
    }
    __attribute__((always_inline)) static void gru_cell(const q15* gi, const q15* gh, const q15* h_prev,
                                                        std::size_t hidden, q15* h) noexcept {
        q15_mve::gru_cell(gi, gh, h_prev, hidden, h);
    }
};

}  // namespace sarnn::kernel::q15_loops

#endif
