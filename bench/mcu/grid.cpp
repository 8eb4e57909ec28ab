// bench/mcu/grid.cpp: instructions per step() on a Cortex-M over the shape grid of bench/grid.hpp, counted under
// qemu-system-arm -icount as main.cpp does (counter.hpp). One step of SimpleRnn, SelfAttentionRnn dot and additive
// (K 16), the Lstmn (K 16) and the plain cells Gru and Lstm, in float (the build's default set, kernel::Default)
// and q15 (kernel::Q15), at each (In, Hidden) of the grid, n = 64 states attended, Capacity 64. Prints per number
// type a table with instructions per step, per multiply-add, and per multiply-add relative to the same model and
// type at the reference shape (In 16, Hidden 32), then a summary: each model's reference /MAC and its worst ratio
// over the grid (over Hidden >= 12, the targets of issues 32 and 33, and over all). scripts/bench-mcu runs it on every core and writes bench/results/mcu.md.
// The full grid is one image on the MPS2 boards (4 MiB of code memory); on the M55 (512 KiB of ITCM) two, built from
// this file with SARNN_BENCH_GRID_TYPE 1 (float) and 2 (q15): the tables and summary rows of one number type each,
// the same rows as in one image (CMakeLists.txt).
//
// Every count starts from the same seed (weights uniform in ±0.3, inputs in ±1, drawn per shape), so a shape's
// figure does not depend on which other shapes the image holds: the smoke build's rows equal the full build's.
// A count is the mean of kReps steps, each from a reset model after n - 1 steps (SimpleRnn: after 8 steps; Gru and
// Lstm: after 3, as main.cpp's Lstm row: a cell's step costs the same from any state). The q15 cells' params are
// main.cpp's (q15_cell_params.hpp) at each shape.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <new>
#include <utility>

#include <sarnn/sarnn.hpp>

#include "../grid.hpp"
#include "counter.hpp"
#include "q15_cell_params.hpp"

namespace {

namespace grid = sarnn_bench::grid;
using grid::kCapacity;
using grid::kK;
using grid::kStates;
constexpr std::size_t C = kCapacity;
constexpr std::size_t K = kK;
constexpr std::uint32_t kReps = 4;
constexpr std::size_t kCellWarm = 3;  // the steps before a Gru's or Lstm's counted one
constexpr std::size_t kInputs = 8;
constexpr std::size_t kMaxIn = 40;
using Tuned = sarnn::kernel::Default;

mcu::Calibration g_cal;
int g_refused = 0;  // counted steps that did not return Status::ok
alignas(16) float g_x[kInputs * kMaxIn];
sarnn::q15 g_xq[kInputs * kMaxIn];
alignas(16) unsigned char g_arena[320 * 1024];  // one model and its params at a time

std::uint32_t g_lcg = 0;
float uniform() {  // in [-1, 1)
    g_lcg = g_lcg * 1664525u + 1013904223u;
    return static_cast<float>(static_cast<std::int32_t>(g_lcg >> 8) - (1 << 23)) / static_cast<float>(1 << 23);
}
std::int8_t weight8() { return static_cast<std::int8_t>(uniform() * 127.0f); }

/// A fresh draw for one count: the seed, then the inputs of this In.
void start_draw(std::size_t in) {
    g_lcg = 20261205u;
    for (std::size_t k = 0; k < kInputs * in; ++k) {
        g_x[k] = uniform();
        g_xq[k] = sarnn::q15{static_cast<std::int16_t>(g_x[k] * 32767.0f)};
    }
}

struct Arena {
    std::size_t used = 0;
    template <class T, class... Args>
    T* make(Args&&... args) {
        used = (used + alignof(T) - 1) / alignof(T) * alignof(T);
        if (used + sizeof(T) > sizeof(g_arena)) {
            std::printf("arena too small for %u bytes\n", static_cast<unsigned>(sizeof(T)));
            ++g_refused;
            return nullptr;
        }
        T* p = new (g_arena + used) T(static_cast<Args&&>(args)...);
        used += sizeof(T);
        return p;
    }
};

template <class P>
P* float_params(Arena& a) {
    P* p = a.make<P>();
    if (p != nullptr)
        sarnn::for_each_array(*p, [](const char*, float* d, std::size_t n) {
            for (std::size_t k = 0; k < n; ++k) d[k] = 0.3f * uniform();
            return false;
        });
    return p;
}

// q15 params: int8 weights (the scale of weights of about ±0.3: 0.3 / 127 = 0.604·2^-8), biases in ±0.5, the
// formats a trained model would have at these weights (as bench/mcu/main.cpp's q15 table)
template <std::size_t In, std::size_t H>
sarnn::RnnParams<sarnn::q15, In, H>* q15_params(Arena& a) {
    auto* p = a.make<sarnn::RnnParams<sarnn::q15, In, H>>();
    if (p == nullptr) return nullptr;
    for (auto& row : p->A)
        for (auto& w : row) w = weight8();
    for (std::size_t r = 0; r < H; ++r) {
        p->b[r] = static_cast<std::int32_t>(uniform() * 2048.0f);
        p->m[r] = 1267449479;  // 0.3 / 127 / 8 = 1267449479·2^-(31 + 10)
        p->shift[r] = 10;
    }
    p->x_m = 1073741824;  // inputs in Q15: the factor 1
    p->x_shift = -1;
    return p;
}

template <std::size_t H>
sarnn::AdditiveParams<sarnn::q15, H, K>* q15_additive(Arena& a) {
    auto* p = a.make<sarnn::AdditiveParams<sarnn::q15, H, K>>();
    if (p == nullptr) return nullptr;
    for (auto& row : p->W)
        for (auto& w : row) w = weight8();
    for (auto& w : p->v) w = weight8();
    for (std::size_t k = 0; k < K; ++k) {
        p->m[k] = 1267449479;  // keys and query in Q3.12: w / 8
        p->shift[k] = 10;
    }
    p->f = 13;            // |e| <= Σ|v| < 4
    p->m_v = 1297080000;  // s_v·2^13 / 32768 = 0.604·2^-10
    p->shift_v = 10;
    return p;
}

template <std::size_t In, std::size_t H>
sarnn::LstmnParams<sarnn::q15, In, H, K>* q15_lstmn(Arena& a) {
    auto* p = a.make<sarnn::LstmnParams<sarnn::q15, In, H, K>>();
    if (p == nullptr) return nullptr;
    for (auto& row : p->W_ih)
        for (auto& w : row) w = weight8();
    for (auto& row : p->W_hh)
        for (auto& w : row) w = weight8();
    for (auto& row : p->W_h)
        for (auto& w : row) w = weight8();
    for (auto& row : p->W_x)
        for (auto& w : row) w = weight8();
    for (auto& row : p->W_ht)
        for (auto& w : row) w = weight8();
    for (auto& w : p->v) w = weight8();
    for (std::size_t r = 0; r < 4 * H; ++r) {
        p->b[r] = static_cast<std::int32_t>(uniform() * 2048.0f);
        p->m[r] = 1267449479;
        p->shift[r] = 10;
    }
    for (std::size_t k = 0; k < K; ++k) {
        p->m_a[k] = 1267449479;
        p->shift_a[k] = 10;
    }
    p->m_v = 1267449479;  // scores in Q12: s_v·2^12 / 32768 = 1267449479·2^-(31 + 7)
    p->shift_v = 7;
    p->f = 12;
    p->x_m = 1073741824;
    p->x_shift = -1;
    return p;
}

/// A plain cell's q15 params (GruParams, LstmParams) at this shape, drawn as main.cpp's (q15_cell_params.hpp).
template <class P>
P* q15_cell(Arena& a) {
    auto* p = a.make<P>();
    if (p != nullptr) sarnn_bench::mcu_params::fill(*p, uniform);
    return p;
}

// markers for qemu's instruction-count plugin (tools/qemu-count), as in main.cpp
extern "C" __attribute__((noinline)) void sarnn_count_begin() { __asm__ volatile(""); }
extern "C" __attribute__((noinline)) void sarnn_count_end() { __asm__ volatile(""); }

/// Mean instructions of the step that follows `warm` steps from a reset model, over kReps resets.
template <class Model, class X>
std::uint32_t step_after(Model* m, std::size_t warm, const X* xs, std::size_t in) {
    if (m == nullptr) return 0;
    std::uint64_t ticks = 0;
    for (std::uint32_t r = 0; r < kReps; ++r) {
        m->reset();
        for (std::size_t i = 0; i < warm; ++i) (void)m->step(xs + (i % kInputs) * in);
        sarnn_count_begin();
        const std::uint32_t t0 = mcu::SysTick::now();
        const sarnn::Status s = m->step(xs + ((warm + r) % kInputs) * in);
        const std::uint32_t t1 = mcu::SysTick::now();
        sarnn_count_end();
        if (s != sarnn::Status::ok) ++g_refused;
        ticks += mcu::SysTick::since(t0, t1);
    }
    return mcu::instructions(g_cal, ticks, kReps);
}

// ---- the counts ------------------------------------------------------------------------------------------------
enum Model { simple, dot, additive, lstmn, gru, lstm, kModels };
const char* const kModelName[kModels] = {
    "SimpleRnn", "SelfAttentionRnn dot", "SelfAttentionRnn additive K 16", "Lstmn K 16", "Gru", "Lstm"};

std::uint64_t macs(Model model, std::size_t in, std::size_t h) {
    switch (model) {
    case simple: return grid::simple_macs(in, h);
    case dot: return grid::dot_macs(in, h, kStates);
    case additive: return grid::additive_macs(in, h, kStates, K);
    case lstmn: return grid::lstmn_macs(in, h, kStates - 1, K);
    case gru: return grid::gru_macs(in, h);
    default: return grid::lstm_macs(in, h);
    }
}

std::uint32_t g_count[2][kModels][grid::kCount];  // [float, q15][model][shape]

template <std::size_t I>
void count_float() {
    constexpr std::size_t In = grid::kShapes[I].in, H = grid::kShapes[I].hidden;
    using P = sarnn::RnnParams<float, In, H>;
    {
        start_draw(In);
        Arena a;
        auto* p = float_params<P>(a);
        g_count[0][simple][I] = p ? step_after(a.make<sarnn::SimpleRnn<float, In, H, Tuned>>(*p), 8, g_x, In) : 0;
    }
    {
        start_draw(In);
        Arena a;
        auto* p = float_params<P>(a);
        using M = sarnn::SelfAttentionRnn<float, In, H, C, sarnn::DotAlign, sarnn::Bounded, Tuned>;
        g_count[0][dot][I] = p ? step_after(a.make<M>(*p), kStates - 1, g_x, In) : 0;
    }
    {
        start_draw(In);
        Arena a;
        using M = sarnn::SelfAttentionRnn<float, In, H, C, sarnn::AdditiveAlign<K>, sarnn::Bounded, Tuned>;
        auto* p = float_params<P>(a);
        auto* ap = float_params<typename M::AlignParams>(a);
        g_count[0][additive][I] = p && ap ? step_after(a.make<M>(*p, *ap), kStates - 1, g_x, In) : 0;
    }
    {
        start_draw(In);
        Arena a;
        using M = sarnn::Lstmn<float, In, H, C, K, sarnn::Bounded, Tuned>;
        auto* p = float_params<typename M::Params>(a);
        g_count[0][lstmn][I] = p ? step_after(a.make<M>(*p), kStates - 1, g_x, In) : 0;
    }
    {
        start_draw(In);
        Arena a;
        auto* p = float_params<sarnn::GruParams<float, In, H>>(a);
        g_count[0][gru][I] = p ? step_after(a.make<sarnn::Gru<float, In, H, Tuned>>(*p), kCellWarm, g_x, In) : 0;
    }
    {
        start_draw(In);
        Arena a;
        auto* p = float_params<sarnn::LstmParams<float, In, H>>(a);
        g_count[0][lstm][I] = p ? step_after(a.make<sarnn::Lstm<float, In, H, Tuned>>(*p), kCellWarm, g_x, In) : 0;
    }
}

template <std::size_t I>
void count_q15() {
    constexpr std::size_t In = grid::kShapes[I].in, H = grid::kShapes[I].hidden;
    using sarnn::q15;
    {
        start_draw(In);
        Arena a;
        auto* p = q15_params<In, H>(a);
        g_count[1][simple][I] = p ? step_after(a.make<sarnn::SimpleRnn<q15, In, H>>(*p), 8, g_xq, In) : 0;
    }
    {
        start_draw(In);
        Arena a;
        auto* p = q15_params<In, H>(a);
        using M = sarnn::SelfAttentionRnn<q15, In, H, C, sarnn::DotAlign>;
        g_count[1][dot][I] = p ? step_after(a.make<M>(*p), kStates - 1, g_xq, In) : 0;
    }
    {
        start_draw(In);
        Arena a;
        auto* p = q15_params<In, H>(a);
        auto* ap = q15_additive<H>(a);
        using M = sarnn::SelfAttentionRnn<q15, In, H, C, sarnn::AdditiveAlign<K>>;
        g_count[1][additive][I] = p && ap ? step_after(a.make<M>(*p, *ap), kStates - 1, g_xq, In) : 0;
    }
    {
        start_draw(In);
        Arena a;
        auto* p = q15_lstmn<In, H>(a);
        g_count[1][lstmn][I] = p ? step_after(a.make<sarnn::Lstmn<q15, In, H, C, K>>(*p), kStates - 1, g_xq, In) : 0;
    }
    {
        start_draw(In);
        Arena a;
        auto* p = q15_cell<sarnn::GruParams<q15, In, H>>(a);
        g_count[1][gru][I] = p ? step_after(a.make<sarnn::Gru<q15, In, H>>(*p), kCellWarm, g_xq, In) : 0;
    }
    {
        start_draw(In);
        Arena a;
        auto* p = q15_cell<sarnn::LstmParams<q15, In, H>>(a);
        g_count[1][lstm][I] = p ? step_after(a.make<sarnn::Lstm<q15, In, H>>(*p), kCellWarm, g_xq, In) : 0;
    }
}

// the number types this image counts: 1 float, 2 q15, 3 both (the default)
#ifndef SARNN_BENCH_GRID_TYPE
#define SARNN_BENCH_GRID_TYPE 3
#endif
constexpr bool kFloat = (SARNN_BENCH_GRID_TYPE & 1) != 0;
constexpr bool kQ15 = (SARNN_BENCH_GRID_TYPE & 2) != 0;
static_assert(kFloat || kQ15, "SARNN_BENCH_GRID_TYPE: 1 (float), 2 (q15) or 3 (both)");

template <std::size_t... I>
void count_all(std::index_sequence<I...>) {
    if constexpr (kFloat) (count_float<I>(), ...);
    if constexpr (kQ15) (count_q15<I>(), ...);
}

// ---- the tables ------------------------------------------------------------------------------------------------
/// v / d to two decimals, as "x.yz".
void print_centi(std::uint64_t v, std::uint64_t d) {
    const unsigned long c = d == 0 ? 0ul : static_cast<unsigned long>((v * 100u + d / 2) / d);
    std::printf("%lu.%02lu", c / 100, c % 100);
}

/// Per multiply-add relative to the reference, times 100 (rounded): (v / macs) / (v_ref / macs_ref).
std::uint64_t ratio_centi(int t, Model model, std::size_t s) {
    const std::uint64_t num = std::uint64_t{g_count[t][model][s]} *
                              macs(model, grid::kReference.in, grid::kReference.hidden);
    const std::uint64_t den = std::uint64_t{g_count[t][model][0]} *
                              macs(model, grid::kShapes[s].in, grid::kShapes[s].hidden);
    return den == 0 ? 0 : (num * 100u + den / 2) / den;
}

void print_table(int t, const char* type) {
    std::printf(
        "\nGrid (%s, %s): n = %u, Capacity %u, K %u; x ref: /MAC over the same model's /MAC at In %u, Hidden %u\n\n",
        type, grid::kName, static_cast<unsigned>(kStates), static_cast<unsigned>(C), static_cast<unsigned>(K),
        static_cast<unsigned>(grid::kReference.in), static_cast<unsigned>(grid::kReference.hidden));
    std::printf("| model | type | In | Hidden | instructions | MACs | /MAC | x ref |\n");
    std::printf("|---|---|---:|---:|---:|---:|---:|---:|\n");
    for (int model = 0; model < kModels; ++model)
        for (std::size_t s = 0; s < grid::kCount; ++s) {
            const std::size_t in = grid::kShapes[s].in, h = grid::kShapes[s].hidden;
            const std::uint64_t n = macs(static_cast<Model>(model), in, h);
            std::printf("| %s | %s | %u | %u | %lu | %lu | ", kModelName[model], type, static_cast<unsigned>(in),
                        static_cast<unsigned>(h), static_cast<unsigned long>(g_count[t][model][s]),
                        static_cast<unsigned long>(n));
            print_centi(g_count[t][model][s], n);
            std::printf(" | ");
            const std::uint64_t r = ratio_centi(t, static_cast<Model>(model), s);
            std::printf("%lu.%02lu |\n", static_cast<unsigned long>(r / 100), static_cast<unsigned long>(r % 100));
        }
}

/// Summary rows (scripts/bench-mcu gathers them from every core into one table).
void print_summary(int t, const char* type) {
    for (int model = 0; model < kModels; ++model) {
        std::uint64_t worst12 = 0, worst = 0;
        std::size_t at12 = 0, at = 0;
        for (std::size_t s = 1; s < grid::kCount; ++s) {
            const std::uint64_t r = ratio_centi(t, static_cast<Model>(model), s);
            if (r > worst) worst = r, at = s;
            if (grid::kShapes[s].hidden >= grid::kTargetMinHidden && r > worst12) worst12 = r, at12 = s;
        }
        std::printf("| %s | %s | ", kModelName[model], type);
        print_centi(g_count[t][model][0],
                    macs(static_cast<Model>(model), grid::kReference.in, grid::kReference.hidden));
        std::printf(" | %lu.%02lu (In %u, Hidden %u) | %lu.%02lu (In %u, Hidden %u) |\n",
                    static_cast<unsigned long>(worst12 / 100), static_cast<unsigned long>(worst12 % 100),
                    static_cast<unsigned>(grid::kShapes[at12].in), static_cast<unsigned>(grid::kShapes[at12].hidden),
                    static_cast<unsigned long>(worst / 100), static_cast<unsigned long>(worst % 100),
                    static_cast<unsigned>(grid::kShapes[at].in), static_cast<unsigned>(grid::kShapes[at].hidden));
    }
}

}  // namespace

int main() {
    g_cal = mcu::calibrate();
    std::printf("instructions per tick: %lu/1024, empty span: %lu ticks\n",
                static_cast<unsigned long>(g_cal.instr_per_1024_ticks), static_cast<unsigned long>(g_cal.empty_ticks));
    count_all(std::make_index_sequence<grid::kCount>{});
    std::printf("float: kernel::Default, the %s set; q15: kernel::Q15\n", sarnn::arch_name(Tuned::arch));
    if (kFloat) print_table(0, "float");
    if (kQ15) print_table(1, "q15");
    std::printf("\nGrid summary: the reference /MAC, the worst x ref over Hidden >= %u (the targets) and over all\n\n",
                static_cast<unsigned>(grid::kTargetMinHidden));
    std::printf("| model | type | reference /MAC | worst x ref, Hidden >= %u | worst x ref, all |\n",
                static_cast<unsigned>(grid::kTargetMinHidden));
    std::printf("|---|---|---:|---:|---:|\n");
    if (kFloat) print_summary(0, "float");
    if (kQ15) print_summary(1, "q15");
    if (g_refused != 0) std::printf("FAIL: %d counted steps did not return Status::ok\n", g_refused);
    std::printf("\n%d passed, %d failed\n", g_refused == 0 ? 1 : 0, g_refused == 0 ? 0 : 1);
    return g_refused == 0 ? 0 : 1;
}
