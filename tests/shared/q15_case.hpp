// tests/shared/q15_case.hpp: one case of a q15 digest for a model built from its params alone (Lstm, Gru): the
// params drawn from the case's seed (draw_q15_params, then edit(p)), the model made in the arena, then steps inputs
// drawn from the same generator, feed(fnv, status, model) after each step. The LSTM's, the GRU's and the factor-1
// digests (q15_lstm_digest.hpp, q15_gru_digest.hpp, q15_one_digest.hpp) differ only in edit and feed.
#ifndef SARNN_TESTS_SHARED_Q15_CASE_HPP
#define SARNN_TESTS_SHARED_Q15_CASE_HPP

#include <cstddef>
#include <cstdint>

#include <sarnn/sarnn.hpp>

#include "q15_digest.hpp"

namespace test {

template <class Model, class Params, std::size_t In, class Edit, class Feed>
void q15_digest_case(Q15Fnv& fnv, std::size_t steps, std::uint64_t seed, Edit edit, Feed feed) {
    static_assert(sizeof(Params) + sizeof(Model) + 192 <= Q15Arena::kBytes,
                  "q15_digest: a case does not fit the arena");
    Q15Lcg rng{seed};
    Q15Arena& arena = q15_arena();
    arena.clear();
    auto& p = arena.make<Params>();
    draw_q15_params(rng, p);  // the overload of Params (found by argument-dependent lookup where it is instantiated)
    edit(p);
    auto& model = arena.make<Model>(p);
    sarnn::q15 x[In];
    for (std::size_t t = 0; t < steps; ++t) {
        draw_q15_input(rng, x);
        const sarnn::Status s = model.step(x);
        feed(fnv, s, model);
    }
}

/// edit for a case that keeps its params as drawn
struct Q15AsDrawn {
    template <class Params>
    void operator()(Params& /*p*/) const noexcept {}
};

}  // namespace test

#endif
