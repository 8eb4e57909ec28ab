// sarnn/kernels/q15/dsp/rows.hpp: the DSP set's q15 loops (Cortex-M4, M7; the set: dsp/loops.hpp), the products of rows:
// dot_rows<4> (four rows, SMLAD), rows4_xr (both parts of four rows in one call), the packed passes (x and r packed
// once: Packed, pack, rows_packed, rows_packed2, rows_packed_sum), dot_rows<2> and dot_rows<1>.
#ifndef SARNN_KERNELS_Q15_DSP_ROWS_HPP
#define SARNN_KERNELS_Q15_DSP_ROWS_HPP

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "sarnn/kernels/q15/dsp/common.hpp"

namespace sarnn::kernel::q15_dsp {

// One row's four int8 weights (loaded by `load` into t) times v's four values, repacked as z = (v0, v2) and x = (v1,
// v3): SXTB16 widens (w0, w2) into y and, rotated by 8, (w1, w3) in place.
// clang-format off
#define SARNN_DSP_ROW(a, load)               \
    load                                     \
    "sxtb16 %[y], %[t]\n\t"                  \
    "smlad  %[" a "], %[y], %[z], %[" a "]\n\t" \
    "sxtb16 %[t], %[t], ror #8\n\t"          \
    "smlad  %[" a "], %[t], %[x], %[" a "]\n\t"
// clang-format on
// The four rows' loop (label L), after the load of v0..v3 into x, y (`load`: LDRD where v is word aligned, else two
// LDRs): rows 2 and 3 at two rows (ld2 bytes) past rows 0 and 1, whose pointers w0 and w1 move on (thirteen registers).
// clang-format off
#define SARNN_DSP_ROWS4_LOOP(L, load)                                                           \
    L ":\n\t" load                                                                              \
    "pkhbt  %[z], %[x], %[y], lsl #16\n\t"                                                      \
    "pkhtb  %[x], %[y], %[x], asr #16\n\t" SARNN_DSP_ROW("a2", "ldr    %[t], [%[w0], %[ld2]]\n\t") \
        SARNN_DSP_ROW("a3", "ldr    %[t], [%[w1], %[ld2]]\n\t")                                 \
            SARNN_DSP_ROW("a0", "ldr    %[t], [%[w0]], #4\n\t")                                 \
                SARNN_DSP_ROW("a1", "ldr    %[t], [%[w1]], #4\n\t") "cmp    %[vp], %[end]\n\t"  \
    "bne    " L "b\n\t"
#define SARNN_DSP_ROWS4(load) SARNN_DSP_ROWS4_LOOP("1", load)
// clang-format on

/// Four rows, four columns per iteration (25 instructions for 16 multiply-adds), then the last n % 4 columns in
/// assembly too: two (one LDR of v's pair, any alignment; each weight LDRSB, SMLABB / SMLABT: 17 instructions for 8
/// multiply-adds), then one (9 for 4); the rows' pointers and sums stay in registers from the loop to the tail.
template <>
inline void dot_rows<4>(const std::int8_t* w, std::size_t ld, const q15* v, std::size_t n, std::int32_t* acc) noexcept {
    const std::size_t n4 = n & ~std::size_t{3};
    std::int32_t a0 = acc[0], a1 = acc[1], a2 = acc[2], a3 = acc[3];
    const std::int8_t* w0 = w;
    const std::int8_t* w1 = w + ld;
    const std::size_t ld2 = 2 * ld;
    const q15* vp = v;
    std::int32_t x, t;
    if (n4 > 0) {
        const q15* const end = v + n4;
        std::int32_t y, z;
// clang-format off
#define SARNN_DSP_ROWS4_OPERANDS                                                                                   \
    : [a0] "+r"(a0), [a1] "+r"(a1), [a2] "+r"(a2), [a3] "+r"(a3), [w0] "+r"(w0), [w1] "+r"(w1), [vp] "+r"(vp),    \
      [x] "=&r"(x), [y] "=&r"(y), [z] "=&r"(z), [t] "=&r"(t)                                                       \
    : [end] "r"(end), [ld2] "r"(ld2)                                                                               \
    : "cc", "memory"
        // clang-format on
        if ((reinterpret_cast<std::uintptr_t>(v) & 3u) == 0) {
            // clang-format off
            __asm__ volatile(SARNN_DSP_ROWS4("ldrd   %[x], %[y], [%[vp]], #8\n\t") SARNN_DSP_ROWS4_OPERANDS);
            // clang-format on
        } else {
            // clang-format off
            __asm__ volatile(SARNN_DSP_ROWS4("ldr    %[x], [%[vp]], #4\n\tldr    %[y], [%[vp]], #4\n\t")
                                 SARNN_DSP_ROWS4_OPERANDS);
            // clang-format on
        }
#undef SARNN_DSP_ROWS4_OPERANDS
    }
    // One column of the four rows (v's value in the bottom half, B, or the top half, T, of x): row 2 and 3 at two rows
    // (ld2 bytes) past rows 0 and 1, whose pointers move on.
    // clang-format off
#define SARNN_DSP_COLUMN4(h)                            \
    "ldrsb  %[t], [%[w0], %[ld2]]\n\t"                  \
    "smlab" h " %[a2], %[t], %[x], %[a2]\n\t"           \
    "ldrsb  %[t], [%[w1], %[ld2]]\n\t"                  \
    "smlab" h " %[a3], %[t], %[x], %[a3]\n\t"           \
    "ldrsb  %[t], [%[w0]], #1\n\t"                      \
    "smlab" h " %[a0], %[t], %[x], %[a0]\n\t"           \
    "ldrsb  %[t], [%[w1]], #1\n\t"                      \
    "smlab" h " %[a1], %[t], %[x], %[a1]\n\t"
#define SARNN_DSP_COLUMN4_OPERANDS                                                                                 \
    : [a0] "+r"(a0), [a1] "+r"(a1), [a2] "+r"(a2), [a3] "+r"(a3), [w0] "+r"(w0), [w1] "+r"(w1), [vp] "+r"(vp),    \
      [x] "=&r"(x), [t] "=&r"(t)                                                                                   \
    : [ld2] "r"(ld2), "m"(*reinterpret_cast<const std::int8_t(*)[]>(w0)),                                        \
      "m"(*reinterpret_cast<const q15(*)[]>(vp))
    // clang-format on
    if ((n & 2u) != 0) {
        // clang-format off
        __asm__ volatile("ldr    %[x], [%[vp]], #4\n\t" SARNN_DSP_COLUMN4("b") SARNN_DSP_COLUMN4("t")
                         SARNN_DSP_COLUMN4_OPERANDS);
        // clang-format on
    }
    if ((n & 1u) != 0) {
        // clang-format off
        __asm__ volatile("ldrsh  %[x], [%[vp]]\n\t" SARNN_DSP_COLUMN4("b") SARNN_DSP_COLUMN4_OPERANDS);
        // clang-format on
    }
#undef SARNN_DSP_COLUMN4_OPERANDS
#undef SARNN_DSP_COLUMN4
    acc[0] = a0;
    acc[1] = a1;
    acc[2] = a2;
    acc[3] = a3;
}

// A pass's four sums of one part (o: 0 the x part's, 4 the r part's) stored at s (read from memory) + o, + o + 8, ...
// clang-format off
#define SARNN_DSP_STORE_SUMS(o)              \
    "ldr    %[t], %[s]\n\t"                  \
    "str    %[a0], [%[t], #" #o "]\n\t"      \
    "str    %[a1], [%[t], #" #o " + 8]\n\t"  \
    "str    %[a2], [%[t], #" #o " + 16]\n\t" \
    "str    %[a3], [%[t], #" #o " + 24]\n\t"
// The same, s in a register.
#define SARNN_DSP_STORE_SUMS_AT(o)           \
    "str    %[a0], [%[s], #" #o "]\n\t"      \
    "str    %[a1], [%[s], #" #o " + 8]\n\t"  \
    "str    %[a2], [%[s], #" #o " + 16]\n\t" \
    "str    %[a3], [%[s], #" #o " + 24]\n\t"
// clang-format on
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
    // clang-format off
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
    // clang-format on
}

/// Whether the packed passes have 32-column loops for parts whose lengths are multiples of 32 (rows_packed_sum's r part,
/// rows_apart's): not at -Os, where they would add about 0.8 kB each to the image (the flash, not the instruction
/// count, is what -Os asks for).
#if defined(__OPTIMIZE_SIZE__)
constexpr bool kLoops32 = false;
#else
constexpr bool kLoops32 = true;
#endif

/// affine_tanh's packed rows (q15/seam.hpp), where nx and nr are multiples of 8 and nx + nr <= kPackMax: x and r
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
// clang-format off
#define SARNN_DSP_PACK4(load)                  \
    load                                       \
    "pkhbt  %[c], %[a], %[b], lsl #16\n\t"    \
    "pkhtb  %[a], %[b], %[a], asr #16\n\t"    \
    "strd   %[c], %[a], [%[o]], #8\n\t"
#define SARNN_DSP_PACK(load)                                                                              \
    "1:\n\t" SARNN_DSP_PACK4(load) SARNN_DSP_PACK4(load) "cmp    %[v], %[end]\n\t"                        \
    "bne    1b"
// clang-format on

/// v's n values (n a multiple of 8, at least 8) packed at o (Packed's order): 10 instructions per 8 values where v
/// is word aligned (LDRD), else 12. Returns the end of what it wrote.
inline std::int32_t* pack_pairs(const q15* v, std::size_t n, std::int32_t* o) noexcept {
    const q15* const end = v + n;
    std::int32_t a, b, c;
// clang-format off
#define SARNN_DSP_PACK_OPERANDS                                                                   \
    : [v] "+r"(v), [o] "+r"(o), [a] "=&r"(a), [b] "=&r"(b), [c] "=&r"(c)                       \
    : [end] "r"(end)                                                                            \
    : "cc", "memory"
    // clang-format on
    if ((reinterpret_cast<std::uintptr_t>(v) & 3u) == 0) {
        // clang-format off
        __asm__ volatile(SARNN_DSP_PACK("ldrd   %[a], %[b], [%[v]], #8\n\t") SARNN_DSP_PACK_OPERANDS);
        // clang-format on
    } else {
        // clang-format off
        __asm__ volatile(SARNN_DSP_PACK("ldr    %[a], [%[v]], #4\n\tldr    %[b], [%[v]], #4\n\t")
                             SARNN_DSP_PACK_OPERANDS);
        // clang-format on
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
// clang-format off
#define SARNN_DSP_PACKED4                                                                                  \
    "ldrd   %[z], %[x], [%[vp]], #8\n\t" SARNN_DSP_ROW("a2", "ldr    %[t], [%[w0], %[ld2]]\n\t")         \
        SARNN_DSP_ROW("a3", "ldr    %[t], [%[w1], %[ld2]]\n\t") SARNN_DSP_ROW("a0", "ldr    %[t], [%[w0]], #4\n\t") \
            SARNN_DSP_ROW("a1", "ldr    %[t], [%[w1]], #4\n\t")
// clang-format on

// One row of SARNN_DSP_PACKED4_FROM0: its sum a starts at the first product (SMUAD, no accumulator).
// clang-format off
#define SARNN_DSP_ROW_FROM0(a, load)         \
    load                                     \
    "sxtb16 %[y], %[t]\n\t"                  \
    "smuad  %[" a "], %[y], %[z]\n\t"        \
    "sxtb16 %[t], %[t], ror #8\n\t"          \
    "smlad  %[" a "], %[t], %[x], %[" a "]\n\t"
// The first four columns of a part whose four sums start from 0 (SMLAD from 0 and SMUAD give the same word).
#define SARNN_DSP_PACKED4_FROM0                                                                                    \
    "ldrd   %[z], %[x], [%[vp]], #8\n\t" SARNN_DSP_ROW_FROM0("a2", "ldr    %[t], [%[w0], %[ld2]]\n\t")       \
        SARNN_DSP_ROW_FROM0("a3", "ldr    %[t], [%[w1], %[ld2]]\n\t")                                       \
            SARNN_DSP_ROW_FROM0("a0", "ldr    %[t], [%[w0]], #4\n\t")                                       \
                SARNN_DSP_ROW_FROM0("a1", "ldr    %[t], [%[w1]], #4\n\t")
// The packed loops (labels L0, L1) over a part whose sums start from 0: its first four columns by
// SARNN_DSP_PACKED4_FROM0, then the loop rotated so that an iteration's end test comes before its first four columns
// (one B back an iteration but the last): a part of one iteration takes no zeroing of the four sums (two LDRDs a pass
// fewer; M4 Gru<q15, 16, 32> 4 instructions a pass, Lstm<q15, 16, 32> 2). 8, 16 or 32 columns an iteration.
#define SARNN_DSP_PACKED_FROM0_BY(L, REST, FIRST4)                                                               \
    SARNN_DSP_PACKED4_FROM0 L "0:\n\t" REST "cmp    %[vp], %[end]\n\t"                                        \
    "beq    " L "1f\n\t" FIRST4 "b      " L "0b\n\t" L "1:\n\t"
#define SARNN_DSP_PACKED_FROM0_LOOP(L) SARNN_DSP_PACKED_FROM0_BY(L, SARNN_DSP_PACKED4, SARNN_DSP_PACKED4)
#define SARNN_DSP_PACKED_FROM0_LOOP16(L)                                                                         \
    SARNN_DSP_PACKED_FROM0_BY(L, SARNN_DSP_PACKED4 SARNN_DSP_PACKED4 SARNN_DSP_PACKED4, SARNN_DSP_PACKED4)
#define SARNN_DSP_PACKED_FROM0_LOOP32(L)                                                                         \
    SARNN_DSP_PACKED_FROM0_BY(L,                                                                                 \
                              SARNN_DSP_PACKED4 SARNN_DSP_PACKED4 SARNN_DSP_PACKED4 SARNN_DSP_PACKED4            \
                                  SARNN_DSP_PACKED4 SARNN_DSP_PACKED4 SARNN_DSP_PACKED4,                         \
                              SARNN_DSP_PACKED4)
// clang-format on
// The packed loop (label L) over one part: SARNN_DSP_PACKED4 twice until vp reaches end (44 instructions).
// clang-format off
#define SARNN_DSP_PACKED_LOOP(L)                                                                             \
    L ":\n\t" SARNN_DSP_PACKED4 SARNN_DSP_PACKED4 "cmp    %[vp], %[end]\n\t"                               \
      "bne    " L "b\n\t"
// The same, sixteen columns per iteration (86 instructions for 64 multiply-adds), for parts whose lengths are
// multiples of 16.
#define SARNN_DSP_PACKED_LOOP16(L)                                                                           \
    L ":\n\t" SARNN_DSP_PACKED4 SARNN_DSP_PACKED4 SARNN_DSP_PACKED4 SARNN_DSP_PACKED4                        \
      "cmp    %[vp], %[end]\n\t"                                                                           \
      "bne    " L "b\n\t"
// The same, 32 columns per iteration (170 instructions for 128 multiply-adds), for parts whose lengths are multiples
// of 32 (rows_packed_sum's r part: M4 Lstm<q15, 16, 32> 2 instructions a pass fewer than two iterations of 16).
#define SARNN_DSP_PACKED_LOOP32(L)                                                                           \
    L ":\n\t" SARNN_DSP_PACKED4 SARNN_DSP_PACKED4 SARNN_DSP_PACKED4 SARNN_DSP_PACKED4                        \
      SARNN_DSP_PACKED4 SARNN_DSP_PACKED4 SARNN_DSP_PACKED4 SARNN_DSP_PACKED4                                  \
      "cmp    %[vp], %[end]\n\t"                                                                           \
      "bne    " L "b\n\t"
// clang-format on
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
    // clang-format off
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
    // clang-format on
}
// One part's passes of four rows (rows_part), after the loop LOOP: the four sums stored by STORE (at s, s + 8, s + 16,
// s + 24 bytes and s on by 32: SARNN_DSP_STORE_PAIRS; or at s .. s + 12 by two STRDs and s on by 16:
// SARNN_DSP_STORE_APART); w0 and w1 on to the next pass's rows 4 and 5 (w1 ends at row 2), vp back to the part's start
// (2·n bytes: ld2), until s reaches s_end (13 instructions a pass besides the loop).
// clang-format off
#define SARNN_DSP_ROWS_PART(LOOP, STORE)           \
    "3:\n\t"                                       \
    LOOP("1")                                      \
    STORE                                          \
    "add    %[w0], %[w1], %[ld2]\n\t"              \
    "add    %[w1], %[w0], %[ld2], lsr #1\n\t"      \
    "sub    %[vp], %[vp], %[ld2]\n\t"              \
    "ldr    %[y], %[s_end]\n\t"                    \
    "cmp    %[s], %[y]\n\t"                        \
    "bne    3b"
#define SARNN_DSP_STORE_PAIRS                      \
    "str    %[a0], [%[s]]\n\t"                     \
    "str    %[a1], [%[s], #8]\n\t"                 \
    "str    %[a2], [%[s], #16]\n\t"                \
    "str    %[a3], [%[s], #24]\n\t"                \
    "add    %[s], %[s], #32\n\t"
#define SARNN_DSP_STORE_APART                      \
    "strd   %[a0], %[a1], [%[s]], #16\n\t"         \
    "strd   %[a2], %[a3], [%[s], #-8]\n\t"
#define SARNN_DSP_ROWS_PART_OPERANDS                                                                               \
    : [a0] "=&r"(a0), [a1] "=&r"(a1), [a2] "=&r"(a2), [a3] "=&r"(a3), [w0] "+r"(w0), [w1] "+r"(w1), [vp] "+r"(vp), \
      [x] "=&r"(xv), [y] "=&r"(yv), [z] "=&r"(z), [t] "=&r"(t), [s] "+r"(s)                                        \
    : [end] "r"(end), [ld2] "r"(ld2), [s_end] "m"(s_end)                                                          \
    : "cc", "memory"
// clang-format on
/// One part of rows_packed2: the sums of groups passes of four rows of w (rows of n weights, n a multiple of 8, of 16
/// for k16) against the part's packed values from v (Packed's words), stored at s, s + 2, s + 4, s + 6 (the (s_x,
/// s_r) pairs' one half) and on by 8 a pass; kApart (rows_apart): at s .. s + 3 and on by 4, two STRDs (s word
/// aligned). All fourteen registers (r0-r12, lr) hold the loop's values: the part's end and stride, and s, stay in
/// registers from pass to pass.
template <int kCols, bool kApart = false>
__attribute__((noinline)) void rows_part(const std::int8_t* w, std::size_t n, const std::int32_t* v, std::size_t groups,
                                         std::int32_t* s) noexcept {
    static_assert(kCols == 8 || kCols == 16 || (kCols == 32 && kApart), "rows_part: the loops");
    const std::int8_t* w0 = w;
    const std::int8_t* w1 = w + n;
    const std::size_t ld2 = 2 * n;
    const std::int32_t* vp = v;
    const std::int32_t* const end = v + n / 2;
    const std::int32_t* const s_end = s + (kApart ? 4 : 8) * groups;
    std::int32_t a0, a1, a2, a3, xv, yv, z, t;
    if constexpr (kCols == 32) {
        // clang-format off
        __asm__ volatile(SARNN_DSP_ROWS_PART(SARNN_DSP_PACKED_FROM0_LOOP32, SARNN_DSP_STORE_APART)
                         SARNN_DSP_ROWS_PART_OPERANDS);
        // clang-format on
    } else if constexpr (kCols == 16 && kApart) {
        // clang-format off
        __asm__ volatile(SARNN_DSP_ROWS_PART(SARNN_DSP_PACKED_FROM0_LOOP16, SARNN_DSP_STORE_APART)
                         SARNN_DSP_ROWS_PART_OPERANDS);
        // clang-format on
    } else if constexpr (kCols == 16) {
        // clang-format off
        __asm__ volatile(SARNN_DSP_ROWS_PART(SARNN_DSP_PACKED_FROM0_LOOP16, SARNN_DSP_STORE_PAIRS)
                         SARNN_DSP_ROWS_PART_OPERANDS);
        // clang-format on
    } else if constexpr (kApart) {
        // clang-format off
        __asm__ volatile(SARNN_DSP_ROWS_PART(SARNN_DSP_PACKED_FROM0_LOOP, SARNN_DSP_STORE_APART)
                         SARNN_DSP_ROWS_PART_OPERANDS);
        // clang-format on
    } else {
        // clang-format off
        __asm__ volatile(SARNN_DSP_ROWS_PART(SARNN_DSP_PACKED_FROM0_LOOP, SARNN_DSP_STORE_PAIRS)
                         SARNN_DSP_ROWS_PART_OPERANDS);
        // clang-format on
    }
}
#undef SARNN_DSP_ROWS_PART
#undef SARNN_DSP_ROWS_PART_OPERANDS
#undef SARNN_DSP_STORE_PAIRS
#undef SARNN_DSP_STORE_APART
/// rows_packed for two matrices (affine's gates: A_x rows of nx weights, A_r rows of nr): s = (s_x, s_r) of each of
/// the 4·groups rows, the x part's passes over wx, then the r part's over wr (rows_part: 13 instructions a pass
/// besides the loops, against 32 for both parts in one pass), each part sixteen columns an iteration where its length
/// is a multiple of 16, else eight.
inline void rows_packed2(const std::int8_t* wx, const std::int8_t* wr, const Packed& p, std::size_t nx, std::size_t nr,
                         std::size_t groups, std::int32_t* s) noexcept {
    const std::int32_t* const vx = p.w + 2;
    const std::int32_t* const vr = vx + nx / 2;
    if (nx % 16 == 0) {
        rows_part<16>(wx, nx, vx, groups, s);
    } else {
        rows_part<8>(wx, nx, vx, groups, s);
    }
    if (nr % 16 == 0) {
        rows_part<16>(wr, nr, vr, groups, s + 1);
    } else {
        rows_part<8>(wr, nr, vr, groups, s + 1);
    }
}
/// rows_packed2's sums, each part's in an array of its own: s_x[i] (from wx) and s_r[i] (from wr) for the 4·groups
/// rows (gru_gates where x and h pack: two STRDs a pass, where the (s_x, s_r) pairs take four STRs, and the
/// finishing passes load as many: M4 Gru<q15, 16, 32> 10,461 -> 10,317 instructions a step; s_x, s_r word aligned).
inline void rows_apart(const std::int8_t* wx, const std::int8_t* wr, const Packed& p, std::size_t nx, std::size_t nr,
                       std::size_t groups, std::int32_t* s_x, std::int32_t* s_r) noexcept {
    const std::int32_t* const vx = p.w + 2;
    const std::int32_t* const vr = vx + nx / 2;
    if (nx % 16 == 0) {
        rows_part<16, true>(wx, nx, vx, groups, s_x);
    } else {
        rows_part<8, true>(wx, nx, vx, groups, s_x);
    }
    if (kLoops32 && nr % 32 == 0) {
        rows_part<32, true>(wr, nr, vr, groups, s_r);
    } else if (nr % 16 == 0) {
        rows_part<16, true>(wr, nr, vr, groups, s_r);
    } else {
        rows_part<8, true>(wr, nr, vr, groups, s_r);
    }
}
// clang-format off
#define SARNN_DSP_ROWS_PACKED_SUM(LOOPX, LOOPR) \
    "3:\n\t" \
    "ldrd   %[w0], %[ld2], %[xs]\n\t" \
    "ldr    %[end], %[x_end]\n\t" \
    "add    %[w1], %[w0], %[ld2], lsr #1\n\t" \
    LOOPX("1") \
    /* w1 ends at row 2: the next pass's row 4 */ \
    "add    %[y], %[w1], %[ld2]\n\t" \
    "str    %[y], %[xs]\n\t" \
    "ldrd   %[w0], %[ld2], %[rs]\n\t" \
    "ldr    %[end], %[r_end]\n\t" \
    "add    %[w1], %[w0], %[ld2], lsr #1\n\t" \
    LOOPR("2") \
    "strd   %[a0], %[a1], [%[s]], #8\n\t" \
    "strd   %[a2], %[a3], [%[s]], #8\n\t" \
    "add    %[y], %[w1], %[ld2]\n\t" \
    "str    %[y], %[rs]\n\t" \
    "ldrd   %[vp], %[y], %[vs]\n\t" \
    "cmp    %[s], %[y]\n\t" \
    "bne    3b"
#define SARNN_DSP_ROWS_PACKED_SUM_OPERANDS \
    : [a0] "=&r"(a0), [a1] "=&r"(a1), [a2] "=&r"(a2), [a3] "=&r"(a3), [w0] "=&r"(w0), [w1] "=&r"(w1), \
    [vp] "+r"(vp), [end] "=&r"(end), [x] "=&r"(xv), [y] "=&r"(yv), [z] "=&r"(z), [t] "=&r"(t), \
    [ld2] "=&r"(ld2), [s] "+r"(s), [xs] "+m"(xs), [rs] "+m"(rs) \
    : [x_end] "m"(x_end), [r_end] "m"(r_end), [vs] "m"(vs) \
    : "cc", "memory"
// clang-format on
/// rows_packed2's two sums added, one per row (affine's gates where the x part's factor is 1: z = s_x + s_r): s[i] =
/// Σ_k A_x[i][k]·x_k + Σ_k A_r[i][k]·r_k for the 4·groups rows, what q15_plain's dot_rows<4>(wx, nx, x, nx, acc) then
/// dot_rows<4>(wr, nr, r, nr, acc) give from acc = 0 (the sum exact where it fits int32: SMLAD wraps, and the
/// caller's bound |s_x| + |s_r| < 2^31 holds for the total). Each pass's four sums run on from the x part into the r
/// part (vp runs on from x to r in Packed) and are stored once (17 instructions a pass besides the loops, against 32;
/// fourteen registers: s in the last, 2 instructions a pass fewer than s in memory; each part's rows and stride one
/// LDRD, the packed values' start and s's end another, 3 fewer than one LDR each: M4 Lstm<q15, 16, 32> 12,509 -> 12,390).
/// kX and kR: the columns an iteration of each part's loop (8, 16 or 32, dividing nx and nr). Not inline: LDRD's
/// offsets from sp (up to 1020) in this small frame.
template <int kX, int kR>
__attribute__((noinline)) void rows_packed_sum_by(const std::int8_t* wx, const std::int8_t* wr, const Packed& p,
                                                  std::size_t nx, std::size_t nr, std::size_t groups,
                                                  std::int32_t* s) noexcept {
    const std::int32_t* vp = p.w + 2;
    const std::int32_t* const x_end = vp + nx / 2;
    const std::int32_t* const r_end = x_end + nr / 2;
    // (rows, 2·stride) of each part, (start of the packed values, end of s): LDRD's pairs
    alignas(8) std::uintptr_t xs[2] = {reinterpret_cast<std::uintptr_t>(wx), 2 * nx};
    alignas(8) std::uintptr_t rs[2] = {reinterpret_cast<std::uintptr_t>(wr), 2 * nr};
    alignas(8) const std::uintptr_t vs[2] = {reinterpret_cast<std::uintptr_t>(vp),
                                             reinterpret_cast<std::uintptr_t>(s + 4 * groups)};
    const std::int8_t *w0, *w1, *end;
    std::size_t ld2;
    std::int32_t a0, a1, a2, a3, xv, yv, z, t;
    static_assert((kX == 8 && kR == 8) || (kX == 16 && (kR == 16 || kR == 32)), "rows_packed_sum_by: the loops");
    if constexpr (kR == 32) {
        // clang-format off
        __asm__ volatile(SARNN_DSP_ROWS_PACKED_SUM(SARNN_DSP_PACKED_FROM0_LOOP16, SARNN_DSP_PACKED_LOOP32)
                             SARNN_DSP_ROWS_PACKED_SUM_OPERANDS);
        // clang-format on
    } else if constexpr (kR == 16) {
        // clang-format off
        __asm__ volatile(SARNN_DSP_ROWS_PACKED_SUM(SARNN_DSP_PACKED_FROM0_LOOP16, SARNN_DSP_PACKED_LOOP16)
                             SARNN_DSP_ROWS_PACKED_SUM_OPERANDS);
        // clang-format on
    } else {
        // clang-format off
        __asm__ volatile(SARNN_DSP_ROWS_PACKED_SUM(SARNN_DSP_PACKED_FROM0_LOOP, SARNN_DSP_PACKED_LOOP)
                             SARNN_DSP_ROWS_PACKED_SUM_OPERANDS);
        // clang-format on
    }
}
#undef SARNN_DSP_ROWS_PACKED_SUM
#undef SARNN_DSP_ROWS_PACKED_SUM_OPERANDS
/// rows_packed_sum (sixteen columns an iteration where both parts are multiples of 16 long, the r part 32 where it is a
/// multiple of 32; else eight)
inline void rows_packed_sum(const std::int8_t* wx, const std::int8_t* wr, const Packed& p, std::size_t nx,
                            std::size_t nr, std::size_t groups, std::int32_t* s) noexcept {
    if (kLoops32 && nx % 16 == 0 && nr % 32 == 0) {
        rows_packed_sum_by<16, 32>(wx, wr, p, nx, nr, groups, s);
    } else if (nx % 16 == 0 && nr % 16 == 0) {
        rows_packed_sum_by<16, 16>(wx, wr, p, nx, nr, groups, s);
    } else {
        rows_packed_sum_by<8, 8>(wx, wr, p, nx, nr, groups, s);
    }
}
#undef SARNN_DSP_PACKED4
#undef SARNN_DSP_PACKED_LOOP
#undef SARNN_DSP_PACKED_LOOP16
#undef SARNN_DSP_PACKED_LOOP32
#undef SARNN_DSP_PACKED_FROM0_LOOP
#undef SARNN_DSP_PACKED_FROM0_LOOP16
#undef SARNN_DSP_PACKED_FROM0_LOOP32
#undef SARNN_DSP_PACKED_FROM0_BY
#undef SARNN_DSP_PACKED4_FROM0
#undef SARNN_DSP_ROW_FROM0
#undef SARNN_DSP_STORE_SUMS
#undef SARNN_DSP_STORE_SUMS_AT

#undef SARNN_DSP_ROWS4
#undef SARNN_DSP_ROWS4_LOOP
#undef SARNN_DSP_ROW

/// Two rows (a pass of the last rows): SMLAD on (w0, w2), (w1, w3) as in the four rows' loop, in C; the last n % 4
/// columns by SMLABB.
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
    // (counted down from n % 4: a trip count GCC bounds where n is a constant, no false -Waggressive-loop-optimizations)
    for (std::size_t t = n % 4; t != 0; --t, ++k) {
        a0 = __smlabb(w[k], v[k].raw, a0);
        a1 = __smlabb(w[ld + k], v[k].raw, a1);
    }
    acc[0] = a0;
    acc[1] = a1;
}

/// One row (the last of a group): SMLAD on (w0, w2), (w1, w3) as dot_rows<2>, four columns a pass; the last n % 4
/// columns by SMLABB (v at any alignment).
template <>
inline void dot_rows<1>(const std::int8_t* w, std::size_t, const q15* v, std::size_t n, std::int32_t* acc) noexcept {
    std::int32_t a = acc[0];
    std::size_t k = 0;
    for (; k + 4 <= n; k += 4) {
        const std::int32_t v01 = dsp::word(v + k), v23 = dsp::word(v + k + 2);
        const std::int32_t w4 = dsp::word(w + k);
        a = __smlad(__sxtb16(w4), dsp::pkhbt(v01, v23), a);
        a = __smlad(__sxtb16(dsp::ror8(w4)), dsp::pkhtb(v23, v01), a);
    }
    for (std::size_t t = n % 4; t != 0; --t, ++k) a = __smlabb(w[k], v[k].raw, a);  // (as dot_rows<2>'s)
    acc[0] = a;
}

}  // namespace sarnn::kernel::q15_dsp

#endif
