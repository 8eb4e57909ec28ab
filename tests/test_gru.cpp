// tests/test_gru.cpp: Gru (float, double) against a double-precision GRU written here from PyTorch's equations, on
// every kernel set this build runs and on Dispatch: shapes In, Hidden in {1, 3, 7, 17, 33}, teacher-forced (each
// step from the model's own h) and free-running over 1,200 steps, extreme inputs (huge finite ones saturate every
// gate; NaN, ±inf and null are refused and change nothing), a non-finite result refused, reset(), run(), the
// std::array overload, params kept by reference. Gru<q15> is checked bit for bit against its twin in
// test_q15_models.cpp. And torch.nn.GRU's own outputs (gru_torch_golden.hpp, tests/python/gen_gru_golden.py).
#include <catch2/catch.hpp>

#include <sarnn/sarnn.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "gru_torch_golden.hpp"
#include "reference.hpp"
#include "support.hpp"

namespace {

using Vec = std::vector<double>;

/// The GRU's weights in double, PyTorch's layout: rows r, z, n.
struct GruWeights {
    std::size_t in = 0, hidden = 0;
    std::vector<Vec> W_ih, W_hh;  // 3·hidden rows
    Vec b_ih, b_hh;
};

double sigmoid(double v) { return 1.0 / (1.0 + std::exp(-v)); }

/// One step of the reference, straight from the equations:
/// r = σ(W_ir x + b_ir + W_hr h + b_hr), z = σ(W_iz x + b_iz + W_hz h + b_hz),
/// n = tanh(W_in x + b_in + r (W_hn h + b_hn)), h' = (1 - z) n + z h.
/// mag receives, per lane, the size of the terms of n's pre-activation (for the float tolerance).
Vec gru_ref(const GruWeights& w, const Vec& x, const Vec& h, Vec* mag = nullptr) {
    const std::size_t H = w.hidden;
    Vec out(H);
    for (std::size_t d = 0; d < H; ++d) {
        double gi[3], gh[3], size = 1.0;
        for (std::size_t g = 0; g < 3; ++g) {
            gi[g] = w.b_ih[g * H + d];
            gh[g] = w.b_hh[g * H + d];
            size += std::fabs(gi[g]) + std::fabs(gh[g]);
            for (std::size_t k = 0; k < w.in; ++k) {
                gi[g] += w.W_ih[g * H + d][k] * x[k];
                size += std::fabs(w.W_ih[g * H + d][k] * x[k]);
            }
            for (std::size_t k = 0; k < H; ++k) {
                gh[g] += w.W_hh[g * H + d][k] * h[k];
                size += std::fabs(w.W_hh[g * H + d][k] * h[k]);
            }
        }
        const double r = sigmoid(gi[0] + gh[0]);
        const double z = sigmoid(gi[1] + gh[1]);
        const double n = std::tanh(gi[2] + r * gh[2]);
        out[d] = (1.0 - z) * n + z * h[d];
        if (mag != nullptr) (*mag)[d] = size;
    }
    return out;
}

/// Params with every weight uniform in ±gain/sqrt(fan-in) (PyTorch's init has gain 1), biases in ±gain/2; and the
/// same values in double.
template <class T, std::size_t In, std::size_t Hidden>
std::unique_ptr<sarnn::GruParams<T, In, Hidden>> make_params(double gain, std::uint32_t seed, GruWeights& w) {
    auto p = std::make_unique<sarnn::GruParams<T, In, Hidden>>();
    std::mt19937 g(seed);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    w.in = In;
    w.hidden = Hidden;
    w.W_ih.assign(3 * Hidden, Vec(In));
    w.W_hh.assign(3 * Hidden, Vec(Hidden));
    w.b_ih.assign(3 * Hidden, 0.0);
    w.b_hh.assign(3 * Hidden, 0.0);
    const double si = gain / std::sqrt(static_cast<double>(In)), sh = gain / std::sqrt(static_cast<double>(Hidden));
    // each value drawn, rounded to T, and kept in double as T holds it
    const auto draw = [&](double scale) { return static_cast<T>(scale * u(g)); };
    for (std::size_t r = 0; r < 3 * Hidden; ++r) {
        for (std::size_t k = 0; k < In; ++k) w.W_ih[r][k] = static_cast<double>(p->W_ih[r][k] = draw(si));
        for (std::size_t k = 0; k < Hidden; ++k) w.W_hh[r][k] = static_cast<double>(p->W_hh[r][k] = draw(sh));
        w.b_ih[r] = static_cast<double>(p->b_ih[r] = draw(0.5 * gain));
        w.b_hh[r] = static_cast<double>(p->b_hh[r] = draw(0.5 * gain));
    }
    return p;
}

template <class T>
std::vector<std::vector<T>> make_inputs(std::size_t steps, std::size_t in, double scale, std::uint32_t seed) {
    std::mt19937 g(seed);
    std::uniform_real_distribution<double> u(-scale, scale);
    std::vector<std::vector<T>> xs(steps, std::vector<T>(in));
    for (auto& x : xs)
        for (T& v : x) v = static_cast<T>(u(g));
    return xs;
}

template <class T>
Vec to_vec(const sarnn::View<T>& v) {
    Vec out(v.size());
    for (std::size_t k = 0; k < v.size(); ++k) out[k] = static_cast<double>(v[k]);
    return out;
}
template <class T>
Vec to_vec(const std::vector<T>& v) {
    Vec out(v.size());
    for (std::size_t k = 0; k < v.size(); ++k) out[k] = static_cast<double>(v[k]);
    return out;
}

template <class T>
bool same_bits(const sarnn::View<T>& a, const Vec& snapshot) {
    if (a.size() != snapshot.size()) return false;
    for (std::size_t k = 0; k < a.size(); ++k)
        if (!(static_cast<double>(a[k]) == snapshot[k])) return false;
    return true;
}

template <class Set>
std::string set_name() {
    if constexpr (std::is_same_v<Set, sarnn::kernel::Dispatch>)
        return "Dispatch";
    else
        return sarnn::arch_name(Set::arch);
}

/// Calls f(Set{}) for every set this build runs, and Dispatch.
template <class F>
void for_each_running_set(F&& f) {
    sarnn::kernel::for_each_set([&](auto set) {
        if (decltype(set)::runs_here()) f(set);
    });
    f(sarnn::kernel::Dispatch{});
}

/// Teacher-forced (each step from the model's own h) and free-running, over `steps` inputs of size `scale`, on every
/// set: the largest error of each, relative to the size of the terms for the teacher-forced one.
template <class T, std::size_t In, std::size_t Hidden>
void check_reference(double gain, double scale, std::size_t steps, std::uint32_t seed, double free_tol) {
    GruWeights w;
    const auto p = make_params<T, In, Hidden>(gain, seed, w);
    const auto xs = make_inputs<T>(steps, In, scale, seed + 1);
    for_each_running_set([&](auto set) {
        using Set = decltype(set);
        using Model = sarnn::Gru<T, In, Hidden, Set>;
        INFO("Gru<" << (sizeof(T) == 4 ? "float" : "double") << ", In " << In << ", Hidden " << Hidden << ", "
                    << set_name<Set>() << ">, gain " << gain << ", inputs +-" << scale);
        auto m = std::make_unique<Model>(*p);
        CHECK(&m->params() == p.get());  // a reference, not a copy
        Vec h_free(Hidden, 0.0);
        double worst_forced = 0.0, worst_free = 0.0;
        std::size_t worst_step = 0;
        Vec mag(Hidden);
        for (std::size_t t = 0; t < steps; ++t) {
            const Vec x = to_vec(xs[t]);
            const Vec h_prev = to_vec(m->hidden());
            REQUIRE(m->step(xs[t].data()) == sarnn::Status::ok);
            const Vec want = gru_ref(w, x, h_prev, &mag);
            const Vec got = to_vec(m->hidden());
            h_free = gru_ref(w, x, h_free);
            for (std::size_t d = 0; d < Hidden; ++d) {
                REQUIRE(std::isfinite(got[d]));
                const double e = std::fabs(got[d] - want[d]) / mag[d];
                if (e > worst_forced) {
                    worst_forced = e;
                    worst_step = t;
                }
                worst_free = std::max(worst_free, std::fabs(got[d] - h_free[d]));
                // h is a convex mix of tanh and the last h: never beyond 1
                CHECK(std::fabs(got[d]) <= 1.0);
            }
        }
        INFO("worst teacher-forced error " << worst_forced << " at step " << worst_step << ", free-running "
                                           << worst_free);
        CHECK(m->length() == steps);
        CHECK(worst_forced <= ref::tol<T>());
        CHECK(worst_free <= free_tol);
    });
}

template <class T>
void check_shapes() {
    // free-running: the contracting weights keep two runs together; the float one drifts by its rounding
    const double free = sizeof(T) == 4 ? 1e-4 : 1e-10;
    check_reference<T, 1, 1>(1.0, 1.0, 60, 11, free);
    check_reference<T, 1, 3>(1.0, 1.0, 60, 12, free);
    check_reference<T, 3, 1>(1.0, 1.0, 60, 13, free);
    check_reference<T, 3, 7>(1.0, 1.0, 1200, 14, free);
    check_reference<T, 7, 3>(1.0, 1.0, 60, 15, free);
    check_reference<T, 7, 17>(1.0, 1.0, 60, 16, free);
    check_reference<T, 17, 7>(1.0, 1.0, 60, 17, free);
    check_reference<T, 17, 33>(1.0, 1.0, 1200, 18, free);
    check_reference<T, 33, 17>(1.0, 1.0, 60, 19, free);
    check_reference<T, 33, 33>(1.0, 1.0, 60, 20, free);
    check_reference<T, 16, 32>(1.0, 1.0, 60, 21, free);
    check_reference<T, 1, 33>(1.0, 1.0, 60, 22, free);
    check_reference<T, 33, 1>(1.0, 1.0, 60, 23, free);
    // large weights and inputs: saturated gates (teacher-forced only: a saturated GRU need not contract)
    check_reference<T, 7, 17>(8.0, 30.0, 200, 24, 2.0);
    check_reference<T, 17, 7>(8.0, 30.0, 200, 25, 2.0);
}

template <class T, std::size_t In, std::size_t Hidden>
void check_properties() {
    GruWeights w;
    const auto p = make_params<T, In, Hidden>(1.0, 40, w);
    const auto xs = make_inputs<T>(30, In, 1.0, 41);
    for_each_running_set([&](auto set) {
        using Set = decltype(set);
        using Model = sarnn::Gru<T, In, Hidden, Set>;
        INFO("Gru<" << (sizeof(T) == 4 ? "float" : "double") << ", In " << In << ", Hidden " << Hidden << ", "
                    << set_name<Set>() << ">");
        auto m = std::make_unique<Model>(*p);
        // h_0 = 0
        CHECK(m->length() == 0);
        REQUIRE(m->hidden().size() == Hidden);
        for (T v : m->hidden()) CHECK(v == T(0));
        // a run of 30 steps, kept
        std::vector<Vec> first;
        for (const auto& x : xs) {
            REQUIRE(m->step(x.data()) == sarnn::Status::ok);
            first.push_back(to_vec(m->hidden()));
        }
        // reset() restores the start: the same run again, bit for bit
        m->reset();
        CHECK(m->length() == 0);
        for (T v : m->hidden()) CHECK(v == T(0));
        for (std::size_t t = 0; t < xs.size(); ++t) {
            std::array<T, In> xa{};
            for (std::size_t k = 0; k < In; ++k) xa[k] = xs[t][k];
            REQUIRE(m->step(xa) == sarnn::Status::ok);  // the std::array overload: the same bits
            CHECK(same_bits(m->hidden(), first[t]));
        }
        // bad input mid-sequence changes nothing; the sequence then goes on as an undisturbed one
        m->reset();
        for (std::size_t t = 0; t < xs.size(); ++t) {
            const Vec before = to_vec(m->hidden());
            const std::uint64_t len = m->length();
            CHECK(m->step(static_cast<const T*>(nullptr)) == sarnn::Status::null_input);
            for (T bad : {std::numeric_limits<T>::quiet_NaN(), std::numeric_limits<T>::infinity(),
                          -std::numeric_limits<T>::infinity()}) {
                auto x = xs[t];
                x[t % In] = bad;
                CHECK(m->step(x.data()) == sarnn::Status::non_finite_input);
            }
            CHECK(same_bits(m->hidden(), before));
            CHECK(m->length() == len);
            REQUIRE(m->step(xs[t].data()) == sarnn::Status::ok);
            CHECK(same_bits(m->hidden(), first[t]));
        }
        // run(): the same h as the steps; out null takes the steps only; other emits refused
        m->reset();
        std::vector<T> flat, out(xs.size() * Hidden);
        for (const auto& x : xs) flat.insert(flat.end(), x.begin(), x.end());
        const sarnn::RunResult rr = m->run(flat.data(), xs.size(), out.data());
        CHECK(rr.status == sarnn::Status::ok);
        CHECK(rr.steps == xs.size());
        for (std::size_t t = 0; t < xs.size(); ++t)
            for (std::size_t d = 0; d < Hidden; ++d) CHECK(static_cast<double>(out[t * Hidden + d]) == first[t][d]);
        const sarnn::RunResult bad = m->run(flat.data(), xs.size(), out.data(), sarnn::Emit::cell);
        CHECK(bad.status == sarnn::Status::invalid_argument);
        CHECK(bad.steps == 0);
        CHECK(m->length() == xs.size());
    });
}

/// Huge finite inputs saturate every gate: h stays finite, within 1, and matches the reference.
template <class T, std::size_t In, std::size_t Hidden>
void check_extreme_inputs() {
    GruWeights w;
    const auto p = make_params<T, In, Hidden>(1.0, 50, w);
    for_each_running_set([&](auto set) {
        using Set = decltype(set);
        auto m = std::make_unique<sarnn::Gru<T, In, Hidden, Set>>(*p);
        INFO(set_name<Set>());
        std::mt19937 g(51);
        std::uniform_int_distribution<int> sign(0, 1);
        const T huge = std::numeric_limits<T>::max() / T(4 * (In + 1));
        for (T size : {T(1e6), huge, std::numeric_limits<T>::denorm_min(), T(1e-30)}) {
            for (int rep = 0; rep < 5; ++rep) {
                std::vector<T> x(In);
                for (T& v : x) v = sign(g) ? size : -size;
                const Vec h_prev = to_vec(m->hidden());
                REQUIRE(m->step(x.data()) == sarnn::Status::ok);
                const Vec want = gru_ref(w, to_vec(x), h_prev);
                const Vec got = to_vec(m->hidden());
                for (std::size_t d = 0; d < Hidden; ++d) {
                    INFO("x of size " << size << ", lane " << d);
                    REQUIRE(std::isfinite(got[d]));
                    CHECK(std::fabs(got[d]) <= 1.0);
                    CHECK(std::fabs(got[d] - want[d]) <= 1e-4);
                }
            }
        }
    });
}

/// gi = inf - inf (a NaN pre-activation from finite x): non_finite_result, nothing changes (the scalar set's
/// rounded products always give it; a set whose fused multiply-adds give inf instead steps to a finite h).
template <class T>
void check_non_finite_result() {
    constexpr std::size_t In = 2, Hidden = 3;
    GruWeights w;
    auto p = make_params<T, In, Hidden>(1.0, 60, w);
    const T big = std::numeric_limits<T>::max() / T(2);
    for (std::size_t r = 0; r < 3 * Hidden; ++r) {
        p->W_ih[r][0] = big;
        p->W_ih[r][1] = -big;
    }
    for_each_running_set([&](auto set) {
        using Set = decltype(set);
        INFO(set_name<Set>());
        auto m = std::make_unique<sarnn::Gru<T, In, Hidden, Set>>(*p);
        const std::array<T, In> small{T(1e-3), T(2e-3)};
        REQUIRE(m->step(small) == sarnn::Status::ok);
        const Vec before = to_vec(m->hidden());
        // big·4 - big·4: inf - inf where the products are rounded (a fused multiply-add keeps big·4 exact and
        // sums to inf instead: every gate saturates, a finite h, ok)
        const std::array<T, In> x{T(4), T(4)};
        const sarnn::Status s = m->step(x);
        if (std::is_same_v<Set, sarnn::kernel::Scalar> && test::kScalarRoundsProducts)
            CHECK(s == sarnn::Status::non_finite_result);
        if (s == sarnn::Status::non_finite_result) {
            CHECK(same_bits(m->hidden(), before));
            CHECK(m->length() == 1);
        } else {
            CHECK(s == sarnn::Status::ok);
            for (T v : m->hidden()) CHECK(std::isfinite(v));
        }
        REQUIRE(m->step(small) == sarnn::Status::ok);
    });
}

/// PyTorch's own numbers (gru_torch_golden.hpp: torch.nn.GRU in float64): the weights as they are, the 12 steps' h
/// within tol on every set.
template <class T>
void check_torch_golden(double tol) {
    namespace g = gru_torch;
    constexpr std::size_t In = g::kIn, Hidden = g::kHidden;
    auto p = std::make_unique<sarnn::GruParams<T, In, Hidden>>();
    for (std::size_t r = 0; r < 3 * Hidden; ++r) {
        for (std::size_t k = 0; k < In; ++k) p->W_ih[r][k] = static_cast<T>(g::W_ih[r * In + k]);
        for (std::size_t k = 0; k < Hidden; ++k) p->W_hh[r][k] = static_cast<T>(g::W_hh[r * Hidden + k]);
        p->b_ih[r] = static_cast<T>(g::b_ih[r]);
        p->b_hh[r] = static_cast<T>(g::b_hh[r]);
    }
    for_each_running_set([&](auto set) {
        using Set = decltype(set);
        INFO(set_name<Set>() << ", T of " << sizeof(T) << " bytes");
        auto m = std::make_unique<sarnn::Gru<T, In, Hidden, Set>>(*p);
        double worst = 0.0;
        for (std::size_t t = 0; t < static_cast<std::size_t>(g::kSteps); ++t) {
            std::array<T, In> x{};
            for (std::size_t k = 0; k < In; ++k) x[k] = static_cast<T>(g::x[t * In + k]);
            REQUIRE(m->step(x) == sarnn::Status::ok);
            for (std::size_t d = 0; d < Hidden; ++d)
                worst = std::max(worst, std::fabs(static_cast<double>(m->hidden()[d]) - g::h[t * Hidden + d]));
        }
        INFO("worst |h - torch's h| " << worst);
        CHECK(worst <= tol);
    });
}

}  // namespace

TEST_CASE("Gru<float> matches the double reference on every set", "[gru][reference]") { check_shapes<float>(); }
TEST_CASE("Gru<double> matches the double reference on every set", "[gru][reference]") { check_shapes<double>(); }

TEST_CASE("Gru: h_0 = 0, reset, run, std::array, and refused input changes nothing", "[gru]") {
    check_properties<float, 1, 1>();
    check_properties<float, 7, 17>();
    check_properties<double, 3, 33>();
    check_properties<double, 17, 7>();
}

TEST_CASE("Gru: huge and tiny finite inputs saturate the gates and stay finite", "[gru]") {
    check_extreme_inputs<float, 3, 7>();
    check_extreme_inputs<float, 33, 17>();
    check_extreme_inputs<double, 17, 33>();
}

TEST_CASE("Gru: a NaN pre-activation is refused and changes nothing", "[gru]") {
    check_non_finite_result<float>();
    check_non_finite_result<double>();
}

TEST_CASE("Gru: sizes, types and static storage", "[gru]") {
    using M = sarnn::Gru<float, 16, 32>;
    STATIC_REQUIRE(M::in_size == 16);
    STATIC_REQUIRE(M::hidden_size == 32);
    STATIC_REQUIRE(std::is_same_v<M::value_type, float>);
    STATIC_REQUIRE(std::is_same_v<M::Params, sarnn::GruParams<float, 16, 32>>);
    STATIC_REQUIRE(sizeof(M) >= (2 * 32 + 6 * 32) * sizeof(float));
    STATIC_REQUIRE(!std::is_constructible_v<M, sarnn::GruParams<float, 16, 32>&&>);
    STATIC_REQUIRE(sizeof(sarnn::GruParams<double, 3, 5>) >= (15 * 3 + 15 * 5 + 30) * sizeof(double));
}

TEST_CASE("Gru matches torch.nn.GRU's own numbers (float64 golden) on every set", "[gru][reference]") {
    check_torch_golden<double>(1e-12);
    check_torch_golden<float>(1e-5);
}
