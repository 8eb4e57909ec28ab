// sarnn/detail/input.hpp: the O(In) input check every model's step() runs before touching its state.
#ifndef SARNN_DETAIL_INPUT_HPP
#define SARNN_DETAIL_INPUT_HPP

#include <cstddef>

#include "sarnn/config.hpp"
#include "sarnn/detail/finite.hpp"
#include "sarnn/status.hpp"

namespace sarnn::detail {

/// Status::null_input for a null x; Status::non_finite_input when any x[k] is NaN or +-Inf (only with
/// SARNN_CHECK_INPUT); Status::ok otherwise.
template <class T>
Status check_input(const T* x, std::size_t n) noexcept {
    if (x == nullptr) return Status::null_input;
#if SARNN_CHECK_INPUT
    if (!all_finite(x, n)) return Status::non_finite_input;
#else
    (void)n;
#endif
    return Status::ok;
}

}  // namespace sarnn::detail

#endif
