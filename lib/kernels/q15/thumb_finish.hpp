// lib/kernels/q15/thumb_finish.hpp: gru_gates's rows finished from their sums (q15/seam.hpp's kFinishGru) for the
// Thumb loops (q15/thumb.hpp: ARMv6-M, whose 64-bit multiply is a library call; and the M3), the integers of q15.cpp's
// generic rows (requantize by the high word of the product in 16-bit halves, fixed::detail::requantize_hi_mul16; the
// bias added saturated to int16), each row's multiplier split once for its two sums, and the common case of the
// saturated sum (no overflow, within int16) tested first; affine's rows in Thumb assembly (in unified syntax:
// SARNN_THUMB_BEGIN and _END, which q15/thumb.hpp defines before it includes this file). A few hundred bytes of code.
#ifndef SARNN_LIB_KERNELS_Q15_THUMB_FINISH_HPP
#define SARNN_LIB_KERNELS_Q15_THUMB_FINISH_HPP

#include <cstddef>
#include <cstdint>

#include "kernels/requantize.hpp"
#include "sarnn/fixed.hpp"

namespace sarnn::kernel::q15_thumb {

/// floor(v·m / 2^32) for 0 <= m < 2^31, m = mh·2^16 + ml with ml = (int16)m, mh = (m >> 16) - (ml >> 15) in
/// [0, 2^15]: requantize_hi_mul16's H (kernels/requantize.hpp, where the bounds are)
__attribute__((always_inline)) inline std::int32_t high_word(std::int32_t v, std::int32_t ml,
                                                             std::int32_t mh) noexcept {
    const std::int32_t al = static_cast<std::int16_t>(v), ah = (v >> 16) - (al >> 15);
    const std::int32_t x = ah * ml + al * mh + ((al * ml) >> 16);
    return ah * mh + (x >> 16);
}

/// a + b saturated to int16, any a and b (q15.cpp's add_sat16): where the 32-bit sum overflows, the true sum is beyond
/// int16 on a's side
__attribute__((always_inline)) inline std::int32_t add_sat16(std::int32_t a, std::int32_t b) noexcept {
    std::int32_t s;
    if (__builtin_add_overflow(a, b, &s)) return a < 0 ? -32768 : 32767;
    if (static_cast<std::uint32_t>(s + 32768) > 65535u) return s < 0 ? -32768 : 32767;
    return s;
}

/// One row of affine's rows finished (requantize and the bias, saturated): q15.cpp's integers, where the row's
/// multiplier is >= 0 and its shift in 2 .. 31
__attribute__((always_inline)) inline std::int32_t finish_one(std::int32_t z, std::int32_t m, int shift,
                                                              std::int32_t b) noexcept {
    if (m < 0) return add_sat16(fixed::detail::requantize(z, m, shift), b);
    const std::int32_t ml = static_cast<std::int16_t>(m), mh = (m >> 16) - (ml >> 15);
    const int r = shift - 1;
    return add_sat16((high_word(z, ml, mh) + (std::int32_t{1} << (r - 1))) >> r, b);
}

/// affine's rows where the x part's factor is 1 (q15.cpp's affine_one): y_k = add_sat16(requantize(z_k, m_k, shift_k),
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

// One value of a GRU row in finish_gru's block: B = z (from sz) requantized by ml = [sp, #4], mh = [sp, #8] and
// r - 1 = [sp, #12], plus the bias at the high register bp, saturated to int16 and stored at the high register yp
// (finish_sum's steps; A, C, D, E scratch).
// clang-format off
#define SARNN_THUMB_GRU_VALUE(bp, yp)             \
    "ldr   %[C], [sp, #4]\n\t"                    \
    "ldr   %[A], [sp, #8]\n\t"                    \
    "ldmia %[sz]!, {%[B]}\n\t"                    \
    "sxth  %[D], %[B]\n\t"                        \
    "asrs  %[B], %[B], #16\n\t"                   \
    "asrs  %[E], %[D], #15\n\t"                   \
    "subs  %[B], %[B], %[E]\n\t"                  \
    "movs  %[E], %[B]\n\t"                        \
    "muls  %[E], %[C]\n\t"                        \
    "muls  %[C], %[D]\n\t"                        \
    "asrs  %[C], %[C], #16\n\t"                   \
    "adds  %[E], %[E], %[C]\n\t"                  \
    "muls  %[D], %[A]\n\t"                        \
    "adds  %[E], %[E], %[D]\n\t"                  \
    "asrs  %[E], %[E], #16\n\t"                   \
    "muls  %[B], %[A]\n\t"                        \
    "adds  %[B], %[B], %[E]\n\t"                  \
    "ldr   %[D], [sp, #12]\n\t"                   \
    "movs  %[C], #1\n\t"                          \
    "lsls  %[C], %[D]\n\t"                        \
    "adds  %[B], %[B], %[C]\n\t"                  \
    "adds  %[D], #1\n\t"                          \
    "asrs  %[B], %[D]\n\t"                        \
    "mov   %[C], %[" bp "]\n\t"                   \
    "ldmia %[C]!, {%[D]}\n\t"                     \
    "mov   %[" bp "], %[C]\n\t"                   \
    "adds  %[B], %[B], %[D]\n\t"                  \
    "bvs   5f\n\t"                                \
    "movs  %[C], #128\n\t"                        \
    "lsls  %[C], %[C], #8\n\t"                    \
    "adds  %[C], %[C], %[B]\n\t"                  \
    "lsrs  %[C], %[C], #16\n\t"                   \
    "beq   7f\n\t"                                \
    "b     6f\n"                                  \
    "5:\n\t"                                      \
    "mvns  %[B], %[B]\n"                          \
    "6:\n\t"                                      \
    "asrs  %[B], %[B], #31\n\t"                   \
    "movs  %[C], #128\n\t"                        \
    "lsls  %[C], %[C], #8\n\t"                    \
    "subs  %[C], #1\n\t"                          \
    "eors  %[B], %[C]\n"                          \
    "7:\n\t"                                      \
    "mov   %[C], %[" yp "]\n\t"                   \
    "strh  %[B], [%[C], #0]\n\t"                  \
    "adds  %[C], #2\n\t"                          \
    "mov   %[" yp "], %[C]\n\t"
// clang-format on

/// gru_gates's rows where the x part's factor is 1 (q15.cpp): gi = add_sat16(requantize(s_x, m_r, shift_r), b_ih),
/// gh = add_sat16(requantize(s_h, m_r, shift_r), b_hh), from the (s_x, s_h) pairs s, as finish_one; stops before the
/// first row whose shift is outside 2 .. 31 and returns how many rows it wrote. The rows in Thumb assembly, each
/// multiplier split once for its two sums (kept on the stack with the end: five pointers fill the high registers),
/// until one whose multiplier is negative (never the exporter's: finish_one in C, then the loop again). A function of
/// its own (inlined into gru_gates beside dot_rows<4>'s blocks, the M0+ Gru step took 350 instructions more).
__attribute__((noinline)) inline std::size_t finish_gru(const std::int32_t* s, std::size_t rows, const std::int32_t* m,
                                                        const std::int8_t* shift, const std::int32_t* b_ih,
                                                        const std::int32_t* b_hh, q15* gi, q15* gh) noexcept {
    std::size_t k = 0;
    while (k < rows) {
        register const std::int8_t* shp __asm__("r8") = shift + k;
        register const std::int32_t* bip __asm__("r9") = b_ih + k;
        register const std::int32_t* bhp __asm__("r10") = b_hh + k;
        register q15* gip __asm__("r11") = gi + k;
        register q15* ghp __asm__("r12") = gh + k;
        const std::int32_t* sz = s + 2 * k;
        const std::int32_t* mp = m + k;
        std::int32_t A, B, C, D;
        auto E = reinterpret_cast<std::intptr_t>(gi + rows);  // (the end, pushed; then scratch)
        // clang-format off
        __asm__ volatile(
            SARNN_THUMB_BEGIN
            // [sp, #0] the end of gi; [sp, #4], [sp, #8], [sp, #12] the row's ml, mh and r - 1
            "sub   sp, #12\n\t"
            "push  {%[E]}\n"
            "1:\n\t"
            // A = m_k (>= 0, else stop); D = shift - 2 = r - 1 (outside 0 .. 29: stop); nothing written
            "ldr   %[A], [%[mp], #0]\n\t"
            "cmp   %[A], #0\n\t"
            "blt   9f\n\t"
            "mov   %[E], %[shp]\n\t"
            "ldrb  %[D], [%[E], #0]\n\t"
            "subs  %[D], #2\n\t"
            "cmp   %[D], #29\n\t"
            "bhi   9f\n\t"
            "adds  %[E], #1\n\t"
            "mov   %[shp], %[E]\n\t"
            "adds  %[mp], #4\n\t"
            "str   %[D], [sp, #12]\n\t"
            // ml = (int16)m, mh = (m >> 16) - (ml >> 15)
            "sxth  %[C], %[A]\n\t"
            "asrs  %[A], %[A], #16\n\t"
            "asrs  %[E], %[C], #15\n\t"
            "subs  %[A], %[A], %[E]\n\t"
            "str   %[C], [sp, #4]\n\t"
            "str   %[A], [sp, #8]\n\t"
            SARNN_THUMB_GRU_VALUE("bip", "gip")
            SARNN_THUMB_GRU_VALUE("bhp", "ghp")
            "mov   %[C], %[gip]\n\t"
            "ldr   %[D], [sp, #0]\n\t"
            "cmp   %[C], %[D]\n\t"
            "bne   1b\n"
            "9:\n\t"
            "add   sp, #16" SARNN_THUMB_END
            : [shp] "+r"(shp), [bip] "+r"(bip), [bhp] "+r"(bhp), [gip] "+r"(gip), [ghp] "+r"(ghp), [sz] "+l"(sz),
              [mp] "+l"(mp), [A] "=&l"(A), [B] "=&l"(B), [C] "=&l"(C), [D] "=&l"(D), [E] "+l"(E)
            :
            : "cc", "memory");
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
#undef SARNN_THUMB_GRU_VALUE

}  // namespace sarnn::kernel::q15_thumb

#endif
