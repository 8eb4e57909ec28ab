// lib/kernels/q15_mve.hpp: the q15 kernels' inner loops (the seam: q15_seam.hpp) for cores with Helium (MVE integer:
// Cortex-M55, M85). Eight int16 per vector:
//   dot_rows, dot_states  VLDRB.S16 widens eight int8 weights to int16 in the load; VMLADAVA.S16 multiplies eight
//                         pairs and adds all eight products to a 32-bit sum in one instruction; the last vector is
//                         loaded under a tail predicate (VCTP.16: the lanes past n read as zero, so they add 0).
//   columns               VLDRH.S32 widens four int16 of a state's row to int32 lanes; VMLA.S32 adds them times
//                         alpha_j (a scalar) to four column sums; sixteen columns per pass.
//   scores, max_raw, exps, normalize, abs_sum, round_query, weighted_sum, tanh_rows, additive_sum, lstm_cell
//                         the rest of a step (q15_seam.hpp's list) vectorised: tables read by gather loads (VLDRH,
//                         VLDRW with a vector of offsets), the weighted sum's columns gathered eight states at a
//                         time, the roundings as VRSHL/VRSHR/VQRDMULH where those compute the same integers.
// Each computes exactly what q15_plain.hpp computes: the same integer products, summed modulo 2^32 in another order,
// which is the same int32 sum since q15.cpp's bounds keep every sum (and so every partial sum's true value) in
// int32: VMLADAVA and VMLA wrap like int32 addition and never saturate.
#ifndef SARNN_LIB_KERNELS_Q15_MVE_HPP
#define SARNN_LIB_KERNELS_Q15_MVE_HPP

#include <arm_mve.h>

#include <cstddef>
#include <cstdint>

#include "kernels/exp.hpp"
#include "kernels/q15_plain.hpp"
#include "kernels/q15_seam.hpp"
#include "kernels/tanh.hpp"
#include "sarnn/fixed.hpp"

namespace sarnn::kernel::q15_mve {

constexpr std::size_t kRows = 4, kStates = 4, kColumns = 16;

namespace mve {

/// The raw int16 of q15 values (a struct of one int16: the same bytes).
__attribute__((always_inline)) inline const std::int16_t* raw(const q15* p) noexcept {
    return reinterpret_cast<const std::int16_t*>(p);  // NOLINT(cppcoreguidelines-pro-type-reinterpret-cast)
}
__attribute__((always_inline)) inline std::int16_t* raw(q15* p) noexcept {
    return reinterpret_cast<std::int16_t*>(p);  // NOLINT(cppcoreguidelines-pro-type-reinterpret-cast)
}

/// A compiler barrier over the memory at p: GCC 12's MVE load intrinsics are not seen to read memory, so stores
/// just before them (q15.cpp writes q' into c, then scores the states against it) must be made to happen first.
__attribute__((always_inline)) inline void touch(const void* p) noexcept { __asm__ volatile("" : : "r"(p) : "memory"); }

}  // namespace mve

// The loops are assembly: GCC 12 rebuilds the tail predicate and reloads addresses around every predicated load
// of the same loops written with intrinsics (about 40 instructions where these take 10). Tail-predicated
// low-overhead loops (WLSTP.16/LETP: the last pass loads and adds only the lanes below n, the others read as zero
// and add nothing); VMLADAVA's sum must be an even register (its encoding), hence the fixed registers, and the
// widening loads take a low register (r0-r7) as their base ("l").

/// acc[g] += Σ_{k < n} w[g·ld + k]·v[k] for g < G (G = 4 and 1 here, others in plain C++).
template <std::size_t G>
inline void dot_rows(const std::int8_t* w, std::size_t ld, const q15* v, std::size_t n, std::int32_t* acc) noexcept {
    static_assert(G == 1 || G == 2 || G == 4, "dot_rows: groups of 1, 2 or kRows");
    if constexpr (G == 2) {
        q15_plain::dot_rows<G>(w, ld, v, n, acc);
        return;
    }
    mve::touch(v);
    const std::int16_t* x = mve::raw(v);
    register std::int32_t a0 __asm__("r4") = acc[0];
    if constexpr (G == 1) {
        __asm__ volatile(
            "wlstp.16 lr, %[n], 2f\n"
            "1:\n\t"
            "vldrh.u16 q0, [%[x]], #16\n\t"
            "vldrb.s16 q1, [%[w0]], #8\n\t"
            "vmladava.s16 %[a0], q1, q0\n\t"
            "letp lr, 1b\n"
            "2:\n\t"
            : [a0] "+r"(a0), [x] "+r"(x), [w0] "+l"(w)
            : [n] "r"(n)
            : "d0", "d1", "d2", "d3", "lr", "memory");
        acc[0] = a0;
    } else {
        register std::int32_t a1 __asm__("r6") = acc[1];
        register std::int32_t a2 __asm__("r8") = acc[2];
        register std::int32_t a3 __asm__("r10") = acc[3];
        const std::int8_t* w1 = w + ld;
        const std::int8_t* w2 = w1 + ld;
        const std::int8_t* w3 = w2 + ld;
        // four rows' sums += eight weights (widened in the load) times eight values of v, per pass
        __asm__ volatile(
            "wlstp.16 lr, %[n], 2f\n"
            "1:\n\t"
            "vldrh.u16 q0, [%[x]], #16\n\t"
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
            : [a0] "+r"(a0), [a1] "+r"(a1), [a2] "+r"(a2), [a3] "+r"(a3), [x] "+r"(x), [w0] "+l"(w), [w1] "+l"(w1),
              [w2] "+l"(w2), [w3] "+l"(w3)
            : [n] "r"(n)
            : "d0", "d1", "d2", "d3", "d4", "d5", "d6", "d7", "lr", "memory");
        acc[0] = a0;
        acc[1] = a1;
        acc[2] = a2;
        acc[3] = a3;
    }
}

// One pass of four states' scores: eight values of q (loaded into q0 by `load`, post-incremented) times eight of
// each state (s0..s3, post-incremented), each product sum added to its a0..a3 by VMLADAVA.
#define SARNN_MVE_DOT4(load)              \
    load "vldrh.u16 q1, [%[s0]], #16\n\t" \
         "vmladava.s16 %[a0], q1, q0\n\t" \
         "vldrh.u16 q2, [%[s1]], #16\n\t" \
         "vmladava.s16 %[a1], q2, q0\n\t" \
         "vldrh.u16 q3, [%[s2]], #16\n\t" \
         "vmladava.s16 %[a2], q3, q0\n\t" \
         "vldrh.u16 q1, [%[s3]], #16\n\t" \
         "vmladava.s16 %[a3], q1, q0\n\t"

/// d[g] = Σ_{k < 2·npairs} s[g·stride + k]·q[k] for g < G (G = 4 and 1).
template <std::size_t G>
inline void dot_states(const q15* s, std::size_t stride, const q15* q, std::size_t npairs, std::int32_t* d) noexcept {
    static_assert(G == 1 || G == 4, "dot_states: groups of 1 or kStates");
    mve::touch(q);
    mve::touch(s);
    const std::int16_t* qr = mve::raw(q);
    const std::int16_t* s0 = mve::raw(s);
    const std::size_t n = 2 * npairs;
    register std::int32_t a0 __asm__("r4") = 0;
    if constexpr (G == 1) {
        __asm__ volatile(
            "wlstp.16 lr, %[n], 2f\n"
            "1:\n\t"
            "vldrh.u16 q0, [%[q]], #16\n\t"
            "vldrh.u16 q1, [%[s0]], #16\n\t"
            "vmladava.s16 %[a0], q1, q0\n\t"
            "letp lr, 1b\n"
            "2:\n\t"
            : [a0] "+r"(a0), [q] "+r"(qr), [s0] "+r"(s0)
            : [n] "r"(n)
            : "d0", "d1", "d2", "d3", "lr", "memory");
        d[0] = a0;
    } else {
        register std::int32_t a1 __asm__("r6") = 0;
        register std::int32_t a2 __asm__("r8") = 0;
        register std::int32_t a3 __asm__("r10") = 0;
        const std::int16_t* s1 = s0 + stride;
        const std::int16_t* s2 = s1 + stride;
        const std::int16_t* s3 = s2 + stride;
        // four states' scores += eight of their values times eight of q, per pass
        __asm__ volatile(
            "wlstp.16 lr, %[n], 2f\n"
            "1:\n\t"
            SARNN_MVE_DOT4("vldrh.u16 q0, [%[q]], #16\n\t")
            "letp lr, 1b\n"
            "2:\n\t"
            : [a0] "+r"(a0), [a1] "+r"(a1), [a2] "+r"(a2), [a3] "+r"(a3), [q] "+r"(qr), [s0] "+r"(s0), [s1] "+r"(s1),
              [s2] "+r"(s2), [s3] "+r"(s3)
            : [n] "r"(n)
            : "d0", "d1", "d2", "d3", "d4", "d5", "d6", "d7", "lr", "memory");
        d[0] = a0;
        d[1] = a1;
        d[2] = a2;
        d[3] = a3;
    }
}

/// acc[g] += Σ_{j < count} a[j]·v[j·stride + g] for g < G (G = 16 here, 2 in plain C++).
template <std::size_t G>
inline void columns(const q15* a, const q15* v, std::size_t stride, std::size_t count, std::int32_t* acc) noexcept {
    static_assert(G == 2 || G == 16, "columns: groups of 2 or kColumns");
    if constexpr (G == 2) {
        q15_plain::columns<G>(a, v, stride, count, acc);
    } else {
        mve::touch(a);
        mve::touch(v);
        mve::touch(acc);
        const std::int16_t* ap = mve::raw(a);
        const std::int16_t* row = mve::raw(v);
        const std::size_t step = stride * sizeof(std::int16_t);
        std::int32_t aj;
        // sixteen columns' sums in q0-q3; per state: += alpha_j times its sixteen values (widened in the loads)
        __asm__ volatile(
            "vldrw.u32 q0, [%[acc]]\n\t"
            "vldrw.u32 q1, [%[acc], #16]\n\t"
            "vldrw.u32 q2, [%[acc], #32]\n\t"
            "vldrw.u32 q3, [%[acc], #48]\n\t"
            "wls lr, %[count], 2f\n"
            "1:\n\t"
            "ldrsh %[aj], [%[ap]], #2\n\t"
            "vldrh.s32 q4, [%[row]]\n\t"
            "vmla.s32 q0, q4, %[aj]\n\t"
            "vldrh.s32 q5, [%[row], #8]\n\t"
            "vmla.s32 q1, q5, %[aj]\n\t"
            "vldrh.s32 q6, [%[row], #16]\n\t"
            "vmla.s32 q2, q6, %[aj]\n\t"
            "vldrh.s32 q7, [%[row], #24]\n\t"
            "vmla.s32 q3, q7, %[aj]\n\t"
            "add %[row], %[row], %[step]\n\t"
            "le lr, 1b\n"
            "2:\n\t"
            "vstrw.32 q0, [%[acc]]\n\t"
            "vstrw.32 q1, [%[acc], #16]\n\t"
            "vstrw.32 q2, [%[acc], #32]\n\t"
            "vstrw.32 q3, [%[acc], #48]\n\t"
            : [ap] "+r"(ap), [row] "+l"(row), [aj] "=&r"(aj)
            : [acc] "r"(acc), [count] "r"(count), [step] "r"(step)
            : "d0", "d1", "d2", "d3", "d4", "d5", "d6", "d7", "d8", "d9", "d10", "d11", "d12", "d13", "d14", "d15",
              "lr", "memory");
    }
}

/// The rounded scores (q15_seam.hpp), four states a pass, the passes themselves in one assembly loop: dot_states<4>'s
/// loop, then e_j = (d_j + 2^(t-1)) >> t for the four at once (VRSHL by -t: a right shift rounded half up, exact),
/// stored as int16 (VSTRH.32 keeps the low halves, as the cast). What a pass reads that fourteen registers would not
/// hold is in memory. The last count % 4 states: dot_states<1>.
/// Where q' has 16 or 32 values (the models' Hidden 16 and 32), q' stays in two or four vector registers and each
/// state's row is read by one pointer walking from row to row: no inner loop (scores_in_registers).
template <int C>
inline void scores_in_registers(const q15* s, std::size_t stride, std::size_t groups, const q15* q, int t,
                                q15* e) noexcept {
    static_assert(C == 2 || C == 4, "scores_in_registers: q' of 16 or 32 values");
    mve::touch(q);
    mve::touch(s);
    const std::int16_t* sp = mve::raw(s);
    std::int16_t* ep = mve::raw(e);
    const std::int16_t* const e_end = ep + 4 * groups;
    // the step from a row's last vector to the next row
    const std::int32_t gap = static_cast<std::int32_t>(stride * sizeof(q15)) - 16 * C;
    register std::int32_t a0 __asm__("r4");
    register std::int32_t a1 __asm__("r6");
    register std::int32_t a2 __asm__("r8");
    register std::int32_t a3 __asm__("r10");
    // one state's score: its C vectors times q' (VMLADAV starts the sum, VMLADAVA adds)
#define SARNN_MVE_ROW2(a)           \
    "vldrh.u16 q0, [%[s]], #16\n\t" \
    "vmladav.s16 %[" a              \
    "], q0, q4\n\t"                 \
    "vldrh.u16 q0, [%[s]], #16\n\t" \
    "vmladava.s16 %[" a "], q0, q5\n\t"
#define SARNN_MVE_ROW4(a)           \
    SARNN_MVE_ROW2(a)               \
    "vldrh.u16 q0, [%[s]], #16\n\t" \
    "vmladava.s16 %[" a             \
    "], q0, q6\n\t"                 \
    "vldrh.u16 q0, [%[s]], #16\n\t" \
    "vmladava.s16 %[" a "], q0, q7\n\t"
#define SARNN_MVE_NEXT "add %[s], %[s], %[gap]\n\t"
    // the four scores rounded (VRSHL by -t) and stored as int16
#define SARNN_MVE_ROUND4          \
    "vmov.32 q0[0], %[a0]\n\t"    \
    "vmov.32 q0[1], %[a1]\n\t"    \
    "vmov.32 q0[2], %[a2]\n\t"    \
    "vmov.32 q0[3], %[a3]\n\t"    \
    "vrshl.s32 q0, %[negt]\n\t"   \
    "vstrh.32 q0, [%[e]], #8\n\t" \
    "cmp %[e], %[end]\n\t"        \
    "bne 1b"
#define SARNN_MVE_GROUP(ROW)                                                                      \
    "1:\n\t" ROW("a0") SARNN_MVE_NEXT ROW("a1") SARNN_MVE_NEXT ROW("a2") SARNN_MVE_NEXT ROW("a3") \
        SARNN_MVE_NEXT SARNN_MVE_ROUND4
    if constexpr (C == 2) {
        __asm__ volatile(
            "vldrh.u16 q4, [%[q]]\n\t"
            "vldrh.u16 q5, [%[q], #16]\n\t" SARNN_MVE_GROUP(SARNN_MVE_ROW2)
            : [a0] "=&r"(a0), [a1] "=&r"(a1), [a2] "=&r"(a2), [a3] "=&r"(a3), [s] "+r"(sp), [e] "+l"(ep)
            : [q] "r"(mve::raw(q)), [gap] "r"(gap), [negt] "r"(-t), [end] "r"(e_end)
            : "d0", "d1", "d8", "d9", "d10", "d11", "cc", "memory");
    } else {
        __asm__ volatile(
            "vldrh.u16 q4, [%[q]]\n\t"
            "vldrh.u16 q5, [%[q], #16]\n\t"
            "vldrh.u16 q6, [%[q], #32]\n\t"
            "vldrh.u16 q7, [%[q], #48]\n\t" SARNN_MVE_GROUP(SARNN_MVE_ROW4)
            : [a0] "=&r"(a0), [a1] "=&r"(a1), [a2] "=&r"(a2), [a3] "=&r"(a3), [s] "+r"(sp), [e] "+l"(ep)
            : [q] "r"(mve::raw(q)), [gap] "r"(gap), [negt] "r"(-t), [end] "r"(e_end)
            : "d0", "d1", "d8", "d9", "d10", "d11", "d12", "d13", "d14", "d15", "cc", "memory");
    }
#undef SARNN_MVE_GROUP
#undef SARNN_MVE_ROUND4
#undef SARNN_MVE_NEXT
#undef SARNN_MVE_ROW4
#undef SARNN_MVE_ROW2
}

inline void scores(const q15* s, std::size_t stride, std::size_t count, const q15* q, std::size_t npairs, int t,
                   q15* e) noexcept {
    const std::size_t groups = count / 4;
    const std::size_t n = 2 * npairs;
    if (groups > 0 && (n == 16 || n == 32)) {
        if (n == 16) {
            scores_in_registers<2>(s, stride, groups, q, t, e);
        } else {
            scores_in_registers<4>(s, stride, groups, q, t, e);
        }
        s += 4 * groups * stride;
        e += 4 * groups;
    } else if (groups > 0) {
        mve::touch(q);
        mve::touch(s);
        // q', a row's step in bytes, n, -t, the step from the fourth row's end (16 bytes a pass of the inner loop)
        // to the next group's first row, where e ends
        const std::int32_t row = static_cast<std::int32_t>(stride * sizeof(q15));
        const struct {
            const std::int16_t* q;
            std::int32_t row, n, neg_t, gap;
            const std::int16_t* e_end;
        } pass{mve::raw(q),
               row,
               static_cast<std::int32_t>(n),
               -t,
               row - static_cast<std::int32_t>(16 * ((n + 7) / 8)),
               mve::raw(e) + 4 * groups};
        register std::int32_t a0 __asm__("r4");
        register std::int32_t a1 __asm__("r6");
        register std::int32_t a2 __asm__("r8");
        register std::int32_t a3 __asm__("r10");
        const std::int16_t* s0 = mve::raw(s);
        const std::int16_t *s1, *s2, *s3, *qp;
        std::int16_t* ep = mve::raw(e);
        std::int32_t x;
        __asm__ volatile(
            "2:\n\t"
            "ldr %[qp], [%[ps]]\n\t"
            "ldr %[x], [%[ps], #4]\n\t"
            "add %[s1], %[s0], %[x]\n\t"
            "add %[s2], %[s1], %[x]\n\t"
            "add %[s3], %[s2], %[x]\n\t"
            "mov %[a0], #0\n\t"
            "mov %[a1], #0\n\t"
            "mov %[a2], #0\n\t"
            "mov %[a3], #0\n\t"
            "ldr %[x], [%[ps], #8]\n\t"
            "wlstp.16 lr, %[x], 3f\n"
            "1:\n\t"
            SARNN_MVE_DOT4("vldrh.u16 q0, [%[qp]], #16\n\t")
            "letp lr, 1b\n"
            "3:\n\t"
            "lctp\n\t"
            "vmov.32 q0[0], %[a0]\n\t"
            "vmov.32 q0[1], %[a1]\n\t"
            "vmov.32 q0[2], %[a2]\n\t"
            "vmov.32 q0[3], %[a3]\n\t"
            "ldr %[x], [%[ps], #12]\n\t"
            "vrshl.s32 q0, %[x]\n\t"
            "vstrh.32 q0, [%[e]], #8\n\t"
            "ldr %[x], [%[ps], #16]\n\t"
            "add %[s0], %[s3], %[x]\n\t"
            "ldr %[x], [%[ps], #20]\n\t"
            "cmp %[e], %[x]\n\t"
            "bne 2b"
            : [a0] "=&r"(a0), [a1] "=&r"(a1), [a2] "=&r"(a2), [a3] "=&r"(a3), [s0] "+r"(s0), [s1] "=&r"(s1),
              [s2] "=&r"(s2), [s3] "=&r"(s3), [qp] "=&r"(qp), [x] "=&r"(x), [e] "+l"(ep)
            : [ps] "r"(&pass)
            : "d0", "d1", "d2", "d3", "d4", "d5", "d6", "d7", "lr", "cc", "memory");
        s += 4 * groups * stride;
        e += 4 * groups;
    }
    const std::int32_t half = std::int32_t{1} << (t - 1);
    for (std::size_t i = 4 * groups; i < count; ++i, s += stride) {
        std::int32_t d[1];
        dot_states<1>(s, stride, q, npairs, d);
        (e++)->raw = static_cast<std::int16_t>((d[0] + half) >> t);
    }
}

/// max_j e_j: VMAXV, the largest of eight lanes and a scalar, eight values a pass.
inline std::int32_t max_raw(const q15* e, std::size_t n) noexcept {
    mve::touch(e);
    const std::int16_t* p = mve::raw(e);
    std::int16_t m = -32768;
    std::size_t j = 0;
    for (; j + 8 <= n; j += 8) m = vmaxvq_s16(m, vld1q_s16(p + j));
    for (; j < n; ++j) m = p[j] > m ? p[j] : m;
    return m;
}

/// y_k = tanh_q15(y_k) in place (q15_seam.hpp), eight values a pass: as additive_sum writes tanh_q15 out
/// (q15_seam.hpp), |z| saturated to 32767 (VQABS; the table's last two entries are 32767, so 32768 gives the same),
/// i = |z| >> 6, frac = |z| & 63, T[i] + ((T[i+1] - T[i])·frac + 32) >> 6 (VRSHR; the product is below 2^15: the
/// table's steps are at most 512), the sign put back. The table read by gather loads.
inline void tanh_rows(q15* y, std::size_t n) noexcept {
    const std::int16_t* const T = fixed::detail::kTanhTable;
    mve::touch(y);
    mve::touch(T);
    std::int16_t* p = mve::raw(y);
    const uint16x8_t low6 = vdupq_n_u16(63u);
    std::size_t k = 0;
    for (; k + 8 <= n; k += 8) {
        const int16x8_t z = vld1q_s16(p + k);
        const uint16x8_t a = vreinterpretq_u16_s16(vqabsq_s16(z));
        const uint16x8_t i = vshrq_n_u16(a, 6);
        const int16x8_t frac = vreinterpretq_s16_u16(vandq_u16(a, low6));
        const int16x8_t t0 = vldrhq_gather_shifted_offset_s16(T, i);
        const int16x8_t t1 = vldrhq_gather_shifted_offset_s16(T + 1, i);
        const int16x8_t t = vaddq_s16(t0, vrshrq_n_s16(vmulq_s16(vsubq_s16(t1, t0), frac), 6));
        vst1q_s16(p + k, vpselq_s16(vnegq_s16(t), t, vcmpltq_n_s16(z, 0)));
    }
    for (; k < n; ++k) p[k] = static_cast<std::int16_t>(fixed::detail::tanh_wide(p[k]));
}

/// The additive align's sum for one state (q15_seam.hpp), eight values a pass: z = key + q saturated to int16
/// (VQADD: the sign and min(|z|, 32767), which is what the generic form takes of the int32 sum), then tanh as
/// tanh_rows, the sign put onto it and VMLADAVA with eight of v (widened in the load). The last K % 8 as the
/// generic form.
inline std::int32_t additive_sum(const q15* key, const q15* q, const std::int8_t* v, std::size_t K) noexcept {
    const std::int16_t* const T = fixed::detail::kTanhTable;
    mve::touch(key);
    mve::touch(q);
    mve::touch(v);
    mve::touch(T);
    const std::int16_t* kp = mve::raw(key);
    const std::int16_t* qp = mve::raw(q);
    const uint16x8_t low6 = vdupq_n_u16(63u);
    std::int32_t d = 0;
    std::size_t k = 0;
    for (; k + 8 <= K; k += 8) {
        const int16x8_t z = vqaddq_s16(vld1q_s16(kp + k), vld1q_s16(qp + k));
        const uint16x8_t a = vreinterpretq_u16_s16(vqabsq_s16(z));
        const uint16x8_t i = vshrq_n_u16(a, 6);
        const int16x8_t frac = vreinterpretq_s16_u16(vandq_u16(a, low6));
        const int16x8_t t0 = vldrhq_gather_shifted_offset_s16(T, i);
        const int16x8_t t1 = vldrhq_gather_shifted_offset_s16(T + 1, i);
        const int16x8_t y = vaddq_s16(t0, vrshrq_n_s16(vmulq_s16(vsubq_s16(t1, t0), frac), 6));
        d = vmladavaq_s16(d, vpselq_s16(vnegq_s16(y), y, vcmpltq_n_s16(z, 0)), vldrbq_s16(v + k));
    }
    // the last K % 8: v_k·tanh(z) with tanh_wide (the same value: its |z| >= 32768 gives 32767 as the clamp does)
    for (; k < K; ++k) d += v[k] * fixed::detail::tanh_wide(kp[k] + qp[k]);
    return d;
}

namespace mve {

/// tanh_q15 of eight int16 (tanh_rows' steps)
__attribute__((always_inline)) inline int16x8_t tanh8(int16x8_t z) noexcept {
    const std::int16_t* const T = fixed::detail::kTanhTable;
    const uint16x8_t a = vreinterpretq_u16_s16(vqabsq_s16(z));
    const uint16x8_t i = vshrq_n_u16(a, 6);
    const int16x8_t frac = vreinterpretq_s16_u16(vandq_u16(a, vdupq_n_u16(63u)));
    const int16x8_t t0 = vldrhq_gather_shifted_offset_s16(T, i);
    const int16x8_t t1 = vldrhq_gather_shifted_offset_s16(T + 1, i);
    const int16x8_t t = vaddq_s16(t0, vrshrq_n_s16(vmulq_s16(vsubq_s16(t1, t0), frac), 6));
    return vpselq_s16(vnegq_s16(t), t, vcmpltq_n_s16(z, 0));
}

/// sigmoid_q15 of eight int16 (lib/fixed.cpp): a = |z| as uint16 (VABS wraps -32768 to 0x8000 = 32768), t = tanh(a /
/// 8192) from the table every 128 LSB (i = a >> 7 <= 256, frac = a & 127; the table non-decreasing, its steps at most
/// 512: the product below 2^16 in uint16, VRSHR its + 64 >> 7), y = (32768 + t + 1) >> 1 or (32768 - t + 1) >> 1
/// (VHADD, VHSUB: the halved sum without overflow), at most 32767.
__attribute__((always_inline)) inline int16x8_t sigmoid8(int16x8_t z) noexcept {
    const std::int16_t* const T = fixed::detail::kTanhTable;
    const uint16x8_t a = vreinterpretq_u16_s16(vabsq_s16(z));
    const uint16x8_t i = vshrq_n_u16(a, 7);
    const uint16x8_t frac = vandq_u16(a, vdupq_n_u16(127u));
    const uint16x8_t t0 = vreinterpretq_u16_s16(vldrhq_gather_shifted_offset_s16(T, i));
    const uint16x8_t t1 = vreinterpretq_u16_s16(vldrhq_gather_shifted_offset_s16(T + 1, i));
    const uint16x8_t t = vaddq_u16(t0, vrshrq_n_u16(vmulq_u16(vsubq_u16(t1, t0), frac), 7));
    const uint16x8_t one = vdupq_n_u16(32769u);
    const uint16x8_t y = vpselq_u16(vhaddq_u16(one, t), vhsubq_u16(one, t), vcmpgeq_n_s16(z, 0));
    return vreinterpretq_s16_u16(vminq_u16(y, vdupq_n_u16(32767u)));
}

}  // namespace mve

/// The LSTM cell (Q15::lstm_cell's contract, kernels_q15.hpp) eight lanes a pass: sigmoid8 and tanh8 for the gates;
/// round(f·c~ / 2^15) = VQRDMULH (2·f·c~ + 2^15) >> 16, exact (f >= 1: no saturation); round(i·g / 2^18) = (VMULH's
/// floor(i·g / 2^16) + 2) >> 2 (VRSHR #2: floors of floors); their sum saturated (VQADD), a lane counted where it
/// differs from the wrapped sum (|sum| < 2^16: it differs exactly where it saturated); h = VQRDMULH(o, tanh(c)).
/// The last hidden % 8 lanes in plain C++ (lib/kernels/q15.cpp's form).
inline std::size_t lstm_cell(const q15* z, const q15* c_tilde, std::size_t hidden, q15* c, q15* h) noexcept {
    mve::touch(z);
    mve::touch(c_tilde);
    const std::int16_t* zr = mve::raw(z);
    const std::int16_t* ct = mve::raw(c_tilde);
    std::int16_t* cp = mve::raw(c);
    std::int16_t* hp = mve::raw(h);
    std::uint32_t saturated = 0;
    std::size_t k = 0;
    for (; k + 8 <= hidden; k += 8) {
        const int16x8_t i = mve::sigmoid8(vld1q_s16(zr + k));
        const int16x8_t f = mve::sigmoid8(vld1q_s16(zr + hidden + k));
        const int16x8_t g = mve::tanh8(vld1q_s16(zr + 2 * hidden + k));
        const int16x8_t o = mve::sigmoid8(vld1q_s16(zr + 3 * hidden + k));
        const int16x8_t fc = vqrdmulhq_s16(f, vld1q_s16(ct + k));
        const int16x8_t ig = vrshrq_n_s16(vmulhq_s16(i, g), 2);
        const int16x8_t cs = vqaddq_s16(fc, ig);
        saturated = vaddvaq_p_u16(saturated, vdupq_n_u16(1u), vcmpneq_s16(cs, vaddq_s16(fc, ig)));
        vst1q_s16(cp + k, cs);
        vst1q_s16(hp + k, vqrdmulhq_s16(o, mve::tanh8(cs)));
    }
    for (; k < hidden; ++k) {
        const std::int32_t i = fixed::sigmoid_q15(zr[k]);
        const std::int32_t f = fixed::sigmoid_q15(zr[hidden + k]);
        const std::int32_t g = fixed::tanh_q15(zr[2 * hidden + k]);
        const std::int32_t o = fixed::sigmoid_q15(zr[3 * hidden + k]);
        const std::int32_t ck = ((f * ct[k] + (1 << 14)) >> 15) + ((i * g + (1 << 17)) >> 18);
        const std::int32_t cs = ck > 32767 ? 32767 : (ck < -32768 ? -32768 : ck);
        saturated += cs != ck ? 1u : 0u;
        cp[k] = static_cast<std::int16_t>(cs);
        hp[k] = static_cast<std::int16_t>((o * fixed::tanh_q15(static_cast<std::int16_t>(cs)) + (1 << 14)) >> 15);
    }
    return saturated;
}

/// The rows' pre-activations from their sums, four rows a pass, where the factors allow (else false, and the caller
/// takes its scalar loop): x = requantize(s_x, x_m, x_shift) clamped to +-2^30, z = x + s_r, out = requantize(z,
/// m_r, shift_r) + b_r (b null: 0) saturated to int32 then int16 (kernels_q15.hpp's affine). Taken when x_shift is 0
/// or -1 with x_m >= 0 (|s_x| < 2^30 for -1), every m_r >= 0 and shift_r in 1 .. 31, count a multiple of 4; then:
///   x = VQRDMULH(s_x, x_m) = floor((s_x·x_m + 2^30) / 2^31) (x_shift 0; with 2·s_x for -1: s = 30), exact (x_m >=
///       0: no saturation), clamped;
///   r part, s = 31 + shift_r >= 32: h = VMULH(z, m_r) = floor(z·m_r / 2^32); shift_r >= 2: (h + 2^(shift_r-2)) >>
///       (shift_r - 1) (VRSHL), shift_r = 1: VRMULH (floor((z·m_r + 2^31) / 2^32)) — requantize_short's forms;
///   + b_r by VQADD (QADD's int32 saturation), clamped to int16.
inline bool finish_rows(const std::int32_t* s_x, const std::int32_t* s_r, std::size_t count, std::int32_t x_m,
                        int x_shift, const std::int32_t* m, const std::int8_t* shift, const std::int32_t* b,
                        q15* out) noexcept {
    if ((x_shift != 0 && x_shift != -1) || x_m < 0 || count % 4 != 0) return false;
    mve::touch(s_x);
    mve::touch(s_r);
    mve::touch(m);
    mve::touch(shift);
    mve::touch(b);
    std::int32_t min_m = 0, min_shift = 127, max_shift = -128;
    std::uint32_t max_x = 0;
    for (std::size_t k = 0; k < count; k += 4) {
        min_m = vminvq_s32(min_m, vld1q_s32(m + k));
        min_shift = vminvq_s32(min_shift, vldrbq_s32(shift + k));
        max_shift = vmaxvq_s32(max_shift, vldrbq_s32(shift + k));
        max_x = vmaxavq_s32(max_x, vld1q_s32(s_x + k));
    }
    if (min_m < 0 || min_shift < 1 || max_shift > 31 || (x_shift == -1 && max_x >= (std::uint32_t{1} << 30)))
        return false;
    const int32x4_t hi = vdupq_n_s32(std::int32_t{1} << 30), lo = vdupq_n_s32(-(std::int32_t{1} << 30));
    const int32x4_t one = vdupq_n_s32(1);
    const int32x4_t top = vdupq_n_s32(32767), bottom = vdupq_n_s32(-32768);
    std::int16_t* o = mve::raw(out);
    for (std::size_t k = 0; k < count; k += 4) {
        int32x4_t sx = vld1q_s32(s_x + k);
        if (x_shift == -1) sx = vshlq_n_s32(sx, 1);
        const int32x4_t x = vmaxq_s32(vminq_s32(vqrdmulhq_n_s32(sx, x_m), hi), lo);
        const int32x4_t z = vaddq_s32(x, vld1q_s32(s_r + k));
        const int32x4_t mv = vld1q_s32(m + k);
        const int32x4_t sh = vldrbq_s32(shift + k);
        const int32x4_t q2 = vrshlq_s32(vmulhq_s32(z, mv), vsubq_s32(one, sh));
        int32x4_t q = vpselq_s32(vrmulhq_s32(z, mv), q2, vcmpeqq_s32(sh, one));
        if (b != nullptr) q = vqaddq_s32(q, vld1q_s32(b + k));
        vstrhq_s32(o + k, vmaxq_s32(vminq_s32(q, top), bottom));
    }
    return true;
}

/// prepare_query's Σ_k |q_k| (q15_seam.hpp), eight values a pass: VABAV adds the eight |q_k - 0| to a scalar.
inline std::uint32_t abs_sum(const q15* q, std::size_t dim) noexcept {
    mve::touch(q);
    const std::int16_t* p = mve::raw(q);
    const int16x8_t zero = vdupq_n_s16(0);
    std::uint32_t sum = 0;
    std::size_t k = 0;
    for (; k + 8 <= dim; k += 8) sum = vabavq_s16(sum, vld1q_s16(p + k), zero);
    for (; k < dim; ++k) sum += static_cast<std::uint32_t>(p[k] < 0 ? -p[k] : p[k]);
    return sum;
}

/// q'_k = (q_k + 2^(s-1)) >> s, eight values a pass (VRSHL by -s: the same rounding, without overflow), and
/// Σ_k |q'_k| (VABAV); qp may be q.
inline std::uint32_t round_query(const q15* q, q15* qp, std::size_t dim, int s) noexcept {
    mve::touch(q);
    const std::int16_t* p = mve::raw(q);
    std::int16_t* o = mve::raw(qp);
    const int16x8_t zero = vdupq_n_s16(0);
    std::uint32_t sum = 0;
    std::size_t k = 0;
    for (; k + 8 <= dim; k += 8) {
        const int16x8_t v = vrshlq_n_s16(vld1q_s16(p + k), -s);
        vst1q_s16(o + k, v);
        sum = vabavq_s16(sum, v, zero);
    }
    for (; k < dim; ++k) {
        const std::int32_t v = (p[k] + (std::int32_t{1} << (s - 1))) >> s;
        o[k] = static_cast<std::int16_t>(v);
        sum += static_cast<std::uint32_t>(v < 0 ? -v : v);
    }
    return sum;
}

/// softmax's first pass (q15_seam.hpp), four values a pass: exp_q16 (lib/fixed.cpp) written out for four lanes of
/// int32, its table read by gather loads, every lane computed and those at or below zero_below set to 0 after (as
/// the scalar form skips them: their wrapped products give some value, masked; the table offsets stay in range).
inline std::uint32_t exps(q15* alpha, std::size_t n, std::int32_t m, std::int32_t to_q16,
                          std::int32_t zero_below) noexcept {
    const std::uint32_t* const T = fixed::detail::kExp2Table;
    mve::touch(alpha);
    mve::touch(T);
    std::int16_t* a = mve::raw(alpha);
    // y·2^12 = (e_j - m)·(-to_q16·2^12): y = -(e_j - m)·to_q16 < 12·2^16 where live, so y·2^12 < 2^32 (modulo 2^32:
    // exact)
    const auto down12 = static_cast<std::uint32_t>(-(to_q16 << 12));
    // t = y·log2(e) in Q16 rounded half up = (y·2^12 · 94548·2^4 + 2^31) >> 32: VRMULH (exp_q16's t, the same
    // integer: floor((y·94548 + 2^15) / 2^16))
    const uint32x4_t log2e = vdupq_n_u32(94548u << 4);
    const uint32x4_t cap = vdupq_n_u32(65535u), zero = vdupq_n_u32(0);
    std::uint32_t l = 0;
    std::size_t j = 0;
    for (; j + 4 <= n; j += 4) {
        const int32x4_t d = vsubq_n_s32(vldrhq_s32(a + j), m);
        const mve_pred16_t live = vcmpgtq_n_s32(d, zero_below);
        const uint32x4_t tq = vrmulhq_u32(vmulq_n_u32(vreinterpretq_u32_s32(d), down12), log2e);
        // 2^-t = 2^-k·2^-f: k = t >> 16; f = t & 0xFFFF (VMOVLB.U16), i = f >> 8 (VMOVLT.U8), frac = f & 255
        // (VMOVLB.U8)
        const uint16x8_t f = vreinterpretq_u16_u32(vmovlbq_u16(vreinterpretq_u16_u32(tq)));
        const uint32x4_t i = vreinterpretq_u32_u16(vmovltq_u8(vreinterpretq_u8_u16(f)));
        const int32x4_t frac = vreinterpretq_s32_u16(vmovlbq_u8(vreinterpretq_u8_u16(f)));
        const int32x4_t negk = vnegq_s32(vreinterpretq_s32_u32(vshrq_n_u32(tq, 16)));
        // 2^-f = T[i] + floor(((T[i+1] - T[i])·frac + 128) / 256) (interpolate; VRSHR: + 2^7, then >> 8)
        const int32x4_t t0 = vreinterpretq_s32_u32(vldrwq_gather_shifted_offset_u32(T, i));
        const int32x4_t t1 = vreinterpretq_s32_u32(vldrwq_gather_shifted_offset_u32(T + 1, i));
        const int32x4_t mf = vaddq_s32(t0, vrshrq_n_s32(vmulq_s32(vsubq_s32(t1, t0), frac), 8));
        // p = 2^-f·2^-k rounded half up (VRSHL by -k), at most 65535, 0 where not live
        const uint32x4_t p = vminq_m_u32(zero, vrshlq_u32(vreinterpretq_u32_s32(mf), negk), cap, live);
        l = vaddvaq_u32(l, p);
        vstrhq_s32(a + j, vreinterpretq_s32_u32(vsubq_n_u32(p, 32768u)));
    }
    for (; j < n; ++j) {
        const std::int32_t d = a[j] - m;
        std::int32_t p = 0;
        if (d > zero_below) {
            p = fixed::exp_q16(d * to_q16);
            p = p > 65535 ? 65535 : p;
        }
        a[j] = static_cast<std::int16_t>(p - 32768);
        l += static_cast<std::uint32_t>(p);
    }
    return l;
}

/// softmax's last pass (q15_seam.hpp), eight values a pass: p_j = alpha_j + 32768 as uint16 (the top bit flipped),
/// VMULH.U16 the top half of p_j·rec (rec <= 65535), shifted right by down - 16 (so (p_j·rec) >> down: floors of
/// floors), at most 32767.
inline void normalize(q15* alpha, std::size_t n, std::uint32_t rec, int down) noexcept {
    mve::touch(alpha);
    auto* a = reinterpret_cast<std::uint16_t*>(alpha);  // NOLINT(cppcoreguidelines-pro-type-reinterpret-cast)
    const auto r16 = static_cast<std::uint16_t>(rec);
    std::size_t j = 0;
    for (; j + 8 <= n; j += 8) {
        const uint16x8_t p = veorq_u16(vld1q_u16(a + j), vdupq_n_u16(0x8000u));
        const uint16x8_t av = vshlq_r_u16(vmulhq_u16(p, vdupq_n_u16(r16)), 16 - down);
        vst1q_u16(a + j, vminq_u16(av, vdupq_n_u16(32767u)));
    }
    for (; j < n; ++j) {
        const auto p = static_cast<std::uint32_t>(static_cast<std::int16_t>(a[j]) + 32768);
        const std::uint32_t av = (p * rec) >> down;
        a[j] = static_cast<std::uint16_t>(av > 32767u ? 32767u : av);
    }
}

/// c = Σ_j alpha_j S_j (q15.cpp's weighted_sum: c_k = (Σ_j alpha_j S_j,k + 2^14) >> 15 within +-32767), four columns
/// a pass over the states, eight states at a time: a gather load (VLDRH with offsets j·stride + k: eight states'
/// values of column k) and VMLADAVA with eight values of alpha, per column; the four sums rounded together (VRSHR),
/// clamped and stored as int16. The states in the two segments base[0] (n[0] states) and base[1] (n[1]), alpha's
/// values in that order; tail-predicated loops (the lanes past a segment's end read as zero). The offsets are
/// uint16: a row stride of at most 9360 (7·stride + 3 < 2^16; far beyond the models'), else plain C++.
inline void weighted_sum(const q15* const base[2], const std::size_t n[2], std::size_t stride, std::size_t dim,
                         const q15* alpha, q15* c) noexcept {
    std::size_t k = 0;
    const std::size_t blocks = dim / 4;
    if (blocks > 0 && stride <= 9360) {
        mve::touch(alpha);
        mve::touch(base[0]);
        mve::touch(base[1]);
        alignas(8) std::uint16_t offs[8];
        for (std::size_t j = 0; j < 8; ++j) offs[j] = static_cast<std::uint16_t>(j * stride);
        // the segments' column pointers (advanced by a block per pass), their counts, alpha's second part, c's end
        struct {
            const std::int16_t* b0;
            std::size_t n0;
            const std::int16_t* b1;
            std::size_t n1;
            const std::int16_t* a1;
            const std::int16_t* c_end;
        } pass{mve::raw(base[0]), n[0], mve::raw(base[1]), n[1], mve::raw(alpha) + n[0], mve::raw(c) + 4 * blocks};
        register std::int32_t a0 __asm__("r4");
        register std::int32_t a1 __asm__("r6");
        register std::int32_t a2 __asm__("r8");
        register std::int32_t a3 __asm__("r10");
        const std::int16_t *b, *ap;
        std::int32_t x;
        std::int16_t* cp = mve::raw(c);
        const std::int32_t step = static_cast<std::int32_t>(8 * stride * sizeof(q15));
        // four columns' sums += eight states' values (gathered) times their eight alpha, per pass
#define SARNN_MVE_COLUMNS4                  \
    "vldrh.u16 q0, [%[ap]], #16\n\t"        \
    "vldrh.u16 q1, [%[b], q4, uxtw #1]\n\t" \
    "vmladava.s16 %[a0], q0, q1\n\t"        \
    "vldrh.u16 q1, [%[b], q5, uxtw #1]\n\t" \
    "vmladava.s16 %[a1], q0, q1\n\t"        \
    "vldrh.u16 q1, [%[b], q6, uxtw #1]\n\t" \
    "vmladava.s16 %[a2], q0, q1\n\t"        \
    "vldrh.u16 q1, [%[b], q7, uxtw #1]\n\t" \
    "vmladava.s16 %[a3], q0, q1\n\t"        \
    "add %[b], %[b], %[step]\n\t"
        __asm__ volatile(
            "vldrh.u16 q4, [%[offs]]\n\t"
            "mov %[x], #1\n\t"
            "vadd.i16 q5, q4, %[x]\n\t"
            "mov %[x], #2\n\t"
            "vadd.i16 q6, q4, %[x]\n\t"
            "mov %[x], #3\n\t"
            "vadd.i16 q7, q4, %[x]\n\t"
            "movw %[x], #32767\n\t"
            "vdup.32 q3, %[x]\n\t"
            "rsb %[x], %[x], #0\n\t"
            "vdup.32 q2, %[x]\n"
            "4:\n\t"
            "mov %[a0], #0\n\t"
            "mov %[a1], #0\n\t"
            "mov %[a2], #0\n\t"
            "mov %[a3], #0\n\t"
            "ldr %[b], [%[ps]]\n\t"
            "add %[x], %[b], #8\n\t"
            "str %[x], [%[ps]]\n\t"
            "mov %[ap], %[alpha]\n\t"
            "ldr %[x], [%[ps], #4]\n\t"
            "wlstp.16 lr, %[x], 2f\n"
            "1:\n\t" SARNN_MVE_COLUMNS4
            "letp lr, 1b\n"
            "2:\n\t"
            "ldr %[b], [%[ps], #8]\n\t"
            "add %[x], %[b], #8\n\t"
            "str %[x], [%[ps], #8]\n\t"
            "ldr %[ap], [%[ps], #16]\n\t"
            "ldr %[x], [%[ps], #12]\n\t"
            "wlstp.16 lr, %[x], 3f\n"
            "5:\n\t" SARNN_MVE_COLUMNS4
            "letp lr, 5b\n"
            "3:\n\t"
            "lctp\n\t"
            "vmov.32 q0[0], %[a0]\n\t"
            "vmov.32 q0[1], %[a1]\n\t"
            "vmov.32 q0[2], %[a2]\n\t"
            "vmov.32 q0[3], %[a3]\n\t"
            "vrshr.s32 q0, q0, #15\n\t"
            "vmax.s32 q0, q0, q2\n\t"
            "vmin.s32 q0, q0, q3\n\t"
            "vstrh.32 q0, [%[c]], #8\n\t"
            "ldr %[x], [%[ps], #20]\n\t"
            "cmp %[c], %[x]\n\t"
            "bne 4b"
            : [a0] "=&r"(a0), [a1] "=&r"(a1), [a2] "=&r"(a2), [a3] "=&r"(a3), [b] "=&r"(b), [ap] "=&r"(ap),
              [x] "=&r"(x), [c] "+l"(cp)
            : [ps] "r"(&pass), [alpha] "r"(mve::raw(alpha)), [step] "r"(step), [offs] "r"(offs)
            : "d0", "d1", "d2", "d3", "d4", "d5", "d6", "d7", "d8", "d9", "d10", "d11", "d12", "d13", "d14", "d15",
              "lr", "cc", "memory");
#undef SARNN_MVE_COLUMNS4
        k = 4 * blocks;
    }
    for (; k < dim; ++k) {
        std::int32_t acc = 0;
        const q15* ap = alpha;
        for (int g = 0; g < 2; ++g) {
            const q15* v = base[g] + k;
            for (std::size_t i = 0; i < n[g]; ++i, ++ap, v += stride) acc += ap->raw * v->raw;
        }
        const std::int32_t ck = (acc + (std::int32_t{1} << 14)) >> 15;
        c[k] = q15{static_cast<std::int16_t>(ck > 32767 ? 32767 : (ck < -32767 ? -32767 : ck))};
    }
}

}  // namespace sarnn::kernel::q15_mve

namespace sarnn::kernel::q15_loops {

/// The Helium loops: every operation of a step vectorised; affine_tanh takes every row's tanh at the end (tanh_rows,
/// eight lanes at a time) after the pre-activations (finish_rows).
struct MveLoops : Loops<MveLoops> {
    static constexpr std::size_t kRows = q15_mve::kRows, kStates = q15_mve::kStates, kColumns = q15_mve::kColumns;
    static constexpr unsigned kOwn = kScores | kMaxRaw | kAdditiveSum | kAbsSum | kRoundQuery | kExps | kNormalize;
    static constexpr bool kTanhRows = true, kFinishRows = true, kWeighted = true, kCell = true;

    template <std::size_t G>
    __attribute__((always_inline)) static void dot_rows(const std::int8_t* w, std::size_t ld, const q15* v,
                                                        std::size_t n, std::int32_t* acc) noexcept {
        q15_mve::dot_rows<G>(w, ld, v, n, acc);
    }
    template <std::size_t G>
    __attribute__((always_inline)) static void dot_states(const q15* s, std::size_t stride, const q15* q,
                                                          std::size_t npairs, std::int32_t* d) noexcept {
        q15_mve::dot_states<G>(s, stride, q, npairs, d);
    }
    template <std::size_t G>
    __attribute__((always_inline)) static void columns(const q15* a, const q15* v, std::size_t stride,
                                                       std::size_t count, std::int32_t* acc) noexcept {
        q15_mve::columns<G>(a, v, stride, count, acc);
    }
    __attribute__((always_inline)) static void scores(const q15* s, std::size_t stride, std::size_t count, const q15* q,
                                                      std::size_t npairs, int t, q15* e) noexcept {
        q15_mve::scores(s, stride, count, q, npairs, t, e);
    }
    __attribute__((always_inline)) static std::int32_t max_raw(const q15* e, std::size_t n) noexcept {
        return q15_mve::max_raw(e, n);
    }
    __attribute__((always_inline)) static std::int32_t additive_sum(const q15* key, const q15* q, const std::int8_t* v,
                                                                    std::size_t K) noexcept {
        return q15_mve::additive_sum(key, q, v, K);
    }
    __attribute__((always_inline)) static std::uint32_t abs_sum(const q15* q, std::size_t dim) noexcept {
        return q15_mve::abs_sum(q, dim);
    }
    __attribute__((always_inline)) static std::uint32_t round_query(const q15* q, q15* qp, std::size_t dim,
                                                                    int s) noexcept {
        return q15_mve::round_query(q, qp, dim, s);
    }
    __attribute__((always_inline)) static std::uint32_t exps(q15* alpha, std::size_t n, std::int32_t m,
                                                             std::int32_t to_q16, std::int32_t zero_below) noexcept {
        return q15_mve::exps(alpha, n, m, to_q16, zero_below);
    }
    __attribute__((always_inline)) static void normalize(q15* alpha, std::size_t n, std::uint32_t rec,
                                                         int down) noexcept {
        q15_mve::normalize(alpha, n, rec, down);
    }
    __attribute__((always_inline)) static void tanh_rows(q15* y, std::size_t n) noexcept { q15_mve::tanh_rows(y, n); }
    __attribute__((always_inline)) static bool finish_rows(const std::int32_t* s_x, const std::int32_t* s_r,
                                                           std::size_t count, std::int32_t x_m, int x_shift,
                                                           const std::int32_t* m, const std::int8_t* shift,
                                                           const std::int32_t* b, q15* out) noexcept {
        return q15_mve::finish_rows(s_x, s_r, count, x_m, x_shift, m, shift, b, out);
    }
    __attribute__((always_inline)) static void weighted_sum(const q15* const base[2], const std::size_t n[2],
                                                            std::size_t stride, std::size_t dim, const q15* alpha,
                                                            q15* c) noexcept {
        q15_mve::weighted_sum(base, n, stride, dim, alpha, c);
    }
    __attribute__((always_inline)) static std::size_t lstm_cell(const q15* z, const q15* c_tilde, std::size_t hidden,
                                                                q15* c, q15* h) noexcept {
        return q15_mve::lstm_cell(z, c_tilde, hidden, c, h);
    }
};

}  // namespace sarnn::kernel::q15_loops

#endif
