// fuzz/fuzz_lstm.cpp: libFuzzer target for Lstm, float and double, six sizes (In, Hidden) around the vector widths,
// one with 4·Hidden = 544 gate rows. The first byte picks the configuration; see driver.hpp for the rest and the
// invariants.
#include <cstddef>
#include <cstdint>

#include "driver.hpp"

namespace {
#define SARNN_FZ_SIZES(T)                                                                                             \
    fz::LstmKit<T, 1, 1>, fz::LstmKit<T, 3, 5>, fz::LstmKit<T, 4, 16>, fz::LstmKit<T, 7, 37>, fz::LstmKit<T, 2, 136>, \
        fz::LstmKit<T, 16, 32>

using All = fz::Configs<SARNN_FZ_SIZES(float), SARNN_FZ_SIZES(double)>;
static_assert(All::count == 12, "2 types x 6 sizes");
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    fz::Bytes in(data, size);
    const std::size_t selector = in.byte();
    All::run(selector, in);
    return 0;
}
