// tests/test_shaped.cpp: the shaped kernel layer (include/sarnn/detail/shaped.hpp): gemv, gemv_add, affine_tanh,
// lstm_cell and gru_cell with their sizes as template parameters, on the build's own set (SARNN_BUILD_DEFAULT_SET: the
// suite's kernel::Default is Dispatch everywhere) and on kernel::Scalar (always the run-time path), against
// straightforward double loops written here. AArch64 and ARMv7 NEON: the build's set is Neon64 or Neon, whose shaped
// NEON forms (include/sarnn/kernels/neon/) are checked; x86-64: Dispatch, the run-time operations with the sizes as
// arguments. kernel::CortexM (Cortex-M4F, M7; plain C++, so on every host where lib/ holds it): its shaped forms
// (include/sarnn/kernels/cortex_m/), checked on every build. Shapes: Rows x Cols in {1, 3, 7, 17, 33}² (and a leading
// dimension past Cols), Hidden x In in {1, 3, 7, 17, 33}² for affine_tanh, H in {1, 2, 3, 4, 5, 7, 8, 17, 33} for the
// cells, rows of Dim in {1, 3, 4, 7, 17, 33, 40, 96} in rings of 1, 7, 64 and 301 rows (n from 1 to the whole ring,
// starts 0, 1, Cap / 2, Cap - 1) for the context kernels (attend_dot, weighted_sum, softmax). Outputs that hold exactly
// n values have sentinels after them (and gemv_add one before): they must survive. The padded rows of the cells have
// sentinels in their padding lanes: the contract is that only lanes < H are written.
#include <catch2/catch.hpp>

#include <sarnn/detail/shaped.hpp>
#include <sarnn/sarnn.hpp>

#include <algorithm>
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

// Each check is a plain function, compiled once, that takes the kernel under test as a function pointer; only the
// small lambda that calls the shaped kernel with its sizes is instantiated per set and shape.
using GemvFn = void (*)(const float* M, const float* v, float* y);
using AffineFn = void (*)(const float* A, const float* b, const float* x, const float* r, float* y);
using LstmCellFn = void (*)(const float* z, const float* b, const float* c_prev, float* c, float* h);
using GruCellFn = void (*)(const float* gi, const float* gh, const float* b_ih, const float* b_hh, const float* h_prev,
                           float* h);
using AttendFn = void (*)(const sarnn::Rows<float>& S, const float* q, float scale, float* alpha, float* c);
using WeightedFn = void (*)(const float* w, const sarnn::Rows<float>& S, float* c);
using SoftmaxFn = void (*)(float* y, std::size_t n);

/// gemv (y = M·v) and gemv_add (y += M·v) of Rows x Cols, rows Ld apart, against double sums; the tolerance grows
/// with Σ|M_rj v_j| per row (float's rounding grows with the terms, not the result).
void check_gemv_run(std::size_t Rows, std::size_t Cols, std::size_t Ld, GemvFn gemv, GemvFn gemv_add) {
    std::vector<float> M(Rows * Ld), v(Cols), y(Rows + 2 * kGuard, kSentinel);
    for (float& m : M) m = uniform(1.0f);
    for (float& x : v) x = uniform(2.0f);
    // gemv: y = M·v (the padding columns of M, past Cols, hold large values no sum may read)
    for (std::size_t r = 0; r < Rows; ++r)
        for (std::size_t j = Cols; j < Ld; ++j) M[r * Ld + j] = 1e30f;
    float* out = y.data() + kGuard;
    gemv(M.data(), v.data(), out);
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
    gemv_add(M.data(), v.data(), out);
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

template <class Set, std::size_t Rows, std::size_t Cols, std::size_t Ld>
void check_gemv() {
    using K = sarnn::detail::shaped<Set, float>;
    check_gemv_run(
        Rows, Cols, Ld, [](const float* M, const float* v, float* y) { K::template gemv<Rows, Cols, Ld>(M, v, y); },
        [](const float* M, const float* v, float* y) { K::template gemv_add<Rows, Cols, Ld>(M, v, y); });
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
    /// The padding lanes 0, as the contract has them on entry (the run-time context kernels store whole vectors,
    /// whose padding lanes sum zeros); padding_zero() checks they still are.
    void zero_padding() {
        for (std::size_t k = n; k < sarnn::padded<float>(n); ++k) get()[k] = 0.0f;
    }
    bool padding_zero() {
        for (std::size_t k = n; k < sarnn::padded<float>(n); ++k)
            if (get()[k] != 0.0f) return false;
        return true;
    }
    std::size_t n;
    std::vector<float> data;
};

void check_lstm_cell_run(std::size_t H, LstmCellFn cell) {
    std::vector<float> z(4 * H), b(4 * H);
    for (float& x : z) x = uniform(6.0f);
    for (float& x : b) x = uniform(1.0f);
    Row c_prev(H), c(H), h(H);
    for (std::size_t k = 0; k < H; ++k) c_prev.get()[k] = uniform(3.0f);
    for (std::size_t k = H; k < sarnn::padded<float>(H); ++k) c_prev.get()[k] = 0.0f;  // the contract's zeros
    cell(z.data(), b.data(), c_prev.get(), c.get(), h.get());
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

void check_gru_cell_run(std::size_t H, GruCellFn cell) {
    std::vector<float> gi(3 * H), gh(3 * H), b_ih(3 * H), b_hh(3 * H);
    for (float& x : gi) x = uniform(5.0f);
    for (float& x : gh) x = uniform(5.0f);
    for (float& x : b_ih) x = uniform(1.0f);
    for (float& x : b_hh) x = uniform(1.0f);
    Row h_prev(H), h(H);
    for (std::size_t k = 0; k < H; ++k) h_prev.get()[k] = uniform(1.0f);
    for (std::size_t k = H; k < sarnn::padded<float>(H); ++k) h_prev.get()[k] = 0.0f;
    cell(gi.data(), gh.data(), b_ih.data(), b_hh.data(), h_prev.get(), h.get());
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

/// y = tanh(A·[x; r] + b) for Rows rows, x of Nx values and r a padded row of Nr (y a padded row of Rows).
void check_affine_tanh_run(std::size_t Rows, std::size_t Nx, std::size_t Nr, AffineFn affine_tanh) {
    std::vector<float> A(Rows * (Nx + Nr)), b(Rows), x(Nx);
    for (float& a : A) a = uniform(0.5f);
    for (float& v : b) v = uniform(1.0f);
    for (float& v : x) v = uniform(2.0f);
    Row r(Nr), y(Rows);
    for (std::size_t k = 0; k < Nr; ++k) r.get()[k] = uniform(1.0f);
    for (std::size_t k = Nr; k < sarnn::padded<float>(Nr); ++k) r.get()[k] = 0.0f;
    affine_tanh(A.data(), b.data(), x.data(), r.get(), y.get());
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

template <class Set, std::size_t Rows, std::size_t Nx, std::size_t Nr>
void check_affine_tanh() {
    check_affine_tanh_run(Rows, Nx, Nr, [](const float* A, const float* b, const float* x, const float* r, float* y) {
        sarnn::detail::shaped<Set, float>::template affine_tanh<Rows, Nx, Nr>(A, b, x, r, y);
    });
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
    using K = sarnn::detail::shaped<Set, float>;
    (check_lstm_cell_run(H, [](const float* z, const float* b, const float* c_prev, float* c,
                               float* h) { K::template lstm_cell<H>(z, b, c_prev, c, h); }),
     ...);
    (check_gru_cell_run(H,
                        [](const float* gi, const float* gh, const float* b_ih, const float* b_hh, const float* h_prev,
                           float* h) { K::template gru_cell<H>(gi, gh, b_ih, b_hh, h_prev, h); }),
     ...);
}

using CellSizes = std::index_sequence<1, 2, 3, 4, 5, 7, 8, 17, 33>;

// ---- the context kernels: attend_dot, weighted_sum, softmax ------------------------------------------------------

/// Cap physical rows of Dim values (padded to Stride, the padding lanes 0 as the contract says), aligned as a model's
/// memory; the n states from physical row `first` on, in ring order.
struct Ring {
    Ring(std::size_t dim, std::size_t cap)
        : Dim(dim), Cap(cap), Stride(sarnn::padded<float>(dim)), data(cap * Stride + sarnn::lanes<float>(), 0.0f) {}
    float* base() {
        auto p = reinterpret_cast<std::uintptr_t>(data.data());
        const std::uintptr_t a = sarnn::storage_alignment<float>();
        return data.data() + ((a - p % a) % a) / sizeof(float);
    }
    /// Every row's Dim values uniform in [-scale, scale).
    void fill(float scale) {
        for (std::size_t r = 0; r < Cap; ++r)
            for (std::size_t d = 0; d < Dim; ++d) base()[r * Stride + d] = uniform(scale);
    }
    sarnn::Rows<float> rows(std::size_t first, std::size_t n) { return {base(), Stride, Dim, Cap, first, n}; }
    /// Logical row j of the n from `first` on.
    const float* row(std::size_t first, std::size_t j) { return base() + (first + j) % Cap * Stride; }
    std::size_t Dim, Cap, Stride;
    std::vector<float> data;
};

/// alpha_j = softmax_j(scale·(S_j·q)) and c = Σ_j alpha_j S_j in double, against the set's attend_dot at every n in
/// `ns` (<= Cap) and ring start `firsts` (< Cap), q a fresh padded row or the newest state (as DotAlign passes h).
/// Tolerance: 1e-5 times the largest Σ_d |scale·S_jd·q_d| (float's rounding grows with the terms of a score).
void check_attend_dot_run(std::size_t Dim, std::size_t Cap, float q_scale, AttendFn attend_dot) {
    Ring S(Dim, Cap);
    S.fill(1.0f);
    Row q_row(Dim);
    for (std::size_t d = 0; d < Dim; ++d) q_row.get()[d] = uniform(q_scale);
    for (std::size_t d = Dim; d < S.Stride; ++d) q_row.get()[d] = 0.0f;  // the contract's zeros
    const std::size_t ns[] = {1, 2, 3, 4, 5, 7, 8, 9, Cap / 2, Cap - 1, Cap};
    const std::size_t firsts[] = {0, 1, Cap / 2, Cap - 1};
    for (std::size_t n : ns) {
        if (n < 1 || n > Cap) continue;
        for (std::size_t first : firsts) {
            for (int variant = 0; variant < 2; ++variant) {
                const float* q = variant == 0 ? q_row.get() : S.row(first, n - 1);  // variant 1: q is the newest state
                for (float scale : {1.0f, 1.0f / std::sqrt(float(Dim))}) {
                    std::vector<float> alpha(n + 2 * kGuard, kSentinel);
                    Row c(Dim);
                    c.zero_padding();
                    attend_dot(S.rows(first, n), q, scale, alpha.data() + kGuard, c.get());
                    // e_j = scale·(S_j·q); alpha = softmax(e); c = Σ_j alpha_j S_j
                    std::vector<double> e(n), a(n);
                    double mag = 1.0, m = -1e300, l = 0.0;
                    for (std::size_t j = 0; j < n; ++j) {
                        double s = 0.0, t = 0.0;
                        for (std::size_t d = 0; d < Dim; ++d) {
                            s += double(S.row(first, j)[d]) * double(q[d]);
                            t += std::fabs(double(S.row(first, j)[d]) * double(q[d]));
                        }
                        e[j] = double(scale) * s;
                        mag = std::max(mag, double(scale) * t);
                        m = std::max(m, e[j]);
                    }
                    for (std::size_t j = 0; j < n; ++j) l += (a[j] = std::exp(e[j] - m));
                    INFO("attend_dot Dim " << Dim << " Cap " << Cap << " n " << n << " first " << first << " q "
                                           << (variant == 0 ? "row" : "newest") << " scale " << scale);
                    double sum = 0.0;
                    for (std::size_t j = 0; j < n; ++j) {
                        a[j] /= l;
                        REQUIRE(std::fabs(double(alpha[kGuard + j]) - a[j]) <= 1e-5 * mag);
                        sum += double(alpha[kGuard + j]);
                    }
                    REQUIRE(std::fabs(sum - 1.0) <= 1e-6 * double(n));  // alpha sums to 1
                    for (std::size_t d = 0; d < Dim; ++d) {
                        double want = 0.0;
                        for (std::size_t j = 0; j < n; ++j) want += a[j] * double(S.row(first, j)[d]);
                        REQUIRE(std::fabs(double(c.get()[d]) - want) <= 1e-5 * mag);
                    }
                    if (n == 1) {
                        // one state: alpha = 1 and c = h_1, exactly
                        REQUIRE(alpha[kGuard] == 1.0f);
                        for (std::size_t d = 0; d < Dim; ++d) REQUIRE(c.get()[d] == S.row(first, 0)[d]);
                    }
                    for (std::size_t g = 0; g < kGuard; ++g) {
                        REQUIRE(alpha[g] == kSentinel);
                        REQUIRE(alpha[kGuard + n + g] == kSentinel);
                    }
                    REQUIRE(c.padding_zero());
                }
            }
        }
    }
}

/// c = Σ_j w_j S_j against double loops, every n and start as check_attend_dot_run.
void check_weighted_sum_run(std::size_t Dim, std::size_t Cap, WeightedFn weighted_sum) {
    Ring S(Dim, Cap);
    S.fill(1.0f);
    const std::size_t ns[] = {1, 2, 3, 4, 5, 7, 8, 9, Cap / 2, Cap - 1, Cap};
    const std::size_t firsts[] = {0, 1, Cap / 2, Cap - 1};
    for (std::size_t n : ns) {
        if (n < 1 || n > Cap) continue;
        for (std::size_t first : firsts) {
            std::vector<float> w(n);
            for (float& v : w) v = uniform(1.0f);
            Row c(Dim);
            c.zero_padding();
            weighted_sum(w.data(), S.rows(first, n), c.get());
            INFO("weighted_sum Dim " << Dim << " Cap " << Cap << " n " << n << " first " << first);
            for (std::size_t d = 0; d < Dim; ++d) {
                // c_d = Σ_j w_j S_jd
                double want = 0.0, mag = 1.0;
                for (std::size_t j = 0; j < n; ++j) {
                    want += double(w[j]) * double(S.row(first, j)[d]);
                    mag += std::fabs(double(w[j]) * double(S.row(first, j)[d]));
                }
                REQUIRE(std::fabs(double(c.get()[d]) - want) <= 1e-6 * mag);
            }
            REQUIRE(c.padding_zero());
        }
    }
}

template <class Set, std::size_t Dim, std::size_t Cap>
void check_attend_dot(float q_scale) {
    check_attend_dot_run(
        Dim, Cap, q_scale, [](const sarnn::Rows<float>& S, const float* q, float scale, float* alpha, float* c) {
            sarnn::detail::shaped<Set, float>::template attend_dot<Dim, sarnn::padded<float>(Dim), Cap>(S, q, scale,
                                                                                                        alpha, c);
        });
}

template <class Set, std::size_t Dim, std::size_t Cap>
void check_weighted_sum() {
    check_weighted_sum_run(Dim, Cap, [](const float* w, const sarnn::Rows<float>& S, float* c) {
        sarnn::detail::shaped<Set, float>::template weighted_sum<Dim, sarnn::padded<float>(Dim), Cap>(w, S, c);
    });
}

/// Weighted: also weighted_sum (not for a set whose shaped forms have no weighted_sum: the Cortex-M float set's is the
/// run-time one, which tests/test_kernels.cpp checks).
template <class Set, std::size_t Dim, bool Weighted = true>
void check_context_dim() {
    check_attend_dot<Set, Dim, 1>(1.0f);
    check_attend_dot<Set, Dim, 7>(1.0f);
    check_attend_dot<Set, Dim, 64>(1.0f);
    check_attend_dot<Set, Dim, 64>(8.0f);   // scores up to 8·Dim: the softmax's shift matters
    check_attend_dot<Set, Dim, 301>(1.0f);  // a long ring, wrapping
    if constexpr (!Weighted) return;
    check_weighted_sum<Set, Dim, 1>();
    check_weighted_sum<Set, Dim, 7>();
    check_weighted_sum<Set, Dim, 64>();
    check_weighted_sum<Set, Dim, 301>();
}

template <class Set, bool Weighted = true, std::size_t... I>
void check_all_context(std::index_sequence<I...>) {
    (check_context_dim<Set, kDims[I], Weighted>(), ...);
    check_context_dim<Set, 4, Weighted>();   // whole vectors: no lane tail
    check_context_dim<Set, 40, Weighted>();  // 10 vectors
    check_context_dim<Set, 96, Weighted>();  // 24 vectors: more than one group of c's registers
}

/// softmax over n values (a tail of n % 4 among them) against double, with scores up to +-50.
void check_softmax_run(SoftmaxFn softmax) {
    for (std::size_t n = 1; n <= 70; ++n) {
        std::vector<float> y(n + 2 * kGuard, kSentinel);
        for (std::size_t j = 0; j < n; ++j) y[kGuard + j] = uniform(50.0f);
        std::vector<double> e(y.begin() + kGuard, y.begin() + kGuard + static_cast<std::ptrdiff_t>(n));
        softmax(y.data() + kGuard, n);
        double m = -1e300, l = 0.0, sum = 0.0;
        for (double v : e) m = std::max(m, v);
        for (double& v : e) l += (v = std::exp(v - m));
        INFO("softmax n " << n);
        for (std::size_t j = 0; j < n; ++j) {
            REQUIRE(std::fabs(double(y[kGuard + j]) - e[j] / l) <= 1e-6 * 50.0);
            sum += double(y[kGuard + j]);
        }
        REQUIRE(std::fabs(sum - 1.0) <= 1e-6 * double(n));
        for (std::size_t g = 0; g < kGuard; ++g) {
            REQUIRE(y[g] == kSentinel);
            REQUIRE(y[kGuard + n + g] == kSentinel);
        }
    }
}

template <class Set>
void check_softmax() {
    check_softmax_run([](float* y, std::size_t n) { sarnn::detail::shaped<Set, float>::softmax(y, n); });
}

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
    STATIC_REQUIRE(D::has(sarnn::kernel::shaped_attend_dot) == expected);
    STATIC_REQUIRE(D::has(sarnn::kernel::shaped_weighted_sum) == expected);
    STATIC_REQUIRE(D::has(sarnn::kernel::shaped_softmax) == expected);
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
        STATIC_REQUIRE(C::has(sarnn::kernel::shaped_attend_dot));
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

TEST_CASE(
    "shaped attend_dot and weighted_sum against double loops, Dim in {1, 3, 4, 7, 17, 33, 40, 96}, rings that wrap",
    "[shaped]") {
    SECTION("the build's set") { check_all_context<Own>(std::make_index_sequence<5>{}); }
    SECTION("scalar set (run-time path)") { check_all_context<sarnn::kernel::Scalar>(std::make_index_sequence<5>{}); }
    SECTION("Cortex-M float set") {
        on_cortex_m([](auto set) { check_all_context<decltype(set), false>(std::make_index_sequence<5>{}); });
    }
}

TEST_CASE("shaped softmax against double, n in 1..70", "[shaped]") {
    SECTION("the build's set") { check_softmax<Own>(); }
    SECTION("scalar set (run-time path)") { check_softmax<sarnn::kernel::Scalar>(); }
}
