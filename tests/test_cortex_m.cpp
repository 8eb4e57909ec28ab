// tests/test_cortex_m.cpp: the Cortex-M sets' own approximations (kernels/cortex_m/set.hpp): exp, tanh and sigmoid
// against double over dense grids, with the bounds the header states (kernel::CortexM, float in an FPU;
// kernel::CortexM0, integer forms for cores without one), and their sums of products in integers where float
// arithmetic overflows or meets Inf and NaN. The other sets' errors are reported next to them
// (SARNN_TEST_REPORT=1), not bounded here: test_kernels.cpp holds every set to the suite's tolerances.
#include <catch2/catch.hpp>

#include <sarnn/sarnn.hpp>

#include <cmath>
#include <cstddef>
#include <limits>
#include <string>
#include <vector>

#include "support.hpp"

namespace {

struct Worst {
    double err = 0.0;
    float at = 0.0f;
    void add(double e, float x) {
        if (!(e <= err)) {
            err = std::isnan(e) ? std::numeric_limits<double>::infinity() : e;
            at = x;
        }
    }
};

template <class Set>
void check_approximations(sarnn::Arch arch) {
    const std::string name = sarnn::arch_name(arch);
    if (!sarnn::arch_available(arch)) return;
    // exp over [-87, 88] (normal results), every 1/1024: relative error
    Worst e;
    {
        std::vector<float> xs, y;
        for (int i = -87 * 1024; i <= 88 * 1024; ++i) xs.push_back(static_cast<float>(i) / 1024.0f);
        y = xs;
        Set::exp(y.data(), y.size());
        for (std::size_t i = 0; i < xs.size(); ++i) {
            const double want = std::exp(static_cast<double>(xs[i]));
            e.add(std::fabs(static_cast<double>(y[i]) - want) / want, xs[i]);
        }
    }
    // tanh over [-10, 10], every 1/8192: absolute error
    Worst t;
    {
        std::vector<float> xs, y;
        for (int i = -10 * 8192; i <= 10 * 8192; ++i) xs.push_back(static_cast<float>(i) / 8192.0f);
        y = xs;
        Set::tanh(y.data(), y.size());
        for (std::size_t i = 0; i < xs.size(); ++i)
            t.add(std::fabs(static_cast<double>(y[i]) - std::tanh(static_cast<double>(xs[i]))), xs[i]);
    }
    // sigmoid over [-20, 20], every 1/2048, through lstm_cell with H = 1: c = σ(z_i)·tanh(30) + σ(0)·0 = σ(z_i)
    Worst s;
    for (int i = -20 * 2048; i <= 20 * 2048; ++i) {
        const float z[4] = {static_cast<float>(i) / 2048.0f, 0.0f, 30.0f, 0.0f}, b[4] = {0.0f, 0.0f, 0.0f, 0.0f};
        const float c_prev[1] = {0.0f};
        float c[1], h[1];
        Set::lstm_cell(z, b, c_prev, 1, c, h);
        s.add(std::fabs(static_cast<double>(c[0]) - 1.0 / (1.0 + std::exp(-static_cast<double>(z[0])))), z[0]);
    }
    // the gates as lstm_cell computes them when every |pre-activation| is small (CortexM: inline, their sum below
    // 40), with H = 1: σ(a_i) through c = σ(a_i)·tanh(18) (= σ(a_i): tanh(18) rounds to 1); tanh(a_g) through
    // c = σ(20)·tanh(a_g) (σ(20) rounds to 1); tanh(c) through h = σ(18)·tanh(c) with c = σ(18)·c_prev + σ(0)·tanh(0)
    // = c_prev
    Worst si, tg, tc;
    for (int i = -20 * 2048; i <= 20 * 2048; ++i) {
        const float x = static_cast<float>(i) / 2048.0f, b[4] = {0.0f, 0.0f, 0.0f, 0.0f}, zero[1] = {0.0f};
        const double sig = 1.0 / (1.0 + std::exp(-static_cast<double>(x)));
        const double th = std::tanh(static_cast<double>(x));
        float c[1], h[1];
        const float z_i[4] = {x, 0.0f, 18.0f, 0.0f};
        Set::lstm_cell(z_i, b, zero, 1, c, h);
        si.add(std::fabs(static_cast<double>(c[0]) - sig), x);
        if (x < -10.0f || x > 10.0f) continue;
        const float z_g[4] = {20.0f, 0.0f, x, 0.0f};
        Set::lstm_cell(z_g, b, zero, 1, c, h);
        tg.add(std::fabs(static_cast<double>(c[0]) - th), x);
        const float z_c[4] = {0.0f, 18.0f, 0.0f, 18.0f}, c_prev[1] = {x};
        Set::lstm_cell(z_c, b, c_prev, 1, c, h);
        tc.add(std::fabs(static_cast<double>(h[0]) - th), x);
    }
    test::report(name + " exp, max relative error at x = " + std::to_string(e.at), e.err);
    test::report(name + " tanh, max absolute error at x = " + std::to_string(t.at), t.err);
    test::report(name + " sigmoid, max absolute error at x = " + std::to_string(s.at), s.err);
    test::report(name + " lstm_cell's sigmoid (small gates), max absolute error at x = " + std::to_string(si.at),
                 si.err);
    test::report(name + " lstm_cell's tanh of a_g (small gates), max absolute error at x = " + std::to_string(tg.at),
                 tg.err);
    test::report(name + " lstm_cell's tanh of c (small gates), max absolute error at x = " + std::to_string(tc.at),
                 tc.err);
    if (arch == sarnn::Arch::cortex_m || arch == sarnn::Arch::cortex_m0) {
        INFO(name << ": exp worst at " << e.at << ", tanh at " << t.at << ", sigmoid at " << s.at);
        CHECK(e.err <= 3e-7);
        CHECK(t.err <= 2e-7);
        CHECK(s.err <= 1.5e-7);
        INFO(name << ": lstm_cell's sigmoid worst at " << si.at << ", tanh of a_g at " << tg.at << ", of c at "
                  << tc.at);
        CHECK(si.err <= 1.5e-7);
        CHECK(tg.err <= 2e-7);
        CHECK(tc.err <= 2e-7);
    }
}

template <class Set>
void check_special_sums(sarnn::Arch arch) {
    if (arch != sarnn::Arch::cortex_m0 || !sarnn::arch_available(arch)) return;
    const float inf = std::numeric_limits<float>::infinity(), big = std::numeric_limits<float>::max();
    // what float arithmetic gives, on the integer sums too: overflow, Inf, NaN, and exact zeros
    // float: inf - inf = NaN, or inf where the compiler fuses a·b + s (AArch64): not finite either way
    const float a1[3] = {big, -big, 1.0f}, b1[3] = {3.0f, 3.0f, 1.0f};
    CHECK(!std::isfinite(Set::dot(a1, b1, 3)));
    const float a2[2] = {inf, 1.0f}, b2[2] = {2.0f, 1.0f};
    CHECK(Set::dot(a2, b2, 2) == inf);
    const float a3[2] = {0.0f, 1.0f}, b3[2] = {inf, 1.0f};  // 0·inf = NaN
    CHECK(std::isnan(Set::dot(a3, b3, 2)));
    const float a4[3] = {0.0f, -0.0f, 1e-40f}, b4[3] = {5.0f, 5.0f, 1.0f};
    CHECK(Set::dot(a4, b4, 3) == 0.0f);
    // a sum of products in range, against double
    const float a5[5] = {1.5f, -2.25f, 1e-3f, 7.0f, -1e5f}, b5[5] = {-3.0f, 0.5f, 1e3f, 1e-7f, 1e-5f};
    double want = 0.0;
    for (int k = 0; k < 5; ++k) want += static_cast<double>(a5[k]) * static_cast<double>(b5[k]);
    CHECK(std::fabs(static_cast<double>(Set::dot(a5, b5, 5)) - want) <= 1e-6 * 6.0);
}

}  // namespace

TEST_CASE("Cortex-M sets: exp, tanh and sigmoid within their stated errors", "[kernels][cortex_m]") {
#define SARNN_TEST_APPROX_(id, Type, double_id) check_approximations<sarnn::kernel::Type>(sarnn::Arch::id);
    SARNN_SETS(SARNN_TEST_APPROX_)
#undef SARNN_TEST_APPROX_
}

TEST_CASE("cortex-m0 set: sums of products in integers overflow, and meet Inf and NaN, as float does",
          "[kernels][cortex_m]") {
#define SARNN_TEST_SPECIAL_(id, Type, double_id) check_special_sums<sarnn::kernel::Type>(sarnn::Arch::id);
    SARNN_SETS(SARNN_TEST_SPECIAL_)
#undef SARNN_TEST_SPECIAL_
}
