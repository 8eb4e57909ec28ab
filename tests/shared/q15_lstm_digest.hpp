// tests/shared/q15_lstm_digest.hpp: the digest of many runs of Lstm<q15>, FNV-1a (64 bit) in the order
// python/tests/twin_digest.py's q15_lstm_digest() feeds them: for each case of LSTM_DIGEST_CASES (params and inputs
// drawn from one 64-bit LCG per case, as digest_lstm_params() draws them), every step's status (1 ok), h, c and
// saturated(), 16-bit two's complement, little endian. Apart from kQ15Digest (q15_digest.hpp), whose cases it shares
// the generator, the hash and the arena with. tests/test_lstm_q15.cpp compares it with kQ15LstmDigest, the value
// python/tests/test_q15.py checks for the Python twin (sarnn.q15.lstm_steps).
#ifndef SARNN_TESTS_SHARED_Q15_LSTM_DIGEST_HPP
#define SARNN_TESTS_SHARED_Q15_LSTM_DIGEST_HPP

#include <cstddef>
#include <cstdint>

#include <sarnn/sarnn.hpp>

#include "q15_case.hpp"
#include "q15_digest.hpp"

namespace test {

/// `cd python && python3 -m tests.twin_digest` (its last line)
constexpr std::uint64_t kQ15LstmDigest = 0xa0a944c95b61a0a1ull;

/// LstmParams<q15>, drawn as python/tests/twin_digest.py's digest_lstm_params
template <std::size_t In, std::size_t Hidden>
void draw_q15_params(Q15Lcg& rng, sarnn::LstmParams<sarnn::q15, In, Hidden>& p) {
    // W_ih then W_hh, each row by row (one row at a time: no pointer runs past a row's end)
    for (auto& row : p.W_ih)
        for (auto& w : row) w = static_cast<std::int8_t>(rng.below(255) - 127);
    for (auto& row : p.W_hh)
        for (auto& w : row) w = static_cast<std::int8_t>(rng.below(255) - 127);
    for (auto& b : p.b) b = rng.below(16385) - 8192;
    for (auto& m : p.m) m = (std::int32_t{1} << 30) + rng.below(1u << 30);
    for (auto& s : p.shift) s = static_cast<std::int8_t>(9 + rng.below(8));
    p.x_m = (std::int32_t{1} << 30) + rng.below(1u << 30);
    p.x_shift = static_cast<std::int8_t>(-rng.below(3));
    p.x_scale = 0.0f;
}

template <std::size_t In, std::size_t Hidden, class Set = sarnn::kernel::Q15>
void q15_digest_lstm(Q15Fnv& fnv, std::size_t steps, std::uint64_t seed) {
    using Model = sarnn::Lstm<sarnn::q15, In, Hidden, Set>;
    q15_digest_case<Model, sarnn::LstmParams<sarnn::q15, In, Hidden>, In>(
        fnv, steps, seed, Q15AsDrawn{}, [](Q15Fnv& f, sarnn::Status s, const Model& model) {
            f.feed(s == sarnn::Status::ok ? 1 : 0);
            f.feed_view(model.hidden());
            f.feed_view(model.cell());
            f.feed(static_cast<std::int32_t>(model.saturated()));
        });
}

/// The digest of python/tests/twin_digest.py's LSTM_DIGEST_CASES (the same list, in order), run with the q15 set Set
/// (kernel::Q15: this target's loops; kernel::Q15Plain: the plain C++ ones; both must give kQ15LstmDigest).
template <class Set = sarnn::kernel::Q15>
std::uint64_t q15_lstm_digest() {
    Q15Fnv fnv;
    q15_digest_lstm<3, 5, Set>(fnv, 40, 101);
    q15_digest_lstm<1, 1, Set>(fnv, 30, 102);
    q15_digest_lstm<16, 32, Set>(fnv, 64, 103);
    q15_digest_lstm<7, 17, Set>(fnv, 50, 104);
    q15_digest_lstm<33, 7, Set>(fnv, 20, 105);
    q15_digest_lstm<4, 36, Set>(fnv, 24, 106);
    q15_digest_lstm<2, 3, Set>(fnv, 200, 107);
    return fnv.h;
}

}  // namespace test

#endif
