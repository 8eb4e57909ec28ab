// sarnn/kernels/neon/lstm_cell.hpp: the LSTM cell (kernels.hpp's lstm_cell) for Hidden = H known at compile time, on
// NEON float32x4_t: c = σ(z_f + b_f) ⊙ c_prev + σ(z_i + b_i) ⊙ tanh(z_g + b_g), h = σ(z_o + b_o) ⊙ tanh(c). Whole
// vectors of H; the last H % 4 lanes by one more vector ending at H (its first lanes computed again, to the same
// values), or for H < 4 by loads and stores of H lanes. Cost O(H): 3·H σ and 2·H tanh (and up to 3 more lanes each).
#ifndef SARNN_KERNELS_NEON_LSTM_CELL_HPP
#define SARNN_KERNELS_NEON_LSTM_CELL_HPP

#include <cstddef>

#include "sarnn/kernels/neon/math.hpp"

namespace sarnn::kernel::neon {

/// c = σ(f) ⊙ c_prev + σ(i) ⊙ tanh(g); h = σ(o) ⊙ tanh(c)
SARNN_NEON_INLINE void lstm_lanes(F zi, F zf, F zg, F zo, F c_prev, F& c, F& h) noexcept {
    c = vaddq_f32(vmulq_f32(sigmoid(zf), c_prev), vmulq_f32(sigmoid(zi), tanh(zg)));
    h = vmulq_f32(sigmoid(zo), tanh(c));
}

/// The cell at lanes d..d+4 of every gate (all inside 4·H values).
template <std::size_t H>
SARNN_NEON_INLINE void lstm_vector(const float* z, const float* b, const float* c_prev, std::size_t d, float* c,
                                   float* h) noexcept {
    F cv, hv;
    lstm_lanes(vaddq_f32(vld1q_f32(z + d), vld1q_f32(b + d)), vaddq_f32(vld1q_f32(z + H + d), vld1q_f32(b + H + d)),
               vaddq_f32(vld1q_f32(z + 2 * H + d), vld1q_f32(b + 2 * H + d)),
               vaddq_f32(vld1q_f32(z + 3 * H + d), vld1q_f32(b + 3 * H + d)), vld1q_f32(c_prev + d), cv, hv);
    vst1q_f32(c + d, cv);
    vst1q_f32(h + d, hv);
}

/// z, b: 4·H values (gates i, f, g, o); c_prev, c, h: H values each (c must not alias c_prev).
template <std::size_t H>
SARNN_NEON_INLINE void lstm_cell_lanes(const float* z, const float* b, const float* c_prev, float* c,
                                       float* h) noexcept {
    static_assert(H >= 1, "sarnn: lstm_cell<H>: H >= 1");
    constexpr std::size_t full = H / 4 * 4;
    for (std::size_t d = 0; d < full; d += 4) lstm_vector<H>(z, b, c_prev, d, c, h);
    if constexpr (H % 4 != 0 && H > 4) {
        // the last vector ends at H: lanes before full are computed again from the same values
        lstm_vector<H>(z, b, c_prev, H - 4, c, h);
    } else if constexpr (H < 4) {
        F cv, hv;
        lstm_lanes(vaddq_f32(load_part<H>(z), load_part<H>(b)), vaddq_f32(load_part<H>(z + H), load_part<H>(b + H)),
                   vaddq_f32(load_part<H>(z + 2 * H), load_part<H>(b + 2 * H)),
                   vaddq_f32(load_part<H>(z + 3 * H), load_part<H>(b + 3 * H)), load_part<H>(c_prev), cv, hv);
        store_part<H>(c, cv);
        store_part<H>(h, hv);
    }
}

}  // namespace sarnn::kernel::neon

#endif
