// tests/test_params.cpp: RnnParams is a plain aggregate that can be constexpr (flash), and models run from it;
// for_each_array() walks every params type's arrays.
#include <catch2/catch.hpp>

#include <sarnn/sarnn.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

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

namespace {

struct Visit {
    std::string name;
    std::ptrdiff_t offset;  // bytes from the start of the params
    std::size_t count;
};

/// Every array for_each_array() shows of p, in order.
template <class P>
std::vector<Visit> visits(P& p) {
    std::vector<Visit> v;
    const auto* base = reinterpret_cast<const unsigned char*>(&p);
    (void)sarnn::for_each_array(p, [&](const char* name, auto* data, std::size_t n) {
        v.push_back({name, reinterpret_cast<const unsigned char*>(data) - base, n});
        return false;
    });
    return v;
}

/// for_each_array(p) shows exactly `expected` (name, member address, count), in declaration order; the mutable walk
/// writes through to the members; a true from f stops the walk at that array.
template <class P, class T = std::remove_all_extents_t<decltype(P::b)>>
void check_arrays(P& p, const std::vector<Visit>& expected) {
    const std::vector<Visit> got = visits(static_cast<const P&>(p));
    REQUIRE(got.size() == expected.size());
    std::size_t values = 0;
    for (std::size_t i = 0; i < got.size(); ++i) {
        INFO("array " << expected[i].name);
        CHECK(got[i].name == expected[i].name);
        CHECK(got[i].offset == expected[i].offset);
        CHECK(got[i].count == expected[i].count);
        values += got[i].count;
    }
    // every value of the aggregate, nothing else: the padding is at most one alignment's worth
    CHECK(values * sizeof(T) <= sizeof(P));
    CHECK(sizeof(P) - values * sizeof(T) < alignof(P));
    // writing through the mutable walk: value k of array i becomes i·1000 + k, read back through the members below
    std::size_t i = 0;
    (void)sarnn::for_each_array(p, [&](const char*, T* data, std::size_t n) {
        for (std::size_t k = 0; k < n; ++k) data[k] = T(double(i * 1000 + k));
        ++i;
        return false;
    });
    CHECK(i == expected.size());
    // stopping: a true from the second array ends the walk there
    std::size_t calls = 0;
    const bool stopped = sarnn::for_each_array(p, [&](const char*, const T*, std::size_t) { return ++calls == 2; });
    CHECK(calls == std::min<std::size_t>(2, expected.size()));
    CHECK(stopped == (expected.size() >= 2));
}

template <class P, class M>
std::ptrdiff_t offset_of(const P& p, const M& member) {
    return reinterpret_cast<const unsigned char*>(&member) - reinterpret_cast<const unsigned char*>(&p);
}

}  // namespace

TEST_CASE("for_each_array: every weight array of every params type, in declaration order", "[params]") {
    {
        auto p = std::make_unique<sarnn::RnnParams<float, 3, 7>>();
        check_arrays(*p, {{"A", offset_of(*p, p->A), 7 * 10}, {"b", offset_of(*p, p->b), 7}});
        CHECK(p->A[0][0] == 0.0f);
        CHECK(p->A[6][9] == 69.0f);
        CHECK(p->b[6] == 1006.0f);
    }
    {
        auto p = std::make_unique<sarnn::BilinearParams<double, 17>>();
        using P = sarnn::BilinearParams<double, 17>;
        const std::vector<Visit> got = visits(static_cast<const P&>(*p));
        REQUIRE(got.size() == 1);
        CHECK(got[0].name == "W");
        CHECK(got[0].offset == offset_of(*p, p->W));
        CHECK(got[0].count == 17u * 17u);
    }
    {
        auto p = std::make_unique<sarnn::KeyQueryParams<float, 17, 3>>();
        using P = sarnn::KeyQueryParams<float, 17, 3>;
        const std::vector<Visit> got = visits(static_cast<const P&>(*p));
        REQUIRE(got.size() == 2);
        CHECK((got[0].name == "Wk" && got[0].offset == offset_of(*p, p->Wk) && got[0].count == 3u * 17u));
        CHECK((got[1].name == "Wq" && got[1].offset == offset_of(*p, p->Wq) && got[1].count == 3u * 17u));
    }
    {
        auto p = std::make_unique<sarnn::AdditiveParams<double, 7, 33>>();
        using P = sarnn::AdditiveParams<double, 7, 33>;
        const std::vector<Visit> got = visits(static_cast<const P&>(*p));
        REQUIRE(got.size() == 2);
        CHECK((got[0].name == "W" && got[0].offset == offset_of(*p, p->W) && got[0].count == 33u * 14u));
        CHECK((got[1].name == "v" && got[1].offset == offset_of(*p, p->v) && got[1].count == 33u));
    }
    {
        auto p = std::make_unique<sarnn::LstmnParams<float, 3, 7, 5>>();
        check_arrays(*p, {{"W_ih", offset_of(*p, p->W_ih), 28 * 3},
                          {"W_hh", offset_of(*p, p->W_hh), 28 * 7},
                          {"b", offset_of(*p, p->b), 28},
                          {"W_h", offset_of(*p, p->W_h), 5 * 7},
                          {"W_x", offset_of(*p, p->W_x), 5 * 3},
                          {"W_ht", offset_of(*p, p->W_ht), 5 * 7},
                          {"v", offset_of(*p, p->v), 5}});
        CHECK(p->W_hh[27][6] == float(1000 + 27 * 7 + 6));
        CHECK(p->v[4] == 6004.0f);
    }
    {
        auto p = std::make_unique<sarnn::LstmParams<double, 4, 9>>();
        check_arrays(*p, {{"W_ih", offset_of(*p, p->W_ih), 36 * 4},
                          {"W_hh", offset_of(*p, p->W_hh), 36 * 9},
                          {"b", offset_of(*p, p->b), 36}});
    }
}
