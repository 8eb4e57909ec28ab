// tests/shape_image/shape_image.cpp: an image with one Lstm<float, 3, 8> and one Gru<float, 5, 7> on the default set
// (AArch64: kernel::Neon64, ARMv7: kernel::Neon; Cortex-M4F and M7, as tests/firmware builds it: kernel::CortexM),
// for check.cmake to read with nm: the models must have taken the shaped forms of their own shapes
// (sarnn::kernel::neon::Shaped::gemv<32, 3, 3>, sarnn::kernel::cortex_m::Shaped::gemv<32, 3, 3>, ...) and the set's run-time
// gemv, gemv_add, lstm_cell and gru_cell must not be in the image. Also one SelfAttentionRnn<float, 3, 5, 6,
// DotAlign, Window>, whose context must be neon::Shaped::attend_dot<5, 8, 7> on NEON (Window keeps a spare row),
// cortex_m::Shaped::attend_dot<5, 5, 7> on the M4F and M7 (rows unpadded), not the set's run-time attend_dot; on Helium (Cortex-M55: kernel::Mve) the same model, whose shaped parts are
// sarnn::kernel::mve_shaped::rows_product<...>, dot_scores<5, 8, 7>, ... It also runs: a step of each (the attention
// model eight, so that its ring wraps), h finite.
#include <sarnn/sarnn.hpp>

#include <cmath>
#include <cstdio>

namespace {
sarnn::LstmParams<float, 3, 8> g_lstm_params{};
sarnn::GruParams<float, 5, 7> g_gru_params{};
sarnn::RnnParams<float, 3, 5> g_rnn_params{};
}  // namespace

int main() {
    // weights of 0.1 everywhere: each step's h is finite and non-zero
    sarnn::for_each_array(g_lstm_params, [](const char*, float* d, std::size_t n) {
        for (std::size_t k = 0; k < n; ++k) d[k] = 0.1f;
        return false;
    });
    sarnn::for_each_array(g_gru_params, [](const char*, float* d, std::size_t n) {
        for (std::size_t k = 0; k < n; ++k) d[k] = 0.1f;
        return false;
    });
    sarnn::for_each_array(g_rnn_params, [](const char*, float* d, std::size_t n) {
        for (std::size_t k = 0; k < n; ++k) d[k] = 0.1f;
        return false;
    });
    sarnn::Lstm<float, 3, 8> lstm(g_lstm_params);
    sarnn::Gru<float, 5, 7> gru(g_gru_params);
    const float x[5] = {1.0f, -0.5f, 0.25f, 2.0f, -1.0f};
    if (lstm.step(x) != sarnn::Status::ok || gru.step(x) != sarnn::Status::ok) return 1;
    float s = 0.0f;
    for (float v : lstm.hidden()) s += v;
    for (float v : gru.hidden()) s += v;
    sarnn::SelfAttentionRnn<float, 3, 5, 6, sarnn::DotAlign, sarnn::Window> att(g_rnn_params);
    for (int t = 0; t < 8; ++t)
        if (att.step(x) != sarnn::Status::ok) return 1;
    for (float v : att.context()) s += v;
    const bool ok = std::isfinite(s) && s != 0.0f;
    // the closing line the firmware tests read (tests/firmware: "N passed, M failed")
    std::printf("sum of h: %g\n%d passed, %d failed\n", static_cast<double>(s), ok ? 1 : 0, ok ? 0 : 1);
    return ok ? 0 : 1;
}
