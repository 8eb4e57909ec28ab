// sarnn/kernels/generic/define_set.hpp: SARNN_DEFINE_SET(Type) defines every operation of sarnn::kernel::Type (declared
// in include/sarnn/kernels.hpp from the list in cmake/SarnnArch.cmake) by forwarding it to `Impl<T>`, a type with the
// operations as static functions under their implementation's names (include/sarnn/detail/kernel_ops.hpp).
//
// A set's file lib/kernels/<arch>.cpp is then, in namespace sarnn::kernel:
//   namespace { template <class T> using Impl = <its code for T>; }
//   SARNN_DEFINE_SET(Type)
//   bool Type::runs_here() noexcept { return <whether the CPU has the instructions>; }
#ifndef SARNN_KERNELS_GENERIC_DEFINE_SET_HPP
#define SARNN_KERNELS_GENERIC_DEFINE_SET_HPP

#include "sarnn/kernels.hpp"

#define SARNN_DEFINE_OP_(T, R, name, impl, params, args) \
    R SarnnThisSet_::name params noexcept { return Impl<T>::impl args; }

#define SARNN_DEFINE_SET(Type)                \
    namespace {                               \
    using SarnnThisSet_ = Type;               \
    }                                         \
    SARNN_MODEL_OPS(SARNN_DEFINE_OP_, float)  \
    SARNN_SET_OPS(SARNN_DEFINE_OP_, float)    \
    SARNN_MODEL_OPS(SARNN_DEFINE_OP_, double) \
    SARNN_SET_OPS(SARNN_DEFINE_OP_, double)

#endif
