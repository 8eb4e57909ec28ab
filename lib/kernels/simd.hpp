// lib/kernels/simd.hpp: the kernel set on xsimd, templated on the xsimd arch tag. With xsimd_fixes.hpp
// (its workarounds) the only file in sarnn that names xsimd. Each lib/kernels/<arch>.cpp includes it,
// compiled with that arch's flags, and forwards its set's operations to `Simd<Arch, T>` (define_set.hpp);
// nothing here is visible outside lib/.
// Contracts: the operations listed in include/sarnn/kernels.hpp.
#ifndef SARNN_LIB_KERNELS_SIMD_HPP
#define SARNN_LIB_KERNELS_SIMD_HPP

#include <cmath>
#include <cstddef>
#include <limits>
#include <type_traits>

#include <xsimd/xsimd.hpp>

#include "kernels/xsimd_fixes.hpp"
#include "sarnn/kernels.hpp"

// Helpers that take arrays of batches must be inlined, or the batches live on the stack.
#define SARNN_INLINE __attribute__((always_inline)) inline
#define SARNN_INLINE_LAMBDA __attribute__((always_inline))
// A kernel whose whole body is inlined into it, xsimd's own functions included: in a large function GCC may
// otherwise call xsimd::haddp out of line, and the W accumulators then go through the stack (seen: gemv for 64
// rows of 96 columns 1.5x slower). Not inlined into its caller, so that each stays one compact function.
#define SARNN_FLAT __attribute__((flatten, noinline))
// Loops over the W rows of a block are unrolled, so that the W accumulators stay in registers.
#define SARNN_PRAGMA(x) _Pragma(#x)
#define SARNN_UNROLL(n) SARNN_PRAGMA(GCC unroll n)
// Sanitizer builds only check the code: there, flattening and unrolling multiply GCC's compile time of an arch
// file (x86_avx512.cpp: over 5 minutes), so neither is done.
#if defined(__SANITIZE_ADDRESS__)
#undef SARNN_FLAT
#undef SARNN_UNROLL
#define SARNN_FLAT __attribute__((noinline))
#define SARNN_UNROLL(n)
#endif

namespace sarnn::simd {
// internal linkage: each arch TU keeps its own copies, so no inline function crosses arches
namespace {  // NOLINT(cert-dcl59-cpp): unnamed on purpose, see above

template <class A, class T>
struct Simd {
    using B = xsimd::batch<T, A>;
    static constexpr std::size_t W = B::size;
    static_assert(W <= lanes<T>(), "sarnn: SARNN_VECTOR_BYTES is smaller than this arch's vector");
    static constexpr T kNegInf = -std::numeric_limits<T>::infinity();

    SARNN_INLINE static B load(const T* p) { return B::load_unaligned(p); }
    SARNN_INLINE static B load_a(const T* p) { return B::load_aligned(p); }

    static T dot(const T* a, const T* b, std::size_t n) {
        B acc0(T(0)), acc1(T(0));
        std::size_t k = 0;
        for (; k + 2 * W <= n; k += 2 * W) {
            acc0 = xsimd::fma(load(a + k), load(b + k), acc0);
            acc1 = xsimd::fma(load(a + k + W), load(b + k + W), acc1);
        }
        for (; k + W <= n; k += W) acc0 = xsimd::fma(load(a + k), load(b + k), acc0);
        T s = xsimd::hadd(acc0 + acc1);
        for (; k < n; ++k) s += a[k] * b[k];
        return s;
    }

    // acc[k] += row_k[0..cols)·v over whole vectors, for the W rows row_k = first + k·ld (all of them exist).
    // One pass over the columns with W independent FMA chains; rows are addressed from one base pointer.
    SARNN_INLINE static void full_block_dots(const T* first, std::size_t ld, const T* v, std::size_t cols, B* acc) {
        for (std::size_t j = 0; j + W <= cols; j += W) {
            const B vj = load(v + j);
            SARNN_UNROLL(16)
            for (std::size_t k = 0; k < W; ++k) acc[k] = xsimd::fma(load(first + k * ld + j), vj, acc[k]);
        }
    }

    // Lane k: row_k·v over the columns past the last whole vector (cols % W of them), rows as above.
    SARNN_INLINE static B tail_dots(const T* first, std::size_t ld, const T* v, std::size_t cols) {
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
    SARNN_INLINE static B block_dot(const T* first, std::size_t ld, const T* v, std::size_t cols) {
        B acc[W];
        for (auto& a : acc) a = B(T(0));
        full_block_dots(first, ld, v, cols, acc);
        B s = row_sums(acc);
        if (cols % W != 0) s += tail_dots(first, ld, v, cols);
        return s;
    }

    // Lane k < count: row_k·v for the count < W rows first + k·ld (the last, partial block of a matrix; lanes
    // from count on are 0). Row count-1 stands in for the missing ones, whose sums are then dropped.
    static B partial_block_dot(const T* first, std::size_t ld, std::size_t count, const T* v, std::size_t cols) {
        alignas(A::alignment()) T out[W] = {};
        B acc[W];
        for (std::size_t k = 0; k < W; ++k) acc[k] = B(T(0));
        for (std::size_t j = 0; j + W <= cols; j += W) {
            const B vj = load(v + j);
            for (std::size_t k = 0; k < W; ++k)
                acc[k] = xsimd::fma(load(first + (k < count ? k : count - 1) * ld + j), vj, acc[k]);
        }
        row_sums(acc).store_aligned(out);
        for (std::size_t k = 0; k < count; ++k)
            for (std::size_t j = cols / W * W; j < cols; ++j) out[k] += first[k * ld + j] * v[j];
        for (std::size_t k = count; k < W; ++k) out[k] = T(0);
        return load_a(out);
    }

    // Lane k: row_k·v over NV whole vectors, for the W rows first + k·ld, with v's NV vectors in registers.
    // Row by row, so one row pointer is live at a time; the W rows' FMA chains overlap out of order.
    template <std::size_t NV>
    SARNN_INLINE static B block_dot_fixed(const T* first, std::size_t ld, const B* vv) {
        B acc[W];
        SARNN_UNROLL(16)
        for (std::size_t k = 0; k < W; ++k) {
            const T* row = first + k * ld;
            acc[k] = load(row) * vv[0];
            SARNN_UNROLL(8)
            for (std::size_t u = 1; u < NV; ++u) acc[k] = xsimd::fma(load(row + u * W), vv[u], acc[k]);
        }
        return row_sums(acc);
    }

    // Rows of nv whole vectors, 1 <= nv <= 8 or one of the Extra widths a kernel asks for, take the paths with nv
    // known at compile time: f(std::integral_constant<std::size_t, nv>{}), and true. Other widths: false (the
    // caller's generic path).
    template <std::size_t... Extra, class F>
    SARNN_INLINE static bool with_fixed_width(std::size_t nv, F f) {
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
    SARNN_INLINE static void store_rows(B s, T* y, std::size_t count) {
        alignas(A::alignment()) T tmp[W];
        s.store_aligned(tmp);
        for (std::size_t k = 0; k < count; ++k) y[k] = tmp[k];
    }

    // y (+)= M·v for rows of NV whole vectors (plus a tail of cols % W), v in registers; full blocks of W rows.
    // Returns the rows done (a multiple of W).
    template <bool Add, std::size_t NV>
    SARNN_FLAT static std::size_t gemv_fixed(const T* M, std::size_t rows, std::size_t cols, std::size_t ld, const T* v, T* y) {
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
    template <bool Add>
    SARNN_FLAT static void gemv_impl(const T* M, std::size_t rows, std::size_t cols, std::size_t ld, const T* v, T* y) {
        std::size_t r0 = 0;
        const bool fixed = with_fixed_width(cols / W, [&](auto nv) {
            r0 = gemv_fixed<Add, nv()>(M, rows, cols, ld, v, y);
        });
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
    static void gemv(const T* M, std::size_t rows, std::size_t cols, std::size_t ld, const T* v, T* y) {
        gemv_impl<false>(M, rows, cols, ld, v, y);
    }
    static void gemv_add(const T* M, std::size_t rows, std::size_t cols, std::size_t ld, const T* v, T* y) {
        gemv_impl<true>(M, rows, cols, ld, v, y);
    }

    static void gemv_t(const T* M, std::size_t rows, std::size_t cols, std::size_t ld, const T* v, T* y) {
        std::size_t d = 0;
        for (; d + W <= cols; d += W) {
            B even(T(0)), odd(T(0));
            std::size_t r = 0;
            // y[d..d+W) = Σ_r v_r M_r[d..d+W)
            for (; r + 2 <= rows; r += 2) {
                even = xsimd::fma(B(v[r]), load(M + r * ld + d), even);
                odd = xsimd::fma(B(v[r + 1]), load(M + (r + 1) * ld + d), odd);
            }
            if (r < rows) even = xsimd::fma(B(v[r]), load(M + r * ld + d), even);
            (even + odd).store_unaligned(y + d);
        }
        for (; d < cols; ++d) {
            T s = T(0);
            for (std::size_t r = 0; r < rows; ++r) s += v[r] * M[r * ld + d];
            y[d] = s;
        }
    }

    // Vector u (lanes u·W..u·W+W) of [x; r], x of nx values: a plain load unless it straddles x's end.
    SARNN_INLINE static B joined(const T* x, std::size_t nx, const T* r, std::size_t u) {
        const std::size_t j = u * W;
        if (j + W <= nx) return load(x + j);
        if (j >= nx) return load(r + (j - nx));
        alignas(A::alignment()) T t[W];
        for (std::size_t k = 0; k < W; ++k) t[k] = j + k < nx ? x[j + k] : r[j + k - nx];
        return load_a(t);
    }

    // y = tanh(A·[x; r] + b) for rows of ld = nx + nr values, NV = ld / W whole vectors of them with [x; r] in
    // registers, and a tail of ld % W; full blocks of W rows. Returns the rows done (a multiple of W).
    template <std::size_t NV>
    SARNN_FLAT static std::size_t affine_tanh_fixed(const T* Am, const T* b, std::size_t rows, const T* x,
                                                    std::size_t nx, const T* r, std::size_t nr, T* y) {
        const std::size_t ld = nx + nr;
        B vv[NV];
        for (std::size_t u = 0; u < NV; ++u) vv[u] = joined(x, nx, r, u);
        std::size_t r0 = 0;
        for (; r0 + W <= rows; r0 += W) {
            const T* first = Am + r0 * ld;
            B s = block_dot_fixed<NV>(first, ld, vv) + load(b + r0);
            if (ld % W != 0) {
                // the tail columns, which may begin in x
                alignas(A::alignment()) T t[W];
                for (std::size_t k = 0; k < W; ++k) {
                    T acc = T(0);
                    for (std::size_t j = NV * W; j < ld; ++j) acc += first[k * ld + j] * (j < nx ? x[j] : r[j - nx]);
                    t[k] = acc;
                }
                s += load_a(t);
            }
            // y = A·[x; r] + b, W rows at once (tanh below, once all blocks are done)
            s.store_unaligned(y + r0);
        }
        // y = tanh(y)
        for (std::size_t k = 0; k < r0; k += W) tanh_safe(load(y + k)).store_unaligned(y + k);
        return r0;
    }

    // y = tanh(A·[x; r] + b): rows of 1 to 8 whole vectors (plus a tail) with [x; r] in registers, longer ones
    // through the generic loop; the last rows % W rows as a partial block.
    SARNN_FLAT static void affine_tanh(const T* Am, const T* b, std::size_t rows, const T* x, std::size_t nx,
                                       const T* r, std::size_t nr, T* y) {
        const std::size_t ld = nx + nr;
        std::size_t r0 = 0;
        with_fixed_width(ld / W, [&](auto nv) {
            r0 = affine_tanh_fixed<nv()>(Am, b, rows, x, nx, r, nr, y);
        });
        for (; r0 + W <= rows; r0 += W) {
            const T* first = Am + r0 * ld;
            B acc[W];
            for (auto& a : acc) a = B(T(0));
            full_block_dots(first, ld, x, nx, acc);
            full_block_dots(first + nx, ld, r, nr, acc);
            B s = row_sums(acc) + load(b + r0);
            if (nx % W != 0) s += tail_dots(first, ld, x, nx);
            if (nr % W != 0) s += tail_dots(first + nx, ld, r, nr);
            // y = tanh(A·[x; r] + b), W rows at once
            tanh_safe(s).store_unaligned(y + r0);
        }
        if (r0 < rows) {
            const std::size_t count = rows - r0;
            const T* first = Am + r0 * ld;
            alignas(A::alignment()) T bias[W] = {};
            for (std::size_t k = 0; k < count; ++k) bias[k] = b[r0 + k];
            const B s = partial_block_dot(first, ld, count, x, nx) + partial_block_dot(first + nx, ld, count, r, nr) +
                        load_a(bias);
            store_rows(tanh_safe(s), y + r0, count);
        }
    }

    // max(t[0..N)) as a tree (depth log2 N, not a chain of N - 1 dependent compares). NaN-free input.
    template <std::size_t N>
    SARNN_INLINE static T lane_max(const T* t) {
        if constexpr (N == 1) {
            return t[0];
        } else {
            const T a = lane_max<N / 2>(t), b = lane_max<N - N / 2>(t + N / 2);
            return a > b ? a : b;
        }
    }

    // y = f(y) for whole vectors, the tail through a padded temporary.
    template <class F>
    static void map(T* y, std::size_t n, F f) {
        std::size_t k = 0;
        for (; k + W <= n; k += W) f(load(y + k)).store_unaligned(y + k);
        if (k < n) {
            alignas(A::alignment()) T tmp[W] = {};
            for (std::size_t t = 0; k + t < n; ++t) tmp[t] = y[k + t];
            const B out = f(load_a(tmp));
            out.store_aligned(tmp);
            for (std::size_t t = 0; k + t < n; ++t) y[k + t] = tmp[t];
        }
    }

    static void tanh_map(T* y, std::size_t n) {
        map(y, n, [](B v) { return tanh_safe(v); });
    }
    static void exp_map(T* y, std::size_t n) {
        map(y, n, [](B v) { return exp_safe(v); });
    }

    static T max_of(const T* y, std::size_t n) {
        T m = y[0];
        std::size_t k = 0;
        if (n >= W) {
            B mv = load(y);
            for (k = W; k + W <= n; k += W) mv = xsimd::max(mv, load(y + k));
            alignas(A::alignment()) T tmp[W];
            mv.store_aligned(tmp);
            const T vm = lane_max<W>(tmp);
            m = vm > m ? vm : m;
        }
        for (; k < n; ++k) m = y[k] > m ? y[k] : m;
        return m;
    }

    static void softmax(T* y, std::size_t n) {
        const B m(max_of(y, n));
        // y_k = exp(y_k - max) (only the n valid values: the tail goes through map's temporary)
        map(y, n, [m](B v) { return exp_safe(v - m); });
        T l = T(0);
        std::size_t k = 0;
        B lv(T(0));
        for (; k + W <= n; k += W) lv += load(y + k);
        l = xsimd::hadd(lv);
        for (; k < n; ++k) l += y[k];
        const B inv(T(1) / l);
        // y_k /= Σ_j y_j
        map(y, n, [inv](B v) { return v * inv; });
    }

    // c[0..stride) += Σ_k p[k] row[k], k < count, in chunks of 4 vectors with two accumulators per vector
    // so that the FMA chains overlap.
    static void accumulate(const T* const* row, const T* p, std::size_t count, std::size_t stride, T* c) {
        constexpr std::size_t U = 4;
        for (std::size_t v = 0; v < stride; v += U * W) {
            const std::size_t nv = (stride - v) / W < U ? (stride - v) / W : U;
            B even[U], odd[U];
            for (std::size_t u = 0; u < U; ++u) {
                even[u] = u < nv ? load_a(c + v + u * W) : B(T(0));
                odd[u] = B(T(0));
            }
            std::size_t k = 0;
            for (; k + 2 <= count; k += 2) {
                const B p0(p[k]), p1(p[k + 1]);
                for (std::size_t u = 0; u < nv; ++u) {
                    even[u] = xsimd::fma(p0, load_a(row[k] + v + u * W), even[u]);
                    odd[u] = xsimd::fma(p1, load_a(row[k + 1] + v + u * W), odd[u]);
                }
            }
            if (k < count) {
                const B p0(p[k]);
                for (std::size_t u = 0; u < nv; ++u) even[u] = xsimd::fma(p0, load_a(row[k] + v + u * W), even[u]);
            }
            for (std::size_t u = 0; u < nv; ++u) (even[u] + odd[u]).store_aligned(c + v + u * W);
        }
    }

    static void zero(T* c, std::size_t stride) {
        for (std::size_t v = 0; v < stride; v += W) B(T(0)).store_aligned(c + v);
    }
    static void scale_row(T* c, std::size_t stride, T f) {
        const B fv(f);
        for (std::size_t v = 0; v < stride; v += W) (load_a(c + v) * fv).store_aligned(c + v);
    }

    static void weighted_sum(const T* w, const Rows<T>& S, T* c) {
        const std::size_t stride = S.stride;
        zero(c, stride);
        for (std::size_t j0 = 0; j0 < S.n; j0 += W) {
            const std::size_t count = S.n - j0 < W ? S.n - j0 : W;
            const T* row[W];
            for (std::size_t k = 0; k < count; ++k) row[k] = S.row(j0 + k);
            // c += Σ_j w_j S_j
            accumulate(row, w + j0, count, stride, c);
        }
    }

    static void additive_scores(const Rows<T>& P, const T* q, const T* v, T* e) {
        const std::size_t K = P.dim, stride = P.stride, full = K / W * W;
        // v as whole vectors: its last partial vector through a zero-padded copy (v itself may end at K)
        alignas(A::alignment()) T v_tail[W] = {};
        for (std::size_t k = full; k < K; ++k) v_tail[k - full] = v[k];
        for (std::size_t j0 = 0; j0 < P.n; j0 += W) {
            const std::size_t count = P.n - j0 < W ? P.n - j0 : W;
            const T* row[W];
            for (std::size_t k = 0; k < W; ++k) row[k] = P.row(j0 + (k < count ? k : count - 1));
            B acc[W];
            for (auto& a : acc) a = B(T(0));
            for (std::size_t o = 0; o < stride && o < K; o += W) {
                const B vv = o < full ? load(v + o) : load_a(v_tail);
                const B qv = load_a(q + o);
                // e_j += v·tanh(P_j + q), W states at once
                for (std::size_t k = 0; k < W; ++k) acc[k] = xsimd::fma(vv, tanh_safe(load_a(row[k] + o) + qv), acc[k]);
            }
            store_rows(row_sums(acc), e + j0, count);
        }
    }

    SARNN_INLINE static B sigmoid(B x) { return B(T(1)) / (B(T(1)) + exp_safe(-x)); }

    // c = σ(f) ⊙ c_prev + σ(i) ⊙ tanh(g); h = σ(o) ⊙ tanh(c)
    SARNN_INLINE static void cell(B zi, B zf, B zg, B zo, B c_prev, B& c, B& h) {
        c = sigmoid(zf) * c_prev + sigmoid(zi) * tanh_safe(zg);
        h = sigmoid(zo) * tanh_safe(c);
    }

    static void lstm_cell(const T* z, const T* b, const T* c_prev, std::size_t H, T* c, T* h) {
        std::size_t d = 0;
        for (; d + W <= H; d += W) {
            B cv, hv;
            cell(load(z + d) + load(b + d), load(z + H + d) + load(b + H + d), load(z + 2 * H + d) + load(b + 2 * H + d),
                 load(z + 3 * H + d) + load(b + 3 * H + d), load_a(c_prev + d), cv, hv);
            cv.store_aligned(c + d);
            hv.store_aligned(h + d);
        }
        if (d < H) {
            // the tail through zero-padded copies: z and b end at 4·H, c and h lanes past H stay untouched
            alignas(A::alignment()) T g[5][W] = {};
            for (std::size_t t = 0; d + t < H; ++t) {
                for (std::size_t gate = 0; gate < 4; ++gate) g[gate][t] = z[gate * H + d + t] + b[gate * H + d + t];
                g[4][t] = c_prev[d + t];
            }
            B cv, hv;
            cell(load_a(g[0]), load_a(g[1]), load_a(g[2]), load_a(g[3]), load_a(g[4]), cv, hv);
            store_rows(cv, c + d, H - d);
            store_rows(hv, h + d, H - d);
        }
    }

    // The context for any row length: c lives in memory between blocks; exact running max. block_scores(j0, count,
    // e) writes the scores of states j0..j0+count-1 to e[0..count) (W of them at once).
    template <class BlockScores>
    SARNN_INLINE static void attend_any(const Rows<T>& S, BlockScores block_scores, T* alpha, T* c) {
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

    static void attend_dot_any(const Rows<T>& S, const T* q, T scale, T* alpha, T* c) {
        attend_any(S, [&](std::size_t j0, std::size_t count, T* e) {
            const T* row[W];
            for (std::size_t k = 0; k < W; ++k) row[k] = S.row(j0 + (k < count ? k : count - 1));
            // e_j = scale·(S_j·q) for W states at once: lanes across states, one horizontal step per block
            B acc[W];
            for (auto& a : acc) a = B(T(0));
            for (std::size_t v = 0; v < S.stride; v += W) {
                const B qv = load_a(q + v);
                SARNN_UNROLL(16)
                for (std::size_t k = 0; k < W; ++k) acc[k] = xsimd::fma(load_a(row[k] + v), qv, acc[k]);
            }
            (row_sums(acc) * B(scale)).store_aligned(e);
        }, alpha, c);
    }

    // dst[0..n) = src[0..n), src aligned.
    SARNN_INLINE static void store_run(const T* src, std::size_t n, T* dst) {
        std::size_t k = 0;
        for (; k + W <= n; k += W) load_a(src + k).store_unaligned(dst + k);
        for (; k < n; ++k) dst[k] = src[k];
    }

    // Scores of the W rows at blk (rows of NV whole vectors; rows past count repeat the last one): lane k is
    // S_k·q. W independent FMA chains, one transposing sum.
    template <std::size_t NV>
    SARNN_INLINE static B block_scores(const T* blk, std::size_t count, const B* qv) {
        constexpr std::size_t stride = NV * W;
        B acc[W];
        if (count == W) {
            SARNN_UNROLL(16)
            for (std::size_t k = 0; k < W; ++k) {
                acc[k] = load_a(blk + k * stride) * qv[0];
                for (std::size_t u = 1; u < NV; ++u) acc[k] = xsimd::fma(load_a(blk + k * stride + u * W), qv[u], acc[k]);
            }
        } else {
            for (std::size_t k = 0; k < W; ++k) {
                const T* row = blk + (k < count ? k : count - 1) * stride;
                acc[k] = load_a(row) * qv[0];
                for (std::size_t u = 1; u < NV; ++u) acc[k] = xsimd::fma(load_a(row + u * W), qv[u], acc[k]);
            }
        }
        return row_sums(acc);
    }

    // The context for value rows S of NV whole vectors (NV known at compile time), over chunks of states that fit
    // in L1: pass A scores a chunk (W states at once: scores(seg, r, count) gives the scores of the count <= W
    // rows from row r of ring segment seg, lanes past count unspecified) and turns each block of W scores into
    // weights at once, pass B adds the chunk into c while its rows are still in L1 (attend_dot: pass A read
    // them; attend_keys: pass A read the keys, pass B streams the values). Each stored row is read from memory
    // once; the accumulators of c stay in registers for the whole pass.
    // The weights are p_j = exp(e_j - m) with a lazy shift m: m is raised only when a score exceeds m + kTau
    // (then what was accumulated, and the chunk's earlier weights, are rescaled by exp(m_old - m_new)). So
    // p_j <= exp(kTau) never overflows, m <= max_j e_j never underflows more than the exact shift would, and the
    // weights of a block wait for no chunk-wide max: pass B of a chunk and pass A of the next overlap out of
    // order. (Measured, Xeon AVX-512, Hidden 64: n = 256..1024 5-9% faster than an exact running max.)
    // ChunkRows: the rows of a chunk, 0 for as many as fill 24 KB (half of L1; at most 256). attend_dot takes the
    // default (pass B re-reads what pass A read); attend_keys takes W: its pass B streams rows that pass A did not
    // touch, and one block per chunk lets the two passes of neighbouring blocks overlap best (measured, Xeon
    // AVX-512, Hidden 64, K 16, step at n = 1024, against Eigen in the same run: 24 KB chunks 1.04x, 8 KB 1.08x, one
    // block 1.21x; prefetching the states in pass A 0.93-1.0x).
    template <std::size_t NV, std::size_t ChunkRows, class Scores>
    SARNN_INLINE static void attend_chunks(const Rows<T>& S, Scores scores, T* alpha, T* c) {
        constexpr std::size_t stride = NV * W;
        constexpr std::size_t kChains = W * sizeof(T) == 64 ? 16 : 8;        // FMA chains to hide latency
        constexpr std::size_t Split = kChains / NV > 1 ? kChains / NV : 1;    // accumulators per vector of c
        constexpr std::size_t kChunkBytes = std::size_t{24} * 1024;
        constexpr std::size_t kRaw = kChunkBytes / (stride * sizeof(T)) / W * W;
        constexpr std::size_t Chunk = ChunkRows != 0 ? ChunkRows : (kRaw < W ? W : (kRaw > 256 ? 256 : kRaw));
        static_assert(Chunk % W == 0, "sarnn: chunks are whole blocks");
        constexpr T kTau = T(16);  // weights up to exp(16) = 8.9e6: sums of millions of them stay finite
        B acc_c[Split][NV];
        for (std::size_t u = 0; u < NV; ++u)
            for (std::size_t sp = 0; sp < Split; ++sp) acc_c[sp][u] = B(T(0));
        T m = kNegInf;  // the shift: every p_j so far is exp(e_j - m)
        B lv(T(0));     // lanes of Σ p_j
        alignas(A::alignment()) T p[Chunk];
        std::size_t j = 0;  // logical index of the next state
        const std::size_t in_first = S.cap - S.first < S.n ? S.cap - S.first : S.n;
        const T* const seg_base[2] = {S.base + S.first * stride, S.base};
        const std::size_t seg_n[2] = {in_first, S.n - in_first};
        // alpha: with few enough chunks, each chunk's p_j = exp(e_j - m_c) goes straight to alpha, and the end
        // only scales chunk c by exp(m_c - m) / l (no second exp per state); otherwise alpha keeps the raw scores
        // and the end takes exp(e_j - m) / l.
        constexpr std::size_t kMaxChunks = 64;
        const bool direct = (seg_n[0] + Chunk - 1) / Chunk + (seg_n[1] + Chunk - 1) / Chunk <= kMaxChunks;
        T chunk_m[kMaxChunks];
        std::size_t chunk_end[kMaxChunks];
        std::size_t chunks = 0;
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
                    chunk_m[chunks] = m;
                    chunk_end[chunks++] = j + cn;
                }
                // pass B: c += Σ_j p_j S_j, over rows still in L1
                std::size_t k = 0;
                for (; k + W <= cn; k += W) {
                    const T* blk = chunk + k * stride;
                    SARNN_UNROLL(16)
                    for (std::size_t t = 0; t < W; ++t) {
                        const B pk(p[k + t]);
                        for (std::size_t u = 0; u < NV; ++u)
                            acc_c[t % Split][u] = xsimd::fma(pk, load_a(blk + t * stride + u * W), acc_c[t % Split][u]);
                    }
                }
                for (; k < cn; ++k) {
                    const B pk(p[k]);
                    const T* row = chunk + k * stride;
                    for (std::size_t u = 0; u < NV; ++u) acc_c[0][u] = xsimd::fma(pk, load_a(row + u * W), acc_c[0][u]);
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
        if (direct) {
            // alpha_j = exp(e_j - m_c) · exp(m_c - m) / l for the states j of chunk c
            std::size_t j0 = 0;
            for (std::size_t ch = 0; ch < chunks; ++ch) {
                const B f(chunk_m[ch] == m ? inv : std::exp(chunk_m[ch] - m) * inv);
                map(alpha + j0, chunk_end[ch] - j0, [f](B v) { return v * f; });
                j0 = chunk_end[ch];
            }
        } else {
            // alpha_j = exp(e_j - m) / l
            const B mv(m);
            map(alpha, S.n, [mv, inv_v](B v) { return exp_safe(v - mv) * inv_v; });
        }
    }

    // attend_dot for rows of NV whole vectors: e_j = scale·(S_j·q), q in registers.
    template <std::size_t NV>
    static void attend_fixed(const Rows<T>& S, const T* q, T scale, T* alpha, T* c) {
        constexpr std::size_t stride = NV * W;
        B qv[NV];
        for (std::size_t u = 0; u < NV; ++u) qv[u] = load_a(q + u * W);
        const B scale_v(scale);
        const T* const base[2] = {S.base + S.first * stride, S.base};
        attend_chunks<NV, 0>(
            S,
            [&](std::size_t seg, std::size_t r, std::size_t count) SARNN_INLINE_LAMBDA {
                return block_scores<NV>(base[seg] + r * stride, count, qv) * scale_v;
            },
            alpha, c);
    }

    static void attend_dot(const Rows<T>& S, const T* q, T scale, T* alpha, T* c) {
        // Also rows of 16 vectors (Hidden = 128 on AVX2, 64 on SSE2 and NEON): faster with q partly read from L1
        // (more vectors than registers), 1.7-2x the generic path as measured. 32 vectors: slower, generic path.
        const bool fixed = with_fixed_width<16>(S.stride / W, [&](auto nv) {
            attend_fixed<nv()>(S, q, scale, alpha, c);
        });
        if (!fixed) attend_dot_any(S, q, scale, alpha, c);
    }

    // Scores of the W key rows at blk (rows stride_k apart, nvk whole vectors each; rows past count repeat the
    // last one): lane k is P_k·u. One pass over the key's vectors with W independent chains, one transposing sum.
    SARNN_INLINE static B key_scores(const T* blk, std::size_t stride_k, std::size_t nvk, std::size_t count,
                                     const T* u) {
        B acc[W];
        const B u0 = load_a(u);
        if (count == W) {
            SARNN_UNROLL(16)
            for (std::size_t k = 0; k < W; ++k) acc[k] = load_a(blk + k * stride_k) * u0;
            for (std::size_t v = 1; v < nvk; ++v) {
                const B uv = load_a(u + v * W);
                SARNN_UNROLL(16)
                for (std::size_t k = 0; k < W; ++k) acc[k] = xsimd::fma(load_a(blk + k * stride_k + v * W), uv, acc[k]);
            }
        } else {
            for (std::size_t k = 0; k < W; ++k) {
                const T* row = blk + (k < count ? k : count - 1) * stride_k;
                acc[k] = load_a(row) * u0;
                for (std::size_t v = 1; v < nvk; ++v) acc[k] = xsimd::fma(load_a(row + v * W), load_a(u + v * W), acc[k]);
            }
        }
        return row_sums(acc);
    }

    // attend_keys for value rows of NV whole vectors (keys of any width).
    template <std::size_t NV>
    static void attend_keys_fixed(const Rows<T>& P, const T* u, const Rows<T>& S, T* alpha, T* c) {
        const std::size_t stride_k = P.stride, nvk = P.stride / W;
        const T* const base[2] = {P.base + P.first * stride_k, P.base};
        attend_chunks<NV, W>(
            S,
            [&](std::size_t seg, std::size_t r, std::size_t count) SARNN_INLINE_LAMBDA {
                return key_scores(base[seg] + r * stride_k, stride_k, nvk, count, u);
            },
            alpha, c);
    }

    // attend_keys for value rows of any length.
    static void attend_keys_any(const Rows<T>& P, const T* u, const Rows<T>& S, T* alpha, T* c) {
        const std::size_t nvk = P.stride / W;
        attend_any(S, [&](std::size_t j0, std::size_t count, T* e) {
            B acc[W];
            const B u0 = load_a(u);
            for (std::size_t k = 0; k < W; ++k) {
                // e_j = P_j·u
                const T* key = P.row(j0 + (k < count ? k : count - 1));
                acc[k] = load_a(key) * u0;
                for (std::size_t v = 1; v < nvk; ++v) acc[k] = xsimd::fma(load_a(key + v * W), load_a(u + v * W), acc[k]);
            }
            row_sums(acc).store_aligned(e);
        }, alpha, c);
    }

    static void attend_keys(const Rows<T>& P, const T* u, const Rows<T>& S, T* alpha, T* c) {
        const bool fixed = with_fixed_width<16>(S.stride / W, [&](auto nv) {
            attend_keys_fixed<nv()>(P, u, S, alpha, c);
        });
        if (!fixed) attend_keys_any(P, u, S, alpha, c);
    }
};

}  // namespace
}  // namespace sarnn::simd

#undef SARNN_INLINE
#undef SARNN_INLINE_LAMBDA
#undef SARNN_FLAT
#undef SARNN_UNROLL
#undef SARNN_PRAGMA

#endif
