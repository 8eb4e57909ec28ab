// sarnn/detail/finite.hpp: the finiteness tests a step runs before it commits anything (the input check, the
// new state, the align's query). Plain loops over a few rows; none of them is on a per-state path.
#ifndef SARNN_DETAIL_FINITE_HPP
#define SARNN_DETAIL_FINITE_HPP

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

namespace sarnn::detail {

/// True when none of v[0..n) is NaN or +-Inf (always, for a type that is not floating point: an integer has
/// neither). O(n).
template <class T>
bool all_finite(const T* v, std::size_t n) noexcept {
    if constexpr (!std::is_floating_point_v<T>) {
        (void)v;
        (void)n;
        return true;
    } else {
        // NaN and +-Inf are the values whose exponent bits are all ones: adding the exponent's lowest bit to the
        // exponent bits alone carries into the sign bit for them only. OR-ing those sums is associative, so the loop
        // vectorises (a floating-point probe sum would be one long chain of dependent adds), takes three integer
        // operations a value (no compare), and there is one branch for the whole row.
        using Bits = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;
        static_assert(sizeof(Bits) == sizeof(T), "sarnn: all_finite needs an IEEE binary32 or binary64 T");
        constexpr Bits exponent = static_cast<Bits>(sizeof(T) == 4 ? 0x7f800000ull : 0x7ff0000000000000ull);
        constexpr Bits sign = static_cast<Bits>(sizeof(T) == 4 ? 0x80000000ull : 0x8000000000000000ull);
        constexpr Bits low = exponent & ~(exponent << 1);  // the exponent field's lowest bit
        Bits bad = 0;
        for (std::size_t k = 0; k < n; ++k) {
            Bits b;
            std::memcpy(&b, v + k, sizeof b);
            bad |= (b & exponent) + low;
        }
        return (bad & sign) == 0;
    }
}

/// The largest |score| a step accepts: max/8. A score e = Σ_k a_k b_k with |b_k| <= 1 is bounded by
/// Σ_k |a_k|; when that sum (as computed, so within a few ulps of the true one) is at most max/8, every partial
/// sum of every kernel's accumulation order stays below max/4, and the softmax's e_j - m stays below max/2:
/// nothing overflows, whatever the summation order of the kernel set.
template <class T>
constexpr T score_limit() noexcept {
    return std::numeric_limits<T>::max() / T(8);
}

/// Σ|v_k| over v[0..n) (+inf when it overflows, NaN for a NaN v_k). O(n).
template <class T>
T sum_abs(const T* v, std::size_t n) noexcept {
    T s = T(0);
    for (std::size_t k = 0; k < n; ++k) s += v[k] < T(0) ? -v[k] : v[k];
    return s;
}
/// max_k |v_k| over v[0..n) of finite values. O(n).
template <class T>
T max_abs(const T* v, std::size_t n) noexcept {
    T m = T(0);
    for (std::size_t k = 0; k < n; ++k) {
        const T a = v[k] < T(0) ? -v[k] : v[k];
        m = a > m ? a : m;
    }
    return m;
}
/// True when Σ|v_k| over v[0..n) is at most score_limit<T>() (false for a NaN or Inf v_k). O(n).
template <class T>
bool bounds_scores(const T* v, std::size_t n) noexcept {
    return sum_abs(v, n) <= score_limit<T>();
}

}  // namespace sarnn::detail

#endif
