// tests/shared/q15_gru_cell_digest.hpp: the digest of SelfAttentionRnn<q15, ..., GruCell> runs, FNV-1a (64 bit) in the
// order python/tests/twin_digest.py's q15_gru_cell_digest() feeds them: for each case of GRU_CELL_DIGEST_CASES
// (GruParams<q15>, then the align's params, then the inputs, from one 64-bit LCG per case), every step's status (1 ok,
// 0 memory_full), h, c and alpha, 16-bit two's complement, little endian. tests/test_q15_models.cpp and
// tests/firmware/q15_main.cpp (the Cortex-M boards) compare it with kQ15GruCellDigest, the value
// python/tests/test_q15.py checks for the Python twin (apart from the other digests, which it leaves as they are).
#ifndef SARNN_TESTS_SHARED_Q15_GRU_CELL_DIGEST_HPP
#define SARNN_TESTS_SHARED_Q15_GRU_CELL_DIGEST_HPP

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include <sarnn/sarnn.hpp>

#include "q15_digest.hpp"
#include "q15_gru_digest.hpp"

namespace test {

/// `cd python && python3 -m tests.twin_digest` (its "gru_cell" line)
constexpr std::uint64_t kQ15GruCellDigest = 0x202e7a2b3e2018d2ull;

/// One case: q15_digest_attention's run (q15_digest.hpp) with the GRU cell, its params drawn as the GRU's.
template <class Align, class Memory, std::size_t In, std::size_t Hidden, std::size_t Capacity, class Set>
void q15_digest_gru_cell(Q15Fnv& fnv, std::size_t steps, std::uint64_t seed) {
    q15_digest_attention<Align, Memory, In, Hidden, Capacity, Set, sarnn::GruCell>(fnv, steps, seed);
}

/// The digest of python/tests/twin_digest.py's GRU_CELL_DIGEST_CASES (the same list, in order), run with the q15 set
/// Set (kernel::Q15: this target's loops; kernel::Q15Plain: the plain C++ ones; both must give kQ15GruCellDigest).
template <class Set = sarnn::kernel::Q15>
std::uint64_t q15_gru_cell_digest() {
    using sarnn::AdditiveAlign;
    using sarnn::BilinearAlign;
    using sarnn::Bounded;
    using sarnn::DotAlign;
    using sarnn::KeyQueryAlign;
    using sarnn::ScaledDotAlign;
    using sarnn::Window;
    Q15Fnv fnv;
    q15_digest_gru_cell<DotAlign, Bounded, 3, 5, 8, Set>(fnv, 12, 41);  // the last 4 steps refused
    q15_digest_gru_cell<ScaledDotAlign, Window, 1, 1, 4, Set>(fnv, 10, 42);
    q15_digest_gru_cell<ScaledDotAlign, Bounded, 7, 17, 32, Set>(fnv, 30, 43);
    q15_digest_gru_cell<DotAlign, Window, 5, 9, 6, Set>(fnv, 40, 44);
    q15_digest_gru_cell<BilinearAlign, Bounded, 3, 7, 16, Set>(fnv, 16, 45);
    q15_digest_gru_cell<BilinearAlign, Window, 4, 6, 5, Set>(fnv, 20, 46);
    q15_digest_gru_cell<KeyQueryAlign<4>, Bounded, 3, 17, 8, Set>(fnv, 16, 47);  // keys cached
    q15_digest_gru_cell<KeyQueryAlign<3>, Window, 2, 7, 5, Set>(fnv, 14, 48);    // folded
    q15_digest_gru_cell<AdditiveAlign<5>, Bounded, 3, 9, 8, Set>(fnv, 16, 49);
    q15_digest_gru_cell<AdditiveAlign<3>, Window, 2, 6, 5, Set>(fnv, 14, 50);
    q15_digest_gru_cell<DotAlign, Window, 8, 32, 16, Set>(fnv, 40, 51);
    q15_digest_gru_cell<ScaledDotAlign, Window, 33, 3, 3, Set>(fnv, 30, 52);
    return fnv.h;
}

}  // namespace test

#endif
