// bench/bench_window.cpp: the Window memory's per-step cost once full, and its agreement check.
//
//   window/dot/H64/<variant>/C:<C>/steps:<S>
//     The real sarnn::SelfAttentionRnn<float, 32, 64, C, DotAlign, Window> (after set_arch(arch)), stepped S
//     times from reset() outside the timed region, then timed over the next C steps (one turn of the ring:
//     every stored state is replaced once), one step() per iteration. A full window stays full, so these are
//     real model steps, no harness. C in {64, 256, 1024}, S in {C, 4C, 16C}: the time per step must not
//     depend on S (the memory is a ring, nothing grows). Ours only, per arch. Items: C states attended per
//     step. Flops: flops_step(C, 64).
//
// The check before timing: on every arch, the Window model over 3·C + 7 steps (the ring wraps three times)
// against the naive loops attending over the newest C states of the whole history (no ring): h, c and
// alpha within 1e-4 at every step, and attended() == min(t, C).
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <sarnn/sarnn.hpp>

#include "common.hpp"
#include "naive_dot.hpp"

namespace sarnn_bench {

extern template const Problem<kAttnHidden>& problem<kAttnHidden>();

namespace {

constexpr std::size_t H = kAttnHidden;

template <std::size_t C>
using WindowModel = sarnn::SelfAttentionRnn<float, kIn, H, C, sarnn::DotAlign, sarnn::Window>;

template <std::size_t C>
void bm_window(benchmark::State& st, const Variant& v) {
    const auto steps = static_cast<std::size_t>(st.range(1));
    const Problem<H>& P = problem<H>();
    if (sarnn::set_arch(v.arch) != sarnn::Status::ok) {
        st.SkipWithError("set_arch failed");
        return;
    }
    auto m = std::make_unique<WindowModel<C>>(P.params);
    std::size_t t = 0;
    for (; t < steps; ++t) m->step(P.xs[t % kCapacity]);
    if (!m->full()) {
        st.SkipWithError("the window is not full");
        return;
    }
    for (auto _ : st) {
        m->step(P.xs[t % kCapacity]);
        ++t;
        benchmark::DoNotOptimize(m->context().data());
        benchmark::ClobberMemory();
    }
    st.SetItemsProcessed(static_cast<std::int64_t>(st.iterations()) * static_cast<std::int64_t>(C));
    st.counters["GFLOPS"] = benchmark::Counter(static_cast<double>(st.iterations()) * flops_step(C, H) * 1e-9,
                                               benchmark::Counter::kIsRate);
}

template <std::size_t C>
void register_window_for(const Variant& v) {
    const auto c = static_cast<std::int64_t>(C);
    benchmark::RegisterBenchmark(("window/dot/H" + std::to_string(H) + "/" + v.label).c_str(),
                                 [v](benchmark::State& st) { bm_window<C>(st, v); })
        ->ArgNames({"C", "steps"})
        ->Args({c, c})
        ->Args({c, 4 * c})
        ->Args({c, 16 * c})
        ->Iterations(c);
}

template <std::size_t C>
bool verify_window_for(const std::vector<Variant>& vs) {
    static_assert(3 * C + 7 <= kCapacity, "the reference keeps the whole history");
    const Problem<H>& P = problem<H>();
    constexpr std::size_t kSteps = 3 * C + 7;
    bool ok = true;
    std::string line = "sarnn_bench: verify window C=" + std::to_string(C) + " H=" + std::to_string(H) + " over " +
                       std::to_string(kSteps) + " steps (max abs diff vs naive):";
    for (const Variant& v : vs) {
        if (v.kind != Kind::ours) continue;
        if (sarnn::set_arch(v.arch) != sarnn::Status::ok) return false;
        auto model = std::make_unique<WindowModel<C>>(P.params);
        auto ref = std::make_unique<NaiveSarnn<kIn, H, kCapacity, false>>(&P.params.A[0][0], P.params.b, C);
        float d = 0.0f;
        for (std::size_t t = 1; t <= kSteps; ++t) {
            if (model->step(P.xs[t - 1]) != sarnn::Status::ok) d = INFINITY;
            ref->step(P.xs[t - 1]);
            const std::size_t n = t < C ? t : C;
            if (model->attended() != n || model->attention().size() != n || model->length() != t) d = INFINITY;
            d = std::fmax(d, max_abs_diff(model->hidden().data(), ref->hidden(), H));
            d = std::fmax(d, max_abs_diff(model->context().data(), ref->context(), H));
            d = std::fmax(d, max_abs_diff(model->attention().data(), ref->attention(), n));
        }
        const bool v_ok = d <= kTolerance;
        ok = ok && v_ok;
        char buf[120];
        std::snprintf(buf, sizeof buf, " %s %.1e%s", v.label.c_str(), static_cast<double>(d), v_ok ? "" : " FAIL");
        line += buf;
    }
    std::fprintf(stderr, "%s\n", line.c_str());
    return ok;
}

}  // namespace

bool verify_window(const std::vector<Variant>& vs, bool smallest_only) {
    const sarnn::Arch before = sarnn::active_arch();
    bool ok = verify_window_for<64>(vs);
    if (!smallest_only) {
        ok = verify_window_for<256>(vs) && ok;
        ok = verify_window_for<1024>(vs) && ok;
    }
    (void)sarnn::set_arch(before);
    return ok;
}

void register_window(const std::vector<Variant>& vs) {
    for (const Variant& v : vs) {
        if (v.kind != Kind::ours) continue;
        register_window_for<64>(v);
        register_window_for<256>(v);
        register_window_for<1024>(v);
    }
}

}  // namespace sarnn_bench
