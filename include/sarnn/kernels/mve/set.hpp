// sarnn/kernels/mve/set.hpp: the float kernels of kernel::Mve (lib/kernels/arm_mve.cpp), for cores with Helium (the
// M-profile Vector Extension with float: Cortex-M55, M85): 128-bit vectors of four floats. Rows are padded to four
// floats (SARNN_VECTOR_BYTES 16 on these targets), so the padded rows (states, queries, c) are whole vectors;
// weights and x are not padded: their last vector is loaded with a tail predicate (vctp32q: the lanes past the
// end read as zero, nothing past it is touched), and so are the stores of the last vector of an output. The
// structure is the cortex-m set's (cortex_m/set.hpp), on vectors:
//  - matrix-vector products take four rows per pass (each vector of x loaded once for four rows); the four sums'
//    vectors are reduced together by a store and one de-interleaving load (a 4 x 4 transpose), so that the four
//    results come out as one vector (MVE float has no add across a vector); the inner loops are assembly
//    (mve/set_loops.hpp: 10 instructions per 16 multiply-adds; 9, unrolled with every load at an offset and no
//    loop counter, for affine_tanh's [x; r], or x and r, of 16, 32, 48 or 64 values);
//  - the context takes the scores of four states per pass over q into alpha (for rows of 16 to 64 floats the
//    pass unrolled, every load at an offset from two pointers: 9 instructions per 16 multiply-adds), then the
//    softmax over alpha (one asm: three tail-predicated passes, one vector exp per four states), then
//    c = Σ_j alpha_j S_j: for rows of 16 to 64 floats, 16 columns of c held in q0-q3 through all the states, two
//    states per pass (9 instructions a state and 16 columns: no load or store of c in the loop, each row's last
//    load stepping to the next); for other padded rows the same by vectors (one to four a chunk, one add a row
//    more, the chunk's last vector stored under a tail predicate), else four states per pass over c. On a core
//    whose states are in tightly coupled memory the two reads of S cost what the online softmax's did, without its
//    per-state bookkeeping;
//  - exp, tanh and sigmoid on four lanes at a time (mve/set_math.hpp).
// Sums run in another order than the scalar sets' (four partial sums per vector lane): results agree within the
// suite's float tolerances, not bit for bit. Contracts: include/sarnn/kernels.hpp.
#ifndef SARNN_KERNELS_MVE_SET_HPP
#define SARNN_KERNELS_MVE_SET_HPP

#include <cstddef>

#include "sarnn/kernels/mve/set_math.hpp"
#include "sarnn/kernels.hpp"

namespace sarnn::kernel {
namespace {  // NOLINT(cert-dcl59-cpp): one copy, in the mve set's file
namespace mve {

static_assert(lanes<float>() == 4, "the mve set needs rows padded to four floats (SARNN_VECTOR_BYTES 16)");

/// The lanes of p below n - k (all four when n - k >= 4).
inline mve_pred16_t tail(std::size_t n, std::size_t k) { return vctp32q(static_cast<std::uint32_t>(n - k)); }

inline float sum(f32x4 a) {
    return (vgetq_lane_f32(a, 0) + vgetq_lane_f32(a, 1)) + (vgetq_lane_f32(a, 2) + vgetq_lane_f32(a, 3));
}

/// a·b over n values (any alignment).
inline float dot(const float* a, const float* b, std::size_t n) {
    f32x4 s = vdupq_n_f32(0.0f);
    for (std::size_t k = 0; k < n; k += 4) {
        const mve_pred16_t p = tail(n, k);
        s = vfmaq_f32(s, vld1q_z_f32(a + k, p), vld1q_z_f32(b + k, p));
    }
    return sum(s);
}

/// The four dot products M_i·v over n values (any alignment), as the lanes of one vector.
inline f32x4 dot4(const float* M0, const float* M1, const float* M2, const float* M3, const float* v, std::size_t n) {
    alignas(16) float t[16];
    dot4_asm(M0, M1, M2, M3, v, n, t);
    return load_after_stores(t);
}

/// y = M·v (add = false) or y += M·v (add = true), four rows per pass.
template <bool add>
void gemv_rows(const float* M, std::size_t rows, std::size_t cols, std::size_t ld, const float* v, float* y) {
    std::size_t r = 0;
    for (; r + 4 <= rows; r += 4) {
        const float* m = M + r * ld;
        const f32x4 s = dot4(m, m + ld, m + 2 * ld, m + 3 * ld, v, cols);
        vst1q_f32(y + r, add ? vaddq_f32(vld1q_f32(y + r), s) : s);
    }
    for (; r < rows; ++r) {
        const float s = dot(M + r * ld, v, cols);
        y[r] = add ? y[r] + s : s;
    }
}

inline void gemv(const float* M, std::size_t rows, std::size_t cols, std::size_t ld, const float* v, float* y) {
    // y = M·v
    gemv_rows<false>(M, rows, cols, ld, v, y);
}

inline void gemv_add(const float* M, std::size_t rows, std::size_t cols, std::size_t ld, const float* v, float* y) {
    // y += M·v
    gemv_rows<true>(M, rows, cols, ld, v, y);
}

inline void gemv_t(const float* M, std::size_t rows, std::size_t cols, std::size_t ld, const float* v, float* y) {
    // y = Σ_r v_r M_r, four rows per pass over y: one load and store of each vector of y per 16 multiply-adds
    for (std::size_t d = 0; d < cols; d += 4) vst1q_p_f32(y + d, vdupq_n_f32(0.0f), tail(cols, d));
    touch(y);
    std::size_t r = 0;
    for (; r + 4 <= rows; r += 4) {
        const float* m = M + r * ld;
        const float v0 = v[r], v1 = v[r + 1], v2 = v[r + 2], v3 = v[r + 3];
        for (std::size_t d = 0; d < cols; d += 4) {
            const mve_pred16_t p = tail(cols, d);
            f32x4 a = vld1q_z_f32(y + d, p);
            a = vfmaq_n_f32(a, vld1q_z_f32(m + d, p), v0);
            a = vfmaq_n_f32(a, vld1q_z_f32(m + ld + d, p), v1);
            a = vfmaq_n_f32(a, vld1q_z_f32(m + 2 * ld + d, p), v2);
            a = vfmaq_n_f32(a, vld1q_z_f32(m + 3 * ld + d, p), v3);
            vst1q_p_f32(y + d, a, p);
        }
        touch(y);  // the next rows load what these stored (mve/set_loops.hpp: load_after_stores)
    }
    for (; r < rows; ++r)
        for (std::size_t d = 0; d < cols; d += 4) {
            const mve_pred16_t p = tail(cols, d);
            vst1q_p_f32(y + d, vfmaq_n_f32(vld1q_z_f32(y + d, p), vld1q_z_f32(M + r * ld + d, p), v[r]), p);
            touch(y);
        }
}

/// to[0..n) = from[0..n) (copy_asm: a vector a pass, the last under the loop's tail predicate).
inline void copy(const float* from, std::size_t n, float* to) {
    if (n > 0) copy_asm(from, n, to);
}

/// y_i = A_i·v + b_i (rows ld floats apart) for 4·groups rows by affine_rows_asm when v is 16, 32, 48 or 64 values
/// (the joined [x; r], or x and r, of the usual sizes); false when it is not.
inline bool affine_by_rows(const float* A, std::size_t ld, std::size_t groups, const float* v, std::size_t n,
                           const float* b, float* t, float* y) {
    switch (n) {
    case 16: affine_rows_asm<16>(A, ld, groups, v, b, t, y); return true;
    case 32: affine_rows_asm<32>(A, ld, groups, v, b, t, y); return true;
    case 48: affine_rows_asm<48>(A, ld, groups, v, b, t, y); return true;
    case 64: affine_rows_asm<64>(A, ld, groups, v, b, t, y); return true;
    default: return false;
    }
}

inline void affine_tanh(const float* A, const float* b, std::size_t rows, const float* x, std::size_t nx,
                        const float* r, std::size_t nr, float* y) {
    const std::size_t ld = nx + nr;
    // [x; r] in one vector when it is short (one loop per four rows instead of two, one transpose instead of two;
    // 256 B of stack)
    constexpr std::size_t kJoined = 64;
    alignas(16) float xr[kJoined];
    const bool joined = ld <= kJoined;
    if (joined) {
        copy(x, nx, xr);
        copy(r, nr, xr + nx);
        touch(xr);
    }
    const auto rows4 = [&](const float* a0, const float* a1, const float* a2, const float* a3) {
        // A_i·[x; r] for four rows
        if (joined) return dot4(a0, a1, a2, a3, xr, ld);
        return vaddq_f32(dot4(a0, a1, a2, a3, x, nx), dot4(a0 + nx, a1 + nx, a2 + nx, a3 + nx, r, nr));
    };
    std::size_t i = 0;
    if (const std::size_t groups = rows / 4; groups > 0) {
        // y_i = A_i·[x; r] + b_i, four rows per pass (over [x; r], or over x and then r), then tanh over them
        alignas(16) float t[20];
        if (joined && ld >= 4) {
            if (!affine_by_rows(A, ld, groups, xr, ld, b, t, y)) affine_asm(A, ld, groups, xr, ld, b, t, y);
            i = groups * 4;
        } else if (nx >= 4 && nr >= 4) {
            if (!affine_by_rows(A, ld, groups, x, nx, b, t, y)) affine_asm(A, ld, groups, x, nx, b, t, y);
            touch(y);
            // y_i += A_r,i·r
            if (!affine_by_rows(A + nx, ld, groups, r, nr, y, t, y)) affine_asm(A + nx, ld, groups, r, nr, y, t, y);
            i = groups * 4;
        }
        if (i > 0) tanh4_asm(y, groups);
    }
    for (; i + 4 <= rows; i += 4) {
        const float* a = A + i * ld;
        // y_i = tanh(A_i·[x; r] + b_i), four rows at a time
        vst1q_f32(y + i, tanh(vaddq_f32(rows4(a, a + ld, a + 2 * ld, a + 3 * ld), vld1q_f32(b + i))));
    }
    if (i < rows) {
        // the last rows (fewer than four: the rows past the end read as the last one), then one tanh
        const mve_pred16_t p = tail(rows, i);
        const float* a = A + i * ld;
        const float* a1 = i + 1 < rows ? a + ld : a;
        const float* a2 = i + 2 < rows ? a + 2 * ld : a;
        vst1q_p_f32(y + i, tanh(vaddq_f32(rows4(a, a1, a2, a), vld1q_z_f32(b + i, p))), p);
    }
}

inline void tanh_map(float* y, std::size_t n) {
    for (std::size_t k = 0; k < n; k += 4) {
        const mve_pred16_t p = tail(n, k);
        vst1q_p_f32(y + k, tanh(vld1q_z_f32(y + k, p)), p);
    }
}

inline void exp_map(float* y, std::size_t n) {
    for (std::size_t k = 0; k < n; k += 4) {
        const mve_pred16_t p = tail(n, k);
        vst1q_p_f32(y + k, exp(vld1q_z_f32(y + k, p)), p);
    }
}

/// y = softmax(y) the exact way: cm's loop (exp with its range checks), for inputs with NaN or Inf.
inline void softmax_exact(float* y, std::size_t n) {
    float m = y[0];
    for (std::size_t k = 1; k < n; ++k) m = y[k] > m ? y[k] : m;
    float l = 0.0f;
    for (std::size_t k = 0; k < n; ++k) l += (y[k] = cm::exp(y[k] - m));
    const float inv = 1.0f / l;
    for (std::size_t k = 0; k < n; ++k) y[k] *= inv;
}

inline void softmax(float* y, std::size_t n) {
    // y_k = exp(y_k - max) / Σ exp(y_j - max): softmax_asm (y_k - max clamped to -87: the result moves by less than
    // 2e-38, against a sum of at least 1), or the exact loop when an input is NaN or Inf or their sum is past
    // float's range
    if (n == 0) return;
    touch(y);
    if (softmax_asm(y, n) != 0) softmax_exact(y, n);
    touch(y);
}

inline void zero(float* c, std::size_t dim) {
    std::size_t d = 0;
    for (; d + 4 <= dim; d += 4) vst1q_f32(c + d, vdupq_n_f32(0.0f));
    if (d < dim) vst1q_p_f32(c + d, vdupq_n_f32(0.0f), tail(dim, d));
}

/// The rows of S as at most two runs of consecutive physical rows (the ring from `first` to the end, then from 0).
struct Runs {
    const float* base[2];
    std::size_t n[2];
};
inline Runs runs(const Rows<float>& S) {
    const std::size_t n0 = S.cap - S.first < S.n ? S.cap - S.first : S.n;
    return {{S.base + S.first * S.stride, S.base}, {n0, S.n - n0}};
}

/// c (= or +=, add) Σ_j w_j R_j over n consecutive rows R_j = row + j·ST floats of ST columns, 16 columns at a time
/// held in registers through the rows (weighted_chunk_asm).
template <std::size_t ST>
void weighted_chunks(const float* row, std::size_t n, const float* w, float* c, bool add) {
    for (std::size_t k = 0; k < ST; k += 16) weighted_chunk_asm<ST>(row + k, n, w, c + k, add);
}

/// c (= or +=, add) Σ_j w_j R_j over n consecutive padded rows R_j = row + j·st floats of dim columns (st =
/// padded(dim)), 16 columns at a time held in registers through the rows (weighted_chunk_nv_asm, the last chunk one to
/// four vectors, its last vector stored under a tail predicate).
inline void weighted_by_vectors(const float* row, std::size_t n, std::size_t st, std::size_t dim, const float* w,
                                float* c, bool add) {
    for (std::size_t k = 0; k < dim; k += 16) {
        const std::size_t cols = dim - k < 16 ? dim - k : 16;
        // the chunk's last vector: the columns below dim
        const mve_pred16_t last = tail(cols, (cols - 1) / 4 * 4);
        switch ((cols + 3) / 4) {
        case 1: weighted_chunk_nv_asm<1>(row + k, st, n, w, c + k, add, last); break;
        case 2: weighted_chunk_nv_asm<2>(row + k, st, n, w, c + k, add, last); break;
        case 3: weighted_chunk_nv_asm<3>(row + k, st, n, w, c + k, add, last); break;
        default: weighted_chunk_nv_asm<4>(row + k, st, n, w, c + k, add, last); break;
        }
    }
}

/// c (= or +=, add) Σ_j w_j R_j by weighted_chunks when the rows are 16, 32, 48 or 64 floats with no padding
/// (st = dim: each row's step folded into its last load, one instruction a row fewer), else by weighted_by_vectors
/// when they are padded rows (st = padded(dim)); false when they are neither.
inline bool weighted_by_chunks(const float* row, std::size_t n, std::size_t st, std::size_t dim, const float* w,
                               float* c, bool add) {
    if (st == dim) {
        switch (st) {
        case 16: weighted_chunks<16>(row, n, w, c, add); return true;
        case 32: weighted_chunks<32>(row, n, w, c, add); return true;
        case 48: weighted_chunks<48>(row, n, w, c, add); return true;
        case 64: weighted_chunks<64>(row, n, w, c, add); return true;
        default: break;
        }
    }
    if (st != padded<float>(dim) || dim == 0) return false;
    weighted_by_vectors(row, n, st, dim, w, c, add);
    return true;
}

inline void weighted_sum(const float* w, const Rows<float>& S, float* c) {
    // c = Σ_j w_j S_j: 16 columns of c in registers through the rows (padded rows: weighted_by_chunks), else four
    // consecutive rows per pass over c
    if (const Runs rr = runs(S); weighted_by_chunks(rr.base[0], rr.n[0], S.stride, S.dim, w, c, false)) {
        touch(c);
        if (rr.n[1] > 0) weighted_by_chunks(rr.base[1], rr.n[1], S.stride, S.dim, w + rr.n[0], c, true);
        touch(c);
        return;
    }

    zero(c, S.dim);
    const Runs rr = runs(S);
    const std::size_t st = S.stride;
    for (int g = 0; g < 2; ++g) {
        const float* row = rr.base[g];
        std::size_t i = 0;
        if (const std::size_t groups = rr.n[g] / 4; groups > 0 && st == padded<float>(S.dim) && S.dim > 0) {
            // whole groups of four rows in one loop
            weighted_asm(row, st, groups, w, S.dim, c);
            i = groups * 4;
            row += i * st;
            w += i;
        }
        for (; i + 4 <= rr.n[g]; i += 4, row += 4 * st, w += 4)
            add_rows4_asm(row, row + st, row + 2 * st, row + 3 * st, w[0], w[1], w[2], w[3], S.dim, c);
        if (const std::size_t left = rr.n[g] - i) {
            // the last one to three rows of the run (the others: its first again, weighted 0)
            const float* r1 = left > 1 ? row + st : row;
            const float* r2 = left > 2 ? row + 2 * st : row;
            add_rows4_asm(row, r1, r2, row, w[0], left > 1 ? w[1] : 0.0f, left > 2 ? w[2] : 0.0f, 0.0f, S.dim, c);
            w += left;
        }
    }
}

inline void additive_scores(const Rows<float>& P, const float* q, const float* v, float* e) {
    const std::size_t K = P.dim;
    for (std::size_t j = 0; j < P.n; ++j) {
        const float* pj = P.row(j);
        // e_j = v·tanh(P_j + q); P_j and q are padded rows (zero past K), v is not
        f32x4 s = vdupq_n_f32(0.0f);
        for (std::size_t k = 0; k < K; k += 4) {
            const mve_pred16_t p = tail(K, k);
            s = vfmaq_f32(s, vld1q_z_f32(v + k, p), tanh(vaddq_f32(vld1q_f32(pj + k), vld1q_f32(q + k))));
        }
        e[j] = sum(s);
    }
}

inline void lstm_cell(const float* z, const float* b, const float* c_prev, std::size_t H, float* c, float* h) {
    for (std::size_t d = 0; d < H; d += 4) {
        const mve_pred16_t p = tail(H, d);
        const auto gate = [&](std::size_t g) {
            return vaddq_f32(vld1q_z_f32(z + g * H + d, p), vld1q_z_f32(b + g * H + d, p));
        };
        const f32x4 i = sigmoid(gate(0)), f = sigmoid(gate(1)), g = tanh(gate(2)), o = sigmoid(gate(3));
        // c = f ⊙ c_prev + i ⊙ g; h = o ⊙ tanh(c)
        const f32x4 cn = vfmaq_f32(vmulq_f32(i, g), f, vld1q_f32(c_prev + d));
        vst1q_p_f32(c + d, cn, p);
        vst1q_p_f32(h + d, vmulq_f32(o, tanh(cn)), p);
    }
}

inline void gru_cell(const float* gi, const float* gh, const float* b_ih, const float* b_hh, const float* h_prev,
                     std::size_t H, float* h) {
    for (std::size_t d = 0; d < H; d += 4) {
        const mve_pred16_t p = tail(H, d);
        const auto part = [&](const float* a, const float* b, std::size_t g) {
            return vaddq_f32(vld1q_z_f32(a + g * H + d, p), vld1q_z_f32(b + g * H + d, p));
        };
        const f32x4 r = sigmoid(vaddq_f32(part(gi, b_ih, 0), part(gh, b_hh, 0)));
        const f32x4 z = sigmoid(vaddq_f32(part(gi, b_ih, 1), part(gh, b_hh, 1)));
        const f32x4 n = tanh(vfmaq_f32(part(gi, b_ih, 2), r, part(gh, b_hh, 2)));
        // h = (1 - z) ⊙ n + z ⊙ h_prev = n + z ⊙ (h_prev - n)
        vst1q_p_f32(h + d, vfmaq_f32(n, z, vsubq_f32(vld1q_f32(h_prev + d), n)), p);
    }
}

// ---- the context -----------------------------------------------------------------------------------------
/// The context over the rows of S once alpha holds the scores: alpha = softmax(e), c = Σ_j alpha_j S_j.
inline void attend_from_scores(const Rows<float>& S, float* alpha, float* c) {
    softmax(alpha, S.n);
    weighted_sum(alpha, S, c);
}

/// e = scale·(R_i·q) for 4·groups rows by scores_rows_asm when the rows are 16, 32, 48 or 64 floats with no
/// padding (st = dim); false when they are not.
inline bool scores_by_rows(const float* row, std::size_t groups, std::size_t st, std::size_t dim, const float* q,
                           float scale, float* t, float* e) {
    if (st != dim) return false;
    switch (st) {
    case 16: scores_rows_asm<16>(row, groups, q, scale, t, e); return true;
    case 32: scores_rows_asm<32>(row, groups, q, scale, t, e); return true;
    case 48: scores_rows_asm<48>(row, groups, q, scale, t, e); return true;
    case 64: scores_rows_asm<64>(row, groups, q, scale, t, e); return true;
    default: return false;
    }
}

inline void attend_dot(const Rows<float>& S, const float* q, float scale, float* alpha, float* c) {
    // e_j = scale·(S_j·q) into alpha, four consecutive states per pass over q
    const Runs rr = runs(S);
    const std::size_t st = S.stride;
    float* e = alpha;
    for (int g = 0; g < 2; ++g) {
        const float* row = rr.base[g];
        std::size_t i = 0;
        if (const std::size_t groups = rr.n[g] / 4; groups > 0 && st == padded<float>(S.dim) && S.dim > 0) {
            // whole groups of four states in one loop
            alignas(16) float t[20];
            if (!scores_by_rows(row, groups, st, S.dim, q, scale, t, e))
                scores_asm(row, st, groups, q, S.dim, scale, t, e);
            i = groups * 4;
            row += i * st;
            e += i;
        }
        for (; i + 4 <= rr.n[g]; i += 4, row += 4 * st, e += 4)
            vst1q_f32(e, vmulq_n_f32(dot4(row, row + st, row + 2 * st, row + 3 * st, q, S.dim), scale));
        if (const std::size_t left = rr.n[g] - i) {
            // the last one to three states of the run (the lanes past them: its first again, not stored)
            const float* r1 = left > 1 ? row + st : row;
            const float* r2 = left > 2 ? row + 2 * st : row;
            vst1q_p_f32(e, vmulq_n_f32(dot4(row, r1, r2, row, q, S.dim), scale), tail(left, 0));
            e += left;
        }
    }
    touch(alpha);
    attend_from_scores(S, alpha, c);
}

inline void attend_keys(const KeyBlocks<float>& P, const float* u, const Rows<float>& S, float* alpha, float* c) {
    constexpr std::size_t L = KeyBlocks<float>::L;  // 4: a block holds value k of four keys in one vector
    // e_j = P_j·u into alpha. Four logical rows in one block (physical rows 4b..4b+3, the ring not wrapping): K
    // multiply-adds of a vector by u_k; otherwise key by key.
    for (std::size_t j = 0; j < S.n;) {
        const std::size_t p0 = P.first + j < P.cap ? P.first + j : P.first + j - P.cap;
        if (j + L <= S.n && p0 % L == 0 && p0 + L <= P.cap) {
            const float* blk = P.at(p0);
            f32x4 s = vdupq_n_f32(0.0f);
            for (std::size_t k = 0; k < P.dim; ++k) s = vfmaq_n_f32(s, vld1q_f32(blk + k * L), u[k]);
            vst1q_f32(alpha + j, s);
            j += L;
        } else {
            const float* key = P.key(j);
            float a = 0.0f;
            for (std::size_t k = 0; k < P.dim; ++k) a += key[k * L] * u[k];
            alpha[j++] = a;
        }
    }
    touch(alpha);
    attend_from_scores(S, alpha, c);
}

/// The operations as one type, for SARNN_DEFINE_SET.
struct Ops {
#define SARNN_MVE_OP_(T_, R, name, impl, params, args) \
    static R impl params { return mve::impl args; }
    SARNN_LOOP_OPS(SARNN_MVE_OP_, float)
    SARNN_SET_OPS(SARNN_MVE_OP_, float)
#undef SARNN_MVE_OP_
};

}  // namespace mve
}  // namespace
}  // namespace sarnn::kernel

#endif
