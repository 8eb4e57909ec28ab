// sarnn/detail/shaped.hpp: the one place where a model's call of gemv, gemv_add, affine_tanh, lstm_cell or gru_cell, with its
// sizes as template parameters, becomes either the set's shaped form (kernels/shaped.hpp: compiled for these sizes in
// the caller's translation unit) or the set's run-time operation with the sizes as arguments (kernels.hpp). Read at
// compile time (if constexpr on the set's kCaps); nothing is chosen at run time.
//
//   detail::shaped<Set, T>::gemv<Rows, Cols, Ld>(M, v, y)   y = M·v     (Set::gemv(M, Rows, Cols, Ld, v, y) otherwise)
//   detail::shaped<Set, T>::gemv_add<Rows, Cols, Ld>(M, v, y)  y += M·v
//   detail::shaped<Set, T>::affine_tanh<Rows, Nx, Nr>(A, b, x, r, y)  y = tanh(A·[x; r] + b)
//   detail::shaped<Set, T>::lstm_cell<H>(z, b, c_prev, c, h)
//   detail::shaped<Set, T>::gru_cell<H>(gi, gh, b_ih, b_hh, h_prev, h)
#ifndef SARNN_DETAIL_SHAPED_HPP
#define SARNN_DETAIL_SHAPED_HPP

#include <cstddef>
#include <type_traits>
#include <utility>

#include "sarnn/kernels.hpp"
#include "sarnn/kernels/shaped.hpp"
#include "sarnn/numeric.hpp"
#if defined(__ARM_NEON)
#include "sarnn/kernels/neon/shaped.hpp"
#endif

namespace sarnn::detail {

/// The shaped forms of Set for T: kernel::Shaped<Set::arch, T>, or none for a set without a fixed arch.
template <class Set, class T, class = void>
struct shaped_of {
    using type = kernel::NotShaped;
};
template <class Set, class T>
struct shaped_of<Set, T, std::void_t<decltype(Set::arch)>> {
    using type = kernel::Shaped<Set::arch, T>;
};

// Whether K has the member template of each flag (for the static_asserts below).
template <class K, class T, std::size_t R, std::size_t C, std::size_t L, class = void>
struct has_gemv : std::false_type {};
template <class K, class T, std::size_t R, std::size_t C, std::size_t L>
struct has_gemv<K, T, R, C, L,
                std::void_t<decltype(K::template gemv<R, C, L>(std::declval<const T*>(), std::declval<const T*>(),
                                                               std::declval<T*>()))>> : std::true_type {};
template <class K, class T, std::size_t R, std::size_t C, std::size_t L, class = void>
struct has_gemv_add : std::false_type {};
template <class K, class T, std::size_t R, std::size_t C, std::size_t L>
struct has_gemv_add<K, T, R, C, L,
                    std::void_t<decltype(K::template gemv_add<R, C, L>(
                        std::declval<const T*>(), std::declval<const T*>(), std::declval<T*>()))>> : std::true_type {};
template <class K, class T, std::size_t R, std::size_t Nx, std::size_t Nr, class = void>
struct has_affine_tanh : std::false_type {};
template <class K, class T, std::size_t R, std::size_t Nx, std::size_t Nr>
struct has_affine_tanh<K, T, R, Nx, Nr,
                       std::void_t<decltype(K::template affine_tanh<R, Nx, Nr>(
                           std::declval<const T*>(), std::declval<const T*>(), std::declval<const T*>(),
                           std::declval<const T*>(), std::declval<T*>()))>> : std::true_type {};
template <class K, class T, std::size_t H, class = void>
struct has_lstm_cell : std::false_type {};
template <class K, class T, std::size_t H>
struct has_lstm_cell<
    K, T, H,
    std::void_t<decltype(K::template lstm_cell<H>(std::declval<const T*>(), std::declval<const T*>(),
                                                  std::declval<const T*>(), std::declval<T*>(), std::declval<T*>()))>>
    : std::true_type {};
template <class K, class T, std::size_t H, class = void>
struct has_gru_cell : std::false_type {};
template <class K, class T, std::size_t H>
struct has_gru_cell<K, T, H,
                    std::void_t<decltype(K::template gru_cell<H>(
                        std::declval<const T*>(), std::declval<const T*>(), std::declval<const T*>(),
                        std::declval<const T*>(), std::declval<const T*>(), std::declval<T*>()))>> : std::true_type {};

/// The kernel calls of a float or double model on Set with its sizes at compile time (see above). Cost: that of
/// the operation called; the choice costs nothing at run time.
template <class Set, class T>
struct shaped {
    using K = typename shaped_of<Set, T>::type;
    /// True when Set's shaped form of the operation of `flag` is taken.
    static constexpr bool has(unsigned flag) noexcept { return (K::kCaps & flag) != 0; }

    template <std::size_t Rows, std::size_t Cols, std::size_t Ld>
    static void gemv(const T* M, const T* v, T* y) noexcept {
        if constexpr (has(kernel::shaped_gemv)) {
            static_assert(has_gemv<K, T, Rows, Cols, Ld>::value,
                          "sarnn: kernel::Shaped<A, T>::kCaps has shaped_gemv, but no member "
                          "`template <std::size_t Rows, std::size_t Cols, std::size_t Ld> static void gemv(M, v, y)`");
            if constexpr (has_gemv<K, T, Rows, Cols, Ld>::value) K::template gemv<Rows, Cols, Ld>(M, v, y);
        } else {
            Set::gemv(M, Rows, Cols, Ld, v, y);
        }
    }
    template <std::size_t Rows, std::size_t Cols, std::size_t Ld>
    static void gemv_add(const T* M, const T* v, T* y) noexcept {
        if constexpr (has(kernel::shaped_gemv_add)) {
            static_assert(has_gemv_add<K, T, Rows, Cols, Ld>::value,
                          "sarnn: kernel::Shaped<A, T>::kCaps has shaped_gemv_add, but no member `template "
                          "<std::size_t Rows, std::size_t Cols, std::size_t Ld> static void gemv_add(M, v, y)`");
            if constexpr (has_gemv_add<K, T, Rows, Cols, Ld>::value) K::template gemv_add<Rows, Cols, Ld>(M, v, y);
        } else {
            Set::gemv_add(M, Rows, Cols, Ld, v, y);
        }
    }
    template <std::size_t Rows, std::size_t Nx, std::size_t Nr>
    static void affine_tanh(const T* A, const T* b, const T* x, const T* r, T* y) noexcept {
        if constexpr (has(kernel::shaped_affine_tanh)) {
            static_assert(has_affine_tanh<K, T, Rows, Nx, Nr>::value,
                          "sarnn: kernel::Shaped<A, T>::kCaps has shaped_affine_tanh, but no member `template "
                          "<std::size_t Rows, std::size_t Nx, std::size_t Nr> static void affine_tanh(A, b, x, r, y)`");
            if constexpr (has_affine_tanh<K, T, Rows, Nx, Nr>::value)
                K::template affine_tanh<Rows, Nx, Nr>(A, b, x, r, y);
        } else {
            Set::affine_tanh(A, b, Rows, x, Nx, r, Nr, y);
        }
    }
    template <std::size_t H>
    static void lstm_cell(const T* z, const T* b, const T* c_prev, T* c, T* h) noexcept {
        if constexpr (has(kernel::shaped_lstm_cell)) {
            static_assert(has_lstm_cell<K, T, H>::value,
                          "sarnn: kernel::Shaped<A, T>::kCaps has shaped_lstm_cell, but no member "
                          "`template <std::size_t H> static void lstm_cell(z, b, c_prev, c, h)`");
            if constexpr (has_lstm_cell<K, T, H>::value) K::template lstm_cell<H>(z, b, c_prev, c, h);
        } else {
            Set::lstm_cell(z, b, c_prev, H, c, h);
        }
    }
    template <std::size_t H>
    static void gru_cell(const T* gi, const T* gh, const T* b_ih, const T* b_hh, const T* h_prev, T* h) noexcept {
        if constexpr (has(kernel::shaped_gru_cell)) {
            static_assert(has_gru_cell<K, T, H>::value,
                          "sarnn: kernel::Shaped<A, T>::kCaps has shaped_gru_cell, but no member "
                          "`template <std::size_t H> static void gru_cell(gi, gh, b_ih, b_hh, h_prev, h)`");
            if constexpr (has_gru_cell<K, T, H>::value) K::template gru_cell<H>(gi, gh, b_ih, b_hh, h_prev, h);
        } else {
            Set::gru_cell(gi, gh, b_ih, b_hh, h_prev, H, h);
        }
    }
};

}  // namespace sarnn::detail

#endif
