// tests/test_bad_input.cpp: the bad-input policy, for every model (SimpleRnn, SelfAttentionRnn with each align
// and both memories, Lstmn with both memories), on every kernel set.
//
//  - x holding NaN (quiet, negative, signalling), +Inf or -Inf: Status::non_finite_input (with
//    SARNN_CHECK_INPUT), a null x: Status::null_input; either way the model is bit-identical afterwards (every
//    view and length()), and the sequence then goes on exactly as if the bad step had never been tried.
//  - Extreme finite values are not bad input: inputs of ±1e30, weights of ±2^100 (≈ 1.27e30; a power of two,
//    so that the huge attention scores the test provokes are exact and both sides break ties alike), denormals
//    (1e-40f, 1e-310), -0.0: every output finite and within the usual tolerance of the reference (tanh and
//    the gates saturate; the softmax subtracts its max, so scores of 1e30 never overflow).
//  - validate() on every params type: Status::ok on clean params (huge, denormal and -0.0 weights included), and
//    for a NaN/+Inf/-Inf planted anywhere, the array's name and the flat row-major index of the first one.
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
template <class T>
std::vector<T> non_finite_values() {
    using L = std::numeric_limits<T>;
    return {L::quiet_NaN(), -L::quiet_NaN(), L::signaling_NaN(), L::infinity(), -L::infinity()};
}

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
            try_bad(sarnn::Status::null_input, [&] { return model->step(static_cast<const T*>(nullptr)); },
                    "null x" + when);
#if SARNN_CHECK_INPUT
            const std::size_t where[] = {0, In / 2, In - 1};
            for (T bad : non_finite_values<T>()) {
                for (std::size_t k : where) {
                    std::vector<T> x = xs[at % steps];
                    x[k] = bad;
                    try_bad(sarnn::Status::non_finite_input, [&] { return model->step(x.data()); },
                            "x[" + std::to_string(k) + "] = " + std::to_string(bad) + when);
                }
                std::array<T, In> xa{};
                xa[In - 1] = bad;
                try_bad(sarnn::Status::non_finite_input, [&] { return model->step(xa); }, "std::array" + when);
            }
            // every element bad
            std::vector<T> all_bad(In, std::numeric_limits<T>::quiet_NaN());
            try_bad(sarnn::Status::non_finite_input, [&] { return model->step(all_bad.data()); }, "all NaN" + when);
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
    check_refuses_bad_x<M>([&] { return std::make_unique<M>(*p); }, window ? 2 * Capacity + 1 : Capacity + 2,
                           seed + 1, "Lstmn<" + std::string(sizeof(T) == 4 ? "float" : "double") + ", " + fam::memory_name(window) + ">");
}

// ---- extreme finite values --------------------------------------------------------------------------------
enum class Extreme {
    huge_inputs,   ///< x = ±1e30·u (u in [0.5, 1]), usual weights
    huge_weights,  ///< x-weights and align weights ±2^100, some biases ±1e30, usual x
    denormals,     ///< weights and x a mix of usual values, ±denormals, ±0.0
    negative_zero, ///< every weight and every x is -0.0
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
template <class T>
T denormal() {
    // 1e-40f for float, 1e-310 for double: below the smallest normal, above the smallest denormal
    return sizeof(T) == sizeof(float) ? static_cast<T>(1e-40f) : static_cast<T>(1e-310);
}

/// Replaces `value` by a mix of itself, ±denormals and ±0.0.
template <class T>
T denormal_mix(T value, std::mt19937& g) {
    switch (g() % 5u) {
    case 0: return denormal<T>() * static_cast<T>(1 + g() % 7u);
    case 1: return -denormal<T>();
    case 2: return T(0);
    case 3: return -T(0);
    default: return value;
    }
}
template <class T, std::size_t N>
void denormal_mix(T (&a)[N], std::mt19937& g) {
    for (T& v : a) v = denormal_mix(v, g);
}
template <class T, std::size_t R, std::size_t C>
void denormal_mix(T (&a)[R][C], std::mt19937& g) {
    for (auto& row : a) denormal_mix(row, g);
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
            case Extreme::huge_inputs: v = static_cast<T>(test::random_sign(g) * 1e30 * test::uniform(g, 0.5, 1.0)); break;
            case Extreme::huge_weights: break;
            case Extreme::denormals: v = denormal_mix(v, g); break;
            case Extreme::negative_zero: v = -T(0); break;
            }
        }
    }
    return xs;
}

/// RnnParams for a scenario (x-columns huge for huge_weights).
template <class T, std::size_t In, std::size_t Hidden>
void make_extreme(sarnn::RnnParams<T, In, Hidden>& p, Extreme e, std::mt19937& g) {
    switch (e) {
    case Extreme::huge_inputs: break;
    case Extreme::huge_weights:
        for (auto& row : p.A)
            for (std::size_t k = 0; k < In; ++k)
                row[k] = static_cast<T>(test::random_sign(g) * test::uniform(g, 0.5, 1.0)) * huge_weight<T>();
        for (std::size_t r = 0; r < Hidden; r += 3) p.b[r] = static_cast<T>(test::random_sign(g) * 1e30);
        break;
    case Extreme::denormals:
        denormal_mix(p.A, g);
        denormal_mix(p.b, g);
        break;
    case Extreme::negative_zero:
        fam::fill_value(p.A, -T(0));
        fam::fill_value(p.b, -T(0));
        break;
    }
}
inline void make_extreme(fam::NoParams&, Extreme, std::mt19937&) {}
template <class T, std::size_t Hidden>
void make_extreme(sarnn::BilinearParams<T, Hidden>& p, Extreme e, std::mt19937& g) {
    if (e == Extreme::huge_weights) random_signs(p.W, g, huge_weight<T>());  // scores: exact multiples of 2^100
    if (e == Extreme::denormals) denormal_mix(p.W, g);
    if (e == Extreme::negative_zero) fam::fill_value(p.W, -T(0));
}
template <class T, std::size_t Hidden, std::size_t K>
void make_extreme(sarnn::KeyQueryParams<T, Hidden, K>& p, Extreme e, std::mt19937& g) {
    if (e == Extreme::huge_weights) {  // Wk ±1, Wq ±2^100: (Wk h_j)·(Wq h_i) exact multiples of 2^100 (h = ±1)
        random_signs(p.Wk, g, T(1));
        random_signs(p.Wq, g, huge_weight<T>());
    }
    if (e == Extreme::denormals) {
        denormal_mix(p.Wk, g);
        denormal_mix(p.Wq, g);
    }
    if (e == Extreme::negative_zero) {
        fam::fill_value(p.Wk, -T(0));
        fam::fill_value(p.Wq, -T(0));
    }
}
template <class T, std::size_t Hidden, std::size_t K>
void make_extreme(sarnn::AdditiveParams<T, Hidden, K>& p, Extreme e, std::mt19937& g) {
    if (e == Extreme::huge_weights) random_signs(p.W, g, huge_weight<T>());  // tanh of exact multiples of 2^100
    if (e == Extreme::denormals) {
        denormal_mix(p.W, g);
        denormal_mix(p.v, g);
    }
    if (e == Extreme::negative_zero) {
        fam::fill_value(p.W, -T(0));
        fam::fill_value(p.v, -T(0));
    }
}
template <class T, std::size_t In, std::size_t Hidden, std::size_t K>
void make_extreme(sarnn::LstmnParams<T, In, Hidden, K>& p, Extreme e, std::mt19937& g) {
    switch (e) {
    case Extreme::huge_inputs: break;
    case Extreme::huge_weights:
        // gates and attention saturate; W_hh, W_h, W_ht stay usual (their inputs are not exact)
        for (auto& row : p.W_ih)
            for (T& v : row) v = static_cast<T>(test::random_sign(g) * test::uniform(g, 0.5, 1.0)) * huge_weight<T>();
        for (auto& row : p.W_x)
            for (T& v : row) v = static_cast<T>(test::random_sign(g) * test::uniform(g, 0.5, 1.0)) * huge_weight<T>();
        for (std::size_t r = 0; r < 4 * Hidden; r += 5) p.b[r] = static_cast<T>(test::random_sign(g) * 1e30);
        break;
    case Extreme::denormals:
        denormal_mix(p.W_ih, g);
        denormal_mix(p.W_hh, g);
        denormal_mix(p.b, g);
        denormal_mix(p.W_h, g);
        denormal_mix(p.W_x, g);
        denormal_mix(p.W_ht, g);
        denormal_mix(p.v, g);
        break;
    case Extreme::negative_zero:
        fam::fill_value(p.W_ih, -T(0));
        fam::fill_value(p.W_hh, -T(0));
        fam::fill_value(p.b, -T(0));
        fam::fill_value(p.W_h, -T(0));
        fam::fill_value(p.W_x, -T(0));
        fam::fill_value(p.W_ht, -T(0));
        fam::fill_value(p.v, -T(0));
        break;
    }
}

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
        const auto xs_d = fam::to_vecs(xs);
        const ref::Weights w = kit.weights();
        const auto align = kit.reference_align();
        std::vector<ref::Vec> scalar_trace;
        test::for_each_arch([&](sarnn::Arch arch) {
            auto model = kit.make();
            const std::vector<fam::Record> trace = fam::run_and_record(*model, xs);
            bool finite = true;
            for (const fam::Record& r : trace)
                for (const ref::Vec* v : {&r.h, &r.c, &r.alpha})
                    for (double d : *v)
                        if (!std::isfinite(d)) finite = false;
            INFO(S::label() << ", " << name(e));
            CHECK(finite);
            fam::TraceSpec spec;
            spec.capacity = Capacity;
            spec.window = S::window;
            spec.tol = ref::tol<T>();
            spec.c1_tol = ref::c1_tol<T>();
            spec.arch = arch;
            spec.label = S::label() + ", " + name(e);
            fam::check_sar_trace(trace, xs_d, w, align, spec, scalar_trace);
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
        const std::string label =
            std::string("Lstmn<") + (sizeof(T) == 4 ? "float" : "double") + ", " + fam::memory_name(window) + ">, " + name(e);
        test::for_each_arch([&](sarnn::Arch arch) {
            auto model = std::make_unique<M>(*p);
            const std::vector<fam::Record> trace = fam::run_and_record(*model, xs);
            bool finite = true;
            for (const fam::Record& r : trace)
                for (const ref::Vec* v : {&r.h, &r.c, &r.alpha})
                    for (double d : *v)
                        if (!std::isfinite(d)) finite = false;
            INFO(label);
            CHECK(finite);
            fam::TraceSpec spec;
            spec.capacity = Capacity;
            spec.window = window;
            spec.tol = ref::tol<T>();
            spec.arch = arch;
            spec.label = label;
            fam::check_lstmn_trace(trace, fam::to_vecs(xs), w, spec, scalar_trace);
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
        INFO("SimpleRnn<" << (sizeof(T) == 4 ? "float" : "double") << ", " << In << ", " << Hidden << ">, "
                          << name(e));
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

// ---- validate() ----------------------------------------------------------------------------------------------
template <class T>
struct Array {
    const char* name;
    T* data;
    std::size_t size;
};
template <class T, std::size_t N>
Array<T> array(const char* name, T (&a)[N]) {
    return {name, a, N};
}
template <class T, std::size_t R, std::size_t C>
Array<T> array(const char* name, T (&a)[R][C]) {
    return {name, &a[0][0], R * C};
}

/// validate(p) with `arrays` (p's arrays in declaration order): ok when clean (also with huge, denormal and -0.0
/// entries); the array and flat index of a planted NaN/+Inf/-Inf at the first, a middle and the last index of
/// every array; the first of two planted values (by declaration order, then by index).
template <class P, class T>
void check_validate(P& p, const std::vector<Array<T>>& arrays, const std::string& label) {
    INFO(label);
    auto ok = [&] {
        const sarnn::Validation v = sarnn::validate(p);
        return v.status == sarnn::Status::ok && static_cast<bool>(v);
    };
    CHECK(ok());
    // extreme finite values are fine
    for (const Array<T>& a : arrays) {
        const T saved[3] = {a.data[0], a.data[a.size / 2], a.data[a.size - 1]};
        a.data[0] = std::numeric_limits<T>::max();
        a.data[a.size / 2] = denormal<T>();
        a.data[a.size - 1] = -T(0);
        CHECK(ok());
        a.data[a.size - 1] = saved[2];
        a.data[a.size / 2] = saved[1];
        a.data[0] = saved[0];
    }
    CHECK(ok());

    bool all_named = true;
    std::string first_problem;
    for (std::size_t ai = 0; ai < arrays.size(); ++ai) {
        const Array<T>& a = arrays[ai];
        for (T bad : non_finite_values<T>()) {
            for (std::size_t k : {std::size_t{0}, a.size / 2, a.size - 1}) {
                const T saved = a.data[k];
                a.data[k] = bad;
                const sarnn::Validation v = sarnn::validate(p);
                const bool right = v.status == sarnn::Status::non_finite_param && !static_cast<bool>(v) &&
                                   v.array != nullptr && std::string(v.array) == a.name && v.index == k;
                if (!right && all_named) {
                    all_named = false;
                    first_problem = std::string("planted in ") + a.name + "[" + std::to_string(k) + "], got " +
                                    sarnn::to_string(v.status) + " " + (v.array ? v.array : "(null)") + "[" +
                                    std::to_string(v.index) + "]";
                }
                // a second bad value later in the same array, or in a later array: the first is reported
                if (k + 1 < a.size) {
                    const T saved2 = a.data[a.size - 1];
                    a.data[a.size - 1] = bad;
                    const sarnn::Validation v2 = sarnn::validate(p);
                    if (!(v2.array != nullptr && std::string(v2.array) == a.name && v2.index == k) && all_named) {
                        all_named = false;
                        first_problem = std::string("two planted in ") + a.name + ": reported index " + std::to_string(v2.index);
                    }
                    a.data[a.size - 1] = saved2;
                }
                if (ai + 1 < arrays.size()) {
                    const Array<T>& later = arrays.back();
                    const T saved3 = later.data[0];
                    later.data[0] = bad;
                    const sarnn::Validation v3 = sarnn::validate(p);
                    if (!(v3.array != nullptr && std::string(v3.array) == a.name && v3.index == k) && all_named) {
                        all_named = false;
                        first_problem = std::string("planted in ") + a.name + " and " + later.name + ": reported " +
                                        (v3.array ? v3.array : "(null)");
                    }
                    later.data[0] = saved3;
                }
                a.data[k] = saved;
            }
        }
    }
    INFO("first problem: " << first_problem);
    CHECK(all_named);
    CHECK(ok());
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

TEST_CASE("validate() names the array and index of the first NaN/Inf weight", "[validate]") {
    {
        auto p = test::make_params<float, 3, 5>(test::Weights::scaled, 70);
        check_validate(*p, std::vector<Array<float>>{array("A", p->A), array("b", p->b)}, "RnnParams<float, 3, 5>");
    }
    {
        auto p = test::make_params<double, 1, 1>(test::Weights::scaled, 71);
        check_validate(*p, std::vector<Array<double>>{array("A", p->A), array("b", p->b)}, "RnnParams<double, 1, 1>");
    }
    {
        auto p = fam::AlignKit<sarnn::BilinearAlign>::make<float, 7>(1.0, 72);
        check_validate(*p, std::vector<Array<float>>{array("W", p->W)}, "BilinearParams<float, 7>");
    }
    {
        auto p = fam::AlignKit<sarnn::KeyQueryAlign<5>>::make<double, 3>(1.0, 73);
        check_validate(*p, std::vector<Array<double>>{array("Wk", p->Wk), array("Wq", p->Wq)},
                       "KeyQueryParams<double, 3, 5>");
    }
    {
        auto p = fam::AlignKit<sarnn::AdditiveAlign<4>>::make<float, 6>(1.0, 74);
        check_validate(*p, std::vector<Array<float>>{array("W", p->W), array("v", p->v)}, "AdditiveParams<float, 6, 4>");
    }
    {
        auto p = fam::make_lstmn_params<float, 3, 5, 4>(fam::LstmnWeightsKind::scaled, 75);
        check_validate(*p,
                       std::vector<Array<float>>{array("W_ih", p->W_ih), array("W_hh", p->W_hh), array("b", p->b),
                                                 array("W_h", p->W_h), array("W_x", p->W_x), array("W_ht", p->W_ht),
                                                 array("v", p->v)},
                       "LstmnParams<float, 3, 5, 4>");
    }
    {
        auto p = fam::make_lstmn_params<double, 1, 1, 1>(fam::LstmnWeightsKind::large, 76);
        check_validate(*p,
                       std::vector<Array<double>>{array("W_ih", p->W_ih), array("W_hh", p->W_hh), array("b", p->b),
                                                  array("W_h", p->W_h), array("W_x", p->W_x), array("W_ht", p->W_ht),
                                                  array("v", p->v)},
                       "LstmnParams<double, 1, 1, 1>");
    }
}

TEST_CASE("validate() works on constexpr params", "[validate]") {
    static constexpr sarnn::RnnParams<float, 1, 1> kClean{{{0.5f, 0.25f}}, {0.1f}};
    static constexpr sarnn::RnnParams<float, 1, 1> kBad{{{0.5f, std::numeric_limits<float>::infinity()}}, {0.1f}};
    CHECK(sarnn::validate(kClean).status == sarnn::Status::ok);
    const sarnn::Validation v = sarnn::validate(kBad);
    CHECK(v.status == sarnn::Status::non_finite_param);
    REQUIRE(v.array != nullptr);
    CHECK(std::string(v.array) == "A");
    CHECK(v.index == 1);
    CHECK(std::string(sarnn::to_string(v.status)) == "non_finite_param");
}
