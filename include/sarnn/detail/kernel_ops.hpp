// sarnn/detail/kernel_ops.hpp: the one list of kernel operations, as X-macros over the element type T.
//
//   X(T, return type, name, implementation's name, (parameters), (arguments))
//
// Every kernel set (sarnn::kernel::Scalar, Avx512, ...: see kernels.hpp) declares one static function per entry
// and per element type; the run-time table sarnn::Kernels<T> has one pointer per entry of SARNN_MODEL_OPS; the
// sets in lib/kernels/ define each entry by forwarding to their implementation's function of the same
// "implementation's name". Contracts: the header comment of kernels.hpp.
#ifndef SARNN_DETAIL_KERNEL_OPS_HPP
#define SARNN_DETAIL_KERNEL_OPS_HPP

#include "sarnn/numeric.hpp"

// What the models call: the whole of the run-time table, the loops (SARNN_LOOP_OPS: each set's implementation type
// has one function per entry) and the whole steps of the cells (SARNN_STEP_OPS: a set's implementation may have them;
// include/sarnn/kernels/generic/define_set.hpp composes the others' from their gemv and cell loops). Parameter types by kind of number
// (numeric.hpp): weights (what params hold), activations (what models store: x, h, c, alpha, queries, keys),
// accumulators, scales.
// NOLINTBEGIN(bugprone-macro-parentheses): T and the parameter lists are types and declarators, which parentheses
// would break
#define SARNN_MODEL_OPS(X, T) SARNN_LOOP_OPS(X, T) SARNN_STEP_OPS(X, T)

#define SARNN_LOOP_OPS(X, T)                                                                                           \
    X(T, void, affine_tanh, affine_tanh,                                                                               \
      (const ::sarnn::weight_t<T>* A, const ::sarnn::weight_t<T>* b, std::size_t rows,                                 \
       const ::sarnn::activation_t<T>* x, std::size_t nx, const ::sarnn::activation_t<T>* r, std::size_t nr,           \
       ::sarnn::activation_t<T>* y),                                                                                   \
      (A, b, rows, x, nx, r, nr, y))                                                                                   \
    X(T, void, gemv, gemv,                                                                                             \
      (const ::sarnn::weight_t<T>* M, std::size_t rows, std::size_t cols, std::size_t ld,                              \
       const ::sarnn::activation_t<T>* v, ::sarnn::activation_t<T>* y),                                                \
      (M, rows, cols, ld, v, y))                                                                                       \
    X(T, void, gemv_add, gemv_add,                                                                                     \
      (const ::sarnn::weight_t<T>* M, std::size_t rows, std::size_t cols, std::size_t ld,                              \
       const ::sarnn::activation_t<T>* v, ::sarnn::activation_t<T>* y),                                                \
      (M, rows, cols, ld, v, y))                                                                                       \
    X(T, void, gemv_t, gemv_t,                                                                                         \
      (const ::sarnn::weight_t<T>* M, std::size_t rows, std::size_t cols, std::size_t ld,                              \
       const ::sarnn::activation_t<T>* v, ::sarnn::activation_t<T>* y),                                                \
      (M, rows, cols, ld, v, y))                                                                                       \
    X(T, void, softmax, softmax, (::sarnn::activation_t<T> * y, std::size_t n), (y, n))                                \
    X(T, void, weighted_sum, weighted_sum,                                                                             \
      (const ::sarnn::activation_t<T>* w, const ::sarnn::Rows<::sarnn::activation_t<T>>& S,                            \
       ::sarnn::activation_t<T>* c),                                                                                   \
      (w, S, c))                                                                                                       \
    X(T, void, additive_scores, additive_scores,                                                                       \
      (const ::sarnn::Rows<::sarnn::activation_t<T>>& P, const ::sarnn::activation_t<T>* q,                            \
       const ::sarnn::weight_t<T>* v, ::sarnn::activation_t<T>* e),                                                    \
      (P, q, v, e))                                                                                                    \
    X(T, void, lstm_cell, lstm_cell,                                                                                   \
      (const ::sarnn::activation_t<T>* z, const ::sarnn::weight_t<T>* b, const ::sarnn::activation_t<T>* c_prev,       \
       std::size_t H, ::sarnn::activation_t<T>* c, ::sarnn::activation_t<T>* h),                                       \
      (z, b, c_prev, H, c, h))                                                                                         \
    X(T, void, gru_cell, gru_cell,                                                                                     \
      (const ::sarnn::activation_t<T>* gi, const ::sarnn::activation_t<T>* gh, const ::sarnn::weight_t<T>* b_ih,       \
       const ::sarnn::weight_t<T>* b_hh, const ::sarnn::activation_t<T>* h_prev, std::size_t H,                        \
       ::sarnn::activation_t<T>* h),                                                                                   \
      (gi, gh, b_ih, b_hh, h_prev, H, h))                                                                              \
    X(T, void, attend_dot, attend_dot,                                                                                 \
      (const ::sarnn::Rows<::sarnn::activation_t<T>>& S, const ::sarnn::activation_t<T>* q, ::sarnn::scale_t<T> scale, \
       ::sarnn::activation_t<T>* alpha, ::sarnn::activation_t<T>* c),                                                  \
      (S, q, scale, alpha, c))                                                                                         \
    X(T, void, attend_keys, attend_keys,                                                                               \
      (const ::sarnn::KeyBlocks<::sarnn::activation_t<T>>& P, const ::sarnn::activation_t<T>* u,                       \
       const ::sarnn::Rows<::sarnn::activation_t<T>>& S, ::sarnn::activation_t<T>* alpha,                              \
       ::sarnn::activation_t<T>* c),                                                                                   \
      (P, u, S, alpha, c))

// One whole step of the plain cells (kernels.hpp: gru_step, lstm_step).
#define SARNN_STEP_OPS(X, T)                                                                                     \
    X(T, void, gru_step, gru_step,                                                                               \
      (const ::sarnn::weight_t<T>* W_ih, const ::sarnn::weight_t<T>* W_hh, const ::sarnn::weight_t<T>* b_ih,     \
       const ::sarnn::weight_t<T>* b_hh, std::size_t In, std::size_t H, const ::sarnn::activation_t<T>* x,       \
       const ::sarnn::activation_t<T>* h_prev, ::sarnn::activation_t<T>* gi, ::sarnn::activation_t<T>* gh,       \
       ::sarnn::activation_t<T>* h, bool backward),                                                              \
      (W_ih, W_hh, b_ih, b_hh, In, H, x, h_prev, gi, gh, h, backward))                                           \
    X(T, void, lstm_step, lstm_step,                                                                             \
      (const ::sarnn::weight_t<T>* W_ih, const ::sarnn::weight_t<T>* W_hh, const ::sarnn::weight_t<T>* b,        \
       std::size_t In, std::size_t H, const ::sarnn::activation_t<T>* x, const ::sarnn::activation_t<T>* h_prev, \
       const ::sarnn::activation_t<T>* c_prev, ::sarnn::activation_t<T>* z, ::sarnn::activation_t<T>* c,         \
       ::sarnn::activation_t<T>* h, bool backward),                                                              \
      (W_ih, W_hh, b, In, H, x, h_prev, c_prev, z, c, h, backward))

// What no model calls but the kernels' tests check on their own: called directly on a set, never through the
// table, so no image carries them unless it calls them.
#define SARNN_SET_OPS(X, T)                                                                             \
    X(T, ::sarnn::accumulator_t<T>, dot, dot,                                                           \
      (const ::sarnn::activation_t<T>* a, const ::sarnn::activation_t<T>* b, std::size_t n), (a, b, n)) \
    X(T, void, tanh, tanh_map, (::sarnn::activation_t<T> * y, std::size_t n), (y, n))                   \
    X(T, void, exp, exp_map, (::sarnn::activation_t<T> * y, std::size_t n), (y, n))
// NOLINTEND(bugprone-macro-parentheses)

#endif
