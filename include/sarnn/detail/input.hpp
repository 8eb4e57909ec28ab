// sarnn/detail/input.hpp: the O(In) input check every model's step() runs before touching its state.
#ifndef SARNN_DETAIL_INPUT_HPP
#define SARNN_DETAIL_INPUT_HPP

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "sarnn/config.hpp"
#include "sarnn/status.hpp"

namespace sarnn::detail {

/// Status::null_input for a null x; Status::non_finite_input when any x[k] is NaN or +-Inf (only with
/// SARNN_CHECK_INPUT); Status::ok otherwise.
template <class T>
Status check_input(const T* x, std::size_t n) noexcept {
    if (x == nullptr) return Status::null_input;
#if SARNN_CHECK_INPUT
    // NaN and +-Inf are the values whose exponent bits are all ones. OR-ing a flag per value is associative, so
    // the loop vectorises (a floating-point probe sum would be one long chain of dependent adds), and there is
    // one branch for the whole vector.
    using Bits = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;
    constexpr Bits exponent = static_cast<Bits>(sizeof(T) == 4 ? 0x7f800000ull : 0x7ff0000000000000ull);
    Bits bad = 0;
    for (std::size_t k = 0; k < n; ++k) {
        Bits b;
        std::memcpy(&b, x + k, sizeof b);
        bad |= static_cast<Bits>((b & exponent) == exponent);
    }
    if (bad != 0) return Status::non_finite_input;
#else
    (void)n;
#endif
    return Status::ok;
}

}  // namespace sarnn::detail

#endif
