// sarnn/detail/shaped.hpp: the one place where a model's call of gemv, gemv_add, affine_tanh, lstm_cell, gru_cell or a
// context kernel (attend_dot, weighted_sum, softmax), with its
// sizes as template parameters, becomes either the set's shaped form (kernels/shaped.hpp: compiled for these sizes in
// the caller's translation unit) or the set's run-time operation with the sizes as arguments (kernels.hpp). Read at
// compile time (if constexpr on the set's kCaps); nothing is chosen at run time.
//
//   detail::shaped<Set, T>::gemv<Rows, Cols, Ld>(M, v, y)   y = M·v     (Set::gemv(M, Rows, Cols, Ld, v, y) otherwise)
//   detail::shaped<Set, T>::gemv_add<Rows, Cols, Ld>(M, v, y)  y += M·v
//   detail::shaped<Set, T>::affine_tanh<Rows, Nx, Nr>(A, b, x, r, y)  y = tanh(A·[x; r] + b)
//   detail::shaped<Set, T>::lstm_cell<H>(z, b, c_prev, c, h)
//   detail::shaped<Set, T>::gru_cell<H>(gi, gh, b_ih, b_hh, h_prev, h)
//   detail::shaped<Set, T>::attend_dot<Dim, Stride, Cap>(S, q, scale, alpha, c)   (Set::attend_dot(S, q, scale, alpha, c))
//   detail::shaped<Set, T>::weighted_sum<Dim, Stride, Cap>(w, S, c)
//   detail::shaped<Set, T>::softmax(y, n)
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
#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 2)
#include "sarnn/kernels/mve/shaped.hpp"
#endif
// kernel::CortexM (Cortex-M4F, M7): plain C++, built and tested on every host as the set is
#include "sarnn/kernels/cortex_m/shaped.hpp"

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

template <class K, class T, std::size_t D, std::size_t S, std::size_t C, class = void>
struct has_attend_dot : std::false_type {};
template <class K, class T, std::size_t D, std::size_t S, std::size_t C>
struct has_attend_dot<
    K, T, D, S, C,
    std::void_t<decltype(K::template attend_dot<D, S, C>(std::declval<const Rows<T>&>(), std::declval<const T*>(),
                                                         std::declval<T>(), std::declval<T*>(), std::declval<T*>()))>>
    : std::true_type {};
template <class K, class T, std::size_t D, std::size_t S, std::size_t C, class = void>
struct has_weighted_sum : std::false_type {};
template <class K, class T, std::size_t D, std::size_t S, std::size_t C>
struct has_weighted_sum<K, T, D, S, C,
                        std::void_t<decltype(K::template weighted_sum<D, S, C>(
                            std::declval<const T*>(), std::declval<const Rows<T>&>(), std::declval<T*>()))>>
    : std::true_type {};
template <class K, class T, class = void>
struct has_softmax : std::false_type {};
template <class K, class T>
struct has_softmax<K, T, std::void_t<decltype(K::softmax(std::declval<T*>(), std::declval<std::size_t>()))>>
    : std::true_type {};

/// Whether Set is one of the x86 sets (for shaped<Set, T>::whole_steps).
template <class Set, class = void>
struct is_x86_set : std::false_type {};
template <class Set>
struct is_x86_set<Set, std::void_t<decltype(Set::arch)>>
    : std::bool_constant<Set::arch == Arch::sse2 || Set::arch == Arch::avx2_fma || Set::arch == Arch::avx512> {};

/// The kernel calls of a float or double model on Set with its sizes at compile time (see above). Cost: that of
/// the operation called; the choice costs nothing at run time.
template <class Set, class T>
struct shaped {
    using K = typename shaped_of<Set, T>::type;
    /// True when Set's shaped form of the operation of `flag` is taken.
    static constexpr bool has(unsigned flag) noexcept { return (K::kCaps & flag) != 0; }
    /// True when the cells call Set's whole steps (gru_step, lstm_step: one pass over W_ih and W_hh in the x86 sets,
    /// include/sarnn/kernels/simd/) rather than its gemv and cell one by one: kernel::Dispatch and the x86 sets. The others
    /// (the ARM and Cortex-M sets, scalar) keep the separate calls: their shaped forms, or the loops their images
    /// were measured with.
    static constexpr bool whole_steps() noexcept {
        return std::is_same_v<Set, kernel::Dispatch> || (!has(kernel::shaped_gemv) && is_x86_set<Set>::value);
    }

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
    /// The dot-score context over S, whose rows hold Dim values, Stride apart, in Cap physical rows.
    template <std::size_t Dim, std::size_t Stride, std::size_t Cap>
    static void attend_dot(const Rows<T>& S, const T* q, T scale, T* alpha, T* c) noexcept {
        if constexpr (has(kernel::shaped_attend_dot)) {
            static_assert(has_attend_dot<K, T, Dim, Stride, Cap>::value,
                          "sarnn: kernel::Shaped<A, T>::kCaps has shaped_attend_dot, but no member `template "
                          "<std::size_t Dim, std::size_t Stride, std::size_t Cap> static void attend_dot(S, q, scale, "
                          "alpha, c)`");
            if constexpr (has_attend_dot<K, T, Dim, Stride, Cap>::value)
                K::template attend_dot<Dim, Stride, Cap>(S, q, scale, alpha, c);
        } else {
            Set::attend_dot(S, q, scale, alpha, c);
        }
    }
    /// c = Σ_j w_j S_j, S as for attend_dot.
    template <std::size_t Dim, std::size_t Stride, std::size_t Cap>
    static void weighted_sum(const T* w, const Rows<T>& S, T* c) noexcept {
        if constexpr (has(kernel::shaped_weighted_sum)) {
            static_assert(has_weighted_sum<K, T, Dim, Stride, Cap>::value,
                          "sarnn: kernel::Shaped<A, T>::kCaps has shaped_weighted_sum, but no member `template "
                          "<std::size_t Dim, std::size_t Stride, std::size_t Cap> static void weighted_sum(w, S, c)`");
            if constexpr (has_weighted_sum<K, T, Dim, Stride, Cap>::value)
                K::template weighted_sum<Dim, Stride, Cap>(w, S, c);
        } else {
            Set::weighted_sum(w, S, c);
        }
    }
    /// y = softmax(y) over n >= 1 values.
    static void softmax(T* y, std::size_t n) noexcept {
        if constexpr (has(kernel::shaped_softmax)) {
            static_assert(has_softmax<K, T>::value,
                          "sarnn: kernel::Shaped<A, T>::kCaps has shaped_softmax, but no "
                          "member `static void softmax(y, n)`");
            if constexpr (has_softmax<K, T>::value) K::softmax(y, n);
        } else {
            Set::softmax(y, n);
        }
    }
};

}  // namespace sarnn::detail

#endif
