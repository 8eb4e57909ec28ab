// sarnn/kernels/q15/dsp/query.hpp: the DSP set's q15 loops (Cortex-M4, M7; the set: dsp/loops.hpp), the query's sums
// (prepare_query's abs_sum and round_query).
#ifndef SARNN_KERNELS_Q15_DSP_QUERY_HPP
#define SARNN_KERNELS_Q15_DSP_QUERY_HPP

#include <cstddef>
#include <cstdint>

#include "sarnn/kernels/q15/dsp/common.hpp"

namespace sarnn::kernel::q15_dsp {

// |x| + |y| of one word's two int16 (x, y), added to sum: SSUB16 from 0 sets each half's GE flag where the value is
// <= 0, SEL makes the signs (-1 there, else 1; from m1 = (-1, -1), p1 = (1, 1)), SMLAD the sum of the products (32768
// for -32768, as the product is 32 bits).
// clang-format off
#define SARNN_DSP_ABS2(w)                                 \
    "ssub16 %[g], %[zero], %[" w "]\n\t"                  \
    "sel    %[g], %[m1], %[p1]\n\t"                       \
    "smlad  %[sum], %[" w "], %[g], %[sum]\n\t"
#define SARNN_DSP_ABS2_OPERANDS \
    [zero] "r"(0), [m1] "r"(-1), [p1] "r"(0x00010001)
// clang-format on

/// Σ_k |q_k| (prepare_query's first sum; q15/seam.hpp), four values (LDRD) per iteration (9 instructions) from the
/// first word aligned one, the others in C.
inline std::uint32_t abs_sum(const q15* q, std::size_t dim) noexcept {
    const auto one = [](const q15 v) { return static_cast<std::uint32_t>(v.raw < 0 ? -v.raw : v.raw); };
    std::uint32_t sum = 0;
    const q15* p = q;
    const q15* const end = q + dim;
    if ((reinterpret_cast<std::uintptr_t>(p) & 3u) != 0 && p != end) sum = one(*p++);
    const q15* const end4 = p + ((end - p) & ~std::ptrdiff_t{3});
    if (p != end4) {
        std::int32_t x, y, g;
        // clang-format off
        __asm__ volatile("1:\n\t"
                         "ldrd   %[x], %[y], [%[p]], #8\n\t" SARNN_DSP_ABS2("x") SARNN_DSP_ABS2("y")
                         "cmp    %[p], %[end]\n\t"
                         "bne    1b"
                         : [sum] "+&r"(sum), [p] "+r"(p), [x] "=&r"(x), [y] "=&r"(y), [g] "=&r"(g)
                         : [end] "r"(end4), SARNN_DSP_ABS2_OPERANDS, "m"(*reinterpret_cast<const q15(*)[]>(q))
                         : "cc");
        // clang-format on
    }
    for (; p != end; ++p) sum += one(*p);
    return sum;
}

/// q'_k = (q_k + 2^(s-1)) >> s into qp and Σ_k |q'_k| (prepare_query's rounding; q15/seam.hpp), four values (LDRD,
/// STRD) per iteration (18 instructions) where q and qp are alike aligned (from the first word aligned one; the others
/// in C): for a word w = (lo, hi), SMMULR(w, 2^(16-s)) = floor((hi·2^(32-s) + lo_u·2^(16-s) + 2^31) / 2^32) =
/// floor((hi + 2^(s-1) + lo_u / 2^16) / 2^s) = hi' (lo_u < 2^16: the fraction never carries), and likewise of
/// w << 16 the lo'; PKHBT packs them.
inline std::uint32_t round_query(const q15* q, q15* qp, std::size_t dim, int s) noexcept {
    const std::int32_t half = std::int32_t{1} << (s - 1);
    const auto one = [half, s](const q15* v, q15* out) {
        const std::int32_t r = (v->raw + half) >> s;
        out->raw = static_cast<std::int16_t>(r);
        return static_cast<std::uint32_t>(r < 0 ? -r : r);
    };
    std::uint32_t sum = 0;
    const q15* p = q;
    q15* o = qp;
    const q15* const end = q + dim;
    if (((reinterpret_cast<std::uintptr_t>(p) ^ reinterpret_cast<std::uintptr_t>(o)) & 3u) == 0) {
        if ((reinterpret_cast<std::uintptr_t>(p) & 3u) != 0 && p != end) sum = one(p++, o++);
        const q15* const end4 = p + ((end - p) & ~std::ptrdiff_t{3});
        if (p != end4) {
            std::int32_t x, y, g;
            // clang-format off
            __asm__ volatile("1:\n\t"
                             "ldrd   %[x], %[y], [%[p]], #8\n\t"
                             "lsl    %[g], %[x], #16\n\t"
                             "smmulr %[g], %[g], %[f]\n\t"
                             "smmulr %[x], %[x], %[f]\n\t"
                             "pkhbt  %[x], %[g], %[x], lsl #16\n\t" SARNN_DSP_ABS2("x")
                             "lsl    %[g], %[y], #16\n\t"
                             "smmulr %[g], %[g], %[f]\n\t"
                             "smmulr %[y], %[y], %[f]\n\t"
                             "pkhbt  %[y], %[g], %[y], lsl #16\n\t" SARNN_DSP_ABS2("y")
                             "strd   %[x], %[y], [%[o]], #8\n\t"
                             "cmp    %[p], %[end]\n\t"
                             "bne    1b"
                             : [sum] "+&r"(sum), [p] "+r"(p), [o] "+r"(o), [x] "=&r"(x), [y] "=&r"(y), [g] "=&r"(g)
                             : [end] "r"(end4), [f] "r"(std::int32_t{1} << (16 - s)), SARNN_DSP_ABS2_OPERANDS
                             : "cc", "memory");
            // clang-format on
        }
    }
    for (; p != end; ++p, ++o) sum += one(p, o);
    return sum;
}

#undef SARNN_DSP_ABS2_OPERANDS
#undef SARNN_DSP_ABS2

}  // namespace sarnn::kernel::q15_dsp

#endif
