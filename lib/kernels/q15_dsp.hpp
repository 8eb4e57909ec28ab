// lib/kernels/q15_dsp.hpp: the q15 kernels' inner loops (the seam: q15_seam.hpp) for the Cortex-M cores with the DSP
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

#include "kernels/exp.hpp"
#include "kernels/q15_plain.hpp"
#include "kernels/q15_seam.hpp"
#include "sarnn/fixed.hpp"

namespace sarnn::kernel::q15_dsp {

// Four rows of the product, three states of the scores (four at the common row strides: scores4), eight columns of
// the weighted sum per pass (weighted_sum, which the set owns): at most thirteen registers in each loop (r7 may be a
// frame pointer; an unoptimised build takes the plain loops: q15_loops.hpp).
constexpr std::size_t kRows = 4, kStates = 3, kColumns = 8;

// The group sizes without a loop of their own: q15_plain's (the specialisations below are this target's).
template <std::size_t G>
inline void dot_rows(const std::int8_t* w, std::size_t ld, const q15* v, std::size_t n, std::int32_t* acc) noexcept {
    q15_plain::dot_rows<G>(w, ld, v, n, acc);
}
template <std::size_t G>
inline void dot_states(const q15* s, std::size_t stride, const q15* q, std::size_t npairs, std::int32_t* d) noexcept {
    q15_plain::dot_states<G>(s, stride, q, npairs, d);
}
template <std::size_t G>
inline void columns(const q15* a, const q15* v, std::size_t stride, std::size_t count, std::int32_t* acc) noexcept {
    q15_plain::columns<G>(a, v, stride, count, acc);
}

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

// A pass's four sums of one part (o: 0 the x part's, 4 the r part's) stored at s (read from memory) + o, + o + 8, ...
#define SARNN_DSP_STORE_SUMS(o)              \
    "ldr    %[t], %[s]\n\t"                  \
    "str    %[a0], [%[t], #" #o "]\n\t"      \
    "str    %[a1], [%[t], #" #o " + 8]\n\t"  \
    "str    %[a2], [%[t], #" #o " + 16]\n\t" \
    "str    %[a3], [%[t], #" #o " + 24]\n\t"
/// affine_tanh's four rows, both parts in one loop each (the rows' weights are [A_x | A_r], so w0 and w1 leave the
/// first loop at the second part): s = (s_x, s_r) of each row, the eight sums of q15_plain's dot_rows<4>(w, ld, x, nx)
/// and dot_rows<4>(w + nx, ld, r, nr). For nx and nr multiples of 4 (at least 4), x and r word aligned.
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
                     SARNN_DSP_STORE_SUMS(0)
                     "mov    %[a0], #0\n\t"
                     "mov    %[a1], #0\n\t"
                     "mov    %[a2], #0\n\t"
                     "mov    %[a3], #0\n\t"
                     "ldr    %[vp], %[r]\n\t"
                     "ldr    %[end], %[r_end]\n\t" SARNN_DSP_ROWS4_LOOP("2", "ldrd   %[x], %[y], [%[vp]], #8\n\t")
                     SARNN_DSP_STORE_SUMS(4)
                     : [a0] "=&r"(a0), [a1] "=&r"(a1), [a2] "=&r"(a2), [a3] "=&r"(a3), [w0] "+r"(w0), [w1] "+r"(w1),
                       [vp] "+r"(vp), [end] "+r"(end), [x] "=&r"(xv), [y] "=&r"(yv), [z] "=&r"(z), [t] "=&r"(t)
                     : [ld2] "r"(ld2), [s] "m"(s), [r] "m"(r), [r_end] "m"(r_end),
                       "m"(*reinterpret_cast<const std::int8_t(*)[]>(w)), "m"(*reinterpret_cast<const q15(*)[]>(x)),
                       "m"(*reinterpret_cast<const q15(*)[]>(r))
                     : "cc", "memory");
}

/// affine_tanh's packed rows (q15_seam.hpp), where nx and nr are multiples of 8 and nx + nr <= kPackMax: x and r
/// once per call, then every pass of four rows reads them without repacking them.
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

// The packed loop (label L) over one part: SARNN_DSP_PACKED4 twice until vp reaches end (44 instructions).
#define SARNN_DSP_PACKED_LOOP(L)                                                                             \
    L ":\n\t" SARNN_DSP_PACKED4 SARNN_DSP_PACKED4 "cmp    %[vp], %[end]\n\t"                               \
      "bne    " L "b\n\t"
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
                     SARNN_DSP_PACKED_LOOP("1")
                     SARNN_DSP_STORE_SUMS(0)
                     "ldr    %[end], %[r_end]\n\t"
                     "ldrd   %[a0], %[a1], [%[end]]\n\t"
                     "ldrd   %[a2], %[a3], [%[end]]\n\t"
                     SARNN_DSP_PACKED_LOOP("2")
                     SARNN_DSP_STORE_SUMS(4)
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
                     SARNN_DSP_PACKED_LOOP("1")
                     SARNN_DSP_STORE_SUMS(0)
                     // w1 ends at row 2: the next pass's row 4
                     "add    %[y], %[w1], %[ld2]\n\t"
                     "str    %[y], %[wx]\n\t"
                     "ldr    %[end], %[r_end]\n\t"
                     "ldrd   %[a0], %[a1], [%[end]]\n\t"
                     "ldrd   %[a2], %[a3], [%[end]]\n\t"
                     "ldr    %[w0], %[wr]\n\t"
                     "ldr    %[ld2], %[ldr2]\n\t"
                     "add    %[w1], %[w0], %[ld2], lsr #1\n\t"
                     SARNN_DSP_PACKED_LOOP("2")
                     SARNN_DSP_STORE_SUMS(4)
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
#undef SARNN_DSP_PACKED_LOOP
#undef SARNN_DSP_STORE_SUMS

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

/// The rounded scores of groups of four states whose rows are STEP bytes apart (a constant: the common strides,
/// Hidden 16, 32 and 64, dispatched by scores below), q' of a multiple of 4 pairs: eight values of q' (two LDRDs) per
/// iteration times the four states' eight, each state's reached by an immediate offset from one pointer (28
/// instructions for 32 multiply-adds; the runtime stride of dot_states<3> takes a pointer a state: 12 for 12).
/// e_j = (d_j + 2^(t-1)) >> t as in scores; the pass's constants in memory (thirteen registers hold the loop).
/// Returns the states done (4·groups); s and e move past them.
template <int STEP>
inline std::size_t scores4(const q15*& s, std::size_t groups, const q15* q, std::size_t npairs, int t,
                           q15*& e) noexcept {
    static_assert(STEP % 4 == 0 && 3 * STEP + 8 <= 1020, "LDRD's immediate offsets");
    const std::int32_t half = std::int32_t{1} << (t - 1);
    // the step from where a pass's loop leaves p (its first row, 4·npairs bytes on) to the next pass's first row
    const std::int32_t gap = 4 * STEP - static_cast<std::int32_t>(4 * npairs);
    const std::int32_t tt = t;
    q15* ep = e;
    q15* const e_end = e + 4 * groups;
    const q15* p = s;
    const q15* const end = q + 2 * npairs;
    std::int32_t a0, a1, a2, a3, q0, q1, q2, q3, x, y;
    const q15* qp;
#define SARNN_DSP_STATE8(a, o)                           \
    "ldrd   %[x], %[y], [%[p], #" #o "]\n\t"             \
    "smlad  %[" a "], %[x], %[q0], %[" a "]\n\t"         \
    "smlad  %[" a "], %[y], %[q1], %[" a "]\n\t"         \
    "ldrd   %[x], %[y], [%[p], #" #o " + 8]\n\t"         \
    "smlad  %[" a "], %[x], %[q2], %[" a "]\n\t"         \
    "smlad  %[" a "], %[y], %[q3], %[" a "]\n\t"
    __asm__ volatile("2:\n\t"
                     "ldr    %[qp], %[q]\n\t"
                     "ldr    %[a0], %[half]\n\t"
                     "mov    %[a1], %[a0]\n\t"
                     "mov    %[a2], %[a0]\n\t"
                     "mov    %[a3], %[a0]\n\t"
                     "1:\n\t"
                     "ldrd   %[q2], %[q3], [%[qp], #8]\n\t"
                     "ldrd   %[q0], %[q1], [%[qp]], #16\n\t"
                     SARNN_DSP_STATE8("a1", (%c[s1])) SARNN_DSP_STATE8("a2", (%c[s2])) SARNN_DSP_STATE8("a3", (%c[s3]))
                     "ldrd   %[x], %[y], [%[p], #8]\n\t"
                     "smlad  %[a0], %[x], %[q2], %[a0]\n\t"
                     "smlad  %[a0], %[y], %[q3], %[a0]\n\t"
                     "ldrd   %[x], %[y], [%[p]], #16\n\t"
                     "smlad  %[a0], %[x], %[q0], %[a0]\n\t"
                     "smlad  %[a0], %[y], %[q1], %[a0]\n\t"
                     "cmp    %[qp], %[end]\n\t"
                     "bne    1b\n\t"
                     "ldr    %[x], %[t]\n\t"
                     "asr    %[a0], %[a0], %[x]\n\t"
                     "asr    %[a1], %[a1], %[x]\n\t"
                     "asr    %[a2], %[a2], %[x]\n\t"
                     "asr    %[a3], %[a3], %[x]\n\t"
                     "ldr    %[y], %[ep]\n\t"
                     "strh   %[a0], [%[y]], #2\n\t"
                     "strh   %[a1], [%[y]], #2\n\t"
                     "strh   %[a2], [%[y]], #2\n\t"
                     "strh   %[a3], [%[y]], #2\n\t"
                     "str    %[y], %[ep]\n\t"
                     "ldr    %[x], %[gap]\n\t"
                     "add    %[p], %[p], %[x]\n\t"
                     "ldr    %[x], %[e_end]\n\t"
                     "cmp    %[y], %[x]\n\t"
                     "bne    2b"
                     : [a0] "=&r"(a0), [a1] "=&r"(a1), [a2] "=&r"(a2), [a3] "=&r"(a3), [q0] "=&r"(q0), [q1] "=&r"(q1),
                       [q2] "=&r"(q2), [q3] "=&r"(q3), [x] "=&r"(x), [y] "=&r"(y), [p] "+r"(p), [qp] "=&r"(qp),
                       [ep] "+m"(ep)
                     : [end] "r"(end), [q] "m"(q), [half] "m"(half), [t] "m"(tt), [gap] "m"(gap), [e_end] "m"(e_end),
                       [s1] "i"(STEP), [s2] "i"(2 * STEP), [s3] "i"(3 * STEP)
                     : "cc", "memory");
#undef SARNN_DSP_STATE8
    s = p;
    e = ep;
    return 4 * groups;
}

/// The rounded scores (q15_seam.hpp), three states a pass: the passes themselves in one assembly loop (the two pairs
/// of q' per iteration of dot_states<3>; then e_j = (d_j + 2^(t-1)) >> t, the 2^(t-1) being the sums' start), the
/// pass's constants in memory (fourteen registers would not hold them). Where q' has an odd number of pairs, and for
/// the last count % 3 states, dot_states.
inline void scores(const q15* s, std::size_t stride, std::size_t count, const q15* q, std::size_t npairs, int t,
                   q15* e) noexcept {
    // four states a pass where the stride is one of the constants of scores4 (the rest after, as below)
    if (npairs % 4 == 0 && count >= 4) {
        const std::size_t groups = count / 4;
        switch (stride) {
            case 16: count -= scores4<32>(s, groups, q, npairs, t, e); break;
            case 32: count -= scores4<64>(s, groups, q, npairs, t, e); break;
            case 64: count -= scores4<128>(s, groups, q, npairs, t, e); break;
            default: break;
        }
    }
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

// |x| + |y| of one word's two int16 (x, y), added to sum: SSUB16 from 0 sets each half's GE flag where the value is
// <= 0, SEL makes the signs (-1 there, else 1; from m1 = (-1, -1), p1 = (1, 1)), SMLAD the sum of the products (32768
// for -32768, as the product is 32 bits).
#define SARNN_DSP_ABS2(w)                                 \
    "ssub16 %[g], %[zero], %[" w "]\n\t"                  \
    "sel    %[g], %[m1], %[p1]\n\t"                       \
    "smlad  %[sum], %[" w "], %[g], %[sum]\n\t"
#define SARNN_DSP_ABS2_OPERANDS \
    [zero] "r"(0), [m1] "r"(-1), [p1] "r"(0x00010001)

/// Σ_k |q_k| (prepare_query's first sum; q15_seam.hpp), four values (LDRD) per iteration (9 instructions) from the
/// first word aligned one, the others in C.
inline std::uint32_t abs_sum(const q15* q, std::size_t dim) noexcept {
    const auto one = [](const q15 v) { return static_cast<std::uint32_t>(v.raw < 0 ? -v.raw : v.raw); };
    std::uint32_t sum = 0;
    const q15* p = q;
    const q15* const end = q + dim;
    if ((reinterpret_cast<std::uintptr_t>(p) & 3u) != 0 && p != end) sum = one(*p++);
    const q15* const end4 = p + ((end - p) & ~std::ptrdiff_t{3});
    if (p != end4) {
        std::int32_t x, y, g;
        __asm__ volatile("1:\n\t"
                         "ldrd   %[x], %[y], [%[p]], #8\n\t" SARNN_DSP_ABS2("x") SARNN_DSP_ABS2("y")
                         "cmp    %[p], %[end]\n\t"
                         "bne    1b"
                         : [sum] "+&r"(sum), [p] "+r"(p), [x] "=&r"(x), [y] "=&r"(y), [g] "=&r"(g)
                         : [end] "r"(end4), SARNN_DSP_ABS2_OPERANDS, "m"(*reinterpret_cast<const q15(*)[]>(q))
                         : "cc");
    }
    for (; p != end; ++p) sum += one(*p);
    return sum;
}

/// q'_k = (q_k + 2^(s-1)) >> s into qp and Σ_k |q'_k| (prepare_query's rounding; q15_seam.hpp), four values (LDRD,
/// STRD) per iteration (18 instructions) where q and qp are alike aligned (from the first word aligned one; the others
/// in C): for a word w = (lo, hi), SMMULR(w, 2^(16-s)) = floor((hi·2^(32-s) + lo_u·2^(16-s) + 2^31) / 2^32) =
/// floor((hi + 2^(s-1) + lo_u / 2^16) / 2^s) = hi' (lo_u < 2^16: the fraction never carries), and likewise of
/// w << 16 the lo'; PKHBT packs them.
inline std::uint32_t round_query(const q15* q, q15* qp, std::size_t dim, int s) noexcept {
    const std::int32_t half = std::int32_t{1} << (s - 1);
    const auto one = [half, s](const q15* v, q15* out) {
        const std::int32_t r = (v->raw + half) >> s;
        out->raw = static_cast<std::int16_t>(r);
        return static_cast<std::uint32_t>(r < 0 ? -r : r);
    };
    std::uint32_t sum = 0;
    const q15* p = q;
    q15* o = qp;
    const q15* const end = q + dim;
    if (((reinterpret_cast<std::uintptr_t>(p) ^ reinterpret_cast<std::uintptr_t>(o)) & 3u) == 0) {
        if ((reinterpret_cast<std::uintptr_t>(p) & 3u) != 0 && p != end) sum = one(p++, o++);
        const q15* const end4 = p + ((end - p) & ~std::ptrdiff_t{3});
        if (p != end4) {
            std::int32_t x, y, g;
            __asm__ volatile("1:\n\t"
                             "ldrd   %[x], %[y], [%[p]], #8\n\t"
                             "lsl    %[g], %[x], #16\n\t"
                             "smmulr %[g], %[g], %[f]\n\t"
                             "smmulr %[x], %[x], %[f]\n\t"
                             "pkhbt  %[x], %[g], %[x], lsl #16\n\t" SARNN_DSP_ABS2("x")
                             "lsl    %[g], %[y], #16\n\t"
                             "smmulr %[g], %[g], %[f]\n\t"
                             "smmulr %[y], %[y], %[f]\n\t"
                             "pkhbt  %[y], %[g], %[y], lsl #16\n\t" SARNN_DSP_ABS2("y")
                             "strd   %[x], %[y], [%[o]], #8\n\t"
                             "cmp    %[p], %[end]\n\t"
                             "bne    1b"
                             : [sum] "+&r"(sum), [p] "+r"(p), [o] "+r"(o), [x] "=&r"(x), [y] "=&r"(y), [g] "=&r"(g)
                             : [end] "r"(end4), [f] "r"(std::int32_t{1} << (16 - s)), SARNN_DSP_ABS2_OPERANDS
                             : "cc", "memory");
        }
    }
    for (; p != end; ++p, ++o) sum += one(p, o);
    return sum;
}

#undef SARNN_DSP_ABS2_OPERANDS
#undef SARNN_DSP_ABS2

/// softmax's first pass (q15_seam.hpp; m >= every e_j, and d·to_q16 > -12·2^16 wherever d = e_j - m > zero_below, as
/// softmax's zero_below gives), exp_q16_inline (kernels/exp.hpp) written out for the states above the cut: 4
/// instructions a state below it (the store of p_j - 32768 = -32768, the next state's load and test), 21 above it. The
/// loop tests its end only after a state above the cut: it ends at the last one (the states after it are set here
/// first). Above the cut, with x = (e_j - m)·2^(s+2) (to_q16 = 2^s; one MLA: e_j·2^(s+2) - m·2^(s+2) modulo 2^32,
/// exact as |x| < 3·2^20) and y = -(e_j - m)·2^s the exponential's argument:
///   t    = (y·94548 + 2^15) >> 16 = (x·(-94548·2^14) + 2^31) >> 32: one SMMULR (exp_q16's t, the same integer)
///   k, i, frac = t >> 16, (t >> 8) & 255, t & 255: UBFX i; UXTB16 of t ror 16 = k + frac·2^16 (k a shift amount
///        as it is, frac the top half for SMULTB)
///   v    = T[i] + floor(((T[i+1] - T[i])·frac + 128) / 256) = T[i] + ((T[i+1] - T[i])·frac·2^24 + 2^31) >> 32:
///        LDRD of the table's pair, SMULTB, SMMLAR (interpolate's integer)
///   p_j  = (v + 2^(k-1)) >> k (v where k = 0) = (v·2^8·(2^24 >> k) + 2^31) >> 32: one SMMULR (v·2^(32-k) / 2^32
///        rounded half up), then USAT #16, the min with 65535 (reached by the max alone, p_j = 65536)
inline std::uint32_t exps(q15* alpha, std::size_t n, std::int32_t m, std::int32_t to_q16,
                          std::int32_t zero_below) noexcept {
    const std::int32_t thr = m + zero_below;  // above the cut: e_j > thr
    // the states after the last one above the cut: p_j = 0
    while (n > 0 && alpha[n - 1].raw <= thr) alpha[--n].raw = -32768;
    if (n == 0) return 0;
    const auto s4 = static_cast<std::uint32_t>(to_q16) << 2;
    const std::uint32_t nm = (0u - static_cast<std::uint32_t>(m)) * s4;  // -m·2^(s+2) modulo 2^32
    const std::int32_t nlog2e = -static_cast<std::int32_t>(fixed::detail::kLog2eQ16 << 14);
    const std::uint32_t* const tab = fixed::detail::kExp2Table;
    std::uint32_t l = 0;
    q15* p = alpha;
    q15* const end = alpha + n;
    std::int32_t t, a, b;
    __asm__ volatile("b      2f\n\t"
                     "1:\n\t"
                     "strh   %[low], [%[p], #-2]\n\t"
                     "2:\n\t"
                     "ldrsh  %[t], [%[p]], #2\n\t"
                     "cmp    %[t], %[thr]\n\t"
                     "ble    1b\n\t"
                     "mla    %[t], %[t], %[s4], %[nm]\n\t"
                     "smmulr %[t], %[t], %[nlog2e]\n\t"
                     "ubfx   %[a], %[t], #8, #8\n\t"
                     "add    %[a], %[tab], %[a], lsl #2\n\t"
                     "ldrd   %[a], %[b], [%[a]]\n\t"
                     "sub    %[b], %[b], %[a]\n\t"
                     "uxtb16 %[t], %[t], ror #16\n\t"
                     "smultb %[b], %[t], %[b]\n\t"
                     "smmlar %[a], %[b], %[c24], %[a]\n\t"
                     "lsl    %[a], %[a], #8\n\t"
                     "lsr    %[b], %[c24], %[t]\n\t"
                     "smmulr %[a], %[a], %[b]\n\t"
                     "usat   %[a], #16, %[a]\n\t"
                     "add    %[l], %[l], %[a]\n\t"
                     "sub    %[a], %[a], #32768\n\t"
                     "strh   %[a], [%[p], #-2]\n\t"
                     "cmp    %[p], %[end]\n\t"
                     "bne    2b"
                     : [p] "+&r"(p), [l] "+&r"(l), [t] "=&r"(t), [a] "=&r"(a), [b] "=&r"(b)
                     : [end] "r"(end), [thr] "r"(thr), [s4] "r"(s4), [nm] "r"(nm), [nlog2e] "r"(nlog2e),
                       [tab] "r"(tab), [c24] "r"(1 << 24), [low] "r"(0x8000)
                     : "cc", "memory");
    return l;
}

/// softmax's last pass (q15_seam.hpp), four values (two words, LDRD) per iteration where alpha is word aligned and
/// down >= 17 (10 instructions): with R = rec·2^(32 - down) < 2^31, SMLAWB and SMLAWT take each int16 alpha_j as it
/// is to u = ((R·alpha_j) >> 16) + R / 2 = floor(R·p_j / 2^16) (p_j = alpha_j + 32768, R·32768 / 2^16 = R / 2 an
/// integer) = floor(p_j·rec / 2^(down - 16)) < 2^31, so that u >> 16 = (p_j·rec) >> down is below 2^15 (the min with
/// 32767 never acts); PKHTB packs the two u >> 16 into a word. down = 16 (l = 65535: the max alone is above the cut)
/// and the values before and after, in C.
inline void normalize(q15* alpha, std::size_t n, std::uint32_t rec, int down) noexcept {
    const auto one = [rec, down](q15& a) {
        const auto p = static_cast<std::uint32_t>(a.raw + 32768);
        const std::uint32_t av = (p * rec) >> down;
        a.raw = static_cast<std::int16_t>(av > 32767u ? 32767u : av);
    };
    std::size_t j = 0;
    if (down > 16) {
        if ((reinterpret_cast<std::uintptr_t>(alpha) & 3u) != 0 && n > 0) one(alpha[j++]);
        const std::size_t n4 = (n - j) & ~std::size_t{3};
        if (n4 > 0) {
            const auto r = static_cast<std::int32_t>(rec << (32 - down));
            q15* p = alpha + j;
            q15* const end = p + n4;
            std::int32_t x, y, a, b;
            __asm__ volatile("1:\n\t"
                             "ldrd   %[x], %[y], [%[p]]\n\t"
                             "smlawb %[a], %[r], %[x], %[half]\n\t"
                             "smlawt %[x], %[r], %[x], %[half]\n\t"
                             "smlawb %[b], %[r], %[y], %[half]\n\t"
                             "smlawt %[y], %[r], %[y], %[half]\n\t"
                             "pkhtb  %[x], %[x], %[a], asr #16\n\t"
                             "pkhtb  %[y], %[y], %[b], asr #16\n\t"
                             "strd   %[x], %[y], [%[p]], #8\n\t"
                             "cmp    %[p], %[end]\n\t"
                             "bne    1b"
                             : [p] "+r"(p), [x] "=&r"(x), [y] "=&r"(y), [a] "=&r"(a), [b] "=&r"(b)
                             : [r] "r"(r), [half] "r"(r >> 1), [end] "r"(end)
                             : "cc", "memory");
            j += n4;
        }
    }
    for (; j < n; ++j) one(alpha[j]);
}

// The weighted sum (weighted_sum below). One state: the eight columns' sums c0..c7 += alpha_j·S_j,k..k+7, its eight
// values in two LDRDs (lo, hi: their addresses), its weight the bottom (h = "b") or top ("t") half of aw.
#define SARNN_DSP_WS_MACS(h, lo, hi)           \
    "ldrd   %[x], %[y], " lo "\n\t"            \
    "smla" h "b %[c0], %[aw], %[x], %[c0]\n\t" \
    "smla" h "t %[c1], %[aw], %[x], %[c1]\n\t" \
    "smla" h "b %[c2], %[aw], %[y], %[c2]\n\t" \
    "smla" h "t %[c3], %[aw], %[y], %[c3]\n\t" \
    "ldrd   %[x], %[y], " hi "\n\t"            \
    "smla" h "b %[c4], %[aw], %[x], %[c4]\n\t" \
    "smla" h "t %[c5], %[aw], %[x], %[c5]\n\t" \
    "smla" h "b %[c6], %[aw], %[y], %[c6]\n\t" \
    "smla" h "t %[c7], %[aw], %[y], %[c7]\n\t"
// State i of eight, the row step S bytes a constant: at vp + (i + 1)·S, the eighth moving vp on by 8·S (LDRD's
// pre-index writeback: 8·S <= 1020) ...
#define SARNN_DSP_WS_WB(S, i, h) \
    SARNN_DSP_WS_MACS(h, "[%[vp], #((" #i "+1)*" #S ")]", "[%[vp], #((" #i "+1)*" #S "+8)]")
#define SARNN_DSP_WS_WB_LAST(S) SARNN_DSP_WS_MACS("t", "[%[vp], #(8*" #S ")]!", "[%[vp], #8]")
// ... or at vp + i·S, vp moved on by an ADD after the eighth (8·S beyond LDRD's offsets) ...
#define SARNN_DSP_WS_ADD(S, i, h) SARNN_DSP_WS_MACS(h, "[%[vp], #(" #i "*" #S ")]", "[%[vp], #(" #i "*" #S "+8)]")
#define SARNN_DSP_WS_ADD_LAST(S) SARNN_DSP_WS_ADD(S, 7, "t") "add    %[vp], %[vp], #(8*" #S ")\n\t"
// ... or (a step known at run time only, read from the stack) at vp, moved on by the step after each state.
#define SARNN_DSP_WS_RT(i, h)                      \
    SARNN_DSP_WS_MACS(h, "[%[vp]]", "[%[vp], #8]") \
    "ldr    %[x], %[step]\n\t"                     \
    "add    %[vp], %[vp], %[x]\n\t"
// After a run: the next one (the list's pointer in y).
#define SARNN_DSP_WS_NEXT    \
    "ldr    %[y], %[rp]\n\t" \
    "b      .Lws%=d\n"
// Entry e (odd) of loop L: its first weight alone, the top half of aw.
#define SARNN_DSP_WS_ODD(L, e)        \
    ".Lws%=" L "o" #e ":\n\t"         \
    "ldrh   %[aw], [%[ap]], #2\n\t"   \
    "lsl    %[aw], %[aw], #16\n\t"    \
    "b      .Lws%=" L "e" #e "\n"
// Loop L, eight states an iteration (ST(S, i, h): state i, LAST(S): the eighth), entered at any of them.
#define SARNN_DSP_WS_LOOP8(L, ST, LAST, S)                                           \
    ".Lws%=" L "e0:\n\t"                                                             \
    "ldr    %[aw], [%[ap]], #4\n\t" ST(S, 0, "b") ".Lws%=" L "e1:\n\t" ST(S, 1, "t") \
    ".Lws%=" L "e2:\n\t"                                                             \
    "ldr    %[aw], [%[ap]], #4\n\t" ST(S, 2, "b") ".Lws%=" L "e3:\n\t" ST(S, 3, "t") \
    ".Lws%=" L "e4:\n\t"                                                             \
    "ldr    %[aw], [%[ap]], #4\n\t" ST(S, 4, "b") ".Lws%=" L "e5:\n\t" ST(S, 5, "t") \
    ".Lws%=" L "e6:\n\t"                                                             \
    "ldr    %[aw], [%[ap]], #4\n\t" ST(S, 6, "b") ".Lws%=" L "e7:\n\t" LAST(S)       \
    "ldr    %[x], %[end]\n\t"                                                        \
    "cmp    %[ap], %[x]\n\t"                                                         \
    "bne    .Lws%=" L "e0\n\t" SARNN_DSP_WS_NEXT
#define SARNN_DSP_WS_TAB8(L)                                                                                        \
    "(.Lws%=" L "e0-.Lws%=t)/2, (.Lws%=" L "o1-.Lws%=t)/2, (.Lws%=" L "e2-.Lws%=t)/2, (.Lws%=" L "o3-.Lws%=t)/2, " \
    "(.Lws%=" L "e4-.Lws%=t)/2, (.Lws%=" L "o5-.Lws%=t)/2, (.Lws%=" L "e6-.Lws%=t)/2, (.Lws%=" L "o7-.Lws%=t)/2"
#define SARNN_DSP_WS_ODD8(L) SARNN_DSP_WS_ODD(L, 1) SARNN_DSP_WS_ODD(L, 3) SARNN_DSP_WS_ODD(L, 5) SARNN_DSP_WS_ODD(L, 7)

namespace dsp {

/// A run of the weighted sum's states (weighted_sum): v the address of its first row less (e + bias) row steps, its
/// weights a to a_end, entry its loop's first entry in the table plus e (the states the loop's first iteration
/// skips), or kWsAlone (a state alone), or kWsEnd (the end of the list).
struct WeightedRun {
    std::uintptr_t v;
    const q15* a;
    const q15* a_end;
    std::uint32_t entry;
};
/// What the passes read: the sums' start (2^14 each, the rounding's half: one LDM), the runs.
struct WeightedRuns {
    std::int32_t half[8];
    WeightedRun run[5];
};
constexpr std::uint32_t kWsAlone = 0, kWsEnd = 29;

}  // namespace dsp

/// c = Σ_j alpha_j S_j (q15.cpp's weighted_sum: c_k = (Σ_j alpha_j S_j,k + 2^14) >> 15 within +-32767), the states
/// in the two segments base[0] (n[0] states) and base[1] (n[1]), alpha's values in that order. Eight columns a pass,
/// the pass in assembly: its sums from 2^14 (|Σ| + 2^14 < 2^31 by q15.cpp's bound: every partial sum in int32, in
/// any order); each run of the list (a segment's states, read at constant offsets from
/// one pointer where the row step is that of Hidden 16, 32 or 64); then the eight sums rounded (SSAT's shift),
/// saturated, packed in pairs, clamped at -32767 (QSUB16 from 0 twice: -(-32768) saturates to 32767) and stored (one
/// STM). A run enters its loop (TBH) as Duff's device, skipping the loop's first -count mod 8 (or 4) states in its
/// first iteration; the loop reads alpha in pairs (an odd entry's first weight alone, the top half of aw), so where
/// a segment's weights would end off a word its last state is a run alone. The loops: 87 instructions for 64
/// multiply-adds where the row step is 32 or 64 bytes (the eighth state's LDRD moves vp on), 88 for 128 (an ADD),
/// 53 for 32 at any other even step (read from the stack). Where dim % 8 is 2, 4 or 6, a last pass over the columns
/// dim - 8 .. dim (rounded down to even) writes some columns again (the same values); where the rows or c are not
/// word aligned or the stride is odd, and for an odd dim's last column, one column at a time in C. (Not inlined: one
/// copy of the assembly for q15.cpp's three calls.)
__attribute__((noinline)) inline void weighted_sum(const q15* const base[2], const std::size_t n[2], std::size_t stride,
                                                   std::size_t dim, const q15* alpha, q15* c) noexcept {
    std::size_t k = 0;
    // c and the rows word aligned (the stride even)
    const std::uintptr_t at = reinterpret_cast<std::uintptr_t>(c) | reinterpret_cast<std::uintptr_t>(base[0]) |
                              reinterpret_cast<std::uintptr_t>(base[1]) | (stride << 1);
    if (dim >= 8 && (at & 3u) == 0) {
        const std::size_t step = stride * sizeof(q15);
        // the loop for this step: its first entry, how many states an iteration (mask + 1), the bytes back per state
        // skipped and the row steps before the first row its offsets start at
        std::uint32_t first = 25, mask = 3;
        std::size_t skip = 0, bias = 0;
        switch (stride) {
        case 16: first = 1, mask = 7, skip = step, bias = 1; break;
        case 32: first = 9, mask = 7, skip = step, bias = 1; break;
        case 64: first = 17, mask = 7, skip = step; break;
        default: break;
        }
        dsp::WeightedRuns list;
        for (std::int32_t& h : list.half) h = std::int32_t{1} << 14;
        dsp::WeightedRun* r = list.run;
        const q15* ap = alpha;
        for (int g = 0; g < 2; ++g) {
            std::size_t count = n[g];
            const auto v = reinterpret_cast<std::uintptr_t>(base[g]);
            if (count > 0 && (reinterpret_cast<std::uintptr_t>(ap + count) & 3u) != 0) {
                --count;
                *r++ = {v + count * step, ap + count, ap + count + 1, dsp::kWsAlone};
            }
            if (count > 0) {
                const std::uint32_t e = static_cast<std::uint32_t>(0 - count) & mask;
                *r++ = {v - (e + bias) * skip, ap, ap + count, first + e};
            }
            ap += n[g];
        }
        *r = {0, nullptr, nullptr, dsp::kWsEnd};
        const std::size_t even = dim & ~std::size_t{1};
        std::size_t full = dim & ~std::size_t{7};
        const dsp::WeightedRuns* runs = &list;
        const dsp::WeightedRun* rp = list.run;
        const q15* end = alpha;
        q15* cp = c;
        const q15* cend = c + full;
        for (;;) {
            // the sums in r0-r6, r8 (ascending: LDM, STM; r7 may be the frame pointer)
            register std::int32_t c0 __asm__("r0");
            register std::int32_t c1 __asm__("r1");
            register std::int32_t c2 __asm__("r2");
            register std::int32_t c3 __asm__("r3");
            register std::int32_t c4 __asm__("r4");
            register std::int32_t c5 __asm__("r5");
            register std::int32_t c6 __asm__("r6");
            register std::int32_t c7 __asm__("r8");
            std::int32_t aw, x, y;
            const q15* vp;
            const q15* a;
            __asm__ volatile(
                ".Lws%=p:\n\t"
                "ldr    %[y], %[runs]\n\t"
                "ldm    %[y]!, {%[c0], %[c1], %[c2], %[c3], %[c4], %[c5], %[c6], %[c7]}\n"
                ".Lws%=d:\n\t"
                "ldrd   %[x], %[aw], [%[y], #8]\n\t"
                "cmp    %[aw], %[fin]\n\t"
                "beq    .Lws%=f\n\t"
                "ldrd   %[vp], %[ap], [%[y]]\n\t"
                "str    %[x], %[end]\n\t"
                "add    %[x], %[vp], #16\n\t"
                "str    %[x], [%[y]], #16\n\t"
                "str    %[y], %[rp]\n\t"
                "tbh    [pc, %[aw], lsl #1]\n"
                ".Lws%=t:\n\t"
                ".hword (.Lws%=s-.Lws%=t)/2, " SARNN_DSP_WS_TAB8("a") ", " SARNN_DSP_WS_TAB8("b") ", " SARNN_DSP_WS_TAB8(
                    "c") ", (.Lws%=re0-.Lws%=t)/2, (.Lws%=ro1-.Lws%=t)/2, (.Lws%=re2-.Lws%=t)/2, (.Lws%=ro3-.Lws%=t)/2\n"
                // a state alone
                ".Lws%=s:\n\t"
                "ldrsh  %[aw], [%[ap]]\n\t" SARNN_DSP_WS_MACS("b", "[%[vp]]", "[%[vp], #8]") SARNN_DSP_WS_NEXT
                // the odd entries
                SARNN_DSP_WS_ODD8("a") SARNN_DSP_WS_ODD8("b") SARNN_DSP_WS_ODD8("c") SARNN_DSP_WS_ODD("r", 1)
                    SARNN_DSP_WS_ODD("r", 3)
                // the loops: row steps 32, 64 and 128 bytes, then any
                SARNN_DSP_WS_LOOP8("a", SARNN_DSP_WS_WB, SARNN_DSP_WS_WB_LAST, 32)
                    SARNN_DSP_WS_LOOP8("b", SARNN_DSP_WS_WB, SARNN_DSP_WS_WB_LAST, 64)
                        SARNN_DSP_WS_LOOP8("c", SARNN_DSP_WS_ADD, SARNN_DSP_WS_ADD_LAST, 128)
                ".Lws%=re0:\n\t"
                "ldr    %[aw], [%[ap]], #4\n\t" SARNN_DSP_WS_RT(0, "b") ".Lws%=re1:\n\t" SARNN_DSP_WS_RT(1, "t")
                ".Lws%=re2:\n\t"
                "ldr    %[aw], [%[ap]], #4\n\t" SARNN_DSP_WS_RT(2, "b") ".Lws%=re3:\n\t" SARNN_DSP_WS_RT(3, "t")
                "ldr    %[x], %[end]\n\t"
                "cmp    %[ap], %[x]\n\t"
                "bne    .Lws%=re0\n\t" SARNN_DSP_WS_NEXT
                // the pass's end: c_k .. c_k+7
                ".Lws%=f:\n\t"
                "ssat   %[c0], #16, %[c0], asr #15\n\t"
                "ssat   %[c1], #16, %[c1], asr #15\n\t"
                "ssat   %[c2], #16, %[c2], asr #15\n\t"
                "ssat   %[c3], #16, %[c3], asr #15\n\t"
                "ssat   %[c4], #16, %[c4], asr #15\n\t"
                "ssat   %[c5], #16, %[c5], asr #15\n\t"
                "ssat   %[c6], #16, %[c6], asr #15\n\t"
                "ssat   %[c7], #16, %[c7], asr #15\n\t"
                "pkhbt  %[c0], %[c0], %[c1], lsl #16\n\t"
                "pkhbt  %[c2], %[c2], %[c3], lsl #16\n\t"
                "pkhbt  %[c4], %[c4], %[c5], lsl #16\n\t"
                "pkhbt  %[c6], %[c6], %[c7], lsl #16\n\t"
                "mov    %[x], #0\n\t"
                "qsub16 %[c0], %[x], %[c0]\n\t"
                "qsub16 %[c0], %[x], %[c0]\n\t"
                "qsub16 %[c2], %[x], %[c2]\n\t"
                "qsub16 %[c2], %[x], %[c2]\n\t"
                "qsub16 %[c4], %[x], %[c4]\n\t"
                "qsub16 %[c4], %[x], %[c4]\n\t"
                "qsub16 %[c6], %[x], %[c6]\n\t"
                "qsub16 %[c6], %[x], %[c6]\n\t"
                "ldr    %[y], %[cp]\n\t"
                "stm    %[y]!, {%[c0], %[c2], %[c4], %[c6]}\n\t"
                "str    %[y], %[cp]\n\t"
                "ldr    %[x], %[cend]\n\t"
                "cmp    %[y], %[x]\n\t"
                "bne    .Lws%=p"
                : [c0] "=&r"(c0), [c1] "=&r"(c1), [c2] "=&r"(c2), [c3] "=&r"(c3), [c4] "=&r"(c4), [c5] "=&r"(c5),
                  [c6] "=&r"(c6), [c7] "=&r"(c7), [vp] "=&r"(vp), [ap] "=&r"(a), [aw] "=&r"(aw), [x] "=&r"(x),
                  [y] "=&r"(y), [rp] "+m"(rp), [end] "+m"(end), [cp] "+m"(cp)
                : [runs] "m"(runs), [cend] "m"(cend), [step] "m"(step), [fin] "i"(dsp::kWsEnd)
                : "cc", "memory");
            if (full == even) break;
            // a last pass over columns even - 8 .. even: each run's rows back from where the passes left them
            const std::size_t back = (full + 8 - even) * sizeof(q15);
            for (dsp::WeightedRun* i = list.run; i != r; ++i) i->v -= back;
            cp = c + (even - 8);
            cend = c + even;
            full = even;
        }
        k = even;
    }
    for (; k < dim; ++k) {
        std::int32_t acc = std::int32_t{1} << 14;
        const q15* ap = alpha;
        for (int g = 0; g < 2; ++g) {
            const q15* v = base[g] + k;
            for (std::size_t i = 0; i < n[g]; ++i, ++ap, v += stride) acc = __smlabb(ap->raw, v->raw, acc);
        }
        const std::int32_t ck = __ssat(acc >> 15, 16);
        c[k].raw = static_cast<std::int16_t>(ck < -32767 ? -32767 : ck);
    }
}

#undef SARNN_DSP_WS_ODD8
#undef SARNN_DSP_WS_TAB8
#undef SARNN_DSP_WS_LOOP8
#undef SARNN_DSP_WS_ODD
#undef SARNN_DSP_WS_NEXT
#undef SARNN_DSP_WS_RT
#undef SARNN_DSP_WS_ADD_LAST
#undef SARNN_DSP_WS_ADD
#undef SARNN_DSP_WS_WB_LAST
#undef SARNN_DSP_WS_WB
#undef SARNN_DSP_WS_MACS

/// affine_tanh's rows finished (q15.cpp's finish_row, the same integers) from their sums s = (s_x, s_r) pairs, for
/// an input factor x_m / 2^(31 + x_shift) with x_shift = 1 - UP (UP 1 or 2) and x_m >= 0; one row in 34 instructions
/// where GCC's form of the same took about 70. Stops before the first row whose shift is outside 2 .. 31 (the short
/// form below needs shift >= 2; a shift above 31, which validate() refuses, counts as 31 in requantize_short: the
/// caller finishes that row) and returns how many rows it wrote. With kTanh false, y = pre
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
    "sub    %[t], %[t], #2\n\t"                          \
    "cmp    %[t], #29\n\t"                               \
    "bhi    7f\n\t"                                     \
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

}  // namespace sarnn::kernel::q15_dsp

namespace sarnn::kernel::q15_loops {

/// The DSP loops: the products, the scores and the softmax's passes, the query's sums, the weighted sum, and
/// affine_tanh's rows in blocks (four rows' two parts at once, or against x and r packed once) finished with their
/// tanh by finish_tanh.
struct DspLoops : Loops<DspLoops> {
    static constexpr std::size_t kRows = q15_dsp::kRows, kStates = q15_dsp::kStates, kColumns = q15_dsp::kColumns;
    static constexpr unsigned kOwn = kScores | kMaxRaw | kAbsSum | kRoundQuery | kExps | kNormalize;
    static constexpr bool kFinishTanh = true, kRowsXr = true, kRowsPacked = true, kWeighted = true;
    static constexpr std::size_t kPackMax = q15_dsp::kPackMax;  ///< the longest x and r that packs() takes
    using Packed = q15_dsp::Packed;

    template <std::size_t G>
    __attribute__((always_inline)) static void dot_rows(const std::int8_t* w, std::size_t ld, const q15* v,
                                                        std::size_t n, std::int32_t* acc) noexcept {
        q15_dsp::dot_rows<G>(w, ld, v, n, acc);
    }
    template <std::size_t G>
    __attribute__((always_inline)) static void dot_states(const q15* s, std::size_t stride, const q15* q,
                                                          std::size_t npairs, std::int32_t* d) noexcept {
        q15_dsp::dot_states<G>(s, stride, q, npairs, d);
    }
    template <std::size_t G>
    __attribute__((always_inline)) static void columns(const q15* a, const q15* v, std::size_t stride,
                                                       std::size_t count, std::int32_t* acc) noexcept {
        q15_dsp::columns<G>(a, v, stride, count, acc);
    }
    __attribute__((always_inline)) static void scores(const q15* s, std::size_t stride, std::size_t count, const q15* q,
                                                      std::size_t npairs, int t, q15* e) noexcept {
        q15_dsp::scores(s, stride, count, q, npairs, t, e);
    }
    __attribute__((always_inline)) static std::int32_t max_raw(const q15* e, std::size_t n) noexcept {
        return q15_dsp::max_raw(e, n);
    }
    __attribute__((always_inline)) static std::uint32_t abs_sum(const q15* q, std::size_t dim) noexcept {
        return q15_dsp::abs_sum(q, dim);
    }
    __attribute__((always_inline)) static std::uint32_t round_query(const q15* q, q15* qp, std::size_t dim,
                                                                    int s) noexcept {
        return q15_dsp::round_query(q, qp, dim, s);
    }
    __attribute__((always_inline)) static std::uint32_t exps(q15* alpha, std::size_t n, std::int32_t m,
                                                             std::int32_t to_q16, std::int32_t zero_below) noexcept {
        return q15_dsp::exps(alpha, n, m, to_q16, zero_below);
    }
    __attribute__((always_inline)) static void normalize(q15* alpha, std::size_t n, std::uint32_t rec,
                                                         int down) noexcept {
        q15_dsp::normalize(alpha, n, rec, down);
    }
    __attribute__((always_inline)) static void weighted_sum(const q15* const base[2], const std::size_t n[2],
                                                            std::size_t stride, std::size_t dim, const q15* alpha,
                                                            q15* c) noexcept {
        q15_dsp::weighted_sum(base, n, stride, dim, alpha, c);
    }
    template <int UP, bool kTanh = true>
    __attribute__((always_inline)) static std::size_t finish_tanh(const std::int32_t* s, std::size_t rows,
                                                                  const std::int32_t* m, const std::int8_t* shift,
                                                                  const std::int32_t* b, std::int32_t x_m,
                                                                  q15* y) noexcept {
        return q15_dsp::finish_tanh<UP, kTanh>(s, rows, m, shift, b, x_m, y);
    }
    __attribute__((always_inline)) static void rows4_xr(const std::int8_t* w, std::size_t ld, const q15* x,
                                                        std::size_t nx, const q15* r, std::size_t nr,
                                                        std::int32_t* s) noexcept {
        q15_dsp::rows4_xr(w, ld, x, nx, r, nr, s);
    }
    __attribute__((always_inline)) static bool packs(std::size_t nx, std::size_t nr) noexcept {
        return q15_dsp::packs(nx, nr);
    }
    __attribute__((always_inline)) static void pack(const q15* x, std::size_t nx, const q15* r, std::size_t nr,
                                                    Packed& p) noexcept {
        q15_dsp::pack(x, nx, r, nr, p);
    }
    __attribute__((always_inline)) static void rows_packed(const std::int8_t* w, std::size_t ld, const Packed& p,
                                                           std::size_t nx, std::size_t nr, std::size_t groups,
                                                           std::int32_t* s) noexcept {
        q15_dsp::rows_packed(w, ld, p, nx, nr, groups, s);
    }
    __attribute__((always_inline)) static void rows_packed2(const std::int8_t* wx, const std::int8_t* wr,
                                                            const Packed& p, std::size_t nx, std::size_t nr,
                                                            std::size_t groups, std::int32_t* s) noexcept {
        q15_dsp::rows_packed2(wx, wr, p, nx, nr, groups, s);
    }
};

}  // namespace sarnn::kernel::q15_loops

#endif
