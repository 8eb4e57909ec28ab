// sarnn/validate.hpp: checks a params aggregate once, before models use it.
//
// Model constructors never check their params (construction stays free, params may sit in flash). Weights
// that hold NaN or +-Inf make every output NaN; call validate() once, e.g. at boot, and refuse to run on
// anything but Status::ok.
#ifndef SARNN_VALIDATE_HPP
#define SARNN_VALIDATE_HPP

#include <cmath>
#include <cstddef>

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

template <class T, std::size_t N>
bool first_non_finite(const T (&a)[N], const char* name, Validation& v) noexcept {
    for (std::size_t k = 0; k < N; ++k) {
        if (!std::isfinite(a[k])) {
            v = {Status::non_finite_param, name, k};
            return true;
        }
    }
    return false;
}
template <class T, std::size_t R, std::size_t C>
bool first_non_finite(const T (&a)[R][C], const char* name, Validation& v) noexcept {
    for (std::size_t r = 0; r < R; ++r) {
        for (std::size_t c = 0; c < C; ++c) {
            if (!std::isfinite(a[r][c])) {
                v = {Status::non_finite_param, name, r * C + c};
                return true;
            }
        }
    }
    return false;
}

}  // namespace detail

/// O(size of the params). Each overload checks every array in declaration order.
template <class T, std::size_t In, std::size_t Hidden>
Validation validate(const RnnParams<T, In, Hidden>& p) noexcept {
    Validation v;
    (void)(detail::first_non_finite(p.A, "A", v) || detail::first_non_finite(p.b, "b", v));
    return v;
}
template <class T, std::size_t Hidden>
Validation validate(const BilinearParams<T, Hidden>& p) noexcept {
    Validation v;
    (void)detail::first_non_finite(p.W, "W", v);
    return v;
}
template <class T, std::size_t Hidden, std::size_t K>
Validation validate(const KeyQueryParams<T, Hidden, K>& p) noexcept {
    Validation v;
    (void)(detail::first_non_finite(p.Wk, "Wk", v) || detail::first_non_finite(p.Wq, "Wq", v));
    return v;
}
template <class T, std::size_t Hidden, std::size_t K>
Validation validate(const AdditiveParams<T, Hidden, K>& p) noexcept {
    Validation v;
    (void)(detail::first_non_finite(p.W, "W", v) || detail::first_non_finite(p.v, "v", v));
    return v;
}
template <class T, std::size_t In, std::size_t Hidden, std::size_t K>
Validation validate(const LstmnParams<T, In, Hidden, K>& p) noexcept {
    Validation v;
    (void)(detail::first_non_finite(p.W_ih, "W_ih", v) || detail::first_non_finite(p.W_hh, "W_hh", v) ||
           detail::first_non_finite(p.b, "b", v) || detail::first_non_finite(p.W_h, "W_h", v) ||
           detail::first_non_finite(p.W_x, "W_x", v) || detail::first_non_finite(p.W_ht, "W_ht", v) ||
           detail::first_non_finite(p.v, "v", v));
    return v;
}

}  // namespace sarnn

#endif
