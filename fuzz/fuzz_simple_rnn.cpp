// fuzz/fuzz_simple_rnn.cpp: libFuzzer target for SimpleRnn (step, run, reset; float and double; sizes around the
// vector widths). The first byte picks the configuration; see driver.hpp for the rest and the invariants.
#include <cstddef>
#include <cstdint>

#include "driver.hpp"

namespace {

using All = fz::Configs<fz::SimpleKit<float, 1, 1>, fz::SimpleKit<float, 3, 5>, fz::SimpleKit<float, 4, 16>,
                        fz::SimpleKit<float, 7, 37>, fz::SimpleKit<float, 2, 70>, fz::SimpleKit<float, 5, 136>,
                        fz::SimpleKit<double, 1, 1>, fz::SimpleKit<double, 3, 5>, fz::SimpleKit<double, 4, 16>,
                        fz::SimpleKit<double, 7, 37>, fz::SimpleKit<double, 2, 70>, fz::SimpleKit<double, 5, 136>>;
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    fz::Bytes in(data, size);
    const std::size_t selector = in.byte();
    All::run(selector, in);
    return 0;
}
