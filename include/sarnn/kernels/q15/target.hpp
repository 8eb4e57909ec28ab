// sarnn/kernels/q15/target.hpp: which q15 loops this build takes, as macros (the one place of the condition:
// q15/loops.hpp names the type from them), and whether the models take the q15 set's shaped forms:
//   SARNN_Q15_TARGET_MVE    Helium (MVE integer: M55, M85)
//   SARNN_Q15_TARGET_DSP    ARMv7E-M with the DSP extension (M4, M7)
//   SARNN_Q15_TARGET_THUMB  ARMv6-M and ARMv7-M (M0, M0+, M3)
//   (none of them: the plain C++ loops; also every target in an unoptimised build, -O0, whose frame keeps registers
//   the assembly loops need)
//   SARNN_Q15_SHAPED        1 where the DSP loops (M4, M7) or the Helium loops (M55) are this build's: the models call
//                           Q15Set's shaped forms (affine_tanh_at, ..., gru_cell_at, compiled for their shape in their
//                           own translation unit: q15/shaped.hpp); 0 elsewhere: the host and ARM Linux, where they
//                           call the run-time forms of lib/ and no model's translation unit compiles the q15
//                           algorithm; and, for now, the Thumb loops, which build and compute the same integers with
//                           the shaped forms (the host tests and the firmware digests passed with them), but on the
//                           M0+ the shape bought nothing (its inner loops are assembly with run-time counts) and cost
//                           67 to 104 instructions a step at the reference shape (dot 33,872 -> 33,939, Gru 31,217 ->
//                           31,321). On the M55 every q15 model of the shape grid took fewer instructions a step with
//                           them (bench/results/mcu.md; Gru and Lstm 3-11 % fewer, the attention models up to 6 %).
#ifndef SARNN_KERNELS_Q15_TARGET_HPP
#define SARNN_KERNELS_Q15_TARGET_HPP

#if defined(__ARM_FEATURE_MVE) && defined(__OPTIMIZE__)
#define SARNN_Q15_TARGET_MVE 1
#elif defined(__thumb__) && defined(__ARM_FEATURE_DSP) && defined(__ARM_ARCH_7EM__) && defined(__OPTIMIZE__)
#define SARNN_Q15_TARGET_DSP 1
#elif defined(__thumb__) && (defined(__ARM_ARCH_6M__) || defined(__ARM_ARCH_7M__) || defined(__ARM_ARCH_7EM__)) && \
    defined(__OPTIMIZE__)
#define SARNN_Q15_TARGET_THUMB 1
#endif

#if defined(SARNN_Q15_TARGET_DSP) || defined(SARNN_Q15_TARGET_MVE)
#define SARNN_Q15_SHAPED 1
#else
#define SARNN_Q15_SHAPED 0
#endif

#endif
