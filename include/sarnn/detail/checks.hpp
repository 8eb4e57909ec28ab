// sarnn/detail/checks.hpp: compile-time helpers shared by the public headers.
#ifndef SARNN_DETAIL_CHECKS_HPP
#define SARNN_DETAIL_CHECKS_HPP

#include <type_traits>

namespace sarnn::detail {

template <class T>
inline constexpr bool supported_scalar = std::is_same_v<T, float> || std::is_same_v<T, double>;

}  // namespace sarnn::detail

#endif
