// sarnn/validate.hpp: checks a params aggregate once, before models use it.
//
// Model constructors never check their params (construction stays free, params may sit in flash). Weights
// that hold NaN or +-Inf make every output NaN; q15 constants outside their ranges (below) make results the
// exporter never produces. Call validate() once, e.g. at boot, and refuse to run on anything but Status::ok.
#ifndef SARNN_VALIDATE_HPP
#define SARNN_VALIDATE_HPP

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "sarnn/params.hpp"
#include "sarnn/status.hpp"

namespace sarnn {

/// What validate() found: Status::ok; Status::non_finite_param with the array's name (as in the params struct,
/// e.g. "A", "W_hh") and the flat row-major index of the first NaN/Inf in it; or, for q15 params,
/// Status::invalid_argument with the name and index of the first constant outside its range (a scalar: index 0).
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

/// The valid ranges of the q15 params' constants (params.hpp, kernels/q15/requantize.hpp): a multiplier in
/// [2^30, 2^31) (what quantize_multiplier gives: full precision), a shift in [-31, 31] (requantize's range: the
/// kernels count a shift beyond it as the nearest bound), a headroom g in [0, 8], a score format f in [-2, 15].
inline constexpr std::int64_t kMultiplierMin = std::int64_t{1} << 30, kMultiplierMax = INT32_MAX;
inline constexpr int kShiftMin = -31, kShiftMax = 31, kHeadroomMax = 8, kFormatMin = -2, kFormatMax = 15;

/// The first of n values of a (named `name`) outside [lo, hi] into v; true when one is.
template <class I>
constexpr bool out_of_range(Validation& v, const char* name, const I* a, std::size_t n, std::int64_t lo,
                            std::int64_t hi) noexcept {
    for (std::size_t k = 0; k < n; ++k) {
        if (a[k] < lo || a[k] > hi) {
            v = {Status::invalid_argument, name, k};
            return true;
        }
    }
    return false;
}

/// Float and double params have no ranged constants.
template <class P>
Validation first_out_of_range(const P&) noexcept {
    return {};
}
template <std::size_t In, std::size_t Hidden>
Validation first_out_of_range(const RnnParams<q15, In, Hidden>& p) noexcept {
    Validation v;
    (void)(out_of_range(v, "m", p.m, Hidden, kMultiplierMin, kMultiplierMax) ||
           out_of_range(v, "x_m", &p.x_m, 1, kMultiplierMin, kMultiplierMax) ||
           out_of_range(v, "shift", p.shift, Hidden, kShiftMin, kShiftMax) ||
           out_of_range(v, "x_shift", &p.x_shift, 1, kShiftMin, kShiftMax));
    return v;
}
template <std::size_t Hidden>
Validation first_out_of_range(const BilinearParams<q15, Hidden>& p) noexcept {
    Validation v;
    (void)(out_of_range(v, "m", p.m, Hidden, kMultiplierMin, kMultiplierMax) ||
           out_of_range(v, "shift", p.shift, Hidden, kShiftMin, kShiftMax) ||
           out_of_range(v, "g", &p.g, 1, 0, kHeadroomMax));
    return v;
}
template <std::size_t Hidden, std::size_t K>
Validation first_out_of_range(const KeyQueryParams<q15, Hidden, K>& p) noexcept {
    Validation v;
    // g_k + g_u <= 8 as well (the cached keys' query has both headrooms): g_u is checked against 8 - g_k
    (void)(out_of_range(v, "m_k", p.m_k, K, kMultiplierMin, kMultiplierMax) ||
           out_of_range(v, "m_q", p.m_q, K, kMultiplierMin, kMultiplierMax) ||
           out_of_range(v, "m_f", p.m_f, K, kMultiplierMin, kMultiplierMax) ||
           out_of_range(v, "m_t", &p.m_t, 1, kMultiplierMin, kMultiplierMax) ||
           out_of_range(v, "shift_k", p.shift_k, K, kShiftMin, kShiftMax) ||
           out_of_range(v, "shift_q", p.shift_q, K, kShiftMin, kShiftMax) ||
           out_of_range(v, "shift_f", p.shift_f, K, kShiftMin, kShiftMax) ||
           out_of_range(v, "shift_t", &p.shift_t, 1, kShiftMin, kShiftMax) ||
           out_of_range(v, "g_k", &p.g_k, 1, 0, kHeadroomMax) ||
           out_of_range(v, "g_u", &p.g_u, 1, 0, kHeadroomMax - p.g_k) ||
           out_of_range(v, "g", &p.g, 1, 0, kHeadroomMax));
    return v;
}
template <std::size_t Hidden, std::size_t K>
Validation first_out_of_range(const AdditiveParams<q15, Hidden, K>& p) noexcept {
    Validation v;
    (void)(out_of_range(v, "m", p.m, K, kMultiplierMin, kMultiplierMax) ||
           out_of_range(v, "m_v", &p.m_v, 1, kMultiplierMin, kMultiplierMax) ||
           out_of_range(v, "shift", p.shift, K, kShiftMin, kShiftMax) ||
           out_of_range(v, "shift_v", &p.shift_v, 1, kShiftMin, kShiftMax) ||
           out_of_range(v, "f", &p.f, 1, kFormatMin, kFormatMax));
    return v;
}
template <std::size_t In, std::size_t Hidden, std::size_t K>
Validation first_out_of_range(const LstmnParams<q15, In, Hidden, K>& p) noexcept {
    Validation v;
    (void)(out_of_range(v, "m", p.m, 4 * Hidden, kMultiplierMin, kMultiplierMax) ||
           out_of_range(v, "m_a", p.m_a, K, kMultiplierMin, kMultiplierMax) ||
           out_of_range(v, "m_v", &p.m_v, 1, kMultiplierMin, kMultiplierMax) ||
           out_of_range(v, "x_m", &p.x_m, 1, kMultiplierMin, kMultiplierMax) ||
           out_of_range(v, "shift", p.shift, 4 * Hidden, kShiftMin, kShiftMax) ||
           out_of_range(v, "shift_a", p.shift_a, K, kShiftMin, kShiftMax) ||
           out_of_range(v, "x_shift", &p.x_shift, 1, kShiftMin, kShiftMax) ||
           out_of_range(v, "shift_v", &p.shift_v, 1, kShiftMin, kShiftMax) ||
           out_of_range(v, "f", &p.f, 1, kFormatMin, kFormatMax));
    return v;
}

template <std::size_t In, std::size_t Hidden>
Validation first_out_of_range(const LstmParams<q15, In, Hidden>& p) noexcept {
    Validation v;
    (void)(out_of_range(v, "m", p.m, 4 * Hidden, kMultiplierMin, kMultiplierMax) ||
           out_of_range(v, "x_m", &p.x_m, 1, kMultiplierMin, kMultiplierMax) ||
           out_of_range(v, "shift", p.shift, 4 * Hidden, kShiftMin, kShiftMax) ||
           out_of_range(v, "x_shift", &p.x_shift, 1, kShiftMin, kShiftMax));
    return v;
}

}  // namespace detail

/// Checks every weight of a params aggregate P (RnnParams, BilinearParams, KeyQueryParams, AdditiveParams,
/// LstmnParams, LstmParams, or any aggregate with their static `arrays` walk), array by array in declaration order
/// (for_each_array()), then, for q15 params, every requantisation constant against its range (in declaration order;
/// see detail::kMultiplierMin and its kin above): multipliers in [2^30, 2^31), shifts in [-31, 31], headrooms g in
/// [0, 8] (KeyQueryParams: g_k + g_u <= 8 too), score formats f in [-2, 15]. O(size of the params); integer weights
/// are always finite and every int8 weight is in range.
template <class P, std::enable_if_t<detail::is_params<P>::value, int> = 0>
Validation validate(const P& p) noexcept {
    const Validation v = detail::first_non_finite(p);
    if (v.status != Status::ok) return v;
    return detail::first_out_of_range(p);
}

}  // namespace sarnn

#endif
