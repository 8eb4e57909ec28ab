// sarnn/kernels/q15/attention.hpp: the one algorithm of kernel::Q15's attention (contracts:
// include/sarnn/kernels_q15.hpp: prepare_query, attend_dot, attend_query, attend_scored, attend_scored_pair, their
// forms by stride and by size, additive_scores): the softmax, the weighted sum and the steps of each (Attention), as
// templates of internal linkage on the loops. lib/kernels/q15/attention.cpp compiles them with the sizes as run-time
// arguments (Q15Set's members); q15/shaped.hpp, in a model's translation unit, with the states' Dim known
// (attend_dot_shaped, attend_query_shaped).
// Plain C++, integers only; every result has its twin in python/sarnn/q15.py (attend_dot), which
// computes the same integers. The arithmetic that rounds (requantisation, the scores' format, the softmax) is here,
// the same on every target; the inner loops, exact integer sums, are each target's (the seam: q15/seam.hpp), in
// groups of rows, states or columns that share their loads. Every sum is kept in 32 bits (the cores without an FPU
// that run this, the M0/M0+, multiply 32 x 32 -> 32 only); rows are read by words where they are word aligned (the
// models' are: kernels.hpp pads rows to 32-bit words). As in lib/fixed.cpp, each intermediate's bound is beside it.
#ifndef SARNN_KERNELS_Q15_ATTENTION_HPP
#define SARNN_KERNELS_Q15_ATTENTION_HPP
#include <cstddef>
#include <cstdint>

#if defined(__ARM_FEATURE_DSP)
#include <arm_acle.h>
#endif

#include "sarnn/kernels/q15/exp.hpp"
#include "sarnn/kernels/q15/internals.hpp"
#include "sarnn/kernels_q15.hpp"

namespace sarnn::kernel {
namespace {  // NOLINT(cert-dcl59-cpp): internal linkage on purpose: a copy per including translation unit

/// the leading zeros of v > 0: CLZ where the core has it; on ARMv6-M (whose __builtin_clz is a library call) five
/// halvings of the range, about 15 instructions (a loop of one bit a pass took up to 80)
__attribute__((always_inline)) inline int leading_zeros(std::uint32_t v) noexcept {
#if defined(__GNUC__) && !defined(__ARM_ARCH_6M__)
    return __builtin_clz(v);
#else
    int n = 0;
    if (v < (std::uint32_t{1} << 16)) n += 16, v <<= 16;
    if (v < (std::uint32_t{1} << 24)) n += 8, v <<= 8;
    if (v < (std::uint32_t{1} << 28)) n += 4, v <<= 4;
    if (v < (std::uint32_t{1} << 30)) n += 2, v <<= 2;
    if (v < (std::uint32_t{1} << 31)) n += 1;
    return n;
#endif
}

/// the least t >= 0 with 2^t >= v (v <= 2^31)
__attribute__((always_inline)) inline int ceil_log2(std::uint32_t v) noexcept {
    return v > 1 ? 32 - leading_zeros(v - 1) : 0;
}

/// the least sh >= 0 with v·2^sh >= 2^30, for 0 < v < 2^31 (v·2^sh < 2^31 then)
__attribute__((always_inline)) inline int to_top(std::uint32_t v) noexcept {
    return v < (std::uint32_t{1} << 30) ? leading_zeros(v) - 1 : 0;
}

/// The two segments of a ring of rows (physical rows first.. then 0..), as in the float kernels.
struct Segments {
    const q15* base[2];
    std::size_t n[2];
};
inline Segments segments(const Rows<q15>& S) noexcept {
    const std::size_t n0 = S.cap - S.first < S.n ? S.cap - S.first : S.n;
    return {{S.base + S.first * S.stride, S.base}, {n0, S.n - n0}};
}

/// alpha = softmax(e) in place: e_j in Q(f) (f <= 15), m = max_j e_j. See attend_dot in kernels_q15.hpp.
template <class L>
void softmax(q15* alpha, std::size_t n, int f, std::int32_t m) noexcept {
    // p_j = e^(e_j - m) in Q16 (exp_q16 of the difference in Q16, (e_j - m)·2^(16 - f), f >= -2: taken only above
    // zero_below, so |.| < 12·2^16), at most 65535 so that p_j - 32768 fits the int16 of alpha until alpha replaces
    // it; l = Σ p_j (< 65536·n, n < 32768)
    const std::int32_t to_q16 = std::int32_t{1} << (16 - f);
    // (e_j - m)·2^(16 - f) <= -12·65536: exp_q16 gives 0, without the call (and never for the max itself, d = 0)
    const std::int32_t below = (std::int32_t{12} << 16) >> (16 - f);
    const std::int32_t zero_below = below > 1 ? -below : -1;
    const std::uint32_t l = L::exps(alpha, n, m, to_q16, zero_below);
    // 1 / l: l·2^sh in [2^30, 2^31) (l >= 65535, the max's own term, so sh <= 15); den = its top 16 bits, in
    // [2^15, 2^16); rec = 2^31 / den in (2^15, 2^16], at most 65535 (the one division of a step)
    const int sh = to_top(l);
    // (bit 15 of den is set for every l >= 65535: the OR changes nothing, it tells the analyzer den > 0)
    const std::uint32_t den = ((l << sh) >> 15) | (std::uint32_t{1} << 15);
    const std::uint32_t rec0 = (std::uint32_t{1} << 31) / den;
    const std::uint32_t rec = rec0 > 65535u ? 65535u : rec0;
    // alpha_j = p_j / l in Q15 = p_j·rec / 2^(31 - sh), floored (p_j·rec < 2^32), at most 32767
    L::normalize(alpha, n, rec, 31 - sh);
}

/// c_k = Σ_j alpha_j S_j,k / 32768 rounded half up, in [-32767, 32767]: |Σ| <= 32767·Σ alpha_j < 2^31
/// (Σ alpha_j <= 32768 + 1)
__attribute__((always_inline)) inline q15 context_value(std::int32_t acc) noexcept {
#if defined(__ARM_FEATURE_DSP) && defined(__ARM_FEATURE_SAT)
    const std::int32_t ck = __ssat(round_shift(acc, 15), 16);
    return q15{static_cast<std::int16_t>(ck < -32767 ? -32767 : ck)};
#else
    const std::int32_t ck = round_shift(acc, 15);
    return q15{static_cast<std::int16_t>(ck > 32767 ? 32767 : (ck < -32767 ? -32767 : ck))};
#endif
}

/// weighted_sum's generic form, on the target's columns<G> (G = kColumns, 4 where kColumns > 4, 2)
template <class L>
void weighted_columns(const Rows<q15>& S, const Segments& seg, const q15* alpha, q15* c) noexcept {
    const std::size_t dim = S.dim, stride = S.stride;
    std::size_t k = 0;
    if (word_aligned(S.base) && stride % 2 == 0 && word_aligned(alpha)) {
        // The states as runs, found once for every pass: an even count the target's loop takes (alpha's pairs word
        // aligned), or a state alone (where the pairs do not start: segment 2 after an odd segment 1; or end)
        struct Run {
            const q15* v;  // the run's first row
            const q15* a;  // its first weight
            std::size_t count;
        };
        Run runs[6];
        std::size_t nruns = 0;
        const q15* ap = alpha;
        for (int g = 0; g < 2; ++g) {
            const q15* v = seg.base[g];
            std::size_t cnt = seg.n[g];
            if (cnt > 0 && !word_aligned(ap)) {
                runs[nruns++] = {v, ap++, 1};
                v += stride;
                --cnt;
            }
            const std::size_t even = cnt & ~std::size_t{1};
            if (even > 0) runs[nruns++] = {v, ap, even};
            ap += even;
            v += even * stride;
            if (cnt != even) runs[nruns++] = {v, ap++, 1};
        }
        // G columns at a time (each row read once per G columns)
        const auto pass = [&](auto group) __attribute__((always_inline)) {
            constexpr std::size_t G = decltype(group)::value;
            Sums<G> sums;
            for (std::size_t i = 0; i < nruns; ++i) {
                const Run& run = runs[i];
                if (run.count == 1) {
                    q15_plain::columns<G>(run.a, run.v + k, stride, 1, sums.v);
                } else {
                    L::template columns<G>(run.a, run.v + k, stride, run.count, sums.v);
                }
            }
            for (std::size_t col = 0; col < G; ++col) c[k + col] = context_value(sums.v[col]);
            k += G;
        };
        // NOLINTNEXTLINE(bugprone-infinite-loop): the pass advances the index (a lambda, by reference)
        while (k + L::kColumns <= dim) pass(Group<L::kColumns>{});
        if constexpr (L::kColumns > 4) {
            if (k + 4 <= dim) pass(Group<4>{});
        }
        if constexpr (L::kColumns > 2) {
            // NOLINTNEXTLINE(bugprone-infinite-loop): the pass advances the index (a lambda, by reference)
            while (k + 2 <= dim) pass(Group<2>{});
        }
    }
    for (; k < dim; ++k) {
        std::int32_t acc = 0;
        const q15* ap = alpha;
        for (int g = 0; g < 2; ++g) {
            const q15* v = seg.base[g] + k;
            for (std::size_t i = 0; i < seg.n[g]; ++i, ++ap, v += stride) acc += ap->raw * v->raw;
        }
        c[k] = context_value(acc);
    }
}

/// c = Σ_j alpha_j S_j (the rows of S in the segments seg), rounded half up to Q15. Stride: S.stride as the caller
/// knows it at compile time (q15/seam.hpp's kAnyStride: not).
template <class L, std::size_t Stride = q15_loops::kAnyStride>
void weighted_sum(const Rows<q15>& S, const Segments& seg, const q15* alpha, q15* c) noexcept {
    if constexpr (Stride != q15_loops::kAnyStride && q15_loops::has(L::kCaps, q15_loops::kStrided)) {
        L::template weighted_at<Stride>(seg.base, seg.n, S.stride, S.dim, alpha, c);
        return;
    } else if constexpr (q15_loops::has(L::kCaps, q15_loops::kWeighted)) {
        L::weighted_sum(seg.base, seg.n, S.stride, S.dim, alpha, c);
    } else {
        weighted_columns<L>(S, seg, alpha, c);
    }
}

/// The attention's steps on the loops of Which (Q15Set's contracts), the states' row stride Stride as the caller knows
/// it (q15/seam.hpp: 16, 32, 64, 0 for another, or kAnyStride, known at run time only) and the rows' size Dim (S.dim
/// and, in dot, E.dim; q15/seam.hpp's kAnyDim: known at run time only): with a constant stride the target's loops of
/// that stride alone (kStrided), with a constant Dim its scores for that size alone (kScoresDim), so that an image
/// links the code of its own shape only. The run-time forms (kAnyStride, kAnyDim) call each other through Q15Set's
/// members, as they always have.
template <class Which, std::size_t Stride, std::size_t Dim = q15_loops::kAnyDim>
struct Attention {
    using L = loops_t<Which>;
    using Set = Q15Set<Which>;
    static constexpr bool kAny = Stride == q15_loops::kAnyStride && Dim == q15_loops::kAnyDim;

    /// attend_scored's: alpha = softmax(e), c = Σ_j alpha_j S_j
    static void scored(const Rows<q15>& S, int f, q15* alpha, q15* c) noexcept {
        const Segments seg = segments(S);
        if (S.n == 1) {
            // alpha_1 = 1 (as near as q15 gets), c_1 = h_1 exactly
            alpha[0] = q15{32767};
            for (std::size_t k = 0; k < S.dim; ++k) c[k] = seg.base[0][k];
            return;
        }
        // alpha = softmax(e) (e in Q(f), the max subtracted); c = Σ_j alpha_j S_j
        softmax<L>(alpha, S.n, f < -2 ? -2 : (f > 15 ? 15 : f), L::max_raw(alpha, S.n));
        weighted_sum<L, Stride>(S, seg, alpha, c);
    }
    /// scored's for S.n >= 2, m = max_j e_j known (attend_query's, where the target's scores give it)
    __attribute__((always_inline)) static void scored_max(const Rows<q15>& S, int f, q15* alpha, q15* c,
                                                          std::int32_t m) noexcept {
        softmax<L>(alpha, S.n, f < -2 ? -2 : (f > 15 ? 15 : f), m);
        weighted_sum<L, Stride>(S, segments(S), alpha, c);
    }
    __attribute__((always_inline)) static void to_scored(const Rows<q15>& S, int f, q15* alpha, q15* c) noexcept {
        if constexpr (kAny) {
            Set::attend_scored(S, f, alpha, c);
        } else {
            scored(S, f, alpha, c);
        }
    }
    static void scored_max_out(const Rows<q15>& S, int f, q15* alpha, q15* c, std::int32_t m) noexcept;

    /// attend_query's: the scores e_j = E_j·q' / 2^t, then scored
    static void query(const Rows<q15>& E, const q15* qp, QueryScale qs, const Rows<q15>& S, q15* alpha,
                      q15* c) noexcept {
        const std::size_t n = S.n;
        if (n == 1) {
            to_scored(S, 15, alpha, c);  // (no score is read)
            return;
        }
        const int t = qs.t, f = qs.f;  // NOLINT(bugprone-signed-char-misuse,cert-str34-c): int8_t shift counts
        // e_j = E_j·q' / 2^t rounded (prepare_query: |e_j| <= 32767), kept in alpha for now
        const Segments eseg = segments(E);
        const bool pairs = word_aligned(E.base) && word_aligned(qp) && E.stride % 2 == 0;
        const std::size_t npairs = (E.dim + 1) / 2;  // an odd dim reads the zero padding lane of the rows and of q'
        // m = max_j e_j, found as the scores are written where the target's scores give it (kScoresMax)
        constexpr bool kMax = q15_loops::has(L::kCaps, q15_loops::kScoresMax);
        std::int32_t m = -32768;
        std::size_t j = 0;
        for (int g = 0; g < 2; ++g) {
            const q15* row = eseg.base[g];
            if (pairs) {
                if constexpr (kMax) {
                    m = L::scores_max(row, E.stride, eseg.n[g], qp, npairs, t, alpha + j, m);
                } else if constexpr (Dim != q15_loops::kAnyDim && q15_loops::has(L::kCaps, q15_loops::kScoresDim)) {
                    L::template scores_dim<Dim>(row, E.stride, eseg.n[g], qp, t, alpha + j);
                } else if constexpr (!kAny && q15_loops::has(L::kCaps, q15_loops::kStrided)) {
                    L::template scores_at<Stride>(row, E.stride, eseg.n[g], qp, npairs, t, alpha + j);
                } else {
                    L::scores(row, E.stride, eseg.n[g], qp, npairs, t, alpha + j);
                }
                j += eseg.n[g];
                continue;
            }
            for (std::size_t i = 0; i < eseg.n[g]; ++i, row += E.stride) {
                std::int32_t d = 0;
                for (std::size_t k = 0; k < E.dim; ++k) d += row[k].raw * qp[k].raw;
                alpha[j].raw = static_cast<std::int16_t>(round_shift(d, t));
                if constexpr (kMax) m = alpha[j].raw > m ? alpha[j].raw : m;
                ++j;
            }
        }
        if constexpr (kMax) {
            if constexpr (kAny) {
                scored_max_out(S, f, alpha, c, m);
            } else {
                scored_max(S, f, alpha, c, m);
            }
        } else {
            to_scored(S, f, alpha, c);
        }
    }
    __attribute__((always_inline)) static void to_query(const Rows<q15>& E, const q15* qp, QueryScale qs,
                                                        const Rows<q15>& S, q15* alpha, q15* c) noexcept {
        if constexpr (kAny) {
            Set::attend_query(E, qp, qs, S, alpha, c);
        } else {
            query(E, qp, qs, S, alpha, c);
        }
    }

    /// attend_dot's: q' from q, then query with the states as their own keys
    static void dot(const Rows<q15>& S, const q15* q, q15* alpha, q15* c) noexcept {
        if (S.n == 1) {
            to_query(S, c, QueryScale{1, 15}, S, alpha, c);  // (the query is not read)
            return;
        }
        // q' in c, free until the weighted sum
        const QueryScale qs = Set::prepare_query(q, c, S.dim, 0);
        to_query(S, c, qs, S, alpha, c);
    }

    /// attend_scored_pair's: alpha = softmax(e) once, c = Σ_j alpha_j S_j, d = Σ_j alpha_j T_j
    static void scored_pair(const Rows<q15>& S, const Rows<q15>& T, int f, q15* alpha, q15* c, q15* d) noexcept {
        const Segments seg = segments(S), tseg = segments(T);
        if (S.n == 1) {
            // alpha_1 = 1 (as near as q15 gets), c = S_1 and d = T_1 exactly
            alpha[0] = q15{32767};
            for (std::size_t k = 0; k < S.dim; ++k) c[k] = seg.base[0][k];
            for (std::size_t k = 0; k < T.dim; ++k) d[k] = tseg.base[0][k];
            return;
        }
        // alpha = softmax(e) (e in Q(f), the max subtracted), once; c = Σ_j alpha_j S_j, d = Σ_j alpha_j T_j
        softmax<L>(alpha, S.n, f < -2 ? -2 : (f > 15 ? 15 : f), L::max_raw(alpha, S.n));
        weighted_sum<L, Stride>(S, seg, alpha, c);
        weighted_sum<L, Stride>(T, tseg, alpha, d);
    }
};

/// scored_max's run-time form (kAny), one copy in an image whoever calls it (as attention.cpp's *_any)
template <class Which, std::size_t Stride, std::size_t Dim>
__attribute__((noinline)) void Attention<Which, Stride, Dim>::scored_max_out(const Rows<q15>& S, int f, q15* alpha,
                                                                             q15* c, std::int32_t m) noexcept {
    scored_max(S, f, alpha, c, m);
}

/// The Stride of Attention for a Q15Stride: its value where the target has loops by stride, else kAnyStride (the
/// run-time forms: one copy of the code whatever the stride)
template <class Which>
constexpr std::size_t stride_of(Q15Stride st) noexcept {
    return q15_loops::has(loops_t<Which>::kCaps, q15_loops::kStrided) ? static_cast<std::size_t>(st)
                                                                      : q15_loops::kAnyStride;
}

}  // namespace

}  // namespace sarnn::kernel
#endif
