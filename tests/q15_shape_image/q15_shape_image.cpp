// tests/q15_shape_image/q15_shape_image.cpp: an M4F, M7 or M55 image (tests/firmware) of one Lstm<q15, 3, 8>, one
// Gru<q15, 5, 7> and one dot-align SelfAttentionRnn<q15, 3, 5, 6>, for check.cmake to read with nm: the models must
// have taken the q15 set's shaped forms of their own shapes (kernel::Q15Set<TargetLoops>::affine_at<32, 3, 8>,
// lstm_cell_at<8>, gru_gates_at<21, 5, 7>, gru_cell_at<7>, affine_tanh_at<5, 3, 5>) and none of its run-time
// affine_tanh, affine, gru_gates, lstm_cell, gru_cell. It also runs eight steps of each (the attention model's ring
// wraps) and prints the firmware tests' closing line.
#include <sarnn/sarnn.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>

namespace {
sarnn::LstmParams<sarnn::q15, 3, 8> g_lstm_params{};
sarnn::GruParams<sarnn::q15, 5, 7> g_gru_params{};
sarnn::RnnParams<sarnn::q15, 3, 5> g_rnn_params{};

/// weights 3, biases 100 (Q3.12), the rows' factors 2^30 / 2^(31 + 4) (a_r / 8 = 1/32), the input's 1
template <class P>
void fill(P& p) {
    sarnn::for_each_array(p, [](const char* name, auto* d, std::size_t n) {
        for (std::size_t k = 0; k < n; ++k) {
            if (std::strcmp(name, "m") == 0) {
                d[k] = static_cast<std::remove_pointer_t<decltype(d)>>(std::int32_t{1} << 30);
            } else if (std::strcmp(name, "shift") == 0) {
                d[k] = 4;
            } else if (std::strncmp(name, "b", 1) == 0) {
                d[k] = 100;
            } else {
                d[k] = 3;
            }
        }
        return false;
    });
    p.x_m = std::int32_t{1} << 30;
    p.x_shift = -1;
}
}  // namespace

int main() {
    fill(g_lstm_params);
    fill(g_gru_params);
    fill(g_rnn_params);
    sarnn::Lstm<sarnn::q15, 3, 8> lstm(g_lstm_params);
    sarnn::Gru<sarnn::q15, 5, 7> gru(g_gru_params);
    sarnn::SelfAttentionRnn<sarnn::q15, 3, 5, 6, sarnn::DotAlign, sarnn::Window> att(g_rnn_params);
    const sarnn::q15 x[5] = {{8000}, {-4000}, {2000}, {16000}, {-8000}};
    int ok = 1;
    for (int t = 0; t < 8; ++t) {
        if (lstm.step(x) != sarnn::Status::ok || gru.step(x) != sarnn::Status::ok || att.step(x) != sarnn::Status::ok)
            ok = 0;
    }
    long s = 0;
    for (sarnn::q15 v : lstm.hidden()) s += v.raw;
    for (sarnn::q15 v : gru.hidden()) s += v.raw;
    for (sarnn::q15 v : att.context()) s += v.raw;
    ok = ok && s != 0;
    // the closing line the firmware tests read (tests/firmware: "N passed, M failed")
    std::printf("sum of h: %ld\n%d passed, %d failed\n", s, ok, 1 - ok);
    return ok ? 0 : 1;
}
