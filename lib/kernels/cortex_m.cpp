// lib/kernels/cortex_m.cpp: the kernel set for in-order cores without SIMD (Cortex-M4F and M7 with their
// single-precision FPU, and the M0+ in soft float), in plain C++ so that it also builds, and is tested, on every
// host. What it does differently from the reference scalar set (scalar.hpp), all to execute fewer instructions:
//  - matrix-vector products take four rows per pass over the vector, so each load of a vector value feeds four
//    multiply-adds, and four independent sums hide the FPU's multiply-add latency;
//  - the context is one pass over the stored states, four at a time (their scores share the loads of the query,
//    their weighted rows share a load and store of c), with one exp per state: the softmax shift m is raised
//    only when a score exceeds m + kTau (then what was accumulated is rescaled once), so no second pass and no
//    second exp;
//  - exp, tanh and sigmoid are short polynomial forms instead of libm's (errors below, tested against double in
//    tests/test_kernels.cpp like every set's, and measured by tools/limits).
// double runs the scalar set's code (CortexM::double_arch is scalar): no core this set is for has double lanes.
// Contracts: include/sarnn/kernels.hpp.
//
// exp(x): x = k·ln2 + r with |r| <= ln2/2 (ln2 split in two parts, so r is exact to float rounding), e^r by its
// Taylor polynomial of degree 6 (truncation below 1.2e-7 relative), times 2^k built in the exponent bits
// (below -87 and above 88 in two steps, through e^-40 or e^40, so that denormal results come out right). Measured against double over
// [-87, 88]: at most 2.4e-7 relative. x < -104 gives 0, x > 88.73 gives +inf, NaN gives NaN.
// tanh(x) = 1 - 2/(e^{2|x|} + 1) with the sign of x; ±1 once |x| >= 9.1 (where tanhf rounds to ±1 too).
// At most 2.4e-7 absolute. sigmoid(x) = 1/(1 + e^{-x}), at most 1.2e-7 absolute.
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "kernels/define_set.hpp"
#include "kernels/scalar.hpp"

namespace sarnn::kernel {
namespace {

namespace cm {

// ---- exp, tanh, sigmoid --------------------------------------------------------------------------------------
inline float from_bits(std::uint32_t u) {
    float f;
    std::memcpy(&f, &u, sizeof f);
    return f;
}
/// 2^k for k in [-126, 127]
inline float pow2(std::int32_t k) { return from_bits(static_cast<std::uint32_t>(k + 127) << 23); }

/// e^x for x in [-87, 88] (no range checks: k stays in [-126, 127], where 2^k is one normal float).
inline float exp_in_range(float x) {
    // k = round(x / ln2), by the float rounding of a sum with 1.5·2^23
    constexpr float kMagic = 12582912.0f;
    const float t = x * 1.44269504f + kMagic;
    const float kf = t - kMagic;
    std::int32_t k;
    std::memcpy(&k, &t, sizeof k);
    k -= 0x4B400000;  // the bits of kMagic: what remains is k
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
    return p * pow2(k);
}

inline float exp(float x) {
    if (x > 88.7228394f) return std::numeric_limits<float>::infinity();
    if (x < -104.0f) return 0.0f;
    if (x >= -87.0f && x <= 88.0f) return exp_in_range(x);
    // the edges (results below 2^-126 or above 2^127): e^x = e^(x - y)·e^y, both factors normal
    return x < 0.0f ? exp_in_range(x + 40.0f) * 4.24835426e-18f : exp_in_range(x - 40.0f) * 2.35385267e17f;
}

inline float tanh(float x) {
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

inline float sigmoid(float x) {
    // σ(x) = 1/(1 + e^{-x})
    return 1.0f / (1.0f + exp(-x));
}

// ---- products ------------------------------------------------------------------------------------------------
inline float dot(const float* a, const float* b, std::size_t n) {
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

// ARMv7E-M with an FPU (M4F, M7): the inner loops of dot4 and add_rows4 load four consecutive floats with one
// VLDM, which the compiler does not emit by itself: 16 multiply-adds then take 21 instructions instead of 44.
// Every other target (the M0+, hosts) runs the plain loops below them, which compute the same sums in the same
// order.
#if defined(__ARM_FP) && (__ARM_FP & 4) && defined(__thumb2__) && defined(__GNUC__)
#define SARNN_CM_VLDM 1
#else
#define SARNN_CM_VLDM 0
#endif

/// s_i += M_i·v for the four rows M0..M3 (each of n values): each v_k loaded once for four multiply-adds.
inline void dot4(const float* M0, const float* M1, const float* M2, const float* M3, const float* v, std::size_t n,
                 float s[4]) {
    float s0 = s[0], s1 = s[1], s2 = s[2], s3 = s[3];
    std::size_t k = 0;
#if SARNN_CM_VLDM
    if (std::size_t blocks = n / 4) {
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
        s0 += M0[k] * vk;
        s1 += M1[k] * vk;
        s2 += M2[k] * vk;
        s3 += M3[k] * vk;
    }
    s[0] = s0;
    s[1] = s1;
    s[2] = s2;
    s[3] = s3;
}

/// y = M·v (add = false) or y += M·v (add = true), four rows per pass.
template <bool add>
void gemv_rows(const float* M, std::size_t rows, std::size_t cols, std::size_t ld, const float* v, float* y) {
    std::size_t r = 0;
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

void gemv(const float* M, std::size_t rows, std::size_t cols, std::size_t ld, const float* v, float* y) {
    // y = M·v
    gemv_rows<false>(M, rows, cols, ld, v, y);
}

void gemv_add(const float* M, std::size_t rows, std::size_t cols, std::size_t ld, const float* v, float* y) {
    // y += M·v
    gemv_rows<true>(M, rows, cols, ld, v, y);
}

void gemv_t(const float* M, std::size_t rows, std::size_t cols, std::size_t ld, const float* v, float* y) {
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

void affine_tanh(const float* A, const float* b, std::size_t rows, const float* x, std::size_t nx, const float* r,
                 std::size_t nr, float* y) {
    const std::size_t ld = nx + nr;
    std::size_t i = 0;
    for (; i + 4 <= rows; i += 4) {
        const float* a = A + i * ld;
        float s[4] = {b[i], b[i + 1], b[i + 2], b[i + 3]};
        dot4(a, a + ld, a + 2 * ld, a + 3 * ld, x, nx, s);
        dot4(a + nx, a + ld + nx, a + 2 * ld + nx, a + 3 * ld + nx, r, nr, s);
        // y_i = tanh(A_i·[x; r] + b_i)
        for (std::size_t k = 0; k < 4; ++k) y[i + k] = tanh(s[k]);
    }
    for (; i < rows; ++i) {
        const float* a = A + i * ld;
        y[i] = tanh(dot(a, x, nx) + dot(a + nx, r, nr) + b[i]);
    }
}

void tanh_map(float* y, std::size_t n) {
    for (std::size_t k = 0; k < n; ++k) y[k] = tanh(y[k]);
}

void exp_map(float* y, std::size_t n) {
    for (std::size_t k = 0; k < n; ++k) y[k] = exp(y[k]);
}

void softmax(float* y, std::size_t n) {
    float m = y[0];
    for (std::size_t k = 1; k < n; ++k) m = y[k] > m ? y[k] : m;
    float l = 0.0f;
    // y_k = exp(y_k - max) / Σ exp(y_j - max)
    for (std::size_t k = 0; k < n; ++k) l += (y[k] = exp(y[k] - m));
    const float inv = 1.0f / l;
    for (std::size_t k = 0; k < n; ++k) y[k] *= inv;
}

/// c += Σ_t p_t S_t over four rows: one load and store of c_d per four multiply-adds.
inline void add_rows4(const float* S0, const float* S1, const float* S2, const float* S3, const float p[4],
                      std::size_t dim, float* c) {
    const float p0 = p[0], p1 = p[1], p2 = p[2], p3 = p[3];
    std::size_t d = 0;
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

void weighted_sum(const float* w, const Rows<float>& S, float* c) {
    for (std::size_t d = 0; d < S.dim; ++d) c[d] = 0.0f;
    std::size_t j = 0;
    for (; j + 4 <= S.n; j += 4) add_rows4(S.row(j), S.row(j + 1), S.row(j + 2), S.row(j + 3), w + j, S.dim, c);
    for (; j < S.n; ++j) {
        const float* s = S.row(j);
        // c += w_j S_j
        for (std::size_t d = 0; d < S.dim; ++d) c[d] += w[j] * s[d];
    }
}

void additive_scores(const Rows<float>& P, const float* q, const float* v, float* e) {
    for (std::size_t j = 0; j < P.n; ++j) {
        const float* p = P.row(j);
        float s = 0.0f;
        // e_j = v·tanh(P_j + q)
        for (std::size_t k = 0; k < P.dim; ++k) s += v[k] * tanh(p[k] + q[k]);
        e[j] = s;
    }
}

void lstm_cell(const float* z, const float* b, const float* c_prev, std::size_t H, float* c, float* h) {
    for (std::size_t d = 0; d < H; ++d) {
        const float i = sigmoid(z[d] + b[d]);
        const float f = sigmoid(z[H + d] + b[H + d]);
        const float g = tanh(z[2 * H + d] + b[2 * H + d]);
        const float o = sigmoid(z[3 * H + d] + b[3 * H + d]);
        // c = f ⊙ c_prev + i ⊙ g; h = o ⊙ tanh(c)
        c[d] = f * c_prev[d] + i * g;
        h[d] = o * tanh(c[d]);
    }
}

// ---- the context -----------------------------------------------------------------------------------------
/// The context over the rows of S, four states at a time: scores4(j, e) writes the scores of states j..j+3 to
/// e[0..4), score1(j) the score of one. alpha_j holds p_j = exp(e_j - m) as the pass goes; m is raised only when
/// a score exceeds m + kTau (p_j <= e^16 = 8.9e6, so Σ p_j stays finite for any n a memory holds), and then
/// c, l and the alpha so far are rescaled by exp(m_old - m_new): one exp per state, one pass.
template <class Scores4, class Score1>
void attend_scored(const Rows<float>& S, Scores4 scores4, Score1 score1, float* alpha, float* c) {
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
    std::size_t j = 0;
    for (; j + 4 <= S.n; j += 4) {
        float e[4];
        scores4(j, e);
        weigh(j, e, 4);
        // c += Σ_t p_t S_t
        add_rows4(S.row(j), S.row(j + 1), S.row(j + 2), S.row(j + 3), e, dim, c);
    }
    for (; j < S.n; ++j) {
        float e[1] = {score1(j)};
        weigh(j, e, 1);
        const float* s = S.row(j);
        for (std::size_t d = 0; d < dim; ++d) c[d] += e[0] * s[d];
    }
    // c = Σ_j p_j S_j / l; alpha_j = p_j / l
    const float inv = 1.0f / l;
    for (std::size_t d = 0; d < dim; ++d) c[d] *= inv;
    for (std::size_t k = 0; k < S.n; ++k) alpha[k] *= inv;
}

void attend_dot(const Rows<float>& S, const float* q, float scale, float* alpha, float* c) {
    attend_scored(
        S,
        [&](std::size_t j, float* e) {
            float s[4] = {0.0f, 0.0f, 0.0f, 0.0f};
            // e_j = scale·(S_j·q), four states per pass over q
            dot4(S.row(j), S.row(j + 1), S.row(j + 2), S.row(j + 3), q, S.dim, s);
            for (std::size_t t = 0; t < 4; ++t) e[t] = scale * s[t];
        },
        [&](std::size_t j) { return scale * dot(S.row(j), q, S.dim); }, alpha, c);
}

void attend_keys(const Rows<float>& P, const float* u, const Rows<float>& S, float* alpha, float* c) {
    attend_scored(
        S,
        [&](std::size_t j, float* e) {
            float s[4] = {0.0f, 0.0f, 0.0f, 0.0f};
            // e_j = P_j·u, four keys per pass over u
            dot4(P.row(j), P.row(j + 1), P.row(j + 2), P.row(j + 3), u, P.dim, s);
            for (std::size_t t = 0; t < 4; ++t) e[t] = s[t];
        },
        [&](std::size_t j) { return dot(P.row(j), u, P.dim); }, alpha, c);
}

/// The operations as one type, for SARNN_DEFINE_SET.
struct Ops {
#define SARNN_CM_OP_(T_, R, name, impl, params, args) \
    static R impl params { return cm::impl args; }
    SARNN_MODEL_OPS(SARNN_CM_OP_, float)
    SARNN_SET_OPS(SARNN_CM_OP_, float)
#undef SARNN_CM_OP_
};

}  // namespace cm

template <class T>
using Impl = std::conditional_t<std::is_same_v<T, float>, cm::Ops, scalar::Plain<T>>;
}  // namespace
SARNN_DEFINE_SET(CortexM)
bool CortexM::runs_here() noexcept { return true; }  // plain C++: every CPU
}  // namespace sarnn::kernel
