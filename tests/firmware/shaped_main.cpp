// tests/firmware/shaped_main.cpp: the build's shaped kernels (detail::shaped<kernel::Default, float>: the set's forms
// compiled for each shape where it has them, kernel::Mve on Helium cores, kernel::CortexM on the M4F and M7 (its
// VLDM blocks, which the host builds as plain C++); the run-time operations elsewhere) checked
// on the board against double arithmetic computed here, at every size of {1, 3, 7, 17, 33} and more:
//  - the dot context (attend_dot) and weighted_sum over rings of several capacities, every fill and start (the ring
//    wrapping inside a pass of eight states), the rows holding no state NaN; the softmax at its extremes (scores of
//    ±1e4: one state takes all; equal scores: uniform); a NaN or Inf in a state, and scores of 1e7 (the exact path,
//    as IEEE arithmetic in double gives it);
//  - gemv, gemv_add and affine_tanh at every pair of those sizes, tanh at its extremes (±1e30, ±Inf, NaN);
//  - lstm_cell and gru_cell at those sizes and 32, 64, 65 (more than one pass of kernels/mve's cells), inputs up to
//    ±40 and special ones (±1e30, ±Inf, NaN: NaN where double has NaN), nothing written past H.
// The host cannot build the mve set nor the M4F's assembly, so this is where their shaped forms are checked. Prints
// "N passed, N failed" over semihosting, exits 0 only when nothing failed.
//
// Bounds: products 1e-6 relative to Σ|terms|, tanh 2.5e-7 more; alpha 1e-6 absolute plus 2.4e-7·alpha·Σ|terms| (a
// score's rounding), c 1e-6·(1 + the magnitude of q) absolute (the exp's 2e-7 relative, the sums' rounding); the
// cells 1e-6·(1 + |c_prev|) (Lstm) and 1e-6·(1 + |h_prev| + |gh_n + b_hn|) (Gru) absolute.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>

#include <sarnn/detail/shaped.hpp>
#include <sarnn/sarnn.hpp>

namespace {

using Set = sarnn::kernel::Default;
using Shaped = sarnn::detail::shaped<Set, float>;

double d(float f) { return static_cast<double>(f); }

int g_passed = 0;
int g_failed = 0;

void expect(bool ok, const char* what, double got, double want, std::size_t a, std::size_t b) {
    if (ok) {
        ++g_passed;
        return;
    }
    ++g_failed;
    if (g_failed <= 20)
        std::printf("FAIL %s (%u, %u): got %.9g, expected %.9g\n", what, static_cast<unsigned>(a),
                    static_cast<unsigned>(b), got, want);
}

std::uint32_t g_lcg = 32u;
float uniform(float bound) {  // in [-bound, bound)
    g_lcg = g_lcg * 1664525u + 1013904223u;
    return bound * static_cast<float>(static_cast<std::int32_t>(g_lcg >> 8) - (1 << 23)) / static_cast<float>(1 << 23);
}

constexpr float kNaN = __builtin_nanf("");

/// The dot context of rings of Dim values a row and Cap rows, against double: every fill n and start first (a few
/// starts for the larger rings), scale 1 and 1/sqrt(Dim); values of magnitude `mag` (large: a peaked softmax). Rows
/// holding no state are NaN: a kernel that reads one into a result fails.
template <std::size_t Dim, std::size_t Cap>
void check_attend_dot(float mag) {
    constexpr std::size_t St = sarnn::padded<float>(Dim);
    alignas(16) static float S[Cap * St];
    alignas(16) static float q[St];
    alignas(16) static float alpha[sarnn::padded<float>(Cap) + 4];
    alignas(16) static float c[St + 4];
    for (float& v : q) v = uniform(mag);
    const std::size_t step = Cap > 20 ? 5 : 1;
    for (std::size_t n = 1; n <= Cap; ++n)
        for (std::size_t first = 0; first < Cap; first += (n % 3 == 0 ? 1 : step)) {
            for (std::size_t k = 0; k < Cap * St; ++k) S[k] = kNaN;
            for (std::size_t j = 0; j < n; ++j) {
                float* row = S + ((first + j) % Cap) * St;
                for (std::size_t k = 0; k < Dim; ++k) row[k] = uniform(1.0f);
                for (std::size_t k = Dim; k < St; ++k) row[k] = 0.0f;  // padded rows: zero past Dim
            }
            const float scale = n % 2 == 0 ? 1.0f : 1.0f / std::sqrt(static_cast<float>(Dim));
            for (float& v : alpha) v = 7.0f;
            for (float& v : c) v = 7.0f;
            const sarnn::Rows<float> rows{S, St, Dim, Cap, first, n};
            Shaped::attend_dot<Dim, St, Cap>(rows, q, scale, alpha, c);
            // e_j = scale·(S_j·q), alpha = softmax(e), c = Σ alpha_j S_j
            double e[Cap], m = -1e300, l = 0.0, worst = 0.0;  // worst: the largest Σ_k |S_jk q_k|·scale
            for (std::size_t j = 0; j < n; ++j) {
                const float* row = S + ((first + j) % Cap) * St;
                double s = 0.0, mag_j = 0.0;
                for (std::size_t k = 0; k < Dim; ++k) {
                    s += d(row[k]) * d(q[k]);
                    mag_j += std::fabs(d(row[k]) * d(q[k])) * d(scale);
                }
                worst = mag_j > worst ? mag_j : worst;
                e[j] = d(scale) * s;
                m = e[j] > m ? e[j] : m;
            }
            for (std::size_t j = 0; j < n; ++j) l += (e[j] = std::exp(e[j] - m));
            for (std::size_t j = 0; j < n; ++j) {
                const double want = e[j] / l;
                // a score's float rounding (below 1.2e-7·Σ|terms|) moves alpha_j relatively by twice that at most
                expect(std::fabs(d(alpha[j]) - want) <= 1e-6 + 2.4e-7 * worst * want, "attend_dot alpha", d(alpha[j]),
                       want, Dim * 1000 + Cap, n * 1000 + first);
            }
            for (std::size_t j = n; j < sarnn::padded<float>(Cap) + 4; ++j)
                expect(alpha[j] == 7.0f, "attend_dot writes past alpha", d(alpha[j]), 7.0, Dim, n);
            for (std::size_t k = 0; k < Dim; ++k) {
                double want = 0.0;
                for (std::size_t j = 0; j < n; ++j) want += e[j] / l * d(S[((first + j) % Cap) * St + k]);
                expect(std::fabs(d(c[k]) - want) <= 1e-6 * (1.0 + d(mag)), "attend_dot c", d(c[k]), want,
                       Dim * 1000 + Cap, n * 1000 + first);
            }
            for (std::size_t k = St; k < St + 4; ++k)
                expect(c[k] == 7.0f, "attend_dot writes past c", d(c[k]), 7.0, Dim, n);
        }
}

/// The softmax's extremes through the dot context: scores of ±1e4 (one state takes all, the others exp(-huge) = 0),
/// and equal scores (uniform weights).
template <std::size_t Dim>
void check_attend_dot_extremes() {
    constexpr std::size_t St = sarnn::padded<float>(Dim), Cap = 19;
    alignas(16) static float S[Cap * St], q[St], alpha[sarnn::padded<float>(Cap)], c[St];
    for (std::size_t n : {std::size_t{1}, std::size_t{2}, std::size_t{9}, std::size_t{19}}) {
        // rows ±1 by the parity of their physical row: scores ±1e4
        for (std::size_t j = 0; j < Cap; ++j)
            for (std::size_t k = 0; k < St; ++k) S[j * St + k] = k < Dim ? (j % 2 == 0 ? 1.0f : -1.0f) : 0.0f;
        for (std::size_t k = 0; k < St; ++k) q[k] = k < Dim ? 1e4f / static_cast<float>(Dim) : 0.0f;
        const sarnn::Rows<float> rows{S, St, Dim, Cap, 3, n};
        Shaped::attend_dot<Dim, St, Cap>(rows, q, 1.0f, alpha, c);
        // the states on even physical rows share the weight (all of them do when none is on one)
        const auto even = [&](std::size_t j) { return (3 + j) % Cap % 2 == 0; };
        std::size_t wins = 0;
        for (std::size_t j = 0; j < n; ++j) wins += even(j);
        for (std::size_t j = 0; j < n; ++j) {
            const double want = wins == 0 ? 1.0 / static_cast<double>(n)
                                          : (even(j) ? 1.0 / static_cast<double>(wins) : 0.0);
            expect(std::fabs(d(alpha[j]) - want) <= 1e-6, "attend_dot peaked alpha", d(alpha[j]), want, Dim, n);
            expect(alpha[j] == alpha[j], "attend_dot peaked alpha is a number", d(alpha[j]), want, Dim, n);
        }
        // q = 0: equal scores, alpha = 1/n
        for (float& v : q) v = 0.0f;
        Shaped::attend_dot<Dim, St, Cap>(rows, q, 1.0f, alpha, c);
        for (std::size_t j = 0; j < n; ++j)
            expect(std::fabs(d(alpha[j]) - 1.0 / static_cast<double>(n)) <= 1e-6, "attend_dot uniform alpha",
                   d(alpha[j]), 1.0 / static_cast<double>(n), Dim, n);
    }
}

/// gemv, gemv_add and affine_tanh of Rows rows and C columns (affine_tanh: C values of x and C + 2 of r), rows Ld =
/// C + 1 floats apart for the products (the kernels must honour Ld), against double; one value past y poisoned.
template <std::size_t Rows, std::size_t C>
void check_rows() {
    constexpr std::size_t Ld = C + 1, Nr = C + 2, La = C + Nr;
    alignas(16) static float M[Rows * La], v[Nr], x[C], b[Rows], y[Rows + 1], y0[Rows];
    for (float& a : M) a = uniform(1.0f);
    for (float& a : v) a = uniform(1.0f);
    for (float& a : x) a = uniform(1.0f);
    for (float& a : b) a = uniform(1.0f);
    y[Rows] = 7.0f;
    Shaped::gemv<Rows, C, Ld>(M, v, y);
    for (std::size_t i = 0; i < Rows; ++i) {
        double want = 0.0, mag = 0.0;
        for (std::size_t k = 0; k < C; ++k) {
            want += d(M[i * Ld + k]) * d(v[k]);
            mag += std::fabs(d(M[i * Ld + k]) * d(v[k]));
        }
        expect(std::fabs(d(y[i]) - want) <= 1e-6 * mag + 1e-30, "gemv", d(y[i]), want, Rows, C);
        y0[i] = y[i];
    }
    Shaped::gemv_add<Rows, C, Ld>(M, x, y);
    for (std::size_t i = 0; i < Rows; ++i) {
        double want = d(y0[i]), mag = std::fabs(d(y0[i]));
        for (std::size_t k = 0; k < C; ++k) {
            want += d(M[i * Ld + k]) * d(x[k]);
            mag += std::fabs(d(M[i * Ld + k]) * d(x[k]));
        }
        expect(std::fabs(d(y[i]) - want) <= 1e-6 * mag + 1e-30, "gemv_add", d(y[i]), want, Rows, C);
    }
    Shaped::affine_tanh<Rows, C, Nr>(M, b, x, v, y);
    for (std::size_t i = 0; i < Rows; ++i) {
        // y_i = tanh(A_i·[x; r] + b_i)
        double z = d(b[i]), mag = std::fabs(d(b[i]));
        for (std::size_t k = 0; k < La; ++k) {
            const double t = d(M[i * La + k]) * d(k < C ? x[k] : v[k - C]);
            z += t;
            mag += std::fabs(t);
        }
        const double want = std::tanh(z);
        expect(std::fabs(d(y[i]) - want) <= 1e-6 * mag + 2.5e-7, "affine_tanh", d(y[i]), want, Rows, C);
    }
    expect(y[Rows] == 7.0f, "writes past y", d(y[Rows]), 7.0, Rows, C);
}

/// tanh through the shaped affine_tanh at its extremes: one weight 1 per row picks x_i (b = 0, r's weights 0), x
/// over [-12, 12], then ±1e30, ±Inf (±1) and NaN (NaN).
void check_affine_tanh_extremes() {
    constexpr std::size_t R = 33, Nr = 3;
    alignas(16) static float A[R * (R + Nr)], b[R], x[R], r[Nr], y[R];
    for (std::size_t i = 0; i < R; ++i)
        for (std::size_t k = 0; k < R + Nr; ++k) A[i * (R + Nr) + k] = k == i ? 1.0f : 0.0f;
    for (float& a : b) a = 0.0f;
    for (float& a : r) a = 0.5f;
    for (float t = -12.0f; t < 12.0f; t += 0.0317f * static_cast<float>(R)) {
        for (std::size_t i = 0; i < R; ++i) x[i] = t + 0.0317f * static_cast<float>(i);
        Shaped::affine_tanh<R, R, Nr>(A, b, x, r, y);
        for (std::size_t i = 0; i < R; ++i)
            expect(std::fabs(d(y[i]) - std::tanh(d(x[i]))) <= 2.5e-7, "affine_tanh as tanh", d(y[i]),
                   std::tanh(d(x[i])), i, 0);
    }
    // one special value at a time (0·Inf is NaN in every other row's sum)
    const float inf = __builtin_inff();
    const float special[4] = {1e30f, -1e30f, inf, -inf};
    for (std::size_t s = 0; s < 4; ++s) {
        for (float& a : x) a = 0.0f;
        x[5] = special[s];
        Shaped::affine_tanh<R, R, Nr>(A, b, x, r, y);
        const double want = s % 2 == 0 ? 1.0 : -1.0;
        expect(d(y[5]) == want, "affine_tanh of a huge value", d(y[5]), want, s, 0);
    }
    x[5] = kNaN;
    Shaped::affine_tanh<R, R, Nr>(A, b, x, r, y);
    expect(y[5] != y[5], "affine_tanh of NaN", d(y[5]), 0.0, 5, 0);
}

/// A NaN or an Inf in a state: the shaped context's exact path, value for value what IEEE arithmetic gives in double
/// from the same rules (e_j = S_j·q, m the largest e_j from e_0 on with NaN passed over as `e_j > m` passes it,
/// alpha_j = e^{e_j - m}/Σ, c = Σ alpha_j S_j): NaN where double has NaN, else within the bounds of check_attend_dot.
/// Also a finite context whose max score passes the fast path's shift (scores of 1e7: the same exact path).
template <std::size_t Dim>
void check_attend_dot_non_finite() {
    constexpr std::size_t St = sarnn::padded<float>(Dim), Cap = 11, N = 9, First = 4;
    alignas(16) static float S[Cap * St], q[St], a0[sarnn::padded<float>(Cap)], c0[St];
    const float inf = __builtin_inff();
    for (const float bad : {kNaN, inf, -inf, 0.0f}) {
        for (std::size_t k = 0; k < Cap * St; ++k) S[k] = (k % St) < Dim ? uniform(1.0f) : 0.0f;
        for (std::size_t k = 0; k < St; ++k) q[k] = k < Dim ? (bad == 0.0f ? 1e7f : 1.0f) * uniform(1.0f) : 0.0f;
        if (bad != 0.0f) S[5 * St + Dim / 2] = bad;
        const sarnn::Rows<float> rows{S, St, Dim, Cap, First, N};
        Shaped::attend_dot<Dim, St, Cap>(rows, q, 1.0f, a0, c0);
        // the same in double
        double e[N], m = 0.0, l = 0.0, worst = 0.0;
        const auto row = [&](std::size_t j) { return S + ((First + j) % Cap) * St; };
        for (std::size_t j = 0; j < N; ++j) {
            double s = 0.0, mag_j = 0.0;
            for (std::size_t k = 0; k < Dim; ++k) {
                s += d(row(j)[k]) * d(q[k]);
                mag_j += std::fabs(d(row(j)[k]) * d(q[k]));
            }
            worst = mag_j > worst && mag_j - mag_j == 0.0 ? mag_j : worst;  // over the finite states
            e[j] = s;
            m = j == 0 || e[j] > m ? e[j] : m;
        }
        for (std::size_t j = 0; j < N; ++j) l += (e[j] = std::exp(e[j] - m));
        const auto same = [](float got, double want, double bound) {
            return want != want ? got != got : std::fabs(d(got) - want) <= bound;
        };
        for (std::size_t j = 0; j < N; ++j) {
            const double want = e[j] / l;
            expect(same(a0[j], want, 1e-6 + 2.4e-7 * worst * (want == want ? want : 0.0)),
                   "attend_dot non-finite alpha as double", d(a0[j]), want, Dim, j);
        }
        for (std::size_t k = 0; k < Dim; ++k) {
            double want = 0.0;
            for (std::size_t j = 0; j < N; ++j) want += e[j] / l * d(row(j)[k]);
            expect(same(c0[k], want, bad == 0.0f ? 10.0 : 1e-6), "attend_dot non-finite c as double", d(c0[k]), want,
                   Dim, k);
        }
    }
}

double sigmoid_d(double a) { return 1.0 / (1.0 + std::exp(-a)); }

/// got against want: NaN where want is NaN, ±inf where it is ±inf, else within bound.
bool near(float got, double want, double bound) {
    if (want != want) return got != got;
    return want - want != 0.0 ? d(got) == want : std::fabs(d(got) - want) <= bound;
}

/// The value of a cell's input at lane i of a pass: uniform over [-mag, mag], or (special) one of ±1e30, ±Inf, NaN,
/// 0 at some lanes.
float cell_input(std::size_t i, float mag, bool special) {
    const float inf = __builtin_inff();
    const float s[7] = {1e30f, -1e30f, inf, -inf, kNaN, 0.0f, -20.0f};
    return special && i % 3 == 1 ? s[(i / 3) % 7] : uniform(mag);
}

/// lstm_cell and gru_cell of H lanes against double (sigmoid 1/(1 + e^{-a}), tanh), the inputs of magnitude mag or
/// with special values (NaN out where double gives NaN); the lanes of c and h from H on (poisoned) never written.
template <std::size_t H>
void check_cells(float mag, bool special) {
    constexpr std::size_t Hp = sarnn::padded<float>(H);
    alignas(16) static float z[4 * H + 1], b[4 * H + 1], c_prev[Hp], c[Hp + 4], h[Hp + 4];
    alignas(16) static float gi[3 * H + 1], gh[3 * H + 1], b_ih[3 * H + 1], b_hh[3 * H + 1], h_prev[Hp];
    for (std::size_t i = 0; i < 4 * H; ++i) z[i] = cell_input(i, mag, special);
    for (std::size_t i = 0; i < 4 * H; ++i) b[i] = uniform(1.0f);
    for (std::size_t i = 0; i < 3 * H; ++i) {
        gi[i] = cell_input(i, mag, special);
        gh[i] = cell_input(i + 1, mag, special);
        b_ih[i] = uniform(1.0f);
        b_hh[i] = uniform(1.0f);
    }
    z[4 * H] = b[4 * H] = gi[3 * H] = gh[3 * H] = b_ih[3 * H] = b_hh[3 * H] = kNaN;  // read by no lane
    for (std::size_t i = 0; i < Hp; ++i) c_prev[i] = h_prev[i] = i < H ? cell_input(i + 2, mag, special) : 0.0f;
    for (std::size_t i = 0; i < Hp + 4; ++i) c[i] = h[i] = 7.0f;
    Shaped::lstm_cell<H>(z, b, c_prev, c, h);
    for (std::size_t k = 0; k < H; ++k) {
        // c = σ(z_f + b_f)·c_prev + σ(z_i + b_i)·tanh(z_g + b_g), h = σ(z_o + b_o)·tanh(c)
        const double i = sigmoid_d(d(z[k]) + d(b[k])), f = sigmoid_d(d(z[H + k]) + d(b[H + k]));
        const double g = std::tanh(d(z[2 * H + k]) + d(b[2 * H + k])), o = sigmoid_d(d(z[3 * H + k]) + d(b[3 * H + k]));
        const double cw = f * d(c_prev[k]) + i * g, hw = o * std::tanh(cw);
        const double bound = 1e-6 * (1.0 + std::fabs(d(c_prev[k])));
        expect(near(c[k], cw, bound), "lstm_cell c", d(c[k]), cw, H, k);
        expect(near(h[k], hw, bound), "lstm_cell h", d(h[k]), hw, H, k);
    }
    for (std::size_t k = H; k < Hp + 4; ++k)
        expect(c[k] == 7.0f && h[k] == 7.0f, "lstm_cell writes past H", d(c[k]), 7.0, H, k);
    for (std::size_t i = 0; i < Hp + 4; ++i) h[i] = 7.0f;
    Shaped::gru_cell<H>(gi, gh, b_ih, b_hh, h_prev, h);
    for (std::size_t k = 0; k < H; ++k) {
        // r, z = σ(gi + b_i + gh + b_h), n = tanh(gi_n + b_in + r·(gh_n + b_hn)), h = (1 - z)·n + z·h_prev
        const double r = sigmoid_d(d(gi[k]) + d(b_ih[k]) + d(gh[k]) + d(b_hh[k]));
        const double u = sigmoid_d(d(gi[H + k]) + d(b_ih[H + k]) + d(gh[H + k]) + d(b_hh[H + k]));
        const double e = d(gh[2 * H + k]) + d(b_hh[2 * H + k]);
        const double n = std::tanh(d(gi[2 * H + k]) + d(b_ih[2 * H + k]) + r * e);
        const double hw = (1.0 - u) * n + u * d(h_prev[k]);
        const double bound = 1e-6 * (1.0 + std::fabs(d(h_prev[k])) + (e - e == 0.0 ? std::fabs(e) : 0.0));
        expect(near(h[k], hw, bound), "gru_cell h", d(h[k]), hw, H, k);
    }
    for (std::size_t k = H; k < Hp + 4; ++k) expect(h[k] == 7.0f, "gru_cell writes past H", d(h[k]), 7.0, H, k);
}

/// The cells of H lanes: small and large inputs, then the special values.
template <std::size_t H>
void check_cells_all() {
    check_cells<H>(1.0f, false);
    check_cells<H>(8.0f, false);
    check_cells<H>(40.0f, false);
    check_cells<H>(4.0f, true);
}

template <std::size_t Dim>
void check_dims() {
    check_attend_dot<Dim, 1>(1.0f);
    check_attend_dot<Dim, 3>(1.0f);
    check_attend_dot<Dim, 7>(1.0f);
    check_attend_dot<Dim, 17>(1.0f);
    check_attend_dot<Dim, 33>(4.0f);
    check_attend_dot_extremes<Dim>();
    check_attend_dot_non_finite<Dim>();
    check_rows<Dim, 1>();
    check_rows<Dim, 3>();
    check_rows<Dim, 7>();
    check_rows<Dim, 17>();
    check_rows<Dim, 33>();
    check_cells_all<Dim>();
}

}  // namespace

int main() {
    std::printf("sarnn firmware shaped kernels: %s\n", sarnn::arch_name(Set::arch));
    check_dims<1>();
    check_dims<3>();
    check_dims<7>();
    check_dims<17>();
    check_dims<33>();
    check_attend_dot<32, 64>(1.0f);
    check_attend_dot<128, 9>(0.25f);
    check_attend_dot<129, 5>(0.25f);
    check_rows<8, 16>();
    check_rows<32, 48>();
    check_rows<96, 32>();
    check_rows<9, 62>();
    check_rows<5, 64>();
    check_affine_tanh_extremes();
    check_cells_all<32>();
    check_cells_all<64>();
    check_cells_all<65>();
    std::printf("%d passed, %d failed\n", g_passed, g_failed);
    return g_failed == 0 ? 0 : 1;
}
