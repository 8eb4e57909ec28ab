// sarnn/kernels/simd/quad_fma.hpp: the multiply-adds of four neighbouring vectors at a time, for the loops that load
// pairs (Simd::kLoadPairs, AArch64). There one LD1 loads the four vectors (a quarter of the load instructions of
// single loads, half of LDP's); it wants four consecutive registers, and GCC 12, given register tuples to place,
// routes every accumulator through one register with a move before and after each use (measured under qemu: more
// instructions than LDP). So on AArch64 each step is one asm block: the loads into v24..v27 (v20..v23 for a
// second operand), the FMLAs into accumulators GCC keeps. Elsewhere the same arithmetic in xsimd.
#ifndef SARNN_KERNELS_SIMD_QUAD_FMA_HPP
#define SARNN_KERNELS_SIMD_QUAD_FMA_HPP

#include <cstddef>
#include <type_traits>

#include <xsimd/xsimd.hpp>
#if defined(__aarch64__)
#include <arm_neon.h>
#endif

namespace sarnn::simd {
namespace {  // NOLINT(cert-dcl59-cpp): internal linkage on purpose, as in simd.hpp (one copy per arch TU)

template <class A, class T>
constexpr bool kAsmQuads =
#if defined(__aarch64__)
    std::is_same_v<T, float> && std::is_base_of_v<xsimd::neon64, A>;
#else
    false;
#endif

/// The values from p on (as many as the asm reads), as an asm block's memory operand: no address to compute.
template <class T>
__attribute__((always_inline)) inline const T (&from(const T* p))[] {
    return *reinterpret_cast<const T(*)[]>(p);
}

/// acc[k] (First: =, else +=) row_k[0..4W)·q[0..4W) for the four rows row_k = rp + k·down, then rp advanced to
/// row_0 + 4W and q past its four vectors: one pointer down the rows and back up (LD1 with post-index by a
/// register), so a block of rows takes one pointer whatever its stride.
template <bool First, class A, class T>
__attribute__((always_inline)) inline void quad_block_dots(const T*& rp, std::ptrdiff_t down, const T*& qp,
                                                           xsimd::batch<T, A>* acc) {
    using B = xsimd::batch<T, A>;
    const std::ptrdiff_t up = 4 * static_cast<std::ptrdiff_t>(B::size) - 3 * down;
#if defined(__aarch64__)
    if constexpr (kAsmQuads<A, T>) {
        float32x4_t a0, a1, a2, a3;
        if constexpr (!First) {
            a0 = acc[0];
            a1 = acc[1];
            a2 = acc[2];
            a3 = acc[3];
        }
        const std::ptrdiff_t down_bytes = down * static_cast<std::ptrdiff_t>(sizeof(T));
        const std::ptrdiff_t up_bytes = up * static_cast<std::ptrdiff_t>(sizeof(T));
        // acc_k = row_k·q over the four vectors (First: the first product is a multiply)
#define SARNN_QUAD_ROW(a, step, op)                     \
    "ld1 {v24.4s - v27.4s}, [%[rp]], %[" step "]\n\t"   \
    op " %[" a "].4s, v24.4s, v20.4s\n\t"               \
    "fmla %[" a "].4s, v25.4s, v21.4s\n\t"              \
    "fmla %[" a "].4s, v26.4s, v22.4s\n\t"              \
    "fmla %[" a "].4s, v27.4s, v23.4s\n\t"
#define SARNN_QUAD_BLOCK(op, out)                                                              \
    __asm__("ld1 {v20.4s - v23.4s}, [%[qp]], #64\n\t" SARNN_QUAD_ROW("a0", "down", op)          \
                SARNN_QUAD_ROW("a1", "down", op) SARNN_QUAD_ROW("a2", "down", op)                \
                    SARNN_QUAD_ROW("a3", "up", op)                                              \
            : [a0] out(a0), [a1] out(a1), [a2] out(a2), [a3] out(a3), [rp] "+r"(rp), [qp] "+r"(qp) \
            : [down] "r"(down_bytes), [up] "r"(up_bytes), "m"(from(qp)), "m"(from(rp))            \
            : "v20", "v21", "v22", "v23", "v24", "v25", "v26", "v27")
        if constexpr (First) SARNN_QUAD_BLOCK("fmul", "=w");
        else SARNN_QUAD_BLOCK("fmla", "+w");
#undef SARNN_QUAD_BLOCK
#undef SARNN_QUAD_ROW
        acc[0] = B(a0);
        acc[1] = B(a1);
        acc[2] = B(a2);
        acc[3] = B(a3);
        return;
    }
#endif
    B q[4];
    for (std::size_t u = 0; u < 4; ++u) q[u] = B::load_unaligned(qp + u * B::size);
    qp += 4 * B::size;
    for (std::size_t k = 0; k < 4; ++k) {
        B s = First ? B::load_unaligned(rp) * q[0] : xsimd::fma(B::load_unaligned(rp), q[0], acc[k]);
        for (std::size_t u = 1; u < 4; ++u) s = xsimd::fma(B::load_unaligned(rp + u * B::size), q[u], s);
        acc[k] = s;
        rp += k + 1 < 4 ? down : up;
    }
}

/// acc[k] += row_k[0..4W·n)·v[0..4W·n) for the four rows walked by their own pointers rp[k], n >= 1 steps of four
/// vectors, then each rp[k] and vp advanced past them (AArch64: the loop inside the asm block, two instructions
/// of its own per step).
template <class A, class T>
__attribute__((always_inline)) inline void quad_rows_dots(const T* (&rp)[4], const T*& vp, std::size_t n,
                                                          xsimd::batch<T, A>* acc) {
    using B = xsimd::batch<T, A>;
#if defined(__aarch64__)
    if constexpr (kAsmQuads<A, T>) {
        float32x4_t a0 = acc[0], a1 = acc[1], a2 = acc[2], a3 = acc[3];
        // acc_k += row_k·v over four vectors a step
#define SARNN_QUAD_ROW(a, r)                          \
    "ld1 {v24.4s - v27.4s}, [%[" r "]], #64\n\t"      \
    "fmla %[" a "].4s, v24.4s, v20.4s\n\t"            \
    "fmla %[" a "].4s, v25.4s, v21.4s\n\t"            \
    "fmla %[" a "].4s, v26.4s, v22.4s\n\t"            \
    "fmla %[" a "].4s, v27.4s, v23.4s\n\t"
        __asm__("1:\n\t"
                "ld1 {v20.4s - v23.4s}, [%[vp]], #64\n\t" SARNN_QUAD_ROW("a0", "r0") SARNN_QUAD_ROW("a1", "r1")
                    SARNN_QUAD_ROW("a2", "r2") SARNN_QUAD_ROW("a3", "r3")
                "subs %[n], %[n], #1\n\t"
                "b.ne 1b"
                : [a0] "+w"(a0), [a1] "+w"(a1), [a2] "+w"(a2), [a3] "+w"(a3), [r0] "+r"(rp[0]), [r1] "+r"(rp[1]),
                  [r2] "+r"(rp[2]), [r3] "+r"(rp[3]), [vp] "+r"(vp), [n] "+r"(n)
                : "m"(from(vp)), "m"(from(rp[0])), "m"(from(rp[1])), "m"(from(rp[2])), "m"(from(rp[3]))
                : "v20", "v21", "v22", "v23", "v24", "v25", "v26", "v27", "cc");
#undef SARNN_QUAD_ROW
        acc[0] = B(a0);
        acc[1] = B(a1);
        acc[2] = B(a2);
        acc[3] = B(a3);
        return;
    }
#endif
    for (; n > 0; --n) {
        B v[4];
        for (std::size_t u = 0; u < 4; ++u) v[u] = B::load_unaligned(vp + u * B::size);
        vp += 4 * B::size;
        for (std::size_t k = 0; k < 4; ++k) {
            for (std::size_t u = 0; u < 4; ++u)
                acc[k] = xsimd::fma(B::load_unaligned(rp[k] + u * B::size), v[u], acc[k]);
            rp[k] += 4 * B::size;
        }
    }
}

/// acc[u] += w_L · (vector u of the four at p), u < 4, w_L lane L of w (AArch64: FMLA by element), then p
/// advanced past them.
template <std::size_t L, class A, class T>
__attribute__((always_inline)) inline void quad_add_lane(const T*& p, xsimd::batch<T, A> w, xsimd::batch<T, A>* acc) {
    using B = xsimd::batch<T, A>;
#if defined(__aarch64__)
    if constexpr (kAsmQuads<A, T>) {
        float32x4_t a0 = acc[0], a1 = acc[1], a2 = acc[2], a3 = acc[3];
        const float32x4_t wv = w;
        // acc_u += w_L · vector u
        __asm__("ld1 {v24.4s - v27.4s}, [%[p]], #64\n\t"
                "fmla %[a0].4s, v24.4s, %[w].s[%c[l]]\n\t"
                "fmla %[a1].4s, v25.4s, %[w].s[%c[l]]\n\t"
                "fmla %[a2].4s, v26.4s, %[w].s[%c[l]]\n\t"
                "fmla %[a3].4s, v27.4s, %[w].s[%c[l]]"
                : [a0] "+w"(a0), [a1] "+w"(a1), [a2] "+w"(a2), [a3] "+w"(a3), [p] "+r"(p)
                : [w] "w"(wv), [l] "i"(L), "m"(from(p))
                : "v24", "v25", "v26", "v27");
        acc[0] = B(a0);
        acc[1] = B(a1);
        acc[2] = B(a2);
        acc[3] = B(a3);
        return;
    }
#endif
    alignas(A::alignment()) T t[B::size];
    w.store_aligned(t);
    const B wl(t[L]);
    for (std::size_t u = 0; u < 4; ++u) acc[u] = xsimd::fma(wl, B::load_unaligned(p + u * B::size), acc[u]);
    p += 4 * B::size;
}

}  // namespace
}  // namespace sarnn::simd

#endif
