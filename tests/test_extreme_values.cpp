// tests/test_extreme_values.cpp: extreme finite values are not bad input, for every model on every kernel set:
// inputs of ±1e30, weights of ±2^100 (≈ 1.27e30; a power of two, so that the huge attention scores the test
// provokes are exact and both sides break ties alike), denormals (1e-40f, 1e-310), -0.0: every output finite and
// within the usual tolerance of the reference (tanh and the gates saturate; the softmax subtracts its max, so
// scores of 1e30 never overflow).
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

// ---- extreme finite values --------------------------------------------------------------------------------
enum class Extreme {
    huge_inputs,    ///< x = ±1e30·u (u in [0.5, 1]), usual weights
    huge_weights,   ///< x-weights and align weights ±2^100, some biases ±1e30, usual x
    denormals,      ///< weights and x a mix of usual values, ±denormals, ±0.0
    negative_zero,  ///< every weight and every x is -0.0
};
constexpr std::array<Extreme, 4> kAllExtremes = {Extreme::huge_inputs, Extreme::huge_weights, Extreme::denormals,
                                                 Extreme::negative_zero};
const char* name(Extreme e) {
    switch (e) {
    case Extreme::huge_inputs: return "huge inputs (1e30)";
    case Extreme::huge_weights: return "huge weights (2^100)";
    case Extreme::denormals: return "denormals";
    case Extreme::negative_zero: return "-0.0";
    }
    return "?";
}

template <class T>
T huge_weight() {
    return static_cast<T>(std::ldexp(1.0, 100));
}

/// Replaces `value` by a mix of itself, ±denormals and ±0.0.
template <class T>
T denormal_mix(T value, std::mt19937& g) {
    switch (g() % 5u) {
    case 0: return test::denormal<T>() * static_cast<T>(1 + g() % 7u);
    case 1: return -test::denormal<T>();
    case 2: return T(0);
    case 3: return -T(0);
    default: return value;
    }
}
template <class T, std::size_t N>
void random_signs(T (&a)[N], std::mt19937& g, T magnitude) {
    for (T& v : a) v = (g() & 1u) ? magnitude : -magnitude;
}
template <class T, std::size_t R, std::size_t C>
void random_signs(T (&a)[R][C], std::mt19937& g, T magnitude) {
    for (auto& row : a) random_signs(row, g, magnitude);
}

template <class T>
std::vector<std::vector<T>> extreme_inputs(Extreme e, std::size_t n, std::size_t in, std::uint32_t seed) {
    auto xs = test::make_inputs<T>(test::Weights::scaled, n, in, seed);
    std::mt19937 g(seed + 1);
    for (auto& x : xs) {
        for (T& v : x) {
            switch (e) {
            case Extreme::huge_inputs:
                v = static_cast<T>(test::random_sign(g) * 1e30 * test::uniform(g, 0.5, 1.0));
                break;
            case Extreme::huge_weights: break;
            case Extreme::denormals: v = denormal_mix(v, g); break;
            case Extreme::negative_zero: v = -T(0); break;
            }
        }
    }
    return xs;
}

// ---- params for a scenario ----------------------------------------------------------------------------------------
// Denormals and -0.0 go into every weight of any params type alike; huge weights are placed per type, where they keep
// the arithmetic exact (make_huge).

/// RnnParams: the x-columns of A huge, and every third b.
template <class T, std::size_t In, std::size_t Hidden>
void make_huge(sarnn::RnnParams<T, In, Hidden>& p, std::mt19937& g) {
    for (auto& row : p.A)
        for (std::size_t k = 0; k < In; ++k)
            row[k] = static_cast<T>(test::random_sign(g) * test::uniform(g, 0.5, 1.0)) * huge_weight<T>();
    for (std::size_t r = 0; r < Hidden; r += 3) p.b[r] = static_cast<T>(test::random_sign(g) * 1e30);
}
template <class T, std::size_t Hidden>
void make_huge(sarnn::BilinearParams<T, Hidden>& p, std::mt19937& g) {
    random_signs(p.W, g, huge_weight<T>());  // scores: exact multiples of 2^100
}
template <class T, std::size_t Hidden, std::size_t K>
void make_huge(sarnn::KeyQueryParams<T, Hidden, K>& p, std::mt19937& g) {
    // Wk ±1, Wq ±2^100: (Wk h_j)·(Wq h_i) exact multiples of 2^100 (h = ±1)
    random_signs(p.Wk, g, T(1));
    random_signs(p.Wq, g, huge_weight<T>());
}
template <class T, std::size_t Hidden, std::size_t K>
void make_huge(sarnn::AdditiveParams<T, Hidden, K>& p, std::mt19937& g) {
    random_signs(p.W, g, huge_weight<T>());  // tanh of exact multiples of 2^100
}
/// LstmnParams: gates and attention saturate; W_hh, W_h, W_ht stay usual (their inputs are not exact).
template <class T, std::size_t In, std::size_t Hidden, std::size_t K>
void make_huge(sarnn::LstmnParams<T, In, Hidden, K>& p, std::mt19937& g) {
    for (auto& row : p.W_ih)
        for (T& v : row) v = static_cast<T>(test::random_sign(g) * test::uniform(g, 0.5, 1.0)) * huge_weight<T>();
    for (auto& row : p.W_x)
        for (T& v : row) v = static_cast<T>(test::random_sign(g) * test::uniform(g, 0.5, 1.0)) * huge_weight<T>();
    for (std::size_t r = 0; r < 4 * Hidden; r += 5) p.b[r] = static_cast<T>(test::random_sign(g) * 1e30);
}

/// p for scenario e: denormals mixed into every weight, -0.0 everywhere, or huge weights where make_huge puts them.
template <class P>
void make_extreme(P& p, Extreme e, std::mt19937& g) {
    switch (e) {
    case Extreme::huge_inputs: break;
    case Extreme::huge_weights: make_huge(p, g); break;
    case Extreme::denormals:
        (void)sarnn::for_each_array(p, [&g](const char*, auto* a, std::size_t n) {
            for (std::size_t k = 0; k < n; ++k) a[k] = denormal_mix(a[k], g);
            return false;
        });
        break;
    case Extreme::negative_zero:
        (void)sarnn::for_each_array(p, [](const char*, auto* a, std::size_t n) {
            using T = std::remove_pointer_t<decltype(a)>;
            for (std::size_t k = 0; k < n; ++k) a[k] = -T(0);
            return false;
        });
        break;
    }
}
inline void make_extreme(fam::NoParams&, Extreme, std::mt19937&) {}

template <class T, std::size_t In, std::size_t Hidden, std::size_t Capacity, class Align, class Memory>
void check_sar_extremes(std::uint32_t seed) {
    using S = fam::Sar<T, In, Hidden, Capacity, Align, Memory>;
    const std::size_t steps = S::window ? 2 * Capacity + 3 : Capacity;
    for (Extreme e : kAllExtremes) {
        S kit(test::Weights::scaled, seed);
        std::mt19937 g(seed + 2);
        make_extreme(*kit.params, e, g);
        make_extreme(*kit.align_params, e, g);
        const auto xs = extreme_inputs<T>(e, steps, In, seed + 3);
        const auto xs_d = test::to_vecs(xs);
        const ref::Weights w = kit.weights();
        const auto align = kit.reference_align();
        std::vector<ref::Vec> scalar_trace;
        test::for_each_arch([&](sarnn::Arch arch) {
            auto model = kit.make();
            const std::vector<test::Record> trace = test::run_and_record(*model, xs);
            bool finite = true;
            for (const test::Record& r : trace)
                for (const ref::Vec* v : {&r.h, &r.c, &r.alpha})
                    for (double d : *v)
                        if (!std::isfinite(d)) finite = false;
            INFO(S::label() << ", " << name(e));
            CHECK(finite);
            test::TraceSpec spec;
            spec.capacity = Capacity;
            spec.window = S::window;
            spec.tol = ref::tol<T>();
            spec.c1_tol = ref::c1_tol<T>();
            spec.arch = arch;
            spec.label = S::label() + ", " + name(e);
            test::check_sar_trace(trace, xs_d, w, align, spec, scalar_trace);
        });
    }
}

template <class T, std::size_t In, std::size_t Hidden, std::size_t Capacity, std::size_t K, class Memory>
void check_lstmn_extremes(std::uint32_t seed) {
    using M = sarnn::Lstmn<T, In, Hidden, Capacity, K, Memory>;
    constexpr bool window = std::is_same_v<Memory, sarnn::Window>;
    const std::size_t steps = window ? 2 * Capacity + 3 : Capacity;
    for (Extreme e : kAllExtremes) {
        auto p = fam::make_lstmn_params<T, In, Hidden, K>(fam::LstmnWeightsKind::scaled, seed);
        std::mt19937 g(seed + 2);
        make_extreme(*p, e, g);
        const auto xs = extreme_inputs<T>(e, steps, In, seed + 3);
        const ref::LstmnWeights w = ref::lstmn_weights_of(*p);
        std::vector<ref::Vec> scalar_trace;
        const std::string label = std::string("Lstmn<") + (sizeof(T) == 4 ? "float" : "double") + ", " +
                                  fam::memory_name(window) + ">, " + name(e);
        test::for_each_arch([&](sarnn::Arch arch) {
            auto model = std::make_unique<M>(*p);
            const std::vector<test::Record> trace = test::run_and_record(*model, xs);
            bool finite = true;
            for (const test::Record& r : trace)
                for (const ref::Vec* v : {&r.h, &r.c, &r.alpha})
                    for (double d : *v)
                        if (!std::isfinite(d)) finite = false;
            INFO(label);
            CHECK(finite);
            test::TraceSpec spec;
            spec.capacity = Capacity;
            spec.window = window;
            spec.tol = ref::tol<T>();
            spec.arch = arch;
            spec.label = label;
            test::check_lstmn_trace(trace, test::to_vecs(xs), w, spec, scalar_trace);
        });
    }
}

template <class T, std::size_t In, std::size_t Hidden>
void check_simple_rnn_extremes(std::uint32_t seed) {
    constexpr std::size_t Steps = 12;
    for (Extreme e : kAllExtremes) {
        auto p = test::make_params<T, In, Hidden>(test::Weights::scaled, seed);
        std::mt19937 g(seed + 2);
        make_extreme(*p, e, g);
        const auto xs = extreme_inputs<T>(e, Steps, In, seed + 3);
        const ref::Weights w = ref::weights_of(*p, In, Hidden);
        INFO("SimpleRnn<" << (sizeof(T) == 4 ? "float" : "double") << ", " << In << ", " << Hidden << ">, " << name(e));
        test::for_each_arch([&](sarnn::Arch) {
            sarnn::SimpleRnn<T, In, Hidden> model{*p};
            ref::SimpleRnn reference(w);
            test::MaxError teacher, free;
            ref::Vec h_prev(Hidden, 0.0);
            for (std::size_t i = 0; i < Steps; ++i) {
                REQUIRE(model.step(xs[i].data()) == sarnn::Status::ok);
                const ref::Vec x = test::to_vec(xs[i]);
                const ref::Vec h = test::to_vec(model.hidden());
                teacher.add(h, ref::rnn_cell(w, x, h_prev), i + 1, "h");
                free.add(h, reference.step(x), i + 1, "h");
                h_prev = h;
            }
            INFO("teacher-forced, worst: " << teacher.where << "; free-running, worst: " << free.where);
            CHECK(teacher.all_finite);
            CHECK(teacher.max <= ref::tol<T>());
            CHECK(free.max <= ref::tol<T>());
        });
    }
}

}  // namespace

TEST_CASE("Huge, denormal and signed-zero values give finite outputs close to the reference", "[input][extreme]") {
    SECTION("SimpleRnn") {
        check_simple_rnn_extremes<float, 3, 7>(40);
        check_simple_rnn_extremes<double, 1, 17>(41);
    }
    SECTION("SelfAttentionRnn, every align") {
        check_sar_extremes<float, 3, 7, 6, sarnn::DotAlign, sarnn::Bounded>(50);
        check_sar_extremes<double, 2, 17, 5, sarnn::DotAlign, sarnn::Window>(51);
        check_sar_extremes<float, 1, 33, 5, sarnn::ScaledDotAlign, sarnn::Window>(52);
        check_sar_extremes<float, 3, 7, 6, sarnn::BilinearAlign, sarnn::Bounded>(53);
        check_sar_extremes<double, 2, 33, 5, sarnn::BilinearAlign, sarnn::Window>(54);
        check_sar_extremes<float, 2, 5, 7, sarnn::KeyQueryAlign<17>, sarnn::Window>(55);
        check_sar_extremes<double, 3, 17, 6, sarnn::KeyQueryAlign<7>, sarnn::Bounded>(56);
        check_sar_extremes<float, 1, 5, 6, sarnn::AdditiveAlign<33>, sarnn::Bounded>(57);
        check_sar_extremes<double, 3, 7, 5, sarnn::AdditiveAlign<5>, sarnn::Window>(58);
    }
    SECTION("Lstmn") {
        check_lstmn_extremes<float, 3, 7, 6, 5, sarnn::Bounded>(60);
        check_lstmn_extremes<float, 1, 17, 4, 33, sarnn::Window>(61);
        check_lstmn_extremes<double, 7, 5, 5, 7, sarnn::Window>(62);
        check_lstmn_extremes<double, 3, 33, 6, 1, sarnn::Bounded>(63);
    }
}
