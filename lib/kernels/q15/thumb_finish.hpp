// lib/kernels/q15/thumb_finish.hpp: gru_gates's rows finished from their sums (q15/seam.hpp's kFinishGru) for the
// Thumb loops (q15/thumb.hpp: ARMv6-M, whose 64-bit multiply is a library call; and the M3), the integers of q15.cpp's
// generic rows (requantize by the high word of the product in 16-bit halves, fixed::detail::requantize_hi_mul16; the
// bias added saturated to int16), each row's multiplier split once for its two sums, and the common case of the
// saturated sum (no overflow, within int16) tested first. C++, a few hundred bytes of code.
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

/// gru_gates's rows where the x part's factor is 1 (q15.cpp): gi = add_sat16(requantize(s_x, m_r, shift_r), b_ih),
/// gh = add_sat16(requantize(s_h, m_r, shift_r), b_hh), from the (s_x, s_h) pairs s; stops before the first row whose
/// shift is outside 2 .. 31 and returns how many rows it wrote. A row with m_r < 0 (never the exporter's) by
/// fixed::detail::requantize.
inline std::size_t finish_gru(const std::int32_t* s, std::size_t rows, const std::int32_t* m, const std::int8_t* shift,
                              const std::int32_t* b_ih, const std::int32_t* b_hh, q15* gi, q15* gh) noexcept {
    std::size_t k = 0;
    for (; k < rows; ++k, s += 2) {
        const int sh = shift[k];
        if (sh < 2 || sh > 31) break;
        const std::int32_t mk = m[k];
        std::int32_t qi, qh;
        if (mk >= 0) {
            // q = (H + 2^(r-1)) >> r, r = shift - 1 in 1 .. 30 (requantize_hi_mul16)
            const std::int32_t ml = static_cast<std::int16_t>(mk), mh = (mk >> 16) - (ml >> 15);
            const int r = sh - 1;
            const std::int32_t half = std::int32_t{1} << (r - 1);
            qi = (high_word(s[0], ml, mh) + half) >> r;
            qh = (high_word(s[1], ml, mh) + half) >> r;
        } else {
            qi = fixed::detail::requantize(s[0], mk, sh);
            qh = fixed::detail::requantize(s[1], mk, sh);
        }
        gi[k] = q15{static_cast<std::int16_t>(add_sat16(qi, b_ih[k]))};
        gh[k] = q15{static_cast<std::int16_t>(add_sat16(qh, b_hh[k]))};
    }
    return k;
}

}  // namespace sarnn::kernel::q15_thumb

#endif
