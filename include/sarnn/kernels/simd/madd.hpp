// sarnn/kernels/simd/madd.hpp: madd(a, b, c) = a·b + c and nmadd(a, b, c) = c - a·b on xsimd batches, the multiply-adds
// of every kernel, and divide(a, b) = a / b. xsimd::fma / xsimd::fnma, except on ARMv7 NEON without VFPv4 (Debian armhf
// with -mfpu=neon): there xsimd 8.1 falls back to a multiply and an add, two instructions, where NEON has VMLA / VMLS,
// one (not fused: rounded twice, exactly as the multiply and the add were). Measured under qemu-arm: the recurrent
// product In 32, Hidden 64 in 1.6x fewer instructions.
#ifndef SARNN_KERNELS_SIMD_MADD_HPP
#define SARNN_KERNELS_SIMD_MADD_HPP

#include <type_traits>

#include <xsimd/xsimd.hpp>
#if defined(__ARM_NEON)
#include <arm_neon.h>
#endif

#if defined(__ARM_NEON) && !defined(__aarch64__) && !defined(__ARM_FEATURE_FMA)
#define SARNN_NEON_VMLA 1
#else
#define SARNN_NEON_VMLA 0
#endif

namespace sarnn::simd {
namespace {  // NOLINT(cert-dcl59-cpp): internal linkage on purpose, as in simd.hpp (one copy per arch TU)

/// a·b + c
template <class T, class A>
__attribute__((always_inline)) inline xsimd::batch<T, A> madd(const xsimd::batch<T, A>& a, const xsimd::batch<T, A>& b,
                                                              const xsimd::batch<T, A>& c) {
#if SARNN_NEON_VMLA
    if constexpr (std::is_same_v<T, float> && std::is_base_of_v<xsimd::neon, A>) {
        return xsimd::batch<T, A>(vmlaq_f32(c, a, b));
    } else
#endif
    {
        return xsimd::fma(a, b, c);
    }
}

/// c - a·b
template <class T, class A>
__attribute__((always_inline)) inline xsimd::batch<T, A> nmadd(const xsimd::batch<T, A>& a, const xsimd::batch<T, A>& b,
                                                               const xsimd::batch<T, A>& c) {
#if SARNN_NEON_VMLA
    if constexpr (std::is_same_v<T, float> && std::is_base_of_v<xsimd::neon, A>) {
        return xsimd::batch<T, A>(vmlsq_f32(c, a, b));
    } else
#endif
    {
        return xsimd::fnma(a, b, c);
    }
}

/// a / b: xsimd's operator/, except for float on AArch64, where xsimd 8.1 takes ARMv7's reciprocal estimate and
/// two Newton steps (5 instructions, not correctly rounded) although AArch64 divides: FDIV, one, exact.
template <class T, class A>
__attribute__((always_inline)) inline xsimd::batch<T, A> divide(const xsimd::batch<T, A>& a,
                                                                const xsimd::batch<T, A>& b) {
#if defined(__aarch64__)
    if constexpr (std::is_same_v<T, float> && std::is_base_of_v<xsimd::neon64, A>) {
        return xsimd::batch<T, A>(vdivq_f32(a, b));
    } else
#endif
    {
        return a / b;
    }
}

}  // namespace
}  // namespace sarnn::simd

#undef SARNN_NEON_VMLA

#endif
