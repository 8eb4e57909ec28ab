// sarnn/kernels/generic/float_math.hpp: the one definition of the vector float exp, tanh and sigmoid of the kernels
// (their polynomials, constants and order of operations), written once over a set of vector operations O, so that
// each vector kernel gets the same results from its own instructions: kernels/simd/float_math.hpp (xsimd batches,
// the run-time sets) and kernels/neon/math.hpp (float32x4_t, the shaped NEON kernels).
//
// O is a struct of static functions on its vector type O::V (each lane by lane):
//   splat(float), add(a, b), sub(a, b), mul(a, b), divide(a, b), min(a, b), max(a, b), abs(a), neg(a),
//   madd(a, b, c) = a·b + c, nmadd(a, b, c) = c - a·b (fused or not, as the target's multiply-add),
//   pow2_from_magic(t) = 2^(n - 1) for t = n + 1.5·2^23 (the bits (bits(t) + 126) << 23),
//   exp_edges(x, lo, y) = 0 where x < lo, x where x is NaN, y elsewhere,
//   select_lt(a, b, p, q) = a < b ? p : q, copy_sign(m, x) = m with the sign bit of x (m >= 0).
//
// Accuracy, measured against double over [-88, 88] (tests/test_kernels.cpp checks the same bounds on every set):
// exp within 2 ulp (relative 2.4e-7) for x in [-86.5, 88.7]; below -86.5 (results under 2^-124) it returns 0, above
// 88.72 +inf. tanh within 2 ulp; both pass NaN through, exp(+inf) = +inf, exp(-inf) = 0, tanh(+-inf) = +-1.
// The coefficients were fitted for sarnn (least squares on Chebyshev nodes, relative weight, then checked in
// float arithmetic). Cost per vector: exp 16 operations, tanh 30 and one division, sigmoid 19 and one division.
#ifndef SARNN_KERNELS_GENERIC_FLOAT_MATH_HPP
#define SARNN_KERNELS_GENERIC_FLOAT_MATH_HPP

#define SARNN_FLOAT_MATH_INLINE __attribute__((always_inline)) inline

namespace sarnn::kernel::float_math {

/// exp's range: below kExpLow the result is 0; x is clamped at kExpHigh, where 2^n·exp(r) overflows to +inf.
inline constexpr float kExpLow = -86.5f;
inline constexpr float kExpHigh = 89.0f;
/// 1.5·2^23: t = x / ln 2 + kMagic rounds x / ln 2 to an integer n in t's low mantissa bits.
inline constexpr float kMagic = 12582912.0f;
inline constexpr float kLog2e = 1.44269504088896341f;
/// ln 2 in two parts: n·kLn2Hi (15 bits) is exact.
inline constexpr float kLn2Hi = 0.693145751953125f;
inline constexpr float kLn2Lo = 1.428606765330187e-6f;
/// Q(r) ≈ (exp(r) - 1 - r) / r² on [-ln 2 / 2, ln 2 / 2], times 2, highest degree first.
inline constexpr float kExpQ[5] = {2.75028158e-3f, 1.67378326e-2f, 8.33390662e-2f, 3.33330369e-1f, 9.99999772e-1f};
/// P(z) ≈ (tanh(x) - x) / x³ for z = x² on |x| < 0.5, highest degree first.
inline constexpr float kTanhP[4] = {1.76143597e-2f, -5.32246726e-2f, 1.33284762e-1f, -3.33332508e-1f};
/// tanh takes its small branch below this |x|.
inline constexpr float kTanhSmall = 0.5f;

/// exp(x) = 2^n · exp(r), n = round(x / ln 2), r = x - n·ln 2 in [-ln 2 / 2, ln 2 / 2]; 2·exp(r) by a polynomial,
/// times 2^(n - 1) (so that n = 128 still has an exponent). Underflow (x < -86.5) gives 0; x is clamped at 89,
/// where n = 128 and the product overflows to +inf as it should (for x > ln FLT_MAX = 88.72).
template <class O>
SARNN_FLOAT_MATH_INLINE typename O::V exp(const typename O::V& x) noexcept {
    using V = typename O::V;
    const V lo = O::splat(kExpLow);
    const V xc = O::min(O::max(x, lo), O::splat(kExpHigh));  // a NaN lane is replaced at the end
    // t = x / ln 2 + 1.5·2^23 rounds x / ln 2 to an integer n in t's low mantissa bits
    const V magic = O::splat(kMagic);
    const V t = O::madd(xc, O::splat(kLog2e), magic);
    const V n = O::sub(t, magic);
    // r = x - n·ln 2, ln 2 in two parts
    V r = O::nmadd(n, O::splat(kLn2Hi), xc);
    r = O::nmadd(n, O::splat(kLn2Lo), r);
    // 2·exp(r) = 2 + 2r + r²·(2·Q(r))
    V q = O::madd(O::splat(kExpQ[0]), r, O::splat(kExpQ[1]));
    q = O::madd(q, r, O::splat(kExpQ[2]));
    q = O::madd(q, r, O::splat(kExpQ[3]));
    q = O::madd(q, r, O::splat(kExpQ[4]));
    const V two = O::splat(2.0f);
    const V e2 = O::madd(O::mul(r, r), q, O::madd(r, two, two));
    const V y = O::mul(e2, O::pow2_from_magic(t));
    // 0 below the range; NaN stays NaN
    return O::exp_edges(x, lo, y);
}

/// tanh(x): x + x³·P(x²) for |x| < 0.5, else sign(x)·(1 - 2 / (exp(2|x|) + 1)).
template <class O>
SARNN_FLOAT_MATH_INLINE typename O::V tanh(const typename O::V& x) noexcept {
    using V = typename O::V;
    const V ax = O::abs(x);
    // the small branch
    const V z = O::mul(x, x);
    V p = O::madd(O::splat(kTanhP[0]), z, O::splat(kTanhP[1]));
    p = O::madd(p, z, O::splat(kTanhP[2]));
    p = O::madd(p, z, O::splat(kTanhP[3]));
    const V small = O::madd(O::mul(x, z), p, x);
    // the large branch: exp(2|x|) = +inf for |x| > 44.4 gives 1; a NaN is carried by it (ax < 0.5 is false)
    const V one = O::splat(1.0f);
    const V e = exp<O>(O::add(ax, ax));
    const V large = O::sub(one, O::divide(O::splat(2.0f), O::add(e, one)));
    return O::select_lt(ax, O::splat(kTanhSmall), small, O::copy_sign(large, x));
}

/// σ(x) = 1 / (1 + exp(-x))
template <class O>
SARNN_FLOAT_MATH_INLINE typename O::V sigmoid(const typename O::V& x) noexcept {
    using V = typename O::V;
    const V one = O::splat(1.0f);
    return O::divide(one, O::add(one, exp<O>(O::neg(x))));
}

}  // namespace sarnn::kernel::float_math

#undef SARNN_FLOAT_MATH_INLINE

#endif
