// lib/kernels/q15/mve/query.hpp: the Helium set's q15 loops (Cortex-M55, M85; the set: mve/loops.hpp), the query's sums
// (prepare_query's abs_sum and round_query).
#ifndef SARNN_LIB_KERNELS_Q15_MVE_QUERY_HPP
#define SARNN_LIB_KERNELS_Q15_MVE_QUERY_HPP

#include <arm_mve.h>

#include <cstddef>
#include <cstdint>

#include "kernels/q15/mve/common.hpp"

namespace sarnn::kernel::q15_mve {

/// prepare_query's Σ_k |q_k| (q15/seam.hpp), eight values a pass: VABAV adds the eight |q_k - 0| to a scalar (the last
/// dim % 8 under a tail predicate: the lanes past dim read as 0).
inline std::uint32_t abs_sum(const q15* q, std::size_t dim) noexcept {
    mve::touch(q);
    const std::int16_t* p = mve::raw(q);
    const int16x8_t zero = vdupq_n_s16(0);
    std::uint32_t sum = 0;
    std::size_t k = 0;
    for (; k + 8 <= dim; k += 8) sum = vabavq_s16(sum, vld1q_s16(p + k), zero);
    if (k < dim) sum = vabavq_s16(sum, vldrhq_z_s16(p + k, vctp16q(static_cast<std::uint32_t>(dim - k))), zero);
    return sum;
}

/// q'_k = (q_k + 2^(s-1)) >> s, eight values a pass (VRSHL by -s: the same rounding, without overflow), and
/// Σ_k |q'_k| (VABAV); qp may be q. The last dim % 8 under a tail predicate (read as 0, not stored).
inline std::uint32_t round_query(const q15* q, q15* qp, std::size_t dim, int s) noexcept {
    mve::touch(q);
    const std::int16_t* p = mve::raw(q);
    std::int16_t* o = mve::raw(qp);
    const int16x8_t zero = vdupq_n_s16(0);
    std::uint32_t sum = 0;
    std::size_t k = 0;
    for (; k + 8 <= dim; k += 8) {
        const int16x8_t v = vrshlq_n_s16(vld1q_s16(p + k), -s);
        vst1q_s16(o + k, v);
        sum = vabavq_s16(sum, v, zero);
    }
    if (k < dim) {
        const mve_pred16_t tail = vctp16q(static_cast<std::uint32_t>(dim - k));
        const int16x8_t v = vrshlq_n_s16(vldrhq_z_s16(p + k, tail), -s);
        vstrhq_p_s16(o + k, v, tail);
        sum = vabavq_s16(sum, v, zero);
    }
    return sum;
}

}  // namespace sarnn::kernel::q15_mve

#endif
