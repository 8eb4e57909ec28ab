// tests/test_length.cpp: length() is a 64-bit count on every target. With a 32-bit size_t (i686, armhf, Cortex-M) a
// size_t counter wrapped to 0 after 2^32 steps (49.7 days at 1 kHz), and the LSTMN's attention() was empty for that
// step. Here each model's counter is set to 2^32 - 2 (through sarnn::detail::Access, the friend that memory.hpp
// declares for such uses and that only a program defining it can reach), then stepped past 2^32: length() counts on,
// the LSTMN's attention keeps its weights, and the steps give what a model that never jumped gives.
#include <catch2/catch.hpp>

#include <sarnn/sarnn.hpp>

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "family_support.hpp"
#include "support.hpp"

namespace sarnn::detail {
struct Access {
    template <class M>
    static void set_steps(M& m, std::uint64_t n) {
        m.length_ = n;
    }
};
}  // namespace sarnn::detail

namespace {

constexpr std::uint64_t kWrap = std::uint64_t{1} << 32;

const float kXs[4][2] = {{0.5f, -0.25f}, {-1.0f, 0.75f}, {0.125f, 0.5f}, {0.25f, -0.5f}};

/// m stepped over kXs with its counter moved to 2^32 - 2 after the first step: the counts 2^32 - 1, 2^32, 2^32 + 1
/// follow, and every view equals that of `plain`, the same model stepped without the jump.
template <class M, class Check>
void check_past_wrap(M& m, M& plain, Check&& same) {
    CHECK(std::is_same_v<decltype(m.length()), std::uint64_t>);
    REQUIRE(m.step(kXs[0]) == sarnn::Status::ok);
    REQUIRE(plain.step(kXs[0]) == sarnn::Status::ok);
    sarnn::detail::Access::set_steps(m, kWrap - 2);
    for (std::size_t t = 1; t < 4; ++t) {
        REQUIRE(m.step(kXs[t]) == sarnn::Status::ok);
        REQUIRE(plain.step(kXs[t]) == sarnn::Status::ok);
        CHECK(m.length() == kWrap - 2 + t);
        CHECK(same(m, plain));
    }
    m.reset();
    CHECK(m.length() == 0);
}

template <class V>
bool equal(const V& a, const V& b) {
    if (a.size() != b.size()) return false;
    for (std::size_t k = 0; k < a.size(); ++k)
        if (!(a[k] == b[k])) return false;
    return true;
}

}  // namespace

TEST_CASE("length() is a 64-bit count: past 2^32 steps it counts on, the views unaffected", "[length]") {
    {
        auto p = test::make_params<float, 2, 3>(test::Weights::scaled, 11);
        sarnn::SimpleRnn<float, 2, 3> m(*p), plain(*p);
        check_past_wrap(m, plain, [](const auto& a, const auto& b) { return equal(a.hidden(), b.hidden()); });
    }
    {
        auto p = test::make_params<float, 2, 3>(test::Weights::scaled, 12);
        sarnn::SelfAttentionRnn<float, 2, 3, 2, sarnn::DotAlign, sarnn::Window> m(*p), plain(*p);
        check_past_wrap(m, plain, [](const auto& a, const auto& b) {
            return equal(a.hidden(), b.hidden()) && equal(a.context(), b.context()) &&
                   equal(a.attention(), b.attention());
        });
    }
    {
        // the LSTMN: attention() is over the tape before the step, empty only at length 0; a wrapped counter made it
        // empty at 2^32
        auto p = fam::make_lstmn_params<float, 2, 3, 2>(fam::LstmnWeightsKind::scaled, 13);
        sarnn::Lstmn<float, 2, 3, 2, 2, sarnn::Window> m(*p), plain(*p);
        check_past_wrap(m, plain, [](const auto& a, const auto& b) {
            return !a.attention().empty() && equal(a.hidden(), b.hidden()) && equal(a.cell(), b.cell()) &&
                   equal(a.attention(), b.attention());
        });
    }
}
