// bench/bench_peak.cpp: the machine's measured float peak, so each kernel can be reported as a fraction of it.
//
// Each microbenchmark runs kChains independent chains a = a·m + k (one FMA each), enough chains to cover
// the FMA latency times the number of FMA ports of current x86 cores (4 cycles x 2 ports = 8), so the loop
// is bound by FMA throughput alone. One FMA = 2 flops per lane. The ISAs are picked with target attributes
// and run only when the CPU has them (so the binary's own -march does not matter):
//
//   peak/fma_avx512   zmm FMA (16 lanes)           the ceiling of sarnn's avx512 set
//   peak/fma_avx2     ymm FMA (8 lanes)            the ceiling of the avx2+fma set
//   peak/muladd_sse2  xmm multiplies and adds in separate chains (4 lanes, 1 flop per op): SSE2 has no
//                     FMA, so its ceiling is multiply and add issued side by side
//   peak/fma_scalar   scalar FMA (1 lane)          the ceiling of the scalar set on this machine
//   peak/fma_vec128   (non-x86) 16-byte GCC vector FMA, e.g. NEON
//   peak/fma_l1_avx512  zmm FMA whose multiplicand is loaded from an L1-resident buffer (16 kB), one load per
//                     FMA: the ceiling of a kernel that reads each stored value once per multiply-add, as the
//                     context does (scores: S_j·q; weighted sum: Σ p_j S_j). Not a machine peak: reported
//                     beside it.
//   roofline/<align>/H64/read_avx512/n:N  only reading, once, the bytes a step at memory length n must read
//                     (dot: the n stored states of Hidden 64; keyquery16: those plus the n cached keys of
//                     K 16), L2-resident by repetition, 16 accumulators: no step with that memory can be
//                     faster. (EPYC, AVX-512, 5 Dec: keyquery16 n = 1024, 320 KB, read in 1.96 us; the step
//                     takes 3.09 us, Eigen 3.61 us.)
#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>

#include "common.hpp"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define SARNN_BENCH_X86 1
#else
#define SARNN_BENCH_X86 0
#endif

namespace sarnn_bench {
namespace {

constexpr int kChains = 12;  // independent accumulators
constexpr int kReps = 1024;  // chain steps per call

// Runtime values, so that the compiler cannot fold the chains.
volatile float g_mul = 0.999f;
volatile float g_add = 1e-3f;

#if SARNN_BENCH_X86
// The sum of every lane of a[0..n), so that no chain is dead code.
__attribute__((target("avx512f"))) float sum_lanes(const __m512* a, int n) {
    __m512 s = a[0];
    for (int i = 1; i < n; ++i) s = _mm512_add_ps(s, a[i]);
    alignas(64) float out[16];
    _mm512_store_ps(out, s);
    float t = 0.0f;
    for (float v : out) t += v;
    return t;
}

__attribute__((target("avx512f"))) float fma_avx512(float m0, float k0) {
    const __m512 m = _mm512_set1_ps(m0), k = _mm512_set1_ps(k0);
    __m512 a[kChains];
    for (int i = 0; i < kChains; ++i) a[i] = _mm512_set1_ps(static_cast<float>(i));
    for (int r = 0; r < kReps; ++r) {
#pragma GCC unroll 12
        for (int i = 0; i < kChains; ++i) a[i] = _mm512_fmadd_ps(a[i], m, k);
    }
    return sum_lanes(a, kChains);
}

constexpr int kL1Floats = 4096;  // 16 kB: in L1 on every x86 core of the last decade
alignas(64) float g_l1[kL1Floats];

__attribute__((target("avx512f"))) float fma_l1_avx512(float m0, float k0) {
    constexpr int kAcc = 16;                  // accumulators: 16 vectors of the buffer per sweep step
    constexpr int kVectors = kL1Floats / 16;  // 256
    constexpr int kSweeps = kReps * kChains / kVectors;
    static_assert(kSweeps * kVectors == kReps * kChains, "the same FMA count as the other peaks");
    const __m512 m = _mm512_set1_ps(m0);
    __m512 a[kAcc];
    for (int i = 0; i < kAcc; ++i) a[i] = _mm512_set1_ps(k0 * static_cast<float>(i));
    // each FMA takes its own 64-byte load, sweeping the buffer kSweeps times
    for (int r = 0; r < kSweeps; ++r) {
        for (const float* p = g_l1; p != g_l1 + kL1Floats; p += 16 * kAcc) {
#pragma GCC unroll 16
            for (int i = 0; i < kAcc; ++i) a[i] = _mm512_fmadd_ps(_mm512_load_ps(p + 16 * i), m, a[i]);
        }
    }
    return sum_lanes(a, kAcc);
}

__attribute__((target("avx2,fma"))) float fma_avx2(float m0, float k0) {
    const __m256 m = _mm256_set1_ps(m0), k = _mm256_set1_ps(k0);
    __m256 a[kChains];
    for (int i = 0; i < kChains; ++i) a[i] = _mm256_set1_ps(static_cast<float>(i));
    for (int r = 0; r < kReps; ++r) {
#pragma GCC unroll 12
        for (int i = 0; i < kChains; ++i) a[i] = _mm256_fmadd_ps(a[i], m, k);
    }
    __m256 s = a[0];
    for (int i = 1; i < kChains; ++i) s = _mm256_add_ps(s, a[i]);
    alignas(32) float out[8];
    _mm256_store_ps(out, s);
    float t = 0.0f;
    for (float v : out) t += v;
    return t;
}

// Separate multiply chains and add chains (they cannot be contracted into FMAs): 1 flop per lane per op.
__attribute__((target("sse2"))) float muladd_sse2(float m0, float k0) {
    constexpr int kHalf = kChains;  // kChains multiply chains and kChains add chains
    const __m128 m = _mm_set1_ps(m0), k = _mm_set1_ps(k0);
    __m128 p[kHalf], s[kHalf];
    for (int i = 0; i < kHalf; ++i) {
        p[i] = _mm_set1_ps(1.0f + static_cast<float>(i));
        s[i] = _mm_set1_ps(static_cast<float>(i));
    }
    for (int r = 0; r < kReps; ++r) {
#pragma GCC unroll 12
        for (int i = 0; i < kHalf; ++i) {
            p[i] = _mm_mul_ps(p[i], m);
            s[i] = _mm_add_ps(s[i], k);
        }
    }
    __m128 t = _mm_setzero_ps();
    for (int i = 0; i < kHalf; ++i) t = _mm_add_ps(t, _mm_add_ps(p[i], s[i]));
    alignas(16) float out[4];
    _mm_store_ps(out, t);
    return out[0] + out[1] + out[2] + out[3];
}

__attribute__((target("fma"))) float fma_scalar(float m0, float k0) {
    const __m128 m = _mm_set_ss(m0), k = _mm_set_ss(k0);
    __m128 a[kChains];
    for (int i = 0; i < kChains; ++i) a[i] = _mm_set_ss(static_cast<float>(i));
    for (int r = 0; r < kReps; ++r) {
#pragma GCC unroll 12
        for (int i = 0; i < kChains; ++i) a[i] = _mm_fmadd_ss(a[i], m, k);
    }
    float t = 0.0f;
    for (int i = 0; i < kChains; ++i) t += _mm_cvtss_f32(a[i]);
    return t;
}

// Σ of n floats (n a multiple of 256), every 64-byte line loaded once.
__attribute__((target("avx512f"))) float read_avx512(const float* p, std::size_t n) {
    constexpr int kAcc = 16;
    __m512 a[kAcc];
    for (auto& v : a) v = _mm512_setzero_ps();
    for (std::size_t i = 0; i < n; i += 16 * kAcc) {
#pragma GCC unroll 16
        for (int k = 0; k < kAcc; ++k)
            a[k] = _mm512_add_ps(a[k], _mm512_load_ps(p + i + 16 * static_cast<std::size_t>(k)));
    }
    return sum_lanes(a, kAcc);
}
#else
typedef float vec128 __attribute__((vector_size(16)));
float fma_vec128(float m0, float k0) {
    const vec128 m = {m0, m0, m0, m0}, k = {k0, k0, k0, k0};
    vec128 a[kChains];
    for (int i = 0; i < kChains; ++i) {
        const float f = static_cast<float>(i);
        a[i] = vec128{f, f, f, f};
    }
    for (int r = 0; r < kReps; ++r) {
#pragma GCC unroll 12
        for (int i = 0; i < kChains; ++i) a[i] = a[i] * m + k;  // contracted into an FMA (GCC's default)
    }
    float t = 0.0f;
    for (int i = 0; i < kChains; ++i) t += a[i][0] + a[i][1] + a[i][2] + a[i][3];
    return t;
}
#endif

void run_peak(benchmark::State& st, float (*f)(float, float), double flops_per_call) {
    for (auto _ : st) {
        const float r = f(g_mul, g_add);
        benchmark::DoNotOptimize(r);
    }
    st.counters["GFLOPS"] = benchmark::Counter(static_cast<double>(st.iterations()) * flops_per_call * 1e-9,
                                               benchmark::Counter::kIsRate);
}

#if SARNN_BENCH_X86
// The bytes of `floats_per_state` floats for each of n stored states (rounded up to whole 1 KB blocks).
void add_roofline(const char* align, std::size_t floats_per_state, std::size_t n) {
    const std::size_t floats = (n * floats_per_state + 255) / 256 * 256;
    const std::string name = std::string("roofline/") + align + "/H64/read_avx512/n:" + std::to_string(n);
    benchmark::RegisterBenchmark(name.c_str(), [floats](benchmark::State& st) {
        std::unique_ptr<float[], void (*)(void*)> buf(
            static_cast<float*>(std::aligned_alloc(64, floats * sizeof(float))), &std::free);
        for (std::size_t i = 0; i < floats; ++i) buf[i] = 1e-3f * static_cast<float>(i % 61);
        for (auto _ : st) {
            const float r = read_avx512(buf.get(), floats);
            benchmark::DoNotOptimize(r);
        }
        st.counters["GB/s"] = benchmark::Counter(
            static_cast<double>(st.iterations()) * static_cast<double>(floats) * sizeof(float) * 1e-9,
            benchmark::Counter::kIsRate);
    });
}
#endif

void add(const char* name, float (*f)(float, float), int lanes, int flops_per_lane_op) {
    const double flops = static_cast<double>(kReps) * kChains * lanes * flops_per_lane_op;
    benchmark::RegisterBenchmark(name, [f, flops](benchmark::State& st) { run_peak(st, f, flops); });
}

}  // namespace

void register_peak() {
#if SARNN_BENCH_X86
    if (__builtin_cpu_supports("avx512f")) add("peak/fma_avx512", &fma_avx512, 16, 2);
    if (__builtin_cpu_supports("avx512f")) {
        for (int i = 0; i < kL1Floats; ++i) g_l1[i] = 1e-3f * static_cast<float>(i % 61);
        add("peak/fma_l1_avx512", &fma_l1_avx512, 16, 2);
    }
    if (__builtin_cpu_supports("avx512f")) {
        for (std::size_t n : {std::size_t{16}, std::size_t{256}, std::size_t{1024}}) {
            add_roofline("dot", 64, n);
            add_roofline("keyquery16", 64 + 16, n);
        }
    }
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) add("peak/fma_avx2", &fma_avx2, 8, 2);
    add("peak/muladd_sse2", &muladd_sse2, 4, 2);  // per lane: one multiply and one add, in separate chains
    if (__builtin_cpu_supports("fma")) add("peak/fma_scalar", &fma_scalar, 1, 2);
#else
    add("peak/fma_vec128", &fma_vec128, 4, 2);
#endif
}

}  // namespace sarnn_bench
