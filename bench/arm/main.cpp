// bench/arm/main.cpp: instructions per step() on ARM Linux (AArch64, ARMv7), counted under qemu-user by the plugin
// tools/qemu-count/insn_regions.c: each measured step runs between sarnn_count_begin() and sarnn_count_end(), and
// the plugin prints the instructions of each such region. scripts/bench-arm joins them with the labels this
// program prints ("count <i> <model> <shape> <variant>") into bench/results/arm.md.
//
// One step of every model and align, sarnn (the build's set: NEON64 or NEON) against the peers the x86 benchmark
// uses (bench/eigen_*.hpp: Eigen 3.4 fixed-size, written as a competent Eigen user would; bench/naive_*.hpp: plain
// loops), built with the same toolchain file and flags. The step measured is the one that attends over n states
// (n - 1 steps first; the LSTMN's over n - 1 tape entries; the GRU and the LSTM, which attend over nothing: their
// 16th step). Instructions, not time: the ratios hold on a board
// only as far as the instruction mixes are alike.
//
// Then the shape grid (grid.cpp, bench/grid.hpp: every shape of the build's grid, SARNN_BENCH_GRID=full in
// scripts/bench-arm, the reference and two odd shapes otherwise).
//
// Usage: sarnn_bench_arm [quick | only TEXT]
//   quick: two shapes of the dot align and the build's grid (the test command's smoke run: a smoke grid); a build
//   with SARNN_BENCH_GRID=smoke (the default, the CI's) compiles only this set and runs it whatever the argument
//   only TEXT: count only the steps whose label holds TEXT (e.g. "dot In 32 Hidden 64 n 256 ours"), for reading the
//   plugin's per-address counts (pcs=on) against a disassembly
#include "eigen_dot.hpp"  // first: it sets Eigen's fixed-size limits
#include "eigen_cell.hpp"
#include "eigen_scored.hpp"
#include "naive_cell.hpp"
#include "naive_dot.hpp"
#include "naive_scored.hpp"

#include <sarnn/sarnn.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <vector>

extern "C" __attribute__((noinline)) void sarnn_count_begin() { __asm__ volatile(""); }
extern "C" __attribute__((noinline)) void sarnn_count_end() { __asm__ volatile(""); }
void sarnn_bench_arm_grid(int& region, const char* only);  // grid.cpp

namespace {

int g_region = 0;
const char* g_only = nullptr;  // "only <text>": count only the steps whose label holds it

std::uint32_t g_lcg = 2024u;
float uniform(float scale) {  // in [-scale, scale)
    g_lcg = g_lcg * 1664525u + 1013904223u;
    return scale * static_cast<float>(static_cast<std::int32_t>(g_lcg >> 8) - (1 << 23)) / static_cast<float>(1 << 23);
}
std::vector<float> draw(std::size_t n, float scale) {
    std::vector<float> v(n);
    for (float& x : v) x = uniform(scale);
    return v;
}

/// Steps m over n - 1 inputs, then counts the next step as region g_region, labelled.
template <class M>
void count(M& m, std::size_t n, std::size_t in, const char* model, std::size_t hidden, const char* variant) {
    const std::vector<float> xs = draw(n * in, 1.0f);
    for (std::size_t i = 0; i + 1 < n; ++i) (void)m.step(xs.data() + i * in);
    char label[160];
    std::snprintf(label, sizeof label, "%s In %u Hidden %u n %u %s", model, static_cast<unsigned>(in),
                  static_cast<unsigned>(hidden), static_cast<unsigned>(n), variant);
    const float* x = xs.data() + (n - 1) * in;
    if (g_only != nullptr && std::strstr(label, g_only) == nullptr) {
        (void)m.step(x);
        return;
    }
    std::printf("count %d %s\n", g_region++, label);
    std::fflush(stdout);
    sarnn_count_begin();
    (void)m.step(x);
    sarnn_count_end();
}

template <class P>
std::unique_ptr<P> params(float scale) {
    auto p = std::make_unique<P>();
    sarnn::for_each_array(*p, [scale](const char*, float* d, std::size_t k) {
        for (std::size_t i = 0; i < k; ++i) d[i] = uniform(scale);
        return false;
    });
    return p;
}

constexpr int K = 16;

template <int In, int H, int C>
void dot(std::size_t n) {
    auto p = params<sarnn::RnnParams<float, In, H>>(0.3f);
    {
        auto m = std::make_unique<sarnn::SelfAttentionRnn<float, In, H, C, sarnn::DotAlign>>(*p);
        count(*m, n, In, "dot", H, "ours");
    }
    {
        auto m = std::make_unique<sarnn_bench::EigenSarnn<In, H, C, false>>(&p->A[0][0], p->b);
        count(*m, n, In, "dot", H, "eigen");
    }
    {
        auto m = std::make_unique<sarnn_bench::NaiveSarnn<In, H, C, false>>(&p->A[0][0], p->b);
        count(*m, n, In, "dot", H, "naive");
    }
}

template <int In, int H, int C, sarnn_bench::Score S, class Align>
void scored(std::size_t n, const char* name) {
    using AP = typename sarnn::SelfAttentionRnn<float, In, H, C, Align>::AlignParams;
    auto p = params<sarnn::RnnParams<float, In, H>>(0.3f);
    auto ap = params<AP>(0.3f);
    sarnn_bench::ScoreWeights w;
    if constexpr (S == sarnn_bench::Score::bilinear) {
        w.W = &ap->W[0][0];
    } else if constexpr (S == sarnn_bench::Score::keyquery) {
        w.Wk = &ap->Wk[0][0];
        w.Wq = &ap->Wq[0][0];
    } else {
        w.W = &ap->W[0][0];
        w.v = ap->v;
    }
    {
        auto m = std::make_unique<sarnn::SelfAttentionRnn<float, In, H, C, Align>>(*p, *ap);
        count(*m, n, In, name, H, "ours");
    }
    {
        auto m = std::make_unique<sarnn_bench::EigenScoredSarnn<In, H, C, S, K>>(&p->A[0][0], p->b, w);
        count(*m, n, In, name, H, "eigen");
    }
    {
        auto m = std::make_unique<sarnn_bench::NaiveScoredSarnn<In, H, C, S, K>>(&p->A[0][0], p->b, w);
        count(*m, n, In, name, H, "naive");
    }
}

template <int In, int H, int C>
void lstmn(std::size_t n) {
    using P = sarnn::LstmnParams<float, In, H, K>;
    auto p = params<P>(0.3f);
    const typename sarnn_bench::NaiveLstmn<In, H, C, K>::Weights w{&p->W_ih[0][0], &p->W_hh[0][0], p->b, &p->W_h[0][0],
                                                                   &p->W_x[0][0],  &p->W_ht[0][0], p->v};
    {
        auto m = std::make_unique<sarnn::Lstmn<float, In, H, C, K>>(*p);
        count(*m, n, In, "lstmn16", H, "ours");
    }
    {
        auto m = std::make_unique<sarnn_bench::EigenLstmn<In, H, C, K>>(w);
        count(*m, n, In, "lstmn16", H, "eigen");
    }
    {
        auto m = std::make_unique<sarnn_bench::NaiveLstmn<In, H, C, K>>(w);
        count(*m, n, In, "lstmn16", H, "naive");
    }
}

/// The plain cells, Gru and Lstm: the 16th step from reset() (a cell's step costs the same from any state).
template <int In, int H>
void cells() {
    constexpr std::size_t n = 16;
    {
        auto p = params<sarnn::GruParams<float, In, H>>(0.3f);
        const typename sarnn_bench::NaiveGru<In, H>::Weights w{&p->W_ih[0][0], &p->W_hh[0][0], p->b_ih, p->b_hh};
        auto ours = std::make_unique<sarnn::Gru<float, In, H>>(*p);
        count(*ours, n, In, "gru", H, "ours");
        auto eigen = std::make_unique<sarnn_bench::EigenGru<In, H>>(w);
        count(*eigen, n, In, "gru", H, "eigen");
        auto naive = std::make_unique<sarnn_bench::NaiveGru<In, H>>(w);
        count(*naive, n, In, "gru", H, "naive");
    }
    {
        auto p = params<sarnn::LstmParams<float, In, H>>(0.3f);
        const typename sarnn_bench::NaiveLstm<In, H>::Weights w{&p->W_ih[0][0], &p->W_hh[0][0], p->b};
        auto ours = std::make_unique<sarnn::Lstm<float, In, H>>(*p);
        count(*ours, n, In, "lstm", H, "ours");
        auto eigen = std::make_unique<sarnn_bench::EigenLstm<In, H>>(w);
        count(*eigen, n, In, "lstm", H, "eigen");
        auto naive = std::make_unique<sarnn_bench::NaiveLstm<In, H>>(w);
        count(*naive, n, In, "lstm", H, "naive");
    }
}

}  // namespace

int main(int argc, char** argv) {
    const bool quick = argc > 1 && std::strcmp(argv[1], "quick") == 0;
    if (argc > 2 && std::strcmp(argv[1], "only") == 0) g_only = argv[2];
    std::printf("sarnn_bench_arm: kernels %s\n", sarnn::arch_name(sarnn::kernel::Default::arch));
    // region 0: an empty one, the cost of the markers themselves (scripts/bench-arm subtracts it)
    std::printf("count %d empty\n", g_region++);
    sarnn_count_begin();
    sarnn_count_end();
#if defined(SARNN_BENCH_GRID_FULL) && SARNN_BENCH_GRID_FULL
    if (!quick) {
        for (std::size_t n : {std::size_t{16}, std::size_t{256}}) dot<32, 64, 256>(n);
        dot<16, 32, 64>(64);
        using sarnn_bench::Score;
        for (std::size_t n : {std::size_t{16}, std::size_t{256}}) {
            scored<32, 64, 256, Score::bilinear, sarnn::BilinearAlign>(n, "bilinear");
            scored<32, 64, 256, Score::keyquery, sarnn::KeyQueryAlign<K>>(n, "keyquery16");
            scored<32, 64, 256, Score::additive, sarnn::AdditiveAlign<K>>(n, "additive16");
            lstmn<32, 64, 256>(n);
        }
        cells<16, 32>();
        cells<32, 64>();
        sarnn_bench_arm_grid(g_region, g_only);
        return 0;
    }
#else
    // the smoke build (SARNN_BENCH_GRID=smoke, the CI's) compiles the quick set only: the other models' sarnn and
    // Eigen instantiations were most of this file's compile time, and the test command runs "quick"
    if (!quick) std::printf("sarnn_bench_arm: a smoke build (SARNN_BENCH_GRID=smoke): the quick set only\n");
#endif
    dot<32, 64, 256>(16);
    dot<16, 32, 64>(64);
    sarnn_bench_arm_grid(g_region, g_only);
    return 0;
}
