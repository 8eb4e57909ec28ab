// sarnn/kernels/q15/dsp/additive.hpp: the DSP set's q15 loops (Cortex-M4, M7; the set: dsp/loops.hpp), the additive
// score's sum (additive_sum): Σ_k v_k·tanh(P_j,k + q_k) with the tanh of cell.hpp's tanh_dsp.
#ifndef SARNN_KERNELS_Q15_DSP_ADDITIVE_HPP
#define SARNN_KERNELS_Q15_DSP_ADDITIVE_HPP

#include <cstddef>
#include <cstdint>

#include "sarnn/kernels/q15/dsp/cell.hpp"
#include "sarnn/kernels/q15/dsp/common.hpp"

namespace sarnn::kernel::q15_dsp {

/// Σ_k v_k·tanh(P_j,k + q_k) over the K values of one key row and the query (q15/seam.hpp's additive_sum, the same
/// integer), two values a pass: the pair's sums saturated to int16 by one QADD16 (the generic form's saturation: its
/// min(|z|, 32767) is tanh_dsp's USAT of |z| for the saturated sum as for the sum), each tanh by tanh_dsp (the
/// interpolation one SMUAD, the sign back with the rounding: tanh_dsp(z) = -tanh_dsp(-z), so v_k·tanh_dsp(z) is the
/// generic (v_k with z's sign)·y), the product added by MLA; an odd last value alone. Exact in int32 (the seam's
/// bound: |terms| < 2^22, K <= 256).
inline std::int32_t additive_sum(const q15* key, const q15* q, const std::int8_t* v, std::size_t K) noexcept {
    std::int32_t d = 0;
    const q15* const end = key + (K & ~std::size_t{1});
    for (; key != end; key += 2, q += 2, v += 2) {
        // z = sat16(P_j,k + q_k), two at a time
        const std::int32_t z = __qadd16(dsp::word(key), dsp::word(q));
        d += v[0] * tanh_dsp(static_cast<std::int16_t>(z));
        d += v[1] * tanh_dsp(z >> 16);
    }
    if ((K & 1u) != 0) d += v[0] * tanh_dsp(key->raw + q->raw);
    return d;
}

}  // namespace sarnn::kernel::q15_dsp

#endif
