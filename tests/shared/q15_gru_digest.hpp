// tests/shared/q15_gru_digest.hpp: the digest of Gru<q15> runs, FNV-1a (64 bit) in the order python/tests/
// twin_digest.py's q15_gru_digest() feeds them: for each case of GRU_DIGEST_CASES (params and inputs drawn from one
// 64-bit LCG per case, as digest_gru_params() draws them), every step's h, 16-bit two's complement, little endian.
// tests/test_q15_models.cpp and tests/firmware/q15_main.cpp (the Cortex-M boards) compare it with kQ15GruDigest, the
// value python/tests/test_q15.py checks for the Python twin (apart from kQ15Digest, which it leaves as it is).
#ifndef SARNN_TESTS_SHARED_Q15_GRU_DIGEST_HPP
#define SARNN_TESTS_SHARED_Q15_GRU_DIGEST_HPP

#include <cstddef>
#include <cstdint>

#include <sarnn/sarnn.hpp>

#include "q15_case.hpp"
#include "q15_digest.hpp"

namespace test {

/// `cd python && python3 -m tests.twin_digest` (its "gru" line)
constexpr std::uint64_t kQ15GruDigest = 0x9d1177656718db2full;

/// GruParams<q15>, drawn as python/tests/twin_digest.py's digest_gru_params
template <std::size_t In, std::size_t Hidden>
void draw_q15_params(Q15Lcg& rng, sarnn::GruParams<sarnn::q15, In, Hidden>& p) {
    const auto int8s = [&rng](auto& rows) {
        for (auto& row : rows)
            for (auto& w : row) w = static_cast<std::int8_t>(rng.below(255) - 127);
    };
    int8s(p.W_ih);
    int8s(p.W_hh);
    for (auto& b : p.b_ih) b = rng.below(16385) - 8192;
    for (auto& b : p.b_hh) b = rng.below(16385) - 8192;
    for (auto& m : p.m) m = (std::int32_t{1} << 30) + rng.below(1u << 30);
    p.x_m = (std::int32_t{1} << 30) + rng.below(1u << 30);
    for (auto& s : p.shift) s = static_cast<std::int8_t>(8 + rng.below(5));
    p.x_shift = static_cast<std::int8_t>(-rng.below(3));
    p.x_scale = 0.0f;
}

template <std::size_t In, std::size_t Hidden, class Set>
void q15_digest_gru(Q15Fnv& fnv, std::size_t steps, std::uint64_t seed) {
    using Model = sarnn::Gru<sarnn::q15, In, Hidden, Set>;
    q15_digest_case<Model, sarnn::GruParams<sarnn::q15, In, Hidden>, In>(
        fnv, steps, seed, Q15AsDrawn{}, [](Q15Fnv& f, sarnn::Status s, const Model& model) {
            if (s != sarnn::Status::ok) f.feed(-1);  // (never: a q15 step refuses only null input)
            f.feed_view(model.hidden());
        });
}

/// The digest of python/tests/twin_digest.py's GRU_DIGEST_CASES (the same list, in order), run with the q15 set Set.
template <class Set = sarnn::kernel::Q15>
std::uint64_t q15_gru_digest() {
    Q15Fnv fnv;
    q15_digest_gru<1, 1, Set>(fnv, 20, 31);
    q15_digest_gru<3, 5, Set>(fnv, 40, 32);
    q15_digest_gru<7, 17, Set>(fnv, 30, 33);
    q15_digest_gru<16, 32, Set>(fnv, 64, 34);
    q15_digest_gru<33, 3, Set>(fnv, 20, 35);
    q15_digest_gru<17, 33, Set>(fnv, 25, 36);
    return fnv.h;
}

}  // namespace test

#endif
