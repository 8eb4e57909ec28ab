// sarnn/kernels.hpp: the kernel layer's interface. Every loop over data in sarnn runs through one of these
// functions; the models only own storage and decide the order of calls.
//
// The implementations live in lib/kernels/: a plain C++ scalar set (always present, the only one on
// Cortex-M) and xsimd sets, one per arch, each compiled in its own translation unit with that arch's flags.
// On x86-64 lib/ holds SSE2, AVX2+FMA and AVX-512 sets and picks the best the CPU has on first use; on
// ARM and i686 the SIMD set is fixed at compile time. `set_arch()` can pin another set (the benchmarks and
// tests use it to run every set side by side).
//
// Sizes are run-time arguments on purpose: one copy of each kernel serves every model size, which keeps
// flash small; the models pass compile-time constants, so nothing is lost but an unrolled loop.
//
// Padding contract ("padded row"): a pointer documented as a padded row is aligned to
// SARNN_VECTOR_BYTES (at least alignof(T)), holds `padded(n)` elements, and its lanes at index >= n are
// zero on entry; kernels that write a padded row write only lanes < n. Other pointers (weights, x) need
// only alignof(T) and exactly n elements: kernels never read past n there.
#ifndef SARNN_KERNELS_HPP
#define SARNN_KERNELS_HPP

#include <cstddef>

#include "sarnn/config.hpp"
#include "sarnn/status.hpp"

namespace sarnn {

/// Kernel sets that lib/ may hold. Which ones it does depends on the target (see `arch_available`).
enum class Arch : unsigned char { scalar, sse2, avx2_fma, avx512, neon, neon64 };

/// Static name of an arch: "scalar", "sse2", "avx2+fma", "avx512", "neon", "neon64".
const char* arch_name(Arch a) noexcept;

/// Elements of T per padded vector: rows are padded to a multiple of this.
template <class T>
constexpr std::size_t lanes() noexcept {
    return SARNN_VECTOR_BYTES > sizeof(T) ? SARNN_VECTOR_BYTES / sizeof(T) : 1;
}
/// Alignment of every buffer a model owns.
template <class T>
constexpr std::size_t storage_alignment() noexcept {
    return SARNN_VECTOR_BYTES > alignof(T) ? SARNN_VECTOR_BYTES : alignof(T);
}
/// n rounded up to a whole number of vectors.
template <class T>
constexpr std::size_t padded(std::size_t n) noexcept {
    return (n + lanes<T>() - 1) / lanes<T>() * lanes<T>();
}

/// A sequence of n padded rows of `dim` values, `stride` elements apart, read in ring order: logical row j
/// is physical row (first + j) mod cap. A plain array is first = 0, cap >= n.
template <class T>
struct Rows {
    const T* base;
    std::size_t stride;  ///< padded(dim)
    std::size_t dim;     ///< valid values per row
    std::size_t cap;     ///< physical rows
    std::size_t first;   ///< physical index of logical row 0, < cap
    std::size_t n;       ///< logical rows, <= cap

    const T* row(std::size_t j) const noexcept {
        const std::size_t p = first + j;
        return base + (p < cap ? p : p - cap) * stride;
    }
};

/// One kernel set for element type T. Costs are in multiply-adds.
template <class T>
struct Kernels {
    Arch arch;

    /// a·b over n values (any alignment). O(n).
    T (*dot)(const T* a, const T* b, std::size_t n);

    /// y = M·v: M is rows x cols, row-major with leading dimension ld (any alignment); v has cols values,
    /// y receives rows values (y must not alias v). O(rows·cols).
    void (*gemv)(const T* M, std::size_t rows, std::size_t cols, std::size_t ld, const T* v, T* y);
    /// y += M·v, as gemv. O(rows·cols).
    void (*gemv_add)(const T* M, std::size_t rows, std::size_t cols, std::size_t ld, const T* v, T* y);
    /// y = Mᵀ·v: M as in gemv, v has rows values, y receives cols values (any alignment, no alias).
    /// O(rows·cols).
    void (*gemv_t)(const T* M, std::size_t rows, std::size_t cols, std::size_t ld, const T* v, T* y);

    /// y = tanh(A·[x; r] + b): A is rows x (nx + nr) row-major, b has rows values, x has nx values
    /// (any alignment), r and y are padded rows (r of nr, y of rows values; y must not alias r).
    /// O(rows·(nx + nr)). This is the recurrent step of both RNNs.
    void (*affine_tanh)(const T* A, const T* b, std::size_t rows, const T* x, std::size_t nx,
                        const T* r, std::size_t nr, T* y);

    /// y = tanh(y), in place, n values. O(n).
    void (*tanh)(T* y, std::size_t n);
    /// y = exp(y), in place, n values (underflow gives 0, overflow +inf). O(n).
    void (*exp)(T* y, std::size_t n);
    /// y = softmax(y) in place over n >= 1 values; subtracts the max, so it never overflows. O(n).
    void (*softmax)(T* y, std::size_t n);

    /// c = Σ_j w_j S_j over the rows of S; c is a padded row of S.dim values. O(n·dim).
    void (*weighted_sum)(const T* w, const Rows<T>& S, T* c);

    /// Additive scores: e_j = v·tanh(P_j + q) over the rows of P (P.dim = K values each); q is a padded row
    /// of K values, v has K values (any alignment), e receives P.n values. O(n·K) tanh.
    void (*additive_scores)(const Rows<T>& P, const T* q, const T* v, T* e);

    /// The LSTM cell after its matrix products: with z = [z_i; z_f; z_g; z_o] (4·H values, any alignment) and
    /// b (4·H values), i = σ(z_i + b_i), f = σ(z_f + b_f), g = tanh(z_g + b_g), o = σ(z_o + b_o),
    /// c = f ⊙ c_prev + i ⊙ g, h = o ⊙ tanh(c). c_prev, c and h are padded rows of H values. O(H).
    void (*lstm_cell)(const T* z, const T* b, const T* c_prev, std::size_t H, T* c, T* h);

    /// The dot-score context, one pass over S (online softmax in chunks that stay in L1):
    /// e_j = scale·(S_j·q); alpha = softmax(e) (alpha receives S.n values); c = Σ_j alpha_j S_j.
    /// q and c are padded rows of S.dim values; S.n >= 1. O(2·n·dim) + O(n) exps.
    void (*attend_dot)(const Rows<T>& S, const T* q, T scale, T* alpha, T* c);

    /// The key/query context, one pass as attend_dot but with the scores over cached keys: e_j = P_j·u (P.dim
    /// = K values per row); alpha = softmax(e) (alpha receives S.n values); c = Σ_j alpha_j S_j. P and S hold
    /// the same states (the same cap, first and n >= 1); u is a padded row of P.dim values, c a padded row of
    /// S.dim values. O(n·(K + dim)) + O(n) exps.
    void (*attend_keys)(const Rows<T>& P, const T* u, const Rows<T>& S, T* alpha, T* c);
};

/// The kernel set in use for T (on x86-64 the best the CPU has, unless set_arch() chose another).
/// Cost: one load after the first call.
template <class T>
const Kernels<T>& kernels() noexcept;

/// True when lib/ holds the set for `a` and this CPU can run it.
bool arch_available(Arch a) noexcept;

/// Pins the kernel set used by every model (both float and double) from now on. Returns
/// Status::arch_unavailable, changing nothing, when arch_available(a) is false. Not meant to be called
/// while another thread is stepping a model.
Status set_arch(Arch a) noexcept;

/// The arch of the set in use.
Arch active_arch() noexcept;

/// The set for `a`, or nullptr when it is not available. Lets code (benchmarks, tests) call one set
/// directly without changing the global choice. ARMv7 NEON has no double-precision lanes: there,
/// kernels_for<double>(Arch::neon) (and kernels<double>() after set_arch(Arch::neon)) is the scalar set,
/// whose `arch` says Arch::scalar.
template <class T>
const Kernels<T>* kernels_for(Arch a) noexcept;

extern template const Kernels<float>& kernels<float>() noexcept;
extern template const Kernels<double>& kernels<double>() noexcept;
extern template const Kernels<float>* kernels_for<float>(Arch) noexcept;
extern template const Kernels<double>* kernels_for<double>(Arch) noexcept;

}  // namespace sarnn

#endif
