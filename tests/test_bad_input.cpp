// tests/test_bad_input.cpp: the bad-input policy, for every model (SimpleRnn, SelfAttentionRnn with each align
// and both memories, Lstmn with both memories), on every kernel set: x holding NaN (quiet, negative, signalling),
// +Inf or -Inf gives Status::non_finite_input (with SARNN_CHECK_INPUT), a null x Status::null_input; either way the
// model is bit-identical afterwards (every view and length()), and the sequence then goes on exactly as if the bad
// step had never been tried. (Extreme finite values: test_extreme_values.cpp; validate(): test_validate.cpp.)
#include <catch2/catch.hpp>

#include <sarnn/sarnn.hpp>

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "family_support.hpp"
#include "reference.hpp"
#include "reference_family.hpp"
#include "support.hpp"

namespace {

// ---- NaN / Inf / null x --------------------------------------------------------------------------------------

/// True when step() would refuse with memory_full (a full Bounded memory): then that status may win.
template <class T, std::size_t In, std::size_t Hidden>
bool bounded_full(const sarnn::SimpleRnn<T, In, Hidden>&) {
    return false;
}
template <class T, std::size_t In, std::size_t Hidden, std::size_t Capacity, class Align, class Memory>
bool bounded_full(const sarnn::SelfAttentionRnn<T, In, Hidden, Capacity, Align, Memory>& m) {
    return std::is_same_v<Memory, sarnn::Bounded> && m.full();
}
template <class T, std::size_t In, std::size_t Hidden, std::size_t Capacity, std::size_t K, class Memory>
bool bounded_full(const sarnn::Lstmn<T, In, Hidden, Capacity, K, Memory>& m) {
    return std::is_same_v<Memory, sarnn::Bounded> && m.full();
}

/// Bad x on an empty model, after every step (mid-sequence; for a Window also once it has wrapped; for a
/// Bounded memory also once it is full, where memory_full may be reported instead) and through the
/// std::array overload: refused, nothing changed, and the run goes on bit-identical to a clean one.
template <class Model, class Make>
void check_refuses_bad_x(const Make& make, std::size_t steps, std::uint32_t seed, const std::string& label) {
    using T = typename Model::value_type;
    constexpr std::size_t In = Model::in_size;
    INFO(label);
    const auto xs = test::make_inputs<T>(test::Weights::scaled, steps, In, seed);
    test::for_each_arch([&](sarnn::Arch) {
        auto clean = make();
        auto model = make();
        bool refused_ok = true, unchanged = true, same_course = true;
        std::string first_problem;
        auto note = [&](bool& flag, const std::string& what) {
            if (flag && first_problem.empty()) first_problem = what;
            flag = false;
        };
        auto try_bad = [&](sarnn::Status want, auto&& call, const std::string& what) {
            const auto before = fam::state_bytes(*model);
            const sarnn::Status got = call();
            const bool full_bounded = bounded_full(*model) && got == sarnn::Status::memory_full;
            if (got != want && !full_bounded) note(refused_ok, what + ": status " + sarnn::to_string(got));
            if (fam::state_bytes(*model) != before) note(unchanged, what + ": state changed");
        };
        auto try_all_bad = [&](std::size_t at) {
            const std::string when = " after " + std::to_string(at) + " steps";
            try_bad(
                sarnn::Status::null_input, [&] { return model->step(static_cast<const T*>(nullptr)); },
                "null x" + when);
#if SARNN_CHECK_INPUT
            const std::size_t where[] = {0, In / 2, In - 1};
            for (T bad : test::non_finite_values<T>()) {
                for (std::size_t k : where) {
                    std::vector<T> x = xs[at % steps];
                    x[k] = bad;
                    try_bad(
                        sarnn::Status::non_finite_input, [&] { return model->step(x.data()); },
                        "x[" + std::to_string(k) + "] = " + std::to_string(bad) + when);
                }
                std::array<T, In> xa{};
                xa[In - 1] = bad;
                try_bad(
                    sarnn::Status::non_finite_input, [&] { return model->step(xa); }, "std::array" + when);
            }
            // every element bad
            std::vector<T> all_bad(In, std::numeric_limits<T>::quiet_NaN());
            try_bad(
                sarnn::Status::non_finite_input, [&] { return model->step(all_bad.data()); }, "all NaN" + when);
#else
            // without the check (docs/api.md): a NaN input reaches the pre-activation (or the LSTMN's query) and the
            // step is refused as non_finite_result, nothing changed
            std::vector<T> all_bad(In, std::numeric_limits<T>::quiet_NaN());
            try_bad(
                sarnn::Status::non_finite_result, [&] { return model->step(all_bad.data()); }, "all NaN" + when);
#endif
        };

        try_all_bad(0);
        for (std::size_t i = 0; i < steps; ++i) {
            const sarnn::Status sc = clean->step(xs[i].data());
            const sarnn::Status sm = model->step(xs[i].data());
            if (sc != sm || fam::state_bytes(*clean) != fam::state_bytes(*model))
                note(same_course, "differs from the clean run at step " + std::to_string(i + 1));
            try_all_bad(i + 1);
        }
        INFO("first problem: " << first_problem);
        CHECK(refused_ok);
        CHECK(unchanged);
        CHECK(same_course);
    });
}

template <class T, std::size_t In, std::size_t Hidden, std::size_t Capacity, class Align, class Memory>
void check_sar_refuses_bad_x(std::uint32_t seed) {
    using S = fam::Sar<T, In, Hidden, Capacity, Align, Memory>;
    const S kit(test::Weights::scaled, seed);
    // Bounded: past full; Window: wraps twice
    check_refuses_bad_x<typename S::Model>([&] { return kit.make(); }, S::window ? 2 * Capacity + 1 : Capacity + 2,
                                           seed + 1, S::label());
}

template <class T, std::size_t In, std::size_t Hidden, std::size_t Capacity, std::size_t K, class Memory>
void check_lstmn_refuses_bad_x(std::uint32_t seed) {
    using M = sarnn::Lstmn<T, In, Hidden, Capacity, K, Memory>;
    const auto p = fam::make_lstmn_params<T, In, Hidden, K>(fam::LstmnWeightsKind::scaled, seed);
    const bool window = std::is_same_v<Memory, sarnn::Window>;
    check_refuses_bad_x<M>(
        [&] { return std::make_unique<M>(*p); }, window ? 2 * Capacity + 1 : Capacity + 2, seed + 1,
        "Lstmn<" + std::string(sizeof(T) == 4 ? "float" : "double") + ", " + fam::memory_name(window) + ">");
}

}  // namespace

TEST_CASE("Every model refuses NaN, Inf and null input and changes nothing", "[input]") {
    SECTION("SimpleRnn") {
        using A = sarnn::SimpleRnn<float, 3, 7>;
        const auto pa = test::make_params<float, 3, 7>(test::Weights::scaled, 10);
        check_refuses_bad_x<A>([&] { return std::make_unique<A>(*pa); }, 6, 11, "SimpleRnn<float, 3, 7>");
        using B = sarnn::SimpleRnn<double, 1, 17>;
        const auto pb = test::make_params<double, 1, 17>(test::Weights::scaled, 12);
        check_refuses_bad_x<B>([&] { return std::make_unique<B>(*pb); }, 6, 13, "SimpleRnn<double, 1, 17>");
    }
    SECTION("SelfAttentionRnn, every align, Bounded and Window") {
        check_sar_refuses_bad_x<float, 3, 5, 4, sarnn::DotAlign, sarnn::Bounded>(20);
        check_sar_refuses_bad_x<double, 2, 7, 3, sarnn::DotAlign, sarnn::Window>(21);
        check_sar_refuses_bad_x<float, 1, 17, 4, sarnn::ScaledDotAlign, sarnn::Window>(22);
        check_sar_refuses_bad_x<double, 3, 5, 3, sarnn::ScaledDotAlign, sarnn::Bounded>(23);
        check_sar_refuses_bad_x<float, 3, 7, 4, sarnn::BilinearAlign, sarnn::Bounded>(24);
        check_sar_refuses_bad_x<double, 2, 5, 3, sarnn::BilinearAlign, sarnn::Window>(25);
        check_sar_refuses_bad_x<float, 7, 5, 3, sarnn::KeyQueryAlign<7>, sarnn::Window>(26);
        check_sar_refuses_bad_x<double, 1, 33, 4, sarnn::KeyQueryAlign<5>, sarnn::Bounded>(27);
        check_sar_refuses_bad_x<float, 3, 7, 4, sarnn::AdditiveAlign<5>, sarnn::Window>(28);
        check_sar_refuses_bad_x<double, 2, 17, 3, sarnn::AdditiveAlign<1>, sarnn::Bounded>(29);
    }
    SECTION("Lstmn, Bounded and Window") {
        check_lstmn_refuses_bad_x<float, 3, 7, 4, 5, sarnn::Bounded>(30);
        check_lstmn_refuses_bad_x<float, 1, 5, 3, 17, sarnn::Window>(31);
        check_lstmn_refuses_bad_x<double, 7, 17, 3, 1, sarnn::Window>(32);
        check_lstmn_refuses_bad_x<double, 3, 1, 4, 7, sarnn::Bounded>(33);
    }
}
