// sarnn/kernels/cortex_m/gru_cell.hpp: the GRU cell of the Cortex-M float set (kernels.hpp's gru_cell), a lane at a
// time: r = σ(a_r), z = σ(a_z), n = tanh(x_n + r·h_n), h = n + z ⊙ (h_prev - n), with a_r = gi_r + b_ir + (gh_r +
// b_hr), a_z alike, x_n = gi_n + b_in, h_n = gh_n + b_hn. The gates inline (cortex_m/math.hpp) when |a_r| + |a_z| +
// |x_n| + |h_n| < kGateLimit (>= |a_n|, 0 < r < 1; false for NaN and Inf too), by sigmoid and tanh otherwise.
// gru_lane is also the run-time set's lane (kernels/cortex_m/set.hpp); gru_cell_lanes<H> is the shaped form's loop.
// Cost per lane: 2 σ and 1 tanh, each one division.
#ifndef SARNN_KERNELS_CORTEX_M_GRU_CELL_HPP
#define SARNN_KERNELS_CORTEX_M_GRU_CELL_HPP

#include <cmath>
#include <cstddef>

#include "sarnn/kernels/cortex_m/math.hpp"

namespace sarnn::kernel::cortex_m {

/// One lane: the pre-activations a_r, a_z, x_n, h_n and h_prev in, the new h out.
SARNN_CM_INLINE float gru_lane(float ar, float az, float xn, float hn, float h_prev) noexcept {
    if (__builtin_expect(std::fabs(ar) + std::fabs(az) + std::fabs(xn) + std::fabs(hn) < kGateLimit, 1)) {
        // n = tanh(x_n + σ(a_r)·h_n); h = n + σ(a_z) ⊙ (h_prev - n)
        const float n = gate_tanh(xn + gate_sigmoid(ar) * hn);
        return n + gate_sigmoid(az) * (h_prev - n);
    }
    const float r = sigmoid(ar), z = sigmoid(az), n = tanh(xn + r * hn);
    // h = (1 - z) ⊙ n + z ⊙ h_prev = n + z ⊙ (h_prev - n)
    return n + z * (h_prev - n);
}

/// gi, gh, b_ih, b_hh: 3·H values (gates r, z, n); h_prev, h: H values each (h must not alias h_prev).
template <std::size_t H>
SARNN_CM_INLINE void gru_cell_lanes(const float* gi, const float* gh, const float* b_ih, const float* b_hh,
                                    const float* h_prev, float* h) noexcept {
    static_assert(H >= 1, "sarnn: gru_cell<H>: H >= 1");
    for (std::size_t d = 0; d < H; ++d)
        h[d] = gru_lane(gi[d] + b_ih[d] + (gh[d] + b_hh[d]), gi[H + d] + b_ih[H + d] + (gh[H + d] + b_hh[H + d]),
                        gi[2 * H + d] + b_ih[2 * H + d], gh[2 * H + d] + b_hh[2 * H + d], h_prev[d]);
}

}  // namespace sarnn::kernel::cortex_m

#endif
