// tests/test_lstmn.cpp: the LSTM-network (Lstmn) against the double reference of reference_family.hpp, on every
// kernel set, float and double, Bounded and Window; K and Hidden from {1, 5, 7, 17, 33}, In from {1, 3, 7}.
//
// Covered: t = 1 (empty tapes: no attention, the output of a plain LSTM cell from a zero state), t = 2 (one
// tape entry: s = {1}), a full Bounded memory (Status::memory_full, nothing changes), a Window that fills and then
// wraps its tapes several times (the reference attends over the newest Capacity entries directly), the views
// hidden(), cell(), attention(), stored(), length(), full(), reset(), params kept by reference, sizeof.
// As for the other models: teacher-forced for every weight kind, free-running and against the scalar set for
// the contracting one.
#include <catch2/catch.hpp>

#include <sarnn/sarnn.hpp>

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "family_support.hpp"
#include "model_checks.hpp"
#include "reference.hpp"
#include "reference_family.hpp"
#include "support.hpp"

namespace {

/// A plain LSTM cell from a zero state (h = c = 0), straight from the formulas:
/// z = W_ih x + b, c = σ(z_i)·tanh(z_g), h = σ(z_o)·tanh(c). Returns [h; c].
ref::Vec plain_lstm_cell_from_zero(const ref::LstmnWeights& w, const ref::Vec& x) {
    const std::size_t H = w.hidden;
    ref::Vec hc(2 * H);
    for (std::size_t d = 0; d < H; ++d) {
        double z[4];
        for (std::size_t gate = 0; gate < 4; ++gate) {
            z[gate] = w.b[gate * H + d];
            for (std::size_t k = 0; k < w.in; ++k) z[gate] += w.W_ih[gate * H + d][k] * x[k];
        }
        const double c = ref::sigmoid(z[0]) * std::tanh(z[2]);
        hc[d] = ref::sigmoid(z[3]) * std::tanh(c);
        hc[H + d] = c;
    }
    return hc;
}

template <class T, std::size_t In, std::size_t Hidden, std::size_t Capacity, std::size_t K, class Memory>
void check_lstmn(std::uint32_t seed) {
    using Model = sarnn::Lstmn<T, In, Hidden, Capacity, K, Memory>;
    constexpr bool window = std::is_same_v<Memory, sarnn::Window>;
    const std::size_t steps = window ? 3 * Capacity + 2 : Capacity;
    std::ostringstream os;
    os << "Lstmn<" << (sizeof(T) == 4 ? "float" : "double") << ", In " << In << ", Hidden " << Hidden << ", Capacity "
       << Capacity << ", K " << K << ", " << fam::memory_name(window) << ">";

    STATIC_REQUIRE(Model::in_size == In);
    STATIC_REQUIRE(Model::hidden_size == Hidden);
    STATIC_REQUIRE(Model::capacity == Capacity);
    STATIC_REQUIRE(std::is_same_v<typename Model::value_type, T>);

    for (fam::LstmnWeightsKind kind : {fam::LstmnWeightsKind::scaled, fam::LstmnWeightsKind::large}) {
        const std::uint32_t s = seed + 100u * static_cast<std::uint32_t>(kind);
        const auto params = fam::make_lstmn_params<T, In, Hidden, K>(kind, s);
        const auto xs = test::make_inputs<T>(test::Weights::scaled, steps, In, s + 1);
        const std::vector<ref::Vec> xs_d = test::to_vecs(xs);
        const ref::LstmnWeights w = ref::lstmn_weights_of(*params);
        const std::string label = os.str() + ", weights " + fam::name(kind);
        const ref::Vec first = plain_lstm_cell_from_zero(w, xs_d[0]);

        // against the reference, full memory, reset (model_checks.hpp)
        test::ReferenceCase rc;
        rc.xs = xs_d;
        rc.tol = ref::tol<T>();
        rc.c1_tol = ref::c1_tol<T>();
        rc.free_running = kind == fam::LstmnWeightsKind::scaled;
        rc.label = label;
        test::check_against_reference(test::factory<Model>(*params), rc);

        // what only the Lstmn has
        test::for_each_arch([&](sarnn::Arch arch) {
            INFO(label << " on " << sarnn::arch_name(arch));
            auto model = std::make_unique<Model>(*params);
            REQUIRE(&model->params() == params.get());
            // before the first step
            CHECK(model->length() == 0);
            CHECK(model->stored() == 0);
            CHECK_FALSE(model->full());
            CHECK(model->attention().size() == 0);
            CHECK(test::to_vec(model->hidden()) == ref::Vec(Hidden, 0.0));
            CHECK(test::to_vec(model->cell()) == ref::Vec(Hidden, 0.0));
            const std::vector<test::Record> trace = test::run_and_record(*model, xs);

            // t = 1: empty tapes, no attention, a plain LSTM cell from a zero state
            REQUIRE(!trace.empty());
            CHECK(trace[0].alpha.empty());
            {
                test::MaxError err;
                ref::Vec hc = trace[0].h;
                hc.insert(hc.end(), trace[0].c.begin(), trace[0].c.end());
                err.add(hc, first, 1, "[h; c]");
                INFO("t = 1 vs a plain LSTM cell, worst: " << err.where);
                CHECK(err.max <= ref::tol<T>());
            }
            // t = 2: one tape entry, s = {1} (exact but for one rounding, as c_1 = h_1 of SelfAttentionRnn)
            if (trace.size() >= 2) {
                REQUIRE(trace[1].alpha.size() == 1);
                CHECK(std::fabs(trace[1].alpha[0] - 1.0) <= ref::c1_tol<T>());
            }

            if (window) {
                CHECK(model->length() == steps);
                CHECK(model->stored() == Capacity);
                CHECK(model->attention().size() == Capacity);
            }

            // the views show the model's own storage
            const auto* lo = reinterpret_cast<const unsigned char*>(model.get());
            const auto* hi = lo + sizeof(Model);
            for (const T* p : {model->hidden().data(), model->cell().data(), model->attention().data()}) {
                const auto* b = reinterpret_cast<const unsigned char*>(p);
                CHECK((b >= lo && b < hi));
            }
        });
    }
}

template <class T, class Memory>
void lstmn_shapes() {
    check_lstmn<T, 1, 1, 4, 1, Memory>(9000);
    check_lstmn<T, 3, 5, 6, 7, Memory>(9010);
    check_lstmn<T, 7, 7, 5, 33, Memory>(9020);
    check_lstmn<T, 1, 17, 9, 5, Memory>(9030);
    check_lstmn<T, 3, 33, 4, 17, Memory>(9040);
    check_lstmn<T, 7, 5, 7, 1, Memory>(9050);
}

/// Bounded and Window are bit-identical until the tapes are full; then Bounded refuses and Window goes on.
template <class T, std::size_t In, std::size_t Hidden, std::size_t Capacity, std::size_t K>
void check_bounded_equals_window_until_full(std::uint32_t seed) {
    const auto params = fam::make_lstmn_params<T, In, Hidden, K>(fam::LstmnWeightsKind::scaled, seed);
    const auto xs = test::make_inputs<T>(test::Weights::scaled, Capacity + 2, In, seed + 1);
    test::for_each_arch([&](sarnn::Arch) {
        auto bounded = std::make_unique<sarnn::Lstmn<T, In, Hidden, Capacity, K>>(*params);
        auto window = std::make_unique<sarnn::Lstmn<T, In, Hidden, Capacity, K, sarnn::Window>>(*params);
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
        for (std::size_t i = Capacity; i < Capacity + 2; ++i) {
            CHECK(bounded->step(xs[i].data()) == sarnn::Status::memory_full);
            CHECK(window->step(xs[i].data()) == sarnn::Status::ok);
        }
        CHECK(bounded->length() == Capacity);
        CHECK(window->length() == Capacity + 2);
        CHECK(window->stored() == Capacity);
    });
}

}  // namespace

TEST_CASE("Lstmn<float, Bounded> matches the reference", "[lstmn][reference]") {
    lstmn_shapes<float, sarnn::Bounded>();
}
TEST_CASE("Lstmn<double, Bounded> matches the reference", "[lstmn][reference]") {
    lstmn_shapes<double, sarnn::Bounded>();
}
TEST_CASE("Lstmn<float, Window> fills, wraps and matches the reference", "[lstmn][window][reference]") {
    lstmn_shapes<float, sarnn::Window>();
}
TEST_CASE("Lstmn<double, Window> fills, wraps and matches the reference", "[lstmn][window][reference]") {
    lstmn_shapes<double, sarnn::Window>();
}

TEST_CASE("Lstmn Window over a long sequence matches the reference", "[lstmn][window][reference]") {
    constexpr std::size_t In = 3, Hidden = 7, Capacity = 5, K = 5, Steps = 200;
    const auto params = fam::make_lstmn_params<float, In, Hidden, K>(fam::LstmnWeightsKind::scaled, 9100);
    const auto xs = test::make_inputs<float>(test::Weights::scaled, Steps, In, 9101);
    std::vector<ref::Vec> scalar_trace;
    test::for_each_arch([&](sarnn::Arch arch) {
        auto model = std::make_unique<sarnn::Lstmn<float, In, Hidden, Capacity, K, sarnn::Window>>(*params);
        test::TraceSpec spec;
        spec.capacity = Capacity;
        spec.window = true;
        spec.tol = ref::kFloatTol;
        spec.arch = arch;
        spec.label = "Lstmn<float, 3, 7, 5, 5, Window>, 200 steps";
        test::check_lstmn_trace(test::run_and_record(*model, xs), test::to_vecs(xs), ref::lstmn_weights_of(*params),
                                spec, scalar_trace);
    });
}

TEST_CASE("Lstmn Window of Capacity 1 attends only the previous step", "[lstmn][window][reference]") {
    // One tape entry, overwritten by every step right after it was attended: s = {1}, h~_t = h_{t-1}.
    constexpr std::size_t In = 3, Hidden = 5, K = 4, Steps = 20;
    const auto params = fam::make_lstmn_params<double, In, Hidden, K>(fam::LstmnWeightsKind::large, 9150);
    const auto xs = test::make_inputs<double>(test::Weights::scaled, Steps, In, 9151);
    std::vector<ref::Vec> scalar_trace;
    test::for_each_arch([&](sarnn::Arch arch) {
        auto model = std::make_unique<sarnn::Lstmn<double, In, Hidden, 1, K, sarnn::Window>>(*params);
        test::TraceSpec spec;
        spec.capacity = 1;
        spec.window = true;
        spec.tol = ref::kDoubleTol;
        spec.arch = arch;
        spec.label = "Lstmn<double, 3, 5, 1, 4, Window>";
        test::check_lstmn_trace(test::run_and_record(*model, xs), test::to_vecs(xs), ref::lstmn_weights_of(*params),
                                spec, scalar_trace);
    });
}

TEST_CASE("Lstmn Bounded and Window are identical until full", "[lstmn][window]") {
    check_bounded_equals_window_until_full<float, 3, 17, 6, 5>(9200);
    check_bounded_equals_window_until_full<double, 1, 5, 4, 33>(9210);
}

namespace {
static_assert(std::is_aggregate_v<sarnn::LstmnParams<float, 3, 5, 2>>);
static_assert(sizeof(sarnn::LstmnParams<float, 3, 5, 2>) ==
                  test::params_size<sarnn::LstmnParams<float, 3, 5, 2>>(
                      (4 * 5 * 3 + 4 * 5 * 5 + 4 * 5 + 2 * 5 + 2 * 3 + 2 * 5 + 2) * sizeof(float)),
              "the arrays, nothing else (but the padding to the alignment)");

// In 1, Hidden 1, K 1: gates i, f, g, o from W_ih, W_hh, b; a_j = v·tanh(W_h h_j + W_x x + W_ht h~).
constexpr sarnn::LstmnParams<double, 1, 1, 1> kTiny{{{0.5}, {-0.25}, {1.0}, {0.75}},
                                                    {{0.1}, {0.2}, {-0.3}, {0.4}},
                                                    {0.05, 0.5, -0.1, 0.2},
                                                    {{1.5}},
                                                    {{-0.5}},
                                                    {{0.25}},
                                                    {2.0}};
static_assert(kTiny.W_ih[2][0] == 1.0 && kTiny.b[1] == 0.5 && kTiny.v[0] == 2.0);
}  // namespace

TEST_CASE("Lstmn runs from constexpr params", "[lstmn][params]") {
    const ref::LstmnWeights w = ref::lstmn_weights_of(kTiny);
    test::for_each_arch([&](sarnn::Arch) {
        sarnn::Lstmn<double, 1, 1, 4, 1> model{kTiny};
        CHECK(&model.params() == &kTiny);
        ref::Lstmn reference(w);
        test::MaxError err;
        const double xs[4] = {1.0, -0.5, 2.0, 0.25};
        for (std::size_t t = 0; t < 4; ++t) {
            REQUIRE(model.step(std::array<double, 1>{{xs[t]}}) == sarnn::Status::ok);
            reference.step({xs[t]});
            err.add(test::to_vec(model.hidden()), reference.hidden(), t + 1, "h");
            err.add(test::to_vec(model.cell()), reference.cell(), t + 1, "c");
            err.add(test::to_vec(model.attention()), reference.attention(), t + 1, "s");
        }
        INFO("worst: " << err.where);
        CHECK(err.max <= ref::kDoubleTol);
        CHECK(model.full());
    });
}

TEST_CASE("Lstmn params are kept by reference", "[lstmn][params]") {
    constexpr std::size_t In = 2, Hidden = 5, Capacity = 4, K = 3;
    auto params = fam::make_lstmn_params<float, In, Hidden, K>(fam::LstmnWeightsKind::scaled, 9300);
    const auto xs = test::make_inputs<float>(test::Weights::scaled, Capacity, In, 9301);
    test::for_each_arch([&](sarnn::Arch) {
        sarnn::Lstmn<float, In, Hidden, Capacity, K> model{*params};
        auto changed = *params;
        for (float& v : changed.b) v += 0.5f;
        for (float& v : changed.v) v *= -2.0f;
        const auto saved = *params;
        *params = changed;  // after construction: the steps must see the new weights
        ref::Lstmn reference(ref::lstmn_weights_of(changed));
        test::MaxError err;
        for (const auto& x : xs) {
            REQUIRE(model.step(x.data()) == sarnn::Status::ok);
            reference.step(test::to_vec(x));
            err.add(test::to_vec(model.hidden()), reference.hidden(), static_cast<std::size_t>(model.length()), "h");
            err.add(test::to_vec(model.attention()), reference.attention(), static_cast<std::size_t>(model.length()),
                    "s");
        }
        *params = saved;
        INFO("worst: " << err.where);
        CHECK(err.max <= ref::kFloatTol);
    });
}

namespace {
template <class T, std::size_t In, std::size_t Hidden, std::size_t Capacity, std::size_t K>
constexpr bool lstmn_holds_its_tapes() {
    return sizeof(sarnn::Lstmn<T, In, Hidden, Capacity, K>) >= (2 * Capacity * Hidden + Capacity * K) * sizeof(T);
}
}  // namespace

TEST_CASE("Lstmn sizeof covers its tapes and cached keys", "[lstmn][sizeof]") {
    STATIC_REQUIRE(lstmn_holds_its_tapes<float, 1, 1, 1, 1>());
    STATIC_REQUIRE(lstmn_holds_its_tapes<float, 3, 33, 100, 17>());
    STATIC_REQUIRE(lstmn_holds_its_tapes<double, 7, 5, 300, 33>());
    // the Window policy: one spare row on each tape and on the keys (see memory.hpp)
    STATIC_REQUIRE(sizeof(sarnn::Lstmn<float, 3, 7, 16, 5, sarnn::Window>) ==
                   sizeof(sarnn::Lstmn<float, 3, 7, 16, 5>) +
                       (2 * sarnn::padded<float>(7) + sarnn::padded<float>(5)) * sizeof(float));
}
