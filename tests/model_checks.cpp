// tests/model_checks.cpp: see model_checks.hpp.
#include "model_checks.hpp"

#include <catch2/catch.hpp>

#include <sarnn/sarnn.hpp>

#include <cmath>
#include <cstddef>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "reference.hpp"
#include "subject.hpp"
#include "support.hpp"

namespace test {
namespace {

bool all_zero(const ref::Vec& v) {
    for (double x : v)
        if (!(x == 0.0)) return false;
    return true;
}

}  // namespace

std::string model_label(const char* model, std::size_t t_size, std::size_t in, std::size_t hidden, std::size_t capacity,
                        const std::string& align, Weights kind) {
    std::ostringstream os;
    os << model << "<" << (t_size == sizeof(float) ? "float" : "double") << ", In " << in << ", Hidden " << hidden;
    if (capacity != 0) os << ", Capacity " << capacity << ", " << align;
    os << ">, weights " << name(kind);
    return os.str();
}

void check_against_reference(const Factory& make, const ReferenceCase& rc) {
    INFO(rc.label);
    std::vector<ref::Vec> scalar_trace;
    for_each_arch([&](sarnn::Arch arch) {
        const auto model = make();
        const std::size_t capacity = model->capacity();
        const bool bounded = capacity != 0 && !model->window();
        REQUIRE((!bounded || capacity == rc.xs.size()));

        std::vector<Record> trace;
        trace.reserve(rc.xs.size());
        for (const ref::Vec& x : rc.xs) trace.push_back(model->step_and_record(x));
        TraceSpec spec;
        spec.tol = rc.tol;
        spec.c1_tol = rc.c1_tol;
        spec.free_running = rc.free_running;
        spec.arch = arch;
        spec.label = rc.label;
        model->check_trace(trace, rc.xs, spec, scalar_trace);

        // Full memory: refused with memory_full, and nothing changes.
        if (bounded) {
            const Record before = model->state();
            CHECK(before.full);
            CHECK(model->step(rc.xs[0]) == sarnn::Status::memory_full);
            CHECK(model->step_array(rc.xs[0]) == sarnn::Status::memory_full);
            const Record after = model->state();
            CHECK(after.length == capacity);
            CHECK(after.bytes == before.bytes);
        }

        // reset(): back to the start exactly, then the same sequence gives bit-identical results.
        model->reset();
        const Record start = model->state();
        CHECK(start.length == 0);
        CHECK_FALSE(start.full);
        CHECK(start.alpha.empty());
        CHECK(start.h.size() == model->hidden());
        CHECK(all_zero(start.h));
        CHECK(all_zero(start.c));
        CHECK(start.bytes == make()->state().bytes);
        std::size_t first_diff = 0;
        for (std::size_t i = 1; i <= rc.xs.size(); ++i) {
            const Record r = model->step_and_record(rc.xs[i - 1]);
            if ((r.status != sarnn::Status::ok || r.bytes != trace[i - 1].bytes) && first_diff == 0) first_diff = i;
        }
        INFO("re-run after reset() first differs at step " << first_diff);
        CHECK(first_diff == 0);
    });
}

void check_bad_input(const Factory& make, const std::vector<ref::Vec>& xs) {
    for_each_arch([&](sarnn::Arch) {
        const auto clean = make();
        const auto model = make();
        const std::size_t in = model->in();
        bool refused_ok = true, unchanged = true, same_course = true;

        const auto try_bad = [&](sarnn::Status want, sarnn::Status got, const Record& before) {
            if (got != want) refused_ok = false;
            if (model->state().bytes != before.bytes) unchanged = false;
        };
        const auto try_all_bad = [&]() {
            Record before = model->state();
            try_bad(sarnn::Status::null_input, model->step_null(), before);
#if SARNN_CHECK_INPUT
            const double specials[] = {std::numeric_limits<double>::quiet_NaN(),
                                       std::numeric_limits<double>::infinity(),
                                       -std::numeric_limits<double>::infinity()};
            for (double bad : specials) {
                for (std::size_t k : {std::size_t{0}, in / 2, in - 1}) {
                    ref::Vec x = xs[0];
                    x[k] = bad;
                    try_bad(sarnn::Status::non_finite_input, model->step(x), before);
                    try_bad(sarnn::Status::non_finite_input, model->step_array(x), before);
                }
            }
#else
            (void)in;
#endif
        };

        try_all_bad();  // on the empty model
        for (std::size_t i = 0; i < xs.size(); ++i) {
            REQUIRE(clean->step(xs[i]) == sarnn::Status::ok);
            REQUIRE(model->step(xs[i]) == sarnn::Status::ok);
            if (model->state().bytes != clean->state().bytes) same_course = false;
            const std::size_t cap = model->capacity();
            if (i % 3 == 1 && (cap == 0 || i + 1 < cap)) try_all_bad();  // when full, memory_full may win
        }
        CHECK(refused_ok);
        CHECK(unchanged);
        CHECK(same_course);
    });
}

void check_array_overload(const Factory& make, const std::vector<ref::Vec>& xs) {
    for_each_arch([&](sarnn::Arch) {
        const auto by_ptr = make();
        const auto by_array = make();
        bool same = true;
        for (const ref::Vec& x : xs) {
            if (by_ptr->step(x) != sarnn::Status::ok || by_array->step_array(x) != sarnn::Status::ok) same = false;
            if (by_ptr->state().bytes != by_array->state().bytes) same = false;
        }
        CHECK(same);
        CHECK(by_array->state().length == xs.size());
    });
}

}  // namespace test
