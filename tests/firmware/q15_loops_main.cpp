// tests/firmware/q15_loops_main.cpp: the build's q15 inner loops (include/sarnn/kernels/q15/loops.hpp: Helium, DSP, Thumb or
// plain C++, and the generic forms where a target has none of its own) checked on the board one by one against the
// formulas of their contracts written out here in plain integer C++: random values, every length up to a few
// vectors and its tail, rings of two segments, every tanh input, saturating LSTM cells. The q15 digests (q15_main.cpp) see these loops only
// at the models' sizes. Prints "N passed, N failed", exits 0 only when nothing failed.
#include <cstddef>
#include <cstdint>
#include <cstdio>

#include <sarnn/kernels_q15.hpp>

#include "sarnn/kernels/q15/loops.hpp"

namespace {

namespace q = sarnn::kernel::q15_loops;
using L = q::Target;  // this build's loops (q15/loops.hpp)
using sarnn::q15;

int g_passed = 0;
int g_failed = 0;

void expect(bool ok, const char* what, int it) {
    if (ok) {
        ++g_passed;
    } else if (++g_failed <= 20) {
        std::printf("FAILED %s (case %d)\n", what, it);
    }
}

std::uint32_t g_lcg = 2024u;
/// uniform in [lo, hi]
int uniform(int lo, int hi) {
    g_lcg = g_lcg * 1664525u + 1013904223u;
    return lo + static_cast<int>((g_lcg >> 8) % static_cast<std::uint32_t>(hi - lo + 1));
}

constexpr std::size_t kRowsMax = 64, kDimMax = 40, kStrideMax = 66;
alignas(16) q15 g_s[kRowsMax * kStrideMax];
alignas(16) q15 g_a[3 * kDimMax], g_b[kRowsMax + 8], g_out[kRowsMax + 8];  // g_a: a GRU cell's gh (3·40 values)
std::int8_t g_v[kDimMax];

std::int32_t abs32(std::int32_t v) { return v < 0 ? -v : v; }

/// e_j = (S_j·q + 2^(t-1)) >> t, count states of 2·npairs values (row stride even, word aligned), by X::scores
/// (cases 200 to 319: the strides 16, 32 and 64 that the DSP set's scores4 takes as constants, q' of a multiple of 4
/// pairs up to the stride, counts with every remainder mod 4; the last 40: q' of six pairs, the DSP set's scores6, rows
/// 12 values apart or more)
template <class X>
void check_scores() {
    for (int it = 0; it < 360; ++it) {
        std::size_t npairs = static_cast<std::size_t>(uniform(1, 30));  // (n to 60: Helium's q' in registers to 56)
        std::size_t stride = 2 * npairs + 2 * static_cast<std::size_t>(uniform(0, 2));
        if (it >= 320) {
            npairs = 6;
            stride = 12 + 2 * static_cast<std::size_t>(it % 3 == 0 ? 0 : uniform(1, 10));
        } else if (it >= 200) {
            stride = std::size_t{16} << (it % 3);
            npairs = 4 * static_cast<std::size_t>(uniform(1, static_cast<int>(stride / 8)));
        }
        const std::size_t count = static_cast<std::size_t>(uniform(1, 40));
        const int t = uniform(1, 20);
        for (q15& x : g_s) x.raw = static_cast<std::int16_t>(uniform(-32768, 32767));
        // Σ|q| <= 65536: every product sum exact in int32
        const int qmax = static_cast<int>(3000 / npairs);
        for (std::size_t k = 0; k < 2 * npairs; ++k) g_b[k].raw = static_cast<std::int16_t>(uniform(-qmax, qmax));
        X::scores(g_s, stride, count, g_b, npairs, t, g_out);
        bool ok = true;
        for (std::size_t j = 0; j < count; ++j) {
            std::int32_t d = 0;
            for (std::size_t k = 0; k < 2 * npairs; ++k) d += g_s[j * stride + k].raw * g_b[k].raw;
            ok = ok && g_out[j].raw == static_cast<std::int16_t>((d + (std::int32_t{1} << (t - 1))) >> t);
        }
        expect(ok, "scores", it);
    }
}

/// one of the values that try the loops' edges: the int16 ends, around 0
std::int16_t edge() {
    static constexpr std::int16_t kEdges[] = {-32768, -32767, -16384, -2, -1, 0, 1, 2, 16383, 32766, 32767};
    return kEdges[uniform(0, static_cast<int>(sizeof kEdges / sizeof kEdges[0]) - 1)];
}

/// scores_max (kScoresMax): scores's e_j and max(m, e_0, ..., e_{count-1}), q' small enough that every e_j fits int16
/// (as attend_query's t makes them: t >= ceil(log2 Σ|q'|)), counts 1 to 40 (odd ones: the last state alone), npairs 1
/// to 30 (1, odd, even: the loop's three forms), the max coming in from before or found among the scores (ties, the
/// int16 ends, all scores equal)
template <class X>
void check_scores_max() {
    int from_before = 0, found = 0;
    for (int it = 0; it < 600; ++it) {
        const std::size_t npairs = static_cast<std::size_t>(it < 30 ? it % 3 + 1 : uniform(1, 30));
        const std::size_t stride = 2 * npairs + 2 * static_cast<std::size_t>(uniform(0, 2));
        const std::size_t count = static_cast<std::size_t>(uniform(1, 40));
        const int t = uniform(1, 20);
        const int kind = it % 4;
        for (q15& x : g_s) x.raw = static_cast<std::int16_t>(kind == 2 ? edge() : uniform(-32768, 32767));
        // Σ|q| <= 2^t, so that |e_j| <= 32768·2^t / 2^t, rounded: 32767 at most (as prepare_query's t)
        const int qsum = (1 << t) - 1;
        const int qmax = qsum / static_cast<int>(2 * npairs);
        for (std::size_t k = 0; k < 2 * npairs; ++k)
            g_b[k].raw = static_cast<std::int16_t>(kind == 3 ? (k == 0 ? qsum / 2 : 0) : uniform(-qmax, qmax));
        if (kind == 1)
            for (std::size_t j = 1; j < count; ++j)
                for (std::size_t k = 0; k < 2 * npairs; ++k) g_s[j * stride + k] = g_s[k];  // all scores equal
        const std::int32_t m0 = it % 5 == 0 ? uniform(-32768, 32767) : -32768;
        const std::int32_t m = X::scores_max(g_s, stride, count, g_b, npairs, t, g_out, m0);
        bool ok = true;
        std::int32_t want = m0;
        for (std::size_t j = 0; j < count; ++j) {
            std::int32_t d = 0;
            for (std::size_t k = 0; k < 2 * npairs; ++k) d += g_s[j * stride + k].raw * g_b[k].raw;
            const std::int32_t e = (d + (std::int32_t{1} << (t - 1))) >> t;
            ok = ok && e >= -32768 && e <= 32767 && g_out[j].raw == e;
            want = e > want ? e : want;
        }
        expect(ok && m == want, "scores_max", it);
        (want == m0 ? from_before : found) += 1;
    }
    expect(from_before > 20 && found > 400, "scores_max: the max from before and found", found);
}

/// max, softmax's passes (exps: p_j = min(exp_q16((e_j - m)·2^(16-f)), 65535) above the cut, else 0; normalize), at
/// every length to 70, word aligned and not: scores anywhere in int16, or within twice the cut's span below a top (most
/// above the cut, some at it: e_j - m = zero_below and zero_below + 1), or the int16 ends (ties at the max); m their
/// max, or above it (then maybe no score above the cut); normalize also of any int16 values
void check_softmax() {
    int above = 0;
    for (int it = 0; it < 1200; ++it) {
        const std::size_t n = static_cast<std::size_t>(uniform(1, 70));
        q15* const a = g_a + it % 2;
        const int f = uniform(-2, 15);
        const std::int32_t to_q16 = std::int32_t{1} << (16 - f);
        const std::int32_t below = (std::int32_t{12} << 16) >> (16 - f);
        const std::int32_t zero_below = below > 1 ? -below : -1;
        const int kind = it % 4;
        const std::int32_t span = 2 * below < 32768 ? 2 * below : 32768;
        const std::int32_t top = uniform(-32768 + span, 32767);
        for (std::size_t j = 0; j < n; ++j) {
            std::int32_t v = uniform(-32768, 32767);
            if (kind == 1 || kind == 3) {
                const int r = uniform(0, 9);
                v = top - (r == 0 ? below : (r == 1 ? below - 1 : uniform(0, span)));
                v = v < -32768 ? -32768 : v;
            } else if (kind == 2) {
                v = edge();
            }
            a[j].raw = g_b[j].raw = static_cast<std::int16_t>(v);
        }
        std::int32_t m = -32768;
        for (std::size_t j = 0; j < n; ++j) m = g_b[j].raw > m ? g_b[j].raw : m;
        expect(L::max_raw(a, n) == m, "max_raw", it);
        if (kind == 3) {
            m += uniform(0, below + 1);
            m = m > 32767 ? 32767 : m;
        }
        const std::uint32_t l = L::exps(a, n, m, to_q16, zero_below);
        std::uint32_t l_want = 0;
        bool ok = true;
        for (std::size_t j = 0; j < n; ++j) {
            const std::int32_t d = g_b[j].raw - m;
            std::int32_t p = 0;
            if (d > zero_below) {
                p = sarnn::fixed::exp_q16(d * to_q16);
                p = p > 65535 ? 65535 : p;
                ++above;
            }
            g_b[j].raw = static_cast<std::int16_t>(p - 32768);
            l_want += static_cast<std::uint32_t>(p);
            ok = ok && a[j].raw == g_b[j].raw;
        }
        expect(ok && l == l_want, "exps", it);
        if (it % 3 == 0)
            for (std::size_t j = 0; j < n; ++j)
                a[j].raw = g_b[j].raw = static_cast<std::int16_t>(uniform(-32768, 32767));
        const auto rec = static_cast<std::uint32_t>(it % 5 == 0 ? 65535 : uniform(32768, 65535));
        const int down = uniform(16, 31);
        L::normalize(a, n, rec, down);
        ok = true;
        for (std::size_t j = 0; j < n; ++j) {
            const std::uint32_t av = (static_cast<std::uint32_t>(g_b[j].raw + 32768) * rec) >> down;
            ok = ok && a[j].raw == static_cast<std::int16_t>(av > 32767u ? 32767u : av);
        }
        expect(ok, "normalize", it);
    }
    expect(above > 10000, "exps above the cut", above);
}

/// Σ|q_k|; q'_k = (q_k + 2^(s-1)) >> s and Σ|q'_k|, in place or into another array alike aligned or not, q word
/// aligned or not, values anywhere in int16 or at its ends
void check_query() {
    for (int it = 0; it < 1200; ++it) {
        const std::size_t dim = static_cast<std::size_t>(uniform(1, 70));
        const int s = uniform(1, 15);
        q15* const q = g_a + (it / 2) % 2;
        std::uint32_t sum = 0, rsum = 0;
        for (std::size_t k = 0; k < dim; ++k) {
            q[k].raw = it % 3 == 0 ? edge() : static_cast<std::int16_t>(uniform(-32768, 32767));
            sum += static_cast<std::uint32_t>(abs32(q[k].raw));
            const std::int32_t v = (q[k].raw + (std::int32_t{1} << (s - 1))) >> s;
            g_b[k].raw = static_cast<std::int16_t>(v);
            rsum += static_cast<std::uint32_t>(abs32(v));
        }
        expect(L::abs_sum(q, dim) == sum, "abs_sum", it);
        q15* const out = it % 2 == 0 ? q : g_out + (it / 4) % 2;
        const std::uint32_t got = L::round_query(q, out, dim, s);
        bool ok = got == rsum;
        for (std::size_t k = 0; k < dim; ++k) ok = ok && out[k].raw == g_b[k].raw;
        expect(ok, "round_query", it);
    }
}

/// every input: exps of every e_j - m above the cut for every f (m = 32767: the loops see e_j - m only), normalize of
/// every alpha_j for some rec and down, abs_sum and round_query (every s) of every int16, in runs of 64
void check_every_input() {
    bool ok_exps = true, ok_norm = true, ok_query = true;
    for (int f = -2; f <= 15; ++f) {
        const std::int32_t to_q16 = std::int32_t{1} << (16 - f);
        const std::int32_t below = (std::int32_t{12} << 16) >> (16 - f);
        const std::int32_t zero_below = below > 1 ? -below : -1;
        for (std::int32_t e0 = 32767; e0 > 32767 + zero_below && e0 >= -32768; e0 -= 64) {
            std::uint32_t l_want = 0;
            for (std::size_t j = 0; j < 64; ++j) {
                const std::int32_t e = e0 - static_cast<std::int32_t>(j);
                g_a[j].raw = static_cast<std::int16_t>(e < -32768 ? -32768 : e);
                const std::int32_t d = g_a[j].raw - 32767;
                const std::int32_t p = d > zero_below ? sarnn::fixed::exp_q16(d * to_q16) : 0;
                g_b[j].raw = static_cast<std::int16_t>((p > 65535 ? 65535 : p) - 32768);
                l_want += static_cast<std::uint32_t>(p > 65535 ? 65535 : p);
            }
            ok_exps = ok_exps && L::exps(g_a, 64, 32767, to_q16, zero_below) == l_want;
            for (std::size_t j = 0; j < 64; ++j) ok_exps = ok_exps && g_a[j].raw == g_b[j].raw;
        }
    }
    static constexpr std::uint32_t kRec[] = {32768, 32769, 45000, 65535};
    for (const std::uint32_t rec : kRec) {
        for (int down = 16; down <= 31; down += 5) {
            for (std::int32_t v0 = -32768; v0 < 32768; v0 += 64) {
                for (std::size_t j = 0; j < 64; ++j) g_a[j].raw = static_cast<std::int16_t>(v0 + static_cast<int>(j));
                L::normalize(g_a, 64, rec, down);
                for (std::size_t j = 0; j < 64; ++j) {
                    const std::uint32_t av = (static_cast<std::uint32_t>(v0 + static_cast<int>(j) + 32768) * rec) >>
                                             down;
                    ok_norm = ok_norm && g_a[j].raw == static_cast<std::int16_t>(av > 32767u ? 32767u : av);
                }
            }
        }
    }
    for (std::int32_t v0 = -32768; v0 < 32768; v0 += 64) {
        std::uint32_t sum = 0;
        for (std::size_t j = 0; j < 64; ++j) {
            g_a[j].raw = static_cast<std::int16_t>(v0 + static_cast<int>(j));
            sum += static_cast<std::uint32_t>(abs32(g_a[j].raw));
        }
        ok_query = ok_query && L::abs_sum(g_a, 64) == sum;
        for (int s = 1; s <= 15; ++s) {
            std::uint32_t rsum = 0;
            bool same = true;
            const std::uint32_t got = L::round_query(g_a, g_out, 64, s);
            for (std::size_t j = 0; j < 64; ++j) {
                const std::int32_t v = (g_a[j].raw + (std::int32_t{1} << (s - 1))) >> s;
                rsum += static_cast<std::uint32_t>(abs32(v));
                same = same && g_out[j].raw == v;
            }
            ok_query = ok_query && same && got == rsum;
        }
    }
    expect(ok_exps, "exps, every input", 0);
    expect(ok_norm, "normalize, every input", 0);
    expect(ok_query, "abs_sum and round_query, every input", 0);
}

/// tanh_q15 of an int16 sum: |z| at most 32767, the table interpolated, the sign put back (the contract's formula)
std::int32_t tanh_ref(std::int32_t z) {
    const std::int16_t* const T = sarnn::fixed::detail::kTanhTable;
    std::int32_t a = abs32(z);
    a = a > 32767 ? 32767 : a;
    const std::int32_t i = a >> 6, frac = a & 63;
    const std::int32_t y = T[i] + (((T[i + 1] - T[i]) * frac + 32) >> 6);
    return z < 0 ? -y : y;
}

/// Σ_k v_k·tanh(key_k + q_k), the sum saturated to int16
void check_additive() {
    for (int it = 0; it < 2000; ++it) {
        const std::size_t K = static_cast<std::size_t>(uniform(1, 40));
        const int span = it % 3 == 0 ? 3000 : 32767;
        std::int32_t want = 0;
        for (std::size_t k = 0; k < K; ++k) {
            g_a[k].raw = static_cast<std::int16_t>(uniform(-span - 1, span));
            g_b[k].raw = static_cast<std::int16_t>(uniform(-span - 1, span));
            g_v[k] = static_cast<std::int8_t>(uniform(-128, 127));
            const std::int32_t z = g_a[k].raw + g_b[k].raw;
            want += g_v[k] * tanh_ref(z > 32767 ? 32767 : (z < -32768 ? -32768 : z));
        }
        expect(L::additive_sum(g_a, g_b, g_v, K) == want, "additive_sum", it);
    }
}

/// every int16 input, in runs of eleven (a vector and a tail)
template <class X>
void check_tanh_rows() {
    bool ok = true;
    for (std::int32_t z0 = -32768; z0 <= 32767; z0 += 11) {
        for (std::int32_t j = 0; j < 11; ++j) g_a[j].raw = static_cast<std::int16_t>(z0 + j > 32767 ? 32767 : z0 + j);
        for (std::int32_t j = 0; j < 11; ++j) g_b[j] = g_a[j];
        X::tanh_rows(g_a, 11);
        for (std::size_t j = 0; j < 11; ++j) ok = ok && g_a[j].raw == tanh_ref(g_b[j].raw);
    }
    expect(ok, "tanh_rows", 0);
}

/// c_k = (Σ_j alpha_j S_j,k + 2^14) >> 15 within +-32767, the states in two segments of a ring (n0 states from row
/// 20, n1 from row 0), alpha and c at a word or a half word
template <class X>
void check_weighted_case(std::size_t dim, std::size_t stride, std::size_t n0, std::size_t n1, std::size_t a_off,
                         std::size_t c_off, int it) {
    for (std::size_t k = 0; k < kRowsMax * stride && k < kRowsMax * kStrideMax; ++k)
        g_s[k].raw = static_cast<std::int16_t>(uniform(-32768, 32767));
    // Σ alpha_j <= 32768 (as softmax's); now and then the largest sums: Σ alpha_j = 32769 (softmax's bound), every
    // S_j,k at -32768 or 32767 (c_k past +-32767 before its clamp)
    const std::size_t m = n0 + n1;
    const int amax = static_cast<int>(32767 / (m + 1));
    q15* const a = g_a + a_off;
    for (std::size_t j = 0; j < m; ++j) a[j].raw = static_cast<std::int16_t>(uniform(0, amax));
    if (it % 5 == 0 && m > 0) {
        for (std::size_t j = 0; j < m; ++j) a[j].raw = static_cast<std::int16_t>(32769 / m > 32767 ? 32767 : 32769 / m);
        if (m > 1) a[0].raw = static_cast<std::int16_t>(a[0].raw + 32769 % m);
        for (std::size_t k = 0; k < kRowsMax * stride && k < kRowsMax * kStrideMax; ++k)
            g_s[k].raw = static_cast<std::int16_t>(it % 10 == 0 ? -32768 : 32767);
    }
    // or halves: alpha_j = 16384 for one or two states, 0 for the others (the sums of odd values at 2^14 mod 2^15)
    if (it % 5 == 2 && m > 0) {
        for (std::size_t j = 0; j < m; ++j) a[j].raw = 0;
        a[uniform(0, static_cast<int>(m) - 1)].raw = 16384;
        a[uniform(0, static_cast<int>(m) - 1)].raw = 16384;
    }
    const q15* const base[2] = {g_s + 20 * stride, g_s};
    const std::size_t n[2] = {n0, n1};
    q15* const out = g_out + c_off;
    for (std::size_t k = 0; k < dim + 1; ++k) out[k].raw = 12345;
    X::weighted_sum(base, n, stride, dim, a, out);
    bool ok = out[dim].raw == 12345;
    for (std::size_t k = 0; k < dim; ++k) {
        std::int32_t acc = 0;
        std::size_t j = 0;
        for (int g = 0; g < 2; ++g)
            for (std::size_t i = 0; i < n[g]; ++i, ++j) acc += a[j].raw * base[g][i * stride + k].raw;
        std::int32_t ck = (acc + (std::int32_t{1} << 14)) >> 15;
        ck = ck > 32767 ? 32767 : (ck < -32767 ? -32767 : ck);
        ok = ok && out[k].raw == ck;
    }
    expect(ok, "weighted_sum", it);
}

template <class X>
void check_weighted_sum() {
    // any size
    for (int it = 0; it < 200; ++it) {
        const std::size_t dim = static_cast<std::size_t>(uniform(1, 36));
        const std::size_t stride = dim + static_cast<std::size_t>(uniform(0, 3));
        const std::size_t n0 = static_cast<std::size_t>(uniform(it % 2, 40)),
                          n1 = static_cast<std::size_t>(uniform(0, 20));
        check_weighted_case<X>(dim, stride, n0, n1, 0, 0, it);
    }
    // the row strides of Hidden 16, 32 and 64 (the DSP set's loops for their steps) and two others: every count of
    // either segment modulo 8 with alpha at a word and at a half word (each entry of the loops, the last state alone),
    // dims of whole passes, of a last overlapping pass and odd, c at a half word now and then
    constexpr std::size_t kStrides[] = {16, 32, 64, 20, 66};
    int it = 200;
    for (const std::size_t stride : kStrides) {
        const std::size_t dims[] = {stride, stride - 1, stride - 2, stride - 4, 8, 9, 14};
        for (std::size_t i = 0; i < 96; ++i, ++it) {
            const std::size_t n0 = i % 24 + (i % 3 == 0 ? 16 : 0), n1 = (i * 7) % 21, a_off = (i / 24) % 2;
            const std::size_t dim = dims[i % 7], c_off = i % 11 == 10 ? 1 : 0;
            check_weighted_case<X>(dim, stride, n0, n1, a_off, c_off, it);
        }
    }
}

/// columns<G> (q15/seam.hpp; q15/plain.hpp's contract): acc_k += Σ_i a_i·v_i,k for the G columns k from v, count
/// (even, 2 to 80) rows `stride` apart (even, from G), a and v word aligned; Σ|a_i| <= 32768 (as softmax's alpha) and
/// the sums from within +-2^29, so every sum is exact in int32; values anywhere in int16, or at its ends with the
/// largest weights
template <std::size_t G>
void check_columns() {
    for (int it = 0; it < 300; ++it) {
        const std::size_t count = 2 * static_cast<std::size_t>(uniform(1, 40));
        const std::size_t stride = G + (G % 2) + 2 * static_cast<std::size_t>(uniform(0, 3));
        const std::size_t first = 2 * static_cast<std::size_t>(uniform(0, 2));  // (v at a word of g_s)
        if (first + count * stride > sizeof g_s / sizeof g_s[0]) continue;
        const bool ends = it % 4 == 0;
        for (std::size_t k = 0; k < first + count * stride; ++k)
            g_s[k].raw = static_cast<std::int16_t>(ends ? (uniform(0, 1) == 0 ? -32768 : 32767)
                                                        : uniform(-32768, 32767));
        const int amax = static_cast<int>(32768 / count);
        for (std::size_t i = 0; i < count; ++i)
            g_a[i].raw = static_cast<std::int16_t>(ends ? (uniform(0, 1) == 0 ? -amax : amax) : uniform(-amax, amax));
        std::int32_t acc[G], want[G];
        for (std::size_t k = 0; k < G; ++k) {
            acc[k] = want[k] = uniform(-(1 << 29), 1 << 29);
            for (std::size_t i = 0; i < count; ++i) want[k] += g_a[i].raw * g_s[first + i * stride + k].raw;
        }
        L::template columns<G>(g_a, g_s + first, stride, count, acc);
        bool ok = true;
        for (std::size_t k = 0; k < G; ++k) ok = ok && acc[k] == want[k];
        expect(ok, G == 2 ? "columns<2>" : (G == 4 ? "columns<4>" : "columns<kColumns>"), it);
    }
}

/// the LSTM cell's contract (kernels_q15.hpp): c = round(f·c~ / 2^15) + round(i·g / 2^18) saturated to int16 and
/// counted, h = round(o·tanh(c) / 2^15), the gates sigmoid_q15 and tanh_q15 of z
template <class X>
void check_lstm_cell() {
    for (int it = 0; it < 300; ++it) {
        const std::size_t H = static_cast<std::size_t>(uniform(1, 17));
        // wide pre-activations and cells some of the time (saturating the cell), small ones the rest
        const int span = it % 2 == 0 ? 32767 : 8000;
        for (std::size_t k = 0; k < 4 * H; ++k) g_s[k].raw = static_cast<std::int16_t>(uniform(-span - 1, span));
        for (std::size_t k = 0; k < H; ++k) g_a[k].raw = static_cast<std::int16_t>(uniform(-span - 1, span));
        const std::size_t sat = X::lstm_cell(g_s, g_a, H, g_b, g_out);
        std::size_t sat_want = 0;
        bool ok = true;
        for (std::size_t k = 0; k < H; ++k) {
            const std::int32_t i = sarnn::fixed::sigmoid_q15(g_s[k].raw);
            const std::int32_t f = sarnn::fixed::sigmoid_q15(g_s[H + k].raw);
            const std::int32_t g = sarnn::fixed::tanh_q15(g_s[2 * H + k].raw);
            const std::int32_t o = sarnn::fixed::sigmoid_q15(g_s[3 * H + k].raw);
            const std::int32_t ck = ((f * g_a[k].raw + (1 << 14)) >> 15) + ((i * g + (1 << 17)) >> 18);
            const std::int32_t cs = ck > 32767 ? 32767 : (ck < -32768 ? -32768 : ck);
            sat_want += cs != ck ? 1u : 0u;
            const std::int32_t hk = (o * sarnn::fixed::tanh_q15(static_cast<std::int16_t>(cs)) + (1 << 14)) >> 15;
            ok = ok && g_b[k].raw == cs && g_out[k].raw == hk;
        }
        expect(ok && sat == sat_want, "lstm_cell", it);
    }
}

/// the LSTM cell over every int16 pre-activation and cell value: each value in all four gates' rows and in c~ (a lane
/// per value, sixteen lanes a call), against the same formula as check_lstm_cell
template <class X>
void check_lstm_cell_every() {
    constexpr std::size_t H = 16;
    bool ok = true;
    std::size_t sat_diff = 0;
    for (std::int32_t v0 = -32768; v0 < 32768; v0 += static_cast<std::int32_t>(H)) {
        for (std::size_t k = 0; k < H; ++k) {
            const auto v = static_cast<std::int16_t>(v0 + static_cast<std::int32_t>(k));
            g_s[k].raw = g_s[H + k].raw = g_s[2 * H + k].raw = g_s[3 * H + k].raw = v;
            // the cell from the other end of the range: every c~ against every gate value once
            g_a[k].raw = static_cast<std::int16_t>(-1 - v);
        }
        const std::size_t sat = X::lstm_cell(g_s, g_a, H, g_b, g_out);
        std::size_t sat_want = 0;
        for (std::size_t k = 0; k < H; ++k) {
            const std::int32_t i = sarnn::fixed::sigmoid_q15(g_s[k].raw);
            const std::int32_t g = sarnn::fixed::tanh_q15(g_s[2 * H + k].raw);
            const std::int32_t ck = ((i * g_a[k].raw + (1 << 14)) >> 15) + ((i * g + (1 << 17)) >> 18);
            const std::int32_t cs = ck > 32767 ? 32767 : (ck < -32768 ? -32768 : ck);
            sat_want += cs != ck ? 1u : 0u;
            const std::int32_t hk = (i * sarnn::fixed::tanh_q15(static_cast<std::int16_t>(cs)) + (1 << 14)) >> 15;
            ok = ok && g_b[k].raw == cs && g_out[k].raw == hk;
        }
        sat_diff += sat == sat_want ? 0u : 1u;
    }
    expect(ok && sat_diff == 0, "lstm_cell (every input)", 0);
}

/// the GRU cell's contract (kernels_q15.hpp): r, z = sigmoid_q15(sat16(gi + gh)), n = tanh_q15(sat16(gi_n + round(r·gh_n
/// / 2^15))), h = n + round(z·(h_prev - n) / 2^15); wide rows (the sums saturate) half the time
template <class X>
void check_gru_cell() {
    const auto sat16 = [](std::int32_t v) { return v > 32767 ? 32767 : (v < -32768 ? -32768 : v); };
    for (int it = 0; it < 600; ++it) {
        // up to 40 lanes (the models' 32: the DSP set's pairs in assembly, many passes) or a few
        const std::size_t H = static_cast<std::size_t>(it % 3 == 0 ? uniform(18, 40) : uniform(1, 17));
        const int span = it % 2 == 0 ? 32767 : 8000;
        for (std::size_t k = 0; k < 3 * H; ++k) {
            g_s[k].raw = static_cast<std::int16_t>(uniform(-span - 1, span));
            g_a[k].raw = static_cast<std::int16_t>(uniform(-span - 1, span));
        }
        for (std::size_t k = 0; k < H; ++k) g_b[k].raw = static_cast<std::int16_t>(uniform(-32768, 32767));
        X::gru_cell(g_s, g_a, g_b, H, g_out);
        bool ok = true;
        for (std::size_t d = 0; d < H; ++d) {
            const std::int32_t r = sarnn::fixed::sigmoid_q15(static_cast<std::int16_t>(sat16(g_s[d].raw + g_a[d].raw)));
            const std::int32_t z = sarnn::fixed::sigmoid_q15(
                static_cast<std::int16_t>(sat16(g_s[H + d].raw + g_a[H + d].raw)));
            const std::int32_t n = sarnn::fixed::tanh_q15(
                static_cast<std::int16_t>(sat16(g_s[2 * H + d].raw + ((r * g_a[2 * H + d].raw + (1 << 14)) >> 15))));
            ok = ok && g_out[d].raw == n + ((z * (g_b[d].raw - n) + (1 << 14)) >> 15);
        }
        expect(ok, "gru_cell", it);
    }
}

/// 32 random bits as an int32 (any value)
std::int32_t any32() {
    g_lcg = g_lcg * 1664525u + 1013904223u;
    const std::uint32_t hi = g_lcg >> 16;
    g_lcg = g_lcg * 1664525u + 1013904223u;
    return static_cast<std::int32_t>((hi << 16) | (g_lcg >> 16));
}

/// the rows' pre-activations (kernels_q15.hpp's affine): requantize(s_x, x_m, x_shift) clamped to +-2^30, + s_r,
/// requantize(., m_r, shift_r) + b_r saturated to int16; where finish_rows takes the rows (it may decline)
template <class X>
void check_finish_rows() {
    static std::int32_t s_x[32], s_r[32], m[32], b[32];
    static std::int8_t shift[32];
    int taken = 0;
    for (int it = 0; it < 3000; ++it) {
        const std::size_t count = it % 10 == 0 ? static_cast<std::size_t>(uniform(1, 32))
                                               : 4 * static_cast<std::size_t>(uniform(1, 8));
        const int x_shift = it % 7 == 0 ? uniform(-3, 3) : uniform(-1, 0);
        // x_m >= 0 but for every 13th case; m_r >= 0 but for some first rows; |s_r| < 2^30 (z stays in int32)
        const std::int32_t x_m = it % 13 == 0 ? any32()
                                              : static_cast<std::int32_t>(static_cast<std::uint32_t>(any32()) >> 1);
        for (std::size_t k = 0; k < count; ++k) {
            s_x[k] = it % 3 == 0 ? any32() : any32() >> uniform(2, 20);
            s_r[k] = any32() >> uniform(2, 20);
            m[k] = static_cast<std::int32_t>(static_cast<std::uint32_t>(any32()) >> 1);
            if (it % 17 == 0 && k == 0) m[k] = -m[k];
            shift[k] = static_cast<std::int8_t>(it % 19 == 0 ? uniform(-2, 20) : uniform(1, 20));
            b[k] = it % 5 == 0 ? any32() : uniform(-40000, 40000);
        }
        const bool no_b = it % 4 == 0;
        if (!X::finish_rows(s_x, s_r, count, x_m, x_shift, m, shift, no_b ? nullptr : b, g_out)) continue;
        ++taken;
        bool ok = true;
        for (std::size_t k = 0; k < count; ++k) {
            std::int32_t x = sarnn::fixed::requantize(s_x[k], x_m, x_shift);
            x = x > (1 << 30) ? (1 << 30) : (x < -(1 << 30) ? -(1 << 30) : x);
            const std::int64_t pre = static_cast<std::int64_t>(sarnn::fixed::requantize(x + s_r[k], m[k], shift[k])) +
                                     (no_b ? 0 : b[k]);
            ok = ok && g_out[k].raw == static_cast<std::int16_t>(pre > 32767 ? 32767 : (pre < -32768 ? -32768 : pre));
        }
        expect(ok, "finish_rows", it);
    }
    expect(taken > 1000, "finish_rows taken", taken);
}

/// 32 random bits as an int32 (any value)
std::int32_t any32_bits() {
    g_lcg = g_lcg * 1664525u + 1013904223u;
    const std::uint32_t hi = g_lcg >> 16;
    g_lcg = g_lcg * 1664525u + 1013904223u;
    return static_cast<std::int32_t>((hi << 16) | (g_lcg >> 16));
}

/// affine_tanh's packed passes: s = (Σ_k A_i,k·x_k, Σ_k A_i,nx+k·r_k) of each row i of 4·groups (row stride nx + nr),
/// x and r packed first (word aligned or not); and affine's (Σ_k A_x i,k·x_k, Σ_k A_r i,k·r_k)
template <class X>
void check_rows_packed() {
    static std::int8_t w[32 * X::kPackMax];
    static std::int32_t s[2 * 32];
    alignas(8) static q15 xv[X::kPackMax + 2], rv[X::kPackMax + 2];
    static typename X::Packed p;
    for (int it = 0; it < 300; ++it) {
        const std::size_t nx = 8 * static_cast<std::size_t>(uniform(1, 8));
        const std::size_t nr = 8 * static_cast<std::size_t>(uniform(1, static_cast<int>((X::kPackMax - nx) / 8)));
        const std::size_t groups = static_cast<std::size_t>(uniform(1, 8)), ld = nx + nr;
        expect(X::packs(nx, nr) && !X::packs(nx + 4, nr) && !X::packs(nx, nr + 4), "packs", it);
        for (std::size_t k = 0; k < 4 * groups * ld; ++k) w[k] = static_cast<std::int8_t>(uniform(-128, 127));
        // x and r from their arrays' first or second value (word aligned or not)
        q15* const x = xv + it % 2;
        q15* const r = rv + (it / 2) % 2;
        const int span = it % 3 == 0 ? 32767 : 3000;
        for (std::size_t k = 0; k < nx; ++k) x[k].raw = static_cast<std::int16_t>(uniform(-span - 1, span));
        for (std::size_t k = 0; k < nr; ++k) r[k].raw = static_cast<std::int16_t>(uniform(-span - 1, span));
        for (std::int32_t& v : s) v = any32_bits();
        X::pack(x, nx, r, nr, p);
        X::rows_packed(w, ld, p, nx, nr, groups, s);
        bool ok = true;
        for (std::size_t i = 0; i < 4 * groups; ++i) {
            std::int32_t sx = 0, sr = 0;
            for (std::size_t k = 0; k < nx; ++k) sx += w[i * ld + k] * x[k].raw;
            for (std::size_t k = 0; k < nr; ++k) sr += w[i * ld + nx + k] * r[k].raw;
            ok = ok && s[2 * i] == sx && s[2 * i + 1] == sr;
        }
        expect(ok, "rows_packed", it);
        // the gates' form: A_x (rows of nx) then A_r (rows of nr), the same weights' storage
        const std::int8_t* const wx = w;
        const std::int8_t* const wr = w + 4 * groups * nx;
        for (std::int32_t& v : s) v = any32_bits();
        X::rows_packed2(wx, wr, p, nx, nr, groups, s);
        ok = true;
        for (std::size_t i = 0; i < 4 * groups; ++i) {
            std::int32_t sx = 0, sr = 0;
            for (std::size_t k = 0; k < nx; ++k) sx += wx[i * nx + k] * x[k].raw;
            for (std::size_t k = 0; k < nr; ++k) sr += wr[i * nr + k] * r[k].raw;
            ok = ok && s[2 * i] == sx && s[2 * i + 1] == sr;
        }
        expect(ok, "rows_packed2", it);
        // the two parts in one sum per row (affine where the x part's factor is 1)
        if constexpr (q::has(X::kCaps, q::kRowsSum)) {
            for (std::int32_t& v : s) v = any32_bits();
            const std::int32_t after = s[4 * groups];  // (groups <= 8: within s)
            X::rows_packed_sum(wx, wr, p, nx, nr, groups, s);
            ok = true;
            for (std::size_t i = 0; i < 4 * groups; ++i) {
                std::int32_t sum = 0;
                for (std::size_t k = 0; k < nx; ++k) sum += wx[i * nx + k] * x[k].raw;
                for (std::size_t k = 0; k < nr; ++k) sum += wr[i * nr + k] * r[k].raw;
                ok = ok && s[i] == sum;
            }
            // the words past the last row's sum untouched
            expect(ok && s[4 * groups] == after, "rows_packed_sum", it);
        }
        // each part's sums in an array of its own (gru_gates's packed form): s_x at s, s_r at s + 32
        if constexpr (q::has(X::kCaps, q::kGruApart)) {
            for (std::int32_t& v : s) v = any32_bits();
            // the words past each part's last sum untouched (where groups < 8: within s)
            const std::int32_t after_x = s[4 * groups], after_r = groups < 8 ? s[32 + 4 * groups] : 0;
            X::rows_apart(wx, wr, p, nx, nr, groups, s, s + 32);
            ok = true;
            for (std::size_t i = 0; i < 4 * groups; ++i) {
                std::int32_t sx = 0, sr = 0;
                for (std::size_t k = 0; k < nx; ++k) sx += wx[i * nx + k] * x[k].raw;
                for (std::size_t k = 0; k < nr; ++k) sr += wr[i * nr + k] * r[k].raw;
                ok = ok && s[i] == sx && s[32 + i] == sr;
            }
            expect(ok && (groups == 8 || (s[4 * groups] == after_x && s[32 + 4 * groups] == after_r)), "rows_apart",
                   it);
        }
    }
}

/// affine_tanh's rows finished from their sums (x_shift 0 or -1, x_m >= 0): xq = requantize(s_x, x_m, x_shift)
/// clamped to +-2^30, pre = requantize(xq + s_r, m_r, shift_r) + b_r saturated to int16, y = tanh(pre) (or pre:
/// affine's rows); up to the first row whose shift is below 2
template <class X>
void check_finish_tanh() {
    static std::int32_t s[2 * 32], m[32], b[32];
    static std::int8_t shift[32];
    for (int it = 0; it < 3000; ++it) {
        const std::size_t count = static_cast<std::size_t>(uniform(1, 32));
        const int x_shift = uniform(-1, 0);
        const std::int32_t x_m = static_cast<std::int32_t>(static_cast<std::uint32_t>(any32_bits()) >> 1);
        for (std::size_t k = 0; k < count; ++k) {
            // s_x of any size (the clamp of xq on both sides), |s_r| < 2^30 (z stays in int32)
            s[2 * k] = it % 3 == 0 ? any32_bits() : any32_bits() >> uniform(2, 24);
            s[2 * k + 1] = any32_bits() >> uniform(2, 24);
            m[k] = static_cast<std::int32_t>(static_cast<std::uint32_t>(any32_bits()) >> uniform(1, 2));
            if (it % 11 == 0 && k % 3 == 0) m[k] = -m[k];
            // now and then a shift below 2 (where the loop stops)
            shift[k] = static_cast<std::int8_t>(it % 29 == 0 ? uniform(-1, 31) : uniform(2, 31));
            // the biases' bounds and around +-2^30 (QDADD's saturation), or small
            const std::int32_t wide[] = {INT32_MAX, INT32_MIN, 1 << 30, -(1 << 30), (1 << 30) - 1, -(1 << 30) - 1};
            b[k] = it % 5 == 0 ? wide[uniform(0, 5)] : (it % 5 == 1 ? any32_bits() : uniform(-40000, 40000));
        }
        // every other case without the tanh (affine's rows: y = pre)
        const bool tanh = it % 2 == 0;
        const std::size_t done = x_shift == 0
                                     ? (tanh ? X::template finish_tanh<1>(s, count, m, shift, b, x_m, g_out)
                                             : X::template finish_tanh<1, false>(s, count, m, shift, b, x_m, g_out))
                                     : (tanh ? X::template finish_tanh<2>(s, count, m, shift, b, x_m, g_out)
                                             : X::template finish_tanh<2, false>(s, count, m, shift, b, x_m, g_out));
        std::size_t want = 0;
        while (want < count && shift[want] >= 2) ++want;
        bool ok = done == want;
        for (std::size_t k = 0; k < done && ok; ++k) {
            std::int32_t x = sarnn::fixed::requantize(s[2 * k], x_m, x_shift);
            x = x > (1 << 30) ? (1 << 30) : (x < -(1 << 30) ? -(1 << 30) : x);
            const std::int64_t pre = static_cast<std::int64_t>(
                                         sarnn::fixed::requantize(x + s[2 * k + 1], m[k], shift[k])) +
                                     b[k];
            const std::int32_t p = pre > 32767 ? 32767 : (pre < -32768 ? -32768 : static_cast<std::int32_t>(pre));
            ok = g_out[k].raw == (tanh ? tanh_ref(p) : p);
        }
        expect(ok, "finish_tanh", it);
    }
}

/// affine's rows finished from one sum each (the x part's factor 1): pre = requantize(z, m_r, shift_r) + b_r saturated
/// to int16, up to the first row whose shift is outside 2 .. 31
template <class X>
void check_finish_sum() {
    static std::int32_t s[32], m[32], b[32];
    static std::int8_t shift[32];
    for (int it = 0; it < 3000; ++it) {
        const std::size_t count = static_cast<std::size_t>(uniform(1, 32));
        for (std::size_t k = 0; k < count; ++k) {
            // z of any size, or small
            s[k] = it % 3 == 0 ? any32_bits() : any32_bits() >> uniform(2, 24);
            m[k] = static_cast<std::int32_t>(static_cast<std::uint32_t>(any32_bits()) >> uniform(1, 2));
            if (it % 11 == 0 && k % 3 == 0) m[k] = -m[k];
            // now and then a shift outside 2 .. 31 (where the loop stops)
            shift[k] = static_cast<std::int8_t>(it % 29 == 0 ? uniform(-1, 33) : uniform(2, 31));
            const std::int32_t wide[] = {INT32_MAX, INT32_MIN, 1 << 30, -(1 << 30), (1 << 30) - 1, -(1 << 30) - 1};
            b[k] = it % 5 == 0 ? wide[uniform(0, 5)] : (it % 5 == 1 ? any32_bits() : uniform(-40000, 40000));
        }
        for (std::size_t k = 0; k <= 32; ++k) g_out[k].raw = 12345;  // (and the one past the last row)
        const std::size_t done = X::finish_sum(s, count, m, shift, b, g_out);
        std::size_t want = 0;
        while (want < count && shift[want] >= 2 && shift[want] <= 31) ++want;
        bool ok = done == want && g_out[done].raw == 12345;
        for (std::size_t k = 0; k < done && ok; ++k) {
            const std::int64_t pre = static_cast<std::int64_t>(sarnn::fixed::requantize(s[k], m[k], shift[k])) + b[k];
            const std::int32_t p = pre > 32767 ? 32767 : (pre < -32768 ? -32768 : static_cast<std::int32_t>(pre));
            ok = g_out[k].raw == p;
        }
        expect(ok, "finish_sum", it);
    }
}

/// gru_gates's rows finished from their (s_x, s_h) sums where the x part's factor is 1: gi = requantize(s_x, m_r,
/// shift_r) + b_ih saturated to int16, gh the same of s_h and b_hh, up to the first shift outside 2 .. 31
template <class X>
void check_finish_gru() {
    static std::int32_t s[2 * 32], m[32], bi[32], bh[32];
    static std::int8_t shift[32];
    static q15 gh[33];
    const auto pre = [](std::int32_t v, std::int32_t mk, int sk, std::int32_t b) {
        const std::int64_t p = static_cast<std::int64_t>(sarnn::fixed::requantize(v, mk, sk)) + b;
        return p > 32767 ? 32767 : (p < -32768 ? -32768 : static_cast<std::int32_t>(p));
    };
    for (int it = 0; it < 3000; ++it) {
        const std::size_t count = static_cast<std::size_t>(uniform(1, 32));
        const std::int32_t wide[] = {INT32_MAX, INT32_MIN, 1 << 30, -(1 << 30), (1 << 30) - 1, -(1 << 30) - 1};
        for (std::size_t k = 0; k < count; ++k) {
            s[2 * k] = it % 3 == 0 ? any32_bits() : any32_bits() >> uniform(2, 24);
            s[2 * k + 1] = it % 3 == 1 ? any32_bits() : any32_bits() >> uniform(2, 24);
            m[k] = static_cast<std::int32_t>(static_cast<std::uint32_t>(any32_bits()) >> uniform(1, 2));
            if (it % 11 == 0 && k % 3 == 0) m[k] = -m[k];
            shift[k] = static_cast<std::int8_t>(it % 29 == 0 ? uniform(-1, 33) : uniform(2, 31));
            bi[k] = it % 5 == 0 ? wide[uniform(0, 5)] : (it % 5 == 1 ? any32_bits() : uniform(-40000, 40000));
            bh[k] = it % 5 == 0 ? wide[uniform(0, 5)] : (it % 5 == 1 ? any32_bits() : uniform(-40000, 40000));
        }
        for (std::size_t k = 0; k < 33; ++k) g_out[k].raw = gh[k].raw = 12345;
        const std::size_t done = X::finish_gru(s, count, m, shift, bi, bh, g_out, gh);
        std::size_t want = 0;
        while (want < count && shift[want] >= 2 && shift[want] <= 31) ++want;
        bool ok = done == want && g_out[done].raw == 12345 && gh[done].raw == 12345;
        for (std::size_t k = 0; k < done && ok; ++k) {
            ok = g_out[k].raw == pre(s[2 * k], m[k], shift[k], bi[k]) &&
                 gh[k].raw == pre(s[2 * k + 1], m[k], shift[k], bh[k]);
        }
        expect(ok, "finish_gru", it);
    }
}

/// gru_gates whole (the target's, kGruGates): per row s_x = W_ih·x, s_h = W_hh·h, xq = s_x where the x part's factor
/// is 1, else requantize(s_x, x_m, x_shift) clamped to +-2^30, gi = requantize(xq, m_r, shift_r) + b_ih and gh =
/// requantize(s_h, m_r, shift_r) + b_hh saturated to int16, for rows across blocks of 48 with every remainder mod 4, x
/// and h of any length (their words in one chunk or several), extreme weights and values, now and then a negative
/// multiplier, a shift outside 2 .. 31 or another factor of x
// the weights of both in g_s's storage (the 16 kB board's RAM: no array of their own; the checks run one at a time)
constexpr std::size_t kGwBytes = 2880;
static_assert(kGwBytes <= sizeof g_s, "the GRU checks' weights fit g_s");
std::int8_t* const g_gw = reinterpret_cast<std::int8_t*>(g_s);
/// (kPacked: x and h of lengths the packed passes take, multiples of 8 up to 128 together, the factor of x mostly 1:
/// Q15::gru_gates by the DSP set's packed passes and finish_gru, rows of any count, so that a block's last rows % 4
/// and a shift outside 2 .. 31 take the rest of that form)
template <class X, bool kPacked = false>
void check_gru_gates() {
    constexpr std::size_t kMaxRows = kPacked ? 160 : 56;  // (packed: across blocks of 96 rows)
    static std::int32_t m[kMaxRows], bi[kMaxRows], bh[kMaxRows];
    static std::int8_t shift[kMaxRows];
    static q15 gi[kMaxRows + 1], gh[kMaxRows + 1], xv[129],
        hv[129];  // (x and h up to 128 long from their second value)
    const auto pre = [](std::int32_t v, std::int32_t mk, int sk, std::int32_t b) {
        const std::int64_t p = static_cast<std::int64_t>(sarnn::fixed::requantize(v, mk, sk)) + b;
        return p > 32767 ? 32767 : (p < -32768 ? -32768 : static_cast<std::int32_t>(p));
    };
    for (int it = 0; it < 400; ++it) {
        const std::size_t rows = static_cast<std::size_t>(uniform(1, static_cast<int>(kMaxRows)));
        const std::size_t span = kGwBytes / rows;  // nx + nh at most
        const std::size_t cap = kPacked ? (span < 128 ? span : 128) & ~std::size_t{7} : (span < 80 ? span : 80);
        if (kPacked && cap < 16) continue;
        const std::size_t nx = kPacked ? 8 * static_cast<std::size_t>(uniform(1, static_cast<int>(cap / 8) - 1))
                                       : static_cast<std::size_t>(uniform(1, static_cast<int>(cap) - 1));
        const std::size_t nh = kPacked ? 8 * static_cast<std::size_t>(uniform(1, static_cast<int>((cap - nx) / 8)))
                                       : static_cast<std::size_t>(uniform(1, static_cast<int>(cap - nx)));
        const bool extreme = it % 7 == 3;
        std::int8_t* const W_ih = g_gw;
        std::int8_t* const W_hh = g_gw + rows * nx;
        for (std::size_t k = 0; k < rows * (nx + nh); ++k)
            g_gw[k] = static_cast<std::int8_t>(extreme ? (uniform(0, 1) != 0 ? 127 : -128) : uniform(-128, 127));
        // x and h from their arrays' first or second value
        q15* const x = xv + it % 2;
        q15* const h = hv + (it / 2) % 2;
        for (std::size_t k = 0; k < nx; ++k)
            x[k].raw = static_cast<std::int16_t>(extreme ? (uniform(0, 1) != 0 ? 32767 : -32768)
                                                         : uniform(-32768, 32767));
        for (std::size_t k = 0; k < nh; ++k)
            h[k].raw = static_cast<std::int16_t>(extreme ? (uniform(0, 1) != 0 ? 32767 : -32768)
                                                         : uniform(-32768, 32767));
        const std::int32_t wide[] = {INT32_MAX, INT32_MIN, 1 << 30, -(1 << 30), 40000, -40000};
        for (std::size_t k = 0; k < rows; ++k) {
            m[k] = static_cast<std::int32_t>(static_cast<std::uint32_t>(any32_bits()) >> uniform(1, 2));
            if (it % 11 == 0 && k % 3 == 0) m[k] = -m[k];
            shift[k] = static_cast<std::int8_t>(it % 13 == 0 ? uniform(-1, 33) : uniform(2, 31));
            bi[k] = it % 5 == 0 ? wide[uniform(0, 5)] : uniform(-40000, 40000);
            bh[k] = it % 5 == 1 ? wide[uniform(0, 5)] : uniform(-40000, 40000);
        }
        // the factor 1 (the exporter's), else one of the others the contract allows
        const int kind = it % 17 == 5 ? 1 : (it % 17 == 9 ? 2 : 0);
        const std::int32_t x_m = kind == 0 ? std::int32_t{1} << 30 : (kind == 1 ? 1234567890 : 1 << 30);
        const int x_shift = kind == 0 ? -1 : (kind == 1 ? uniform(-1, 3) : -3);
        const sarnn::QGru a{W_ih, W_hh, bi, bh, m, shift, x_m, x_shift};
        for (std::size_t k = 0; k <= rows; ++k) gi[k].raw = gh[k].raw = 12345;  // (and the one past the last row)
        X::gru_gates(a, rows, x, nx, h, nh, gi, gh);
        bool ok = gi[rows].raw == 12345 && gh[rows].raw == 12345;
        for (std::size_t r = 0; r < rows && ok; ++r) {
            std::int32_t sx = 0, sh = 0;
            for (std::size_t k = 0; k < nx; ++k) sx += W_ih[r * nx + k] * x[k].raw;
            for (std::size_t k = 0; k < nh; ++k) sh += W_hh[r * nh + k] * h[k].raw;
            const std::int32_t q = sarnn::fixed::requantize(sx, x_m, x_shift);
            const std::int32_t xq = q > (1 << 30) ? 1 << 30 : (q < -(1 << 30) ? -(1 << 30) : q);
            ok = gi[r].raw == pre(xq, m[r], shift[r], bi[r]) && gh[r].raw == pre(sh, m[r], shift[r], bh[r]);
        }
        expect(ok, kPacked ? "gru_gates (packed)" : "gru_gates", it);
    }
}

/// Q15::affine where the x part's factor is 1 and x and r are of lengths the DSP set's packed passes take (multiples
/// of 8 up to 128 together): z = requantize(A_x·x + A_r·r, m_r, shift_r) + b_r saturated to int16 (b null now and
/// then), rows of any count (a block's last rows % 4 by dot_rows), now and then a negative multiplier or a shift
/// outside 2 .. 31 (finish_sum leaves that row and those after it to C)
template <class X>
void check_affine_packed() {
    static std::int32_t m[160], b[160];  // (rows across blocks of 128)
    static std::int8_t shift[160];
    static q15 z[161], xv[129], rv[129];
    for (int it = 0; it < 400; ++it) {
        const std::size_t rows = static_cast<std::size_t>(uniform(1, 160));
        const std::size_t span = kGwBytes / rows;
        const std::size_t cap = (span < 128 ? span : 128) & ~std::size_t{7};
        if (cap < 16) continue;
        const std::size_t nx = 8 * static_cast<std::size_t>(uniform(1, static_cast<int>(cap / 8) - 1));
        const std::size_t nr = 8 * static_cast<std::size_t>(uniform(1, static_cast<int>((cap - nx) / 8)));
        const bool extreme = it % 7 == 3;
        std::int8_t* const A_x = g_gw;
        std::int8_t* const A_r = g_gw + rows * nx;
        for (std::size_t k = 0; k < rows * (nx + nr); ++k)
            g_gw[k] = static_cast<std::int8_t>(extreme ? (uniform(0, 1) != 0 ? 127 : -128) : uniform(-128, 127));
        q15* const x = xv + it % 2;
        q15* const r = rv + (it / 2) % 2;
        for (std::size_t k = 0; k < nx; ++k)
            x[k].raw = static_cast<std::int16_t>(extreme ? (uniform(0, 1) != 0 ? 32767 : -32768)
                                                         : uniform(-32768, 32767));
        for (std::size_t k = 0; k < nr; ++k)
            r[k].raw = static_cast<std::int16_t>(extreme ? (uniform(0, 1) != 0 ? 32767 : -32768)
                                                         : uniform(-32768, 32767));
        const std::int32_t wide[] = {INT32_MAX, INT32_MIN, 1 << 30, -(1 << 30), 40000, -40000};
        for (std::size_t k = 0; k < rows; ++k) {
            m[k] = static_cast<std::int32_t>(static_cast<std::uint32_t>(any32_bits()) >> uniform(1, 2));
            if (it % 11 == 0 && k % 3 == 0) m[k] = -m[k];
            shift[k] = static_cast<std::int8_t>(it % 13 == 0 ? uniform(-1, 33) : uniform(2, 31));
            b[k] = it % 5 == 0 ? wide[uniform(0, 5)] : uniform(-40000, 40000);
        }
        const bool bias = it % 9 != 4;
        const sarnn::QGates a{A_x, A_r, bias ? b : nullptr, m, shift, std::int32_t{1} << 30, -1};
        for (std::size_t k = 0; k <= rows; ++k) z[k].raw = 12345;  // (and the one past the last row)
        X::affine(a, rows, x, nx, r, nr, z);
        bool ok = z[rows].raw == 12345;
        for (std::size_t row = 0; row < rows && ok; ++row) {
            std::int32_t sum = 0;
            for (std::size_t k = 0; k < nx; ++k) sum += A_x[row * nx + k] * x[k].raw;
            for (std::size_t k = 0; k < nr; ++k) sum += A_r[row * nr + k] * r[k].raw;
            const std::int64_t p = static_cast<std::int64_t>(sarnn::fixed::requantize(sum, m[row], shift[row])) +
                                   (bias ? b[row] : 0);
            ok = z[row].raw == (p > 32767 ? 32767 : (p < -32768 ? -32768 : static_cast<std::int32_t>(p)));
        }
        expect(ok, "affine (packed, factor 1)", it);
    }
}

#if defined(SARNN_KERNELS_Q15_THUMB_GRU_HPP)
/// The Thumb set's rows4_words: s[8·j + 2·g] (+)= Σ_{k < n} w[(4·j + g)·ld + k]·v_k for groups of four rows, v in
/// words, every n up to 70 (every tail), ld >= n, stored or added; the odd words and the words past the last group
/// untouched
void check_rows4_words() {
    static std::int32_t v[72], s[8 * 9], before[8 * 9];
    for (int it = 0; it < 300; ++it) {
        const auto n = static_cast<std::size_t>(1 + it % 70);
        const std::size_t ld = n + static_cast<std::size_t>(uniform(0, 3));
        const auto groups = static_cast<std::size_t>(
            uniform(1, static_cast<int>(kGwBytes / (4 * ld) < 8 ? kGwBytes / (4 * ld) : 8)));
        const bool add = it % 3 == 1, extreme = it % 5 == 2;
        for (std::size_t k = 0; k < 4 * groups * ld; ++k)
            g_gw[k] = static_cast<std::int8_t>(extreme ? (uniform(0, 1) != 0 ? 127 : -128) : uniform(-128, 127));
        for (std::size_t k = 0; k < n; ++k)
            v[k] = extreme ? (uniform(0, 1) != 0 ? 32767 : -32768) : uniform(-32768, 32767);
        for (std::size_t k = 0; k < 8 * 9; ++k) s[k] = before[k] = uniform(-1000000, 1000000);
        sarnn::kernel::q15_thumb::rows4_words(g_gw, ld, v, n, groups, s, add);
        bool ok = true;
        for (std::size_t k = 0; k < 8 * 9; ++k) {
            std::int32_t want = before[k];
            if (k % 2 == 0 && k < 8 * groups) {
                const std::size_t row = k / 2;
                want = add ? before[k] : 0;
                for (std::size_t c = 0; c < n; ++c) want += g_gw[row * ld + c] * v[c];
            }
            ok = ok && s[k] == want;
        }
        expect(ok, "rows4_words", it);
    }
}
#endif

/// acc_g += Σ_{k < n} w[g·ld + k]·v_k for G rows (dot_rows: any n, any alignment of w and v), from a nonzero start,
/// for every n up to kDimMax (every tail), extreme values among the random ones; the accumulator past G is not the
/// loop's to touch (its sum would show it)
std::int8_t g_w[(L::kRows > 2 ? L::kRows : 2) * (kDimMax + 3) + 4];  // G rows of ld <= kDimMax + 3, offset <= 3
template <std::size_t G>
void check_dot_rows() {
    for (int it = 0; it < 3 * static_cast<int>(kDimMax + 1); ++it) {
        const auto n = static_cast<std::size_t>(it % static_cast<int>(kDimMax + 1));
        const std::size_t ld = n + static_cast<std::size_t>(uniform(0, 3));
        const std::size_t woff = static_cast<std::size_t>(uniform(0, 3)),
                          voff = static_cast<std::size_t>(uniform(0, 1));
        const bool extreme = it % 3 == 2;
        std::int8_t* const w = g_w + woff;
        for (std::size_t k = 0; k < G * ld; ++k)
            w[k] = static_cast<std::int8_t>(extreme ? (uniform(0, 1) != 0 ? 127 : -128) : uniform(-128, 127));
        q15* const v = g_b + voff;
        for (std::size_t k = 0; k < n; ++k)
            v[k].raw = static_cast<std::int16_t>(extreme ? (uniform(0, 1) != 0 ? 32767 : -32768)
                                                         : uniform(-32768, 32767));
        std::int32_t acc[G + 1], want[G + 1];
        for (std::size_t g = 0; g <= G; ++g) acc[g] = want[g] = uniform(-1000000, 1000000);
        for (std::size_t g = 0; g < G; ++g)
            for (std::size_t k = 0; k < n; ++k) want[g] += w[g * ld + k] * v[k].raw;
        L::template dot_rows<G>(w, ld, v, n, acc);
        bool ok = true;
        for (std::size_t g = 0; g <= G; ++g) ok = ok && acc[g] == want[g];
        expect(ok, G == 1 ? "dot_rows<1>" : (G == 2 ? "dot_rows<2>" : "dot_rows<kRows>"), it);
    }
}

/// The loops by stride (kStrided) as the seam's scores and weighted_sum, for the caller's stride Stride (q15/seam.hpp);
/// X: the loops (a template parameter, so that a target without kStrided compiles this unused)
template <std::size_t Stride, class X = L>
struct AtStride {
    static void scores(const q15* s, std::size_t stride, std::size_t count, const q15* q, std::size_t npairs, int t,
                       q15* e) noexcept {
        X::template scores_at<Stride>(s, stride, count, q, npairs, t, e);
    }
    static void weighted_sum(const q15* const base[2], const std::size_t n[2], std::size_t stride, std::size_t dim,
                             const q15* alpha, q15* c) noexcept {
        X::template weighted_at<Stride>(base, n, stride, dim, alpha, c);
    }
};

/// kStrided: each Stride's forms against the formulas, at every stride of the cases above (the stride itself, others:
/// a constant Stride must give the same integers where the rows are another stride apart, by the loops of any stride)
/// affine_tanh's pre-activations straight from the weights (rows_pre): for the rows it returns (a multiple of 4, or 0
/// where it declines), requantize(A_x·x, x_m, x_shift) clamped to +-2^30, + A_r·r, requantize(., m_r, shift_r) + b_r
/// saturated to int16, the rows past them untouched (where it takes any); a third with the factor 1; the last cases with |A_x·x| at 2^30 and past (x_shift -1: it
/// must decline)
template <class X>
void check_rows_pre() {
    constexpr std::size_t kMaxRows = 40, kMaxX = 300, kMaxR = 40;
    static std::int8_t A[kMaxRows * (kMaxX + kMaxR)];
    alignas(16) static q15 x[kMaxX + 8], r[kMaxR + 8], y[kMaxRows + 8];
    static std::int32_t m[kMaxRows], b[kMaxRows];
    static std::int8_t shift[kMaxRows];
    int taken = 0, declined_big = 0;
    for (int it = 0; it < 1500; ++it) {
        const bool big = it >= 1460;  // |s_x| near and past 2^30
        const std::size_t rows = static_cast<std::size_t>(uniform(1, static_cast<int>(kMaxRows)));
        const std::size_t nx = big ? static_cast<std::size_t>(uniform(250, static_cast<int>(kMaxX)))
                                   : static_cast<std::size_t>(uniform(0, 40));
        const std::size_t nr = static_cast<std::size_t>(uniform(0, static_cast<int>(kMaxR)));
        const std::size_t ld = nx + nr;
        // every third case the factor 1 (x_m = 2^30, x_shift -1: the models' inputs in Q15)
        const bool one = it % 3 == 1;
        const int x_shift = big || one ? -1 : (it % 7 == 0 ? uniform(-3, 3) : uniform(-1, 0));
        const std::int32_t x_m = one ? std::int32_t{1} << 30
                                 : it % 13 == 0 && !big
                                     ? any32()
                                     : static_cast<std::int32_t>(static_cast<std::uint32_t>(any32()) >> 1);
        for (std::size_t k = 0; k < rows * ld; ++k)
            A[k] = static_cast<std::int8_t>(big ? (k % 3 == 0 ? -128 : 127) : uniform(-128, 127));
        for (std::size_t k = 0; k < nx; ++k)
            x[k].raw = big ? static_cast<std::int16_t>(k % 3 == 0 ? -32768 : 32767)
                           : static_cast<std::int16_t>(uniform(-32768, 32767));
        for (std::size_t k = 0; k < nr; ++k)
            r[k].raw = it % 3 == 0 ? edge() : static_cast<std::int16_t>(uniform(-32768, 32767));
        for (std::size_t k = 0; k < rows; ++k) {
            m[k] = static_cast<std::int32_t>(static_cast<std::uint32_t>(any32()) >> 1);
            if (it % 17 == 0 && k == rows / 2) m[k] = -m[k];
            shift[k] = static_cast<std::int8_t>(it % 19 == 0 ? uniform(-2, 33)
                                                             : uniform(it % 2 == 0 ? 1 : 2, it % 3 == 0 ? 31 : 20));
            b[k] = it % 5 == 0 ? any32() : uniform(-40000, 40000);
        }
        for (q15& v : y) v.raw = 12345;
        const std::size_t done = X::rows_pre(sarnn::QAffine{A, b, m, shift, x_m, x_shift}, rows, x, nx, r, nr, y);
        if (big && done == 0) ++declined_big;
        bool ok = done % 4 == 0 && done <= rows;
        // (where it declines, y is the caller's to rewrite: nothing in it to check)
        for (std::size_t k = done; done > 0 && k < kMaxRows + 8; ++k) ok = ok && y[k].raw == 12345;
        for (std::size_t k = 0; k < done; ++k) {
            std::int32_t s_x = 0, s_r = 0;
            for (std::size_t j = 0; j < nx; ++j) s_x += A[k * ld + j] * x[j].raw;
            for (std::size_t j = 0; j < nr; ++j) s_r += A[k * ld + nx + j] * r[j].raw;
            std::int32_t xq = sarnn::fixed::requantize(s_x, x_m, x_shift);
            xq = xq > (1 << 30) ? (1 << 30) : (xq < -(1 << 30) ? -(1 << 30) : xq);
            const std::int64_t pre = static_cast<std::int64_t>(sarnn::fixed::requantize(xq + s_r, m[k], shift[k])) +
                                     b[k];
            ok = ok && y[k].raw == static_cast<std::int16_t>(pre > 32767 ? 32767 : (pre < -32768 ? -32768 : pre));
        }
        if (done > 0) ++taken;
        expect(ok, "rows_pre", it);
    }
    expect(taken > 600, "rows_pre taken", taken);
    expect(declined_big > 10, "rows_pre declines |s_x| >= 2^30", declined_big);
}

/// scores_dim<Dim> (kScoresDim): scores for rows of Dim values (n = Dim rounded up to even: npairs = (Dim + 1) / 2)
/// against the formula, 40 cases a Dim: the row stride n itself (a third of them) or more, counts 1 to 40 (every
/// remainder mod 4, and fewer than a group of four)
template <class X, std::size_t Dim>
void check_scores_dim() {
    constexpr std::size_t npairs = (Dim + 1) / 2;
    for (int it = 0; it < 40; ++it) {
        const std::size_t stride = 2 * npairs + (it % 3 == 0 ? 0 : 2 * static_cast<std::size_t>(uniform(1, 4)));
        const std::size_t count = it < 4 ? static_cast<std::size_t>(it + 1) : static_cast<std::size_t>(uniform(1, 40));
        const int t = uniform(1, 20);
        for (q15& x : g_s) x.raw = static_cast<std::int16_t>(uniform(-32768, 32767));
        const int qmax = static_cast<int>(3000 / npairs);  // Σ|q| <= 65536: every product sum exact in int32
        for (std::size_t k = 0; k < 2 * npairs; ++k) g_b[k].raw = static_cast<std::int16_t>(uniform(-qmax, qmax));
        X::template scores_dim<Dim>(g_s, stride, count, g_b, t, g_out);
        bool ok = true;
        for (std::size_t j = 0; j < count; ++j) {
            std::int32_t d = 0;
            for (std::size_t k = 0; k < 2 * npairs; ++k) d += g_s[j * stride + k].raw * g_b[k].raw;
            ok = ok && g_out[j].raw == static_cast<std::int16_t>((d + (std::int32_t{1} << (t - 1))) >> t);
        }
        expect(ok, "scores_dim", static_cast<int>(Dim) * 100 + it);
    }
}

/// kScoresDim at sizes below, at and past the in-register forms' range (8 to 56 values), odd and even, with and
/// without a tail of n % 8
template <std::size_t... Dims>
void check_scores_dims() {
    (check_scores_dim<L, Dims>(), ...);
}

template <std::size_t... Strides>
void check_strided() {
    (check_scores<AtStride<Strides>>(), ...);
    (check_weighted_sum<AtStride<Strides>>(), ...);
}

}  // namespace

int main() {
    check_scores<L>();
    if constexpr (q::has(L::kCaps, q::kScoresMax)) check_scores_max<L>();
    if constexpr (q::has(L::kCaps, q::kStrided)) check_strided<0, 16, 32, 64>();
    if constexpr (q::has(L::kCaps, q::kScoresDim))
        check_scores_dims<1, 3, 6, 7, 8, 12, 15, 16, 17, 24, 31, 32, 33, 40, 47, 48, 55, 56, 57, 64>();
    check_softmax();
    check_query();
    check_every_input();
    check_additive();
    // the products of rows in each group size the seam names (q15/seam.hpp)
    check_dot_rows<1>();
    check_dot_rows<2>();
    check_dot_rows<L::kRows>();
    // the weighted sum's column groups (q15/seam.hpp), where the target takes the generic weighted sum
    if constexpr (!q::has(L::kCaps, q::kWeighted)) {
        check_columns<2>();
        check_columns<L::kColumns>();
        if constexpr (L::kColumns > 4) check_columns<4>();
    }
    // the target's own operations (q15/seam.hpp's capabilities), each against its formula
    if constexpr (q::has(L::kCaps, q::kTanhRows)) check_tanh_rows<L>();
    if constexpr (q::has(L::kCaps, q::kWeighted)) check_weighted_sum<L>();
    if constexpr (q::has(L::kCaps, q::kCell)) {
        check_lstm_cell<L>();
        check_lstm_cell_every<L>();
    }
    if constexpr (q::has(L::kCaps, q::kGruCell)) check_gru_cell<L>();
    if constexpr (q::has(L::kCaps, q::kFinishRows)) check_finish_rows<L>();
    if constexpr (q::has(L::kCaps, q::kRowsPre)) check_rows_pre<L>();
    if constexpr (q::has(L::kCaps, q::kRowsPacked)) check_rows_packed<L>();
    if constexpr (q::has(L::kCaps, q::kFinishTanh)) check_finish_tanh<L>();
    if constexpr (q::has(L::kCaps, q::kRowsSum) || q::has(L::kCaps, q::kFinishSum)) check_finish_sum<L>();
    if constexpr (q::has(L::kCaps, q::kFinishGru)) check_finish_gru<L>();
    if constexpr (q::has(L::kCaps, q::kGruGates)) check_gru_gates<L>();
    // Q15's whole products where they take the packed passes (q15/affine.hpp's gru_gates_packed, affine_one_packed)
    if constexpr (q::has(L::kCaps, q::kGruApart)) {
        check_gru_gates<sarnn::kernel::Q15, true>();
        check_gru_gates<sarnn::kernel::Q15>();  // (its generic form on the sums apart: the other shapes and factors)
    }
    if constexpr (q::has(L::kCaps, q::kRowsSum)) check_affine_packed<sarnn::kernel::Q15>();
#if defined(SARNN_KERNELS_Q15_THUMB_GRU_HPP)
    check_rows4_words();
#endif
    std::printf("%d passed, %d failed\n", g_passed, g_failed);
    return g_failed == 0 ? 0 : 1;
}
