// lib/dispatch.cpp: which kernel set the models use. On x86-64 the best set the CPU runs is chosen on
// first use (cpuid through the compiler's __builtin_cpu_supports); elsewhere the set is fixed at compile
// time. set_arch() pins another set.
#include <atomic>

#include "kernels/sets.hpp"
#include "sarnn/kernels.hpp"

namespace sarnn {
namespace {

constexpr int kUnresolved = -1;

// The chosen Arch as an int, or kUnresolved before the first use. A word-sized atomic: lock-free
// load and store on every target (no RMW, so no libatomic on Cortex-M0).
std::atomic<int> g_arch{kUnresolved};

bool cpu_has(Arch a) noexcept {
    switch (a) {
    case Arch::scalar: return true;
#if SARNN_RUNTIME_DISPATCH && (defined(__x86_64__) || defined(__i386__))
    case Arch::sse2: return __builtin_cpu_supports("sse2");
    case Arch::avx2_fma: return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    case Arch::avx512: return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq");
#else
    // Compile-time arch: the build flags already promise it.
    case Arch::sse2:
    case Arch::avx2_fma:
    case Arch::avx512:
#endif
    case Arch::neon:
    case Arch::neon64: return true;
    }
    return false;
}

template <class T>
struct Table;

template <>
struct Table<float> {
    static const Kernels<float>* get(Arch a) noexcept {
        switch (a) {
        case Arch::scalar: return &sets::scalar_f;
#if SARNN_KERNELS_SSE2
        case Arch::sse2: return &sets::sse2_f;
#endif
#if SARNN_KERNELS_AVX2_FMA
        case Arch::avx2_fma: return &sets::avx2_fma_f;
#endif
#if SARNN_KERNELS_AVX512
        case Arch::avx512: return &sets::avx512_f;
#endif
#if SARNN_KERNELS_NEON
        case Arch::neon: return &sets::neon_f;
#endif
#if SARNN_KERNELS_NEON64
        case Arch::neon64: return &sets::neon64_f;
#endif
        default: return nullptr;
        }
    }
};

template <>
struct Table<double> {
    static const Kernels<double>* get(Arch a) noexcept {
        switch (a) {
        case Arch::scalar: return &sets::scalar_d;
#if SARNN_KERNELS_SSE2
        case Arch::sse2: return &sets::sse2_d;
#endif
#if SARNN_KERNELS_AVX2_FMA
        case Arch::avx2_fma: return &sets::avx2_fma_d;
#endif
#if SARNN_KERNELS_AVX512
        case Arch::avx512: return &sets::avx512_d;
#endif
#if SARNN_KERNELS_NEON
        case Arch::neon: return &sets::neon_d;
#endif
#if SARNN_KERNELS_NEON64
        case Arch::neon64: return &sets::neon64_d;
#endif
        default: return nullptr;
        }
    }
};

// Best first.
constexpr Arch kPreference[] = {Arch::avx512, Arch::avx2_fma, Arch::sse2, Arch::neon64, Arch::neon, Arch::scalar};

Arch resolve() noexcept {
    int a = g_arch.load(std::memory_order_relaxed);
    if (a == kUnresolved) {
        Arch best = Arch::scalar;
        for (Arch p : kPreference) {
            if (arch_available(p)) {
                best = p;
                break;
            }
        }
        a = static_cast<int>(best);
        g_arch.store(a, std::memory_order_relaxed);  // racing first users all store the same value
    }
    return static_cast<Arch>(a);
}

}  // namespace

const char* arch_name(Arch a) noexcept {
    switch (a) {
    case Arch::scalar: return "scalar";
    case Arch::sse2: return "sse2";
    case Arch::avx2_fma: return "avx2+fma";
    case Arch::avx512: return "avx512";
    case Arch::neon: return "neon";
    case Arch::neon64: return "neon64";
    }
    return "unknown";
}

bool arch_available(Arch a) noexcept { return Table<float>::get(a) != nullptr && cpu_has(a); }

Status set_arch(Arch a) noexcept {
    if (!arch_available(a)) return Status::arch_unavailable;
    g_arch.store(static_cast<int>(a), std::memory_order_relaxed);
    return Status::ok;
}

Arch active_arch() noexcept { return resolve(); }

template <class T>
const Kernels<T>& kernels() noexcept {
    return *Table<T>::get(resolve());
}

template <class T>
const Kernels<T>* kernels_for(Arch a) noexcept {
    return arch_available(a) ? Table<T>::get(a) : nullptr;
}

template const Kernels<float>& kernels<float>() noexcept;
template const Kernels<double>& kernels<double>() noexcept;
template const Kernels<float>* kernels_for<float>(Arch) noexcept;
template const Kernels<double>* kernels_for<double>(Arch) noexcept;

}  // namespace sarnn
