// bench/common.hpp: what every benchmark translation unit shares: the shapes, the flop counts, the variants
// and the problem data.
#ifndef SARNN_BENCH_COMMON_HPP
#define SARNN_BENCH_COMMON_HPP

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <sarnn/sarnn.hpp>

namespace sarnn_bench {

constexpr std::size_t kIn = 32;          ///< In of every benchmarked model
constexpr std::size_t kCapacity = 4096;  ///< memory capacity of every benchmarked model (largest n)

// ---- flop counts --------------------------------------------------------------------------------------------
// One multiply-add counts as 2 flops. Only the multiply-adds of the matrix and vector products are counted:
// the bias add, tanh, the score scaling, the max, the exps, the softmax's sum and division are not (they
// are O(Hidden) or O(n) next to the O(n·Hidden) products). So GFLOP/s is the rate of useful multiply-adds,
// comparable with the FMA peak.

/// h = tanh(A·[x; c] + b): Hidden·(In + Hidden) multiply-adds.
constexpr double flops_recurrent(std::size_t hidden) {
    return 2.0 * static_cast<double>(hidden) * static_cast<double>(kIn + hidden);
}
/// The context over n states: n·Hidden multiply-adds for the scores e_j = h_j·q, and as many for
/// c = Σ alpha_j h_j.
constexpr double flops_context(std::size_t n, std::size_t hidden) {
    return 4.0 * static_cast<double>(n) * static_cast<double>(hidden);
}
/// One step() at memory length n (n states attended, the new one included).
constexpr double flops_step(std::size_t n, std::size_t hidden) {
    return flops_recurrent(hidden) + flops_context(n, hidden);
}
/// A whole sequence of N steps from reset(): Σ_{i=1..N} flops_step(i) = N·recurrent + 2·N·(N+1)·Hidden.
constexpr double flops_sequence(std::size_t steps, std::size_t hidden) {
    const double N = static_cast<double>(steps);
    return N * flops_recurrent(hidden) + 2.0 * N * (N + 1.0) * static_cast<double>(hidden);
}

// ---- variants ------------------------------------------------------------------------------------------------
enum class Kind { ours, eigen, naive };

struct Variant {
    std::string label;  ///< ours_<arch>, eigen or naive: the last part of a benchmark's family name
    Kind kind;
    sarnn::Arch arch;   ///< ours only
};

/// sarnn on every kernel set this binary and this CPU have (scalar first), then Eigen, then the naive loops.
std::vector<Variant> variants();

// ---- problem data --------------------------------------------------------------------------------------------
/// The numbers every variant of one Hidden runs on, made once from a fixed seed.
template <std::size_t Hidden>
struct Problem {
    sarnn::RnnParams<float, kIn, Hidden> params;  ///< A uniform in ±1/sqrt(In + Hidden), b in ±0.1
    float xs[kCapacity][kIn];                     ///< inputs of the sequence runs, uniform in ±1
    float states[kCapacity][Hidden];              ///< synthetic stored states h_j (tanh of a normal)
    float c0[Hidden];                             ///< c_{n-1} before a timed step, uniform in ±0.5
    float x[kIn];                                 ///< x_n of a timed step, uniform in ±1
};

template <std::size_t Hidden>
const Problem<Hidden>& problem();

// ---- per-Hidden entry points (bench_h<Hidden>.cpp) ------------------------------------------------------
/// Checks that every variant agrees with the naive loops (and that the step harness is the real model),
/// for both aligns. Prints one line per shape to stderr; false when anything disagrees.
template <std::size_t Hidden>
bool verify(const std::vector<Variant>& vs);

template <std::size_t Hidden>
void register_context(const std::vector<Variant>& vs);
template <std::size_t Hidden>
void register_step(const std::vector<Variant>& vs);
template <std::size_t Hidden>
void register_sequence(const std::vector<Variant>& vs);

// ---- bench_peak.cpp ------------------------------------------------------------------------------------------
/// The FMA (or multiply+add) throughput microbenchmarks: peak/<isa>.
void register_peak();

}  // namespace sarnn_bench

#endif
