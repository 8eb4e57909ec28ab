// sarnn/kernels/neon/attend.hpp: the dot-score context (kernels.hpp's attend_dot) with the row length known at compile
// time: e_j = scale·(S_j·q) over the stored states and their max m (kernels/neon/dot_scores.hpp), p_j = exp(e_j - m)
// and l = Σ p (kernels/neon/softmax.hpp), then c = (Σ_j p_j S_j) / l with alpha_j = p_j / l written in the same pass
// (kernels/neon/weighted_sum.hpp): three streams over the ring's two runs of rows (kernels/neon/ring.hpp). The number
// of states n stays a run-time value; Dim (the values of a row), Stride (Dim padded to whole vectors) and Cap (the
// physical rows) are template parameters. Cost: 2·n·Stride multiply-adds and n exps; each state is read twice (scores,
// then the sum), from L1 for the sizes of a firmware model. Measured (qemu, instructions per step of SelfAttentionRnn
// dot, n = 64; the run-time attend_dot before): AArch64 In 16 Hidden 32 3,998 -> 3,758, In 3 Hidden 40 11,340 -> 4,638;
// ARMv7 7,539 -> 5,763 and 16,641 -> 6,852, where loading by VLD1 (math.hpp's load_next) instead of ring.hpp's
// load2_next gave 6,331 and 7,707 (the VLD2 intrinsic without writeback: an address add per load, 25 more per four
// states in the scores, 11 in the sum, at Hidden 40).
#ifndef SARNN_KERNELS_NEON_ATTEND_HPP
#define SARNN_KERNELS_NEON_ATTEND_HPP

#include <cstddef>

#include "sarnn/kernels.hpp"
#include "sarnn/kernels/neon/dot_scores.hpp"
#include "sarnn/kernels/neon/math.hpp"
#include "sarnn/kernels/neon/ring.hpp"
#include "sarnn/kernels/neon/softmax.hpp"
#include "sarnn/kernels/neon/weighted_sum.hpp"

namespace sarnn::kernel::neon {

/// alpha = softmax_j(scale·(S_j·q)); c[0..Dim) = Σ_j alpha_j S_j. S: n >= 1 rows, S.stride == Stride, S.cap == Cap;
/// q a padded row of Dim values (it may be one of S's rows); alpha receives S.n values; c must not alias S or q.
template <std::size_t Dim, std::size_t Stride, std::size_t Cap>
SARNN_NEON_INLINE void attend_dot_rows(const Rows<float>& S, const float* q, float scale, float* alpha,
                                       float* c) noexcept {
    const RingRuns<Stride, Cap> runs(S);
    // e_j = scale·(S_j·q), oldest first, and their max m
    F mv = dot_scores<Stride>(runs.base[0], runs.n[0], q, vdupq_n_f32(scale), alpha, vdupq_n_f32(-__builtin_inff()));
    mv = dot_scores<Stride>(runs.base[1], runs.n[1], q, vdupq_n_f32(scale), alpha + runs.n[0], mv);
    // p_j = exp(e_j - m), l = Σ_j p_j
    const float l = exp_shifted(alpha, S.n, lanes_max(mv));
    // alpha_j = p_j / l; c = Σ_j alpha_j S_j (as (Σ_j p_j S_j) / l)
    weighted_sum_scaled<Dim, Stride, Cap>(alpha, runs, 1.0f / l, c);
}

}  // namespace sarnn::kernel::neon

#endif
