// tests/test_params.cpp: RnnParams is a plain aggregate that can be constexpr (flash), and models run from it.
#include <catch2/catch.hpp>

#include <sarnn/sarnn.hpp>

#include <array>
#include <cmath>
#include <type_traits>

#include "reference.hpp"
#include "support.hpp"

static_assert(std::is_aggregate_v<sarnn::RnnParams<float, 3, 5>>);
static_assert(std::is_aggregate_v<sarnn::RnnParams<double, 64, 64>>);
static_assert(std::is_trivially_copyable_v<sarnn::RnnParams<float, 3, 5>>);
static_assert(std::is_standard_layout_v<sarnn::RnnParams<float, 3, 5>>);
// A and b, nothing else but the padding up to the alignment, which is SARNN_VECTOR_BYTES (at least alignof(T))
constexpr std::size_t kVector = SARNN_VECTOR_BYTES > alignof(float) ? SARNN_VECTOR_BYTES : alignof(float);
static_assert(alignof(sarnn::RnnParams<float, 3, 5>) == kVector);
static_assert(sizeof(sarnn::RnnParams<float, 3, 5>) ==
                  test::params_size<sarnn::RnnParams<float, 3, 5>>((5 * (3 + 5) + 5) * sizeof(float)),
              "A and b, nothing else");

namespace {

// A = [0.5 | 0.25], b = 0.1: h_i = tanh(0.5 x_i + 0.25 r_{i-1} + 0.1)
constexpr sarnn::RnnParams<float, 1, 1> kTiny{{{0.5f, 0.25f}}, {0.1f}};
static_assert(kTiny.A[0][0] == 0.5f && kTiny.A[0][1] == 0.25f && kTiny.b[0] == 0.1f);

constexpr sarnn::RnnParams<double, 2, 2> kSmall{{{1.0, -1.0, 0.5, 0.25}, {0.0, 2.0, -0.5, 1.0}}, {0.1, -0.2}};

}  // namespace

TEST_CASE("Models run from constexpr params", "[params]") {
    const std::array<float, 3> xs{{1.0f, -2.0f, 0.5f}};
    SECTION("SimpleRnn") {
        sarnn::SimpleRnn<float, 1, 1> net{kTiny};
        CHECK(&net.params() == &kTiny);
        double h = 0.0;
        for (float x : xs) {
            REQUIRE(net.step(&x) == sarnn::Status::ok);
            h = std::tanh(0.5 * static_cast<double>(x) + 0.25 * h + 0.1);
            CHECK(std::fabs(static_cast<double>(net.hidden()[0]) - h) <= ref::kFloatTol);
        }
    }
    SECTION("SelfAttentionRnn") {
        // Hidden = 1, one state: c_1 = h_1; then with scores h_j·h_i.
        sarnn::SelfAttentionRnn<float, 1, 1, 3> net{kTiny};
        CHECK(&net.params() == &kTiny);
        ref::SelfAttentionRnn<ref::Dot> reference(ref::weights_of(kTiny, 1, 1));
        for (float x : xs) {
            REQUIRE(net.step(std::array<float, 1>{{x}}) == sarnn::Status::ok);
            reference.step({static_cast<double>(x)});
            CHECK(std::fabs(static_cast<double>(net.hidden()[0]) - reference.hidden()[0]) <= ref::kFloatTol);
            CHECK(std::fabs(static_cast<double>(net.context()[0]) - reference.context()[0]) <= ref::kFloatTol);
        }
        CHECK(net.full());
    }
    SECTION("double, 2 x 2") {
        sarnn::SimpleRnn<double, 2, 2> net{kSmall};
        const double x[2] = {0.3, -0.7};
        REQUIRE(net.step(x) == sarnn::Status::ok);
        // h_1 = tanh(A[:, :2]·x + b) since h_0 = 0
        CHECK(std::fabs(net.hidden()[0] - std::tanh(1.0 * 0.3 - 1.0 * -0.7 + 0.1)) <= ref::kDoubleTol);
        CHECK(std::fabs(net.hidden()[1] - std::tanh(0.0 * 0.3 + 2.0 * -0.7 - 0.2)) <= ref::kDoubleTol);
    }
}
