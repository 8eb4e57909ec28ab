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

/// O(size of the params). Each overload checks every array in declaration order (for_each_array()).
template <class T, std::size_t In, std::size_t Hidden>
Validation validate(const RnnParams<T, In, Hidden>& p) noexcept {
    return detail::first_non_finite(p);
}
template <class T, std::size_t Hidden>
Validation validate(const BilinearParams<T, Hidden>& p) noexcept {
    return detail::first_non_finite(p);
}
template <class T, std::size_t Hidden, std::size_t K>
Validation validate(const KeyQueryParams<T, Hidden, K>& p) noexcept {
    return detail::first_non_finite(p);
}
template <class T, std::size_t Hidden, std::size_t K>
Validation validate(const AdditiveParams<T, Hidden, K>& p) noexcept {
    return detail::first_non_finite(p);
}
template <class T, std::size_t In, std::size_t Hidden, std::size_t K>
Validation validate(const LstmnParams<T, In, Hidden, K>& p) noexcept {
    return detail::first_non_finite(p);
}

}  // namespace sarnn

#endif
