// tools/footprint/footprint.cpp: the program the footprint report measures (target sarnn_footprint).
//
// One ELF per model variant (SARNN_FOOTPRINT_MODEL) plus a baseline (0) that does everything else the same
// way (start-up, semihosting printf, the input loop, the stack measurement), so that
// "variant minus baseline" is what the model costs: its code, its weights in flash and its object in RAM.
// The weights are `const` (they stay in flash), filled at compile time with pseudo-random values.
// Models: 1 SelfAttentionRnn DotAlign, 2 ScaledDotAlign, 3 SimpleRnn, 4 SelfAttentionRnn AdditiveAlign<16>,
// 5 Lstmn (K = 16); all Bounded memory.
//
// It also measures the deepest stack of step() on the target: it paints the free stack below main's frame
// with a pattern, steps the model through a whole sequence (Capacity steps) and finds the lowest word that
// changed. That covers everything step() calls, libm included; the report adds the static bound from
// -fstack-usage next to it.
//
// Reference model: In = 16, Hidden = 32, Capacity = 64, float.
#include <cstddef>
#include <cstdint>
#include <cstdio>

#include <sarnn/sarnn.hpp>

#ifndef SARNN_FOOTPRINT_MODEL
#define SARNN_FOOTPRINT_MODEL 0
#endif

namespace {

constexpr std::size_t In = 16;
constexpr std::size_t Hidden = 32;
constexpr std::size_t Capacity = 64;

constexpr std::uint32_t next(std::uint32_t& s) {
    s = s * 1664525u + 1013904223u;  // an LCG: any values do, the weights only have to be real data
    return s >> 8;
}

/// Uniform in about ±0.14 (1/sqrt(In + Hidden)), from the generator above.
constexpr float weight(std::uint32_t r) { return static_cast<float>(static_cast<int>(r & 0xFFFFu) - 0x8000) / 235000.0f; }

template <std::size_t N>
constexpr void fill(float (&a)[N], std::uint32_t& s) {
    for (float& v : a) v = weight(next(s));
}
template <std::size_t R, std::size_t C>
constexpr void fill(float (&a)[R][C], std::uint32_t& s) {
    for (auto& row : a) fill(row, s);
}

constexpr std::size_t K = 16;  // attention size of the additive align and of the LSTMN

#if SARNN_FOOTPRINT_MODEL == 1
using Model = sarnn::SelfAttentionRnn<float, In, Hidden, Capacity, sarnn::DotAlign>;
constexpr const char* kName = "SelfAttentionRnn<float, 16, 32, 64, DotAlign>";
#elif SARNN_FOOTPRINT_MODEL == 2
using Model = sarnn::SelfAttentionRnn<float, In, Hidden, Capacity, sarnn::ScaledDotAlign>;
constexpr const char* kName = "SelfAttentionRnn<float, 16, 32, 64, ScaledDotAlign>";
#elif SARNN_FOOTPRINT_MODEL == 3
using Model = sarnn::SimpleRnn<float, In, Hidden>;
constexpr const char* kName = "SimpleRnn<float, 16, 32>";
#elif SARNN_FOOTPRINT_MODEL == 4
using Model = sarnn::SelfAttentionRnn<float, In, Hidden, Capacity, sarnn::AdditiveAlign<K>>;
constexpr const char* kName = "SelfAttentionRnn<float, 16, 32, 64, AdditiveAlign<16>>";
#elif SARNN_FOOTPRINT_MODEL == 5
using Model = sarnn::Lstmn<float, In, Hidden, Capacity, K>;
constexpr const char* kName = "Lstmn<float, 16, 32, 64, 16>";
#elif SARNN_FOOTPRINT_MODEL != 0
#error "unknown SARNN_FOOTPRINT_MODEL"
#endif

#if SARNN_FOOTPRINT_MODEL != 0
constexpr typename Model::Params make_params() {
    typename Model::Params p{};
    std::uint32_t s = 12345u;
#if SARNN_FOOTPRINT_MODEL == 5
    fill(p.W_ih, s);
    fill(p.W_hh, s);
    fill(p.b, s);
    fill(p.W_h, s);
    fill(p.W_x, s);
    fill(p.W_ht, s);
    fill(p.v, s);
#else
    fill(p.A, s);
    fill(p.b, s);
#endif
    return p;
}
constexpr typename Model::Params kParams = make_params();  // flash
#if SARNN_FOOTPRINT_MODEL == 4
constexpr sarnn::AdditiveParams<float, Hidden, K> make_align_params() {
    sarnn::AdditiveParams<float, Hidden, K> p{};
    std::uint32_t s = 999u;
    fill(p.W, s);
    fill(p.v, s);
    return p;
}
constexpr sarnn::AdditiveParams<float, Hidden, K> kAlignParams = make_align_params();  // flash
Model g_model{kParams, kAlignParams};                                                 // RAM: all of its state
#else
Model g_model{kParams};  // RAM: all of the model's state
#endif

/// step() on its own: the model's step() is inlined here, so this frame plus its callees is step()'s stack.
[[gnu::noinline]] sarnn::Status do_step(const float* x) { return g_model.step(x); }
std::size_t length() { return g_model.length(); }
#else
// The baseline: the same loop, with a step that only reads its input.
volatile float g_sink;
[[gnu::noinline]] sarnn::Status do_step(const float* x) {
    g_sink = x[0];
    return sarnn::Status::ok;
}
std::size_t length() { return Capacity; }
#endif

constexpr std::uint32_t kPaint = 0xA5C3E1F7u;
extern "C" char __end[];  // picolibc.ld: the end of .bss (the stack grows down towards it)

std::uintptr_t stack_pointer() {
    std::uintptr_t sp;
    __asm__ volatile("mov %0, sp" : "=r"(sp));
    return sp;
}

/// Fills [lo, sp) with the pattern: the free stack below this function's own frame (nothing else runs, no
/// interrupt is enabled, so nothing uses it meanwhile).
[[gnu::noinline]] void paint(std::uintptr_t lo) {
    volatile std::uint32_t* p = reinterpret_cast<volatile std::uint32_t*>(lo);
    volatile std::uint32_t* end = reinterpret_cast<volatile std::uint32_t*>(stack_pointer());
    for (; p < end; ++p) *p = kPaint;
}

/// The lowest address at or above lo whose word is no longer the pattern.
[[gnu::noinline]] std::uintptr_t lowest_touched(std::uintptr_t lo, std::uintptr_t top) {
    const volatile std::uint32_t* p = reinterpret_cast<const volatile std::uint32_t*>(lo);
    while (reinterpret_cast<std::uintptr_t>(p) < top && *p == kPaint) ++p;
    return reinterpret_cast<std::uintptr_t>(p);
}

}  // namespace

int main() {
    const std::uintptr_t top = stack_pointer();
    std::uintptr_t lo = (reinterpret_cast<std::uintptr_t>(__end) + 7u) & ~std::uintptr_t(7);
    if (top - lo > 8192u) lo = top - 8192u;  // step() needs far less: do not paint all of a large RAM
    paint(lo);
    int bad = 0;
    float x[In];
    std::uint32_t s = 777u;
    for (std::size_t i = 0; i < Capacity; ++i) {
        for (float& v : x) v = weight(next(s)) * 8.0f;
        bad += do_step(x) != sarnn::Status::ok;
    }
    bad += length() == Capacity ? 0 : 1;
    const std::uintptr_t low = lowest_touched(lo, top);  // before printf, which has a deep stack of its own
#if SARNN_FOOTPRINT_MODEL != 0
    std::printf("footprint: model %s\n", kName);
    std::printf("footprint: sizeof(model) %u\n", static_cast<unsigned>(sizeof(Model)));
#endif
    std::printf("footprint: stack below main %u\n", static_cast<unsigned>(top - low));
    std::printf("footprint: painted %u\n", static_cast<unsigned>(top - lo));
    return bad;
}
