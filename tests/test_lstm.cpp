// tests/test_lstm.cpp: the LSTM (Lstm, float and double) against the double reference of reference_lstm.hpp, on
// every kernel set; (In, Hidden) from {1, 3, 7, 16, 17, 33, 64}, sequences of 60 steps and of 1500.
//
// Each run is compared in three ways (as trace_checks.hpp does for the other models):
//  - teacher-forced, for every kind of weights: each step recomputed in double from the model's own h_{t-1} and
//    c_{t-1}, so that float rounding does not compound;
//  - free-running (the reference on its own from the start), and each SIMD set against the scalar set, for the
//    weights whose dynamics contract (PyTorch's init, and the same with a forget gate that keeps the cell);
//  - the properties of every step: status ok, length, saturated() == 0.
// Then: extreme inputs (±max, denormals), bad input refused and nothing changed, a pre-activation that overflows into
// NaN refused and nothing changed, reset(), run() with Emit::hidden and Emit::cell, the std::array overload, params
// kept by reference and from constexpr, sizeof, validate(), and nn.LSTM's own numbers (lstm_torch.inc).
#include <catch2/catch.hpp>

#include <sarnn/sarnn.hpp>

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "reference.hpp"
#include "reference_lstm.hpp"
#include "shared/state_bytes.hpp"
#include "support.hpp"

namespace torch_numbers {
#include "lstm_torch.inc"
}  // namespace torch_numbers

namespace {

using ref::Vec;

/// How the weights are drawn.
enum class Kind {
    scaled,       ///< PyTorch's init: uniform ±1/sqrt(Hidden) (b: b_ih + b_hh, ±2/sqrt(Hidden))
    remembering,  ///< as scaled, but the forget gate's bias +3 (f ≈ 0.95): the cell integrates, |c| grows to ~10
    large,        ///< uniform ±2: saturating gates, chaotic (checked teacher-forced only)
};
const char* name(Kind k) {
    switch (k) {
    case Kind::scaled: return "scaled";
    case Kind::remembering: return "remembering";
    case Kind::large: return "large";
    }
    return "?";
}
constexpr Kind kAllKinds[] = {Kind::scaled, Kind::remembering, Kind::large};

template <class T, std::size_t In, std::size_t Hidden>
std::unique_ptr<sarnn::LstmParams<T, In, Hidden>> make_lstm_params(Kind kind, std::uint32_t seed) {
    auto p = std::make_unique<sarnn::LstmParams<T, In, Hidden>>();
    std::mt19937 g(seed);
    const double s = kind == Kind::large ? 2.0 : kit::inv_sqrt(Hidden);
    kit::draw(p->W_ih, g, s);
    kit::draw(p->W_hh, g, s);
    kit::draw(p->b, g, kind == Kind::large ? s : 2.0 * s);
    if (kind == Kind::remembering)
        for (std::size_t d = 0; d < Hidden; ++d) p->b[Hidden + d] = static_cast<T>(3.0);
    return p;
}

template <class T>
const char* type_name() {
    return sizeof(T) == sizeof(float) ? "float" : "double";
}

template <class T, std::size_t In, std::size_t Hidden>
std::string label(Kind kind, std::size_t steps) {
    std::ostringstream os;
    os << "Lstm<" << type_name<T>() << ", In " << In << ", Hidden " << Hidden << ">, weights " << name(kind) << ", "
       << steps << " steps";
    return os.str();
}

template <class Model>
std::vector<unsigned char> bytes(const Model& m) {
    return kit::state_bytes(m);
}

/// A run of Model on xs from a fresh model, on every kernel set, against the double reference (see the top).
template <class T, std::size_t In, std::size_t Hidden>
void check_against_reference(const sarnn::LstmParams<T, In, Hidden>& p, const std::vector<std::vector<T>>& xs,
                             bool free_running, const std::string& what) {
    using Model = sarnn::Lstm<T, In, Hidden>;
    const ref::LstmWeights w = ref::lstm_weights_of(p);
    // the inputs in double, and the free-running reference's h and c of every step: the same for every set, so
    // computed once (under the sanitizers, the reference's loops are most of a long run's time)
    std::vector<Vec> xd, free_h, free_c;
    {
        ref::Lstm reference(w);
        for (const auto& x : xs) {
            xd.push_back(test::to_vec(x));
            reference.step(xd.back());
            free_h.push_back(reference.hidden());
            free_c.push_back(reference.cell());
        }
    }
    std::vector<Vec> scalar_trace;  // the scalar set's [h; c] of every step
    test::for_each_arch([&](sarnn::Arch arch) {
        INFO(what << " on " << sarnn::arch_name(arch));
        auto model = std::make_unique<Model>(p);
        Vec h_prev(Hidden, 0.0), c_prev(Hidden, 0.0);
        test::MaxError teacher, free, vs_scalar;
        bool statuses_ok = true, lengths_ok = true, sizes_ok = true;
        for (std::size_t t = 1; t <= xs.size(); ++t) {
            const Vec& x = xd[t - 1];
            if (model->step(xs[t - 1].data()) != sarnn::Status::ok) statuses_ok = false;
            if (model->length() != t) lengths_ok = false;
            const Vec h = test::to_vec(model->hidden()), c = test::to_vec(model->cell());
            if (h.size() != Hidden || c.size() != Hidden) {
                sizes_ok = false;
                break;
            }
            // teacher-forced: one step of the reference from the model's own h_{t-1}, c_{t-1}
            const ref::LstmState one = ref::lstm_step(w, x, h_prev, c_prev);
            teacher.add(h, one.h, t, "h");
            teacher.add(c, one.c, t, "c");
            h_prev = h;
            c_prev = c;
            // free-running
            free.add(h, free_h[t - 1], t, "h");
            free.add(c, free_c[t - 1], t, "c");
            // against the scalar set
            Vec hc = h;
            hc.insert(hc.end(), c.begin(), c.end());
            if (arch == sarnn::Arch::scalar)
                scalar_trace.push_back(hc);
            else if (t <= scalar_trace.size())
                vs_scalar.add(hc, scalar_trace[t - 1], t, "[h; c]");
        }
        const std::string where = what + " " + sarnn::arch_name(arch);
        test::report(where + " teacher", teacher.max, teacher.where);
        test::report(where + " free", free.max, free.where);
        test::report(where + " vs_scalar", vs_scalar.max, vs_scalar.where);
        CHECK(statuses_ok);
        CHECK(lengths_ok);
        CHECK(sizes_ok);
        CHECK(model->saturated() == 0);
        {
            INFO("teacher-forced, worst: " << teacher.where);
            CHECK(teacher.all_finite);
            CHECK(teacher.max <= ref::tol<T>());
        }
        if (free_running) {
            INFO("free-running, worst: " << free.where);
            CHECK(free.max <= ref::tol<T>());
            if (arch != sarnn::Arch::scalar) {
                INFO("this set vs the scalar set, worst: " << vs_scalar.where);
                CHECK(vs_scalar.max <= ref::tol<T>());
            }
        }

        // reset(): the state of a fresh model exactly, then the same run bit for bit
        const std::vector<unsigned char> end = bytes(*model);
        model->reset();
        CHECK(bytes(*model) == bytes(Model(p)));
        for (const auto& x : xs) REQUIRE(model->step(x.data()) == sarnn::Status::ok);
        CHECK(bytes(*model) == end);
    });
}

template <class T, std::size_t In, std::size_t Hidden>
void check_shape(std::uint32_t seed, std::size_t steps = 60) {
    for (Kind kind : kAllKinds) {
        const std::uint32_t s = seed + 1000u * static_cast<std::uint32_t>(kind);
        const auto p = make_lstm_params<T, In, Hidden>(kind, s);
        const auto xs = test::make_inputs<T>(test::Weights::scaled, steps, In, s + 1);
        check_against_reference(*p, xs, kind != Kind::large, label<T, In, Hidden>(kind, steps));
    }
}

template <class T>
void check_shapes() {
    check_shape<T, 1, 1>(100);
    check_shape<T, 1, 3>(110);
    check_shape<T, 3, 7>(120);
    check_shape<T, 7, 17>(130);
    check_shape<T, 17, 33>(140);
    check_shape<T, 33, 1>(150);
    check_shape<T, 3, 33>(160);
    check_shape<T, 16, 32>(170);
    check_shape<T, 33, 7>(180);
    check_shape<T, 64, 16>(190);
    check_shape<T, 7, 64>(200);
}

// ---- bad input, results that overflow --------------------------------------------------------------------------

/// Null, NaN and ±Inf input on a fresh model and mid-sequence: the documented status, the state bit for bit as it
/// was, and the sequence then continues exactly as an undisturbed one. Both overloads of step() and run().
template <class T, std::size_t In, std::size_t Hidden>
void check_bad_input(std::uint32_t seed) {
    using Model = sarnn::Lstm<T, In, Hidden>;
    INFO("Lstm<" << type_name<T>() << ", In " << In << ", Hidden " << Hidden << ">");
    const auto p = make_lstm_params<T, In, Hidden>(Kind::remembering, seed);
    const auto xs = test::make_inputs<T>(test::Weights::scaled, 12, In, seed + 1);
    test::for_each_arch([&](sarnn::Arch) {
        Model clean(*p), model(*p);
        bool refused_ok = true, unchanged = true, same_course = true;
        const auto refuse = [&](sarnn::Status want, const T* x) {
            const std::vector<unsigned char> before = bytes(model);
            if (model.step(x) != want) refused_ok = false;
            if (x != nullptr) {
                std::array<T, In> xa{};
                for (std::size_t k = 0; k < In; ++k) xa[k] = x[k];
                if (model.step(xa) != want) refused_ok = false;
            }
            std::vector<T> out(2 * Hidden, T(-7));
            const sarnn::RunResult r = model.run(x, 1, out.data(), sarnn::Emit::cell);
            if (r.status != want || r.steps != 0 || out[0] != T(-7)) refused_ok = false;
            if (bytes(model) != before) unchanged = false;
        };
        const auto refuse_all = [&](const std::vector<T>& good) {
            refuse(sarnn::Status::null_input, nullptr);
#if SARNN_CHECK_INPUT
            for (T bad : test::non_finite_values<T>()) {
                for (std::size_t k : {std::size_t{0}, In / 2, In - 1}) {
                    std::vector<T> x = good;
                    x[k] = bad;
                    refuse(sarnn::Status::non_finite_input, x.data());
                }
            }
#else
            (void)good;
#endif
        };
        refuse_all(xs[0]);
        for (std::size_t i = 0; i < xs.size(); ++i) {
            REQUIRE(clean.step(xs[i].data()) == sarnn::Status::ok);
            REQUIRE(model.step(xs[i].data()) == sarnn::Status::ok);
            if (bytes(model) != bytes(clean)) same_course = false;
            if (i % 3 == 1) refuse_all(xs[i]);
        }
        CHECK(refused_ok);
        CHECK(unchanged);
        CHECK(same_course);
    });
}

/// A finite x whose products overflow to +inf and -inf in one gate row: where the set rounds each product (the scalar
/// set: inf - inf = NaN) the step is refused with non_finite_result and changes nothing; a set that fuses them
/// (FMA: 2·max + (-2·max) is +inf once the first product overflowed the sum) may saturate the gate instead, and then
/// the step is ok with every view finite. Either way the model goes on bit for bit as a twin given only the steps
/// that were taken.
template <class T, std::size_t Hidden>
void check_non_finite_result(std::size_t row) {
    constexpr std::size_t In = 3;
    using Model = sarnn::Lstm<T, In, Hidden>;
    INFO("Lstm<" << type_name<T>() << ", In 3, Hidden " << Hidden << ">, gate row " << row);
    auto p = make_lstm_params<T, In, Hidden>(Kind::scaled, 7000 + static_cast<std::uint32_t>(row));
    p->W_ih[row][0] = T(2);
    p->W_ih[row][1] = T(-2);
    const T big = std::numeric_limits<T>::max();
    const std::array<T, In> overflowing{{big, big, T(0)}};
    const auto xs = test::make_inputs<T>(test::Weights::scaled, 6, In, 7100);
    test::for_each_arch([&](sarnn::Arch arch) {
        INFO("arch " << sarnn::arch_name(arch));
        Model twin(*p), model(*p);
        std::size_t refused = 0;
        bool unchanged = true, ok_finite = true, same_course = true;
        for (std::size_t i = 0; i < xs.size(); ++i) {
            if (i == 0 || i == 3) {
                const std::vector<unsigned char> before = bytes(model);
                const sarnn::Status s = model.step(overflowing);
                if (s == sarnn::Status::non_finite_result) {
                    ++refused;
                    if (bytes(model) != before) unchanged = false;
                } else {
                    REQUIRE(s == sarnn::Status::ok);
                    REQUIRE(twin.step(overflowing) == sarnn::Status::ok);
                    for (const T v : model.hidden())
                        if (!std::isfinite(v)) ok_finite = false;
                    for (const T v : model.cell())
                        if (!std::isfinite(v)) ok_finite = false;
                }
            }
            REQUIRE(twin.step(xs[i].data()) == sarnn::Status::ok);
            REQUIRE(model.step(xs[i].data()) == sarnn::Status::ok);
            if (bytes(model) != bytes(twin)) same_course = false;
        }
        CHECK(unchanged);
        CHECK(ok_finite);
        CHECK(same_course);
        if (arch == sarnn::Arch::scalar && test::kScalarRoundsProducts) CHECK(refused == 2);
    });
}

/// Inputs at the ends of T's range: one ±max lane (the pre-activations of some rows reach ±inf, none NaN: the gates
/// saturate to 0 or 1), ±huge everywhere, denormals, zeros. Every step ok, h and c finite, teacher-forced within
/// tolerance of the double reference (which computes the same ±inf where T's sums overflow).
template <class T, std::size_t In, std::size_t Hidden>
void check_extreme_inputs(Kind kind, std::uint32_t seed) {
    using Model = sarnn::Lstm<T, In, Hidden>;
    INFO("Lstm<" << type_name<T>() << ", In " << In << ", Hidden " << Hidden << ">, weights " << name(kind));
    const auto p = make_lstm_params<T, In, Hidden>(kind, seed);
    const ref::LstmWeights w = ref::lstm_weights_of(*p);
    const T big = std::numeric_limits<T>::max();
    const T huge = sizeof(T) == sizeof(float) ? T(1e30f) : T(1e300);
    std::vector<std::vector<T>> xs;
    for (std::size_t k = 0; k < In; ++k) {
        std::vector<T> x(In, T(0.25));
        x[k] = (k % 2) ? -big : big;
        xs.push_back(x);
    }
    xs.emplace_back(In, huge);
    xs.emplace_back(In, -huge);
    xs.emplace_back(In, test::denormal<T>());
    xs.emplace_back(In, -test::denormal<T>());
    xs.emplace_back(In, T(0));
    for (const auto& x : test::make_inputs<T>(test::Weights::scaled, 5, In, seed + 1)) xs.push_back(x);
    test::for_each_arch([&](sarnn::Arch) {
        Model model(*p);
        Vec h_prev(Hidden, 0.0), c_prev(Hidden, 0.0);
        test::MaxError err;
        bool ok = true;
        for (std::size_t t = 0; t < xs.size(); ++t) {
            if (model.step(xs[t].data()) != sarnn::Status::ok) ok = false;
            const Vec h = test::to_vec(model.hidden()), c = test::to_vec(model.cell());
            const ref::LstmState one = ref::lstm_step(w, test::to_vec(xs[t]), h_prev, c_prev);
            err.add(h, one.h, t + 1, "h");
            err.add(c, one.c, t + 1, "c");
            h_prev = h;
            c_prev = c;
        }
        INFO("worst: " << err.where);
        CHECK(ok);
        CHECK(err.all_finite);
        CHECK(err.max <= ref::tol<T>());
    });
}

}  // namespace

TEST_CASE("Lstm<float> matches the reference", "[lstm][reference]") { check_shapes<float>(); }
TEST_CASE("Lstm<double> matches the reference", "[lstm][reference]") { check_shapes<double>(); }

TEST_CASE("Lstm over long sequences (1500 steps) matches the reference", "[lstm][reference]") {
    // 300 steps under the sanitizers and under qemu (test::long_run)
    constexpr std::size_t n = test::long_run(1500, 300);
    check_shape<float, 7, 17>(300, n);
    check_shape<float, 16, 32>(310, n);
    check_shape<double, 3, 33>(320, n);
    check_shape<float, 1, 1>(330, n);
}

TEST_CASE("Lstm refuses bad input and changes nothing", "[lstm][input]") {
    check_bad_input<float, 1, 1>(400);
    check_bad_input<float, 17, 16>(410);
    check_bad_input<double, 3, 33>(420);
    check_bad_input<double, 64, 7>(430);
}

TEST_CASE("Lstm refuses a step whose pre-activation is inf - inf and changes nothing", "[lstm][input]") {
    check_non_finite_result<float, 1>(0);    // i
    check_non_finite_result<float, 7>(9);    // f
    check_non_finite_result<float, 17>(40);  // g
    check_non_finite_result<double, 5>(19);  // o
    check_non_finite_result<double, 33>(70);
}

TEST_CASE("Lstm at extreme inputs: gates saturate, every step ok and within tolerance", "[lstm][extreme]") {
    check_extreme_inputs<float, 3, 7>(Kind::scaled, 500);
    check_extreme_inputs<float, 17, 33>(Kind::large, 510);
    check_extreme_inputs<float, 1, 1>(Kind::remembering, 520);
    check_extreme_inputs<double, 7, 17>(Kind::large, 530);
    check_extreme_inputs<double, 3, 3>(Kind::scaled, 540);
}

TEST_CASE("Lstm starts at h_0 = c_0 = 0 and shows its own storage", "[lstm]") {
    using Model = sarnn::Lstm<double, 4, 33>;
    const auto p = make_lstm_params<double, 4, 33>(Kind::scaled, 600);
    const auto model = std::make_unique<Model>(*p);
    CHECK(model->length() == 0);
    CHECK(model->saturated() == 0);
    CHECK(&model->params() == p.get());
    CHECK(test::to_vec(model->hidden()) == Vec(33, 0.0));
    CHECK(test::to_vec(model->cell()) == Vec(33, 0.0));
    STATIC_REQUIRE(Model::in_size == 4);
    STATIC_REQUIRE(Model::hidden_size == 33);
    STATIC_REQUIRE(std::is_same_v<Model::value_type, double>);
    STATIC_REQUIRE(std::is_same_v<Model::Params, sarnn::LstmParams<double, 4, 33>>);
    // h, c and z: the whole RAM of the model is its members
    STATIC_REQUIRE(sizeof(Model) >= (2 * 2 * 33 + 4 * 33) * sizeof(double));
    STATIC_REQUIRE(sizeof(sarnn::Lstm<float, 3, 5>) >= (2 * 2 * 5 + 4 * 5) * sizeof(float));
    const auto* lo = reinterpret_cast<const unsigned char*>(model.get());
    const auto* hi = lo + sizeof(Model);
    for (const double* v : {model->hidden().data(), model->cell().data()}) {
        const auto* b = reinterpret_cast<const unsigned char*>(v);
        CHECK((b >= lo && b < hi));
    }
}

TEST_CASE("Lstm run() with Emit::hidden and Emit::cell is step() in a loop", "[lstm][run]") {
    constexpr std::size_t In = 5, Hidden = 9, N = 30;
    using Model = sarnn::Lstm<float, In, Hidden>;
    const auto p = make_lstm_params<float, In, Hidden>(Kind::remembering, 700);
    std::vector<float> xs;
    for (const auto& x : test::make_inputs<float>(test::Weights::scaled, N, In, 701))
        xs.insert(xs.end(), x.begin(), x.end());
    test::for_each_arch([&](sarnn::Arch) {
        // by hand
        Model by_step(*p);
        std::vector<float> want_h, want_c;
        for (std::size_t t = 0; t < N; ++t) {
            REQUIRE(by_step.step(&xs[t * In]) == sarnn::Status::ok);
            want_h.insert(want_h.end(), by_step.hidden().begin(), by_step.hidden().end());
            want_c.insert(want_c.end(), by_step.cell().begin(), by_step.cell().end());
        }
        for (sarnn::Emit emit : {sarnn::Emit::hidden, sarnn::Emit::cell}) {
            Model m(*p);
            std::vector<float> out(N * Hidden + 1, -777.25f);
            const sarnn::RunResult r = m.run(xs.data(), N, out.data(), emit);
            CHECK(r.status == sarnn::Status::ok);
            CHECK(r.steps == N);
            const std::vector<float>& want = emit == sarnn::Emit::hidden ? want_h : want_c;
            CHECK(std::memcmp(out.data(), want.data(), N * Hidden * sizeof(float)) == 0);
            CHECK(out[N * Hidden] == -777.25f);  // nothing past the rows
            CHECK(bytes(m) == bytes(by_step));
        }
        // the default is Emit::hidden; out == nullptr only steps
        {
            Model m(*p);
            std::vector<float> out(N * Hidden);
            CHECK(m.run(xs.data(), N, out.data()).steps == N);
            CHECK(std::memcmp(out.data(), want_h.data(), out.size() * sizeof(float)) == 0);
            Model q(*p);
            CHECK(q.run(xs.data(), N, nullptr).steps == N);
            CHECK(bytes(q) == bytes(by_step));
        }
        // Emit::context: the Lstm has none: {invalid_argument, 0}, nothing written, nothing changed
        {
            Model m(*p);
            REQUIRE(m.step(xs.data()) == sarnn::Status::ok);
            const std::vector<unsigned char> before = bytes(m);
            std::vector<float> out(N * Hidden, -777.25f);
            const sarnn::RunResult r = m.run(xs.data(), N, out.data(), sarnn::Emit::context);
            CHECK(r.status == sarnn::Status::invalid_argument);
            CHECK(r.steps == 0);
            CHECK(out[0] == -777.25f);
            CHECK(bytes(m) == before);
        }
#if SARNN_CHECK_INPUT
        // a NaN in step 7's input: run() stops there, rows 0..6 written, the state that of 7 steps
        {
            std::vector<float> bad = xs;
            bad[7 * In + 2] = std::numeric_limits<float>::quiet_NaN();
            Model m(*p);
            std::vector<float> out(N * Hidden, -777.25f);
            const sarnn::RunResult r = m.run(bad.data(), N, out.data(), sarnn::Emit::cell);
            CHECK(r.status == sarnn::Status::non_finite_input);
            CHECK(r.steps == 7);
            CHECK(std::memcmp(out.data(), want_c.data(), 7 * Hidden * sizeof(float)) == 0);
            CHECK(out[7 * Hidden] == -777.25f);
            CHECK(m.length() == 7);
        }
#endif
    });
}

TEST_CASE("Lstm step(std::array) equals step(pointer)", "[lstm]") {
    constexpr std::size_t In = 6, Hidden = 17;
    const auto p = make_lstm_params<float, In, Hidden>(Kind::large, 800);
    const auto xs = test::make_inputs<float>(test::Weights::scaled, 25, In, 801);
    test::for_each_arch([&](sarnn::Arch) {
        sarnn::Lstm<float, In, Hidden> by_ptr(*p), by_array(*p);
        bool same = true;
        for (const auto& x : xs) {
            std::array<float, In> xa{};
            for (std::size_t k = 0; k < In; ++k) xa[k] = x[k];
            if (by_ptr.step(x.data()) != sarnn::Status::ok || by_array.step(xa) != sarnn::Status::ok) same = false;
            if (bytes(by_ptr) != bytes(by_array)) same = false;
        }
        CHECK(same);
        CHECK(by_array.length() == xs.size());
    });
}

TEST_CASE("Lstm params are kept by reference", "[lstm][params]") {
    constexpr std::size_t In = 2, Hidden = 5;
    auto p = make_lstm_params<float, In, Hidden>(Kind::scaled, 900);
    const auto xs = test::make_inputs<float>(test::Weights::scaled, 8, In, 901);
    test::for_each_arch([&](sarnn::Arch) {
        sarnn::Lstm<float, In, Hidden> model{*p};
        auto changed = *p;
        for (float& v : changed.b) v += 0.5f;
        for (auto& row : changed.W_hh)
            for (float& v : row) v *= -2.0f;
        const auto saved = *p;
        *p = changed;  // after construction: the steps must see the new weights
        ref::Lstm reference(ref::lstm_weights_of(changed));
        test::MaxError err;
        for (const auto& x : xs) {
            REQUIRE(model.step(x.data()) == sarnn::Status::ok);
            reference.step(test::to_vec(x));
            err.add(test::to_vec(model.hidden()), reference.hidden(), static_cast<std::size_t>(model.length()), "h");
            err.add(test::to_vec(model.cell()), reference.cell(), static_cast<std::size_t>(model.length()), "c");
        }
        *p = saved;
        INFO("worst: " << err.where);
        CHECK(err.max <= ref::kFloatTol);
    });
}

namespace {
static_assert(std::is_aggregate_v<sarnn::LstmParams<float, 3, 5>>);
static_assert(std::is_aggregate_v<sarnn::LstmParams<sarnn::q15, 3, 5>>);
static_assert(sizeof(sarnn::LstmParams<float, 3, 5>) ==
                  test::params_size<sarnn::LstmParams<float, 3, 5>>((4 * 5 * 3 + 4 * 5 * 5 + 4 * 5) * sizeof(float)),
              "the arrays, nothing else (but the padding to the alignment)");
static_assert(!std::is_constructible_v<sarnn::Lstm<float, 3, 5>, sarnn::LstmParams<float, 3, 5>&&>,
              "a temporary params would dangle");
static_assert(std::is_constructible_v<sarnn::Lstm<float, 3, 5>, const sarnn::LstmParams<float, 3, 5>&>);

// In 1, Hidden 1: gate rows i, f, g, o
constexpr sarnn::LstmParams<double, 1, 1> kTiny{
    {{0.5}, {-0.25}, {1.0}, {0.75}}, {{0.1}, {0.2}, {-0.3}, {0.4}}, {0.05, 0.5, -0.1, 0.2}};
static_assert(kTiny.W_ih[2][0] == 1.0 && kTiny.W_hh[3][0] == 0.4 && kTiny.b[1] == 0.5);
}  // namespace

TEST_CASE("Lstm runs from constexpr params", "[lstm][params]") {
    // the first step by hand: z = W_ih x + b (h_0 = 0), c_1 = σ(z_i)·tanh(z_g) (c_0 = 0), h_1 = σ(z_o)·tanh(c_1)
    const double x1 = 1.0;
    const double c1 = ref::sigmoid(0.5 * x1 + 0.05) * std::tanh(1.0 * x1 - 0.1);
    const double h1 = ref::sigmoid(0.75 * x1 + 0.2) * std::tanh(c1);
    test::for_each_arch([&](sarnn::Arch) {
        sarnn::Lstm<double, 1, 1> model{kTiny};
        CHECK(&model.params() == &kTiny);
        ref::Lstm reference(ref::lstm_weights_of(kTiny));
        test::MaxError err;
        const double xs[4] = {x1, -0.5, 2.0, 0.25};
        for (std::size_t t = 0; t < 4; ++t) {
            REQUIRE(model.step(std::array<double, 1>{{xs[t]}}) == sarnn::Status::ok);
            reference.step({xs[t]});
            if (t == 0) {
                err.add(model.hidden()[0], h1, 1, "h by hand", 0);
                err.add(model.cell()[0], c1, 1, "c by hand", 0);
            }
            err.add(test::to_vec(model.hidden()), reference.hidden(), t + 1, "h");
            err.add(test::to_vec(model.cell()), reference.cell(), t + 1, "c");
        }
        INFO("worst: " << err.where);
        CHECK(err.max <= ref::kDoubleTol);
    });
}

namespace {
/// A case of lstm_torch.inc through Lstm<T>: its weights (exact in T) into LstmParams, every step's h and c against
/// nn.LSTM's, on every kernel set.
template <class T, class Case>
void check_torch_case(const char* name) {
    constexpr std::size_t In = Case::in, Hidden = Case::hidden;
    INFO("nn.LSTM " << name << " as Lstm<" << type_name<T>() << ">");
    auto p = std::make_unique<sarnn::LstmParams<T, In, Hidden>>();
    for (std::size_t r = 0; r < 4 * Hidden; ++r) {
        for (std::size_t k = 0; k < In; ++k) p->W_ih[r][k] = static_cast<T>(Case::W_ih[r][k]);
        for (std::size_t k = 0; k < Hidden; ++k) p->W_hh[r][k] = static_cast<T>(Case::W_hh[r][k]);
        p->b[r] = static_cast<T>(Case::b[r]);
    }
    test::for_each_arch([&](sarnn::Arch) {
        sarnn::Lstm<T, In, Hidden> model(*p);
        test::MaxError err;
        for (std::size_t t = 0; t < Case::steps; ++t) {
            std::array<T, In> x{};
            for (std::size_t k = 0; k < In; ++k) x[k] = static_cast<T>(Case::x[t][k]);
            REQUIRE(model.step(x) == sarnn::Status::ok);
            for (std::size_t d = 0; d < Hidden; ++d) {
                err.add(static_cast<double>(model.hidden()[d]), Case::h[t][d], t + 1, "h", d);
                err.add(static_cast<double>(model.cell()[d]), Case::c[t][d], t + 1, "c", d);
            }
        }
        INFO("worst: " << err.where);
        CHECK(err.max <= ref::tol<T>());
    });
}
}  // namespace

TEST_CASE("Lstm gives torch.nn.LSTM's h and c (tests/lstm_torch.inc)", "[lstm][torch]") {
    check_torch_case<double, torch_numbers::kTorch3x5>("(3, 5)");
    check_torch_case<float, torch_numbers::kTorch3x5>("(3, 5)");
    check_torch_case<double, torch_numbers::kTorch4x7>("(4, 7)");
    check_torch_case<float, torch_numbers::kTorch4x7>("(4, 7)");
}

TEST_CASE("Lstm params: validate() finds the first non-finite weight and q15 constants out of range",
          "[lstm][validate]") {
    auto p = make_lstm_params<float, 3, 5>(Kind::scaled, 1100);
    CHECK(sarnn::validate(*p));
    p->W_hh[2][4] = std::numeric_limits<float>::infinity();
    p->b[7] = std::numeric_limits<float>::quiet_NaN();
    sarnn::Validation v = sarnn::validate(*p);
    CHECK(v.status == sarnn::Status::non_finite_param);
    CHECK(std::string(v.array) == "W_hh");
    CHECK(v.index == 2 * 5 + 4);
    p->W_hh[2][4] = 0.0f;
    v = sarnn::validate(*p);
    CHECK(std::string(v.array) == "b");
    CHECK(v.index == 7);

    auto q = std::make_unique<sarnn::LstmParams<sarnn::q15, 3, 5>>();
    for (auto& m : q->m) m = std::int32_t{1} << 30;
    for (auto& s : q->shift) s = 10;
    q->x_m = INT32_MAX;
    q->x_shift = -1;
    CHECK(sarnn::validate(*q));
    q->m[13] = 12345;
    v = sarnn::validate(*q);
    CHECK(v.status == sarnn::Status::invalid_argument);
    CHECK(std::string(v.array) == "m");
    CHECK(v.index == 13);
    q->m[13] = std::int32_t{1} << 30;
    q->x_m = -5;
    CHECK(std::string(sarnn::validate(*q).array) == "x_m");
    q->x_m = std::int32_t{1} << 30;
    q->shift[19] = 32;
    v = sarnn::validate(*q);
    CHECK(std::string(v.array) == "shift");
    CHECK(v.index == 19);
    q->shift[19] = -31;
    q->x_shift = -32;
    CHECK(std::string(sarnn::validate(*q).array) == "x_shift");
    q->x_shift = 31;
    CHECK(sarnn::validate(*q));
    // the names for_each_array gives, in declaration order
    std::string names;
    sarnn::for_each_array(*q, [&names](const char* n, const auto*, std::size_t) {
        names += std::string(n) + " ";
        return false;
    });
    CHECK(names == "b m W_ih W_hh shift ");
}
