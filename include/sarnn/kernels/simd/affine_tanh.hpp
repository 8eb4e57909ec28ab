// sarnn/kernels/simd/affine_tanh.hpp: affine_tanh, y = tanh(A·[x; r] + b): the recurrent product of every model
// and its tanh in one pass.
// Part of Simd<A, T> (kernels/simd/simd.hpp, which declares it and includes this file; include that one).
#ifndef SARNN_KERNELS_SIMD_AFFINE_TANH_HPP
#define SARNN_KERNELS_SIMD_AFFINE_TANH_HPP

namespace sarnn::simd {
namespace {  // NOLINT(cert-dcl59-cpp): the set's internal linkage, as in simd.hpp

// Vector u (lanes u·W..u·W+W) of [x; r], x of nx values: a plain load unless it straddles x's end.
template <class A, class T>
SARNN_INLINE auto Simd<A, T>::joined(const T* x, std::size_t nx, const T* r, std::size_t u) -> B {
    const std::size_t j = u * W;
    if (j + W <= nx) return load(x + j);
    if (j >= nx) return load(r + (j - nx));
    alignas(A::alignment()) T t[W];
    for (std::size_t k = 0; k < W; ++k) t[k] = j + k < nx ? x[j + k] : r[j + k - nx];
    return load_a(t);
}

// y = tanh(A·[x; r] + b) for rows of ld = nx + nr values, NV = ld / W whole vectors of them with [x; r] in
// registers, and a tail of ld % W; full blocks of W rows. Returns the rows done (a multiple of W).
template <class A, class T>
template <std::size_t NV>
SARNN_FLAT std::size_t Simd<A, T>::affine_tanh_fixed(const T* Am, const T* b, std::size_t rows, const T* x,
                                                     std::size_t nx, const T* r, std::size_t nr, T* y) {
    const std::size_t ld = nx + nr;
    B vv[NV];
    for (std::size_t u = 0; u < NV; ++u) vv[u] = joined(x, nx, r, u);
    std::size_t r0 = 0;
    for (; r0 + W <= rows; r0 += W) {
        const T* first = Am + r0 * ld;
        B s = block_dot_fixed<NV>(first, ld, vv) + load(b + r0);
        if (ld % W != 0) {
            // the tail columns, which may begin in x
            alignas(A::alignment()) T t[W];
            for (std::size_t k = 0; k < W; ++k) {
                T acc = T(0);
                for (std::size_t j = NV * W; j < ld; ++j) acc += first[k * ld + j] * (j < nx ? x[j] : r[j - nx]);
                t[k] = acc;
            }
            s += load_a(t);
        }
        // y = A·[x; r] + b, W rows at once (tanh below, once all blocks are done)
        s.store_unaligned(y + r0);
    }
    // y = tanh(y)
    for (std::size_t k = 0; k < r0; k += W) tanh_safe(load(y + k)).store_unaligned(y + k);
    return r0;
}

// y = tanh(A·[x; r] + b): rows of 1 to 8 whole vectors (plus a tail) with [x; r] in registers, longer ones
// through the generic loop; the last rows % W rows as a partial block.
template <class A, class T>
SARNN_FLAT void Simd<A, T>::affine_tanh(const T* Am, const T* b, std::size_t rows, const T* x, std::size_t nx,
                                        const T* r, std::size_t nr, T* y) {
    const std::size_t ld = nx + nr;
    std::size_t r0 = 0;
    with_fixed_width(ld / W, [&](auto nv) { r0 = affine_tanh_fixed<nv()>(Am, b, rows, x, nx, r, nr, y); });
    for (; r0 + W <= rows; r0 += W) {
        const T* first = Am + r0 * ld;
        B acc[W];
        for (auto& a : acc) a = B(T(0));
        full_block_dots(first, ld, x, nx, acc);
        full_block_dots(first + nx, ld, r, nr, acc);
        B s = row_sums(acc) + load(b + r0);
        if (nx % W != 0) s += tail_dots(first, ld, x, nx);
        if (nr % W != 0) s += tail_dots(first + nx, ld, r, nr);
        // y = tanh(A·[x; r] + b), W rows at once
        tanh_safe(s).store_unaligned(y + r0);
    }
    if (r0 < rows) {
        const std::size_t count = rows - r0;
        const T* first = Am + r0 * ld;
        alignas(A::alignment()) T bias[W] = {};
        for (std::size_t k = 0; k < count; ++k) bias[k] = b[r0 + k];
        const B s = partial_block_dot(first, ld, count, x, nx) + partial_block_dot(first + nx, ld, count, r, nr) +
                    load_a(bias);
        store_rows(tanh_safe(s), y + r0, count);
    }
}

}  // namespace
}  // namespace sarnn::simd

#endif
