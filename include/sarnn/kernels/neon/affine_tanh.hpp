// sarnn/kernels/neon/affine_tanh.hpp: y = tanh(A·[x; r] + b) (kernels.hpp's affine_tanh) with the shape known at
// compile time: A is Rows x (Nx + Nr) row-major, x has Nx values, r Nr; on NEON float32x4_t, four rows at a time,
// the x and r parts of each row as gemv.hpp's rows (whole vectors unrolled, the tail by a vector ending at the
// part's end against a masked x or r), the last Rows % 4 rows as one smaller group. Cost: Rows·(Nx + Nr)
// multiply-adds (and up to 3 more per row and part for the tails), Rows tanh.
#ifndef SARNN_KERNELS_NEON_AFFINE_TANH_HPP
#define SARNN_KERNELS_NEON_AFFINE_TANH_HPP

#include <cstddef>

#include "sarnn/kernels/neon/gemv.hpp"
#include "sarnn/kernels/neon/math.hpp"

namespace sarnn::kernel::neon {

/// Lane k < NR: tanh(A_k·[x; r] + b_k) for the NR <= 4 rows A_k = first + k·(Nx + Nr).
template <std::size_t NR, std::size_t Nx, std::size_t Nr>
SARNN_NEON_INLINE F affine_block(const float* first, const float* x, F x_tail, const float* r, F r_tail,
                                 F bias) noexcept {
    constexpr std::size_t Ld = Nx + Nr;
    F acc[4] = {vdupq_n_f32(0.0f), vdupq_n_f32(0.0f), vdupq_n_f32(0.0f), vdupq_n_f32(0.0f)};
    // acc_k = A_k[0..Nx) ⊙ x + A_k[Nx..Nx+Nr) ⊙ r, lane by lane
    rows_acc<NR, Nx, Ld, true>(first, x, x_tail, acc);
    rows_acc<NR, Nr, Ld, false>(first + Nx, r, r_tail, acc);
    return tanh(vaddq_f32(row_sums(acc[0], acc[1], acc[2], acc[3]), bias));
}

/// y = tanh(A·[x; r] + b); y must not alias x or r.
template <std::size_t Rows, std::size_t Nx, std::size_t Nr>
SARNN_NEON_INLINE void affine_tanh_rows(const float* A, const float* b, const float* x, const float* r,
                                        float* y) noexcept {
    static_assert(Rows >= 1 && Nx >= 1 && Nr >= 1, "sarnn: affine_tanh<Rows, Nx, Nr>: all >= 1");
    constexpr std::size_t Ld = Nx + Nr;
    F x_tail = vdupq_n_f32(0.0f), r_tail = vdupq_n_f32(0.0f);
    if constexpr (Nx > 4 && Nx % 4 != 0) x_tail = masked_tail<Nx>(x);
    if constexpr (Nr > 4 && Nr % 4 != 0) r_tail = masked_tail<Nr>(r);
    constexpr std::size_t full = Rows / 4 * 4;
    // y[i..i+4) = tanh(A[i..i+4)·[x; r] + b[i..i+4)), four rows at a time
    for (std::size_t i = 0; i < full; i += 4)
        vst1q_f32(y + i, affine_block<4, Nx, Nr>(A + i * Ld, x, x_tail, r, r_tail, vld1q_f32(b + i)));
    // the last Rows % 4 rows
    constexpr std::size_t rest = Rows % 4;
    if constexpr (rest != 0)
        store_part<rest>(y + full,
                         affine_block<rest, Nx, Nr>(A + full * Ld, x, x_tail, r, r_tail, load_part<rest>(b + full)));
}

}  // namespace sarnn::kernel::neon

#endif
