// bench/bench_cell.cpp: the per-step benchmarks and the agreement check of the plain cells, Gru and Lstm, In = 32,
// float, Hidden = 16, 32, 64, 128.
//
//   step/gru/H<Hidden>/<variant>, step/lstm/H<Hidden>/<variant>
//     One step() of the cell; a cell's step costs the same from any state, so each iteration is one more step of
//     the same model on the same x. Ours: the model's own step() (OursCell, ours.hpp); peers: naive_cell.hpp
//     (plain loops) and eigen_cell.hpp (Eigen 3.4 fixed-size). Flops: flops_step_gru / flops_step_lstm
//     (common.hpp). Items: 1 step.
//
// Agreement: every variant runs kCellSteps steps from reset() on the same inputs; h (and the LSTM's c) after each
// step within kTolerance of the naive loops, or the binary refuses to time anything.
#include "eigen_cell.hpp"  // first: it includes eigen_dot.hpp before any other Eigen header

#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdio>
#include <memory>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include <sarnn/sarnn.hpp>

#include "common.hpp"
#include "naive_cell.hpp"
#include "ours.hpp"

namespace sarnn_bench {
namespace {

constexpr std::size_t kCellSteps = 64;  ///< steps of the agreement check

template <std::size_t H>
struct CellProblem {
    sarnn::GruParams<float, kIn, H> gru;    ///< every array uniform in ±1/sqrt(Hidden) (PyTorch's init)
    sarnn::LstmParams<float, kIn, H> lstm;  ///< the same
    float xs[kCellSteps][kIn];              ///< inputs, uniform in ±1
};

template <std::size_t H>
const CellProblem<H>& cell_problem() {
    static const std::unique_ptr<CellProblem<H>> p = [] {
        auto q = std::make_unique<CellProblem<H>>();
        std::mt19937 rng(0xce11u + static_cast<unsigned>(H));
        const float a = 1.0f / std::sqrt(static_cast<float>(H));
        std::uniform_real_distribution<float> uh(-a, a), u1(-1.0f, 1.0f);
        auto fill = [&](auto& dist, float* v, std::size_t count) {
            for (std::size_t i = 0; i < count; ++i) v[i] = dist(rng);
        };
        fill(uh, &q->gru.W_ih[0][0], 3 * H * kIn);
        fill(uh, &q->gru.W_hh[0][0], 3 * H * H);
        fill(uh, q->gru.b_ih, 3 * H);
        fill(uh, q->gru.b_hh, 3 * H);
        fill(uh, &q->lstm.W_ih[0][0], 4 * H * kIn);
        fill(uh, &q->lstm.W_hh[0][0], 4 * H * H);
        fill(uh, q->lstm.b, 4 * H);
        fill(u1, &q->xs[0][0], kCellSteps * kIn);
        return q;
    }();
    return *p;
}

template <std::size_t H>
typename NaiveGru<kIn, H>::Weights gru_weights(const CellProblem<H>& q) {
    return {&q.gru.W_ih[0][0], &q.gru.W_hh[0][0], q.gru.b_ih, q.gru.b_hh};
}
template <std::size_t H>
typename NaiveLstm<kIn, H>::Weights lstm_weights(const CellProblem<H>& q) {
    return {&q.lstm.W_ih[0][0], &q.lstm.W_hh[0][0], q.lstm.b};
}

/// Calls f(model) with the variant's GRU (false: gru) or LSTM (true: lstm), built on the heap outside any timing.
template <bool IsLstm, std::size_t H, class F>
void with_cell(const Variant& v, F&& f) {
    const CellProblem<H>& q = cell_problem<H>();
    constexpr int kI = static_cast<int>(kIn), kH = static_cast<int>(H);
    if constexpr (IsLstm) {
        if (v.kind == Kind::ours) {
            auto m = std::make_unique<OursCell<sarnn::Lstm, kIn, H>>(q.lstm, v.arch);
            f(*m);
        } else if (v.kind == Kind::eigen) {
            auto m = std::make_unique<EigenLstm<kI, kH>>(lstm_weights(q));
            f(*m);
        } else {
            auto m = std::make_unique<NaiveLstm<kIn, H>>(lstm_weights(q));
            f(*m);
        }
    } else {
        if (v.kind == Kind::ours) {
            auto m = std::make_unique<OursCell<sarnn::Gru, kIn, H>>(q.gru, v.arch);
            f(*m);
        } else if (v.kind == Kind::eigen) {
            auto m = std::make_unique<EigenGru<kI, kH>>(gru_weights(q));
            f(*m);
        } else {
            auto m = std::make_unique<NaiveGru<kIn, H>>(gru_weights(q));
            f(*m);
        }
    }
}

template <bool IsLstm, std::size_t H>
void bm_cell_step(benchmark::State& st, const Variant& v) {
    const CellProblem<H>& q = cell_problem<H>();
    with_cell<IsLstm, H>(v, [&](auto& m) {
        m.reset();
        for (std::size_t t = 0; t < 8; ++t) (void)m.step(q.xs[t]);  // a state away from h = 0
        for (auto _ : st) {
            (void)m.step(q.xs[8]);
            benchmark::DoNotOptimize(m.hidden());
            benchmark::ClobberMemory();
        }
    });
    const double flops = IsLstm ? flops_step_lstm(H) : flops_step_gru(H);
    st.SetItemsProcessed(static_cast<std::int64_t>(st.iterations()));
    st.counters["GFLOPS"] = benchmark::Counter(static_cast<double>(st.iterations()) * flops * 1e-9,
                                               benchmark::Counter::kIsRate);
}

/// max |diff| of h (and c) over kCellSteps steps from reset(), the variant against the naive loops.
template <bool IsLstm, std::size_t H>
float cell_diff(const Variant& v) {
    const CellProblem<H>& q = cell_problem<H>();
    float d = 0.0f;
    with_cell<IsLstm, H>(v, [&](auto& m) {
        with_cell<IsLstm, H>(Variant{"naive", Kind::naive, sarnn::Arch::scalar}, [&](auto& ref) {
            m.reset();
            ref.reset();
            for (std::size_t t = 0; t < kCellSteps; ++t) {
                if constexpr (std::is_void_v<decltype(m.step(q.xs[t]))>)
                    m.step(q.xs[t]);
                else if (m.step(q.xs[t]) != sarnn::Status::ok)
                    d = INFINITY;
                ref.step(q.xs[t]);
                d = std::fmax(d, max_abs_diff(m.hidden(), ref.hidden(), H));
                if constexpr (IsLstm) d = std::fmax(d, max_abs_diff(m.cell(), ref.cell(), H));
            }
        });
    });
    return d;
}

template <std::size_t H>
bool verify_cells_at(const std::vector<Variant>& vs) {
    bool ok = true;
    for (const bool lstm : {false, true}) {
        std::string line = std::string("sarnn_bench: verify ") + (lstm ? "lstm" : "gru") + " H=" + std::to_string(H) +
                           " (max abs diff of h" + (lstm ? " and c" : "") + " vs naive over " +
                           std::to_string(kCellSteps) + " steps):";
        for (const Variant& v : vs) {
            if (v.kind == Kind::naive) continue;
            const float d = lstm ? cell_diff<true, H>(v) : cell_diff<false, H>(v);
            char buf[64];
            std::snprintf(buf, sizeof buf, " %s %.2e", v.label.c_str(), static_cast<double>(d));
            line += buf;
            if (!(d <= kTolerance)) {
                line += " FAIL";
                ok = false;
            }
        }
        std::fprintf(stderr, "%s\n", line.c_str());
    }
    return ok;
}

std::string cell_family(const char* cell, std::size_t hidden, const Variant& v) {
    return std::string("step/") + cell + "/H" + std::to_string(hidden) + "/" + v.label;
}

template <std::size_t H>
void register_cells_at(const std::vector<Variant>& vs) {
    for (const Variant& v : vs) {
        benchmark::RegisterBenchmark(cell_family("gru", H, v).c_str(),
                                     [v](benchmark::State& st) { bm_cell_step<false, H>(st, v); });
        benchmark::RegisterBenchmark(cell_family("lstm", H, v).c_str(),
                                     [v](benchmark::State& st) { bm_cell_step<true, H>(st, v); });
    }
}

}  // namespace

bool verify_cells(const std::vector<Variant>& vs, bool quick) {
    bool ok = verify_cells_at<16>(vs);
    if (!quick) ok = verify_cells_at<32>(vs) && ok;
    ok = verify_cells_at<64>(vs) && ok;
    if (!quick) ok = verify_cells_at<128>(vs) && ok;
    return ok;
}

void register_cells(const std::vector<Variant>& vs) {
    register_cells_at<16>(vs);
    register_cells_at<32>(vs);
    register_cells_at<64>(vs);
    register_cells_at<128>(vs);
}

}  // namespace sarnn_bench
