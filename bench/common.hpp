// bench/common.hpp: what every benchmark translation unit shares: the shapes, the flop counts, the variants
// and the problem data.
#ifndef SARNN_BENCH_COMMON_HPP
#define SARNN_BENCH_COMMON_HPP

#include <cmath>
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

// The parameterised aligns and the LSTMN (bench_scored.cpp), Hidden = kAttnHidden, K = kAttnK; counted the
// same way, by sarnn's algebra (align.hpp, lstmn.hpp), for every variant (the peers' key caches do other
// work: see naive_scored.hpp), so GFLOP/s stays a rate of the same useful work across variants.
constexpr std::size_t kAttnHidden = 64;
constexpr std::size_t kAttnK = 16;

/// Bilinear: q = W h_i (Hidden² multiply-adds) on top of the dot align's step.
constexpr double flops_step_bilinear(std::size_t n, std::size_t hidden) {
    return flops_step(n, hidden) + 2.0 * static_cast<double>(hidden) * static_cast<double>(hidden);
}
/// Key/query: u = Wq h_i, q = Wkᵀ u (2·K·Hidden multiply-adds) on top of the dot align's step.
constexpr double flops_step_keyquery(std::size_t n, std::size_t hidden, std::size_t k) {
    return flops_step(n, hidden) + 4.0 * static_cast<double>(k) * static_cast<double>(hidden);
}
/// Additive: P_i = W_l h_i and q = W_r h_i (2·K·Hidden), e_j = v·tanh(P_j + q) (n·K, the tanh not
/// counted), c = Σ alpha_j h_j (n·Hidden), on top of the recurrent product.
constexpr double flops_step_additive(std::size_t n, std::size_t hidden, std::size_t k) {
    const double N = static_cast<double>(n), H = static_cast<double>(hidden), K = static_cast<double>(k);
    return flops_recurrent(hidden) + 2.0 * (2.0 * K * H + N * K + N * H);
}
/// LSTMN step with n tape entries after it (m = n - 1 attended): the query K·(In + Hidden) (when m > 0), the
/// scores m·K, the summaries 2·m·Hidden, the gates 4·Hidden·(In + Hidden), the new key K·Hidden.
constexpr double flops_step_lstmn(std::size_t n, std::size_t hidden, std::size_t k) {
    const double M = static_cast<double>(n - 1), H = static_cast<double>(hidden), K = static_cast<double>(k),
                 I = static_cast<double>(kIn);
    return 2.0 * ((n > 1 ? K * (I + H) : 0.0) + M * K + 2.0 * M * H + 4.0 * H * (I + H) + K * H);
}

/// The plain cells (bench_cell.cpp): Gru 3·Hidden·(In + Hidden) multiply-adds, Lstm 4·Hidden·(In + Hidden).
constexpr double flops_step_gru(std::size_t hidden) { return 3.0 * flops_recurrent(hidden); }
constexpr double flops_step_lstm(std::size_t hidden) { return 4.0 * flops_recurrent(hidden); }

// ---- variants ------------------------------------------------------------------------------------------------
enum class Kind { ours, eigen, naive };

struct Variant {
    std::string label;  ///< ours_<arch>, eigen or naive: the last part of a benchmark's family name
    Kind kind;
    sarnn::Arch arch;  ///< ours only
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

// ---- agreement ------------------------------------------------------------------------------------------------
constexpr float kTolerance = 1e-4f;  ///< max |diff| of h, c and alpha against the naive loops

/// max |a_k - b_k| over count values; +inf when either holds a NaN.
inline float max_abs_diff(const float* a, const float* b, std::size_t count) {
    float d = 0.0f;
    for (std::size_t k = 0; k < count; ++k) {
        const float e = std::fabs(a[k] - b[k]);
        if (!(e <= d)) d = std::isnan(e) ? INFINITY : e;
    }
    return d;
}

// ---- per-Hidden entry points (bench_dot_h<Hidden>.cpp) ------------------------------------------------------
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

// ---- bench_scored.cpp: bilinear, key/query and additive aligns, the LSTMN (Hidden = kAttnHidden) --------------
bool verify_attn(const std::vector<Variant>& vs);
void register_attn(const std::vector<Variant>& vs);

// ---- bench_cell.cpp: Gru and Lstm, Hidden = 16, 32, 64, 128 ----------------------------------------------------
/// quick: Hidden 16 and 64 only.
bool verify_cells(const std::vector<Variant>& vs, bool quick = false);
void register_cells(const std::vector<Variant>& vs);

// ---- bench_window.cpp: the Window memory once full ------------------------------------------------------------
bool verify_window(const std::vector<Variant>& vs, bool smallest_only = false);
void register_window(const std::vector<Variant>& vs);

// ---- bench_peak.cpp ------------------------------------------------------------------------------------------
/// The FMA (or multiply+add) throughput microbenchmarks: peak/<isa>.
void register_peak();

}  // namespace sarnn_bench

#endif
