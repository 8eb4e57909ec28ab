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

#include "driven.hpp"
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

/// A value drawn in double and rounded to the model's type (float or double), kept in double as that type holds it.
double as_type(double v, bool is_float) { return is_float ? static_cast<double>(static_cast<float>(v)) : v; }

/// Every weight uniform in ±gain/sqrt(fan-in) (PyTorch's init has gain 1), biases in ±gain/2, each value rounded to
/// the model's type (fill_params copies them into a GruParams exactly).
GruWeights draw_weights(std::size_t in, std::size_t hidden, double gain, std::uint32_t seed, bool is_float) {
    GruWeights w;
    std::mt19937 g(seed);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    w.in = in;
    w.hidden = hidden;
    w.W_ih.assign(3 * hidden, Vec(in));
    w.W_hh.assign(3 * hidden, Vec(hidden));
    w.b_ih.assign(3 * hidden, 0.0);
    w.b_hh.assign(3 * hidden, 0.0);
    const double si = gain / std::sqrt(static_cast<double>(in)), sh = gain / std::sqrt(static_cast<double>(hidden));
    const auto draw = [&](double scale) { return as_type(scale * u(g), is_float); };
    for (std::size_t r = 0; r < 3 * hidden; ++r) {
        for (std::size_t k = 0; k < in; ++k) w.W_ih[r][k] = draw(si);
        for (std::size_t k = 0; k < hidden; ++k) w.W_hh[r][k] = draw(sh);
        w.b_ih[r] = draw(0.5 * gain);
        w.b_hh[r] = draw(0.5 * gain);
    }
    return w;
}

/// The params of w (whose values T holds exactly).
template <class T, std::size_t In, std::size_t Hidden>
std::unique_ptr<sarnn::GruParams<T, In, Hidden>> fill_params(const GruWeights& w) {
    auto p = std::make_unique<sarnn::GruParams<T, In, Hidden>>();
    for (std::size_t r = 0; r < 3 * Hidden; ++r) {
        for (std::size_t k = 0; k < In; ++k) p->W_ih[r][k] = static_cast<T>(w.W_ih[r][k]);
        for (std::size_t k = 0; k < Hidden; ++k) p->W_hh[r][k] = static_cast<T>(w.W_hh[r][k]);
        p->b_ih[r] = static_cast<T>(w.b_ih[r]);
        p->b_hh[r] = static_cast<T>(w.b_hh[r]);
    }
    return p;
}

std::vector<Vec> make_inputs(std::size_t steps, std::size_t in, double scale, std::uint32_t seed, bool is_float) {
    std::mt19937 g(seed);
    std::uniform_real_distribution<double> u(-scale, scale);
    std::vector<Vec> xs(steps, Vec(in));
    for (auto& x : xs)
        for (double& v : x) v = as_type(u(g), is_float);
    return xs;
}

bool same_bits(const Vec& a, const Vec& snapshot) { return a == snapshot; }

/// One model to check: its name (type, shape, set) and how to make a fresh one on its params (test::Driven).
struct Case {
    std::string name;
    std::size_t in = 0, hidden = 0;
    bool is_float = false;    // T is float (else double)
    bool scalar_set = false;  // kernel::Scalar
    test::Driven::Drive drive = nullptr;
    const void* params = nullptr;
    std::unique_ptr<test::Driven> make() const { return std::make_unique<test::Driven>(drive, is_float, params); }
};

std::string case_name(bool is_float, std::size_t in, std::size_t hidden, const char* set) {
    std::ostringstream os;
    os << "Gru<" << (is_float ? "float" : "double") << ", In " << in << ", Hidden " << hidden << ", " << set << ">";
    return os.str();
}

template <class Set>
const char* set_name() {
    if constexpr (std::is_same_v<Set, sarnn::kernel::Dispatch>)
        return "Dispatch";
    else
        return sarnn::arch_name(Set::arch);
}

/// A case per set this build runs, and Dispatch, on p (which must outlive them).
template <class T, std::size_t In, std::size_t Hidden>
std::vector<Case> cases_on(const sarnn::GruParams<T, In, Hidden>& p) {
    std::vector<Case> out;
    const auto add = [&](auto set) {
        using Set = decltype(set);
        out.push_back({case_name(sizeof(T) == 4, In, Hidden, set_name<Set>()), In, Hidden, sizeof(T) == 4,
                       std::is_same_v<Set, sarnn::kernel::Scalar>, &test::drive<sarnn::Gru<T, In, Hidden, Set>>, &p});
    };
    sarnn::kernel::for_each_set([&](auto set) {
        if (decltype(set)::runs_here()) add(set);
    });
    add(sarnn::kernel::Dispatch{});
    return out;
}

/// Teacher-forced (each step from the model's own h) and free-running, over the inputs xs, on one case: the largest
/// error of each, relative to the size of the terms for the teacher-forced one.
void check_reference_case(const Case& c, const GruWeights& w, const std::vector<Vec>& xs, const void* params,
                          double gain, double scale, double forced_tol, double free_tol) {
    INFO(c.name << ", gain " << gain << ", inputs +-" << scale);
    const auto m = c.make();
    CHECK(m->params_address() == params);  // a reference, not a copy
    const std::size_t H = w.hidden, steps = xs.size();
    Vec h_free(H, 0.0);
    double worst_forced = 0.0, worst_free = 0.0;
    std::size_t worst_step = 0;
    Vec mag(H);
    for (std::size_t t = 0; t < steps; ++t) {
        const Vec& x = xs[t];
        const Vec h_prev = m->hidden();
        REQUIRE(m->step(x) == sarnn::Status::ok);
        const Vec want = gru_ref(w, x, h_prev, &mag);
        const Vec got = m->hidden();
        h_free = gru_ref(w, x, h_free);
        for (std::size_t d = 0; d < H; ++d) {
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
    INFO("worst teacher-forced error " << worst_forced << " at step " << worst_step << ", free-running " << worst_free);
    CHECK(m->length() == steps);
    CHECK(worst_forced <= forced_tol);
    CHECK(worst_free <= free_tol);
}

/// Teacher-forced and free-running over `steps` inputs of size `scale`, on every set.
template <class T, std::size_t In, std::size_t Hidden>
void check_reference(double gain, double scale, std::size_t steps, std::uint32_t seed, double free_tol) {
    constexpr bool is_float = sizeof(T) == 4;
    const GruWeights w = draw_weights(In, Hidden, gain, seed, is_float);
    const auto p = fill_params<T, In, Hidden>(w);
    const auto xs = make_inputs(steps, In, scale, seed + 1, is_float);
    for (const Case& c : cases_on(*p)) check_reference_case(c, w, xs, p.get(), gain, scale, ref::tol<T>(), free_tol);
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

/// h_0 = 0, reset, the std::array overload, refused input (null, NaN, ±inf), run() on one case, over the steps xs.
void check_properties_case(const Case& c, const std::vector<Vec>& xs) {
    INFO(c.name);
    const auto m = c.make();
    const std::size_t In = c.in, Hidden = c.hidden;
    // h_0 = 0
    CHECK(m->length() == 0);
    REQUIRE(m->hidden().size() == Hidden);
    for (double v : m->hidden()) CHECK(v == 0.0);
    // a run of 30 steps, kept
    std::vector<Vec> first;
    for (const auto& x : xs) {
        REQUIRE(m->step(x) == sarnn::Status::ok);
        first.push_back(m->hidden());
    }
    // reset() restores the start: the same run again, bit for bit
    m->reset();
    CHECK(m->length() == 0);
    for (double v : m->hidden()) CHECK(v == 0.0);
    for (std::size_t t = 0; t < xs.size(); ++t) {
        REQUIRE(m->step_array(xs[t]) == sarnn::Status::ok);  // the std::array overload: the same bits
        CHECK(same_bits(m->hidden(), first[t]));
    }
    // bad input mid-sequence changes nothing; the sequence then goes on as an undisturbed one
    m->reset();
    for (std::size_t t = 0; t < xs.size(); ++t) {
        const Vec before = m->hidden();
        const std::uint64_t len = m->length();
        CHECK(m->step_null() == sarnn::Status::null_input);
        for (double bad : {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity(),
                           -std::numeric_limits<double>::infinity()}) {
            auto x = xs[t];
            x[t % In] = bad;
            CHECK(m->step(x) == sarnn::Status::non_finite_input);
        }
        CHECK(same_bits(m->hidden(), before));
        CHECK(m->length() == len);
        REQUIRE(m->step(xs[t]) == sarnn::Status::ok);
        CHECK(same_bits(m->hidden(), first[t]));
    }
    // run(): the same h as the steps; out null takes the steps only; other emits refused
    m->reset();
    Vec flat, out(xs.size() * Hidden);
    for (const auto& x : xs) flat.insert(flat.end(), x.begin(), x.end());
    const sarnn::RunResult rr = m->run(flat, xs.size(), out, sarnn::Emit::hidden);
    CHECK(rr.status == sarnn::Status::ok);
    CHECK(rr.steps == xs.size());
    for (std::size_t t = 0; t < xs.size(); ++t)
        for (std::size_t d = 0; d < Hidden; ++d) CHECK(out[t * Hidden + d] == first[t][d]);
    const sarnn::RunResult bad = m->run(flat, xs.size(), out, sarnn::Emit::cell);
    CHECK(bad.status == sarnn::Status::invalid_argument);
    CHECK(bad.steps == 0);
    CHECK(m->length() == xs.size());
}

template <class T, std::size_t In, std::size_t Hidden>
void check_properties() {
    constexpr bool is_float = sizeof(T) == 4;
    const auto p = fill_params<T, In, Hidden>(draw_weights(In, Hidden, 1.0, 40, is_float));
    const auto xs = make_inputs(30, In, 1.0, 41, is_float);
    for (const Case& c : cases_on(*p)) check_properties_case(c, xs);
}

/// Huge finite inputs saturate every gate: h stays finite, within 1, and matches the reference. sizes: the inputs'
/// magnitudes (values T holds).
void check_extreme_inputs_case(const Case& c, const GruWeights& w, const Vec& sizes) {
    const auto m = c.make();
    INFO(c.name);
    std::mt19937 g(51);
    std::uniform_int_distribution<int> sign(0, 1);
    for (double size : sizes) {
        for (int rep = 0; rep < 5; ++rep) {
            Vec x(w.in);
            for (double& v : x) v = sign(g) ? size : -size;
            const Vec h_prev = m->hidden();
            REQUIRE(m->step(x) == sarnn::Status::ok);
            const Vec want = gru_ref(w, x, h_prev);
            const Vec got = m->hidden();
            for (std::size_t d = 0; d < w.hidden; ++d) {
                INFO("x of size " << size << ", lane " << d);
                REQUIRE(std::isfinite(got[d]));
                CHECK(std::fabs(got[d]) <= 1.0);
                CHECK(std::fabs(got[d] - want[d]) <= 1e-4);
            }
        }
    }
}

template <class T, std::size_t In, std::size_t Hidden>
void check_extreme_inputs() {
    const GruWeights w = draw_weights(In, Hidden, 1.0, 50, sizeof(T) == 4);
    const auto p = fill_params<T, In, Hidden>(w);
    const T huge = std::numeric_limits<T>::max() / T(4 * (In + 1));
    const Vec sizes{static_cast<double>(T(1e6)), static_cast<double>(huge),
                    static_cast<double>(std::numeric_limits<T>::denorm_min()), static_cast<double>(T(1e-30))};
    for (const Case& c : cases_on(*p)) check_extreme_inputs_case(c, w, sizes);
}

/// gi = inf - inf (a NaN pre-activation from finite x): non_finite_result, nothing changes (the scalar set's
/// rounded products always give it; a set whose fused multiply-adds give inf instead steps to a finite h).
void check_non_finite_result_case(const Case& c) {
    INFO(c.name);
    const auto m = c.make();
    const Vec small{as_type(1e-3, c.is_float), as_type(2e-3, c.is_float)};
    REQUIRE(m->step_array(small) == sarnn::Status::ok);
    const Vec before = m->hidden();
    // big·4 - big·4: inf - inf where the products are rounded (a fused multiply-add keeps big·4 exact and
    // sums to inf instead: every gate saturates, a finite h, ok)
    const sarnn::Status s = m->step_array(Vec{4.0, 4.0});
    if (c.scalar_set && test::kScalarRoundsProducts) CHECK(s == sarnn::Status::non_finite_result);
    if (s == sarnn::Status::non_finite_result) {
        CHECK(same_bits(m->hidden(), before));
        CHECK(m->length() == 1);
    } else {
        CHECK(s == sarnn::Status::ok);
        for (double v : m->hidden()) CHECK(std::isfinite(v));
    }
    REQUIRE(m->step_array(small) == sarnn::Status::ok);
}

template <class T>
void check_non_finite_result() {
    constexpr std::size_t In = 2, Hidden = 3;
    auto p = fill_params<T, In, Hidden>(draw_weights(In, Hidden, 1.0, 60, sizeof(T) == 4));
    const T big = std::numeric_limits<T>::max() / T(2);
    for (std::size_t r = 0; r < 3 * Hidden; ++r) {
        p->W_ih[r][0] = big;
        p->W_ih[r][1] = -big;
    }
    for (const Case& c : cases_on(*p)) check_non_finite_result_case(c);
}

/// PyTorch's own numbers (gru_torch_golden.hpp: torch.nn.GRU in float64): the weights as they are, the 12 steps' h
/// within tol on every set.
void check_torch_golden_case(const Case& c, double tol) {
    namespace g = gru_torch;
    INFO(c.name);
    const auto m = c.make();
    double worst = 0.0;
    for (std::size_t t = 0; t < static_cast<std::size_t>(g::kSteps); ++t) {
        Vec x(g::kIn);
        for (std::size_t k = 0; k < x.size(); ++k) x[k] = as_type(g::x[t * g::kIn + k], c.is_float);
        REQUIRE(m->step_array(x) == sarnn::Status::ok);
        const Vec h = m->hidden();
        for (std::size_t d = 0; d < h.size(); ++d) worst = std::max(worst, std::fabs(h[d] - g::h[t * g::kHidden + d]));
    }
    INFO("worst |h - torch's h| " << worst);
    CHECK(worst <= tol);
}

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
    for (const Case& c : cases_on(*p)) check_torch_golden_case(c, tol);
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
