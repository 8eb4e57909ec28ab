// tests/test_simple_rnn.cpp: SimpleRnn against the double reference, on every kernel set, plus reset, bad
// input and the std::array overload. How the comparison works (teacher-forced and free-running):
// model_checks.hpp.
#include <catch2/catch.hpp>

#include <sarnn/sarnn.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <type_traits>

#include "model_checks.hpp"
#include "reference.hpp"
#include "subject.hpp"
#include "support.hpp"

namespace {

template <class T, std::size_t In, std::size_t Hidden>
void check_against_reference(test::Weights kind, std::uint32_t seed, std::size_t steps) {
    using Model = sarnn::SimpleRnn<T, In, Hidden>;
    const auto params = test::make_params<T, In, Hidden>(kind, seed);
    test::ReferenceCase rc;
    rc.xs = test::to_vecs(test::make_inputs<T>(kind, steps, In, seed + 1));
    rc.tol = ref::tol<T>();
    rc.c1_tol = ref::c1_tol<T>();
    rc.free_running = kind != test::Weights::large;
    rc.label = test::model_label("SimpleRnn", sizeof(T), In, Hidden, 0, "", kind);
    test::check_against_reference(test::factory<Model>(*params), rc);
    CHECK(test::make_subject<Model>(*params)->params_address() == params.get());  // a reference, not a copy
}

template <class T>
void check_shapes() {
    for (test::Weights kind : test::kAllWeights) {
        const auto seed = static_cast<std::uint32_t>(2000 + 100 * static_cast<int>(kind));
        check_against_reference<T, 1, 1>(kind, seed + 1, 40);
        check_against_reference<T, 1, 64>(kind, seed + 2, 40);
        check_against_reference<T, 3, 7>(kind, seed + 3, 300);
        check_against_reference<T, 7, 3>(kind, seed + 4, 40);
        check_against_reference<T, 7, 33>(kind, seed + 5, 40);
        check_against_reference<T, 16, 16>(kind, seed + 6, 40);
        check_against_reference<T, 16, 17>(kind, seed + 7, 40);
        check_against_reference<T, 17, 7>(kind, seed + 8, 40);
        check_against_reference<T, 17, 33>(kind, seed + 9, 40);
        check_against_reference<T, 33, 16>(kind, seed + 10, 40);
        check_against_reference<T, 33, 64>(kind, seed + 11, 40);
        check_against_reference<T, 64, 1>(kind, seed + 12, 40);
        check_against_reference<T, 64, 17>(kind, seed + 13, 40);
        check_against_reference<T, 64, 64>(kind, seed + 14, 100);
    }
}

template <class T, std::size_t In, std::size_t Hidden>
void check_bad_input() {
    INFO("SimpleRnn, In " << In << ", Hidden " << Hidden);
    const auto params = test::make_params<T, In, Hidden>(test::Weights::scaled, 55);
    test::check_bad_input(test::factory<sarnn::SimpleRnn<T, In, Hidden>>(*params),
                          test::to_vecs(test::make_inputs<T>(test::Weights::scaled, 10, In, 56)));
}

}  // namespace

TEST_CASE("SimpleRnn<float> matches the reference", "[simple_rnn][reference]") { check_shapes<float>(); }
TEST_CASE("SimpleRnn<double> matches the reference", "[simple_rnn][reference]") { check_shapes<double>(); }

TEST_CASE("SimpleRnn starts at h_0 = 0", "[simple_rnn]") {
    const auto params = test::make_params<double, 4, 33>(test::Weights::scaled, 3);
    const sarnn::SimpleRnn<double, 4, 33> model{*params};
    CHECK(model.length() == 0);
    REQUIRE(model.hidden().size() == 33);
    for (double v : model.hidden()) CHECK(v == 0.0);
    STATIC_REQUIRE(decltype(model)::in_size == 4);
    STATIC_REQUIRE(decltype(model)::hidden_size == 33);
    STATIC_REQUIRE(std::is_same_v<decltype(model)::value_type, double>);
    STATIC_REQUIRE(sizeof(decltype(model)) >= 2 * 33 * sizeof(double));
}

TEST_CASE("SimpleRnn refuses bad input and changes nothing", "[simple_rnn][input]") {
    check_bad_input<float, 1, 1>();
    check_bad_input<float, 17, 16>();
    check_bad_input<double, 3, 64>();
    check_bad_input<double, 64, 7>();
}

TEST_CASE("SimpleRnn step(std::array) equals step(pointer)", "[simple_rnn]") {
    const auto pf = test::make_params<float, 6, 17>(test::Weights::scaled, 31);
    test::check_array_overload(test::factory<sarnn::SimpleRnn<float, 6, 17>>(*pf),
                               test::to_vecs(test::make_inputs<float>(test::Weights::scaled, 25, 6, 32)));
    const auto pd = test::make_params<double, 33, 7>(test::Weights::large, 33);
    test::check_array_overload(test::factory<sarnn::SimpleRnn<double, 33, 7>>(*pd),
                               test::to_vecs(test::make_inputs<double>(test::Weights::large, 20, 33, 34)));
}
