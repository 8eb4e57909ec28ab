// sarnn/kernels/q15/mve/products.hpp: the Helium set's q15 loops (Cortex-M55, M85; the set: mve/loops.hpp), the products:
// dot_rows, dot_states and columns (VMLADAVA, VMLA; tail-predicated loops).
#ifndef SARNN_KERNELS_Q15_MVE_PRODUCTS_HPP
#define SARNN_KERNELS_Q15_MVE_PRODUCTS_HPP

#include <arm_mve.h>

#include <cstddef>
#include <cstdint>

#include "sarnn/kernels/q15/mve/common.hpp"

namespace sarnn::kernel::q15_mve {

/// acc[g] += Σ_{k < n} w[g·ld + k]·v[k] for g < G (G = 1, 2, 4).
template <std::size_t G>
inline void dot_rows(const std::int8_t* w, std::size_t ld, const q15* v, std::size_t n, std::int32_t* acc) noexcept {
    static_assert(G == 1 || G == 2 || G == 4, "dot_rows: groups of 1, 2 or kRows");
    mve::touch(v);
    const std::int16_t* x = mve::raw(v);
    register std::int32_t a0 __asm__("r4") = acc[0];
    if constexpr (G == 1) {
        // clang-format off
        __asm__ volatile(
            "wlstp.16 lr, %[n], 2f\n"
            "1:\n\t"
            "vldrh.u16 q0, [%[x]], #16\n\t"
            "vldrb.s16 q1, [%[w0]], #8\n\t"
            "vmladava.s16 %[a0], q1, q0\n\t"
            "letp lr, 1b\n"
            "2:\n\t"
            : [a0] "+r"(a0), [x] "+r"(x), [w0] "+l"(w)
            : [n] "r"(n)
            : "d0", "d1", "d2", "d3", "lr", "memory");
        // clang-format on
        acc[0] = a0;
    } else if constexpr (G == 2) {
        register std::int32_t a1 __asm__("r6") = acc[1];
        const std::int8_t* w1 = w + ld;
        // two rows' sums += eight weights (widened in the load) times eight values of v, per pass
        // clang-format off
        __asm__ volatile(
            "wlstp.16 lr, %[n], 2f\n"
            "1:\n\t"
            "vldrh.u16 q0, [%[x]], #16\n\t"
            "vldrb.s16 q1, [%[w0]], #8\n\t"
            "vmladava.s16 %[a0], q1, q0\n\t"
            "vldrb.s16 q2, [%[w1]], #8\n\t"
            "vmladava.s16 %[a1], q2, q0\n\t"
            "letp lr, 1b\n"
            "2:\n\t"
            : [a0] "+r"(a0), [a1] "+r"(a1), [x] "+r"(x), [w0] "+l"(w), [w1] "+l"(w1)
            : [n] "r"(n)
            : "d0", "d1", "d2", "d3", "d4", "d5", "lr", "memory");
        // clang-format on
        acc[0] = a0;
        acc[1] = a1;
    } else {
        register std::int32_t a1 __asm__("r6") = acc[1];
        register std::int32_t a2 __asm__("r8") = acc[2];
        register std::int32_t a3 __asm__("r10") = acc[3];
        const std::int8_t* w1 = w + ld;
        const std::int8_t* w2 = w1 + ld;
        const std::int8_t* w3 = w2 + ld;
        // four rows' sums += eight weights (widened in the load) times eight values of v, per pass
        // clang-format off
        __asm__ volatile(
            "wlstp.16 lr, %[n], 2f\n"
            "1:\n\t"
            "vldrh.u16 q0, [%[x]], #16\n\t"
            "vldrb.s16 q1, [%[w0]], #8\n\t"
            "vmladava.s16 %[a0], q1, q0\n\t"
            "vldrb.s16 q2, [%[w1]], #8\n\t"
            "vmladava.s16 %[a1], q2, q0\n\t"
            "vldrb.s16 q3, [%[w2]], #8\n\t"
            "vmladava.s16 %[a2], q3, q0\n\t"
            "vldrb.s16 q1, [%[w3]], #8\n\t"
            "vmladava.s16 %[a3], q1, q0\n\t"
            "letp lr, 1b\n"
            "2:\n\t"
            : [a0] "+r"(a0), [a1] "+r"(a1), [a2] "+r"(a2), [a3] "+r"(a3), [x] "+r"(x), [w0] "+l"(w), [w1] "+l"(w1),
              [w2] "+l"(w2), [w3] "+l"(w3)
            : [n] "r"(n)
            : "d0", "d1", "d2", "d3", "d4", "d5", "d6", "d7", "lr", "memory");
        // clang-format on
        acc[0] = a0;
        acc[1] = a1;
        acc[2] = a2;
        acc[3] = a3;
    }
}

// One pass of four states' scores: eight values of q (loaded into q0 by `load`, post-incremented) times eight of
// each state (s0..s3, post-incremented), each product sum added to its a0..a3 by VMLADAVA.
// clang-format off
#define SARNN_MVE_DOT4(load)              \
    load "vldrh.u16 q1, [%[s0]], #16\n\t" \
         "vmladava.s16 %[a0], q1, q0\n\t" \
         "vldrh.u16 q2, [%[s1]], #16\n\t" \
         "vmladava.s16 %[a1], q2, q0\n\t" \
         "vldrh.u16 q3, [%[s2]], #16\n\t" \
         "vmladava.s16 %[a2], q3, q0\n\t" \
         "vldrh.u16 q1, [%[s3]], #16\n\t" \
         "vmladava.s16 %[a3], q1, q0\n\t"
// clang-format on

/// d[g] = Σ_{k < 2·npairs} s[g·stride + k]·q[k] for g < G (G = 4 and 1).
template <std::size_t G>
inline void dot_states(const q15* s, std::size_t stride, const q15* q, std::size_t npairs, std::int32_t* d) noexcept {
    static_assert(G == 1 || G == 4, "dot_states: groups of 1 or kStates");
    mve::touch(q);
    mve::touch(s);
    const std::int16_t* qr = mve::raw(q);
    const std::int16_t* s0 = mve::raw(s);
    const std::size_t n = 2 * npairs;
    register std::int32_t a0 __asm__("r4") = 0;
    if constexpr (G == 1) {
        // clang-format off
        __asm__ volatile(
            "wlstp.16 lr, %[n], 2f\n"
            "1:\n\t"
            "vldrh.u16 q0, [%[q]], #16\n\t"
            "vldrh.u16 q1, [%[s0]], #16\n\t"
            "vmladava.s16 %[a0], q1, q0\n\t"
            "letp lr, 1b\n"
            "2:\n\t"
            : [a0] "+r"(a0), [q] "+r"(qr), [s0] "+r"(s0)
            : [n] "r"(n)
            : "d0", "d1", "d2", "d3", "lr", "memory");
        // clang-format on
        d[0] = a0;
    } else {
        register std::int32_t a1 __asm__("r6") = 0;
        register std::int32_t a2 __asm__("r8") = 0;
        register std::int32_t a3 __asm__("r10") = 0;
        const std::int16_t* s1 = s0 + stride;
        const std::int16_t* s2 = s1 + stride;
        const std::int16_t* s3 = s2 + stride;
        // four states' scores += eight of their values times eight of q, per pass
        // clang-format off
        __asm__ volatile(
            "wlstp.16 lr, %[n], 2f\n"
            "1:\n\t"
            SARNN_MVE_DOT4("vldrh.u16 q0, [%[q]], #16\n\t")
            "letp lr, 1b\n"
            "2:\n\t"
            : [a0] "+r"(a0), [a1] "+r"(a1), [a2] "+r"(a2), [a3] "+r"(a3), [q] "+r"(qr), [s0] "+r"(s0), [s1] "+r"(s1),
              [s2] "+r"(s2), [s3] "+r"(s3)
            : [n] "r"(n)
            : "d0", "d1", "d2", "d3", "d4", "d5", "d6", "d7", "lr", "memory");
        // clang-format on
        d[0] = a0;
        d[1] = a1;
        d[2] = a2;
        d[3] = a3;
    }
}

/// acc[g] += Σ_{j < count} a[j]·v[j·stride + g] for g < G (G = 16 here, 2 in plain C++).
template <std::size_t G>
inline void columns(const q15* a, const q15* v, std::size_t stride, std::size_t count, std::int32_t* acc) noexcept {
    static_assert(G == 2 || G == 16, "columns: groups of 2 or kColumns");
    if constexpr (G == 2) {
        q15_plain::columns<G>(a, v, stride, count, acc);
    } else {
        mve::touch(a);
        mve::touch(v);
        mve::touch(acc);
        const std::int16_t* ap = mve::raw(a);
        const std::int16_t* row = mve::raw(v);
        const std::size_t step = stride * sizeof(std::int16_t);
        std::int32_t aj;
        // sixteen columns' sums in q0-q3; per state: += alpha_j times its sixteen values (widened in the loads)
        // clang-format off
        __asm__ volatile(
            "vldrw.u32 q0, [%[acc]]\n\t"
            "vldrw.u32 q1, [%[acc], #16]\n\t"
            "vldrw.u32 q2, [%[acc], #32]\n\t"
            "vldrw.u32 q3, [%[acc], #48]\n\t"
            "wls lr, %[count], 2f\n"
            "1:\n\t"
            "ldrsh %[aj], [%[ap]], #2\n\t"
            "vldrh.s32 q4, [%[row]]\n\t"
            "vmla.s32 q0, q4, %[aj]\n\t"
            "vldrh.s32 q5, [%[row], #8]\n\t"
            "vmla.s32 q1, q5, %[aj]\n\t"
            "vldrh.s32 q6, [%[row], #16]\n\t"
            "vmla.s32 q2, q6, %[aj]\n\t"
            "vldrh.s32 q7, [%[row], #24]\n\t"
            "vmla.s32 q3, q7, %[aj]\n\t"
            "add %[row], %[row], %[step]\n\t"
            "le lr, 1b\n"
            "2:\n\t"
            "vstrw.32 q0, [%[acc]]\n\t"
            "vstrw.32 q1, [%[acc], #16]\n\t"
            "vstrw.32 q2, [%[acc], #32]\n\t"
            "vstrw.32 q3, [%[acc], #48]\n\t"
            : [ap] "+r"(ap), [row] "+l"(row), [aj] "=&r"(aj)
            : [acc] "r"(acc), [count] "r"(count), [step] "r"(step)
            : "d0", "d1", "d2", "d3", "d4", "d5", "d6", "d7", "d8", "d9", "d10", "d11", "d12", "d13", "d14", "d15",
              "lr", "memory");
        // clang-format on
    }
}

}  // namespace sarnn::kernel::q15_mve

#endif
