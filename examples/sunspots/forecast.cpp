// examples/sunspots/forecast.cpp: next-year forecasts of the sunspot numbers by the exported models (train.py,
// `python3 -m sarnn.export`): SimpleRnn, SelfAttentionRnn (ScaledDotAlign, a Window of 16 states), and the Gru and
// Lstm of PyTorch's torch.nn.GRU and torch.nn.LSTM, each in float and in q15; those train.py trained
// (SUNSPOTS_HAS_<MODEL> in sunspots_data.hpp). One source for the host (sarnn_sunspots) and the Cortex-M presets
// (sarnn_sunspots_firmware.elf under qemu-system-arm with semihosting).
//
// Each model runs one stream from reset(): x_t = s_t / 100 for t = 1700 .. 2007, the training years as warm-up;
// after each step the readout (a Dense in flash, from sunspots_data.hpp) gives the forecast of the next year,
//     y_t = w·h_t + b,   ŝ_{t+1} = 100·y_t,
// with h_t = model.hidden() (q15: h_t = raw / 32768). Over the test years (forecasts of 1921 .. 2008) it checks:
//   float  |h_t - PyTorch's h_t| <= h_tolerance in every lane (the suite's float tolerance) and
//          |y_t - PyTorch's y_t| <= tolerance (sunspots_data.hpp);
//   q15    h_t equals the Python twin's int16 h_t bit for bit, |y_t - twin's y_t| <= twin_tolerance,
//          |y_t(q15) - y_t(float, this C++)| <= q15_gap, and (GRU, LSTM) |h_t(q15) - PyTorch's float h_t| <= h_gap
//          in every lane;
//   each   RMSE(ŝ, s) <= rmse_factor · RMSE(persistence), persistence: ŝ_{t+1} = s_t;
// and at start validate() of the float weights and every header's self_check(). It prints one line per forecast
// ("forecast <model> <type> <year> <value>"), one per model ("result ..." with RMSE, MAE, sizeof, the largest
// |h_t| errors and, with SUNSPOTS_COUNT, the instructions per step() under qemu -icount, counted as bench/mcu counts
// them), and "N passed, N failed"; exit status 0 only when nothing failed. No heap: the models are static objects.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <type_traits>

#include <sarnn/sarnn.hpp>

// train.py: inputs, truth, readouts, PyTorch's and the twin's states and forecasts; SUNSPOTS_HAS_<MODEL>
#include "sunspots_data.hpp"

// python3 -m sarnn.export: Model, params, self_check(); ... --quantize int8: also quantize_input()
#ifdef SUNSPOTS_HAS_SIMPLE
#include "sunspots_simple.hpp"
#include "sunspots_simple_q15.hpp"
#endif
#ifdef SUNSPOTS_HAS_ATTENTION
#include "sunspots_attention.hpp"
#include "sunspots_attention_q15.hpp"
#endif
#ifdef SUNSPOTS_HAS_GRU
#include "sunspots_gru.hpp"
#include "sunspots_gru_q15.hpp"
#endif
#ifdef SUNSPOTS_HAS_LSTM
#include "sunspots_lstm.hpp"
#include "sunspots_lstm_q15.hpp"
#endif

#ifdef SUNSPOTS_COUNT
#include "counter.hpp"  // bench/mcu: instructions from SysTick under qemu -icount
#endif
#ifndef SUNSPOTS_TARGET
#define SUNSPOTS_TARGET "host"
#endif

namespace {

namespace d = sunspots_data;
static_assert(d::warm + d::test_count == d::steps, "the test years end the stream");

/// One model's float and q15 headers: their sizes must be sunspots_data.hpp's.
template <class Float, class Q15>
constexpr bool fits() {
    return Float::in_size == 1 && Q15::in_size == 1 && Float::hidden_size == d::hidden_size &&
           Q15::hidden_size == d::hidden_size;
}

#ifdef SUNSPOTS_HAS_SIMPLE
static_assert(fits<sunspots_simple::Model, sunspots_simple_q15::Model>(), "simple: the headers and the data differ");
sunspots_simple::Model g_simple{sunspots_simple::params};
sunspots_simple_q15::Model g_simple_q15{sunspots_simple_q15::params};
#endif
#ifdef SUNSPOTS_HAS_ATTENTION
static_assert(fits<sunspots_attention::Model, sunspots_attention_q15::Model>(),
              "attention: the headers and the data differ");
sunspots_attention::Model g_attention{sunspots_attention::params};
sunspots_attention_q15::Model g_attention_q15{sunspots_attention_q15::params};
#endif
#ifdef SUNSPOTS_HAS_GRU
static_assert(fits<sunspots_gru::Model, sunspots_gru_q15::Model>(), "gru: the headers and the data differ");
sunspots_gru::Model g_gru{sunspots_gru::params};
sunspots_gru_q15::Model g_gru_q15{sunspots_gru_q15::params};
#endif
#ifdef SUNSPOTS_HAS_LSTM
static_assert(fits<sunspots_lstm::Model, sunspots_lstm_q15::Model>(), "lstm: the headers and the data differ");
sunspots_lstm::Model g_lstm{sunspots_lstm::params};
sunspots_lstm_q15::Model g_lstm_q15{sunspots_lstm_q15::params};
#endif

float g_float[d::test_count];  // this C++'s float forecasts y_t (scaled) of the model being run
float g_q15[d::test_count];    // its q15 forecasts

int g_passed = 0;
int g_failed = 0;

bool check(bool ok, const char* what) {
    if (ok) {
        ++g_passed;
    } else {
        ++g_failed;
        std::printf("FAIL %s\n", what);
    }
    return ok;
}

float absf(float v) { return v < 0.0f ? -v : v; }

/// y = w·h + b (float; h_k = raw / 32768 for q15).
float readout(const d::Forecasts& f, const sarnn::View<float>& h) {
    float sum = f.b;
    for (std::size_t k = 0; k < d::hidden_size; ++k) sum += f.w[k] * h[k];
    return sum;
}
float readout(const d::Forecasts& f, const sarnn::View<sarnn::q15>& h) {
    float sum = f.b;
    for (std::size_t k = 0; k < d::hidden_size; ++k) sum += f.w[k] * (static_cast<float>(h[k].raw) * (1.0f / 32768.0f));
    return sum;
}

/// One step of a model on x_t: float models take it as is, q15 ones through the header's quantize_input().
template <class Model>
sarnn::Status feed(Model& m, float x, void (*quantize_input)(const float*, sarnn::q15*) noexcept) {
    if constexpr (std::is_same_v<typename Model::value_type, float>) {
        (void)quantize_input;
        return m.step(&x);
    } else {
        sarnn::q15 raw[1];
        quantize_input(&x, raw);
        return m.step(raw);
    }
}

/// h_t's lane k as a float (q15: raw / 32768).
float lane(const sarnn::View<float>& h, std::size_t k) { return h[k]; }
float lane(const sarnn::View<sarnn::q15>& h, std::size_t k) { return static_cast<float>(h[k].raw) * (1.0f / 32768.0f); }

/// Whether a q15 model's h_t is the twin's, lane for lane.
bool same_state(const sarnn::View<sarnn::q15>& h, const std::int16_t (&twin)[d::hidden_size]) {
    bool same = true;
    for (std::size_t k = 0; k < d::hidden_size; ++k) same = same && h[k].raw == twin[k];
    return same;
}
bool same_state(const sarnn::View<float>&, const std::int16_t (&)[d::hidden_size]) { return true; }

/// What the checks of a model's cell c_t found (the LSTM's; the other models have none).
struct CellErrors {
    bool has = false;           // the model has a cell
    float worst = 0.0f;         // float: largest |c_t - PyTorch's c_t|
    int first_diff = -1;        // q15: the first test step whose Q3.12 c_t differs from the twin's
    std::size_t saturated = 0;  // q15: Lstm<q15>::saturated() after the stream
};

#ifdef SUNSPOTS_HAS_LSTM
/// The LSTM's c_t in test step i against PyTorch's (float) or the twin's Q3.12 integers (q15).
void observe_cell(const sunspots_lstm::Model& m, std::size_t i, CellErrors& e) {
    e.has = true;
    for (std::size_t k = 0; k < d::hidden_size; ++k) {
        const float dc = absf(m.cell()[k] - d::lstm_cells.pytorch_c[i][k]);
        if (!(dc <= e.worst)) e.worst = dc;
    }
}
void observe_cell(const sunspots_lstm_q15::Model& m, std::size_t i, CellErrors& e) {
    e.has = true;
    bool same = true;
    for (std::size_t k = 0; k < d::hidden_size; ++k) same = same && m.cell()[k].raw == d::lstm_cells.twin_c[i][k];
    if (!same && e.first_diff < 0) e.first_diff = static_cast<int>(i);
    e.saturated = m.saturated();
}
#endif
template <class Model>
void observe_cell(const Model&, std::size_t, CellErrors&) {}  // no cell

/// The checks of a cell's errors, after the stream.
void check_cell(const CellErrors& e, bool is_q15, const char* name) {
    if (!e.has) return;
    if (is_q15) {
        std::printf("cell %s q15 saturated %u\n", name, static_cast<unsigned>(e.saturated));
        if (e.first_diff >= 0)
            std::printf("  c_t differs from the twin's first in %d\n", d::first_test_year + e.first_diff);
        check(e.first_diff < 0, "q15: c_t equals the Python twin's Q3.12 c_t in every test year");
#ifdef SUNSPOTS_HAS_LSTM
        check(e.saturated == d::lstm_cells.twin_saturated, "q15: saturated() equals the twin's count of clamped lanes");
#endif
    } else {
        std::printf("cell %s float max|dc| %.2e\n", name, static_cast<double>(e.worst));
        check(e.worst <= d::h_tolerance, "float: c_t within h_tolerance of PyTorch's");
    }
}

struct Run {
    const char* name;  // "simple", "attention", "gru" or "lstm"
    const char* type;  // "float" or "q15"
    const d::Forecasts& data;
    std::size_t bytes;  // sizeof the model
    bool cell;          // a GRU or an LSTM: q15 h_t within h_gap of the float h_t
};

/// The stream through model m: warm-up, then the test years with their checks; `out` gets the forecasts y_t.
template <class Model>
void run(Model& m, const Run& r, float (&out)[d::test_count], const float* float_out,
         void (*quantize_input)(const float*, sarnn::q15*) noexcept) {
    constexpr bool is_q15 = !std::is_same_v<typename Model::value_type, float>;
    m.reset();
    bool ok = true;
    for (std::size_t t = 0; t < d::warm; ++t) ok = ok && feed(m, d::x[t], quantize_input) == sarnn::Status::ok;
#ifdef SUNSPOTS_COUNT
    const mcu::Calibration cal = mcu::calibrate();
    std::uint64_t ticks = 0;
#endif
    int worst_state = -1;    // the first test step whose h_t differs from the twin's
    float worst = 0.0f;      // largest |y_t - reference|
    float worst_gap = 0.0f;  // q15: largest |y_t - this C++'s float y_t|
    float worst_h = 0.0f;    // largest |h_t - PyTorch's float h_t| over the lanes
    CellErrors cell;         // the LSTM's c_t
    double se = 0.0;
    double ae = 0.0;
    for (std::size_t i = 0; i < d::test_count; ++i) {
#ifdef SUNSPOTS_COUNT
        const std::uint32_t t0 = mcu::SysTick::now();
#endif
        const sarnn::Status s = feed(m, d::x[d::warm + i], quantize_input);
#ifdef SUNSPOTS_COUNT
        const std::uint32_t t1 = mcu::SysTick::now();
        ticks += mcu::SysTick::since(t0, t1);
#endif
        ok = ok && s == sarnn::Status::ok;
        const auto h = m.hidden();
        out[i] = readout(r.data, h);
        if (!same_state(h, r.data.twin_h[i]) && worst_state < 0) worst_state = static_cast<int>(i);
        observe_cell(m, i, cell);
        for (std::size_t k = 0; k < d::hidden_size; ++k) {
            const float dh = absf(lane(h, k) - r.data.pytorch_h[i][k]);
            if (!(dh <= worst_h)) worst_h = dh;
        }
        const float ref = is_q15 ? r.data.twin[i] : r.data.pytorch[i];
        const float diff = absf(out[i] - ref);
        if (!(diff <= worst)) worst = diff;
        if (float_out != nullptr) {
            const float gap = absf(out[i] - float_out[i]);
            if (!(gap <= worst_gap)) worst_gap = gap;
        }
        // ŝ_{t+1} = 100·y_t against s_{t+1}
        const double err = static_cast<double>(out[i]) * static_cast<double>(d::scale) -
                           static_cast<double>(d::truth[i]);
        se += err * err;
        ae += err < 0.0 ? -err : err;
        std::printf("forecast %s %s %d %.4f\n", r.name, r.type, d::first_test_year + static_cast<int>(i),
                    static_cast<double>(out[i]) * static_cast<double>(d::scale));
    }
    const double n = static_cast<double>(d::test_count);
    const double rmse = std::sqrt(se / n);
    const double mae = ae / n;
    std::uint32_t instr = 0;
#ifdef SUNSPOTS_COUNT
    instr = mcu::instructions(cal, ticks, static_cast<std::uint32_t>(d::test_count));
#endif
    std::printf("result %s %s rmse %.3f mae %.3f sizeof %u instructions %u max|dy| %.2e gap %.4f max|dh| %.2e\n",
                r.name, r.type, rmse, mae, static_cast<unsigned>(r.bytes), static_cast<unsigned>(instr),
                static_cast<double>(worst), static_cast<double>(worst_gap) * static_cast<double>(d::scale),
                static_cast<double>(worst_h));
    check(ok, "every step() returned Status::ok");
    if (is_q15) {
        if (worst_state >= 0)
            std::printf("  h_t differs from the twin's first in %d\n", d::first_test_year + worst_state);
        check(worst_state < 0, "q15: h_t equals the Python twin's int16 h_t in every test year");
        check(worst <= d::twin_tolerance, "q15: forecasts within twin_tolerance of the twin's");
        check(worst_gap <= d::q15_gap, "q15: forecasts within q15_gap of this C++'s float forecasts");
        if (r.cell) check(worst_h <= d::h_gap, "q15: h_t within h_gap of PyTorch's float h_t");
    } else {
        check(worst_h <= d::h_tolerance, "float: h_t within h_tolerance of PyTorch's");
        check(worst <= d::tolerance, "float: forecasts within tolerance of PyTorch's");
    }
    check_cell(cell, is_q15, r.name);
    check(rmse <= static_cast<double>(d::rmse_factor) * static_cast<double>(d::persistence_rmse),
          "test RMSE within rmse_factor of persistence's");
}

/// A model in float, then in q15 (its gap against the float forecasts just made).
template <class Float, class Q15>
void run_both(const char* name, const d::Forecasts& data, Float& f, Q15& q,
              void (*quantize_input)(const float*, sarnn::q15*) noexcept, bool cell) {
    run(f, {name, "float", data, sizeof f, cell}, g_float, nullptr, nullptr);
    run(q, {name, "q15", data, sizeof q, cell}, g_q15, g_float, quantize_input);
}

}  // namespace

int main() {
    std::printf("sunspots on %s: forecasts of %d .. %d after a warm-up on 1700 .. %d; persistence RMSE %.3f MAE %.3f\n",
                SUNSPOTS_TARGET, d::first_test_year, d::first_test_year + static_cast<int>(d::test_count) - 1,
                d::first_test_year - 2, static_cast<double>(d::persistence_rmse),
                static_cast<double>(d::persistence_mae));
#ifdef SUNSPOTS_HAS_SIMPLE
    check(sarnn::validate(sunspots_simple::params).status == sarnn::Status::ok, "validate(): simple's float weights");
    check(sunspots_simple::self_check(g_simple), "self_check(): sunspots_simple.hpp");
    check(sunspots_simple_q15::self_check(g_simple_q15), "self_check(): sunspots_simple_q15.hpp");
    run_both("simple", d::simple, g_simple, g_simple_q15, &sunspots_simple_q15::quantize_input, false);
#endif
#ifdef SUNSPOTS_HAS_ATTENTION
    check(sarnn::validate(sunspots_attention::params).status == sarnn::Status::ok,
          "validate(): attention's float weights");
    check(sunspots_attention::self_check(g_attention), "self_check(): sunspots_attention.hpp");
    check(sunspots_attention_q15::self_check(g_attention_q15), "self_check(): sunspots_attention_q15.hpp");
    run_both("attention", d::attention, g_attention, g_attention_q15, &sunspots_attention_q15::quantize_input, false);
#endif
#ifdef SUNSPOTS_HAS_GRU
    check(sarnn::validate(sunspots_gru::params).status == sarnn::Status::ok, "validate(): gru's float weights");
    check(sunspots_gru::self_check(g_gru), "self_check(): sunspots_gru.hpp");
    check(sunspots_gru_q15::self_check(g_gru_q15), "self_check(): sunspots_gru_q15.hpp");
    run_both("gru", d::gru, g_gru, g_gru_q15, &sunspots_gru_q15::quantize_input, true);
#endif
#ifdef SUNSPOTS_HAS_LSTM
    check(sarnn::validate(sunspots_lstm::params).status == sarnn::Status::ok, "validate(): lstm's float weights");
    check(sunspots_lstm::self_check(g_lstm), "self_check(): sunspots_lstm.hpp");
    check(sunspots_lstm_q15::self_check(g_lstm_q15), "self_check(): sunspots_lstm_q15.hpp");
    run_both("lstm", d::lstm, g_lstm, g_lstm_q15, &sunspots_lstm_q15::quantize_input, true);
#endif
    std::printf("%d passed, %d failed\n", g_passed, g_failed);
    return g_failed == 0 ? 0 : 1;
}
