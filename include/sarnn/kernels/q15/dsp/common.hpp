// sarnn/kernels/q15/dsp/common.hpp: the q15 kernels' inner loops (the seam: q15/seam.hpp) for the Cortex-M cores with the
// DSP extension (M4, M7; ARMv7E-M). SMLAD multiplies two pairs of int16 and adds both products in one instruction,
// SMLAxy one chosen half by another, SXTB16 widens two int8 to two int16, LDRD loads two words. The main loops are
// Thumb-2 assembly: GCC 12 at -Os kept the intrinsics' loops (<arm_acle.h>) rolled, their sums on the stack, at twice
// the instructions. Each computes exactly what q15/plain.hpp computes (the same integer sums, whose bounds,
// q15/{affine,attention,cells}.hpp's, keep every partial sum in int32: SMLAD's and SMLAxy's additions never wrap).
#ifndef SARNN_KERNELS_Q15_DSP_COMMON_HPP
#define SARNN_KERNELS_Q15_DSP_COMMON_HPP

#include <arm_acle.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "sarnn/kernels/q15/exp.hpp"
#include "sarnn/kernels/q15/plain.hpp"
#include "sarnn/kernels/q15/seam.hpp"
#include "sarnn/fixed.hpp"

namespace sarnn::kernel::q15_dsp {

// Four rows of the product, three states of the scores (four at the common row strides: scores4), eight columns of
// the weighted sum per pass (weighted_sum, which the set owns): at most thirteen registers in each loop (r7 may be a
// frame pointer; an unoptimised build takes the plain loops: q15/loops.hpp).
constexpr std::size_t kRows = 4, kStates = 3, kColumns = 8;

// The group sizes without a loop of their own: q15_plain's (the specialisations below are this target's).
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

namespace dsp {

/// Two int16 as one word, little endian (one LDR).
__attribute__((always_inline)) inline std::int32_t word(const void* p) noexcept {
    std::int32_t w;
    std::memcpy(&w, p, sizeof w);
    return w;
}

/// PKHBT (bottom half of a, bottom half of b on top), PKHTB (top half of a, top half of b below), w rotated right by
/// 8 (SXTB16's ROR #8: the odd bytes): GCC 12's <arm_acle.h> has no intrinsic for them; GCC emits the instruction.
__attribute__((always_inline)) inline std::int32_t pkhbt(std::int32_t a, std::int32_t b) noexcept {
    return static_cast<std::int32_t>((static_cast<std::uint32_t>(a) & 0xFFFFu) | (static_cast<std::uint32_t>(b) << 16));
}
__attribute__((always_inline)) inline std::int32_t pkhtb(std::int32_t a, std::int32_t b) noexcept {
    return static_cast<std::int32_t>((static_cast<std::uint32_t>(a) & 0xFFFF0000u) |
                                     (static_cast<std::uint32_t>(b) >> 16));
}
__attribute__((always_inline)) inline std::int32_t ror8(std::int32_t w) noexcept {
    const auto u = static_cast<std::uint32_t>(w);
    return static_cast<std::int32_t>((u >> 8) | (u << 24));
}

}  // namespace dsp

}  // namespace sarnn::kernel::q15_dsp

#endif
