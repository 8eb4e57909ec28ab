// sarnn/kernels/neon/softmax.hpp: y = softmax(y) in place over n >= 1 values (n known at run time: the states
// attended), on NEON float32x4_t: the max, then p_j = exp(y_j - max) and their sum (exp_shifted: the context takes the
// max from its scores' pass and the division into its weighted sum), then p_j / Σ p, each pass whole
// vectors and the last n % 4 values by one vector of 1 to 3 lanes (a switch to the compile-time part loads and stores
// of kernels/neon/math.hpp, the lanes past n -inf, so they weigh exp(-inf) = 0). Subtracting the max, nothing
// overflows. Reads and writes exactly y[0..n). Cost: n exps (in vectors), 3 passes over y.
#ifndef SARNN_KERNELS_NEON_SOFTMAX_HPP
#define SARNN_KERNELS_NEON_SOFTMAX_HPP

#include <cstddef>
#include <limits>
#include <type_traits>

#include "sarnn/kernels/neon/math.hpp"

namespace sarnn::kernel::neon {

/// The first N < 4 values at p in lanes 0..N-1, `fill` in the others; reads exactly N values.
template <std::size_t N>
SARNN_NEON_INLINE F load_part_fill(const float* p, F fill) noexcept {
    static_assert(N >= 1 && N <= 3, "sarnn: load_part_fill<N>: 1 <= N <= 3");
    F v = vld1q_lane_f32(p, fill, 0);
    if constexpr (N >= 2) v = vld1q_lane_f32(p + 1, v, 1);
    if constexpr (N == 3) v = vld1q_lane_f32(p + 2, v, 2);
    return v;
}

/// f(std::integral_constant<std::size_t, r>{}) for the run-time r in 1..3 (nothing for 0): the tails of a run of
/// values whose length is known at run time only, each compiled for its length.
template <class Fn>
SARNN_NEON_INLINE void with_tail(std::size_t r, Fn f) noexcept {
    switch (r) {
    case 1: f(std::integral_constant<std::size_t, 1>{}); break;
    case 2: f(std::integral_constant<std::size_t, 2>{}); break;
    case 3: f(std::integral_constant<std::size_t, 3>{}); break;
    default: break;
    }
}

/// The largest lane of v.
SARNN_NEON_INLINE float lanes_max(F v) noexcept {
#if defined(__aarch64__)
    return vmaxvq_f32(v);
#else
    const float32x2_t m = vpmax_f32(vget_low_f32(v), vget_high_f32(v));
    return vget_lane_f32(vpmax_f32(m, m), 0);
#endif
}
/// The sum of v's lanes.
SARNN_NEON_INLINE float lanes_sum(F v) noexcept {
#if defined(__aarch64__)
    return vaddvq_f32(v);
#else
    const float32x2_t s = vadd_f32(vget_low_f32(v), vget_high_f32(v));
    return vget_lane_f32(vpadd_f32(s, s), 0);
#endif
}

/// y_j = exp(y_j - m) for j < n (m >= every y_j); returns Σ_j y_j, at least 1 when m is one of them.
SARNN_NEON_INLINE float exp_shifted(float* y, std::size_t n, float m) noexcept {
    const F neg_inf = vdupq_n_f32(-std::numeric_limits<float>::infinity());
    const F mv = vdupq_n_f32(m);
    const std::size_t whole = n / 4 * 4;
    F lv = vdupq_n_f32(0.0f);
    for (std::size_t j = 0; j < whole; j += 4) {
        const F p = exp(vsubq_f32(vld1q_f32(y + j), mv));
        lv = vaddq_f32(lv, p);
        vst1q_f32(y + j, p);
    }
    with_tail(n - whole, [&](auto r) SARNN_NEON_LAMBDA {
        const F p = exp(vsubq_f32(load_part_fill<r()>(y + whole, neg_inf), mv));
        lv = vaddq_f32(lv, p);
        store_part<r()>(y + whole, p);
    });
    return lanes_sum(lv);
}

/// y[0..n) = softmax(y[0..n)), n >= 1, in place; y finite (the scores).
SARNN_NEON_INLINE void softmax_run(float* y, std::size_t n) noexcept {
    const F neg_inf = vdupq_n_f32(-std::numeric_limits<float>::infinity());
    const std::size_t whole = n / 4 * 4;
    // m = max_j y_j
    F mv = neg_inf;
    for (std::size_t j = 0; j < whole; j += 4) mv = vmaxq_f32(mv, vld1q_f32(y + j));
    with_tail(n - whole,
              [&](auto r) SARNN_NEON_LAMBDA { mv = vmaxq_f32(mv, load_part_fill<r()>(y + whole, neg_inf)); });
    // p_j = exp(y_j - m); l = Σ_j p_j
    const float l = exp_shifted(y, n, lanes_max(mv));
    // y_j = p_j / l
    const F inv = vdupq_n_f32(1.0f / l);
    for (std::size_t j = 0; j < whole; j += 4) vst1q_f32(y + j, vmulq_f32(vld1q_f32(y + j), inv));
    with_tail(n - whole,
              [&](auto r) SARNN_NEON_LAMBDA { store_part<r()>(y + whole, vmulq_f32(load_part<r()>(y + whole), inv)); });
}

}  // namespace sarnn::kernel::neon

#endif
