// sarnn/kernels/simd/attend.hpp: attend_dot and attend_keys, the context kernels. attend_dot: one pass over the stored
// states in L1-sized chunks (scores, the online softmax with a lazy shift, c = Σ_j alpha_j S_j; see
// docs/design.md); attend_keys: the scores over the cached keys (KeyBlocks), then softmax and weighted_sum.
// Part of Simd<A, T> (kernels/simd/simd.hpp, which declares it and includes this file; include that one).
#ifndef SARNN_KERNELS_SIMD_ATTEND_HPP
#define SARNN_KERNELS_SIMD_ATTEND_HPP

namespace sarnn::simd {
namespace {  // NOLINT(cert-dcl59-cpp): the set's internal linkage, as in simd.hpp

// The context for any row length: c lives in memory between blocks; exact running max. block_scores(j0, count,
// e) writes the scores of states j0..j0+count-1 to e[0..count) (W of them at once).
template <class A, class T>
template <class BlockScores>
SARNN_INLINE void Simd<A, T>::attend_any(const Rows<T>& S, BlockScores block_scores, T* alpha, T* c) {
    const std::size_t stride = S.stride;
    T m = kNegInf;  // running max of the scores
    T l = T(0);     // running Σ exp(e_j - m)
    zero(c, stride);
    for (std::size_t j0 = 0; j0 < S.n; j0 += W) {
        const std::size_t count = S.n - j0 < W ? S.n - j0 : W;
        const T* row[W];
        for (std::size_t k = 0; k < W; ++k) row[k] = S.row(j0 + (k < count ? k : count - 1));
        alignas(A::alignment()) T e[W];
        block_scores(j0, count, e);
        T bm = e[0];
        for (std::size_t k = 0; k < count; ++k) {
            alpha[j0 + k] = e[k];
            bm = e[k] > bm ? e[k] : bm;
        }
        for (std::size_t k = count; k < W; ++k) e[k] = kNegInf;  // lanes past n weigh exp(-inf) = 0
        if (bm > m) {
            // the max grew: rescale what was accumulated by exp(m_old - m_new)
            const T shrink = std::exp(m - bm);
            l *= shrink;
            scale_row(c, stride, shrink);
            m = bm;
        }
        // p_j = exp(e_j - m); l += Σ p_j; c += Σ p_j S_j
        const B p = exp_safe(load_a(e) - B(m));
        l += xsimd::hadd(p);
        p.store_aligned(e);
        accumulate(row, e, count, stride, c);
    }
    const T inv = T(1) / l;
    scale_row(c, stride, inv);
    // alpha_j = exp(e_j - m) / l
    const B mv(m), iv(inv);
    map(alpha, S.n, [mv, iv](B v) { return exp_safe(v - mv) * iv; });
}

template <class A, class T>
inline void Simd<A, T>::attend_dot_any(const Rows<T>& S, const T* q, T scale, T* alpha, T* c) {
    attend_any(
        S,
        [&](std::size_t j0, std::size_t count, T* e) {
            const T* row[W];
            for (std::size_t k = 0; k < W; ++k) row[k] = S.row(j0 + (k < count ? k : count - 1));
            // e_j = scale·(S_j·q) for W states at once: lanes across states, one horizontal step per block
            B acc[W];
            for (auto& a : acc) a = B(T(0));
            for (std::size_t v = 0; v < S.stride; v += W) {
                const B qv = load_a(q + v);
                SARNN_UNROLL(16)
                for (std::size_t k = 0; k < W; ++k) acc[k] = madd(load_a(row[k] + v), qv, acc[k]);
            }
            (row_sums(acc) * B(scale)).store_aligned(e);
        },
        alpha, c);
}

// dst[0..n) = src[0..n), src aligned.
template <class A, class T>
SARNN_INLINE void Simd<A, T>::store_run(const T* src, std::size_t n, T* dst) {
    std::size_t k = 0;
    for (; k + W <= n; k += W) load_a(src + k).store_unaligned(dst + k);
    for (; k < n; ++k) dst[k] = src[k];
}

// Scores of the W rows at blk (rows of NV whole vectors; rows past count repeat the last one): lane k is
// S_k·q, q as qv (its NV vectors) and in memory. W independent FMA chains, one transposing sum.
template <class A, class T>
template <std::size_t NV>
SARNN_INLINE auto Simd<A, T>::block_scores(const T* blk, std::size_t count, const B* qv, const T* q) -> B {
    constexpr std::size_t stride = NV * W;
    B acc[W];
    if (count == W && kWalkPointers) {
        // q walked along beside one pointer going down the W rows and back up to the next vector (ARMv7)
        const T* p = blk;
        const T* qp = q;
        constexpr auto down = static_cast<std::ptrdiff_t>(stride);
        constexpr auto up = static_cast<std::ptrdiff_t>(W) - static_cast<std::ptrdiff_t>((W - 1) * stride);
        const B q0 = load_next<A>(qp);
        SARNN_UNROLL(16)
        for (std::size_t k = 0; k < W; ++k) acc[k] = load_step<A>(p, k + 1 < W ? down : up) * q0;
        SARNN_UNROLL(2)
        for (std::size_t u = 1; u < NV; ++u) {
            const B qu = load_next<A>(qp);
            SARNN_UNROLL(16)
            for (std::size_t k = 0; k < W; ++k) acc[k] = madd(load_step<A>(p, k + 1 < W ? down : up), qu, acc[k]);
        }
    } else if (count == W && kLoadPairs && W == 4 && NV % 4 == 0) {
        // four vectors of q, then of each row in turn, by one pointer down the rows and back up (AArch64: one LD1
        // per four vectors, kernels/simd/quad_fma.hpp)
        const T* rp = blk;
        const T* qp = q;
        constexpr auto down = static_cast<std::ptrdiff_t>(stride);
        quad_block_dots<true, A>(rp, down, qp, acc);
        SARNN_UNROLL(16)
        for (std::size_t u = 4; u < NV; u += 4) quad_block_dots<false, A>(rp, down, qp, acc);
    } else if (count == W && kLoadPairs && NV % 2 == 0) {
        // two vectors of q at a time for the W rows, each row walked by its own pointer, two vectors per load
        // (AArch64's LDP with post-index): few registers live, so none spill
        const T* rp[W];
        for (std::size_t k = 0; k < W; ++k) rp[k] = blk + k * stride;
        for (auto& a : acc) a = B(T(0));
        SARNN_UNROLL(16)
        for (std::size_t u = 0; u < NV; u += 2) {
            const B q0 = qv[u], q1 = qv[u + 1];
            SARNN_UNROLL(16)
            for (std::size_t k = 0; k < W; ++k) {
                B a, b;
                load_pair_next<A>(rp[k], a, b);
                acc[k] = madd(b, q1, madd(a, q0, acc[k]));
            }
        }
    } else if (count == W) {
        SARNN_UNROLL(16)
        for (std::size_t k = 0; k < W; ++k) {
            acc[k] = load_a(blk + k * stride) * qv[0];
            for (std::size_t u = 1; u < NV; ++u) acc[k] = madd(load_a(blk + k * stride + u * W), qv[u], acc[k]);
        }
    } else {
        for (std::size_t k = 0; k < W; ++k) {
            const T* row = blk + (k < count ? k : count - 1) * stride;
            acc[k] = load_a(row) * qv[0];
            for (std::size_t u = 1; u < NV; ++u) acc[k] = madd(load_a(row + u * W), qv[u], acc[k]);
        }
    }
    return row_sums(acc);
}

// acc[u] += pk · (the vector u of the row at p), u < G, then p advanced past the row's G vectors and skip more
// elements: by load pairs with post-index (kLoadPairs) or loads with writeback (kWalkPointers); the loops of the
// other arches address their rows directly and do not call it.
template <class A, class T>
template <std::size_t G>
SARNN_INLINE void Simd<A, T>::add_row(B pk, const T*& p, std::ptrdiff_t skip, B* acc) {
    if constexpr (kLoadPairs && G >= 2) {
        SARNN_UNROLL(16)
        for (std::size_t u = 0; u + 2 <= G; u += 2) {
            B a, b;
            load_pair_next<A>(p, a, b);
            acc[u] = madd(pk, a, acc[u]);
            acc[u + 1] = madd(pk, b, acc[u + 1]);
        }
        if constexpr (G % 2 != 0) acc[G - 1] = madd(pk, load_next<A>(p), acc[G - 1]);
        p += skip;
    } else {
        static_assert(kWalkPointers || kLoadPairs, "sarnn: add_row is for the pointer-walking loops");
        constexpr auto w = static_cast<std::ptrdiff_t>(W);
        SARNN_UNROLL(16)
        for (std::size_t u = 0; u < G; ++u) acc[u] = madd(pk, load_step<A>(p, u + 1 < G ? w : w + skip), acc[u]);
    }
}

// add_row with the weight in lane L of w (AArch64: FMLA by element): rows of whole groups of four vectors by
// four-vector loads (kernels/simd/quad_fma.hpp).
template <class A, class T>
template <std::size_t G, std::size_t L>
SARNN_INLINE void Simd<A, T>::add_row_lane(B w, const T*& p, std::ptrdiff_t skip, B* acc) {
    if constexpr (G % 4 == 0) {
        SARNN_UNROLL(16)
        for (std::size_t u = 0; u < G; u += 4) quad_add_lane<L, A>(p, w, acc + u);
        p += skip;
    } else {
        add_row<G>(lane<L>(w), p, skip, acc);
    }
}

// c[0..G·W) += Σ_k p[k] row_k[0..G·W) for the cn rows row_k = rows + k·stride (a chunk of states, still in L1): the
// G vectors of c in registers for the whole chunk; with few of them, several accumulators per vector (W states
// apart) so that enough FMA chains overlap.
template <class A, class T>
template <std::size_t G>
SARNN_INLINE void Simd<A, T>::add_weighted_rows(const T* rows, std::size_t stride, std::size_t cn, const T* p, T* c) {
    constexpr std::size_t kChains = W * sizeof(T) == 64 ? 16 : 8;  // FMA chains to hide latency
    constexpr std::size_t Split = kChains / G > 1 ? (kChains / G < W ? kChains / G : W) : 1;
    B acc[Split][G];
    for (std::size_t u = 0; u < G; ++u) {
        acc[0][u] = load_a(c + u * W);
        for (std::size_t sp = 1; sp < Split; ++sp) acc[sp][u] = B(T(0));
    }
    std::size_t k = 0;
    if constexpr (kWalkPointers || kLoadPairs) {
        // one pointer along the rows (ARMv7: VLD1 with writeback; AArch64: LDP with post-index)
        const T* rp = rows;
        const auto skip = static_cast<std::ptrdiff_t>(stride) - static_cast<std::ptrdiff_t>(G * W);
        if constexpr (kLoadPairs && Split == 1 && W == 4) {
            // W weights per load, each taken by lane (AArch64: FMLA by element)
            for (; k + W <= cn; k += W) {
                const B pv = load_a(p + k);
                add_row_lane<G, 0>(pv, rp, skip, acc[0]);
                add_row_lane<G, 1>(pv, rp, skip, acc[0]);
                add_row_lane<G, 2>(pv, rp, skip, acc[0]);
                add_row_lane<G, 3>(pv, rp, skip, acc[0]);
            }
        }
        for (; k + Split <= cn; k += Split) {
            SARNN_UNROLL(16)
            for (std::size_t t = 0; t < Split; ++t) add_row<G>(B(p[k + t]), rp, skip, acc[t]);
        }
        for (; k < cn; ++k) add_row<G>(B(p[k]), rp, skip, acc[0]);
    }
    for (; k + W <= cn; k += W) {
        const T* blk = rows + k * stride;
        SARNN_UNROLL(16)
        for (std::size_t t = 0; t < W; ++t) {
            const B pk(p[k + t]);
            for (std::size_t u = 0; u < G; ++u)
                acc[t % Split][u] = madd(pk, load_a(blk + t * stride + u * W), acc[t % Split][u]);
        }
    }
    for (; k < cn; ++k) {
        const B pk(p[k]);
        const T* row = rows + k * stride;
        for (std::size_t u = 0; u < G; ++u) acc[0][u] = madd(pk, load_a(row + u * W), acc[0][u]);
    }
    for (std::size_t u = 0; u < G; ++u) {
        B sum = acc[0][u];
        for (std::size_t sp = 1; sp < Split; ++sp) sum += acc[sp][u];
        sum.store_aligned(c + u * W);
    }
}

// What both context loops (attend_chunks, attend_chunks_split) keep of the stored states and of alpha: the ring's
// two segments (physical rows first..cap, then 0..), and alpha's way. With few enough chunks (direct), each
// chunk's p_j = exp(e_j - m_c) goes straight to alpha and the end only scales chunk c by exp(m_c - m) / l (no
// second exp per state); otherwise alpha keeps the raw scores and the end takes exp(e_j - m) / l.
template <class T>
struct ContextPlan {
    static constexpr std::size_t kMaxChunks = 64;
    const T* seg_base[2];
    std::size_t seg_n[2];
    bool direct;
    // written as chunks are done, read only below `chunks`: left uninitialised (zeroing them cost a step 100-230
    // instructions under qemu)
    T chunk_m[kMaxChunks];              // the shift m when chunk c was done
    std::size_t chunk_end[kMaxChunks];  // one past its last state
    std::size_t chunks = 0;

    // chunk_m and chunk_end stay uninitialised on purpose (see above)
    // cppcheck-suppress uninitMemberVar
    ContextPlan(const Rows<T>& S, std::size_t stride, std::size_t chunk) noexcept
        : seg_base{S.base + S.first * stride, S.base},
          seg_n{S.cap - S.first < S.n ? S.cap - S.first : S.n, 0},
          direct(false) {
        seg_n[1] = S.n - seg_n[0];
        direct = (seg_n[0] + chunk - 1) / chunk + (seg_n[1] + chunk - 1) / chunk <= kMaxChunks;
    }
    void chunk_done(T m, std::size_t end) noexcept {
        chunk_m[chunks] = m;
        chunk_end[chunks++] = end;
    }
};

// The states of a chunk: as many as fill 24 KB (half of L1; at most 256), whole blocks of W.
template <class A, class T>
template <std::size_t NV>
constexpr std::size_t Simd<A, T>::chunk_rows() {
    constexpr std::size_t kChunkBytes = std::size_t{24} * 1024;
    constexpr std::size_t kRaw = kChunkBytes / (NV * W * sizeof(T)) / W * W;
    constexpr std::size_t rows = kRaw < W ? W : (kRaw > 256 ? 256 : kRaw);
    static_assert(rows % W == 0, "sarnn: chunks are whole blocks");
    return rows;
}

// alpha at the end of a context loop, m the final shift and inv = 1 / l (see ContextPlan).
template <class A, class T>
SARNN_INLINE void Simd<A, T>::finish_alpha(const ContextPlan<T>& plan, T m, T inv, std::size_t n, T* alpha) {
    if (plan.direct) {
        // alpha_j = exp(e_j - m_c) · exp(m_c - m) / l for the states j of chunk c
        std::size_t j0 = 0;
        for (std::size_t ch = 0; ch < plan.chunks; ++ch) {
            const B f(plan.chunk_m[ch] == m ? inv : std::exp(plan.chunk_m[ch] - m) * inv);
            map(alpha + j0, plan.chunk_end[ch] - j0, [f](B v) { return v * f; });
            j0 = plan.chunk_end[ch];
        }
    } else {
        // alpha_j = exp(e_j - m) / l
        const B mv(m), iv(inv);
        map(alpha, n, [mv, iv](B v) { return exp_safe(v - mv) * iv; });
    }
}

// The context for value rows S of NV whole vectors (NV known at compile time), over chunks of states that fit
// in L1: pass A scores a chunk (W states at once: scores(seg, r, count) gives the scores of the count <= W
// rows from row r of ring segment seg, lanes past count unspecified) and turns each block of W scores into
// weights at once, pass B adds the chunk into c while its rows are still in L1 (pass A read them). Each stored
// row is read from memory once; the accumulators of c stay in registers for the whole pass.
// The weights are p_j = exp(e_j - m) with a lazy shift m: m is raised only when a score exceeds m + kTau
// (then what was accumulated, and the chunk's earlier weights, are rescaled by exp(m_old - m_new)). So
// p_j <= exp(kTau) never overflows, m <= max_j e_j never underflows more than the exact shift would, and the
// weights of a block wait for no chunk-wide max: pass B of a chunk and pass A of the next overlap out of
// order. (Measured, Xeon AVX-512, Hidden 64: n = 256..1024 5-9% faster than an exact running max.)
template <class A, class T>
template <std::size_t NV, class Scores>
SARNN_INLINE void Simd<A, T>::attend_chunks(const Rows<T>& S, Scores scores, T* alpha, T* c) {
    constexpr std::size_t stride = NV * W;
    constexpr std::size_t kChains = W * sizeof(T) == 64 ? 16 : 8;       // FMA chains to hide latency
    constexpr std::size_t Split = kChains / NV > 1 ? kChains / NV : 1;  // accumulators per vector of c
    constexpr std::size_t Chunk = chunk_rows<NV>();
    B acc_c[Split][NV];
    for (std::size_t u = 0; u < NV; ++u)
        for (std::size_t sp = 0; sp < Split; ++sp) acc_c[sp][u] = B(T(0));
    T m = kNegInf;  // the shift: every p_j so far is exp(e_j - m)
    B lv(T(0));     // lanes of Σ p_j
    alignas(A::alignment()) T p[Chunk];
    std::size_t j = 0;  // logical index of the next state
    ContextPlan<T> plan(S, stride, Chunk);
    const auto& seg_base = plan.seg_base;
    const auto& seg_n = plan.seg_n;
    const bool direct = plan.direct;
    for (std::size_t seg = 0; seg < 2; ++seg) {
        for (std::size_t r0 = 0; r0 < seg_n[seg]; r0 += Chunk) {
            const std::size_t cn = seg_n[seg] - r0 < Chunk ? seg_n[seg] - r0 : Chunk;
            const T* chunk = seg_base[seg] + r0 * stride;
            // pass A: the scores e_j and p_j = exp(e_j - m), W states at once
            for (std::size_t b0 = 0; b0 < cn; b0 += W) {
                const std::size_t count = cn - b0 < W ? cn - b0 : W;
                B e = scores(seg, r0 + b0, count);
                if (count < W) {
                    alignas(A::alignment()) T et[W];
                    e.store_aligned(et);
                    for (std::size_t k = count; k < W; ++k) et[k] = kNegInf;  // exp(-inf) = 0
                    e = load_a(et);
                }
                if (!direct) store_rows(e, alpha + j + b0, count);
                if (xsimd::any(e > B(m + kTau))) {
                    alignas(A::alignment()) T et[W];
                    e.store_aligned(et);
                    const T bm = lane_max<W>(et);
                    if (j + b0 > 0) {
                        // the shift grew: rescale what was accumulated by exp(m_old - m_new)
                        const B shrink_v(std::exp(m - bm));
                        lv *= shrink_v;
                        for (std::size_t sp = 0; sp < Split; ++sp)
                            for (std::size_t u = 0; u < NV; ++u) acc_c[sp][u] *= shrink_v;
                        for (std::size_t k = 0; k < b0; k += W) (load_a(p + k) * shrink_v).store_aligned(p + k);
                    }
                    m = bm;
                }
                // p_j = exp(e_j - m); l += Σ p_j
                const B pb = exp_safe(e - B(m));
                pb.store_aligned(p + b0);
                lv += pb;
            }
            if (direct) {
                store_run(p, cn, alpha + j);
                plan.chunk_done(m, j + cn);
            }
            // pass B: c += Σ_j p_j S_j, over rows still in L1
            std::size_t k = 0;
            for (; k + W <= cn; k += W) {
                const T* blk = chunk + k * stride;
                SARNN_UNROLL(16)
                for (std::size_t t = 0; t < W; ++t) {
                    const B pk(p[k + t]);
                    for (std::size_t u = 0; u < NV; ++u)
                        acc_c[t % Split][u] = madd(pk, load_a(blk + t * stride + u * W), acc_c[t % Split][u]);
                }
            }
            for (; k < cn; ++k) {
                const B pk(p[k]);
                const T* row = chunk + k * stride;
                for (std::size_t u = 0; u < NV; ++u) acc_c[0][u] = madd(pk, load_a(row + u * W), acc_c[0][u]);
            }
            j += cn;
        }
    }
    const T inv = T(1) / xsimd::hadd(lv);
    const B inv_v(inv);
    for (std::size_t u = 0; u < NV; ++u) {
        B sum = acc_c[0][u];
        for (std::size_t sp = 1; sp < Split; ++sp) sum += acc_c[sp][u];
        // c = Σ_j exp(e_j - m) S_j / l
        (sum * inv_v).store_aligned(c + u * W);
    }
    finish_alpha(plan, m, inv, S.n, alpha);
}

// attend_chunks_split: the same context as attend_chunks above, for the arches with fewer or narrower registers
// (ARM: kSplitContext). A chunk's pass A is two loops, the scores (A1) and the weights (A2), so that each has the
// registers to itself (exp's constants stay in registers in A2), and pass B keeps c in registers in groups of half
// the registers for the chunk only (in c between chunks). Measured under qemu (instructions, AArch64, Hidden 64,
// n = 256): 84 per state before, 74 after; on x86 the same change made the step 1.1-1.3x slower (side by side,
// scripts/bench-compare), so x86 keeps attend_chunks.
template <class A, class T>
template <std::size_t NV, class Scores>
SARNN_INLINE void Simd<A, T>::attend_chunks_split(const Rows<T>& S, Scores scores, T* alpha, T* c) {
    constexpr std::size_t stride = NV * W;
    constexpr std::size_t Chunk = chunk_rows<NV>();
    for (std::size_t u = 0; u < NV; ++u) B(T(0)).store_aligned(c + u * W);  // c accumulates between chunks
    T m = kNegInf;  // the shift: every p_j so far is exp(e_j - m)
    B lv(T(0));     // lanes of Σ p_j
    alignas(A::alignment()) T p[Chunk];
    std::size_t j = 0;  // logical index of the next state
    ContextPlan<T> plan(S, stride, Chunk);
    const auto& seg_base = plan.seg_base;
    const auto& seg_n = plan.seg_n;
    const bool direct = plan.direct;
    for (std::size_t seg = 0; seg < 2; ++seg) {
        for (std::size_t r0 = 0; r0 < seg_n[seg]; r0 += Chunk) {
            const std::size_t cn = seg_n[seg] - r0 < Chunk ? seg_n[seg] - r0 : Chunk;
            const T* chunk = seg_base[seg] + r0 * stride;
            // pass A1: the scores e_j, W states at once, into p (lanes past the chunk: -inf, so exp gives 0); whole
            // blocks first, in a loop of their own
            std::size_t whole = 0;
            for (; whole + W <= cn; whole += W) scores(seg, r0 + whole, W).store_aligned(p + whole);
            if (whole < cn) {
                scores(seg, r0 + whole, cn - whole).store_aligned(p + whole);
                for (std::size_t k = cn - whole; k < W; ++k) p[whole + k] = kNegInf;
            }
            if (!direct) store_run(p, cn, alpha + j);
            // pass A2: p_j = exp(e_j - m), the shift m raised where a score passes m + kTau. Apart from pass A1, so
            // that the scores have the vector registers to themselves and exp's constants stay in registers here
            // (AArch64, Hidden 64: 6 instructions per state fewer).
            for (std::size_t b0 = 0; b0 < cn; b0 += W) {
                const B e = load_a(p + b0);
                if (xsimd::any(e > B(m + kTau))) {
                    const T bm = lane_max<W>(p + b0);
                    if (j + b0 > 0) {
                        // the shift grew: rescale what was accumulated by exp(m_old - m_new)
                        // (exp of a vector, inline: a call to expf here would make the loop reload exp's
                        // constants after it, AArch64 keeping only the low halves of vector registers across calls)
                        const B shrink_v = exp_safe(B(m - bm));
                        lv *= shrink_v;
                        for (std::size_t u = 0; u < NV; ++u) (load_a(c + u * W) * shrink_v).store_aligned(c + u * W);
                        for (std::size_t k = 0; k < b0; k += W) (load_a(p + k) * shrink_v).store_aligned(p + k);
                    }
                    m = bm;
                }
                // p_j = exp(e_j - m); l += Σ p_j
                const B pb = exp_safe(e - B(m));
                pb.store_aligned(p + b0);
                lv += pb;
            }
            if (direct) {
                store_run(p, cn, alpha + j);
                plan.chunk_done(m, j + cn);
            }
            // pass B: c += Σ_j p_j S_j, over rows still in L1, G vectors of c at a time in registers
            constexpr std::size_t G = NV < kRegisters / 2 ? NV : kRegisters / 2;
            for (std::size_t g = 0; g + G <= NV; g += G) add_weighted_rows<G>(chunk + g * W, stride, cn, p, c + g * W);
            if constexpr (NV % G != 0)
                add_weighted_rows<NV % G>(chunk + NV / G * G * W, stride, cn, p, c + NV / G * G * W);
            j += cn;
        }
    }
    const T inv = T(1) / xsimd::hadd(lv);
    const B inv_v(inv);
    // c = Σ_j exp(e_j - m) S_j / l
    for (std::size_t u = 0; u < NV; ++u) (load_a(c + u * W) * inv_v).store_aligned(c + u * W);
    finish_alpha(plan, m, inv, S.n, alpha);
}

// attend_dot for rows of NV whole vectors: e_j = scale·(S_j·q), q in registers.
template <class A, class T>
template <std::size_t NV>
inline void Simd<A, T>::attend_fixed(const Rows<T>& S, const T* q, T scale, T* alpha, T* c) {
    constexpr std::size_t stride = NV * W;
    B qv[NV];
    for (std::size_t u = 0; u < NV; ++u) qv[u] = load_a(q + u * W);
    const B scale_v(scale);
    const T* const base[2] = {S.base + S.first * stride, S.base};
    const auto scores = [&](std::size_t seg, std::size_t r, std::size_t count) SARNN_INLINE_LAMBDA {
        return block_scores<NV>(base[seg] + r * stride, count, qv, q) * scale_v;
    };
    if constexpr (kSplitContext)
        attend_chunks_split<NV>(S, scores, alpha, c);
    else
        attend_chunks<NV>(S, scores, alpha, c);
}

template <class A, class T>
void Simd<A, T>::attend_dot(const Rows<T>& S, const T* q, T scale, T* alpha, T* c) {
    // Also rows of 16 vectors (Hidden = 128 on AVX2, 64 on SSE2 and NEON): faster with q partly read from L1
    // (more vectors than registers), 1.7-2x the generic path as measured. 32 vectors: slower, generic path.
    const bool fixed = with_fixed_width<16>(S.stride / W, [&](auto nv) { attend_fixed<nv()>(S, q, scale, alpha, c); });
    if (!fixed) attend_dot_any(S, q, scale, alpha, c);
}

// Scores of the W states at physical rows r..r+W-1 (r a multiple of W): lane t is P_{r+t}·u. Value k of the W keys
// is one vector of their block, so the scores are K multiply-adds with u_k broadcast, no horizontal step.
template <class A, class T>
SARNN_INLINE auto Simd<A, T>::key_group(const KeyBlocks<T>& P, std::size_t r, const T* u) -> B {
    constexpr std::size_t L = KeyBlocks<T>::L;
    const T* g = P.at(r);
    const std::size_t K = P.dim;
    // e = Σ_k u_k P_k, in two chains
    B e0(T(0)), e1(T(0));
    std::size_t k = 0;
    if constexpr (kLoadPairs && W == 4) {
        // W values of u per load, each taken by lane (AArch64: FMLA by element, no broadcast)
        for (; k + W <= K; k += W) {
            const B uv = load_a(u + k);
            e0 = madd(load_a(g + k * L), lane<0>(uv), e0);
            e1 = madd(load_a(g + (k + 1) * L), lane<1>(uv), e1);
            e0 = madd(load_a(g + (k + 2) * L), lane<2>(uv), e0);
            e1 = madd(load_a(g + (k + 3) * L), lane<3>(uv), e1);
        }
    }
    for (; k + 2 <= K; k += 2) {
        e0 = madd(load_a(g + k * L), B(u[k]), e0);
        e1 = madd(load_a(g + (k + 1) * L), B(u[k + 1]), e1);
    }
    if (k < K) e0 = madd(load_a(g + k * L), B(u[k]), e0);
    return e0 + e1;
}

// e_j = P_j·u for the n states, in ring order: the whole groups of W physical rows that hold the states of each ring
// segment (key_group; rows that hold no state are read too, never stored), each group's valid lanes stored at their
// logical index.
template <class A, class T>
SARNN_INLINE void Simd<A, T>::key_scores(const KeyBlocks<T>& P, const T* u, T* e) {
    const std::size_t in_first = P.cap - P.first < P.n ? P.cap - P.first : P.n;
    // the physical rows [lo, hi) of the segments: the oldest states from first on, then those from row 0 on
    const std::size_t lo[2] = {P.first, 0};
    const std::size_t hi[2] = {P.first + in_first, P.n - in_first};
    for (std::size_t seg = 0; seg < 2; ++seg) {
        for (std::size_t r = lo[seg] / W * W; r < hi[seg]; r += W) {
            const B s = key_group(P, r, u);
            const std::size_t a = r > lo[seg] ? r : lo[seg];
            const std::size_t b = r + W < hi[seg] ? r + W : hi[seg];
            if (b - a == W) {
                s.store_unaligned(e);
            } else {
                alignas(A::alignment()) T t[W];
                s.store_aligned(t);
                for (std::size_t k = a; k < b; ++k) e[k - a] = t[k - r];
            }
            e += b - a;
        }
    }
}

// The key/query context in three plain streams: the scores of every state (key_scores, over the keys, into alpha),
// the softmax over alpha, the weighted sum over the states. Each key and each state is read once, and each loop runs
// at the core's read rate with no horizontal step. Measured against the one-pass context of attend_dot with the keys
// scored in each block (EPYC, AVX-512, Hidden 64, K 16, step at n = 1024, side by side with Eigen: 1.23-1.28x Eigen,
// this 1.38-1.42x); under qemu (AArch64, Hidden 64, n = 256) 22,209 instructions per step against 23,931 (and 23,035
// for keys in rows, scored with a transposing sum in the split context).
template <class A, class T>
void Simd<A, T>::attend_keys(const KeyBlocks<T>& P, const T* u, const Rows<T>& S, T* alpha, T* c) {
    key_scores(P, u, alpha);
    // alpha = softmax(e); c = Σ_j alpha_j S_j
    softmax(alpha, S.n);
    weighted_sum(alpha, S, c);
}

}  // namespace
}  // namespace sarnn::simd

#endif
