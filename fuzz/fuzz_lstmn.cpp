// fuzz/fuzz_lstmn.cpp: libFuzzer target for Lstmn, both memories (Bounded, Window), float and double, six sizes
// (In, Hidden, Capacity, K) around the vector widths, one with 260 tape entries. The first byte picks the
// configuration; see driver.hpp for the rest and the invariants.
#include <cstddef>
#include <cstdint>

#include "driver.hpp"

namespace {
using sarnn::Bounded;
using sarnn::Window;

#define SARNN_FZ_SIZES(T, M)                                                                          \
    fz::LstmnKit<T, 1, 1, 3, 1, M>, fz::LstmnKit<T, 3, 5, 6, 4, M>, fz::LstmnKit<T, 4, 16, 19, 8, M>, \
        fz::LstmnKit<T, 2, 37, 9, 17, M>, fz::LstmnKit<T, 3, 136, 4, 20, M>, fz::LstmnKit<T, 2, 16, 260, 5, M>

using All = fz::Configs<SARNN_FZ_SIZES(float, Bounded), SARNN_FZ_SIZES(float, Window), SARNN_FZ_SIZES(double, Bounded),
                        SARNN_FZ_SIZES(double, Window)>;
static_assert(All::count == 24, "2 types x 2 memories x 6 sizes");
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    fz::Bytes in(data, size);
    const std::size_t selector = in.byte();
    All::run(selector, in);
    return 0;
}
