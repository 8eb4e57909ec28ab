// sarnn/kernels/cortex_m/set.hpp: the kernel sets for in-order cores without SIMD, in plain C++ so that they also
// build, and are tested, on every host: kernel::CortexM (lib/kernels/cortex_m.cpp: Cortex-M4F and M7, with their
// single-precision FPU) and kernel::CortexM0 (lib/kernels/cortex_m0.cpp: the M0/M0+ and any core without an FPU,
// where every float operation is a library call). The including file defines SARNN_CM_SOFT_MACS (0 or 1) first.
// What they do differently from the reference scalar set (generic/scalar.hpp), all to execute fewer instructions:
//  - matrix-vector products take four rows per pass over the vector, so each load of a vector value feeds four
//    multiply-adds, and four independent sums hide the FPU's multiply-add latency; with an FPU, gemv and gemv_add
//    on contiguous rows of a multiple of 4 values (the Lstm's and the Gru's) run their whole loop over groups of
//    four rows in one block of assembly (gemv_groups_asm: about 14 instructions a group besides its multiply-adds);
//  - the LSTM and GRU cells (with an FPU) compute the gates of a lane inline, in one form for σ and tanh (below),
//    when the lane's pre-activations are small (the sum of their magnitudes below kGateLimit = 40: nearly always),
//    and by the set's sigmoid and tanh otherwise (large, Inf or NaN);
//  - the context is one pass over the stored states, four at a time (their scores share the loads of the query,
//    their weighted rows share a load and store of c), with one exp per state: the softmax shift m is raised
//    only when a score exceeds m + kTau (then what was accumulated is rescaled once), so no second pass and no
//    second exp;
//  - exp, tanh and sigmoid are short polynomial forms instead of libm's (errors below, tested against double in
//    tests/test_kernels.cpp like every set's, and measured by tools/limits).
//  - without an FPU (SARNN_CM_SOFT_MACS 1), sums of products are computed in integers (SoftAcc): each product of
//    the two 24-bit significands to its top 32 bits, aligned to the largest so far and summed in 64 bits, one
//    conversion to float per sum, instead of a library multiply and add per term; the context then takes two
//    passes (scores, then c one column at a time) so that each column is one such sum.
// double runs the scalar set's code (double_arch is scalar): no core these sets are for has double lanes.
// Contracts: include/sarnn/kernels.hpp.
//
// exp, tanh, σ and the cells' inline gates with an FPU: kernels/cortex_m/math.hpp (shared with the
// set's shaped forms, kernels/cortex_m/), their forms and errors described there. Without an FPU the
// same forms in integers (soft_exp, soft_tanh, below). Largest errors against double, measured on dense grids by
// tests/test_cortex_m.cpp (SARNN_TEST_REPORT=1 prints them; the test bounds them at 3e-7, 2e-7 and 1.5e-7):
//   kernel::CortexM:  exp 2.5e-7 relative over [-87, 88], tanh 1.5e-7 absolute, sigmoid 1.0e-7 absolute
//   kernel::CortexM0: exp 1.1e-7 relative,                 tanh 1.2e-7 absolute, sigmoid 8.9e-8 absolute
//   (libm's expf, tanhf through the scalar set: 6.0e-8, 1.0e-7, 8.9e-8)
// The cells' inline gates, through lstm_cell (the test holds them to the same 2e-7 and 1.5e-7): tanh 1.5e-7
// absolute (of a_g and of c), sigmoid 8.7e-8 absolute.
#ifndef SARNN_KERNELS_CORTEX_M_SET_HPP
#define SARNN_KERNELS_CORTEX_M_SET_HPP

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "sarnn/kernels.hpp"
#include "sarnn/kernels/cortex_m/gru_cell.hpp"
#include "sarnn/kernels/cortex_m/lstm_cell.hpp"
#include "sarnn/kernels/cortex_m/math.hpp"
#include "sarnn/kernels/generic/scalar.hpp"

#ifndef SARNN_CM_SOFT_MACS
#error "kernels/cortex_m/set.hpp: define SARNN_CM_SOFT_MACS (0 or 1) before including it"
#endif

namespace sarnn::kernel {
namespace {  // NOLINT(cert-dcl59-cpp): each set's file has its own copy, compiled for its core

namespace cm {

inline constexpr bool kSoftMacs = SARNN_CM_SOFT_MACS != 0;

// ---- exp, tanh, sigmoid ----------------------------------------------------------------------------------------
// kernels/cortex_m/math.hpp's (shared with the set's shaped forms)
using cortex_m::exp;
using cortex_m::exp_in_range;
using cortex_m::from_bits;
using cortex_m::tanh;

// ---- exp and tanh in integers (the cores without an FPU) ----------------------------------------------------
/// The top 32 bits of the 64-bit product a·b, from four 16-bit multiplies (ARMv6-M multiplies 32 x 32 -> 32 only).
inline std::uint32_t mul_hi(std::uint32_t a, std::uint32_t b) {
    const std::uint32_t ah = a >> 16, al = a & 0xFFFFu, bh = b >> 16, bl = b & 0xFFFFu;
    const std::uint32_t hl = ah * bl, lh = al * bh;
    const std::uint32_t mid = ((al * bl) >> 16) + (hl & 0xFFFFu) + (lh & 0xFFFFu);  // < 3·2^16
    return ah * bh + (hl >> 16) + (lh >> 16) + (mid >> 16);
}

/// e^x with integer arithmetic but for the final rounding, for x of magnitude below 128 whose result is a normal
/// float (otherwise, and for NaN, exp()): y = x·log2(e) in 8.24 fixed point, e^x = 2^k·2^(j/16)·e^(g·ln2) with
/// k = floor(y), j the next 4 bits, g < 1/16 the rest: a table of 2^(j/16) and e^z = 1 + z + z²/2 + z³/6 + z⁴/24
/// for z < 0.0434 (truncation below 1.3e-9) in 0.32 fixed point. At most 1.5e-7 relative (measured over
/// [-87, 88], tests/test_kernels.cpp).
inline float soft_exp(float x) {
    constexpr std::uint32_t kPow2Sixteenths[16] = {
        2147483648u, 2242560872u, 2341847524u, 2445529972u, 2553802834u, 2666869345u, 2784941738u, 2908241642u,
        3037000500u, 3171459999u, 3311872529u, 3458501653u, 3611622603u, 3771522796u, 3938502376u, 4112874773u};
    std::uint32_t ux;
    std::memcpy(&ux, &x, sizeof ux);
    const std::uint32_t ex = (ux << 1) >> 24;
    if (ex < 103u) return 1.0f;     // |x| < 2^-24: e^x rounds to 1
    if (ex >= 134u) return exp(x);  // |x| >= 128, Inf, NaN
    const std::uint32_t m = (ux & 0x7FFFFFu) | 0x800000u;
    // |y| = |x|·log2(e) in 8.24 fixed point: |x| = m·2^(ex - 150), log2(e) = 3098164009·2^-31
    const std::uint32_t y = mul_hi(m << 8, 3098164009u) >> (133u - ex);
    std::int32_t k = static_cast<std::int32_t>(y >> 24);
    std::uint32_t f = y & 0xFFFFFFu;  // y = k + f·2^-24
    if ((ux >> 31) != 0u && f != 0u) {
        // y < 0: -(k + f) = -(k + 1) + (1 - f)
        k = -k - 1;
        f = 0x1000000u - f;
    } else if ((ux >> 31) != 0u) {
        k = -k;
    }
    // 2^f = 2^(j/16)·e^z, z = g·ln2 in 0.32 fixed point (g < 2^20 of 2^24: z < 0.0434)
    const std::uint32_t j = f >> 20;
    const std::uint32_t z = mul_hi((f & 0xFFFFFu) << 8, 2977044472u);
    const std::uint32_t z2 = mul_hi(z, z), z3 = mul_hi(z2, z), z4 = mul_hi(z2, z2);
    // e^z - 1 = z + z²/2 + z³/6 + z⁴/24 (< 0.045 in 0.32); v = e^z in 1.31, then times 2^(j/16) in 1.31: 2.30
    const std::uint32_t ez = z + (z2 >> 1) + mul_hi(z3, 715827883u) + mul_hi(z4, 178956971u);
    const std::uint32_t v = 0x80000000u + (ez >> 1);
    const std::uint32_t prod = mul_hi(v, kPow2Sixteenths[j]);  // 2^f in 2.30: [2^30, 2^31·2)
    // round to 24 bits; a carry into the next power of two carries into the exponent field
    const std::uint32_t shift = prod >= 0x80000000u ? 8u : 7u;
    const std::int32_t e = k + 127 + (shift == 8u ? 1 : 0);
    if (e < 1 || e > 254) return exp(x);  // a denormal or infinite result
    const std::uint32_t m24 = (prod + (1u << (shift - 1u))) >> shift;  // [2^23, 2^24]
    return from_bits((static_cast<std::uint32_t>(e) << 23) + (m24 - 0x800000u));
}

/// tanh with soft_exp: 1 - 2/(e^{2|x|} + 1) with the sign of x; x itself below 2^-12 (tanh x = x - x³/3),
/// ±1 from 9.1 on.
inline float soft_tanh(float x) {
    std::uint32_t ux;
    std::memcpy(&ux, &x, sizeof ux);
    const std::uint32_t ua = ux & 0x7FFFFFFFu;
    if (ua > 0x7F800000u) return x;                // NaN
    if (ua < 0x39800000u) return x;                // |x| < 2^-12
    if (ua >= 0x4111999Au) return from_bits((ux & 0x80000000u) | 0x3F800000u);  // ±1
    const float e2a = soft_exp(from_bits(ua + 0x800000u));  // e^{2|x|}: 2|x| by one more in the exponent
    const float t = 1.0f - 2.0f / (e2a + 1.0f);
    std::uint32_t ut;
    std::memcpy(&ut, &t, sizeof ut);
    return from_bits(ut | (ux & 0x80000000u));
}

/// The set's exp, tanh and sigmoid: the integer forms on the cores without an FPU, the float forms otherwise.
inline float set_exp(float x) {
    if constexpr (kSoftMacs) return soft_exp(x);
    else return exp(x);
}
inline float set_tanh(float x) {
    if constexpr (kSoftMacs) return soft_tanh(x);
    else return tanh(x);
}
inline float set_sigmoid(float x) {
    // σ(x) = 1/(1 + e^{-x})
    return 1.0f / (1.0f + set_exp(-x));
}

// ---- sums of products in integers (the cores without an FPU) -------------------------------------------------
/// Σ a_k·b_k in integers. A finite nonzero float is ±m·2^(e - 150) with m a 24-bit significand (the hidden bit
/// set) and e its biased exponent, so a product is ±(m_a·m_b)·2^(e_a + e_b - 300): its top 32 bits
/// p = floor(m_a·m_b / 2^16) (from four 16-bit multiplies, exact) weigh 2^(e_a + e_b - 284). The terms are
/// aligned to the largest exponent so far (emax; a larger one shifts what was summed) and summed in 64 bits:
/// each term keeps at least 30 bits, and the largest its 32, so the sum is as close as float arithmetic gets
/// (closer: nothing rounds per term). Zeros and denormals (below 2^-126) add nothing; an Inf or NaN operand, or a
/// product that may overflow float, sets `special`, and the caller then takes the float loop, so that such a sum
/// is what float arithmetic gives.
struct SoftAcc {
    std::int64_t acc = 0;
    std::int32_t emax = -1;  // below any product's exponent sum (>= 2)
    bool special = false;

    static std::uint32_t bits(float f) {
        std::uint32_t u;
        std::memcpy(&u, &f, sizeof u);
        return u;
    }
    /// A new largest exponent e: what was summed drops to its scale (an arithmetic shift of the signed sum). A
    /// product that may reach 2^128 (e_a + e_b >= 381) sets `special`: the caller's float loop then overflows as
    /// every other set does (so the models refuse such a step alike), where the integers would not.
    __attribute__((noinline)) void raise(std::int32_t e) {
        if (e >= 381) special = true;
        const std::int32_t up = e - emax;
        acc = up >= 63 ? (acc < 0 ? -1 : 0) : acc >> up;  // GCC and Clang: >> of a negative is arithmetic
        emax = e;
    }
    void add(float a, float b) {
        const std::uint32_t ua = bits(a), ub = bits(b);
        const std::uint32_t ea = (ua << 1) >> 24, eb = (ub << 1) >> 24;
        // zero or denormal (e = 0): adds nothing; Inf or NaN (e = 255): the caller takes the float loop
        if (ea - 1u >= 254u || eb - 1u >= 254u) {
            if (ea == 0xFFu || eb == 0xFFu) special = true;
            return;
        }
        // p = floor(m_a·m_b / 2^16), m = h·2^16 + l with h < 2^8 (the hidden bit set), l < 2^16: every partial
        // product fits 32 bits
        const std::uint32_t ah = ((ua >> 16) & 0x7Fu) | 0x80u, al = ua & 0xFFFFu;
        const std::uint32_t bh = ((ub >> 16) & 0x7Fu) | 0x80u, bl = ub & 0xFFFFu;
        const std::uint32_t p = ((ah * bh) << 16) + ah * bl + al * bh + ((al * bl) >> 16);
        const std::int32_t e = static_cast<std::int32_t>(ea + eb);
        if (e > emax) raise(e);
        const std::uint32_t down = static_cast<std::uint32_t>(emax - e);
        if (down < 32u) {
            // acc += ±p·2^(e - emax)
            const std::uint32_t t = p >> down;
            if (static_cast<std::int32_t>(ua ^ ub) < 0)
                acc -= t;
            else
                acc += t;
        }
    }
    /// The sum as a float: acc·2^(emax - 284), one conversion and one scaling.
    float result() const {
        if (acc == 0) return 0.0f;
        return std::ldexp(static_cast<float>(acc), emax - 284);
    }
};

// ---- products ------------------------------------------------------------------------------------------------
/// Σ a[k·sa]·b[k·sb] over n terms in float: the plain loop (and the fallback of the integer sums).
inline float float_dot(const float* a, std::size_t sa, const float* b, std::size_t sb, std::size_t n) {
    float s = 0.0f;
    for (std::size_t k = 0; k < n; ++k) s += a[k * sa] * b[k * sb];
    return s;
}

/// Σ a[k·sa]·b[k·sb] over n terms in integers (SoftAcc).
inline float soft_dot(const float* a, std::size_t sa, const float* b, std::size_t sb, std::size_t n) {
    SoftAcc s;
    for (std::size_t k = 0; k < n; ++k) s.add(a[k * sa], b[k * sb]);
    return s.special ? float_dot(a, sa, b, sb, n) : s.result();
}

inline float dot(const float* a, const float* b, std::size_t n) {
    if constexpr (kSoftMacs) return soft_dot(a, 1, b, 1, n);
    float s0 = 0.0f, s1 = 0.0f, s2 = 0.0f, s3 = 0.0f;
    std::size_t k = 0;
    for (; k + 4 <= n; k += 4) {
        s0 += a[k] * b[k];
        s1 += a[k + 1] * b[k + 1];
        s2 += a[k + 2] * b[k + 2];
        s3 += a[k + 3] * b[k + 3];
    }
    for (; k < n; ++k) s0 += a[k] * b[k];
    return (s0 + s1) + (s2 + s3);
}

// Thumb-2 with a single-precision FPU that has VFMA (VFPv4 and later: M4F, M7; not ARMv7-A's VFPv3): the inner
// loops of dot4 and add_rows4 load four consecutive floats with one
// VLDM, which the compiler does not emit by itself: 16 multiply-adds then take 21 instructions instead of 44.
// Every other target (the M0+, hosts) runs the plain loops below them, which compute the same sums in the same
// order.
#if defined(__ARM_FP) && (__ARM_FP & 4) && defined(__ARM_FEATURE_FMA) && defined(__thumb2__) && defined(__GNUC__)
#define SARNN_CM_VLDM 1
#else
#define SARNN_CM_VLDM 0
#endif
// The loop over gemv's groups of four rows in one block (gemv_groups_asm) takes ten general registers: an
// unoptimised build, which keeps r7 for its frame, cannot give them; it runs dot4's loop per group instead.
#if SARNN_CM_VLDM && defined(__OPTIMIZE__)
#define SARNN_CM_GROUPS_ASM 1
#else
#define SARNN_CM_GROUPS_ASM 0
#endif

/// s_i += M_i·v for the four rows M0..M3 (each of n values, Stride apart: 1 but for the cached keys of a host
/// build, KeyBlocks): each v_k loaded once for four multiply-adds.
template <std::size_t Stride = 1>
inline void dot4(const float* M0, const float* M1, const float* M2, const float* M3, const float* v, std::size_t n,
                 float s[4]) {
    if constexpr (kSoftMacs) {
        s[0] += soft_dot(M0, Stride, v, 1, n);
        s[1] += soft_dot(M1, Stride, v, 1, n);
        s[2] += soft_dot(M2, Stride, v, 1, n);
        s[3] += soft_dot(M3, Stride, v, 1, n);
        return;
    }
    float s0 = s[0], s1 = s[1], s2 = s[2], s3 = s[3];
    std::size_t k = 0;
#if SARNN_CM_VLDM
    if (std::size_t blocks = Stride == 1 ? n / 4 : 0) {
        const float *p0 = M0, *p1 = M1, *p2 = M2, *p3 = M3, *pv = v;
        // s_i += M_i[k..k+3]·v[k..k+3], four values of v and of each row per VLDM
        __asm__ volatile(
            "1:\n\t"
            "vldmia %[pv]!, {s16-s19}\n\t"
            "vldmia %[p0]!, {s20-s23}\n\t"
            "vldmia %[p1]!, {s24-s27}\n\t"
            "vfma.f32 %[s0], s20, s16\n\t"
            "vfma.f32 %[s1], s24, s16\n\t"
            "vfma.f32 %[s0], s21, s17\n\t"
            "vfma.f32 %[s1], s25, s17\n\t"
            "vfma.f32 %[s0], s22, s18\n\t"
            "vfma.f32 %[s1], s26, s18\n\t"
            "vfma.f32 %[s0], s23, s19\n\t"
            "vfma.f32 %[s1], s27, s19\n\t"
            "vldmia %[p2]!, {s20-s23}\n\t"
            "vldmia %[p3]!, {s24-s27}\n\t"
            "vfma.f32 %[s2], s20, s16\n\t"
            "vfma.f32 %[s3], s24, s16\n\t"
            "vfma.f32 %[s2], s21, s17\n\t"
            "vfma.f32 %[s3], s25, s17\n\t"
            "vfma.f32 %[s2], s22, s18\n\t"
            "vfma.f32 %[s3], s26, s18\n\t"
            "vfma.f32 %[s2], s23, s19\n\t"
            "vfma.f32 %[s3], s27, s19\n\t"
            "subs %[n], %[n], #1\n\t"
            "bne 1b\n\t"
            : [s0] "+t"(s0), [s1] "+t"(s1), [s2] "+t"(s2), [s3] "+t"(s3), [p0] "+r"(p0), [p1] "+r"(p1),
              [p2] "+r"(p2), [p3] "+r"(p3), [pv] "+r"(pv), [n] "+r"(blocks)
            :
            : "s16", "s17", "s18", "s19", "s20", "s21", "s22", "s23", "s24", "s25", "s26", "s27", "cc", "memory");
        k = n / 4 * 4;
    }
#endif
    for (; k < n; ++k) {
        const float vk = v[k];
        s0 += M0[k * Stride] * vk;
        s1 += M1[k * Stride] * vk;
        s2 += M2[k * Stride] * vk;
        s3 += M3[k * Stride] * vk;
    }
    s[0] = s0;
    s[1] = s1;
    s[2] = s2;
    s[3] = s3;
}

/// y = M·v (add = false) or y += M·v (add = true), four rows per pass.
#if SARNN_CM_GROUPS_ASM
/// y[0..4·groups) = M·v (add = false) or += M·v (add = true) for contiguous rows of cols values, cols a multiple
/// of 4: the whole loop over groups of four rows in one block of assembly, so that a group costs its multiply-adds
/// (16 in 21 instructions, as dot4's, two such blocks per pass of the loop) and about 14 more (the row pointers
/// from the last group's end, the four sums started at 0, or at y for add, and stored with one VSTM, the loop), not
/// the 40-odd of a call of dot4 and its stores.
template <bool add>
inline void gemv_groups_asm(const float* M, std::size_t groups, std::size_t cols, const float* v, float* y) {
    const float *p0 = M, *p1 = nullptr, *p2 = nullptr, *p3 = nullptr, *pv = nullptr;
    std::size_t n = 0, row_bytes = cols * sizeof(float);
    float* py = y;
    // per group: s_i = y_i (add) or 0, then s_i += M_i[k..k+3]·v[k..k+3] over the blocks, y_i = s_i
    __asm__ volatile(
        "2:\n\t"
        "add %[p1], %[p0], %[rb]\n\t"
        "add %[p2], %[p1], %[rb]\n\t"
        "add %[p3], %[p2], %[rb]\n\t"
        "mov %[pv], %[v]\n\t"
        ".if %c[add]\n\t"
        "vldmia %[py], {s0-s3}\n\t"
        ".else\n\t"
        "movs %[n], #0\n\t"
        "vmov s0, s1, %[n], %[n]\n\t"
        "vmov s2, s3, %[n], %[n]\n\t"
        ".endif\n\t"
        // n = the pairs of blocks (cols / 8); the carry out is the odd block (cols / 4 odd), taken first
        "lsrs %[n], %[rb], #5\n\t"
        "bcc 1f\n\t"
        "vldmia %[pv]!, {s16-s19}\n\t"
        "vldmia %[p0]!, {s20-s23}\n\t"
        "vldmia %[p1]!, {s24-s27}\n\t"
        "vfma.f32 s0, s20, s16\n\t"
        "vfma.f32 s1, s24, s16\n\t"
        "vfma.f32 s0, s21, s17\n\t"
        "vfma.f32 s1, s25, s17\n\t"
        "vfma.f32 s0, s22, s18\n\t"
        "vfma.f32 s1, s26, s18\n\t"
        "vfma.f32 s0, s23, s19\n\t"
        "vfma.f32 s1, s27, s19\n\t"
        "vldmia %[p2]!, {s20-s23}\n\t"
        "vldmia %[p3]!, {s24-s27}\n\t"
        "vfma.f32 s2, s20, s16\n\t"
        "vfma.f32 s3, s24, s16\n\t"
        "vfma.f32 s2, s21, s17\n\t"
        "vfma.f32 s3, s25, s17\n\t"
        "vfma.f32 s2, s22, s18\n\t"
        "vfma.f32 s3, s26, s18\n\t"
        "vfma.f32 s2, s23, s19\n\t"
        "vfma.f32 s3, s27, s19\n\t"
        "cmp %[n], #0\n\t"
        "beq 3f\n\t"
        "1:\n\t"
        "vldmia %[pv]!, {s16-s19}\n\t"
        "vldmia %[p0]!, {s20-s23}\n\t"
        "vldmia %[p1]!, {s24-s27}\n\t"
        "vfma.f32 s0, s20, s16\n\t"
        "vfma.f32 s1, s24, s16\n\t"
        "vfma.f32 s0, s21, s17\n\t"
        "vfma.f32 s1, s25, s17\n\t"
        "vfma.f32 s0, s22, s18\n\t"
        "vfma.f32 s1, s26, s18\n\t"
        "vfma.f32 s0, s23, s19\n\t"
        "vfma.f32 s1, s27, s19\n\t"
        "vldmia %[p2]!, {s20-s23}\n\t"
        "vldmia %[p3]!, {s24-s27}\n\t"
        "vfma.f32 s2, s20, s16\n\t"
        "vfma.f32 s3, s24, s16\n\t"
        "vfma.f32 s2, s21, s17\n\t"
        "vfma.f32 s3, s25, s17\n\t"
        "vfma.f32 s2, s22, s18\n\t"
        "vfma.f32 s3, s26, s18\n\t"
        "vfma.f32 s2, s23, s19\n\t"
        "vfma.f32 s3, s27, s19\n\t"
        "vldmia %[pv]!, {s16-s19}\n\t"
        "vldmia %[p0]!, {s20-s23}\n\t"
        "vldmia %[p1]!, {s24-s27}\n\t"
        "vfma.f32 s0, s20, s16\n\t"
        "vfma.f32 s1, s24, s16\n\t"
        "vfma.f32 s0, s21, s17\n\t"
        "vfma.f32 s1, s25, s17\n\t"
        "vfma.f32 s0, s22, s18\n\t"
        "vfma.f32 s1, s26, s18\n\t"
        "vfma.f32 s0, s23, s19\n\t"
        "vfma.f32 s1, s27, s19\n\t"
        "vldmia %[p2]!, {s20-s23}\n\t"
        "vldmia %[p3]!, {s24-s27}\n\t"
        "vfma.f32 s2, s20, s16\n\t"
        "vfma.f32 s3, s24, s16\n\t"
        "vfma.f32 s2, s21, s17\n\t"
        "vfma.f32 s3, s25, s17\n\t"
        "vfma.f32 s2, s22, s18\n\t"
        "vfma.f32 s3, s26, s18\n\t"
        "vfma.f32 s2, s23, s19\n\t"
        "vfma.f32 s3, s27, s19\n\t"
        "subs %[n], %[n], #1\n\t"
        "bne 1b\n\t"
        "3:\n\t"
        "vstmia %[py]!, {s0-s3}\n\t"
        "mov %[p0], %[p3]\n\t"
        "subs %[g], %[g], #1\n\t"
        "bne 2b\n\t"
        : [p0] "+r"(p0), [p1] "+r"(p1), [p2] "+r"(p2), [p3] "+r"(p3), [pv] "+r"(pv), [py] "+r"(py), [n] "+r"(n),
          [g] "+r"(groups)
        : [v] "r"(v), [rb] "r"(row_bytes), [add] "i"(add ? 1 : 0)
        : "s0", "s1", "s2", "s3", "s16", "s17", "s18", "s19", "s20", "s21", "s22", "s23", "s24", "s25", "s26", "s27",
          "cc", "memory");
}
#endif

template <bool add>
void gemv_rows(const float* M, std::size_t rows, std::size_t cols, std::size_t ld, const float* v, float* y) {
    std::size_t r = 0;
#if SARNN_CM_GROUPS_ASM
    if (ld == cols && cols % 4 == 0 && cols >= 4 && rows >= 4) {
        gemv_groups_asm<add>(M, rows / 4, cols, v, y);
        r = rows / 4 * 4;
    }
#endif
    for (; r + 4 <= rows; r += 4) {
        const float* m = M + r * ld;
        float s[4] = {0.0f, 0.0f, 0.0f, 0.0f};
        dot4(m, m + ld, m + 2 * ld, m + 3 * ld, v, cols, s);
        for (std::size_t i = 0; i < 4; ++i) y[r + i] = add ? y[r + i] + s[i] : s[i];
    }
    for (; r < rows; ++r) {
        const float s = dot(M + r * ld, v, cols);
        y[r] = add ? y[r] + s : s;
    }
}

inline void gemv(const float* M, std::size_t rows, std::size_t cols, std::size_t ld, const float* v, float* y) {
    // y = M·v
    gemv_rows<false>(M, rows, cols, ld, v, y);
}

inline void gemv_add(const float* M, std::size_t rows, std::size_t cols, std::size_t ld, const float* v, float* y) {
    // y += M·v
    gemv_rows<true>(M, rows, cols, ld, v, y);
}

inline void gemv_t(const float* M, std::size_t rows, std::size_t cols, std::size_t ld, const float* v, float* y) {
    if constexpr (kSoftMacs) {
        // y_d = Σ_r v_r M_rd, a column of M at a time
        for (std::size_t d = 0; d < cols; ++d) y[d] = soft_dot(M + d, ld, v, 1, rows);
        return;
    }
    for (std::size_t d = 0; d < cols; ++d) y[d] = 0.0f;
    std::size_t r = 0;
    for (; r + 4 <= rows; r += 4) {
        const float* m = M + r * ld;
        const float v0 = v[r], v1 = v[r + 1], v2 = v[r + 2], v3 = v[r + 3];
        // y += v_r M_r for four rows: one load and store of y_d per four multiply-adds
        for (std::size_t d = 0; d < cols; ++d)
            y[d] += (v0 * m[d] + v1 * m[ld + d]) + (v2 * m[2 * ld + d] + v3 * m[3 * ld + d]);
    }
    for (; r < rows; ++r)
        for (std::size_t d = 0; d < cols; ++d) y[d] += v[r] * M[r * ld + d];
}

inline void affine_tanh(const float* A, const float* b, std::size_t rows, const float* x, std::size_t nx, const float* r,
                 std::size_t nr, float* y) {
    const std::size_t ld = nx + nr;
    std::size_t i = 0;
    for (; i + 4 <= rows; i += 4) {
        const float* a = A + i * ld;
        float s[4] = {b[i], b[i + 1], b[i + 2], b[i + 3]};
        dot4(a, a + ld, a + 2 * ld, a + 3 * ld, x, nx, s);
        dot4(a + nx, a + ld + nx, a + 2 * ld + nx, a + 3 * ld + nx, r, nr, s);
        // y_i = tanh(A_i·[x; r] + b_i)
        for (std::size_t k = 0; k < 4; ++k) y[i + k] = set_tanh(s[k]);
    }
    for (; i < rows; ++i) {
        const float* a = A + i * ld;
        y[i] = set_tanh(dot(a, x, nx) + dot(a + nx, r, nr) + b[i]);
    }
}

inline void tanh_map(float* y, std::size_t n) {
    for (std::size_t k = 0; k < n; ++k) y[k] = set_tanh(y[k]);
}

inline void exp_map(float* y, std::size_t n) {
    for (std::size_t k = 0; k < n; ++k) y[k] = set_exp(y[k]);
}

inline void softmax(float* y, std::size_t n) {
    float m = y[0];
    for (std::size_t k = 1; k < n; ++k) m = y[k] > m ? y[k] : m;
    float l = 0.0f;
    // y_k = exp(y_k - max) / Σ exp(y_j - max)
    for (std::size_t k = 0; k < n; ++k) l += (y[k] = set_exp(y[k] - m));
    const float inv = 1.0f / l;
    for (std::size_t k = 0; k < n; ++k) y[k] *= inv;
}

/// c += Σ_t p_t S_t over four rows: one load and store of c_d per four multiply-adds.
inline void add_rows4(const float* S0, const float* S1, const float* S2, const float* S3, const float p[4],
                      std::size_t dim, float* c) {
    const float p0 = p[0], p1 = p[1], p2 = p[2], p3 = p[3];
    std::size_t d = 0;
    if constexpr (kSoftMacs) {
        for (; d < dim; ++d) {
            SoftAcc a;
            a.add(p0, S0[d]);
            a.add(p1, S1[d]);
            a.add(p2, S2[d]);
            a.add(p3, S3[d]);
            c[d] = a.special ? c[d] + p0 * S0[d] + p1 * S1[d] + p2 * S2[d] + p3 * S3[d] : c[d] + a.result();
        }
        return;
    }
#if SARNN_CM_VLDM
    if (std::size_t blocks = dim / 4) {
        const float *r0 = S0, *r1 = S1, *r2 = S2, *r3 = S3;
        float* pc = c;
        // c[d..d+3] = ((c + p0·S0) + p1·S1) + p2·S2) + p3·S3, four values per VLDM
        __asm__ volatile(
            "1:\n\t"
            "vldmia %[c], {s16-s19}\n\t"
            "vldmia %[r0]!, {s20-s23}\n\t"
            "vldmia %[r1]!, {s24-s27}\n\t"
            "vfma.f32 s16, s20, %[p0]\n\t"
            "vfma.f32 s17, s21, %[p0]\n\t"
            "vfma.f32 s18, s22, %[p0]\n\t"
            "vfma.f32 s19, s23, %[p0]\n\t"
            "vfma.f32 s16, s24, %[p1]\n\t"
            "vfma.f32 s17, s25, %[p1]\n\t"
            "vfma.f32 s18, s26, %[p1]\n\t"
            "vfma.f32 s19, s27, %[p1]\n\t"
            "vldmia %[r2]!, {s20-s23}\n\t"
            "vldmia %[r3]!, {s24-s27}\n\t"
            "vfma.f32 s16, s20, %[p2]\n\t"
            "vfma.f32 s17, s21, %[p2]\n\t"
            "vfma.f32 s18, s22, %[p2]\n\t"
            "vfma.f32 s19, s23, %[p2]\n\t"
            "vfma.f32 s16, s24, %[p3]\n\t"
            "vfma.f32 s17, s25, %[p3]\n\t"
            "vfma.f32 s18, s26, %[p3]\n\t"
            "vfma.f32 s19, s27, %[p3]\n\t"
            "vstmia %[c]!, {s16-s19}\n\t"
            "subs %[n], %[n], #1\n\t"
            "bne 1b\n\t"
            : [r0] "+r"(r0), [r1] "+r"(r1), [r2] "+r"(r2), [r3] "+r"(r3), [c] "+r"(pc), [n] "+r"(blocks)
            : [p0] "t"(p0), [p1] "t"(p1), [p2] "t"(p2), [p3] "t"(p3)
            : "s16", "s17", "s18", "s19", "s20", "s21", "s22", "s23", "s24", "s25", "s26", "s27", "cc", "memory");
        d = dim / 4 * 4;
    }
#endif
    // c_d = ((c_d + p0·S0_d) + p1·S1_d) + p2·S2_d) + p3·S3_d
    for (; d < dim; ++d) c[d] = c[d] + p0 * S0[d] + p1 * S1[d] + p2 * S2[d] + p3 * S3[d];
}

/// The rows of S in ring order from logical row 0, one a call (next): a pointer that moves on by the stride and back
/// to the base at the ring's end (S.row(j) without its modulo and multiply per row).
struct RingRows {
    const float* p;
    const float* base;
    const float* end;
    std::size_t stride;
    explicit RingRows(const Rows<float>& S)
        : p(S.base + S.first * S.stride), base(S.base), end(S.base + S.cap * S.stride), stride(S.stride) {}
    const float* next() {
        const float* const r = p;
        p += stride;
        if (p == end) p = base;
        return r;
    }
};

/// c = Σ_j w_j S_j in integers, one column at a time (each c_d one SoftAcc over the rows, in ring order).
inline void soft_weighted_sum(const float* w, const Rows<float>& S, float* c) {
    const std::size_t in_first = S.cap - S.first < S.n ? S.cap - S.first : S.n;
    const float* seg0 = S.base + S.first * S.stride;
    for (std::size_t d = 0; d < S.dim; ++d) {
        SoftAcc a;
        for (std::size_t j = 0; j < in_first; ++j) a.add(w[j], seg0[j * S.stride + d]);
        for (std::size_t j = in_first; j < S.n; ++j) a.add(w[j], S.base[(j - in_first) * S.stride + d]);
        if (a.special) {
            float f = 0.0f;
            for (std::size_t j = 0; j < S.n; ++j) f += w[j] * S.row(j)[d];
            c[d] = f;
        } else {
            c[d] = a.result();
        }
    }
}

inline void weighted_sum(const float* w, const Rows<float>& S, float* c) {
    if constexpr (kSoftMacs) {
        // c = Σ_j w_j S_j
        soft_weighted_sum(w, S, c);
        return;
    }
    for (std::size_t d = 0; d < S.dim; ++d) c[d] = 0.0f;
    RingRows ring(S);
    std::size_t j = 0;
    for (; j + 4 <= S.n; j += 4) {
        const float* const r0 = ring.next();
        const float* const r1 = ring.next();
        const float* const r2 = ring.next();
        add_rows4(r0, r1, r2, ring.next(), w + j, S.dim, c);
    }
    for (; j < S.n; ++j) {
        const float* s = ring.next();
        // c += w_j S_j
        for (std::size_t d = 0; d < S.dim; ++d) c[d] += w[j] * s[d];
    }
}

inline void additive_scores(const Rows<float>& P, const float* q, const float* v, float* e) {
    for (std::size_t j = 0; j < P.n; ++j) {
        const float* p = P.row(j);
        // e_j = v·tanh(P_j + q)
        if constexpr (kSoftMacs) {
            SoftAcc a;
            for (std::size_t k = 0; k < P.dim; ++k) a.add(v[k], set_tanh(p[k] + q[k]));
            if (!a.special) {
                e[j] = a.result();
                continue;
            }
        }
        float s = 0.0f;
        for (std::size_t k = 0; k < P.dim; ++k) s += v[k] * set_tanh(p[k] + q[k]);
        e[j] = s;
    }
}

// ---- the gates of a cell, inline (the cores with an FPU) -------------------------------------------------------
// kernels/cortex_m/{math,lstm_cell,gru_cell}.hpp's (shared with the set's shaped forms)
using cortex_m::gru_lane;
using cortex_m::kGateLimit;
using cortex_m::lstm_lane;

inline void lstm_cell(const float* z, const float* b, const float* c_prev, std::size_t H, float* c, float* h) {
    if constexpr (!kSoftMacs) {
        const float *zi = z, *zf = z + H, *zg = z + 2 * H, *zo = z + 3 * H;
        const float *bi = b, *bf = b + H, *bg = b + 2 * H, *bo = b + 3 * H;
        for (std::size_t d = 0; d < H; ++d) {
            const float ai = *zi++ + *bi++, af = *zf++ + *bf++, ag = *zg++ + *bg++, ao = *zo++ + *bo++;
            // c = σ(a_f) ⊙ c_prev + σ(a_i) ⊙ tanh(a_g); h = σ(a_o) ⊙ tanh(c)
            lstm_lane(ai, af, ag, ao, c_prev[d], c[d], h[d]);
        }
        return;
    }
    for (std::size_t d = 0; d < H; ++d) {
        const float i = set_sigmoid(z[d] + b[d]);
        const float f = set_sigmoid(z[H + d] + b[H + d]);
        const float g = set_tanh(z[2 * H + d] + b[2 * H + d]);
        const float o = set_sigmoid(z[3 * H + d] + b[3 * H + d]);
        // c = f ⊙ c_prev + i ⊙ g; h = o ⊙ tanh(c)
        c[d] = f * c_prev[d] + i * g;
        h[d] = o * set_tanh(c[d]);
    }
}

inline void gru_cell(const float* gi, const float* gh, const float* b_ih, const float* b_hh, const float* h_prev,
                     std::size_t H, float* h) {
    if constexpr (!kSoftMacs) {
        const float *gir = gi, *giz = gi + H, *gin = gi + 2 * H, *ghr = gh, *ghz = gh + H, *ghn = gh + 2 * H;
        const float *bir = b_ih, *biz = b_ih + H, *bin = b_ih + 2 * H;
        const float *bhr = b_hh, *bhz = b_hh + H, *bhn = b_hh + 2 * H;
        for (std::size_t d = 0; d < H; ++d) {
            const float ar = *gir++ + *bir++ + (*ghr++ + *bhr++), az = *giz++ + *biz++ + (*ghz++ + *bhz++);
            const float xn = *gin++ + *bin++, hn = *ghn++ + *bhn++;
            // n = tanh(x_n + σ(a_r)·h_n); h = n + σ(a_z) ⊙ (h_prev - n)
            h[d] = gru_lane(ar, az, xn, hn, h_prev[d]);
        }
        return;
    }
    for (std::size_t d = 0; d < H; ++d) {
        const float r = set_sigmoid(gi[d] + b_ih[d] + (gh[d] + b_hh[d]));
        const float z = set_sigmoid(gi[H + d] + b_ih[H + d] + (gh[H + d] + b_hh[H + d]));
        const float n = set_tanh(gi[2 * H + d] + b_ih[2 * H + d] + r * (gh[2 * H + d] + b_hh[2 * H + d]));
        // h = (1 - z) ⊙ n + z ⊙ h_prev = n + z ⊙ (h_prev - n)
        h[d] = n + z * (h_prev[d] - n);
    }
}

// ---- the context -----------------------------------------------------------------------------------------
/// The context over the rows of S, four states at a time: scores4(j, rows, e) writes the scores of states j..j+3
/// (rows: their rows of S) to e[0..4), score1(j, row) the score of one. alpha_j holds p_j = exp(e_j - m) as the pass goes; m is raised only when
/// a score exceeds m + kTau (p_j <= e^16 = 8.9e6, so Σ p_j stays finite for any n a memory holds), and then
/// c, l and the alpha so far are rescaled by exp(m_old - m_new): one exp per state, one pass.
template <class Scores4, class Score1>
void attend_scored(const Rows<float>& S, Scores4 scores4, Score1 score1, float* alpha, float* c) {
    if constexpr (kSoftMacs) {
        // two passes: the scores e_j into alpha, then alpha_j = exp(e_j - max) / l and c = Σ_j alpha_j S_j
        RingRows ring(S);
        std::size_t j = 0;
        for (; j + 4 <= S.n; j += 4) {
            const float* const rows[4] = {ring.next(), ring.next(), ring.next(), ring.next()};
            scores4(j, rows, alpha + j);
        }
        for (; j < S.n; ++j) alpha[j] = score1(j, ring.next());
        float m = alpha[0];
        for (std::size_t k = 1; k < S.n; ++k) m = alpha[k] > m ? alpha[k] : m;
        float l = 0.0f;
        for (std::size_t k = 0; k < S.n; ++k) l += (alpha[k] = set_exp(alpha[k] - m));
        const float inv = 1.0f / l;
        for (std::size_t k = 0; k < S.n; ++k) alpha[k] *= inv;
        soft_weighted_sum(alpha, S, c);
        return;
    }
    constexpr float kTau = 16.0f;
    const std::size_t dim = S.dim;
    float m = -std::numeric_limits<float>::infinity();
    float l = 0.0f;
    for (std::size_t d = 0; d < dim; ++d) c[d] = 0.0f;
    // p_t = exp(e_t - m) for the count new scores in e, raising m first when one is above m + kTau
    const auto weigh = [&](std::size_t j, float* e, std::size_t count) {
        float bm = e[0];
        for (std::size_t t = 1; t < count; ++t) bm = e[t] > bm ? e[t] : bm;
        if (bm > m + kTau || !(m > -std::numeric_limits<float>::infinity())) {
            if (j > 0) {
                // the shift grew: rescale what was accumulated by exp(m_old - m_new)
                const float shrink = exp(m - bm);
                l *= shrink;
                for (std::size_t d = 0; d < dim; ++d) c[d] *= shrink;
                for (std::size_t k = 0; k < j; ++k) alpha[k] *= shrink;
            }
            m = bm;
        }
        for (std::size_t t = 0; t < count; ++t) {
            // e_t - m <= kTau: only the low edge needs exp's range checks
            const float x = e[t] - m;
            const float p = x >= -87.0f ? exp_in_range(x) : exp(x);
            alpha[j + t] = p;
            l += p;
            e[t] = p;
        }
    };
    RingRows ring(S);
    std::size_t j = 0;
    for (; j + 4 <= S.n; j += 4) {
        float e[4];
        const float* const rows[4] = {ring.next(), ring.next(), ring.next(), ring.next()};
        scores4(j, rows, e);
        weigh(j, e, 4);
        // c += Σ_t p_t S_t
        add_rows4(rows[0], rows[1], rows[2], rows[3], e, dim, c);
    }
    for (; j < S.n; ++j) {
        const float* const s = ring.next();
        float e[1] = {score1(j, s)};
        weigh(j, e, 1);
        for (std::size_t d = 0; d < dim; ++d) c[d] += e[0] * s[d];
    }
    // c = Σ_j p_j S_j / l; alpha_j = p_j / l
    const float inv = 1.0f / l;
    for (std::size_t d = 0; d < dim; ++d) c[d] *= inv;
    for (std::size_t k = 0; k < S.n; ++k) alpha[k] *= inv;
}

inline void attend_dot(const Rows<float>& S, const float* q, float scale, float* alpha, float* c) {
    attend_scored(
        S,
        [&](std::size_t, const float* const rows[4], float* e) {
            float s[4] = {0.0f, 0.0f, 0.0f, 0.0f};
            // e_j = scale·(S_j·q), four states per pass over q
            dot4(rows[0], rows[1], rows[2], rows[3], q, S.dim, s);
            for (std::size_t t = 0; t < 4; ++t) e[t] = scale * s[t];
        },
        [&](std::size_t, const float* row) { return scale * dot(row, q, S.dim); }, alpha, c);
}

inline void attend_keys(const KeyBlocks<float>& P, const float* u, const Rows<float>& S, float* alpha, float* c) {
    // the values of a key are L apart: 1 on Cortex-M (no padding: each key a plain row), more on a host build
    constexpr std::size_t L = KeyBlocks<float>::L;
    attend_scored(
        S,
        [&](std::size_t j, const float* const*, float* e) {
            float s[4] = {0.0f, 0.0f, 0.0f, 0.0f};
            // e_j = P_j·u, four keys per pass over u
            dot4<L>(P.key(j), P.key(j + 1), P.key(j + 2), P.key(j + 3), u, P.dim, s);
            for (std::size_t t = 0; t < 4; ++t) e[t] = s[t];
        },
        [&](std::size_t j, const float*) {
            // e_j = P_j·u
            if constexpr (L == 1) return dot(P.key(j), u, P.dim);
            else if constexpr (kSoftMacs) return soft_dot(P.key(j), L, u, 1, P.dim);
            else return float_dot(P.key(j), L, u, 1, P.dim);
        },
        alpha, c);
}

/// The operations as one type, for SARNN_DEFINE_SET.
struct Ops {
#define SARNN_CM_OP_(T_, R, name, impl, params, args) \
    static R impl params { return cm::impl args; }
    SARNN_LOOP_OPS(SARNN_CM_OP_, float)
    SARNN_SET_OPS(SARNN_CM_OP_, float)
#undef SARNN_CM_OP_
};

}  // namespace cm

}  // namespace
}  // namespace sarnn::kernel

#endif
