// tools/plan/mcu.cpp: the size planner's count program (scripts/plan), one image per Cortex-M core holding every
// shape of plan_shapes.hpp. For each shape: sizeof the model (its RAM) and the instructions of the step that makes
// the memory hold n states, for n = 1, Capacity / 2 and Capacity (a SimpleRnn, Gru or Lstm: of any step), counted
// under qemu-system-arm -icount with SysTick as bench/mcu does (bench/mcu/counter.hpp calibrates the ticks; the SysTick
// interrupt counts the counter's wraps, so a span may be longer than its 24 bits). Each figure is the mean over
// kReps sequences (different inputs). Prints lines "plan key=value ..." that scripts/plan reads.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <initializer_list>
#include <new>
#include <type_traits>

#include <sarnn/sarnn.hpp>

#include "counter.hpp"  // bench/mcu
#include "plan_shapes.hpp"
#include "shape.hpp"

namespace {

constexpr std::uint32_t kReps = 3;
constexpr std::size_t kInputs = 8;
using Set = sarnn::kernel::Default;

volatile std::uint32_t g_wraps = 0;

template <class L>
struct Bounds;
template <class... S>
struct Bounds<plan::List<S...>> {
    static constexpr std::size_t max(std::initializer_list<std::size_t> v) {
        std::size_t m = 0;
        for (std::size_t x : v) m = x > m ? x : m;
        return m;
    }
    static constexpr std::size_t round(std::size_t n) { return (n + 15) / 16 * 16; }
    static constexpr std::size_t in = max({S::in...});
    // params, align params and the model, each on a 16-byte boundary
    static constexpr std::size_t arena = max({round(sizeof(typename S::Params)) +
                                              round(sizeof(typename S::AlignParams)) +
                                              round(sizeof(typename S::template Model<Set>))...});
};
using B = Bounds<plan::Shapes>;

alignas(16) unsigned char g_arena[B::arena];
float g_x[kInputs][B::in];
sarnn::q15 g_xq[kInputs][B::in];

/// SysTick and the wraps its interrupt counted, read as one 64-bit tick count (counting down).
/// (Not inlined: the calibration's empty span and the timed spans read it with the same code.)
__attribute__((noinline)) std::uint64_t now() {
    volatile std::uint32_t& icsr = *reinterpret_cast<volatile std::uint32_t*>(0xE000ED04u);
    __asm__ volatile("cpsid i" ::: "memory");
    std::uint32_t w = g_wraps;
    std::uint32_t c = mcu::SysTick::now();
    if ((icsr & (1u << 26)) != 0u) {  // PENDSTSET: the counter wrapped, its interrupt is still to come
        c = mcu::SysTick::now();
        ++w;
    }
    __asm__ volatile("cpsie i" ::: "memory");
    // the counter counts down from 0xFFFFFF: elapsed ticks grow with the wraps and fall with c
    return (std::uint64_t{w} << 24) + (0xFFFFFFu - c);
}

mcu::Calibration g_cal;

void calibrate() {
    g_cal = mcu::calibrate();  // bench/mcu's: instructions per tick, with the interrupt off
    mcu::SysTick::csr() = 7u;  // processor clock, enabled, interrupt on (arm_systick_isr counts the wraps)
    const std::uint64_t t0 = now();
    const std::uint64_t t1 = now();
    g_cal.empty_ticks = static_cast<std::uint32_t>(t1 - t0);
}

/// One step, compiled on its own: the same code whatever else the image holds (inlined into the loop below, a
/// step's code would depend on the other shapes).
template <class Model, class T>
__attribute__((noinline)) sarnn::Status step(Model& m, const T* x) {
    return m.step(x);
}

template <class T>
const T* input(std::size_t i) {
    if constexpr (std::is_same_v<T, sarnn::q15>)
        return g_xq[i % kInputs];
    else
        return g_x[i % kInputs];
}

template <class S>
void measure(unsigned index) {
    using Model = typename S::template Model<Set>;
    using T = typename S::value_type;
    auto* p = new (g_arena) typename S::Params;
    const std::size_t p_end = B::round(sizeof(typename S::Params));
    auto* ap = new (g_arena + p_end) typename S::AlignParams;
    plan::fill_params(*p, 1u);
    plan::fill_params(*ap, 2u);
    Model* m = S::template make<Set>(g_arena + p_end + B::round(sizeof(typename S::AlignParams)), *p, *ap);
    std::printf("plan shape=%u ram=%lu weights=%lu\n", index, static_cast<unsigned long>(sizeof(Model)),
                static_cast<unsigned long>(S::weight_bytes));
    // the steps timed: n = 1, Capacity / 2, Capacity (the SimpleRnn, Gru, Lstm: its first steps, all alike)
    std::size_t at[3] = {1, S::capacity / 2, S::capacity};
    std::uint64_t ticks[3] = {0, 0, 0};
    int refused = 0;
    const std::size_t last = S::memoryless ? 1 : S::capacity;
    for (std::uint32_t r = 0; r < kReps; ++r) {
        m->reset();
        for (std::size_t i = 1; i <= last; ++i) {
            const T* x = input<T>(i + r);
            const bool timed = i == at[0] || i == at[1] || i == at[2];
            if (!timed) {
                if (step(*m, x) != sarnn::Status::ok) ++refused;
                continue;
            }
            const std::uint64_t t0 = now();
            const sarnn::Status s = step(*m, x);
            const std::uint64_t t1 = now();
            if (s != sarnn::Status::ok) ++refused;
            for (std::size_t k = 0; k < 3; ++k)
                if (i == at[k]) ticks[k] += t1 - t0;
        }
    }
    for (std::size_t k = 0; k < 3; ++k) {
        if (at[k] == 0 || at[k] > last || (k > 0 && at[k] == at[k - 1])) continue;
        std::printf("plan shape=%u n=%lu instructions=%lu\n", index, static_cast<unsigned long>(at[k]),
                    static_cast<unsigned long>(mcu::instructions(g_cal, ticks[k], kReps)));
    }
    if (refused != 0) std::printf("plan shape=%u refused=%d\n", index, refused);
    m->~Model();
}

template <class... S>
void measure_all(plan::List<S...>) {
    unsigned i = 0;
    (measure<S>(i++), ...);
}

}  // namespace

extern "C" void arm_systick_isr() { g_wraps = g_wraps + 1u; }

int main() {
    calibrate();
    plan::Lcg g;
    for (auto& x : g_x)
        for (float& v : x) v = g.uniform();
    for (auto& x : g_xq)
        for (sarnn::q15& v : x) v = sarnn::q15{static_cast<std::int16_t>(g.uniform() * 32767.0f)};
    // the counter over a span of 30 million instructions (2 an iteration), longer than SysTick's 24 bits on every
    // board: scripts/plan checks that the wraps were counted
    const std::uint64_t t0 = now();
    mcu::spin(15000000u);
    const std::uint64_t t1 = now();
    std::printf("plan check_instructions=%lu\n", static_cast<unsigned long>(mcu::instructions(g_cal, t1 - t0, 1)));
    std::printf("plan arch=%s instructions_per_1024_ticks=%lu\n", sarnn::arch_name(Set::arch),
                static_cast<unsigned long>(g_cal.instr_per_1024_ticks));
    measure_all(plan::Shapes{});
    std::printf("plan done\n");
    return 0;
}
