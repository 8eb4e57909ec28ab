// tests/trace_checks.hpp: a recorded run (record.hpp) checked against the double reference, one function per
// model: check_simple_trace, check_sar_trace (any align, Bounded or Window), check_lstmn_trace.
//
// Each compares in three ways:
//  - teacher-forced, for every weight kind: each step recomputed in double from the model's own previous state
//    (its h_{i-1}, or its c_{i-1} and the states it showed), so the check covers exactly one step's arithmetic
//    and float rounding does not compound;
//  - free-running (the reference on its own from the start) and each SIMD set against the scalar set, for the
//    weight kinds whose dynamics contract (spec.free_running). With uniform ±3 weights the recurrence is chaotic
//    (a random tanh network with gain ≈ 14, measured: float and double runs, and any two kernel sets, end up
//    apart by O(1) after some tens of steps), so that kind is checked teacher-forced only;
//  - the properties of every step: status ok, length, full(), sizes, alpha in [0, 1] summing to 1, c_1 = h_1.
#ifndef SARNN_TESTS_TRACE_CHECKS_HPP
#define SARNN_TESTS_TRACE_CHECKS_HPP

#include <catch2/catch.hpp>

#include <sarnn/sarnn.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

#include "record.hpp"
#include "reference.hpp"
#include "reference_family.hpp"
#include "support.hpp"

namespace test {

/// What a trace check compares with and how.
struct TraceSpec {
    std::size_t capacity = 0;  // 0 for SimpleRnn
    bool window = false;       // Window memory: the newest `capacity` states are attended
    double tol = 0.0;          // on h, c, alpha and the sum of alpha
    double c1_tol = 0.0;       // on c_1 - h_1
    bool free_running = true;  // also compare with the reference running on its own (contracting dynamics)
    sarnn::Arch arch = sarnn::Arch::scalar;
    std::string label;
};

/// What a trace check found; finish() reports the errors and asserts them against the spec.
struct TraceVerdict {
    bool statuses_ok = true, lengths_ok = true, full_ok = true, sizes_ok = true, alpha_in_unit = true;
    double alpha_sum_error = 0.0, c1_error = 0.0;
    MaxError teacher, free, vs_scalar;

    static void update_max(double& m, double e) {
        if (!(e <= m)) m = std::isnan(e) ? 1e300 : e;
    }
    void common(const Record& r, std::size_t i, bool want_full) {
        if (r.status != sarnn::Status::ok) statuses_ok = false;
        if (r.length != i) lengths_ok = false;
        if (r.full != want_full) full_ok = false;
    }
    /// alpha in [0, 1], summing to 1
    void alpha(const ref::Vec& a) {
        double sum = 0.0;
        for (double v : a) {
            if (!(v >= 0.0 && v <= 1.0)) alpha_in_unit = false;
            sum += v;
        }
        update_max(alpha_sum_error, std::fabs(sum - 1.0));
    }
    /// c_1 = h_1
    void c1(const ref::Vec& c, const ref::Vec& h) {
        for (std::size_t k = 0; k < c.size() && k < h.size(); ++k) update_max(c1_error, std::fabs(c[k] - h[k]));
    }
    /// [h; c; alpha] of step i against the scalar set's (collected when this is the scalar set)
    void against_scalar(const Record& r, std::size_t i, sarnn::Arch arch, std::vector<ref::Vec>& scalar_trace) {
        ref::Vec all = r.h;
        all.insert(all.end(), r.c.begin(), r.c.end());
        all.insert(all.end(), r.alpha.begin(), r.alpha.end());
        if (arch == sarnn::Arch::scalar)
            scalar_trace.push_back(all);
        else if (i <= scalar_trace.size())
            vs_scalar.add(all, scalar_trace[i - 1], i, "[h; c; alpha]");
    }
    void finish(const TraceSpec& spec, bool attention) const {
        const std::string where = spec.label + " " + sarnn::arch_name(spec.arch);
        report(where + " teacher", teacher.max, teacher.where);
        report(where + " free", free.max, free.where);
        report(where + " vs_scalar", vs_scalar.max, vs_scalar.where);
        INFO(spec.label << " on " << sarnn::arch_name(spec.arch));
        CHECK(statuses_ok);
        CHECK(lengths_ok);
        CHECK(full_ok);
        CHECK(sizes_ok);
        if (attention) {
            CHECK(alpha_in_unit);
            CHECK(alpha_sum_error <= spec.tol);
            CHECK(c1_error <= spec.c1_tol);
        }
        {
            INFO("teacher-forced, worst: " << teacher.where);
            CHECK(teacher.all_finite);
            CHECK(teacher.max <= spec.tol);
        }
        if (spec.free_running) {
            INFO("free-running, worst: " << free.where);
            CHECK(free.max <= spec.tol);
            if (spec.arch != sarnn::Arch::scalar) {
                INFO("this set vs the scalar set, worst: " << vs_scalar.where);
                CHECK(vs_scalar.max <= spec.tol);
            }
        }
    }
};

/// The newest states of a vector, oldest first, without a copy (what ref::attend needs of a memory).
struct StateRange {
    const ref::Vec* first;
    const ref::Vec* last;
    std::size_t size() const { return static_cast<std::size_t>(last - first); }
    const ref::Vec* begin() const { return first; }
    const ref::Vec* end() const { return last; }
};

/// A SimpleRnn run from h_0 = 0: h_i = tanh(A·[x_i; h_{i-1}] + b), c and alpha empty, never full.
inline void check_simple_trace(const std::vector<Record>& trace, const std::vector<ref::Vec>& xs, const ref::Weights& w,
                               const TraceSpec& spec, std::vector<ref::Vec>& scalar_trace) {
    TraceVerdict v;
    ref::SimpleRnn reference(w);
    ref::Vec h_prev(w.hidden, 0.0);
    for (std::size_t i = 1; i <= trace.size(); ++i) {
        const Record& r = trace[i - 1];
        v.common(r, i, false);
        if (r.attended != 0 || r.h.size() != w.hidden || !r.c.empty() || !r.alpha.empty()) {
            v.sizes_ok = false;
            break;
        }
        v.teacher.add(r.h, ref::rnn_cell(w, xs[i - 1], h_prev), i, "h");
        h_prev = r.h;
        v.free.add(r.h, reference.step(xs[i - 1]), i, "h");
        v.against_scalar(r, i, spec.arch, scalar_trace);
    }
    v.finish(spec, false);
}

/// A SelfAttentionRnn run from c_0 = 0: teacher-forced from the model's own c_{i-1} and the states it showed
/// (the newest `capacity` of them for a Window), free-running against ref::SelfAttentionRnn (window = capacity
/// for Window); length() == i, attended() == attention().size() == min(i, capacity), full() once i >= capacity.
template <class RefAlign>
void check_sar_trace(const std::vector<Record>& trace, const std::vector<ref::Vec>& xs, const ref::Weights& w,
                     const RefAlign& align, const TraceSpec& spec, std::vector<ref::Vec>& scalar_trace) {
    TraceVerdict v;
    ref::SelfAttentionRnn<RefAlign> reference(w, align, spec.window ? spec.capacity : 0);
    std::vector<ref::Vec> shown;  // every h the model showed
    ref::Vec c_prev(w.hidden, 0.0);

    for (std::size_t i = 1; i <= trace.size(); ++i) {
        const Record& r = trace[i - 1];
        const ref::Vec& x = xs[i - 1];
        const std::size_t attended = std::min(i, spec.capacity);
        v.common(r, i, i >= spec.capacity);
        if (r.attended != attended || r.alpha.size() != attended || r.h.size() != w.hidden || r.c.size() != w.hidden) {
            v.sizes_ok = false;
            break;
        }
        v.alpha(r.alpha);
        if (i == 1) v.c1(r.c, r.h);

        // teacher-forced: one step of the reference from the model's own state
        v.teacher.add(r.h, ref::rnn_cell(w, x, c_prev), i, "h");
        shown.push_back(r.h);
        const StateRange memory{shown.data() + (shown.size() - attended), shown.data() + shown.size()};
        const ref::Attention att = ref::attend(memory, r.h, align);
        v.teacher.add(r.alpha, att.alpha, i, "alpha");
        v.teacher.add(r.c, att.c, i, "c");
        c_prev = r.c;

        // free-running
        reference.step(x);
        v.free.add(r.h, reference.hidden(), i, "h");
        v.free.add(r.alpha, reference.attention(), i, "alpha");
        v.free.add(r.c, reference.context(), i, "c");

        v.against_scalar(r, i, spec.arch, scalar_trace);
    }
    v.finish(spec, true);
}

/// An Lstmn run from the start: teacher-forced (one step from the tapes the model showed, with
/// h~_{t-1} = Σ s_j h_j over the tapes and weights it showed), free-running against ref::Lstmn;
/// attention().size() == min(t-1, capacity), stored() == min(t, capacity), length() == t, full(), s in [0, 1]
/// summing to 1 (t > 1). c_1 = h_1 has no counterpart here (spec.c1_tol is not used).
inline void check_lstmn_trace(const std::vector<Record>& trace, const std::vector<ref::Vec>& xs,
                              const ref::LstmnWeights& w, const TraceSpec& spec, std::vector<ref::Vec>& scalar_trace) {
    TraceVerdict v;
    ref::Lstmn reference(w, spec.window ? spec.capacity : 0);
    std::vector<ref::Vec> shown_h, shown_c;  // every h_t, c_t the model showed
    ref::Vec h_tilde_prev(w.hidden, 0.0);

    for (std::size_t t = 1; t <= trace.size(); ++t) {
        const Record& r = trace[t - 1];
        const std::size_t attended = std::min(t - 1, spec.capacity);
        v.common(r, t, t >= spec.capacity);
        if (r.attended != std::min(t, spec.capacity) || r.alpha.size() != attended || r.h.size() != w.hidden ||
            r.c.size() != w.hidden) {
            v.sizes_ok = false;
            break;
        }
        if (t > 1) v.alpha(r.alpha);

        // teacher-forced
        const auto from = static_cast<std::ptrdiff_t>(shown_h.size() - attended);
        const std::vector<ref::Vec> tape_h(shown_h.begin() + from, shown_h.end());
        const std::vector<ref::Vec> tape_c(shown_c.begin() + from, shown_c.end());
        const ref::LstmnStep one = ref::lstmn_step(w, xs[t - 1], tape_h, tape_c, h_tilde_prev);
        v.teacher.add(r.alpha, one.s, t, "s");
        v.teacher.add(r.h, one.h, t, "h");
        v.teacher.add(r.c, one.c, t, "c");
        // h~_t as the model's own s and tapes give it
        h_tilde_prev.assign(w.hidden, 0.0);
        for (std::size_t j = 0; j < tape_h.size(); ++j)
            for (std::size_t d = 0; d < w.hidden; ++d) h_tilde_prev[d] += r.alpha[j] * tape_h[j][d];
        shown_h.push_back(r.h);
        shown_c.push_back(r.c);

        // free-running
        reference.step(xs[t - 1]);
        v.free.add(r.alpha, reference.attention(), t, "s");
        v.free.add(r.h, reference.hidden(), t, "h");
        v.free.add(r.c, reference.cell(), t, "c");

        v.against_scalar(r, t, spec.arch, scalar_trace);
    }
    TraceSpec no_c1 = spec;
    no_c1.c1_tol = 1e300;
    v.finish(no_c1, true);
}

}  // namespace test

#endif
