// examples/firmware/main.cpp: a small firmware that runs sarnn: a SelfAttentionRnn over a stream of sensor
// samples, its weights `constexpr` (they stay in flash, the model refers to them), the model itself a global (its
// RAM is sizeof(Model), known at link time), a Window memory (an endless stream in constant RAM and time).
// Prints the output every 8 steps over semihosting and checks what must hold at every step: the status, |h| <= 1,
// the attention weights summing to 1 over the states attended. Ends with "N passed, N failed"; exit status 0 only
// when nothing failed. No heap, no exceptions, no float printing (values are shown in thousandths).
#include <cstddef>
#include <cstdio>

#include <sarnn/sarnn.hpp>

namespace {

constexpr std::size_t In = 3;         // x_i: three sensor channels
constexpr std::size_t Hidden = 8;     // h_i, c_i
constexpr std::size_t Capacity = 16;  // the newest 16 states are attended
using Model = sarnn::SelfAttentionRnn<float, In, Hidden, Capacity, sarnn::ScaledDotAlign, sarnn::Window>;

// The weights: in a real firmware, the header python/sarnn's exporter writes from a trained model; here a fixed
// pattern, computed at compile time.
constexpr Model::Params make_params() {
    Model::Params p{};
    for (std::size_t r = 0; r < Hidden; ++r) {
        for (std::size_t k = 0; k < In + Hidden; ++k)
            p.A[r][k] = 0.12f * static_cast<float>(static_cast<int>((r * 7 + k * 3) % 11) - 5);
        p.b[r] = 0.02f * static_cast<float>(static_cast<int>(r) - 4);
    }
    return p;
}
constexpr Model::Params kParams = make_params();  // in flash (.rodata)

Model g_model{kParams};  // in RAM: the memory of Capacity + 1 states, c, alpha; nothing else

/// A sensor sample at time t: triangle waves of periods 12, 20 and 7, in [-1, 1].
float channel(int t, int period) {
    const int phase = t % period;
    const float half = static_cast<float>(period) / 2.0f;
    return (phase < period / 2 ? static_cast<float>(phase) : static_cast<float>(period - phase)) / half * 2.0f - 1.0f;
}

int milli(float v) { return static_cast<int>(v * 1000.0f + (v < 0 ? -0.5f : 0.5f)); }

}  // namespace

int main() {
    int passed = 0;
    int failed = 0;
    auto expect = [&](bool ok, const char* what, int t) {
        if (ok) {
            ++passed;
        } else {
            ++failed;
            std::printf("FAIL step %d: %s\n", t, what);
        }
    };

    for (int t = 1; t <= 48; ++t) {
        const float x[In] = {channel(t, 12), channel(t, 20), channel(t, 7)};
        // h_i = tanh(A·[x_i; c_{i-1}] + b); alpha_ij = softmax_j(h_j·h_i / sqrt(Hidden)); c_i = Σ_j alpha_ij h_j
        expect(g_model.step(x) == sarnn::Status::ok, "step() is ok", t);

        const auto h = g_model.hidden();
        bool bounded = true;
        for (float v : h) bounded = bounded && v >= -1.0f && v <= 1.0f;
        expect(bounded, "|h| <= 1", t);

        float sum = 0.0f;
        for (float a : g_model.attention()) sum += a;
        expect(sum > 0.9999f && sum < 1.0001f, "the attention weights sum to 1", t);
        expect(g_model.attended() == (t < static_cast<int>(Capacity) ? static_cast<std::size_t>(t) : Capacity),
               "the Window attends min(i, Capacity) states", t);

        if (t % 8 == 0) {
            std::printf("step %2d  c (x1000):", t);
            for (float v : g_model.context()) std::printf(" %5d", milli(v));
            std::printf("\n");
        }
    }
    std::printf("model RAM %u B, weights in flash %u B\n", static_cast<unsigned>(sizeof(Model)),
                static_cast<unsigned>(sizeof(Model::Params)));
    std::printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
