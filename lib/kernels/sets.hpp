// lib/kernels/sets.hpp: the kernel sets compiled into lib/, one pair (float, double) per arch.
// CMake defines SARNN_KERNELS_<ARCH>=1 for the sets it builds; each is defined in lib/kernels/<arch>.cpp.
#ifndef SARNN_LIB_KERNELS_SETS_HPP
#define SARNN_LIB_KERNELS_SETS_HPP

#include "sarnn/kernels.hpp"

namespace sarnn::sets {

extern const Kernels<float> scalar_f;
extern const Kernels<double> scalar_d;
#if SARNN_KERNELS_SSE2
extern const Kernels<float> sse2_f;
extern const Kernels<double> sse2_d;
#endif
#if SARNN_KERNELS_AVX2_FMA
extern const Kernels<float> avx2_fma_f;
extern const Kernels<double> avx2_fma_d;
#endif
#if SARNN_KERNELS_AVX512
extern const Kernels<float> avx512_f;
extern const Kernels<double> avx512_d;
#endif
#if SARNN_KERNELS_NEON
extern const Kernels<float> neon_f;
extern const Kernels<double> neon_d;
#endif
#if SARNN_KERNELS_NEON64
extern const Kernels<float> neon64_f;
extern const Kernels<double> neon64_d;
#endif

}  // namespace sarnn::sets

#endif
