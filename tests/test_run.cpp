// tests/test_run.cpp: run(xs, n, out, emit) over a buffered sequence, for SimpleRnn, SelfAttentionRnn
// (Emit::hidden, Emit::context) and Lstmn (Emit::hidden, Emit::cell), on every kernel set.
//
// run() must be exactly the loop of step() calls: every row it writes is bit-identical to the view after the
// same step, and the model ends bit-identical to one stepped by hand. It stops at the first step that is not ok
// and returns {that status, steps taken} (a NaN in the middle of xs, a full Bounded memory), leaving the rest of
// `out` untouched; out == nullptr only steps; an Emit the model does not have gives {invalid_argument, 0} and
// changes nothing.
#include <catch2/catch.hpp>

#include <sarnn/sarnn.hpp>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "family_support.hpp"
#include "support.hpp"

namespace {

const char* emit_name(sarnn::Emit e) {
    switch (e) {
    case sarnn::Emit::hidden: return "Emit::hidden";
    case sarnn::Emit::context: return "Emit::context";
    case sarnn::Emit::cell: return "Emit::cell";
    }
    return "?";
}

template <class T>
bool same_bits(const T* a, const T* b, std::size_t n) {
    return n == 0 || std::memcmp(a, b, n * sizeof(T)) == 0;
}

/// The value out is filled with before a run: rows run() must not write keep it.
template <class T>
T sentinel() {
    return T(-777.25);
}

/// run() against step() for one model type, one Emit it has. `make()` gives a fresh model, `emitted(model)` the
/// view that emit selects; n steps of xs must all be ok when `n_ok` == n (else the run stops at n_ok with
/// `stop`, e.g. a Bounded memory that fills).
template <class Model, class Make, class Emitted>
void check_run(const Make& make, const Emitted& emitted, sarnn::Emit emit, std::size_t n, std::size_t n_ok,
               sarnn::Status stop, std::uint32_t seed, const std::string& label) {
    using T = typename Model::value_type;
    constexpr std::size_t In = Model::in_size, Hidden = Model::hidden_size;
    INFO(label << ", " << emit_name(emit) << ", n " << n);
    std::vector<T> xs;
    for (const auto& x : test::make_inputs<T>(test::Weights::scaled, n, In, seed))
        xs.insert(xs.end(), x.begin(), x.end());

    test::for_each_arch([&](sarnn::Arch) {
        // by hand: the rows and the state after every step
        std::vector<T> want((n + 1) * Hidden, sentinel<T>());
        std::vector<std::vector<unsigned char>> states;  // states[k]: after k steps
        auto by_hand = make();
        states.push_back(fam::state_bytes(*by_hand));
        for (std::size_t t = 0; t < n_ok; ++t) {
            REQUIRE(by_hand->step(xs.data() + t * In) == sarnn::Status::ok);
            const sarnn::View<T> v = emitted(*by_hand);
            REQUIRE(v.size() == Hidden);
            std::memcpy(want.data() + t * Hidden, v.data(), Hidden * sizeof(T));
            states.push_back(fam::state_bytes(*by_hand));
        }

        // the whole sequence at once, one spare row after it
        {
            auto model = make();
            std::vector<T> out((n + 1) * Hidden, sentinel<T>());
            const sarnn::RunResult r = model->run(xs.data(), n, out.data(), emit);
            CHECK(r.status == (n_ok == n ? sarnn::Status::ok : stop));
            CHECK(r.steps == n_ok);
            CHECK(same_bits(out.data(), want.data(), out.size()));
            CHECK(fam::state_bytes(*model) == states[n_ok]);
        }
        // out == nullptr: steps only
        {
            auto model = make();
            const sarnn::RunResult r = model->run(xs.data(), n, nullptr, emit);
            CHECK(r.status == (n_ok == n ? sarnn::Status::ok : stop));
            CHECK(r.steps == n_ok);
            CHECK(fam::state_bytes(*model) == states[n_ok]);
        }
        // in two calls: the second goes on where the first stopped
        if (n_ok >= 2) {
            const std::size_t k = n_ok / 2;
            auto model = make();
            std::vector<T> out((n + 1) * Hidden, sentinel<T>());
            const sarnn::RunResult r1 = model->run(xs.data(), k, out.data(), emit);
            CHECK(r1.status == sarnn::Status::ok);
            CHECK(r1.steps == k);
            const sarnn::RunResult r2 = model->run(xs.data() + k * In, n - k, out.data() + k * Hidden, emit);
            CHECK(r2.steps == n_ok - k);
            CHECK(same_bits(out.data(), want.data(), out.size()));
            CHECK(fam::state_bytes(*model) == states[n_ok]);
        }
        // n == 0, and null xs
        {
            auto model = make();
            T spare[1] = {sentinel<T>()};
            sarnn::RunResult r = model->run(xs.data(), 0, spare, emit);
            CHECK(r.status == sarnn::Status::ok);
            CHECK(r.steps == 0);
            r = model->run(nullptr, 0, spare, emit);
            CHECK(r.status == sarnn::Status::ok);
            CHECK(r.steps == 0);
            r = model->run(nullptr, n, spare, emit);
            CHECK(r.status == sarnn::Status::null_input);
            CHECK(r.steps == 0);
            CHECK(spare[0] == sentinel<T>());
            CHECK(fam::state_bytes(*model) == states[0]);
        }
#if SARNN_CHECK_INPUT
        // a NaN (or Inf) in the middle of xs: stops there, the rows before it written, none after
        for (T bad : {std::numeric_limits<T>::quiet_NaN(), std::numeric_limits<T>::infinity()}) {
            const std::size_t at = n_ok / 2;
            std::vector<T> bad_xs = xs;
            bad_xs[at * In + In / 2] = bad;
            auto model = make();
            std::vector<T> out((n + 1) * Hidden, sentinel<T>());
            const sarnn::RunResult r = model->run(bad_xs.data(), n, out.data(), emit);
            CHECK(r.status == sarnn::Status::non_finite_input);
            CHECK(r.steps == at);
            std::vector<T> expect((n + 1) * Hidden, sentinel<T>());
            std::memcpy(expect.data(), want.data(), at * Hidden * sizeof(T));
            CHECK(same_bits(out.data(), expect.data(), out.size()));
            CHECK(fam::state_bytes(*model) == states[at]);
        }
#endif
    });
}

/// An Emit the model does not have: {invalid_argument, 0}, nothing written, nothing changed (on a fresh model
/// and on one in mid-sequence).
template <class Model, class Make>
void check_wrong_emit(const Make& make, sarnn::Emit emit, const std::string& label) {
    using T = typename Model::value_type;
    constexpr std::size_t In = Model::in_size, Hidden = Model::hidden_size;
    INFO(label << ", " << emit_name(emit));
    const auto xs = test::make_inputs<T>(test::Weights::scaled, 3, In, 42);
    std::vector<T> flat;
    for (const auto& x : xs) flat.insert(flat.end(), x.begin(), x.end());
    test::for_each_arch([&](sarnn::Arch) {
        auto model = make();
        for (int mid = 0; mid < 2; ++mid) {
            if (mid == 1) REQUIRE(model->step(xs[0].data()) == sarnn::Status::ok);
            const auto before = fam::state_bytes(*model);
            std::vector<T> out(3 * Hidden, sentinel<T>());
            const sarnn::RunResult r = model->run(flat.data(), 3, out.data(), emit);
            CHECK(r.status == sarnn::Status::invalid_argument);
            CHECK(r.steps == 0);
            CHECK(out == std::vector<T>(3 * Hidden, sentinel<T>()));
            CHECK(fam::state_bytes(*model) == before);
        }
    });
}

}  // namespace

TEST_CASE("SimpleRnn::run equals step by step", "[run][simple_rnn]") {
    using M = sarnn::SimpleRnn<float, 3, 17>;
    const auto p = test::make_params<float, 3, 17>(test::Weights::scaled, 100);
    auto make = [&] { return std::make_unique<M>(*p); };
    auto hidden = [](const M& m) { return m.hidden(); };
    check_run<M>(make, hidden, sarnn::Emit::hidden, 40, 40, sarnn::Status::ok, 101, "SimpleRnn<float, 3, 17>");
    check_wrong_emit<M>(make, sarnn::Emit::context, "SimpleRnn<float, 3, 17>");
    check_wrong_emit<M>(make, sarnn::Emit::cell, "SimpleRnn<float, 3, 17>");

    using D = sarnn::SimpleRnn<double, 1, 5>;
    const auto pd = test::make_params<double, 1, 5>(test::Weights::large, 102);
    auto make_d = [&] { return std::make_unique<D>(*pd); };
    check_run<D>(
        make_d, [](const D& m) { return m.hidden(); }, sarnn::Emit::hidden, 25, 25, sarnn::Status::ok, 103,
        "SimpleRnn<double, 1, 5>");
    // the default Emit is hidden
    D a(*pd), b(*pd);
    const auto xs = test::make_inputs<double>(test::Weights::scaled, 4, 1, 104);
    std::vector<double> flat, out_a(20), out_b(20);
    for (const auto& x : xs) flat.push_back(x[0]);
    CHECK(a.run(flat.data(), 4, out_a.data()).steps == 4);
    CHECK(b.run(flat.data(), 4, out_b.data(), sarnn::Emit::hidden).steps == 4);
    CHECK(out_a == out_b);
}

TEST_CASE("SelfAttentionRnn::run equals step by step", "[run][self_attention_rnn]") {
    {
        using S = fam::Sar<float, 3, 7, 12, sarnn::DotAlign, sarnn::Bounded>;
        const S kit(test::Weights::scaled, 200);
        auto make = [&] { return kit.make(); };
        using M = S::Model;
        auto hidden = [](const M& m) { return m.hidden(); };
        auto context = [](const M& m) { return m.context(); };
        check_run<M>(make, hidden, sarnn::Emit::hidden, 12, 12, sarnn::Status::ok, 201, S::label());
        check_run<M>(make, context, sarnn::Emit::context, 12, 12, sarnn::Status::ok, 202, S::label());
        // more steps than the Bounded memory holds: stops at {memory_full, Capacity}
        check_run<M>(make, hidden, sarnn::Emit::hidden, 20, 12, sarnn::Status::memory_full, 203, S::label());
        check_run<M>(make, context, sarnn::Emit::context, 13, 12, sarnn::Status::memory_full, 204, S::label());
        check_wrong_emit<M>(make, sarnn::Emit::cell, S::label());
    }
    {
        using S = fam::Sar<double, 2, 17, 5, sarnn::AdditiveAlign<7>, sarnn::Window>;
        const S kit(test::Weights::scaled, 210);
        auto make = [&] { return kit.make(); };
        using M = S::Model;
        check_run<M>(
            make, [](const M& m) { return m.hidden(); }, sarnn::Emit::hidden, 23, 23, sarnn::Status::ok, 211,
            S::label());
        check_run<M>(
            make, [](const M& m) { return m.context(); }, sarnn::Emit::context, 23, 23, sarnn::Status::ok, 212,
            S::label());
        check_wrong_emit<M>(make, sarnn::Emit::cell, S::label());
    }
    {
        using S = fam::Sar<float, 1, 5, 6, sarnn::KeyQueryAlign<33>, sarnn::Bounded>;
        const S kit(test::Weights::scaled, 220);
        auto make = [&] { return kit.make(); };
        using M = S::Model;
        check_run<M>(
            make, [](const M& m) { return m.context(); }, sarnn::Emit::context, 9, 6, sarnn::Status::memory_full, 221,
            S::label());
    }
}

TEST_CASE("Lstmn::run equals step by step", "[run][lstmn]") {
    {
        using M = sarnn::Lstmn<float, 3, 7, 10, 5>;
        const auto p = fam::make_lstmn_params<float, 3, 7, 5>(fam::LstmnWeightsKind::scaled, 300);
        auto make = [&] { return std::make_unique<M>(*p); };
        auto hidden = [](const M& m) { return m.hidden(); };
        auto cell = [](const M& m) { return m.cell(); };
        const std::string label = "Lstmn<float, 3, 7, 10, 5>";
        check_run<M>(make, hidden, sarnn::Emit::hidden, 10, 10, sarnn::Status::ok, 301, label);
        check_run<M>(make, cell, sarnn::Emit::cell, 10, 10, sarnn::Status::ok, 302, label);
        check_run<M>(make, hidden, sarnn::Emit::hidden, 14, 10, sarnn::Status::memory_full, 303, label);
        check_run<M>(make, cell, sarnn::Emit::cell, 11, 10, sarnn::Status::memory_full, 304, label);
        check_wrong_emit<M>(make, sarnn::Emit::context, label);
    }
    {
        using M = sarnn::Lstmn<double, 1, 17, 4, 33, sarnn::Window>;
        const auto p = fam::make_lstmn_params<double, 1, 17, 33>(fam::LstmnWeightsKind::large, 310);
        auto make = [&] { return std::make_unique<M>(*p); };
        const std::string label = "Lstmn<double, 1, 17, 4, 33, Window>";
        check_run<M>(
            make, [](const M& m) { return m.hidden(); }, sarnn::Emit::hidden, 15, 15, sarnn::Status::ok, 311, label);
        check_run<M>(
            make, [](const M& m) { return m.cell(); }, sarnn::Emit::cell, 15, 15, sarnn::Status::ok, 312, label);
        check_wrong_emit<M>(make, sarnn::Emit::context, label);
    }
}
