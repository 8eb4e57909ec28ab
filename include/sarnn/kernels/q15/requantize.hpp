// sarnn/kernels/q15/requantize.hpp: requantize (include/sarnn/fixed.hpp), inline, in 32-bit operations only: the one
// definition behind fixed::requantize (lib/fixed.cpp) and the q15 kernels (kernels/q15/{affine,attention,cells}.hpp). The exact 62-bit
// product |acc|·|multiplier| from four 16 x 16 -> 32 bit products (on the M0/M0+ a 64-bit multiply is a library
// call of about 40 instructions; this is about 25), the rounding term added, the shift taken of the magnitude.
#ifndef SARNN_KERNELS_Q15_REQUANTIZE_HPP
#define SARNN_KERNELS_Q15_REQUANTIZE_HPP

#include <cstdint>

namespace sarnn::fixed::detail {

/// acc · multiplier / 2^(31 + shift) rounded half up, saturated to int32 (shift clamped to [-31, 31]).
inline std::int32_t requantize(std::int32_t acc, std::int32_t multiplier, int shift) noexcept {
    const int s = 31 + (shift < -31 ? -31 : (shift > 31 ? 31 : shift));  // 0 .. 62
    const bool neg = (acc < 0) != (multiplier < 0);
    // |acc|, |multiplier| <= 2^31
    const std::uint32_t a = acc < 0 ? 0u - static_cast<std::uint32_t>(acc) : static_cast<std::uint32_t>(acc);
    const std::uint32_t m = multiplier < 0 ? 0u - static_cast<std::uint32_t>(multiplier)
                                           : static_cast<std::uint32_t>(multiplier);
    // P = a·m = hi·2^32 + lo: the halves' products are < 2^32 each (a_h, m_h <= 2^15), mid < 2^32
    const std::uint32_t al = a & 0xFFFFu, ah = a >> 16, ml = m & 0xFFFFu, mh = m >> 16;
    const std::uint32_t ll = al * ml, mid = al * mh + ah * ml;
    std::uint32_t lo = ll + (mid << 16);
    std::uint32_t hi = ah * mh + (mid >> 16) + (lo < ll ? 1u : 0u);
    // the rounding term: floor((P + 2^(s-1)) / 2^s) for a positive value; a negative one, -P, rounds half up to
    // -floor((P + 2^(s-1) - 1) / 2^s). P <= 2^62, so P + the term < 2^63.
    if (s > 0) {
        // the term as two words: 2^(s-1) (positive) or 2^(s-1) - 1 (negative)
        std::uint32_t add_lo, add_hi;
        if (s - 1 < 32) {
            add_lo = (std::uint32_t{1} << (s - 1)) - (neg ? 1u : 0u);
            add_hi = 0;
        } else {
            add_lo = neg ? 0xFFFFFFFFu : 0u;
            add_hi = (std::uint32_t{1} << (s - 33)) - (neg ? 1u : 0u);
        }
        const std::uint32_t old = lo;
        lo += add_lo;
        hi += add_hi + (lo < old ? 1u : 0u);
    }
    // q = P' >> s, in 64 bits as two words; beyond 2^31 (2^31 for a negative value) it saturates
    std::uint32_t q_hi, q_lo;
    if (s >= 32) {
        q_hi = 0;
        q_lo = hi >> (s - 32);
    } else if (s > 0) {
        q_hi = hi >> s;
        q_lo = (lo >> s) | (hi << (32 - s));
    } else {
        q_hi = hi;
        q_lo = lo;
    }
    if (neg) return q_hi != 0 || q_lo > 0x80000000u ? INT32_MIN : static_cast<std::int32_t>(0u - q_lo);
    return q_hi != 0 || q_lo > 0x7FFFFFFFu ? INT32_MAX : static_cast<std::int32_t>(q_lo);
}

/// requantize for a multiplier >= 0 and a shift of 2 to 31 (s = 31 + shift >= 33; a shift above 31 counts as 31, as
/// in requantize), in 32-bit signed pieces: only
/// H = floor(acc·m / 2^32) decides the result, and H needs four 16 x 16 -> 32 bit products of halves taken signed
/// (no magnitude, no carry out of a low word). The same result as requantize; the ARMv6-M rows' form.
inline std::int32_t requantize_hi_mul16(std::int32_t acc, std::int32_t multiplier, int shift) noexcept {
    // acc = ah·2^16 + al, m = mh·2^16 + ml, the low halves signed in [-2^15, 2^15): ah in [-2^15, 2^15], mh in
    // [0, 2^15] (the subtraction of the low half's sign instead of acc - al, which overflows near INT32_MAX)
    const std::int32_t al = static_cast<std::int16_t>(acc), ml = static_cast<std::int16_t>(multiplier);
    const std::int32_t ah = (acc >> 16) - (al >> 15), mh = (multiplier >> 16) - (ml >> 15);
    // acc·m = ah·mh·2^32 + (ah·ml + al·mh)·2^16 + al·ml (each product within +-2^30), so H = ah·mh + floor(X / 2^16)
    // with X = ah·ml + al·mh + floor(al·ml / 2^16): |X| < 2^31 (the two large terms reach -2^30 each only where
    // al·ml > 0)
    const std::int32_t x = ah * ml + al * mh + ((al * ml) >> 16);
    const std::int32_t h = ah * mh + (x >> 16);
    // s = 32 + r, r = shift - 1 in [1, 30]: floor((H·2^32 + L + 2^(s-1)) / 2^s) = (H + 2^(r-1)) >> r (the low word L
    // < 2^32 cannot carry the integer H + 2^(r-1) past a multiple of 2^r); |H| <= 2^30 + 2^15: no overflow
    const int r = (shift > 31 ? 31 : shift) - 1;  // (clamped: no shift by the width or more)
    return (h + (std::int32_t{1} << (r - 1))) >> r;
}

/// requantize for a multiplier >= 0 and a shift of -1 to 31 (a factor below 2: the rows of the q15 models, and the
/// factor of their input, which is near 1 for inputs in (-1, 1)): the same result in about half the instructions. A
/// shift above 31 counts as 31, as in requantize (the int8 params can hold up to 127; validate() refuses them): no
/// shift by the width or more, the same result on every target.
/// Only shift -1 can saturate (P < 2^62, s >= 30: the quotient is below 2^32); of the low word only its top bits and
/// its carry count.
/// Two forms, the same integers: _mul32 in 16 x 16 -> 32 bit products (the M0/M0+, whose 64-bit multiply is a
/// library call; shifts from 2 on by requantize_hi_mul16), _mul64 in one 32 x 32 -> 64 bit multiply (SMULL on
/// ARMv7-M, every 64-bit host).
inline std::int32_t requantize_short_mul32(std::int32_t acc, std::int32_t multiplier, int shift) noexcept {
    if (shift > 31) shift = 31;
    if (shift >= 2) return requantize_hi_mul16(acc, multiplier, shift);
    const bool neg = acc < 0;
    const std::uint32_t a = neg ? 0u - static_cast<std::uint32_t>(acc) : static_cast<std::uint32_t>(acc);
    const auto m = static_cast<std::uint32_t>(multiplier);
    const std::uint32_t al = a & 0xFFFFu, ah = a >> 16, ml = m & 0xFFFFu, mh = m >> 16;
    const std::uint32_t ll = al * ml, mid = al * mh + ah * ml;
    const std::uint32_t lo = ll + (mid << 16);
    const std::uint32_t hi = ah * mh + (mid >> 16) + (lo < ll ? 1u : 0u);
    // (P + t) >> s, s = 31 + shift = 32 + r: t = 2^(s-1) (positive) or 2^(s-1) - 1 (negative)
    const int r = shift - 1;  // -2 .. 0
    std::uint32_t q;
    if (r == -2) {
        // s = 30: t = 2^29 (- 1) in the low word; q = (hi + carry)·4 + the top two bits of the low word, saturated
        // where hi + carry >= 2^29 (q >= 2^31)
        const std::uint32_t t = neg ? 0x1FFFFFFFu : 0x20000000u;
        const std::uint32_t lo_t = lo + t;
        const std::uint32_t h = hi + (lo_t < lo ? 1u : 0u);
        if (h >= (std::uint32_t{1} << 29)) return neg ? INT32_MIN : INT32_MAX;
        q = (h << 2) | (lo_t >> 30);
    } else if (r == -1) {
        // s = 31: t = 2^30 (- 1) in the low word; q = (hi + carry)·2 + the top bit of the low word (hi + carry <
        // 2^30: q < 2^31)
        const std::uint32_t t = neg ? 0x3FFFFFFFu : 0x40000000u;
        const std::uint32_t lo_t = lo + t;
        q = ((hi + (lo_t < lo ? 1u : 0u)) << 1) | (lo_t >> 31);
    } else {
        // r = 0: t = 2^31 (- 1) in the low word: q = hi + its carry
        const std::uint32_t t = neg ? 0x7FFFFFFFu : 0x80000000u;
        q = hi + (lo > 0xFFFFFFFFu - t ? 1u : 0u);
    }
    return neg ? -static_cast<std::int32_t>(q) : static_cast<std::int32_t>(q);
}

inline std::int32_t requantize_short_mul64(std::int32_t acc, std::int32_t multiplier, int shift) noexcept {
    // floor((P + 2^(s-1)) / 2^s), s = 31 + shift in [30, 62], |P| < 2^62. With P = H·2^32 + L (H the signed high word)
    // and s = 32 + r, r >= 1: floor((H + 2^(r-1) + L / 2^32) / 2^r) = (H + 2^(r-1)) >> r (the integer part alone
    // decides the floor); r = 0: H + the carry of L + 2^31. Shifts of negative numbers are arithmetic (floors), as
    // round_shift in q15/internals.hpp.
    if (shift > 31) shift = 31;
    const std::int64_t p = static_cast<std::int64_t>(acc) * multiplier;
    const auto h = static_cast<std::int32_t>(p >> 32);
    if (shift >= 2) return (h + (std::int32_t{1} << (shift - 2))) >> (shift - 1);
    const auto lo = static_cast<std::uint32_t>(p);
    if (shift == 1) return h + static_cast<std::int32_t>(lo >> 31);
    // s = 31 or 30: (H + carry)·2^(32-s) + the top 32 - s bits of L + 2^(s-1). |P| <= 2^62 - 2^31, so H + carry is
    // in [-2^30, 2^30): s = 31 cannot saturate; s = 30 saturates beyond [-2^29, 2^29)
    const std::uint32_t l = lo + (std::uint32_t{1} << (30 + shift));
    const std::int32_t hc = h + (l < lo ? 1 : 0);
    if (shift == 0) return hc * 2 + static_cast<std::int32_t>(l >> 31);
    if (hc >= (std::int32_t{1} << 29)) return INT32_MAX;
    if (hc < -(std::int32_t{1} << 29)) return INT32_MIN;
    return hc * 4 + static_cast<std::int32_t>(l >> 30);
}

#if defined(__ARM_ARCH_6M__)
inline std::int32_t requantize_short(std::int32_t acc, std::int32_t multiplier, int shift) noexcept {
    return requantize_short_mul32(acc, multiplier, shift);
}
#else
inline std::int32_t requantize_short(std::int32_t acc, std::int32_t multiplier, int shift) noexcept {
    return requantize_short_mul64(acc, multiplier, shift);
}
#endif

}  // namespace sarnn::fixed::detail

#endif
