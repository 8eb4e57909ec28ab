// tests/test_cell.cpp: SelfAttentionRnn's Cell parameter (include/sarnn/cell.hpp). The GRU cell under attention,
// h_i = GRU(x_i, c_{i-1}), against a double-precision reference written here from PyTorch's GRU equations and the
// attention formulas, on every kernel set this build runs and on Dispatch: shapes In, Hidden in {1, 3, 7, 17, 33},
// the dot and scaled dot aligns, Bounded and Window memories (a Window run of 300 steps through a memory of 9);
// the properties (alpha sums to 1, c_1 = h_1, reset() restores the start, a refused step changes nothing, a full
// Bounded memory refuses); Gru<q15> and the q15 GRU cell give the same first state bit for bit; and the default cell
// is the Elman cell (the same type, the same RAM).
#include <catch2/catch.hpp>

#include <sarnn/sarnn.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "driven.hpp"
#include "reference.hpp"

namespace {

using Vec = std::vector<double>;

/// The GRU's weights in double, PyTorch's layout (rows r, z, n), as the model's T holds them.
struct Weights {
    std::size_t in = 0, hidden = 0;
    std::vector<Vec> W_ih, W_hh;
    Vec b_ih, b_hh;
};

double sigmoid(double v) { return 1.0 / (1.0 + std::exp(-v)); }

/// h = GRU(x, c) straight from the equations: r = σ(W_ir x + b_ir + W_hr c + b_hr), z = σ(W_iz x + b_iz + W_hz c +
/// b_hz), n = tanh(W_in x + b_in + r (W_hn c + b_hn)), h = (1 - z) n + z c. size: per lane, 1 + the sum of the
/// magnitudes of the terms (the float tolerance is relative to it).
Vec gru(const Weights& w, const Vec& x, const Vec& c, Vec& size) {
    const std::size_t H = w.hidden;
    Vec h(H);
    for (std::size_t d = 0; d < H; ++d) {
        double gi[3], gh[3];
        size[d] = 1.0;
        for (std::size_t g = 0; g < 3; ++g) {
            const std::size_t row = g * H + d;
            gi[g] = w.b_ih[row];
            gh[g] = w.b_hh[row];
            for (std::size_t k = 0; k < w.in; ++k) gi[g] += w.W_ih[row][k] * x[k];
            for (std::size_t k = 0; k < H; ++k) gh[g] += w.W_hh[row][k] * c[k];
            for (std::size_t k = 0; k < w.in; ++k) size[d] += std::fabs(w.W_ih[row][k] * x[k]);
            for (std::size_t k = 0; k < H; ++k) size[d] += std::fabs(w.W_hh[row][k] * c[k]);
        }
        const double r = sigmoid(gi[0] + gh[0]), z = sigmoid(gi[1] + gh[1]);
        const double n = std::tanh(gi[2] + r * gh[2]);
        h[d] = (1.0 - z) * n + z * c[d];
    }
    return h;
}

/// alpha_j = softmax_j(scale·h_j·h), c = Σ_j alpha_j h_j over the stored states (oldest first, h the newest).
void attend(const std::vector<Vec>& states, const Vec& h, double scale, Vec& alpha, Vec& c) {
    const std::size_t n = states.size();
    alpha.assign(n, 0.0);
    double m = -std::numeric_limits<double>::infinity();
    for (std::size_t j = 0; j < n; ++j) {
        double e = 0.0;
        for (std::size_t k = 0; k < h.size(); ++k) e += states[j][k] * h[k];
        alpha[j] = scale * e;
        m = std::max(m, alpha[j]);
    }
    double l = 0.0;
    for (double& a : alpha) l += (a = std::exp(a - m));
    c.assign(h.size(), 0.0);
    for (std::size_t j = 0; j < n; ++j) {
        alpha[j] /= l;
        for (std::size_t k = 0; k < h.size(); ++k) c[k] += alpha[j] * states[j][k];
    }
}

template <class T, std::size_t In, std::size_t Hidden>
std::unique_ptr<sarnn::GruParams<T, In, Hidden>> make_params(std::uint32_t seed, Weights& w) {
    auto p = std::make_unique<sarnn::GruParams<T, In, Hidden>>();
    std::mt19937 g(seed);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    w.in = In;
    w.hidden = Hidden;
    w.W_ih.assign(3 * Hidden, Vec(In));
    w.W_hh.assign(3 * Hidden, Vec(Hidden));
    w.b_ih.assign(3 * Hidden, 0.0);
    w.b_hh.assign(3 * Hidden, 0.0);
    // PyTorch's init, uniform in +-1/sqrt(Hidden), a little wider for the input so that x matters
    const double si = 1.5 / std::sqrt(static_cast<double>(In)), sh = 1.0 / std::sqrt(static_cast<double>(Hidden));
    const auto draw = [&](double scale) { return static_cast<T>(scale * u(g)); };
    for (std::size_t r = 0; r < 3 * Hidden; ++r) {
        for (std::size_t k = 0; k < In; ++k) w.W_ih[r][k] = static_cast<double>(p->W_ih[r][k] = draw(si));
        for (std::size_t k = 0; k < Hidden; ++k) w.W_hh[r][k] = static_cast<double>(p->W_hh[r][k] = draw(sh));
        w.b_ih[r] = static_cast<double>(p->b_ih[r] = draw(sh));
        w.b_hh[r] = static_cast<double>(p->b_hh[r] = draw(sh));
    }
    return p;
}

template <class V>
Vec to_vec(const sarnn::View<V>& v) {
    Vec out(v.size());
    for (std::size_t k = 0; k < v.size(); ++k) out[k] = static_cast<double>(v[k]);
    return out;
}

template <class Set>
const char* set_name() {
    if constexpr (std::is_same_v<Set, sarnn::kernel::Dispatch>)
        return "Dispatch";
    else
        return sarnn::arch_name(Set::arch);
}

/// `steps` steps of one model, each step checked against the reference from the model's own c_{i-1} and stored
/// states (so that errors do not compound): h_i = GRU(x_i, c_{i-1}) relative to the size of its terms, alpha and c_i
/// absolutely (|h_j| <= 1), alpha sums to 1, c_1 = h_1; then reset() gives the same run bit for bit. capacity: the
/// states the memory keeps (a Window keeps the newest).
void check_run_case(const std::string& name, test::Driven& m, const void* params, const Weights& w,
                    const std::vector<Vec>& xs, std::size_t capacity, double scale, double tol, double c1_tol) {
    INFO(name);
    const std::size_t Hidden = w.hidden, steps = xs.size();
    CHECK(m.params_address() == params);
    std::vector<Vec> stored;  // the model's own states, oldest first
    std::vector<Vec> trace;   // h and c of every step, for the run after reset()
    Vec size(Hidden), alpha, c;
    double worst_h = 0.0, worst_c = 0.0;
    for (std::size_t t = 0; t < steps; ++t) {
        const Vec& x = xs[t];
        const Vec c_prev = m.context();
        REQUIRE(m.step(x) == sarnn::Status::ok);
        // h_i = GRU(x_i, c_{i-1})
        const Vec want_h = gru(w, x, c_prev, size);
        const Vec h = m.hidden();
        for (std::size_t d = 0; d < Hidden; ++d) worst_h = std::max(worst_h, std::fabs(h[d] - want_h[d]) / size[d]);
        stored.push_back(h);
        if (stored.size() > capacity) stored.erase(stored.begin());
        // alpha_ij = softmax_j(align(h_j, h_i)), c_i = Σ_j alpha_ij h_j
        attend(stored, h, scale, alpha, c);
        const Vec got_alpha = m.attention(), got_c = m.context();
        REQUIRE(got_alpha.size() == stored.size());
        double sum = 0.0;
        for (std::size_t j = 0; j < alpha.size(); ++j) {
            worst_c = std::max(worst_c, std::fabs(got_alpha[j] - alpha[j]));
            sum += got_alpha[j];
        }
        CHECK(std::fabs(sum - 1.0) <= 4 * tol);
        for (std::size_t d = 0; d < Hidden; ++d) worst_c = std::max(worst_c, std::fabs(got_c[d] - c[d]));
        if (t == 0)
            for (std::size_t d = 0; d < Hidden; ++d) CHECK(std::fabs(got_c[d] - h[d]) <= c1_tol);
        trace.push_back(h);
        trace.push_back(got_c);
    }
    INFO("worst h error (relative to its terms) " << worst_h << ", worst alpha / c error " << worst_c);
    CHECK(worst_h <= tol);
    CHECK(worst_c <= 4 * tol);
    CHECK(m.length() == steps);
    // reset(): the start state again, and the same run bit for bit
    m.reset();
    CHECK(m.length() == 0);
    CHECK(m.attended() == 0);
    for (double v : m.context()) CHECK(v == 0.0);
    for (std::size_t t = 0; t < steps; ++t) {
        REQUIRE(m.step(xs[t]) == sarnn::Status::ok);
        CHECK(m.hidden() == trace[2 * t]);
        CHECK(m.context() == trace[2 * t + 1]);
    }
}

/// SelfAttentionRnn<T, In, Hidden, Capacity, Align, Memory, Set, GruCell> on every set this build runs and on
/// Dispatch, `steps` steps each (check_run_case).
template <class T, std::size_t In, std::size_t Hidden, std::size_t Capacity, class Align, class Memory>
void check_run(std::size_t steps, std::uint32_t seed) {
    Weights w;
    const auto p = make_params<T, In, Hidden>(seed, w);
    std::mt19937 g(seed + 7);
    std::uniform_real_distribution<double> u(-2.0, 2.0);
    std::vector<Vec> xs(steps, Vec(In));
    for (auto& x : xs)
        for (double& v : x) v = static_cast<double>(static_cast<T>(u(g)));
    const double scale = std::is_same_v<Align, sarnn::ScaledDotAlign> ? 1.0 / std::sqrt(double(Hidden)) : 1.0;
    const auto one = [&](auto set) {
        using Set = decltype(set);
        using Model = sarnn::SelfAttentionRnn<T, In, Hidden, Capacity, Align, Memory, Set, sarnn::GruCell>;
        static_assert(std::is_same_v<typename Model::Params, sarnn::GruParams<T, In, Hidden>>);
        std::ostringstream os;
        os << "SelfAttentionRnn<" << (sizeof(T) == 4 ? "float" : "double") << ", In " << In << ", Hidden " << Hidden
           << ", Capacity " << Capacity << ", " << set_name<Set>() << ", GruCell>";
        test::Driven m(&test::drive<Model>, sizeof(T) == 4, p.get());
        check_run_case(os.str(), m, p.get(), w, xs, Capacity, scale, ref::tol<T>(), ref::c1_tol<T>());
    };
    sarnn::kernel::for_each_set([&](auto set) {
        if (decltype(set)::runs_here()) one(set);
    });
    one(sarnn::kernel::Dispatch{});
}

}  // namespace

TEST_CASE("SelfAttentionRnn<GruCell>: h_i = GRU(x_i, c_{i-1}) and the attention, against a double reference",
          "[cell][gru]") {
    using sarnn::Bounded;
    using sarnn::DotAlign;
    using sarnn::ScaledDotAlign;
    using sarnn::Window;
    check_run<float, 1, 1, 40, DotAlign, Bounded>(40, 1);
    check_run<float, 3, 7, 40, DotAlign, Bounded>(40, 2);
    check_run<float, 7, 3, 40, ScaledDotAlign, Bounded>(40, 3);
    check_run<float, 17, 33, 64, DotAlign, Bounded>(64, 4);
    check_run<float, 33, 17, 9, ScaledDotAlign, Window>(300, 5);
    check_run<double, 1, 3, 40, DotAlign, Bounded>(40, 6);
    check_run<double, 7, 17, 9, DotAlign, Window>(300, 7);
    check_run<double, 33, 7, 64, ScaledDotAlign, Bounded>(64, 8);
}

TEST_CASE("SelfAttentionRnn<GruCell>: refusals change nothing, a full Bounded memory refuses", "[cell][gru]") {
    Weights w;
    const auto p = make_params<float, 3, 5>(21, w);
    sarnn::SelfAttentionRnn<float, 3, 5, 4, sarnn::DotAlign, sarnn::Bounded, sarnn::kernel::Default, sarnn::GruCell> m(
        *p);
    const float x[3] = {0.5f, -1.0f, 0.25f};
    REQUIRE(m.step(x) == sarnn::Status::ok);
    const Vec h = to_vec(m.hidden()), c = to_vec(m.context()), alpha = to_vec(m.attention());
    const float nan_x[3] = {0.5f, std::numeric_limits<float>::quiet_NaN(), 0.25f};
    const float inf_x[3] = {std::numeric_limits<float>::infinity(), 0.0f, 0.0f};
    CHECK(m.step(nan_x) == sarnn::Status::non_finite_input);
    CHECK(m.step(inf_x) == sarnn::Status::non_finite_input);
    CHECK(m.step(static_cast<const float*>(nullptr)) == sarnn::Status::null_input);
    CHECK(to_vec(m.hidden()) == h);
    CHECK(to_vec(m.context()) == c);
    CHECK(to_vec(m.attention()) == alpha);
    CHECK(m.length() == 1);
    // huge finite inputs saturate every gate: h stays in [-1, 1] and finite
    const float huge[3] = {1e30f, -1e30f, 1e30f};
    REQUIRE(m.step(huge) == sarnn::Status::ok);
    for (double v : to_vec(m.hidden())) CHECK(std::fabs(v) <= 1.0);
    REQUIRE(m.step(x) == sarnn::Status::ok);
    REQUIRE(m.step(x) == sarnn::Status::ok);
    CHECK(m.full());
    const Vec h4 = to_vec(m.hidden()), c4 = to_vec(m.context());
    CHECK(m.step(x) == sarnn::Status::memory_full);
    CHECK(to_vec(m.hidden()) == h4);
    CHECK(to_vec(m.context()) == c4);
    CHECK(m.length() == 4);
}

TEST_CASE("SelfAttentionRnn<q15, GruCell>: the first state is Gru<q15>'s, bit for bit; c_1 = h_1", "[cell][gru][q15]") {
    // params of integers within their documented ranges (GruParams<q15>)
    static sarnn::GruParams<sarnn::q15, 5, 9> p{};
    std::mt19937 g(33);
    std::uniform_int_distribution<int> w8(-127, 127), bias(-3000, 3000), sh(-2, 3);
    for (auto& row : p.W_ih)
        for (auto& v : row) v = static_cast<std::int8_t>(w8(g));
    for (auto& row : p.W_hh)
        for (auto& v : row) v = static_cast<std::int8_t>(w8(g));
    for (std::size_t r = 0; r < 27; ++r) {
        p.b_ih[r] = bias(g);
        p.b_hh[r] = bias(g);
        p.m[r] = (std::int32_t{1} << 30) + 12345 * static_cast<std::int32_t>(r);
        p.shift[r] = static_cast<std::int8_t>(sh(g) + 4);
    }
    p.x_m = std::int32_t{1} << 30;
    p.x_shift = 0;
    REQUIRE(sarnn::validate(p).status == sarnn::Status::ok);
    sarnn::Gru<sarnn::q15, 5, 9> gru(p);
    sarnn::SelfAttentionRnn<sarnn::q15, 5, 9, 8, sarnn::DotAlign, sarnn::Bounded, sarnn::kernel::Default,
                            sarnn::GruCell>
        att(p);
    const sarnn::q15 x[5] = {{1200}, {-3000}, {17}, {32767}, {-32768}};
    REQUIRE(gru.step(x) == sarnn::Status::ok);
    REQUIRE(att.step(x) == sarnn::Status::ok);
    for (std::size_t d = 0; d < 9; ++d) {
        CHECK(att.hidden()[d] == gru.hidden()[d]);
        CHECK(att.context()[d] == att.hidden()[d]);  // c_1 = h_1
    }
    // the next state: GRU(x, c_1) = GRU(x, h_1) again, the Gru's own second step
    REQUIRE(gru.step(x) == sarnn::Status::ok);
    REQUIRE(att.step(x) == sarnn::Status::ok);
    for (std::size_t d = 0; d < 9; ++d) CHECK(att.hidden()[d] == gru.hidden()[d]);
}

TEST_CASE("SelfAttentionRnn: the default cell is the Elman cell, at no RAM", "[cell]") {
    using Default = sarnn::SelfAttentionRnn<float, 3, 7, 16>;
    using Elman = sarnn::SelfAttentionRnn<float, 3, 7, 16, sarnn::DotAlign, sarnn::Bounded, sarnn::kernel::Default,
                                          sarnn::ElmanCell>;
    STATIC_REQUIRE(std::is_same_v<Default, Elman>);
    STATIC_REQUIRE(std::is_same_v<Default::Params, sarnn::RnnParams<float, 3, 7>>);
    STATIC_REQUIRE(std::is_empty_v<sarnn::ElmanCell::State<float, 3, 7>>);
    // the GRU cell's RAM: its two gate rows of 3·Hidden values, beyond the Elman model's (and the alignment)
    using Gru = sarnn::SelfAttentionRnn<float, 3, 7, 16, sarnn::DotAlign, sarnn::Bounded, sarnn::kernel::Default,
                                        sarnn::GruCell>;
    CHECK(sizeof(Gru) >= sizeof(Default) + 2 * 3 * 7 * sizeof(float));
    CHECK(sizeof(Gru) <= sizeof(Default) + 2 * sarnn::padded<float>(3 * 7) * sizeof(float) + 2 * sarnn::row_bytes());
}
