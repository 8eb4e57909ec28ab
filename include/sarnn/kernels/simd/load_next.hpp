// sarnn/kernels/simd/load_next.hpp: load_next(p), the vector at p, then p advanced past it, and load_step(p, step), the
// vector at p, then p advanced by step elements: for the loops that walk pointers (Simd::kWalkPointers). On ARMv7
// NEON one VLD1 with writeback each (by the vector, or by a register): VLD1 takes no offset, and GCC 12 addresses
// such loops from one shared index, with an address add before every load (measured under qemu-arm: the
// recurrent product In 32, Hidden 64 in 1.5x the instructions). Elsewhere a plain load and an add.
#ifndef SARNN_KERNELS_SIMD_LOAD_NEXT_HPP
#define SARNN_KERNELS_SIMD_LOAD_NEXT_HPP

#include <cstddef>
#include <type_traits>

#include <xsimd/xsimd.hpp>
#if defined(__ARM_NEON)
#include <arm_neon.h>
#endif

namespace sarnn::simd {
namespace {  // NOLINT(cert-dcl59-cpp): internal linkage on purpose, as in simd.hpp (one copy per arch TU)

template <class A, class T>
__attribute__((always_inline)) inline xsimd::batch<T, A> load_next(const T*& p) {
    using B = xsimd::batch<T, A>;
#if defined(__ARM_NEON) && !defined(__aarch64__)
    if constexpr (std::is_same_v<T, float> && std::is_base_of_v<xsimd::neon, A>) {
        float32x4_t v;
        // the asm reads the 16 bytes at p (the "m" operand tells the compiler so) and leaves p 16 bytes on
        __asm__("vld1.32 {%e0-%f0}, [%1]!" : "=w"(v), "+r"(p) : "m"(*reinterpret_cast<const T(*)[4]>(p)));
        return B(v);
    } else
#endif
    {
        const B v = B::load_unaligned(p);
        p += B::size;
        return v;
    }
}

template <class A, class T>
__attribute__((always_inline)) inline xsimd::batch<T, A> load_step(const T*& p, std::ptrdiff_t step) {
    using B = xsimd::batch<T, A>;
#if defined(__ARM_NEON) && !defined(__aarch64__)
    if constexpr (std::is_same_v<T, float> && std::is_base_of_v<xsimd::neon, A>) {
        float32x4_t v;
        const std::ptrdiff_t bytes = step * static_cast<std::ptrdiff_t>(sizeof(T));
        __asm__("vld1.32 {%e0-%f0}, [%1], %3"
                : "=w"(v), "+r"(p)
                : "m"(*reinterpret_cast<const T(*)[4]>(p)), "r"(bytes));
        return B(v);
    } else
#endif
    {
        const B v = B::load_unaligned(p);
        p += step;
        return v;
    }
}

/// a = the vector at p, b = the one after it, then p advanced past both: on AArch64 one LDP with post-index (GCC
/// 12 pairs loads only where it sees two neighbours at fixed offsets of one base, and not in loops that walk rows),
/// elsewhere two loads and an add.
template <class A, class T>
__attribute__((always_inline)) inline void load_pair_next(const T*& p, xsimd::batch<T, A>& a, xsimd::batch<T, A>& b) {
    using B = xsimd::batch<T, A>;
#if defined(__aarch64__)
    if constexpr (std::is_same_v<T, float> && std::is_base_of_v<xsimd::neon64, A>) {
        float32x4_t va, vb;
        __asm__("ldp %q0, %q1, [%2], #32" : "=w"(va), "=w"(vb), "+r"(p) : "m"(*reinterpret_cast<const T(*)[8]>(p)));
        a = B(va);
        b = B(vb);
        return;
    }
#endif
    a = B::load_unaligned(p);
    b = B::load_unaligned(p + B::size);
    p += 2 * B::size;
}

/// Lane L of v in every lane. Only for AArch64 (kLoadPairs loops), where the FMA that takes it uses the lane
/// directly (FMLA by element): no broadcast instruction, and one load for W weights.
template <std::size_t L, class A, class T>
__attribute__((always_inline)) inline xsimd::batch<T, A> lane(const xsimd::batch<T, A>& v) {
#if defined(__aarch64__)
    if constexpr (std::is_same_v<T, float> && std::is_base_of_v<xsimd::neon64, A>) {
        return xsimd::batch<T, A>(vdupq_laneq_f32(v, static_cast<int>(L)));
    } else
#endif
    {
        alignas(A::alignment()) T t[xsimd::batch<T, A>::size];
        v.store_aligned(t);
        return xsimd::batch<T, A>(t[L]);
    }
}

}  // namespace
}  // namespace sarnn::simd

#endif
