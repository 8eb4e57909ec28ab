// Misuse: a target's loops list max_raw in kCaps but misspell its name (the generic form would run without a word).
// Expect: "kCaps must list exactly".
#include "sarnn/kernels/q15/seam.hpp"

namespace q = sarnn::kernel::q15_loops;

struct MyLoops : q::Loops<MyLoops> {
    static constexpr std::size_t kRows = 2, kStates = 1, kColumns = 2;
    static constexpr unsigned kCaps = q::kMaxRaw;
    template <std::size_t G>
    static void dot_states(const sarnn::q15* s, std::size_t stride, const sarnn::q15* q, std::size_t npairs,
                           std::int32_t* d) noexcept {
        q::PlainLoops::dot_states<G>(s, stride, q, npairs, d);
    }
    static std::int32_t max_rwa(const sarnn::q15* e, std::size_t) noexcept { return e[0].raw; }
};

static_assert(q::check<MyLoops>());
