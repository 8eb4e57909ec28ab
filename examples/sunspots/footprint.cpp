// examples/sunspots/footprint.cpp: the programs whose sizes give each model's flash, as tools/footprint measures
// it (report.py: flash = .init + .text + .rodata + the load image of .data, model ELF minus baseline ELF, from
// arm-none-eabi-size -A).
//
// Without SUNSPOTS_FP_HEADER it is the baseline: it reads x_t from a volatile, computes a float y = 1.5·x + 0.25 and
// prints it, STEPS times. With SUNSPOTS_FP_HEADER (an exported header, e.g. "sunspots_gru_q15.hpp"), SUNSPOTS_FP_NS
// (its namespace), SUNSPOTS_FP_DATA (the model's readout in sunspots_data.hpp, e.g. gru) and, for a q15 header,
// SUNSPOTS_FP_Q15, it does the same through that model and its readout instead, as forecast.cpp runs them (a q15
// model with the header's quantize_input() and the float readout y = w·h + b, h = raw / 32768). So the difference is
// the model's code, its weights and its readout's in flash; its RAM is sizeof the model (printed).
#include <cstddef>
#include <cstdio>

#include <sarnn/sarnn.hpp>

#include "sunspots_data.hpp"

#ifdef SUNSPOTS_FP_HEADER
#include SUNSPOTS_FP_HEADER
namespace m = SUNSPOTS_FP_NS;
#endif

namespace {

constexpr std::size_t kSteps = 4;
volatile float g_input = 0.5f;  // not a constant: the compiler cannot fold the steps

#ifdef SUNSPOTS_FP_HEADER
m::Model g_model{m::params};

/// The readout alone (w, b), copied at compile time: the rest of sunspots_data.hpp stays out of the image.
struct Dense {
    float w[sunspots_data::hidden_size];
    float b;
};
constexpr Dense dense(const sunspots_data::Forecasts& f) {
    Dense out{};
    for (std::size_t k = 0; k < sunspots_data::hidden_size; ++k) out.w[k] = f.w[k];
    out.b = f.b;
    return out;
}
constexpr Dense kReadout = dense(sunspots_data::SUNSPOTS_FP_DATA);
#ifdef SUNSPOTS_FP_Q15
float value(sarnn::q15 v) { return static_cast<float>(v.raw) * (1.0f / 32768.0f); }
#else
float value(float v) { return v; }
#endif

float step(float x) {
#ifdef SUNSPOTS_FP_Q15
    sarnn::q15 raw[1];
    m::quantize_input(&x, raw);
    if (g_model.step(raw) != sarnn::Status::ok) return 0.0f;
#else
    if (g_model.step(&x) != sarnn::Status::ok) return 0.0f;
#endif
    const auto h = g_model.hidden();
    float y = kReadout.b;  // y = w·h + b
    for (std::size_t k = 0; k < sunspots_data::hidden_size; ++k) y += kReadout.w[k] * value(h[k]);
    return y;
}
#else
float step(float x) { return 1.5f * x + 0.25f; }
#endif

}  // namespace

int main() {
    for (std::size_t t = 0; t < kSteps; ++t) std::printf("%.4f\n", static_cast<double>(step(g_input)));
#ifdef SUNSPOTS_FP_HEADER
    std::printf("sizeof(model) %u\n", static_cast<unsigned>(sizeof g_model));
#endif
    std::printf("1 passed, 0 failed\n");
    return 0;
}
