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
#include "skip_note.hpp"

namespace test {

/// sizeof a params aggregate P whose arrays take `bytes`: those bytes rounded up to alignof(P), nothing else.
template <class P>
constexpr std::size_t params_size(std::size_t bytes) {
    return (bytes + alignof(P) - 1) / alignof(P) * alignof(P);
}

/// Every value of sarnn::Arch (from the one list, config.hpp); the tests skip those that are not available here.
#define SARNN_TEST_ARCH_(id, name) sarnn::Arch::id,
inline constexpr sarnn::Arch kArchList[] = {SARNN_ARCHES(SARNN_TEST_ARCH_)};
#undef SARNN_TEST_ARCH_
inline constexpr std::array<sarnn::Arch, sizeof kArchList / sizeof kArchList[0]> kAllArches = [] {
    std::array<sarnn::Arch, sizeof kArchList / sizeof kArchList[0]> a{};
    for (std::size_t i = 0; i < a.size(); ++i) a[i] = kArchList[i];
    return a;
}();

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
    return Ops<T>{std::is_same_v<T, float> ? Set::arch : Set::double_arch, SARNN_MODEL_OPS(SARNN_TEST_OP_ENTRY_, T)
                                                                              SARNN_SET_OPS(SARNN_TEST_OP_ENTRY_, T)};
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

// ---- weights and inputs ------------------------------------------------------------------------------------
enum class Weights {
    scaled,   ///< uniform ±1/sqrt(In+Hidden): the usual initialisation, contracting dynamics
    large,    ///< uniform ±3: tanh saturates; the dynamics are chaotic (see compare_teacher_forced)
    extreme,  ///< x-columns ±20, recurrent columns ±0.01, b ±10, x in {-1,+1}: every h_k is ±(1 - tiny),
              ///< so dot scores reach ±Hidden and the softmax is as peaked as the model can make it
};

inline const char* name(Weights w) {
    switch (w) {
    case Weights::scaled: return "scaled";
    case Weights::large: return "large";
    case Weights::extreme: return "extreme";
    }
    return "?";
}

inline constexpr std::array<Weights, 3> kAllWeights = {Weights::scaled, Weights::large, Weights::extreme};

inline double uniform(std::mt19937& g, double lo, double hi) {
    return std::uniform_real_distribution<double>(lo, hi)(g);
}
inline double random_sign(std::mt19937& g) { return (g() & 1u) ? 1.0 : -1.0; }

/// Params on the heap (they can be large), filled from a fixed-seed generator.
template <class T, std::size_t In, std::size_t Hidden>
std::unique_ptr<sarnn::RnnParams<T, In, Hidden>> make_params(Weights kind, std::uint32_t seed) {
    auto p = std::make_unique<sarnn::RnnParams<T, In, Hidden>>();
    std::mt19937 g(seed);
    const double s = 1.0 / std::sqrt(static_cast<double>(In + Hidden));
    for (std::size_t r = 0; r < Hidden; ++r) {
        for (std::size_t k = 0; k < In + Hidden; ++k) {
            double v = 0.0;
            switch (kind) {
            case Weights::scaled: v = uniform(g, -s, s); break;
            case Weights::large: v = uniform(g, -3.0, 3.0); break;
            case Weights::extreme: v = k < In ? 20.0 * random_sign(g) : uniform(g, -0.01, 0.01); break;
            }
            p->A[r][k] = static_cast<T>(v);
        }
        double bv = 0.0;
        switch (kind) {
        case Weights::scaled: bv = uniform(g, -s, s); break;
        case Weights::large: bv = uniform(g, -3.0, 3.0); break;
        case Weights::extreme: bv = 10.0 * random_sign(g); break;
        }
        p->b[r] = static_cast<T>(bv);
    }
    return p;
}

/// A sequence of n inputs of `in` values: uniform [-1, 1], or ±1 for the extreme weights.
template <class T>
std::vector<std::vector<T>> make_inputs(Weights kind, std::size_t n, std::size_t in, std::uint32_t seed) {
    std::mt19937 g(seed);
    std::vector<std::vector<T>> xs(n, std::vector<T>(in));
    for (auto& x : xs)
        for (T& v : x) v = static_cast<T>(kind == Weights::extreme ? random_sign(g) : uniform(g, -1.0, 1.0));
    return xs;
}

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
    if (std::getenv("SARNN_TEST_REPORT") != nullptr)
        std::printf("%-60s %.3g  %s\n", what.c_str(), err, where.c_str());
}

// ---- bit-exact snapshots ----------------------------------------------------------------------------------
/// The bytes behind a view (size included), for bit-identical comparisons.
template <class T>
std::vector<unsigned char> bytes_of(const sarnn::View<T>& v) {
    std::vector<unsigned char> b(sizeof(std::size_t) + v.size() * sizeof(T));
    const std::size_t n = v.size();
    std::memcpy(b.data(), &n, sizeof n);
    if (n != 0) std::memcpy(b.data() + sizeof n, v.data(), n * sizeof(T));
    return b;
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
