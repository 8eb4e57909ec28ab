// sarnn/kernels/q15/thumb/gru.hpp: gru_gates for the Thumb loops (q15/thumb/loops.hpp: ARMv6-M, ARMv7-M without DSP; the
// seam's kGruGates), the integers of q15/affine.hpp's generic gru_gates: per row s_x = W_ih·x, s_h = W_hh·h (exact
// int32), gi = requantize(xq, m, shift) + b_ih with xq = s_x in h's units (s_x itself for the exporter's factor 1),
// gh = requantize(s_h, m, shift) + b_hh, each saturated to int16. x and h read once into int32 words (both in 64
// words of stack where they fit, else a chunk at a time), then four rows a pass over both matrices by index
// (rows4_words: one load of a value for four rows, no sign extension, the loop's end from its index), the rows
// finished by finish_gru (q15/thumb/finish.hpp). The M0+ Gru step (In 16, Hidden 32) took 2,650 instructions fewer
// than with the generic gru_gates on dot_rows<4> (35,364 -> 32,714: its products 22,099 -> 19,418), and its image
// 560 bytes less code (the generic gru_gates not in it).
// Included by q15/thumb/loops.hpp after q15/thumb/finish.hpp (its assembly takes SARNN_THUMB_BEGIN and _END from there).
#ifndef SARNN_KERNELS_Q15_THUMB_GRU_HPP
#define SARNN_KERNELS_Q15_THUMB_GRU_HPP

#include <cstddef>
#include <cstdint>

#include "sarnn/kernels/q15/requantize.hpp"
#include "sarnn/fixed.hpp"
#include "sarnn/kernels_q15.hpp"

namespace sarnn::kernel::q15_thumb {

/// The values of x and h read into words: both where nx + nh fit, else a chunk of one at a time.
constexpr std::size_t kGruChunk = 64;

// One column of rows4_words: the value at byte `off` of vp (a word), times the column at index i of each row (w0 to
// w3, r7 the product), into a0 to a3; then the next column (i + 1). The last column of a pass steps vp before it, so
// that the index's increment sets the flags the loop tests.
// clang-format off
#define SARNN_THUMB_WMAC(w, a)               \
    "ldrsb r7, [%[" w "], %[i]]\n\t"        \
    "muls  r7, %[t]\n\t"                    \
    "add   %[" a "], r7\n\t"
#define SARNN_THUMB_WCOL                     \
    SARNN_THUMB_WMAC("w0", "a0") SARNN_THUMB_WMAC("w1", "a1") SARNN_THUMB_WMAC("w2", "a2") SARNN_THUMB_WMAC("w3", "a3") \
    "adds  %[i], #1\n\t"
// clang-format on

/// Groups of four rows against n values v (int32 words, n >= 1), each group's sums at s[8·j + 2·g] (g < 4, j <
/// groups >= 1; the odd words untouched: the other matrix's sums go there), added to what s holds where `add`, else
/// stored: s[8·j + 2·g] (+)= Σ_{k < n} w[(4·j + g)·ld + k]·v_k. Four columns a pass (3.63 instructions a
/// multiply-add: a word of v for four rows, ldrsb by the index from -n4 up to 0 from rows biased by n4 = n - n % 4, the
/// index's last increment the loop's test), then n % 4 one at a time; 31 instructions a group besides. Eight low
/// registers: r7 kept by the block (push, pop: whatever GCC keeps there, the frame pointer of an unoptimised build
/// among it), the group's sums in r8 to r11, 4·ld in r12, the rest on the stack.
inline void rows4_words(const std::int8_t* w, std::size_t ld, const std::int32_t* v, std::size_t n, std::size_t groups,
                        std::int32_t* s, bool add) noexcept {
    const std::size_t n4 = n & ~std::size_t{3};
    register std::int32_t a0 __asm__("r8");
    register std::int32_t a1 __asm__("r9");
    register std::int32_t a2 __asm__("r10");
    register std::int32_t a3 __asm__("r11");
    register std::size_t step __asm__("r12") = 4 * ld;
    // the block's frame, pushed: [sp, #0] s, [sp, #4] -n4, [sp, #8] v, [sp, #12] the end of w0, [sp, #16] n % 4,
    // [sp, #20] add
    const std::uintptr_t frame[6] = {reinterpret_cast<std::uintptr_t>(s),
                                     0u - n4,
                                     reinterpret_cast<std::uintptr_t>(v),
                                     reinterpret_cast<std::uintptr_t>(w + n4 + 4 * ld * groups),
                                     n & 3u,
                                     add ? 1u : 0u};
    // (the low registers named: none of them r7, which the block keeps itself)
    register const std::int8_t* w0 __asm__("r0") = w + n4;
    register const std::int8_t* w1 __asm__("r1") = w + n4 + ld;
    register const std::int8_t* w2 __asm__("r2") = w + n4 + 2 * ld;
    register const std::int8_t* w3 __asm__("r3") = w + n4 + 3 * ld;
    register std::intptr_t i __asm__("r4") = static_cast<std::intptr_t>(0u - n4);
    register const std::int32_t* vp __asm__("r5") = v;
    register std::intptr_t t __asm__("r6") = reinterpret_cast<std::intptr_t>(frame);
    // clang-format off
    __asm__ volatile(
        SARNN_THUMB_BEGIN
        "push  {r7}\n\t"
        "ldr   r7, [%[t], #20]\n\t"
        "push  {r7}\n\t"
        "ldr   r7, [%[t], #16]\n\t"
        "push  {r7}\n\t"
        "ldr   r7, [%[t], #12]\n\t"
        "push  {r7}\n\t"
        "ldr   r7, [%[t], #8]\n\t"
        "push  {r7}\n\t"
        "ldr   r7, [%[t], #4]\n\t"
        "push  {r7}\n\t"
        "ldr   r7, [%[t], #0]\n\t"
        "push  {r7}\n"
        "0:\n\t"
        // the group's sums: from s (add), else 0
        "ldr   r7, [sp, #20]\n\t"
        "cmp   r7, #0\n\t"
        "bne   5f\n\t"
        "mov   %[a0], r7\n\t"
        "mov   %[a1], r7\n\t"
        "mov   %[a2], r7\n\t"
        "mov   %[a3], r7\n\t"
        "b     6f\n"
        "5:\n\t"
        "ldr   %[t], [sp, #0]\n\t"
        "ldr   r7, [%[t], #0]\n\t"
        "mov   %[a0], r7\n\t"
        "ldr   r7, [%[t], #8]\n\t"
        "mov   %[a1], r7\n\t"
        "ldr   r7, [%[t], #16]\n\t"
        "mov   %[a2], r7\n\t"
        "ldr   r7, [%[t], #24]\n\t"
        "mov   %[a3], r7\n"
        "6:\n\t"
        "cmp   %[i], #0\n\t"
        "beq   2f\n"
        "1:\n\t"
        "ldr   %[t], [%[vp], #0]\n\t" SARNN_THUMB_WCOL
        "ldr   %[t], [%[vp], #4]\n\t" SARNN_THUMB_WCOL
        "ldr   %[t], [%[vp], #8]\n\t" SARNN_THUMB_WCOL
        "ldr   %[t], [%[vp], #12]\n\t"
        "adds  %[vp], #16\n\t" SARNN_THUMB_WCOL
        "bne   1b\n"
        "2:\n\t"
        "ldr   r7, [sp, #16]\n\t"
        "cmp   %[i], r7\n\t"
        "beq   3f\n"
        "4:\n\t"
        "ldr   %[t], [%[vp], #0]\n\t"
        "adds  %[vp], #4\n\t" SARNN_THUMB_WCOL
        "ldr   r7, [sp, #16]\n\t"
        "cmp   %[i], r7\n\t"
        "bne   4b\n"
        "3:\n\t"
        // the sums to s[0], s[2], s[4], s[6]; s += 8
        "ldr   %[t], [sp, #0]\n\t"
        "mov   r7, %[a0]\n\t"
        "str   r7, [%[t], #0]\n\t"
        "mov   r7, %[a1]\n\t"
        "str   r7, [%[t], #8]\n\t"
        "mov   r7, %[a2]\n\t"
        "str   r7, [%[t], #16]\n\t"
        "mov   r7, %[a3]\n\t"
        "str   r7, [%[t], #24]\n\t"
        "adds  %[t], #32\n\t"
        "str   %[t], [sp, #0]\n\t"
        // the next four rows, the index and v from their starts
        "mov   %[t], %[step]\n\t"
        "adds  %[w0], %[w0], %[t]\n\t"
        "adds  %[w1], %[w1], %[t]\n\t"
        "adds  %[w2], %[w2], %[t]\n\t"
        "adds  %[w3], %[w3], %[t]\n\t"
        "ldr   %[i], [sp, #4]\n\t"
        "ldr   %[vp], [sp, #8]\n\t"
        "ldr   r7, [sp, #12]\n\t"
        "cmp   %[w0], r7\n\t"
        "bne   0b\n\t"
        "add   sp, #24\n\t"
        "pop   {r7}" SARNN_THUMB_END
        : [a0] "=&r"(a0), [a1] "=&r"(a1), [a2] "=&r"(a2), [a3] "=&r"(a3), [w0] "+l"(w0), [w1] "+l"(w1),
          [w2] "+l"(w2), [w3] "+l"(w3), [i] "+l"(i), [vp] "+l"(vp), [t] "+l"(t)
        : [step] "r"(step)
        : "cc", "memory");  // (reads frame, w and v; writes s)
    // clang-format on
}
#undef SARNN_THUMB_WCOL
#undef SARNN_THUMB_WMAC

/// v clamped to +-2^30
__attribute__((always_inline)) inline std::int32_t clamp30(std::int32_t v) noexcept {
    constexpr std::int32_t kMax30 = std::int32_t{1} << 30;
    return v > kMax30 ? kMax30 : (v < -kMax30 ? -kMax30 : v);
}

/// gru_gates (Q15::gru_gates's contract), whole: blocks of 48 rows, their (s_x, s_h) sums four rows a pass
/// (rows4_words; the last rows % 4 by dot_rows), then the rows finished: where the x part's factor is 1 (x_m = 2^30,
/// x_shift = -1, nx <= 256: the exporter's, q15/affine.hpp's `one`) by finish_gru (a row it leaves: requantize in C), else
/// row by row in C, s_x to h's units as q15/affine.hpp's XFactor (requantize clamped to +-2^30; no exporter gives it). The
/// image of a q15 Gru then holds no generic gru_gates (1.2 kB of code).
/// The sizes rows, nx and nh are std::size_t, or std::integral_constant where the caller knows them at compile time
/// (Q15Set's shaped forms).
template <class Rows, class RowsT, class NxT, class NhT>
inline void gru_gates(const QGru& a, RowsT rows, const q15* x, NxT nx, const q15* h, NhT nh, q15* gi,
                      q15* gh) noexcept {
    const bool one = a.x_m == (std::int32_t{1} << 30) && a.x_shift == -1 && nx <= 256;
    std::int32_t vw[kGruChunk];  // x then h as words where both fit, else a chunk of one of them
    const auto words = [](const q15* v, std::size_t n, std::int32_t* out) __attribute__((always_inline)) {
        for (std::size_t k = 0; k < n; ++k) out[k] = v[k].raw;
    };
    const bool once = nx + nh <= kGruChunk;
    if (once) {
        words(x, nx, vw);
        words(h, nh, vw + nx);
    }
    constexpr std::size_t kBlock = 48;  // (32: 300 instructions more at Hidden 32, 128 bytes less stack)
    for (std::size_t start = 0; start < rows; start += kBlock) {
        const std::size_t count = rows - start < kBlock ? rows - start : kBlock;
        std::int32_t s[2 * kBlock];  // (s_x, s_h) of each row
        const std::size_t groups = count / 4;
        if (groups > 0) {
            // one part's sums (s_x or s_h) of the groups: from the words read once, else a chunk of columns at a
            // time (the sums added from the second on)
            const auto part = [&](const std::int8_t* w, const q15* v, std::size_t n, const std::int32_t* vo,
                                  std::int32_t* sp) {
                if (n == 0) {
                    for (std::size_t k = 0; k < 4 * groups; ++k) sp[2 * k] = 0;
                } else if (once) {
                    rows4_words(w, n, vo, n, groups, sp, false);
                } else {
                    for (std::size_t c = 0; c < n; c += kGruChunk) {
                        const std::size_t len = n - c < kGruChunk ? n - c : kGruChunk;
                        words(v + c, len, vw);
                        rows4_words(w + c, n, vw, len, groups, sp, c > 0);
                    }
                }
            };
            part(a.W_ih + start * nx, x, nx, vw, s);
            part(a.W_hh + start * nh, h, nh, vw + nx, s + 1);
        }
        // the last rows % 4: two, then one
        for (std::size_t i = 4 * groups; i < count;) {
            const std::size_t row = start + i;
            if (count - i >= 2) {
                std::int32_t sx[2] = {0, 0}, sh[2] = {0, 0};
                Rows::template dot_rows<2>(a.W_ih + row * nx, nx, x, nx, sx);
                Rows::template dot_rows<2>(a.W_hh + row * nh, nh, h, nh, sh);
                s[2 * i] = sx[0], s[2 * i + 1] = sh[0], s[2 * i + 2] = sx[1], s[2 * i + 3] = sh[1];
                i += 2;
            } else {
                std::int32_t sx[1] = {0}, sh[1] = {0};
                Rows::template dot_rows<1>(a.W_ih + row * nx, nx, x, nx, sx);
                Rows::template dot_rows<1>(a.W_hh + row * nh, nh, h, nh, sh);
                s[2 * i] = sx[0], s[2 * i + 1] = sh[0];
                ++i;
            }
        }
        // the rows finished: gi = requantize(xq, m_r, shift_r) + b_ih, gh = requantize(s_h, m_r, shift_r) + b_hh,
        // saturated; xq = s_x where the factor is 1 (finish_gru up to a shift outside 2 .. 31, that row in C, then on)
        for (std::size_t i = 0; i < count;) {
            if (one) {
                i += finish_gru(s + 2 * i, count - i, a.m + start + i, a.shift + start + i, a.b_ih + start + i,
                                a.b_hh + start + i, gi + start + i, gh + start + i);
                if (i == count) break;
            }
            const std::size_t row = start + i;
            const std::int32_t xq = one ? s[2 * i] : clamp30(fixed::detail::requantize(s[2 * i], a.x_m, a.x_shift));
            gi[row] = q15{static_cast<std::int16_t>(
                add_sat16(fixed::detail::requantize(xq, a.m[row], a.shift[row]), a.b_ih[row]))};
            gh[row] = q15{static_cast<std::int16_t>(
                add_sat16(fixed::detail::requantize(s[2 * i + 1], a.m[row], a.shift[row]), a.b_hh[row]))};
            ++i;
        }
    }
}

}  // namespace sarnn::kernel::q15_thumb

#endif
