// sarnn/kernels/cortex_m/affine_tanh.hpp: y = tanh(A·[x; r] + b) of the Cortex-M float set with the shape known at
// compile time (A: Rows x (Nx + Nr) row-major, the recurrent step of SimpleRnn and SelfAttentionRnn). Four rows at a
// time (cortex_m/gemv.hpp's rows_dot), each sum started at b_i; when Nx is not a multiple of 4, x and r are first
// copied into one vector [x; r] on the stack (Nx + Nr floats), so that a row is one product with one column tail
// of (Nx + Nr) % 4 instead of two (x's and r's). tanh by the inline gate's form (cortex_m/math.hpp) while |s| <
// kGateLimit. Cost: Rows·(Nx + Nr) multiply-adds, Rows tanh (one division each).
#ifndef SARNN_KERNELS_CORTEX_M_AFFINE_TANH_HPP
#define SARNN_KERNELS_CORTEX_M_AFFINE_TANH_HPP

#include <cmath>
#include <cstddef>
#include <cstring>

#include "sarnn/kernels/cortex_m/gemv.hpp"
#include "sarnn/kernels/cortex_m/math.hpp"

namespace sarnn::kernel::cortex_m {

/// s_k = b_k + A_k·[x; r] for the NR <= 4 rows A_k = a + k·(Nx + Nr); xr = [x; r] when Joined (x, r unused).
template <std::size_t NR, std::size_t Nx, std::size_t Nr, bool Joined>
SARNN_CM_INLINE void affine_rows(const float* a, const float* b, const float* x, const float* r, const float* xr,
                                 float* s) noexcept {
    constexpr std::size_t ld = Nx + Nr;
    for (std::size_t k = 0; k < 4; ++k) s[k] = k < NR ? b[k] : 0.0f;
    if constexpr (Joined) {
        rows_dot<NR, Nx + Nr, ld>(a, xr, s[0], s[1], s[2], s[3]);
    } else {
        rows_dot<NR, Nx, ld>(a, x, s[0], s[1], s[2], s[3]);
        rows_dot<NR, Nr, ld>(a + Nx, r, s[0], s[1], s[2], s[3]);
    }
}

/// tanh(s): the inline gate's form for |s| < kGateLimit (one division, no branch in it), tanh otherwise (large, Inf,
/// NaN); both within 1.5e-7 of tanh (cortex_m/math.hpp).
SARNN_CM_INLINE float row_tanh(float s) noexcept { return std::fabs(s) < kGateLimit ? gate_tanh(s) : tanh(s); }

/// y = tanh(A·[x; r] + b): A Rows x (Nx + Nr), b Rows values, x Nx values, r Nr; y must not alias x, r.
template <std::size_t Rows, std::size_t Nx, std::size_t Nr>
SARNN_CM_INLINE void affine_tanh_rows(const float* A, const float* b, const float* x, const float* r,
                                      float* y) noexcept {
    static_assert(Rows >= 1 && Nx >= 1 && Nr >= 1, "sarnn: affine_tanh<Rows, Nx, Nr>: sizes >= 1");
    constexpr std::size_t ld = Nx + Nr;
    constexpr bool joined = Nx % 4 != 0;
    float xr[joined ? ld : 1];
    if constexpr (joined) {
        // [x; r]: one vector, so that each row is one product
        std::memcpy(xr, x, Nx * sizeof(float));
        std::memcpy(xr + Nx, r, Nr * sizeof(float));
    }
    constexpr std::size_t full = Rows / 4 * 4;
    for (std::size_t i = 0; i < full; i += 4) {
        float s[4];
        affine_rows<4, Nx, Nr, joined>(A + i * ld, b + i, x, r, xr, s);
        // y_i = tanh(A_i·[x; r] + b_i)
        for (std::size_t k = 0; k < 4; ++k) y[i + k] = row_tanh(s[k]);
    }
    constexpr std::size_t rest = Rows % 4;
    if constexpr (rest != 0) {
        float s[4];
        affine_rows<rest, Nx, Nr, joined>(A + full * ld, b + full, x, r, xr, s);
        for (std::size_t k = 0; k < rest; ++k) y[full + k] = row_tanh(s[k]);
    }
}

}  // namespace sarnn::kernel::cortex_m

#endif
