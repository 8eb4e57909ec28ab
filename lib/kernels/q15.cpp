// lib/kernels/q15.cpp: kernel::Q15, the kernels of the q15 models (contracts: include/sarnn/kernels_q15.hpp). Plain
// C++, integers only; every result has its twin in python/sarnn/q15.py (affine_tanh, attend_dot), which
// computes the same integers. The arithmetic that rounds (requantisation, the scores' format, the softmax) is here,
// the same on every target; the inner loops, exact integer sums, are each target's (the seam: q15/seam.hpp), in
// groups of rows, states or columns that share their loads. Every sum is kept in 32 bits (the cores without an FPU
// that run this, the M0/M0+, multiply 32 x 32 -> 32 only); rows are read by words where they are word aligned (the
// models' are: kernels.hpp pads rows to 32-bit words). As in lib/fixed.cpp, each intermediate's bound is beside it.
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#if defined(__ARM_FEATURE_DSP)
#include <arm_acle.h>
#endif

#include "kernels/exp.hpp"
#include "kernels/q15/loops.hpp"
#include "kernels/requantize.hpp"
#include "kernels/tanh.hpp"
#include "sarnn/fixed.hpp"
#include "sarnn/kernels_q15.hpp"

namespace sarnn::kernel {
namespace {

/// The loops of a Q15Set (kernels_q15.hpp's TargetLoops, PlainLoops): this build's (q15/loops.hpp) or the plain ones.
/// The one algorithm below takes them as its L.
template <class Which>
struct loops_of;
template <>
struct loops_of<TargetLoops> {
    using type = q15_loops::Target;
};
template <>
struct loops_of<PlainLoops> {
    using type = q15_loops::PlainLoops;
};
template <class Which>
using loops_t = typename loops_of<Which>::type;
static_assert(q15_loops::check<q15_loops::Target>());
static_assert(q15_loops::check<q15_loops::PlainLoops>());

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "sarnn: the q15 kernels read int16 pairs little endian");

constexpr std::int32_t kMax30 = std::int32_t{1} << 30;

/// floor((v + 2^(s - 1)) / 2^s) for 1 <= s <= 30, v + 2^(s - 1) < 2^31: v rounded half up, then divided. The
/// shift of a negative number is arithmetic, a floor (GCC and Clang define it so, C++20 requires it; two
/// instructions where the floor of the magnitude took eight): the one place the kernels rely on it.
__attribute__((always_inline)) inline std::int32_t round_shift(std::int32_t v, int s) noexcept {
    return (v + (std::int32_t{1} << (s - 1))) >> s;
}

/// the least t >= 0 with 2^t >= v (v <= 2^31): CLZ where the core has it (not ARMv6-M: a library call there)
__attribute__((always_inline)) inline int ceil_log2(std::uint32_t v) noexcept {
#if defined(__GNUC__) && !defined(__ARM_ARCH_6M__)
    return v > 1 ? 32 - __builtin_clz(v - 1) : 0;
#else
    int t = 0;
    while ((std::uint32_t{1} << t) < v) ++t;
    return t;
#endif
}

/// the least sh >= 0 with v·2^sh >= 2^30, for 0 < v < 2^31 (v·2^sh < 2^31 then)
__attribute__((always_inline)) inline int to_top(std::uint32_t v) noexcept {
#if defined(__GNUC__) && !defined(__ARM_ARCH_6M__)
    return v < (std::uint32_t{1} << 30) ? __builtin_clz(v) - 1 : 0;
#else
    int sh = 0;
    while ((v << sh) < (std::uint32_t{1} << 30)) ++sh;
    return sh;
#endif
}

__attribute__((always_inline)) inline bool word_aligned(const void* p) noexcept {
    return (reinterpret_cast<std::uintptr_t>(p) & 3u) == 0;
}

/// The two segments of a ring of rows (physical rows first.. then 0..), as in the float kernels.
struct Segments {
    const q15* base[2];
    std::size_t n[2];
};
inline Segments segments(const Rows<q15>& S) noexcept {
    const std::size_t n0 = S.cap - S.first < S.n ? S.cap - S.first : S.n;
    return {{S.base + S.first * S.stride, S.base}, {n0, S.n - n0}};
}

/// A group size as a type (the passes below are generic lambdas).
template <std::size_t G>
using Group = std::integral_constant<std::size_t, G>;

/// The rows row..end in L's groups, the one skeleton of every product below: kRows at a time, then two, then one;
/// pass(Group<G>{}, i) takes the G rows from i.
template <class L, class Pass>
__attribute__((always_inline)) inline void row_groups(std::size_t row, std::size_t end, Pass&& pass) noexcept {
    for (; row + L::kRows <= end; row += L::kRows) pass(Group<L::kRows>{}, row);
    if constexpr (L::kRows > 2) {
        if (row + 2 <= end) {
            pass(Group<2>{}, row);
            row += 2;
        }
    }
    if (row < end) pass(Group<1>{}, row);
}

/// A group's accumulators, zeroed one store each: `= {}` on an array of two to four words became a call of memset
/// at -Os on ARMv6-M (about 130 instructions a pass).
template <std::size_t G>
struct Sums {
    std::int32_t v[G];
    template <std::size_t... I>
    __attribute__((always_inline)) void zero(std::index_sequence<I...>) noexcept {
        ((v[I] = 0), ...);
    }
    __attribute__((always_inline)) Sums() noexcept { zero(std::make_index_sequence<G>{}); }
};

/// requantize, by its short form where the factor is below 2 (the rows' factors always are: a_r / 8; the input's
/// is near 1 for inputs in (-1, 1)).
__attribute__((always_inline)) inline std::int32_t rescale(std::int32_t acc, std::int32_t m, int shift) noexcept {
    return shift >= -1 && m >= 0 ? fixed::detail::requantize_short(acc, m, shift)
                                 : fixed::detail::requantize(acc, m, shift);
}

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
template <class L>
__attribute__((noinline)) void affine_tanh_packed(const QAffine& a, std::size_t rows, const q15* x, std::size_t nx,
                                                  const q15* r, std::size_t nr, q15* y) noexcept {
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
template <class L>
__attribute__((noinline)) void affine_tanh_blocks(const QAffine& a, std::size_t rows, const q15* x, std::size_t nx,
                                                  const q15* r, std::size_t nr, q15* y) noexcept {
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
                row_sums<L, decltype(group)::value>(w, ld, x, nx, w + nx, ld, r, nr, s, i - start);
            });
        finish_block<L>(a, start, end, s, y);
    }
}

/// affine_tanh with the loops L (Q15::affine_tanh's contract).
template <class L>
__attribute__((always_inline)) inline void affine_tanh(const QAffine& a, std::size_t rows, const q15* x, std::size_t nx,
                                                       const q15* r, std::size_t nr, q15* y) noexcept {
    if constexpr (q15_loops::has(L::kCaps, q15_loops::kTanhRows)) {
        const std::size_t ld = nx + nr;
        // The target's tanh_rows takes the tanh of every row at the end: here the sums of up to kChunk rows first
        // (kRows at a time), then their pre-activations in a loop of their own (few values live: no spills), into y.
        constexpr std::size_t kChunk = 32;
        const XFactor xf(a.x_m, a.x_shift);
        for (std::size_t first = 0; first < rows; first += kChunk) {
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

}  // namespace

template <class Which>
void Q15Set<Which>::affine_tanh(const QAffine& a, std::size_t rows, const q15* x, std::size_t nx, const q15* r,
                                std::size_t nr, q15* y) noexcept {
    kernel::affine_tanh<loops_t<Which>>(a, rows, x, nx, r, nr, y);
}

template <class Which>
void Q15Set<Which>::gemv(const QMatrix& W, const q15* v, q15* y) noexcept {
    using L = loops_t<Which>;
    // G rows at a time, sharing each load of v: |terms| <= 128·32768 = 2^22, cols <= 256 (params.hpp): exact in int32
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

template <class Which>
void Q15Set<Which>::gemv_t(const QMatrix& W, const q15* v, std::int32_t m, int shift, q15* y) noexcept {
    // y_r = Σ_k W[k][r]·v_k, down the column r: |terms| <= 2^22, rows <= 256, exact in int32
    for (std::size_t r = 0; r < W.cols; ++r) {
        std::int32_t acc = 0;
        const std::int8_t* w = W.W + r;
        for (std::size_t k = 0; k < W.rows; ++k, w += W.ld) acc += *w * v[k].raw;
        const std::int32_t q = rescale(acc, m, shift);
        y[r] = q15{static_cast<std::int16_t>(q > 32767 ? 32767 : (q < -32768 ? -32768 : q))};
    }
}

namespace {

/// alpha = softmax(e) in place: e_j in Q(f) (f <= 15), m = max_j e_j. See attend_dot in kernels_q15.hpp.
template <class L>
void softmax(q15* alpha, std::size_t n, int f, std::int32_t m) noexcept {
    // p_j = e^(e_j - m) in Q16 (exp_q16 of the difference in Q16, (e_j - m)·2^(16 - f), f >= -2: taken only above
    // zero_below, so |.| < 12·2^16), at most 65535 so that p_j - 32768 fits the int16 of alpha until alpha replaces
    // it; l = Σ p_j (< 65536·n, n < 32768)
    const std::int32_t to_q16 = std::int32_t{1} << (16 - f);
    // (e_j - m)·2^(16 - f) <= -12·65536: exp_q16 gives 0, without the call (and never for the max itself, d = 0)
    const std::int32_t below = (std::int32_t{12} << 16) >> (16 - f);
    const std::int32_t zero_below = below > 1 ? -below : -1;
    const std::uint32_t l = L::exps(alpha, n, m, to_q16, zero_below);
    // 1 / l: l·2^sh in [2^30, 2^31) (l >= 65535, the max's own term, so sh <= 15); den = its top 16 bits, in
    // [2^15, 2^16); rec = 2^31 / den in (2^15, 2^16], at most 65535 (the one division of a step)
    const int sh = to_top(l);
    // (bit 15 of den is set for every l >= 65535: the OR changes nothing, it tells the analyzer den > 0)
    const std::uint32_t den = ((l << sh) >> 15) | (std::uint32_t{1} << 15);
    const std::uint32_t rec0 = (std::uint32_t{1} << 31) / den;
    const std::uint32_t rec = rec0 > 65535u ? 65535u : rec0;
    // alpha_j = p_j / l in Q15 = p_j·rec / 2^(31 - sh), floored (p_j·rec < 2^32), at most 32767
    L::normalize(alpha, n, rec, 31 - sh);
}

/// c_k = Σ_j alpha_j S_j,k / 32768 rounded half up, in [-32767, 32767]: |Σ| <= 32767·Σ alpha_j < 2^31
/// (Σ alpha_j <= 32768 + 1)
__attribute__((always_inline)) inline q15 context_value(std::int32_t acc) noexcept {
#if defined(__ARM_FEATURE_DSP) && defined(__ARM_FEATURE_SAT)
    const std::int32_t ck = __ssat(round_shift(acc, 15), 16);
    return q15{static_cast<std::int16_t>(ck < -32767 ? -32767 : ck)};
#else
    const std::int32_t ck = round_shift(acc, 15);
    return q15{static_cast<std::int16_t>(ck > 32767 ? 32767 : (ck < -32767 ? -32767 : ck))};
#endif
}

/// c = Σ_j alpha_j S_j (the rows of S in the segments seg), rounded half up to Q15.
template <class L>
void weighted_sum(const Rows<q15>& S, const Segments& seg, const q15* alpha, q15* c) noexcept {
    if constexpr (q15_loops::has(L::kCaps, q15_loops::kWeighted)) {
        L::weighted_sum(seg.base, seg.n, S.stride, S.dim, alpha, c);
        return;
    }
    const std::size_t dim = S.dim, stride = S.stride;
    std::size_t k = 0;
    if (word_aligned(S.base) && stride % 2 == 0 && word_aligned(alpha)) {
        // The states as runs, found once for every pass: an even count the target's loop takes (alpha's pairs word
        // aligned), or a state alone (where the pairs do not start: segment 2 after an odd segment 1; or end)
        struct Run {
            const q15* v;  // the run's first row
            const q15* a;  // its first weight
            std::size_t count;
        };
        Run runs[6];
        std::size_t nruns = 0;
        const q15* ap = alpha;
        for (int g = 0; g < 2; ++g) {
            const q15* v = seg.base[g];
            std::size_t cnt = seg.n[g];
            if (cnt > 0 && !word_aligned(ap)) {
                runs[nruns++] = {v, ap++, 1};
                v += stride;
                --cnt;
            }
            const std::size_t even = cnt & ~std::size_t{1};
            if (even > 0) runs[nruns++] = {v, ap, even};
            ap += even;
            v += even * stride;
            if (cnt != even) runs[nruns++] = {v, ap++, 1};
        }
        // G columns at a time (each row read once per G columns)
        const auto pass = [&](auto group) __attribute__((always_inline)) {
            constexpr std::size_t G = decltype(group)::value;
            Sums<G> sums;
            for (std::size_t i = 0; i < nruns; ++i) {
                const Run& run = runs[i];
                if (run.count == 1) {
                    q15_plain::columns<G>(run.a, run.v + k, stride, 1, sums.v);
                } else {
                    L::template columns<G>(run.a, run.v + k, stride, run.count, sums.v);
                }
            }
            for (std::size_t col = 0; col < G; ++col) c[k + col] = context_value(sums.v[col]);
            k += G;
        };
        // NOLINTNEXTLINE(bugprone-infinite-loop): the pass advances the index (a lambda, by reference)
        while (k + L::kColumns <= dim) pass(Group<L::kColumns>{});
        if constexpr (L::kColumns > 2) {
            // NOLINTNEXTLINE(bugprone-infinite-loop): the pass advances the index (a lambda, by reference)
            while (k + 2 <= dim) pass(Group<2>{});
        }
    }
    for (; k < dim; ++k) {
        std::int32_t acc = 0;
        const q15* ap = alpha;
        for (int g = 0; g < 2; ++g) {
            const q15* v = seg.base[g] + k;
            for (std::size_t i = 0; i < seg.n[g]; ++i, ++ap, v += stride) acc += ap->raw * v->raw;
        }
        c[k] = context_value(acc);
    }
}

}  // namespace

template <class Which>
QueryScale Q15Set<Which>::prepare_query(const q15* q, q15* qp, std::size_t dim, int g) noexcept {
    using L = loops_t<Which>;
    // q' = q / 2^s rounded, with s the least for which Σ|q'_k| <= 65536, so that every S_j·q' is exact in int32
    // (|S_j,k| <= 32767): Σ|q_k| <= 32768·256 = 2^23 gives s <= 8
    std::uint32_t qsum = L::abs_sum(q, dim);
    int s = 0;
    while ((qsum >> s) + dim + 1 > 65536u) ++s;
    if (s > 0) {
        qsum = L::round_query(q, qp, dim, s);
    } else if (qp != q) {
        for (std::size_t k = 0; k < dim; ++k) qp[k] = q[k];
    }
    // e_j = S_j·q' / 2^t rounded, t = ceil(log2 Σ|q'_k|) (so |e_j| <= 32767) and at least 15 - g - s (and 1): the
    // scores in Q(f), f = 30 - g - s - t <= 15 (q in Q(15 - g): S_j·q = S_j·q'·2^s / 2^(30 - g))
    int t = ceil_log2(qsum);
    g = g < 0 ? 0 : (g > 8 ? 8 : g);  // (the contract's range: f >= -2, see softmax)
    const int least = 15 - g - s > 1 ? 15 - g - s : 1;
    if (t < least) t = least;
    return {static_cast<std::int8_t>(t), static_cast<std::int8_t>(30 - g - s - t)};
}

template <class Which>
void Q15Set<Which>::attend_dot(const Rows<q15>& S, const q15* q, q15* alpha, q15* c) noexcept {
    if (S.n == 1) {
        attend_query(S, c, QueryScale{1, 15}, S, alpha, c);  // (the query is not read)
        return;
    }
    // q' in c, free until the weighted sum
    const QueryScale qs = prepare_query(q, c, S.dim, 0);
    attend_query(S, c, qs, S, alpha, c);
}

template <class Which>
void Q15Set<Which>::attend_scored(const Rows<q15>& S, int f, q15* alpha, q15* c) noexcept {
    using L = loops_t<Which>;
    const Segments seg = segments(S);
    if (S.n == 1) {
        // alpha_1 = 1 (as near as q15 gets), c_1 = h_1 exactly
        alpha[0] = q15{32767};
        for (std::size_t k = 0; k < S.dim; ++k) c[k] = seg.base[0][k];
        return;
    }
    // alpha = softmax(e) (e in Q(f), the max subtracted); c = Σ_j alpha_j S_j
    softmax<L>(alpha, S.n, f < -2 ? -2 : (f > 15 ? 15 : f), L::max_raw(alpha, S.n));
    weighted_sum<L>(S, seg, alpha, c);
}

namespace {

/// the additive score's sum for one state (q15/seam.hpp), a function of its own: its loop keeps its values in
/// registers (inlined in additive_scores' loop, ARMv6-M's eight low registers spilled them)
template <class L>
__attribute__((noinline)) std::int32_t additive_score(const q15* key, const q15* q, const std::int8_t* v,
                                                      std::size_t K) noexcept {
    return L::additive_sum(key, q, v, K);
}

}  // namespace

template <class Which>
void Q15Set<Which>::additive_scores(const Rows<q15>& P, const q15* q, const std::int8_t* v, std::int32_t m_v,
                                    int shift_v, q15* e) noexcept {
    using L = loops_t<Which>;
    const Segments seg = segments(P);
    for (int g = 0; g < 2; ++g) {
        const q15* row = seg.base[g];
        for (std::size_t i = 0; i < seg.n[g]; ++i, row += P.stride) {
            // d = Σ_k v_k·tanh(P_j,k + q_k); e_j = requantize(d, m_v, shift_v), saturated to int16
            const std::int32_t ej = rescale(additive_score<L>(row, q, v, P.dim), m_v, shift_v);
            (e++)->raw = static_cast<std::int16_t>(ej > 32767 ? 32767 : (ej < -32768 ? -32768 : ej));
        }
    }
}

template <class Which>
void Q15Set<Which>::attend_query(const Rows<q15>& E, const q15* qp, QueryScale qs, const Rows<q15>& S, q15* alpha,
                                 q15* c) noexcept {
    using L = loops_t<Which>;
    const std::size_t n = S.n;
    if (n == 1) {
        attend_scored(S, 15, alpha, c);  // (no score is read)
        return;
    }
    const int t = qs.t, f = qs.f;  // NOLINT(bugprone-signed-char-misuse,cert-str34-c): int8_t shift counts, not text
    // e_j = E_j·q' / 2^t rounded (prepare_query: |e_j| <= 32767), kept in alpha for now
    const Segments eseg = segments(E);
    const bool pairs = word_aligned(E.base) && word_aligned(qp) && E.stride % 2 == 0;
    const std::size_t npairs = (E.dim + 1) / 2;  // an odd dim reads the zero padding lane of the rows and of q'
    std::size_t j = 0;
    for (int g = 0; g < 2; ++g) {
        const q15* row = eseg.base[g];
        if (pairs) {
            L::scores(row, E.stride, eseg.n[g], qp, npairs, t, alpha + j);
            j += eseg.n[g];
            continue;
        }
        for (std::size_t i = 0; i < eseg.n[g]; ++i, row += E.stride) {
            std::int32_t d = 0;
            for (std::size_t k = 0; k < E.dim; ++k) d += row[k].raw * qp[k].raw;
            alpha[j++].raw = static_cast<std::int16_t>(round_shift(d, t));
        }
    }
    attend_scored(S, f, alpha, c);
}

namespace {

/// affine where L finishes rows (kFinishTanh) and the input's factor is near 1 (x_shift 0 or -1, x_m >= 0): a block
/// of rows' sums first (dot_rows), then the block's pre-activations by the target's loop (finish_tanh without the
/// tanh); a row it leaves (shift below 2) as affine's other rows.
template <class L>
__attribute__((noinline)) void affine_blocks(const QGates& a, std::size_t rows, const q15* x, std::size_t nx,
                                             const q15* r, std::size_t nr, q15* z) noexcept {
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
                row_sums<L, decltype(group)::value>(a.A_x + i * nx, nx, x, nx, a.A_r + i * nr, nr, r, nr, s, i - start);
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
template <class L>
__attribute__((noinline)) void affine_one(const QGates& a, std::size_t rows, const q15* x, std::size_t nx, const q15* r,
                                          std::size_t nr, q15* z) noexcept {
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

/// affine with the loops L (Q15::affine's contract).
template <class L>
__attribute__((always_inline)) inline void affine(const QGates& a, std::size_t rows, const q15* x, std::size_t nx,
                                                  const q15* r, std::size_t nr, q15* z) noexcept {
    // the x part's factor 1 in one sum per row: on the targets that finish rows one by one (not Helium's chunks)
    if constexpr (!q15_loops::has(L::kCaps, q15_loops::kTanhRows)) {
        if (x_factor_one(a, nx)) {
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

}  // namespace

template <class Which>
void Q15Set<Which>::affine(const QGates& a, std::size_t rows, const q15* x, std::size_t nx, const q15* r,
                           std::size_t nr, q15* z) noexcept {
    kernel::affine<loops_t<Which>>(a, rows, x, nx, r, nr, z);
}

template <class Which>
void Q15Set<Which>::attend_scored_pair(const Rows<q15>& S, const Rows<q15>& T, int f, q15* alpha, q15* c,
                                       q15* d) noexcept {
    using L = loops_t<Which>;
    const Segments seg = segments(S), tseg = segments(T);
    if (S.n == 1) {
        // alpha_1 = 1 (as near as q15 gets), c = S_1 and d = T_1 exactly
        alpha[0] = q15{32767};
        for (std::size_t k = 0; k < S.dim; ++k) c[k] = seg.base[0][k];
        for (std::size_t k = 0; k < T.dim; ++k) d[k] = tseg.base[0][k];
        return;
    }
    // alpha = softmax(e) (e in Q(f), the max subtracted), once; c = Σ_j alpha_j S_j, d = Σ_j alpha_j T_j
    softmax<L>(alpha, S.n, f < -2 ? -2 : (f > 15 ? 15 : f), L::max_raw(alpha, S.n));
    weighted_sum<L>(S, seg, alpha, c);
    weighted_sum<L>(T, tseg, alpha, d);
}

namespace {

/// lstm_cell with the loops L (Q15::lstm_cell's contract)
template <class L>
__attribute__((always_inline)) inline std::size_t lstm_cell(const q15* z, const q15* c_tilde, std::size_t hidden,
                                                            q15* c, q15* h) noexcept {
    if constexpr (q15_loops::has(L::kCaps, q15_loops::kCell)) return L::lstm_cell(z, c_tilde, hidden, c, h);
    std::size_t saturated = 0;
    for (std::size_t k = 0; k < hidden; ++k) {
        // i, f, o in Q15 (1 .. 32767), g in Q15 (-32767 .. 32767): sigmoid_q15 and tanh_q15 inline (kernels/tanh.hpp,
        // the same integers; a call each cost about as much as the activation itself)
        const std::int32_t i = fixed::detail::sigmoid_inline(z[k].raw);
        const std::int32_t f = fixed::detail::sigmoid_inline(z[hidden + k].raw);
        const std::int32_t g = fixed::detail::tanh_wide(z[2 * hidden + k].raw);
        const std::int32_t o = fixed::detail::sigmoid_inline(z[3 * hidden + k].raw);
        // c = f·c~ / 2^15 + i·g / 2^18 in Q3.12, each rounded half up: |f·c~|, |i·g| < 2^30, |c| < 2^15 + 2^12
        const std::int32_t ck = round_shift(f * c_tilde[k].raw, 15) + round_shift(i * g, 18);
        // saturated to int16 (|c| < 8), and counted
        const std::int32_t cs = ck > 32767 ? 32767 : (ck < -32768 ? -32768 : ck);
        saturated += cs != ck ? 1u : 0u;
        c[k] = q15{static_cast<std::int16_t>(cs)};
        // h = o·tanh(c) in Q15, rounded half up: |o·tanh| < 2^30, |h| <= 32766
        h[k] = q15{static_cast<std::int16_t>(round_shift(o * fixed::detail::tanh_wide(cs), 15))};
    }
    return saturated;
}

}  // namespace

template <class Which>
std::size_t Q15Set<Which>::lstm_cell(const q15* z, const q15* c_tilde, std::size_t hidden, q15* c, q15* h) noexcept {
    return kernel::lstm_cell<loops_t<Which>>(z, c_tilde, hidden, c, h);
}

namespace {

/// gru_gates with the loops L (Q15::gru_gates's contract): a block of rows' sums (s_x, s_h) first, by the target's
/// packed passes of four rows where it has them (x and h packed once), else by dot_rows in L's groups; then each row
/// finished twice, as affine finishes a row whose r part is empty (gi) and one whose factor is 1 (gh).
template <class L>
__attribute__((noinline)) void gru_gates(const QGru& a, std::size_t rows, const q15* x, std::size_t nx, const q15* h,
                                         std::size_t nh, q15* gi, q15* gh) noexcept {
    constexpr std::size_t kBlock = 8 * L::kRows;
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
        std::int32_t s[2 * kBlock];  // (s_x, s_h) of each row
        std::size_t row = start;
        if constexpr (q15_loops::has(L::kCaps, q15_loops::kRowsPacked)) {
            if (packed && end - start >= L::kRows) {
                const std::size_t groups = (end - start) / L::kRows;
                L::rows_packed2(a.W_ih + start * nx, a.W_hh + start * nh, pk, nx, nh, groups, s);
                row += L::kRows * groups;
            }
        }
        row_groups<L>(
            row, end, [&](auto group, std::size_t i) __attribute__((always_inline)) {
                row_sums<L, decltype(group)::value>(a.W_ih + i * nx, nx, x, nx, a.W_hh + i * nh, nh, h, nh, s,
                                                    i - start);
            });
        std::size_t done = start;  // the rows finished
        if constexpr (q15_loops::has(L::kCaps, q15_loops::kFinishGru)) {
            if (one) {
                done += L::finish_gru(s, end - start, a.m + start, a.shift + start, a.b_ih + start, a.b_hh + start,
                                      gi + start, gh + start);
            }
        }
        // the rows' loop, written twice (the factor 1 known, or XFactor's) where flash allows: on Helium (the M55)
        // once, with a test per row (the M55's bench image is within a few hundred bytes of its 512 KiB)
        const auto finish = [&](auto unit) __attribute__((always_inline)) {
            for (std::size_t i = done; i < end; ++i) {
                const std::int32_t* const si = s + 2 * (i - start);
                const std::int32_t m = a.m[i];
                const std::int8_t shift = a.shift[i];
                // s_x in h's units (clamped to +-2^30; the factor 1: s_x itself); |s_h| <= 128·32768·256 = 2^30
                const std::int32_t xq = (decltype(unit)::value && one) ? si[0] : x_factor(si[0]);
                std::int32_t qi, qh;
                if (shift >= 2 && m >= 0) {
                    // the rows' usual factors (a_r / 8 < 1/2): the high word of the product alone decides (rescale_hi)
                    qi = rescale_hi(xq, m, shift);
                    qh = rescale_hi(si[1], m, shift);
                } else {
                    qi = rescale(xq, m, shift);
                    qh = rescale(si[1], m, shift);
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

}  // namespace

template <class Which>
void Q15Set<Which>::gru_gates(const QGru& a, std::size_t rows, const q15* x, std::size_t nx, const q15* h,
                              std::size_t nh, q15* gi, q15* gh) noexcept {
    kernel::gru_gates<loops_t<Which>>(a, rows, x, nx, h, nh, gi, gh);
}

template <class Which>
void Q15Set<Which>::gru_cell(const q15* gi, const q15* gh, const q15* h_prev, std::size_t hidden, q15* h) noexcept {
    // the target's form where it has one (kGruCell), else the generic one (q15/seam.hpp)
    loops_t<Which>::gru_cell(gi, gh, h_prev, hidden, h);
}

// the two sets of kernels_q15.hpp: this target's loops, and the plain ones
template struct Q15Set<TargetLoops>;
template struct Q15Set<PlainLoops>;

}  // namespace sarnn::kernel
