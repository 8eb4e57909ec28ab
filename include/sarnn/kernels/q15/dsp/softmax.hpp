// sarnn/kernels/q15/dsp/softmax.hpp: the DSP set's q15 loops (Cortex-M4, M7; the set: dsp/loops.hpp), the softmax's
// passes: max_raw (the max), exps (the first: exp_q16 written out) and normalize (the last).
#ifndef SARNN_KERNELS_Q15_DSP_SOFTMAX_HPP
#define SARNN_KERNELS_Q15_DSP_SOFTMAX_HPP

#include <cstddef>
#include <cstdint>

#include "sarnn/kernels/q15/dsp/common.hpp"

namespace sarnn::kernel::q15_dsp {

/// max_j e_j: two at a time where e is word aligned, SSUB16 setting each half's GE flags and SEL keeping the larger
/// half of each pair, four per iteration (LDRD).
inline std::int32_t max_raw(const q15* e, std::size_t n) noexcept {
    std::int32_t m = -32768;
    std::size_t j = 0;
    if ((reinterpret_cast<std::uintptr_t>(e) & 3u) == 0 && n >= 4) {
        const std::size_t n4 = n & ~std::size_t{3};
        std::int32_t m2 = static_cast<std::int32_t>(0x80008000u);  // (-32768, -32768)
        const q15* p = e;
        const q15* const end = e + n4;
        std::int32_t x, y, d;
        // clang-format off
        __asm__ volatile("1:\n\t"
                         "ldrd   %[x], %[y], [%[p]], #8\n\t"
                         "ssub16 %[d], %[x], %[m2]\n\t"
                         "sel    %[m2], %[x], %[m2]\n\t"
                         "ssub16 %[d], %[y], %[m2]\n\t"
                         "sel    %[m2], %[y], %[m2]\n\t"
                         "cmp    %[p], %[end]\n\t"
                         "bne    1b"
                         : [m2] "+r"(m2), [p] "+r"(p), [x] "=&r"(x), [y] "=&r"(y), [d] "=&r"(d)
                         : [end] "r"(end), "m"(*reinterpret_cast<const q15(*)[]>(e))
                         : "cc");
        // clang-format on
        const auto lo = static_cast<std::int16_t>(m2 & 0xFFFF), hi = static_cast<std::int16_t>(m2 >> 16);
        m = lo > hi ? lo : hi;
        j = n4;
    }
    for (; j < n; ++j) m = e[j].raw > m ? e[j].raw : m;
    return m;
}

/// softmax's first pass (q15/seam.hpp; m >= every e_j, and d·to_q16 > -12·2^16 wherever d = e_j - m > zero_below, as
/// softmax's zero_below gives), exp_q16_inline (kernels/q15/exp.hpp) written out for the states above the cut: 4
/// instructions a state below it (the store of p_j - 32768 = -32768, the next state's load and test), 21 above it. The
/// loop tests its end only after a state above the cut: it ends at the last one (the states after it are set here
/// first). Above the cut, with x = (e_j - m)·2^(s+2) (to_q16 = 2^s; one MLA: e_j·2^(s+2) - m·2^(s+2) modulo 2^32,
/// exact as |x| < 3·2^20) and y = -(e_j - m)·2^s the exponential's argument:
///   t    = (y·94548 + 2^15) >> 16 = (x·(-94548·2^14) + 2^31) >> 32: one SMMULR (exp_q16's t, the same integer)
///   k, i, frac = t >> 16, (t >> 8) & 255, t & 255: UBFX i; UXTB16 of t ror 16 = k + frac·2^16 (k a shift amount
///        as it is, frac the top half for SMULTB)
///   v    = T[i] + floor(((T[i+1] - T[i])·frac + 128) / 256) = T[i] + ((T[i+1] - T[i])·frac·2^24 + 2^31) >> 32:
///        LDRD of the table's pair, SMULTB, SMMLAR (interpolate's integer)
///   p_j  = (v + 2^(k-1)) >> k (v where k = 0) = (v·2^8·(2^24 >> k) + 2^31) >> 32: one SMMULR (v·2^(32-k) / 2^32
///        rounded half up), then USAT #16, the min with 65535 (reached by the max alone, p_j = 65536)
inline std::uint32_t exps(q15* alpha, std::size_t n, std::int32_t m, std::int32_t to_q16,
                          std::int32_t zero_below) noexcept {
    const std::int32_t thr = m + zero_below;  // above the cut: e_j > thr
    // the states after the last one above the cut: p_j = 0
    while (n > 0 && alpha[n - 1].raw <= thr) alpha[--n].raw = -32768;
    if (n == 0) return 0;
    const auto s4 = static_cast<std::uint32_t>(to_q16) << 2;
    const std::uint32_t nm = (0u - static_cast<std::uint32_t>(m)) * s4;  // -m·2^(s+2) modulo 2^32
    const std::int32_t nlog2e = -static_cast<std::int32_t>(fixed::detail::kLog2eQ16 << 14);
    const std::uint32_t* const tab = fixed::detail::kExp2Table;
    std::uint32_t l = 0;
    q15* p = alpha;
    q15* const end = alpha + n;
    std::int32_t t, a, b;
    // clang-format off
    __asm__ volatile("b      2f\n\t"
                     "1:\n\t"
                     "strh   %[low], [%[p], #-2]\n\t"
                     "2:\n\t"
                     "ldrsh  %[t], [%[p]], #2\n\t"
                     "cmp    %[t], %[thr]\n\t"
                     "ble    1b\n\t"
                     "mla    %[t], %[t], %[s4], %[nm]\n\t"
                     "smmulr %[t], %[t], %[nlog2e]\n\t"
                     "ubfx   %[a], %[t], #8, #8\n\t"
                     "add    %[a], %[tab], %[a], lsl #2\n\t"
                     "ldrd   %[a], %[b], [%[a]]\n\t"
                     "sub    %[b], %[b], %[a]\n\t"
                     "uxtb16 %[t], %[t], ror #16\n\t"
                     "smultb %[b], %[t], %[b]\n\t"
                     "smmlar %[a], %[b], %[c24], %[a]\n\t"
                     "lsl    %[a], %[a], #8\n\t"
                     "lsr    %[b], %[c24], %[t]\n\t"
                     "smmulr %[a], %[a], %[b]\n\t"
                     "usat   %[a], #16, %[a]\n\t"
                     "add    %[l], %[l], %[a]\n\t"
                     "sub    %[a], %[a], #32768\n\t"
                     "strh   %[a], [%[p], #-2]\n\t"
                     "cmp    %[p], %[end]\n\t"
                     "bne    2b"
                     : [p] "+&r"(p), [l] "+&r"(l), [t] "=&r"(t), [a] "=&r"(a), [b] "=&r"(b)
                     : [end] "r"(end), [thr] "r"(thr), [s4] "r"(s4), [nm] "r"(nm), [nlog2e] "r"(nlog2e),
                       [tab] "r"(tab), [c24] "r"(1 << 24), [low] "r"(0x8000)
                     : "cc", "memory");
    // clang-format on
    return l;
}

/// softmax's last pass (q15/seam.hpp), four values (two words, LDRD) per iteration where alpha is word aligned and
/// down >= 17 (10 instructions): with R = rec·2^(32 - down) < 2^31, SMLAWB and SMLAWT take each int16 alpha_j as it
/// is to u = ((R·alpha_j) >> 16) + R / 2 = floor(R·p_j / 2^16) (p_j = alpha_j + 32768, R·32768 / 2^16 = R / 2 an
/// integer) = floor(p_j·rec / 2^(down - 16)) < 2^31, so that u >> 16 = (p_j·rec) >> down is below 2^15 (the min with
/// 32767 never acts); PKHTB packs the two u >> 16 into a word. down = 16 (l = 65535: the max alone is above the cut)
/// and the values before and after, in C.
inline void normalize(q15* alpha, std::size_t n, std::uint32_t rec, int down) noexcept {
    const auto one = [rec, down](q15& a) {
        const auto p = static_cast<std::uint32_t>(a.raw + 32768);
        const std::uint32_t av = (p * rec) >> down;
        a.raw = static_cast<std::int16_t>(av > 32767u ? 32767u : av);
    };
    std::size_t j = 0;
    if (down > 16) {
        if ((reinterpret_cast<std::uintptr_t>(alpha) & 3u) != 0 && n > 0) one(alpha[j++]);
        const std::size_t n4 = (n - j) & ~std::size_t{3};
        if (n4 > 0) {
            const auto r = static_cast<std::int32_t>(rec << (32 - down));
            q15* p = alpha + j;
            q15* const end = p + n4;
            std::int32_t x, y, a, b;
            // clang-format off
            __asm__ volatile("1:\n\t"
                             "ldrd   %[x], %[y], [%[p]]\n\t"
                             "smlawb %[a], %[r], %[x], %[half]\n\t"
                             "smlawt %[x], %[r], %[x], %[half]\n\t"
                             "smlawb %[b], %[r], %[y], %[half]\n\t"
                             "smlawt %[y], %[r], %[y], %[half]\n\t"
                             "pkhtb  %[x], %[x], %[a], asr #16\n\t"
                             "pkhtb  %[y], %[y], %[b], asr #16\n\t"
                             "strd   %[x], %[y], [%[p]], #8\n\t"
                             "cmp    %[p], %[end]\n\t"
                             "bne    1b"
                             : [p] "+r"(p), [x] "=&r"(x), [y] "=&r"(y), [a] "=&r"(a), [b] "=&r"(b)
                             : [r] "r"(r), [half] "r"(r >> 1), [end] "r"(end)
                             : "cc", "memory");
            // clang-format on
            j += n4;
        }
    }
    for (; j < n; ++j) one(alpha[j]);
}

}  // namespace sarnn::kernel::q15_dsp

#endif
