// sarnn/kernels/q15/affine.hpp: the one algorithm of kernel::Q15's products of rows (contracts:
// include/sarnn/kernels_q15.hpp): affine_tanh, affine, gemv, gemv_t and gru_gates, as function templates of internal
// linkage on the loops L. lib/kernels/q15/affine.cpp compiles them with the sizes as run-time arguments (Q15Set's
// members); q15/shaped.hpp, in a model's translation unit, with the sizes as std::integral_constant (Q15Set's *_at
// member templates: compiled for the model's shape, the rows' groups and remainders resolved at compile time). The
// functions that take sizes take std::size_t or std::integral_constant alike (RowsT, NxT, NrT). Plain C++, integers
// only; every result has its twin in python/sarnn/q15.py, which computes the same integers. The arithmetic that
// rounds (requantisation, the scores' format, the softmax) is here, the same on every target; the inner loops, exact
// integer sums, are each target's (the seam: q15/seam.hpp), in groups of rows, states or columns that share their
// loads. Every sum is kept in 32 bits (the cores without an FPU that run this, the M0/M0+, multiply 32 x 32 -> 32
// only); rows are read by words where they are word aligned (the models' are: kernels.hpp pads rows to 32-bit words).
// As in lib/fixed.cpp, each intermediate's bound is beside it.
#ifndef SARNN_KERNELS_Q15_AFFINE_HPP
#define SARNN_KERNELS_Q15_AFFINE_HPP
#include <cstddef>
#include <cstdint>
#include <type_traits>

#if defined(__ARM_FEATURE_DSP)
#include <arm_acle.h>
#endif

#include "sarnn/kernels/q15/internals.hpp"
#include "sarnn/kernels/q15/tanh.hpp"
#include "sarnn/fixed.hpp"
#include "sarnn/kernels_q15.hpp"

namespace sarnn::kernel {
namespace {  // NOLINT(cert-dcl59-cpp): internal linkage on purpose: a copy per including translation unit

constexpr std::int32_t kMax30 = std::int32_t{1} << 30;  // NOLINT(misc-definitions-in-headers): internal linkage

/// requantize(acc, m, shift) for m >= 0 and shift >= 2 (a shift above 31 counts as 31): floor((acc·m + 2^(30 + shift))
/// / 2^(31 + shift)) = (H + 2^(shift - 2)) >> (shift - 1) with H = floor(acc·m / 2^32), the high word (the low word
/// cannot carry the integer sum past a multiple of 2^(shift - 1)); |H| <= 2^30, no overflow. One SMMUL with the DSP
/// extension; on ARMv6-M, whose 64-bit multiply is a library call, H from 16-bit halves (requantize_hi_mul16).
__attribute__((always_inline)) inline std::int32_t rescale_hi(std::int32_t acc, std::int32_t m, int shift) noexcept {
#if defined(__ARM_ARCH_6M__)
    return fixed::detail::requantize_hi_mul16(acc, m, shift);
#else
    const int r = (shift > 31 ? 31 : shift) - 1;  // 1 .. 30
#if defined(__ARM_FEATURE_DSP) && defined(__thumb__)
    // SMMUL: the high word of the signed product, one instruction (GCC made a 64 x 64 bit product of the cast)
    std::int32_t h;
    __asm__("smmul %0, %1, %2" : "=r"(h) : "r"(acc), "r"(m));
#else
    const auto h = static_cast<std::int32_t>((static_cast<std::int64_t>(acc) * m) >> 32);
#endif
    return (h + (std::int32_t{1} << (r - 1))) >> r;
#endif
}

/// a + b saturated to int16 (both may be extreme: the sum as if in 64 bits). With the DSP extension QADD (saturated
/// to int32) then SSAT: the same result, two instructions.
__attribute__((always_inline)) inline std::int32_t add_sat16(std::int32_t a, std::int32_t b) noexcept {
#if defined(__ARM_FEATURE_DSP) && defined(__ARM_FEATURE_SAT)
    return __ssat(__qadd(a, b), 16);
#else
    // the sum in 32 bits, wrapping: it overflowed where a and b have one sign and the sum the other, and then the
    // true sum is beyond int16 on a's side (a 64-bit sum spilled ARMv6-M's registers: about 30 instructions)
    const auto s = static_cast<std::int32_t>(static_cast<std::uint32_t>(a) + static_cast<std::uint32_t>(b));
    if (((a ^ s) & (b ^ s)) < 0) return a < 0 ? -32768 : 32767;
    return s > 32767 ? 32767 : (s < -32768 ? -32768 : s);
#endif
}

/// The x part's factor, x_m / 2^(31 + x_shift), as one step takes it for every row: where it is a power of two
/// (x_m = 2^30: the exporter's, whose x_scale is a power of two) a shift and the clamp to +-2^30; where the factor is
/// in [1/2, 2) (x_shift -1 or 0, x_m >= 0) requantize and the clamp in one 64-bit product and two comparisons (not on
/// ARMv6-M, whose 64-bit product is a library call); elsewhere requantize itself.
struct XFactor {
    std::int32_t m;
    int shift;
    bool pow2;           // x_m = 2^30 and x_shift in [-31, 30]: the factor is 2^-e, e = x_shift + 1 in [-30, 31]
    int right;           // e where e > 0, else 0
    int left;            // -e where e <= 0, else 0
    std::int32_t bound;  // 2^(30 - left)
    bool near_one;       // x_shift is -1 or 0, x_m >= 0
    std::int32_t half;   // 2^(s - 1), s = 31 + x_shift
    std::int32_t lim;    // 2^(s - 2)
    int up;              // 32 - s
    XFactor(std::int32_t x_m, int x_shift) noexcept
        : m(x_m),
          shift(x_shift),
          pow2(x_m == kMax30 && x_shift >= -31 && x_shift <= 30),
          right(pow2 && x_shift >= 0 ? x_shift + 1 : 0),
          left(pow2 && x_shift < 0 ? -1 - x_shift : 0),
          bound(kMax30 >> left),
          near_one((x_shift == -1 || x_shift == 0) && x_m >= 0),
          half(std::int32_t{1} << (near_one ? 30 + x_shift : 0)),
          lim(std::int32_t{1} << (near_one ? 29 + x_shift : 0)),
          up(1 - x_shift) {}

    /// requantize(s_x, m, shift) clamped to +-2^30
    __attribute__((always_inline)) std::int32_t operator()(std::int32_t s_x) const noexcept {
        if (pow2) {
            // e > 0: floor((s_x + 2^(e-1)) / 2^e) = (s_x >> e) + bit e - 1 of s_x (no sum to overflow), |.| <= 2^30
            if (right > 0) return (s_x >> right) + ((s_x >> (right - 1)) & 1);
            // e <= 0: s_x·2^left exactly (s = 30 - left: the rounding term is below one unit), clamped
            return s_x > bound ? kMax30 : (s_x < -bound ? -kMax30 : s_x * (std::int32_t{1} << left));
        }
#if !defined(__ARM_ARCH_6M__)
        if (near_one) {
            // P + 2^(s-1) = hi·2^32 + lo; floor(./2^s) = hi·2^(32-s) + lo / 2^s (s = 30, 31): at least 2^30 exactly
            // when hi >= 2^(s-2), below -2^30 exactly when hi < -2^(s-2) (|P| < 2^62: no overflow)
            const std::int64_t p = static_cast<std::int64_t>(s_x) * m + half;
            const auto hi = static_cast<std::int32_t>(p >> 32);
            if (hi >= lim) return kMax30;
            if (hi < -lim) return -kMax30;
            return hi * (std::int32_t{1} << up) + static_cast<std::int32_t>(static_cast<std::uint32_t>(p) >> (32 - up));
        }
#endif
        const std::int32_t xq = rescale(s_x, m, shift);
        return xq > kMax30 ? kMax30 : (xq < -kMax30 ? -kMax30 : xq);
    }
};

/// XFactor's near_one case (x_shift -1 or 0, x_m >= 0) in one 64-bit expression: floor((s_x·x_m + 2^(s-1)) / 2^s)
/// clamped to +-2^30, s = 31 + x_shift (|s_x·x_m| < 2^62: no overflow)
[[maybe_unused]] __attribute__((always_inline)) inline std::int32_t near_x(std::int32_t s_x, std::int32_t x_m,
                                                                           int x_shift) noexcept {
    const int s = 31 + x_shift;
    const std::int64_t q = (static_cast<std::int64_t>(s_x) * x_m + (std::int64_t{1} << (s - 1))) >> s;
    return q > kMax30 ? kMax30 : (q < -kMax30 ? -kMax30 : static_cast<std::int32_t>(q));
}

/// One row's h from its two sums (see affine_tanh below); its pre-activation alone where L takes every row's tanh
/// after (kTanhRows).
template <class L>
__attribute__((always_inline)) inline q15 finish_row(const QAffine& a, const XFactor& x_factor, std::size_t row,
                                                     std::int32_t s_x, std::int32_t s_r) noexcept {
    // z = s_x in s_r's units (clamped to +-2^30) + s_r: |s_r| <= 2^22·256 = 2^30 (r in (-1, 1): < 2^30), so
    // |z| < 2^31
    const std::int32_t z = x_factor(s_x) + s_r;
    // pre = requantize(z, m_r, shift_r) + b_r, in Q3.12, saturated
    const std::int32_t pre = add_sat16(rescale(z, a.m[row], a.shift[row]), a.b[row]);
    // h = tanh(pre)
    if constexpr (q15_loops::has(L::kCaps, q15_loops::kTanhRows)) {
        return q15{static_cast<std::int16_t>(pre)};  // (the target's tanh_rows takes every row's tanh after)
    } else {
#if defined(__ARM_ARCH_6M__)
        return q15{fixed::tanh_q15(static_cast<std::int16_t>(pre))};  // (inline, ARMv6-M's eight low registers spill)
#else
        return q15{static_cast<std::int16_t>(fixed::detail::tanh_wide(pre))};
#endif
    }
}

/// G rows' sums by dot_rows, both parts: s_x from wx (row stride ldx) and x, s_r from wr (ldr) and r, as the (s_x,
/// s_r) pairs i.. of s (affine_tanh's rows [A_x | A_r]: wr = wx + nx, one stride; affine's A_x and A_r apart)
template <class L, std::size_t G>
__attribute__((always_inline)) inline void row_sums(const std::int8_t* wx, std::size_t ldx, const q15* x,
                                                    std::size_t nx, const std::int8_t* wr, std::size_t ldr,
                                                    const q15* r, std::size_t nr, std::int32_t* s,
                                                    std::size_t i) noexcept {
    Sums<G> gx, gr;
    L::template dot_rows<G>(wx, ldx, x, nx, gx.v);
    L::template dot_rows<G>(wr, ldr, r, nr, gr.v);
    for (std::size_t g = 0; g < G; ++g) {
        s[2 * (i + g)] = gx.v[g];
        s[2 * (i + g) + 1] = gr.v[g];
    }
}

/// The rows i..end of a block of affine_tanh's rows (from start) finished from their sums s = (s_x, s_r) pairs by
/// finish_row.
template <class L>
__attribute__((noinline)) void finish_rows(const QAffine& a, std::size_t start, std::size_t i, std::size_t end,
                                           const std::int32_t* s, q15* y) noexcept {
    const XFactor x_factor(a.x_m, a.x_shift);
    for (; i < end; ++i) y[i] = finish_row<L>(a, x_factor, i, s[2 * (i - start)], s[2 * (i - start) + 1]);
}

/// The rows start..end of affine_tanh finished from their sums s = (s_x, s_r) pairs: by the target's loop where the
/// input's factor is near 1 (for x_shift 0 or -1), else, and for a row it leaves, by finish_row.
template <class L>
__attribute__((noinline)) void finish_block(const QAffine& a, std::size_t start, std::size_t end, const std::int32_t* s,
                                            q15* y) noexcept {
    if ((a.x_shift == 0 || a.x_shift == -1) && a.x_m >= 0) {
        for (std::size_t i = start; i < end;) {
            const std::int32_t* const si = s + 2 * (i - start);
            // finish_tanh<1> for x_shift 0, <2> for -1
            if (a.x_shift == 0) {
                i += L::template finish_tanh<1>(si, end - i, a.m + i, a.shift + i, a.b + i, a.x_m, y + i);
            } else {
                i += L::template finish_tanh<2>(si, end - i, a.m + i, a.shift + i, a.b + i, a.x_m, y + i);
            }
            if (i < end) {
                finish_rows<L>(a, start, i, i + 1, s, y);
                ++i;
            }
        }
    } else {
        finish_rows<L>(a, start, start, end, s, y);
    }
}

/// affine_tanh where the target's packed passes take x and r (L::packs(nx, nr)): x and r packed once, then
/// a block of rows' sums by the passes of four rows (the last rows % 4 by dot_rows), the block finished.
template <class L, class RowsT, class NxT, class NrT>
__attribute__((noinline)) void affine_tanh_packed(const QAffine& a, RowsT rows, const q15* x, NxT nx, const q15* r,
                                                  NrT nr, q15* y) noexcept {
    const std::size_t ld = nx + nr;
    typename L::Packed pk;
    L::pack(x, nx, r, nr, pk);
    constexpr std::size_t kBlock = 8 * L::kRows;
    for (std::size_t start = 0; start < rows; start += kBlock) {
        const std::size_t end = rows - start < kBlock ? rows : start + kBlock;
        std::int32_t s[2 * kBlock];  // (s_x, s_r) of each row
        const std::size_t groups = (end - start) / L::kRows;
        if (groups > 0) L::rows_packed(a.A + start * ld, ld, pk, nx, nr, groups, s);
        // the last rows % kRows (at most 3: two, then one) by dot_rows
        std::size_t row = start + L::kRows * groups;
        const auto pass = [&](auto group) __attribute__((always_inline)) {
            constexpr std::size_t G = decltype(group)::value;
            const std::int8_t* const w = a.A + row * ld;
            row_sums<L, G>(w, ld, x, nx, w + nx, ld, r, nr, s, row - start);
            row += G;
        };
        if (row + 2 <= end) pass(Group<2>{});
        if (row < end) pass(Group<1>{});
        finish_block<L>(a, start, end, s, y);
    }
}

/// affine_tanh's other shapes (the DSP set's): a block of rows' sums first (rows4_xr's passes of four rows where
/// both parts are a multiple of 4 long and word aligned; else, and for the last rows, dot_rows), the block finished.
template <class L, class RowsT, class NxT, class NrT>
__attribute__((noinline)) void affine_tanh_blocks(const QAffine& a, RowsT rows, const q15* x, NxT nx, const q15* r,
                                                  NrT nr, q15* y) noexcept {
    const std::size_t ld = nx + nr;
    // A block of rows' sums first, then the block's rows finished (finish_block)
    constexpr std::size_t kBlock = 4 * L::kRows;
    for (std::size_t start = 0; start < rows; start += kBlock) {
        const std::size_t end = rows - start < kBlock ? rows : start + kBlock;
        std::int32_t s[2 * kBlock];  // (s_x, s_r) of each row
        std::size_t row = start;
        if constexpr (q15_loops::has(L::kCaps, q15_loops::kRowsXr)) {
            // four rows, both parts in one call, where their lengths and alignment allow
            if (nx % 4 == 0 && nr % 4 == 0 && nx > 0 && nr > 0 && word_aligned(x) && word_aligned(r)) {
                for (; row + 4 <= end; row += 4) {
                    L::rows4_xr(a.A + row * ld, ld, x, nx, r, nr, s + 2 * (row - start));
                }
            }
        }
        row_groups<L>(
            row, end, [&](auto group, std::size_t i) __attribute__((always_inline)) {
                const std::int8_t* const w = a.A + i * ld;
                constexpr std::size_t G = decltype(group)::value;
                row_sums<L, G>(w, ld, x, nx, w + nx, ld, r, nr, s, i - start);
            });
        finish_block<L>(a, start, end, s, y);
    }
}

/// affine_tanh with the loops L (Q15::affine_tanh's contract).
template <class L, class RowsT, class NxT, class NrT>
__attribute__((always_inline)) inline void affine_tanh(const QAffine& a, RowsT rows, const q15* x, NxT nx, const q15* r,
                                                       NrT nr, q15* y) noexcept {
    if constexpr (q15_loops::has(L::kCaps, q15_loops::kTanhRows)) {
        const std::size_t ld = nx + nr;
        // The target's tanh_rows takes the tanh of every row at the end: here the sums of up to kChunk rows first
        // (kRows at a time), then their pre-activations in a loop of their own (few values live: no spills), into y.
        constexpr std::size_t kChunk = 32;
        std::size_t done = 0;  // the rows whose pre-activations the target's rows_pre wrote (kRowsPre)
        if constexpr (q15_loops::has(L::kCaps, q15_loops::kRowsPre)) {
            done = L::rows_pre(a, rows, x, nx, r, nr, y);
        }
        for (std::size_t first = done; first < rows; first += kChunk) {
            const XFactor xf(a.x_m, a.x_shift);  // (here: nothing of it where rows_pre took every row)
            const std::size_t count = rows - first < kChunk ? rows - first : kChunk;
            std::int32_t s_x[kChunk], s_r[kChunk];
            std::size_t i = 0;
            const auto sums = [&](auto group) __attribute__((always_inline)) {
                constexpr std::size_t G = decltype(group)::value;
                const std::int8_t* w = a.A + (first + i) * ld;
                for (std::size_t g = 0; g < G; ++g) s_x[i + g] = s_r[i + g] = 0;
                L::template dot_rows<G>(w, ld, x, nx, s_x + i);
                L::template dot_rows<G>(w + nx, ld, r, nr, s_r + i);
                i += G;
            };
            // NOLINTNEXTLINE(bugprone-infinite-loop): the pass advances the index (a lambda, by reference)
            while (i + L::kRows <= count) sums(Group<L::kRows>{});
            if constexpr (L::kRows > 2) {
                if (i + 2 <= count) sums(Group<2>{});
            }
            if (i < count) sums(Group<1>{});
            // the pre-activations four rows a pass where the factors allow (L::finish_rows), else row by row
            if constexpr (q15_loops::has(L::kCaps, q15_loops::kFinishRows)) {
                if (L::finish_rows(s_x, s_r, count, a.x_m, a.x_shift, a.m + first, a.shift + first, a.b + first,
                                   y + first)) {
                    continue;
                }
            }
            if (xf.near_one) {
                // the loop of the common factor on its own (XFactor's near_one case, as near_x computes it)
                for (std::size_t k = 0; k < count; ++k) {
                    const std::size_t row = first + k;
                    const std::int32_t z = near_x(s_x[k], a.x_m, a.x_shift) + s_r[k];
                    y[row] = q15{static_cast<std::int16_t>(add_sat16(rescale(z, a.m[row], a.shift[row]), a.b[row]))};
                }
            } else {
                for (std::size_t k = 0; k < count; ++k) y[first + k] = finish_row<L>(a, xf, first + k, s_x[k], s_r[k]);
            }
        }
        L::tanh_rows(y, rows);
    } else if constexpr (q15_loops::has(L::kCaps, q15_loops::kFinishTanh)) {
        // a block of rows' sums first, then the block finished (with x and r packed once where L's packed passes
        // take them)
        if constexpr (q15_loops::has(L::kCaps, q15_loops::kRowsPacked)) {
            if (L::packs(nx, nr)) {
                affine_tanh_packed<L>(a, rows, x, nx, r, nr, y);
                return;
            }
        }
        affine_tanh_blocks<L>(a, rows, x, nx, r, nr, y);
    } else {
        // G rows at a time, sharing each load of x and r, each group's rows finished after its loops. s_x = A_x·x,
        // s_r = A_r·r: |terms| <= 128·32768 = 2^22, nx <= 511 and nr <= 256 terms (params.hpp), exact in int32
        const std::size_t ld = nx + nr;
        const XFactor x_factor(a.x_m, a.x_shift);
        row_groups<L>(
            0, rows, [&](auto group, std::size_t row) __attribute__((always_inline)) {
                constexpr std::size_t G = decltype(group)::value;
                const std::int8_t* w = a.A + row * ld;
                Sums<G> s_x, s_r;
                L::template dot_rows<G>(w, ld, x, nx, s_x.v);
                L::template dot_rows<G>(w + nx, ld, r, nr, s_r.v);
                for (std::size_t g = 0; g < G; ++g)
                    y[row + g] = finish_row<L>(a, x_factor, row + g, s_x.v[g], s_r.v[g]);
            });
    }
}

/// affine where L finishes rows (kFinishTanh) and the input's factor is near 1 (x_shift 0 or -1, x_m >= 0): a block
/// of rows' sums first (dot_rows), then the block's pre-activations by the target's loop (finish_tanh without the
/// tanh); a row it leaves (shift below 2) as affine's other rows.
template <class L, class RowsT, class NxT, class NrT>
__attribute__((noinline)) void affine_blocks(const QGates& a, RowsT rows, const q15* x, NxT nx, const q15* r, NrT nr,
                                             q15* z) noexcept {
    constexpr std::size_t kBlock = 8 * L::kRows;
    static constexpr std::int32_t kNoBias[kBlock] = {};  // b's rows where there is no bias
    // x and r packed once where the target's packed passes take them
    bool packed = false;
    typename L::Packed pk;
    if constexpr (q15_loops::has(L::kCaps, q15_loops::kRowsPacked)) {
        packed = L::packs(nx, nr);
        if (packed) L::pack(x, nx, r, nr, pk);
    }
    for (std::size_t start = 0; start < rows; start += kBlock) {
        const std::size_t end = rows - start < kBlock ? rows : start + kBlock;
        std::int32_t s[2 * kBlock];  // (s_x, s_r) of each row
        std::size_t row = start;
        if constexpr (q15_loops::has(L::kCaps, q15_loops::kRowsPacked)) {
            if (packed && end - start >= L::kRows) {
                const std::size_t groups = (end - start) / L::kRows;
                L::rows_packed2(a.A_x + start * nx, a.A_r + start * nr, pk, nx, nr, groups, s);
                row += L::kRows * groups;
            }
        }
        row_groups<L>(
            row, end, [&](auto group, std::size_t i) __attribute__((always_inline)) {
                constexpr std::size_t G = decltype(group)::value;
                row_sums<L, G>(a.A_x + i * nx, nx, x, nx, a.A_r + i * nr, nr, r, nr, s, i - start);
            });
        for (std::size_t i = start; i < end;) {
            const std::int32_t* const si = s + 2 * (i - start);
            const std::int32_t* const bi = a.b ? a.b + i : kNoBias;
            // finish_tanh<1> for x_shift 0, <2> for -1
            if (a.x_shift == 0) {
                i += L::template finish_tanh<1, false>(si, end - i, a.m + i, a.shift + i, bi, a.x_m, z + i);
            } else {
                i += L::template finish_tanh<2, false>(si, end - i, a.m + i, a.shift + i, bi, a.x_m, z + i);
            }
            if (i < end) {
                const std::int32_t zr = XFactor(a.x_m, a.x_shift)(s[2 * (i - start)]) + s[2 * (i - start) + 1];
                z[i] = q15{static_cast<std::int16_t>(add_sat16(rescale(zr, a.m[i], a.shift[i]), a.b ? a.b[i] : 0))};
                ++i;
            }
        }
    }
}

/// Whether affine's x part has the factor 1 (x_m = 2^30, x_shift = -1: the exporter's for inputs in Q15) and nx <= 256:
/// then requantize(s_x, x_m, x_shift) = floor((s_x·2^30 + 2^29) / 2^30) = s_x, and |s_x| <= 2^7·2^15·2^8 = 2^30 needs
/// no clamp, so z = s_x + s_r is one sum over both parts.
inline bool x_factor_one(const QGates& a, std::size_t nx) noexcept {
    return a.x_m == kMax30 && a.x_shift == -1 && nx <= 256;
}

/// affine where x_factor_one: each row's z = A_x·x + A_r·r in one sum (the target's packed passes where it has
/// rows_packed_sum and x and r pack, else dot_rows into one group's sums), then pre = requantize(z, m_r, shift_r) + b_r
/// saturated to int16 (by the target's finish_sum where it has one, up to a row it leaves), by the high word alone
/// (rescale_hi) for the rows' usual factors (shift >= 2, m >= 0).
template <class L, class RowsT, class NxT, class NrT>
__attribute__((noinline)) void affine_one(const QGates& a, RowsT rows, const q15* x, NxT nx, const q15* r, NrT nr,
                                          q15* z) noexcept {
    constexpr std::size_t kBlock = 8 * L::kRows;
    bool packed = false;
    typename L::Packed pk;
    if constexpr (q15_loops::has(L::kCaps, q15_loops::kRowsSum)) {
        packed = L::packs(nx, nr);
        if (packed) L::pack(x, nx, r, nr, pk);
    }
    for (std::size_t start = 0; start < rows; start += kBlock) {
        const std::size_t end = rows - start < kBlock ? rows : start + kBlock;
        std::int32_t s[kBlock];  // z = s_x + s_r of each row: |z| < 2^31 (finish_row's bound)
        std::size_t row = start;
        if constexpr (q15_loops::has(L::kCaps, q15_loops::kRowsSum)) {
            if (packed && end - start >= L::kRows) {
                const std::size_t groups = (end - start) / L::kRows;
                L::rows_packed_sum(a.A_x + start * nx, a.A_r + start * nr, pk, nx, nr, groups, s);
                row += L::kRows * groups;
            }
        }
        row_groups<L>(
            row, end, [&](auto group, std::size_t i) __attribute__((always_inline)) {
                constexpr std::size_t G = decltype(group)::value;
                Sums<G> g;
                L::template dot_rows<G>(a.A_x + i * nx, nx, x, nx, g.v);
                L::template dot_rows<G>(a.A_r + i * nr, nr, r, nr, g.v);
                for (std::size_t k = 0; k < G; ++k) s[i - start + k] = g.v[k];
            });
        std::size_t i = start;
        if constexpr (q15_loops::has(L::kCaps, q15_loops::kRowsSum) ||
                      q15_loops::has(L::kCaps, q15_loops::kFinishSum)) {
            static constexpr std::int32_t kNoBias[kBlock] = {};  // b's rows where there is no bias
            i += L::finish_sum(s, end - start, a.m + start, a.shift + start, a.b ? a.b + start : kNoBias, z + start);
        }
        for (; i < end; ++i) {
            const std::int32_t zi = s[i - start], m = a.m[i];
            const std::int8_t shift = a.shift[i];
            // pre = requantize(z, m_r, shift_r) + b_r, in Q3.12, saturated
            const std::int32_t q = shift >= 2 && m >= 0 ? rescale_hi(zi, m, shift) : rescale(zi, m, shift);
            z[i] = q15{static_cast<std::int16_t>(add_sat16(q, a.b ? a.b[i] : 0))};
        }
    }
}

/// The sums z = s_x + s_r of the rows row..end of a block (from start) by dot_rows in L's groups (affine_one_packed's
/// last rows % kRows).
template <class L, class NxT, class NrT>
__attribute__((noinline)) void one_sums(const QGates& a, std::size_t start, std::size_t row, std::size_t end,
                                        const q15* x, NxT nx, const q15* r, NrT nr, std::int32_t* s) noexcept {
    row_groups<L>(
        row, end, [&](auto group, std::size_t i) __attribute__((always_inline)) {
            constexpr std::size_t G = decltype(group)::value;
            Sums<G> g;
            L::template dot_rows<G>(a.A_x + i * nx, nx, x, nx, g.v);
            L::template dot_rows<G>(a.A_r + i * nr, nr, r, nr, g.v);
            for (std::size_t k = 0; k < G; ++k) s[i - start + k] = g.v[k];
        });
}

/// The rows i..end of a block (from start) finished from their sums z as affine_one's (affine_one_packed's rows that
/// finish_sum leaves: a shift outside 2 .. 31).
template <class L>
__attribute__((noinline)) void one_finish(const QGates& a, std::size_t start, std::size_t i, std::size_t end,
                                          const std::int32_t* s, q15* z) noexcept {
    for (; i < end; ++i) {
        const std::int32_t zi = s[i - start], m = a.m[i];
        const std::int8_t shift = a.shift[i];
        // pre = requantize(z, m_r, shift_r) + b_r, in Q3.12, saturated
        const std::int32_t q = shift >= 2 && m >= 0 ? rescale_hi(zi, m, shift) : rescale(zi, m, shift);
        z[i] = q15{static_cast<std::int16_t>(add_sat16(q, a.b[i]))};
    }
}

/// affine_one where L's packed passes take x and r (kRowsSum, packs(nx, nr)) and there is a bias: its integers, in a
/// function of its own with only this case's values live (as gru_gates_packed: M4 Lstm<q15, 16, 32> 13,275 -> 12,987
/// instructions a step), blocks of 32·kRows rows (the Lstm's 4·32 gates in one block, 512 bytes of sums on the stack:
/// each pass called once, 12,684 -> 12,585). The last rows % kRows of a block by dot_rows (one_sums), a row
/// finish_sum leaves and those after it by one_finish.
template <class L, class RowsT, class NxT, class NrT>
__attribute__((noinline)) void affine_one_packed(const QGates& a, RowsT rows, const q15* x, NxT nx, const q15* r,
                                                 NrT nr, q15* z) noexcept {
    constexpr std::size_t kBlock = 32 * L::kRows;
    typename L::Packed pk;
    L::pack(x, nx, r, nr, pk);
    for (std::size_t start = 0; start < rows; start += kBlock) {
        const std::size_t n = rows - start < kBlock ? rows - start : kBlock;
        std::int32_t s[kBlock];  // z = s_x + s_r of each row
        const std::size_t groups = n / L::kRows;
        if (groups > 0) L::rows_packed_sum(a.A_x + start * nx, a.A_r + start * nr, pk, nx, nr, groups, s);
        if (L::kRows * groups < n) one_sums<L>(a, start, start + L::kRows * groups, start + n, x, nx, r, nr, s);
        const std::size_t done = L::finish_sum(s, n, a.m + start, a.shift + start, a.b + start, z + start);
        if (done < n) one_finish<L>(a, start, start + done, start + n, s, z);
    }
}

/// affine's rows where neither affine_one nor affine_blocks takes them (L's groups of rows, the x part's factor by
/// XFactor), in a function of its own: affine itself only picks a form, its frame small (M4 Lstm<q15, 16, 32> 12,520
/// -> 12,509 instructions a step: the dispatch took 44 with this form's frame, now 32).
template <class L, class RowsT, class NxT, class NrT>
__attribute__((noinline)) void affine_rows(const QGates& a, RowsT rows, const q15* x, NxT nx, const q15* r, NrT nr,
                                           q15* z) noexcept {
    // G rows at a time, sharing each load of x and r: s_x = A_x·x, s_r = A_r·r, exact in int32 as affine_tanh's
    const XFactor x_factor(a.x_m, a.x_shift);
    if constexpr (q15_loops::has(L::kCaps, q15_loops::kTanhRows)) {
        // as affine_tanh on these targets: the sums of up to kChunk rows first, then their rows in a loop of their own
        constexpr std::size_t kChunk = 32;
        for (std::size_t first = 0; first < rows; first += kChunk) {
            const std::size_t count = rows - first < kChunk ? rows - first : kChunk;
            std::int32_t s_x[kChunk], s_r[kChunk];
            std::size_t i = 0;
            const auto sums = [&](auto group) __attribute__((always_inline)) {
                constexpr std::size_t G = decltype(group)::value;
                for (std::size_t g = 0; g < G; ++g) s_x[i + g] = s_r[i + g] = 0;
                L::template dot_rows<G>(a.A_x + (first + i) * nx, nx, x, nx, s_x + i);
                L::template dot_rows<G>(a.A_r + (first + i) * nr, nr, r, nr, s_r + i);
                i += G;
            };
            // NOLINTNEXTLINE(bugprone-infinite-loop): the pass advances the index (a lambda, by reference)
            while (i + L::kRows <= count) sums(Group<L::kRows>{});
            if constexpr (L::kRows > 2) {
                if (i + 2 <= count) sums(Group<2>{});
            }
            if (i < count) sums(Group<1>{});
            // z = s_x in s_r's units (clamped to +-2^30) + s_r; pre = requantize(z, m_r, shift_r) + b_r, saturated
            // (the common factor's loop on its own, as affine_tanh's)
            if constexpr (q15_loops::has(L::kCaps, q15_loops::kFinishRows)) {
                if (L::finish_rows(s_x, s_r, count, a.x_m, a.x_shift, a.m + first, a.shift + first,
                                   a.b ? a.b + first : nullptr, z + first)) {
                    continue;
                }
            }
            const auto finish = [&](auto near) __attribute__((always_inline)) {
                for (std::size_t k = 0; k < count; ++k) {
                    const std::size_t row = first + k;
                    const std::int32_t zr = (decltype(near)::value ? near_x(s_x[k], a.x_m, a.x_shift)
                                                                   : x_factor(s_x[k])) +
                                            s_r[k];
                    z[row] = q15{
                        static_cast<std::int16_t>(add_sat16(rescale(zr, a.m[row], a.shift[row]), a.b ? a.b[row] : 0))};
                }
            };
            if (x_factor.near_one) {
                finish(std::true_type{});
            } else {
                finish(std::false_type{});
            }
        }
    } else {
        row_groups<L>(
            0, rows, [&](auto group, std::size_t row) __attribute__((always_inline)) {
                constexpr std::size_t G = decltype(group)::value;
                Sums<G> s_x, s_r;
                L::template dot_rows<G>(a.A_x + row * nx, nx, x, nx, s_x.v);
                L::template dot_rows<G>(a.A_r + row * nr, nr, r, nr, s_r.v);
                for (std::size_t g = 0; g < G; ++g) {
                    // z = s_x in s_r's units (clamped to +-2^30) + s_r, |z| < 2^31 (see finish_row)
                    const std::int32_t zr = x_factor(s_x.v[g]) + s_r.v[g];
                    // pre = requantize(z, m_r, shift_r) + b_r, in Q3.12, saturated
                    const std::int32_t pre = add_sat16(rescale(zr, a.m[row + g], a.shift[row + g]),
                                                       a.b ? a.b[row + g] : 0);
                    z[row + g] = q15{static_cast<std::int16_t>(pre)};
                }
            });
    }
}

/// affine with the loops L (Q15::affine's contract).
template <class L, class RowsT, class NxT, class NrT>
__attribute__((always_inline)) inline void affine(const QGates& a, RowsT rows, const q15* x, NxT nx, const q15* r,
                                                  NrT nr, q15* z) noexcept {
    // the x part's factor 1 in one sum per row: on the targets that finish rows one by one (not Helium's chunks)
    if constexpr (!q15_loops::has(L::kCaps, q15_loops::kTanhRows)) {
        if (x_factor_one(a, nx)) {
            if constexpr (q15_loops::has(L::kCaps, q15_loops::kRowsSum)) {
                if (L::packs(nx, nr) && a.b != nullptr) {
                    affine_one_packed<L>(a, rows, x, nx, r, nr, z);
                    return;
                }
            }
            affine_one<L>(a, rows, x, nx, r, nr, z);
            return;
        }
    }
    if constexpr (q15_loops::has(L::kCaps, q15_loops::kFinishTanh)) {
        if ((a.x_shift == 0 || a.x_shift == -1) && a.x_m >= 0) {
            affine_blocks<L>(a, rows, x, nx, r, nr, z);
            return;
        }
    }
    affine_rows<L>(a, rows, x, nx, r, nr, z);
}

/// gru_gates's layout of the sums: each part's in an array of its own where L keeps them so (kGruApart), and its
/// block of rows (16 passes there, else 8).
template <class L>
constexpr bool kGruApart = q15_loops::has(L::kCaps, q15_loops::kGruApart);
template <class L>
constexpr std::size_t kGruBlock = (q15_loops::has(L::kCaps, q15_loops::kGruApart) ? 16 : 8) * L::kRows;

/// The sums of the rows row..end of a block (from start) by dot_rows in L's groups, s_x at s[i - start] and s_h at
/// s[kBlock + i - start] (gru_gates's rows without the packed passes, inline; gru_sums: gru_gates_packed's last rows %
/// kRows, a call).
template <class L, std::size_t kBlock>
__attribute__((always_inline)) inline void gru_sums_in(const QGru& a, std::size_t start, std::size_t row,
                                                       std::size_t end, const q15* x, std::size_t nx, const q15* h,
                                                       std::size_t nh, std::int32_t* s) noexcept {
    row_groups<L>(
        row, end, [&](auto group, std::size_t i) __attribute__((always_inline)) {
            constexpr std::size_t G = decltype(group)::value;
            Sums<G> gx, gh;
            L::template dot_rows<G>(a.W_ih + i * nx, nx, x, nx, gx.v);
            L::template dot_rows<G>(a.W_hh + i * nh, nh, h, nh, gh.v);
            for (std::size_t g = 0; g < G; ++g) {
                s[i - start + g] = gx.v[g];
                s[kBlock + i - start + g] = gh.v[g];
            }
        });
}

template <class L, std::size_t kBlock, class NxT, class NrT>
__attribute__((noinline)) void gru_sums(const QGru& a, std::size_t start, std::size_t row, std::size_t end,
                                        const q15* x, NxT nx, const q15* h, NrT nh, std::int32_t* s) noexcept {
    gru_sums_in<L, kBlock>(a, start, row, end, x, nx, h, nh, s);
}

/// The rows i..end of a block (from start) finished from their sums s_x = s[i - start], s_h = s[kBlock + i - start]
/// where the x part's factor is 1, as gru_gates's (gru_gates_packed's rows that finish_gru_apart leaves: a shift
/// outside 2 .. 31).
template <class L, std::size_t kBlock>
__attribute__((noinline)) void gru_finish_one(const QGru& a, std::size_t start, std::size_t i, std::size_t end,
                                              const std::int32_t* s, q15* gi, q15* gh) noexcept {
    for (; i < end; ++i) {
        const std::int32_t s_x = s[i - start], s_h = s[kBlock + i - start];
        const std::int32_t m = a.m[i];
        const std::int8_t shift = a.shift[i];
        const bool hi = shift >= 2 && m >= 0;
        // gi = requantize(s_x, m_r, shift_r) + b_ih, gh = requantize(s_h, m_r, shift_r) + b_hh, saturated
        const std::int32_t qi = hi ? rescale_hi(s_x, m, shift) : rescale(s_x, m, shift);
        const std::int32_t qh = hi ? rescale_hi(s_h, m, shift) : rescale(s_h, m, shift);
        gi[i] = q15{static_cast<std::int16_t>(add_sat16(qi, a.b_ih[i]))};
        gh[i] = q15{static_cast<std::int16_t>(add_sat16(qh, a.b_hh[i]))};
    }
}

/// finish_gru_apart on the rows start .. start + n of a block (gru_gates's where x and h do not pack), in a call of its
/// own: inline, its assembly's registers were not to be had in gru_gates compiled for some shapes (GCC: "impossible
/// constraints" at Gru<q15, 16, 48> on the M4)
template <class L, std::size_t kBlock>
__attribute__((noinline)) std::size_t gru_finish_apart(const QGru& a, std::size_t start, std::size_t n,
                                                       const std::int32_t* s, q15* gi, q15* gh) noexcept {
    return L::template finish_gru_apart<4 * kBlock>(s, n, a.m + start, a.shift + start, a.b_ih + start, a.b_hh + start,
                                                    gi + start, gh + start);
}

/// gru_gates where L's packed passes and finish_gru take the rows (kGruApart: the x part's factor 1, x and h packed;
/// each part's sums in an array of its own, rows_apart and finish_gru_apart): gru_gates's integers, in a function of
/// its own with only this case's values live (gru_gates's other factors' set-up, hoisted out of its blocks, cost about
/// a hundred instructions a block and as many once: M4 Gru<q15, 16, 32> 10,729 -> 10,461 instructions a step), blocks
/// of 24·kRows rows (Hidden 32's 96 rows in one block, 768 bytes of sums on the stack), each a call of its own
/// (gru_packed_block: no set-up for the next block held in this frame, 9,957 -> 9,933). The last rows % kRows of a block by dot_rows (gru_sums), a row finish_gru leaves and those after it by
/// gru_finish_one.
/// One block of gru_gates_packed: the rows start .. start + n (n <= kBlock), x and h packed in pk.
template <class L, std::size_t kBlock, class NxT, class NrT>
__attribute__((noinline)) void gru_packed_block(const QGru& a, std::size_t start, std::size_t n,
                                                const typename L::Packed& pk, const q15* x, NxT nx, const q15* h,
                                                NrT nh, q15* gi, q15* gh) noexcept {
    std::int32_t s[2 * kBlock];  // s_x of each row, then s_h of each row from s + kBlock
    const std::size_t groups = n / L::kRows;
    if (groups > 0) L::rows_apart(a.W_ih + start * nx, a.W_hh + start * nh, pk, nx, nh, groups, s, s + kBlock);
    if (L::kRows * groups < n) gru_sums<L, kBlock>(a, start, start + L::kRows * groups, start + n, x, nx, h, nh, s);
    const std::size_t done = L::template finish_gru_apart<4 * kBlock>(
        s, n, a.m + start, a.shift + start, a.b_ih + start, a.b_hh + start, gi + start, gh + start);
    if (done < n) gru_finish_one<L, kBlock>(a, start, start + done, start + n, s, gi, gh);
}

template <class L, class RowsT, class NxT, class NrT>
__attribute__((noinline)) void gru_gates_packed(const QGru& a, RowsT rows, const q15* x, NxT nx, const q15* h, NrT nh,
                                                q15* gi, q15* gh) noexcept {
    constexpr std::size_t kBlock = 24 * L::kRows;
    typename L::Packed pk;
    L::pack(x, nx, h, nh, pk);
    for (std::size_t start = 0; start < rows; start += kBlock) {
        gru_packed_block<L, kBlock>(a, start, rows - start < kBlock ? rows - start : kBlock, pk, x, nx, h, nh, gi, gh);
    }
}

/// gru_gates with the loops L (Q15::gru_gates's contract): a block of rows' sums (s_x, s_h) first, by the target's
/// packed passes of four rows where it has them (x and h packed once), else by dot_rows in L's groups; then each row
/// finished twice, as affine finishes a row whose r part is empty (gi) and one whose factor is 1 (gh).
template <class L, class RowsT, class NxT, class NrT>
__attribute__((noinline)) void gru_gates(const QGru& a, RowsT rows, const q15* x, NxT nx, const q15* h, NrT nh, q15* gi,
                                         q15* gh) noexcept {
    // each part's sums in an array of their own where L keeps them so (kGruApart: s_x at s, s_h from s + kBlock, in
    // blocks of gru_gates_packed's size: one form of its loops in the image), else (s_x, s_h) pairs (kApart and
    // kBlock are constants: the finishing lambda reads them without capturing them)
    constexpr bool kApart = kGruApart<L>;
    constexpr std::size_t kBlock = kGruBlock<L>;
    const XFactor x_factor(a.x_m, a.x_shift);
    // the x part's factor 1 (x_factor_one's condition): requantize(s_x) = s_x, no clamp
    const bool one = a.x_m == kMax30 && a.x_shift == -1 && nx <= 256;
    bool packed = false;
    typename L::Packed pk;
    if constexpr (q15_loops::has(L::kCaps, q15_loops::kRowsPacked)) {
        packed = L::packs(nx, nh);
        if (packed) L::pack(x, nx, h, nh, pk);
    }
    for (std::size_t start = 0; start < rows; start += kBlock) {
        const std::size_t end = rows - start < kBlock ? rows : start + kBlock;
        std::int32_t s[2 * kBlock];  // (s_x, s_h) of each row (kApart: s_x of each row, then s_h)
        std::size_t row = start;
        if constexpr (q15_loops::has(L::kCaps, q15_loops::kRowsPacked)) {
            if (packed && end - start >= L::kRows) {
                const std::size_t groups = (end - start) / L::kRows;
                if constexpr (kApart) {
                    L::rows_apart(a.W_ih + start * nx, a.W_hh + start * nh, pk, nx, nh, groups, s, s + kBlock);
                } else {
                    L::rows_packed2(a.W_ih + start * nx, a.W_hh + start * nh, pk, nx, nh, groups, s);
                }
                row += L::kRows * groups;
            }
        }
        if constexpr (kApart) {
            gru_sums_in<L, kBlock>(a, start, row, end, x, nx, h, nh, s);
        } else {
            row_groups<L>(
                row, end, [&](auto group, std::size_t i) __attribute__((always_inline)) {
                    constexpr std::size_t G = decltype(group)::value;
                    row_sums<L, G>(a.W_ih + i * nx, nx, x, nx, a.W_hh + i * nh, nh, h, nh, s, i - start);
                });
        }
        std::size_t done = start;  // the rows finished
        if constexpr (q15_loops::has(L::kCaps, q15_loops::kFinishGru)) {
            if (one) {
                if constexpr (kApart) {
                    done += gru_finish_apart<L, kBlock>(a, start, end - start, s, gi, gh);
                } else {
                    done += L::finish_gru(s, end - start, a.m + start, a.shift + start, a.b_ih + start, a.b_hh + start,
                                          gi + start, gh + start);
                }
            }
        }
        // the rows' loop, written twice (the factor 1 known, or XFactor's) where flash allows: on Helium (the M55)
        // once, with a test per row (the M55's bench image is within a few hundred bytes of its 512 KiB)
        const auto finish = [&](auto unit) __attribute__((always_inline)) {
            for (std::size_t i = done; i < end; ++i) {
                // s_x at si[0], s_h at si[kH]
                const std::int32_t* const si = kApart ? s + (i - start) : s + 2 * (i - start);
                constexpr std::size_t kH = kApart ? kBlock : 1;
                const std::int32_t m = a.m[i];
                const std::int8_t shift = a.shift[i];
                // s_x in h's units (clamped to +-2^30; the factor 1: s_x itself); |s_h| <= 128·32768·256 = 2^30
                const std::int32_t xq = (decltype(unit)::value && one) ? si[0] : x_factor(si[0]);
                std::int32_t qi, qh;
                if (shift >= 2 && m >= 0) {
                    // the rows' usual factors (a_r / 8 < 1/2): the high word of the product alone decides (rescale_hi)
                    qi = rescale_hi(xq, m, shift);
                    qh = rescale_hi(si[kH], m, shift);
                } else {
                    qi = rescale(xq, m, shift);
                    qh = rescale(si[kH], m, shift);
                }
                // gi = requantize(xq, m_r, shift_r) + b_ih, gh = requantize(s_h, m_r, shift_r) + b_hh, in Q3.12,
                // saturated
                gi[i] = q15{static_cast<std::int16_t>(add_sat16(qi, a.b_ih[i]))};
                gh[i] = q15{static_cast<std::int16_t>(add_sat16(qh, a.b_hh[i]))};
            }
        };
#if defined(__ARM_FEATURE_MVE)
        finish(std::true_type{});  // (one tested per row)
#else
        if (one) {
            finish(std::true_type{});
        } else {
            finish(std::false_type{});  // (one is false: XFactor)
        }
#endif
    }
}

/// gru_gates with the loops L (Q15::gru_gates's contract): the target's whole where it has one (kGruGates); its packed
/// passes and finish_gru where they take the rows (kGruApart); else the generic form.
template <class L, class RowsT, class NxT, class NrT>
__attribute__((always_inline)) inline void gru_gates_any(const QGru& a, RowsT rows, const q15* x, NxT nx, const q15* h,
                                                         NrT nh, q15* gi, q15* gh) noexcept {
    if constexpr (q15_loops::has(L::kCaps, q15_loops::kGruGates)) {
        L::gru_gates(a, rows, x, nx, h, nh, gi, gh);
    } else {
        if constexpr (q15_loops::has(L::kCaps, q15_loops::kGruApart)) {
            if (a.x_m == kMax30 && a.x_shift == -1 && nx <= 256 && L::packs(nx, nh)) {
                gru_gates_packed<L>(a, rows, x, nx, h, nh, gi, gh);
                return;
            }
        }
        gru_gates<L>(a, rows, x, nx, h, nh, gi, gh);
    }
}

/// gemv with the loops L (Q15::gemv's contract): G rows at a time, sharing each load of v: |terms| <= 128·32768 =
/// 2^22, cols <= 256 (params.hpp): exact in int32
template <class L>
__attribute__((always_inline)) inline void gemv(const QMatrix& W, const q15* v, q15* y) noexcept {
    row_groups<L>(
        0, W.rows, [&](auto group, std::size_t row) __attribute__((always_inline)) {
            constexpr std::size_t G = decltype(group)::value;
            Sums<G> s;
            L::template dot_rows<G>(W.W + row * W.ld, W.ld, v, W.cols, s.v);
            for (std::size_t g = 0; g < G; ++g) {
                // y_r = requantize(s_r, m_r, shift_r), saturated to int16
                const std::int32_t q = rescale(s.v[g], W.m[row + g], W.shift[row + g]);
                y[row + g] = q15{static_cast<std::int16_t>(q > 32767 ? 32767 : (q < -32768 ? -32768 : q))};
            }
        });
}

/// gemv_t (Q15::gemv_t's contract): y_r = Σ_k W[k][r]·v_k, down the column r: |terms| <= 2^22, rows <= 256, exact in
/// int32 (a template only so that a translation unit that does not call it holds no copy)
template <class L>
__attribute__((always_inline)) inline void gemv_t(const QMatrix& W, const q15* v, std::int32_t m, int shift,
                                                  q15* y) noexcept {
    for (std::size_t r = 0; r < W.cols; ++r) {
        std::int32_t acc = 0;
        const std::int8_t* w = W.W + r;
        for (std::size_t k = 0; k < W.rows; ++k, w += W.ld) acc += *w * v[k].raw;
        const std::int32_t q = rescale(acc, m, shift);
        y[r] = q15{static_cast<std::int16_t>(q > 32767 ? 32767 : (q < -32768 ? -32768 : q))};
    }
}

}  // namespace

}  // namespace sarnn::kernel
#endif
