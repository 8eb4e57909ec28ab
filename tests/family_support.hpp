// tests/family_support.hpp: helpers shared by the attention-family tests (test_aligns, test_window, test_lstmn,
// test_run, test_bad_input, test_extreme_values, test_validate): weights for every params type, a kit that builds a SelfAttentionRnn with any align,
// snapshots of what a model shows, and the checks of a recorded run against the double reference.
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
    ref::Weights weights() const { return ref::weights_of(*params, In, Hidden); }

    static std::string label() {
        std::ostringstream os;
        os << "SelfAttentionRnn<" << (sizeof(T) == 4 ? "float" : "double") << ", In " << In << ", Hidden " << Hidden
           << ", Capacity " << Capacity << ", " << Kit::name() << ", " << memory_name(window) << ">";
        return os.str();
    }
};

// ---- snapshots: tests/shared/state_bytes.hpp -------------------------------------------------------------------
using kit::state_bytes;

// ---- a recorded run ------------------------------------------------------------------------------------------
/// What a model showed after one step. For Lstmn, `c` is cell() and `alpha` is attention() (s);
/// `attended` is attended() or stored().
struct Record {
    sarnn::Status status = sarnn::Status::ok;
    std::size_t length = 0;
    std::size_t attended = 0;
    bool full = false;
    ref::Vec h, c, alpha;
    std::vector<unsigned char> bytes;
};

template <class T, std::size_t In, std::size_t Hidden, std::size_t Capacity, class Align, class Memory>
Record record(const sarnn::SelfAttentionRnn<T, In, Hidden, Capacity, Align, Memory>& m, sarnn::Status s) {
    Record r;
    r.status = s;
    r.length = m.length();
    r.attended = m.attended();
    r.full = m.full();
    r.h = test::to_vec(m.hidden());
    r.c = test::to_vec(m.context());
    r.alpha = test::to_vec(m.attention());
    r.bytes = state_bytes(m);
    return r;
}
template <class T, std::size_t In, std::size_t Hidden, std::size_t Capacity, std::size_t K, class Memory>
Record record(const sarnn::Lstmn<T, In, Hidden, Capacity, K, Memory>& m, sarnn::Status s) {
    Record r;
    r.status = s;
    r.length = m.length();
    r.attended = m.stored();
    r.full = m.full();
    r.h = test::to_vec(m.hidden());
    r.c = test::to_vec(m.cell());
    r.alpha = test::to_vec(m.attention());
    r.bytes = state_bytes(m);
    return r;
}

/// Steps the model over xs, recording after every step.
template <class Model, class T>
std::vector<Record> run_and_record(Model& m, const std::vector<std::vector<T>>& xs) {
    std::vector<Record> trace;
    trace.reserve(xs.size());
    for (const auto& x : xs) {
        const sarnn::Status s = m.step(x.data());
        trace.push_back(record(m, s));
    }
    return trace;
}

template <class T>
std::vector<ref::Vec> to_vecs(const std::vector<std::vector<T>>& xs) {
    std::vector<ref::Vec> out;
    for (const auto& x : xs) out.push_back(test::to_vec(x));
    return out;
}

/// Tracks the largest |sum(alpha) - 1|, alpha outside [0, 1], |c_1 - h_1|.
struct Properties {
    double alpha_sum_error = 0.0;
    bool alpha_in_unit = true;
    double c1_error = 0.0;

    void alpha(const ref::Vec& a) {
        double sum = 0.0;
        for (double v : a) {
            if (!(v >= 0.0 && v <= 1.0)) alpha_in_unit = false;
            sum += v;
        }
        const double e = std::fabs(sum - 1.0);
        if (!(e <= alpha_sum_error)) alpha_sum_error = std::isnan(e) ? 1e300 : e;
    }
    void c1(const ref::Vec& c, const ref::Vec& h) {
        for (std::size_t k = 0; k < c.size() && k < h.size(); ++k) {
            const double e = std::fabs(c[k] - h[k]);
            if (!(e <= c1_error)) c1_error = std::isnan(e) ? 1e300 : e;
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

/// What a trace check compares with and how.
struct TraceSpec {
    std::size_t capacity = 0;
    bool window = false;       // Window memory: the newest `capacity` states are attended
    double tol = 0.0;
    double c1_tol = 0.0;
    bool free_running = true;  // also compare with the reference running on its own (contracting dynamics)
    sarnn::Arch arch = sarnn::Arch::scalar;
    std::string label;
};

/// Checks a SelfAttentionRnn run from c_0 = 0 (every step ok) against the reference:
///  - teacher-forced: each step recomputed in double from the model's own c_{i-1} and the states it showed
///    (the newest `capacity` of them for a Window), so only one step's arithmetic is compared;
///  - free-running: ref::SelfAttentionRnn on its own (window = capacity for Window);
///  - the scalar set's trace (collected when arch is scalar) against the others;
///  - length() == i, attended() == attention().size() == min(i, capacity), full(), alpha in [0, 1] sums to 1,
///    c_1 = h_1.
template <class RefAlign>
void check_sar_trace(const std::vector<Record>& trace, const std::vector<ref::Vec>& xs, const ref::Weights& w,
                     const RefAlign& align, const TraceSpec& spec, std::vector<ref::Vec>& scalar_trace) {
    INFO(spec.label << " on " << sarnn::arch_name(spec.arch));
    bool statuses_ok = true, lengths_ok = true, sizes_ok = true, full_ok = true;
    Properties props;
    test::MaxError teacher, free, vs_scalar;
    ref::SelfAttentionRnn<RefAlign> reference(w, align, spec.window ? spec.capacity : 0);
    std::vector<ref::Vec> shown;  // every h the model showed
    ref::Vec c_prev(w.hidden, 0.0);

    for (std::size_t i = 1; i <= trace.size(); ++i) {
        const Record& r = trace[i - 1];
        const ref::Vec& x = xs[i - 1];
        const std::size_t attended = std::min(i, spec.capacity);
        if (r.status != sarnn::Status::ok) statuses_ok = false;
        if (r.length != i) lengths_ok = false;
        if (r.full != (i >= spec.capacity)) full_ok = false;
        if (r.attended != attended || r.alpha.size() != attended || r.h.size() != w.hidden ||
            r.c.size() != w.hidden) {
            sizes_ok = false;
            break;
        }
        props.alpha(r.alpha);
        if (i == 1) props.c1(r.c, r.h);

        // teacher-forced: one step of the reference from the model's own state
        teacher.add(r.h, ref::rnn_cell(w, x, c_prev), i, "h");
        shown.push_back(r.h);
        const StateRange memory{shown.data() + (shown.size() - attended), shown.data() + shown.size()};
        const ref::Attention att = ref::attend(memory, r.h, align);
        teacher.add(r.alpha, att.alpha, i, "alpha");
        teacher.add(r.c, att.c, i, "c");
        c_prev = r.c;

        // free-running
        reference.step(x);
        free.add(r.h, reference.hidden(), i, "h");
        free.add(r.alpha, reference.attention(), i, "alpha");
        free.add(r.c, reference.context(), i, "c");

        ref::Vec all = r.h;
        all.insert(all.end(), r.c.begin(), r.c.end());
        all.insert(all.end(), r.alpha.begin(), r.alpha.end());
        if (spec.arch == sarnn::Arch::scalar)
            scalar_trace.push_back(all);
        else if (i <= scalar_trace.size())
            vs_scalar.add(all, scalar_trace[i - 1], i, "[h; c; alpha]");
    }
    const std::string where = spec.label + " " + sarnn::arch_name(spec.arch);
    test::report(where + " teacher", teacher.max, teacher.where);
    test::report(where + " free", free.max, free.where);
    test::report(where + " vs_scalar", vs_scalar.max, vs_scalar.where);

    CHECK(statuses_ok);
    CHECK(lengths_ok);
    CHECK(full_ok);
    CHECK(sizes_ok);
    CHECK(props.alpha_in_unit);
    CHECK(props.alpha_sum_error <= spec.tol);
    CHECK(props.c1_error <= spec.c1_tol);
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

// ---- Lstmn checks ------------------------------------------------------------------------------------------
using kit::LstmnWeightsKind;
using kit::make_lstmn_params;
using kit::name;

/// Checks an Lstmn run from the start (every step ok) against the reference, as check_sar_trace: teacher-forced
/// (one step from the tapes the model showed, with h~_{t-1} = Σ s_j h_j over the tapes and weights it showed),
/// free-running, against the scalar set; attention().size() == min(t-1, capacity), stored() == min(t,
/// capacity), length() == t, full(), s in [0, 1] sums to 1 (t > 1).
inline void check_lstmn_trace(const std::vector<Record>& trace, const std::vector<ref::Vec>& xs,
                              const ref::LstmnWeights& w, const TraceSpec& spec,
                              std::vector<ref::Vec>& scalar_trace) {
    INFO(spec.label << " on " << sarnn::arch_name(spec.arch));
    bool statuses_ok = true, lengths_ok = true, sizes_ok = true, full_ok = true;
    Properties props;
    test::MaxError teacher, free, vs_scalar;
    ref::Lstmn reference(w, spec.window ? spec.capacity : 0);
    std::vector<ref::Vec> shown_h, shown_c;  // every h_t, c_t the model showed
    ref::Vec h_tilde_prev(w.hidden, 0.0);

    for (std::size_t t = 1; t <= trace.size(); ++t) {
        const Record& r = trace[t - 1];
        const std::size_t attended = std::min(t - 1, spec.capacity);
        if (r.status != sarnn::Status::ok) statuses_ok = false;
        if (r.length != t) lengths_ok = false;
        if (r.full != (t >= spec.capacity)) full_ok = false;
        if (r.attended != std::min(t, spec.capacity) || r.alpha.size() != attended || r.h.size() != w.hidden ||
            r.c.size() != w.hidden) {
            sizes_ok = false;
            break;
        }
        if (t > 1) props.alpha(r.alpha);

        // teacher-forced
        const auto from = static_cast<std::ptrdiff_t>(shown_h.size() - attended);
        const std::vector<ref::Vec> tape_h(shown_h.begin() + from, shown_h.end());
        const std::vector<ref::Vec> tape_c(shown_c.begin() + from, shown_c.end());
        const ref::LstmnStep one = ref::lstmn_step(w, xs[t - 1], tape_h, tape_c, h_tilde_prev);
        teacher.add(r.alpha, one.s, t, "s");
        teacher.add(r.h, one.h, t, "h");
        teacher.add(r.c, one.c, t, "c");
        // h~_t as the model's own s and tapes give it
        h_tilde_prev.assign(w.hidden, 0.0);
        for (std::size_t j = 0; j < tape_h.size(); ++j)
            for (std::size_t d = 0; d < w.hidden; ++d) h_tilde_prev[d] += r.alpha[j] * tape_h[j][d];
        shown_h.push_back(r.h);
        shown_c.push_back(r.c);

        // free-running
        reference.step(xs[t - 1]);
        free.add(r.alpha, reference.attention(), t, "s");
        free.add(r.h, reference.hidden(), t, "h");
        free.add(r.c, reference.cell(), t, "c");

        ref::Vec all = r.h;
        all.insert(all.end(), r.c.begin(), r.c.end());
        all.insert(all.end(), r.alpha.begin(), r.alpha.end());
        if (spec.arch == sarnn::Arch::scalar)
            scalar_trace.push_back(all);
        else if (t <= scalar_trace.size())
            vs_scalar.add(all, scalar_trace[t - 1], t, "[h; c; s]");
    }
    const std::string where = spec.label + " " + sarnn::arch_name(spec.arch);
    test::report(where + " teacher", teacher.max, teacher.where);
    test::report(where + " free", free.max, free.where);
    test::report(where + " vs_scalar", vs_scalar.max, vs_scalar.where);

    CHECK(statuses_ok);
    CHECK(lengths_ok);
    CHECK(full_ok);
    CHECK(sizes_ok);
    CHECK(props.alpha_in_unit);
    CHECK(props.alpha_sum_error <= spec.tol);
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

/// The bytes of every record of a trace, for bit-identical comparisons of two runs; returns the first step
/// (1-based) where they differ, 0 when they never do.
inline std::size_t first_difference(const std::vector<Record>& a, const std::vector<Record>& b) {
    const std::size_t n = std::max(a.size(), b.size());
    for (std::size_t i = 0; i < n; ++i) {
        if (i >= a.size() || i >= b.size() || a[i].status != b[i].status || a[i].bytes != b[i].bytes) return i + 1;
    }
    return 0;
}

}  // namespace fam

#endif
