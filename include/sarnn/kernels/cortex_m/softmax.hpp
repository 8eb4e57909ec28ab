// sarnn/kernels/cortex_m/softmax.hpp: the exp pass of the shaped dot context of the Cortex-M float set: p_j =
// exp(y_j - m) in place over the n scores and l = Σ_j p_j, m their max from the scores' pass (so no pass of its own)
// and the division by l left to the weighted sum (kernels/cortex_m/weighted_sum.hpp). The set's exp
// (kernels/cortex_m/math.hpp): y_j - m <= 0, so only its low edge is checked (exp_in_range down to -87, the full exp
// below and for NaN). Cost: n exps, one pass over y.
#ifndef SARNN_KERNELS_CORTEX_M_SOFTMAX_HPP
#define SARNN_KERNELS_CORTEX_M_SOFTMAX_HPP

#include <cstddef>

#include "sarnn/kernels/cortex_m/math.hpp"

namespace sarnn::kernel::cortex_m {

/// y_j = exp(y_j - m) for j < n (m >= every y_j); returns Σ_j y_j, at least 1 when m is one of them (NaN when one
/// is NaN).
SARNN_CM_INLINE float exp_shifted(float* y, std::size_t n, float m) noexcept {
    float l = 0.0f;
    for (std::size_t j = 0; j < n; ++j) {
        // p_j = exp(y_j - m); l += p_j
        const float x = y[j] - m;
        const float p = x >= -87.0f ? exp_in_range(x) : exp(x);
        y[j] = p;
        l += p;
    }
    return l;
}

}  // namespace sarnn::kernel::cortex_m

#endif
