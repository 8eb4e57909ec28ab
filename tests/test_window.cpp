// tests/test_window.cpp: the Window memory policy of SelfAttentionRnn (DotAlign, ScaledDotAlign and
// AdditiveAlign<K>, whose cached keys live in ring slots too), on every kernel set, float and double.
//
// Sequences wrap the ring many times: Capacity 5, 7, 16 over 100-300 steps, and Capacity 260 and 300 (more than
// one chunk of the dot kernels) over 600-700 steps. The reference keeps the newest Capacity states in a plain
// deque and attends over them directly (no ring), oldest first, so any mistake in the ring order of the states,
// of their cached keys or of attention() shows. Also: size() == attended() == min(length(), Capacity), length()
// keeps counting, a Window never refuses a step, Bounded and Window are bit-identical until full, reset() after
// wrapping restores the start exactly, Capacity 1.
#include <catch2/catch.hpp>

#include <sarnn/sarnn.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "family_support.hpp"
#include "reference.hpp"
#include "support.hpp"

namespace {

template <class T, std::size_t In, std::size_t Hidden, std::size_t Capacity, class Align>
void check_long_window(std::size_t steps, std::uint32_t seed,
                       const std::vector<test::Weights>& kinds = {test::kAllWeights.begin(), test::kAllWeights.end()}) {
    using S = fam::Sar<T, In, Hidden, Capacity, Align, sarnn::Window>;
    // under the sanitizers and qemu a fifth of the steps, the ring still wrapping at least three times (test::long_run)
    steps = test::long_run(steps, 3 * Capacity);
    for (test::Weights kind : kinds) {
        const std::uint32_t s = seed + 100u * static_cast<std::uint32_t>(kind);
        const S sar(kind, s);
        const auto xs = test::make_inputs<T>(kind, steps, In, s + 1);
        const std::vector<ref::Vec> xs_d = test::to_vecs(xs);
        const ref::Weights w = sar.weights();
        const auto align = sar.reference_align();
        std::vector<ref::Vec> scalar_trace;

        test::for_each_arch([&](sarnn::Arch arch) {
            auto model = sar.make();
            const std::vector<test::Record> trace = test::run_and_record(*model, xs);
            test::TraceSpec spec;
            spec.capacity = Capacity;
            spec.window = true;
            spec.tol = ref::tol<T>();
            spec.c1_tol = ref::c1_tol<T>();
            spec.free_running = kind != test::Weights::large;
            spec.arch = arch;
            spec.label = S::label() + ", " + std::to_string(steps) + " steps, weights " + test::name(kind);
            test::check_sar_trace(trace, xs_d, w, align, spec, scalar_trace);
            CHECK(model->length() == steps);
            CHECK(model->attended() == Capacity);
            CHECK(model->full());

            // reset() after the ring wrapped: the start exactly, then the same run again
            model->reset();
            CHECK(model->length() == 0);
            CHECK(model->attended() == 0);
            CHECK_FALSE(model->full());
            CHECK(fam::state_bytes(*model) == fam::state_bytes(*sar.make()));
            const std::vector<test::Record> again = test::run_and_record(*model, xs);
            INFO("re-run after reset() first differs at step " << test::first_difference(trace, again));
            CHECK(test::first_difference(trace, again) == 0);
        });
    }
}

template <class T, class Align>
void long_windows() {
    check_long_window<T, 3, 7, 5, Align>(300, 5000);
    check_long_window<T, 1, 17, 7, Align>(200, 5010);
    check_long_window<T, 2, 33, 16, Align>(250, 5020);
    check_long_window<T, 5, 1, 16, Align>(100, 5030);
}

/// Bounded and Window take bit-identical steps until the memory is full; then Bounded refuses and Window goes on
/// (dropping the oldest state).
template <class T, std::size_t In, std::size_t Hidden, std::size_t Capacity, class Align>
void check_bounded_equals_window_until_full(std::uint32_t seed) {
    using B = fam::Sar<T, In, Hidden, Capacity, Align, sarnn::Bounded>;
    using Win = fam::Sar<T, In, Hidden, Capacity, Align, sarnn::Window>;
    const B bounded_kit(test::Weights::scaled, seed);
    const Win window_kit(test::Weights::scaled, seed);  // the same seed: the same weights
    const auto xs = test::make_inputs<T>(test::Weights::scaled, Capacity + 3, In, seed + 1);
    INFO(Win::label());
    test::for_each_arch([&](sarnn::Arch) {
        auto bounded = bounded_kit.make();
        auto window = window_kit.make();
        std::size_t first_diff = 0;
        for (std::size_t i = 0; i < Capacity; ++i) {
            const sarnn::Status sb = bounded->step(xs[i].data());
            const sarnn::Status sw = window->step(xs[i].data());
            if ((sb != sarnn::Status::ok || sw != sarnn::Status::ok ||
                 fam::state_bytes(*bounded) != fam::state_bytes(*window)) &&
                first_diff == 0)
                first_diff = i + 1;
        }
        INFO("Bounded and Window first differ at step " << first_diff);
        CHECK(first_diff == 0);
        CHECK(bounded->full());
        CHECK(window->full());
        for (std::size_t i = Capacity; i < Capacity + 3; ++i) {
            CHECK(bounded->step(xs[i].data()) == sarnn::Status::memory_full);
            CHECK(window->step(xs[i].data()) == sarnn::Status::ok);
            CHECK(bounded->length() == Capacity);
            CHECK(window->length() == i + 1);
            CHECK(window->attended() == Capacity);
            CHECK(window->attention().size() == Capacity);
        }
    });
}

}  // namespace

TEST_CASE("Window<DotAlign> over long sequences matches the reference", "[window][reference]") {
    long_windows<float, sarnn::DotAlign>();
    long_windows<double, sarnn::DotAlign>();
}
TEST_CASE("Window<ScaledDotAlign> over long sequences matches the reference", "[window][reference]") {
    long_windows<float, sarnn::ScaledDotAlign>();
    long_windows<double, sarnn::ScaledDotAlign>();
}
TEST_CASE("Window<AdditiveAlign> over long sequences matches the reference", "[window][additive][reference]") {
    // the cached keys W[:, :Hidden] h_j move with the ring
    check_long_window<float, 3, 7, 5, sarnn::AdditiveAlign<5>>(300, 6000);
    check_long_window<float, 2, 33, 16, sarnn::AdditiveAlign<17>>(120, 6010);
    check_long_window<double, 1, 17, 7, sarnn::AdditiveAlign<33>>(200, 6020);
    check_long_window<double, 2, 5, 16, sarnn::AdditiveAlign<1>>(100, 6030);
}

TEST_CASE("Window of several L1 chunks matches the reference", "[window][reference]") {
    // The dot kernels score the states in chunks of at most 256 rows, per contiguous segment of the ring: a
    // Capacity of 300 gives several chunks and, once the ring wraps, segments of every length.
    // (one weight kind each: these are the slowest runs of the suite, under qemu above all)
    check_long_window<float, 2, 17, 300, sarnn::DotAlign>(620, 5100, {test::Weights::scaled});
    check_long_window<double, 3, 7, 260, sarnn::ScaledDotAlign>(600, 5110, {test::Weights::large});
}

TEST_CASE("Bounded and Window are identical until the memory is full", "[window]") {
    check_bounded_equals_window_until_full<float, 3, 7, 5, sarnn::DotAlign>(7000);
    check_bounded_equals_window_until_full<double, 2, 17, 16, sarnn::ScaledDotAlign>(7010);
    check_bounded_equals_window_until_full<float, 1, 33, 7, sarnn::AdditiveAlign<5>>(7020);
    check_bounded_equals_window_until_full<double, 3, 5, 7, sarnn::BilinearAlign>(7030);
    check_bounded_equals_window_until_full<float, 2, 7, 5, sarnn::KeyQueryAlign<17>>(7040);
}

TEST_CASE("Window of Capacity 1 attends only the newest state", "[window]") {
    // alpha = {1} and c_i = h_i at every step, whatever the align.
    auto check = [](auto& kit, std::size_t steps) {
        const auto xs = test::make_inputs<float>(test::Weights::scaled, steps, 3, 8001);
        test::for_each_arch([&](sarnn::Arch) {
            auto model = kit.make();
            bool ok = true;
            test::MaxError err;
            ref::Vec c_prev(5, 0.0);
            const ref::Weights w = kit.weights();
            for (std::size_t i = 0; i < steps; ++i) {
                if (model->step(xs[i].data()) != sarnn::Status::ok) ok = false;
                if (model->attention().size() != 1 || model->attended() != 1 || model->length() != i + 1) ok = false;
                err.add(static_cast<double>(model->attention()[0]), 1.0, i + 1, "alpha", 0);
                err.add(test::to_vec(model->context()), test::to_vec(model->hidden()), i + 1, "c - h");
                err.add(test::to_vec(model->hidden()), ref::rnn_cell(w, test::to_vec(xs[i]), c_prev), i + 1, "h");
                c_prev = test::to_vec(model->context());
            }
            INFO("worst: " << err.where);
            CHECK(ok);
            CHECK(err.max <= ref::kFloatTol);
        });
    };
    const fam::Sar<float, 3, 5, 1, sarnn::DotAlign, sarnn::Window> dot(test::Weights::scaled, 8000);
    check(dot, 20);
    const fam::Sar<float, 3, 5, 1, sarnn::AdditiveAlign<7>, sarnn::Window> additive(test::Weights::large, 8002);
    check(additive, 20);
    const fam::Sar<float, 3, 5, 1, sarnn::BilinearAlign, sarnn::Window> bilinear(test::Weights::large, 8003);
    check(bilinear, 20);
}
