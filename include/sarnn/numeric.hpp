// sarnn/numeric.hpp: the numeric policy. A model's value type T (its first template parameter) names, through
// Numeric<T>, every kind of number sarnn handles for it:
//
//   weight       what the params aggregates hold (A, b, W, v, ...), in flash
//   activation   what a model takes and stores and shows: x, h, c, alpha, the memory rows
//   accumulator  what the kernels sum products in (dot products, softmax sums)
//   scale        the factor of a score (ScaledDotAlign's 1/sqrt(Hidden), attend_dot's `scale`)
//
// and whether they are floating point (`floating`: then a step checks its results and refuses one that overflowed
// into NaN). The input check and validate() go by the type of the values they read: NaN/Inf is looked for in float
// and double inputs and weights only (an integer is always finite); validate() checks q15 params' requantisation
// constants against their ranges instead (validate.hpp). For float and double every kind is T itself, so the
// policy changes no bit of their arithmetic; q15 has its own specialization below (int8 weights, q15
// activations, int32 accumulators and scale), and the models take it unchanged.
#ifndef SARNN_NUMERIC_HPP
#define SARNN_NUMERIC_HPP

#include <cstdint>

#include "sarnn/fixed.hpp"

namespace sarnn {

/// The policy of value type T. Undefined members (the primary template) mean: not a sarnn value type.
template <class T>
struct Numeric {
    static constexpr bool supported = false;
};

namespace detail {
/// An IEEE floating-point value type: every kind of number is F itself.
template <class F>
struct FloatingNumeric {
    static constexpr bool supported = true;
    static constexpr bool floating = true;
    using weight = F;
    using activation = F;
    using accumulator = F;
    using scale = F;
};
}  // namespace detail

/// IEEE binary32 and binary64.
template <>
struct Numeric<float> : detail::FloatingNumeric<float> {};
template <>
struct Numeric<double> : detail::FloatingNumeric<double> {};

/// Q15 fixed point (fixed.hpp): int8 weights (with integer requantisation constants in the params: params.hpp),
/// q15 activations, int32 sums (exact: the scores' query is rounded where their sum could pass int32). No float.
template <>
struct Numeric<q15> {
    static constexpr bool supported = true;
    static constexpr bool floating = false;
    using weight = std::int8_t;
    using activation = q15;
    using accumulator = std::int32_t;
    using scale = std::int32_t;  ///< a Q15 factor (scaled dot: 32768 / sqrt(Hidden), rounded)
};

/// The kinds of number of value type T (see the table above).
template <class T>
using weight_t = typename Numeric<T>::weight;
template <class T>
using activation_t = typename Numeric<T>::activation;
template <class T>
using accumulator_t = typename Numeric<T>::accumulator;
template <class T>
using scale_t = typename Numeric<T>::scale;

}  // namespace sarnn

#endif
