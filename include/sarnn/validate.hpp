// sarnn/validate.hpp: checks a params aggregate once, before models use it.
//
// Model constructors never check their params (construction stays free, params may sit in flash). Weights
// that hold NaN or +-Inf make every output NaN; call validate() once, e.g. at boot, and refuse to run on
// anything but Status::ok.
#ifndef SARNN_VALIDATE_HPP
#define SARNN_VALIDATE_HPP

#include <cmath>
#include <cstddef>
#include <type_traits>
#include <utility>

#include "sarnn/params.hpp"
#include "sarnn/status.hpp"

namespace sarnn {

/// What validate() found: Status::ok, or Status::non_finite_param with the array's name (as in the params
/// struct, e.g. "A", "W_hh") and the flat row-major index of the first NaN/Inf in it.
struct Validation {
    Status status = Status::ok;
    const char* array = nullptr;
    std::size_t index = 0;
    explicit operator bool() const noexcept { return status == Status::ok; }
};

namespace detail {

/// What for_each_array() calls f with: (name, data, count); true stops the walk.
struct ArrayProbe {
    template <class W>
    constexpr bool operator()(const char*, const W*, std::size_t) const noexcept {
        return false;
    }
};
/// Whether P is a params aggregate: it has the static arrays() walk of params.hpp.
template <class P, class = void>
struct is_params : std::false_type {};
template <class P>
struct is_params<P, std::void_t<decltype(P::arrays(std::declval<const P&>(), ArrayProbe{}))>> : std::true_type {};

/// The first NaN/Inf of p, by array in declaration order, then by flat index.
template <class P>
Validation first_non_finite(const P& p) noexcept {
    Validation v;
    (void)for_each_array(p, [&v](const char* name, const auto* a, std::size_t n) noexcept {
        using W = std::remove_cv_t<std::remove_reference_t<decltype(*a)>>;
        if constexpr (!std::is_floating_point_v<W>) return false;  // an integer weight is always finite
        for (std::size_t k = 0; k < n; ++k) {
            if (!std::isfinite(a[k])) {
                v = {Status::non_finite_param, name, k};
                return true;
            }
        }
        return false;
    });
    return v;
}

}  // namespace detail

/// Checks every weight of a params aggregate P (RnnParams, BilinearParams, KeyQueryParams, AdditiveParams,
/// LstmnParams, or any aggregate with their static `arrays` walk), array by array in declaration order
/// (for_each_array()). O(size of the params); integer weights are always finite.
template <class P, std::enable_if_t<detail::is_params<P>::value, int> = 0>
Validation validate(const P& p) noexcept {
    return detail::first_non_finite(p);
}

}  // namespace sarnn

#endif
