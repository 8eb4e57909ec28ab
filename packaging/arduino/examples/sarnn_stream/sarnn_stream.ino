// sarnn_stream: a self-attention RNN over a stream of two sensor channels, one step per loop(), its context printed
// on Serial. The weights are constexpr, so they stay in flash; in a real sketch they come from the header sarnn's
// exporter writes from a trained model (python/sarnn). The model is a global: its RAM is known at link time, and
// the Window memory keeps it constant however long the stream runs. Needs a core that compiles C++17 (sarnn's
// docs/build.md, "Arduino", lists them); elsewhere the build stops with sarnn's #error saying so.
#include <sarnn.h>

using Model = sarnn::SelfAttentionRnn<float, 2, 6, 8, sarnn::ScaledDotAlign, sarnn::Window>;

constexpr Model::Params kWeights = [] {
    Model::Params p{};
    for (std::size_t r = 0; r < 6; ++r) {
        for (std::size_t k = 0; k < 2 + 6; ++k)
            p.A[r][k] = 0.1f * static_cast<float>(static_cast<int>((r * 5 + k * 3) % 9) - 4);
        p.b[r] = 0.05f * static_cast<float>(static_cast<int>(r) - 3);
    }
    return p;
}();

Model model{kWeights};
long t = 0;

// A sample of a triangle wave of the given period, in [-1, 1]: stands for a sensor reading.
static float triangle(long time, long period) {
    const long phase = time % period;
    const long rise = phase < period / 2 ? phase : period - phase;
    return 4.0f * static_cast<float>(rise) / static_cast<float>(period) - 1.0f;
}

void setup() {
    Serial.begin(115200);
    while (!Serial) {
    }
}

void loop() {
    ++t;
    const float x[2] = {triangle(t, 16), triangle(t, 5)};
    const sarnn::Status status = model.step(x);
    Serial.print("step ");
    Serial.print(t);
    if (status != sarnn::Status::ok) {
        Serial.println(": error");
    } else {
        Serial.print(": ok, context[0] x1000 = ");
        Serial.println(static_cast<long>(model.context()[0] * 1000.0f));
    }
    delay(100);
}
