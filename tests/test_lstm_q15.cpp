// tests/test_lstm_q15.cpp: Lstm<q15> (LstmParams<q15>, kernel::Q15 and kernel::Q15Plain).
// - The digest of many runs (tests/shared/q15_lstm_digest.hpp) equals the Python twin's (python/sarnn/q15.py,
//   lstm_steps; python/tests/test_q15.py checks the same constant): the two agree bit for bit, on both loop sets.
// - With the x factor 1 (x_m = 2^30, x_shift = -1), Lstm and Gru agree with the twin too (tests/shared/
//   q15_one_digest.hpp: the rows' finishing passes finish_sum and finish_gru that the factor takes).
// - The LSTMN attending one entry (a Window of one: h~ = h_{t-1}, c~ = c_{t-1} exactly) is the LSTM bit for bit.
// - Against the double reference (reference_lstm.hpp) of its dequantised weights (A_q·a_r, b / 4096, x_raw·x_factor):
//   what the integer arithmetic adds stays within the LSTMN's tolerances; quantised from float weights, h within 0.02
//   of the float model over 64 steps (issue 33; measured 0.0036).
// - The cell saturates at Q3.12's ends: clamped, counted by saturated(), the step ok.
// - Saturated weights and inputs at In 511, Hidden 256 (the largest sums the params allow): no signed overflow (the
//   asan jobs run this under UBSan), the twin's numbers, both loop sets alike.
// - reset(), null input, run() with Emit::cell, on both loop sets.
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
#include <vector>

#include "reference.hpp"
#include "reference_lstm.hpp"
#include "shared/q15_lstm_digest.hpp"
#include "shared/q15_one_digest.hpp"
#include "shared/state_bytes.hpp"

namespace {

using sarnn::q15;

/// |h (Q15) - the double reference of the dequantised weights| and |c (Q3.12) - the reference|, real units: the
/// LSTMN's (test_q15_models.cpp); measured at most 4.1e-4 and 5.7e-4 over the shapes below (the 1000-step run).
constexpr double kTolH = 1e-3;
constexpr double kTolC = 2e-3;

/// (multiplier, shift) with multiplier·2^-(31 + shift) = f, multiplier in [2^30, 2^31) (from frexp).
void quantize_multiplier(double f, std::int32_t& m, int& shift) {
    int e = 0;
    const double mant = std::frexp(f, &e);  // f = mant·2^e, mant in [0.5, 1)
    auto q = static_cast<std::int64_t>(std::floor(mant * 2147483648.0 + 0.5));
    if (q == (std::int64_t{1} << 31)) {
        q >>= 1;
        ++e;
    }
    m = static_cast<std::int32_t>(q);
    shift = -e;
}
double multiplier_value(std::int32_t m, int shift) { return std::ldexp(static_cast<double>(m), -(31 + shift)); }

/// LstmParams<q15> from normal double weights (std 1/sqrt(In + Hidden); per gate row of [W_ih | W_hh]: int8 at the
/// scale max|row| / 127; b in Q3.12), the double weights they stand for (what the reference runs) and the originals.
template <std::size_t In, std::size_t Hidden>
struct QuantisedLstm {
    using Params = sarnn::LstmParams<q15, In, Hidden>;
    std::unique_ptr<Params> p = std::make_unique<Params>();
    ref::LstmWeights w;         ///< dequantised: what the integers apply
    ref::LstmWeights original;  ///< the double weights drawn, before quantisation
    double x_factor = 0.0;      ///< real value of one raw input unit, as the model applies it

    QuantisedLstm(std::uint32_t seed, double x_scale) {
        std::mt19937 gen(seed);
        std::normal_distribution<double> d(0.0, 1.0 / std::sqrt(static_cast<double>(In + Hidden)));
        w.in = In;
        w.hidden = Hidden;
        w.W_ih.assign(4 * Hidden, ref::Vec(In));
        w.W_hh.assign(4 * Hidden, ref::Vec(Hidden));
        w.b.resize(4 * Hidden);
        for (auto* m : {&w.W_ih, &w.W_hh})
            for (auto& row : *m)
                for (double& v : row) v = d(gen);
        for (double& b : w.b) b = d(gen);
        original = w;
        int sh = 0;
        quantize_multiplier(x_scale * 32768.0, p->x_m, sh);
        p->x_shift = static_cast<std::int8_t>(sh);
        p->x_scale = static_cast<float>(x_scale);
        x_factor = multiplier_value(p->x_m, sh) / 32768.0;
        for (std::size_t r = 0; r < 4 * Hidden; ++r) {
            double big = 0.0;
            for (double v : w.W_ih[r]) big = std::max(big, std::fabs(v));
            for (double v : w.W_hh[r]) big = std::max(big, std::fabs(v));
            const double a_r = big > 0.0 ? big / 127.0 : std::ldexp(1.0, -20);
            quantize_multiplier(a_r / 8.0, p->m[r], sh);
            p->shift[r] = static_cast<std::int8_t>(sh);
            const double a_exact = 8.0 * multiplier_value(p->m[r], sh);  // the row scale the integers apply
            const auto quantise = [&](ref::Vec& row, std::int8_t* q) {
                for (std::size_t k = 0; k < row.size(); ++k) {
                    const double v = std::max(-127.0, std::min(127.0, std::round(row[k] / a_r)));
                    q[k] = static_cast<std::int8_t>(v);
                    row[k] = v * a_exact;
                }
            };
            quantise(w.W_ih[r], p->W_ih[r]);
            quantise(w.W_hh[r], p->W_hh[r]);
            p->b[r] = static_cast<std::int32_t>(std::lround(w.b[r] * 4096.0));
            w.b[r] = p->b[r] / 4096.0;
        }
    }
};

/// Raw inputs, uniform over int16.
std::vector<std::vector<q15>> raw_inputs(std::size_t in, std::size_t steps, std::uint32_t seed) {
    std::mt19937 g(seed);
    std::uniform_int_distribution<int> d(-32768, 32767);
    std::vector<std::vector<q15>> xs(steps, std::vector<q15>(in));
    for (auto& x : xs)
        for (q15& v : x) v = q15{static_cast<std::int16_t>(d(g))};
    return xs;
}
ref::Vec real(const std::vector<q15>& x, double factor) {
    ref::Vec r(x.size());
    for (std::size_t k = 0; k < x.size(); ++k) r[k] = x[k].raw * factor;
    return r;
}
double worst_diff(const sarnn::View<q15>& got, const ref::Vec& want, double one) {
    double w = 0.0;
    for (std::size_t k = 0; k < want.size(); ++k) w = std::max(w, std::fabs(got[k].raw / one - want[k]));
    return w;
}

template <std::size_t In, std::size_t Hidden>
void check_against_reference(std::uint32_t seed, double x_scale, std::size_t steps) {
    const QuantisedLstm<In, Hidden> ql(seed, x_scale);
    auto model = std::make_unique<sarnn::Lstm<q15, In, Hidden>>(*ql.p);
    auto plain = std::make_unique<sarnn::Lstm<q15, In, Hidden, sarnn::kernel::Q15Plain>>(*ql.p);
    ref::Lstm reference(ql.w);
    double worst_h = 0.0, worst_c = 0.0, big_c = 0.0;
    bool same = true;
    for (const auto& x : raw_inputs(In, steps, seed + 1)) {
        REQUIRE(model->step(x.data()) == sarnn::Status::ok);
        REQUIRE(plain->step(x.data()) == sarnn::Status::ok);
        if (kit::state_bytes(*model) != kit::state_bytes(*plain)) same = false;
        reference.step(real(x, ql.x_factor));
        worst_h = std::max(worst_h, worst_diff(model->hidden(), reference.hidden(), 32768.0));
        worst_c = std::max(worst_c, worst_diff(model->cell(), reference.cell(), 4096.0));
        for (double c : reference.cell()) big_c = std::max(big_c, std::fabs(c));
    }
    INFO("Lstm<q15, " << In << ", " << Hidden << ">: worst |h|, |c| " << worst_h << ", " << worst_c << " (max |c| "
                      << big_c << ")");
    CHECK(same);
    CHECK(model->saturated() == 0);
    CHECK(worst_h <= kTolH);
    CHECK(worst_c <= kTolC);
}

/// Lstm<q15> against Lstmn<q15> with a Window of one entry on the same gate weights (its attention drawn at random),
/// on the loops Set: h, c and saturated() bit for bit.
template <std::size_t In, std::size_t Hidden, class Set>
void check_equals_lstmn_of_one(std::uint64_t seed, std::size_t steps) {
    constexpr std::size_t K = 3;
    test::Q15Lcg rng{seed};
    auto pn = std::make_unique<sarnn::LstmnParams<q15, In, Hidden, K>>();
    test::draw_q15_params(rng, *pn);
    auto p = std::make_unique<sarnn::LstmParams<q15, In, Hidden>>();
    std::memcpy(p->W_ih, pn->W_ih, sizeof p->W_ih);
    std::memcpy(p->W_hh, pn->W_hh, sizeof p->W_hh);
    std::memcpy(p->b, pn->b, sizeof p->b);
    std::memcpy(p->m, pn->m, sizeof p->m);
    std::memcpy(p->shift, pn->shift, sizeof p->shift);
    p->x_m = pn->x_m;
    p->x_shift = pn->x_shift;
    auto lstm = std::make_unique<sarnn::Lstm<q15, In, Hidden, Set>>(*p);
    auto lstmn = std::make_unique<sarnn::Lstmn<q15, In, Hidden, 1, K, sarnn::Window, Set>>(*pn);
    std::size_t first_diff = 0;
    q15 x[In];
    for (std::size_t t = 1; t <= steps; ++t) {
        test::draw_q15_input(rng, x);
        REQUIRE(lstm->step(x) == sarnn::Status::ok);
        REQUIRE(lstmn->step(x) == sarnn::Status::ok);
        const bool same = std::equal(lstm->hidden().begin(), lstm->hidden().end(), lstmn->hidden().begin()) &&
                          std::equal(lstm->cell().begin(), lstm->cell().end(), lstmn->cell().begin()) &&
                          lstm->saturated() == lstmn->saturated();
        if (!same && first_diff == 0) first_diff = t;
    }
    INFO("Lstm<q15, " << In << ", " << Hidden << "> and the LSTMN of one entry first differ at step " << first_diff);
    CHECK(first_diff == 0);
}

template <class Set>
void check_properties() {
    constexpr std::size_t In = 5, Hidden = 9, N = 20;
    using Model = sarnn::Lstm<q15, In, Hidden, Set>;
    const QuantisedLstm<In, Hidden> ql(400, 1.0 / 32768.0);
    const auto xs = raw_inputs(In, N, 401);
    auto model = std::make_unique<Model>(*ql.p);
    CHECK(&model->params() == ql.p.get());
    const std::vector<unsigned char> fresh = kit::state_bytes(*model);
    for (std::size_t d = 0; d < Hidden; ++d) CHECK((model->hidden()[d].raw == 0 && model->cell()[d].raw == 0));
    // null input: refused, nothing changed (on a fresh model and mid-sequence)
    CHECK(model->step(static_cast<const q15*>(nullptr)) == sarnn::Status::null_input);
    CHECK(kit::state_bytes(*model) == fresh);
    std::vector<q15> flat, want_c;
    for (std::size_t t = 0; t < N; ++t) {
        REQUIRE(model->step(xs[t].data()) == sarnn::Status::ok);
        flat.insert(flat.end(), xs[t].begin(), xs[t].end());
        want_c.insert(want_c.end(), model->cell().begin(), model->cell().end());
        if (t == 7) {
            const std::vector<unsigned char> before = kit::state_bytes(*model);
            CHECK(model->step(static_cast<const q15*>(nullptr)) == sarnn::Status::null_input);
            CHECK(kit::state_bytes(*model) == before);
        }
    }
    const std::vector<unsigned char> end = kit::state_bytes(*model);
    // reset(): the start state bit for bit; the same run again bit for bit
    model->reset();
    CHECK(kit::state_bytes(*model) == fresh);
    std::vector<q15> out(N * Hidden + 1, q15{-777});
    const sarnn::RunResult r = model->run(flat.data(), N, out.data(), sarnn::Emit::cell);
    CHECK(r.status == sarnn::Status::ok);
    CHECK(r.steps == N);
    CHECK(std::equal(want_c.begin(), want_c.end(), out.begin()));
    CHECK(out[N * Hidden].raw == -777);
    CHECK(kit::state_bytes(*model) == end);
    CHECK(model->run(flat.data(), N, out.data(), sarnn::Emit::context).status == sarnn::Status::invalid_argument);
    CHECK(kit::state_bytes(*model) == end);
}

}  // namespace

TEST_CASE("q15: Lstm and the Python twin agree bit for bit (one digest of many runs)", "[lstm][q15]") {
    CHECK(test::q15_lstm_digest<sarnn::kernel::Q15>() == test::kQ15LstmDigest);
    CHECK(test::q15_lstm_digest<sarnn::kernel::Q15Plain>() == test::kQ15LstmDigest);
}

TEST_CASE("q15: Lstm and Gru with the x factor 1 agree with the twin bit for bit (one digest)", "[lstm][gru][q15]") {
    // the factor 1 takes the rows' own finishing passes (finish_sum, finish_gru) where the target has them
    CHECK(test::q15_one_digest<sarnn::kernel::Q15>() == test::kQ15OneDigest);
    CHECK(test::q15_one_digest<sarnn::kernel::Q15Plain>() == test::kQ15OneDigest);
}

TEST_CASE("q15: Lstm is the LSTMN attending one entry (a Window of one), bit for bit", "[lstm][q15]") {
    check_equals_lstmn_of_one<3, 5, sarnn::kernel::Q15>(31, 60);
    check_equals_lstmn_of_one<16, 32, sarnn::kernel::Q15>(32, 64);
    check_equals_lstmn_of_one<7, 17, sarnn::kernel::Q15Plain>(33, 40);
    check_equals_lstmn_of_one<1, 1, sarnn::kernel::Q15Plain>(34, 40);
}

TEST_CASE("q15: Lstm against the double reference of its dequantised weights", "[lstm][q15]") {
    check_against_reference<1, 1>(71, 1.0 / 32768.0, 40);
    check_against_reference<3, 7>(72, 2.0 / 32768.0, 100);
    check_against_reference<16, 32>(73, 1.0 / 32768.0, 64);
    check_against_reference<17, 33>(74, 0.5 / 32768.0, 300);
    check_against_reference<33, 64>(75, 1.0 / 32768.0, 80);
    check_against_reference<7, 3>(76, 4.0 / 32768.0, 1000);
}

TEST_CASE("q15: Lstm quantised from float weights stays within 0.02 of float over 64 steps (In 16, Hidden 32)",
          "[lstm][q15]") {
    constexpr std::size_t In = 16, Hidden = 32;
    double worst = 0.0;
    for (std::uint32_t seed = 500; seed < 505; ++seed) {
        const QuantisedLstm<In, Hidden> ql(seed, 1.0 / 32768.0);  // inputs uniform in [-1, 1)
        sarnn::Lstm<q15, In, Hidden> model(*ql.p);
        ref::Lstm original(ql.original);
        for (const auto& x : raw_inputs(In, 64, seed + 1)) {
            REQUIRE(model.step(x.data()) == sarnn::Status::ok);
            original.step(real(x, 1.0 / 32768.0));
            worst = std::max(worst, worst_diff(model.hidden(), original.hidden(), 32768.0));
        }
        CHECK(model.saturated() == 0);
    }
    INFO("worst |h_q15 - h_float| " << worst);
    CHECK(worst <= 0.02);
}

TEST_CASE("q15: Lstm's cell saturates at Q3.12's bound: clamped to +-8, counted by saturated(), the step ok",
          "[lstm][q15]") {
    // no weights, the biases at the top of Q3.12: i, f = sigmoid(8), g = +-tanh(8) (lane 0 up, lane 1 down), o =
    // sigmoid(0): |c_t| = f·|c_{t-1}| + i·|g| grows by nearly 1 a step and passes 8 at the ninth (as the twin's test)
    constexpr std::size_t In = 1, Hidden = 2;
    using Params = sarnn::LstmParams<q15, In, Hidden>;
    auto p = std::make_unique<Params>();
    std::memset(p.get(), 0, sizeof(Params));
    for (std::size_t r = 0; r < 4 * Hidden; ++r) {
        p->m[r] = std::int32_t{1} << 30;
        p->shift[r] = 9;
    }
    p->x_m = std::int32_t{1} << 30;
    p->b[0] = p->b[1] = p->b[2] = p->b[3] = p->b[4] = 32767;  // i, f, g lane 0
    p->b[5] = -32768;                                         // g lane 1
    sarnn::Lstm<q15, In, Hidden> model(*p);
    sarnn::Lstm<q15, In, Hidden, sarnn::kernel::Q15Plain> plain(*p);
    const q15 x[In] = {q15{0}};
    std::vector<std::size_t> counts;
    for (std::size_t t = 1; t <= 12; ++t) {
        REQUIRE(model.step(x) == sarnn::Status::ok);
        REQUIRE(plain.step(x) == sarnn::Status::ok);
        CHECK(kit::state_bytes(model) == kit::state_bytes(plain));
        counts.push_back(model.saturated());
    }
    CHECK(counts == std::vector<std::size_t>{0, 0, 0, 0, 0, 0, 0, 0, 2, 4, 6, 8});
    CHECK(model.cell()[0].raw == 32767);
    CHECK(model.cell()[1].raw == -32768);
    model.reset();
    CHECK(model.saturated() == 0);
    const auto fp = std::make_unique<sarnn::LstmParams<float, In, Hidden>>();
    const sarnn::Lstm<float, In, Hidden> never(*fp);
    CHECK(never.saturated() == 0);
}

TEST_CASE("q15: Lstm at In 511, Hidden 256 with saturated weights and inputs: no overflow, the twin's numbers",
          "[lstm][q15]") {
    constexpr std::size_t In = 511, Hidden = 256;
    using Params = sarnn::LstmParams<q15, In, Hidden>;
    // h and c of lane 0 at steps 1..12 (every lane alike), from python/sarnn/q15.py's run_lstm on the same params
    const std::int16_t up_h[12] = {24945, 31576, 32594, 32735, 32754, 32756, 32756, 32756, 32756, 32756, 32756, 32756};
    const std::int16_t up_c[12] = {4095, 8189, 12281, 16372, 20462, 24550, 28637, 32722, 32767, 32767, 32767, 32767};
    struct Case {
        std::int8_t w;
        std::int16_t x;
        bool up;  // every gate at +8 (else at -8: h = 0, c = -1 LSB)
    };
    for (const Case cs : {Case{127, 32767, true}, Case{-128, -32768, true}, Case{-128, 32767, false}}) {
        INFO("weights " << int{cs.w} << ", inputs " << cs.x);
        auto p = std::make_unique<Params>();
        std::memset(p->W_ih, static_cast<unsigned char>(cs.w), sizeof p->W_ih);
        std::memset(p->W_hh, static_cast<unsigned char>(cs.w), sizeof p->W_hh);
        for (std::size_t r = 0; r < 4 * Hidden; ++r) {
            p->b[r] = 0;
            p->m[r] = INT32_MAX;  // the largest gain requantize takes: every sum saturates Q3.12
            p->shift[r] = -31;
        }
        p->x_m = INT32_MAX;
        p->x_shift = -31;
        auto model = std::make_unique<sarnn::Lstm<q15, In, Hidden>>(*p);
        auto plain = std::make_unique<sarnn::Lstm<q15, In, Hidden, sarnn::kernel::Q15Plain>>(*p);
        std::vector<q15> x(In, q15{cs.x});
        bool lanes_alike = true, as_twin = true, same = true;
        for (std::size_t t = 0; t < 12; ++t) {
            REQUIRE(model->step(x.data()) == sarnn::Status::ok);
            REQUIRE(plain->step(x.data()) == sarnn::Status::ok);
            if (kit::state_bytes(*model) != kit::state_bytes(*plain)) same = false;
            for (std::size_t d = 0; d < Hidden; ++d)
                if (model->hidden()[d] != model->hidden()[0] || model->cell()[d] != model->cell()[0])
                    lanes_alike = false;
            const std::int16_t want_h = cs.up ? up_h[t] : 0, want_c = cs.up ? up_c[t] : -1;
            if (model->hidden()[0].raw != want_h || model->cell()[0].raw != want_c) as_twin = false;
        }
        CHECK(same);
        CHECK(lanes_alike);
        CHECK(as_twin);
        CHECK(model->saturated() == (cs.up ? 4 * Hidden : 0));
    }
}

TEST_CASE("q15: Lstm reset(), null input and run() with Emit::cell, on both loop sets", "[lstm][q15]") {
    check_properties<sarnn::kernel::Q15>();
    check_properties<sarnn::kernel::Q15Plain>();
}
