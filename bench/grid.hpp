// bench/grid.hpp: the shape grid of the instruction-count benchmarks (bench/mcu/grid.cpp on the Cortex-M cores,
// bench/arm/grid.cpp on ARM Linux), written once here. Besides the sizes firmware uses, they count one step at each
// (In, Hidden) pair below (n = 64 states attended, Capacity 64, K 16; the plain cells Gru and Lstm attend over
// nothing), and print instructions per step, per multiply-add, and per multiply-add relative to the reference shape:
// the same model and number type at In 16, Hidden 32 (the reference of issue 32: In 16, Hidden 32, Capacity 64,
// dot, n = 64). The pairs cover every Hidden in {8, 12, 17, 20, 24, 33, 40, 48, 64, 96} and every In in
// {3, 9, 16, 40}, odd sizes among them.
//
// SARNN_BENCH_GRID_FULL (the CMake cache variable SARNN_BENCH_GRID=full, which scripts/bench-mcu and
// scripts/bench-arm set) selects the whole grid; without it (SARNN_BENCH_GRID=smoke, the default: the CI builds)
// only the reference and two odd shapes, so the ctest smoke runs stay short.
#ifndef SARNN_BENCH_GRID_HPP
#define SARNN_BENCH_GRID_HPP

#include <cstddef>
#include <cstdint>

namespace sarnn_bench::grid {

struct Shape {
    std::size_t in;
    std::size_t hidden;
};

/// The reference shape; kShapes[0] is always it (the relative column divides by its row).
constexpr Shape kReference{16, 32};
constexpr std::size_t kCapacity = 64;
constexpr std::size_t kStates = 64;  // n: the states a step attends over (the LSTMN: n - 1 tape entries)
constexpr std::size_t kK = 16;       // K of the additive align and the LSTMN

#if defined(SARNN_BENCH_GRID_FULL) && SARNN_BENCH_GRID_FULL
constexpr Shape kShapes[] = {{16, 32}, {3, 8},  {9, 12},  {3, 17},  {16, 20}, {40, 24},
                             {9, 33},  {3, 40}, {16, 48}, {40, 64}, {9, 96}};
constexpr const char* kName = "full";
#else
constexpr Shape kShapes[] = {{16, 32}, {9, 12}, {3, 17}};
constexpr const char* kName = "smoke";
#endif
constexpr std::size_t kCount = sizeof(kShapes) / sizeof(kShapes[0]);
static_assert(kShapes[0].in == kReference.in && kShapes[0].hidden == kReference.hidden, "kShapes[0] is the reference");

/// The targets of issue 32 hold for Hidden >= kTargetMinHidden.
constexpr std::size_t kTargetMinHidden = 12;

// ---- multiply-adds of one step (tanh, exp and the softmax's divisions are not counted) ------------------------
// The same formulas as bench/mcu/main.cpp's tables (and the x86 benchmark's).

/// SimpleRnn: h = tanh(A·[x; h] + b): Hidden·(In + Hidden).
constexpr std::uint64_t simple_macs(std::size_t in, std::size_t h) { return std::uint64_t{h} * (in + h); }

/// SelfAttentionRnn, dot align: the cell Hidden·(In + Hidden), then over the n states the scores h_j·h_i and the
/// weighted sum: 2·n·Hidden.
constexpr std::uint64_t dot_macs(std::size_t in, std::size_t h, std::size_t n) {
    return simple_macs(in, h) + 2 * std::uint64_t{n} * h;
}

/// SelfAttentionRnn, additive align (K): the cell, the query and the new key 2·K·Hidden, then per state K (v·tanh,
/// the tanh not counted) and Hidden (the weighted sum): n·(K + Hidden).
constexpr std::uint64_t additive_macs(std::size_t in, std::size_t h, std::size_t n, std::size_t k) {
    return simple_macs(in, h) + 2 * std::uint64_t{k} * h + std::uint64_t{n} * (k + h);
}

/// Gru: the gates r, z, n from W_ih·x and W_hh·h: 3·Hidden·(In + Hidden).
constexpr std::uint64_t gru_macs(std::size_t in, std::size_t h) { return 3 * simple_macs(in, h); }

/// Lstm: the gates i, f, g, o from W_ih·x + W_hh·h: 4·Hidden·(In + Hidden).
constexpr std::uint64_t lstm_macs(std::size_t in, std::size_t h) { return 4 * simple_macs(in, h); }

/// Lstmn (K), a step attending over `attended` tape entries: the query K·(In + Hidden), the summaries
/// 2·attended·Hidden (hidden and memory tapes), the gates 4·Hidden·(In + Hidden), the new key K·Hidden.
constexpr std::uint64_t lstmn_macs(std::size_t in, std::size_t h, std::size_t attended, std::size_t k) {
    return std::uint64_t{k} * (in + h) + 2 * std::uint64_t{attended} * h + 4 * simple_macs(in, h) +
           std::uint64_t{k} * h;
}

}  // namespace sarnn_bench::grid

#endif
