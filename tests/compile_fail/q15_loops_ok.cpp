// Control for the q15 seam's cases: a target's loops written as include/sarnn/kernels/q15/seam.hpp asks (the plain products,
// one generic operation of its own, listed in kCaps) pass check<L>().
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
    template <std::size_t G>
    static void dot_rows(const std::int8_t* w, std::size_t ld, const sarnn::q15* v, std::size_t n,
                         std::int32_t* acc) noexcept {
        q::PlainLoops::dot_rows<G>(w, ld, v, n, acc);
    }
    static std::int32_t max_raw(const sarnn::q15* e, std::size_t) noexcept { return e[0].raw; }
};

static_assert(q::check<MyLoops>());
static_assert(q::check<q::PlainLoops>());
