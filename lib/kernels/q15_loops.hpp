// lib/kernels/q15_loops.hpp: the seam between the q15 kernels (lib/kernels/q15.cpp: the arithmetic every target
// shares, its rounding and bounds) and each target's inner loops. A target's file defines, in namespace
// sarnn::kernel::q15_loops, the loops with the contracts of q15_plain.hpp and how many rows, states or columns one
// pass takes:
//   kRows     dot_rows<G>(w, ld, v, n, acc)            for G = 1, 2 and kRows   (any n, any alignment)
//   kStates   dot_states<G>(s, stride, q, npairs, d)   for G = 1 and kStates    (s, q word aligned, stride even,
//                                                                                npairs >= 1)
//   kColumns  columns<G>(a, v, stride, count, acc)     for G = 2 and kColumns   (a, v word aligned, stride even,
//                                                                                count even, >= 2)
// and, where it has its own (SARNN_Q15_OWN_SCORES, SARNN_Q15_OWN_MAX; else the ones at the end of this file, built on
// dot_states), scores(s, stride, count, q, npairs, t, e): the rounded scores of count states, max_raw(e, n),
// (SARNN_Q15_OWN_EXP) exps(alpha, n, m, to_q16, zero_below), softmax's first pass, (SARNN_Q15_OWN_NORMALIZE)
// normalize(alpha, n, rec, down), softmax's last pass, and (SARNN_Q15_OWN_ADDITIVE) additive_sum(key, q, v, K), the
// additive align's score of one state before its requantisation; (SARNN_Q15_OWN_QUERY) abs_sum(q, dim) and
// round_query(q, qp, dim, s), prepare_query's sums and rounding. A target may also have (SARNN_Q15_OWN_TANH)
// tanh_rows(y, n), y_k = tanh_q15(y_k) in place, which affine_tanh then takes over all rows after their
// pre-activations (instead of one tanh per row), with finish_rows(...) (SARNN_Q15_OWN_FINISH: the pre-activations of
// a chunk of rows from their sums, or false where its factors do not fit it), and (SARNN_Q15_OWN_WEIGHTED)
// weighted_sum(base, n, stride, dim, alpha, c), the whole context c = Σ_j alpha_j S_j (q15.cpp's, rounded alike),
// and (SARNN_Q15_OWN_CELL) lstm_cell(z, c~, hidden, c, h), Q15::lstm_cell's contract; or (SARNN_Q15_OWN_FINISH_TANH,
// no generic form: q15.cpp's finish_row is the one) finish_tanh<UP>(s, rows, m, shift, b, x_m, y), affine_tanh's
// rows finished from their sums, and (SARNN_Q15_OWN_ROWS_XR) rows4_xr(w, ld, x, nx, r, nr, s), both parts' sums of
// four rows, and (SARNN_Q15_OWN_ROWS_PACKED) packs(nx, nr), pack(x, nx, r, nr, p) into a Packed buffer and
// rows_packed(w, ld, p, nx, nr, groups, s), both parts' sums of groups of four rows against x and r packed once.
// The files, chosen at compile time:
//   q15_mve.hpp    Helium (MVE integer: M55, M85): eight int16 per vector, VMLADAVA for the dot products
//                  (cmake -DSARNN_Q15_PLAIN_LOOPS=ON takes the plain C++ instead, to compare the two on one core;
//                  the option is read here only: the Thumb and DSP loops below do not look at it)
//   q15_thumb.hpp  ARMv6-M and ARMv7-M (M0, M0+, M3): Thumb assembly
//   q15_dsp.hpp    ARMv7E-M with the DSP extension (M4, M7): two 16-bit multiply-adds per instruction (SMLAD)
//   (this file)    everything else: q15_plain.hpp; and every target in an unoptimised build (no __OPTIMIZE__, -O0),
//                  whose frame keeps registers the assembly loops need (GCC: "impossible constraints")
#ifndef SARNN_LIB_KERNELS_Q15_LOOPS_HPP
#define SARNN_LIB_KERNELS_Q15_LOOPS_HPP

#include <cstddef>
#include <cstdint>

#include "kernels/exp.hpp"
#include "kernels/q15_plain.hpp"
#include "kernels/tanh.hpp"
#include "sarnn/fixed.hpp"

#if defined(__ARM_FEATURE_MVE) && !SARNN_Q15_PLAIN_LOOPS && defined(__OPTIMIZE__)
#include "kernels/q15_mve.hpp"
#else
namespace sarnn::kernel::q15_loops {
// The group sizes a target has no loop of its own for: q15_plain's (the target's file specialises the others).
template <std::size_t G>
inline void dot_rows(const std::int8_t* w, std::size_t ld, const q15* v, std::size_t n, std::int32_t* acc) noexcept {
    q15_plain::dot_rows<G>(w, ld, v, n, acc);
}
template <std::size_t G>
inline void dot_states(const q15* s, std::size_t stride, const q15* q, std::size_t npairs, std::int32_t* d) noexcept {
    q15_plain::dot_states<G>(s, stride, q, npairs, d);
}
template <std::size_t G>
inline void columns(const q15* a, const q15* v, std::size_t stride, std::size_t count, std::int32_t* acc) noexcept {
    q15_plain::columns<G>(a, v, stride, count, acc);
}
}  // namespace sarnn::kernel::q15_loops
#if defined(__thumb__) && defined(__ARM_FEATURE_DSP) && defined(__ARM_ARCH_7EM__) && defined(__OPTIMIZE__)
#include "kernels/q15_dsp.hpp"
#elif defined(__thumb__) && (defined(__ARM_ARCH_6M__) || defined(__ARM_ARCH_7M__) || defined(__ARM_ARCH_7EM__)) && \
    defined(__OPTIMIZE__)
#include "kernels/q15_thumb.hpp"
#else
namespace sarnn::kernel::q15_loops {
// groups of more than two, so that the host's tests (and sanitizers) take every remainder path of q15.cpp
constexpr std::size_t kRows = 4, kStates = 3, kColumns = 4;
}  // namespace sarnn::kernel::q15_loops
#endif
#endif

namespace sarnn::kernel::q15_loops {

#if !defined(SARNN_Q15_OWN_SCORES)
/// e_j = (S_j·q' + 2^(t-1)) >> t (rounded half up; t >= 1) for the count states at s (row stride `stride`), written
/// to e[0 .. count): dot_states's contract (s, q word aligned, stride even, npairs >= 1), kStates at a time.
inline void scores(const q15* s, std::size_t stride, std::size_t count, const q15* q, std::size_t npairs, int t,
                   q15* e) noexcept {
    const std::int32_t half = std::int32_t{1} << (t - 1);
    std::size_t i = 0;
    for (; i + kStates <= count; i += kStates, s += kStates * stride) {
        std::int32_t d[kStates];
        dot_states<kStates>(s, stride, q, npairs, d);
        for (const std::int32_t dk : d) (e++)->raw = static_cast<std::int16_t>((dk + half) >> t);
    }
    for (; i < count; ++i, s += stride) {
        std::int32_t d[1];
        dot_states<1>(s, stride, q, npairs, d);
        (e++)->raw = static_cast<std::int16_t>((d[0] + half) >> t);
    }
}
#endif

#if !defined(SARNN_Q15_OWN_MAX)
/// max_j e_j over n >= 1 values
inline std::int32_t max_raw(const q15* e, std::size_t n) noexcept {
    std::int32_t m = e[0].raw;
    for (std::size_t j = 1; j < n; ++j) m = e[j].raw > m ? e[j].raw : m;
    return m;
}
#endif

#if !defined(SARNN_Q15_OWN_ADDITIVE)
/// Σ_k v_k·tanh(P_j,k + q_k) over the K values of one key row P_j (Q3.12) and the query q (Q3.12), each sum
/// saturated to Q3.12 before its tanh: |terms| <= 127·32767 < 2^22, K <= 256, exact in int32. tanh_q15 written out
/// (kernels/tanh.hpp) as its table allows: the table is non-decreasing, so the interpolation's product is >= 0 and
/// its floor a shift; its last two entries are 32767, so |z| clamped to 32767 gives what the saturation to -32768
/// gives; the sign goes onto v_k. (tests/test_fixed.cpp checks tanh_q15 monotonic over every input, and
/// test_q15_models.cpp kernels/tanh.hpp's tanh_wide, which relies on the same last entries, for every sum.)
inline std::int32_t additive_sum(const q15* key, const q15* q, const std::int8_t* v, std::size_t K) noexcept {
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
#endif

#if !defined(SARNN_Q15_OWN_QUERY)
/// Σ_k |q_k| over dim values (<= 32768·dim)
inline std::uint32_t abs_sum(const q15* q, std::size_t dim) noexcept {
    std::uint32_t sum = 0;
    for (std::size_t k = 0; k < dim; ++k) sum += static_cast<std::uint32_t>(q[k].raw < 0 ? -q[k].raw : q[k].raw);
    return sum;
}

/// q'_k = (q_k + 2^(s-1)) >> s (rounded half up, 1 <= s <= 15) into qp (qp may be q); returns Σ_k |q'_k|
inline std::uint32_t round_query(const q15* q, q15* qp, std::size_t dim, int s) noexcept {
    std::uint32_t sum = 0;
    for (std::size_t k = 0; k < dim; ++k) {
        const std::int32_t v = (q[k].raw + (std::int32_t{1} << (s - 1))) >> s;
        qp[k] = q15{static_cast<std::int16_t>(v)};
        sum += static_cast<std::uint32_t>(v < 0 ? -v : v);
    }
    return sum;
}
#endif

#if !defined(SARNN_Q15_OWN_EXP)
/// softmax's first pass: p_j = min(exp_q16((e_j - m)·to_q16), 65535) where e_j - m > zero_below, else 0 (exp_q16
/// gives 0 there), written over e_j as p_j - 32768; returns l = Σ p_j (< 65536·n). m >= every e_j (softmax's max:
/// the targets' loops rely on it)
inline std::uint32_t exps(q15* alpha, std::size_t n, std::int32_t m, std::int32_t to_q16,
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
#endif

#if !defined(SARNN_Q15_OWN_NORMALIZE)
/// alpha_j = min((p_j · rec) >> down, 32767) in place, p_j = alpha_j + 32768 (softmax's p_j - 32768 to alpha_j;
/// rec <= 65535, so p_j · rec < 2^32; 16 <= down <= 31)
inline void normalize(q15* alpha, std::size_t n, std::uint32_t rec, int down) noexcept {
    for (q15* const end = alpha + n; alpha != end; ++alpha) {
        const auto p = static_cast<std::uint32_t>(alpha->raw + 32768);
        const std::uint32_t av = (p * rec) >> down;
        alpha->raw = static_cast<std::int16_t>(av > 32767u ? 32767u : av);
    }
}
#endif

}  // namespace sarnn::kernel::q15_loops

#endif
