// tests/support.hpp: helpers shared by the model and kernel tests (arch loops, weights, error tracking).
#ifndef SARNN_TESTS_SUPPORT_HPP
#define SARNN_TESTS_SUPPORT_HPP

#include <catch2/catch.hpp>

#include <sarnn/sarnn.hpp>

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "reference.hpp"
#include "shared/arches.hpp"
#include "shared/weights.hpp"
#include "skip_note.hpp"

namespace test {

/// Whether the scalar set rounds each product of a sum (a·b + c as two operations): where the target has no fused
/// multiply-add (x86-64's baseline, ARMv7's VFPv3), yes; where it has one (AArch64), the compiler may fuse them, and a
/// sum whose products overflow to +inf and -inf can then be +inf rather than NaN.
constexpr bool kScalarRoundsProducts =
#if defined(__FP_FAST_FMAF) || defined(__FP_FAST_FMA)
    false;
#else
    true;
#endif

/// Whether this build runs under AddressSanitizer (the asan-gcc, asan-clang and fuzz builds: -O0 or -O1 with every
/// access checked, four to ten times slower than the other builds).
constexpr bool kSanitized =
#if defined(__SANITIZE_ADDRESS__)
    true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
    true;
#else
    false;
#endif
#else
        false;
#endif

/// Whether this build runs under an emulator (the cross builds under qemu-user: SARNN_TEST_EMULATED, set by
/// tests/CMakeLists.txt; five to forty times slower than native).
constexpr bool kEmulated =
#if defined(SARNN_TEST_EMULATED) && SARNN_TEST_EMULATED
    true;
#else
    false;
#endif

/// The length of a long run: `steps` in the native unsanitized builds (host: how values drift over the full
/// length), and in the sanitizers' and the emulated ones a fifth of it but at least `at_least` (enough for the ring
/// to wrap several times: memory errors show on the first wraps, and each step is still checked against the
/// reference on the target's kernels), never more than `steps`.
constexpr std::size_t long_run(std::size_t steps, std::size_t at_least) {
    if (!kSanitized && !kEmulated) return steps;
    const std::size_t n = steps / 5 > at_least ? steps / 5 : at_least;
    return n < steps ? n : steps;
}

/// sizeof a params aggregate P whose arrays take `bytes`: those bytes rounded up to alignof(P), nothing else.
template <class P>
constexpr std::size_t params_size(std::size_t bytes) {
    return (bytes + alignof(P) - 1) / alignof(P) * alignof(P);
}

using kit::kAllArches;  // tests/shared/arches.hpp

/// Every operation of a kernel set for T (the model operations and the set-only ones), as pointers: what the kernel
/// tests call, one set at a time. `arch` is the set whose code runs for T.
template <class T>
struct Ops {
    sarnn::Arch arch;
#define SARNN_TEST_OP_FIELD_(T_, R, name, impl, params, args) R(*name) params noexcept;
    SARNN_MODEL_OPS(SARNN_TEST_OP_FIELD_, T)
    SARNN_SET_OPS(SARNN_TEST_OP_FIELD_, T)
#undef SARNN_TEST_OP_FIELD_
};

/// The operations of kernel set Set for T.
template <class Set, class T>
Ops<T> ops_of() {
#define SARNN_TEST_OP_ENTRY_(T_, R, name, impl, params, args) &Set::name,
    return Ops<T>{std::is_same_v<T, float> ? Set::arch : Set::double_arch,
                  SARNN_MODEL_OPS(SARNN_TEST_OP_ENTRY_, T) SARNN_SET_OPS(SARNN_TEST_OP_ENTRY_, T)};
#undef SARNN_TEST_OP_ENTRY_
}

/// The operations of the set of arch `a` for T, when lib/ holds it and the CPU runs it; otherwise arch is
/// Arch::scalar and every pointer null.
template <class T>
Ops<T> ops_for(sarnn::Arch a) {
    Ops<T> found{};
    sarnn::kernel::for_each_set([&](auto set) {
        using Set = decltype(set);
        if (Set::arch == a && Set::runs_here()) found = ops_of<Set, T>();
    });
    return found;
}

/// Whether a Kernels<T> set handed out for arch `a` may report `reported`: `a` itself or, for double only, the
/// scalar set standing in where that SIMD arch has no double lanes (ARMv7 NEON: see
/// toolchains/arm-linux-gnueabihf.cmake).
template <class T>
bool set_reports(sarnn::Arch reported, sarnn::Arch a) {
    return reported == a || (std::is_same_v<T, double> && reported == sarnn::Arch::scalar);
}

/// Restores the arch that was active when it was made.
class ArchGuard {
public:
    ArchGuard() noexcept : saved_(sarnn::active_arch()) {}
    ~ArchGuard() { (void)sarnn::set_arch(saved_); }
    ArchGuard(const ArchGuard&) = delete;
    ArchGuard& operator=(const ArchGuard&) = delete;

private:
    sarnn::Arch saved_;
};

/// Runs f(arch) once per available arch with that arch pinned by set_arch(); restores the previous arch. A set this
/// build holds but the CPU lacks is skipped with a note (skip_note.hpp).
template <class F>
void for_each_arch(F&& f) {
    ArchGuard guard;
    int ran = 0;
    for (sarnn::Arch a : kAllArches) {
        const sarnn::Status s = sarnn::set_arch(a);
        if (s != sarnn::Status::ok) {
            REQUIRE(s == sarnn::Status::arch_unavailable);
            REQUIRE_FALSE(sarnn::arch_available(a));
            note_unavailable(a);
            continue;
        }
        REQUIRE(sarnn::active_arch() == a);
        INFO("arch " << sarnn::arch_name(a));
        f(a);
        ++ran;
    }
    REQUIRE(ran >= 1);  // the scalar set at least
}

// ---- weights and inputs: tests/shared/weights.hpp -----------------------------------------------------------
using kit::kAllWeights;
using kit::make_inputs;
using kit::make_params;
using kit::name;
using kit::random_sign;
using kit::uniform;
using kit::Weights;

template <class T>
ref::Vec to_vec(const std::vector<T>& x) {
    ref::Vec v(x.size());
    for (std::size_t k = 0; k < x.size(); ++k) v[k] = static_cast<double>(x[k]);
    return v;
}
template <class T>
ref::Vec to_vec(const sarnn::View<T>& view) {
    ref::Vec v;
    v.reserve(view.size());
    for (const T& x : view) v.push_back(static_cast<double>(x));
    return v;
}

// ---- error tracking ---------------------------------------------------------------------------------------
/// Keeps the largest |got - want| seen and where; one CHECK at the end keeps the assertion count sane.
struct MaxError {
    double max = 0.0;
    std::string where = "nowhere";
    bool all_finite = true;

    void add(double got, double want, std::size_t step, const char* what, std::size_t k) {
        if (!std::isfinite(got)) all_finite = false;
        const double e = std::fabs(got - want);
        if (!(e <= max)) {  // also catches NaN
            max = std::isnan(e) ? std::numeric_limits<double>::infinity() : e;
            std::ostringstream os;
            os << what << "[" << k << "] at step " << step << ": got " << got << ", want " << want;
            where = os.str();
        }
    }
    void add(const ref::Vec& got, const ref::Vec& want, std::size_t step, const char* what) {
        if (got.size() != want.size()) {
            max = std::numeric_limits<double>::infinity();
            std::ostringstream os;
            os << what << " size " << got.size() << " != " << want.size() << " at step " << step;
            where = os.str();
            return;
        }
        for (std::size_t k = 0; k < got.size(); ++k) add(got[k], want[k], step, what, k);
    }
};

/// With SARNN_TEST_REPORT set in the environment, prints the largest errors seen (to pick tolerances with
/// evidence, never to loosen them).
inline void report(const std::string& what, double err, const std::string& where = "") {
    if (std::getenv("SARNN_TEST_REPORT") != nullptr) std::printf("%-60s %.3g  %s\n", what.c_str(), err, where.c_str());
}

/// The non-finite values bad input is made of: quiet NaN, negative NaN, signalling NaN, +Inf, -Inf.
template <class T>
std::vector<T> non_finite_values() {
    using L = std::numeric_limits<T>;
    return {L::quiet_NaN(), -L::quiet_NaN(), L::signaling_NaN(), L::infinity(), -L::infinity()};
}
/// 1e-40f for float, 1e-310 for double: below the smallest normal, above the smallest denormal.
template <class T>
T denormal() {
    return sizeof(T) == sizeof(float) ? static_cast<T>(1e-40f) : static_cast<T>(1e-310);
}

}  // namespace test

#endif
