// bench/dot_families.hpp: the benchmark families and the agreement check, templated on Hidden. Each
// bench_dot_h<Hidden>.cpp includes this and instantiates it for one Hidden (so the build runs in parallel).
//
// What is timed (float, In = 32, Capacity = 4096):
//
//   context/<align>/H<Hidden>/<variant>/n:<n>
//     The context computation alone over n stored states, the last one as the query: scores, softmax,
//     weighted sum. Ours: the Align's attend(), i.e. one attend_dot call on the set of that arch.
//     Items: states attended (n per iteration). Flops: flops_context(n).
//
//   step/<align>/H<Hidden>/<variant>/n:<n>
//     One step() when the memory already holds n-1 states: h_n = tanh(A·[x; c] + b) into the memory, then
//     the context over the n states. Each iteration sets the length back to n-1 and steps again (the
//     recurrence is live: c feeds the next iteration's h). Ours: the model's own step() (OursStep,
//     ours.hpp, sets the memory length back through sarnn::detail::Access); verify() proves that a model so
//     loaded steps exactly as one that took every step. Items: states attended (n). Flops: flops_step(n).
//
//   sequence/<align>/H<Hidden>/<variant>/N:<N>
//     A whole sequence from reset(): N steps of the real sarnn::SelfAttentionRnn (after set_arch(arch)),
//     or of the peer. O(N²). Items: steps (N). Flops: flops_sequence(N).
//
// Complexity fits: oN for context and step (in n), oNSquared for sequence (in N).
//
// The parameterised aligns and the LSTMN (step/bilinear, step/keyquery16, step/additive16, step/lstmn16,
// Hidden = 64 only) are in bench_scored.cpp, the Window memory (window/dot/H64) in bench_window.cpp; both use
// the helpers below.
#ifndef SARNN_BENCH_DOT_FAMILIES_HPP
#define SARNN_BENCH_DOT_FAMILIES_HPP

// eigen_dot.hpp must be the first Eigen include of the translation unit.
#include "eigen_dot.hpp"

#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include <sarnn/sarnn.hpp>

#include "common.hpp"
#include "shared/aligns.hpp"  // tests/shared/: the aligns' names
#include "naive_dot.hpp"
#include "ours.hpp"

namespace sarnn_bench {

template <class Align>
constexpr bool kScaled = std::is_same_v<Align, sarnn::ScaledDotAlign>;

/// "dot", "scaled_dot": the align's slug (tests/shared/aligns.hpp).
template <class Align>
std::string align_name() {
    return kit::AlignTraits<Align>::slug();
}

template <std::size_t H, class Align>
using Ours = OursStep<kIn, H, kCapacity, Align>;
template <std::size_t H, class Align>
using Model = sarnn::SelfAttentionRnn<float, kIn, H, kCapacity, Align>;
template <std::size_t H, class Align>
using Naive = NaiveSarnn<kIn, H, kCapacity, kScaled<Align>>;
template <std::size_t H, class Align>
using Eigen3 = EigenSarnn<static_cast<int>(kIn), static_cast<int>(H), static_cast<int>(kCapacity), kScaled<Align>>;

// ---- problem data -----------------------------------------------------------------------------------------
template <std::size_t H>
const Problem<H>& problem() {
    static const std::unique_ptr<Problem<H>> p = [] {
        auto q = std::make_unique<Problem<H>>();
        std::mt19937 rng(0x5a44u + static_cast<unsigned>(H));
        const float a = 1.0f / std::sqrt(static_cast<float>(kIn + H));
        std::uniform_real_distribution<float> ua(-a, a), ub(-0.1f, 0.1f), ux(-1.0f, 1.0f), uc(-0.5f, 0.5f);
        std::normal_distribution<float> nh(0.0f, 1.0f);
        for (auto& row : q->params.A)
            for (float& v : row) v = ua(rng);
        for (float& v : q->params.b) v = ub(rng);
        for (auto& row : q->xs)
            for (float& v : row) v = ux(rng);
        for (auto& row : q->states)
            for (float& v : row) v = std::tanh(nh(rng));
        for (float& v : q->c0) v = uc(rng);
        for (float& v : q->x) v = ux(rng);
        return q;
    }();
    return *p;
}

// ---- harnesses ------------------------------------------------------------------------------------------------
/// Calls f(m) with a fresh, heap-allocated step harness of variant v (outside any timed region).
template <std::size_t H, class Align, class F>
void with_harness(const Variant& v, const Problem<H>& P, F&& f) {
    switch (v.kind) {
    case Kind::ours: {
        auto m = std::make_unique<Ours<H, Align>>(P.params, v.arch);
        f(*m);
        break;
    }
    case Kind::eigen: {
        auto m = std::make_unique<Eigen3<H, Align>>(&P.params.A[0][0], P.params.b);
        f(*m);
        break;
    }
    case Kind::naive: {
        auto m = std::make_unique<Naive<H, Align>>(&P.params.A[0][0], P.params.b);
        f(*m);
        break;
    }
    }
}

/// The memory holds `rows` states taken from `states` (rows of H floats; the harness caches whatever its
/// align keeps per state), the length is `rows`, c = c.
template <std::size_t H, class M>
void prefill(M& m, const float (*states)[H], std::size_t rows, const float* c) {
    for (std::size_t j = 0; j < rows; ++j) m.store(j, states[j]);
    m.set_length(rows);
    m.set_context(c);
}

inline void finish(benchmark::State& st, std::int64_t n, double flops_per_iter, std::int64_t items_per_iter) {
    st.SetComplexityN(n);
    st.SetItemsProcessed(static_cast<std::int64_t>(st.iterations()) * items_per_iter);
    st.counters["GFLOPS"] = benchmark::Counter(static_cast<double>(st.iterations()) * flops_per_iter * 1e-9,
                                               benchmark::Counter::kIsRate);
}

// ---- benchmark bodies -----------------------------------------------------------------------------------------
template <std::size_t H, class Align>
void bm_context(benchmark::State& st, const Variant& v) {
    const auto n = static_cast<std::size_t>(st.range(0));
    const Problem<H>& P = problem<H>();
    with_harness<H, Align>(v, P, [&](auto& m) {
        prefill<H>(m, P.states, n, P.c0);
        for (auto _ : st) {
            m.attend();
            benchmark::DoNotOptimize(m.context());
            benchmark::ClobberMemory();
        }
    });
    finish(st, st.range(0), flops_context(n, H), st.range(0));
}

template <std::size_t H, class Align>
void bm_step(benchmark::State& st, const Variant& v) {
    const auto n = static_cast<std::size_t>(st.range(0));
    const Problem<H>& P = problem<H>();
    with_harness<H, Align>(v, P, [&](auto& m) {
        prefill<H>(m, P.states, n - 1, P.c0);
        for (auto _ : st) {
            m.set_length(n - 1);
            m.step(P.x);
            benchmark::DoNotOptimize(m.context());
            benchmark::ClobberMemory();
        }
    });
    finish(st, st.range(0), flops_step(n, H), st.range(0));
}

template <std::size_t H, class Align>
void bm_sequence(benchmark::State& st, const Variant& v) {
    const auto steps = static_cast<std::size_t>(st.range(0));
    const Problem<H>& P = problem<H>();
    if (v.kind == Kind::ours) {
        if (sarnn::set_arch(v.arch) != sarnn::Status::ok) {
            st.SkipWithError("set_arch failed");
            return;
        }
        auto m = std::make_unique<Model<H, Align>>(P.params);
        for (auto _ : st) {
            m->reset();
            for (std::size_t t = 0; t < steps; ++t) m->step(P.xs[t]);
            benchmark::DoNotOptimize(m->context().data());
            benchmark::ClobberMemory();
        }
    } else {
        with_harness<H, Align>(v, P, [&](auto& m) {
            for (auto _ : st) {
                m.reset();
                for (std::size_t t = 0; t < steps; ++t) m.step(P.xs[t]);
                benchmark::DoNotOptimize(m.context());
                benchmark::ClobberMemory();
            }
        });
    }
    finish(st, st.range(0), flops_sequence(steps, H), st.range(0));
}

// ---- registration ---------------------------------------------------------------------------------------------
inline std::string family(const char* what, const std::string& align, std::size_t hidden, const Variant& v) {
    return std::string(what) + "/" + align + "/H" + std::to_string(hidden) + "/" + v.label;
}

template <std::size_t H>
void register_context(const std::vector<Variant>& vs) {
    using A = sarnn::DotAlign;  // the context kernel does not depend on the align but for one multiply
    for (const Variant& v : vs)
        benchmark::RegisterBenchmark(family("context", align_name<A>(), H, v).c_str(),
                                     [v](benchmark::State& st) { bm_context<H, A>(st, v); })
            ->RangeMultiplier(2)
            ->Range(1, static_cast<std::int64_t>(kCapacity))
            ->ArgName("n")
            ->Complexity(benchmark::oN);
}

template <std::size_t H, class A>
void register_step_for(const std::vector<Variant>& vs) {
    for (const Variant& v : vs)
        benchmark::RegisterBenchmark(family("step", align_name<A>(), H, v).c_str(),
                                     [v](benchmark::State& st) { bm_step<H, A>(st, v); })
            ->RangeMultiplier(2)
            ->Range(1, static_cast<std::int64_t>(kCapacity))
            ->ArgName("n")
            ->Complexity(benchmark::oN);
}

template <std::size_t H>
void register_step(const std::vector<Variant>& vs) {
    register_step_for<H, sarnn::DotAlign>(vs);
    register_step_for<H, sarnn::ScaledDotAlign>(vs);
}

template <std::size_t H>
void register_sequence(const std::vector<Variant>& vs) {
    using A = sarnn::DotAlign;
    for (const Variant& v : vs) {
        // The slow variants (serial dot products) stop at 2048 steps to keep the run short: 4096 would take
        // seconds per iteration. The fit needs no more points.
        const bool slow = v.kind == Kind::naive || (v.kind == Kind::ours && v.arch == sarnn::Arch::scalar);
        benchmark::RegisterBenchmark(family("sequence", align_name<A>(), H, v).c_str(),
                                     [v](benchmark::State& st) { bm_sequence<H, A>(st, v); })
            ->RangeMultiplier(2)
            ->Range(16, static_cast<std::int64_t>(slow ? kCapacity / 2 : kCapacity))
            ->ArgName("N")
            ->Unit(benchmark::kMicrosecond)
            ->Complexity(benchmark::oNSquared);
    }
}

// ---- agreement check ------------------------------------------------------------------------------------------
/// max difference of h, c and alpha between two models of the same length.
template <std::size_t H, class M1, class M2>
float outputs_diff(const M1& a, const M2& b) {
    if (a.length() != b.length()) return INFINITY;
    float d = max_abs_diff(a.hidden(), b.hidden(), H);
    d = std::fmax(d, max_abs_diff(a.context(), b.context(), H));
    return std::fmax(d, max_abs_diff(a.attention(), b.attention(), static_cast<std::size_t>(a.length())));
}

constexpr std::size_t kVerifySteps = 512;

template <std::size_t H, class Align>
bool verify_align(const std::vector<Variant>& vs) {
    const Problem<H>& P = problem<H>();
    bool ok = true;
    std::string line = std::string("sarnn_bench: verify ") + align_name<Align>() + " H=" + std::to_string(H) +
                       " (max abs diff vs naive, sequence/each n):";

    // The step harness at every benchmarked n, from the same prefilled memory, against the naive loops; then
    // the context alone.
    auto harness_diff = [&](const Variant& v) {
        float d = 0.0f;
        for (std::size_t n = 1; n <= kCapacity; n *= 2) {
            auto ref = std::make_unique<Naive<H, Align>>(&P.params.A[0][0], P.params.b);
            with_harness<H, Align>(v, P, [&](auto& m) {
                prefill<H>(*ref, P.states, n - 1, P.c0);
                prefill<H>(m, P.states, n - 1, P.c0);
                ref->step(P.x);
                m.step(P.x);
                d = std::fmax(d, outputs_diff<H>(m, *ref));
                prefill<H>(*ref, P.states, n, P.c0);
                prefill<H>(m, P.states, n, P.c0);
                ref->attend();
                m.attend();
                d = std::fmax(d, outputs_diff<H>(m, *ref));
            });
        }
        return d;
    };

    for (const Variant& v : vs) {
        if (v.kind == Kind::naive) continue;
        // The real model (or the peer) over a sequence, step by step, against the naive loops.
        float dseq = 0.0f;
        bool same_as_model = true;
        auto ref = std::make_unique<Naive<H, Align>>(&P.params.A[0][0], P.params.b);
        if (v.kind == Kind::ours) {
            if (sarnn::set_arch(v.arch) != sarnn::Status::ok) return false;
            auto model = std::make_unique<Model<H, Align>>(P.params);
            auto seen = std::make_unique<float[][H]>(kVerifySteps);  // h_1..h_t as the model stored them
            auto harness = std::make_unique<Ours<H, Align>>(P.params, v.arch);
            float c_prev[H] = {};
            for (std::size_t t = 1; t <= kVerifySteps; ++t) {
                ref->step(P.xs[t - 1]);
                if (model->step(P.xs[t - 1]) != sarnn::Status::ok) return false;
                std::memcpy(seen[t - 1], model->hidden().data(), sizeof(float) * H);
                dseq = std::fmax(dseq, max_abs_diff(model->hidden().data(), ref->hidden(), H));
                dseq = std::fmax(dseq, max_abs_diff(model->context().data(), ref->context(), H));
                dseq = std::fmax(dseq, max_abs_diff(model->attention().data(), ref->attention(), t));
                // A second model, loaded (ours.hpp) with the first one's h_1..h_{t-1} and c_{t-1}, must give
                // exactly its step t: the step/ benchmarks time a model so loaded.
                if (t == 1 || t == 2 || t == 3 || t == 17 || t == 100 || t == kVerifySteps) {
                    prefill<H>(*harness, seen.get(), t - 1, c_prev);
                    harness->step(P.xs[t - 1]);
                    same_as_model = same_as_model &&
                                    std::memcmp(harness->hidden(), model->hidden().data(), sizeof(float) * H) == 0 &&
                                    std::memcmp(harness->context(), model->context().data(), sizeof(float) * H) == 0 &&
                                    std::memcmp(harness->attention(), model->attention().data(), sizeof(float) * t) ==
                                        0;
                }
                std::memcpy(c_prev, model->context().data(), sizeof(float) * H);
            }
        } else {
            auto peer = std::make_unique<Eigen3<H, Align>>(&P.params.A[0][0], P.params.b);
            for (std::size_t t = 1; t <= kVerifySteps; ++t) {
                ref->step(P.xs[t - 1]);
                peer->step(P.xs[t - 1]);
                dseq = std::fmax(dseq, outputs_diff<H>(*peer, *ref));
            }
        }
        const float dh = harness_diff(v);
        const bool v_ok = dseq <= kTolerance && dh <= kTolerance && same_as_model;
        ok = ok && v_ok;
        char buf[200];
        std::snprintf(buf, sizeof buf, " %s %.1e/%.1e%s%s", v.label.c_str(), static_cast<double>(dseq),
                      static_cast<double>(dh), v.kind == Kind::ours ? (same_as_model ? " (=model)" : " (!=model)") : "",
                      v_ok ? "" : " FAIL");
        line += buf;
    }
    std::fprintf(stderr, "%s\n", line.c_str());
    return ok;
}

template <std::size_t H>
bool verify(const std::vector<Variant>& vs) {
    const sarnn::Arch before = sarnn::active_arch();
    const bool ok_dot = verify_align<H, sarnn::DotAlign>(vs);
    const bool ok_scaled = verify_align<H, sarnn::ScaledDotAlign>(vs);
    (void)sarnn::set_arch(before);
    return ok_dot && ok_scaled;
}

}  // namespace sarnn_bench

#define SARNN_BENCH_INSTANTIATE(H)                                   \
    namespace sarnn_bench {                                          \
    template const Problem<H>& problem<H>();                         \
    template bool verify<H>(const std::vector<Variant>&);            \
    template void register_context<H>(const std::vector<Variant>&);  \
    template void register_step<H>(const std::vector<Variant>&);     \
    template void register_sequence<H>(const std::vector<Variant>&); \
    }

#endif
