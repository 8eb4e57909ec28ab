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

#include "kernels/q15_plain.hpp"

#if defined(__ARM_FEATURE_MVE) && !SARNN_Q15_PLAIN_LOOPS
#include "kernels/q15_mve.hpp"
#elif defined(__thumb__) && defined(__ARM_FEATURE_DSP) && defined(__ARM_ARCH_7EM__)
#include "kernels/q15_dsp.hpp"
#elif defined(__thumb__) && (defined(__ARM_ARCH_6M__) || defined(__ARM_ARCH_7M__) || defined(__ARM_ARCH_7EM__))
#include "kernels/q15_thumb.hpp"
#else
namespace sarnn::kernel::q15_loops {
// groups of more than two, so that the host's tests (and sanitizers) take every remainder path of q15.cpp
constexpr std::size_t kRows = 4, kStates = 3, kColumns = 4;
using q15_plain::columns;
using q15_plain::dot_rows;
using q15_plain::dot_states;
}  // namespace sarnn::kernel::q15_loops
#endif

#endif
