// tests/shared/fixed_digest.hpp: the digest of every output of sarnn's integer activations (include/sarnn/fixed.hpp),
// FNV-1a (64 bit) in the order python/tests/twin_digest.py's fixed_digest() feeds them: tanh_q15 and sigmoid_q15 of
// all 65,536 int16 inputs (16-bit two's complement, little endian), then exp_q16 of d = 0, -1, ..., -12·65536 - 15
// (32-bit little endian), then requantize (32 bit) and requantize_q15 (16 bit) of the cases of requantize_cases()
// (edges and 20,000 draws of a 64-bit LCG, as python/tests/twin_digest.py's requantize_cases()). tests/test_fixed.cpp
// (every test job, under qemu too) and tests/firmware/main.cpp (the Cortex-M boards) compare it with kFixedDigest,
// the value python/tests/test_fixed.py checks for the Python twin.
#ifndef SARNN_TESTS_SHARED_FIXED_DIGEST_HPP
#define SARNN_TESTS_SHARED_FIXED_DIGEST_HPP

#include <climits>
#include <cstdint>

#include <sarnn/fixed.hpp>

namespace test {

/// `cd python && python3 -m tests.twin_digest`
constexpr std::uint64_t kFixedDigest = 0x1e351cf4a11b24adull;

/// f(acc, multiplier, shift) for the requantize cases of the digest: every edge value with every multiplier and
/// shift below, then 20,000 draws of a 64-bit LCG (acc any int32, multiplier in [2^30, 2^31), shift in [-31, 31]).
template <class F>
void requantize_cases(F f) {
    const std::int32_t edges[] = {0, 1, -1, 2, -2, 32767, -32768, INT32_MAX, INT32_MIN, 123456789, -987654321};
    const std::int32_t mults[] = {1 << 30, INT32_MAX, 1518500250, (1 << 30) | 1};
    const int shifts[] = {-31, -5, -1, 0, 1, 7, 15, 30, 31};
    for (std::int32_t a : edges)
        for (std::int32_t m : mults)
            for (int sh : shifts) f(a, m, sh);
    std::uint64_t x = 2024;
    for (int i = 0; i < 20000; ++i) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        const auto a = static_cast<std::int32_t>(static_cast<std::int64_t>(x >> 32) - (std::int64_t{1} << 31));
        const auto m = static_cast<std::int32_t>((1u << 30) + ((x >> 2) & ((1u << 30) - 1u)));
        const auto low = static_cast<int>(x & 0x3Fu);
        f(a, m, low <= 62 ? low - 31 : 0);
    }
}

inline std::uint64_t fixed_digest() {
    std::uint64_t h = 0xcbf29ce484222325ull;
    const auto feed = [&h](std::uint32_t v, int bytes) {
        for (int k = 0; k < bytes; ++k) {
            h ^= v & 0xFFu;
            h *= 0x100000001b3ull;
            v >>= 8;
        }
    };
    for (std::int32_t z = -32768; z <= 32767; ++z)
        feed(static_cast<std::uint16_t>(sarnn::fixed::tanh_q15(static_cast<std::int16_t>(z))), 2);
    for (std::int32_t z = -32768; z <= 32767; ++z)
        feed(static_cast<std::uint16_t>(sarnn::fixed::sigmoid_q15(static_cast<std::int16_t>(z))), 2);
    for (std::int32_t y = 0; y < 12 * 65536 + 16; ++y) feed(static_cast<std::uint32_t>(sarnn::fixed::exp_q16(-y)), 4);
    requantize_cases([&feed](std::int32_t a, std::int32_t m, int sh) {
        feed(static_cast<std::uint32_t>(sarnn::fixed::requantize(a, m, sh)), 4);
        feed(static_cast<std::uint16_t>(sarnn::fixed::requantize_q15(a, m, sh)), 2);
    });
    return h;
}

}  // namespace test

#endif
