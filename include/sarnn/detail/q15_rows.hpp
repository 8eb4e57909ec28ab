// sarnn/detail/q15_rows.hpp: the q15 models' products of rows and cells with their sizes as template parameters, the
// one place that chooses between the q15 set's shaped forms (Q15Set::affine_tanh_at, ..., gru_cell_at: compiled here
// for the model's shape, kernels/q15/shaped.hpp) and its run-time forms with the sizes as arguments (lib/): shaped for
// kernel::Q15 where the target's loops are chosen at compile time (SARNN_Q15_SHAPED, kernels/q15/target.hpp: the M4,
// M7 and M55), else run-time (kernel::Q15Plain; the host and ARM Linux: no model's translation unit compiles the q15
// algorithm there).
//   detail::q15_affine_tanh<Ops, R, Nx, Nr>(a, x, r, y)     Ops::affine_tanh(a, R, x, Nx, r, Nr, y)
//   detail::q15_affine<Ops, R, Nx, Nr>(a, x, r, z)          Ops::affine(a, R, x, Nx, r, Nr, z)
//   detail::q15_gru_gates<Ops, R, Nx, Nh>(a, x, h, gi, gh)  Ops::gru_gates(a, R, x, Nx, h, Nh, gi, gh)
//   detail::q15_lstm_cell<Ops, H>(z, c~, c, h)              Ops::lstm_cell(z, c~, H, c, h)
//   detail::q15_gru_cell<Ops, H>(gi, gh, h_prev, h)         Ops::gru_cell(gi, gh, h_prev, H, h)
//   detail::q15_attend_dot<Ops, Dim, Stride>(S, q, alpha, c)  Ops::attend_dot_shaped<Dim, St> where the target's
//        loops have scores by size (kQ15AttendShaped), else Ops::attend_dot_at<St> (St = q15_stride(Stride))
//   detail::q15_attend_query<Ops, Dim>(E, q, scale, S, alpha, c)  Ops::attend_query_shaped<Dim> there, else
//        Ops::attend_query
#ifndef SARNN_DETAIL_Q15_ROWS_HPP
#define SARNN_DETAIL_Q15_ROWS_HPP

#include <cstddef>
#include <type_traits>

#include "sarnn/fixed.hpp"
#include "sarnn/kernels/q15/target.hpp"
#include "sarnn/kernels_q15.hpp"
#if SARNN_Q15_SHAPED
#include "sarnn/kernels/q15/shaped.hpp"
#endif

namespace sarnn::detail {

/// Whether Ops takes its shaped forms: kernel::Q15 (the target's loops) where SARNN_Q15_SHAPED. kernel::Q15Plain keeps
/// its run-time forms (the plain loops compiled for one shape at -O3 took more instructions a step on the M4 than with
/// run-time sizes: Lstm<q15, 16, 16> 10,367 -> 12,894), and so does every set elsewhere.
template <class Ops>
inline constexpr bool kQ15Shaped = SARNN_Q15_SHAPED&& std::is_same_v<Ops, kernel::Q15>;

template <class Ops, std::size_t R, std::size_t Nx, std::size_t Nr>
inline void q15_affine_tanh(const QAffine& a, const q15* x, const q15* r, q15* y) noexcept {
    if constexpr (kQ15Shaped<Ops>) {
        Ops::template affine_tanh_at<R, Nx, Nr>(a, x, r, y);
    } else {
        Ops::affine_tanh(a, R, x, Nx, r, Nr, y);
    }
}

template <class Ops, std::size_t R, std::size_t Nx, std::size_t Nr>
inline void q15_affine(const QGates& a, const q15* x, const q15* r, q15* z) noexcept {
    if constexpr (kQ15Shaped<Ops>) {
        Ops::template affine_at<R, Nx, Nr>(a, x, r, z);
    } else {
        Ops::affine(a, R, x, Nx, r, Nr, z);
    }
}

template <class Ops, std::size_t R, std::size_t Nx, std::size_t Nh>
inline void q15_gru_gates(const QGru& a, const q15* x, const q15* h, q15* gi, q15* gh) noexcept {
    if constexpr (kQ15Shaped<Ops>) {
        Ops::template gru_gates_at<R, Nx, Nh>(a, x, h, gi, gh);
    } else {
        Ops::gru_gates(a, R, x, Nx, h, Nh, gi, gh);
    }
}

/// Whether Ops's attention takes its form by size (attend_dot_shaped): kQ15Shaped and the target's loops have scores
/// by size (kScoresDim: the Helium loops); else the form by stride (attend_dot_at, in lib/).
#if SARNN_Q15_SHAPED
template <class Ops>
inline constexpr bool kQ15AttendShaped = kQ15Shaped<Ops>&& kernel::q15_loops::has(
    kernel::loops_t<kernel::TargetLoops>::kCaps, kernel::q15_loops::kScoresDim);
#else
template <class Ops>
inline constexpr bool kQ15AttendShaped = false;
#endif

/// e_ij = S_j·q scaled; alpha = softmax(e); c = Σ_j alpha_j S_j, for rows of Dim values (padded to Stride)
template <class Ops, std::size_t Dim, std::size_t Stride>
inline void q15_attend_dot(const Rows<q15>& S, const q15* q, q15* alpha, q15* c) noexcept {
    if constexpr (kQ15AttendShaped<Ops>) {
        Ops::template attend_dot_shaped<Dim, kernel::q15_stride(Stride)>(S, q, alpha, c);
    } else {
        Ops::template attend_dot_at<kernel::q15_stride(Stride)>(S, q, alpha, c);
    }
}

/// e_j = E_j·q' / 2^t (scale: prepare_query's); alpha = softmax(e); c = Σ_j alpha_j S_j, for keys of Dim values
template <class Ops, std::size_t Dim>
inline void q15_attend_query(const Rows<q15>& E, const q15* q, QueryScale scale, const Rows<q15>& S, q15* alpha,
                             q15* c) noexcept {
    if constexpr (kQ15AttendShaped<Ops>) {
        Ops::template attend_query_shaped<Dim>(E, q, scale, S, alpha, c);
    } else {
        Ops::attend_query(E, q, scale, S, alpha, c);
    }
}

template <class Ops, std::size_t H>
inline std::size_t q15_lstm_cell(const q15* z, const q15* c_tilde, q15* c, q15* h) noexcept {
    if constexpr (kQ15Shaped<Ops>) {
        return Ops::template lstm_cell_at<H>(z, c_tilde, c, h);
    } else {
        return Ops::lstm_cell(z, c_tilde, H, c, h);
    }
}

template <class Ops, std::size_t H>
inline void q15_gru_cell(const q15* gi, const q15* gh, const q15* h_prev, q15* h) noexcept {
    if constexpr (kQ15Shaped<Ops>) {
        Ops::template gru_cell_at<H>(gi, gh, h_prev, h);
    } else {
        Ops::gru_cell(gi, gh, h_prev, H, h);
    }
}

}  // namespace sarnn::detail

#endif
