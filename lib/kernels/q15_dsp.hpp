// lib/kernels/q15_dsp.hpp: the q15 kernels' inner loops (the seam: q15_loops.hpp) for the Cortex-M cores with the DSP
// extension (M4, M7; ARMv7E-M). SMLAD multiplies two pairs of int16 and adds both products in one instruction,
// SMLAxy one chosen half by another, SXTB16 widens two int8 to two int16, LDRD loads two words. The main loops are
// Thumb-2 assembly: GCC 12 at -Os kept the intrinsics' loops (<arm_acle.h>) rolled, their sums on the stack, at
// twice the instructions. Each computes exactly what q15_plain.hpp computes (the same integer sums, whose bounds,
// q15.cpp's, keep every partial sum in int32: SMLAD's and SMLAxy's additions never wrap).
#ifndef SARNN_LIB_KERNELS_Q15_DSP_HPP
#define SARNN_LIB_KERNELS_Q15_DSP_HPP

#include <arm_acle.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "kernels/q15_plain.hpp"
#include "sarnn/fixed.hpp"

namespace sarnn::kernel::q15_loops {

// Four rows of the product, three states of the scores, eight columns of the weighted sum per pass: at most thirteen
// registers in each loop (r7 may be a frame pointer; an unoptimised build takes the plain loops: q15_loops.hpp).
constexpr std::size_t kRows = 4, kStates = 3, kColumns = 8;

namespace dsp {

/// Two int16 as one word, little endian (one LDR).
__attribute__((always_inline)) inline std::int32_t word(const void* p) noexcept {
    std::int32_t w;
    std::memcpy(&w, p, sizeof w);
    return w;
}

/// PKHBT (bottom half of a, bottom half of b on top), PKHTB (top half of a, top half of b below), w rotated right by
/// 8 (SXTB16's ROR #8: the odd bytes): GCC 12's <arm_acle.h> has no intrinsic for them; GCC emits the instruction.
__attribute__((always_inline)) inline std::int32_t pkhbt(std::int32_t a, std::int32_t b) noexcept {
    return static_cast<std::int32_t>((static_cast<std::uint32_t>(a) & 0xFFFFu) | (static_cast<std::uint32_t>(b) << 16));
}
__attribute__((always_inline)) inline std::int32_t pkhtb(std::int32_t a, std::int32_t b) noexcept {
    return static_cast<std::int32_t>((static_cast<std::uint32_t>(a) & 0xFFFF0000u) |
                                     (static_cast<std::uint32_t>(b) >> 16));
}
__attribute__((always_inline)) inline std::int32_t ror8(std::int32_t w) noexcept {
    const auto u = static_cast<std::uint32_t>(w);
    return static_cast<std::int32_t>((u >> 8) | (u << 24));
}

}  // namespace dsp

// (The other group sizes: q15_plain's, from q15_loops.hpp.)

// One row's four int8 weights (loaded by `load` into t) times v's four values, repacked as z = (v0, v2) and x = (v1,
// v3): SXTB16 widens (w0, w2) into y and, rotated by 8, (w1, w3) in place.
#define SARNN_DSP_ROW(a, load)               \
    load                                     \
    "sxtb16 %[y], %[t]\n\t"                  \
    "smlad  %[" a "], %[y], %[z], %[" a "]\n\t" \
    "sxtb16 %[t], %[t], ror #8\n\t"          \
    "smlad  %[" a "], %[t], %[x], %[" a "]\n\t"
// The four rows' loop (label L), after the load of v0..v3 into x, y (`load`: LDRD where v is word aligned, else two
// LDRs): rows 2 and 3 at two rows (ld2 bytes) past rows 0 and 1, whose pointers w0 and w1 move on (thirteen registers).
#define SARNN_DSP_ROWS4_LOOP(L, load)                                                           \
    L ":\n\t" load                                                                              \
    "pkhbt  %[z], %[x], %[y], lsl #16\n\t"                                                      \
    "pkhtb  %[x], %[y], %[x], asr #16\n\t" SARNN_DSP_ROW("a2", "ldr    %[t], [%[w0], %[ld2]]\n\t") \
        SARNN_DSP_ROW("a3", "ldr    %[t], [%[w1], %[ld2]]\n\t")                                 \
            SARNN_DSP_ROW("a0", "ldr    %[t], [%[w0]], #4\n\t")                                 \
                SARNN_DSP_ROW("a1", "ldr    %[t], [%[w1]], #4\n\t") "cmp    %[vp], %[end]\n\t"  \
    "bne    " L "b\n\t"
#define SARNN_DSP_ROWS4(load) SARNN_DSP_ROWS4_LOOP("1", load)

/// Four rows, four columns per iteration (25 instructions for 16 multiply-adds), the last n % 4 columns after.
template <>
inline void dot_rows<4>(const std::int8_t* w, std::size_t ld, const q15* v, std::size_t n, std::int32_t* acc) noexcept {
    const std::size_t n4 = n & ~std::size_t{3};
    if (n4 > 0) {
        std::int32_t a0 = acc[0], a1 = acc[1], a2 = acc[2], a3 = acc[3];
        const std::int8_t* w0 = w;
        const std::int8_t* w1 = w + ld;
        const std::size_t ld2 = 2 * ld;
        const q15* vp = v;
        const q15* const end = v + n4;
        std::int32_t x, y, z, t;
#define SARNN_DSP_ROWS4_OPERANDS                                                                                   \
    : [a0] "+r"(a0), [a1] "+r"(a1), [a2] "+r"(a2), [a3] "+r"(a3), [w0] "+r"(w0), [w1] "+r"(w1), [vp] "+r"(vp),    \
      [x] "=&r"(x), [y] "=&r"(y), [z] "=&r"(z), [t] "=&r"(t)                                                       \
    : [end] "r"(end), [ld2] "r"(ld2), "m"(*reinterpret_cast<const std::int8_t(*)[]>(w)),                          \
      "m"(*reinterpret_cast<const q15(*)[]>(v))                                                                    \
    : "cc"
        if ((reinterpret_cast<std::uintptr_t>(v) & 3u) == 0) {
            __asm__ volatile(SARNN_DSP_ROWS4("ldrd   %[x], %[y], [%[vp]], #8\n\t") SARNN_DSP_ROWS4_OPERANDS);
        } else {
            __asm__ volatile(SARNN_DSP_ROWS4("ldr    %[x], [%[vp]], #4\n\tldr    %[y], [%[vp]], #4\n\t")
                                 SARNN_DSP_ROWS4_OPERANDS);
        }
#undef SARNN_DSP_ROWS4_OPERANDS
        acc[0] = a0;
        acc[1] = a1;
        acc[2] = a2;
        acc[3] = a3;
    }
    if (n4 < n) q15_plain::dot_rows<4>(w + n4, ld, v + n4, n - n4, acc);
}
/// affine_tanh's four rows, both parts in one loop each (the rows' weights are [A_x | A_r], so w0 and w1 leave the
/// first loop at the second part): s = (s_x, s_r) of each row, the eight sums of q15_plain's dot_rows<4>(w, ld, x, nx)
/// and dot_rows<4>(w + nx, ld, r, nr). For nx and nr multiples of 4 (at least 4), x and r word aligned.
#define SARNN_Q15_OWN_ROWS_XR 1
inline void rows4_xr(const std::int8_t* w, std::size_t ld, const q15* x, std::size_t nx, const q15* r, std::size_t nr,
                     std::int32_t* s) noexcept {
    std::int32_t a0, a1, a2, a3, xv, yv, z, t;
    const std::int8_t* w0 = w;
    const std::int8_t* w1 = w + ld;
    const std::size_t ld2 = 2 * ld;
    const q15* vp = x;
    const q15* end = x + nx;
    const q15* const r_end = r + nr;
    __asm__ volatile("mov    %[a0], #0\n\t"
                     "mov    %[a1], #0\n\t"
                     "mov    %[a2], #0\n\t"
                     "mov    %[a3], #0\n\t" SARNN_DSP_ROWS4_LOOP("1", "ldrd   %[x], %[y], [%[vp]], #8\n\t")
                     "ldr    %[t], %[s]\n\t"
                     "str    %[a0], [%[t]]\n\t"
                     "str    %[a1], [%[t], #8]\n\t"
                     "str    %[a2], [%[t], #16]\n\t"
                     "str    %[a3], [%[t], #24]\n\t"
                     "mov    %[a0], #0\n\t"
                     "mov    %[a1], #0\n\t"
                     "mov    %[a2], #0\n\t"
                     "mov    %[a3], #0\n\t"
                     "ldr    %[vp], %[r]\n\t"
                     "ldr    %[end], %[r_end]\n\t" SARNN_DSP_ROWS4_LOOP("2", "ldrd   %[x], %[y], [%[vp]], #8\n\t")
                     "ldr    %[t], %[s]\n\t"
                     "str    %[a0], [%[t], #4]\n\t"
                     "str    %[a1], [%[t], #12]\n\t"
                     "str    %[a2], [%[t], #20]\n\t"
                     "str    %[a3], [%[t], #28]"
                     : [a0] "=&r"(a0), [a1] "=&r"(a1), [a2] "=&r"(a2), [a3] "=&r"(a3), [w0] "+r"(w0), [w1] "+r"(w1),
                       [vp] "+r"(vp), [end] "+r"(end), [x] "=&r"(xv), [y] "=&r"(yv), [z] "=&r"(z), [t] "=&r"(t)
                     : [ld2] "r"(ld2), [s] "m"(s), [r] "m"(r), [r_end] "m"(r_end),
                       "m"(*reinterpret_cast<const std::int8_t(*)[]>(w)), "m"(*reinterpret_cast<const q15(*)[]>(x)),
                       "m"(*reinterpret_cast<const q15(*)[]>(r))
                     : "cc", "memory");
}

/// affine_tanh's packed rows (q15_loops.hpp), where nx and nr are multiples of 8 and nx + nr <= kPackMax: x and r
/// once per call, then every pass of four rows reads them without repacking them.
#define SARNN_Q15_OWN_ROWS_PACKED 1
constexpr std::size_t kPackMax = 128;
/// [x; r] as the passes read them, two words per four values: v0..v3 as z = (v0, v2) and x = (v1, v3), SXTB16's even
/// and odd weights; two zero words before and after (each part's four sums start from them: LDRD).
struct Packed {
    alignas(8) std::int32_t w[kPackMax / 2 + 4];
};
inline bool packs(std::size_t nx, std::size_t nr) noexcept {
    return nx % 8 == 0 && nr % 8 == 0 && nx > 0 && nr > 0 && nx + nr <= kPackMax;
}

// Eight values of v (p post-incremented) packed, after the load of v0..v3 into a and b (`load`, twice).
#define SARNN_DSP_PACK4(load)                  \
    load                                       \
    "pkhbt  %[c], %[a], %[b], lsl #16\n\t"    \
    "pkhtb  %[a], %[b], %[a], asr #16\n\t"    \
    "strd   %[c], %[a], [%[o]], #8\n\t"
#define SARNN_DSP_PACK(load)                                                                              \
    "1:\n\t" SARNN_DSP_PACK4(load) SARNN_DSP_PACK4(load) "cmp    %[v], %[end]\n\t"                        \
    "bne    1b"

/// v's n values (n a multiple of 8, at least 8) packed at o (Packed's order): 10 instructions per 8 values where v
/// is word aligned (LDRD), else 12. Returns the end of what it wrote.
inline std::int32_t* pack_pairs(const q15* v, std::size_t n, std::int32_t* o) noexcept {
    const q15* const end = v + n;
    std::int32_t a, b, c;
#define SARNN_DSP_PACK_OPERANDS                                                                   \
    : [v] "+r"(v), [o] "+r"(o), [a] "=&r"(a), [b] "=&r"(b), [c] "=&r"(c)                       \
    : [end] "r"(end)                                                                            \
    : "cc", "memory"
    if ((reinterpret_cast<std::uintptr_t>(v) & 3u) == 0) {
        __asm__ volatile(SARNN_DSP_PACK("ldrd   %[a], %[b], [%[v]], #8\n\t") SARNN_DSP_PACK_OPERANDS);
    } else {
        __asm__ volatile(SARNN_DSP_PACK("ldr    %[a], [%[v]], #4\n\tldr    %[b], [%[v]], #4\n\t")
                             SARNN_DSP_PACK_OPERANDS);
    }
#undef SARNN_DSP_PACK_OPERANDS
    return o;
}
#undef SARNN_DSP_PACK
#undef SARNN_DSP_PACK4

/// x and r into p (packs(nx, nr)).
inline void pack(const q15* x, std::size_t nx, const q15* r, std::size_t nr, Packed& p) noexcept {
    p.w[0] = p.w[1] = 0;
    std::int32_t* const o = pack_pairs(r, nr, pack_pairs(x, nx, p.w + 2));
    o[0] = o[1] = 0;
}

// Four columns of four rows (21 instructions for 16 multiply-adds): the packed pair z, x (LDRD), then the rows as in
// SARNN_DSP_ROWS4_LOOP, without its repacking.
#define SARNN_DSP_PACKED4                                                                                  \
    "ldrd   %[z], %[x], [%[vp]], #8\n\t" SARNN_DSP_ROW("a2", "ldr    %[t], [%[w0], %[ld2]]\n\t")         \
        SARNN_DSP_ROW("a3", "ldr    %[t], [%[w1], %[ld2]]\n\t") SARNN_DSP_ROW("a0", "ldr    %[t], [%[w0]], #4\n\t") \
            SARNN_DSP_ROW("a1", "ldr    %[t], [%[w1]], #4\n\t")

/// groups passes of four rows (from w, row stride ld: A = [A_x | A_r]) against the packed [x; r] (pack(x, nx, r, nr,
/// p)): s = (s_x, s_r) of each row, as rows4_xr's, in one assembly loop. Eight columns per iteration (44 instructions
/// for 32 multiply-adds); per pass, each part's sums start from Packed's zero words (two LDRDs), the x part's
/// stored, then the r part's; w0 and w1 go on to the next pass's rows (thirteen registers: the ends of each part,
/// where s goes and where it ends in memory).
inline void rows_packed(const std::int8_t* w, std::size_t ld, const Packed& p, std::size_t nx, std::size_t nr,
                        std::size_t groups, std::int32_t* s) noexcept {
    const std::int32_t* vp = p.w + 2;
    const std::int32_t* const x_end = vp + nx / 2;
    const std::int32_t* const r_end = x_end + nr / 2;
    std::int32_t* const s_end = s + 8 * groups;
    const std::int8_t* w0 = w;
    const std::int8_t* w1 = w + ld;
    const std::size_t ld2 = 2 * ld;
    const std::int32_t* end;
    std::int32_t a0, a1, a2, a3, xv, yv, z, t;
    __asm__ volatile("3:\n\t"
                     "ldrd   %[a0], %[a1], [%[vp], #-8]\n\t"
                     "ldrd   %[a2], %[a3], [%[vp], #-8]\n\t"
                     "ldr    %[end], %[x_end]\n\t"
                     "1:\n\t" SARNN_DSP_PACKED4 SARNN_DSP_PACKED4
                     "cmp    %[vp], %[end]\n\t"
                     "bne    1b\n\t"
                     "ldr    %[t], %[s]\n\t"
                     "str    %[a0], [%[t]]\n\t"
                     "str    %[a1], [%[t], #8]\n\t"
                     "str    %[a2], [%[t], #16]\n\t"
                     "str    %[a3], [%[t], #24]\n\t"
                     "ldr    %[end], %[r_end]\n\t"
                     "ldrd   %[a0], %[a1], [%[end]]\n\t"
                     "ldrd   %[a2], %[a3], [%[end]]\n\t"
                     "2:\n\t" SARNN_DSP_PACKED4 SARNN_DSP_PACKED4
                     "cmp    %[vp], %[end]\n\t"
                     "bne    2b\n\t"
                     "ldr    %[t], %[s]\n\t"
                     "str    %[a0], [%[t], #4]\n\t"
                     "str    %[a1], [%[t], #12]\n\t"
                     "str    %[a2], [%[t], #20]\n\t"
                     "str    %[a3], [%[t], #28]\n\t"
                     "add    %[t], %[t], #32\n\t"
                     "str    %[t], %[s]\n\t"
                     // w0 ends at row 1, w1 at row 2: the next pass's rows 4 and 5; vp back to x's start
                     "add    %[y], %[w1], %[ld2]\n\t"
                     "add    %[w1], %[w0], %[ld2], lsl #1\n\t"
                     "mov    %[w0], %[y]\n\t"
                     "sub    %[vp], %[vp], %[ld2]\n\t"
                     "ldr    %[y], %[s_end]\n\t"
                     "cmp    %[t], %[y]\n\t"
                     "bne    3b"
                     : [a0] "=&r"(a0), [a1] "=&r"(a1), [a2] "=&r"(a2), [a3] "=&r"(a3), [w0] "+r"(w0), [w1] "+r"(w1),
                       [vp] "+r"(vp), [end] "=&r"(end), [x] "=&r"(xv), [y] "=&r"(yv), [z] "=&r"(z), [t] "=&r"(t),
                       [s] "+m"(s)
                     : [ld2] "r"(ld2), [x_end] "m"(x_end), [r_end] "m"(r_end), [s_end] "m"(s_end)
                     : "cc", "memory");
}
/// rows_packed for two matrices (affine's gates: A_x rows of nx weights, A_r rows of nr): the x part's rows from wx,
/// the r part's from wr, each part's row pointers and stride loaded at its start (32 instructions a pass besides the
/// loops, against 25).
inline void rows_packed2(const std::int8_t* wx, const std::int8_t* wr, const Packed& p, std::size_t nx, std::size_t nr,
                         std::size_t groups, std::int32_t* s) noexcept {
    const std::int32_t* const v0 = p.w + 2;
    const std::int32_t* vp = v0;
    const std::int32_t* const x_end = vp + nx / 2;
    const std::int32_t* const r_end = x_end + nr / 2;
    std::int32_t* const s_end = s + 8 * groups;
    const std::size_t ldx2 = 2 * nx, ldr2 = 2 * nr;
    const std::int8_t *w0, *w1, *end;
    std::size_t ld2;
    std::int32_t a0, a1, a2, a3, xv, yv, z, t;
    __asm__ volatile("3:\n\t"
                     "ldrd   %[a0], %[a1], [%[vp], #-8]\n\t"
                     "ldrd   %[a2], %[a3], [%[vp], #-8]\n\t"
                     "ldr    %[end], %[x_end]\n\t"
                     "ldr    %[w0], %[wx]\n\t"
                     "ldr    %[ld2], %[ldx2]\n\t"
                     "add    %[w1], %[w0], %[ld2], lsr #1\n\t"
                     "1:\n\t" SARNN_DSP_PACKED4 SARNN_DSP_PACKED4
                     "cmp    %[vp], %[end]\n\t"
                     "bne    1b\n\t"
                     "ldr    %[t], %[s]\n\t"
                     "str    %[a0], [%[t]]\n\t"
                     "str    %[a1], [%[t], #8]\n\t"
                     "str    %[a2], [%[t], #16]\n\t"
                     "str    %[a3], [%[t], #24]\n\t"
                     // w1 ends at row 2: the next pass's row 4
                     "add    %[y], %[w1], %[ld2]\n\t"
                     "str    %[y], %[wx]\n\t"
                     "ldr    %[end], %[r_end]\n\t"
                     "ldrd   %[a0], %[a1], [%[end]]\n\t"
                     "ldrd   %[a2], %[a3], [%[end]]\n\t"
                     "ldr    %[w0], %[wr]\n\t"
                     "ldr    %[ld2], %[ldr2]\n\t"
                     "add    %[w1], %[w0], %[ld2], lsr #1\n\t"
                     "2:\n\t" SARNN_DSP_PACKED4 SARNN_DSP_PACKED4
                     "cmp    %[vp], %[end]\n\t"
                     "bne    2b\n\t"
                     "ldr    %[t], %[s]\n\t"
                     "str    %[a0], [%[t], #4]\n\t"
                     "str    %[a1], [%[t], #12]\n\t"
                     "str    %[a2], [%[t], #20]\n\t"
                     "str    %[a3], [%[t], #28]\n\t"
                     "add    %[t], %[t], #32\n\t"
                     "str    %[t], %[s]\n\t"
                     "add    %[y], %[w1], %[ld2]\n\t"
                     "str    %[y], %[wr]\n\t"
                     "ldr    %[vp], %[v0]\n\t"
                     "ldr    %[y], %[s_end]\n\t"
                     "cmp    %[t], %[y]\n\t"
                     "bne    3b"
                     : [a0] "=&r"(a0), [a1] "=&r"(a1), [a2] "=&r"(a2), [a3] "=&r"(a3), [w0] "=&r"(w0), [w1] "=&r"(w1),
                       [vp] "+r"(vp), [end] "=&r"(end), [x] "=&r"(xv), [y] "=&r"(yv), [z] "=&r"(z), [t] "=&r"(t),
                       [ld2] "=&r"(ld2), [s] "+m"(s), [wx] "+m"(wx), [wr] "+m"(wr)
                     : [x_end] "m"(x_end), [r_end] "m"(r_end), [s_end] "m"(s_end), [ldx2] "m"(ldx2),
                       [ldr2] "m"(ldr2), [v0] "m"(v0)
                     : "cc", "memory");
}
#undef SARNN_DSP_PACKED4

#undef SARNN_DSP_ROWS4
#undef SARNN_DSP_ROWS4_LOOP
#undef SARNN_DSP_ROW

/// Two rows (a pass of the last rows): SMLAD on (w0, w2), (w1, w3) as in the three rows' loop, in C.
template <>
inline void dot_rows<2>(const std::int8_t* w, std::size_t ld, const q15* v, std::size_t n, std::int32_t* acc) noexcept {
    std::int32_t a0 = acc[0], a1 = acc[1];
    std::size_t k = 0;
    for (; k + 4 <= n; k += 4) {
        const std::int32_t v01 = dsp::word(v + k), v23 = dsp::word(v + k + 2);
        const std::int32_t v02 = dsp::pkhbt(v01, v23), v13 = dsp::pkhtb(v23, v01);
        const std::int32_t w0 = dsp::word(w + k), w1 = dsp::word(w + ld + k);
        a0 = __smlad(__sxtb16(w0), v02, a0);
        a0 = __smlad(__sxtb16(dsp::ror8(w0)), v13, a0);
        a1 = __smlad(__sxtb16(w1), v02, a1);
        a1 = __smlad(__sxtb16(dsp::ror8(w1)), v13, a1);
    }
    acc[0] = a0;
    acc[1] = a1;
    if (k < n) q15_plain::dot_rows<2>(w + k, ld, v + k, n - k, acc);
}

// One state's four values (its row pointer p, post-incremented) times q's four: two SMLADs.
#define SARNN_DSP_STATE(a, p)                          \
    "ldrd   %[x], %[y], [%[" p "]], #8\n\t"            \
    "smlad  %[" a "], %[x], %[q0], %[" a "]\n\t"       \
    "smlad  %[" a "], %[y], %[q1], %[" a "]\n\t"

/// Three states, two pairs of q per iteration (12 instructions for 12 multiply-adds), an odd last pair after.
template <>
inline void dot_states<3>(const q15* s, std::size_t stride, const q15* q, std::size_t npairs,
                          std::int32_t* d) noexcept {
    std::int32_t a0 = 0, a1 = 0, a2 = 0;
    const q15* p0 = s;
    const q15* p1 = s + stride;
    const q15* p2 = s + 2 * stride;
    const std::size_t n2 = npairs & ~std::size_t{1};
    if (n2 > 0) {
        const q15* qp = q;
        const q15* const end = q + 2 * n2;
        std::int32_t q0, q1, x, y;
        __asm__ volatile("1:\n\t"
                         "ldrd   %[q0], %[q1], [%[qp]], #8\n\t" SARNN_DSP_STATE("a0", "p0") SARNN_DSP_STATE("a1", "p1")
                             SARNN_DSP_STATE("a2", "p2") "cmp    %[qp], %[end]\n\t"
                         "bne    1b"
                         : [a0] "+r"(a0), [a1] "+r"(a1), [a2] "+r"(a2), [p0] "+r"(p0), [p1] "+r"(p1), [p2] "+r"(p2),
                           [qp] "+r"(qp), [q0] "=&r"(q0), [q1] "=&r"(q1), [x] "=&r"(x), [y] "=&r"(y)
                         : [end] "r"(end), "m"(*reinterpret_cast<const q15(*)[]>(s)),
                           "m"(*reinterpret_cast<const q15(*)[]>(q))
                         : "cc");
    }
    if (n2 < npairs) {
        const std::int32_t q2 = dsp::word(q + 2 * n2);
        a0 = __smlad(dsp::word(p0), q2, a0);
        a1 = __smlad(dsp::word(p1), q2, a1);
        a2 = __smlad(dsp::word(p2), q2, a2);
    }
    d[0] = a0;
    d[1] = a1;
    d[2] = a2;
}


/// One state (the last of a segment): SMLAD a pair.
template <>
inline void dot_states<1>(const q15* s, std::size_t, const q15* q, std::size_t npairs, std::int32_t* d) noexcept {
    std::int32_t a = 0;
    for (std::size_t k = 0; k < 2 * npairs; k += 2) a = __smlad(dsp::word(s + k), dsp::word(q + k), a);
    d[0] = a;
}

/// The rounded scores (q15_loops.hpp), three states a pass: the passes themselves in one assembly loop (the two pairs
/// of q' per iteration of dot_states<3>; then e_j = (d_j + 2^(t-1)) >> t, the 2^(t-1) being the sums' start), the
/// pass's constants in memory (fourteen registers would not hold them). Where q' has an odd number of pairs, and for
/// the last count % 3 states, dot_states.
#define SARNN_Q15_OWN_SCORES 1
inline void scores(const q15* s, std::size_t stride, std::size_t count, const q15* q, std::size_t npairs, int t,
                   q15* e) noexcept {
    const std::int32_t half = std::int32_t{1} << (t - 1);
    const std::size_t groups = npairs % 2 == 0 ? count / 3 : 0;
    if (groups > 0) {
        // what a pass reads: q', 2^(t-1), t, the step from the end of a pass's three rows to the next pass's (three
        // rows less the 2·npairs values read), where e goes, where it ends
        struct Pass {
            const q15* q;
            std::int32_t half, t, gap;
            q15* e;
            const q15* e_end;
        } pass{q, half, t, static_cast<std::int32_t>((3 * stride - 2 * npairs) * sizeof(q15)), e, e + 3 * groups};
        const q15* p0 = s;
        const q15* p1 = s + stride;
        const q15* p2 = s + 2 * stride;
        const q15* const end = q + 2 * npairs;
        std::int32_t a0, a1, a2, q0, q1, x, y;
        const q15* qp;
        __asm__ volatile("2:\n\t"
                         "ldr    %[qp], [%[ps]]\n\t"
                         "ldr    %[a0], [%[ps], #4]\n\t"
                         "mov    %[a1], %[a0]\n\t"
                         "mov    %[a2], %[a0]\n\t"
                         "1:\n\t"
                         "ldrd   %[q0], %[q1], [%[qp]], #8\n\t" SARNN_DSP_STATE("a0", "p0") SARNN_DSP_STATE("a1", "p1")
                             SARNN_DSP_STATE("a2", "p2") "cmp    %[qp], %[end]\n\t"
                         "bne    1b\n\t"
                         "ldr    %[x], [%[ps], #8]\n\t"
                         "asr    %[a0], %[a0], %[x]\n\t"
                         "asr    %[a1], %[a1], %[x]\n\t"
                         "asr    %[a2], %[a2], %[x]\n\t"
                         "ldr    %[y], [%[ps], #16]\n\t"
                         "strh   %[a0], [%[y]], #2\n\t"
                         "strh   %[a1], [%[y]], #2\n\t"
                         "strh   %[a2], [%[y]], #2\n\t"
                         "str    %[y], [%[ps], #16]\n\t"
                         "ldr    %[x], [%[ps], #12]\n\t"
                         "add    %[p0], %[p0], %[x]\n\t"
                         "add    %[p1], %[p1], %[x]\n\t"
                         "add    %[p2], %[p2], %[x]\n\t"
                         "ldr    %[x], [%[ps], #20]\n\t"
                         "cmp    %[y], %[x]\n\t"
                         "bne    2b"
                         : [a0] "=&r"(a0), [a1] "=&r"(a1), [a2] "=&r"(a2), [p0] "+r"(p0), [p1] "+r"(p1), [p2] "+r"(p2),
                           [qp] "=&r"(qp), [q0] "=&r"(q0), [q1] "=&r"(q1), [x] "=&r"(x), [y] "=&r"(y)
                         : [end] "r"(end), [ps] "r"(&pass)
                         : "cc", "memory");
        s += 3 * groups * stride;
        e += 3 * groups;
    }
    for (std::size_t i = 3 * groups; i < count;) {
        std::int32_t d[3];
        if (i + 3 <= count) {
            dot_states<3>(s, stride, q, npairs, d);
            for (const std::int32_t dk : d) (e++)->raw = static_cast<std::int16_t>((dk + half) >> t);
            i += 3;
            s += 3 * stride;
        } else {
            dot_states<1>(s, stride, q, npairs, d);
            (e++)->raw = static_cast<std::int16_t>((d[0] + half) >> t);
            ++i;
            s += stride;
        }
    }
}

#undef SARNN_DSP_STATE

/// max_j e_j: two at a time where e is word aligned, SSUB16 setting each half's GE flags and SEL keeping the larger
/// half of each pair, four per iteration (LDRD).
#define SARNN_Q15_OWN_MAX 1
inline std::int32_t max_raw(const q15* e, std::size_t n) noexcept {
    std::int32_t m = -32768;
    std::size_t j = 0;
    if ((reinterpret_cast<std::uintptr_t>(e) & 3u) == 0 && n >= 4) {
        const std::size_t n4 = n & ~std::size_t{3};
        std::int32_t m2 = static_cast<std::int32_t>(0x80008000u);  // (-32768, -32768)
        const q15* p = e;
        const q15* const end = e + n4;
        std::int32_t x, y, d;
        __asm__ volatile("1:\n\t"
                         "ldrd   %[x], %[y], [%[p]], #8\n\t"
                         "ssub16 %[d], %[x], %[m2]\n\t"
                         "sel    %[m2], %[x], %[m2]\n\t"
                         "ssub16 %[d], %[y], %[m2]\n\t"
                         "sel    %[m2], %[y], %[m2]\n\t"
                         "cmp    %[p], %[end]\n\t"
                         "bne    1b"
                         : [m2] "+r"(m2), [p] "+r"(p), [x] "=&r"(x), [y] "=&r"(y), [d] "=&r"(d)
                         : [end] "r"(end), "m"(*reinterpret_cast<const q15(*)[]>(e))
                         : "cc");
        const auto lo = static_cast<std::int16_t>(m2 & 0xFFFF), hi = static_cast<std::int16_t>(m2 >> 16);
        m = lo > hi ? lo : hi;
        j = n4;
    }
    for (; j < n; ++j) m = e[j].raw > m ? e[j].raw : m;
    return m;
}

/// softmax's last pass (q15_loops.hpp), two values a word where alpha is word aligned: EOR turns both int16 into
/// their p_j (+ 32768 is a flip of the top bit), USAT #15 is the min with 32767 (the shifted product is below 2^16).
#define SARNN_Q15_OWN_NORMALIZE 1
inline void normalize(q15* alpha, std::size_t n, std::uint32_t rec, int down) noexcept {
    std::size_t j = 0;
    if ((reinterpret_cast<std::uintptr_t>(alpha) & 3u) == 0 && n >= 2) {
        const std::size_t n2 = n & ~std::size_t{1};
        q15* p = alpha;
        q15* const end = alpha + n2;
        std::int32_t w, a, b;
        __asm__ volatile("1:\n\t"
                         "ldr    %[w], [%[p]]\n\t"
                         "eor    %[w], %[w], #0x80008000\n\t"
                         "uxth   %[a], %[w]\n\t"
                         "lsr    %[b], %[w], #16\n\t"
                         "mul    %[a], %[a], %[rec]\n\t"
                         "mul    %[b], %[b], %[rec]\n\t"
                         "lsr    %[a], %[a], %[down]\n\t"
                         "lsr    %[b], %[b], %[down]\n\t"
                         "usat   %[a], #15, %[a]\n\t"
                         "usat   %[b], #15, %[b]\n\t"
                         "pkhbt  %[a], %[a], %[b], lsl #16\n\t"
                         "str    %[a], [%[p]], #4\n\t"
                         "cmp    %[p], %[end]\n\t"
                         "bne    1b"
                         : [p] "+r"(p), [w] "=&r"(w), [a] "=&r"(a), [b] "=&r"(b)
                         : [rec] "r"(rec), [down] "r"(down), [end] "r"(end)
                         : "cc", "memory");
        j = n2;
    }
    for (; j < n; ++j) {
        const auto p = static_cast<std::uint32_t>(alpha[j].raw + 32768);
        const std::uint32_t av = (p * rec) >> down;
        alpha[j].raw = static_cast<std::int16_t>(av > 32767u ? 32767u : av);
    }
}

// Two states' eight values (vp, then vp += step, twice; step read from the stack) times their weights, the bottom (B)
// then top (T) half of aw, loaded from ap.
#define SARNN_DSP_COLS8_STATE(half)                                            \
    "ldrd   %[x], %[y], [%[vp]]\n\t"                                           \
    "smla" half "b %[c0], %[aw], %[x], %[c0]\n\t"                              \
    "smla" half "t %[c1], %[aw], %[x], %[c1]\n\t"                              \
    "smla" half "b %[c2], %[aw], %[y], %[c2]\n\t"                              \
    "smla" half "t %[c3], %[aw], %[y], %[c3]\n\t"                              \
    "ldrd   %[x], %[y], [%[vp], #8]\n\t"                                       \
    "smla" half "b %[c4], %[aw], %[x], %[c4]\n\t"                              \
    "smla" half "t %[c5], %[aw], %[x], %[c5]\n\t"                              \
    "smla" half "b %[c6], %[aw], %[y], %[c6]\n\t"                              \
    "smla" half "t %[c7], %[aw], %[y], %[c7]\n\t"                              \
    "ldr    %[x], %[step]\n\t"                                                \
    "add    %[vp], %[vp], %[x]\n\t"
#define SARNN_DSP_COLS8_PAIR                 \
    "ldr    %[aw], [%[ap]], #4\n\t"          \
    SARNN_DSP_COLS8_STATE("b") SARNN_DSP_COLS8_STATE("t")

/// Eight columns, four states per iteration (53 instructions for 32 multiply-adds; thirteen registers, the row step
/// and the loop's end read from the stack), two states first in C where count % 4 == 2.
template <>
inline void columns<8>(const q15* a, const q15* v, std::size_t stride, std::size_t count, std::int32_t* acc) noexcept {
    if (count % 4 != 0) {
        // the two first states (count is even), in C
        q15_plain::columns<8>(a, v, stride, 2, acc);
        a += 2;
        v += 2 * stride;
        count -= 2;
        if (count == 0) return;
    }
    std::int32_t c0 = acc[0], c1 = acc[1], c2 = acc[2], c3 = acc[3], c4 = acc[4], c5 = acc[5], c6 = acc[6],
                 c7 = acc[7];
    const q15* ap = a;
    const q15* vp = v;
    const std::size_t step = stride * sizeof(q15);
    const q15* const end = a + count;
    std::int32_t aw, x, y;
    __asm__ volatile("1:\n\t" SARNN_DSP_COLS8_PAIR SARNN_DSP_COLS8_PAIR
                     "ldr    %[x], %[end]\n\t"
                     "cmp    %[ap], %[x]\n\t"
                     "bne    1b"
                     : [c0] "+r"(c0), [c1] "+r"(c1), [c2] "+r"(c2), [c3] "+r"(c3), [c4] "+r"(c4), [c5] "+r"(c5),
                       [c6] "+r"(c6), [c7] "+r"(c7), [ap] "+r"(ap), [vp] "+r"(vp), [aw] "=&r"(aw), [x] "=&r"(x),
                       [y] "=&r"(y)
                     : [step] "m"(step), [end] "m"(end)
                     : "cc", "memory");
    acc[0] = c0;
    acc[1] = c1;
    acc[2] = c2;
    acc[3] = c3;
    acc[4] = c4;
    acc[5] = c5;
    acc[6] = c6;
    acc[7] = c7;
}
#undef SARNN_DSP_COLS8_PAIR
#undef SARNN_DSP_COLS8_STATE

/// Two columns (a pass of the last columns): SMLAxy, two states per iteration, in C.
template <>
inline void columns<2>(const q15* a, const q15* v, std::size_t stride, std::size_t count, std::int32_t* acc) noexcept {
    std::int32_t c0 = acc[0], c1 = acc[1];
    for (std::size_t j = 0; j < count; j += 2, v += 2 * stride) {
        const std::int32_t aw = dsp::word(a + j), x0 = dsp::word(v), x1 = dsp::word(v + stride);
        c0 = __smlatb(aw, x1, __smlabb(aw, x0, c0));
        c1 = __smlatt(aw, x1, __smlabt(aw, x0, c1));
    }
    acc[0] = c0;
    acc[1] = c1;
}

/// affine_tanh's rows finished (q15.cpp's finish_row, the same integers) from their sums s = (s_x, s_r) pairs, for
/// an input factor x_m / 2^(31 + x_shift) with x_shift = 1 - UP (UP 1 or 2) and x_m >= 0; one row in 34 instructions
/// where GCC's form of the same took about 70. Stops before the first row whose shift is below 2 (the short form
/// below needs shift >= 2: the caller finishes that row) and returns how many rows it wrote. With kTanh false, y = pre
/// (affine's rows: 21 instructions a row; b may not be null).
///   xq  = clamp(floor((s_x·x_m + 2^(s-1)) / 2^s), +-2^30), s = 31 + x_shift: one SMLAL from 2^(s-1); hi >= 2^(s-2)
///         (or < -2^(s-2)) is exactly the clamp (one unsigned comparison of hi + 2^(s-2)); else hi·2^UP + the low
///         word's top UP bits, both added to s_r
///   pre = ssat16(qadd(floor((H + 2^(shift-2)) / 2^(shift-1)), b_r)), H the high word of (xq + s_r)·m_r: taken as
///         ssat16(qdadd((H >> (shift - 2)) + 1, b_r) >> 1), QDADD adding 2·b_r saturated (|H| <= 2^30: where
///         nothing saturates, floor((u + 2·b_r) / 2) = floor(u / 2) + b_r; where a sum saturates, both forms do on
///         the same side, beyond int16)
///   y   = tanh(pre): |pre| clamped to 32767 (the table's last two entries are equal), i = |pre| >> 6, f = |pre| & 63,
///         T_i + ((T_(i+1) - T_i)·f + 32) >> 6 as (T_i·(64 - f) + T_(i+1)·f + 32) >> 6: one (unaligned) LDR of
///         (T_i, T_(i+1)) and SMUAD with (64 - f, f); the sign back with the rounding, ((X ^ m) + 32) >> 6 for
///         m = pre >> 31 (for pre < 0: (31 - X) >> 6 = -((X + 32) >> 6))
#define SARNN_Q15_OWN_FINISH_TANH 1
// The rows' loop up to pre (in sr), before its tail stores y and tests the end.
#define SARNN_DSP_FINISH_HEAD                          \
    "1:\n\t"                                           \
    "ldrd   %[sx], %[sr], [%[s]], #8\n\t"               \
    "mov    %[lo], %[half]\n\t"                         \
    "mov    %[hi], #0\n\t"                              \
    "smlal  %[lo], %[hi], %[sx], %[xm]\n\t"             \
    "add    %[sx], %[hi], %[lim]\n\t"                   \
    "cmp    %[sx], %[lim2]\n\t"                         \
    "bhs    5f\n\t"                                     \
    "add    %[sr], %[sr], %[hi], lsl %[up]\n\t"         \
    "add    %[sr], %[sr], %[lo], lsr %[down]\n\t"       \
    "2:\n\t"                                           \
    "ldrsb  %[t], [%[sh]], #1\n\t"                      \
    "subs   %[t], %[t], #2\n\t"                         \
    "bmi    7f\n\t"                                     \
    "ldr    %[sx], [%[m]], #4\n\t"                      \
    "smull  %[lo], %[hi], %[sr], %[sx]\n\t"             \
    "asr    %[hi], %[hi], %[t]\n\t"                     \
    "add    %[hi], %[hi], #1\n\t"                       \
    "ldr    %[t], [%[b]], #4\n\t"                       \
    "qdadd  %[hi], %[hi], %[t]\n\t"                     \
    "ssat   %[sr], #16, %[hi], asr #1\n\t"
// The loop's end test and the clamp of xq out of line.
#define SARNN_DSP_FINISH_TAIL                          \
    "cmp    %[yp], %[end]\n\t"                          \
    "bne    1b\n\t"                                     \
    "b      7f\n\t"                                     \
    "5:\n\t"                                           \
    "cmp    %[hi], #0\n\t"                              \
    "ite    ge\n\t"                                     \
    "addge  %[sr], %[sr], #0x40000000\n\t"              \
    "sublt  %[sr], %[sr], #0x40000000\n\t"              \
    "b      2b\n\t"                                     \
    "7:"
#define SARNN_DSP_FINISH_OPERANDS                                                                                   \
    : [s] "+r"(s), [m] "+r"(m), [sh] "+r"(shift), [b] "+r"(b), [yp] "+r"(yp), [sx] "=&r"(sx), [sr] "=&r"(sr),     \
      [lo] "=&r"(lo), [hi] "=&r"(hi), [t] "=&r"(t)                                                                 \
    : [xm] "r"(x_m), [tab] "r"(tab), [end] "r"(end), [half] "i"(1 << (29 + 2 - UP)), [lim] "i"(1 << (28 + 2 - UP)), \
      [lim2] "i"(1 << (29 + 2 - UP)), [up] "i"(UP), [down] "i"(32 - UP)                                            \
    : "cc", "memory"
template <int UP, bool kTanh = true>
inline std::size_t finish_tanh(const std::int32_t* s, std::size_t rows, const std::int32_t* m,
                               const std::int8_t* shift, const std::int32_t* b, std::int32_t x_m, q15* y) noexcept {
    static_assert(UP == 1 || UP == 2, "x_shift 0 or -1");
    if (rows == 0) return 0;
    q15* yp = y;
    q15* const end = y + rows;
    const std::int16_t* const tab = fixed::detail::kTanhTable;
    std::int32_t sx, sr, lo, hi, t;
    if constexpr (kTanh) {
        __asm__ volatile(SARNN_DSP_FINISH_HEAD
                         "eor    %[t], %[sr], %[sr], asr #31\n\t"
                         "sub    %[t], %[t], %[sr], asr #31\n\t"
                         "usat   %[t], #15, %[t]\n\t"
                         "lsr    %[lo], %[t], #6\n\t"
                         "ldr    %[lo], [%[tab], %[lo], lsl #1]\n\t"
                         "and    %[t], %[t], #63\n\t"
                         "rsb    %[hi], %[t], %[t], lsl #16\n\t"
                         "add    %[hi], %[hi], #64\n\t"
                         "smuad  %[hi], %[lo], %[hi]\n\t"
                         "eor    %[hi], %[hi], %[sr], asr #31\n\t"
                         "add    %[hi], %[hi], #32\n\t"
                         "asr    %[hi], %[hi], #6\n\t"
                         "strh   %[hi], [%[yp]], #2\n\t" SARNN_DSP_FINISH_TAIL SARNN_DSP_FINISH_OPERANDS);
    } else {
        __asm__ volatile(SARNN_DSP_FINISH_HEAD "strh   %[sr], [%[yp]], #2\n\t" SARNN_DSP_FINISH_TAIL
                             SARNN_DSP_FINISH_OPERANDS);
    }
    return static_cast<std::size_t>(yp - y);
}
#undef SARNN_DSP_FINISH_OPERANDS
#undef SARNN_DSP_FINISH_TAIL
#undef SARNN_DSP_FINISH_HEAD

}  // namespace sarnn::kernel::q15_loops

#endif
