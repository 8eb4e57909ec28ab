// fuzz/fuzz_gru.cpp: libFuzzer target for Gru, float and double, six sizes (In, Hidden) around the vector widths.
// The first byte picks the configuration; see driver.hpp for the rest and the invariants.
#include <cstddef>
#include <cstdint>

#include "driver.hpp"

namespace {
#define SARNN_FZ_SIZES(T)                                                                                       \
    fz::GruKit<T, 1, 1>, fz::GruKit<T, 3, 5>, fz::GruKit<T, 4, 16>, fz::GruKit<T, 7, 37>, fz::GruKit<T, 2, 70>, \
        fz::GruKit<T, 5, 136>

using All = fz::Configs<SARNN_FZ_SIZES(float), SARNN_FZ_SIZES(double)>;
static_assert(All::count == 12, "2 types x 6 sizes");
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    fz::Bytes in(data, size);
    const std::size_t selector = in.byte();
    All::run(selector, in);
    return 0;
}
