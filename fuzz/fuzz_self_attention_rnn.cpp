// fuzz/fuzz_self_attention_rnn.cpp: libFuzzer target for SelfAttentionRnn with every align (Dot, ScaledDot,
// Bilinear, KeyQuery<5>, Additive<5>) and both memories (Bounded, Window), float and double, five sizes: tiny,
// one vector per row, rows with a tail, rows too long for the fixed-width context kernel, and a memory longer
// than one L1 chunk of the context kernel (260 states). The first byte picks the configuration (100 of them);
// see driver.hpp for the rest and the invariants.
#include <cstddef>
#include <cstdint>

#include "driver.hpp"

namespace {
using sarnn::AdditiveAlign;
using sarnn::BilinearAlign;
using sarnn::Bounded;
using sarnn::DotAlign;
using sarnn::KeyQueryAlign;
using sarnn::ScaledDotAlign;
using sarnn::Window;

// (In, Hidden, Capacity) of each size
#define SARNN_FZ_SIZES(T, A, M)                                                                           \
    fz::SarKit<T, 3, 5, 4, A, M>, fz::SarKit<T, 4, 16, 19, A, M>, fz::SarKit<T, 2, 37, 9, A, M>,          \
        fz::SarKit<T, 1, 136, 5, A, M>, fz::SarKit<T, 2, 16, 260, A, M>
#define SARNN_FZ_MEMORIES(T, A) SARNN_FZ_SIZES(T, A, Bounded), SARNN_FZ_SIZES(T, A, Window)
#define SARNN_FZ_ALIGNS(T)                                                                                 \
    SARNN_FZ_MEMORIES(T, DotAlign), SARNN_FZ_MEMORIES(T, ScaledDotAlign), SARNN_FZ_MEMORIES(T, BilinearAlign), \
        SARNN_FZ_MEMORIES(T, KeyQueryAlign<5>), SARNN_FZ_MEMORIES(T, AdditiveAlign<5>)

using All = fz::Configs<SARNN_FZ_ALIGNS(float), SARNN_FZ_ALIGNS(double)>;
static_assert(All::count == 100, "2 types x 5 aligns x 2 memories x 5 sizes");
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    fz::Bytes in(data, size);
    const std::size_t selector = in.byte();
    All::run(selector, in);
    return 0;
}
