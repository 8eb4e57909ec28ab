// fuzz/fuzz_self_attention_rnn.cpp: libFuzzer target for SelfAttentionRnn with every align of
// tests/shared/aligns.hpp (Dot, ScaledDot, Bilinear, KeyQuery<5>, Additive<5>) and both memories (Bounded, Window),
// float and double, five sizes: tiny, one vector per row, rows with a tail, rows too long for the fixed-width
// context kernel, and a memory longer than one L1 chunk of the context kernel (260 states). The first byte picks
// the configuration (100 of them); see driver.hpp for the rest and the invariants.
#include <cstddef>
#include <cstdint>

#include "driver.hpp"

namespace {
using sarnn::Bounded;
using sarnn::Window;

// (In, Hidden, Capacity) of each size
template <class T, class A, class M>
using Sizes = kit::TypeList<fz::SarKit<T, 3, 5, 4, A, M>, fz::SarKit<T, 4, 16, 19, A, M>, fz::SarKit<T, 2, 37, 9, A, M>,
                            fz::SarKit<T, 1, 136, 5, A, M>, fz::SarKit<T, 2, 16, 260, A, M>>;
template <class T, class A>
using Memories = kit::concat_t<Sizes<T, A, Bounded>, Sizes<T, A, Window>>;
// every align of tests/shared/aligns.hpp, K = 5 where it has one
template <class T, class Aligns>
struct PerAlign;
template <class T, class... As>
struct PerAlign<T, kit::TypeList<As...>> {
    using type = kit::concat_t<Memories<T, As>...>;
};

using All =
    fz::ConfigsOf<kit::concat_t<PerAlign<float, kit::Aligns<5>>::type, PerAlign<double, kit::Aligns<5>>::type>>::type;
static_assert(All::count == 100, "2 types x 5 aligns x 2 memories x 5 sizes");
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    fz::Bytes in(data, size);
    const std::size_t selector = in.byte();
    All::run(selector, in);
    return 0;
}
