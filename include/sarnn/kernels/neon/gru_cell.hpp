// sarnn/kernels/neon/gru_cell.hpp: the GRU cell (kernels.hpp's gru_cell) for Hidden = H known at compile time, on NEON
// float32x4_t: r = σ(gi_r + b_ir + gh_r + b_hr), z = σ(gi_z + b_iz + gh_z + b_hz), n = tanh(gi_n + b_in + r ⊙ (gh_n +
// b_hn)), h = n + z ⊙ (h_prev - n). Whole vectors of H; the last H % 4 lanes by one more vector ending at H (its first
// lanes computed again, to the same values), or for H < 4 by loads and stores of H lanes. Cost O(H): 2·H σ, H tanh.
#ifndef SARNN_KERNELS_NEON_GRU_CELL_HPP
#define SARNN_KERNELS_NEON_GRU_CELL_HPP

#include <cstddef>

#include "sarnn/kernels/neon/math.hpp"

namespace sarnn::kernel::neon {

/// r = σ(r_pre), z = σ(z_pre), n = tanh(ni + r ⊙ nh); h = n + z ⊙ (h_prev - n)
SARNN_NEON_INLINE F gru_lanes(F r_pre, F z_pre, F ni, F nh, F h_prev) noexcept {
    const F r = sigmoid(r_pre);
    const F z = sigmoid(z_pre);
    const F n = tanh(madd(r, nh, ni));
    return madd(z, vsubq_f32(h_prev, n), n);
}

/// The gate rows' lanes d..d+N of gate g: gi + b_ih (+ gh + b_hh for r and z), loaded by Load.
template <std::size_t H, class Load>
SARNN_NEON_INLINE F gru_lanes_at(const float* gi, const float* gh, const float* b_ih, const float* b_hh,
                                 const float* h_prev, std::size_t d, Load load) noexcept {
    // r, z pre-activations: (gi + b_ih) + (gh + b_hh)
    const F r_pre = vaddq_f32(vaddq_f32(load(gi + d), load(b_ih + d)), vaddq_f32(load(gh + d), load(b_hh + d)));
    const F z_pre = vaddq_f32(vaddq_f32(load(gi + H + d), load(b_ih + H + d)),
                              vaddq_f32(load(gh + H + d), load(b_hh + H + d)));
    const F ni = vaddq_f32(load(gi + 2 * H + d), load(b_ih + 2 * H + d));
    const F nh = vaddq_f32(load(gh + 2 * H + d), load(b_hh + 2 * H + d));
    return gru_lanes(r_pre, z_pre, ni, nh, load(h_prev + d));
}

/// gi, gh, b_ih, b_hh: 3·H values (gates r, z, n); h_prev, h: H values each (h must not alias h_prev).
template <std::size_t H>
SARNN_NEON_INLINE void gru_cell_lanes(const float* gi, const float* gh, const float* b_ih, const float* b_hh,
                                      const float* h_prev, float* h) noexcept {
    static_assert(H >= 1, "sarnn: gru_cell<H>: H >= 1");
    constexpr std::size_t full = H / 4 * 4;
    const auto whole = [](const float* p) SARNN_NEON_LAMBDA { return vld1q_f32(p); };
    for (std::size_t d = 0; d < full; d += 4) vst1q_f32(h + d, gru_lanes_at<H>(gi, gh, b_ih, b_hh, h_prev, d, whole));
    if constexpr (H % 4 != 0 && H > 4) {
        // the last vector ends at H: lanes before full are computed again from the same values
        vst1q_f32(h + H - 4, gru_lanes_at<H>(gi, gh, b_ih, b_hh, h_prev, H - 4, whole));
    } else if constexpr (H < 4) {
        const auto part = [](const float* p) SARNN_NEON_LAMBDA { return load_part<H>(p); };
        store_part<H>(h, gru_lanes_at<H>(gi, gh, b_ih, b_hh, h_prev, 0, part));
    }
}

}  // namespace sarnn::kernel::neon

#endif
