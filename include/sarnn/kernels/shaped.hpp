// sarnn/kernels/shaped.hpp: how a kernel set offers shaped forms of its operations: the sizes as template parameters,
// compiled in the model's translation unit for the model's shape (unrolled, remainders resolved at compile time), so
// that an image holds only its own shapes. Models reach them through detail/shaped.hpp, which takes the shaped form
// where the set has it and the run-time operation of kernels.hpp otherwise.
//
// A set opts in per element type by specialising kernel::Shaped<its Arch, T> with kCaps (the operations it has, the
// flags below) and, for each flag, the member template:
//   template <std::size_t Rows, std::size_t Cols, std::size_t Ld> static void gemv(const T* M, const T* v, T* y);
//   template <std::size_t Rows, std::size_t Cols, std::size_t Ld> static void gemv_add(const T* M, const T* v, T* y);
//   template <std::size_t Rows, std::size_t Nx, std::size_t Nr>
//       static void affine_tanh(const T* A, const T* b, const T* x, const T* r, T* y);
//   template <std::size_t H> static void lstm_cell(const T* z, const T* b, const T* c_prev, T* c, T* h);
//   template <std::size_t H> static void gru_cell(const T* gi, const T* gh, const T* b_ih, const T* b_hh,
//                                                 const T* h_prev, T* h);
//   template <std::size_t Dim, std::size_t Stride, std::size_t Cap>
//       static void attend_dot(const Rows<T>& S, const T* q, T scale, T* alpha, T* c);
//   template <std::size_t Dim, std::size_t Stride, std::size_t Cap>
//       static void weighted_sum(const T* w, const Rows<T>& S, T* c);
//   static void softmax(T* y, std::size_t n);
// (the context kernels: Dim the values per stored row, Stride its padded length, Cap the physical rows of S, whose
// S.stride and S.cap they are; the states attended, S.n and S.first, stay run-time values)
// (contracts: kernels.hpp's operations of the same names). A flag without its member is a compile-time error
// (static_assert in detail/shaped.hpp), never a silent fallback. The sets that have them: kernel::Neon64 and
// kernel::Neon, float (kernels/neon/shaped.hpp); kernel::Mve (Helium), float: gemv, gemv_add, affine_tanh and
// attend_dot (kernels/mve/shaped.hpp); kernel::CortexM, float: gemv, gemv_add, affine_tanh, lstm_cell, gru_cell
// (kernels/cortex_m/shaped.hpp). kernel::Dispatch (x86-64) and every other set: none, so their models
// call the run-time operations with the sizes as arguments, as before.
#ifndef SARNN_KERNELS_SHAPED_HPP
#define SARNN_KERNELS_SHAPED_HPP

#include "sarnn/kernels.hpp"

namespace sarnn::kernel {

/// The flags of Shaped<A, T>::kCaps, one per shaped operation.
inline constexpr unsigned shaped_gemv = 1u << 0;
inline constexpr unsigned shaped_gemv_add = 1u << 1;
inline constexpr unsigned shaped_lstm_cell = 1u << 2;
inline constexpr unsigned shaped_gru_cell = 1u << 3;
inline constexpr unsigned shaped_affine_tanh = 1u << 4;
inline constexpr unsigned shaped_attend_dot = 1u << 5;
inline constexpr unsigned shaped_weighted_sum = 1u << 6;
inline constexpr unsigned shaped_softmax = 1u << 7;

/// The shaped forms of the set of arch A for T: none unless a specialisation says so (see above).
template <Arch A, class T>
struct Shaped {
    static constexpr unsigned kCaps = 0;
};

/// No shaped forms: the sets without a fixed arch (kernel::Dispatch).
struct NotShaped {
    static constexpr unsigned kCaps = 0;
};

}  // namespace sarnn::kernel

#endif
