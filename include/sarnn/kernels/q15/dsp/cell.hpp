// sarnn/kernels/q15/dsp/cell.hpp: the DSP set's q15 loops (Cortex-M4, M7; the set: dsp/loops.hpp), the LSTM cell
// (lstm_cell) and the GRU cell (gru_cell) with their activations inline, each interpolation one SMUAD.
#ifndef SARNN_KERNELS_Q15_DSP_CELL_HPP
#define SARNN_KERNELS_Q15_DSP_CELL_HPP

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "sarnn/kernels/q15/dsp/common.hpp"
#include "sarnn/kernels/q15/tanh.hpp"

namespace sarnn::kernel::q15_dsp {

/// tanh_wide(z) (kernels/q15/tanh.hpp) for |z| < 2^31: a = min(|z|, 32767) (the table's last two entries are equal: the
/// same value as beyond), i = a >> 6, f = a & 63; T_i + ((T_(i+1) - T_i)·f + 32) >> 6 = (T_i·(64 - f) + T_(i+1)·f +
/// 32) >> 6, the pair (T_i, T_(i+1)) one word and the sum one SMUAD with (64 - f, f) (< 2^22); the sign back with
/// the rounding: ((X ^ m) + 32) >> 6 for m = z >> 31 (z < 0: (31 - X) >> 6 = -((X + 32) >> 6)).
__attribute__((always_inline)) inline std::int32_t tanh_dsp(std::int32_t z) noexcept {
    const std::int32_t m = z >> 31;
    const auto a = static_cast<std::uint32_t>(__usat((z ^ m) - m, 15));
    const std::int32_t pair = dsp::word(fixed::detail::kTanhTable + (a >> 6));
    const auto f = static_cast<std::int32_t>(a & 63u);
    const std::int32_t x = __smuad(
        pair, static_cast<std::int32_t>((static_cast<std::uint32_t>(f) << 16) + 64u - static_cast<std::uint32_t>(f)));
    return ((x ^ m) + 32) >> 6;
}

/// sigmoid_inline(z) (kernels/q15/tanh.hpp) for z in int16: a = |z| <= 32768, i = a >> 7 <= 256, f = a & 127; S =
/// T_i·(128 - f) + T_(i+1)·f (>= 0: the table rises; one SMUAD as tanh_dsp's), t = (S + 64) >> 7, and y = min((32769
/// + t) >> 1, 32767) for z >= 0, (32769 - t) >> 1 for z < 0, the two shifts one: floor((32769·128 + 64 + S) / 256)
/// and, as -t = floor((63 - S) / 128), floor((32769·128 + 64 + ~S) / 256), both ((S ^ m) + 32769·128 + 64) >> 8 for
/// m = z >> 31 (>= 0), clamped to 32767 by USAT (its shift the >> 8).
/// kSigmoidBias: 32769·128 + 64 (a caller's loop may hold it in a register: pinned(), passed as bias).
constexpr std::int32_t kSigmoidBias = 32769 * 128 + 64;
__attribute__((always_inline)) inline std::int32_t sigmoid_dsp(std::int32_t z,
                                                               std::int32_t bias = kSigmoidBias) noexcept {
    const std::int32_t m = z >> 31;
    const auto a = static_cast<std::uint32_t>((z ^ m) - m);
    const std::int32_t pair = dsp::word(fixed::detail::kTanhTable + (a >> 7));
    const auto f = static_cast<std::int32_t>(a & 127u);
    const std::int32_t s = __smuad(
        pair, static_cast<std::int32_t>((static_cast<std::uint32_t>(f) << 16) + 128u - static_cast<std::uint32_t>(f)));
    return static_cast<std::int32_t>(__usat(((s ^ m) + bias) >> 8, 15));
}

/// v, held in a register from here on (GCC 12 otherwise splits a constant such as kSigmoidBias into two ADDs at
/// each use in the loops below).
__attribute__((always_inline)) inline std::int32_t pinned(std::int32_t v) noexcept {
    __asm__("" : "+r"(v));
    return v;
}

// sigmoid_dsp of both halves of W (z0 in the bottom half, z1 in the top; int16 each) into Y0 and Y1 (A a temporary;
// 22 instructions): |z0| and |z1| at once (SSUB16 from 0 sets GE in a half where 0 - z >= 0, in full precision:
// -(-32768) = 32768 too; SEL takes -z there, else z: each half |z| as an unsigned 16-bit value), then each lane's
// i = |z| >> 7, f = |z| & 127, the table's pair one LDR (any alignment), SMUAD with (128 - f, f), the sign (bit 15, or
// 31, of W) and the bias as sigmoid_dsp's.
// clang-format off
#define SARNN_DSP_SIGMOID_PAIR(W, A, Y0, Y1)                     \
    "mov    %[" A "], #0\n\t"                                    \
    "ssub16 %[" A "], %[" A "], %[" W "]\n\t"                    \
    "sel    %[" A "], %[" A "], %[" W "]\n\t"                    \
    "ubfx   %[" Y0 "], %[" A "], #7, #9\n\t"                     \
    "ldr    %[" Y0 "], [%[tab], %[" Y0 "], lsl #1]\n\t"          \
    "and    %[" Y1 "], %[" A "], #127\n\t"                       \
    "rsb    %[" Y1 "], %[" Y1 "], %[" Y1 "], lsl #16\n\t"        \
    "add    %[" Y1 "], %[" Y1 "], #128\n\t"                      \
    "smuad  %[" Y0 "], %[" Y0 "], %[" Y1 "]\n\t"                 \
    "sbfx   %[" Y1 "], %[" W "], #15, #1\n\t"                    \
    "eor    %[" Y0 "], %[" Y0 "], %[" Y1 "]\n\t"                 \
    "add    %[" Y0 "], %[" Y0 "], %[bias]\n\t"                   \
    "usat   %[" Y0 "], #15, %[" Y0 "], asr #8\n\t"               \
    "lsr    %[" Y1 "], %[" A "], #23\n\t"                        \
    "ldr    %[" Y1 "], [%[tab], %[" Y1 "], lsl #1]\n\t"          \
    "ubfx   %[" A "], %[" A "], #16, #7\n\t"                     \
    "rsb    %[" A "], %[" A "], %[" A "], lsl #16\n\t"           \
    "add    %[" A "], %[" A "], #128\n\t"                        \
    "smuad  %[" Y1 "], %[" Y1 "], %[" A "]\n\t"                  \
    "eor    %[" Y1 "], %[" Y1 "], %[" W "], asr #31\n\t"         \
    "add    %[" Y1 "], %[" Y1 "], %[bias]\n\t"                   \
    "usat   %[" Y1 "], #15, %[" Y1 "], asr #8\n\t"
// The same with a fifth register S (20 instructions): both lanes' weights at once, F = |z| & 0x007F007F = (f1, f0)
// and 0x00800080 - F = (128 - f1, 128 - f0) (no borrow between the halves), paired by PKHBT / PKHTB into (128 - f0,
// f0) and (128 - f1, f1).
#define SARNN_DSP_SIGMOID_PAIR_S(W, A, Y0, Y1, S)                \
    "mov    %[" A "], #0\n\t"                                    \
    "ssub16 %[" A "], %[" A "], %[" W "]\n\t"                    \
    "sel    %[" A "], %[" A "], %[" W "]\n\t"                    \
    "and    %[" S "], %[" A "], #0x007F007F\n\t"                 \
    "rsb    %[" Y1 "], %[" S "], #0x00800080\n\t"                \
    "pkhbt  %[" Y0 "], %[" Y1 "], %[" S "], lsl #16\n\t"         \
    "pkhtb  %[" Y1 "], %[" S "], %[" Y1 "], asr #16\n\t"         \
    "ubfx   %[" S "], %[" A "], #7, #9\n\t"                      \
    "ldr    %[" S "], [%[tab], %[" S "], lsl #1]\n\t"            \
    "smuad  %[" Y0 "], %[" S "], %[" Y0 "]\n\t"                  \
    "lsr    %[" S "], %[" A "], #23\n\t"                         \
    "ldr    %[" S "], [%[tab], %[" S "], lsl #1]\n\t"            \
    "smuad  %[" Y1 "], %[" S "], %[" Y1 "]\n\t"                  \
    "sbfx   %[" S "], %[" W "], #15, #1\n\t"                     \
    "eor    %[" Y0 "], %[" Y0 "], %[" S "]\n\t"                  \
    "add    %[" Y0 "], %[" Y0 "], %[bias]\n\t"                   \
    "usat   %[" Y0 "], #15, %[" Y0 "], asr #8\n\t"               \
    "eor    %[" Y1 "], %[" Y1 "], %[" W "], asr #31\n\t"         \
    "add    %[" Y1 "], %[" Y1 "], %[bias]\n\t"                   \
    "usat   %[" Y1 "], #15, %[" Y1 "], asr #8\n\t"
// tanh_dsp of both halves of W (int16 each) before its last shift, into X0 and X1: X = (smuad ^ m) + 32, tanh = X >> 6
// (A and S temporaries; 19 instructions): min(|z|, 32767) in each half at once (SSUB16 from 0 sets GE where 0 - z >= 0,
// QSUB16 from 0 gives -z saturated, -(-32768) = 32767, and SEL takes it there, else z), then each lane's i = a >> 6,
// f = a & 63 and SMUAD with (64 - f, f) as tanh_dsp's, both lanes' weights at once as SARNN_DSP_SIGMOID_PAIR_S's.
#define SARNN_DSP_TANH_PAIR(W, A, X0, X1, S)                     \
    "mov    %[" A "], #0\n\t"                                    \
    "ssub16 %[" X0 "], %[" A "], %[" W "]\n\t"                   \
    "qsub16 %[" A "], %[" A "], %[" W "]\n\t"                    \
    "sel    %[" A "], %[" A "], %[" W "]\n\t"                    \
    "and    %[" S "], %[" A "], #0x003F003F\n\t"                 \
    "rsb    %[" X1 "], %[" S "], #0x00400040\n\t"                \
    "pkhbt  %[" X0 "], %[" X1 "], %[" S "], lsl #16\n\t"         \
    "pkhtb  %[" X1 "], %[" S "], %[" X1 "], asr #16\n\t"         \
    "ubfx   %[" S "], %[" A "], #6, #9\n\t"                      \
    "ldr    %[" S "], [%[tab], %[" S "], lsl #1]\n\t"            \
    "smuad  %[" X0 "], %[" S "], %[" X0 "]\n\t"                  \
    "lsr    %[" S "], %[" A "], #22\n\t"                         \
    "ldr    %[" S "], [%[tab], %[" S "], lsl #1]\n\t"            \
    "smuad  %[" X1 "], %[" S "], %[" X1 "]\n\t"                  \
    "sbfx   %[" S "], %[" W "], #15, #1\n\t"                     \
    "eor    %[" X0 "], %[" X0 "], %[" S "]\n\t"                  \
    "add    %[" X0 "], %[" X0 "], #32\n\t"                       \
    "eor    %[" X1 "], %[" X1 "], %[" W "], asr #31\n\t"         \
    "add    %[" X1 "], %[" X1 "], #32\n\t"
// clang-format on

/// The LSTM cell, Q15::lstm_cell's contract (kernels_q15.hpp: q15/cells.hpp's generic loop, the same integers), two
/// lanes a pass in assembly (72.5 instructions a lane at first, where the C of one lane a pass took 85, and the same
/// pairs in intrinsics, GCC 12 spilling, 84: M4 q15 Lstm<16, 32> 13,629 (C) / 13,586 (intrinsics) -> 13,275
/// instructions a step, 2.3% fewer than the intrinsics; 68.5 a lane, 12,987 -> 12,859, with both lanes' weights at once
/// and g and tanh(c) packed, since 7 Dec): each gate's pair and c~'s one LDR (any alignment), the activations by
/// SARNN_DSP_SIGMOID_PAIR_S and SARNN_DSP_TANH_PAIR; the two terms of c each rounded as q15/cells.hpp's (|f·c~|, |i·g|,
/// |o·tanh c| < 2^30) and packed by PKHBT / PKHTB (the top lane's rounded sum shifted so that its quotient lands in the
/// top half), so that c = sat16(f·c~ term + i·g term) of both lanes is one QADD16, a lane saturated where SADD16's
/// wrapped sum differs (counted out of line); c and h stored one word each. Fourteen registers: the i rows' pointer (f
/// and g at 2·hidden and 4·hidden bytes on), the o rows', c~'s, c's and h's, the offset, the table, the sigmoid's bias
/// and six temporaries; the end and the count on the stack. The gates in the order g, i (the i·g term), f (the f·c~
/// term), o: at most six values live. An odd last lane alone.
inline std::size_t lstm_cell(const q15* z, const q15* c_tilde, std::size_t hidden, q15* c, q15* h) noexcept {
    std::size_t saturated = 0;
    const std::int32_t bias = kSigmoidBias;
    const std::int16_t* const tab = fixed::detail::kTanhTable;
    const auto* pz = reinterpret_cast<const char*>(z);
    const auto* po = pz + 6 * hidden;
    const std::size_t off = 2 * hidden;
    const q15* const end = c_tilde + (hidden & ~std::size_t{1});
    if (c_tilde != end) {
        std::int32_t t0, t1, t2, t3, t4, t5;
        // clang-format off
        __asm__ volatile(
            "1:\n\t"
            // g of both lanes: G0 in t2, G1 in t3 (g = G >> 6)
            "ldr    %[t0], [%[pz], %[off], lsl #1]\n\t"
            SARNN_DSP_TANH_PAIR("t0", "t1", "t2", "t3", "t4")
            // g of both lanes packed (g0, g1) in t2
            "asr    %[t2], %[t2], #6\n\t"
            "asr    %[t3], %[t3], #6\n\t"
            "pkhbt  %[t2], %[t2], %[t3], lsl #16\n\t"
            // i of both lanes (t4, t5), then the i·g term of both: round(i·g / 2^18) packed in t2
            "ldr    %[t0], [%[pz]]\n\t"
            SARNN_DSP_SIGMOID_PAIR_S("t0", "t1", "t4", "t5", "t3")
            "smulbb %[t4], %[t4], %[t2]\n\t"
            "smulbt %[t5], %[t5], %[t2]\n\t"
            "add    %[t4], %[t4], #0x20000\n\t"
            "add    %[t5], %[t5], #0x20000\n\t"
            "asr    %[t5], %[t5], #2\n\t"
            "pkhtb  %[t2], %[t5], %[t4], asr #18\n\t"
            // f of both lanes (t3, t4), then the f·c~ term of both: round(f·c~ / 2^15) packed in t1
            "ldr    %[t0], [%[pz], %[off]]\n\t"
            SARNN_DSP_SIGMOID_PAIR_S("t0", "t1", "t3", "t4", "t5")
            "ldr    %[t0], [%[pc]], #4\n\t"
            "smulbb %[t3], %[t3], %[t0]\n\t"
            "smulbt %[t4], %[t4], %[t0]\n\t"
            "add    %[t3], %[t3], #16384\n\t"
            "add    %[t4], %[t4], #16384\n\t"
            "asr    %[t3], %[t3], #15\n\t"
            "pkhbt  %[t1], %[t3], %[t4], lsl #1\n\t"
            // c = sat16(f·c~ term + i·g term) of both lanes in t0; a lane saturated where the wrapped sum differs
            "qadd16 %[t0], %[t1], %[t2]\n\t"
            "sadd16 %[t1], %[t1], %[t2]\n\t"
            "cmp    %[t1], %[t0]\n\t"
            "bne    5f\n\t"
            "4:\n\t"
            "str    %[t0], [%[pcn]], #4\n\t"
            // tanh(c) of both lanes (T0 in t2, T1 in t3: tanh = T >> 6), packed in t2
            SARNN_DSP_TANH_PAIR("t0", "t1", "t2", "t3", "t4")
            "asr    %[t2], %[t2], #6\n\t"
            "asr    %[t3], %[t3], #6\n\t"
            "pkhbt  %[t2], %[t2], %[t3], lsl #16\n\t"
            // o of both lanes (t4, t5), then h = round(o·tanh(c) / 2^15) of both, one word
            "ldr    %[t0], [%[po]], #4\n\t"
            SARNN_DSP_SIGMOID_PAIR_S("t0", "t1", "t4", "t5", "t3")
            "smulbb %[t4], %[t4], %[t2]\n\t"
            "add    %[t4], %[t4], #16384\n\t"
            "asr    %[t4], %[t4], #15\n\t"
            "smulbt %[t5], %[t5], %[t2]\n\t"
            "add    %[t5], %[t5], #16384\n\t"
            "pkhbt  %[t4], %[t4], %[t5], lsl #1\n\t"
            "str    %[t4], [%[ph]], #4\n\t"
            "add    %[pz], %[pz], #4\n\t"
            "ldr    %[t0], %[end]\n\t"
            "cmp    %[pc], %[t0]\n\t"
            "bne    1b\n\t"
            "b      9f\n\t"
            // the saturated lanes of the pair counted: those whose halves differ (t1 ^ t0)
            "5:\n\t"
            "eor    %[t1], %[t1], %[t0]\n\t"
            "ldr    %[t2], %[sat]\n\t"
            "lsls   %[t3], %[t1], #16\n\t"
            "it     ne\n\t"
            "addne  %[t2], %[t2], #1\n\t"
            "lsrs   %[t1], %[t1], #16\n\t"
            "it     ne\n\t"
            "addne  %[t2], %[t2], #1\n\t"
            "str    %[t2], %[sat]\n\t"
            "b      4b\n\t"
            "9:"
            : [pz] "+r"(pz), [po] "+r"(po), [pc] "+r"(c_tilde), [pcn] "+r"(c), [ph] "+r"(h), [t0] "=&r"(t0),
              [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [t4] "=&r"(t4), [t5] "=&r"(t5), [sat] "+m"(saturated)
            : [off] "r"(off), [tab] "r"(tab), [bias] "r"(bias), [end] "m"(end)
            : "cc", "memory");
        // clang-format on
    }
    if ((hidden & 1u) != 0) {
        const std::int32_t i = sigmoid_dsp(z[hidden - 1].raw, bias);
        const std::int32_t f = sigmoid_dsp(z[2 * hidden - 1].raw, bias);
        const std::int32_t g = tanh_dsp(z[3 * hidden - 1].raw);
        const std::int32_t o = sigmoid_dsp(z[4 * hidden - 1].raw, bias);
        // c = f·c~ / 2^15 + i·g / 2^18 in Q3.12, each rounded half up, saturated to int16 and counted
        const std::int32_t ck = (__smlabb(f, c_tilde->raw, 1 << 14) >> 15) + ((i * g + (1 << 17)) >> 18);
        const std::int32_t cs = __ssat(ck, 16);
        saturated += cs != ck ? 1u : 0u;
        c->raw = static_cast<std::int16_t>(cs);
        // h = o·tanh(c) in Q15, rounded half up
        h->raw = static_cast<std::int16_t>((o * tanh_dsp(cs) + (1 << 14)) >> 15);
    }
    return saturated;
}

/// One lane of the GRU cell (gru_cell below) from its sums r_s = sat16(gi_r + gh_r), z_s = sat16(gi_z + gh_z), gi_n
/// and h_prev, gh_n in the bottom half (B) or the top half (T) of the word ghn: r, z = sigmoid_dsp, n = tanh_dsp(gi_n
/// + round(r·gh_n / 2^15)) (SMLABB / SMLABT from 2^14: |r·gh_n| < 2^30; the sum beyond int16 as tanh_wide takes it),
/// h = n + round(z·(h_prev - n) / 2^15).
template <bool kTop>
__attribute__((always_inline)) inline std::int32_t gru_lane(std::int32_t rs, std::int32_t zs, std::int32_t ghn,
                                                            std::int32_t gin, std::int32_t hp, std::int32_t bias,
                                                            std::int32_t half) noexcept {
    const std::int32_t r = sigmoid_dsp(rs, bias);
    const std::int32_t z = sigmoid_dsp(zs, bias);
    const std::int32_t rg = kTop ? __smlabt(r, ghn, half) : __smlabb(r, ghn, half);
    const std::int32_t n = tanh_dsp(gin + (rg >> 15));
    return n + ((z * (hp - n) + half) >> 15);
}

/// The GRU cell, Q15::gru_cell's contract (kernels_q15.hpp: q15/seam.hpp's generic form, the same integers), two lanes
/// a pass in assembly (48 instructions a lane where GCC's form of the same C took 56.5, spilling five values: M4 q15
/// Gru 11,096 -> 10,855 instructions a step, 2.2%; the tanh's inputs one QADD16 and SARNN_DSP_TANH_PAIR since 7 Dec,
/// 32 fewer): gru_lane's arithmetic with
///   - each input's pair one LDR (any alignment); the sums of r's and z's pairs saturated to int16 by one QADD16
///     each (SSAT's value per half);
///   - |r_s| and |z_s| of both lanes at once: SSUB16 from 0 (GE set in a lane where 0 - s >= 0, in full precision:
///     -(-32768) = 32768 too) and SEL of -s or s, each half |s| as an unsigned 16-bit value (32768: 0x8000); the
///     lane's i = |s| >> 7 and f = |s| & 127 one UBFX / LSR / AND each, its sign m from the pair's word (SBFX of bit
///     15, or ASR #31);
///   - the sigmoid's and tanh's table pairs and weights (f·2^16 + 128 - f, or 64) as sigmoid_dsp's and tanh_dsp's;
///   - n and h as gru_lane's: N = (X ^ m) + 32 held, n = N >> 6 taken by the shifted operands.
/// Fourteen registers: the four pointers, the z rows' offset (the n rows at twice it), the table, the sigmoid's bias,
/// 2^14 and six temporaries; the end of the pairs on the stack (one LDR a pass). Each pass loads the next pass's r pairs
/// with the pointers' step (LDR with writeback: two instructions a pass fewer, M4 Gru<q15, 16, 32> 9,933 -> 9,903). An
/// odd last lane alone (gru_lane).
inline void gru_cell(const q15* gi, const q15* gh, const q15* h_prev, std::size_t hidden, q15* h) noexcept {
    // the gates' rows r, z, n of gi and gh one pointer each, the rows z and n at 2·hidden and 4·hidden bytes on
    const auto* pi = reinterpret_cast<const char*>(gi);
    const auto* ph = reinterpret_cast<const char*>(gh);
    const std::size_t z_off = 2 * hidden;
    const q15* const hp_end = h_prev + (hidden & ~std::size_t{1});
    const std::int32_t bias = kSigmoidBias, half = 1 << 14;
    const std::int16_t* const tab = fixed::detail::kTanhTable;
    if (h_prev != hp_end) {
        std::int32_t t0, t1, t2, t3, t4, t5;
        // clang-format off
        __asm__ volatile(
            // r = sigmoid(sat16(gi_r + gh_r)), both lanes: r0 in t2, r1 in t3 (the pairs of gi_r and gh_r loaded
            // before the pass: by the previous pass for the next, with the pointers' step)
            "ldr    %[t0], [%[pi]]\n\t"
            "ldr    %[t1], [%[ph]]\n\t"
            "1:\n\t"
            "qadd16 %[t0], %[t0], %[t1]\n\t"
            SARNN_DSP_SIGMOID_PAIR_S("t0", "t1", "t2", "t3", "t4")
            // the tanh's inputs sat16(gi_n + round(r·gh_n / 2^15)) of both lanes in t0 (one QADD16: tanh_dsp takes
            // |x| up to 32767, so that the sum saturated to int16 gives the same tanh as the sum itself); each
            // rounded term is packed as lstm_cell's
            "ldr    %[t0], [%[ph], %[zo], lsl #1]\n\t"
            "smlabb %[t2], %[t2], %[t0], %[half]\n\t"
            "smlabt %[t3], %[t3], %[t0], %[half]\n\t"
            "asr    %[t2], %[t2], #15\n\t"
            "pkhbt  %[t2], %[t2], %[t3], lsl #1\n\t"
            "ldr    %[t0], [%[pi], %[zo], lsl #1]\n\t"
            "qadd16 %[t0], %[t0], %[t2]\n\t"
            // n = tanh(x): N0 = n0·64 + rounding in t3, N1 in t4
            SARNN_DSP_TANH_PAIR("t0", "t1", "t3", "t4", "t2")
            // z = sigmoid(sat16(gi_z + gh_z)), both lanes: z0 in t2, z1 in t5
            "ldr    %[t0], [%[pi], %[zo]]\n\t"
            "ldr    %[t1], [%[ph], %[zo]]\n\t"
            "qadd16 %[t0], %[t0], %[t1]\n\t"
            SARNN_DSP_SIGMOID_PAIR("t0", "t1", "t2", "t5")
            // h = n + round(z·(h_prev - n) / 2^15), each lane
            "ldr    %[t0], [%[hp]], #4\n\t"
            "sxth   %[t1], %[t0]\n\t"
            "sub    %[t1], %[t1], %[t3], asr #6\n\t"
            "mla    %[t1], %[t2], %[t1], %[half]\n\t"
            "asr    %[t1], %[t1], #15\n\t"
            "add    %[t1], %[t1], %[t3], asr #6\n\t"
            "strh   %[t1], [%[h]], #2\n\t"
            "asr    %[t0], %[t0], #16\n\t"
            "sub    %[t0], %[t0], %[t4], asr #6\n\t"
            "mla    %[t0], %[t5], %[t0], %[half]\n\t"
            "asr    %[t0], %[t0], #15\n\t"
            "add    %[t0], %[t0], %[t4], asr #6\n\t"
            "strh   %[t0], [%[h]], #2\n\t"
            // the next pass's pairs of gi_r and gh_r, each pointer on by a pair (after the last pass: the first pair
            // of z's rows, within gi and gh)
            "ldr    %[t0], [%[pi], #4]!\n\t"
            "ldr    %[t1], [%[ph], #4]!\n\t"
            "ldr    %[t2], %[end]\n\t"
            "cmp    %[hp], %[t2]\n\t"
            "bne    1b"
            : [pi] "+r"(pi), [ph] "+r"(ph), [hp] "+r"(h_prev), [h] "+r"(h), [t0] "=&r"(t0), [t1] "=&r"(t1),
              [t2] "=&r"(t2), [t3] "=&r"(t3), [t4] "=&r"(t4), [t5] "=&r"(t5)
            : [zo] "r"(z_off), [tab] "r"(tab), [bias] "r"(bias), [half] "r"(half), [end] "m"(hp_end)
            : "cc", "memory");
        // clang-format on
    }
    if ((hidden & 1u) != 0) {
        const std::size_t d = hidden - 1;
        h[0].raw = static_cast<std::int16_t>(
            gru_lane<false>(__ssat(gi[d].raw + gh[d].raw, 16), __ssat(gi[hidden + d].raw + gh[hidden + d].raw, 16),
                            gh[2 * hidden + d].raw, gi[2 * hidden + d].raw, h_prev[0].raw, bias, half));
    }
}

#undef SARNN_DSP_TANH_PAIR
#undef SARNN_DSP_SIGMOID_PAIR_S
#undef SARNN_DSP_SIGMOID_PAIR

}  // namespace sarnn::kernel::q15_dsp

#endif
