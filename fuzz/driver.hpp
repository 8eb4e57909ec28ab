// fuzz/driver.hpp: one fuzz run of one model configuration, shared by every target, and the "kits" that say,
// per model, how to build it from bytes, what it shows, and how far the SIMD set may stray from the scalar one.
//
// A run: params from the bytes (fuzz_support.hpp), then an input mapping byte, then operations until the bytes
// run out (at most kMaxOps): step(x) (most op bytes), step(nullptr), reset(), run(xs, k, out, emit).
#ifndef SARNN_FUZZ_DRIVER_HPP
#define SARNN_FUZZ_DRIVER_HPP

#include <sarnn/sarnn.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <type_traits>
#include <vector>

#include "fuzz_support.hpp"
#include "shared/aligns.hpp"
#include "shared/state_bytes.hpp"

namespace fz {

inline constexpr std::size_t kMaxOps = 600;

using kit::abs_sum;
using kit::row_abs;

// ---- SimpleRnn -----------------------------------------------------------------------------------------------
template <class T, std::size_t In, std::size_t Hidden>
struct SimpleKit {
    using Model = sarnn::SimpleRnn<T, In, Hidden>;
    using Params = typename Model::Params;
    struct Pre {
        double mz = 0.0;  // max_i |b_i| + Σ_k |A_ik|·|[x; h_prev]_k|
    };

    std::unique_ptr<Params> p = std::make_unique<Params>();
    bool finite = true;
    double wmax = 0.0;

    explicit SimpleKit(Bytes& in) {
        fill_params<T>(*p, in, In + Hidden);
        finite = static_cast<bool>(sarnn::validate(*p));
        wmax = finite ? max_abs<T>(*p) : 0.0;
    }
    std::unique_ptr<Model> make() const { return std::make_unique<Model>(*p); }
    static bool refuses(const Model&) { return false; }
    static bool valid_emit(sarnn::Emit e) { return e == sarnn::Emit::hidden; }
    static sarnn::View<T> emitted(const Model& m, sarnn::Emit) { return m.hidden(); }
    static std::vector<unsigned char> bytes(const Model& m) { return kit::state_bytes(m); }
    static void check_reset(const Model& m) {
        FZ_CHECK(m.length() == 0, "reset: length");
        for (const T& v : m.hidden()) FZ_CHECK(v == T(0), "reset: h");
    }
    static void check_no_nan_inf_views(const Model& m) {
        check_no_nan_inf(m.hidden(), "NaN/Inf in h after an ok step");
    }
    void check_ok(const Model& m, double) const { check_finite(m.hidden(), 1.0 + 1e-6, "h not finite or |h| > 1"); }
    Pre pre(const Model& m, const T* x) const {
        Pre r;
        const auto h = m.hidden();
        for (std::size_t i = 0; i < Hidden; ++i) {
            double s = std::fabs(static_cast<double>(p->b[i]));
            for (std::size_t k = 0; k < In; ++k)
                s += std::fabs(static_cast<double>(p->A[i][k]) * static_cast<double>(x[k]));
            for (std::size_t k = 0; k < Hidden; ++k)
                s += std::fabs(static_cast<double>(p->A[i][In + k]) * static_cast<double>(h[k]));
            r.mz = std::max(r.mz, s);
        }
        return r;
    }
    void compare(const Model& simd, const Model& scalar, const Pre& pre) const {
        check_close(simd.hidden(), scalar.hidden(), tol<T>(pre.mz), "SIMD vs scalar: h");
    }
};

// ---- Gru -------------------------------------------------------------------------------------------------------
template <class T, std::size_t In, std::size_t Hidden>
struct GruKit {
    using Model = sarnn::Gru<T, In, Hidden>;
    using Params = typename Model::Params;
    struct Pre {
        double mz = 0.0;  // max over the rows of |b_ih| + |b_hh| + Σ_k |W_ih·x| + Σ_k |W_hh·h_prev|
    };

    std::unique_ptr<Params> p = std::make_unique<Params>();
    bool finite = true;
    double wmax = 0.0;

    explicit GruKit(Bytes& in) {
        fill_params<T>(*p, in, In + Hidden);
        finite = static_cast<bool>(sarnn::validate(*p));
        wmax = finite ? max_abs<T>(*p) : 0.0;
    }
    std::unique_ptr<Model> make() const { return std::make_unique<Model>(*p); }
    static bool refuses(const Model&) { return false; }
    static bool valid_emit(sarnn::Emit e) { return e == sarnn::Emit::hidden; }
    static sarnn::View<T> emitted(const Model& m, sarnn::Emit) { return m.hidden(); }
    static std::vector<unsigned char> bytes(const Model& m) { return kit::state_bytes(m); }
    static void check_reset(const Model& m) {
        FZ_CHECK(m.length() == 0, "reset: length");
        for (const T& v : m.hidden()) FZ_CHECK(v == T(0), "reset: h");
    }
    static void check_no_nan_inf_views(const Model& m) {
        check_no_nan_inf(m.hidden(), "NaN/Inf in h after an ok step");
    }
    // h' = n + z·(h - n) lies between tanh(..) and h: |h| <= 1
    void check_ok(const Model& m, double) const { check_finite(m.hidden(), 1.0 + 1e-6, "h not finite or |h| > 1"); }
    Pre pre(const Model& m, const T* x) const {
        Pre r;
        const auto h = m.hidden();
        for (std::size_t i = 0; i < 3 * Hidden; ++i) {
            double s = std::fabs(static_cast<double>(p->b_ih[i])) + std::fabs(static_cast<double>(p->b_hh[i]));
            for (std::size_t k = 0; k < In; ++k)
                s += std::fabs(static_cast<double>(p->W_ih[i][k]) * static_cast<double>(x[k]));
            for (std::size_t k = 0; k < Hidden; ++k)
                s += std::fabs(static_cast<double>(p->W_hh[i][k]) * static_cast<double>(h[k]));
            r.mz = std::max(r.mz, s);
        }
        return r;
    }
    void compare(const Model& simd, const Model& scalar, const Pre& pre) const {
        // each gate sum is off by tol(mz); σ' <= 1/4, tanh' <= 1: dn <= dz·(1 + |gh_n|/4), h' = n + z·(h - n)
        // adds at most 2·dσ, and the same h_prev went in (the models step alike, compared each step)
        const double dz = tol<T>(pre.mz);
        check_close(simd.hidden(), scalar.hidden(), dz * (2.0 + pre.mz / 4.0) + tol<T>(4.0), "SIMD vs scalar: h");
    }
};

// ---- SelfAttentionRnn ------------------------------------------------------------------------------------------
/// The align's params, name and score bound: tests/shared/aligns.hpp. S (score_bound) bounds the magnitude of the
/// terms of one score e_ij when |h| <= 1.
template <class T, std::size_t In, std::size_t Hidden, std::size_t Capacity, class Align, class Memory>
struct SarKit {
    using Model = sarnn::SelfAttentionRnn<T, In, Hidden, Capacity, Align, Memory>;
    using Params = typename Model::Params;
    using Traits = kit::AlignTraits<Align>;
    using AP = typename Traits::template Params<T, Hidden>;
    static constexpr bool kWindow = std::is_same_v<Memory, sarnn::Window>;
    struct Pre {
        double mz = 0.0;
    };

    std::unique_ptr<Params> p = std::make_unique<Params>();
    std::unique_ptr<AP> ap = std::make_unique<AP>();
    bool finite = true;
    double wmax = 0.0;
    double score = 0.0;

    explicit SarKit(Bytes& in) {
        fill_params<T>(*p, in, In + Hidden);
        if constexpr (Traits::has_params) {
            fill_params<T>(*ap, in, Traits::fan_in(Hidden));
            finite = static_cast<bool>(sarnn::validate(*p)) && static_cast<bool>(sarnn::validate(*ap));
            wmax = finite ? std::max(max_abs<T>(*p), max_abs<T>(*ap)) : 0.0;
        } else {
            finite = static_cast<bool>(sarnn::validate(*p));
            wmax = finite ? max_abs<T>(*p) : 0.0;
        }
        score = finite ? Traits::score_bound(*ap, Hidden) : 0.0;
    }
    std::unique_ptr<Model> make() const {
        if constexpr (!Traits::has_params)
            return std::make_unique<Model>(*p);
        else
            return std::make_unique<Model>(*p, *ap);
    }
    static bool refuses(const Model& m) { return !kWindow && m.full(); }
    static bool valid_emit(sarnn::Emit e) { return e == sarnn::Emit::hidden || e == sarnn::Emit::context; }
    static sarnn::View<T> emitted(const Model& m, sarnn::Emit e) {
        return e == sarnn::Emit::context ? m.context() : m.hidden();
    }
    static std::vector<unsigned char> bytes(const Model& m) { return kit::state_bytes(m); }
    static void check_reset(const Model& m) {
        FZ_CHECK(m.length() == 0 && m.attended() == 0 && !m.full(), "reset: counters");
        FZ_CHECK(m.attention().empty(), "reset: attention");
        for (const T& v : m.hidden()) FZ_CHECK(v == T(0), "reset: h");
        for (const T& v : m.context()) FZ_CHECK(v == T(0), "reset: c");
    }
    static void check_no_nan_inf_views(const Model& m) {
        check_no_nan_inf(m.hidden(), "NaN/Inf in h after an ok step");
        check_no_nan_inf(m.context(), "NaN/Inf in the context after an ok step");
        check_no_nan_inf(m.attention(), "NaN/Inf in the attention after an ok step");
    }
    void check_ok(const Model& m, double) const {
        FZ_CHECK(m.attended() == std::min(m.length(), Capacity), "attended != min(length, Capacity)");
        FZ_CHECK(m.attention().size() == m.attended(), "attention size");
        FZ_CHECK(m.full() == (m.attended() == Capacity), "full()");
        check_finite(m.hidden(), 1.0 + 1e-6, "h not finite or |h| > 1");
        check_finite(m.context(), 1.0 + 1e-5, "c not finite or |c| > 1");
        check_attention(m.attention());
    }
    Pre pre(const Model& m, const T* x) const {
        Pre r;
        const auto c = m.context();
        for (std::size_t i = 0; i < Hidden; ++i) {
            double s = std::fabs(static_cast<double>(p->b[i]));
            for (std::size_t k = 0; k < In; ++k)
                s += std::fabs(static_cast<double>(p->A[i][k]) * static_cast<double>(x[k]));
            for (std::size_t k = 0; k < Hidden; ++k)
                s += std::fabs(static_cast<double>(p->A[i][In + k]) * static_cast<double>(c[k]));
            r.mz = std::max(r.mz, s);
        }
        return r;
    }
    void compare(const Model& simd, const Model& scalar, const Pre& pre) const {
        const double tol_h = tol<T>(pre.mz);
        check_close(simd.hidden(), scalar.hidden(), tol_h, "SIMD vs scalar: h");
        // scores differ by rounding (eps·S) and by the new state's own difference (tol_h·S)
        const double de = 2.0 * tol<T>((1.0 + pre.mz) * (1.0 + score));
        if (de > 1e-2) return;  // near-ties may then flip the softmax: nothing to compare
        const double n = static_cast<double>(simd.attended());
        const double da = 2.0 * de + tol<T>(n);
        check_close(simd.attention(), scalar.attention(), da, "SIMD vs scalar: alpha");
        check_close(simd.context(), scalar.context(), da + tol_h, "SIMD vs scalar: c");
    }
};

// ---- Lstmn -------------------------------------------------------------------------------------------------------
template <class T, std::size_t In, std::size_t Hidden, std::size_t Capacity, std::size_t K, class Memory>
struct LstmnKit {
    using Model = sarnn::Lstmn<T, In, Hidden, Capacity, K, Memory>;
    using Params = typename Model::Params;
    static constexpr bool kWindow = std::is_same_v<Memory, sarnn::Window>;
    struct Pre {
        double xmax = 0.0;  // max |x_k| of this step
        double cmax = 0.0;  // a bound on |c_j| over the tape: every step adds at most 1
        std::size_t n = 0;  // tape entries attended
    };

    std::unique_ptr<Params> p = std::make_unique<Params>();
    bool finite = true;
    double wmax = 0.0;

    explicit LstmnKit(Bytes& in) {
        fill_params<T>(*p, in, In + Hidden);
        finite = static_cast<bool>(sarnn::validate(*p));
        wmax = finite ? max_abs<T>(*p) : 0.0;
    }
    std::unique_ptr<Model> make() const { return std::make_unique<Model>(*p); }
    static bool refuses(const Model& m) { return !kWindow && m.full(); }
    static bool valid_emit(sarnn::Emit e) { return e == sarnn::Emit::hidden || e == sarnn::Emit::cell; }
    static sarnn::View<T> emitted(const Model& m, sarnn::Emit e) {
        return e == sarnn::Emit::cell ? m.cell() : m.hidden();
    }
    static std::vector<unsigned char> bytes(const Model& m) { return kit::state_bytes(m); }
    static void check_reset(const Model& m) {
        FZ_CHECK(m.length() == 0 && m.stored() == 0 && !m.full(), "reset: counters");
        FZ_CHECK(m.attention().empty(), "reset: attention");
        for (const T& v : m.hidden()) FZ_CHECK(v == T(0), "reset: h");
        for (const T& v : m.cell()) FZ_CHECK(v == T(0), "reset: c");
    }
    static void check_no_nan_inf_views(const Model& m) {
        check_no_nan_inf(m.hidden(), "NaN/Inf in h after an ok step");
        check_no_nan_inf(m.cell(), "NaN/Inf in the cell after an ok step");
        check_no_nan_inf(m.attention(), "NaN/Inf in the attention after an ok step");
    }
    void check_ok(const Model& m, double cbound) const {
        FZ_CHECK(m.stored() == std::min(m.length(), Capacity), "stored != min(length, Capacity)");
        FZ_CHECK(m.full() == (m.stored() == Capacity), "full()");
        check_finite(m.hidden(), 1.0 + 1e-6, "h not finite or |h| > 1");
        check_finite(m.cell(), cbound, "c not finite or beyond its bound");
        check_attention(m.attention());
    }
    Pre pre(const Model& m, const T* x) const {
        Pre r;
        for (std::size_t k = 0; k < In; ++k) r.xmax = std::max(r.xmax, std::fabs(static_cast<double>(x[k])));
        r.cmax = static_cast<double>(m.length()) + 1.0;
        r.n = m.stored();
        return r;
    }
    void compare(const Model& simd, const Model& scalar, const Pre& pre) const {
        const double ds_raw = 2.0 * tol<T>(abs_sum(p->v) *
                                           (1.0 + row_abs(p->W_h) + row_abs(p->W_x) * pre.xmax + row_abs(p->W_ht)));
        if (pre.n > 0 && ds_raw > 1e-2) return;  // near-ties may flip the softmax
        const double n = static_cast<double>(pre.n);
        const double ds = pre.n > 0 ? 2.0 * ds_raw + tol<T>(n) : 0.0;
        check_close(simd.attention(), scalar.attention(), ds, "SIMD vs scalar: s");
        const double dht = ds + tol<T>(n);  // Σ|Δs_j|·|h_j|, |h_j| <= 1
        const double dct = ds * pre.cmax + tol<T>(n * pre.cmax);
        double bmax = 0.0;
        for (const T& v : p->b) bmax = std::max(bmax, std::fabs(static_cast<double>(v)));
        const double mz = row_abs(p->W_ih) * pre.xmax + row_abs(p->W_hh) + bmax;
        const double dz = tol<T>(mz) + row_abs(p->W_hh) * dht;
        const double dc = dz * (pre.cmax + 1.0) / 4.0 + dct + dz + tol<T>(pre.cmax);
        const double dh = dz / 4.0 + dc + tol<T>(1.0);
        check_close(simd.cell(), scalar.cell(), dc, "SIMD vs scalar: c");
        check_close(simd.hidden(), scalar.hidden(), dh, "SIMD vs scalar: h");
    }
};

// ---- Lstm ---------------------------------------------------------------------------------------------------------
template <class T, std::size_t In, std::size_t Hidden>
struct LstmKit {
    using Model = sarnn::Lstm<T, In, Hidden>;
    using Params = typename Model::Params;
    struct Pre {
        double xmax = 0.0;  // max |x_k| of this step
        double cmax = 0.0;  // a bound on |c_{t-1}|: every step adds at most 1
    };

    std::unique_ptr<Params> p = std::make_unique<Params>();
    bool finite = true;
    double wmax = 0.0;

    explicit LstmKit(Bytes& in) {
        fill_params<T>(*p, in, In + Hidden);
        finite = static_cast<bool>(sarnn::validate(*p));
        wmax = finite ? max_abs<T>(*p) : 0.0;
    }
    std::unique_ptr<Model> make() const { return std::make_unique<Model>(*p); }
    static bool refuses(const Model&) { return false; }
    static bool valid_emit(sarnn::Emit e) { return e == sarnn::Emit::hidden || e == sarnn::Emit::cell; }
    static sarnn::View<T> emitted(const Model& m, sarnn::Emit e) {
        return e == sarnn::Emit::cell ? m.cell() : m.hidden();
    }
    static std::vector<unsigned char> bytes(const Model& m) { return kit::state_bytes(m); }
    static void check_reset(const Model& m) {
        FZ_CHECK(m.length() == 0 && m.saturated() == 0, "reset: counters");
        for (const T& v : m.hidden()) FZ_CHECK(v == T(0), "reset: h");
        for (const T& v : m.cell()) FZ_CHECK(v == T(0), "reset: c");
    }
    static void check_no_nan_inf_views(const Model& m) {
        check_no_nan_inf(m.hidden(), "NaN/Inf in h after an ok step");
        check_no_nan_inf(m.cell(), "NaN/Inf in the cell after an ok step");
    }
    void check_ok(const Model& m, double cbound) const {
        FZ_CHECK(m.saturated() == 0, "saturated() of a float model");
        check_finite(m.hidden(), 1.0 + 1e-6, "h not finite or |h| > 1");
        check_finite(m.cell(), cbound, "c not finite or beyond its bound");
    }
    Pre pre(const Model& m, const T* x) const {
        Pre r;
        for (std::size_t k = 0; k < In; ++k) r.xmax = std::max(r.xmax, std::fabs(static_cast<double>(x[k])));
        r.cmax = static_cast<double>(m.length()) + 1.0;
        return r;
    }
    /// One step from the same h_{t-1}, c_{t-1}: z differs by the sums' rounding, c by f·c's and i·g's, h by
    /// o·tanh(c)'s.
    void compare(const Model& simd, const Model& scalar, const Pre& pre) const {
        double bmax = 0.0;
        for (const T& v : p->b) bmax = std::max(bmax, std::fabs(static_cast<double>(v)));
        const double dz = tol<T>(row_abs(p->W_ih) * pre.xmax + row_abs(p->W_hh) + bmax);
        const double dc = dz * (pre.cmax + 1.0) / 4.0 + dz + tol<T>(pre.cmax);
        const double dh = dz / 4.0 + dc + tol<T>(1.0);
        check_close(simd.cell(), scalar.cell(), dc, "SIMD vs scalar: c");
        check_close(simd.hidden(), scalar.hidden(), dh, "SIMD vs scalar: h");
    }
};

// ---- the run ---------------------------------------------------------------------------------------------------
/// A status a step with x != nullptr may return where ok was expected, once the magnitudes could overflow T:
/// any refusal but those whose conditions the driver knows (full memory, null or non-finite input).
inline bool overflow_refusal(sarnn::Status s) {
    return s != sarnn::Status::ok && s != sarnn::Status::memory_full && s != sarnn::Status::null_input &&
           s != sarnn::Status::non_finite_input;
}

/// After a refused step: `refused` (the model after it) and `before` (a copy made before it) must take the next
/// step alike, so the refusal changed nothing in the memory either (a probe step with x = 0 on copies of both).
template <class Kit>
void check_refusal_kept_memory(const typename Kit::Model& refused, const typename Kit::Model& before) {
    using Model = typename Kit::Model;
    using T = typename Model::value_type;
    FZ_CHECK(Kit::bytes(refused) == Kit::bytes(before), "a refused step changed the state");
    const auto a = std::make_unique<Model>(refused);
    const auto b = std::make_unique<Model>(before);
    const std::vector<T> zero(Model::in_size, T(0));
    const sarnn::Status sa = a->step(zero.data());
    const sarnn::Status sb = b->step(zero.data());
    FZ_CHECK(sa == sb && Kit::bytes(*a) == Kit::bytes(*b), "a refused step changed the memory (the next step differs)");
}

template <class Kit>
void drive(Bytes& in) {
    using Model = typename Kit::Model;
    using T = typename Model::value_type;
    constexpr std::size_t In = Model::in_size;
    constexpr std::size_t Hidden = Model::hidden_size;

    const Kit kit(in);
    std::unique_ptr<Model> model = kit.make();
    const Mapping xmap = mapping(in.byte(), In);
    const Arches& arch = arches();
    FZ_CHECK(sarnn::set_arch(arch.best) == sarnn::Status::ok, "set_arch(best)");
    double xmax = 0.0;      // largest |x| accepted since the last reset
    bool poisoned = false;  // a non-finite x was accepted (only without SARNN_CHECK_INPUT)
    auto sane = [&] { return kit.finite && !poisoned && kit.wmax <= sane_limit<T>() && xmax <= sane_limit<T>(); };
    // finite weights and finite inputs since the reset, any magnitude: an ok step shows no NaN or Inf
    auto all_finite = [&] { return kit.finite && !poisoned; };

    std::vector<T> x(In);
    for (std::size_t op_count = 0; op_count < kMaxOps && !in.done(); ++op_count) {
        const std::uint8_t op = in.byte();
        const std::vector<unsigned char> before = Kit::bytes(*model);
        const std::size_t len = model->length();
        const bool refuses = Kit::refuses(*model);
        switch (op % 16u) {
        case 0: {  // reset
            model->reset();
            Kit::check_reset(*model);
            xmax = 0.0;
            poisoned = false;
            break;
        }
        case 1: {  // step(nullptr)
            const sarnn::Status s = model->step(static_cast<const T*>(nullptr));
            FZ_CHECK(s == (refuses ? sarnn::Status::memory_full : sarnn::Status::null_input), "step(nullptr): status");
            FZ_CHECK(Kit::bytes(*model) == before, "step(nullptr) changed the state");
            break;
        }
        case 2: {  // run over k inputs
            const std::size_t k = in.byte() % 9u;
            const auto emit = static_cast<sarnn::Emit>(in.byte() % 3u);
            const std::uint8_t flags = in.byte();
            const bool null_xs = (flags & 7u) == 7u, null_out = (flags & 8u) != 0;
            std::vector<T> xs(k * In);
            std::vector<bool> row_finite(k, true);
            std::vector<double> row_max(k, 0.0);
            for (std::size_t t = 0; t < k; ++t) {
                bool f = true;
                read_input(in, xmap, In, xs.data() + t * In, f, row_max[t]);
                row_finite[t] = f;
            }
            const T sentinel = T(-12345);
            std::vector<T> out(k * Hidden, sentinel), expect(k * Hidden, sentinel);
            const auto twin = std::make_unique<Model>(*model);
            const sarnn::RunResult r = model->run(null_xs ? nullptr : xs.data(), k, null_out ? nullptr : out.data(),
                                                  emit);
            if (!Kit::valid_emit(emit)) {
                FZ_CHECK(r.status == sarnn::Status::invalid_argument && r.steps == 0, "run: bad emit");
                FZ_CHECK(Kit::bytes(*model) == before, "run with a bad emit changed the state");
                break;
            }
            sarnn::Status st = sarnn::Status::ok;
            std::size_t steps = 0;
            bool finite_so_far = all_finite();
            for (std::size_t t = 0; t < k; ++t) {
                const std::vector<unsigned char> twin_before = Kit::bytes(*twin);
                const sarnn::Status s = twin->step(null_xs ? nullptr : xs.data() + t * In);
                if (s != sarnn::Status::ok) {
                    FZ_CHECK(Kit::bytes(*twin) == twin_before,
                             "a refused step (in the loop of run()) changed the state");
                    st = s;
                    break;
                }
                finite_so_far = finite_so_far && row_finite[t];
                if (finite_so_far) Kit::check_no_nan_inf_views(*twin);
                const sarnn::View<T> v = Kit::emitted(*twin, emit);
                std::copy(v.begin(), v.end(), expect.begin() + static_cast<std::ptrdiff_t>(t * Hidden));
                ++steps;
            }
            FZ_CHECK(r.status == st && r.steps == steps, "run: status or steps differ from step() in a loop");
            if (!null_out && !out.empty())
                FZ_CHECK(std::memcmp(out.data(), expect.data(), out.size() * sizeof(T)) == 0,
                         "run: emitted values differ from step() in a loop");
            FZ_CHECK(Kit::bytes(*model) == Kit::bytes(*twin), "run: final state differs from step() in a loop");
            FZ_CHECK(model->length() == len + steps, "run: length");
            for (std::size_t t = 0; t < steps; ++t) {
                if (!row_finite[t]) poisoned = true;
                xmax = std::max(xmax, row_max[t]);
            }
            if (steps > 0 && sane()) kit.check_ok(*model, static_cast<double>(model->length()) + 1.0);
            break;
        }
        default: {  // step(x)
            bool finite = true;
            double mx = 0.0;
            read_input(in, xmap, In, x.data(), finite, mx);
            const bool rejects = SARNN_CHECK_INPUT && !finite;
            const bool expect_ok = !refuses && !rejects;
            std::unique_ptr<Model> twin;
            typename Kit::Pre pre{};
            const bool sane_step = finite && sane() && mx <= sane_limit<T>();
            const bool compare = arch.compare && expect_ok && sane_step;
            if (compare) {
                twin = std::make_unique<Model>(*model);
                pre = kit.pre(*model, x.data());
            }
            // where the step may refuse because of overflow: a copy, to see that the refusal kept the memory
            std::unique_ptr<Model> kept;
            if (expect_ok && !sane_step) kept = std::make_unique<Model>(*model);
            const sarnn::Status s = model->step(x.data());
            const sarnn::Status want = refuses   ? sarnn::Status::memory_full
                                       : rejects ? sarnn::Status::non_finite_input
                                                 : sarnn::Status::ok;
            if (s != want) {
                FZ_CHECK(want == sarnn::Status::ok && !sane_step && overflow_refusal(s), "step(x): status");
            }
            if (s != sarnn::Status::ok) {
                FZ_CHECK(Kit::bytes(*model) == before, "a refused step changed the state");
                if (kept) check_refusal_kept_memory<Kit>(*model, *kept);
                break;
            }
            FZ_CHECK(model->length() == len + 1, "step: length");
            if (!finite) poisoned = true;
            xmax = std::max(xmax, mx);
            if (all_finite()) Kit::check_no_nan_inf_views(*model);
            if (sane()) kit.check_ok(*model, static_cast<double>(model->length()) + 1.0);
            if (compare) {
                FZ_CHECK(sarnn::set_arch(sarnn::Arch::scalar) == sarnn::Status::ok, "set_arch(scalar)");
                const sarnn::Status s2 = twin->step(x.data());
                FZ_CHECK(sarnn::set_arch(arch.best) == sarnn::Status::ok, "set_arch(best)");
                FZ_CHECK(s2 == sarnn::Status::ok, "scalar twin: status");
                FZ_CHECK(twin->length() == model->length(), "scalar twin: length");
                kit.compare(*model, *twin, pre);
            }
            break;
        }
        }
    }
}

/// Runs the configuration the selector picks among Kits.
template <class... Kits>
struct Configs {
    static constexpr std::size_t count = sizeof...(Kits);
    static void run(std::size_t selector, Bytes& in) {
        std::size_t k = 0;
        const std::size_t pick = selector % count;
        ((k++ == pick ? drive<Kits>(in) : void()), ...);
    }
};
/// Configs<Kits...> of a kit::TypeList<Kits...>.
template <class List>
struct ConfigsOf;
template <class... Kits>
struct ConfigsOf<kit::TypeList<Kits...>> {
    using type = Configs<Kits...>;
};

}  // namespace fz

#endif
