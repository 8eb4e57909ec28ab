// examples/pytorch_recall/recall.cpp: the recall model trained in PyTorch (train.py) and exported by
// `python3 -m sarnn.export`, run by sarnn. The same source builds for the host (sarnn_recall) and for the
// Cortex-M presets (sarnn_recall_firmware.elf, under qemu-system-arm with semihosting).
//
// For each test sequence of recall_data.hpp: reset(), step() through the 40 inputs, readout of the last
// context c_T, argmax. Compares the logits with PyTorch's (within logit_tolerance) and the predicted token
// with PyTorch's; also runs the exported header's self_check() and validate() of the weights. Then the same for
// the quantised model (recall_q15.hpp, `--quantize int8`: int8 weights, int16 activations, integers only in
// step()): its inputs converted to raw int16 by the header's quantize_input(), its logits and predictions
// compared with those of the Python twin of its integer arithmetic (train.py), which the C++ must reproduce; and the
// same for the bilinear model's own q15 model (recall_q15_bilinear.hpp, with align_params; recall_model's readout).
// Prints one line per sequence and model, the accuracies side by side, and "N passed, N failed"; exit status 0
// only when nothing failed. No heap: the models are static objects (their memories of 40 states in RAM), the
// weights and the test set are constexpr (flash).
#include <cstddef>
#include <cstdio>

#include <sarnn/sarnn.hpp>

#include "recall_data.hpp"   // train.py: the readout, the test sequences, PyTorch's logits and predictions
#include "recall_model.hpp"  // python3 -m sarnn.export: Model, params, align_params, self_check()
#include "recall_q15.hpp"    // python3 -m sarnn.export --quantize int8: Model, params, quantize_input(), self_check()
#include "recall_q15_bilinear.hpp"  // the same for recall_attention.pt: Model, params, align_params, ...

#ifndef SARNN_RECALL_TARGET
#define SARNN_RECALL_TARGET "host"
#endif

namespace {

using recall_data::hidden_size;
using recall_data::seq_len;
using recall_data::vocab;
static_assert(recall_model::in_size == recall_data::in_size && recall_model::hidden_size == hidden_size,
              "recall_model.hpp and recall_data.hpp come from different models");
static_assert(recall_model::capacity >= seq_len, "a whole sequence must fit the Bounded memory (--capacity)");
static_assert(recall_q15::in_size == recall_data::in_size && recall_q15::hidden_size == hidden_size &&
                  recall_q15::capacity >= seq_len,
              "recall_q15.hpp does not fit recall_data.hpp (or --capacity is below the sequence length)");
static_assert(recall_q15_bilinear::in_size == recall_data::in_size && recall_q15_bilinear::hidden_size == hidden_size &&
                  recall_q15_bilinear::capacity >= seq_len,
              "recall_q15_bilinear.hpp does not fit recall_data.hpp (or --capacity is below the sequence length)");

recall_model::Model g_model{recall_model::params, recall_model::align_params};
recall_q15::Model g_q15{recall_q15::params};
recall_q15_bilinear::Model g_q15_bilinear{recall_q15_bilinear::params, recall_q15_bilinear::align_params};

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

/// One sequence from reset(); logits = readout_W c_T + readout_b. Returns the first status that is not ok.
sarnn::Status predict(const float (&x)[seq_len][recall_data::in_size], float (&logits)[vocab]) {
    g_model.reset();
    for (std::size_t t = 0; t < seq_len; ++t) {
        const sarnn::Status s = g_model.step(x[t]);
        if (s != sarnn::Status::ok) return s;
    }
    const sarnn::View<float> c = g_model.context();
    for (std::size_t v = 0; v < vocab; ++v) {
        float sum = recall_data::readout_b[v];
        for (std::size_t k = 0; k < hidden_size; ++k) sum += recall_data::readout_W[v][k] * c[k];
        logits[v] = sum;
    }
    return sarnn::Status::ok;
}

/// The readout of a q15 model: its weights W, b (recall_data.hpp) and the header's quantize_input().
struct Q15Readout {
    const float (&W)[vocab][hidden_size];
    const float (&b)[vocab];
    void (*quantize_input)(const float*, sarnn::q15*) noexcept;
};

/// The same with a q15 model: each step's inputs converted to raw int16 (quantize_input, host-side float), the
/// model's integer step, then logits = W (c_T raw / 32768) + b in float.
template <class Model>
sarnn::Status predict_q15(Model& model, const Q15Readout& r, const float (&x)[seq_len][recall_data::in_size],
                          float (&logits)[vocab]) {
    model.reset();
    for (std::size_t t = 0; t < seq_len; ++t) {
        sarnn::q15 raw[recall_data::in_size];
        r.quantize_input(x[t], raw);
        const sarnn::Status s = model.step(raw);
        if (s != sarnn::Status::ok) return s;
    }
    const sarnn::View<sarnn::q15> c = model.context();
    for (std::size_t v = 0; v < vocab; ++v) {
        float sum = r.b[v];
        for (std::size_t k = 0; k < hidden_size; ++k)
            sum += r.W[v][k] * (static_cast<float>(c[k].raw) * (1.0f / 32768.0f));
        logits[v] = sum;
    }
    return sarnn::Status::ok;
}

int argmax(const float (&v)[vocab]) {
    std::size_t best = 0;
    for (std::size_t k = 1; k < vocab; ++k)
        if (v[k] > v[best]) best = k;
    return static_cast<int>(best);
}

double percent(float fraction) { return 100.0 * static_cast<double>(fraction); }

/// Largest |a_v - b_v| (NaN sticks).
float max_diff(const float (&a)[vocab], const float (&b)[vocab]) {
    float worst = 0.0f;
    for (std::size_t v = 0; v < vocab; ++v) {
        const float d = a[v] - b[v];
        const float ad = d < 0.0f ? -d : d;
        if (!(ad <= worst)) worst = ad;
    }
    return worst;
}

/// Every test sequence through a q15 model: its prediction and logits those of the Python twin (twin, twin_logits),
/// one line each ("<tag> seq key float twin sarnn"), then the counts; float_pred: the float model's predictions.
template <class Model>
void run_q15(const char* tag, Model& model, const Q15Readout& readout, const int (&twin)[recall_data::test_count],
             const float (&twin_logits)[recall_data::test_count][vocab],
             const int (&float_pred)[recall_data::test_count]) {
    int same = 0;
    int correct = 0;
    int correct_float = 0;
    for (std::size_t i = 0; i < recall_data::test_count; ++i) {
        float logits[vocab];
        const sarnn::Status s = predict_q15(model, readout, recall_data::test_x[i], logits);
        const float worst = max_diff(logits, twin_logits[i]);
        const int pred = argmax(logits);
        const bool ok = s == sarnn::Status::ok && pred == twin[i] && worst <= recall_data::logit_tolerance;
        same += pred == twin[i];
        correct += pred == recall_data::test_key[i];
        correct_float += float_pred[i] == recall_data::test_key[i];
        std::printf("%-4s %2u  key %d  float %d  twin %d  sarnn q15 %d  max|dlogit| %.1e  %s\n", tag,
                    static_cast<unsigned>(i), recall_data::test_key[i], float_pred[i], twin[i], pred,
                    static_cast<double>(worst), ok ? "ok" : "MISMATCH");
        check(ok, "q15 prediction and logits equal the Python twin's");
    }
    std::printf("%s predictions: %d of %u equal the Python twin's; correct: q15 %d, float %d of %u\n", tag, same,
                static_cast<unsigned>(recall_data::test_count), correct, correct_float,
                static_cast<unsigned>(recall_data::test_count));
}

}  // namespace

int main() {
    std::printf(
        "pytorch_recall on %s: SelfAttentionRnn<float, In %u, Hidden %u, Capacity %u, BilinearAlign>, "
        "kernels %s, RAM sizeof(model) %u bytes\n",
        SARNN_RECALL_TARGET, static_cast<unsigned>(recall_model::in_size), static_cast<unsigned>(hidden_size),
        static_cast<unsigned>(recall_model::capacity),
        sarnn::arch_name(sarnn::kernel::arch_in_use<sarnn::kernel::Default>()), static_cast<unsigned>(sizeof(g_model)));
    std::printf("PyTorch test accuracy (train.py --seed %u): SimpleRNN %.1f %%, SelfAttentionRNN %.1f %%\n",
                recall_data::train_seed, percent(recall_data::accuracy_simple_rnn),
                percent(recall_data::accuracy_attention));
    // At boot: the weights are finite, and the model reproduces the exporter's golden run.
    check(sarnn::validate(recall_model::params).status == sarnn::Status::ok &&
              sarnn::validate(recall_model::align_params).status == sarnn::Status::ok,
          "validate(): the weights are finite");
    check(recall_model::self_check(g_model), "self_check(): the golden run of recall_model.hpp");

    int same = 0;
    int correct = 0;
    for (std::size_t i = 0; i < recall_data::test_count; ++i) {
        float logits[vocab];
        const sarnn::Status s = predict(recall_data::test_x[i], logits);
        const float worst = max_diff(logits, recall_data::test_logits[i]);
        const int pred = argmax(logits);
        const bool ok = s == sarnn::Status::ok && pred == recall_data::test_pytorch[i] &&
                        worst <= recall_data::logit_tolerance;
        same += pred == recall_data::test_pytorch[i];
        correct += pred == recall_data::test_key[i];
        std::printf("seq %2u  key %d  pytorch %d  sarnn %d  max|dlogit| %.1e  %s\n", static_cast<unsigned>(i),
                    recall_data::test_key[i], recall_data::test_pytorch[i], pred, static_cast<double>(worst),
                    ok ? "ok" : "MISMATCH");
        check(ok, "prediction and logits equal PyTorch's");
    }
    std::printf("predictions: %d of %u equal PyTorch's, %d of %u correct\n", same,
                static_cast<unsigned>(recall_data::test_count), correct,
                static_cast<unsigned>(recall_data::test_count));

    // The quantised models: every prediction and logit that of the Python twin (train.py), bit-exact integers.
    // x_m·2^-(31 + x_shift) = x_scale·32768 with x_m = 2^30 (x_scale is a power of two): x_scale = 2^(-16 - x_shift)
    std::printf(
        "q15 model: SelfAttentionRnn<sarnn::q15, In %u, Hidden %u, Capacity %u, ScaledDotAlign>, RAM "
        "sizeof(model) %u bytes, x_scale 2^%d\n",
        static_cast<unsigned>(recall_q15::in_size), static_cast<unsigned>(hidden_size),
        static_cast<unsigned>(recall_q15::capacity), static_cast<unsigned>(sizeof(g_q15)),
        -16 - recall_q15::params.x_shift);
    check(recall_q15::self_check(g_q15), "self_check(): the golden run of recall_q15.hpp (twin's integers, bound)");
    run_q15("q15", g_q15, {recall_data::readout_q15_W, recall_data::readout_q15_b, &recall_q15::quantize_input},
            recall_data::test_q15_twin, recall_data::test_q15_logits, recall_data::test_q15_pytorch);
    std::printf(
        "test accuracy (train.py, 1000 sequences): %s float %.1f %%, q15 %.1f %% (Python twin, which this "
        "C++ matches bit for bit)\n",
        "scaled_dot", percent(recall_data::accuracy_q15_float), percent(recall_data::accuracy_q15));

    std::printf(
        "q15 bilinear model: SelfAttentionRnn<sarnn::q15, In %u, Hidden %u, Capacity %u, BilinearAlign>, RAM "
        "sizeof(model) %u bytes, x_scale 2^%d, g %d\n",
        static_cast<unsigned>(recall_q15_bilinear::in_size), static_cast<unsigned>(hidden_size),
        static_cast<unsigned>(recall_q15_bilinear::capacity), static_cast<unsigned>(sizeof(g_q15_bilinear)),
        -16 - recall_q15_bilinear::params.x_shift, recall_q15_bilinear::align_params.g);
    check(recall_q15_bilinear::self_check(g_q15_bilinear),
          "self_check(): the golden run of recall_q15_bilinear.hpp (twin's integers, bound)");
    run_q15("q15b", g_q15_bilinear,
            {recall_data::readout_W, recall_data::readout_b, &recall_q15_bilinear::quantize_input},
            recall_data::test_q15_bilinear_twin, recall_data::test_q15_bilinear_logits, recall_data::test_pytorch);
    std::printf(
        "test accuracy (train.py, 1000 sequences): %s float %.1f %%, q15 %.1f %% (Python twin, which this "
        "C++ matches bit for bit)\n",
        "bilinear", percent(recall_data::accuracy_attention), percent(recall_data::accuracy_q15_bilinear));
    std::printf("%d passed, %d failed\n", g_passed, g_failed);
    return g_failed == 0 ? 0 : 1;
}
