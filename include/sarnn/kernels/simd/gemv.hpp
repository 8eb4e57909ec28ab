// sarnn/kernels/simd/gemv.hpp: dot, gemv, gemv_add, gemv_t: a matrix (rows of ld values) times a vector, W rows
// at once with W independent FMA chains and one transposing sum (row_sums); rows of 1 to 8 whole vectors keep v in
// registers.
// Part of Simd<A, T> (kernels/simd/simd.hpp, which declares it and includes this file; include that one).
#ifndef SARNN_KERNELS_SIMD_GEMV_HPP
#define SARNN_KERNELS_SIMD_GEMV_HPP

namespace sarnn::simd {
namespace {  // NOLINT(cert-dcl59-cpp): the set's internal linkage, as in simd.hpp

template <class A, class T>
T Simd<A, T>::dot(const T* a, const T* b, std::size_t n) {
    B acc0(T(0)), acc1(T(0));
    std::size_t k = 0;
    for (; k + 2 * W <= n; k += 2 * W) {
        acc0 = madd(load(a + k), load(b + k), acc0);
        acc1 = madd(load(a + k + W), load(b + k + W), acc1);
    }
    for (; k + W <= n; k += W) acc0 = madd(load(a + k), load(b + k), acc0);
    T s = xsimd::hadd(acc0 + acc1);
    for (; k < n; ++k) s += a[k] * b[k];
    return s;
}

// acc[k] += row_k[0..cols)·v over whole vectors, for the W rows row_k = first + k·ld (all of them exist): one
// pass over the columns with W independent FMA chains, rows addressed from one base pointer; on ARMv7 one pointer
// walking down the rows and up (kWalkPointers), on AArch64 the rows walked by load pairs (kLoadPairs).
template <class A, class T>
SARNN_INLINE void Simd<A, T>::full_block_dots(const T* first, std::size_t ld, const T* v, std::size_t cols, B* acc) {
    std::size_t j = 0;
    if constexpr (kWalkPointers) {
        // one pointer down the W rows and back up to the next column (ARMv7: VLD1 with writeback by a register,
        // no address adds, few registers)
        const T* p = first;
        const T* vp = v;
        const std::ptrdiff_t down = static_cast<std::ptrdiff_t>(ld);
        const std::ptrdiff_t up = static_cast<std::ptrdiff_t>(W) - static_cast<std::ptrdiff_t>((W - 1) * ld);
        SARNN_UNROLL(2)
        for (; j + W <= cols; j += W) {
            const B vj = load_next<A>(vp);
            SARNN_UNROLL(16)
            for (std::size_t k = 0; k < W; ++k) acc[k] = madd(load_step<A>(p, k + 1 < W ? down : up), vj, acc[k]);
        }
        return;
    }
    if constexpr (kLoadPairs) {
        rows_dots_pairs<W>(first, ld, v, cols, acc);
        return;
    }
    for (; j + W <= cols; j += W) {
        const B vj = load(v + j);
        SARNN_UNROLL(16)
        for (std::size_t k = 0; k < W; ++k) acc[k] = madd(load(first + k * ld + j), vj, acc[k]);
    }
}

// acc[k] += row_k[0..cols)·v over whole vectors, for the R rows row_k = first + k·ld, each row walked by its own
// pointer: four vectors at a time (R = 4: one LD1 per row and per v, in a loop of 23 instructions per 16 FMAs,
// kernels/simd/quad_fma.hpp), then two (LDP with post-index: 13 instructions per 8 FMAs), few registers live.
// (R = 2·W, each load of v for 8 rows, was tried for affine_tanh: GCC 12 then spills, 1.5x the instructions.)
template <class A, class T>
template <std::size_t R>
SARNN_INLINE void Simd<A, T>::rows_dots_pairs(const T* first, std::size_t ld, const T* v, std::size_t cols, B* acc) {
    const T* rp[R];
    for (std::size_t k = 0; k < R; ++k) rp[k] = first + k * ld;
    const T* vp = v;
    std::size_t j = 0;
    if constexpr (R == 4 && W == 4) {
        // four vectors of v and of each of the four rows a step (AArch64: one LD1 each, kernels/simd/quad_fma.hpp)
        const std::size_t quads = cols / (4 * W);
        if (quads > 0) quad_rows_dots<A>(rp, vp, quads, acc);
        j = quads * 4 * W;
    }
    for (; j + 2 * W <= cols; j += 2 * W) {
        B v0, v1;
        load_pair_next<A>(vp, v0, v1);
        SARNN_UNROLL(16)
        for (std::size_t k = 0; k < R; ++k) {
            B a, b;
            load_pair_next<A>(rp[k], a, b);
            acc[k] = madd(b, v1, madd(a, v0, acc[k]));
        }
    }
    if (j + W <= cols) {
        const B vj = load(vp);
        SARNN_UNROLL(16)
        for (std::size_t k = 0; k < R; ++k) acc[k] = madd(load(rp[k]), vj, acc[k]);
    }
}

// Lane k: row_k·v over the columns past the last whole vector (cols % W of them), rows as above.
template <class A, class T>
SARNN_INLINE auto Simd<A, T>::tail_dots(const T* first, std::size_t ld, const T* v, std::size_t cols) -> B {
    alignas(A::alignment()) T t[W];
    const std::size_t j0 = cols / W * W;
    for (std::size_t k = 0; k < W; ++k) {
        T s = T(0);
        for (std::size_t j = j0; j < cols; ++j) s += first[k * ld + j] * v[j];
        t[k] = s;
    }
    return load_a(t);
}

// Lane k: row_k·v for the W rows first + k·ld: the transposing sum of full_block_dots, plus the tail.
template <class A, class T>
SARNN_INLINE auto Simd<A, T>::block_dot(const T* first, std::size_t ld, const T* v, std::size_t cols) -> B {
    B acc[W];
    for (auto& a : acc) a = B(T(0));
    full_block_dots(first, ld, v, cols, acc);
    B s = row_sums(acc);
    if (cols % W != 0) s += tail_dots(first, ld, v, cols);
    return s;
}

// Lane k < count: row_k·v for the count < W rows first + k·ld (the last, partial block of a matrix; lanes
// from count on are 0). Row count-1 stands in for the missing ones, whose sums are then dropped.
template <class A, class T>
inline auto Simd<A, T>::partial_block_dot(const T* first, std::size_t ld, std::size_t count, const T* v,
                                          std::size_t cols) -> B {
    alignas(A::alignment()) T out[W] = {};
    B acc[W];
    for (std::size_t k = 0; k < W; ++k) acc[k] = B(T(0));
    for (std::size_t j = 0; j + W <= cols; j += W) {
        const B vj = load(v + j);
        for (std::size_t k = 0; k < W; ++k)
            acc[k] = madd(load(first + (k < count ? k : count - 1) * ld + j), vj, acc[k]);
    }
    row_sums(acc).store_aligned(out);
    for (std::size_t k = 0; k < count; ++k)
        for (std::size_t j = cols / W * W; j < cols; ++j) out[k] += first[k * ld + j] * v[j];
    for (std::size_t k = count; k < W; ++k) out[k] = T(0);
    return load_a(out);
}

// Lane k: row_k·v over NV whole vectors, for the W rows first + k·ld, with v's NV vectors in registers.
// Row by row, so one row pointer is live at a time; the W rows' FMA chains overlap out of order.
template <class A, class T>
template <std::size_t NV>
SARNN_INLINE auto Simd<A, T>::block_dot_fixed(const T* first, std::size_t ld, const B* vv) -> B {
    B acc[W];
    SARNN_UNROLL(16)
    for (std::size_t k = 0; k < W; ++k) {
        const T* row = first + k * ld;
        acc[k] = load(row) * vv[0];
        SARNN_UNROLL(8)
        for (std::size_t u = 1; u < NV; ++u) acc[k] = madd(load(row + u * W), vv[u], acc[k]);
    }
    return row_sums(acc);
}

// acc[k] += row_k·v over NV whole vectors, for the W rows first + k·ld, with v's NV vectors in registers (row by
// row, as block_dot_fixed).
template <class A, class T>
template <std::size_t NV>
SARNN_INLINE void Simd<A, T>::block_madd_fixed(const T* first, std::size_t ld, const B* vv, B* acc) {
    SARNN_UNROLL(16)
    for (std::size_t k = 0; k < W; ++k) {
        const T* row = first + k * ld;
        SARNN_UNROLL(8)
        for (std::size_t u = 0; u < NV; ++u) acc[k] = madd(load(row + u * W), vv[u], acc[k]);
    }
}

// Lane k: row_k·x + row'_k·h for the W rows row_k = ih + k·nx (nx values, x of any length) and row'_k = hh + k·NH·W
// (NH whole vectors, h's in registers): both products in the same W FMA chains, one transposing sum (the cells'
// gates whose two products add up: GRU r and z, every LSTM gate).
template <class A, class T>
template <std::size_t NH>
SARNN_INLINE auto Simd<A, T>::two_block_dot(const T* ih, std::size_t nx, const T* x, const T* hh, const B* hv) -> B {
    B acc[W];
    for (auto& a : acc) a = B(T(0));
    full_block_dots(ih, nx, x, nx, acc);
    block_madd_fixed<NH>(hh, NH * W, hv, acc);
    B s = row_sums(acc);
    if (nx % W != 0) s += tail_dots(ih, nx, x, nx);
    return s;
}

// Whether a cell's step takes the one pass over its weights (gru_step_fixed, lstm_step_fixed) for `gates` gate rows
// per hidden lane, In inputs and H = 1 to 8 whole vectors hidden, or gemv and the cell apart. Measured side by side
// (sarnn_bench step/gru|lstm, Hidden 16 to 128, In 32, 7 Dec 2026 on an AVX-512 Xeon): with 16 lanes (AVX-512 float)
// the pass is faster at every size (Hidden 16: 1.35 -> 1.45x Eigen for the GRU, Hidden 64: 1.23 -> 1.58x); with 4 or
// 8 lanes it is slower while the weights fit in L1 (SSE2 GRU Hidden 16 and 32: 0.67 -> 0.50x; AVX2 GRU Hidden 32:
// 1.38 -> 1.23x: the x part's FMA chains, which gemv keeps in registers with x, run through a loop) and faster once
// they outgrow it (AVX2 GRU Hidden 64: 1.11 -> 1.31x), where the order of the rows (backward) pays.
template <class A, class T>
constexpr bool Simd<A, T>::one_pass_step(std::size_t gates, std::size_t In, std::size_t H) {
    return W >= 16 || gates * H * (In + H) * sizeof(T) > std::size_t{32} * 1024;
}

// Rows of nv whole vectors, 1 <= nv <= 8 or one of the Extra widths a kernel asks for, take the paths with nv
// known at compile time: f(std::integral_constant<std::size_t, nv>{}), and true. Other widths: false (the
// caller's generic path).
template <class A, class T>
template <std::size_t... Extra, class F>
SARNN_INLINE bool Simd<A, T>::with_fixed_width(std::size_t nv, F f) {
    switch (nv) {
    case 1: f(std::integral_constant<std::size_t, 1>{}); return true;
    case 2: f(std::integral_constant<std::size_t, 2>{}); return true;
    case 3: f(std::integral_constant<std::size_t, 3>{}); return true;
    case 4: f(std::integral_constant<std::size_t, 4>{}); return true;
    case 5: f(std::integral_constant<std::size_t, 5>{}); return true;
    case 6: f(std::integral_constant<std::size_t, 6>{}); return true;
    case 7: f(std::integral_constant<std::size_t, 7>{}); return true;
    case 8: f(std::integral_constant<std::size_t, 8>{}); return true;
    default: return ((nv == Extra && (f(std::integral_constant<std::size_t, Extra>{}), true)) || ...);
    }
}

// y[r0..r0+count) = lanes of s (an unaligned destination may not take a full vector store).
template <class A, class T>
SARNN_INLINE void Simd<A, T>::store_rows(B s, T* y, std::size_t count) {
    alignas(A::alignment()) T tmp[W];
    s.store_aligned(tmp);
    for (std::size_t k = 0; k < count; ++k) y[k] = tmp[k];
}

// y (+)= M·v for rows of NV whole vectors (plus a tail of cols % W), v in registers; full blocks of W rows.
// Returns the rows done (a multiple of W).
template <class A, class T>
template <bool Add, std::size_t NV>
SARNN_FLAT std::size_t Simd<A, T>::gemv_fixed(const T* M, std::size_t rows, std::size_t cols, std::size_t ld,
                                              const T* v, T* y) {
    B vv[NV];
    for (std::size_t u = 0; u < NV; ++u) vv[u] = load(v + u * W);
    std::size_t r0 = 0;
    for (; r0 + W <= rows; r0 += W) {
        B s = block_dot_fixed<NV>(M + r0 * ld, ld, vv);
        if (cols % W != 0) s += tail_dots(M + r0 * ld, ld, v, cols);
        if (Add) s += load(y + r0);
        s.store_unaligned(y + r0);
    }
    return r0;
}

// y (+)= M·v, W rows at once: rows of 1 to 8 whole vectors (plus a tail) with v in registers, longer ones
// through the generic loop.
template <class A, class T>
template <bool Add>
SARNN_FLAT void Simd<A, T>::gemv_impl(const T* M, std::size_t rows, std::size_t cols, std::size_t ld, const T* v,
                                      T* y) {
    std::size_t r0 = 0;
    const bool fixed = with_fixed_width(cols / W,
                                        [&](auto nv) { r0 = gemv_fixed<Add, nv()>(M, rows, cols, ld, v, y); });
    if (!fixed) {
        for (; r0 + W <= rows; r0 += W) {
            B s = block_dot(M + r0 * ld, ld, v, cols);
            if (Add) s += load(y + r0);
            s.store_unaligned(y + r0);
        }
    }
    if (r0 < rows) {
        B s = partial_block_dot(M + r0 * ld, ld, rows - r0, v, cols);
        if (Add) {
            alignas(A::alignment()) T old[W] = {};
            for (std::size_t k = 0; r0 + k < rows; ++k) old[k] = y[r0 + k];
            s += load_a(old);
        }
        store_rows(s, y + r0, rows - r0);
    }
}

template <class A, class T>
void Simd<A, T>::gemv(const T* M, std::size_t rows, std::size_t cols, std::size_t ld, const T* v, T* y) {
    gemv_impl<false>(M, rows, cols, ld, v, y);
}

template <class A, class T>
void Simd<A, T>::gemv_add(const T* M, std::size_t rows, std::size_t cols, std::size_t ld, const T* v, T* y) {
    gemv_impl<true>(M, rows, cols, ld, v, y);
}

template <class A, class T>
void Simd<A, T>::gemv_t(const T* M, std::size_t rows, std::size_t cols, std::size_t ld, const T* v, T* y) {
    std::size_t d = 0;
    for (; d + W <= cols; d += W) {
        B even(T(0)), odd(T(0));
        std::size_t r = 0;
        // y[d..d+W) = Σ_r v_r M_r[d..d+W)
        for (; r + 2 <= rows; r += 2) {
            even = madd(B(v[r]), load(M + r * ld + d), even);
            odd = madd(B(v[r + 1]), load(M + (r + 1) * ld + d), odd);
        }
        if (r < rows) even = madd(B(v[r]), load(M + r * ld + d), even);
        (even + odd).store_unaligned(y + d);
    }
    for (; d < cols; ++d) {
        T s = T(0);
        for (std::size_t r = 0; r < rows; ++r) s += v[r] * M[r * ld + d];
        y[d] = s;
    }
}

}  // namespace
}  // namespace sarnn::simd

#endif
