// sarnn/kernels/q15/plain.hpp: the inner loops of the q15 kernels (kernels/q15/{affine,attention,cells}.hpp) in plain C++, for a group of
// G rows, states or columns at a time: what a target runs where it has no loop of its own (q15/seam.hpp), and the
// definition the Thumb and DSP loops compute exactly (the same integer sums in int32; the bounds are the callers',
// given in q15/{affine,attention,cells}.hpp).
#ifndef SARNN_KERNELS_Q15_PLAIN_HPP
#define SARNN_KERNELS_Q15_PLAIN_HPP

#include <cstddef>
#include <cstdint>

#include "sarnn/fixed.hpp"

namespace sarnn::kernel::q15_plain {

/// acc[g] += Σ_{k < n} w[g·ld + k]·v[k] for g < G: G rows of int8 weights (row stride ld) times n q15 values.
template <std::size_t G>
inline void dot_rows(const std::int8_t* w, std::size_t ld, const q15* v, std::size_t n, std::int32_t* acc) noexcept {
    for (std::size_t k = 0; k < n; ++k)
        for (std::size_t g = 0; g < G; ++g) acc[g] += w[g * ld + k] * v[k].raw;
}

/// d[g] = Σ_{k < 2·npairs} s[g·stride + k]·q[k] for g < G: G stored states (row stride `stride`) scored against q.
template <std::size_t G>
inline void dot_states(const q15* s, std::size_t stride, const q15* q, std::size_t npairs, std::int32_t* d) noexcept {
    for (std::size_t g = 0; g < G; ++g) d[g] = 0;
    for (std::size_t k = 0; k < 2 * npairs; ++k)
        for (std::size_t g = 0; g < G; ++g) d[g] += s[g * stride + k].raw * q[k].raw;
}

/// acc[g] += Σ_{j < count} a[j]·v[j·stride + g] for g < G: G columns of the weighted sum of count states.
template <std::size_t G>
inline void columns(const q15* a, const q15* v, std::size_t stride, std::size_t count, std::int32_t* acc) noexcept {
    for (std::size_t j = 0; j < count; ++j, v += stride)
        for (std::size_t g = 0; g < G; ++g) acc[g] += a[j].raw * v[g].raw;
}

}  // namespace sarnn::kernel::q15_plain

#endif
