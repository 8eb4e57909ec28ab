// tests/shared/fixed_digest.hpp: the digest of every output of sarnn's integer activations (include/sarnn/fixed.hpp),
// FNV-1a (64 bit) in the order python/sarnn/fixed.py's digest() feeds them: tanh_q15 and sigmoid_q15 of all 65,536
// int16 inputs (16-bit two's complement, little endian), then exp_q16 of d = 0, -1, ..., -12·65536 - 15 (32-bit
// little endian). tests/test_fixed.cpp (every test job, under qemu too) and tests/firmware/main.cpp (the Cortex-M
// boards) compare it with kFixedDigest, the value python/tests/test_fixed.py checks for the Python twin.
#ifndef SARNN_TESTS_SHARED_FIXED_DIGEST_HPP
#define SARNN_TESTS_SHARED_FIXED_DIGEST_HPP

#include <cstdint>

#include <sarnn/fixed.hpp>

namespace test {

/// `PYTHONPATH=python python3 -m sarnn.fixed --digest`
constexpr std::uint64_t kFixedDigest = 0x1b6d5d84d48d6efaull;

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
    return h;
}

}  // namespace test

#endif
