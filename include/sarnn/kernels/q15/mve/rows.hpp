// sarnn/kernels/q15/mve/rows.hpp: the Helium set's q15 loops (Cortex-M55, M85; the set: mve/loops.hpp), affine_tanh's
// pre-activations straight from the weights (rows_pre): four rows a pass, their sums never leave the registers.
#ifndef SARNN_KERNELS_Q15_MVE_ROWS_HPP
#define SARNN_KERNELS_Q15_MVE_ROWS_HPP

#include <arm_mve.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "sarnn/kernels/q15/mve/common.hpp"
#include "sarnn/kernels_q15.hpp"

namespace sarnn::kernel::q15_mve {

/// The x part's factor as rows_pre's passes take it: x_shift 0, x_shift -1, or the factor 1 (x_m = 2^30, x_shift -1)
/// with nx <= 255, where |s_x| <= 255·128·32768 < 2^30: requantize is s_x itself and the clamp never acts, z = s_x +
/// s_r, one sum.
enum class XPart { kShift0, kShift1, kOne };

/// rows_pre's passes over the first `whole` rows (a multiple of 4), for the x part's factor kX, nx a multiple of 8
/// (kAligned) or not; false (the rows written since, as the caller's path rewrites them) where x_shift is -1 and an
/// |s_x| reaches 2^30. Per pass: s_x = A_x·x in r4, r6, r8, r10 (from 0), moved into a vector (but for kOne), then
/// A_r·r added to the same registers (s_x + s_r modulo 2^32: s_r = that - s_x exactly, |s_r| <= 2^30), then
/// the pre-activations on the four lanes: x as finish_rows's (mve/finish.hpp says why it computes q15/affine.hpp's
/// integers), the r part's requantize in one form for every shift (below), the int16 saturation by VQMOVNB.
template <XPart kX, bool kAligned>
inline bool rows_pre_passes(const std::int8_t* w, std::size_t ld, const q15* x, std::size_t nx, const q15* r,
                            std::size_t nr, std::size_t whole, std::int32_t x_m, const std::int32_t* m,
                            const std::int8_t* shift, const std::int32_t* b, q15* y) noexcept {
    mve::touch(x);
    mve::touch(r);
    mve::touch(m);
    mve::touch(shift);
    mve::touch(b);
    constexpr bool kDouble = kX == XPart::kShift1;
    const int32x4_t hi = vdupq_n_s32(std::int32_t{1} << 30), lo = vdupq_n_s32(-(std::int32_t{1} << 30));
    std::uint32_t max_x = 0;
    std::int16_t* o = mve::raw(y);
    for (std::int16_t* const end = o + whole; o != end; o += 4, m += 4, shift += 4, b += 4, w += 4 * ld) {
        const std::int8_t* w0 = w;
        const std::int8_t* w1 = w0 + ld;
        const std::int8_t* w2 = w1 + ld;
        const std::int8_t* w3 = w2 + ld;
        const std::int16_t* v = mve::raw(x);
        register std::int32_t a0 __asm__("r4") = 0;
        register std::int32_t a1 __asm__("r6") = 0;
        register std::int32_t a2 __asm__("r8") = 0;
        register std::int32_t a3 __asm__("r10") = 0;
        // s_x of the four rows += eight weights (widened in the load) times eight values of x, per pass (the loop of
        // products.hpp's dot_rows<4>, the same assembly: GCC 12 makes no tail-predicated WLSTP/LETP loop of the
        // intrinsics; its sums left in the registers)
        // clang-format off
        __asm__ volatile(
            "wlstp.16 lr, %[n], 2f\n"
            "1:\n\t"
            "vldrh.u16 q0, [%[v]], #16\n\t"
            "vldrb.s16 q1, [%[w0]], #8\n\t"
            "vmladava.s16 %[a0], q1, q0\n\t"
            "vldrb.s16 q2, [%[w1]], #8\n\t"
            "vmladava.s16 %[a1], q2, q0\n\t"
            "vldrb.s16 q3, [%[w2]], #8\n\t"
            "vmladava.s16 %[a2], q3, q0\n\t"
            "vldrb.s16 q1, [%[w3]], #8\n\t"
            "vmladava.s16 %[a3], q1, q0\n\t"
            "letp lr, 1b\n"
            "2:\n\t"
            : [a0] "+r"(a0), [a1] "+r"(a1), [a2] "+r"(a2), [a3] "+r"(a3), [v] "+r"(v), [w0] "+l"(w0), [w1] "+l"(w1),
              [w2] "+l"(w2), [w3] "+l"(w3)
            : [n] "r"(nx)
            : "d0", "d1", "d2", "d3", "d4", "d5", "d6", "d7", "lr", "memory");
        // clang-format on
        int32x4_t sx = hi;
        if constexpr (kX != XPart::kOne) {
            __asm__("vmov %q0[2], %q0[0], %1, %3\n\tvmov %q0[3], %q0[1], %2, %4"
                    : "=&w"(sx)
                    : "r"(a0), "r"(a1), "r"(a2), "r"(a3));
        }
        // the r part of each row, from w + nx: where the x loop's post-increments stopped when nx % 8 = 0 (kAligned)
        if constexpr (!kAligned) {
            w0 = w + nx;
            w1 = w0 + ld;
            w2 = w1 + ld;
            w3 = w2 + ld;
        }
        v = mve::raw(r);
        // clang-format off
        __asm__ volatile(
            "wlstp.16 lr, %[n], 2f\n"
            "1:\n\t"
            "vldrh.u16 q0, [%[v]], #16\n\t"
            "vldrb.s16 q1, [%[w0]], #8\n\t"
            "vmladava.s16 %[a0], q1, q0\n\t"
            "vldrb.s16 q2, [%[w1]], #8\n\t"
            "vmladava.s16 %[a1], q2, q0\n\t"
            "vldrb.s16 q3, [%[w2]], #8\n\t"
            "vmladava.s16 %[a2], q3, q0\n\t"
            "vldrb.s16 q1, [%[w3]], #8\n\t"
            "vmladava.s16 %[a3], q1, q0\n\t"
            "letp lr, 1b\n"
            "2:\n\t"
            : [a0] "+r"(a0), [a1] "+r"(a1), [a2] "+r"(a2), [a3] "+r"(a3), [v] "+r"(v), [w0] "+l"(w0), [w1] "+l"(w1),
              [w2] "+l"(w2), [w3] "+l"(w3)
            : [n] "r"(nr)
            : "d0", "d1", "d2", "d3", "d4", "d5", "d6", "d7", "lr", "memory");
        // clang-format on
        int32x4_t t;
        __asm__("vmov %q0[2], %q0[0], %1, %3\n\tvmov %q0[3], %q0[1], %2, %4"
                : "=&w"(t)
                : "r"(a0), "r"(a1), "r"(a2), "r"(a3));
        int32x4_t z = t;  // kOne: z = s_x + s_r
        if constexpr (kX != XPart::kOne) {
            // s_r = (s_x + s_r) - s_x, modulo 2^32: exact
            const int32x4_t sr = vsubq_s32(t, sx);
            if constexpr (kDouble) {
                max_x = vmaxavq_s32(max_x, sx);
                sx = vshlq_n_s32(sx, 1);
            }
            // x = requantize(s_x, x_m, x_shift) clamped to +-2^30; z = x + s_r
            z = vaddq_s32(vmaxq_s32(vminq_s32(vqrdmulhq_n_s32(sx, x_m), hi), lo), sr);
        }
        // pre = requantize(z, m_r, shift_r) + b_r, saturated to int32 then int16
        const int32x4_t mv = vld1q_s32(m);
        const int32x4_t sh = vldrbq_s32(shift);
        // requantize(z, m_r, shift_r) = floor((z·m_r + 2^(30 + s)) / 2^(31 + s)) = (D + 2^(s-1)) >> s with D =
        // floor(z·m_r / 2^31) = VQDMULH(z, m_r) (floors nest; m_r >= 0: no saturation), by VRSHL by -s (s = shift_r
        // in 1 .. 31; the rounding shift is exact, no overflow)
        const int32x4_t q = vqaddq_s32(vrshlq_s32(vqdmulhq_s32(z, mv), vnegq_s32(sh)), vld1q_s32(b));
        vstrhq_s32(o, vreinterpretq_s32_s16(vqmovnbq_s32(vreinterpretq_s16_s32(q), q)));
    }
    return !kDouble || max_x < (std::uint32_t{1} << 30);
}

/// affine_tanh's pre-activations (before tanh_rows) of its first rows & ~3 rows into y, straight from the weights a.A
/// (rows of ld = nx + nr int8: A_x then A_r) and x, r; returns the rows written: rows & ~3, or 0 (nothing to rely
/// on: the caller computes every row) where finish_rows's forms do not apply (x_shift 0 or -1 with x_m >= 0, every
/// m_r >= 0 and shift_r in 1 .. 31, |s_x| < 2^30 for x_shift -1) or rows < 4. (QAffine by reference: one argument,
/// not nine, to move at the call.)
inline std::size_t rows_pre(const QAffine& a, std::size_t rows, const q15* x, std::size_t nx, const q15* r,
                            std::size_t nr, q15* y) noexcept {
    const std::int8_t* const A = a.A;
    const std::size_t ld = nx + nr;
    const std::int32_t x_m = a.x_m;
    const int x_shift = a.x_shift;
    const std::int32_t* const m = a.m;
    const std::int8_t* const shift = a.shift;
    const std::int32_t* const b = a.b;
    const std::size_t whole = rows & ~std::size_t{3};
    if ((x_shift != 0 && x_shift != -1) || x_m < 0 || whole == 0) return 0;
    mve::touch(m);
    mve::touch(shift);
    // the factors of the whole passes: m_r >= 0, shift_r in 1 .. 31 (sixteen shifts a vector)
    std::int32_t min_m = 0;
    std::int8_t min_shift = 127, max_shift = -128;
    for (std::size_t k = 0; k < whole; k += 4) min_m = vminvq_s32(min_m, vld1q_s32(m + k));
    for (std::size_t k = 0; k < whole; k += 16) {
        const mve_pred16_t p = vctp8q(static_cast<std::uint32_t>(whole - k));
        const int8x16_t s = vldrbq_z_s8(shift + k, p);
        min_shift = vminvq_p_s8(min_shift, s, p);
        max_shift = vmaxvq_p_s8(max_shift, s, p);
    }
    if (min_m < 0 || min_shift < 1 || max_shift > 31) return 0;
    const auto passes = [&](auto part) __attribute__((always_inline)) {
        constexpr XPart kX = decltype(part)::value;
        return nx % 8 == 0 ? rows_pre_passes<kX, true>(A, ld, x, nx, r, nr, whole, x_m, m, shift, b, y)
                           : rows_pre_passes<kX, false>(A, ld, x, nx, r, nr, whole, x_m, m, shift, b, y);
    };
    bool done;
    if (x_shift == 0) {
        done = passes(std::integral_constant<XPart, XPart::kShift0>{});
    } else if (x_m == (std::int32_t{1} << 30) && nx <= 255) {
        done = passes(std::integral_constant<XPart, XPart::kOne>{});
    } else {
        done = passes(std::integral_constant<XPart, XPart::kShift1>{});
    }
    return done ? whole : 0;
}

}  // namespace sarnn::kernel::q15_mve

#endif
