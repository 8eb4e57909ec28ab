// sarnn/kernels/q15/mve/common.hpp: the q15 kernels' inner loops (the seam: q15/seam.hpp) for cores with Helium (MVE
// integer: Cortex-M55, M85). Eight int16 per vector:   dot_rows, dot_states  VLDRB.S16 widens eight int8 weights to
// int16 in the load; VMLADAVA.S16 multiplies eight                         pairs and adds all eight products to a
// 32-bit sum in one instruction; the last vector is                         loaded under a tail predicate (VCTP.16: the
// lanes past n read as zero, so they add 0).   columns               VLDRH.S32 widens four int16 of a state's row to
// int32 lanes; VMLA.S32 adds them times                         alpha_j (a scalar) to four column sums; sixteen columns
// per pass.   scores, max_raw, exps, normalize, abs_sum, round_query, weighted_sum, tanh_rows, additive_sum, lstm_cell
// the rest of a step (q15/seam.hpp's list) vectorised: tables read by gather loads (VLDRH,
// VLDRW with a vector of offsets), the weighted sum's columns gathered eight states at a                         time,
// the roundings as VRSHL/VRSHR/VQRDMULH where those compute the same integers. Each computes exactly what q15/plain.hpp
// computes: the same integer products, summed modulo 2^32 in another order, which is the same int32 sum since
// q15/{affine,attention,cells}.hpp's bounds keep every sum (and so every partial sum's true value) in int32: VMLADAVA and VMLA wrap like int32
// addition and never saturate.
#ifndef SARNN_KERNELS_Q15_MVE_COMMON_HPP
#define SARNN_KERNELS_Q15_MVE_COMMON_HPP

#include <arm_mve.h>

#include <cstddef>
#include <cstdint>

#include "sarnn/kernels/q15/exp.hpp"
#include "sarnn/kernels/q15/plain.hpp"
#include "sarnn/kernels/q15/seam.hpp"
#include "sarnn/kernels/q15/tanh.hpp"
#include "sarnn/fixed.hpp"

namespace sarnn::kernel::q15_mve {

constexpr std::size_t kRows = 4, kStates = 4, kColumns = 16;

namespace mve {

/// The raw int16 of q15 values (a struct of one int16: the same bytes).
__attribute__((always_inline)) inline const std::int16_t* raw(const q15* p) noexcept {
    return reinterpret_cast<const std::int16_t*>(p);  // NOLINT(cppcoreguidelines-pro-type-reinterpret-cast)
}
__attribute__((always_inline)) inline std::int16_t* raw(q15* p) noexcept {
    return reinterpret_cast<std::int16_t*>(p);  // NOLINT(cppcoreguidelines-pro-type-reinterpret-cast)
}

/// A compiler barrier over the memory at p: GCC 12's MVE load intrinsics are not seen to read memory, so stores
/// just before them (q15/attention.hpp writes q' into c, then scores the states against it) must be made to happen first.
__attribute__((always_inline)) inline void touch(const void* p) noexcept { __asm__ volatile("" : : "r"(p) : "memory"); }

/// A vector of the loops' tails (kTail) or of their whole passes, lanes below the tail predicate p: where kTail, the
/// loads read only the lanes under p (the others are 0, nothing past them is touched: weights and biases have no
/// padding) and the stores write only those lanes; else plain loads and stores (p is not read).
template <bool kTail>
__attribute__((always_inline)) inline int32x4_t load_s32(const std::int32_t* a, mve_pred16_t p) noexcept {
    if constexpr (kTail) return vldrwq_z_s32(a, p);
    return vld1q_s32(a);
}
template <bool kTail>
__attribute__((always_inline)) inline int32x4_t load_s8_s32(const std::int8_t* a, mve_pred16_t p) noexcept {
    if constexpr (kTail) return vldrbq_z_s32(a, p);
    return vldrbq_s32(a);
}
template <bool kTail>
__attribute__((always_inline)) inline int16x8_t load_s16(const std::int16_t* a, mve_pred16_t p) noexcept {
    if constexpr (kTail) return vldrhq_z_s16(a, p);
    return vld1q_s16(a);
}
/// the four lanes of v narrowed to int16 at o (the lanes under p where kTail)
template <bool kTail>
__attribute__((always_inline)) inline void store_s32_s16(std::int16_t* o, int32x4_t v, mve_pred16_t p) noexcept {
    if constexpr (kTail) {
        vstrhq_p_s32(o, v, p);
    } else {
        vstrhq_s32(o, v);
    }
}
template <bool kTail>
__attribute__((always_inline)) inline void store_s16(std::int16_t* o, int16x8_t v, mve_pred16_t p) noexcept {
    if constexpr (kTail) {
        vstrhq_p_s16(o, v, p);
    } else {
        vst1q_s16(o, v);
    }
}

}  // namespace mve

// The loops are assembly: GCC 12 rebuilds the tail predicate and reloads addresses around every predicated load
// of the same loops written with intrinsics (about 40 instructions where these take 10). Tail-predicated
// low-overhead loops (WLSTP.16/LETP: the last pass loads and adds only the lanes below n, the others read as zero
// and add nothing); VMLADAVA's sum must be an even register (its encoding), hence the fixed registers, and the
// widening loads take a low register (r0-r7) as their base ("l").

}  // namespace sarnn::kernel::q15_mve

#endif
