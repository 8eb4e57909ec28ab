// examples/sunspots/footprint.cpp: the programs whose sizes give each model's flash, as tools/footprint measures
// it (report.py: flash = .init + .text + .rodata + the load image of .data, model ELF minus baseline ELF, from
// arm-none-eabi-size -A).
//
// SUNSPOTS_FP_MODEL 0 is the baseline: it reads x_t from a volatile, computes a float y = 1.5·x + 0.25 and prints
// it, STEPS times. 1 .. 4 do the same through a model and its readout instead, as forecast.cpp runs them:
// 1 SimpleRnn float, 2 SelfAttentionRnn float, 3 SimpleRnn q15, 4 SelfAttentionRnn q15 (the q15 ones with the
// header's quantize_input() and the float readout y = w·h + b, h = raw / 32768). So the difference is the model's
// code, its weights and its readout's in flash; its RAM is sizeof the model (printed).
#include <cstddef>
#include <cstdio>

#include <sarnn/sarnn.hpp>

#include "sunspots_data.hpp"

#ifndef SUNSPOTS_FP_MODEL
#define SUNSPOTS_FP_MODEL 0
#endif

#if SUNSPOTS_FP_MODEL == 1
#include "sunspots_simple.hpp"
namespace m = sunspots_simple;
#elif SUNSPOTS_FP_MODEL == 2
#include "sunspots_attention.hpp"
namespace m = sunspots_attention;
#elif SUNSPOTS_FP_MODEL == 3
#include "sunspots_simple_q15.hpp"
namespace m = sunspots_simple_q15;
#elif SUNSPOTS_FP_MODEL == 4
#include "sunspots_attention_q15.hpp"
namespace m = sunspots_attention_q15;
#endif

namespace {

constexpr std::size_t kSteps = 4;
volatile float g_input = 0.5f;  // not a constant: the compiler cannot fold the steps

#if SUNSPOTS_FP_MODEL != 0
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
constexpr Dense kReadout = dense(SUNSPOTS_FP_MODEL % 2 == 1 ? sunspots_data::simple : sunspots_data::attention);
#if SUNSPOTS_FP_MODEL <= 2
float value(float v) { return v; }
#else
float value(sarnn::q15 v) { return static_cast<float>(v.raw) * (1.0f / 32768.0f); }
#endif

float step(float x) {
#if SUNSPOTS_FP_MODEL <= 2
    if (g_model.step(&x) != sarnn::Status::ok) return 0.0f;
#else
    sarnn::q15 raw[1];
    m::quantize_input(&x, raw);
    if (g_model.step(raw) != sarnn::Status::ok) return 0.0f;
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
#if SUNSPOTS_FP_MODEL != 0
    std::printf("sizeof(model) %u\n", static_cast<unsigned>(sizeof g_model));
#endif
    std::printf("1 passed, 0 failed\n");
    return 0;
}
