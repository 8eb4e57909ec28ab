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

/// The reference's view of one step: either SimpleRnn or SelfAttentionRnn with the matching align.
struct RefStep {
    ref::Vec h, c, alpha;
};

class FreeReference {
public:
    FreeReference(Reference which, const ref::Weights& w) : which_(which), simple_(w), dot_(w), scaled_(w) {}
    RefStep step(const ref::Vec& x) {
        switch (which_) {
        case Reference::simple: return {simple_.step(x), {}, {}};
        case Reference::attention_dot:
            dot_.step(x);
            return {dot_.hidden(), dot_.context(), dot_.attention()};
        case Reference::attention_scaled_dot:
            scaled_.step(x);
            return {scaled_.hidden(), scaled_.context(), scaled_.attention()};
        }
        return {};
    }

private:
    Reference which_;
    ref::SimpleRnn simple_;
    ref::SelfAttentionRnn<ref::Dot> dot_;
    ref::SelfAttentionRnn<ref::ScaledDot> scaled_;
};

ref::Attention attend(Reference which, const std::vector<ref::Vec>& memory, const ref::Vec& h) {
    return which == Reference::attention_scaled_dot ? ref::attend(memory, h, ref::ScaledDot{})
                                                    : ref::attend(memory, h, ref::Dot{});
}

void update_max(double& m, double e) {
    if (!(e <= m)) m = std::isnan(e) ? std::numeric_limits<double>::infinity() : e;
}

/// Checks one run from the zero state. `scalar_trace` holds the scalar set's run (filled when arch is scalar).
void check_trace(const std::vector<Record>& trace, const ReferenceCase& rc, std::size_t capacity, sarnn::Arch arch,
                 std::vector<ref::Vec>& scalar_trace) {
    const bool attention = rc.which != Reference::simple;
    const ref::Weights& w = rc.weights;
    bool statuses_ok = true, lengths_ok = true, full_ok = true, sizes_ok = true, alpha_in_unit = true;
    double alpha_sum_error = 0.0, c1_error = 0.0;
    MaxError teacher, free, vs_scalar;
    FreeReference reference(rc.which, w);
    std::vector<ref::Vec> shown;   // h_1..h_i as the model showed them: the teacher-forced memory
    ref::Vec prev(w.hidden, 0.0);  // the model's h_{i-1} (SimpleRnn) or c_{i-1} (SelfAttentionRnn)

    for (std::size_t i = 1; i <= trace.size(); ++i) {
        const Record& r = trace[i - 1];
        const ref::Vec& x = rc.xs[i - 1];
        if (r.status != sarnn::Status::ok) statuses_ok = false;
        if (r.length != i) lengths_ok = false;
        if (r.full != (capacity != 0 && i == capacity)) full_ok = false;
        const std::size_t want_c = attention ? w.hidden : 0, want_alpha = attention ? i : 0;
        if (r.h.size() != w.hidden || r.c.size() != want_c || r.alpha.size() != want_alpha) {
            sizes_ok = false;
            continue;
        }

        // teacher-forced: one step of the reference from the model's own state
        teacher.add(r.h, ref::rnn_cell(w, x, prev), i, "h");
        if (attention) {
            double sum = 0.0;
            for (double a : r.alpha) {
                if (!(a >= 0.0 && a <= 1.0)) alpha_in_unit = false;
                sum += a;
            }
            update_max(alpha_sum_error, std::fabs(sum - 1.0));
            if (i == 1)
                for (std::size_t k = 0; k < w.hidden; ++k) update_max(c1_error, std::fabs(r.c[k] - r.h[k]));
            shown.push_back(r.h);
            const ref::Attention att = attend(rc.which, shown, r.h);
            teacher.add(r.alpha, att.alpha, i, "alpha");
            teacher.add(r.c, att.c, i, "c");
            prev = r.c;
        } else {
            prev = r.h;
        }

        // free-running
        const RefStep f = reference.step(x);
        free.add(r.h, f.h, i, "h");
        if (attention) {
            free.add(r.alpha, f.alpha, i, "alpha");
            free.add(r.c, f.c, i, "c");
        }

        ref::Vec all = r.h;
        all.insert(all.end(), r.c.begin(), r.c.end());
        all.insert(all.end(), r.alpha.begin(), r.alpha.end());
        if (arch == sarnn::Arch::scalar)
            scalar_trace.push_back(all);
        else if (i <= scalar_trace.size())
            vs_scalar.add(all, scalar_trace[i - 1], i, "[h; c; alpha]");
    }
    const std::string label = rc.label + " " + sarnn::arch_name(arch);
    report(label + " teacher", teacher.max, teacher.where);
    report(label + " free", free.max, free.where);
    report(label + " vs_scalar", vs_scalar.max, vs_scalar.where);

    CHECK(statuses_ok);
    CHECK(lengths_ok);
    CHECK(full_ok);
    CHECK(sizes_ok);
    if (attention) {
        CHECK(alpha_in_unit);
        CHECK(alpha_sum_error <= rc.tol);
        CHECK(c1_error <= rc.c1_tol);
    }
    {
        INFO("teacher-forced, worst: " << teacher.where);
        CHECK(teacher.all_finite);
        CHECK(teacher.max <= rc.tol);
    }
    if (rc.free_running) {
        INFO("free-running, worst: " << free.where);
        CHECK(free.max <= rc.tol);
        if (arch != sarnn::Arch::scalar) {
            INFO("this set vs the scalar set, worst: " << vs_scalar.where);
            CHECK(vs_scalar.max <= rc.tol);
        }
    }
}

bool all_zero(const ref::Vec& v) {
    for (double x : v)
        if (!(x == 0.0)) return false;
    return true;
}

}  // namespace

std::string model_label(const char* model, std::size_t t_size, std::size_t in, std::size_t hidden,
                        std::size_t capacity, const char* align, Weights kind) {
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
        REQUIRE((capacity == 0 || capacity == rc.xs.size()));

        std::vector<Record> trace;
        trace.reserve(rc.xs.size());
        for (const ref::Vec& x : rc.xs) trace.push_back(model->step_and_record(x));
        check_trace(trace, rc, capacity, arch, scalar_trace);

        // Full memory: refused with memory_full, and nothing changes.
        if (capacity != 0) {
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
            const double specials[] = {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity(),
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
