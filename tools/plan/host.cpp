// tools/plan/host.cpp: the size planner's timing program (scripts/plan) for this machine. For each shape of
// plan_shapes.hpp, on the kernel set the build picks (kernel::Default: on x86-64 the run-time dispatch to the best
// set the CPU runs; q15 models run kernel::Q15): sizeof the model and the time of the step that makes the memory
// hold n states, n = 1, Capacity / 2 and Capacity (a SimpleRnn, Gru or Lstm: its first step), each the median over
// `repeats` sequences (argv[1], default 101) of one span timed with steady_clock in which kBatch models of the shape
// (the same params, different inputs) take that step, less the median of an empty span, divided by kBatch.
// Prints lines "plan key=value ..." that scripts/plan reads.
#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <new>
#include <type_traits>
#include <vector>

#include <sarnn/sarnn.hpp>

#include "plan_shapes.hpp"
#include "shape.hpp"

namespace {

constexpr std::size_t kInputs = 8;
constexpr std::size_t kBatch = 8;  // models stepped in one timed span (one step is near the clock's resolution)
using Set = sarnn::kernel::Default;
using Clock = std::chrono::steady_clock;

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 == 1 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

double ns(Clock::time_point a, Clock::time_point b) { return std::chrono::duration<double, std::nano>(b - a).count(); }

double empty_span(std::size_t repeats) {
    std::vector<double> t;
    for (std::size_t r = 0; r < repeats; ++r) {
        const auto t0 = Clock::now();
        const auto t1 = Clock::now();
        t.push_back(ns(t0, t1));
    }
    return median(t);
}

/// Storage of one shape on the heap (a host program: large shapes do not fit the stack), aligned for the model.
struct Buffer {
    void* p;
    explicit Buffer(std::size_t bytes) : p(::operator new (bytes, std::align_val_t{64})) {}
    ~Buffer() { ::operator delete (p, std::align_val_t{64}); }
    Buffer(const Buffer&) = delete;
    Buffer& operator=(const Buffer&) = delete;
};

template <class S>
void measure(unsigned index, std::size_t repeats, double empty) {
    using Model = typename S::template Model<Set>;
    using T = typename S::value_type;
    using P = typename S::Params;
    using AP = typename S::AlignParams;
    Buffer bp(sizeof(P)), bap(sizeof(AP)), bm(kBatch * sizeof(Model));
    auto* p = new (bp.p) P;
    auto* ap = new (bap.p) AP;
    plan::fill_params(*p, 1u);
    plan::fill_params(*ap, 2u);
    Model* m[kBatch];
    for (std::size_t b = 0; b < kBatch; ++b)
        m[b] = S::template make<Set>(static_cast<unsigned char*>(bm.p) + b * sizeof(Model), *p, *ap);
    const bool q15 = std::is_same_v<T, sarnn::q15>;
    std::printf("plan shape=%u ram=%zu weights=%zu arch=%s\n", index, sizeof(Model), S::weight_bytes,
                q15 ? "q15" : sarnn::arch_name(sarnn::kernel::arch_in_use<Set>()));
    std::vector<T> xs(kInputs * S::in);
    plan::Lcg g;
    for (T& v : xs) {
        if constexpr (q15) {
            v = sarnn::q15{static_cast<std::int16_t>(g.uniform() * 32767.0f)};
        } else {
            v = g.uniform();
        }
    }
    const std::size_t at[3] = {1, S::capacity / 2, S::capacity};
    std::vector<double> t[3];
    int refused = 0;
    const std::size_t last = S::memoryless ? 1 : S::capacity;
    for (std::size_t r = 0; r < repeats; ++r) {
        for (Model* mb : m) mb->reset();
        for (std::size_t i = 1; i <= last; ++i) {
            const bool timed = i == at[0] || i == at[1] || i == at[2];
            const auto t0 = Clock::now();
            for (std::size_t b = 0; b < kBatch; ++b)
                if (m[b]->step(&xs[((i + r + b) % kInputs) * S::in]) != sarnn::Status::ok) ++refused;
            const auto t1 = Clock::now();
            if (!timed) continue;
            for (std::size_t k = 0; k < 3; ++k)
                if (i == at[k]) t[k].push_back(ns(t0, t1));
        }
    }
    for (std::size_t k = 0; k < 3; ++k) {
        if (at[k] == 0 || at[k] > last || (k > 0 && at[k] == at[k - 1])) continue;
        std::printf("plan shape=%u n=%zu ns=%.1f\n", index, at[k],
                    std::max(0.0, median(t[k]) - empty) / static_cast<double>(kBatch));
    }
    if (refused != 0) std::printf("plan shape=%u refused=%d\n", index, refused);
    for (Model* mb : m) mb->~Model();
}

template <class... S>
void measure_all(plan::List<S...>, std::size_t repeats, double empty) {
    unsigned i = 0;
    (measure<S>(i++, repeats, empty), ...);
}

}  // namespace

int main(int argc, char** argv) {
    const long repeats = argc > 1 ? std::strtol(argv[1], nullptr, 10) : 101;
    if (repeats < 1) {
        std::fprintf(stderr, "plan host: repeats must be at least 1\n");
        return 2;
    }
    const double empty = empty_span(1001);
    std::printf("plan empty_ns=%.1f\n", empty);
    measure_all(plan::Shapes{}, static_cast<std::size_t>(repeats), empty);
    std::printf("plan done\n");
    return 0;
}
