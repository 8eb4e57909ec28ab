// sarnn/kernels/cortex_m/attend.hpp: the dot-score context (kernels.hpp's attend_dot) of the Cortex-M float set with
// the row length known at compile time: e_j = scale·(S_j·q) over the stored states and their max m
// (kernels/cortex_m/dot_scores.hpp), p_j = exp(e_j - m) and l = Σ p (kernels/cortex_m/softmax.hpp), then
// c = (Σ_j p_j S_j) / l with alpha_j = p_j / l written in the same pass (kernels/cortex_m/weighted_sum.hpp): three
// passes over the ring's two runs of rows (kernels/cortex_m/ring.hpp), where the run-time attend_dot takes one pass
// with an online softmax (its shift raised as scores grow: a compare and a branch per four states more, and c and l
// rescaled when it grows). The number of states n stays a run-time value; Dim, Stride and Cap are template
// parameters. Cost: 2·n·Dim multiply-adds and n exps; each state is read twice (scores, then the sum).
// NaN and Inf as IEEE arithmetic gives them from these formulas (m the largest score, NaN passed over): a NaN or +Inf
// score makes alpha and c NaN, a -Inf score weighs 0 (its row times 0 in c: NaN where the row holds an Inf).
#ifndef SARNN_KERNELS_CORTEX_M_ATTEND_HPP
#define SARNN_KERNELS_CORTEX_M_ATTEND_HPP

#include <cstddef>

#include "sarnn/kernels.hpp"
#include "sarnn/kernels/cortex_m/dot_scores.hpp"
#include "sarnn/kernels/cortex_m/math.hpp"
#include "sarnn/kernels/cortex_m/ring.hpp"
#include "sarnn/kernels/cortex_m/softmax.hpp"
#include "sarnn/kernels/cortex_m/weighted_sum.hpp"

namespace sarnn::kernel::cortex_m {

/// alpha = softmax_j(scale·(S_j·q)); c[0..Dim) = Σ_j alpha_j S_j. S: n >= 1 rows, S.stride == Stride, S.cap == Cap;
/// q a row of Dim values (it may be one of S's rows); alpha receives S.n values; c must not alias S or q.
template <std::size_t Dim, std::size_t Stride, std::size_t Cap>
SARNN_CM_INLINE void attend_dot_rows(const Rows<float>& S, const float* q, float scale, float* alpha,
                                     float* c) noexcept {
    const RingRuns<Stride, Cap> runs(S);
    // e_j = scale·(S_j·q), oldest first, and their max m
    float m = dot_scores<Dim, Stride>(runs.base[0], runs.n[0], q, scale, alpha, -__builtin_inff());
    m = dot_scores<Dim, Stride>(runs.base[1], runs.n[1], q, scale, alpha + runs.n[0], m);
    // p_j = exp(e_j - m), l = Σ_j p_j
    const float l = exp_shifted(alpha, S.n, m);
    // alpha_j = p_j / l; c = Σ_j alpha_j S_j (as (Σ_j p_j S_j) / l)
    weighted_sum_scaled<Dim, Stride, Cap>(alpha, runs, 1.0f / l, c);
}

}  // namespace sarnn::kernel::cortex_m

#endif
