// sarnn/kernels.hpp: the kernel layer. Every loop over data in sarnn runs through a kernel set; the models only
// own storage and decide the order of calls.
//
// A kernel set is a type of sarnn::kernel (Scalar, Sse2, Avx2Fma, Avx512, Neon, Neon64: the sets this lib/ holds
// are those of SARNN_SETS in config.hpp) with one static function per operation below, for float and double, each
// defined in its own translation unit lib/kernels/<arch>.cpp with that arch's flags. A model takes its set as a
// template parameter (`Set`, defaulted to kernel::Default) and calls `Set::op(...)` directly: the linker keeps
// only the kernels the model calls (with --gc-sections), and nothing is chosen at run time.
//
// kernel::Default is what the build configured (config.hpp): on x86-64 it is kernel::Dispatch, whose functions
// call through the run-time table sarnn::Kernels<T> of the best set the CPU runs (one binary for every x86-64;
// `set_arch()` pins another set); elsewhere (ARM, i686, Cortex-M) it is the one set the target has. A model may
// name any set lib/ holds; on x86 the CPU must run it (check arch_available(Set::arch) first).
//
// Sizes are run-time arguments of the operations below: one copy of each kernel serves every model size. Where a
// set has shaped forms (kernels/shaped.hpp: the operations with the sizes as template parameters, compiled in the
// model's translation unit), the models take those instead, through detail/shaped.hpp: today the NEON sets
// (kernel::Neon64, kernel::Neon), the Cortex-M float set (kernel::CortexM) and Helium's (kernel::Mve) for float, in the Gru and the Lstm (gemv, gemv_add, lstm_cell, gru_cell) and the
// recurrent step of SimpleRnn and SelfAttentionRnn (affine_tanh), whose loops are then unrolled for the model's In
// and Hidden with their remainders resolved at compile time; an image then holds the shaped code of its own shapes,
// and not the set's run-time form of those operations; on the NEON sets, kernel::Mve and kernel::CortexM the float
// aligns' context too (attend_dot for the dot, scaled dot, bilinear and folded key/query aligns; on NEON also softmax and weighted_sum
// for the additive one: the row length and the memory's rows at compile time, the states attended at run time). Every
// other set (x86-64's Dispatch, scalar, the M0's CortexM0), the other operations (the aligns' transforms and other
// scores, LSTMN) and double keep the run-time sizes.
//
// Padding contract ("padded row"): a pointer documented as a padded row is aligned to
// SARNN_VECTOR_BYTES (at least alignof(T)), holds `padded(n)` elements, and its lanes at index >= n are
// zero on entry; kernels that write a padded row write only lanes < n. Other pointers (weights, x) need
// only alignof(T) and exactly n elements: kernels never read past n there.
//
// The operations (costs in multiply-adds; the list itself is include/sarnn/detail/kernel_ops.hpp):
//   affine_tanh(A, b, rows, x, nx, r, nr, y)   y = tanh(A·[x; r] + b): A is rows x (nx + nr) row-major, b has rows
//        values, x has nx values (any alignment), r and y are padded rows (r of nr, y of rows values; y must not
//        alias r). O(rows·(nx + nr)). The recurrent step of both RNNs.
//   gemv(M, rows, cols, ld, v, y)       y = M·v: M is rows x cols, row-major with leading dimension ld (any
//        alignment); v has cols values, y receives rows values (y must not alias v). O(rows·cols).
//   gemv_add(M, rows, cols, ld, v, y)   y += M·v, as gemv. O(rows·cols).
//   gemv_t(M, rows, cols, ld, v, y)     y = Mᵀ·v: M as in gemv, v has rows values, y receives cols values (any
//        alignment, no alias). O(rows·cols).
//   softmax(y, n)                       y = softmax(y) in place over n >= 1 values; subtracts the max, so it never
//        overflows. O(n).
//   weighted_sum(w, S, c)               c = Σ_j w_j S_j over the rows of S; c is a padded row of S.dim values.
//        O(n·dim).
//   additive_scores(P, q, v, e)         e_j = v·tanh(P_j + q) over the rows of P (P.dim = K values each); q is a
//        padded row of K values, v has K values (any alignment), e receives P.n values. O(n·K) tanh.
//   lstm_cell(z, b, c_prev, H, c, h)    with z = [z_i; z_f; z_g; z_o] (4·H values, any alignment) and b (4·H
//        values), i = σ(z_i + b_i), f = σ(z_f + b_f), g = tanh(z_g + b_g), o = σ(z_o + b_o),
//        c = f ⊙ c_prev + i ⊙ g, h = o ⊙ tanh(c). c_prev, c and h are padded rows of H values. O(H).
//   gru_cell(gi, gh, b_ih, b_hh, h_prev, H, h)   the GRU cell (PyTorch's gate order r, z, n) from gi = W_ih·x and
//        gh = W_hh·h_prev (3·H values each, any alignment) and the biases b_ih, b_hh (3·H values each):
//        r = σ(gi_r + b_ir + gh_r + b_hr), z = σ(gi_z + b_iz + gh_z + b_hz), n = tanh(gi_n + b_in + r ⊙ (gh_n + b_hn)),
//        h = (1 - z) ⊙ n + z ⊙ h_prev, computed as n + z ⊙ (h_prev - n). h_prev and h are padded rows of H values
//        (h must not alias h_prev). O(H): 3·H sigmoid/tanh.
//   gru_step(W_ih, W_hh, b_ih, b_hh, In, H, x, h_prev, gi, gh, h, backward)   one whole GRU step: gi = W_ih·x (W_ih
//        3·H x In, row-major), gh = W_hh·h_prev (3·H x H), then gru_cell; weights, biases and x any alignment, h_prev
//        and h padded rows as for gru_cell, gi and gh scratch of 3·H values each (a set may leave them untouched).
//        backward asks for the rows in the opposite order (the x86 sets' one pass, include/sarnn/kernels/simd/: blocks of
//        hidden lanes last to first); the result is the same either way. O(3·H·(In + H)). The x86 models alternate
//        it from step to step, so that a step begins on the rows the last one ended on, still in cache where the
//        weights outgrow L1 (detail/shaped.hpp's whole_steps; the other sets' models call gemv and the cell).
//   lstm_step(W_ih, W_hh, b, In, H, x, h_prev, c_prev, z, c, h, backward)   one whole LSTM step: z = W_ih·x +
//        W_hh·h_prev (4·H rows), then lstm_cell; z is scratch of 4·H values, the rest as for gru_step and lstm_cell.
//        O(4·H·(In + H)).
//   attend_dot(S, q, scale, alpha, c)   the dot-score context, one pass over S (online softmax in chunks that stay
//        in L1): e_j = scale·(S_j·q); alpha = softmax(e) (alpha receives S.n values); c = Σ_j alpha_j S_j. q and
//        c are padded rows of S.dim values; S.n >= 1. O(2·n·dim) + O(n) exps.
//   attend_keys(P, u, S, alpha, c)      the key/query context, one pass as attend_dot with the scores over cached
//        keys: e_j = P_j·u (P: KeyBlocks, P.dim = K values per key, in blocks of lanes<T>() states, so that the
//        scores of a vector's worth of states are K multiply-adds with no horizontal sum); alpha = softmax(e);
//        c = Σ_j alpha_j S_j. P and S hold the same states (the same cap, first and n >= 1); u is a padded row of
//        P.dim values, c a padded row of S.dim values. O(n·(K + dim)) + O(n) exps.
// and, on the sets only (no model calls them, the tests check them on their own):
//   dot(a, b, n)    a·b over n values (any alignment). O(n).
//   tanh(y, n)      y = tanh(y) in place. O(n).
//   exp(y, n)       y = exp(y) in place (underflow gives 0, overflow +inf). O(n).
#ifndef SARNN_KERNELS_HPP
#define SARNN_KERNELS_HPP

#include <atomic>
#include <cstddef>
#include <type_traits>

#include "sarnn/config.hpp"
#include "sarnn/detail/kernel_ops.hpp"
#include "sarnn/status.hpp"

namespace sarnn {

/// Every kernel set sarnn knows (cmake/SarnnArch.cmake's list). Which ones lib/ holds depends on the target
/// (arch_compiled_in), and on x86 which ones run on the CPU (arch_available).
enum class Arch : unsigned char {
#define SARNN_ARCH_ENUM_(id, name) id,
    SARNN_ARCHES(SARNN_ARCH_ENUM_)
#undef SARNN_ARCH_ENUM_
};

/// Static name of an arch: "scalar", "sse2", "avx2+fma", "avx512", "neon", "neon64".
constexpr const char* arch_name(Arch a) noexcept {
#define SARNN_ARCH_NAME_(id, name) \
    if (a == Arch::id) return name;
    SARNN_ARCHES(SARNN_ARCH_NAME_)
#undef SARNN_ARCH_NAME_
    return "unknown";
}

/// True when this lib/ holds the set of `a` (whether or not the CPU runs it).
constexpr bool arch_compiled_in(Arch a) noexcept {
#define SARNN_ARCH_BUILT_(id, Type, double_id) \
    if (a == Arch::id) return true;
    SARNN_SETS(SARNN_ARCH_BUILT_)
#undef SARNN_ARCH_BUILT_
    return false;
}

/// The bytes rows are padded and aligned to: the widest vector of lib/'s kernels, and at least a 32-bit word (so
/// that the q15 kernels load two int16 at a time; for float and double, whose elements are that wide already,
/// this changes nothing).
constexpr std::size_t row_bytes() noexcept { return SARNN_VECTOR_BYTES > 4 ? SARNN_VECTOR_BYTES : 4; }
/// Elements of T per padded vector: rows are padded to a multiple of this.
template <class T>
constexpr std::size_t lanes() noexcept {
    return row_bytes() > sizeof(T) ? row_bytes() / sizeof(T) : 1;
}
/// Alignment of every buffer a model owns.
template <class T>
constexpr std::size_t storage_alignment() noexcept {
    return row_bytes() > alignof(T) ? row_bytes() : alignof(T);
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

/// The cached keys of n states in ring order (KeyQueryAlign), `dim` values each, kept in blocks of L = lanes<T>()
/// physical rows: block b holds `dim` padded rows of L values, row k the k-th values of the keys of physical rows
/// b·L .. b·L + L - 1, so that one vector load reads value k of a vector's worth of states. The key of physical
/// row r is at(r)[k·L], k < dim; logical row j is physical row (first + j) mod cap, as for Rows. The storage holds
/// padded(cap) rows (whole blocks); rows that hold no state may hold anything (NaN too): they reach no result.
template <class T>
struct KeyBlocks {
    static constexpr std::size_t L = lanes<T>();  ///< rows per block (the values of one key are L apart)
    const T* base;
    std::size_t dim;    ///< values per key
    std::size_t cap;    ///< physical rows
    std::size_t first;  ///< physical index of logical row 0, < cap
    std::size_t n;      ///< logical rows, <= cap

    /// Value 0 of the key of physical row r; value k is k·L further on.
    const T* at(std::size_t r) const noexcept { return base + r / L * dim * L + r % L; }
    /// Value 0 of the key of logical row j.
    const T* key(std::size_t j) const noexcept {
        const std::size_t p = first + j;
        return at(p < cap ? p : p - cap);
    }
};

/// The run-time table of one kernel set for element type T: one pointer per operation a model calls (the
/// contracts are in the header comment above). Only kernel::Dispatch goes through it.
template <class T>
struct Kernels {
    Arch arch;  ///< the set whose code runs (for double on ARMv7 NEON: Arch::scalar)
#define SARNN_TABLE_FIELD_(T_, R, name, impl, params, args) \
    R(*name) params noexcept;  // NOLINT(bugprone-macro-parentheses): a declarator
    SARNN_MODEL_OPS(SARNN_TABLE_FIELD_, T)
#undef SARNN_TABLE_FIELD_
};

namespace detail {
/// The tables kernel::Dispatch calls through, nullptr before the first use (lib/dispatch.cpp). Word-sized atomics:
/// a plain load and store on every target.
extern std::atomic<const Kernels<float>*> g_kernels_float;
extern std::atomic<const Kernels<double>*> g_kernels_double;
/// The first use: picks the best set the CPU runs (unless set_arch() came first) and returns its table.
template <class T>
const Kernels<T>& first_kernels() noexcept;
extern template const Kernels<float>& first_kernels<float>() noexcept;
extern template const Kernels<double>& first_kernels<double>() noexcept;
}  // namespace detail

/// The table in use for T (on x86-64 the best set the CPU has, unless set_arch() chose another).
/// Cost: one relaxed load (after the first call).
template <class T>
inline const Kernels<T>& kernels() noexcept {
    const Kernels<T>* t;
    if constexpr (std::is_same_v<T, float>)
        t = detail::g_kernels_float.load(std::memory_order_relaxed);
    else
        t = detail::g_kernels_double.load(std::memory_order_relaxed);
    return t != nullptr ? *t : detail::first_kernels<T>();
}

/// True when lib/ holds the set for `a` and this CPU can run it.
bool arch_available(Arch a) noexcept;

/// Pins the set kernel::Dispatch uses (for float and double) from now on. Returns Status::arch_unavailable,
/// changing nothing, when arch_available(a) is false. Not meant to be called while another thread is stepping a
/// model. Models with a fixed set (every model where kernel::Default is not Dispatch) do not look at it.
Status set_arch(Arch a) noexcept;

/// The arch of the table kernel::Dispatch uses.
Arch active_arch() noexcept;

/// The table of `a`, or nullptr when it is not available. ARMv7 NEON has no double-precision lanes: there,
/// kernels_for<double>(Arch::neon)->arch is Arch::scalar (the code it runs).
template <class T>
const Kernels<T>* kernels_for(Arch a) noexcept;

extern template const Kernels<float>* kernels_for<float>(Arch) noexcept;
extern template const Kernels<double>* kernels_for<double>(Arch) noexcept;

namespace kernel {

#define SARNN_SET_DECLARE_OP_(T, R, name, impl, params, args) static R name params noexcept;
#define SARNN_SET_DECLARE_(id, Type, double_id)                                                          \
    struct Type {                                                                                        \
        static constexpr Arch arch = Arch::id;               /* whose code runs for float */             \
        static constexpr Arch double_arch = Arch::double_id; /* and for double */                        \
        static bool runs_here() noexcept;                    /* whether this CPU has the instructions */ \
        SARNN_MODEL_OPS(SARNN_SET_DECLARE_OP_, float)                                                    \
        SARNN_SET_OPS(SARNN_SET_DECLARE_OP_, float)                                                      \
        SARNN_MODEL_OPS(SARNN_SET_DECLARE_OP_, double)                                                   \
        SARNN_SET_OPS(SARNN_SET_DECLARE_OP_, double)                                                     \
    };
/// The sets this lib/ holds (SARNN_SETS): each a type with the operations as static functions, defined in
/// lib/kernels/<arch>.cpp. Calls are direct: a model names its set at compile time.
SARNN_SETS(SARNN_SET_DECLARE_)
#undef SARNN_SET_DECLARE_
#undef SARNN_SET_DECLARE_OP_

/// The run-time choice: each operation a model calls goes through kernels<T>() (an indirect call after one load),
/// so set_arch() can switch every model at once. The x86-64 default.
struct Dispatch {
#define SARNN_DISPATCH_OP_(T, R, name, impl, params, args) \
    static R name params noexcept { return kernels<T>().name args; }
    SARNN_MODEL_OPS(SARNN_DISPATCH_OP_, float)
    SARNN_MODEL_OPS(SARNN_DISPATCH_OP_, double)
#undef SARNN_DISPATCH_OP_
};

/// The set models use when none is named: see SARNN_BUILD_DEFAULT_SET in config.hpp.
#ifdef SARNN_DEFAULT_SET
using Default = SARNN_DEFAULT_SET;
#else
using Default = SARNN_BUILD_DEFAULT_SET;
#endif

/// The arch whose code a model on Set runs for float: Set::arch, or for Dispatch the one set_arch() chose. O(1); for
/// a fixed set it links nothing of the run-time table.
template <class Set>
Arch arch_in_use() noexcept {
    if constexpr (std::is_same_v<Set, Dispatch>)
        return active_arch();
    else
        return Set::arch;
}

/// Calls f(Set{}) for every set this lib/ holds, plainest first (the caller checks Set::runs_here()).
template <class F>
void for_each_set(F&& f) {
#define SARNN_FOR_EACH_SET_(id, Type, double_id) f(Type{});  // NOLINT(bugprone-macro-parentheses): a type
    SARNN_SETS(SARNN_FOR_EACH_SET_)
#undef SARNN_FOR_EACH_SET_
}

}  // namespace kernel
}  // namespace sarnn

#endif
