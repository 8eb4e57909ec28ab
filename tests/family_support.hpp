// tests/family_support.hpp: what the attention-family tests (test_aligns, test_window, test_lstmn, test_run,
// test_bad_input, test_extreme_values, test_validate) share beyond the harness (subject.hpp, model_checks.hpp):
// fam::Sar, a SelfAttentionRnn with any align and memory on drawn weights, and helpers for weights.
#ifndef SARNN_TESTS_FAMILY_SUPPORT_HPP
#define SARNN_TESTS_FAMILY_SUPPORT_HPP

#include <catch2/catch.hpp>

#include <sarnn/sarnn.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "reference.hpp"
#include "reference_family.hpp"
#include "shared/aligns.hpp"
#include "shared/state_bytes.hpp"
#include "shared/weights.hpp"
#include "subject.hpp"
#include "support.hpp"

namespace fam {

// ---- weights --------------------------------------------------------------------------------------
template <class T, std::size_t N>
void fill_value(T (&a)[N], T value) {
    for (T& v : a) v = value;
}
template <class T, std::size_t R, std::size_t C>
void fill_value(T (&a)[R][C], T value) {
    for (auto& row : a) fill_value(row, value);
}

using kit::draw;
using kit::inv_sqrt;
using kit::NoParams;

/// How strong the align weights are: `gain` times the usual 1/sqrt(fan-in) bound.
inline double align_gain(test::Weights kind) { return kind == test::Weights::large ? 3.0 : 1.0; }

// ---- the aligns: tests/shared/aligns.hpp ------------------------------------------------------------------------
template <class Align>
using AlignKit = kit::AlignTraits<Align>;

using kit::make_align_params;

inline std::string memory_name(bool window) { return window ? "Window" : "Bounded"; }

/// A SelfAttentionRnn with its params and align params (on the heap: they can be large).
template <class T, std::size_t In, std::size_t Hidden, std::size_t Capacity, class Align, class Memory>
struct Sar {
    using Model = sarnn::SelfAttentionRnn<T, In, Hidden, Capacity, Align, Memory>;
    using Kit = AlignKit<Align>;
    using AlignParams = typename Kit::template Params<T, Hidden>;
    static constexpr bool window = std::is_same_v<Memory, sarnn::Window>;

    std::unique_ptr<sarnn::RnnParams<T, In, Hidden>> params;
    std::unique_ptr<AlignParams> align_params;

    Sar(test::Weights kind, std::uint32_t seed)
        : params(test::make_params<T, In, Hidden>(kind, seed)),
          align_params(make_align_params<Align, T, Hidden>(align_gain(kind), seed + 7919)) {}

    std::unique_ptr<Model> make() const {
        if constexpr (Kit::has_params)
            return std::make_unique<Model>(*params, *align_params);
        else
            return std::make_unique<Model>(*params);
    }
    auto reference_align() const { return Kit::reference(*align_params); }
    /// Fresh models on these params, behind the test::Subject harness.
    test::Factory factory() const {
        if constexpr (Kit::has_params)
            return test::factory<Model>(*params, *align_params);
        else
            return test::factory<Model>(*params);
    }
    ref::Weights weights() const { return ref::weights_of(*params, In, Hidden); }

    static std::string label() {
        std::ostringstream os;
        os << "SelfAttentionRnn<" << (sizeof(T) == 4 ? "float" : "double") << ", In " << In << ", Hidden " << Hidden
           << ", Capacity " << Capacity << ", " << Kit::name() << ", " << memory_name(window) << ">";
        return os.str();
    }
};

// ---- snapshots, recorded runs, trace checks: record.hpp, trace_checks.hpp, subject.hpp (namespace test) ----
using kit::state_bytes;

// ---- Lstmn checks ------------------------------------------------------------------------------------------
using kit::LstmnWeightsKind;
using kit::make_lstmn_params;
using kit::name;

}  // namespace fam

#endif
