// tests/shared/q15_one_digest.hpp: the digest of Lstm<q15> and Gru<q15> runs whose x part's factor is 1 (x_m = 2^30,
// x_shift = -1), FNV-1a (64 bit) in the order python/tests/twin_digest.py's q15_one_digest() feeds them: for each case
// of ONE_DIGEST_CASES, the LSTM then the GRU, each with params drawn as the LSTM's and the GRU's digests draw them
// (q15_lstm_digest.hpp, q15_gru_digest.hpp) from the case's seed and then given the factor 1, every step's h (and the
// LSTM's c), 16-bit two's complement, little endian. The factor 1 is the condition of the rows' own finishing passes
// (the targets' finish_sum and finish_gru: four rows a pass on the DSP cores), which the other digests' random x_m
// never meet. tests/test_lstm_q15.cpp and tests/firmware/q15_main.cpp compare it with kQ15OneDigest, the value
// python/tests/test_q15.py checks for the Python twin.
#ifndef SARNN_TESTS_SHARED_Q15_ONE_DIGEST_HPP
#define SARNN_TESTS_SHARED_Q15_ONE_DIGEST_HPP

#include <cstddef>
#include <cstdint>

#include <sarnn/sarnn.hpp>

#include "q15_case.hpp"
#include "q15_digest.hpp"
#include "q15_gru_digest.hpp"
#include "q15_lstm_digest.hpp"

namespace test {

/// `cd python && python3 -m tests.twin_digest` (its last line)
constexpr std::uint64_t kQ15OneDigest = 0xa5d8b717e2ca9aafull;

/// One case's Model (Lstm or Gru over Params; kCell: its c too) with the factor 1: params drawn from seed, then steps
/// inputs.
template <class Model, class Params, std::size_t In, bool kCell>
void q15_digest_one(Q15Fnv& fnv, std::size_t steps, std::uint64_t seed) {
    const auto factor_one = [](Params& p) {
        p.x_m = std::int32_t{1} << 30;
        p.x_shift = -1;
    };
    q15_digest_case<Model, Params, In>(fnv, steps, seed, factor_one,
                                       [](Q15Fnv& f, sarnn::Status s, const Model& model) {
                                           if (s != sarnn::Status::ok) f.feed(-1);  // (never: see q15_gru_digest.hpp)
                                           f.feed_view(model.hidden());
                                           if constexpr (kCell) f.feed_view(model.cell());
                                       });
}

template <std::size_t In, std::size_t Hidden, class Set>
void q15_digest_one_case(Q15Fnv& fnv, std::size_t steps, std::uint64_t seed) {
    q15_digest_one<sarnn::Lstm<sarnn::q15, In, Hidden, Set>, sarnn::LstmParams<sarnn::q15, In, Hidden>, In, true>(
        fnv, steps, seed);
    q15_digest_one<sarnn::Gru<sarnn::q15, In, Hidden, Set>, sarnn::GruParams<sarnn::q15, In, Hidden>, In, false>(
        fnv, steps, seed);
}

/// The digest of python/tests/twin_digest.py's ONE_DIGEST_CASES (the same list, in order), run with the q15 set Set
/// (kernel::Q15: this target's loops; kernel::Q15Plain: the plain C++ ones; both must give kQ15OneDigest).
template <class Set = sarnn::kernel::Q15>
std::uint64_t q15_one_digest() {
    Q15Fnv fnv;
    q15_digest_one_case<16, 32, Set>(fnv, 32, 61);
    q15_digest_one_case<7, 17, Set>(fnv, 30, 62);
    q15_digest_one_case<3, 5, Set>(fnv, 20, 63);
    return fnv.h;
}

}  // namespace test

#endif
