// sarnn/kernels/cortex_m/lstm_cell.hpp: the LSTM cell of the Cortex-M float set (kernels.hpp's lstm_cell), a lane at
// a time: c = σ(a_f) ⊙ c_prev + σ(a_i) ⊙ tanh(a_g), h = σ(a_o) ⊙ tanh(c) with a = z + b. The gates inline
// (cortex_m/math.hpp's gate_sigmoid, gate_tanh) when the lane's pre-activations are small (the sum of their
// magnitudes below kGateLimit: nearly always), by sigmoid and tanh otherwise (large, Inf or NaN). lstm_lane is also
// the run-time set's lane (kernels/cortex_m/set.hpp); lstm_cell_lanes<H> is the shaped form's loop, of H passes.
// Cost per lane: 3 σ, 2 tanh, each one division.
#ifndef SARNN_KERNELS_CORTEX_M_LSTM_CELL_HPP
#define SARNN_KERNELS_CORTEX_M_LSTM_CELL_HPP

#include <cmath>
#include <cstddef>

#include "sarnn/kernels/cortex_m/math.hpp"

namespace sarnn::kernel::cortex_m {

/// One lane: the pre-activations a_i, a_f, a_g, a_o and c_prev in, c and h out.
SARNN_CM_INLINE void lstm_lane(float ai, float af, float ag, float ao, float c_prev, float& c, float& h) noexcept {
    // the inline gates when every |a| < kGateLimit (their sum is below it: false for NaN and Inf too)
    if (__builtin_expect(std::fabs(ai) + std::fabs(af) + std::fabs(ag) + std::fabs(ao) < kGateLimit, 1)) {
        // c = σ(a_f) ⊙ c_prev + σ(a_i) ⊙ tanh(a_g); h = σ(a_o) ⊙ tanh(c)
        const float cd = gate_sigmoid(af) * c_prev + gate_sigmoid(ai) * gate_tanh(ag);
        c = cd;
        h = gate_sigmoid(ao) * (std::fabs(cd) < kGateLimit ? gate_tanh(cd) : tanh(cd));
        return;
    }
    const float i = sigmoid(ai), f = sigmoid(af), g = tanh(ag), o = sigmoid(ao);
    // c = f ⊙ c_prev + i ⊙ g; h = o ⊙ tanh(c)
    c = f * c_prev + i * g;
    h = o * tanh(c);
}

/// z, b: 4·H values (gates i, f, g, o); c_prev, c, h: H values each (c must not alias c_prev).
template <std::size_t H>
SARNN_CM_INLINE void lstm_cell_lanes(const float* z, const float* b, const float* c_prev, float* c, float* h) noexcept {
    static_assert(H >= 1, "sarnn: lstm_cell<H>: H >= 1");
    for (std::size_t d = 0; d < H; ++d)
        lstm_lane(z[d] + b[d], z[H + d] + b[H + d], z[2 * H + d] + b[2 * H + d], z[3 * H + d] + b[3 * H + d], c_prev[d],
                  c[d], h[d]);
}

}  // namespace sarnn::kernel::cortex_m

#endif
