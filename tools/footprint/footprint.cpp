// tools/footprint/footprint.cpp: the program the footprint report measures (target sarnn_footprint).
//
// One ELF per model variant (SARNN_FOOTPRINT_MODEL) plus a baseline (0; for the q15 models a second one, 0 with
// SARNN_FOOTPRINT_Q15: their input) that does everything else the same way (start-up, semihosting printf, the
// input loop, the stack measurement), so that "variant minus baseline" is what the model costs: its code, its
// weights in flash and its object in RAM.
// The weights are `const` (they stay in flash), filled at compile time with pseudo-random values.
// Models (float): 1 SelfAttentionRnn DotAlign, 2 ScaledDotAlign, 3 SimpleRnn, 4 SelfAttentionRnn
// AdditiveAlign<16>, 5 Lstmn (K = 16), 9 Gru, 10 Lstm; (q15, kernel::Q15): 6 SelfAttentionRnn DotAlign, 7 SimpleRnn,
// 8 Lstmn (K = 16), 11 Gru, 12 Lstm; the memories Bounded. The q15 params are int8 weights with per-row multipliers
// and shifts, int32 biases and the input's factor (params.hpp), with the values bench/mcu/main.cpp gives them; the
// q15 input is raw int16.
//
// It also measures the deepest stack of step() on the target: it paints the free stack below main's frame
// with a pattern, steps the model through a whole sequence (Capacity steps) and finds the lowest word that
// changed. That covers everything step() calls, libm included; the report adds the static bound from
// -fstack-usage next to it.
//
// Reference model: In = 16, Hidden = 32, Capacity = 64, float or q15.
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
constexpr float weight(std::uint32_t r) {
    return static_cast<float>(static_cast<int>(r & 0xFFFFu) - 0x8000) / 235000.0f;
}

template <std::size_t N>
constexpr void fill(float (&a)[N], std::uint32_t& s) {
    for (float& v : a) v = weight(next(s));
}
/// int8 weights in [-127, 127] (the q15 models' rows: A ≈ A_q·a_r), from the generator above.
template <std::size_t N>
constexpr void fill(std::int8_t (&a)[N], std::uint32_t& s) {
    for (std::int8_t& v : a) v = static_cast<std::int8_t>(static_cast<int>(next(s) % 255u) - 127);
}
template <class T, std::size_t R, std::size_t C>
constexpr void fill(T (&a)[R][C], std::uint32_t& s) {
    for (auto& row : a) fill(row, s);
}

/// The q15 rows' requantisation, as bench/mcu/main.cpp's: row factors of weights of about ±0.3 (a_r = 0.3 / 127),
/// 0.3 / 127 / 8 = 1267449479·2^-(31 + 10); biases in ±0.5 (Q3.12); inputs in Q15 (the factor 1: 2^30·2^-(31 - 1)).
constexpr std::int32_t kRowM = 1267449479;
constexpr std::int8_t kRowShift = 10;
template <std::size_t N>
constexpr void fill_rows(std::int32_t (&b)[N], std::int32_t (&m)[N], std::int8_t (&shift)[N], std::uint32_t& s) {
    for (std::size_t r = 0; r < N; ++r) {
        b[r] = static_cast<std::int32_t>(next(s) % 4096u) - 2048;
        m[r] = kRowM;
        shift[r] = kRowShift;
    }
}
template <class P>
constexpr void set_input_factor(P& p) {
    p.x_m = 1073741824;
    p.x_shift = -1;
    p.x_scale = 1.0f / 32768.0f;
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
using Model = sarnn::SelfAttentionRnn<float, In, Hidden, Capacity, sarnn::AdditiveAlign<K> >;
constexpr const char* kName = "SelfAttentionRnn<float, 16, 32, 64, AdditiveAlign<16>>";
#elif SARNN_FOOTPRINT_MODEL == 5
using Model = sarnn::Lstmn<float, In, Hidden, Capacity, K>;
constexpr const char* kName = "Lstmn<float, 16, 32, 64, 16>";
#elif SARNN_FOOTPRINT_MODEL == 6
using Model = sarnn::SelfAttentionRnn<sarnn::q15, In, Hidden, Capacity, sarnn::DotAlign>;
constexpr const char* kName = "SelfAttentionRnn<sarnn::q15, 16, 32, 64, DotAlign>";
#elif SARNN_FOOTPRINT_MODEL == 7
using Model = sarnn::SimpleRnn<sarnn::q15, In, Hidden>;
constexpr const char* kName = "SimpleRnn<sarnn::q15, 16, 32>";
#elif SARNN_FOOTPRINT_MODEL == 8
using Model = sarnn::Lstmn<sarnn::q15, In, Hidden, Capacity, K>;
constexpr const char* kName = "Lstmn<sarnn::q15, 16, 32, 64, 16>";
#elif SARNN_FOOTPRINT_MODEL == 9
using Model = sarnn::Gru<float, In, Hidden>;
constexpr const char* kName = "Gru<float, 16, 32>";
#elif SARNN_FOOTPRINT_MODEL == 10
using Model = sarnn::Lstm<float, In, Hidden>;
constexpr const char* kName = "Lstm<float, 16, 32>";
#elif SARNN_FOOTPRINT_MODEL == 11
using Model = sarnn::Gru<sarnn::q15, In, Hidden>;
constexpr const char* kName = "Gru<sarnn::q15, 16, 32>";
#elif SARNN_FOOTPRINT_MODEL == 12
using Model = sarnn::Lstm<sarnn::q15, In, Hidden>;
constexpr const char* kName = "Lstm<sarnn::q15, 16, 32>";
#elif SARNN_FOOTPRINT_MODEL != 0
#error "unknown SARNN_FOOTPRINT_MODEL"
#endif

#if SARNN_FOOTPRINT_MODEL != 0
constexpr typename Model::Params make_params() {
    typename Model::Params p{};
    std::uint32_t s = 12345u;
#if SARNN_FOOTPRINT_MODEL == 8
    fill(p.W_ih, s);
    fill(p.W_hh, s);
    fill(p.W_h, s);
    fill(p.W_x, s);
    fill(p.W_ht, s);
    fill(p.v, s);
    fill_rows(p.b, p.m, p.shift, s);
    for (std::size_t k = 0; k < K; ++k) {
        p.m_a[k] = kRowM;
        p.shift_a[k] = kRowShift;
    }
    p.m_v = kRowM;  // s_v = 0.3 / 127, scores in Q12: s_v·2^12 / 32768 = 1267449479·2^-(31 + 7)
    p.shift_v = 7;
    p.f = 12;
    set_input_factor(p);
#elif SARNN_FOOTPRINT_MODEL == 11
    fill(p.W_ih, s);
    fill(p.W_hh, s);
    fill_rows(p.b_ih, p.m, p.shift, s);
    for (std::int32_t& b : p.b_hh) b = static_cast<std::int32_t>(next(s) % 4096u) - 2048;
    set_input_factor(p);
#elif SARNN_FOOTPRINT_MODEL == 12
    fill(p.W_ih, s);
    fill(p.W_hh, s);
    fill_rows(p.b, p.m, p.shift, s);
    set_input_factor(p);
#elif SARNN_FOOTPRINT_MODEL == 9
    fill(p.W_ih, s);
    fill(p.W_hh, s);
    fill(p.b_ih, s);
    fill(p.b_hh, s);
#elif SARNN_FOOTPRINT_MODEL == 10
    fill(p.W_ih, s);
    fill(p.W_hh, s);
    fill(p.b, s);
#elif SARNN_FOOTPRINT_MODEL >= 6
    fill(p.A, s);
    fill_rows(p.b, p.m, p.shift, s);
    set_input_factor(p);
#elif SARNN_FOOTPRINT_MODEL == 5
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
Model g_model{kParams, kAlignParams};                                                  // RAM: all of its state
#else
Model g_model{kParams};  // RAM: all of the model's state
#endif

/// step() on its own: the model's step() is inlined here, so this frame plus its callees is step()'s stack.
using Value = typename Model::value_type;  // float, or sarnn::q15 (raw int16 inputs)
[[gnu::noinline]] sarnn::Status do_step(const Value* x) { return g_model.step(x); }
std::uint64_t length() { return g_model.length(); }
#else
// The baselines: the same loop, with a step that only reads its input (float, or with SARNN_FOOTPRINT_Q15 the q15
// models' raw int16).
#ifdef SARNN_FOOTPRINT_Q15
using Value = sarnn::q15;
volatile std::int16_t g_sink;
[[gnu::noinline]] sarnn::Status do_step(const Value* x) {
    g_sink = x[0].raw;
    return sarnn::Status::ok;
}
#else
using Value = float;
volatile float g_sink;
[[gnu::noinline]] sarnn::Status do_step(const Value* x) {
    g_sink = x[0];
    return sarnn::Status::ok;
}
#endif
std::uint64_t length() { return Capacity; }
#endif

/// An input value from the generator: a float in about ±1.1; a q15 as a raw int16 (all of Q15's ±1), from integers
/// only (no soft float on an FPU-less core: the q15 models and their baseline hold none).
[[maybe_unused]] void set(float& x, std::uint32_t r) { x = weight(r) * 8.0f; }
[[maybe_unused]] void set(sarnn::q15& x, std::uint32_t r) {
    x = sarnn::q15{static_cast<std::int16_t>(static_cast<int>(r & 0xFFFFu) - 0x8000)};
}

constexpr std::uint32_t kPaint = 0xA5C3E1F7u;
extern "C" char __end[];  // picolibc.ld: the end of .bss (the stack grows down towards it)

std::uintptr_t stack_pointer() {
    std::uintptr_t sp;
    __asm__ volatile("mov %0, sp" : "=r"(sp));
    return sp;
}

/// Fills [lo, sp) with kPaint (in r1): the free stack below its caller's frame (nothing else runs, no interrupt is
/// enabled, so nothing uses it meanwhile). Naked, in assembly: a C++ function would have a frame of its own below
/// the sp it reads, and the compiler may read sp before pushing that frame (GCC -O3 does, shrink-wrapping the push
/// {r4, lr} of a low-overhead loop after the sp read: the loop then overwrote its own return address, a hard
/// fault). This one uses no stack: it paints up to the sp of main, its caller. Thumb-1 instructions only (M0+).
[[gnu::naked, gnu::noinline]] void paint(std::uintptr_t /*lo: r0*/, std::uint32_t /*pattern: r1*/) {
    __asm__ volatile(
        "    mov   r2, sp\n"
        "1:  cmp   r0, r2\n"
        "    bhs   2f\n"
        "    stmia r0!, {r1}\n"
        "    b     1b\n"
        "2:  bx    lr\n");
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
    paint(lo, kPaint);
    int bad = 0;
    Value x[In];
    std::uint32_t s = 777u;
    for (std::size_t i = 0; i < Capacity; ++i) {
        for (Value& v : x) set(v, next(s));
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
