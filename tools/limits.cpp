// tools/limits.cpp: sarnn_limits, the numerical-limits report. For every model (SimpleRnn, SelfAttentionRnn with
// each align of tests/shared/aligns.hpp, Lstmn), float and double, every kernel set this CPU runs, and the weight
// distributions of the tests (tests/shared/weights.hpp), it measures the largest |library - double reference| over the
// values a model shows (h, c, alpha):
//   teacher-forced  each step recomputed in double from the state the model showed (one step's arithmetic),
//   free-running    the double reference run on its own from the same inputs (error carried across steps),
// at 16, 256 and 4096 steps, with In 8, Hidden 32, Capacity 4096, K 16. It prints markdown tables.
//
// The reference here is the formulas of tests/reference.hpp and tests/reference_family.hpp with the per-state
// terms cached (the aligns' key(h_j), W_h h_j), so 4096 steps cost O(n²·Hidden) instead of O(n²·K·Hidden);
// it is checked against those references (used as they are) over the first steps before anything is measured.
//
//   sarnn_limits [steps]      (default 4096; the table columns stop at the largest of 16, 256, 4096 <= steps)
#include <sarnn/sarnn.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "reference.hpp"
#include "reference_family.hpp"
#include "shared/aligns.hpp"
#include "shared/arches.hpp"
#include "shared/weights.hpp"

namespace {

constexpr std::size_t kIn = 8, kHidden = 32, kCap = 4096, kK = 16;
constexpr std::array<std::size_t, 3> kMarks = {16, 256, 4096};
using Vec = std::vector<double>;
constexpr double kInf = std::numeric_limits<double>::infinity();

// ---- the test distributions: tests/shared/weights.hpp ----------------------------------------------------------
using Kind = kit::Weights;
using kit::name;

template <class T>
std::unique_ptr<sarnn::RnnParams<T, kIn, kHidden>> rnn_params(Kind kind, std::uint32_t seed) {
    return kit::make_params<T, kIn, kHidden>(kind, seed);
}
/// Inputs: uniform [-1, 1], or +-1 for the extreme weights.
std::vector<Vec> inputs(Kind kind, std::size_t n, std::uint32_t seed) {
    return kit::make_inputs<double>(kind, n, kIn, seed);
}

template <class T>
std::vector<T> cast(const Vec& x) {
    return std::vector<T>(x.begin(), x.end());
}
template <class T>
Vec vec(const sarnn::View<T>& v) {
    return Vec(v.begin(), v.end());
}
double max_diff(const Vec& a, const Vec& b) {
    if (a.size() != b.size()) return kInf;
    double m = 0.0;
    for (std::size_t k = 0; k < a.size(); ++k) {
        const double d = std::fabs(a[k] - b[k]);
        m = std::isnan(d) ? kInf : std::max(m, d);
    }
    return m;
}

// ---- the cached double reference of one attention step ------------------------------------------------------
/// alpha = softmax_j(score(key_j, q)), c = Σ alpha_j h_j, with the keys of the stored states kept (Align: a
/// reference align of reference*.hpp, whose score is split as score(key(h_j), query(h_i))).
template <class Align>
ref::Attention attend(const std::vector<Vec>& hs, const std::vector<Vec>& keys, const Vec& q, const Align& al) {
    Vec e(hs.size());
    for (std::size_t j = 0; j < hs.size(); ++j) e[j] = al.score(keys[j], q);
    ref::Attention out;
    out.alpha = ref::softmax(e);
    out.c.assign(hs.empty() ? 0 : hs[0].size(), 0.0);
    for (std::size_t j = 0; j < hs.size(); ++j)
        for (std::size_t d = 0; d < out.c.size(); ++d) out.c[d] += out.alpha[j] * hs[j][d];
    return out;
}

/// Largest error up to each mark.
struct Curve {
    std::array<double, kMarks.size()> teacher{}, free{};
    void add(std::size_t step, double te, double fe) {
        for (std::size_t m = 0; m < kMarks.size(); ++m) {
            if (step <= kMarks[m]) {
                teacher[m] = std::max(teacher[m], std::isnan(te) ? kInf : te);
                free[m] = std::max(free[m], std::isnan(fe) ? kInf : fe);
            }
        }
    }
};

// ---- one run per model ------------------------------------------------------------------------------------------
template <class T>
Curve run_simple(Kind kind, std::size_t steps, std::uint32_t seed) {
    const auto p = rnn_params<T>(kind, seed);
    const ref::Weights w = ref::weights_of(*p, kIn, kHidden);
    const auto m = std::make_unique<sarnn::SimpleRnn<T, kIn, kHidden>>(*p);
    ref::SimpleRnn free(w);
    Curve cv;
    Vec h_prev(kHidden, 0.0);
    for (const Vec& x : inputs(kind, steps, seed + 1)) {
        if (m->step(cast<T>(x).data()) != sarnn::Status::ok) std::abort();
        const Vec h = vec(m->hidden());
        free.step(x);
        cv.add(m->length(), max_diff(h, ref::rnn_cell(w, x, h_prev)), max_diff(h, free.hidden()));
        h_prev = h;
    }
    return cv;
}

template <class T, class Align>
Curve run_sar(Kind kind, std::size_t steps, std::uint32_t seed, bool cross_check) {
    using Traits = kit::AlignTraits<Align>;
    using Model = sarnn::SelfAttentionRnn<T, kIn, kHidden, kCap, Align, sarnn::Bounded>;
    const auto p = rnn_params<T>(kind, seed);
    const ref::Weights w = ref::weights_of(*p, kIn, kHidden);
    // the align params as the tests draw them (gain 3 for the large weights)
    const auto ap = kit::make_align_params<Align, T, kHidden>(kind == Kind::large ? 3.0 : 1.0, seed + 7919);
    const auto al = Traits::reference(*ap);
    std::unique_ptr<Model> m;
    if constexpr (Traits::has_params)
        m = std::make_unique<Model>(*p, *ap);
    else
        m = std::make_unique<Model>(*p);
    const std::vector<Vec> xs = inputs(kind, steps, seed + 1);
    Curve cv;
    std::vector<Vec> shown, shown_keys;  // teacher-forced memory: the states the model showed
    std::vector<Vec> own, own_keys;      // free-running memory
    Vec c_prev(kHidden, 0.0), c_own(kHidden, 0.0);
    for (std::size_t i = 0; i < xs.size(); ++i) {
        const Vec& x = xs[i];
        if (m->step(cast<T>(x).data()) != sarnn::Status::ok) std::abort();
        const Vec h = vec(m->hidden()), c = vec(m->context()), alpha = vec(m->attention());
        // teacher-forced
        const Vec h_ref = ref::rnn_cell(w, x, c_prev);
        shown.push_back(h);
        shown_keys.push_back(al.key(h));
        const ref::Attention att = attend(shown, shown_keys, al.query(h), al);
        const double te = std::max({max_diff(h, h_ref), max_diff(alpha, att.alpha), max_diff(c, att.c)});
        c_prev = c;
        // free-running
        const Vec h_own = ref::rnn_cell(w, x, c_own);
        own.push_back(h_own);
        own_keys.push_back(al.key(h_own));
        const ref::Attention att_own = attend(own, own_keys, al.query(h_own), al);
        c_own = att_own.c;
        const double fe = std::max({max_diff(h, h_own), max_diff(alpha, att_own.alpha), max_diff(c, att_own.c)});
        cv.add(i + 1, te, fe);
    }
    if (cross_check) {
        // the cached reference against tests/reference*.hpp as they are, over the first 64 steps
        // the cached reference against tests/reference*.hpp as they are (the align's operator()), first 64 steps
        ref::SelfAttentionRnn<std::decay_t<decltype(al)>> plain(w, al);
        std::vector<Vec> mem, keys;
        Vec cc(kHidden, 0.0);
        for (std::size_t i = 0; i < std::min<std::size_t>(64, xs.size()); ++i) {
            plain.step(xs[i]);
            const Vec hh = ref::rnn_cell(w, xs[i], cc);
            mem.push_back(hh);
            keys.push_back(al.key(hh));
            const ref::Attention a = attend(mem, keys, al.query(hh), al);
            cc = a.c;
            const double d = std::max(
                {max_diff(hh, plain.hidden()), max_diff(a.alpha, plain.attention()), max_diff(a.c, plain.context())});
            if (!(d <= 1e-12)) {
                std::fprintf(stderr, "cached reference differs from tests/reference*.hpp: %g (%s)\n", d,
                             Traits::name().c_str());
                std::exit(1);
            }
        }
    }
    return cv;
}

template <class T>
Curve run_lstmn(Kind kind, std::size_t steps, std::uint32_t seed, bool cross_check) {
    // as the tests draw them: PyTorch's init, or +-2 everywhere ("large", also for the extreme row)
    const auto p = kit::make_lstmn_params<T, kIn, kHidden, kK>(
        kind == Kind::scaled ? kit::LstmnWeightsKind::scaled : kit::LstmnWeightsKind::large, seed);
    const ref::LstmnWeights w = ref::lstmn_weights_of(*p);
    const auto m = std::make_unique<sarnn::Lstmn<T, kIn, kHidden, kCap, kK, sarnn::Bounded>>(*p);
    const std::vector<Vec> xs = inputs(kind == Kind::extreme ? Kind::extreme : Kind::scaled, steps, seed + 1);

    // one step from tapes (with cached keys W_h h_j) and h~_{t-1}; the formulas of reference_family.hpp
    struct Tape {
        std::vector<Vec> h, c, key;
    };
    auto step = [&w](const Vec& x, const Tape& tp, const Vec& ht_prev) {
        ref::LstmnStep out;
        const std::size_t H = w.hidden;
        out.h_tilde.assign(H, 0.0);
        out.c_tilde.assign(H, 0.0);
        if (!tp.h.empty()) {
            const Vec wx = ref::matvec(w.W_x, x), wht = ref::matvec(w.W_ht, ht_prev);
            Vec a(tp.h.size());
            for (std::size_t j = 0; j < tp.h.size(); ++j) {
                double e = 0.0;
                for (std::size_t k = 0; k < w.k; ++k) e += w.v[k] * std::tanh(tp.key[j][k] + wx[k] + wht[k]);
                a[j] = e;
            }
            out.s = ref::softmax(a);
            for (std::size_t j = 0; j < tp.h.size(); ++j)
                for (std::size_t d = 0; d < H; ++d) {
                    out.h_tilde[d] += out.s[j] * tp.h[j][d];
                    out.c_tilde[d] += out.s[j] * tp.c[j][d];
                }
        }
        const Vec zx = ref::matvec(w.W_ih, x), zh = ref::matvec(w.W_hh, out.h_tilde);
        out.h.assign(H, 0.0);
        out.c.assign(H, 0.0);
        for (std::size_t d = 0; d < H; ++d) {
            auto z = [&](std::size_t gate) { return zx[gate * H + d] + zh[gate * H + d] + w.b[gate * H + d]; };
            const double i = ref::sigmoid(z(0)), f = ref::sigmoid(z(1)), g = std::tanh(z(2)), o = ref::sigmoid(z(3));
            out.c[d] = f * out.c_tilde[d] + i * g;
            out.h[d] = o * std::tanh(out.c[d]);
        }
        return out;
    };

    Curve cv;
    Tape shown, own;
    Vec ht_shown(kHidden, 0.0), ht_own(kHidden, 0.0);
    ref::Lstmn plain(w);
    for (std::size_t t = 0; t < xs.size(); ++t) {
        const Vec& x = xs[t];
        if (m->step(cast<T>(x).data()) != sarnn::Status::ok) std::abort();
        const Vec h = vec(m->hidden()), c = vec(m->cell()), s = vec(m->attention());
        // teacher-forced, with h~_{t-1} = Σ s_j h_j from the s and tapes the model showed
        const ref::LstmnStep one = step(x, shown, ht_shown);
        const double te = std::max({max_diff(h, one.h), max_diff(c, one.c), max_diff(s, one.s)});
        ht_shown.assign(kHidden, 0.0);
        for (std::size_t j = 0; j < shown.h.size() && j < s.size(); ++j)
            for (std::size_t d = 0; d < kHidden; ++d) ht_shown[d] += s[j] * shown.h[j][d];
        shown.h.push_back(h);
        shown.c.push_back(c);
        shown.key.push_back(ref::matvec(w.W_h, h));
        // free-running
        const ref::LstmnStep mine = step(x, own, ht_own);
        ht_own = mine.h_tilde;
        own.h.push_back(mine.h);
        own.c.push_back(mine.c);
        own.key.push_back(ref::matvec(w.W_h, mine.h));
        const double fe = std::max({max_diff(h, mine.h), max_diff(c, mine.c), max_diff(s, mine.s)});
        cv.add(t + 1, te, fe);
        if (cross_check && t < 64) {
            plain.step(x);
            const double d = std::max({max_diff(mine.h, plain.hidden()), max_diff(mine.c, plain.cell()),
                                       max_diff(mine.s, plain.attention())});
            if (!(d <= 1e-12)) {
                std::fprintf(stderr, "cached Lstmn reference differs from tests/reference_family.hpp: %g\n", d);
                std::exit(1);
            }
        }
    }
    return cv;
}

// ---- the report -------------------------------------------------------------------------------------------------
constexpr auto kArches = kit::kAllArches;  // every set of the one list; those this CPU lacks are left out

struct Row {
    std::string model;
    std::string type;
    Kind kind;
    std::vector<Curve> per_arch;  // one per available arch, in kArches order
};

template <class T>
std::vector<Row> measure_type(std::size_t steps, const std::vector<Kind>& kinds) {
    const std::string type = std::is_same_v<T, float> ? "float" : "double";
    std::vector<Row> rows;
    auto each = [&](const std::string& model, auto run) {
        for (Kind kind : kinds) {
            // the Lstmn tests have two distributions only (scaled, large)
            if (model.rfind("Lstmn", 0) == 0 && kind == Kind::extreme) continue;
            Row r{model, type, kind, {}};
            for (sarnn::Arch a : kArches) {
                if (sarnn::set_arch(a) != sarnn::Status::ok) continue;
                // cross-check the cached reference once per model, where the dynamics contract (rounding-order
                // differences between the two references do not grow)
                r.per_arch.push_back(run(kind, a == sarnn::Arch::scalar && kind == Kind::scaled));
            }
            rows.push_back(r);
            std::fprintf(stderr, ".");
        }
    };
    const std::uint32_t seed = 1234;
    each("SimpleRnn", [&](Kind k, bool) { return run_simple<T>(k, steps, seed); });
    kit::for_each_type(kit::Aligns<kK>{}, [&](auto tag) {
        using Align = typename decltype(tag)::type;
        each("SAR " + kit::AlignTraits<Align>::name(),
             [&](Kind k, bool x) { return run_sar<T, Align>(k, steps, seed, x); });
    });
    each("Lstmn K 16", [&](Kind k, bool x) { return run_lstmn<T>(k, steps, seed, x); });
    return rows;
}

void print(const std::vector<Row>& rows, std::size_t steps) {
    std::vector<std::string> arch_names;
    for (sarnn::Arch a : kArches)
        if (sarnn::arch_available(a)) arch_names.emplace_back(sarnn::arch_name(a));
    std::size_t last = 0;
    for (std::size_t m = 0; m < kMarks.size(); ++m)
        if (kMarks[m] <= steps) last = m;

    const std::size_t main_mark = std::min<std::size_t>(last, 1);  // 256 steps when there are that many
    std::printf("\n### Teacher-forced (one step's arithmetic), max |error| over h, c, alpha in the first %zu steps\n\n",
                kMarks[main_mark]);
    std::printf("| model | T | weights | tolerance of the tests |");
    for (const auto& n : arch_names) std::printf(" %s |", n.c_str());
    std::printf("\n|---|---|---|---|");
    for (std::size_t k = 0; k < arch_names.size(); ++k) std::printf("---|");
    std::printf("\n");
    for (const Row& r : rows) {
        std::printf("| %s | %s | %s | %s |", r.model.c_str(), r.type.c_str(), name(r.kind),
                    r.type == "float" ? "1e-5" : "1e-12");
        for (const Curve& c : r.per_arch) std::printf(" %.2g |", c.teacher[main_mark]);
        std::printf("\n");
    }

    std::printf("\n### Growth with sequence length: max |error| up to step n (teacher-forced / free-running)\n\n");
    std::printf("| model | T | weights | arch |");
    for (std::size_t m = 0; m <= last; ++m) std::printf(" n = %zu |", kMarks[m]);
    std::printf("\n|---|---|---|---|");
    for (std::size_t m = 0; m <= last; ++m) std::printf("---|");
    std::printf("\n");
    for (const Row& r : rows) {
        for (std::size_t a = 0; a < r.per_arch.size(); ++a) {
            std::printf("| %s | %s | %s | %s |", r.model.c_str(), r.type.c_str(), name(r.kind), arch_names[a].c_str());
            for (std::size_t m = 0; m <= last; ++m)
                std::printf(" %.2g / %.2g |", r.per_arch[a].teacher[m], r.per_arch[a].free[m]);
            std::printf("\n");
        }
    }
}

}  // namespace

int main(int argc, char** argv) {
    const std::size_t steps = argc > 1 ? static_cast<std::size_t>(std::strtoul(argv[1], nullptr, 10)) : kCap;
    if (steps == 0 || steps > kCap) {
        std::fprintf(stderr, "usage: sarnn_limits [steps <= %zu]\n", kCap);
        return 2;
    }
    const std::vector<Kind> kinds = {Kind::scaled, Kind::large, Kind::extreme};
    std::printf("sarnn_limits: In %zu, Hidden %zu, Capacity %zu, K %zu, %zu steps, Bounded memory\n", kIn, kHidden,
                kCap, kK, steps);
    std::vector<Row> rows = measure_type<float>(steps, kinds);
    std::vector<Row> d = measure_type<double>(steps, kinds);
    rows.insert(rows.end(), d.begin(), d.end());
    std::fprintf(stderr, "\n");
    print(rows, steps);
    return 0;
}
