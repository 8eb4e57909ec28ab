// sarnn/kernels/simd/simd.hpp: the kernel set on xsimd, templated on the xsimd arch tag. With xsimd_fixes.hpp
// (its workarounds) and the files of kernels/simd/ the only code in sarnn that names xsimd. Each
// lib/kernels/<arch>.cpp includes it, compiled with that arch's flags, and forwards its set's operations to
// `Simd<Arch, T>` (generic/define_set.hpp); no public header includes it.
// This file declares Simd<A, T>, grouped by operation; each group is defined in its own file,
// kernels/simd/<op>.hpp, included at the end.
// Contracts: the operations listed in include/sarnn/kernels.hpp.
#ifndef SARNN_KERNELS_SIMD_SIMD_HPP
#define SARNN_KERNELS_SIMD_SIMD_HPP

#include <cmath>
#include <cstddef>
#include <limits>
#include <type_traits>

#include <xsimd/xsimd.hpp>

#include "sarnn/kernels/simd/load_next.hpp"
#include "sarnn/kernels/simd/quad_fma.hpp"
#include "sarnn/kernels/simd/xsimd_fixes.hpp"
#include "sarnn/kernels.hpp"

// Helpers that take arrays of batches must be inlined, or the batches live on the stack.
#define SARNN_INLINE __attribute__((always_inline)) inline
#define SARNN_INLINE_LAMBDA __attribute__((always_inline))
// A kernel whose whole body is inlined into it, xsimd's own functions included: in a large function GCC may
// otherwise call xsimd::haddp out of line, and the W accumulators then go through the stack (seen: gemv for 64
// rows of 96 columns 1.5x slower). Not inlined into its caller, so that each stays one compact function.
#define SARNN_FLAT __attribute__((flatten, noinline))
// The set's operations themselves: each one function, compiled on its own as when the run-time table pointed at it,
// not inlined into the set's exported forwarders (generic/define_set.hpp). Inlined there, GCC compiled weighted_sum for
// AVX-512 differently (0x7b2 bytes instead of 0x86b) and the context of AdditiveAlign and the LSTMN took 30% longer
// (step at n = 1024 on an EPYC: 3.50 instead of 3.15 µs).
#define SARNN_OP __attribute__((noinline))
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

template <class T>
struct ContextPlan;  // attend.hpp

/// What the set's own file lib/kernels/<arch>.cpp says of its arch, before it defines the set, e.g.
///   template <> struct Tuning<xsimd::neon64> {
///       static constexpr std::size_t vector_registers = 32;
///       static constexpr bool walk_pointers = false;  // see Simd::kWalkPointers
///       static constexpr bool load_pairs = true;      // see Simd::kLoadPairs
///   };
/// The kernels size their blocks of registers from it (the per-arch choices stay in the arch's file).
template <class A>
struct Tuning;

template <class A, class T>
struct Simd {
    using B = xsimd::batch<T, A>;
    static constexpr std::size_t W = B::size;
    /// The vector registers of the arch (the groups of c in registers: attend_chunks_split).
    static constexpr std::size_t kRegisters = Tuning<A>::vector_registers;
    static_assert(kRegisters >= 8, "sarnn: Tuning<A>::vector_registers: every arch sarnn has has 8 or more");
    /// Loops that walk one pointer per row, load by load, rather than unrolled ones addressing a row at offsets:
    /// for arches whose vector loads take no offset (ARMv7 NEON's VLD1: an address add per load otherwise).
    static constexpr bool kWalkPointers = Tuning<A>::walk_pointers;
    /// Loops that load two neighbouring vectors at once where they can (AArch64's LDP with post-index).
    static constexpr bool kLoadPairs = Tuning<A>::load_pairs;
    /// The context in split passes (attend_chunks_split) rather than fused ones (attend_chunks): the ARM sets, whose
    /// loops walk pointers or load pairs. See attend.hpp for what each gained where.
    static constexpr bool kSplitContext = kWalkPointers || kLoadPairs;
    static_assert(W <= lanes<T>(), "sarnn: SARNN_VECTOR_BYTES is smaller than this arch's vector");
    static constexpr T kNegInf = -std::numeric_limits<T>::infinity();
    /// The context's lazy shift: weights up to exp(16) = 8.9e6, so sums of millions of them stay finite.
    static constexpr T kTau = T(16);

    SARNN_INLINE static B load(const T* p) { return B::load_unaligned(p); }
    SARNN_INLINE static B load_a(const T* p) { return B::load_aligned(p); }

    // ---- matrix-vector products: simd/gemv.hpp ----------------------------------------------------------------------
    SARNN_OP static T dot(const T* a, const T* b, std::size_t n);
    SARNN_INLINE static void full_block_dots(const T* first, std::size_t ld, const T* v, std::size_t cols, B* acc);
    template <std::size_t R>
    SARNN_INLINE static void rows_dots_pairs(const T* first, std::size_t ld, const T* v, std::size_t cols, B* acc);
    SARNN_INLINE static B tail_dots(const T* first, std::size_t ld, const T* v, std::size_t cols);
    SARNN_INLINE static B block_dot(const T* first, std::size_t ld, const T* v, std::size_t cols);
    static B partial_block_dot(const T* first, std::size_t ld, std::size_t count, const T* v, std::size_t cols);
    template <std::size_t NV>
    SARNN_INLINE static B block_dot_fixed(const T* first, std::size_t ld, const B* vv);
    template <std::size_t... Extra, class F>
    SARNN_INLINE static bool with_fixed_width(std::size_t nv, F f);
    SARNN_INLINE static void store_rows(B s, T* y, std::size_t count);
    template <bool Add, std::size_t NV>
    SARNN_FLAT static std::size_t gemv_fixed(const T* M, std::size_t rows, std::size_t cols, std::size_t ld, const T* v,
                                             T* y);
    template <bool Add>
    SARNN_FLAT static void gemv_impl(const T* M, std::size_t rows, std::size_t cols, std::size_t ld, const T* v, T* y);
    SARNN_OP static void gemv(const T* M, std::size_t rows, std::size_t cols, std::size_t ld, const T* v, T* y);
    SARNN_OP static void gemv_add(const T* M, std::size_t rows, std::size_t cols, std::size_t ld, const T* v, T* y);
    SARNN_OP static void gemv_t(const T* M, std::size_t rows, std::size_t cols, std::size_t ld, const T* v, T* y);
    static constexpr bool one_pass_step(std::size_t gates, std::size_t In, std::size_t H);
    template <std::size_t NV>
    SARNN_INLINE static void block_madd_fixed(const T* first, std::size_t ld, const B* vv, B* acc);
    template <std::size_t NH>
    SARNN_INLINE static B two_block_dot(const T* ih, std::size_t nx, const T* x, const T* hh, const B* hv);

    // ---- the recurrent product and its tanh: simd/affine_tanh.hpp ---------------------------------------------------
    SARNN_INLINE static B joined(const T* x, std::size_t nx, const T* r, std::size_t u);
    template <std::size_t NV>
    SARNN_FLAT static std::size_t affine_tanh_fixed(const T* Am, const T* b, std::size_t rows, const T* x,
                                                    std::size_t nx, const T* r, std::size_t nr, T* y);
    SARNN_FLAT static void affine_tanh(const T* Am, const T* b, std::size_t rows, const T* x, std::size_t nx,
                                       const T* r, std::size_t nr, T* y);

    // ---- elementwise maps, max, softmax: simd/softmax.hpp -----------------------------------------------------------
    template <std::size_t N>
    SARNN_INLINE static T lane_max(const T* t);
    template <class F>
    static void map(T* y, std::size_t n, F f);
    SARNN_OP static void tanh_map(T* y, std::size_t n);
    SARNN_OP static void exp_map(T* y, std::size_t n);
    static T max_of(const T* y, std::size_t n);
    SARNN_OP static void softmax(T* y, std::size_t n);

    // ---- weighted sums of stored rows: simd/weighted_sum.hpp --------------------------------------------------------
    static void accumulate(const T* const* row, const T* p, std::size_t count, std::size_t stride, T* c);
    static void zero(T* c, std::size_t stride);
    static void scale_row(T* c, std::size_t stride, T f);
    template <std::size_t NV>
    SARNN_INLINE static void weighted_columns(const T* w, const Rows<T>& S, std::size_t v0, T* c);
    SARNN_OP static void weighted_sum(const T* w, const Rows<T>& S, T* c);

    // ---- additive scores: simd/additive_scores.hpp ------------------------------------------------------------------
    SARNN_OP static void additive_scores(const Rows<T>& P, const T* q, const T* v, T* e);

    // ---- the LSTM cell and step: simd/lstm_cell.hpp----------------------------------------------------------------------
    SARNN_INLINE static B sigmoid(B x);
    SARNN_INLINE static void cell(B zi, B zf, B zg, B zo, B c_prev, B& c, B& h);
    SARNN_OP static void lstm_cell(const T* z, const T* b, const T* c_prev, std::size_t H, T* c, T* h);
    template <std::size_t NH>
    SARNN_FLAT static void lstm_step_fixed(const T* W_ih, const T* W_hh, const T* b, std::size_t nx, const T* x,
                                           const T* h_prev, const T* c_prev, T* c, T* h, bool backward);
    SARNN_OP static void lstm_step(const T* W_ih, const T* W_hh, const T* b, std::size_t In, std::size_t H, const T* x,
                                   const T* h_prev, const T* c_prev, T* z, T* c, T* h, bool backward);

    // ---- the GRU cell and step: simd/gru_cell.hpp -------------------------------------------------------------------------
    SARNN_INLINE static B gru(B r_pre, B z_pre, B ni, B nh, B h_prev);
    SARNN_OP static void gru_cell(const T* gi, const T* gh, const T* b_ih, const T* b_hh, const T* h_prev,
                                  std::size_t H, T* h);
    template <std::size_t NH>
    SARNN_FLAT static void gru_step_fixed(const T* W_ih, const T* W_hh, const T* b_ih, const T* b_hh, std::size_t nx,
                                          const T* x, const T* h_prev, T* h, bool backward);
    SARNN_OP static void gru_step(const T* W_ih, const T* W_hh, const T* b_ih, const T* b_hh, std::size_t In,
                                  std::size_t H, const T* x, const T* h_prev, T* gi, T* gh, T* h, bool backward);

    // ---- the context kernels: simd/attend.hpp -----------------------------------------------------------------------
    template <class BlockScores>
    SARNN_INLINE static void attend_any(const Rows<T>& S, BlockScores block_scores, T* alpha, T* c);
    static void attend_dot_any(const Rows<T>& S, const T* q, T scale, T* alpha, T* c);
    SARNN_INLINE static void store_run(const T* src, std::size_t n, T* dst);
    template <std::size_t NV>
    SARNN_INLINE static B block_scores(const T* blk, std::size_t count, const B* qv, const T* q);
    template <std::size_t G>
    SARNN_INLINE static void add_row(B pk, const T*& p, std::ptrdiff_t skip, B* acc);
    template <std::size_t G, std::size_t L>
    SARNN_INLINE static void add_row_lane(B w, const T*& p, std::ptrdiff_t skip, B* acc);
    template <std::size_t G>
    SARNN_INLINE static void add_weighted_rows(const T* rows, std::size_t stride, std::size_t cn, const T* p, T* c);
    template <std::size_t NV>
    static constexpr std::size_t chunk_rows();
    SARNN_INLINE static void finish_alpha(const ContextPlan<T>& plan, T m, T inv, std::size_t n, T* alpha);
    template <std::size_t NV, class Scores>
    SARNN_INLINE static void attend_chunks(const Rows<T>& S, Scores scores, T* alpha, T* c);
    template <std::size_t NV, class Scores>
    SARNN_INLINE static void attend_chunks_split(const Rows<T>& S, Scores scores, T* alpha, T* c);
    template <std::size_t NV>
    static void attend_fixed(const Rows<T>& S, const T* q, T scale, T* alpha, T* c);
    SARNN_OP static void attend_dot(const Rows<T>& S, const T* q, T scale, T* alpha, T* c);
    SARNN_INLINE static B key_group(const KeyBlocks<T>& P, std::size_t r, const T* u);
    SARNN_INLINE static void key_scores(const KeyBlocks<T>& P, const T* u, T* e);
    SARNN_OP static void attend_keys(const KeyBlocks<T>& P, const T* u, const Rows<T>& S, T* alpha, T* c);
};

}  // namespace
}  // namespace sarnn::simd

#include "sarnn/kernels/simd/gemv.hpp"
#include "sarnn/kernels/simd/affine_tanh.hpp"
#include "sarnn/kernels/simd/softmax.hpp"
#include "sarnn/kernels/simd/weighted_sum.hpp"
#include "sarnn/kernels/simd/additive_scores.hpp"
#include "sarnn/kernels/simd/lstm_cell.hpp"
#include "sarnn/kernels/simd/gru_cell.hpp"
#include "sarnn/kernels/simd/attend.hpp"

#undef SARNN_INLINE
#undef SARNN_INLINE_LAMBDA
#undef SARNN_FLAT
#undef SARNN_OP
#undef SARNN_UNROLL
#undef SARNN_PRAGMA

#endif
