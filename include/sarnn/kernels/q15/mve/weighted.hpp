// sarnn/kernels/q15/mve/weighted.hpp: the Helium set's q15 loops (Cortex-M55, M85; the set: mve/loops.hpp), the weighted
// sum c = Σ_j alpha_j S_j (weighted_sum).
#ifndef SARNN_KERNELS_Q15_MVE_WEIGHTED_HPP
#define SARNN_KERNELS_Q15_MVE_WEIGHTED_HPP

#include <arm_mve.h>

#include <cstddef>
#include <cstdint>

#include "sarnn/kernels/q15/mve/common.hpp"

namespace sarnn::kernel::q15_mve {

// four columns' sums += eight states' values (gathered) times their eight alpha, per pass
// clang-format off
#define SARNN_MVE_COLUMNS4                  \
    "vldrh.u16 q0, [%[ap]], #16\n\t"        \
    "vldrh.u16 q1, [%[b], q4, uxtw #1]\n\t" \
    "vmladava.s16 %[a0], q0, q1\n\t"        \
    "vldrh.u16 q1, [%[b], q5, uxtw #1]\n\t" \
    "vmladava.s16 %[a1], q0, q1\n\t"        \
    "vldrh.u16 q1, [%[b], q6, uxtw #1]\n\t" \
    "vmladava.s16 %[a2], q0, q1\n\t"        \
    "vldrh.u16 q1, [%[b], q7, uxtw #1]\n\t" \
    "vmladava.s16 %[a3], q0, q1\n\t"        \
    "add %[b], %[b], %[step]\n\t"
// clang-format on
// The passes of four columns from the state (pass: the segments' column pointers, advanced a block a pass, their
// counts, alpha's second part, c's end) into c at CP up to pass.c_end; in a macro: weighted_sum and weighted_last
// each hold a copy (one function with both made GCC spend about 8 instructions a call more on the first).
// clang-format off
#define SARNN_MVE_WEIGHTED_ASM_(CP)                                                               \
        __asm__ volatile(                                                                                             \
            "vldrh.u16 q4, [%[offs]]\n\t"                                                                             \
            "mov %[x], #1\n\t"                                                                                        \
            "vadd.i16 q5, q4, %[x]\n\t"                                                                               \
            "mov %[x], #2\n\t"                                                                                        \
            "vadd.i16 q6, q4, %[x]\n\t"                                                                               \
            "mov %[x], #3\n\t"                                                                                        \
            "vadd.i16 q7, q4, %[x]\n\t"                                                                               \
            "movw %[x], #32767\n\t"                                                                                   \
            "vdup.32 q3, %[x]\n\t"                                                                                    \
            "rsb %[x], %[x], #0\n\t"                                                                                  \
            "vdup.32 q2, %[x]\n"                                                                                      \
            "4:\n\t"                                                                                                  \
            "mov %[a0], #0\n\t"                                                                                       \
            "mov %[a1], #0\n\t"                                                                                       \
            "mov %[a2], #0\n\t"                                                                                       \
            "mov %[a3], #0\n\t"                                                                                       \
            "ldr %[b], [%[ps]]\n\t"                                                                                   \
            "add %[x], %[b], #8\n\t"                                                                                  \
            "str %[x], [%[ps]]\n\t"                                                                                   \
            "mov %[ap], %[alpha]\n\t"                                                                                 \
            "ldr %[x], [%[ps], #4]\n\t"                                                                               \
            "wlstp.16 lr, %[x], 2f\n"                                                                                 \
            "1:\n\t" SARNN_MVE_COLUMNS4                                                                               \
            "letp lr, 1b\n"                                                                                           \
            "2:\n\t"                                                                                                  \
            "ldr %[b], [%[ps], #8]\n\t"                                                                               \
            "add %[x], %[b], #8\n\t"                                                                                  \
            "str %[x], [%[ps], #8]\n\t"                                                                               \
            "ldr %[ap], [%[ps], #16]\n\t"                                                                             \
            "ldr %[x], [%[ps], #12]\n\t"                                                                              \
            "wlstp.16 lr, %[x], 3f\n"                                                                                 \
            "5:\n\t" SARNN_MVE_COLUMNS4                                                                               \
            "letp lr, 5b\n"                                                                                           \
            "3:\n\t"                                                                                                  \
            "lctp\n\t"                                                                                                \
            "vmov q0[2], q0[0], %[a0], %[a2]\n\t"                                                                                \
            "vmov q0[3], q0[1], %[a1], %[a3]\n\t"                                                                                \
            "vrshr.s32 q0, q0, #15\n\t"                                                                               \
            "vmax.s32 q0, q0, q2\n\t"                                                                                 \
            "vmin.s32 q0, q0, q3\n\t"                                                                                 \
            "vstrh.32 q0, [%[c]], #8\n\t"                                                                             \
            "ldr %[x], [%[ps], #20]\n\t"                                                                              \
            "cmp %[c], %[x]\n\t"                                                                                      \
            "bne 4b"                                                                                                  \
            : [a0] "=&r"(a0), [a1] "=&r"(a1), [a2] "=&r"(a2), [a3] "=&r"(a3), [b] "=&r"(b), [ap] "=&r"(ap),           \
              [x] "=&r"(x), [c] "+l"(CP)                                                                              \
            : [ps] "r"(&pass), [alpha] "r"(mve::raw(alpha)), [step] "r"(step), [offs] "r"(offs)                       \
            : "d0", "d1", "d2", "d3", "d4", "d5", "d6", "d7", "d8", "d9", "d10", "d11", "d12", "d13", "d14", "d15",   \
              "lr", "cc", "memory");
// clang-format on

/// The columns sums' pointers and counts of weighted_sum's asm (SARNN_MVE_WEIGHTED_ASM_).
struct WeightedPass {
    const std::int16_t* b0;
    std::size_t n0;
    const std::int16_t* b1;
    std::size_t n1;
    const std::int16_t* a1;
    const std::int16_t* c_end;
};

/// weighted_sum's last dim % 4 columns (from the columns k of the segments' rows): four columns' sums into t (the
/// states' lanes past dim are their zero padding: stride = padded(dim) >= 4·ceil(dim / 4)), then the columns below
/// dim copied to c.
__attribute__((noinline)) inline void weighted_last(const q15* const base[2], const std::size_t n[2],
                                                    std::size_t stride, std::size_t dim, std::size_t k,
                                                    const q15* alpha, const std::uint16_t* offs, q15* c) noexcept {
    alignas(8) std::int16_t t[4];
    WeightedPass pass{mve::raw(base[0]) + k, n[0], mve::raw(base[1]) + k, n[1], mve::raw(alpha) + n[0], t + 4};
    const std::int32_t step = static_cast<std::int32_t>(8 * stride * sizeof(q15));
    register std::int32_t a0 __asm__("r4");
    register std::int32_t a1 __asm__("r6");
    register std::int32_t a2 __asm__("r8");
    register std::int32_t a3 __asm__("r10");
    const std::int16_t *b, *ap;
    std::int32_t x;
    std::int16_t* cp = t;
    SARNN_MVE_WEIGHTED_ASM_(cp);
    for (std::size_t col = k; col < dim; ++col) c[col] = q15{t[col - k]};
}

/// weighted_sum's passes where the states are one segment of n >= 8 states from b0: as SARNN_MVE_WEIGHTED_ASM_'s
/// passes without the second segment's loop, the column pointer, the count and c's end in registers, the offsets
/// j·stride made in registers (VIDUP, VMUL), the first eight states of a pass by VMLADAV (no sums to zero first) and
/// the loop over the other n - 8, the rounding and the clamp to +-32767 by VQRSHRNB (to [-32768, 32767]) and one VMAX
/// (about 16 instructions a pass and 15 a call fewer).
inline void weighted_one(const std::int16_t* b0, std::size_t n, std::size_t stride, const std::int16_t* alpha,
                         std::int16_t* c, const std::int16_t* c_end) noexcept {
    const std::int32_t step = static_cast<std::int32_t>(8 * stride * sizeof(q15));
    register std::int32_t a0 __asm__("r4");
    register std::int32_t a1 __asm__("r6");
    register std::int32_t a2 __asm__("r8");
    register std::int32_t a3 __asm__("r10");
    const std::int16_t* b;
    auto ap = static_cast<std::uintptr_t>(stride);  // (the stride until the passes)
    // clang-format off
    __asm__ volatile(
        "mov %[a0], #0\n\t"
        "vidup.u16 q4, %[a0], #1\n\t"
        "vmul.i16 q4, q4, %[ap]\n\t"
        "mov %[a0], #1\n\t"
        "vadd.i16 q5, q4, %[a0]\n\t"
        "mov %[a0], #2\n\t"
        "vadd.i16 q6, q4, %[a0]\n\t"
        "mov %[a0], #3\n\t"
        "vadd.i16 q7, q4, %[a0]\n\t"
        "movw %[a0], #32767\n\t"
        "rsb %[a0], %[a0], #0\n\t"
        "vdup.16 q2, %[a0]\n\t"
        "sub %[n], %[n], #8\n"
        "4:\n\t"
        "vldrh.u16 q0, [%[alpha]]\n\t"
        "vldrh.u16 q1, [%[b0], q4, uxtw #1]\n\t"
        "vmladav.s16 %[a0], q0, q1\n\t"
        "vldrh.u16 q1, [%[b0], q5, uxtw #1]\n\t"
        "vmladav.s16 %[a1], q0, q1\n\t"
        "vldrh.u16 q1, [%[b0], q6, uxtw #1]\n\t"
        "vmladav.s16 %[a2], q0, q1\n\t"
        "vldrh.u16 q1, [%[b0], q7, uxtw #1]\n\t"
        "vmladav.s16 %[a3], q0, q1\n\t"
        "add %[b], %[b0], %[step]\n\t"
        "add %[b0], %[b0], #8\n\t"
        "add %[ap], %[alpha], #16\n\t"
        "wlstp.16 lr, %[n], 2f\n"
        "1:\n\t" SARNN_MVE_COLUMNS4
        "letp lr, 1b\n"
        "2:\n\t"
        "lctp\n\t"
        "vmov q0[2], q0[0], %[a0], %[a2]\n\t"
        "vmov q0[3], q0[1], %[a1], %[a3]\n\t"
        "vqrshrnb.s32 q0, q0, #15\n\t"
        "vmax.s16 q0, q0, q2\n\t"
        "vstrh.32 q0, [%[c]], #8\n\t"
        "cmp %[c], %[end]\n\t"
        "bne 4b"
        : [a0] "=&r"(a0), [a1] "=&r"(a1), [a2] "=&r"(a2), [a3] "=&r"(a3), [b] "=&r"(b), [ap] "+&r"(ap),
          [b0] "+&r"(b0), [n] "+&r"(n), [c] "+&l"(c)
        : [alpha] "r"(alpha), [step] "r"(step), [end] "r"(c_end)
        : "d0", "d1", "d2", "d3", "d4", "d5", "d6", "d7", "d8", "d9", "d10", "d11", "d12", "d13", "d14", "d15",
          "lr", "cc", "memory");
    // clang-format on
}

/// c = Σ_j alpha_j S_j (q15/attention.hpp's weighted_sum: c_k = (Σ_j alpha_j S_j,k + 2^14) >> 15 within +-32767), four
/// columns a pass over the states, eight states at a time: a gather load (VLDRH with offsets j·stride + k: eight
/// states' values of column k) and VMLADAVA with eight values of alpha, per column; the four sums rounded together
/// (VRSHR), clamped and stored as int16. The states in the two segments base[0] (n[0] states) and base[1] (n[1]),
/// alpha's values in that order; tail-predicated loops (the lanes past a segment's end read as zero). The last dim % 4
/// columns by one more pass (weighted_last). The offsets are uint16: a row stride of at most 9360 (7·stride + 3 < 2^16;
/// far beyond the models'), else plain C++.
inline void weighted_sum(const q15* const base[2], const std::size_t n[2], std::size_t stride, std::size_t dim,
                         const q15* alpha, q15* c) noexcept {
    std::size_t k = 0;
    const std::size_t blocks = dim / 4;
    if (dim > 0 && stride <= 9360) {
        mve::touch(alpha);
        mve::touch(base[0]);
        mve::touch(base[1]);
        const bool one = blocks > 0 && n[1] == 0 && n[0] >= 8;
        if (one) {
            weighted_one(mve::raw(base[0]), n[0], stride, mve::raw(alpha), mve::raw(c), mve::raw(c) + 4 * blocks);
            if (dim % 4 == 0) return;
        }
        alignas(8) std::uint16_t offs[8];
        for (std::size_t j = 0; j < 8; ++j) offs[j] = static_cast<std::uint16_t>(j * stride);
        if (blocks > 0 && !one) {
            WeightedPass pass{mve::raw(base[0]),       n[0], mve::raw(base[1]), n[1], mve::raw(alpha) + n[0],
                              mve::raw(c) + 4 * blocks};
            register std::int32_t a0 __asm__("r4");
            register std::int32_t a1 __asm__("r6");
            register std::int32_t a2 __asm__("r8");
            register std::int32_t a3 __asm__("r10");
            const std::int16_t *b, *ap;
            std::int32_t x;
            std::int16_t* cp = mve::raw(c);
            const std::int32_t step = static_cast<std::int32_t>(8 * stride * sizeof(q15));
            SARNN_MVE_WEIGHTED_ASM_(cp);
        }
        if (dim % 4 != 0) weighted_last(base, n, stride, dim, 4 * blocks, alpha, offs, c);
        k = dim;
    }
    for (; k < dim; ++k) {
        std::int32_t acc = 0;
        const q15* ap = alpha;
        for (int g = 0; g < 2; ++g) {
            const q15* v = base[g] + k;
            for (std::size_t i = 0; i < n[g]; ++i, ++ap, v += stride) acc += ap->raw * v->raw;
        }
        const std::int32_t ck = (acc + (std::int32_t{1} << 14)) >> 15;
        c[k] = q15{static_cast<std::int16_t>(ck > 32767 ? 32767 : (ck < -32767 ? -32767 : ck))};
    }
}
#undef SARNN_MVE_WEIGHTED_ASM_
#undef SARNN_MVE_COLUMNS4

}  // namespace sarnn::kernel::q15_mve

#endif
