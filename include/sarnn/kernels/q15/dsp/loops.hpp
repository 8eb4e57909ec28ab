// sarnn/kernels/q15/dsp/loops.hpp: the q15 loops of the Cortex-M cores with the DSP extension (M4, M7; ARMv7E-M) as
// the seam's type (q15/seam.hpp): DspLoops, from the operations in this folder (common.hpp says how they are written).
#ifndef SARNN_KERNELS_Q15_DSP_LOOPS_HPP
#define SARNN_KERNELS_Q15_DSP_LOOPS_HPP

#include <cstddef>
#include <cstdint>

#include "sarnn/kernels/q15/dsp/additive.hpp"
#include "sarnn/kernels/q15/dsp/cell.hpp"
#include "sarnn/kernels/q15/dsp/common.hpp"
#include "sarnn/kernels/q15/dsp/finish.hpp"
#include "sarnn/kernels/q15/dsp/query.hpp"
#include "sarnn/kernels/q15/dsp/rows.hpp"
#include "sarnn/kernels/q15/dsp/scores.hpp"
#include "sarnn/kernels/q15/dsp/softmax.hpp"
#include "sarnn/kernels/q15/dsp/weighted.hpp"
#include "sarnn/kernels/q15/seam.hpp"

namespace sarnn::kernel::q15_loops {

/// The DSP loops: the products, the scores, the additive scores' sums and the softmax's passes, the query's sums, the
/// weighted sum (both also by stride: kStrided), and affine_tanh's rows in blocks (four rows' two parts at once, or
/// against x and r packed once) finished with their tanh by finish_tanh.
struct DspLoops : Loops<DspLoops> {
    static constexpr std::size_t kRows = q15_dsp::kRows, kStates = q15_dsp::kStates, kColumns = q15_dsp::kColumns;
    static constexpr unsigned kCaps = kScores | kMaxRaw | kAdditiveSum | kAbsSum | kRoundQuery | kExps | kNormalize |
                                      kFinishTanh | kRowsXr | kRowsPacked | kRowsSum | kFinishGru | kWeighted | kCell |
                                      kGruCell | kStrided | kGruApart;
    static constexpr std::size_t kPackMax = q15_dsp::kPackMax;  ///< the longest x and r that packs() takes
    using Packed = q15_dsp::Packed;

    template <std::size_t G>
    __attribute__((always_inline)) static void dot_rows(const std::int8_t* w, std::size_t ld, const q15* v,
                                                        std::size_t n, std::int32_t* acc) noexcept {
        q15_dsp::dot_rows<G>(w, ld, v, n, acc);
    }
    template <std::size_t G>
    __attribute__((always_inline)) static void dot_states(const q15* s, std::size_t stride, const q15* q,
                                                          std::size_t npairs, std::int32_t* d) noexcept {
        q15_dsp::dot_states<G>(s, stride, q, npairs, d);
    }
    template <std::size_t G>
    __attribute__((always_inline)) static void columns(const q15* a, const q15* v, std::size_t stride,
                                                       std::size_t count, std::int32_t* acc) noexcept {
        q15_dsp::columns<G>(a, v, stride, count, acc);
    }
    __attribute__((always_inline)) static void scores(const q15* s, std::size_t stride, std::size_t count, const q15* q,
                                                      std::size_t npairs, int t, q15* e) noexcept {
        q15_dsp::scores_at<kAnyStride>(s, stride, count, q, npairs, t, e);
    }
    template <std::size_t Stride>
    __attribute__((always_inline)) static void scores_at(const q15* s, std::size_t stride, std::size_t count,
                                                         const q15* q, std::size_t npairs, int t, q15* e) noexcept {
        q15_dsp::scores_at<Stride>(s, stride, count, q, npairs, t, e);
    }
    __attribute__((always_inline)) static std::int32_t max_raw(const q15* e, std::size_t n) noexcept {
        return q15_dsp::max_raw(e, n);
    }
    __attribute__((always_inline)) static std::int32_t additive_sum(const q15* key, const q15* q, const std::int8_t* v,
                                                                    std::size_t K) noexcept {
        return q15_dsp::additive_sum(key, q, v, K);
    }
    __attribute__((always_inline)) static std::uint32_t abs_sum(const q15* q, std::size_t dim) noexcept {
        return q15_dsp::abs_sum(q, dim);
    }
    __attribute__((always_inline)) static std::uint32_t round_query(const q15* q, q15* qp, std::size_t dim,
                                                                    int s) noexcept {
        return q15_dsp::round_query(q, qp, dim, s);
    }
    __attribute__((always_inline)) static std::uint32_t exps(q15* alpha, std::size_t n, std::int32_t m,
                                                             std::int32_t to_q16, std::int32_t zero_below) noexcept {
        return q15_dsp::exps(alpha, n, m, to_q16, zero_below);
    }
    __attribute__((always_inline)) static void normalize(q15* alpha, std::size_t n, std::uint32_t rec,
                                                         int down) noexcept {
        q15_dsp::normalize(alpha, n, rec, down);
    }
    __attribute__((always_inline)) static void weighted_sum(const q15* const base[2], const std::size_t n[2],
                                                            std::size_t stride, std::size_t dim, const q15* alpha,
                                                            q15* c) noexcept {
        q15_dsp::weighted_sum_at<kAnyStride>(base, n, stride, dim, alpha, c);
    }
    template <std::size_t Stride>
    __attribute__((always_inline)) static void weighted_at(const q15* const base[2], const std::size_t n[2],
                                                           std::size_t stride, std::size_t dim, const q15* alpha,
                                                           q15* c) noexcept {
        q15_dsp::weighted_sum_at<Stride>(base, n, stride, dim, alpha, c);
    }
    template <int UP, bool kTanh = true>
    __attribute__((always_inline)) static std::size_t finish_tanh(const std::int32_t* s, std::size_t rows,
                                                                  const std::int32_t* m, const std::int8_t* shift,
                                                                  const std::int32_t* b, std::int32_t x_m,
                                                                  q15* y) noexcept {
        return q15_dsp::finish_tanh<UP, kTanh>(s, rows, m, shift, b, x_m, y);
    }
    __attribute__((always_inline)) static void rows4_xr(const std::int8_t* w, std::size_t ld, const q15* x,
                                                        std::size_t nx, const q15* r, std::size_t nr,
                                                        std::int32_t* s) noexcept {
        q15_dsp::rows4_xr(w, ld, x, nx, r, nr, s);
    }
    __attribute__((always_inline)) static bool packs(std::size_t nx, std::size_t nr) noexcept {
        return q15_dsp::packs(nx, nr);
    }
    __attribute__((always_inline)) static void pack(const q15* x, std::size_t nx, const q15* r, std::size_t nr,
                                                    Packed& p) noexcept {
        q15_dsp::pack(x, nx, r, nr, p);
    }
    __attribute__((always_inline)) static void rows_packed(const std::int8_t* w, std::size_t ld, const Packed& p,
                                                           std::size_t nx, std::size_t nr, std::size_t groups,
                                                           std::int32_t* s) noexcept {
        q15_dsp::rows_packed(w, ld, p, nx, nr, groups, s);
    }
    __attribute__((always_inline)) static void rows_packed2(const std::int8_t* wx, const std::int8_t* wr,
                                                            const Packed& p, std::size_t nx, std::size_t nr,
                                                            std::size_t groups, std::int32_t* s) noexcept {
        q15_dsp::rows_packed2(wx, wr, p, nx, nr, groups, s);
    }
    __attribute__((always_inline)) static std::size_t lstm_cell(const q15* z, const q15* c_tilde, std::size_t hidden,
                                                                q15* c, q15* h) noexcept {
        return q15_dsp::lstm_cell(z, c_tilde, hidden, c, h);
    }
    __attribute__((always_inline)) static void gru_cell(const q15* gi, const q15* gh, const q15* h_prev,
                                                        std::size_t hidden, q15* h) noexcept {
        q15_dsp::gru_cell(gi, gh, h_prev, hidden, h);
    }
    __attribute__((always_inline)) static std::size_t finish_gru(const std::int32_t* s, std::size_t rows,
                                                                 const std::int32_t* m, const std::int8_t* shift,
                                                                 const std::int32_t* b_ih, const std::int32_t* b_hh,
                                                                 q15* gi, q15* gh) noexcept {
        return q15_dsp::finish_gru(s, rows, m, shift, b_ih, b_hh, gi, gh);
    }
    __attribute__((always_inline)) static void rows_apart(const std::int8_t* wx, const std::int8_t* wr, const Packed& p,
                                                          std::size_t nx, std::size_t nr, std::size_t groups,
                                                          std::int32_t* s_x, std::int32_t* s_r) noexcept {
        q15_dsp::rows_apart(wx, wr, p, nx, nr, groups, s_x, s_r);
    }
    template <int kOff>
    __attribute__((always_inline)) static std::size_t finish_gru_apart(const std::int32_t* s, std::size_t rows,
                                                                       const std::int32_t* m, const std::int8_t* shift,
                                                                       const std::int32_t* b_ih,
                                                                       const std::int32_t* b_hh, q15* gi,
                                                                       q15* gh) noexcept {
        return q15_dsp::finish_gru_at<kOff>(s, rows, m, shift, b_ih, b_hh, gi, gh);
    }
    __attribute__((always_inline)) static std::size_t finish_sum(const std::int32_t* s, std::size_t rows,
                                                                 const std::int32_t* m, const std::int8_t* shift,
                                                                 const std::int32_t* b, q15* y) noexcept {
        return q15_dsp::finish_sum(s, rows, m, shift, b, y);
    }
    __attribute__((always_inline)) static void rows_packed_sum(const std::int8_t* wx, const std::int8_t* wr,
                                                               const Packed& p, std::size_t nx, std::size_t nr,
                                                               std::size_t groups, std::int32_t* s) noexcept {
        q15_dsp::rows_packed_sum(wx, wr, p, nx, nr, groups, s);
    }
};

}  // namespace sarnn::kernel::q15_loops

#endif
