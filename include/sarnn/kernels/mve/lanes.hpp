// sarnn/kernels/mve/lanes.hpp: the loads and stores of four lanes of the shaped cells (kernels/mve/lstm_cell.hpp,
// gru_cell.hpp) on Helium (MVE float): whole (VLDRW, VSTRW) or, for the last lanes of a row, under the tail predicate
// p (VCTP: the lanes past the row read as 0 and never written). Tail is known at compile time, so a whole pass holds
// no predicate.
#ifndef SARNN_KERNELS_MVE_LANES_HPP
#define SARNN_KERNELS_MVE_LANES_HPP

#include <arm_mve.h>

namespace sarnn::kernel::mve_shaped {

/// The four lanes at a (Tail: those of p, the others 0).
template <bool Tail>
inline float32x4_t load_lanes(const float* a, mve_pred16_t p) noexcept {
    if constexpr (Tail)
        return vldrwq_z_f32(a, p);
    else
        return vld1q_f32(a);
}
/// v into the four lanes at a (Tail: those of p only).
template <bool Tail>
inline void store_lanes(float* a, float32x4_t v, mve_pred16_t p) noexcept {
    if constexpr (Tail)
        vstrwq_p_f32(a, v, p);
    else
        vst1q_f32(a, v);
}

}  // namespace sarnn::kernel::mve_shaped

#endif
