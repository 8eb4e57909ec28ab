// sarnn/config.hpp of the packages (PlatformIO, Arduino, Zephyr, ESP-IDF; docs/build.md "Packages"). A CMake build
// writes this file at configure time from what the compiler accepts (cmake/SarnnArch.cmake, config.hpp.in); the
// package managers run no such step, so this one decides the same things from the compiler's predefined macros.
// The packages hold the plain C++ kernel sets only (no xsimd, no NEON or Helium files): the scalar set, cortex_m0
// (sums of products in integers) and, where float is in hardware, cortex_m. tests/package checks that it says what
// CMake's config.hpp says for the Cortex-M4F and the M0+.
#ifndef SARNN_CONFIG_HPP
#define SARNN_CONFIG_HPP

#if !defined(__cplusplus) || __cplusplus < 201703L
#error "sarnn needs C++17 (-std=gnu++17): see sarnn's docs/build.md, Packages, for the cores and flags that build it"
#endif

/// Only plain C++ sets: no vector registers, element alignment only.
#define SARNN_VECTOR_BYTES 0
#define SARNN_RUNTIME_DISPATCH 0

/// Every set sarnn knows, in the order of cmake/SarnnArch.cmake's list (the same on every target).
// clang-format off
#define SARNN_ARCHES(X) X(scalar, "scalar") X(cortex_m0, "cortex-m0") X(cortex_m, "cortex-m") X(sse2, "sse2") \
    X(avx2_fma, "avx2+fma") X(avx512, "avx512") X(neon, "neon") X(neon64, "neon64") X(mve, "mve")
// clang-format on

// Float in software: ARM built for soft float (Cortex-M0, M0+, M3), RISC-V without F (ESP32-C3, C6), Xtensa without
// an FPU. There the cortex_m set is left out (lib/kernels/cortex_m.cpp compiles to nothing) and cortex_m0 is the default.
#if (defined(__arm__) && !defined(__ARM_FP)) || (defined(__riscv) && !defined(__riscv_flen)) || \
    defined(__XTENSA_SOFT_FLOAT__)
#define SARNN_CORTEX_M_SET_OUT 1
#define SARNN_SETS(X) X(scalar, Scalar, scalar) X(cortex_m0, CortexM0, scalar)
#define SARNN_BUILD_DEFAULT_SET CortexM0
#else
#define SARNN_SETS(X) X(scalar, Scalar, scalar) X(cortex_m0, CortexM0, scalar) X(cortex_m, CortexM, scalar)
#define SARNN_BUILD_DEFAULT_SET CortexM
#endif

/// 1: step() refuses NaN/Inf input (O(In) a step); define SARNN_CHECK_INPUT=0 in the build's flags (every file, the
/// library's too) when the caller validates. Zephyr: CONFIG_SARNN_CHECK_INPUT.
#ifndef SARNN_CHECK_INPUT
#define SARNN_CHECK_INPUT 1
#endif

/// 1: the q15 additive align's Thumb loop (ARMv6-M, ARMv7-M without DSP) without its 8 KiB tanh table (slower);
/// define SARNN_Q15_COMPACT=1 in the build's flags (every file). Zephyr: CONFIG_SARNN_Q15_COMPACT.
#ifndef SARNN_Q15_COMPACT
#define SARNN_Q15_COMPACT 0
#endif

#endif
