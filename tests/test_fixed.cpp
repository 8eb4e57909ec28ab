// tests/test_fixed.cpp: include/sarnn/fixed.hpp. The integer activations against double, exhaustively (every int16
// input of tanh and sigmoid; every exp input from 0 down to -12, and the edges), their stated error bounds and
// properties; the q15 conversions; and the digest of every output, which python/tests/test_fixed.py computes from
// the Python twin (python/sarnn/q15.py) and checks against the same constant: the two agree bit for bit.
#include <catch2/catch.hpp>

#include <sarnn/sarnn.hpp>

#include <climits>
#include <cmath>
#include <cstdint>
#include <limits>

#include "shared/fixed_digest.hpp"

namespace {

constexpr std::int32_t kExpZeroBelow = 12 * 65536;

}  // namespace

TEST_CASE("Fixed point: tanh_q15 within 1.53 LSB of tanh over every input, odd, monotonic, saturating", "[fixed]") {
    double worst = 0.0;
    int at = 0;
    bool odd = true, monotonic = true;
    std::int16_t prev = std::numeric_limits<std::int16_t>::min();
    for (int z = -32768; z <= 32767; ++z) {
        const std::int16_t y = sarnn::fixed::tanh_q15(static_cast<std::int16_t>(z));
        const double err = std::fabs(y - std::tanh(z / 4096.0) * 32768.0);
        if (err > worst) {
            worst = err;
            at = z;
        }
        if (z > -32768 && sarnn::fixed::tanh_q15(static_cast<std::int16_t>(-z)) != -y) odd = false;
        if (y < prev) monotonic = false;
        prev = y;
    }
    INFO("worst " << worst << " LSB at z = " << at);
    CHECK(worst <= 1.53);
    CHECK(odd);
    CHECK(monotonic);
    CHECK(sarnn::fixed::tanh_q15(0) == 0);
    CHECK(sarnn::fixed::tanh_q15(32767) == 32767);
    CHECK(sarnn::fixed::tanh_q15(-32768) == -32767);
}

TEST_CASE("Fixed point: sigmoid_q15 within 1.27 LSB of the logistic over every input, monotonic, in [1, 32767]",
          "[fixed]") {
    double worst = 0.0;
    int at = 0;
    bool monotonic = true, in_range = true;
    std::int16_t prev = 0;
    for (int z = -32768; z <= 32767; ++z) {
        const std::int16_t y = sarnn::fixed::sigmoid_q15(static_cast<std::int16_t>(z));
        const double err = std::fabs(y - 32768.0 / (1.0 + std::exp(-z / 4096.0)));
        if (err > worst) {
            worst = err;
            at = z;
        }
        if (y < prev) monotonic = false;
        if (y < 1) in_range = false;  // (and <= 32767: an int16)
        prev = y;
    }
    INFO("worst " << worst << " LSB at z = " << at);
    CHECK(worst <= 1.27);
    CHECK(monotonic);
    CHECK(in_range);
    CHECK(sarnn::fixed::sigmoid_q15(0) == 16384);
}

TEST_CASE("Fixed point: exp_q16 within 1.26 LSB of exp from 0 down to -12, 0 below, monotonic, exact at 0", "[fixed]") {
    double worst = 0.0;
    std::int32_t at = 0, prev = 65536;
    bool monotonic = true;
    for (std::int32_t y = 0; y <= kExpZeroBelow + 15; ++y) {
        const std::int32_t e = sarnn::fixed::exp_q16(-y);
        const double err = std::fabs(e - std::exp(-y / 65536.0) * 65536.0);
        if (err > worst) {
            worst = err;
            at = -y;
        }
        if (e > prev) monotonic = false;
        prev = e;
    }
    INFO("worst " << worst << " LSB at d = " << at);
    CHECK(worst <= 1.26);
    CHECK(monotonic);
    CHECK(sarnn::fixed::exp_q16(0) == 65536);
    CHECK(sarnn::fixed::exp_q16(1) == 65536);  // d > 0 counts as 0
    CHECK(sarnn::fixed::exp_q16(std::numeric_limits<std::int32_t>::max()) == 65536);
    CHECK(sarnn::fixed::exp_q16(-kExpZeroBelow) == 0);
    CHECK(sarnn::fixed::exp_q16(std::numeric_limits<std::int32_t>::min()) == 0);
}

TEST_CASE("Fixed point: the C++ and the Python twin agree bit for bit (one digest of every output)", "[fixed]") {
    const std::uint64_t h = test::fixed_digest();
    INFO("digest 0x" << std::hex << h << " (python3 -m tests.twin_digest in python/ gives the Python twin's)");
    CHECK(h == test::kFixedDigest);
}

TEST_CASE("Fixed point: q15 conversions round to nearest and saturate", "[fixed]") {
    CHECK(sarnn::from_float(0.5f) == sarnn::q15{16384});
    CHECK(sarnn::from_float(-0.5f) == sarnn::q15{-16384});
    CHECK(sarnn::from_float(1.0f) == sarnn::q15{32767});
    CHECK(sarnn::from_float(100.0f) == sarnn::q15{32767});
    CHECK(sarnn::from_float(-1.0f) == sarnn::q15{-32768});
    CHECK(sarnn::from_float(-1e30f) == sarnn::q15{-32768});
    CHECK(sarnn::from_float(std::numeric_limits<float>::quiet_NaN()) == sarnn::q15{0});
    CHECK(sarnn::from_float(std::numeric_limits<float>::infinity()) == sarnn::q15{32767});
    CHECK(sarnn::from_float(1.5f / 32768.0f) == sarnn::q15{2});  // halves away from zero
    CHECK(sarnn::from_float(-1.5f / 32768.0f) == sarnn::q15{-2});
    CHECK(sarnn::from_float(1.4f / 32768.0f) == sarnn::q15{1});
    // every raw value survives the round trip
    bool round_trip = true;
    for (int r = -32768; r <= 32767; ++r) {
        const sarnn::q15 v{static_cast<std::int16_t>(r)};
        if (sarnn::from_float(sarnn::to_float(v)) != v) round_trip = false;
    }
    CHECK(round_trip);
    static_assert(sarnn::to_float(sarnn::q15{-32768}) == -1.0f);
    static_assert(sarnn::from_float(0.25f) == sarnn::q15{8192});
}

TEST_CASE("Fixed point: requantize rounds acc · M half up and saturates, exactly at the edges", "[fixed]") {
    using sarnn::fixed::requantize;
    using sarnn::fixed::requantize_q15;
    constexpr std::int32_t kHalf = 1 << 30;  // M = 2^30 · 2^-31 = 0.5 with shift 0
    CHECK(requantize(10, kHalf, 0) == 5);
    CHECK(requantize(11, kHalf, 0) == 6);    // 5.5 -> 6 (half up)
    CHECK(requantize(-11, kHalf, 0) == -5);  // -5.5 -> -5 (half up)
    CHECK(requantize(-12, kHalf, 0) == -6);
    CHECK(requantize(1000, kHalf, 3) == 63);                // 1000 / 16 = 62.5 -> 63
    CHECK(requantize(7, kHalf, -1) == 7);                   // M = 1
    CHECK(requantize(7, kHalf, -5) == 112);                 // M = 16
    CHECK(requantize(INT32_MAX, kHalf, -31) == INT32_MAX);  // saturates
    CHECK(requantize(INT32_MIN, kHalf, -31) == INT32_MIN);
    CHECK(requantize(INT32_MIN, INT32_MIN, 31) == 1);  // the widest product, 2^62, over 2^62
    CHECK(requantize(1, kHalf, 100) == 0);             // shift clamped to 31
    CHECK(requantize_q15(1 << 20, kHalf, 0) == 32767);
    CHECK(requantize_q15(-(1 << 20), kHalf, 0) == -32768);
    CHECK(requantize_q15(-3, kHalf, 0) == -1);  // -1.5 -> -1
}
