// tests/test_self_attention_rnn.cpp: SelfAttentionRnn against the double reference, on every kernel set, plus
// its properties (attention sums to 1, c_1 = h_1, reset, full memory, bad input, std::array overload).
// How the comparison works (teacher-forced and free-running): model_checks.hpp.
#include <catch2/catch.hpp>

#include <sarnn/sarnn.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <type_traits>

#include "model_checks.hpp"
#include "reference.hpp"
#include "subject.hpp"
#include "support.hpp"

namespace {

template <class T, std::size_t In, std::size_t Hidden, std::size_t Capacity, class Align>
void check_against_reference(test::Weights kind, std::uint32_t seed) {
    using Model = sarnn::SelfAttentionRnn<T, In, Hidden, Capacity, Align>;
    static_assert(sizeof(Model) >= Capacity * Hidden * sizeof(T), "the memory is a member");

    const auto params = test::make_params<T, In, Hidden>(kind, seed);
    test::ReferenceCase rc;
    rc.xs = test::to_vecs(test::make_inputs<T>(kind, Capacity, In, seed + 1));
    rc.tol = ref::tol<T>();
    rc.c1_tol = ref::c1_tol<T>();
    rc.free_running = kind != test::Weights::large;
    rc.label = test::model_label("SelfAttentionRnn", sizeof(T), In, Hidden, Capacity, kit::AlignTraits<Align>::name(),
                                 kind);
    test::check_against_reference(test::factory<Model>(*params), rc);
    CHECK(test::make_subject<Model>(*params)->params_address() == params.get());  // a reference, not a copy
}

template <class T, class Align>
void check_shapes() {
    for (test::Weights kind : test::kAllWeights) {
        const auto seed = static_cast<std::uint32_t>(1000 + 100 * static_cast<int>(kind));
        check_against_reference<T, 1, 1, 1, Align>(kind, seed + 1);
        check_against_reference<T, 1, 64, 5, Align>(kind, seed + 2);
        check_against_reference<T, 3, 7, 300, Align>(kind, seed + 3);
        check_against_reference<T, 7, 3, 64, Align>(kind, seed + 4);
        check_against_reference<T, 7, 33, 17, Align>(kind, seed + 5);
        check_against_reference<T, 16, 16, 64, Align>(kind, seed + 6);
        check_against_reference<T, 16, 17, 5, Align>(kind, seed + 7);
        check_against_reference<T, 17, 7, 100, Align>(kind, seed + 8);
        check_against_reference<T, 17, 33, 64, Align>(kind, seed + 9);
        check_against_reference<T, 33, 16, 1, Align>(kind, seed + 10);
        check_against_reference<T, 33, 64, 5, Align>(kind, seed + 11);
        check_against_reference<T, 64, 1, 64, Align>(kind, seed + 12);
        check_against_reference<T, 64, 17, 33, Align>(kind, seed + 13);
        check_against_reference<T, 64, 64, 64, Align>(kind, seed + 14);
    }
}

template <class T, std::size_t In, std::size_t Hidden, std::size_t Capacity, class Align>
void check_bad_input() {
    using Model = sarnn::SelfAttentionRnn<T, In, Hidden, Capacity, Align>;
    INFO("SelfAttentionRnn, In " << In << ", Hidden " << Hidden << ", Capacity " << Capacity);
    const auto params = test::make_params<T, In, Hidden>(test::Weights::scaled, 77);
    test::check_bad_input(test::factory<Model>(*params),
                          test::to_vecs(test::make_inputs<T>(test::Weights::scaled, Capacity, In, 78)));
}

template <class T, std::size_t In, std::size_t Hidden, std::size_t Capacity>
void check_array_overload() {
    using Model = sarnn::SelfAttentionRnn<T, In, Hidden, Capacity>;
    const auto params = test::make_params<T, In, Hidden>(test::Weights::scaled, 91);
    test::check_array_overload(test::factory<Model>(*params),
                               test::to_vecs(test::make_inputs<T>(test::Weights::scaled, Capacity, In, 92)));
}

}  // namespace

TEST_CASE("SelfAttentionRnn<float, DotAlign> matches the reference", "[self_attention_rnn][reference]") {
    check_shapes<float, sarnn::DotAlign>();
}
TEST_CASE("SelfAttentionRnn<float, ScaledDotAlign> matches the reference", "[self_attention_rnn][reference]") {
    check_shapes<float, sarnn::ScaledDotAlign>();
}
TEST_CASE("SelfAttentionRnn<double, DotAlign> matches the reference", "[self_attention_rnn][reference]") {
    check_shapes<double, sarnn::DotAlign>();
}
TEST_CASE("SelfAttentionRnn<double, ScaledDotAlign> matches the reference", "[self_attention_rnn][reference]") {
    check_shapes<double, sarnn::ScaledDotAlign>();
}

TEST_CASE("SelfAttentionRnn starts at c_0 = 0 with an empty memory", "[self_attention_rnn]") {
    const auto params = test::make_params<float, 3, 17>(test::Weights::scaled, 5);
    const sarnn::SelfAttentionRnn<float, 3, 17, 4> model{*params};
    CHECK(model.length() == 0);
    CHECK_FALSE(model.full());
    CHECK(model.attention().empty());
    REQUIRE(model.hidden().size() == 17);
    REQUIRE(model.context().size() == 17);
    for (std::size_t k = 0; k < 17; ++k) {
        CHECK(model.hidden()[k] == 0.0f);
        CHECK(model.context()[k] == 0.0f);
    }
    STATIC_REQUIRE(decltype(model)::in_size == 3);
    STATIC_REQUIRE(decltype(model)::hidden_size == 17);
    STATIC_REQUIRE(decltype(model)::capacity == 4);
    STATIC_REQUIRE(std::is_same_v<decltype(model)::value_type, float>);
}

TEST_CASE("SelfAttentionRnn refuses bad input and changes nothing", "[self_attention_rnn][input]") {
    check_bad_input<float, 1, 1, 4, sarnn::DotAlign>();
    check_bad_input<float, 7, 17, 12, sarnn::DotAlign>();
    check_bad_input<double, 3, 16, 8, sarnn::ScaledDotAlign>();
    check_bad_input<double, 33, 64, 6, sarnn::DotAlign>();
}

TEST_CASE("SelfAttentionRnn step(std::array) equals step(pointer)", "[self_attention_rnn]") {
    check_array_overload<float, 5, 9, 20>();
    check_array_overload<double, 17, 16, 10>();
}

TEST_CASE("SelfAttentionRnn with saturated equal states attends uniformly", "[self_attention_rnn]") {
    // b = +40 and A = 0: every h_i is the same vector of (almost) ones, so every score is equal and
    // alpha_ij = 1/i exactly up to rounding, while the scores themselves are the largest the model can make.
    auto params = std::make_unique<sarnn::RnnParams<float, 2, 64>>();
    for (auto& row : params->A)
        for (float& v : row) v = 0.0f;
    for (float& v : params->b) v = 40.0f;
    test::for_each_arch([&](sarnn::Arch) {
        auto model = std::make_unique<sarnn::SelfAttentionRnn<float, 2, 64, 50>>(*params);
        const std::array<float, 2> x{{0.5f, -0.5f}};
        test::MaxError worst;
        for (std::size_t i = 1; i <= 50; ++i) {
            REQUIRE(model->step(x) == sarnn::Status::ok);
            worst.add(test::to_vec(model->attention()), ref::Vec(i, 1.0 / static_cast<double>(i)), i, "alpha");
            worst.add(test::to_vec(model->context()), ref::Vec(64, 1.0), i, "c");
        }
        INFO("worst: " << worst.where);
        CHECK(worst.max <= ref::kFloatTol);
    });
}

TEST_CASE("SelfAttentionRnn sizeof covers its memory", "[self_attention_rnn]") {
    STATIC_REQUIRE(sizeof(sarnn::SelfAttentionRnn<float, 3, 7, 300>) >= 300 * 7 * sizeof(float));
    STATIC_REQUIRE(sizeof(sarnn::SelfAttentionRnn<double, 64, 64, 64>) >= 64 * 64 * sizeof(double));
    STATIC_REQUIRE(sizeof(sarnn::SelfAttentionRnn<float, 1, 1, 1, sarnn::ScaledDotAlign>) >= sizeof(float));
}
