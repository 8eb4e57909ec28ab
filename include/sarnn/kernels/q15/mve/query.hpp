// sarnn/kernels/q15/mve/query.hpp: the Helium set's q15 loops (Cortex-M55, M85; the set: mve/loops.hpp), the query's sums
// (prepare_query's abs_sum and round_query).
#ifndef SARNN_KERNELS_Q15_MVE_QUERY_HPP
#define SARNN_KERNELS_Q15_MVE_QUERY_HPP

#include <arm_mve.h>

#include <cstddef>
#include <cstdint>

#include "sarnn/kernels/q15/mve/common.hpp"

namespace sarnn::kernel::q15_mve {

/// prepare_query's Σ_k |q_k| (q15/seam.hpp), eight values a pass: VABAV adds the eight |q_k - 0| to a scalar (the last
/// dim % 8 under a tail predicate: the lanes past dim read as 0).
inline std::uint32_t abs_sum(const q15* q, std::size_t dim) noexcept {
    mve::touch(q);
    const std::int16_t* p = mve::raw(q);
    const int16x8_t zero = vdupq_n_s16(0);
    std::uint32_t sum = 0;
    // (a count of passes and a pointer: GCC 12 kept no index beside the loop's)
    for (std::size_t i = dim / 8; i > 0; --i, p += 8) sum = vabavq_s16(sum, vld1q_s16(p), zero);
    if (dim % 8 != 0) sum = vabavq_s16(sum, vldrhq_z_s16(p, vctp16q(static_cast<std::uint32_t>(dim % 8))), zero);
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
    // (a count of passes and pointers: GCC 12 kept no index beside the loop's)
    for (std::size_t i = dim / 8; i > 0; --i, p += 8, o += 8) {
        const int16x8_t v = vrshlq_n_s16(vld1q_s16(p), -s);
        vst1q_s16(o, v);
        sum = vabavq_s16(sum, v, zero);
    }
    if (dim % 8 != 0) {
        const mve_pred16_t tail = vctp16q(static_cast<std::uint32_t>(dim % 8));
        const int16x8_t v = vrshlq_n_s16(vldrhq_z_s16(p, tail), -s);
        vstrhq_p_s16(o, v, tail);
        sum = vabavq_s16(sum, v, zero);
    }
    return sum;
}

}  // namespace sarnn::kernel::q15_mve

#endif
