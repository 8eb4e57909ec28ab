// tests/firmware/shaped_main.cpp: the build's shaped kernels (detail::shaped<kernel::Default, float>: the set's forms
// compiled for each shape where it has them, kernel::Mve on Helium cores; the run-time operations elsewhere) checked
// on the board against double arithmetic computed here, at every size of {1, 3, 7, 17, 33} and more: the dot context
// over rings of several capacities, every start and fill (the ring wrapping inside a pass of eight states), and the
// softmax at its extremes (scores of ±1e4: one state takes all; equal scores: uniform). The host cannot build the mve
// set, so this is where its shaped forms are checked. Prints "N passed, N failed" over semihosting, exits 0 only when
// nothing failed.
//
// Bounds: alpha 1e-6 absolute, c 1e-6·(1 + Σ|S_j|) absolute (the exp's 2e-7 relative, the sums' rounding).
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
            double e[Cap], m = -1e300, l = 0.0;
            for (std::size_t j = 0; j < n; ++j) {
                const float* row = S + ((first + j) % Cap) * St;
                double s = 0.0;
                for (std::size_t k = 0; k < Dim; ++k) s += d(row[k]) * d(q[k]);
                e[j] = d(scale) * s;
                m = e[j] > m ? e[j] : m;
            }
            for (std::size_t j = 0; j < n; ++j) l += (e[j] = std::exp(e[j] - m));
            for (std::size_t j = 0; j < n; ++j) {
                const double want = e[j] / l;
                expect(std::fabs(d(alpha[j]) - want) <= 1e-6, "attend_dot alpha", d(alpha[j]), want, Dim * 1000 + Cap,
                       n * 1000 + first);
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

template <std::size_t Dim>
void check_dims() {
    check_attend_dot<Dim, 1>(1.0f);
    check_attend_dot<Dim, 3>(1.0f);
    check_attend_dot<Dim, 7>(1.0f);
    check_attend_dot<Dim, 17>(1.0f);
    check_attend_dot<Dim, 33>(4.0f);
    check_attend_dot_extremes<Dim>();
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
    std::printf("%d passed, %d failed\n", g_passed, g_failed);
    return g_failed == 0 ? 0 : 1;
}
