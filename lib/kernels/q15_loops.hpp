// lib/kernels/q15_loops.hpp: the seam between the q15 kernels (lib/kernels/q15.cpp: the arithmetic every target
// shares, its rounding and bounds) and each target's inner loops. A target's file defines, in namespace
// sarnn::kernel::q15_loops, the loops with the contracts of q15_plain.hpp and how many rows, states or columns one
// pass takes:
//   kRows     dot_rows<G>(w, ld, v, n, acc)            for G = 1, 2 and kRows   (any n, any alignment)
//   kStates   dot_states<G>(s, stride, q, npairs, d)   for G = 1 and kStates    (s, q word aligned, stride even,
//                                                                                npairs >= 1)
//   kColumns  columns<G>(a, v, stride, count, acc)     for G = 2 and kColumns   (a, v word aligned, stride even,
//                                                                                count even, >= 2)
// The files, chosen at compile time:
//   q15_mve.hpp    Helium (MVE integer: M55, M85): eight int16 per vector, VMLADAVA for the dot products
//                  (cmake -DSARNN_Q15_PLAIN_LOOPS=ON takes the plain C++ instead, to compare the two on one core)
//   q15_thumb.hpp  ARMv6-M and ARMv7-M (M0, M0+, M3): Thumb assembly
//   q15_dsp.hpp    ARMv7E-M with the DSP extension (M4, M7): two 16-bit multiply-adds per instruction (SMLAD)
//   (this file)    everything else: q15_plain.hpp
#ifndef SARNN_LIB_KERNELS_Q15_LOOPS_HPP
#define SARNN_LIB_KERNELS_Q15_LOOPS_HPP

#include <cstddef>
#include <cstdint>

#include "kernels/q15_plain.hpp"
#include "sarnn/fixed.hpp"

#if defined(__ARM_FEATURE_MVE) && !SARNN_Q15_PLAIN_LOOPS
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
#if defined(__thumb__) && defined(__ARM_FEATURE_DSP) && defined(__ARM_ARCH_7EM__)
#include "kernels/q15_dsp.hpp"
#elif defined(__thumb__) && (defined(__ARM_ARCH_6M__) || defined(__ARM_ARCH_7M__) || defined(__ARM_ARCH_7EM__))
#include "kernels/q15_thumb.hpp"
#else
namespace sarnn::kernel::q15_loops {
// groups of more than two, so that the host's tests (and sanitizers) take every remainder path of q15.cpp
constexpr std::size_t kRows = 4, kStates = 3, kColumns = 4;
}  // namespace sarnn::kernel::q15_loops
#endif
#endif

#endif
