// tests/test_numeric.cpp: the numeric policy (include/sarnn/numeric.hpp). For float and double every kind of number
// is the value type itself, so the policy changes no bit (the model tests check the bits); the models, params,
// kernels and views use the kinds it names; a type without a policy is not a value type.
#include <catch2/catch.hpp>

#include <sarnn/sarnn.hpp>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <utility>
#include <type_traits>

namespace {

template <class T>
constexpr bool every_kind_is() {
    return std::is_same_v<sarnn::weight_t<T>, T> && std::is_same_v<sarnn::activation_t<T>, T> &&
           std::is_same_v<sarnn::accumulator_t<T>, T> && std::is_same_v<sarnn::scale_t<T>, T> &&
           sarnn::Numeric<T>::supported && sarnn::Numeric<T>::floating;
}
static_assert(every_kind_is<float>());
static_assert(every_kind_is<double>());
static_assert(!sarnn::Numeric<int>::supported);
static_assert(!sarnn::Numeric<std::int16_t>::supported);
static_assert(!sarnn::Numeric<long double>::supported);

// params hold weights; models take, store and show activations
static_assert(
    std::is_same_v<std::remove_all_extents_t<decltype(sarnn::RnnParams<float, 2, 3>::A)>, sarnn::weight_t<float>>);
static_assert(std::is_same_v<std::remove_all_extents_t<decltype(sarnn::LstmnParams<double, 2, 3, 4>::v)>,
                             sarnn::weight_t<double>>);
using Sar = sarnn::SelfAttentionRnn<float, 2, 3, 4, sarnn::AdditiveAlign<2>>;
static_assert(std::is_same_v<decltype(std::declval<const Sar&>().context()), sarnn::View<sarnn::activation_t<float>>>);
static_assert(
    std::is_same_v<decltype(std::declval<const Sar&>().attention()), sarnn::View<sarnn::activation_t<float>>>);
using Lstmn = sarnn::Lstmn<double, 2, 3, 4, 2>;
static_assert(std::is_same_v<decltype(std::declval<const Lstmn&>().cell()), sarnn::View<sarnn::activation_t<double>>>);
// kernels: weights, activations, accumulators and scales where the contract says so
static_assert(
    std::is_same_v<decltype(sarnn::Kernels<float>::attend_dot),
                   void (*)(const sarnn::Rows<sarnn::activation_t<float>>&, const sarnn::activation_t<float>*,
                            sarnn::scale_t<float>, sarnn::activation_t<float>*, sarnn::activation_t<float>*) noexcept>);
static_assert(
    std::is_same_v<decltype(sarnn::Kernels<double>::affine_tanh),
                   void (*)(const sarnn::weight_t<double>*, const sarnn::weight_t<double>*, std::size_t,
                            const sarnn::activation_t<double>*, std::size_t, const sarnn::activation_t<double>*,
                            std::size_t, sarnn::activation_t<double>*) noexcept>);

}  // namespace

TEST_CASE("Numeric policy: all_finite looks at floating point only", "[numeric]") {
    // all_finite on an integer row is true without looking (an integer has no NaN)
    const std::int16_t row[3] = {-32768, 0, 32767};
    CHECK(sarnn::detail::all_finite(row, 3));
    const float bad[2] = {0.0f, std::numeric_limits<float>::infinity()};
    CHECK_FALSE(sarnn::detail::all_finite(bad, 2));
}
