// sarnn/kernels/cortex_m/math.hpp: the scalar float exp, tanh and σ of the Cortex-M float set (kernel::CortexM:
// Cortex-M4F, M7, in plain C++, so also on every host), shared by its run-time operations (kernels/cortex_m/set.hpp)
// and its shaped forms (kernels/cortex_m/*.hpp): one definition of each.
//
// exp(x): x = k·ln2 + r with |r| <= ln2/2 (ln2 split in two parts, so r is exact to float rounding), e^r by its
// Taylor polynomial of degree 6 (truncation below 1.2e-7 relative), times 2^k built in the exponent bits (below
// -87 and above 88 in two steps, through e^-40 or e^40, so that denormal results come out right); x < -104 gives
// 0, x > 88.73 +inf, NaN NaN. tanh(x) = 1 - 2/(e^{2|x|} + 1) with the sign of x, ±1 once |x| >= 9.1 (where tanhf
// rounds to ±1 too). sigmoid(x) = 1/(1 + e^{-x}). Errors against double (tests/test_cortex_m.cpp): exp 2.5e-7
// relative over [-87, 88], tanh 1.5e-7 absolute, sigmoid 1.0e-7 absolute.
//
// The cells' inline gates (gate_exp, gate_sigmoid, gate_tanh): e^w = 2^k·P(r)/P(-r) with P the Padé numerator of
// order [3/3] (no second ln2 constant: its error weighs only where σ and tanh are flat), σ(a) = Q/(Q + 2^k·P) for
// w = -a, tanh(a) = (2^k·P - Q)/(2^k·P + Q) for w = 2a; one division each, no branch and no library call, for
// finite |a| < kGateLimit. Measured through lstm_cell: tanh 1.5e-7 absolute, sigmoid 8.7e-8 absolute.
#ifndef SARNN_KERNELS_CORTEX_M_MATH_HPP
#define SARNN_KERNELS_CORTEX_M_MATH_HPP

#include <cstdint>
#include <cstring>
#include <limits>

#define SARNN_CM_INLINE __attribute__((always_inline)) inline

namespace sarnn::kernel::cortex_m {

/// a·b + c: one VFMA where the FPU has it (VFPv4: M4F, M7; whatever the caller's -ffp-contract), a multiply and an
/// add elsewhere (the hosts, as the run-time set's plain loops).
SARNN_CM_INLINE float madd(float a, float b, float c) noexcept {
#if defined(__ARM_FEATURE_FMA) && defined(__ARM_FP) && !defined(__ARM_NEON)
    return __builtin_fmaf(a, b, c);
#else
    return a * b + c;
#endif
}

inline float from_bits(std::uint32_t u) noexcept {
    float f;
    std::memcpy(&f, &u, sizeof f);
    return f;
}

/// e^x for x in [-87, 88] (no range checks: k stays in [-126, 127], where 2^k is one normal float).
inline float exp_in_range(float x) noexcept {
    // k = round(x / ln2), by the float rounding of a sum with 1.5·2^23
    constexpr float kMagic = 12582912.0f;
    const float t = x * 1.44269504f + kMagic;
    const float kf = t - kMagic;
    // the bits of t are those of kMagic (0x4B400000) plus k: shifted left by 23 the constant part drops out,
    // and adding 127 << 23 gives the bits of 2^k
    std::uint32_t bits;
    std::memcpy(&bits, &t, sizeof bits);
    const float two_k = from_bits((bits << 23) + (127u << 23));
    // r = x - k·ln2, ln2 = 0.693145751953125 + 1.428606765330187e-06
    const float r = (x - kf * 0.693145751953125f) - kf * 1.428606765330187e-06f;
    // e^r = 1 + r + r²/2! + ... + r^6/6! (Horner)
    float p = 1.0f / 720.0f;
    p = p * r + 1.0f / 120.0f;
    p = p * r + 1.0f / 24.0f;
    p = p * r + 1.0f / 6.0f;
    p = p * r + 0.5f;
    p = p * r + 1.0f;
    p = p * r + 1.0f;
    return p * two_k;
}

/// e^x for every x (see above).
inline float exp(float x) noexcept {
    if (x > 88.7228394f) return std::numeric_limits<float>::infinity();
    if (x < -104.0f) return 0.0f;
    if (x >= -87.0f && x <= 88.0f) return exp_in_range(x);
    // the edges (results below 2^-126 or above 2^127): e^x = e^(x - y)·e^y, both factors normal
    return x < 0.0f ? exp_in_range(x + 40.0f) * 4.24835426e-18f : exp_in_range(x - 40.0f) * 2.35385267e17f;
}

/// tanh(x) for every x (see above).
inline float tanh(float x) noexcept {
    const float a = x < 0.0f ? -x : x;
    float t;
    if (a >= 9.1f) {
        t = 1.0f;  // also +inf; NaN falls through below and stays NaN
    } else {
        // tanh|x| = 1 - 2/(e^{2|x|} + 1), 2|x| < 18.2
        t = 1.0f - 2.0f / (exp_in_range(2.0f * a) + 1.0f);
    }
    return x < 0.0f ? -t : t;
}

/// σ(x) = 1/(1 + e^{-x})
inline float sigmoid(float x) noexcept { return 1.0f / (1.0f + exp(-x)); }

/// The largest |a| the inline gates take (below): e^{2a} stays a normal float (2·40·log2(e) < 116).
inline constexpr float kGateLimit = 40.0f;

/// e^w = 2^k·e^r with w = s·a (s = -1 for σ, 2 for tanh), k = round(w·log2(e)), r = w - k·ln2 = s·ρ,
/// ρ = a - k·(ln2/s), and e^r by its Padé form of order [3/3], P(r)/P(-r) with P(r) = 1 + r/2 + r²/10 + r³/120
/// (truncation below 6e-9 relative for |r| <= ln2/2). In ρ, with u = ρ², P(r) = E + O and P(-r) = E - O for
/// E = 1 + α·u, O = ρ·(β + γ·u), α = s²/10, β = s/2, γ = s³/120; both scaled by 1/γ (the ratio is the same):
/// E/γ = (α/γ)·(u + 1/α), O/γ = ρ·(u + β/γ). Returns 2^k·P (its exponent bits raised by k: |a| < kGateLimit keeps
/// it normal) and Q, e^w = 2^k·P / Q. No range checks: finite |a| < kGateLimit only.
template <int S>
inline void gate_exp(float a, float& p2k, float& q) noexcept {
    constexpr float s = static_cast<float>(S);
    constexpr float alpha = s * s / 10.0f, beta = s / 2.0f, gamma = s * s * s / 120.0f;
    // k = round(a·s·log2(e)), by the float rounding of a sum with 1.5·2^23
    constexpr float kMagic = 12582912.0f;
    const float t = a * (s * 1.44269504f) + kMagic;
    const float kf = t - kMagic;
    // ρ = a - k·ln2/s (one constant: its error, 2e-9·k, weighs on σ and tanh only where they are flat)
    const float rho = a - kf * (0.693147181f / s);
    // u + β/γ from u + 1/α (the smaller constant first: β/γ is 6 to 60 times 1/α, so its rounding stays small)
    const float w2 = rho * rho + 1.0f / alpha;
    const float w1 = w2 + (beta / gamma - 1.0f / alpha);
    const float e = (alpha / gamma) * w2;
    const float o = rho * w1;
    const float p = e + o;
    q = e - o;
    // 2^k·P: the bits of t are those of kMagic (0x4B400000) plus k, and shifted left by 23 the constant part drops
    // out, leaving k in the exponent field
    std::uint32_t tb, pb;
    std::memcpy(&tb, &t, sizeof tb);
    std::memcpy(&pb, &p, sizeof pb);
    p2k = from_bits(pb + (tb << 23));
}

/// σ(a) = 1/(1 + e^{-a}) = Q/(Q + 2^k·P) for finite |a| < kGateLimit.
inline float gate_sigmoid(float a) noexcept {
    float p2k, q;
    gate_exp<-1>(a, p2k, q);
    return q / (q + p2k);
}

/// tanh(a) = (e^{2a} - 1)/(e^{2a} + 1) = (2^k·P - Q)/(2^k·P + Q) for finite |a| < kGateLimit.
inline float gate_tanh(float a) noexcept {
    float p2k, q;
    gate_exp<2>(a, p2k, q);
    return (p2k - q) / (p2k + q);
}

}  // namespace sarnn::kernel::cortex_m

#endif
