// tests/test_q15_strides.cpp: the q15 attention kernels' forms by stride (kernels_q15.hpp: attend_dot_at<St>,
// attend_scored_at<St>, attend_scored_pair_at<St>, St = q15_stride(S.stride)), which the models call so that an image
// links the loops of its own row stride only. On both sets (kernel::Q15, kernel::Q15Plain), at the rows of Hidden 16,
// 32 and 64 and of other strides (1, 3, 7, 17, 33 values), rings of two segments, n = 1 to 64:
// - the same integers as the run-time forms (attend_dot, attend_scored, attend_scored_pair), bit for bit, also where
//   a caller names a stride its rows do not have;
// - alpha and c against an independent double reference of the contract (softmax of the scores in Q(f), c = Σ alpha_j
//   S_j), within the rounding of the q15 arithmetic.
// (The DSP set's loops by stride are checked one by one on the board: tests/firmware/q15_loops_main.cpp.)
#include <catch2/catch.hpp>

#include <sarnn/sarnn.hpp>

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

namespace {

using sarnn::q15;
using sarnn::Rows;
using sarnn::kernel::Q15Stride;

/// what the q15 arithmetic may add to alpha and c (test_q15_models.cpp's kQ15Tol)
constexpr double kTol = 2e-3;

/// A ring of n states of dim values, rows `stride` apart, cap rows, the oldest at row `first` (two segments where it
/// wraps); the padding lanes zero. Values in [-limit, limit].
struct Ring {
    std::size_t dim, stride, cap, first, n;
    std::vector<q15> rows;
    Ring(std::size_t dim_, std::size_t stride_, std::size_t cap_, std::size_t first_, std::size_t n_, int limit,
         std::mt19937& rng)
        : dim(dim_), stride(stride_), cap(cap_), first(first_), n(n_), rows(stride_ * cap_ + 2) {
        std::uniform_int_distribution<int> v(-limit, limit);
        for (std::size_t r = 0; r < cap; ++r)
            for (std::size_t k = 0; k < dim; ++k) rows[r * stride + k].raw = static_cast<std::int16_t>(v(rng));
    }
    Rows<q15> view() const noexcept { return {rows.data(), stride, dim, cap, first, n}; }
    /// logical state j's value k
    double at(std::size_t j, std::size_t k) const noexcept {
        return rows[((first + j) % cap) * stride + k].raw / 32768.0;
    }
};

/// The run-time forms and the forms by stride St of Set, on the same inputs: equal bit for bit (alpha and c; d for
/// the pair), and alpha, c within tol of the double reference from the scores the run-time form left in alpha.
template <class Set, Q15Stride St>
void check_case(const Ring& S, const Ring& T, const std::vector<q15>& q, int f, std::mt19937& rng) {
    const std::size_t n = S.n, dim = S.dim;
    const std::size_t pad = S.stride + 2;
    // attend_dot: c holds q' until the weighted sum (the contract: c and q distinct, c padded)
    std::vector<q15> alpha0(n + 2), alpha1(n + 2), c0(pad), c1(pad);
    Set::attend_dot(S.view(), q.data(), alpha0.data(), c0.data());
    Set::template attend_dot_at<St>(S.view(), q.data(), alpha1.data(), c1.data());
    for (std::size_t j = 0; j < n; ++j) REQUIRE(alpha1[j].raw == alpha0[j].raw);
    for (std::size_t k = 0; k < dim; ++k) REQUIRE(c1[k].raw == c0[k].raw);
    // attend_scored and attend_scored_pair from random scores in Q(f)
    std::uniform_int_distribution<int> e(-32767, 32767);
    std::vector<q15> e0(n + 2), e1(n + 2), e2(n + 2), e3(n + 2);
    for (std::size_t j = 0; j < n; ++j)
        e0[j].raw = e1[j].raw = e2[j].raw = e3[j].raw = static_cast<std::int16_t>(e(rng));
    std::vector<q15> d0(T.stride + 2), d1(T.stride + 2);
    Set::attend_scored(S.view(), f, e0.data(), c0.data());
    Set::template attend_scored_at<St>(S.view(), f, e1.data(), c1.data());
    for (std::size_t j = 0; j < n; ++j) REQUIRE(e1[j].raw == e0[j].raw);
    for (std::size_t k = 0; k < dim; ++k) REQUIRE(c1[k].raw == c0[k].raw);
    // the double reference of attend_scored: alpha = softmax(e / 2^f), c = Σ_j alpha_j S_j
    if (n > 1) {
        double m = -1e300, l = 0;
        for (std::size_t j = 0; j < n; ++j) m = std::fmax(m, std::ldexp(e3[j].raw, -f));
        std::vector<double> a(n);
        for (std::size_t j = 0; j < n; ++j) l += a[j] = std::exp(std::ldexp(e3[j].raw, -f) - m);
        for (std::size_t j = 0; j < n; ++j) REQUIRE(std::fabs(e1[j].raw / 32768.0 - a[j] / l) <= kTol);
        for (std::size_t k = 0; k < dim; ++k) {
            double ck = 0;
            for (std::size_t j = 0; j < n; ++j) ck += a[j] / l * S.at(j, k);
            REQUIRE(std::fabs(c1[k].raw / 32768.0 - ck) <= kTol);
        }
    }
    Set::attend_scored_pair(S.view(), T.view(), f, e2.data(), c0.data(), d0.data());
    Set::template attend_scored_pair_at<St>(S.view(), T.view(), f, e3.data(), c1.data(), d1.data());
    for (std::size_t j = 0; j < n; ++j) REQUIRE(e3[j].raw == e2[j].raw);
    for (std::size_t k = 0; k < dim; ++k) REQUIRE(c1[k].raw == c0[k].raw);
    for (std::size_t k = 0; k < T.dim; ++k) REQUIRE(d1[k].raw == d0[k].raw);
}

/// Every case at one stride, for the form St (the stride's own, or another: a caller that names the wrong one gets
/// the same integers).
template <class Set, Q15Stride St>
void check_stride(std::size_t stride, std::mt19937& rng) {
    std::uniform_int_distribution<int> fs(2, 15);
    for (const std::size_t dim : {stride, stride - 1}) {
        if (dim == 0) continue;
        for (const std::size_t n : {std::size_t{1}, std::size_t{2}, std::size_t{3}, std::size_t{7}, std::size_t{17},
                                    std::size_t{33}, std::size_t{64}}) {
            const std::size_t cap = n + 3, first = n % 5;
            const Ring S(dim, stride, cap, first, n, 32767, rng), T(dim, stride, cap, first, n, 32767, rng);
            // q of h's range (Q15), its padding zero
            std::vector<q15> q(stride + 2);
            std::uniform_int_distribution<int> v(-32767, 32767);
            for (std::size_t k = 0; k < dim; ++k) q[k].raw = static_cast<std::int16_t>(v(rng));
            check_case<Set, St>(S, T, q, fs(rng), rng);
        }
    }
}

template <class Set>
void check_set() {
    std::mt19937 rng(32);
    // the strides of Hidden 16, 32 and 64, each by its own form and by another's
    check_stride<Set, Q15Stride::s16>(16, rng);
    check_stride<Set, Q15Stride::s32>(32, rng);
    check_stride<Set, Q15Stride::s64>(64, rng);
    check_stride<Set, Q15Stride::s32>(16, rng);
    check_stride<Set, Q15Stride::s16>(64, rng);
    check_stride<Set, Q15Stride::other>(32, rng);
    // other strides (even: the models pad rows to words; and the odd sizes 1, 3, 7, 17, 33 as dims)
    for (const std::size_t stride : {2, 4, 8, 18, 20, 34, 40}) {
        check_stride<Set, Q15Stride::other>(stride, rng);
        check_stride<Set, Q15Stride::s32>(stride, rng);
    }
}

}  // namespace

TEST_CASE("q15: q15_stride names the strides of Hidden 16, 32 and 64, every other stride `other`", "[q15]") {
    using sarnn::kernel::q15_stride;
    STATIC_REQUIRE(q15_stride(16) == Q15Stride::s16);
    STATIC_REQUIRE(q15_stride(32) == Q15Stride::s32);
    STATIC_REQUIRE(q15_stride(64) == Q15Stride::s64);
    for (std::size_t s = 0; s < 300; ++s) {
        if (s != 16 && s != 32 && s != 64) REQUIRE(q15_stride(s) == Q15Stride::other);
    }
}

TEST_CASE("q15: the attention kernels by stride give the run-time forms' integers and the double reference's values",
          "[q15]") {
    check_set<sarnn::kernel::Q15>();
    check_set<sarnn::kernel::Q15Plain>();
}
