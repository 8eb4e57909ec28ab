// sarnn/kernels/cortex_m/ring.hpp: the stored states of a Rows<float> (kernels.hpp) as the two runs of rows they lie
// in, oldest first: physical rows first..first + n0 - 1, then 0..n1 - 1, each run contiguous (rows Stride values
// apart), so that the shaped context of the Cortex-M float set (kernels/cortex_m/{dot_scores,weighted_sum,attend}.hpp)
// walks each run with one pointer and no index wraps inside a loop. Stride and Cap are known at compile time, n and
// first are not.
#ifndef SARNN_KERNELS_CORTEX_M_RING_HPP
#define SARNN_KERNELS_CORTEX_M_RING_HPP

#include <cstddef>

#include "sarnn/kernels.hpp"

namespace sarnn::kernel::cortex_m {

/// The two runs of S's n rows in logical order: base[0] holds n[0] rows, base[1] the next n[1] (n[0] + n[1] = S.n).
template <std::size_t Stride, std::size_t Cap>
struct RingRuns {
    static_assert(Stride >= 1 && Cap >= 1, "sarnn: cortex_m::RingRuns<Stride, Cap>: Stride, Cap >= 1");
    const float* base[2];
    std::size_t n[2];

    /// S.stride == Stride and S.cap == Cap (the caller's shape), S.first < Cap, S.n <= Cap.
    explicit RingRuns(const Rows<float>& S) noexcept
        : base{S.base + S.first * Stride, S.base}, n{Cap - S.first < S.n ? Cap - S.first : S.n, 0} {
        n[1] = S.n - n[0];
    }
};

}  // namespace sarnn::kernel::cortex_m

#endif
