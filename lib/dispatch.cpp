// lib/dispatch.cpp: the run-time table behind kernel::Dispatch. Generated from the list of sets this lib/ holds
// (SARNN_SETS in config.hpp, from cmake/SarnnArch.cmake): on x86-64 the best set the CPU runs is chosen on first
// use (each set's runs_here(), through the compiler's __builtin_cpu_supports); elsewhere every set the build holds
// runs. set_arch() pins another set. Models with a fixed set never reach this file, so it costs them nothing.
#include <atomic>
#include <type_traits>

#include "sarnn/kernels.hpp"

namespace sarnn {
namespace {

constexpr int kUnresolved = -1;

// The chosen Arch as an int, or kUnresolved before the first use. Word-sized atomics: lock-free
// load and store on every target (no RMW, so no libatomic on Cortex-M0).
std::atomic<int> g_arch{kUnresolved};

// The table of one set: a pointer to each operation a model calls.
template <class Set, class T>
constexpr Kernels<T> table_of(Arch arch) {
#define SARNN_TABLE_ENTRY_(T_, R, name, impl, params, args) &Set::name,
    return Kernels<T>{arch, SARNN_MODEL_OPS(SARNN_TABLE_ENTRY_, T)};
#undef SARNN_TABLE_ENTRY_
}

template <class Set>
struct Tables {
    static constexpr Kernels<float> f = table_of<Set, float>(Set::arch);
    static constexpr Kernels<double> d = table_of<Set, double>(Set::double_arch);
};

template <class T>
const Kernels<T>* table(Arch a) noexcept {
#define SARNN_TABLE_CASE_(id, Type, double_id)  \
    if (a == Arch::id) {                        \
        if constexpr (std::is_same_v<T, float>) \
            return &Tables<kernel::Type>::f;    \
        else                                    \
            return &Tables<kernel::Type>::d;    \
    }
    SARNN_SETS(SARNN_TABLE_CASE_)
#undef SARNN_TABLE_CASE_
    return nullptr;
}

bool runs_here(Arch a) noexcept {
#define SARNN_RUNS_CASE_(id, Type, double_id) \
    if (a == Arch::id) return kernel::Type::runs_here();
    SARNN_SETS(SARNN_RUNS_CASE_)
#undef SARNN_RUNS_CASE_
    return false;
}

Arch resolve() noexcept {
    int a = g_arch.load(std::memory_order_relaxed);
    if (a == kUnresolved) {
        // the list is plainest first: the last set the CPU runs is the best
        Arch best = Arch::scalar;
#define SARNN_BEST_(id, Type, double_id) \
    if (kernel::Type::runs_here()) best = Arch::id;
        SARNN_SETS(SARNN_BEST_)
#undef SARNN_BEST_
        a = static_cast<int>(best);
        g_arch.store(a, std::memory_order_relaxed);  // racing first users all store the same value
    }
    return static_cast<Arch>(a);
}

void publish(Arch a) noexcept {
    g_arch.store(static_cast<int>(a), std::memory_order_relaxed);
    detail::g_kernels_float.store(table<float>(a), std::memory_order_relaxed);
    detail::g_kernels_double.store(table<double>(a), std::memory_order_relaxed);
}

}  // namespace

namespace detail {
std::atomic<const Kernels<float>*> g_kernels_float{nullptr};
std::atomic<const Kernels<double>*> g_kernels_double{nullptr};

template <class T>
const Kernels<T>& first_kernels() noexcept {
    const Arch a = resolve();
    publish(a);  // racing first users all store the same values
    return *table<T>(a);
}
template const Kernels<float>& first_kernels<float>() noexcept;
template const Kernels<double>& first_kernels<double>() noexcept;
}  // namespace detail

bool arch_available(Arch a) noexcept { return arch_compiled_in(a) && runs_here(a); }

Status set_arch(Arch a) noexcept {
    if (!arch_available(a)) return Status::arch_unavailable;
    publish(a);
    return Status::ok;
}

Arch active_arch() noexcept { return resolve(); }

template <class T>
const Kernels<T>* kernels_for(Arch a) noexcept {
    return arch_available(a) ? table<T>(a) : nullptr;
}

template const Kernels<float>* kernels_for<float>(Arch) noexcept;
template const Kernels<double>* kernels_for<double>(Arch) noexcept;

}  // namespace sarnn
