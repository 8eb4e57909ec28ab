// bench/mcu/main.cpp: instructions per step() on a Cortex-M, counted under qemu-system-arm -icount shift=6
// (counter.hpp). With SARNN_BENCH_MCU_QUICK=1 (the Cortex-M presets: the test command's smoke run) three shapes
// only, Hidden 16: SimpleRnn, SelfAttentionRnn dot n 16, Lstmn n 16, float and q15 (and Gru at Hidden 32). Otherwise (scripts/bench-mcu):
// every model and align at the sizes firmware uses (In 16; Hidden 16, 32, 64; Capacity 64; K 16),
// side by side in one image: the formulas as plain loops (plain.hpp), sarnn's reference scalar set
// (kernel::Scalar) and the build's default set (kernel::CortexM on these targets). Prints one markdown table; scripts/bench-mcu
// runs it per core and writes bench/results/mcu.md.
//
// A row is one step(): of a SimpleRnn; of a SelfAttentionRnn whose Bounded memory goes from n-1 to n states
// (the step attends over n), or of a full Window (attends over Capacity); of an Lstmn with n-1 tape entries.
// Each figure is the mean over kReps such steps, each timed on its own (one SysTick tick is 40 instructions:
// the mean is good to a few instructions). Weights: uniform in ±0.3 (in RAM here: the count does not depend on
// where they are), inputs uniform in ±1.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <new>
#include <type_traits>

#include <sarnn/sarnn.hpp>

#include "counter.hpp"
#include "plain.hpp"
#include "q15_cell_params.hpp"

namespace {

constexpr std::size_t In = 16;
constexpr std::size_t C = 64;
constexpr std::size_t K = 16;
constexpr std::uint32_t kReps = 8;
constexpr std::size_t kInputs = 8;
constexpr std::size_t kStates[] = {1, 16, 64};  // n of the Bounded rows
/// The set the build gives models by default: kernel::CortexM on the Cortex-M targets (lib/kernels/cortex_m.cpp),
/// kernel::Mve with Helium (lib/kernels/arm_mve.cpp).
using Tuned = sarnn::kernel::Default;
/// With Helium the table also has the best scalar set on the same core (kernel::CortexM) next to it.
#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 2)
#define SARNN_BENCH_SCALAR_BEST 1
using ScalarBest = sarnn::kernel::CortexM;
#else
#define SARNN_BENCH_SCALAR_BEST 0
#endif

mcu::Calibration g_cal;
int g_refused = 0;  // timed steps that did not return Status::ok (the figure would not be a step's)
alignas(16) float g_x[kInputs][In];
sarnn::q15 g_xq[kInputs][In];                   // the q15 models' inputs
alignas(16) unsigned char g_arena[176 * 1024];  // params, align params and one model at a time

std::uint32_t g_lcg = 12345u;
float uniform() {  // in [-1, 1)
    g_lcg = g_lcg * 1664525u + 1013904223u;
    return static_cast<float>(static_cast<std::int32_t>(g_lcg >> 8) - (1 << 23)) / static_cast<float>(1 << 23);
}

/// Placement in the arena: params first, then the model.
struct Arena {
    std::size_t used = 0;
    template <class T, class... Args>
    T* make(Args&&... args) {
        used = (used + alignof(T) - 1) / alignof(T) * alignof(T);
        if (used + sizeof(T) > sizeof(g_arena)) {
            std::printf("arena too small for %u bytes\n", static_cast<unsigned>(sizeof(T)));
            return nullptr;
        }
        T* p = new (g_arena + used) T(static_cast<Args&&>(args)...);
        used += sizeof(T);
        return p;
    }
};

template <class P>
P* make_params(Arena& a) {
    P* p = a.make<P>();
    if (p != nullptr)
        sarnn::for_each_array(*p, [](const char*, float* d, std::size_t n) {
            for (std::size_t k = 0; k < n; ++k) d[k] = 0.3f * uniform();
            return false;
        });
    return p;
}

// markers for qemu's instruction-count plugin (tools/qemu-count: symbols=on gives a step's instructions per
// function under qemu-system-arm -plugin ...); each timed step is between them, outside the SysTick span
extern "C" __attribute__((noinline)) void sarnn_count_begin() { __asm__ volatile(""); }
extern "C" __attribute__((noinline)) void sarnn_count_end() { __asm__ volatile(""); }

/// Mean instructions of the step that follows `warm` steps from a reset model, over kReps resets, on the inputs xs
/// (g_x, or g_xq for the q15 models).
template <class Model, class X = float>
std::uint32_t step_after(Model& m, std::size_t warm, const X (&xs)[kInputs][In] = g_x) {
    std::uint64_t ticks = 0;
    for (std::uint32_t r = 0; r < kReps; ++r) {
        m.reset();
        for (std::size_t i = 0; i < warm; ++i) (void)m.step(xs[i % kInputs]);
        sarnn_count_begin();
        const std::uint32_t t0 = mcu::SysTick::now();
        const sarnn::Status s = m.step(xs[(warm + r) % kInputs]);
        const std::uint32_t t1 = mcu::SysTick::now();
        sarnn_count_end();
        if (s != sarnn::Status::ok) ++g_refused;
        ticks += mcu::SysTick::since(t0, t1);
    }
    return mcu::instructions(g_cal, ticks, kReps);
}

/// Mean instructions of kReps steps of a model that is already in its steady state (SimpleRnn, full Window), on
/// the inputs xs (g_x, or g_xq for the q15 models).
template <class Model, class X = float>
std::uint32_t steady_step(Model& m, const X (&xs)[kInputs][In] = g_x) {
    std::uint64_t ticks = 0;
    for (std::uint32_t r = 0; r < kReps; ++r) {
        sarnn_count_begin();
        const std::uint32_t t0 = mcu::SysTick::now();
        const sarnn::Status s = m.step(xs[r % kInputs]);
        const std::uint32_t t1 = mcu::SysTick::now();
        sarnn_count_end();
        if (s != sarnn::Status::ok) ++g_refused;
        ticks += mcu::SysTick::since(t0, t1);
    }
    return mcu::instructions(g_cal, ticks, kReps);
}

constexpr std::uint32_t kNone = 0xFFFFFFFFu;

struct Row {
    const char* model;
    const char* align;
    std::size_t hidden;
    std::size_t n;       // states attended (0: SimpleRnn)
    std::uint64_t macs;  // multiply-adds of the step (0: not stated)
    std::uint32_t plain = kNone;
    std::uint32_t scalar = kNone;
    std::uint32_t tuned = kNone;
    std::uint32_t best_scalar = kNone;  // kernel::CortexM where Tuned is Helium's
};

void print_count(std::uint32_t v) {
    if (v == kNone)
        std::printf(" – |");
    else
        std::printf(" %lu |", static_cast<unsigned long>(v));
}
void print_per_mac(std::uint32_t v, std::uint64_t macs) {
    if (v == kNone || macs == 0) {
        std::printf(" – |");
    } else {
        const unsigned long centi = static_cast<unsigned long>((std::uint64_t{v} * 100u + macs / 2) / macs);
        std::printf(" %lu.%02lu |", centi / 100, centi % 100);
    }
}
void print(const Row& r) {
    std::printf("| %s | %s | %u | %u |", r.model, r.align, static_cast<unsigned>(r.hidden), static_cast<unsigned>(r.n));
    print_count(r.plain);
    print_count(r.scalar);
#if SARNN_BENCH_SCALAR_BEST
    print_count(r.best_scalar);
#endif
    print_count(r.tuned);
    print_per_mac(r.plain, r.macs);
    print_per_mac(r.scalar, r.macs);
#if SARNN_BENCH_SCALAR_BEST
    print_per_mac(r.best_scalar, r.macs);
#endif
    print_per_mac(r.tuned, r.macs);
    std::printf("\n");
}

// ---- the rows ------------------------------------------------------------------------------------------------
template <std::size_t H, class Set>
std::uint32_t simple_rnn() {
    Arena a;
    auto* p = make_params<sarnn::RnnParams<float, In, H>>(a);
    auto* m = a.make<sarnn::SimpleRnn<float, In, H, Set>>(*p);
    return steady_step(*m);
}

template <std::size_t H>
void simple_rows() {
    Row r{"SimpleRnn", "–", H, 0, H * (In + H)};
    {
        Arena a;
        auto* p = make_params<sarnn::RnnParams<float, In, H>>(a);
        auto* m = a.make<plain::SimpleRnn<In, H, sarnn::RnnParams<float, In, H>>>(*p);
        r.plain = steady_step(*m);
    }
    r.scalar = simple_rnn<H, sarnn::kernel::Scalar>();
    r.tuned = simple_rnn<H, Tuned>();
#if SARNN_BENCH_SCALAR_BEST
    r.best_scalar = simple_rnn<H, ScalarBest>();
#endif
    print(r);
}

template <std::size_t H, class Set>
std::uint32_t gru_step() {
    Arena a;
    auto* p = make_params<sarnn::GruParams<float, In, H>>(a);
    auto* m = a.make<sarnn::Gru<float, In, H, Set>>(*p);
    return steady_step(*m);
}

/// The GRU: 3·H·(In + H) multiply-adds; its params' draws leave the rows after it as they were.
template <std::size_t H>
void gru_rows() {
    const std::uint32_t seed = g_lcg;
    Row r{"Gru", "–", H, 0, 3 * H * (In + H)};
    r.scalar = gru_step<H, sarnn::kernel::Scalar>();
    r.tuned = gru_step<H, Tuned>();
#if SARNN_BENCH_SCALAR_BEST
    r.best_scalar = gru_step<H, ScalarBest>();
#endif
    print(r);
    g_lcg = seed;
}

/// A SelfAttentionRnn step attending over n states (Bounded: after n-1 steps; Window: full, n = C).
template <std::size_t H, class Align, class Memory, class Set>
std::uint32_t sar_step(std::size_t n) {
    using Model = sarnn::SelfAttentionRnn<float, In, H, C, Align, Memory, Set>;
    Arena a;
    auto* p = make_params<sarnn::RnnParams<float, In, H>>(a);
    Model* m = nullptr;
    if constexpr (std::is_void_v<typename Model::AlignParams>) {
        m = a.make<Model>(*p);
    } else {
        auto* ap = make_params<typename Model::AlignParams>(a);
        m = a.make<Model>(*p, *ap);
    }
    if constexpr (std::is_same_v<Memory, sarnn::Window>) {
        for (std::size_t i = 0; i < C + 3; ++i) (void)m->step(g_x[i % kInputs]);
        return steady_step(*m);
    } else {
        return step_after(*m, n - 1);
    }
}

/// The same step as plain loops (plain.hpp), with the score the align computes.
template <std::size_t H, class Align>
std::uint32_t plain_step(std::size_t n) {
    using P = sarnn::RnnParams<float, In, H>;
    Arena a;
    auto* p = make_params<P>(a);
    if constexpr (std::is_same_v<Align, sarnn::DotAlign> || std::is_same_v<Align, sarnn::ScaledDotAlign>) {
        const float scale = std::is_same_v<Align, sarnn::DotAlign> ? 1.0f : 1.0f / std::sqrt(static_cast<float>(H));
        auto* m = a.make<plain::SelfAttentionRnn<In, H, C, P, plain::Dot<H>>>(*p, plain::Dot<H>{scale});
        return step_after(*m, n - 1);
    } else if constexpr (std::is_same_v<Align, sarnn::BilinearAlign>) {
        using AP = sarnn::BilinearParams<float, H>;
        auto* ap = make_params<AP>(a);
        auto* m = a.make<plain::SelfAttentionRnn<In, H, C, P, plain::Bilinear<H, AP>>>(*p, plain::Bilinear<H, AP>{*ap});
        return step_after(*m, n - 1);
    } else if constexpr (std::is_same_v<Align, sarnn::KeyQueryAlign<K>>) {
        using AP = sarnn::KeyQueryParams<float, H, K>;
        using S = plain::KeyQuery<H, K, C, AP>;
        auto* ap = make_params<AP>(a);
        auto* m = a.make<plain::SelfAttentionRnn<In, H, C, P, S>>(*p, S{*ap});
        return step_after(*m, n - 1);
    } else {
        using AP = sarnn::AdditiveParams<float, H, K>;
        using S = plain::Additive<H, K, C, AP>;
        auto* ap = make_params<AP>(a);
        auto* m = a.make<plain::SelfAttentionRnn<In, H, C, P, S>>(*p, S{*ap});
        return step_after(*m, n - 1);
    }
}

template <std::size_t H, class Align, class Memory = sarnn::Bounded>
void sar_row(const char* align, std::size_t n, std::uint64_t align_macs, std::uint64_t per_state_macs) {
    const bool window = std::is_same_v<Memory, sarnn::Window>;
    Row r{window ? "SelfAttentionRnn, Window full" : "SelfAttentionRnn", align, H, n,
          H * (In + H) + align_macs + n * per_state_macs};
    if (!window) r.plain = plain_step<H, Align>(n);
    r.scalar = sar_step<H, Align, Memory, sarnn::kernel::Scalar>(n);
    r.tuned = sar_step<H, Align, Memory, Tuned>(n);
#if SARNN_BENCH_SCALAR_BEST
    r.best_scalar = sar_step<H, Align, Memory, ScalarBest>(n);
#endif
    print(r);
}

template <std::size_t H, class Set>
std::uint32_t lstmn_step(std::size_t n) {
    using Model = sarnn::Lstmn<float, In, H, C, K, sarnn::Bounded, Set>;
    Arena a;
    auto* p = make_params<typename Model::Params>(a);
    auto* m = a.make<Model>(*p);
    return step_after(*m, n - 1);  // attends over the n - 1 tape entries of the steps before
}

template <std::size_t H>
void lstmn_row(std::size_t n) {
    // query K·(In + Hidden), scores n·K tanh (not counted), summaries 2·n·Hidden, gates 4·Hidden·(In + Hidden),
    // the new key K·Hidden
    Row r{"Lstmn", "K 16", H, n, K * (In + H) + 2 * (n - 1) * H + 4 * H * (In + H) + K * H};
    {
        using P = sarnn::LstmnParams<float, In, H, K>;
        Arena a;
        auto* p = make_params<P>(a);
        auto* m = a.make<plain::Lstmn<In, H, C, K, P>>(*p);
        r.plain = step_after(*m, n - 1);
    }
    r.scalar = lstmn_step<H, sarnn::kernel::Scalar>(n);
    r.tuned = lstmn_step<H, Tuned>(n);
#if SARNN_BENCH_SCALAR_BEST
    r.best_scalar = lstmn_step<H, ScalarBest>(n);
#endif
    print(r);
}

template <std::size_t H, class Set>
std::uint32_t lstm_step() {
    Arena a;
    auto* p = make_params<sarnn::LstmParams<float, In, H>>(a);
    auto* m = a.make<sarnn::Lstm<float, In, H, Set>>(*p);
    return step_after(*m, 3);  // from a state of three steps
}

/// The Lstm's row (the gates, 4·Hidden·(In + Hidden)), from a state of three steps. Its draws are given back: the
/// rows after it see the weights they saw before it was added.
template <std::size_t H>
void lstm_row() {
    const std::uint32_t seed = g_lcg;
    Row r{"Lstm", "–", H, 0, 4 * H * (In + H)};
    {
        using P = sarnn::LstmParams<float, In, H>;
        Arena a;
        auto* p = make_params<P>(a);
        auto* m = a.make<plain::Lstm<In, H, P>>(*p);
        r.plain = step_after(*m, 3);
    }
    r.scalar = lstm_step<H, sarnn::kernel::Scalar>();
    r.tuned = lstm_step<H, Tuned>();
#if SARNN_BENCH_SCALAR_BEST
    r.best_scalar = lstm_step<H, ScalarBest>();
#endif
    print(r);
    g_lcg = seed;
}

template <std::size_t H>
void rows_for() {
    simple_rows<H>();
    gru_rows<H>();
    // dot forms: e_j = h_j·h_i: 2·n·H per step (scores and the weighted sum)
    for (std::size_t n : kStates) sar_row<H, sarnn::DotAlign>("dot", n, 0, 2 * H);
    for (std::size_t n : kStates) sar_row<H, sarnn::ScaledDotAlign>("scaled dot", n, 0, 2 * H);
    sar_row<H, sarnn::DotAlign, sarnn::Window>("dot", C, 0, 2 * H);
    // bilinear: q = W h_i (H²), then as dot
    for (std::size_t n : kStates) sar_row<H, sarnn::BilinearAlign>("bilinear", n, H * H, 2 * H);
    // key/query: u = Wq h_i, and the key Wk h_i (cached) or q = Wkᵀ u (folded): 2·K·H, then n·(K + H) or 2·n·H
    // (the plain loops cache the keys)
    constexpr bool cached = sarnn::KeyQueryAlign<K>::template State<float, H, C>::caches_keys;
    for (std::size_t n : kStates)
        sar_row<H, sarnn::KeyQueryAlign<K>>(cached ? "key/query K 16 (keys cached)" : "key/query K 16 (folded)", n,
                                            2 * K * H, cached ? K + H : 2 * H);
    // additive: q and the new key P_i, 2·K·H; n·K tanh (not counted) and K per state; the weighted sum n·H
    for (std::size_t n : kStates) sar_row<H, sarnn::AdditiveAlign<K>>("additive K 16", n, 2 * K * H, K + H);
    for (std::size_t n : kStates) lstmn_row<H>(n);
    lstm_row<H>();
}

// ---- q15 (integers only: kernel::Q15) -------------------------------------------------------------------------

template <std::size_t H>
sarnn::RnnParams<sarnn::q15, In, H>* make_q15_params(Arena& a) {
    auto* p = a.make<sarnn::RnnParams<sarnn::q15, In, H>>();
    if (p == nullptr) return nullptr;
    // int8 weights, b in +-0.5, the row factors of weights of about +-0.3 (a_r = 0.3 / 127): pre-activations
    // in the range a trained model has
    for (auto& row : p->A)
        for (auto& w : row) w = static_cast<std::int8_t>(uniform() * 127.0f);
    for (std::size_t r = 0; r < H; ++r) {
        p->b[r] = static_cast<std::int32_t>(uniform() * 2048.0f);
        p->m[r] = 1267449479;  // 0.3 / 127 / 8 = 1267449479 · 2^-(31 + 10)
        p->shift[r] = 10;
    }
    p->x_m = 1073741824;  // inputs in Q15: the factor 1
    p->x_shift = -1;
    return p;
}

/// int8 weights of about +-0.3 (the scale 0.3 / 127, as the model's rows), uniform
template <class Row>
void fill_q15_weights(Row& w) {
    for (auto& v : w) v = static_cast<std::int8_t>(uniform() * 127.0f);
}

/// The align params of the q15 aligns, with the formats a trained model's would have at these weights (params.hpp):
/// 0.3 / 127 = 0.604·2^-8; the queries' bounds Σ|w| < 2^g.
template <std::size_t H>
void fill_q15_align(sarnn::BilinearParams<sarnn::q15, H>& p) {
    for (auto& row : p.W) fill_q15_weights(row);
    p.g = 3;
    for (std::size_t r = 0; r < H; ++r) {
        p.m[r] = 1297080000;  // 0.604·2^31: w_r / 2^g = 0.604·2^-11
        p.shift[r] = 11;
    }
}
template <std::size_t H>
void fill_q15_align(sarnn::KeyQueryParams<sarnn::q15, H, K>& p) {
    for (auto& row : p.Wk) fill_q15_weights(row);
    for (auto& row : p.Wq) fill_q15_weights(row);
    p.g_k = p.g_u = 2;
    p.g = 3;
    for (std::size_t k = 0; k < K; ++k) {
        p.m_k[k] = p.m_q[k] = 1297080000;  // w / 2^2
        p.shift_k[k] = p.shift_q[k] = 10;
        p.m_f[k] = 1567000000;  // wk·wq / 2^-6 = 0.73·2^-11
        p.shift_f[k] = 11;
    }
    p.m_t = 1073741824;  // 2^(g_f - g) = 2^-9
    p.shift_t = 8;
}
template <std::size_t H>
void fill_q15_align(sarnn::AdditiveParams<sarnn::q15, H, K>& p) {
    for (auto& row : p.W) fill_q15_weights(row);
    fill_q15_weights(p.v);
    for (std::size_t k = 0; k < K; ++k) {
        p.m[k] = 1267449479;  // keys and query in Q3.12: w / 8
        p.shift[k] = 10;
    }
    p.f = 13;            // |e| <= Σ|v| < 4
    p.m_v = 1297080000;  // s_v·2^13 / 32768 = 0.604·2^-10
    p.shift_v = 10;
}

template <std::size_t H, class Align, class Memory, class Set>
std::uint32_t q15_step(std::size_t n) {
    using Model = sarnn::SelfAttentionRnn<sarnn::q15, In, H, C, Align, Memory, Set>;
    Arena a;
    auto* p = make_q15_params<H>(a);
    Model* m = nullptr;
    if constexpr (std::is_void_v<typename Model::AlignParams>) {
        m = a.make<Model>(*p);
    } else {
        auto* ap = a.make<typename Model::AlignParams>();
        fill_q15_align(*ap);
        m = a.make<Model>(*p, *ap);
    }
    return step_after(*m, std::is_same_v<Memory, sarnn::Window> ? C + 3 : n - 1, g_xq);
}

template <std::size_t H>
sarnn::LstmnParams<sarnn::q15, In, H, K>* make_q15_lstmn_params(Arena& a) {
    auto* p = a.make<sarnn::LstmnParams<sarnn::q15, In, H, K>>();
    if (p == nullptr) return nullptr;
    // as make_q15_params: int8 weights, row factors of weights of about +-0.3, b in +-0.5; v's scores in Q12
    for (auto* W : {&p->W_ih[0][0], &p->W_hh[0][0]})
        for (std::size_t k = 0; k < 4 * H * (W == &p->W_ih[0][0] ? In : H); ++k)
            W[k] = static_cast<std::int8_t>(uniform() * 127.0f);
    for (auto* W : {&p->W_h[0][0], &p->W_x[0][0], &p->W_ht[0][0]})
        for (std::size_t k = 0; k < K * (W == &p->W_x[0][0] ? In : H); ++k)
            W[k] = static_cast<std::int8_t>(uniform() * 127.0f);
    for (auto& v : p->v) v = static_cast<std::int8_t>(uniform() * 127.0f);
    for (std::size_t r = 0; r < 4 * H; ++r) {
        p->b[r] = static_cast<std::int32_t>(uniform() * 2048.0f);
        p->m[r] = 1267449479;  // 0.3 / 127 / 8 = 1267449479 · 2^-(31 + 10)
        p->shift[r] = 10;
    }
    for (std::size_t k = 0; k < K; ++k) {
        p->m_a[k] = 1267449479;
        p->shift_a[k] = 10;
    }
    p->m_v = 1267449479;  // s_v = 0.3 / 127, scores in Q12: s_v·2^12 / 32768 = 1267449479 · 2^-(31 + 7)
    p->shift_v = 7;
    p->f = 12;
    p->x_m = 1073741824;  // inputs in Q15: the factor 1
    p->x_shift = -1;
    return p;
}

template <std::size_t H, class Memory, class Set>
std::uint32_t q15_lstmn_step(std::size_t n) {
    Arena a;
    auto* p = make_q15_lstmn_params<H>(a);
    auto* m = a.make<sarnn::Lstmn<sarnn::q15, In, H, C, K, Memory, Set>>(*p);
    // Bounded: the step after n - 1 (attends n - 1 tape entries); Window: a full one (attends C)
    return step_after(*m, std::is_same_v<Memory, sarnn::Window> ? C + 3 : n - 1, g_xq);
}

/// A plain cell's q15 params (sarnn::GruParams or LstmParams at In 16), drawn as q15_cell_params.hpp says.
template <class P>
P* make_q15_cell_params(Arena& a) {
    auto* p = a.make<P>();
    if (p != nullptr) sarnn_bench::mcu_params::fill(*p, uniform);
    return p;
}

template <std::size_t H, class Set>
std::uint32_t q15_lstm_step() {
    Arena a;
    auto* p = make_q15_cell_params<sarnn::LstmParams<sarnn::q15, In, H>>(a);
    auto* m = a.make<sarnn::Lstm<sarnn::q15, In, H, Set>>(*p);
    return step_after(*m, 3, g_xq);  // from a state of three steps
}

template <std::size_t H, class Set>
std::uint32_t q15_simple_step() {
    Arena a;
    auto* p = make_q15_params<H>(a);
    auto* m = a.make<sarnn::SimpleRnn<sarnn::q15, In, H, Set>>(*p);
    return steady_step(*m, g_xq);
}

template <std::size_t H, class Set>
std::uint32_t q15_gru_step() {
    Arena a;
    auto* p = make_q15_cell_params<sarnn::GruParams<sarnn::q15, In, H>>(a);
    auto* m = a.make<sarnn::Gru<sarnn::q15, In, H, Set>>(*p);
    return steady_step(*m, g_xq);
}

/// One q15 row's count with this target's loops (kernel::Q15) and with the plain C++ ones (kernel::Q15Plain), both
/// from the same draws (the draw then goes on as after one count, so the rows below see the draws they always did).
struct Q15Counts {
    std::uint32_t loops, plain;
};
template <class Count>
Q15Counts q15_counts(Count count) {
    const std::uint32_t seed = g_lcg;
    const std::uint32_t loops = count(sarnn::kernel::Q15{});
    const std::uint32_t after = g_lcg;
    g_lcg = seed;
    const std::uint32_t plain = count(sarnn::kernel::Q15Plain{});
    g_lcg = after;
    return {loops, plain};
}

[[maybe_unused]] void print_q15(const char* model, const char* align, std::size_t h, std::size_t n, Q15Counts v,
                                std::uint64_t macs, std::size_t ram) {
    std::printf("| %s | %s | %u | %u | %lu |", model, align, static_cast<unsigned>(h), static_cast<unsigned>(n),
                static_cast<unsigned long>(v.loops));
    print_per_mac(v.loops, macs);
    std::printf(" %lu |", static_cast<unsigned long>(v.plain));
    print_per_mac(v.plain, macs);
    std::printf(" %u |\n", static_cast<unsigned>(ram));
}

/// The GRU's q15 row (3·H·(In + H) multiply-adds); its draws leave the rows after it as they were.
template <std::size_t H>
void q15_gru_row() {
    const std::uint32_t seed = g_lcg;
    print_q15("Gru", "–", H, 0, q15_counts([](auto set) { return q15_gru_step<H, decltype(set)>(); }), 3 * H * (In + H),
              sizeof(sarnn::Gru<sarnn::q15, In, H>));
    g_lcg = seed;
}

template <std::size_t H>
void q15_rows() {
    print_q15("SimpleRnn", "–", H, 0, q15_counts([](auto set) { return q15_simple_step<H, decltype(set)>(); }),
              H * (In + H), sizeof(sarnn::SimpleRnn<sarnn::q15, In, H>));
    q15_gru_row<H>();
    using Dot = sarnn::SelfAttentionRnn<sarnn::q15, In, H, C, sarnn::DotAlign>;
    using Scaled = sarnn::SelfAttentionRnn<sarnn::q15, In, H, C, sarnn::ScaledDotAlign>;
    using Win = sarnn::SelfAttentionRnn<sarnn::q15, In, H, C, sarnn::DotAlign, sarnn::Window>;
    for (std::size_t n : kStates)
        print_q15("SelfAttentionRnn", "dot", H, n,
                  q15_counts([n](auto set) { return q15_step<H, sarnn::DotAlign, sarnn::Bounded, decltype(set)>(n); }),
                  H * (In + H) + 2 * n * H, sizeof(Dot));
    print_q15("SelfAttentionRnn", "scaled dot", H, C,
              q15_counts([](auto set) { return q15_step<H, sarnn::ScaledDotAlign, sarnn::Bounded, decltype(set)>(C); }),
              H * (In + H) + 2 * C * H, sizeof(Scaled));
    print_q15("SelfAttentionRnn, Window full", "dot", H, C,
              q15_counts([](auto set) { return q15_step<H, sarnn::DotAlign, sarnn::Window, decltype(set)>(C); }),
              H * (In + H) + 2 * C * H, sizeof(Win));
    // the LSTMN: as the float rows (n - 1 tape entries attended; the Window full attends C)
    const auto lstmn_macs = [](std::size_t attended) {
        return K * (In + H) + 2 * attended * H + 4 * H * (In + H) + K * H;
    };
    for (std::size_t n : kStates)
        print_q15("Lstmn", "K 16", H, n,
                  q15_counts([n](auto set) { return q15_lstmn_step<H, sarnn::Bounded, decltype(set)>(n); }),
                  lstmn_macs(n - 1), sizeof(sarnn::Lstmn<sarnn::q15, In, H, C, K>));
    print_q15("Lstmn, Window full", "K 16", H, C + 1,
              q15_counts([](auto set) { return q15_lstmn_step<H, sarnn::Window, decltype(set)>(C); }), lstmn_macs(C),
              sizeof(sarnn::Lstmn<sarnn::q15, In, H, C, K, sarnn::Window>));
    // the LSTM: the gates 4·Hidden·(In + Hidden); its draws given back (the rows after it see the weights they saw)
    const std::uint32_t seed = g_lcg;
    print_q15("Lstm", "–", H, 0, q15_counts([](auto set) { return q15_lstm_step<H, decltype(set)>(); }),
              4 * H * (In + H), sizeof(sarnn::Lstm<sarnn::q15, In, H>));
    g_lcg = seed;
}

/// The other aligns with all C states (their algebra as in the float table: bilinear H², key/query 2·K·H, additive
/// 2·K·H and n·K tanh, not counted), after every q15_rows: their params' draws leave the rows above as they were.
template <std::size_t H>
void q15_align_rows() {
    using Bil = sarnn::SelfAttentionRnn<sarnn::q15, In, H, C, sarnn::BilinearAlign>;
    using KQ = sarnn::SelfAttentionRnn<sarnn::q15, In, H, C, sarnn::KeyQueryAlign<K>>;
    using Add = sarnn::SelfAttentionRnn<sarnn::q15, In, H, C, sarnn::AdditiveAlign<K>>;
    print_q15("SelfAttentionRnn", "bilinear", H, C,
              q15_counts([](auto set) { return q15_step<H, sarnn::BilinearAlign, sarnn::Bounded, decltype(set)>(C); }),
              H * (In + H) + H * H + 2 * C * H, sizeof(Bil));
    constexpr bool cached = sarnn::KeyQueryAlign<K>::template State<sarnn::q15, H, C>::caches_keys;
    print_q15(
        "SelfAttentionRnn", cached ? "key/query K 16 (keys cached)" : "key/query K 16 (folded)", H, C,
        q15_counts([](auto set) { return q15_step<H, sarnn::KeyQueryAlign<K>, sarnn::Bounded, decltype(set)>(C); }),
        H * (In + H) + 2 * K * H + C * (cached ? K + H : 2 * H), sizeof(KQ));
    print_q15("SelfAttentionRnn", "additive K 16", H, C, q15_counts([](auto set) {
                  return q15_step<H, sarnn::AdditiveAlign<K>, sarnn::Bounded, decltype(set)>(C);
              }),
              H * (In + H) + 2 * K * H + C * (K + H), sizeof(Add));
}

}  // namespace

int main() {
    g_cal = mcu::calibrate();
    for (auto& x : g_x)
        for (float& v : x) v = uniform();
    std::printf("instructions per tick: %lu/1024, empty span: %lu ticks\n\n",
                static_cast<unsigned long>(g_cal.instr_per_1024_ticks), static_cast<unsigned long>(g_cal.empty_ticks));
#ifndef SARNN_BENCH_MCU_Q15_ONLY  // sarnn_bench_mcu_q15: the q15 table alone
    const char* tuned = sarnn::arch_name(Tuned::arch);
#if SARNN_BENCH_SCALAR_BEST
    const char* best = sarnn::arch_name(ScalarBest::arch);
    std::printf(
        "| model | align | Hidden | n | plain loops | scalar set | %s set | %s set | plain /MAC | scalar /MAC | "
        "%s /MAC | %s /MAC |\n",
        best, tuned, best, tuned);
    std::printf("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
#else
    std::printf(
        "| model | align | Hidden | n | plain loops | scalar set | %s set | plain /MAC | scalar /MAC | %s /MAC |\n",
        tuned, tuned);
    std::printf("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
#endif
#if SARNN_BENCH_MCU_QUICK  // the test command's smoke run (SARNN_BENCH_MCU_QUICK): three shapes, Hidden 16 (and Gru at 32)
    simple_rows<16>();
    gru_rows<32>();
    sar_row<16, sarnn::DotAlign>("dot", 16, 0, 2 * 16);
    lstmn_row<16>(16);
#else
    rows_for<16>();
    rows_for<32>();
    rows_for<64>();
#endif
#endif
#ifndef SARNN_BENCH_MCU_FLOAT_ONLY  // the M55's full table: the float and the q15 tables in two images (CMakeLists.txt)
    // q15: the same sizes in integers (kernel::Q15), with each model's RAM
    for (auto& x : g_xq)
        for (sarnn::q15& v : x) v = sarnn::q15{static_cast<std::int16_t>(uniform() * 32767.0f)};
    std::printf(
        "\nq15 (int8 weights, int16 activations): kernel::Q15 with this core's loops, and kernel::Q15Plain "
        "with the plain C++ ones, in the same image:\n\n");
    std::printf("| model | align | Hidden | n | instructions | /MAC | plain C++ loops | plain /MAC | RAM (sizeof) |\n");
    std::printf("|---|---|---:|---:|---:|---:|---:|---:|---:|\n");
#if SARNN_BENCH_MCU_QUICK
    print_q15("SimpleRnn", "–", 16, 0, q15_counts([](auto set) { return q15_simple_step<16, decltype(set)>(); }),
              16 * (In + 16), sizeof(sarnn::SimpleRnn<sarnn::q15, In, 16>));
    q15_gru_row<32>();
    print_q15("SelfAttentionRnn", "dot", 16, 16,
              q15_counts([](auto set) { return q15_step<16, sarnn::DotAlign, sarnn::Bounded, decltype(set)>(16); }),
              16 * (In + 16) + 2 * 16 * 16, sizeof(sarnn::SelfAttentionRnn<sarnn::q15, In, 16, C, sarnn::DotAlign>));
    print_q15("Lstmn", "K 16", 16, 16,
              q15_counts([](auto set) { return q15_lstmn_step<16, sarnn::Bounded, decltype(set)>(16); }),
              K * (In + 16) + 2 * 15 * 16 + 4 * 16 * (In + 16) + K * 16,
              sizeof(sarnn::Lstmn<sarnn::q15, In, 16, C, K>));
#else
    q15_rows<16>();
    q15_rows<32>();
    q15_rows<64>();
    q15_align_rows<16>();
    q15_align_rows<32>();
    q15_align_rows<64>();
#endif
#endif
    if (g_refused != 0) std::printf("FAIL: %d timed steps did not return Status::ok\n", g_refused);
    std::printf("\n%d passed, %d failed\n", g_refused == 0 ? 1 : 0, g_refused == 0 ? 0 : 1);
    return g_refused == 0 ? 0 : 1;
}
