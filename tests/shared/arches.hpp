// tests/shared/arches.hpp: every kernel set's arch, from the one list (SARNN_ARCHES, sarnn/config.hpp), for the
// tests and tools/limits, which skip those this machine or build does not run.
#ifndef SARNN_TESTS_SHARED_ARCHES_HPP
#define SARNN_TESTS_SHARED_ARCHES_HPP

#include <sarnn/sarnn.hpp>

#include <array>
#include <cstddef>

namespace kit {

/// Every value of sarnn::Arch, in the list's order.
#define SARNN_KIT_ARCH_(id, name) sarnn::Arch::id,
inline constexpr sarnn::Arch kArchList[] = {SARNN_ARCHES(SARNN_KIT_ARCH_)};
#undef SARNN_KIT_ARCH_
inline constexpr std::array<sarnn::Arch, sizeof kArchList / sizeof kArchList[0]> kAllArches = [] {
    std::array<sarnn::Arch, sizeof kArchList / sizeof kArchList[0]> a{};
    for (std::size_t i = 0; i < a.size(); ++i) a[i] = kArchList[i];
    return a;
}();

}  // namespace kit

#endif
