// tests/test_requantize.cpp: include/sarnn/kernels/q15/requantize.hpp, the 32-bit-only requantisation behind fixed::requantize
// and the q15 kernels. Both forms against a plain 64-bit reference written here, over the edges and a sweep of
// random operands: requantize for the shifts -1 to 31, requantize_short in both its forms (for a factor below 2) for
// the shifts and multipliers it takes, and requantize_hi_mul16 (ARMv6-M's) for the shifts from 2 on.
#include <catch2/catch.hpp>

#include <climits>
#include <cstdint>

#include "sarnn/kernels/q15/requantize.hpp"

namespace {

/// acc · m / 2^(31 + shift), rounded half up (floor of the value plus one half), saturated: in 64 bits, for shifts
/// of -1 .. 31 (the product |acc · m| <= 2^62 leaves room for the half).
std::int64_t reference(std::int32_t acc, std::int32_t m, int shift) {
    const int s = 31 + shift;
    const std::int64_t p = static_cast<std::int64_t>(acc) * m;
    const std::int64_t q = (p + (std::int64_t{1} << (s - 1))) >> s;  // arithmetic: a floor
    return q > INT32_MAX ? INT32_MAX : (q < INT32_MIN ? INT32_MIN : q);
}

struct Lcg {
    std::uint64_t x;
    std::uint32_t next() {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        return static_cast<std::uint32_t>(x >> 32);
    }
};

}  // namespace

TEST_CASE(
    "requantize, requantize_short_mul32, _mul64 and _hi_mul16: acc · m / 2^(31 + shift) rounded half up, as in int64",
    "[fixed][requantize]") {
    using sarnn::fixed::detail::requantize;
    using sarnn::fixed::detail::requantize_hi_mul16;
    using sarnn::fixed::detail::requantize_short_mul32;
    using sarnn::fixed::detail::requantize_short_mul64;
    const std::int32_t edges[] = {
        INT32_MIN, INT32_MIN + 1, -(1 << 30) - 1, -(1 << 30), -65537,  -65536,        -32769,   -2, -1, 0, 1,
        2,         32767,         65535,          65536,      1 << 30, INT32_MAX - 1, INT32_MAX};
    const std::int32_t factors[] = {0, 1, 2, 65535, 65536, 1 << 30, (1 << 30) + 12345, INT32_MAX - 1, INT32_MAX};
    Lcg rng{7};
    int mismatches = 0, checked = 0;
    for (int shift = -1; shift <= 31; ++shift) {
        const auto check = [&](std::int32_t acc, std::int32_t m) {
            const std::int64_t want = reference(acc, m, shift);
            mismatches += requantize(acc, m, shift) != want;
            mismatches += requantize_short_mul32(acc, m, shift) != want;
            mismatches += requantize_short_mul64(acc, m, shift) != want;
            if (shift >= 2) mismatches += requantize_hi_mul16(acc, m, shift) != want;
            // the sign of the factor moves to the result: requantize (the long form) takes negative factors
            if (m > 0) mismatches += requantize(acc, -m, shift) != reference(acc, -m, shift);
            ++checked;
        };
        for (const std::int32_t acc : edges)
            for (const std::int32_t m : factors) check(acc, m);
        for (int k = 0; k < 4000; ++k) {
            // magnitudes of every size: a random word shifted right by 0 .. 31
            const auto acc = static_cast<std::int32_t>(rng.next()) >> (rng.next() % 32);
            const auto m = static_cast<std::int32_t>(rng.next() >> 1) >> (rng.next() % 31);
            check(acc, m);
        }
    }
    CHECK(checked == 33 * (18 * 9 + 4000));
    CHECK(mismatches == 0);
}

TEST_CASE("requantize and its short forms: a shift above 31 (which validate() refuses) counts as 31, without UB",
          "[fixed][requantize]") {
    // The int8 params hold shifts up to 127; the kernels must not shift by the width or more (UBSan in the asan jobs
    // would report it), and every form gives the result of shift 31: the plain reference's.
    using sarnn::fixed::detail::requantize;
    using sarnn::fixed::detail::requantize_hi_mul16;
    using sarnn::fixed::detail::requantize_short_mul32;
    using sarnn::fixed::detail::requantize_short_mul64;
    const std::int32_t accs[] = {INT32_MIN, -(1 << 30), -65536, -1, 0, 1, 65535, 1 << 30, INT32_MAX};
    const std::int32_t factors[] = {0, 1, 1 << 30, (1 << 30) + 12345, INT32_MAX};
    int mismatches = 0;
    for (int shift = 32; shift <= 127; ++shift) {
        for (const std::int32_t acc : accs) {
            for (const std::int32_t m : factors) {
                const std::int64_t want = reference(acc, m, 31);
                mismatches += requantize(acc, m, shift) != want;
                mismatches += requantize_short_mul32(acc, m, shift) != want;
                mismatches += requantize_short_mul64(acc, m, shift) != want;
                mismatches += requantize_hi_mul16(acc, m, shift) != want;
            }
        }
    }
    CHECK(mismatches == 0);
}
