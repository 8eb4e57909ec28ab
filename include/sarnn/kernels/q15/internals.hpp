// sarnn/kernels/q15/internals.hpp: what the q15 kernels' files share (q15/affine.hpp, q15/attention.hpp,
// q15/cells.hpp: kernel::Q15, contracts in include/sarnn/kernels_q15.hpp): the loops of a Q15Set, the rounding shift,
// the groups of rows or columns and their accumulators, the requantisation of a sum. Internal linkage, as the rest of
// those files: each has its own copy of what it uses (all of it inline).
#ifndef SARNN_KERNELS_Q15_INTERNALS_HPP
#define SARNN_KERNELS_Q15_INTERNALS_HPP

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "sarnn/kernels/q15/loops.hpp"
#include "sarnn/kernels/q15/requantize.hpp"
#include "sarnn/fixed.hpp"
#include "sarnn/kernels_q15.hpp"

namespace sarnn::kernel {
namespace {  // NOLINT(cert-dcl59-cpp): internal linkage on purpose, one copy in each q15 kernel file

/// The loops of a Q15Set (kernels_q15.hpp's TargetLoops, PlainLoops): this build's (q15/loops.hpp) or the plain ones.
/// The one algorithm (the q15 kernel files) takes them as its L.
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

/// floor((v + 2^(s - 1)) / 2^s) for 1 <= s <= 30, v + 2^(s - 1) < 2^31: v rounded half up, then divided. The
/// shift of a negative number is arithmetic, a floor (GCC and Clang define it so, C++20 requires it; two
/// instructions where the floor of the magnitude took eight): the one place the kernels rely on it.
__attribute__((always_inline)) inline std::int32_t round_shift(std::int32_t v, int s) noexcept {
    return (v + (std::int32_t{1} << (s - 1))) >> s;
}

__attribute__((always_inline)) inline bool word_aligned(const void* p) noexcept {
    return (reinterpret_cast<std::uintptr_t>(p) & 3u) == 0;
}

/// A group size as a type (the passes of rows and columns are generic lambdas).
template <std::size_t G>
using Group = std::integral_constant<std::size_t, G>;

/// The rows row..end in L's groups, the one skeleton of every product (q15/affine.hpp): kRows at a time, then two, then one;
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

}  // namespace
}  // namespace sarnn::kernel

#endif
