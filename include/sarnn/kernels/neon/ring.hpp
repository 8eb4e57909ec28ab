// sarnn/kernels/neon/ring.hpp: the stored states of a Rows<float> (kernels.hpp) as the two runs of rows they lie in,
// oldest first: physical rows first..first + n0 - 1, then 0..n1 - 1, each run contiguous (rows Stride values apart),
// so that the context kernels (kernels/neon/{dot_scores,weighted_sum,attend}.hpp) walk each run with one pointer and
// no index wraps inside a loop. Stride and Cap (the physical rows) are known at compile time, n and first are not.
// Also the walking load of the ARMv7 loops over them (load2_next).
#ifndef SARNN_KERNELS_NEON_RING_HPP
#define SARNN_KERNELS_NEON_RING_HPP

#include <cstddef>

#include "sarnn/kernels.hpp"
#include "sarnn/kernels/neon/math.hpp"

namespace sarnn::kernel::neon {

/// The two runs of S's n rows in logical order: base[0] holds n[0] rows, base[1] the next n[1] (n[0] + n[1] = S.n).
template <std::size_t Stride, std::size_t Cap>
struct RingRuns {
    static_assert(Stride % 4 == 0 && Cap >= 1, "sarnn: RingRuns<Stride, Cap>: rows of whole vectors, Cap >= 1");
    const float* base[2];
    std::size_t n[2];

    /// S.stride == Stride and S.cap == Cap (the caller's shape), S.first < Cap, S.n <= Cap.
    explicit RingRuns(const Rows<float>& S) noexcept
        : base{S.base + S.first * Stride, S.base}, n{Cap - S.first < S.n ? Cap - S.first : S.n, 0} {
        n[1] = S.n - n[0];
    }
};

#if !defined(__aarch64__)
/// ARMv7: the 8 values at p de-interleaved (val[0] the even ones, val[1] the odd: VLD2), then p past them. One VLD2
/// with writeback: VLD2 takes no offset, and GCC 12 gives each load of an unrolled walk an address add of its own (at
/// Hidden 40, 25 adds per four states in the scores and 11 in the weighted sum; see kernels/neon/attend.hpp for the
/// count per step). The asm reads the 32 bytes at p (the "m" operand says so).
SARNN_NEON_INLINE float32x4x2_t load2_next(const float*& p) noexcept {
    float32x4x2_t v;
    __asm__("vld2.32 %h0, [%1]!" : "=w"(v), "+r"(p) : "m"(*reinterpret_cast<const float(*)[8]>(p)));
    return v;
}
#endif

}  // namespace sarnn::kernel::neon

#endif
