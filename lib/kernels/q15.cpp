// lib/kernels/q15.cpp: kernel::Q15, the kernels of the q15 models (contracts: include/sarnn/kernels_q15.hpp). Plain
// C++, integers only; every line has its twin in python/sarnn/fixed.py (affine_tanh_q15, attend_dot_q15), which
// must compute the same integers. As in lib/fixed.cpp, right shifts are taken of non-negative numbers only, and
// the bound of each intermediate is given beside it.
#include <cstddef>
#include <cstdint>

#include "sarnn/fixed.hpp"
#include "sarnn/kernels_q15.hpp"

namespace sarnn::kernel {
namespace {

constexpr std::int32_t kMax30 = std::int32_t{1} << 30;

/// floor((v + 2^(s - 1)) / 2^s) for 1 <= s <= 62: v rounded half up to a multiple of 2^s, then divided.
/// |v| < 2^62, so v + 2^(s - 1) and its negation fit.
inline std::int64_t round_shift(std::int64_t v, int s) noexcept {
    const std::int64_t p = v + (std::int64_t{1} << (s - 1));
    return p >= 0 ? p >> s : -((-p + ((std::int64_t{1} << s) - 1)) >> s);
}

inline std::int32_t clamp32(std::int64_t v, std::int32_t lo, std::int32_t hi) noexcept {
    return static_cast<std::int32_t>(v < lo ? lo : (v > hi ? hi : v));
}

/// The two segments of a ring of rows (physical rows first.. then 0..), as in the float kernels.
struct Segments {
    const q15* base[2];
    std::size_t n[2];
};
inline Segments segments(const Rows<q15>& S) noexcept {
    const std::size_t n0 = S.cap - S.first < S.n ? S.cap - S.first : S.n;
    return {{S.base + S.first * S.stride, S.base}, {n0, S.n - n0}};
}

}  // namespace

void Q15::affine_tanh(const QAffine& a, std::size_t rows, const q15* x, std::size_t nx, const q15* r, std::size_t nr,
                      q15* y) noexcept {
    const std::size_t ld = nx + nr;
    for (std::size_t row = 0; row < rows; ++row) {
        const std::int8_t* w = a.A + row * ld;
        // s_x = A_x·x, s_r = A_r·r: |terms| <= 128·32768 = 2^22, nx <= 511 and nr <= 256 terms (params.hpp)
        std::int32_t s_x = 0, s_r = 0;
        for (std::size_t k = 0; k < nx; ++k) s_x += static_cast<std::int32_t>(w[k]) * x[k].raw;
        for (std::size_t k = 0; k < nr; ++k) s_r += static_cast<std::int32_t>(w[nx + k]) * r[k].raw;
        // z = s_x in s_r's units (clamped to +-2^30) + s_r: |s_r| <= 2^22·256 = 2^30, so |z| <= 2^31, in 64 bits
        const std::int32_t xq = clamp32(fixed::requantize(s_x, a.x_m, a.x_shift), -kMax30, kMax30);
        const std::int64_t z = static_cast<std::int64_t>(xq) + s_r;
        // pre = requantize(z, m_r, shift_r) + b_r, in Q3.12 (saturated); z is clamped to int32 first (beyond it the
        // pre-activation saturates anyway: |m_r·2^-(31 + shift_r)| = a_r / 8 and |a_r| >= 2^-16 in practice)
        const std::int32_t t = fixed::requantize(clamp32(z, INT32_MIN, INT32_MAX), a.m[row], a.shift[row]);
        const std::int32_t pre = clamp32(static_cast<std::int64_t>(t) + a.b[row], -32768, 32767);
        // h = tanh(pre)
        y[row] = q15{fixed::tanh_q15(static_cast<std::int16_t>(pre))};
    }
}

void Q15::attend_dot(const Rows<q15>& S, const q15* q, q15* alpha, q15* c) noexcept {
    const std::size_t n = S.n, dim = S.dim;
    const Segments seg = segments(S);
    if (n == 1) {
        // alpha_1 = 1 (as near as q15 gets), c_1 = h_1 exactly
        alpha[0] = q15{32767};
        for (std::size_t k = 0; k < dim; ++k) c[k] = seg.base[0][k];
        return;
    }
    // The scores' format Q(f): |e_j| <= Σ|q_k|·32767/32768 (stored states are in (-1, 1)), so f is the largest
    // f <= 15 with Σ|q_k|·2^f <= 32767·32768: e_j then fits int16. Σ|q_k| <= 32768·256 = 2^23, so f >= 6.
    std::uint32_t qsum = 0;
    for (std::size_t k = 0; k < dim; ++k) qsum += static_cast<std::uint32_t>(q[k].raw < 0 ? -q[k].raw : q[k].raw);
    int f = 15;
    while (f > 0 && qsum > (std::uint32_t{1073709056u} >> f)) --f;  // 32767·32768
    // e_j = S_j·q / 2^(30 - f), rounded half up: the exact dot (|.| < 2^30·256 = 2^38, int64), into alpha for now
    std::int32_t m = -32768;
    std::size_t j = 0;
    for (int s = 0; s < 2; ++s) {
        const q15* row = seg.base[s];
        for (std::size_t i = 0; i < seg.n[s]; ++i, ++j, row += S.stride) {
            std::int64_t d = 0;
            for (std::size_t k = 0; k < dim; ++k) d += static_cast<std::int64_t>(static_cast<std::int32_t>(row[k].raw) * q[k].raw);
            const auto e = static_cast<std::int32_t>(round_shift(d, 30 - f));
            alpha[j].raw = static_cast<std::int16_t>(e);
            m = e > m ? e : m;
        }
    }
    // p_j = e^(e_j - m) in Q16 (exp_q16 of the difference in Q16: |e_j - m| <= 65535, times 2^(16 - f) <= 2^10,
    // so < 2^26), at most 65535 so that p_j - 32768 fits the int16 of alpha until alpha replaces it; l = Σ p_j
    // (< 65536·n, n < 65536)
    const std::int32_t to_q16 = std::int32_t{1} << (16 - f);
    std::uint32_t l = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const std::int32_t p0 = fixed::exp_q16((alpha[i].raw - m) * to_q16);
        const std::int32_t p = p0 > 65535 ? 65535 : p0;
        alpha[i].raw = static_cast<std::int16_t>(p - 32768);
        l += static_cast<std::uint32_t>(p);
    }
    // 1 / l: l·2^sh in [2^30, 2^31) (l >= 65535, the max's own term, so sh <= 15); den = its top 16 bits, in
    // [2^15, 2^16); rec = 2^31 / den in (2^15, 2^16], at most 65535
    int sh = 0;
    while ((l << sh) < (std::uint32_t{1} << 30)) ++sh;
    const std::uint32_t den = (l << sh) >> 15;
    const std::uint32_t rec0 = (std::uint32_t{1} << 31) / den;
    const std::uint32_t rec = rec0 > 65535u ? 65535u : rec0;
    // alpha_j = p_j / l in Q15 = p_j·rec / 2^(31 - sh), floored (p_j·rec < 2^32), at most 32767
    for (std::size_t i = 0; i < n; ++i) {
        const auto p = static_cast<std::uint32_t>(alpha[i].raw + 32768);
        const std::uint32_t a = (p * rec) >> (31 - sh);
        alpha[i].raw = static_cast<std::int16_t>(a > 32767u ? 32767u : a);
    }
    // c_k = Σ_j alpha_j S_j,k / 32768, rounded half up: |Σ| <= 32767·Σ alpha_j < 2^31 (Σ alpha_j <= 32768 + 1)
    for (std::size_t k = 0; k < dim; ++k) {
        std::int32_t acc = 0;
        std::size_t jj = 0;
        for (int s = 0; s < 2; ++s) {
            const q15* v = seg.base[s] + k;
            for (std::size_t i = 0; i < seg.n[s]; ++i, ++jj, v += S.stride) acc += static_cast<std::int32_t>(alpha[jj].raw) * v->raw;
        }
        const auto ck = static_cast<std::int32_t>(round_shift(acc, 15));
        c[k] = q15{static_cast<std::int16_t>(ck > 32767 ? 32767 : (ck < -32767 ? -32767 : ck))};
    }
}

}  // namespace sarnn::kernel
