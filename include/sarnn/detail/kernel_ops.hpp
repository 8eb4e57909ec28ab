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

// What the models call: the whole of the run-time table.
#define SARNN_MODEL_OPS(X, T)                                                                                      \
    X(T, void, affine_tanh, affine_tanh,                                                                           \
      (const T* A, const T* b, std::size_t rows, const T* x, std::size_t nx, const T* r, std::size_t nr, T* y),    \
      (A, b, rows, x, nx, r, nr, y))                                                                               \
    X(T, void, gemv, gemv, (const T* M, std::size_t rows, std::size_t cols, std::size_t ld, const T* v, T* y),      \
      (M, rows, cols, ld, v, y))                                                                                   \
    X(T, void, gemv_add, gemv_add,                                                                                 \
      (const T* M, std::size_t rows, std::size_t cols, std::size_t ld, const T* v, T* y), (M, rows, cols, ld, v, y)) \
    X(T, void, gemv_t, gemv_t, (const T* M, std::size_t rows, std::size_t cols, std::size_t ld, const T* v, T* y),  \
      (M, rows, cols, ld, v, y))                                                                                   \
    X(T, void, softmax, softmax, (T * y, std::size_t n), (y, n))                                                   \
    X(T, void, weighted_sum, weighted_sum, (const T* w, const ::sarnn::Rows<T>& S, T* c), (w, S, c))               \
    X(T, void, additive_scores, additive_scores, (const ::sarnn::Rows<T>& P, const T* q, const T* v, T* e),        \
      (P, q, v, e))                                                                                                \
    X(T, void, lstm_cell, lstm_cell, (const T* z, const T* b, const T* c_prev, std::size_t H, T* c, T* h),         \
      (z, b, c_prev, H, c, h))                                                                                     \
    X(T, void, attend_dot, attend_dot, (const ::sarnn::Rows<T>& S, const T* q, T scale, T* alpha, T* c),           \
      (S, q, scale, alpha, c))                                                                                     \
    X(T, void, attend_keys, attend_keys,                                                                           \
      (const ::sarnn::Rows<T>& P, const T* u, const ::sarnn::Rows<T>& S, T* alpha, T* c), (P, u, S, alpha, c))

// What no model calls but the kernels' tests check on their own: called directly on a set, never through the
// table, so no image carries them unless it calls them.
#define SARNN_SET_OPS(X, T)                                                                                        \
    X(T, T, dot, dot, (const T* a, const T* b, std::size_t n), (a, b, n))                                           \
    X(T, void, tanh, tanh_map, (T * y, std::size_t n), (y, n))                                                     \
    X(T, void, exp, exp_map, (T * y, std::size_t n), (y, n))

#endif
