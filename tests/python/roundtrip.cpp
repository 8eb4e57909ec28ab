// tests/python/roundtrip.cpp: the PyTorch -> header -> C++ round trip (ctest: sarnn_python_roundtrip).
//
// gen_roundtrip.py exports every model kind with sarnn.export_header() at build time, on the host's Python,
// into headers of constexpr params and a golden run (inputs and PyTorch's float64 outputs). This program
// includes them all (roundtrip_models.hpp, one namespace per header), and runs every model's golden_error()
// and self_check() under every kernel set this build holds and this CPU (or emulator) runs: scalar, and
// sse2 / avx2+fma / avx512 on x86-64 (run-time dispatch), neon64 on aarch64, neon on armhf. One line per
// model and set; exit status 1 if any model is off by more than its golden_tolerance.
//
// The tolerances are the exporter's defaults, written into each header as golden_tolerance: 1e-4 for float
// and 1e-10 for double, on the largest |h_i - h_i(PyTorch, float64)| over a 40-step golden run from reset().
// The C++ model sees exactly the exported weights and inputs (rounded to T) and differs from the reference
// only by its own arithmetic in T, so what is measured is the library's rounding: at most 1.1e-6 (float)
// and 1.9e-15 (double) over every model and kernel set on x86-64, aarch64, armhf and i686 (the trained model
// is the largest): 90 and 50000 times below the tolerances.
//
// The quantised headers (SARNN_ROUNDTRIP_Q15_MODELS: `--quantize int8`) run the q15 models, the same integer code
// under every set (kernel::Q15); each must reproduce the Python twin's int16 h and c bit for bit over its golden run
// (0 mismatches) and stay within the |h_q - h_float|, |c_q - c_float| bounds recorded over its calibration run.
#include <cstdint>
#include <cstdio>

#include "../skip_note.hpp"
#include "roundtrip_models.hpp"

namespace {

struct Worst {
    double error = 0;
    const char* model = "-";
};

struct Tally {
    long q15_mismatches = 0;
    int checked = 0;
    int failed = 0;
    Worst worst[2];  // float, double
};

template <class T>
constexpr int type_index() noexcept {
    return sizeof(T) == sizeof(float) ? 0 : 1;
}

template <class Model>
void check(const char* arch, const char* name, const char* type, Model& model,
           typename Model::value_type (*golden_error)(Model&), bool (*self_check)(Model&),
           typename Model::value_type tolerance, Tally& tally) {
    using T = typename Model::value_type;
    const T err = golden_error(model);
    const bool ok = err >= T(0) && err <= tolerance && self_check(model);
    std::printf("%-8s %-26s %-82s max error %.3e  tolerance %.0e  %s\n", arch, name, type, static_cast<double>(err),
                static_cast<double>(tolerance), ok ? "ok" : "FAILED");
    ++tally.checked;
    if (!ok) ++tally.failed;
    Worst& w = tally.worst[type_index<T>()];
    if (!(static_cast<double>(err) <= w.error)) {  // NaN or negative (a refused step) is the worst of all
        w.error = static_cast<double>(err);
        w.model = name;
    }
}

template <class Model, class Report>
void check_q15(const char* arch, const char* name, const char* type, Model& model, Report (*golden_check)(Model&),
               bool (*self_check)(Model&), std::int64_t h_bound, std::int64_t c_bound, Tally& tally) {
    const Report r = golden_check(model);
    const bool ok = r.failed_steps == 0 && r.mismatches == 0 && r.h_error_q31 <= h_bound && r.c_error_q31 <= c_bound &&
                    self_check(model);
    const double q31 = 2147483648.0;
    std::printf("%-8s %-26s %-74s mismatches %ld  |h_q-h_float| %.3e <= %.3e  |c_q-c_float| %.3e <= %.3e  %s\n", arch,
                name, type, r.mismatches, static_cast<double>(r.h_error_q31) / q31, static_cast<double>(h_bound) / q31,
                static_cast<double>(r.c_error_q31) / q31, static_cast<double>(c_bound) / q31, ok ? "ok" : "FAILED");
    ++tally.checked;
    tally.q15_mismatches += r.mismatches;
    if (!ok) ++tally.failed;
}

void run_all(const char* arch, Tally& tally) {
    // Each model is constructed once (static: some are tens of kB) and reused by every kernel set:
    // golden_error() resets it before and after its run, and the set in use is looked up at every step.
#define SARNN_ROUNDTRIP_CHECK(ns, type, ...)                                                            \
    {                                                                                                   \
        static ns::Model model(__VA_ARGS__);                                                            \
        check(arch, #ns, type, model, &ns::golden_error, &ns::self_check, ns::golden_tolerance, tally); \
    }
    SARNN_ROUNDTRIP_MODELS(SARNN_ROUNDTRIP_CHECK)
#undef SARNN_ROUNDTRIP_CHECK
#define SARNN_ROUNDTRIP_CHECK_Q15(ns, type, ...)                                                                \
    {                                                                                                           \
        static ns::Model model(__VA_ARGS__);                                                                    \
        check_q15(arch, #ns, type, model, &ns::golden_check, &ns::self_check, ns::h_bound_q31, ns::c_bound_q31, \
                  tally);                                                                                       \
    }
    SARNN_ROUNDTRIP_Q15_MODELS(SARNN_ROUNDTRIP_CHECK_Q15)
#undef SARNN_ROUNDTRIP_CHECK_Q15
}

}  // namespace

int main() {
    // every arch sarnn knows (the one list in config.hpp)
#define SARNN_ROUNDTRIP_ARCH_(id, name) sarnn::Arch::id,
    const sarnn::Arch archs[] = {SARNN_ARCHES(SARNN_ROUNDTRIP_ARCH_)};
#undef SARNN_ROUNDTRIP_ARCH_
    int sets = 0;
    int failed = 0;
    int checked = 0;
    for (const sarnn::Arch a : archs) {
        const char* name = sarnn::arch_name(a);
        if (!sarnn::arch_available(a)) {
            std::printf("== %s: not in this build or not on this CPU, skipped\n", name);
            test::note_unavailable(a);
            continue;
        }
        if (sarnn::set_arch(a) != sarnn::Status::ok || sarnn::active_arch() != a) {
            std::printf("== %s: set_arch() failed although arch_available() is true: FAILED\n", name);
            ++failed;
            continue;
        }
        // ARMv7 NEON has no double lanes: its double set is the scalar one (kernels.hpp).
        std::printf("== %s (float kernels: %s, double kernels: %s)\n", name,
                    sarnn::arch_name(sarnn::kernels<float>().arch), sarnn::arch_name(sarnn::kernels<double>().arch));
        Tally tally;
        run_all(name, tally);
        std::printf(
            "== %s: %d models, %d failed; worst float %.3e (%s), worst double %.3e (%s); q15: %ld int16 "
            "mismatches with the Python twin\n",
            name, tally.checked, tally.failed, tally.worst[0].error, tally.worst[0].model, tally.worst[1].error,
            tally.worst[1].model, tally.q15_mismatches);
        ++sets;
        failed += tally.failed;
        checked += tally.checked;
    }
    std::printf("sarnn_python_roundtrip: %d checks over %d kernel sets, %d failed\n", checked, sets, failed);
    return failed == 0 && sets > 0 ? 0 : 1;
}
