// lib/kernels/q15/attention.cpp: the translation unit of kernel::Q15's attention with run-time sizes (Q15Set's
// prepare_query, attend_dot, attend_query, attend_scored, attend_scored_pair, additive_scores and the forms by stride,
// *_at<Q15Stride>), on the one algorithm of include/sarnn/kernels/q15/attention.hpp (the form with the states' size
// known at compile time, compiled in a model's translation unit: include/sarnn/kernels/q15/shaped.hpp).
#include "sarnn/kernels/q15/attention.hpp"

namespace sarnn::kernel {
namespace {

/// The run-time forms' steps (Attention at kAnyStride), one copy in an image whoever calls them: the run-time forms
/// and, on a target without loops by stride, every form by stride (noinline: inlined, each of those held a copy of
/// its own, 11 kB more in the M55's -O3 benchmark image)
template <class Which>
__attribute__((noinline)) void dot_any(const Rows<q15>& S, const q15* q, q15* alpha, q15* c) noexcept {
    Attention<Which, q15_loops::kAnyStride>::dot(S, q, alpha, c);
}
template <class Which>
__attribute__((noinline)) void scored_any(const Rows<q15>& S, int f, q15* alpha, q15* c) noexcept {
    Attention<Which, q15_loops::kAnyStride>::scored(S, f, alpha, c);
}
template <class Which>
__attribute__((noinline)) void scored_pair_any(const Rows<q15>& S, const Rows<q15>& T, int f, q15* alpha, q15* c,
                                               q15* d) noexcept {
    Attention<Which, q15_loops::kAnyStride>::scored_pair(S, T, f, alpha, c, d);
}

}  // namespace

template <class Which>
QueryScale Q15Set<Which>::prepare_query(const q15* q, q15* qp, std::size_t dim, int g) noexcept {
    using L = loops_t<Which>;
    // q' = q / 2^s rounded, with s the least for which Σ|q'_k| <= 65536, so that every S_j·q' is exact in int32
    // (|S_j,k| <= 32767): Σ|q_k| <= 32768·256 = 2^23 gives s <= 8
    std::uint32_t qsum = L::abs_sum(q, dim);
    int s = 0;
    while ((qsum >> s) + dim + 1 > 65536u) ++s;
    if (s > 0) {
        qsum = L::round_query(q, qp, dim, s);
    } else if (qp != q) {
        for (std::size_t k = 0; k < dim; ++k) qp[k] = q[k];
    }
    // e_j = S_j·q' / 2^t rounded, t = ceil(log2 Σ|q'_k|) (so |e_j| <= 32767) and at least 15 - g - s (and 1): the
    // scores in Q(f), f = 30 - g - s - t <= 15 (q in Q(15 - g): S_j·q = S_j·q'·2^s / 2^(30 - g))
    int t = ceil_log2(qsum);
    g = g < 0 ? 0 : (g > 8 ? 8 : g);  // (the contract's range: f >= -2, see softmax)
    const int least = 15 - g - s > 1 ? 15 - g - s : 1;
    if (t < least) t = least;
    return {static_cast<std::int8_t>(t), static_cast<std::int8_t>(30 - g - s - t)};
}

template <class Which>
void Q15Set<Which>::attend_dot(const Rows<q15>& S, const q15* q, q15* alpha, q15* c) noexcept {
    dot_any<Which>(S, q, alpha, c);
}

template <class Which>
void Q15Set<Which>::attend_scored(const Rows<q15>& S, int f, q15* alpha, q15* c) noexcept {
    scored_any<Which>(S, f, alpha, c);
}

namespace {

/// the additive score's sum for one state (q15/seam.hpp), a function of its own: its loop keeps its values in
/// registers (inlined in additive_scores' loop, ARMv6-M's eight low registers spilled them)
template <class L>
__attribute__((noinline)) std::int32_t additive_score(const q15* key, const q15* q, const std::int8_t* v,
                                                      std::size_t K) noexcept {
    return L::additive_sum(key, q, v, K);
}

}  // namespace

template <class Which>
void Q15Set<Which>::additive_scores(const Rows<q15>& P, const q15* q, const std::int8_t* v, std::int32_t m_v,
                                    int shift_v, q15* e) noexcept {
    using L = loops_t<Which>;
    const Segments seg = segments(P);
    for (int g = 0; g < 2; ++g) {
        const q15* row = seg.base[g];
        for (std::size_t i = 0; i < seg.n[g]; ++i, row += P.stride) {
            // d = Σ_k v_k·tanh(P_j,k + q_k); e_j = requantize(d, m_v, shift_v), saturated to int16
            const std::int32_t ej = rescale(additive_score<L>(row, q, v, P.dim), m_v, shift_v);
            (e++)->raw = static_cast<std::int16_t>(ej > 32767 ? 32767 : (ej < -32768 ? -32768 : ej));
        }
    }
}

template <class Which>
void Q15Set<Which>::attend_query(const Rows<q15>& E, const q15* qp, QueryScale qs, const Rows<q15>& S, q15* alpha,
                                 q15* c) noexcept {
    Attention<Which, q15_loops::kAnyStride>::query(E, qp, qs, S, alpha, c);
}

template <class Which>
void Q15Set<Which>::attend_scored_pair(const Rows<q15>& S, const Rows<q15>& T, int f, q15* alpha, q15* c,
                                       q15* d) noexcept {
    scored_pair_any<Which>(S, T, f, alpha, c, d);
}

/// The forms with the states' stride known at compile time: Attention's of that stride where the target has loops
/// by stride (kStrided), else the run-time forms' steps.
template <class Which>
template <Q15Stride St>
void Q15Set<Which>::attend_dot_at(const Rows<q15>& S, const q15* q, q15* alpha, q15* c) noexcept {
    if constexpr (stride_of<Which>(St) == q15_loops::kAnyStride)
        dot_any<Which>(S, q, alpha, c);
    else
        Attention<Which, stride_of<Which>(St)>::dot(S, q, alpha, c);
}

template <class Which>
template <Q15Stride St>
void Q15Set<Which>::attend_scored_at(const Rows<q15>& S, int f, q15* alpha, q15* c) noexcept {
    if constexpr (stride_of<Which>(St) == q15_loops::kAnyStride)
        scored_any<Which>(S, f, alpha, c);
    else
        Attention<Which, stride_of<Which>(St)>::scored(S, f, alpha, c);
}

template <class Which>
template <Q15Stride St>
void Q15Set<Which>::attend_scored_pair_at(const Rows<q15>& S, const Rows<q15>& T, int f, q15* alpha, q15* c,
                                          q15* d) noexcept {
    if constexpr (stride_of<Which>(St) == q15_loops::kAnyStride)
        scored_pair_any<Which>(S, T, f, alpha, c, d);
    else
        Attention<Which, stride_of<Which>(St)>::scored_pair(S, T, f, alpha, c, d);
}

// the two sets of kernels_q15.hpp (this target's loops, the plain ones): this file's members
template QueryScale Q15Set<TargetLoops>::prepare_query(const q15*, q15*, std::size_t, int) noexcept;
template void Q15Set<TargetLoops>::attend_dot(const Rows<q15>&, const q15*, q15*, q15*) noexcept;
template void Q15Set<TargetLoops>::attend_scored(const Rows<q15>&, int, q15*, q15*) noexcept;
template void Q15Set<TargetLoops>::additive_scores(const Rows<q15>&, const q15*, const std::int8_t*, std::int32_t, int,
                                                   q15*) noexcept;
template void Q15Set<TargetLoops>::attend_query(const Rows<q15>&, const q15*, QueryScale, const Rows<q15>&, q15*,
                                                q15*) noexcept;
template void Q15Set<TargetLoops>::attend_scored_pair(const Rows<q15>&, const Rows<q15>&, int, q15*, q15*,
                                                      q15*) noexcept;
template QueryScale Q15Set<PlainLoops>::prepare_query(const q15*, q15*, std::size_t, int) noexcept;
template void Q15Set<PlainLoops>::attend_dot(const Rows<q15>&, const q15*, q15*, q15*) noexcept;
template void Q15Set<PlainLoops>::attend_scored(const Rows<q15>&, int, q15*, q15*) noexcept;
template void Q15Set<PlainLoops>::additive_scores(const Rows<q15>&, const q15*, const std::int8_t*, std::int32_t, int,
                                                  q15*) noexcept;
template void Q15Set<PlainLoops>::attend_query(const Rows<q15>&, const q15*, QueryScale, const Rows<q15>&, q15*,
                                               q15*) noexcept;
template void Q15Set<PlainLoops>::attend_scored_pair(const Rows<q15>&, const Rows<q15>&, int, q15*, q15*,
                                                     q15*) noexcept;
// and the forms by stride, for every Q15Stride
#define SARNN_Q15_BY_STRIDE(Which, St)                                                                          \
    template void Q15Set<Which>::attend_dot_at<St>(const Rows<q15>&, const q15*, q15*, q15*) noexcept;          \
    template void Q15Set<Which>::attend_scored_at<St>(const Rows<q15>&, int, q15*, q15*) noexcept;              \
    template void Q15Set<Which>::attend_scored_pair_at<St>(const Rows<q15>&, const Rows<q15>&, int, q15*, q15*, \
                                                           q15*) noexcept;
SARNN_Q15_BY_STRIDE(TargetLoops, Q15Stride::other)
SARNN_Q15_BY_STRIDE(TargetLoops, Q15Stride::s16)
SARNN_Q15_BY_STRIDE(TargetLoops, Q15Stride::s32)
SARNN_Q15_BY_STRIDE(TargetLoops, Q15Stride::s64)
SARNN_Q15_BY_STRIDE(PlainLoops, Q15Stride::other)
SARNN_Q15_BY_STRIDE(PlainLoops, Q15Stride::s16)
SARNN_Q15_BY_STRIDE(PlainLoops, Q15Stride::s32)
SARNN_Q15_BY_STRIDE(PlainLoops, Q15Stride::s64)
#undef SARNN_Q15_BY_STRIDE

}  // namespace sarnn::kernel
