// tests/test_kernel_sets.cpp: the kernel set as a model's compile-time policy (include/sarnn/kernels.hpp). A model
// that names a set (what kernel::Default is on ARM, i686 and Cortex-M) computes bit for bit what the same model
// computes through kernel::Dispatch with that set pinned (what the other tests check against their references), for
// every set lib/ holds and the CPU runs, every model and every align; and the one list of sets holds together.
// Where the named set has shaped forms of the model's kernels (detail/shaped.hpp: the NEON sets' affine_tanh for the
// RNNs' recurrent step), the named model sums in another order than the run-time kernel: there the statuses are the
// same and the values within 1e-4 (relative to max(1, |value|)), not bit for bit.
#include "family_support.hpp"
#include "support.hpp"

#include <array>
#include <cmath>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

namespace {

template <class T>
bool same_bits(sarnn::View<T> a, sarnn::View<T> b) {
    return a.size() == b.size() && (a.size() == 0 || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

// The same values within 1e-4 relative to max(1, |b|) (NaN only where the other is NaN too).
template <class T>
bool close_values(sarnn::View<T> a, sarnn::View<T> b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
        const double x = static_cast<double>(a.data()[i]), y = static_cast<double>(b.data()[i]);
        if (std::isnan(x) || std::isnan(y)) {
            if (std::isnan(x) != std::isnan(y)) return false;
        } else if (!(std::fabs(x - y) <= 1e-4 * std::fmax(1.0, std::fabs(y)))) {
            return false;
        }
    }
    return true;
}

// What a model shows after a step: h, then c (SelfAttentionRnn: the context; Lstmn: the cell), then the attention.
template <class T, std::size_t In, std::size_t Hidden, class Set>
std::array<sarnn::View<T>, 3> shown(const sarnn::SimpleRnn<T, In, Hidden, Set>& m) {
    return {m.hidden(), sarnn::View<T>{nullptr, 0}, sarnn::View<T>{nullptr, 0}};
}
template <class T, std::size_t In, std::size_t Hidden, std::size_t Capacity, class Align, class Memory, class Set>
std::array<sarnn::View<T>, 3> shown(const sarnn::SelfAttentionRnn<T, In, Hidden, Capacity, Align, Memory, Set>& m) {
    return {m.hidden(), m.context(), m.attention()};
}
template <class T, std::size_t In, std::size_t Hidden, std::size_t Capacity, std::size_t K, class Memory, class Set>
std::array<sarnn::View<T>, 3> shown(const sarnn::Lstmn<T, In, Hidden, Capacity, K, Memory, Set>& m) {
    return {m.hidden(), m.cell(), m.attention()};
}

// Steps `fixed` and `dispatch` (one model type but for the set) with the same inputs, the Dispatch table pinned to
// the fixed model's set: every status and everything shown is the same, bit for bit (Exact), or within close_values
// (a model whose kernels take the set's shaped forms).
template <bool Exact = true, class Fixed, class Dispatch, class T>
void check_same(Fixed& fixed, Dispatch& dispatch, const std::vector<std::vector<T>>& xs) {
    static_assert(std::is_same_v<typename Dispatch::kernel_set, sarnn::kernel::Dispatch>);
    REQUIRE(sarnn::set_arch(Fixed::kernel_set::arch) == sarnn::Status::ok);
    std::size_t steps = 0, ok = 0, differ = 0;
    for (const auto& x : xs) {
        const sarnn::Status a = fixed.step(x.data());
        const sarnn::Status b = dispatch.step(x.data());
        const auto sa = shown(fixed), sb = shown(dispatch);
        bool same = a == b && fixed.length() == dispatch.length();
        for (std::size_t i = 0; i < 3; ++i)
            same = same && (Exact ? same_bits<T>(sa[i], sb[i]) : close_values<T>(sa[i], sb[i]));
        if (!same) ++differ;
        if (a == sarnn::Status::ok) ++ok;
        ++steps;
    }
    INFO(steps << " steps, " << ok << " ok");
    CHECK(differ == 0);
    CHECK(ok >= 1);
}

template <class T, class Set>
void check_models_on() {
    constexpr std::size_t In = 7, Hidden = 17, Capacity = 33, K = 5;
    const auto xs = test::make_inputs<T>(test::Weights::scaled, 40, In, 11);
    INFO("kernel set " << sarnn::arch_name(Set::arch) << ", T = " << (sizeof(T) == 4 ? "float" : "double"));
    // the RNNs' recurrent step on a set with a shaped affine_tanh: close, not the same bits
    constexpr bool exact = !sarnn::detail::shaped<Set, T>::has(sarnn::kernel::shaped_affine_tanh);
    {
        const auto p = test::make_params<T, In, Hidden>(test::Weights::scaled, 3);
        auto a = std::make_unique<sarnn::SimpleRnn<T, In, Hidden, Set>>(*p);
        auto b = std::make_unique<sarnn::SimpleRnn<T, In, Hidden, sarnn::kernel::Dispatch>>(*p);
        check_same<exact>(*a, *b, xs);
    }
    auto sar = [&](auto align, auto memory) {
        using Align = decltype(align);
        using Memory = decltype(memory);
        INFO(fam::AlignKit<Align>::name() << ", " << fam::memory_name(std::is_same_v<Memory, sarnn::Window>));
        const auto p = test::make_params<T, In, Hidden>(test::Weights::scaled, 5);
        const auto ap = fam::make_align_params<Align, T, Hidden>(1.0, 17);
        using Fixed = sarnn::SelfAttentionRnn<T, In, Hidden, Capacity, Align, Memory, Set>;
        using Dispatched = sarnn::SelfAttentionRnn<T, In, Hidden, Capacity, Align, Memory, sarnn::kernel::Dispatch>;
        if constexpr (fam::AlignKit<Align>::has_params) {
            auto a = std::make_unique<Fixed>(*p, *ap);
            auto b = std::make_unique<Dispatched>(*p, *ap);
            check_same<exact>(*a, *b, xs);
        } else {
            auto a = std::make_unique<Fixed>(*p);
            auto b = std::make_unique<Dispatched>(*p);
            check_same<exact>(*a, *b, xs);
        }
    };
    sar(sarnn::DotAlign{}, sarnn::Bounded{});
    sar(sarnn::DotAlign{}, sarnn::Window{});
    sar(sarnn::ScaledDotAlign{}, sarnn::Bounded{});
    sar(sarnn::BilinearAlign{}, sarnn::Window{});
    sar(sarnn::KeyQueryAlign<K, sarnn::KeyQueryPlan::cache>{}, sarnn::Window{});
    sar(sarnn::KeyQueryAlign<K, sarnn::KeyQueryPlan::fold>{}, sarnn::Bounded{});
    sar(sarnn::AdditiveAlign<K>{}, sarnn::Window{});
    {
        const auto p = fam::make_lstmn_params<T, In, Hidden, K>(fam::LstmnWeightsKind::scaled, 23);
        auto a = std::make_unique<sarnn::Lstmn<T, In, Hidden, Capacity, K, sarnn::Window, Set>>(*p);
        auto b = std::make_unique<sarnn::Lstmn<T, In, Hidden, Capacity, K, sarnn::Window, sarnn::kernel::Dispatch>>(*p);
        check_same(*a, *b, xs);
    }
}

// The arch of a fixed set (Dispatch has none).
template <class Set>
sarnn::Arch arch_of() {
    if constexpr (std::is_same_v<Set, sarnn::kernel::Dispatch>)
        return sarnn::Arch::scalar;
    else
        return Set::arch;
}

}  // namespace

TEST_CASE("Kernel sets: a model on a named set computes what Dispatch computes with that set pinned, bit for bit",
          "[kernels][arch]") {
    test::ArchGuard guard;
    int ran = 0;
    sarnn::kernel::for_each_set([&](auto set) {
        using Set = decltype(set);
        if (!Set::runs_here()) {
            test::note_unavailable(Set::arch);
            return;
        }
        check_models_on<float, Set>();
        check_models_on<double, Set>();
        ++ran;
    });
    CHECK(ran >= 1);
}

TEST_CASE("Kernel sets: the one list gives the enum, the names, the sets and the default", "[kernels][arch]") {
    // every set lib/ holds is an Arch, compiled in, with a distinct name; scalar is always there, first
    std::vector<std::string> names;
    int sets = 0;
    bool scalar_first = false;
    sarnn::kernel::for_each_set([&](auto set) {
        using Set = decltype(set);
        if (sets == 0) scalar_first = Set::arch == sarnn::Arch::scalar;
        ++sets;
        CHECK(sarnn::arch_compiled_in(Set::arch));
        CHECK(std::string(sarnn::arch_name(Set::arch)) != "unknown");
        names.emplace_back(sarnn::arch_name(Set::arch));
        // a set's double code is its own or the scalar set's (ARMv7 NEON)
        CHECK((Set::double_arch == Set::arch || Set::double_arch == sarnn::Arch::scalar));
    });
    CHECK(scalar_first);
    int compiled = 0;
    for (sarnn::Arch a : test::kAllArches) compiled += sarnn::arch_compiled_in(a) ? 1 : 0;
    CHECK(compiled == sets);
    // the build's default: Dispatch where the set is chosen at run time, else the last (best) set of the list
#define SARNN_TEST_LAST_(id, Type, double_id) last = sarnn::Arch::id;
    sarnn::Arch last = sarnn::Arch::scalar;
    SARNN_SETS(SARNN_TEST_LAST_)
#undef SARNN_TEST_LAST_
    using BuildDefault = sarnn::kernel::SARNN_BUILD_DEFAULT_SET;
    const bool is_dispatch = std::is_same_v<BuildDefault, sarnn::kernel::Dispatch>;
    CHECK(is_dispatch == bool(SARNN_RUNTIME_DISPATCH));
    if (!is_dispatch) CHECK(arch_of<BuildDefault>() == last);
    // these tests name Dispatch as their default, so that set_arch() moves every model they build
    CHECK(std::is_same_v<sarnn::kernel::Default, sarnn::kernel::Dispatch>);
}
