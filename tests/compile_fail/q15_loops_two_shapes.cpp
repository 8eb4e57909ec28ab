// Misuse: a target's loops claim both shapes of affine_tanh (every row's tanh at the end, and rows finished with
// their tanh). Expect: "a target takes one".
#include "sarnn/kernels/q15/seam.hpp"

namespace q = sarnn::kernel::q15_loops;

struct MyLoops : q::Loops<MyLoops> {
    static constexpr std::size_t kRows = 2, kStates = 1, kColumns = 2;
    static constexpr unsigned kCaps = q::kTanhRows | q::kFinishTanh;
    template <std::size_t G>
    static void dot_states(const sarnn::q15* s, std::size_t stride, const sarnn::q15* q, std::size_t npairs,
                           std::int32_t* d) noexcept {
        q::PlainLoops::dot_states<G>(s, stride, q, npairs, d);
    }
};

static_assert(q::check<MyLoops>());
