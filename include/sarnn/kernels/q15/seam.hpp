// sarnn/kernels/q15/seam.hpp: the typed seam between the q15 kernels' one algorithm (kernels/q15/{affine,attention,cells}.hpp: the
// arithmetic every target shares, its rounding and bounds) and each target's inner loops. A target's loops are a
// struct L deriving from Loops<L> (the generic forms below, written once on L's own products), with:
//   kRows, kStates, kColumns       how many rows, states or columns one pass of its products takes;
//   dot_rows<G>(w, ld, v, n, acc)  for G = 1, 2 and kRows   (any n, any alignment)
//   dot_states<G>(s, stride, q, npairs, d)   for G = 1 and kStates   (s, q word aligned, stride even, npairs >= 1)
//   columns<G>(a, v, stride, count, acc)     for G = 2, kColumns and 4 where kColumns > 4  (a, v word aligned, stride
//                                            even, count even >= 2)
// (the contracts: q15/plain.hpp, which computes each exactly), and, where it has a faster form of its own, a static
// function of the same name and signature that hides the generic one: scores, max_raw, additive_sum, abs_sum,
// round_query, exps, normalize, gru_cell; and its `kCaps`, one bit set: the Op bits (below) of the operations it replaces,
// and the Cap bits of its capabilities. check<L>() refuses, at compile time, a list that disagrees with the functions (a misspelt name is a
// generic path taken without a word).
//
// The capabilities that change the algorithm's shape, read by q15/{affine,attention,cells}.hpp with `if constexpr` (absent unless in kCaps):
//   kTanhRows    tanh_rows(y, n): y_k = tanh_q15(y_k) in place; affine_tanh takes every row's tanh after the
//                pre-activations (MVE: eight lanes at a time)
//   kFinishRows  finish_rows(s_x, s_r, count, x_m, x_shift, m, shift, b, y): a chunk's pre-activations from their
//                sums, or false where the factors do not fit it (needs kTanhRows)
//   kFinishTanh  finish_tanh<UP, TANH>(s, rows, m, shift, b, x_m, y): affine_tanh's rows (and affine's, TANH =
//                false) finished from their (s_x, s_r) sums, where the input's factor is near 1 (not with kTanhRows)
//   kRowsXr      rows4_xr(w, ld, x, nx, r, nr, s): both parts' sums of four rows (needs kFinishTanh)
//   kRowsPacked  packs(nx, nr), pack(x, nx, r, nr, p) into L::Packed, rows_packed(w, ld, p, nx, nr, groups, s) and
//                rows_packed2(wx, wr, p, nx, nr, groups, s): the sums of groups of four rows against x and r packed
//                once (needs kFinishTanh)
//   kRowsSum     rows_packed_sum(wx, wr, p, nx, nr, groups, s): rows_packed2's two sums of each row added, one per
//                row (affine where the x part's factor is 1; needs kRowsPacked), and finish_sum(s, rows, m, shift, b,
//                y): those rows' pre-activations from their sums, up to the first shift outside 2 .. 31 (b not null)
//   kFinishGru   finish_gru(s, rows, m, shift, b_ih, b_hh, gi, gh): gru_gates's rows from their (s_x, s_h) sums where
//                the x part's factor is 1, up to the first shift outside 2 .. 31
//   kGruGates    gru_gates(a, rows, x, nx, h, nh, gi, gh): Q15::gru_gates whole, every factor (q15/affine.hpp's
//                generic form is then not in the target's image)
//   kGruApart    rows_apart(wx, wr, p, nx, nr, groups, s_x, s_r): rows_packed2's sums, each part's in an array of its
//                own (one per row), and finish_gru_apart<kOff>(s, rows, m, shift, b_ih, b_hh, gi, gh): finish_gru's
//                rows from s_x = s[i], s_h = s[kOff / 4 + i] (gru_gates where the x part's factor is 1 and x and h
//                pack; needs kRowsPacked and kFinishGru)
//   kFinishSum   finish_sum alone (kRowsSum's, without the packed passes): affine's rows where the x part's factor is 1
//                finished from the sums of dot_rows
//   kWeighted    weighted_sum(base, n, stride, dim, alpha, c): the whole context c = Σ_j alpha_j S_j (rounded as
//                q15/{affine,attention,cells}.hpp's)
//   kCell        lstm_cell(z, c~, hidden, c, h): Q15::lstm_cell's contract
//   kStrided     scores_at<Stride>(s, stride, count, q, npairs, t, e) and weighted_at<Stride>(base, n, stride, dim,
//                alpha, c): scores and weighted_sum (needs kScores and kWeighted) with the states' row stride as the
//                caller knows it at compile time: Stride 16, 32 or 64 (the stride is it; the loops of that stride
//                alone), 0 (another stride), kAnyStride (not known: every loop, chosen at run time), so that an
//                image links the loops of its own shape only (Q15Set's forms by Q15Stride)
//   kRowsPre     rows_pre(a, rows, x, nx, r, nr, y): affine_tanh's pre-activations of its first rows (returned: a
//                multiple of kRows, or 0) straight from the weights, before tanh_rows; the rest by the sums and
//                finish_rows (needs kFinishRows)
//   kScoresMax   scores_max(s, stride, count, q, npairs, t, e, m): scores's e_j (that fit int16, as attend_query's t
//                makes them) and max(m, e_0, ..., e_{count-1}), so that attend_query's softmax needs no max_raw pass
//                (needs kScores)
//   kScoresDim   scores_dim<Dim>(s, stride, count, q, t, e): scores for rows of Dim values known at compile time
//                (npairs = (Dim + 1) / 2; needs kScores), so that the loops of that size alone are in the image: the
//                attention's form by size (Q15Set::attend_dot_shaped<Dim, St>, compiled in the model's translation
//                unit) calls it
// The bounds every loop relies on are the callers', given in q15/{affine,attention,cells}.hpp.
#ifndef SARNN_KERNELS_Q15_SEAM_HPP
#define SARNN_KERNELS_Q15_SEAM_HPP

#include <cstddef>
#include <cstdint>

#include "sarnn/kernels/q15/exp.hpp"
#include "sarnn/kernels/q15/plain.hpp"
#include "sarnn/kernels/q15/tanh.hpp"
#include "sarnn/fixed.hpp"

namespace sarnn::kernel::q15_loops {

/// The operations that have a generic form, as bits of a target's kCaps.
enum Op : unsigned {
    kScores = 1u << 0,
    kMaxRaw = 1u << 1,
    kAdditiveSum = 1u << 2,
    kAbsSum = 1u << 3,
    kRoundQuery = 1u << 4,
    kExps = 1u << 5,
    kNormalize = 1u << 6,
    kGruCell = 1u << 7,
};

/// The capabilities that change the algorithm's shape (the list above), bits of a target's kCaps beside the Op bits.
enum Cap : unsigned {
    kTanhRows = 1u << 8,
    kFinishRows = 1u << 9,
    kFinishTanh = 1u << 10,
    kRowsXr = 1u << 11,
    kRowsPacked = 1u << 12,
    kWeighted = 1u << 13,
    kCell = 1u << 14,
    kRowsSum = 1u << 15,
    kFinishGru = 1u << 16,
    kFinishSum = 1u << 17,
    kGruGates = 1u << 18,
    kStrided = 1u << 19,
    kGruApart = 1u << 20,
    kRowsPre = 1u << 21,
    kScoresMax = 1u << 22,
    kScoresDim = 1u << 23,
};

/// A row stride not known at compile time (kStrided's Stride): the loops choose at run time.
constexpr std::size_t kAnyStride = ~std::size_t{0};
/// A row size not known at compile time (kScoresDim's Dim): the loops take it as an argument.
constexpr std::size_t kAnyDim = ~std::size_t{0};
/// The Op bits of a kCaps.
constexpr unsigned kOps = (1u << 8) - 1;

/// Whether the bit set caps has every bit of what.
constexpr bool has(unsigned caps, unsigned what) noexcept { return (caps & what) == what; }

/// The generic forms for the loops L (L derives from Loops<L>).
template <class L>
struct Loops {
    struct Packed {};  ///< x and r packed once for rows_packed (rows_packed: the target's own)

    /// e_j = (S_j·q' + 2^(t-1)) >> t (rounded half up; t >= 1) for the count states at s (row stride `stride`),
    /// written to e[0 .. count): dot_states's contract (s, q word aligned, stride even, npairs >= 1), kStates at a time.
    static void scores(const q15* s, std::size_t stride, std::size_t count, const q15* q, std::size_t npairs, int t,
                       q15* e) noexcept {
        constexpr std::size_t kStates = L::kStates;
        const std::int32_t half = std::int32_t{1} << (t - 1);
        std::size_t i = 0;
        for (; i + kStates <= count; i += kStates, s += kStates * stride) {
            std::int32_t d[kStates];
            L::template dot_states<kStates>(s, stride, q, npairs, d);
            for (const std::int32_t dk : d) (e++)->raw = static_cast<std::int16_t>((dk + half) >> t);
        }
        for (; i < count; ++i, s += stride) {
            std::int32_t d[1];
            L::template dot_states<1>(s, stride, q, npairs, d);
            (e++)->raw = static_cast<std::int16_t>((d[0] + half) >> t);
        }
    }

    /// max_j e_j over n >= 1 values
    static std::int32_t max_raw(const q15* e, std::size_t n) noexcept {
        std::int32_t m = e[0].raw;
        for (std::size_t j = 1; j < n; ++j) m = e[j].raw > m ? e[j].raw : m;
        return m;
    }

    /// Σ_k v_k·tanh(P_j,k + q_k) over the K values of one key row P_j (Q3.12) and the query q (Q3.12), each sum
    /// saturated to Q3.12 before its tanh: |terms| <= 127·32767 < 2^22, K <= 256, exact in int32. tanh_q15 written
    /// out (kernels/q15/tanh.hpp) as its table allows: the table is non-decreasing, so the interpolation's product is >= 0
    /// and its floor a shift; its last two entries are 32767, so |z| clamped to 32767 gives what the saturation to
    /// -32768 gives; the sign goes onto v_k. (tests/test_fixed.cpp checks tanh_q15 monotonic over every input, and
    /// test_q15_models.cpp kernels/q15/tanh.hpp's tanh_wide, which relies on the same last entries, for every sum.)
    static std::int32_t additive_sum(const q15* key, const q15* q, const std::int8_t* v, std::size_t K) noexcept {
        const std::int16_t* const T = fixed::detail::kTanhTable;
        std::int32_t d = 0;
        for (std::size_t k = 0; k < K; ++k) {
            const std::int32_t z = key[k].raw + q[k].raw;
            // a = min(|z|, 32767) = |z saturated to int16| but for -32768 (the same tanh)
            std::int32_t a = z < 0 ? -z : z;
            a = a > 32767 ? 32767 : a;
            const std::int32_t i = a >> 6, frac = a & 63;
            // y = tanh(a / 4096), as tanh_q15: T[i] + floor(((T[i+1] - T[i])·frac + 32) / 64)
            const std::int32_t y = T[i] + (((T[i + 1] - T[i]) * frac + 32) >> 6);
            // d += v_k·tanh(z) = (v_k with z's sign)·y
            d += (z < 0 ? -v[k] : v[k]) * y;
        }
        return d;
    }

    /// Σ_k |q_k| over dim values (<= 32768·dim)
    static std::uint32_t abs_sum(const q15* q, std::size_t dim) noexcept {
        std::uint32_t sum = 0;
        for (std::size_t k = 0; k < dim; ++k) sum += static_cast<std::uint32_t>(q[k].raw < 0 ? -q[k].raw : q[k].raw);
        return sum;
    }

    /// q'_k = (q_k + 2^(s-1)) >> s (rounded half up, 1 <= s <= 15) into qp (qp may be q); returns Σ_k |q'_k|
    static std::uint32_t round_query(const q15* q, q15* qp, std::size_t dim, int s) noexcept {
        std::uint32_t sum = 0;
        for (std::size_t k = 0; k < dim; ++k) {
            const std::int32_t v = (q[k].raw + (std::int32_t{1} << (s - 1))) >> s;
            qp[k] = q15{static_cast<std::int16_t>(v)};
            sum += static_cast<std::uint32_t>(v < 0 ? -v : v);
        }
        return sum;
    }

    /// softmax's first pass: p_j = min(exp_q16((e_j - m)·to_q16), 65535) where e_j - m > zero_below, else 0 (exp_q16
    /// gives 0 there), written over e_j as p_j - 32768; returns l = Σ p_j (< 65536·n). m >= every e_j (softmax's
    /// max) and to_q16 = 2^(16 - f), f in [-2, 15] (softmax's clamp): the targets' loops rely on both
    static std::uint32_t exps(q15* alpha, std::size_t n, std::int32_t m, std::int32_t to_q16,
                              std::int32_t zero_below) noexcept {
        std::uint32_t l = 0;
        for (q15* const end = alpha + n; alpha != end; ++alpha) {
            const std::int32_t d = alpha->raw - m;
            std::int32_t p = 0;
            if (d > zero_below) {
#if defined(__ARM_ARCH_6M__)
                p = fixed::exp_q16(d * to_q16);  // (a call: inline, ARMv6-M's eight low registers spill the loop's)
#else
                p = fixed::detail::exp_q16_inline(d * to_q16);
#endif
                p = p > 65535 ? 65535 : p;
            }
            alpha->raw = static_cast<std::int16_t>(p - 32768);
            l += static_cast<std::uint32_t>(p);
        }
        return l;
    }

    /// alpha_j = min((p_j · rec) >> down, 32767) in place, p_j = alpha_j + 32768 (softmax's p_j - 32768 to alpha_j;
    /// rec <= 65535, so p_j · rec < 2^32; 16 <= down <= 31)
    static void normalize(q15* alpha, std::size_t n, std::uint32_t rec, int down) noexcept {
        for (q15* const end = alpha + n; alpha != end; ++alpha) {
            const auto p = static_cast<std::uint32_t>(alpha->raw + 32768);
            const std::uint32_t av = (p * rec) >> down;
            alpha->raw = static_cast<std::int16_t>(av > 32767u ? 32767u : av);
        }
    }

    /// The GRU cell (Q15::gru_cell's contract, kernels_q15.hpp) from gi and gh (3·hidden values each, Q3.12, rows r,
    /// z, n) and h_prev (Q15) into h (Q15). The bounds: GruParams<q15> (params.hpp).
    static void gru_cell(const q15* gi, const q15* gh, const q15* h_prev, std::size_t hidden, q15* h) noexcept {
        for (std::size_t d = 0; d < hidden; ++d) {
            // r = σ(gi_r + gh_r), z = σ(gi_z + gh_z) in Q15 (0 .. 32767), the sums saturated to Q3.12
            const std::int32_t r = fixed::detail::sigmoid_inline(sat16(gi[d].raw + gh[d].raw));
            const std::int32_t z = fixed::detail::sigmoid_inline(sat16(gi[hidden + d].raw + gh[hidden + d].raw));
            // n = tanh(gi_n + r·gh_n / 2^15), the product rounded half up (|r·gh_n| < 2^30); tanh_wide: the sum's
            // tanh as tanh_q15 of it saturated to int16
            const std::int32_t rg = (r * gh[2 * hidden + d].raw + (1 << 14)) >> 15;
            const std::int32_t n = fixed::detail::tanh_wide(gi[2 * hidden + d].raw + rg);
            // h = n + z·(h_prev - n) / 2^15, rounded half up: |z·(h_prev - n)| + 2^14 < 2^31, h between n and h_prev
            h[d] = q15{static_cast<std::int16_t>(n + ((z * (h_prev[d].raw - n) + (1 << 14)) >> 15))};
        }
    }

    /// v (|v| < 2^17) saturated to int16
    static std::int16_t sat16(std::int32_t v) noexcept {
        return static_cast<std::int16_t>(v > 32767 ? 32767 : (v < -32768 ? -32768 : v));
    }
};

/// The plain C++ loops (q15/plain.hpp) and every generic form: what a target without loops of its own runs, and the
/// twin every target's loops are checked against. Groups of more than two, so that the host's tests (and
/// sanitizers) take every remainder path of q15/{affine,attention,cells}.hpp.
struct PlainLoops : Loops<PlainLoops> {
    static constexpr std::size_t kRows = 4, kStates = 3, kColumns = 4;
    static constexpr unsigned kCaps = 0;
    template <std::size_t G>
    static void dot_rows(const std::int8_t* w, std::size_t ld, const q15* v, std::size_t n,
                         std::int32_t* acc) noexcept {
        q15_plain::dot_rows<G>(w, ld, v, n, acc);
    }
    template <std::size_t G>
    static void dot_states(const q15* s, std::size_t stride, const q15* q, std::size_t npairs,
                           std::int32_t* d) noexcept {
        q15_plain::dot_states<G>(s, stride, q, npairs, d);
    }
    template <std::size_t G>
    static void columns(const q15* a, const q15* v, std::size_t stride, std::size_t count, std::int32_t* acc) noexcept {
        q15_plain::columns<G>(a, v, stride, count, acc);
    }
};

namespace detail {
template <class F>
constexpr bool same(F a, F b) noexcept {
    return a == b;
}
/// whether L's op is its own (hides Loops<L>'s)
template <class L>
constexpr unsigned owned() noexcept {
    using B = Loops<L>;
    return (same(&L::scores, &B::scores) ? 0u : kScores) | (same(&L::max_raw, &B::max_raw) ? 0u : kMaxRaw) |
           (same(&L::additive_sum, &B::additive_sum) ? 0u : kAdditiveSum) |
           (same(&L::abs_sum, &B::abs_sum) ? 0u : kAbsSum) |
           (same(&L::round_query, &B::round_query) ? 0u : kRoundQuery) | (same(&L::exps, &B::exps) ? 0u : kExps) |
           (same(&L::normalize, &B::normalize) ? 0u : kNormalize) | (same(&L::gru_cell, &B::gru_cell) ? 0u : kGruCell);
}
}  // namespace detail

/// The rules between a target's capabilities, checked where q15/{affine,attention,cells}.hpp take the loops L.
template <class L>
constexpr bool check() noexcept {
    static_assert(L::kRows >= 1 && L::kStates >= 1 && L::kColumns >= 2 && L::kColumns % 2 == 0,
                  "q15 loops: kRows and kStates at least 1, kColumns even and at least 2");
    constexpr unsigned caps = L::kCaps;
    static_assert(detail::owned<L>() == (caps & kOps),
                  "q15 loops: kCaps must list exactly the generic operations the target defines itself (a misspelt "
                  "name would silently take the generic form)");
    static_assert(!has(caps, kFinishRows) || has(caps, kTanhRows),
                  "q15 loops: kFinishRows needs kTanhRows (it leaves the tanh)");
    static_assert(!has(caps, kTanhRows | kFinishTanh),
                  "q15 loops: kTanhRows (every row's tanh at the end) and kFinishTanh (each row finished with its "
                  "tanh) are two shapes of affine_tanh: a target takes one");
    static_assert(!has(caps, kRowsPre) || has(caps, kFinishRows),
                  "q15 loops: kRowsPre writes finish_rows's pre-activations: it needs kFinishRows");
    static_assert(!has(caps, kRowsXr) || has(caps, kFinishTanh),
                  "q15 loops: kRowsXr feeds finish_tanh: it needs kFinishTanh");
    static_assert(!has(caps, kRowsPacked) || has(caps, kFinishTanh),
                  "q15 loops: kRowsPacked feeds finish_tanh: it needs kFinishTanh");
    static_assert(!has(caps, kRowsSum) || has(caps, kRowsPacked),
                  "q15 loops: kRowsSum reads the packed x and r: it needs kRowsPacked");
    static_assert(!has(caps, kGruApart) || has(caps, kRowsPacked | kFinishGru),
                  "q15 loops: kGruApart reads the packed x and h and finishes as finish_gru: it needs kRowsPacked and "
                  "kFinishGru");
    static_assert(!has(caps, kScoresMax) || has(caps, kScores),
                  "q15 loops: kScoresMax is the target's scores with their max: it needs kScores");
    static_assert(!has(caps, kStrided) || (has(caps, kScores) && has(caps, kWeighted)),
                  "q15 loops: kStrided gives scores and weighted_sum forms by stride: it needs kScores and kWeighted");
    static_assert(!has(caps, kScoresDim) || has(caps, kScores),
                  "q15 loops: kScoresDim is the target's scores for one row size: it needs kScores");
    return true;
}

}  // namespace sarnn::kernel::q15_loops

#endif
