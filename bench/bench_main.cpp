// bench/bench_main.cpp: sarnn_bench's main: check that every variant computes the same outputs, then register
// and run the benchmarks (Google Benchmark flags apply: --benchmark_filter, --benchmark_out, ...).
//
// Variants side by side in the same run: ours_<arch> (sarnn on each kernel set this CPU runs, through
// kernels_for / set_arch), eigen (bench/eigen_dot.hpp, eigen_scored.hpp) and naive (bench/naive_dot.hpp,
// naive_scored.hpp); the Window benchmarks time ours only. If any of them
// disagrees with the naive loops by more than 1e-4 on h, c or alpha, or the step harness differs from the
// real model by a single bit, the binary prints what differs and exits with status 2 without timing anything.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include <sarnn/sarnn.hpp>

#include "common.hpp"

namespace sarnn_bench {

std::vector<Variant> variants() {
    std::vector<Variant> vs;
    // every set lib/ holds and the CPU runs, plainest first, as "ours_<arch name without '+'>" (ours_avx2fma); not
    // the Cortex-M sets, which every host builds for its tests: they are measured in instructions on their own
    // cores (bench/mcu, scripts/bench-mcu)
    sarnn::kernel::for_each_set([&](auto set) {
        using Set = decltype(set);
        if (!sarnn::arch_available(Set::arch)) return;
        if (Set::arch == sarnn::Arch::cortex_m || Set::arch == sarnn::Arch::cortex_m0) return;
        std::string label = "ours_";
        for (const char* c = sarnn::arch_name(Set::arch); *c != 0; ++c)
            if (*c != '+') label += *c;
        vs.push_back({label, Kind::ours, Set::arch});
    });
    vs.push_back({"eigen", Kind::eigen, sarnn::Arch::scalar});
    vs.push_back({"naive", Kind::naive, sarnn::Arch::scalar});
    return vs;
}

}  // namespace sarnn_bench

namespace {

std::string cpu_model() {
    std::ifstream in("/proc/cpuinfo");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind("model name", 0) == 0 || line.rfind("Model", 0) == 0 || line.rfind("Hardware", 0) == 0) {
            const auto colon = line.find(':');
            if (colon != std::string::npos) return line.substr(line.find_first_not_of(" \t", colon + 1));
        }
    return "unknown";
}

}  // namespace

int main(int argc, char** argv) {
    using namespace sarnn_bench;
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;

    const std::vector<Variant> vs = variants();
    std::string labels;
    for (const Variant& v : vs) labels += (labels.empty() ? "" : ",") + v.label;
    benchmark::AddCustomContext("cpu_model", cpu_model());
    benchmark::AddCustomContext("sarnn_variants", labels);
    benchmark::AddCustomContext("sarnn_default_arch", sarnn::arch_name(sarnn::active_arch()));
    for (const Variant& v : vs)
        if (v.kind == Kind::ours && v.arch == sarnn::active_arch())
            benchmark::AddCustomContext("sarnn_default_variant", v.label);
    benchmark::AddCustomContext("sarnn_shape",
                                "float, In=" + std::to_string(kIn) + ", Capacity=" + std::to_string(kCapacity));

    // Agreement before any timing: every variant, every Hidden, every align, the LSTMN, the GRU and the LSTM, the
    // Window memory.
    // SARNN_BENCH_VERIFY=quick (the smoke test under qemu) checks Hidden 16 and 64 and the smallest Window only.
    const char* mode = std::getenv("SARNN_BENCH_VERIFY");
    const bool quick = mode != nullptr && std::strcmp(mode, "quick") == 0;
    if (quick) std::fprintf(stderr, "sarnn_bench: SARNN_BENCH_VERIFY=quick: Hidden 16 and 64, Window C=64 only\n");
    bool ok = verify<16>(vs);
    if (!quick) ok = verify<32>(vs) && ok;
    ok = verify<64>(vs) && ok;
    if (!quick) ok = verify<128>(vs) && ok;
    ok = verify_attn(vs) && ok;
    ok = verify_cells(vs, quick) && ok;
    ok = verify_window(vs, quick) && ok;
    if (!ok) {
        std::fprintf(stderr,
                     "sarnn_bench: the variants disagree (tolerance 1e-4, see FAIL above): refusing to "
                     "report timings\n");
        return 2;
    }

    register_peak();
    register_context<16>(vs);
    register_context<32>(vs);
    register_context<64>(vs);
    register_context<128>(vs);
    register_step<16>(vs);
    register_step<32>(vs);
    register_step<64>(vs);
    register_step<128>(vs);
    register_attn(vs);
    register_cells(vs);
    register_sequence<16>(vs);
    register_sequence<32>(vs);
    register_sequence<64>(vs);
    register_sequence<128>(vs);
    register_window(vs);

    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
