// tests/test_shaped.cpp: the shaped kernel layer (include/sarnn/detail/shaped.hpp): gemv, gemv_add, affine_tanh,
// lstm_cell and gru_cell with their sizes as template parameters, on the build's own set (SARNN_BUILD_DEFAULT_SET: the
// suite's kernel::Default is Dispatch everywhere) and on kernel::Scalar (always the run-time path), against
// straightforward double loops written here. AArch64 and ARMv7 NEON: the build's set is Neon64 or Neon, whose shaped
// NEON forms (include/sarnn/kernels/neon/) are checked; x86-64: Dispatch, the run-time operations with the sizes as
// arguments. kernel::CortexM (Cortex-M4F, M7; plain C++, so on every host where lib/ holds it): its shaped forms
// (include/sarnn/kernels/cortex_m/), checked on every build. Shapes: Rows x Cols in {1, 3, 7, 17, 33}² (and a leading dimension past Cols), Hidden x In in
// {1, 3, 7, 17, 33}² for affine_tanh, H in {1, 2, 3, 4, 5, 7, 8, 17, 33} for the cells.
// Outputs that hold exactly n values have sentinels after them (and gemv_add one before): they must survive. The
// padded rows of the cells have sentinels in their padding lanes: the contract is that only lanes < H are written.
#include <catch2/catch.hpp>

#include <sarnn/detail/shaped.hpp>
#include <sarnn/sarnn.hpp>

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace {

constexpr std::size_t kGuard = 4;
constexpr float kSentinel = 12345.0f;

std::uint32_t g_state = 12345u;
/// A value in [-scale, scale): a fixed LCG, so every run and target sees the same data.
float uniform(float scale) {
    g_state = g_state * 1664525u + 1013904223u;
    return scale * (static_cast<float>(g_state >> 8) / 8388608.0f - 1.0f);
}

double sigmoid_ref(double x) { return 1.0 / (1.0 + std::exp(-x)); }

/// Σ|M_rj v_j| per row, for the tolerance of a sum (float's rounding grows with the terms, not the result).
template <class Set, std::size_t Rows, std::size_t Cols, std::size_t Ld>
void check_gemv() {
    std::vector<float> M(Rows * Ld), v(Cols), y(Rows + 2 * kGuard, kSentinel);
    for (float& m : M) m = uniform(1.0f);
    for (float& x : v) x = uniform(2.0f);
    // gemv: y = M·v (the padding columns of M, past Cols, hold large values no sum may read)
    for (std::size_t r = 0; r < Rows; ++r)
        for (std::size_t j = Cols; j < Ld; ++j) M[r * Ld + j] = 1e30f;
    float* out = y.data() + kGuard;
    using K = sarnn::detail::shaped<Set, float>;
    K::template gemv<Rows, Cols, Ld>(M.data(), v.data(), out);
    std::vector<float> before(out, out + Rows);
    for (std::size_t r = 0; r < Rows; ++r) {
        double s = 0.0, mag = 0.0;
        for (std::size_t j = 0; j < Cols; ++j) {
            s += double(M[r * Ld + j]) * double(v[j]);
            mag += std::fabs(double(M[r * Ld + j]) * double(v[j]));
        }
        INFO("gemv Rows " << Rows << " Cols " << Cols << " Ld " << Ld << " row " << r);
        REQUIRE(std::fabs(double(out[r]) - s) <= 4e-7 * (1.0 + mag) * static_cast<double>(Cols));
    }
    // gemv_add: y += M·v
    K::template gemv_add<Rows, Cols, Ld>(M.data(), v.data(), out);
    for (std::size_t r = 0; r < Rows; ++r) {
        double s = double(before[r]), mag = std::fabs(double(before[r]));
        for (std::size_t j = 0; j < Cols; ++j) {
            s += double(M[r * Ld + j]) * double(v[j]);
            mag += std::fabs(double(M[r * Ld + j]) * double(v[j]));
        }
        INFO("gemv_add Rows " << Rows << " Cols " << Cols << " Ld " << Ld << " row " << r);
        REQUIRE(std::fabs(double(out[r]) - s) <= 4e-7 * (1.0 + mag) * static_cast<double>(Cols + 1));
    }
    for (std::size_t g = 0; g < kGuard; ++g) {
        REQUIRE(y[g] == kSentinel);
        REQUIRE(y[kGuard + Rows + g] == kSentinel);
    }
}

template <class Set, std::size_t Rows, std::size_t... Cols>
void check_row(std::index_sequence<Cols...>) {
    (check_gemv<Set, Rows, Cols, Cols>(), ...);
    (check_gemv<Set, Rows, Cols, Cols + 2>(), ...);  // rows apart (leading dimension past Cols)
}

constexpr std::size_t kDims[] = {1, 3, 7, 17, 33};

template <class Set, std::size_t... I>
void check_all_gemv(std::index_sequence<I...>) {
    (check_row<Set, kDims[I]>(std::index_sequence<kDims[0], kDims[1], kDims[2], kDims[3], kDims[4]>{}), ...);
}

/// y = tanh(A·[x; r] + b) for Rows rows, x of Nx values and r a padded row of Nr (y a padded row of Rows).
template <class Set, std::size_t Rows, std::size_t Nx, std::size_t Nr>
void check_affine_tanh();

/// A padded row of H values (aligned as a model's, its padding lanes a sentinel).
struct Row {
    explicit Row(std::size_t H) : n(H), data(sarnn::padded<float>(H) + sarnn::lanes<float>(), kSentinel) {}
    float* get() {
        auto p = reinterpret_cast<std::uintptr_t>(data.data());
        const std::uintptr_t a = sarnn::storage_alignment<float>();
        return data.data() + ((a - p % a) % a) / sizeof(float);
    }
    bool padding_intact() {
        for (std::size_t k = n; k < sarnn::padded<float>(n); ++k)
            if (get()[k] != kSentinel) return false;
        return true;
    }
    std::size_t n;
    std::vector<float> data;
};

template <class Set, std::size_t H>
void check_lstm_cell() {
    std::vector<float> z(4 * H), b(4 * H);
    for (float& x : z) x = uniform(6.0f);
    for (float& x : b) x = uniform(1.0f);
    Row c_prev(H), c(H), h(H);
    for (std::size_t k = 0; k < H; ++k) c_prev.get()[k] = uniform(3.0f);
    for (std::size_t k = H; k < sarnn::padded<float>(H); ++k) c_prev.get()[k] = 0.0f;  // the contract's zeros
    sarnn::detail::shaped<Set, float>::template lstm_cell<H>(z.data(), b.data(), c_prev.get(), c.get(), h.get());
    for (std::size_t k = 0; k < H; ++k) {
        // c = σ(z_f + b_f)·c_prev + σ(z_i + b_i)·tanh(z_g + b_g); h = σ(z_o + b_o)·tanh(c)
        const double zi = double(z[k]) + double(b[k]), zf = double(z[H + k]) + double(b[H + k]);
        const double zg = double(z[2 * H + k]) + double(b[2 * H + k]);
        const double zo = double(z[3 * H + k]) + double(b[3 * H + k]);
        const double cr = sigmoid_ref(zf) * double(c_prev.get()[k]) + sigmoid_ref(zi) * std::tanh(zg);
        const double hr = sigmoid_ref(zo) * std::tanh(cr);
        INFO("lstm_cell H " << H << " lane " << k);
        REQUIRE(std::fabs(double(c.get()[k]) - cr) <= 2e-6 * (1.0 + std::fabs(cr)));
        REQUIRE(std::fabs(double(h.get()[k]) - hr) <= 2e-6);
    }
    REQUIRE(c.padding_intact());
    REQUIRE(h.padding_intact());
}

template <class Set, std::size_t H>
void check_gru_cell() {
    std::vector<float> gi(3 * H), gh(3 * H), b_ih(3 * H), b_hh(3 * H);
    for (float& x : gi) x = uniform(5.0f);
    for (float& x : gh) x = uniform(5.0f);
    for (float& x : b_ih) x = uniform(1.0f);
    for (float& x : b_hh) x = uniform(1.0f);
    Row h_prev(H), h(H);
    for (std::size_t k = 0; k < H; ++k) h_prev.get()[k] = uniform(1.0f);
    for (std::size_t k = H; k < sarnn::padded<float>(H); ++k) h_prev.get()[k] = 0.0f;
    sarnn::detail::shaped<Set, float>::template gru_cell<H>(gi.data(), gh.data(), b_ih.data(), b_hh.data(),
                                                            h_prev.get(), h.get());
    for (std::size_t k = 0; k < H; ++k) {
        // r, z = σ(gi + b_ih + gh + b_hh), n = tanh(gi_n + b_in + r·(gh_n + b_hn)), h = (1 - z)·n + z·h_prev
        const double r = sigmoid_ref(double(gi[k]) + double(b_ih[k]) + double(gh[k]) + double(b_hh[k]));
        const double zz = sigmoid_ref(double(gi[H + k]) + double(b_ih[H + k]) + double(gh[H + k]) +
                                      double(b_hh[H + k]));
        const double n = std::tanh(double(gi[2 * H + k]) + double(b_ih[2 * H + k]) +
                                   r * (double(gh[2 * H + k]) + double(b_hh[2 * H + k])));
        const double hr = (1.0 - zz) * n + zz * double(h_prev.get()[k]);
        INFO("gru_cell H " << H << " lane " << k);
        REQUIRE(std::fabs(double(h.get()[k]) - hr) <= 2e-6);
    }
    REQUIRE(h.padding_intact());
}

template <class Set, std::size_t Rows, std::size_t Nx, std::size_t Nr>
void check_affine_tanh() {
    std::vector<float> A(Rows * (Nx + Nr)), b(Rows), x(Nx);
    for (float& a : A) a = uniform(0.5f);
    for (float& v : b) v = uniform(1.0f);
    for (float& v : x) v = uniform(2.0f);
    Row r(Nr), y(Rows);
    for (std::size_t k = 0; k < Nr; ++k) r.get()[k] = uniform(1.0f);
    for (std::size_t k = Nr; k < sarnn::padded<float>(Nr); ++k) r.get()[k] = 0.0f;
    sarnn::detail::shaped<Set, float>::template affine_tanh<Rows, Nx, Nr>(A.data(), b.data(), x.data(), r.get(),
                                                                          y.get());
    for (std::size_t i = 0; i < Rows; ++i) {
        // y_i = tanh(A_i·[x; r] + b_i)
        double s = double(b[i]);
        for (std::size_t j = 0; j < Nx; ++j) s += double(A[i * (Nx + Nr) + j]) * double(x[j]);
        for (std::size_t j = 0; j < Nr; ++j) s += double(A[i * (Nx + Nr) + Nx + j]) * double(r.get()[j]);
        INFO("affine_tanh Rows " << Rows << " Nx " << Nx << " Nr " << Nr << " row " << i);
        REQUIRE(std::fabs(double(y.get()[i]) - std::tanh(s)) <= 2e-6 * static_cast<double>(Nx + Nr));
    }
    REQUIRE(y.padding_intact());
}

template <class Set, std::size_t Nx, std::size_t... H>
void check_affine_row(std::index_sequence<H...>) {
    (check_affine_tanh<Set, H, Nx, H>(), ...);  // the RNNs' shape: Rows = Nr = Hidden
    (check_affine_tanh<Set, H, Nx, 5>(), ...);
}

template <class Set, std::size_t... I>
void check_all_affine(std::index_sequence<I...>) {
    (check_affine_row<Set, kDims[I]>(std::index_sequence<kDims[0], kDims[1], kDims[2], kDims[3], kDims[4]>{}), ...);
}

template <class Set, std::size_t... H>
void check_cells(std::index_sequence<H...>) {
    (check_lstm_cell<Set, H>(), ...);
    (check_gru_cell<Set, H>(), ...);
}

using CellSizes = std::index_sequence<1, 2, 3, 4, 5, 7, 8, 17, 33>;

/// f.template operator()<Set>() for the Cortex-M float set when lib/ holds it (not on the cores without an FPU).
template <class F>
void on_cortex_m(F f) {
#define SARNN_TEST_CM_(id, Type, double_id) \
    if constexpr (sarnn::Arch::id == sarnn::Arch::cortex_m) f(sarnn::kernel::Type{});
    SARNN_SETS(SARNN_TEST_CM_)
#undef SARNN_TEST_CM_
}

/// The set the build has (config.hpp), whatever SARNN_DEFAULT_SET the suite is compiled with.
using Own = sarnn::kernel::SARNN_BUILD_DEFAULT_SET;

}  // namespace

TEST_CASE("shaped layer: the NEON sets take the shaped forms for float, every other set the run-time ones",
          "[shaped]") {
    using sarnn::kernel::shaped_gemv;
    using D = sarnn::detail::shaped<Own, float>;
#if defined(__ARM_NEON) && defined(__aarch64__)
    constexpr bool expected = std::is_same_v<Own, sarnn::kernel::Neon64>;
    STATIC_REQUIRE(expected);
#elif defined(__ARM_NEON)
    constexpr bool expected = std::is_same_v<Own, sarnn::kernel::Neon>;
    STATIC_REQUIRE(expected);
#else
    constexpr bool expected = false;
#endif
    STATIC_REQUIRE(D::has(shaped_gemv) == expected);
    STATIC_REQUIRE(D::has(sarnn::kernel::shaped_gemv_add) == expected);
    STATIC_REQUIRE(D::has(sarnn::kernel::shaped_lstm_cell) == expected);
    STATIC_REQUIRE(D::has(sarnn::kernel::shaped_gru_cell) == expected);
    STATIC_REQUIRE(D::has(sarnn::kernel::shaped_affine_tanh) == expected);
    // double, the scalar set and Dispatch: never
    STATIC_REQUIRE(!sarnn::detail::shaped<sarnn::kernel::Dispatch, float>::has(shaped_gemv));
    STATIC_REQUIRE(!sarnn::detail::shaped<Own, double>::has(shaped_gemv));
    STATIC_REQUIRE(!sarnn::detail::shaped<sarnn::kernel::Scalar, float>::has(shaped_gemv));
    // the Cortex-M float set: every shaped form, for float only
    on_cortex_m([](auto set) {
        using CM = decltype(set);
        using C = sarnn::detail::shaped<CM, float>;
        STATIC_REQUIRE(C::has(sarnn::kernel::shaped_gemv));
        STATIC_REQUIRE(C::has(sarnn::kernel::shaped_gemv_add));
        STATIC_REQUIRE(C::has(sarnn::kernel::shaped_lstm_cell));
        STATIC_REQUIRE(C::has(sarnn::kernel::shaped_gru_cell));
        STATIC_REQUIRE(C::has(sarnn::kernel::shaped_affine_tanh));
        STATIC_REQUIRE(!sarnn::detail::shaped<CM, double>::has(sarnn::kernel::shaped_gemv));
    });
}

TEST_CASE("shaped gemv and gemv_add against double loops, Rows x Cols in {1, 3, 7, 17, 33}^2", "[shaped]") {
    SECTION("the build's set") { check_all_gemv<Own>(std::make_index_sequence<5>{}); }
    SECTION("scalar set (run-time path)") { check_all_gemv<sarnn::kernel::Scalar>(std::make_index_sequence<5>{}); }
    SECTION("Cortex-M float set") {
        on_cortex_m([](auto set) { check_all_gemv<decltype(set)>(std::make_index_sequence<5>{}); });
    }
}

TEST_CASE("shaped lstm_cell and gru_cell against double formulas, H in {1, 2, 3, 4, 5, 7, 8, 17, 33}", "[shaped]") {
    SECTION("the build's set") { check_cells<Own>(CellSizes{}); }
    SECTION("scalar set (run-time path)") { check_cells<sarnn::kernel::Scalar>(CellSizes{}); }
    SECTION("Cortex-M float set") {
        on_cortex_m([](auto set) { check_cells<decltype(set)>(CellSizes{}); });
    }
}

TEST_CASE("shaped affine_tanh against double loops, Hidden x In in {1, 3, 7, 17, 33}^2", "[shaped]") {
    SECTION("the build's set") { check_all_affine<Own>(std::make_index_sequence<5>{}); }
    SECTION("scalar set (run-time path)") { check_all_affine<sarnn::kernel::Scalar>(std::make_index_sequence<5>{}); }
    SECTION("Cortex-M float set") {
        on_cortex_m([](auto set) { check_all_affine<decltype(set)>(std::make_index_sequence<5>{}); });
    }
}
