// tests/shared/q15_affine_check.hpp: kernel::Q15::affine_tanh (include/sarnn/kernels_q15.hpp) against a reference
// written here in 64-bit integers, over rows whose requantisation takes every path a kernel set may split (shifts -1
// to 31, multipliers of both signs, input factors near 1 and not, sums and biases that saturate), for row counts
// that leave every remainder of a set's groups and blocks. Run by tests/test_q15_models.cpp (every test job, under
// qemu too) and tests/firmware/q15_main.cpp (the Cortex-M boards, whose DSP set finishes rows in assembly).
#ifndef SARNN_TESTS_SHARED_Q15_AFFINE_CHECK_HPP
#define SARNN_TESTS_SHARED_Q15_AFFINE_CHECK_HPP

#include <cstddef>
#include <cstdint>

#include <sarnn/sarnn.hpp>

#include "q15_digest.hpp"

namespace test {

/// floor((acc·m + 2^(s-1)) / 2^s), s = 31 + shift (shift in [-1, 31]), saturated to int32: the contract of
/// fixed::requantize, from the exact 64-bit product
inline std::int32_t ref_requantize(std::int32_t acc, std::int32_t m, int shift) {
    const int s = 31 + shift;
    const std::int64_t p = static_cast<std::int64_t>(acc) * m + (std::int64_t{1} << (s - 1));
    const std::int64_t q = p >> s;  // (arithmetic: a floor)
    return q > INT32_MAX ? INT32_MAX : (q < INT32_MIN ? INT32_MIN : static_cast<std::int32_t>(q));
}

/// How many of the outputs of `cases` random affine_tanh calls differ from the reference, then of calls of fixed
/// shapes: the DSP set's packed passes (both parts a multiple of 8, nx + nr <= 128; x or r not word aligned; row
/// counts that leave 1, 2 or 3 rows after the passes of four, and two blocks of 32 rows) and the shapes it leaves to
/// its other loops (parts a multiple of 4 only, nx + nr above 128); every other call affine (the gates: y = pre).
inline std::size_t q15_affine_mismatches(int cases = 24) {
    constexpr std::size_t kMaxRows = 40, kMaxCols = 136, kMaxA = 2048;
    static std::int8_t A[kMaxA];
    static std::int32_t b[kMaxRows], m[kMaxRows];
    static std::int8_t shift[kMaxRows];
    // (word aligned, as the models' vectors; from x + 1 or r + 1 not)
    alignas(8) static sarnn::q15 xs[kMaxCols + 2], rs[kMaxCols + 2], y[kMaxRows];
    Q15Lcg rng{0x51AFF1E5ull};
    std::size_t bad = 0;
    const auto check = [&](int c, std::size_t rows, std::size_t nx, std::size_t nr, sarnn::q15* x, sarnn::q15* r) {
        const std::size_t ld = nx + nr;
        const bool extreme = c % 3 == 0;  // weights and inputs at their bounds: sums that saturate
        for (std::size_t i = 0; i < rows * ld; ++i)
            A[i] = static_cast<std::int8_t>(extreme ? (rng.below(2) ? 127 : -128) : rng.below(256) - 128);
        for (std::size_t i = 0; i < nx; ++i)
            x[i].raw = static_cast<std::int16_t>(extreme ? (rng.below(2) ? 32767 : -32768) : rng.below(65536) - 32768);
        for (std::size_t i = 0; i < nr; ++i) r[i].raw = static_cast<std::int16_t>(rng.below(65535) - 32767);
        for (std::size_t i = 0; i < rows; ++i) {
            b[i] = rng.below(4) == 0 ? (rng.below(2) ? INT32_MAX : INT32_MIN) : rng.below(65536) - 32768;
            const std::int32_t mag = static_cast<std::int32_t>((std::uint32_t{1} << 30) + rng.next() % (1u << 30));
            m[i] = rng.below(8) == 0 ? -mag : mag;
            // mostly the models' shifts (about 9 to 12), and every other one of [-1, 31] now and then
            shift[i] = static_cast<std::int8_t>(rng.below(3) == 0 ? rng.below(33) - 1 : 8 + rng.below(6));
        }
        const int x_shifts[] = {0, -1, -2, 1, 3};
        const int x_shift = x_shifts[rng.below(5)];
        const std::int32_t x_m = static_cast<std::int32_t>((std::uint32_t{1} << 30) + rng.next() % (1u << 30));
        const sarnn::QAffine a{A, b, m, shift, rng.below(6) == 0 ? -x_m : x_m, x_shift};
        // every other call affine (the gates' form: A_x the first rows·nx weights, A_r the next rows·nr; no bias
        // now and then; y = pre), else affine_tanh
        const bool gates = c % 2 == 0;
        const bool no_b = gates && c % 5 == 0;
        const std::int8_t* const A_r = A + rows * nx;
        if (gates) {
            const sarnn::QGates g{A, A_r, no_b ? nullptr : b, m, shift, a.x_m, x_shift};
            sarnn::kernel::Q15::affine(g, rows, x, nx, r, nr, y);
        } else {
            sarnn::kernel::Q15::affine_tanh(a, rows, x, nx, r, nr, y);
        }
        for (std::size_t i = 0; i < rows; ++i) {
            std::int32_t s_x = 0, s_r = 0;
            for (std::size_t k = 0; k < nx; ++k) s_x += (gates ? A[i * nx + k] : A[i * ld + k]) * x[k].raw;
            for (std::size_t k = 0; k < nr; ++k) s_r += (gates ? A_r[i * nr + k] : A[i * ld + nx + k]) * r[k].raw;
            // z = clamp(requantize(s_x, x_m, x_shift), +-2^30) + s_r; pre = requantize(z, m, shift) + b, to int16
            std::int32_t xq = ref_requantize(s_x, a.x_m, x_shift);
            xq = xq > (1 << 30) ? (1 << 30) : (xq < -(1 << 30) ? -(1 << 30) : xq);
            const std::int64_t pre64 = static_cast<std::int64_t>(ref_requantize(xq + s_r, m[i], shift[i])) +
                                       (no_b ? 0 : b[i]);
            const auto pre = static_cast<std::int16_t>(pre64 > 32767 ? 32767 : (pre64 < -32768 ? -32768 : pre64));
            if (y[i].raw != (gates ? pre : sarnn::fixed::tanh_q15(pre))) ++bad;
        }
    };
    for (int c = 0; c < cases; ++c) {
        const std::size_t rows = 1 + static_cast<std::size_t>(rng.below(kMaxRows));
        // every other case with both parts a multiple of 4 long (the lengths a set's widest loops take whole)
        const bool by4 = c % 2 == 1;
        const std::size_t nx = by4 ? 4 * (1 + static_cast<std::size_t>(rng.below(4)))
                                   : 1 + static_cast<std::size_t>(rng.below(20));
        const std::size_t nr = by4 ? 4 * (1 + static_cast<std::size_t>(rng.below(5)))
                                   : static_cast<std::size_t>(rng.below(static_cast<std::uint32_t>(40 - nx + 1)));
        check(c, rows, nx, nr, xs, rs);
    }
    struct Shape {
        std::size_t rows, nx, nr;
        bool x_odd, r_odd;  // x + 1, r + 1: not word aligned
    };
    const Shape shapes[] = {{37, 16, 32, false, false}, {38, 16, 32, true, false},  {39, 8, 24, false, true},
                            {33, 32, 24, true, true},   {3, 8, 8, false, false},    {15, 64, 64, false, false},
                            {11, 72, 64, false, false}, {13, 12, 20, false, false}, {6, 120, 8, false, true}};
    int c = cases;
    for (const Shape& sh : shapes) {
        for (int k = 0; k < 6; ++k) check(c++, sh.rows, sh.nx, sh.nr, xs + (sh.x_odd ? 1 : 0), rs + (sh.r_odd ? 1 : 0));
    }
    return bad;
}

}  // namespace test

#endif
