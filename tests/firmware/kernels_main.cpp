// tests/firmware/kernels_main.cpp: the build's kernel set (kernel::Default: cortex-m, cortex-m0, or mve with Helium)
// checked on the board kernel by kernel, against double arithmetic computed here: the sizes and values the models'
// cases do not reach (every tail length, the edges of exp and tanh, Inf and NaN). The host's Catch2 suite does the
// same for the sets a host builds; the mve set builds only for Helium cores, so this is where its kernels are
// checked one by one. Prints "N passed, N failed" over semihosting, exits 0 only when nothing failed.
//
// Bounds (absolute unless said): dot and the products 1e-6 relative to Σ|terms| (plus 1e-30); tanh 2.5e-7;
// exp 3e-7 relative where the result is a normal float, 1e-44 below; softmax 1e-6. Special values: tanh(±Inf) =
// ±1, exp(-Inf) = 0, exp(x > 88.73) = +Inf, NaN in gives NaN out.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <initializer_list>
#include <limits>

#include <sarnn/sarnn.hpp>

namespace {

using Set = sarnn::kernel::Default;

/// f as a double (explicitly: the firmware is built with -Wdouble-promotion).
double d(float f) { return static_cast<double>(f); }

int g_passed = 0;
int g_failed = 0;

void expect(bool ok, const char* what, double got, double want, std::size_t n) {
    if (ok) {
        ++g_passed;
        return;
    }
    ++g_failed;
    if (g_failed <= 20)
        std::printf("FAIL %s (n %u): got %.9g, expected %.9g\n", what, static_cast<unsigned>(n), got, want);
}

std::uint32_t g_lcg = 2024u;
float uniform(float bound) {  // in [-bound, bound)
    g_lcg = g_lcg * 1664525u + 1013904223u;
    return bound * static_cast<float>(static_cast<std::int32_t>(g_lcg >> 8) - (1 << 23)) / static_cast<float>(1 << 23);
}

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

void check_dot() {
    alignas(16) float a[40], b[40];
    for (std::size_t n = 1; n <= 37; ++n) {
        double want = 0.0, mag = 0.0;
        for (std::size_t k = 0; k < n; ++k) {
            a[k] = uniform(2.0f);
            b[k] = uniform(2.0f);
            want += d(a[k]) * d(b[k]);
            mag += std::fabs(d(a[k]) * d(b[k]));
        }
        // one past the end poisoned: a kernel that reads it gives NaN
        a[n] = kNaN;
        b[n] = kNaN;
        const double got = d(Set::dot(a, b, n));
        expect(std::fabs(got - want) <= 1e-6 * mag + 1e-30, "dot", got, want, n);
    }
}

void check_products() {
    alignas(16) float M[9 * 12], v[12], y[12], y0[12];
    for (std::size_t rows = 1; rows <= 9; ++rows)
        for (std::size_t cols = 1; cols <= 11; cols += 2) {
            const std::size_t ld = cols + 1;  // rows not contiguous: the kernels must honour ld
            for (std::size_t k = 0; k < rows * ld; ++k) M[k] = uniform(1.0f);
            for (std::size_t k = 0; k < 12; ++k) v[k] = uniform(1.0f);
            // y = M·v, then y += M·v
            for (std::size_t k = 0; k < 12; ++k) y[k] = y0[k] = uniform(1.0f);
            Set::gemv(M, rows, cols, ld, v, y);
            for (std::size_t r = 0; r < rows; ++r) {
                double want = 0.0, mag = 0.0;
                for (std::size_t c = 0; c < cols; ++c) {
                    want += d(M[r * ld + c]) * d(v[c]);
                    mag += std::fabs(d(M[r * ld + c]) * d(v[c]));
                }
                expect(std::fabs(d(y[r]) - want) <= 1e-6 * mag + 1e-30, "gemv", d(y[r]), want, rows * 100 + cols);
            }
            for (std::size_t r = rows; r < 12; ++r) expect(y[r] == y0[r], "gemv writes past rows", d(y[r]), d(y0[r]), rows);
            for (std::size_t r = 0; r < rows; ++r) y0[r] = y[r];
            Set::gemv_add(M, rows, cols, ld, v, y);
            for (std::size_t r = 0; r < rows; ++r) {
                double want = d(y0[r]), mag = std::fabs(d(y0[r]));
                for (std::size_t c = 0; c < cols; ++c) {
                    want += d(M[r * ld + c]) * d(v[c]);
                    mag += std::fabs(d(M[r * ld + c]) * d(v[c]));
                }
                expect(std::fabs(d(y[r]) - want) <= 1e-6 * mag + 1e-30, "gemv_add", d(y[r]), want, rows * 100 + cols);
            }
            // y = Mᵀ·v (v of rows values, y of cols values)
            for (std::size_t k = 0; k < 12; ++k) y[k] = y0[k] = uniform(1.0f);
            Set::gemv_t(M, rows, cols, ld, v, y);
            for (std::size_t c = 0; c < cols; ++c) {
                double want = 0.0, mag = 0.0;
                for (std::size_t r = 0; r < rows; ++r) {
                    want += d(M[r * ld + c]) * d(v[r]);
                    mag += std::fabs(d(M[r * ld + c]) * d(v[r]));
                }
                expect(std::fabs(d(y[c]) - want) <= 1e-6 * mag + 1e-30, "gemv_t", d(y[c]), want, rows * 100 + cols);
            }
            for (std::size_t c = cols; c < 12; ++c) expect(y[c] == y0[c], "gemv_t writes past cols", d(y[c]), d(y0[c]), cols);
        }
}

/// gemv and gemv_add on contiguous rows (ld = cols) of 4, 8 and 12 values, 4 to 9 of them: the Cortex-M set's loop
/// over groups of four rows (one block of assembly) and the rows after the last group.
void check_products_contiguous() {
    alignas(16) float M[9 * 12], v[12], y[12], y0[12];
    for (std::size_t rows = 4; rows <= 9; ++rows)
        for (std::size_t cols = 4; cols <= 12; cols += 4) {
            for (std::size_t k = 0; k < rows * cols; ++k) M[k] = uniform(1.0f);
            for (std::size_t k = 0; k < 12; ++k) v[k] = uniform(1.0f);
            for (int add = 0; add < 2; ++add) {
                for (std::size_t k = 0; k < 12; ++k) y[k] = y0[k] = uniform(1.0f);
                // y = M·v, or y += M·v
                if (add != 0) Set::gemv_add(M, rows, cols, cols, v, y);
                else Set::gemv(M, rows, cols, cols, v, y);
                for (std::size_t r = 0; r < rows; ++r) {
                    double want = add != 0 ? d(y0[r]) : 0.0, mag = std::fabs(want);
                    for (std::size_t c = 0; c < cols; ++c) {
                        want += d(M[r * cols + c]) * d(v[c]);
                        mag += std::fabs(d(M[r * cols + c]) * d(v[c]));
                    }
                    const char* what = add != 0 ? "gemv_add, ld = cols" : "gemv, ld = cols";
                    expect(std::fabs(d(y[r]) - want) <= 1e-6 * mag + 1e-30, what, d(y[r]), want, rows * 100 + cols);
                }
                for (std::size_t r = rows; r < 12; ++r)
                    expect(y[r] == y0[r], "gemv or gemv_add (ld = cols) writes past rows", d(y[r]), d(y0[r]), rows);
            }
        }
}

/// The gates as lstm_cell computes them (H = 1), over [-10, 10] every 1/64, within the bound of tanh (2.5e-7, for
/// σ too): σ(x) through c = σ(x)·tanh(18) (tanh(18) rounds to 1); tanh(x) through c = σ(20)·tanh(x) (σ(20) rounds
/// to 1); tanh(c) through h = σ(18)·tanh(c), c = σ(18)·x + σ(0)·tanh(0) = x. With small pre-activations, as here,
/// the cortex-m set computes them inline (cortex_m/set.hpp: gate_sigmoid, gate_tanh).
void check_cell_gates() {
    const float b[4] = {0.0f, 0.0f, 0.0f, 0.0f}, zero[1] = {0.0f};
    double worst_sig = 0.0, worst_tanh = 0.0;
    for (int i = -640; i <= 640; ++i) {
        const float x = static_cast<float>(i) / 64.0f, x_prev[1] = {x};
        const double sig = 1.0 / (1.0 + std::exp(-d(x))), th = std::tanh(d(x));
        float c[1], h[1];
        const float z_i[4] = {x, 0.0f, 18.0f, 0.0f}, z_g[4] = {20.0f, 0.0f, x, 0.0f}, z_c[4] = {0.0f, 18.0f, 0.0f, 18.0f};
        Set::lstm_cell(z_i, b, zero, 1, c, h);
        expect(std::fabs(d(c[0]) - sig) <= 2.5e-7, "lstm_cell: sigmoid", d(c[0]), sig, static_cast<std::size_t>(i + 640));
        worst_sig = std::fmax(worst_sig, std::fabs(d(c[0]) - sig));
        Set::lstm_cell(z_g, b, zero, 1, c, h);
        expect(std::fabs(d(c[0]) - th) <= 2.5e-7, "lstm_cell: tanh of a_g", d(c[0]), th, static_cast<std::size_t>(i + 640));
        worst_tanh = std::fmax(worst_tanh, std::fabs(d(c[0]) - th));
        Set::lstm_cell(z_c, b, x_prev, 1, c, h);
        expect(std::fabs(d(h[0]) - th) <= 2.5e-7, "lstm_cell: tanh of c", d(h[0]), th, static_cast<std::size_t>(i + 640));
        worst_tanh = std::fmax(worst_tanh, std::fabs(d(h[0]) - th));
    }
    std::printf("lstm_cell's gates: largest error of sigmoid %.3g, of tanh %.3g\n", worst_sig, worst_tanh);
}

// x and y of check_tanh and check_exp (4.8 kB: the Cortex-M0 board has 16 kB of RAM)
constexpr std::size_t kN = 600;
float g_x[kN];
float g_y[kN];

void check_tanh() {
    float* const x = g_x;
    float* const y = g_y;
    std::size_t n = 0;
    for (float t = -12.0f; t < 12.0f && n < kN - 12; t += 0.0413f) x[n++] = t;
    for (const float s : {0.0f, -0.0f, 1e-8f, -1e-8f, 9.1f, -9.1f, 20.0f, -20.0f, kInf, -kInf, kNaN})
        if (n < kN) x[n++] = s;
    // odd lengths: every tail
    for (const std::size_t len : {n, n - 1, n - 2, n - 3}) {
        for (std::size_t k = 0; k < len; ++k) y[k] = x[k];
        Set::tanh(y, len);
        for (std::size_t k = 0; k < len; ++k) {
            if (std::isnan(x[k])) {
                expect(std::isnan(y[k]), "tanh(NaN) is NaN", d(y[k]), d(x[k]), k);
                continue;
            }
            const double want = std::tanh(d(x[k]));
            expect(std::fabs(d(y[k]) - want) <= 2.5e-7, "tanh", d(y[k]), want, k);
        }
    }
}

void check_exp() {
    float* const x = g_x;
    float* const y = g_y;
    std::size_t n = 0;
    for (float t = -110.0f; t < 90.0f && n < kN - 12; t += 0.3373f) x[n++] = t;
    for (const float s : {0.0f, -87.0f, 88.0f, 88.72f, 88.73f, -103.9f, -104.5f, kInf, -kInf, kNaN})
        if (n < kN) x[n++] = s;
    for (const std::size_t len : {n, n - 1, n - 2, n - 3}) {
        for (std::size_t k = 0; k < len; ++k) y[k] = x[k];
        Set::exp(y, len);
        for (std::size_t k = 0; k < len; ++k) {
            if (std::isnan(x[k])) {
                expect(std::isnan(y[k]), "exp(NaN) is NaN", d(y[k]), d(x[k]), k);
                continue;
            }
            const double want = std::exp(d(x[k]));
            if (want > 3.4028234663852886e38) {
                expect(std::isinf(y[k]) && y[k] > 0.0f, "exp overflows to +Inf", d(y[k]), want, k);
            } else if (want >= 1.1754943508222875e-38) {
                expect(std::fabs(d(y[k]) - want) <= 3e-7 * want, "exp", d(y[k]), want, k);
            } else {
                expect(std::fabs(d(y[k]) - want) <= 1e-44, "exp (denormal or 0)", d(y[k]), want, k);
            }
        }
    }
}

void check_softmax() {
    alignas(16) float y[16];
    double e[16];
    for (std::size_t n = 1; n <= 13; ++n) {
        float x[16];
        for (std::size_t k = 0; k < n; ++k) x[k] = y[k] = uniform(30.0f);
        if (n >= 3) x[1] = y[1] = x[0] - 95.0f;  // a term past e^-87 from the max
        Set::softmax(y, n);
        double m = d(x[0]), l = 0.0;
        for (std::size_t k = 1; k < n; ++k) m = d(x[k]) > m ? d(x[k]) : m;
        for (std::size_t k = 0; k < n; ++k) l += (e[k] = std::exp(d(x[k]) - m));
        for (std::size_t k = 0; k < n; ++k) expect(std::fabs(d(y[k]) - e[k] / l) <= 1e-6, "softmax", d(y[k]), e[k] / l, n);
    }
    // NaN among the scores: some NaN comes out (the models then refuse the step)
    for (const std::size_t n : {std::size_t{1}, std::size_t{5}, std::size_t{8}}) {
        for (std::size_t k = 0; k < n; ++k) y[k] = uniform(3.0f);
        y[n / 2] = kNaN;
        Set::softmax(y, n);
        bool any = false;
        for (std::size_t k = 0; k < n; ++k) any = any || std::isnan(y[k]);
        expect(any, "softmax with a NaN score gives NaN", 0.0, 0.0, n);
    }
}

/// weighted_sum over rings of cap rows (the storage in g_x), every n up to cap and three firsts (not wrapping,
/// wrapping after one row, after half): row widths of one vector to 64 floats (the mve set's 16-column chunks at
/// 16, 32, 48 and 64), the padding of c past padded(dim) left alone.
void check_weighted_sum() {
    alignas(16) float w[12];
    alignas(16) float c[68];
    for (const std::size_t dim : {std::size_t{3}, std::size_t{8}, std::size_t{13}, std::size_t{16}, std::size_t{20},
                                  std::size_t{32}, std::size_t{48}, std::size_t{64}}) {
        const std::size_t stride = sarnn::padded<float>(dim);
        const std::size_t cap = kN / stride < 12 ? kN / stride : 12;
        for (std::size_t k = 0; k < cap * stride; ++k) g_x[k] = uniform(2.0f);
        for (std::size_t n = 1; n <= cap; ++n)
            for (const std::size_t first : {std::size_t{0}, cap - 1, cap / 2}) {
                for (std::size_t j = 0; j < n; ++j) w[j] = uniform(1.0f);
                for (float& v : c) v = kNaN;
                c[stride] = 7.0f;
                const sarnn::Rows<float> S{g_x, stride, dim, cap, first, n};
                Set::weighted_sum(w, S, c);
                bool ok = c[stride] == 7.0f;
                for (std::size_t k = 0; k < dim; ++k) {
                    double want = 0.0, mag = 0.0;
                    // c_k = Σ_j w_j S_j[k]
                    for (std::size_t j = 0; j < n; ++j) {
                        want += d(w[j]) * d(S.row(j)[k]);
                        mag += std::fabs(d(w[j]) * d(S.row(j)[k]));
                    }
                    if (!(std::fabs(d(c[k]) - want) <= 1e-6 * mag + 1e-30)) {
                        expect(false, "weighted_sum", d(c[k]), want, dim * 1000 + n * 10 + first);
                        ok = false;
                        break;
                    }
                }
                expect(ok, "weighted_sum (c past its padding untouched)", d(c[stride]), 7.0, dim * 1000 + n);
            }
    }
}

/// attend_dot over rings as check_weighted_sum's (the storage in g_x, q in g_y): alpha = softmax(scale·(S_j·q))
/// within 1e-6 and c = Σ_j alpha_j S_j within 1e-5 (the models' float tolerance) of double arithmetic; widths of
/// one vector to 64 floats (the mve set's unrolled scores at 16, 32, 48 and 64), scale 1 and 0.3.
void check_attend_dot() {
    alignas(16) float alpha[12];
    alignas(16) float c[64];
    double e[12];
    for (const std::size_t dim :
         {std::size_t{8}, std::size_t{16}, std::size_t{20}, std::size_t{32}, std::size_t{48}, std::size_t{64}}) {
        const std::size_t stride = sarnn::padded<float>(dim);
        const std::size_t cap = kN / stride < 12 ? kN / stride : 12;
        for (std::size_t k = 0; k < cap * stride; ++k) g_x[k] = uniform(1.0f);
        for (std::size_t k = 0; k < stride; ++k) g_y[k] = k < dim ? uniform(1.0f) : 0.0f;
        for (std::size_t n = 1; n <= cap; ++n)
            for (const std::size_t first : {std::size_t{0}, cap - 1, cap / 2})
                for (const float scale : {1.0f, 0.3f}) {
                    const sarnn::Rows<float> S{g_x, stride, dim, cap, first, n};
                    Set::attend_dot(S, g_y, scale, alpha, c);
                    // e_j = scale·(S_j·q), alpha = softmax(e)
                    double m = 0.0, l = 0.0;
                    for (std::size_t j = 0; j < n; ++j) {
                        double s = 0.0;
                        for (std::size_t k = 0; k < dim; ++k) s += d(S.row(j)[k]) * d(g_y[k]);
                        e[j] = d(scale) * s;
                        m = j == 0 || e[j] > m ? e[j] : m;
                    }
                    for (std::size_t j = 0; j < n; ++j) l += (e[j] = std::exp(e[j] - m));
                    bool ok = true;
                    for (std::size_t j = 0; j < n && ok; ++j) {
                        ok = std::fabs(d(alpha[j]) - e[j] / l) <= 1e-6;
                        if (!ok) expect(false, "attend_dot alpha", d(alpha[j]), e[j] / l, dim * 1000 + n * 10 + first);
                    }
                    for (std::size_t k = 0; k < dim && ok; ++k) {
                        double want = 0.0;  // c_k = Σ_j alpha_j S_j[k]
                        for (std::size_t j = 0; j < n; ++j) want += e[j] / l * d(S.row(j)[k]);
                        ok = std::fabs(d(c[k]) - want) <= 1e-5;
                        if (!ok) expect(false, "attend_dot c", d(c[k]), want, dim * 1000 + n * 10 + first);
                    }
                    if (ok) expect(true, "attend_dot", 0.0, 0.0, n);
                }
    }
}

/// affine_tanh, y = tanh(A·[x; r] + b), for [x; r] of 8 to 80 values (the mve set's unrolled rows at 16, 32, 48 and
/// 64 columns: [x; r] joined up to 64, x and r apart past it), 4 and 7 rows (A in g_x; x, r and b in g_y): within
/// 1e-6 relative to Σ|terms| plus tanh's 2.5e-7; y past the rows left alone.
void check_affine_tanh() {
    alignas(16) float y[8];
    const std::size_t shapes[][2] = {{3, 5}, {16, 16}, {4, 28}, {16, 32}, {20, 44}, {16, 64}, {32, 32}};
    for (const auto& shape : shapes) {
        const std::size_t nx = shape[0], nr = shape[1], ld = nx + nr;
        const float* const x = g_y;
        const float* const r = g_y + 80;
        const float* const b = g_y + 160;
        for (std::size_t k = 0; k < 168; ++k) g_y[k] = uniform(1.0f);
        for (const std::size_t rows : {std::size_t{4}, std::size_t{7}}) {
            for (std::size_t k = 0; k < rows * ld; ++k) g_x[k] = uniform(0.4f);
            y[7] = 5.0f;
            Set::affine_tanh(g_x, b, rows, x, nx, r, nr, y);
            for (std::size_t i = 0; i < rows; ++i) {
                // y_i = tanh(A_i·[x; r] + b_i)
                double z = d(b[i]), mag = std::fabs(d(b[i]));
                for (std::size_t k = 0; k < ld; ++k) {
                    const double t = d(g_x[i * ld + k]) * d(k < nx ? x[k] : r[k - nx]);
                    z += t;
                    mag += std::fabs(t);
                }
                const double want = std::tanh(z);
                expect(std::fabs(d(y[i]) - want) <= 1e-6 * mag + 2.5e-7, "affine_tanh", d(y[i]), want, ld * 10 + rows);
            }
            expect(y[7] == 5.0f, "affine_tanh writes past rows", d(y[7]), 5.0, ld);
        }
    }
}

/// tanh through affine_tanh's own path (the mve set's tanh4_asm): 16 rows picking x_i each (weight 1, the others
/// 0: the sums exact), b = 0, so y_i = tanh(x_i), within 2.5e-7 over [-12, 12] (A in g_x, x in g_y).
void check_affine_tanh_values() {
    alignas(16) float y[16], b[16] = {}, r[16] = {};
    for (std::size_t k = 0; k < 16 * 32; ++k) g_x[k] = k % 33 == 0 ? 1.0f : 0.0f;  // A_i,i = 1 for i < 16
    std::size_t n = 0;
    for (float t = -12.0f; t < 12.0f && n < kN; t += 0.0413f) g_y[n++] = t;
    for (std::size_t s = 0; s + 16 <= n; s += 16) {
        Set::affine_tanh(g_x, b, 16, g_y + s, 16, r, 16, y);
        for (std::size_t i = 0; i < 16; ++i) {
            const double want = std::tanh(d(g_y[s + i]));
            expect(std::fabs(d(y[i]) - want) <= 2.5e-7, "affine_tanh as tanh", d(y[i]), want, s + i);
        }
    }
}

}  // namespace

int main() {
    std::printf("sarnn firmware kernels: %s\n", sarnn::arch_name(Set::arch));
    check_dot();
    check_products();
    check_products_contiguous();
    check_tanh();
    check_cell_gates();
    check_exp();
    check_softmax();
    check_weighted_sum();
    check_attend_dot();
    check_affine_tanh();
    check_affine_tanh_values();
    std::printf("%d passed, %d failed\n", g_passed, g_failed);
    return g_failed == 0 ? 0 : 1;
}
