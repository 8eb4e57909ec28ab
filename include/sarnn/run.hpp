// sarnn/run.hpp: run() over a buffered sequence, shared by every model.
#ifndef SARNN_RUN_HPP
#define SARNN_RUN_HPP

#include <cstddef>

#include "sarnn/status.hpp"
#include "sarnn/view.hpp"

namespace sarnn {

/// Which vector run() writes for each step.
enum class Emit : unsigned char {
    hidden,   ///< h_i (every model)
    context,  ///< c_i (SelfAttentionRnn)
    cell,     ///< c_t, the memory cell (Lstmn, Lstm)
};

/// What run() did: the status of the first step that was not ok (or ok), and how many steps it took.
struct RunResult {
    Status status;
    std::size_t steps;
};

namespace detail {

/// Steps `model` over xs[0..n) (n rows of In values, contiguous), writing `emitted()` of each step to
/// out[t·Dim..) when out is not null. Stops at the first status that is not ok.
template <class Model, class T, class Emitted>
RunResult run_steps(Model& model, const T* xs, std::size_t n, T* out, Emitted emitted) noexcept {
    constexpr std::size_t In = Model::in_size;
    for (std::size_t t = 0; t < n; ++t) {
        const Status s = model.step(xs == nullptr ? nullptr : xs + t * In);
        if (s != Status::ok) return {s, t};
        if (out != nullptr) {
            const View<T> v = emitted(model);
            T* o = out + t * v.size();
            for (std::size_t d = 0; d < v.size(); ++d) o[d] = v[d];
        }
    }
    return {Status::ok, n};
}

}  // namespace detail
}  // namespace sarnn

#endif
