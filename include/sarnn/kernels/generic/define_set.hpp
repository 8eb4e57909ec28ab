// sarnn/kernels/generic/define_set.hpp: SARNN_DEFINE_SET(Type) defines every operation of sarnn::kernel::Type (declared
// in include/sarnn/kernels.hpp from the list in cmake/SarnnArch.cmake) by forwarding it to `Impl<T>`, a type with the
// operations as static functions under their implementation's names (include/sarnn/detail/kernel_ops.hpp); the
// cells' whole steps (SARNN_STEP_OPS) go through define_set::Steps below, which composes them from Impl<T>'s loops
// where Impl<T> has no such step of its own.
//
// A set's file lib/kernels/<arch>.cpp is then, in namespace sarnn::kernel:
//   namespace { template <class T> using Impl = <its code for T>; }
//   SARNN_DEFINE_SET(Type)
//   bool Type::runs_here() noexcept { return <whether the CPU has the instructions>; }
#ifndef SARNN_KERNELS_GENERIC_DEFINE_SET_HPP
#define SARNN_KERNELS_GENERIC_DEFINE_SET_HPP

#include <cstddef>
#include <type_traits>

#include "sarnn/kernels.hpp"

namespace sarnn::kernel::define_set {

template <class I, class = void>
struct has_steps : std::false_type {};
template <class I>
struct has_steps<I, std::void_t<decltype(&I::gru_step), decltype(&I::lstm_step)>> : std::true_type {};

/// The whole steps of the cells (SARNN_STEP_OPS) on the implementation I for T: I's own where it has them (the xsimd
/// sets, include/sarnn/kernels/simd/gru_cell.hpp and lstm_cell.hpp), otherwise I's loops one after the other, the gate rows
/// through the caller's scratch (gi, gh; z). Either way the rows are visited in whatever order `backward` asks, and
/// the result does not depend on it.
template <class I, class T>
struct Steps {
    static void gru_step(const T* W_ih, const T* W_hh, const T* b_ih, const T* b_hh, std::size_t In, std::size_t H,
                         const T* x, const T* h_prev, T* gi, T* gh, T* h, bool backward) {
        if constexpr (has_steps<I>::value) {
            I::gru_step(W_ih, W_hh, b_ih, b_hh, In, H, x, h_prev, gi, gh, h, backward);
        } else {
            (void)backward;
            // gi = W_ih x, gh = W_hh h_prev; then the cell
            I::gemv(W_ih, 3 * H, In, In, x, gi);
            I::gemv(W_hh, 3 * H, H, H, h_prev, gh);
            I::gru_cell(gi, gh, b_ih, b_hh, h_prev, H, h);
        }
    }
    static void lstm_step(const T* W_ih, const T* W_hh, const T* b, std::size_t In, std::size_t H, const T* x,
                          const T* h_prev, const T* c_prev, T* z, T* c, T* h, bool backward) {
        if constexpr (has_steps<I>::value) {
            I::lstm_step(W_ih, W_hh, b, In, H, x, h_prev, c_prev, z, c, h, backward);
        } else {
            (void)backward;
            // z = W_ih x + W_hh h_prev; then the cell
            I::gemv(W_ih, 4 * H, In, In, x, z);
            I::gemv_add(W_hh, 4 * H, H, H, h_prev, z);
            I::lstm_cell(z, b, c_prev, H, c, h);
        }
    }
};

}  // namespace sarnn::kernel::define_set

#define SARNN_DEFINE_OP_(T, R, name, impl, params, args) \
    R SarnnThisSet_::name params noexcept { return Impl<T>::impl args; }
#define SARNN_DEFINE_STEP_OP_(T, R, name, impl, params, args) \
    R SarnnThisSet_::name params noexcept { return ::sarnn::kernel::define_set::Steps<Impl<T>, T>::impl args; }

#define SARNN_DEFINE_SET(Type)                    \
    namespace {                                   \
    using SarnnThisSet_ = Type;                   \
    }                                             \
    SARNN_LOOP_OPS(SARNN_DEFINE_OP_, float)       \
    SARNN_STEP_OPS(SARNN_DEFINE_STEP_OP_, float)  \
    SARNN_SET_OPS(SARNN_DEFINE_OP_, float)        \
    SARNN_LOOP_OPS(SARNN_DEFINE_OP_, double)      \
    SARNN_STEP_OPS(SARNN_DEFINE_STEP_OP_, double) \
    SARNN_SET_OPS(SARNN_DEFINE_OP_, double)

#endif
