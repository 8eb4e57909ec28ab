// sarnn/kernels/q15/thumb/finish.hpp: gru_gates's rows finished from their sums (q15/seam.hpp's kFinishGru) for the
// Thumb loops (q15/thumb/loops.hpp: ARMv6-M, whose 64-bit multiply is a library call; and the M3), the integers of q15/affine.hpp's
// generic rows (requantize by the high word of the product in 16-bit halves, fixed::detail::requantize_hi_mul16; the
// bias added saturated to int16), each row's multiplier split once for its two sums, and the common case of the
// saturated sum (no overflow, within int16) tested first; affine's rows in Thumb assembly (in unified syntax:
// SARNN_THUMB_BEGIN and _END, which q15/thumb/loops.hpp defines before it includes this file). A few hundred bytes of code.
#ifndef SARNN_KERNELS_Q15_THUMB_FINISH_HPP
#define SARNN_KERNELS_Q15_THUMB_FINISH_HPP

#include <cstddef>
#include <cstdint>

#include "sarnn/kernels/q15/requantize.hpp"
#include "sarnn/fixed.hpp"

namespace sarnn::kernel::q15_thumb {

/// floor(v·m / 2^32) for 0 <= m < 2^31, m = mh·2^16 + ml with ml = (int16)m, mh = (m >> 16) - (ml >> 15) in
/// [0, 2^15]: requantize_hi_mul16's H (kernels/q15/requantize.hpp, where the bounds are)
__attribute__((always_inline)) inline std::int32_t high_word(std::int32_t v, std::int32_t ml,
                                                             std::int32_t mh) noexcept {
    const std::int32_t al = static_cast<std::int16_t>(v), ah = (v >> 16) - (al >> 15);
    const std::int32_t x = ah * ml + al * mh + ((al * ml) >> 16);
    return ah * mh + (x >> 16);
}

/// a + b saturated to int16, any a and b (q15/affine.hpp's add_sat16): where the 32-bit sum overflows, the true sum is beyond
/// int16 on a's side
__attribute__((always_inline)) inline std::int32_t add_sat16(std::int32_t a, std::int32_t b) noexcept {
    std::int32_t s;
    if (__builtin_add_overflow(a, b, &s)) return a < 0 ? -32768 : 32767;
    if (static_cast<std::uint32_t>(s + 32768) > 65535u) return s < 0 ? -32768 : 32767;
    return s;
}

/// One row of affine's rows finished (requantize and the bias, saturated): q15/affine.hpp's integers, where the row's
/// multiplier is >= 0 and its shift in 2 .. 31
__attribute__((always_inline)) inline std::int32_t finish_one(std::int32_t z, std::int32_t m, int shift,
                                                              std::int32_t b) noexcept {
    if (m < 0) return add_sat16(fixed::detail::requantize(z, m, shift), b);
    const std::int32_t ml = static_cast<std::int16_t>(m), mh = (m >> 16) - (ml >> 15);
    const int r = shift - 1;
    return add_sat16((high_word(z, ml, mh) + (std::int32_t{1} << (r - 1))) >> r, b);
}

/// affine's rows where the x part's factor is 1 (q15/affine.hpp's affine_one): y_k = add_sat16(requantize(z_k, m_k, shift_k),
/// b_k) from the sums z = s, as finish_one; stops before the first row whose shift is outside 2 .. 31 and returns how
/// many rows it wrote. The rows in Thumb assembly (50 instructions a row, GCC's C form about 63), one at a time until
/// one whose multiplier is negative (never the exporter's: finish_one in C, then the loop again).
inline std::size_t finish_sum(const std::int32_t* s, std::size_t rows, const std::int32_t* m, const std::int8_t* shift,
                              const std::int32_t* b, q15* y) noexcept {
    std::size_t k = 0;
    while (k < rows) {
        register const std::int8_t* shp __asm__("r8") = shift + k;
        register const std::int32_t* bp __asm__("r9") = b + k;
        register q15* yp __asm__("r10") = y + k;
        register q15* const end __asm__("r11") = y + rows;
        register std::int32_t half __asm__("r12") = 32768;
        const std::int32_t* sz = s + k;
        const std::int32_t* mp = m + k;
        std::int32_t A, B, C, D, E;
        // clang-format off
        __asm__ volatile(
            SARNN_THUMB_BEGIN
            "1:\n\t"
            // A = m_k (>= 0, else stop), B = z_k
            "ldr   %[A], [%[mp], #0]\n\t"
            "cmp   %[A], #0\n\t"
            "blt   9f\n\t"
            "adds  %[mp], #4\n\t"
            "ldmia %[sz]!, {%[B]}\n\t"
            // C = ml = (int16)m, A = mh = (m >> 16) - (ml >> 15); D = al = (int16)z, B = ah = (z >> 16) - (al >> 15)
            "sxth  %[C], %[A]\n\t"
            "asrs  %[A], %[A], #16\n\t"
            "asrs  %[D], %[C], #15\n\t"
            "subs  %[A], %[A], %[D]\n\t"
            "sxth  %[D], %[B]\n\t"
            "asrs  %[B], %[B], #16\n\t"
            "asrs  %[E], %[D], #15\n\t"
            "subs  %[B], %[B], %[E]\n\t"
            // E = x = ah·ml + (al·ml >> 16) + al·mh; B = H = ah·mh + (x >> 16)
            "movs  %[E], %[B]\n\t"
            "muls  %[E], %[C]\n\t"
            "muls  %[C], %[D]\n\t"
            "asrs  %[C], %[C], #16\n\t"
            "adds  %[E], %[E], %[C]\n\t"
            "muls  %[D], %[A]\n\t"
            "adds  %[E], %[E], %[D]\n\t"
            "asrs  %[E], %[E], #16\n\t"
            "muls  %[B], %[A]\n\t"
            "adds  %[B], %[B], %[E]\n\t"
            // D = shift - 2 = r - 1 (outside 0 .. 29: stop, nothing written); B = (H + 2^(r-1)) >> r
            "mov   %[C], %[shp]\n\t"
            "ldrb  %[D], [%[C], #0]\n\t"
            "subs  %[D], #2\n\t"
            "cmp   %[D], #29\n\t"
            "bhi   9f\n\t"
            "adds  %[C], #1\n\t"
            "mov   %[shp], %[C]\n\t"
            "movs  %[C], #1\n\t"
            "lsls  %[C], %[D]\n\t"
            "adds  %[B], %[B], %[C]\n\t"
            "adds  %[D], #1\n\t"
            "asrs  %[B], %[D]\n\t"
            // B = B + b_k, saturated to int16: on overflow the true sum is beyond on the side opposite the wrapped
            // sum's sign; else where B + 32768 is outside 0 .. 65535, on B's side
            "mov   %[C], %[bp]\n\t"
            "ldmia %[C]!, {%[D]}\n\t"
            "mov   %[bp], %[C]\n\t"
            "adds  %[B], %[B], %[D]\n\t"
            "bvs   5f\n\t"
            "mov   %[C], %[half]\n\t"
            "adds  %[C], %[C], %[B]\n\t"
            "lsrs  %[C], %[C], #16\n\t"
            "beq   7f\n\t"
            "b     6f\n"
            "5:\n\t"
            "mvns  %[B], %[B]\n"
            "6:\n\t"
            "asrs  %[B], %[B], #31\n\t"
            "mov   %[C], %[half]\n\t"
            "subs  %[C], #1\n\t"
            "eors  %[B], %[C]\n"
            "7:\n\t"
            "mov   %[C], %[yp]\n\t"
            "strh  %[B], [%[C], #0]\n\t"
            "adds  %[C], #2\n\t"
            "mov   %[yp], %[C]\n\t"
            "cmp   %[C], %[end]\n\t"
            "bne   1b\n"
            "9:" SARNN_THUMB_END
            : [shp] "+r"(shp), [bp] "+r"(bp), [yp] "+r"(yp), [sz] "+l"(sz), [mp] "+l"(mp), [A] "=&l"(A),
              [B] "=&l"(B), [C] "=&l"(C), [D] "=&l"(D), [E] "=&l"(E)
            : [end] "r"(end), [half] "r"(half)
            : "cc", "memory");
        // clang-format on
        k = static_cast<std::size_t>(yp - y);
        // stopped at a row whose shift is outside 2 .. 31 (the end), or whose multiplier is negative (finish_one)
        if (k == rows || shift[k] < 2 || shift[k] > 31) break;
        y[k] = q15{static_cast<std::int16_t>(finish_one(s[k], m[k], shift[k], b[k]))};
        ++k;
    }
    return k;
}

// One value of a GRU row in finish_gru's block: v (r1 or r2) requantized by ml = r3, mh = r4 (high_word's steps,
// scratch r5 to r7), rounded by 2^(r-1) = [sp, #0] and shifted by r = [sp, #4], plus the bias at the high register
// bp, saturated to int16 (out of line at the labels L5 and L6, back at L7) and stored at the high register yp.
// clang-format off
#define SARNN_THUMB_GRU_VALUE(v, bp, yp, L5, L6, L7) \
    "sxth  r5, " v "\n\t"                      \
    "asrs  " v ", " v ", #16\n\t"              \
    "asrs  r6, r5, #15\n\t"                    \
    "subs  " v ", " v ", r6\n\t"               \
    "movs  r6, " v "\n\t"                      \
    "muls  r6, r3\n\t"                         \
    "movs  r7, r3\n\t"                         \
    "muls  r7, r5\n\t"                         \
    "asrs  r7, r7, #16\n\t"                    \
    "adds  r6, r6, r7\n\t"                     \
    "muls  r5, r4\n\t"                         \
    "adds  r6, r6, r5\n\t"                     \
    "asrs  r6, r6, #16\n\t"                    \
    "muls  " v ", r4\n\t"                      \
    "adds  " v ", " v ", r6\n\t"               \
    "ldr   r7, [sp, #0]\n\t"                   \
    "adds  " v ", " v ", r7\n\t"               \
    "ldr   r7, [sp, #4]\n\t"                   \
    "asrs  " v ", r7\n\t"                      \
    "mov   r7, " bp "\n\t"                     \
    "ldmia r7!, {r5}\n\t"                      \
    "mov   " bp ", r7\n\t"                     \
    "adds  " v ", " v ", r5\n\t"               \
    "bvs   " L5 "f\n\t"                        \
    "sxth  r5, " v "\n\t"                      \
    "cmp   r5, " v "\n\t"                      \
    "bne   " L6 "f\n"                          \
    L7 ":\n\t"                                 \
    "mov   r7, " yp "\n\t"                     \
    "strh  " v ", [r7, #0]\n\t"                \
    "adds  r7, #2\n\t"                         \
    "mov   " yp ", r7\n\t"
// The saturation of a value's sum, out of line: on overflow (L5) the true sum is beyond int16 on the side opposite
// the wrapped sum's sign; else (L6) on its side: 32767 or -32768 = (v >> 31) ^ 32767.
#define SARNN_THUMB_GRU_SAT(v, L5, L6, L7)     \
    L5 ":\n\t"                                 \
    "mvns  " v ", " v "\n"                     \
    L6 ":\n\t"                                 \
    "asrs  " v ", " v ", #31\n\t"              \
    "movs  r5, #128\n\t"                       \
    "lsls  r5, r5, #8\n\t"                     \
    "subs  r5, #1\n\t"                         \
    "eors  " v ", r5\n\t"                      \
    "b     " L7 "b\n"
// clang-format on

/// gru_gates's rows where the x part's factor is 1 (q15/affine.hpp): gi = add_sat16(requantize(s_x, m_r, shift_r), b_ih),
/// gh = add_sat16(requantize(s_h, m_r, shift_r), b_hh), from the (s_x, s_h) pairs s, as finish_one; stops before the
/// first row whose shift is outside 2 .. 31 and returns how many rows it wrote. The rows in Thumb assembly (89
/// instructions a row; the block before 7 Dec, which kept the split multiplier on the stack: 98; the M0+ Gru step at
/// In 16, Hidden 32 took 876 fewer, 2.7%), until one whose
/// multiplier is negative (never the exporter's: finish_one in C, then the loop again). Each row's two sums by one
/// LDM, its multiplier split once into two low registers for both; eight low registers (r7 kept by the block: push,
/// pop), the pointers to m, shift, the biases and gi in r8 to r12, gh's in lr, the rounding, the shift and the end on
/// the stack. A function of its own (inlined into gru_gates beside the products' blocks, the M0+ Gru step took 350
/// instructions more).
__attribute__((noinline)) inline std::size_t finish_gru(const std::int32_t* s, std::size_t rows, const std::int32_t* m,
                                                        const std::int8_t* shift, const std::int32_t* b_ih,
                                                        const std::int32_t* b_hh, q15* gi, q15* gh) noexcept {
    std::size_t k = 0;
    while (k < rows) {
        register const std::int32_t* mp __asm__("r8") = m + k;
        register const std::int8_t* shp __asm__("r9") = shift + k;
        register const std::int32_t* bip __asm__("r10") = b_ih + k;
        register const std::int32_t* bhp __asm__("r11") = b_hh + k;
        register q15* gip __asm__("r12") = gi + k;
        register const std::int32_t* sz __asm__("r0") = s + 2 * k;
        register std::intptr_t r1 __asm__("r1") = reinterpret_cast<std::intptr_t>(s + 2 * rows);  // (then v_x)
        register std::intptr_t r5 __asm__("r5") = reinterpret_cast<std::intptr_t>(gh + k);        // (then scratch)
        register std::int32_t r2 __asm__("r2");
        register std::int32_t r3 __asm__("r3");
        register std::int32_t r4 __asm__("r4");
        register std::int32_t r6 __asm__("r6");
        // clang-format off
        __asm__ volatile(
            SARNN_THUMB_BEGIN
            // [sp, #0] 2^(r-1), [sp, #4] r, [sp, #8] the end of s; r7 above them
            "push  {r7}\n\t"
            "sub   sp, #12\n\t"
            "str   r1, [sp, #8]\n\t"
            "mov   lr, r5\n"
            "1:\n\t"
            // r3 = m_k (>= 0, else stop); r4 = shift - 2 = r - 1 (outside 0 .. 29: stop); nothing written
            "mov   r7, r8\n\t"
            "ldmia r7!, {r3}\n\t"
            "mov   r8, r7\n\t"
            "cmp   r3, #0\n\t"
            "blt   9f\n\t"
            "mov   r7, r9\n\t"
            "ldrb  r4, [r7, #0]\n\t"
            "adds  r7, #1\n\t"
            "mov   r9, r7\n\t"
            "subs  r4, #2\n\t"
            "cmp   r4, #29\n\t"
            "bhi   9f\n\t"
            "movs  r5, #1\n\t"
            "lsls  r5, r4\n\t"
            "str   r5, [sp, #0]\n\t"
            "adds  r4, #1\n\t"
            "str   r4, [sp, #4]\n\t"
            // r3 = ml = (int16)m, r4 = mh = (m >> 16) - (ml >> 15); r1, r2 = s_x, s_h
            "asrs  r4, r3, #16\n\t"
            "sxth  r3, r3\n\t"
            "asrs  r7, r3, #15\n\t"
            "subs  r4, r4, r7\n\t"
            "ldmia r0!, {r1, r2}\n\t"
            SARNN_THUMB_GRU_VALUE("r1", "r10", "r12", "15", "16", "17")
            SARNN_THUMB_GRU_VALUE("r2", "r11", "lr", "25", "26", "27")
            "ldr   r7, [sp, #8]\n\t"
            "cmp   r0, r7\n\t"
            "bne   1b\n\t"
            "b     9f\n"
            SARNN_THUMB_GRU_SAT("r1", "15", "16", "17")
            SARNN_THUMB_GRU_SAT("r2", "25", "26", "27")
            "9:\n\t"
            "add   sp, #12\n\t"
            "pop   {r7}" SARNN_THUMB_END
            : [mp] "+r"(mp), [shp] "+r"(shp), [bip] "+r"(bip), [bhp] "+r"(bhp), [gip] "+r"(gip), [sz] "+l"(sz),
              [r1] "+l"(r1), [r5] "+l"(r5), [r2] "=&l"(r2), [r3] "=&l"(r3), [r4] "=&l"(r4), [r6] "=&l"(r6)
            :
            : "cc", "memory", "lr");
        // clang-format on
        k = static_cast<std::size_t>(gip - gi);
        // stopped at a row whose shift is outside 2 .. 31 (the end), or whose multiplier is negative (finish_one)
        if (k == rows || shift[k] < 2 || shift[k] > 31) break;
        gi[k] = q15{static_cast<std::int16_t>(finish_one(s[2 * k], m[k], shift[k], b_ih[k]))};
        gh[k] = q15{static_cast<std::int16_t>(finish_one(s[2 * k + 1], m[k], shift[k], b_hh[k]))};
        ++k;
    }
    return k;
}
#undef SARNN_THUMB_GRU_SAT
#undef SARNN_THUMB_GRU_VALUE

}  // namespace sarnn::kernel::q15_thumb

#endif
