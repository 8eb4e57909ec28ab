// Misuse: a target's loops claim scores by size (kScoresDim) without scores of their own (kScores). Expect: "it needs
// kScores".
#include "sarnn/kernels/q15/seam.hpp"

namespace q = sarnn::kernel::q15_loops;

struct MyLoops : q::Loops<MyLoops> {
    static constexpr std::size_t kRows = 2, kStates = 1, kColumns = 2;
    static constexpr unsigned kCaps = q::kScoresDim;
    template <std::size_t G>
    static void dot_states(const sarnn::q15* s, std::size_t stride, const sarnn::q15* q, std::size_t npairs,
                           std::int32_t* d) noexcept {
        q::PlainLoops::dot_states<G>(s, stride, q, npairs, d);
    }
};

static_assert(q::check<MyLoops>());
