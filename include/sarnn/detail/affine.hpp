// sarnn/detail/affine.hpp: the recurrent step of both RNNs, y = tanh(A·[x; r] + b), for every value type: the one
// kernel call, with what the params of T hold (float and double: A and b; q15: A, b and the requantisation constants).
#ifndef SARNN_DETAIL_AFFINE_HPP
#define SARNN_DETAIL_AFFINE_HPP

#include <cstddef>

#include "sarnn/detail/q15_rows.hpp"
#include "sarnn/detail/shaped.hpp"
#include "sarnn/kernels_q15.hpp"
#include "sarnn/numeric.hpp"
#include "sarnn/params.hpp"

namespace sarnn::detail {

/// y = tanh(A·[x; r] + b) on the kernel set Ops: x has In values, r and y are padded rows of Hidden.
template <class Ops, class T, std::size_t In, std::size_t Hidden>
void affine_tanh(const RnnParams<T, In, Hidden>& p, const activation_t<T>* x, const activation_t<T>* r,
                 activation_t<T>* y) noexcept {
    if constexpr (Numeric<T>::floating)
        // the sizes at compile time: the set's shaped form where it has one (detail/shaped.hpp)
        shaped<Ops, T>::template affine_tanh<Hidden, In, Hidden>(&p.A[0][0], p.b, x, r, y);
    else
        // the sizes at compile time: the q15 set's shaped form where its loops are chosen so (detail/q15_rows.hpp)
        q15_affine_tanh<Ops, Hidden, In, Hidden>(QAffine{&p.A[0][0], p.b, p.m, p.shift, p.x_m, p.x_shift}, x, r, y);
}

}  // namespace sarnn::detail

#endif
