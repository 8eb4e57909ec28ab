// tests/test_q15_models.cpp: the q15 models (SimpleRnn<q15>, SelfAttentionRnn<q15> with DotAlign, ScaledDotAlign,
// BilinearAlign, KeyQueryAlign and AdditiveAlign, Lstmn<q15>, Bounded and Window) and their kernels (kernel::Q15,
// include/sarnn/kernels/q15/). The LSTMN's tests are at the end.
// - Against the independent double reference (tests/reference.hpp, reference_family.hpp) run on the model's own weights dequantised
//   (A_q·a_r, b / 4096, x_raw·x_factor), over the suite's shapes: what the integer arithmetic adds (rounding of
//   the pre-activation, tanh_q15, the scores, exp_q16, alpha and c) stays within kQ15Tol of h, c and alpha.
// - Against the float model on the original float weights, the reference model (In 16, Hidden 32, Capacity 64,
//   dot): what quantising to int8 costs, within issue 17's 0.02 over 64 steps.
// - Properties: alpha sums to one within kAlphaSumTol, c_1 = h_1 exactly, reset() restores the start state bit for
//   bit, a full Bounded memory refuses and changes nothing, saturated weights and inputs at Hidden 256 (no
//   signed overflow: the asan jobs run this under UBSan).
// - The digest of many runs (tests/shared/q15_digest.hpp), which python/tests/test_q15.py computes from the Python
//   twin (python/sarnn/q15.py, run by python/tests/twin_digest.py): the two agree bit for bit.
#include <catch2/catch.hpp>

#include <sarnn/sarnn.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <random>
#include <vector>

#include "sarnn/kernels/q15/tanh.hpp"        // internal headers: the additive scores' tanh,
#include "sarnn/kernels/q15/tanh_words.hpp"  // and its table words (ARMv6-M's)
#include "reference.hpp"
#include "reference_family.hpp"
#include "shared/q15_affine_check.hpp"
#include "shared/q15_digest.hpp"
#include "shared/q15_gru_cell_digest.hpp"
#include "shared/q15_gru_digest.hpp"

namespace {

/// |h, c, alpha (q15 model) - the same (double reference of the dequantised weights)|, in real units.
constexpr double kQ15Tol = 2e-3;
/// |Σ_j alpha_j - 1|, in real units: each alpha_j is floored (n LSB at most) and the reciprocal is good to 2^-15.
constexpr double kAlphaSumTolPerState = 1.0 / 32768.0;

using sarnn::q15;

/// (multiplier, shift) with multiplier·2^-(31 + shift) = f, multiplier in [2^30, 2^31) (a plain rewrite of the
/// exporter's quantize_multiplier, from frexp).
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

/// A q15 model's params from double weights (per row: int8 at the scale max|row| / 127), and the double weights
/// they stand for (what the reference runs), and the real value of one raw input unit as the model sees it.
template <std::size_t In, std::size_t Hidden>
struct Quantised {
    std::unique_ptr<sarnn::RnnParams<q15, In, Hidden>> p = std::make_unique<sarnn::RnnParams<q15, In, Hidden>>();
    ref::Weights dequantised;
    double x_factor = 0.0;  ///< real value of one raw input unit, x_m·2^-(31 + x_shift) / 32768

    Quantised(const ref::Weights& w, double x_scale) {
        int sh = 0;
        quantize_multiplier(x_scale * 32768.0, p->x_m, sh);
        p->x_shift = static_cast<std::int8_t>(sh);
        p->x_scale = static_cast<float>(x_scale);
        x_factor = multiplier_value(p->x_m, sh) / 32768.0;
        dequantised = w;
        for (std::size_t r = 0; r < Hidden; ++r) {
            double big = 0.0;
            for (std::size_t k = 0; k < In + Hidden; ++k) big = std::max(big, std::fabs(w.a(r, k)));
            const double a_r = big > 0.0 ? big / 127.0 : std::ldexp(1.0, -20);
            quantize_multiplier(a_r / 8.0, p->m[r], sh);
            p->shift[r] = static_cast<std::int8_t>(sh);
            const double a_exact = 8.0 * multiplier_value(p->m[r], sh);  // the row scale the integers apply
            for (std::size_t k = 0; k < In + Hidden; ++k) {
                const double q = std::max(-127.0, std::min(127.0, std::round(w.a(r, k) / a_r)));
                p->A[r][k] = static_cast<std::int8_t>(q);
                dequantised.A[r * (In + Hidden) + k] = q * a_exact;
            }
            p->b[r] = static_cast<std::int32_t>(std::lround(w.b[r] * 4096.0));
            dequantised.b[r] = p->b[r] / 4096.0;
        }
    }
};

/// Weights normal with std 1/sqrt(In + Hidden) (issue 17's "random weights"), b the same.
ref::Weights normal_weights(std::size_t in, std::size_t hidden, std::uint32_t seed) {
    std::mt19937 g(seed);
    std::normal_distribution<double> d(0.0, 1.0 / std::sqrt(static_cast<double>(in + hidden)));
    ref::Weights w;
    w.in = in;
    w.hidden = hidden;
    w.A.resize(hidden * (in + hidden));
    w.b.resize(hidden);
    for (double& a : w.A) a = d(g);
    for (double& b : w.b) b = d(g);
    return w;
}

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

template <class V>
double worst_diff(const V& got, const ref::Vec& want) {
    REQUIRE(got.size() == want.size());
    double w = 0.0;
    for (std::size_t k = 0; k < want.size(); ++k) w = std::max(w, std::fabs(got[k].raw / 32768.0 - want[k]));
    return w;
}

template <std::size_t In, std::size_t Hidden>
void check_simple(std::uint32_t seed, double x_scale, std::size_t steps) {
    const Quantised<In, Hidden> qm(normal_weights(In, Hidden, seed), x_scale);
    sarnn::SimpleRnn<q15, In, Hidden> model(*qm.p);
    ref::SimpleRnn reference(qm.dequantised);
    double worst = 0.0;
    for (const auto& x : raw_inputs(In, steps, seed + 1)) {
        REQUIRE(model.step(x.data()) == sarnn::Status::ok);
        reference.step(real(x, qm.x_factor));
        worst = std::max(worst, worst_diff(model.hidden(), reference.hidden()));
    }
    INFO("SimpleRnn<q15, " << In << ", " << Hidden << ">: worst |h - reference| " << worst);
    CHECK(worst <= kQ15Tol);
}

/// BilinearParams<q15> from double weights W (per row: int8 at the scale max|row| / 127; g the least headroom with
/// |q_r| <= w_r·Σ_k |W_q[r][k]| < 2^g), and the double weights they stand for.
template <std::size_t Hidden>
struct QuantisedBilinear {
    std::unique_ptr<sarnn::BilinearParams<q15, Hidden>> p = std::make_unique<sarnn::BilinearParams<q15, Hidden>>();
    ref::Mat W;  ///< dequantised: W_q[r][k]·w_r, w_r the scale the integers apply (m[r]·2^-(31 + shift[r])·2^g)

    explicit QuantisedBilinear(std::uint32_t seed) : W(Hidden, ref::Vec(Hidden)) {
        std::mt19937 gen(seed);
        std::normal_distribution<double> d(0.0, 1.0 / std::sqrt(static_cast<double>(Hidden)));
        ref::Mat w(Hidden, ref::Vec(Hidden));
        double l1 = 0.0;  // the largest row sum of |W|
        for (auto& row : w) {
            double sum = 0.0;
            for (double& v : row) sum += std::fabs(v = d(gen));
            l1 = std::max(l1, sum);
        }
        int g = 0;
        while (g < 8 && std::ldexp(1.0, g) <= l1) ++g;
        p->g = static_cast<std::int8_t>(g);
        for (std::size_t r = 0; r < Hidden; ++r) {
            double big = 0.0;
            for (double v : w[r]) big = std::max(big, std::fabs(v));
            const double w_r = big > 0.0 ? big / 127.0 : std::ldexp(1.0, -20);
            int sh = 0;
            quantize_multiplier(std::ldexp(w_r, -g), p->m[r], sh);
            p->shift[r] = static_cast<std::int8_t>(sh);
            const double w_exact = std::ldexp(multiplier_value(p->m[r], sh), g);
            for (std::size_t k = 0; k < Hidden; ++k) {
                const double q = std::max(-127.0, std::min(127.0, std::round(w[r][k] / w_r)));
                p->W[r][k] = static_cast<std::int8_t>(q);
                W[r][k] = q * w_exact;
            }
        }
    }
};

/// The least g in [least, 8] with bound < 2^g.
int headroom(double bound, int least = 0) {
    int g = least;
    while (g < 8 && std::ldexp(1.0, g) <= bound) ++g;
    return g;
}

/// KeyQueryParams<q15> from double Wk, Wq (per row: int8 at the scale max|row| / 127; the headrooms from the row
/// sums, as params.hpp asks), and the double weights they stand for under Plan (cache and fold scale the rows by
/// different factors; the reference runs the ones the integers apply).
template <std::size_t Hidden, std::size_t K>
struct QuantisedKeyQuery {
    std::unique_ptr<sarnn::KeyQueryParams<q15, Hidden, K>> p =
        std::make_unique<sarnn::KeyQueryParams<q15, Hidden, K>>();
    ref::Mat Wk_cache, Wq_cache, Wk_fold, Wq_fold;  ///< dequantised, per form

    explicit QuantisedKeyQuery(std::uint32_t seed)
        : Wk_cache(K, ref::Vec(Hidden)), Wq_cache(K, ref::Vec(Hidden)), Wk_fold(K, ref::Vec(Hidden)),
          Wq_fold(K, ref::Vec(Hidden)) {
        std::mt19937 gen(seed);
        std::normal_distribution<double> d(0.0, 1.0 / std::sqrt(static_cast<double>(Hidden)));
        ref::Mat wk(K, ref::Vec(Hidden)), wq(K, ref::Vec(Hidden));
        for (auto* w : {&wk, &wq})
            for (auto& row : *w)
                for (double& v : row) v = d(gen);
        const auto l1 = [](const ref::Vec& row) {
            double sum = 0.0;
            for (double v : row) sum += std::fabs(v);
            return sum;
        };
        const auto scale = [](const ref::Vec& row) {
            double big = 0.0;
            for (double v : row) big = std::max(big, std::fabs(v));
            return big > 0.0 ? big / 127.0 : std::ldexp(1.0, -20);
        };
        double bk = 0.0, bu = 0.0, bf = 0.0;
        for (std::size_t k = 0; k < K; ++k) {
            bk = std::max(bk, l1(wk[k]));
            bu = std::max(bu, l1(wq[k]));
            bf = std::max(bf, scale(wk[k]) * l1(wq[k]));  // |u'_k| = wk_k·|u_k|
        }
        double bq = 0.0;  // |q_r| <= Σ_k |Wk[k][r]|·|u_k|, |u_k| <= Σ_r |Wq[k][r]|
        for (std::size_t r = 0; r < Hidden; ++r) {
            double sum = 0.0;
            for (std::size_t k = 0; k < K; ++k) sum += std::fabs(wk[k][r]) * l1(wq[k]);
            bq = std::max(bq, sum);
        }
        p->g_k = static_cast<std::int8_t>(std::min(headroom(bk), 4));
        p->g_u = static_cast<std::int8_t>(std::min(headroom(bu), 4));
        const int g_f = headroom(bf, -15);  // u' is small (wk_k·u_k): a negative headroom keeps its bits
        p->g = static_cast<std::int8_t>(headroom(bq));
        int sh = 0;
        quantize_multiplier(std::ldexp(1.0, g_f - p->g), p->m_t, sh);
        p->shift_t = static_cast<std::int8_t>(sh);
        for (std::size_t k = 0; k < K; ++k) {
            const double sk = scale(wk[k]), sq = scale(wq[k]);
            quantize_multiplier(std::ldexp(sk, -p->g_k), p->m_k[k], sh);
            p->shift_k[k] = static_cast<std::int8_t>(sh);
            const double sk_exact = std::ldexp(multiplier_value(p->m_k[k], sh), p->g_k);
            quantize_multiplier(std::ldexp(sq, -p->g_u), p->m_q[k], sh);
            p->shift_q[k] = static_cast<std::int8_t>(sh);
            const double sq_exact = std::ldexp(multiplier_value(p->m_q[k], sh), p->g_u);
            quantize_multiplier(std::ldexp(sk * sq, -g_f), p->m_f[k], sh);
            p->shift_f[k] = static_cast<std::int8_t>(sh);
            const double skq_exact = std::ldexp(multiplier_value(p->m_f[k], sh), g_f);
            for (std::size_t r = 0; r < Hidden; ++r) {
                const double qk = std::max(-127.0, std::min(127.0, std::round(wk[k][r] / sk)));
                const double qq = std::max(-127.0, std::min(127.0, std::round(wq[k][r] / sq)));
                p->Wk[k][r] = static_cast<std::int8_t>(qk);
                p->Wq[k][r] = static_cast<std::int8_t>(qq);
                Wk_cache[k][r] = qk * sk_exact;
                Wq_cache[k][r] = qq * sq_exact;
                Wk_fold[k][r] = qk;  // fold: the row factor sk·sq sits on the query side
                Wq_fold[k][r] = qq * skq_exact;
            }
        }
    }
};

/// The scores' vector v of an AdditiveParams<q15> or LstmnParams<q15> p from double v: int8 at the scale max|v| / 127,
/// the scores' format Q(f) the finest that holds Σ_k |v_k| (their bound), m_v / shift_v for s_v·2^f / 32768; v
/// becomes the double values the integers stand for.
template <class P>
void quantise_scores(ref::Vec& v, P& p) {
    double big = 0.0;
    for (double x : v) big = std::max(big, std::fabs(x));
    const double s_v = big > 0.0 ? big / 127.0 : std::ldexp(1.0, -20);
    double bound = 0.0;  // |e_j| <= Σ_k |v_k|
    for (std::size_t k = 0; k < v.size(); ++k) {
        const double q = std::max(-127.0, std::min(127.0, std::round(v[k] / s_v)));
        p.v[k] = static_cast<std::int8_t>(q);
        bound += std::fabs(q) * s_v;
    }
    int f = 15;
    while (f > -2 && std::ldexp(bound, f) > 32767.0) --f;
    p.f = static_cast<std::int8_t>(f);
    int sh = 0;
    quantize_multiplier(std::ldexp(s_v, f) / 32768.0, p.m_v, sh);
    p.shift_v = static_cast<std::int8_t>(sh);
    const double s_exact = std::ldexp(multiplier_value(p.m_v, sh) * 32768.0, -f);
    for (std::size_t k = 0; k < v.size(); ++k) v[k] = p.v[k] * s_exact;
}

/// AdditiveParams<q15> from double W (K x 2·Hidden) and v (per row of W: int8 at the scale max|row| / 127, keys and
/// query in Q3.12; v int8 at max|v| / 127, the scores' format Q(f) the finest that holds Σ_k |v_k|), and the double
/// weights they stand for.
template <std::size_t Hidden, std::size_t K>
struct QuantisedAdditive {
    std::unique_ptr<sarnn::AdditiveParams<q15, Hidden, K>> p = std::make_unique<sarnn::AdditiveParams<q15, Hidden, K>>();
    ref::Mat W;  ///< dequantised: W_q[k][r]·w_k, w_k = 8·m[k]·2^-(31 + shift[k])
    ref::Vec v;  ///< dequantised: v_q[k]·s_v, s_v = m_v·2^-(31 + shift_v)·32768 / 2^f

    explicit QuantisedAdditive(std::uint32_t seed) : W(K, ref::Vec(2 * Hidden)), v(K) {
        std::mt19937 gen(seed);
        std::normal_distribution<double> dw(0.0, 1.0 / std::sqrt(2.0 * Hidden));
        std::normal_distribution<double> dv(0.0, 1.0 / std::sqrt(static_cast<double>(K)));
        ref::Mat w(K, ref::Vec(2 * Hidden));
        ref::Vec vv(K);
        for (auto& row : w)
            for (double& x : row) x = dw(gen);
        for (double& x : vv) x = dv(gen);
        int sh = 0;
        for (std::size_t k = 0; k < K; ++k) {
            double big = 0.0;
            for (double x : w[k]) big = std::max(big, std::fabs(x));
            const double w_k = big > 0.0 ? big / 127.0 : std::ldexp(1.0, -20);
            quantize_multiplier(w_k / 8.0, p->m[k], sh);
            p->shift[k] = static_cast<std::int8_t>(sh);
            const double w_exact = 8.0 * multiplier_value(p->m[k], sh);
            for (std::size_t r = 0; r < 2 * Hidden; ++r) {
                const double q = std::max(-127.0, std::min(127.0, std::round(w[k][r] / w_k)));
                p->W[k][r] = static_cast<std::int8_t>(q);
                W[k][r] = q * w_exact;
            }
        }
        quantise_scores(vv, *p);
        for (std::size_t k = 0; k < K; ++k) v[k] = vv[k];
    }
};

template <class Align, class Memory, class RefAlign, std::size_t In, std::size_t Hidden, std::size_t Capacity,
          class... AlignParams>
void check_attention_with(std::uint32_t seed, double x_scale, std::size_t steps, const RefAlign& ref_align,
                          const AlignParams&... ap) {
    constexpr bool window = std::is_same_v<Memory, sarnn::Window>;
    const Quantised<In, Hidden> qm(normal_weights(In, Hidden, seed), x_scale);
    auto model = std::make_unique<sarnn::SelfAttentionRnn<q15, In, Hidden, Capacity, Align, Memory>>(*qm.p, ap...);
    ref::SelfAttentionRnn<RefAlign> reference(qm.dequantised, ref_align, window ? Capacity : 0);
    double worst_h = 0.0, worst_c = 0.0, worst_alpha = 0.0, worst_sum = 0.0;
    std::size_t t = 0;
    for (const auto& x : raw_inputs(In, steps, seed + 1)) {
        if (!window && model->full()) break;
        REQUIRE(model->step(x.data()) == sarnn::Status::ok);
        reference.step(real(x, qm.x_factor));
        worst_h = std::max(worst_h, worst_diff(model->hidden(), reference.hidden()));
        worst_c = std::max(worst_c, worst_diff(model->context(), reference.context()));
        worst_alpha = std::max(worst_alpha, worst_diff(model->attention(), reference.attention()));
        double sum = 0.0;
        for (const q15& a : model->attention()) sum += a.raw / 32768.0;
        worst_sum = std::max(worst_sum, std::fabs(sum - 1.0) / static_cast<double>(model->attended() + 1));
        if (t++ == 0) {
            // c_1 = h_1, exactly
            CHECK(std::memcmp(model->context().data(), model->hidden().data(), Hidden * sizeof(q15)) == 0);
        }
    }
    INFO("SelfAttentionRnn<q15, " << In << ", " << Hidden << ", " << Capacity << ">: worst |h|, |c|, |alpha| "
                                  << worst_h << ", " << worst_c << ", " << worst_alpha << "; |Σ alpha - 1| / (n + 1) "
                                  << worst_sum);
    CHECK(worst_h <= kQ15Tol);
    CHECK(worst_c <= kQ15Tol);
    CHECK(worst_alpha <= kQ15Tol);
    CHECK(worst_sum <= kAlphaSumTolPerState);
}

template <class Align, class Memory, class RefAlign, std::size_t In, std::size_t Hidden, std::size_t Capacity>
void check_attention(std::uint32_t seed, double x_scale, std::size_t steps) {
    check_attention_with<Align, Memory, RefAlign, In, Hidden, Capacity>(seed, x_scale, steps, RefAlign{});
}

template <class Memory, std::size_t In, std::size_t Hidden, std::size_t Capacity>
void check_bilinear(std::uint32_t seed, double x_scale, std::size_t steps) {
    const QuantisedBilinear<Hidden> qb(seed + 1000);
    INFO("BilinearParams<q15>: g = " << int{qb.p->g});
    check_attention_with<sarnn::BilinearAlign, Memory, ref::Bilinear, In, Hidden, Capacity>(
        seed, x_scale, steps, ref::Bilinear{qb.W}, *qb.p);
}

template <sarnn::KeyQueryPlan Plan, class Memory, std::size_t In, std::size_t Hidden, std::size_t Capacity,
          std::size_t K>
void check_key_query(std::uint32_t seed, double x_scale, std::size_t steps) {
    using Align = sarnn::KeyQueryAlign<K, Plan>;
    constexpr bool cache = Align::template State<q15, Hidden, Capacity>::caches_keys;
    const QuantisedKeyQuery<Hidden, K> qk(seed + 2000);
    INFO("KeyQueryAlign<" << K << ">, keys " << (cache ? "cached" : "folded") << ", g_k " << int{qk.p->g_k}
                          << " g_u " << int{qk.p->g_u} << " g " << int{qk.p->g});
    const ref::KeyQuery ref_align = cache ? ref::KeyQuery{qk.Wk_cache, qk.Wq_cache} : ref::KeyQuery{qk.Wk_fold, qk.Wq_fold};
    check_attention_with<Align, Memory, ref::KeyQuery, In, Hidden, Capacity>(seed, x_scale, steps, ref_align, *qk.p);
}

}  // namespace

TEST_CASE("q15: the C++ models and the Python twin agree bit for bit (one digest of many runs)", "[q15]") {
    const std::uint64_t h = test::q15_digest();
    INFO("digest 0x" << std::hex << h << " (python3 -m tests.twin_digest in python/ gives the Python twin's)");
    CHECK(h == test::kQ15Digest);
}

TEST_CASE("q15: the models on the plain loops (Set = kernel::Q15Plain) give the same digest", "[q15]") {
    CHECK(test::q15_digest<sarnn::kernel::Q15Plain>() == test::kQ15Digest);
}

namespace {
/// The raw values of a q15 view.
std::vector<std::int16_t> raws(const sarnn::View<q15>& v) {
    std::vector<std::int16_t> out;
    for (const q15 x : v) out.push_back(x.raw);
    return out;
}
}  // namespace

TEST_CASE("q15: Gru and the Python twin (run_gru) agree bit for bit, on the target's loops and the plain ones", "[q15][gru]") {
    const std::uint64_t h = test::q15_gru_digest();
    INFO("digest 0x" << std::hex << h << " (python3 -m tests.twin_digest in python/ gives the Python twin's)");
    CHECK(h == test::kQ15GruDigest);
    CHECK(test::q15_gru_digest<sarnn::kernel::Q15Plain>() == test::kQ15GruDigest);
}

TEST_CASE("q15: SelfAttentionRnn<..., GruCell> and the Python twin (steps, cell=\"gru\") agree bit for bit, every align, on the target's loops and the plain ones", "[q15][gru]") {
    const std::uint64_t h = test::q15_gru_cell_digest();
    INFO("digest 0x" << std::hex << h << " (python3 -m tests.twin_digest in python/ gives the Python twin's)");
    CHECK(h == test::kQ15GruCellDigest);
    CHECK(test::q15_gru_cell_digest<sarnn::kernel::Q15Plain>() == test::kQ15GruCellDigest);
}

TEST_CASE("q15: Gru refuses null input and changes nothing; reset() restores the start state bit for bit", "[q15][gru]") {
    constexpr std::size_t In = 5, Hidden = 9;
    test::Q15Lcg rng{77};
    const auto p = std::make_unique<sarnn::GruParams<q15, In, Hidden>>();
    test::draw_q15_params(rng, *p);
    sarnn::Gru<q15, In, Hidden> model(*p);
    std::vector<std::array<q15, In>> xs(12);
    for (auto& x : xs)
        for (auto& v : x) v = q15{static_cast<std::int16_t>(rng.below(65536) - 32768)};
    std::vector<std::vector<std::int16_t>> first;
    for (const auto& x : xs) {
        const std::vector<std::int16_t> before = raws(model.hidden());
        CHECK(model.step(static_cast<const q15*>(nullptr)) == sarnn::Status::null_input);
        CHECK(raws(model.hidden()) == before);
        REQUIRE(model.step(x) == sarnn::Status::ok);
        first.push_back(raws(model.hidden()));
    }
    CHECK(model.length() == xs.size());
    model.reset();
    CHECK(model.length() == 0);
    for (const q15 v : model.hidden()) CHECK(v.raw == 0);
    for (std::size_t t = 0; t < xs.size(); ++t) {
        REQUIRE(model.step(xs[t]) == sarnn::Status::ok);
        CHECK(raws(model.hidden()) == first[t]);
    }
}

TEST_CASE("q15: affine_tanh against 64-bit integer arithmetic (every shift, both signs, saturating sums)", "[q15]") {
    CHECK(test::q15_affine_mismatches(200) == 0);
}

TEST_CASE("q15: SimpleRnn against the double reference of its dequantised weights", "[q15]") {
    check_simple<1, 1>(1, 1.0 / 32768.0, 64);
    check_simple<3, 7>(2, 2.0 / 32768.0, 64);
    check_simple<7, 17>(3, 1.0 / 32768.0, 64);
    check_simple<16, 33>(4, 4.0 / 32768.0, 200);
    check_simple<17, 64>(5, 1.0 / 32768.0, 64);
    check_simple<33, 3>(6, 0.5 / 32768.0, 64);
}

TEST_CASE("q15: a row shift above 31 (refused by validate()) steps as shift 31 on every kernel, without UB", "[q15]") {
    // The int8 shifts can hold up to 127. Unvalidated, the model must not shift by the width or more (the asan jobs'
    // UBSan) and must give what shift 31 gives (the documented clamp), on every target's kernels: the rows at 40,
    // 64 and 127 against the same params with 31 there. x_scale 2^-15: x_shift -1, the near-one paths (Cortex-M's
    // finish loops) included.
    constexpr std::size_t In = 4, Hidden = 16;
    const Quantised<In, Hidden> clamped(normal_weights(In, Hidden, 91), 1.0 / 32768.0);
    const Quantised<In, Hidden> wild(normal_weights(In, Hidden, 91), 1.0 / 32768.0);
    const std::size_t rows[] = {0, 5, 15};
    const std::int8_t shifts[] = {40, 64, 127};
    for (std::size_t k = 0; k < 3; ++k) {
        clamped.p->shift[rows[k]] = 31;
        wild.p->shift[rows[k]] = shifts[k];
    }
    CHECK(sarnn::validate(*clamped.p).status == sarnn::Status::ok);
    CHECK(sarnn::validate(*wild.p).status == sarnn::Status::invalid_argument);
    sarnn::SimpleRnn<q15, In, Hidden> want(*clamped.p), got(*wild.p);
    sarnn::SelfAttentionRnn<q15, In, Hidden, 8, sarnn::DotAlign, sarnn::Window> want_sa(*clamped.p), got_sa(*wild.p);
    int mismatches = 0;
    for (const auto& x : raw_inputs(In, 20, 92)) {
        REQUIRE(want.step(x.data()) == sarnn::Status::ok);
        REQUIRE(got.step(x.data()) == sarnn::Status::ok);
        REQUIRE(want_sa.step(x.data()) == sarnn::Status::ok);
        REQUIRE(got_sa.step(x.data()) == sarnn::Status::ok);
        for (std::size_t r = 0; r < Hidden; ++r) {
            mismatches += want.hidden()[r] != got.hidden()[r];
            mismatches += want_sa.context()[r] != got_sa.context()[r];
        }
    }
    CHECK(mismatches == 0);
}

TEST_CASE("q15: SelfAttentionRnn (dot, scaled dot; Bounded, Window) against the double reference", "[q15]") {
    using sarnn::Bounded;
    using sarnn::DotAlign;
    using sarnn::ScaledDotAlign;
    using sarnn::Window;
    check_attention<DotAlign, Bounded, ref::Dot, 1, 1, 8>(11, 1.0 / 32768.0, 8);
    check_attention<DotAlign, Bounded, ref::Dot, 3, 7, 33>(12, 2.0 / 32768.0, 33);
    check_attention<ScaledDotAlign, Bounded, ref::ScaledDot, 7, 17, 17>(13, 1.0 / 32768.0, 17);
    check_attention<DotAlign, Bounded, ref::Dot, 16, 32, 64>(14, 2.0 / 32768.0, 64);
    check_attention<ScaledDotAlign, Window, ref::ScaledDot, 16, 33, 7>(15, 1.0 / 32768.0, 100);
    check_attention<DotAlign, Window, ref::Dot, 17, 64, 16>(16, 1.0 / 32768.0, 80);
    check_attention<DotAlign, Window, ref::Dot, 3, 3, 1>(17, 1.0 / 32768.0, 20);
}

TEST_CASE("q15: SelfAttentionRnn with BilinearAlign (Bounded, Window) against the double reference", "[q15]") {
    using sarnn::Bounded;
    using sarnn::Window;
    check_bilinear<Bounded, 1, 1, 8>(21, 1.0 / 32768.0, 8);
    check_bilinear<Bounded, 3, 7, 33>(22, 2.0 / 32768.0, 33);
    check_bilinear<Bounded, 16, 32, 64>(23, 2.0 / 32768.0, 64);
    check_bilinear<Window, 16, 33, 7>(24, 1.0 / 32768.0, 100);
    check_bilinear<Window, 17, 64, 16>(25, 1.0 / 32768.0, 80);
}

TEST_CASE("q15: SelfAttentionRnn with KeyQueryAlign (keys cached, folded; Bounded, Window) against the double "
          "reference", "[q15]") {
    using sarnn::Bounded;
    using sarnn::KeyQueryPlan;
    using sarnn::Window;
    check_key_query<KeyQueryPlan::by_size, Bounded, 3, 17, 33, 4>(31, 2.0 / 32768.0, 33);  // cached
    check_key_query<KeyQueryPlan::by_size, Bounded, 16, 32, 64, 16>(32, 2.0 / 32768.0, 64);  // folded
    check_key_query<KeyQueryPlan::cache, Window, 16, 33, 7, 16>(33, 1.0 / 32768.0, 100);
    check_key_query<KeyQueryPlan::fold, Window, 17, 64, 16, 7>(34, 1.0 / 32768.0, 80);
    check_key_query<KeyQueryPlan::by_size, Bounded, 1, 1, 8, 1>(35, 1.0 / 32768.0, 8);
}

template <class Memory, std::size_t In, std::size_t Hidden, std::size_t Capacity, std::size_t K>
void check_additive(std::uint32_t seed, double x_scale, std::size_t steps) {
    const QuantisedAdditive<Hidden, K> qa(seed + 3000);
    INFO("AdditiveAlign<" << K << ">: f = " << int{qa.p->f});
    check_attention_with<sarnn::AdditiveAlign<K>, Memory, ref::Additive, In, Hidden, Capacity>(
        seed, x_scale, steps, ref::Additive{qa.W, qa.v}, *qa.p);
}

TEST_CASE("q15: SelfAttentionRnn with AdditiveAlign (Bounded, Window) against the double reference", "[q15]") {
    using sarnn::Bounded;
    using sarnn::Window;
    check_additive<Bounded, 1, 1, 8, 1>(41, 1.0 / 32768.0, 8);
    check_additive<Bounded, 3, 7, 33, 3>(42, 2.0 / 32768.0, 33);
    check_additive<Bounded, 16, 32, 64, 16>(43, 2.0 / 32768.0, 64);
    check_additive<Window, 16, 33, 7, 17>(44, 1.0 / 32768.0, 100);
    check_additive<Window, 17, 64, 16, 7>(45, 1.0 / 32768.0, 80);
}

/// The worst |h_q - h_float| of a q15 model and its float original over 64 steps of the same inputs (raw for q, times
/// x_scale for f).
template <std::size_t In, std::size_t Hidden, class Q, class F>
double worst_against_float(Q& q, F& f, std::uint32_t seed, double x_scale) {
    double worst = 0.0;
    for (const auto& x : raw_inputs(In, 64, seed)) {
        float xf[In];
        for (std::size_t k = 0; k < In; ++k) xf[k] = static_cast<float>(x[k].raw * x_scale);
        REQUIRE(q.step(x.data()) == sarnn::Status::ok);
        REQUIRE(f.step(xf) == sarnn::Status::ok);
        for (std::size_t k = 0; k < Hidden; ++k)
            worst = std::max(worst, std::fabs(q.hidden()[k].raw / 32768.0 - static_cast<double>(f.hidden()[k])));
    }
    return worst;
}

TEST_CASE("q15: the reference model quantised from float weights stays within 0.02 of float over 64 steps", "[q15]") {
    constexpr std::size_t In = 16, Hidden = 32, Capacity = 64;
    double worst = 0.0;
    for (std::uint32_t seed = 100; seed < 110; ++seed) {
        const ref::Weights w = normal_weights(In, Hidden, seed);
        const double x_scale = 1.0 / 32768.0;  // inputs uniform in [-1, 1): the int16 range as Q15
        const Quantised<In, Hidden> qm(w, x_scale);
        auto fp = std::make_unique<sarnn::RnnParams<float, In, Hidden>>();
        for (std::size_t r = 0; r < Hidden; ++r) {
            for (std::size_t k = 0; k < In + Hidden; ++k) fp->A[r][k] = static_cast<float>(w.a(r, k));
            fp->b[r] = static_cast<float>(w.b[r]);
        }
        auto q = std::make_unique<sarnn::SelfAttentionRnn<q15, In, Hidden, Capacity>>(*qm.p);
        auto f = std::make_unique<sarnn::SelfAttentionRnn<float, In, Hidden, Capacity>>(*fp);
        worst = std::max(worst, worst_against_float<In, Hidden>(*q, *f, seed + 1, x_scale));
    }
    INFO("worst |h_q15 - h_float| over 10 models x 64 steps: " << worst);
    CHECK(worst <= 0.02);
}

TEST_CASE("q15: reset() restores the start state bit for bit; a full Bounded memory refuses and changes nothing",
          "[q15]") {
    constexpr std::size_t In = 5, Hidden = 9, Capacity = 4;
    const Quantised<In, Hidden> qm(normal_weights(In, Hidden, 7), 1.0 / 32768.0);
    using Model = sarnn::SelfAttentionRnn<q15, In, Hidden, Capacity>;
    auto fresh = std::make_unique<Model>(*qm.p);
    auto model = std::make_unique<Model>(*qm.p);
    const auto xs = raw_inputs(In, Capacity + 1, 8);
    for (std::size_t t = 0; t < Capacity; ++t) REQUIRE(model->step(xs[t].data()) == sarnn::Status::ok);
    REQUIRE(model->full());
    const auto before = std::make_unique<Model>(*model);
    CHECK(model->step(xs[Capacity].data()) == sarnn::Status::memory_full);
    CHECK(std::memcmp(before->hidden().data(), model->hidden().data(), Hidden * sizeof(q15)) == 0);
    CHECK(std::memcmp(before->context().data(), model->context().data(), Hidden * sizeof(q15)) == 0);
    CHECK(std::memcmp(before->attention().data(), model->attention().data(), Capacity * sizeof(q15)) == 0);
    CHECK(model->length() == Capacity);
    model->reset();
    CHECK(model->length() == 0);
    CHECK(model->attended() == 0);
    CHECK(std::memcmp(fresh->context().data(), model->context().data(), Hidden * sizeof(q15)) == 0);
    CHECK(std::memcmp(fresh->hidden().data(), model->hidden().data(), Hidden * sizeof(q15)) == 0);
    // and the same run again gives the same bits
    for (std::size_t t = 0; t < Capacity; ++t) {
        REQUIRE(model->step(xs[t].data()) == sarnn::Status::ok);
        REQUIRE(fresh->step(xs[t].data()) == sarnn::Status::ok);
        CHECK(std::memcmp(fresh->context().data(), model->context().data(), Hidden * sizeof(q15)) == 0);
    }
    sarnn::SimpleRnn<q15, In, Hidden> simple(*qm.p);
    REQUIRE(simple.step(xs[0].data()) == sarnn::Status::ok);
    simple.reset();
    for (const q15& v : simple.hidden()) CHECK(v.raw == 0);
}

TEST_CASE("q15: saturated weights and inputs at Hidden 256 drive every lane to +-1 without overflow", "[q15]") {
    constexpr std::size_t In = 511, Hidden = 256, Capacity = 8;
    auto p = std::make_unique<sarnn::RnnParams<q15, In, Hidden>>();
    for (auto& row : p->A)
        for (auto& a : row) a = -128;
    for (std::size_t r = 0; r < Hidden; ++r) {
        p->b[r] = 0;
        p->m[r] = INT32_MAX;
        p->shift[r] = -31;
    }
    p->x_m = INT32_MAX;
    p->x_shift = -31;
    std::vector<q15> x(In);
    // b = 0: every pre-activation saturates, every lane is +-1; then b at the int32 extremes: the sums, the
    // requantisations and the bias stay in range (the asan jobs run this under UBSan)
    for (const std::int32_t b : {std::int32_t{0}, INT32_MAX, INT32_MIN}) {
        for (auto& v : p->b) v = b;
        sarnn::SimpleRnn<q15, In, Hidden> simple(*p);
        auto model = std::make_unique<sarnn::SelfAttentionRnn<q15, In, Hidden, Capacity, sarnn::DotAlign, sarnn::Window>>(*p);
        auto scaled = std::make_unique<sarnn::SelfAttentionRnn<q15, In, Hidden, Capacity, sarnn::ScaledDotAlign>>(*p);
        for (int t = 0; t < 12; ++t) {
            for (auto& v : x) v = q15{static_cast<std::int16_t>(t % 2 == 0 ? -32768 : 32767)};
            REQUIRE(simple.step(x.data()) == sarnn::Status::ok);
            REQUIRE(model->step(x.data()) == sarnn::Status::ok);
            if (!scaled->full()) REQUIRE(scaled->step(x.data()) == sarnn::Status::ok);
            for (const q15& v : simple.hidden()) CHECK((b == 0 ? std::abs(v.raw) == 32767 : std::abs(v.raw) <= 32767));
            for (const q15& v : model->hidden()) CHECK((b == 0 ? std::abs(v.raw) == 32767 : std::abs(v.raw) <= 32767));
            double sum = 0.0;
            for (const q15& a : model->attention()) sum += a.raw / 32768.0;
            CHECK(std::fabs(sum - 1.0) <= static_cast<double>(model->attended() + 1) * kAlphaSumTolPerState);
            for (const q15& v : model->context()) CHECK(std::abs(v.raw) <= 32767);
        }
    }
}

// ---- Lstmn<q15> --------------------------------------------------------------------------------------------------

namespace {

/// |h, s (Q15) - the double reference of the dequantised weights| and |c (Q3.12) - the reference|, real units
/// (measured at most 2.5e-4, 4.9e-4 (two LSB of Q3.12) and 8.6e-5 over the shapes below).
constexpr double kLstmnTolH = 1e-3;
constexpr double kLstmnTolC = 2e-3;

/// LstmnParams<q15> from normal double weights (per gate row of [W_ih | W_hh] and per attention row of [W_h | W_x |
/// W_ht]: int8 at the scale max|row| / 127; v at max|v| / 127 with the finest Q(f) that holds Σ|v_k|; b in Q3.12), and
/// the double weights they stand for (what ref::Lstmn runs).
template <std::size_t In, std::size_t Hidden, std::size_t K>
struct QuantisedLstmn {
    using Params = sarnn::LstmnParams<q15, In, Hidden, K>;
    std::unique_ptr<Params> p = std::make_unique<Params>();
    ref::LstmnWeights w;         ///< dequantised: what the integers apply
    ref::LstmnWeights original;  ///< the double weights drawn, before quantisation
    double x_factor = 0.0;

    QuantisedLstmn(std::uint32_t seed, double x_scale) {
        std::mt19937 gen(seed);
        std::normal_distribution<double> dg(0.0, 1.0 / std::sqrt(static_cast<double>(In + Hidden)));
        std::normal_distribution<double> da(0.0, 1.0 / std::sqrt(static_cast<double>(In + 2 * Hidden)));
        std::normal_distribution<double> dv(0.0, 1.0 / std::sqrt(static_cast<double>(K)));
        w.in = In;
        w.hidden = Hidden;
        w.k = K;
        const auto mat = [&gen](std::size_t rows, std::size_t cols, auto& d) {
            ref::Mat m(rows, ref::Vec(cols));
            for (auto& row : m)
                for (double& v : row) v = d(gen);
            return m;
        };
        w.W_ih = mat(4 * Hidden, In, dg);
        w.W_hh = mat(4 * Hidden, Hidden, dg);
        w.b.resize(4 * Hidden);
        for (double& b : w.b) b = dg(gen);
        w.W_h = mat(K, Hidden, da);
        w.W_x = mat(K, In, da);
        w.W_ht = mat(K, Hidden, da);
        w.v.resize(K);
        for (double& v : w.v) v = dv(gen);
        original = w;
        int sh = 0;
        quantize_multiplier(x_scale * 32768.0, p->x_m, sh);
        p->x_shift = static_cast<std::int8_t>(sh);
        p->x_scale = static_cast<float>(x_scale);
        x_factor = multiplier_value(p->x_m, sh) / 32768.0;
        // one row's scale over its parts; the parts quantised to int8 and dequantised at the scale the integers apply
        const auto rows = [&](std::size_t r, std::initializer_list<std::pair<ref::Vec*, std::int8_t*>> parts,
                              std::int32_t& m, std::int8_t& shift) {
            double big = 0.0;
            for (const auto& part : parts)
                for (double v : *part.first) big = std::max(big, std::fabs(v));
            const double a_r = big > 0.0 ? big / 127.0 : std::ldexp(1.0, -20);
            int s = 0;
            quantize_multiplier(a_r / 8.0, m, s);
            shift = static_cast<std::int8_t>(s);
            const double a_exact = 8.0 * multiplier_value(m, s);
            for (const auto& part : parts)
                for (std::size_t k = 0; k < part.first->size(); ++k) {
                    const double q = std::max(-127.0, std::min(127.0, std::round((*part.first)[k] / a_r)));
                    part.second[k] = static_cast<std::int8_t>(q);
                    (*part.first)[k] = q * a_exact;
                }
            (void)r;
        };
        for (std::size_t r = 0; r < 4 * Hidden; ++r) {
            rows(r, {{&w.W_ih[r], p->W_ih[r]}, {&w.W_hh[r], p->W_hh[r]}}, p->m[r], p->shift[r]);
            p->b[r] = static_cast<std::int32_t>(std::lround(w.b[r] * 4096.0));
            w.b[r] = p->b[r] / 4096.0;
        }
        for (std::size_t k = 0; k < K; ++k)
            rows(k, {{&w.W_h[k], p->W_h[k]}, {&w.W_x[k], p->W_x[k]}, {&w.W_ht[k], p->W_ht[k]}}, p->m_a[k],
                 p->shift_a[k]);
        quantise_scores(w.v, *p);
    }
};

template <class V>
double worst_diff_scaled(const V& got, const ref::Vec& want, double one) {
    REQUIRE(got.size() == want.size());
    double w = 0.0;
    for (std::size_t k = 0; k < want.size(); ++k) w = std::max(w, std::fabs(got[k].raw / one - want[k]));
    return w;
}

template <class Memory, std::size_t In, std::size_t Hidden, std::size_t Capacity, std::size_t K>
void check_lstmn(std::uint32_t seed, double x_scale, std::size_t steps) {
    constexpr bool window = std::is_same_v<Memory, sarnn::Window>;
    const QuantisedLstmn<In, Hidden, K> ql(seed, x_scale);
    auto model = std::make_unique<sarnn::Lstmn<q15, In, Hidden, Capacity, K, Memory>>(*ql.p);
    ref::Lstmn reference(ql.w, window ? Capacity : 0);
    double worst_h = 0.0, worst_c = 0.0, worst_s = 0.0, big_c = 0.0;
    for (const auto& x : raw_inputs(In, steps, seed + 1)) {
        if (!window && model->full()) break;
        REQUIRE(model->step(x.data()) == sarnn::Status::ok);
        reference.step(real(x, ql.x_factor));
        worst_h = std::max(worst_h, worst_diff_scaled(model->hidden(), reference.hidden(), 32768.0));
        worst_c = std::max(worst_c, worst_diff_scaled(model->cell(), reference.cell(), 4096.0));
        worst_s = std::max(worst_s, worst_diff_scaled(model->attention(), reference.attention(), 32768.0));
        for (double c : reference.cell()) big_c = std::max(big_c, std::fabs(c));
    }
    INFO("Lstmn<q15, " << In << ", " << Hidden << ", " << Capacity << ", " << K << (window ? ", Window" : ", Bounded")
                       << ">: f = " << int{ql.p->f} << ", worst |h|, |c|, |s| " << worst_h << ", " << worst_c << ", "
                       << worst_s << " (max |c| " << big_c << ")");
    CHECK(model->saturated() == 0);
    CHECK(worst_h <= kLstmnTolH);
    CHECK(worst_c <= kLstmnTolC);
    CHECK(worst_s <= kLstmnTolH);
}

}  // namespace

TEST_CASE("q15: Lstmn (Bounded, Window) against the double reference of its dequantised weights", "[q15]") {
    using sarnn::Bounded;
    using sarnn::Window;
    check_lstmn<Bounded, 1, 1, 8, 1>(61, 1.0 / 32768.0, 8);
    check_lstmn<Bounded, 3, 7, 33, 3>(62, 2.0 / 32768.0, 33);
    check_lstmn<Bounded, 16, 32, 64, 16>(63, 1.0 / 32768.0, 64);
    check_lstmn<Window, 16, 33, 7, 17>(64, 1.0 / 32768.0, 100);
    check_lstmn<Window, 17, 64, 16, 7>(65, 1.0 / 32768.0, 80);
}

TEST_CASE("q15: Lstmn reset() restores the start state bit for bit; a full Bounded memory refuses and changes nothing",
          "[q15]") {
    constexpr std::size_t In = 5, Hidden = 9, Capacity = 4, K = 3;
    const QuantisedLstmn<In, Hidden, K> ql(71, 1.0 / 32768.0);
    using Model = sarnn::Lstmn<q15, In, Hidden, Capacity, K>;
    auto fresh = std::make_unique<Model>(*ql.p);
    auto model = std::make_unique<Model>(*ql.p);
    const auto xs = raw_inputs(In, Capacity + 1, 72);
    for (std::size_t t = 0; t < Capacity; ++t) REQUIRE(model->step(xs[t].data()) == sarnn::Status::ok);
    REQUIRE(model->full());
    const auto before = std::make_unique<Model>(*model);
    CHECK(model->step(xs[Capacity].data()) == sarnn::Status::memory_full);
    CHECK(std::memcmp(before->hidden().data(), model->hidden().data(), Hidden * sizeof(q15)) == 0);
    CHECK(std::memcmp(before->cell().data(), model->cell().data(), Hidden * sizeof(q15)) == 0);
    CHECK(std::memcmp(before->attention().data(), model->attention().data(), (Capacity - 1) * sizeof(q15)) == 0);
    CHECK(model->length() == Capacity);
    CHECK(model->step(nullptr) == sarnn::Status::memory_full);
    model->reset();
    CHECK(model->length() == 0);
    CHECK(model->stored() == 0);
    CHECK(model->attention().size() == 0);
    CHECK(std::memcmp(fresh->hidden().data(), model->hidden().data(), Hidden * sizeof(q15)) == 0);
    CHECK(std::memcmp(fresh->cell().data(), model->cell().data(), Hidden * sizeof(q15)) == 0);
    CHECK(model->step(nullptr) == sarnn::Status::null_input);
    // and the same run again gives the same bits
    for (std::size_t t = 0; t < Capacity; ++t) {
        REQUIRE(model->step(xs[t].data()) == sarnn::Status::ok);
        REQUIRE(fresh->step(xs[t].data()) == sarnn::Status::ok);
        CHECK(std::memcmp(fresh->hidden().data(), model->hidden().data(), Hidden * sizeof(q15)) == 0);
        CHECK(std::memcmp(fresh->cell().data(), model->cell().data(), Hidden * sizeof(q15)) == 0);
        CHECK(std::memcmp(fresh->attention().data(), model->attention().data(), t * sizeof(q15)) == 0);
    }
    std::vector<q15> hs(Capacity * Hidden);
    model->reset();
    const auto r = model->run(&xs[0][0], 1, hs.data(), sarnn::Emit::cell);  // (one step: xs rows are separate)
    CHECK(r.status == sarnn::Status::ok);
    CHECK(std::memcmp(hs.data(), model->cell().data(), Hidden * sizeof(q15)) == 0);
    CHECK(model->run(&xs[0][0], 1, hs.data(), sarnn::Emit::context).status == sarnn::Status::invalid_argument);
}

TEST_CASE("q15: Lstmn's cell saturates at Q3.12's bound: clamped to +-8, counted by saturated(), the step ok", "[q15]") {
    // no weights, the biases at the top of Q3.12: i, f = sigmoid(8), g = +-tanh(8) (lane 0 up, lane 1 down), o =
    // sigmoid(0). With a Window of one entry c~_t = c_{t-1} exactly, so |c_t| = f·|c_{t-1}| + i·|g| grows by nearly 1
    // a step and passes 8 at the ninth.
    constexpr std::size_t In = 1, Hidden = 2, K = 1;
    using Params = sarnn::LstmnParams<q15, In, Hidden, K>;
    auto p = std::make_unique<Params>();
    std::memset(p.get(), 0, sizeof(Params));
    for (std::size_t r = 0; r < 4 * Hidden; ++r) {
        p->m[r] = std::int32_t{1} << 30;
        p->shift[r] = 9;
    }
    p->m_a[0] = p->m_v = p->x_m = std::int32_t{1} << 30;
    p->shift_a[0] = p->shift_v = 9;
    p->f = 15;
    p->b[0] = p->b[1] = 32767;              // i
    p->b[2] = p->b[3] = 32767;              // f
    p->b[4] = 32767;                        // g, lane 0
    p->b[5] = -32768;                       // g, lane 1
    p->b[6] = p->b[7] = 0;                  // o
    // the reference: the same zero weights and the biases in real units
    ref::LstmnWeights w;
    w.in = In;
    w.hidden = Hidden;
    w.k = K;
    w.W_ih.assign(4 * Hidden, ref::Vec(In, 0.0));
    w.W_hh.assign(4 * Hidden, ref::Vec(Hidden, 0.0));
    for (std::int32_t b : p->b) w.b.push_back(b / 4096.0);
    w.W_h.assign(K, ref::Vec(Hidden, 0.0));
    w.W_x.assign(K, ref::Vec(In, 0.0));
    w.W_ht.assign(K, ref::Vec(Hidden, 0.0));
    w.v.assign(K, 0.0);
    sarnn::Lstmn<q15, In, Hidden, 1, K, sarnn::Window> model(*p);
    ref::Lstmn reference(w, 1);
    const q15 x[In] = {q15{0}};
    std::size_t first_saturated = 0;
    for (std::size_t t = 1; t <= 16; ++t) {
        REQUIRE(model.step(x) == sarnn::Status::ok);
        reference.step(ref::Vec(In, 0.0));
        const double c_ref = reference.cell()[0];
        INFO("step " << t << ": reference c " << c_ref << ", q15 c " << model.cell()[0].raw / 4096.0 << ", "
                     << model.cell()[1].raw / 4096.0 << ", saturated() " << model.saturated());
        CHECK(std::fabs(reference.cell()[1] + c_ref) < 1e-6);  // the lanes mirror each other (b_g 32767 and -32768)
        if (c_ref < 7.99) {
            // below the bound: nothing clamped, c as the reference's (the integer functions' error only)
            CHECK(model.saturated() == 0);
            CHECK(std::fabs(model.cell()[0].raw / 4096.0 - c_ref) <= 0.02);
            CHECK(std::fabs(model.cell()[1].raw / 4096.0 + c_ref) <= 0.02);
        } else if (c_ref > 8.01) {
            // beyond it: c clamped to the ends of Q3.12, both lanes counted each step, h still o·tanh(c)
            if (first_saturated == 0) first_saturated = t;
            CHECK(model.cell()[0].raw == 32767);
            CHECK(model.cell()[1].raw == -32768);
            CHECK(model.saturated() == 2 * (t - first_saturated + 1));
            CHECK(std::fabs(model.hidden()[0].raw / 32768.0 - reference.hidden()[0]) <= 2e-4);
            CHECK(std::fabs(model.hidden()[1].raw / 32768.0 - reference.hidden()[1]) <= 2e-4);
        }
    }
    CHECK(first_saturated > 0);
    model.reset();
    CHECK(model.saturated() == 0);
    const auto fp = std::make_unique<sarnn::LstmnParams<float, In, Hidden, K>>();
    const sarnn::Lstmn<float, In, Hidden, 1, K, sarnn::Window> never(*fp);
    CHECK(never.saturated() == 0);
}

TEST_CASE("q15: Lstmn quantised from float weights stays within 0.02 of float over 64 steps (reference sizes)",
          "[q15]") {
    constexpr std::size_t In = 16, Hidden = 32, Capacity = 64, K = 16;
    double worst = 0.0;
    for (std::uint32_t seed = 200; seed < 205; ++seed) {
        const double x_scale = 1.0 / 32768.0;  // inputs uniform in [-1, 1)
        const QuantisedLstmn<In, Hidden, K> ql(seed, x_scale);
        auto fp = std::make_unique<sarnn::LstmnParams<float, In, Hidden, K>>();
        const ref::LstmnWeights& o = ql.original;
        for (std::size_t r = 0; r < 4 * Hidden; ++r) {
            for (std::size_t k = 0; k < In; ++k) fp->W_ih[r][k] = static_cast<float>(o.W_ih[r][k]);
            for (std::size_t k = 0; k < Hidden; ++k) fp->W_hh[r][k] = static_cast<float>(o.W_hh[r][k]);
            fp->b[r] = static_cast<float>(o.b[r]);
        }
        for (std::size_t k = 0; k < K; ++k) {
            for (std::size_t j = 0; j < Hidden; ++j) fp->W_h[k][j] = static_cast<float>(o.W_h[k][j]);
            for (std::size_t j = 0; j < In; ++j) fp->W_x[k][j] = static_cast<float>(o.W_x[k][j]);
            for (std::size_t j = 0; j < Hidden; ++j) fp->W_ht[k][j] = static_cast<float>(o.W_ht[k][j]);
            fp->v[k] = static_cast<float>(o.v[k]);
        }
        auto q = std::make_unique<sarnn::Lstmn<q15, In, Hidden, Capacity, K>>(*ql.p);
        auto f = std::make_unique<sarnn::Lstmn<float, In, Hidden, Capacity, K>>(*fp);
        worst = std::max(worst, worst_against_float<In, Hidden>(*q, *f, seed + 1, x_scale));
    }
    INFO("worst |h_q15 - h_float| over 5 models x 64 steps: " << worst);
    CHECK(worst <= 0.02);
}

TEST_CASE("q15: Lstmn's RAM at the reference sizes is at most 55% of float's (rows of 16 bytes or less)", "[q15]") {
    using Q = sarnn::Lstmn<q15, 16, 32, 64, 16>;
    using F = sarnn::Lstmn<float, 16, 32, 64, 16>;
    INFO("sizeof q15 " << sizeof(Q) << ", float " << sizeof(F) << ", rows padded to " << sarnn::row_bytes() << " bytes");
    // Cortex-M and the 16-byte vector targets (ARM): 50%. Where rows are padded to a wider vector (x86-64: 64 bytes)
    // the K = 16 keys of int16 fill half a row, and q15 takes 60%.
    if constexpr (sarnn::row_bytes() <= 16)
        CHECK(sizeof(Q) * 100 <= sizeof(F) * 55);
    else
        CHECK(sizeof(Q) * 100 <= sizeof(F) * 60);
}

TEST_CASE("q15: the additive scores' tanh of a sum of two int16 is tanh_q15 of the sum saturated to int16", "[q15]") {
    // kernels/q15/tanh.hpp: tanh_wide is tanh_q15's one definition, and takes P_j,k + q_k unsaturated
    for (std::int32_t z = -65536; z <= 65536; ++z) {
        const auto zs = static_cast<std::int16_t>(z > 32767 ? 32767 : (z < -32768 ? -32768 : z));
        REQUIRE(sarnn::fixed::detail::tanh_wide(z) == sarnn::fixed::tanh_q15(zs));
    }
}

TEST_CASE("q15: the additive scores' table words give tanh_q15 of every sum of two int16, saturated", "[q15]") {
    // kernels/q15/tanh_words.hpp: the ARMv6-M loop's tanh, one word per 64 LSB of the sum (z = P_j,k + q_k)
    for (std::int32_t z = -65536; z <= 65534; ++z) {
        const auto zs = static_cast<std::int16_t>(z > 32767 ? 32767 : (z < -32768 ? -32768 : z));
        REQUIRE(sarnn::fixed::detail::tanh_from_words(z) == sarnn::fixed::tanh_q15(zs));
    }
}

namespace {

/// acc·m / 2^(31 + shift) rounded half up, saturated to int32, in 64 bits (shift -31 to 31)
std::int64_t requantize_ref(std::int64_t acc, std::int64_t m, int shift) {
    const int s = 31 + shift;
    const std::int64_t p = acc * m;
    const std::int64_t q = s == 0 ? p : (p + (std::int64_t{1} << (s - 1))) >> s;  // arithmetic: a floor
    return std::max<std::int64_t>(INT32_MIN, std::min<std::int64_t>(INT32_MAX, q));
}

}  // namespace

TEST_CASE("q15: affine's rows with the input factor a power of two (x_m = 2^30, every x_shift), against int64",
          "[q15]") {
    // kernels_q15.hpp's affine, row by row in int64: the exporter's x_m is 2^30 (x_scale is a power of two), which
    // q15.cpp takes by a shift; the other rows' factors and the biases at random, the inputs to their extremes
    constexpr std::size_t kRowsN = 7, kNx = 9, kNr = 6;
    std::mt19937 rng(1234);
    std::uniform_int_distribution<int> w8(-128, 127), v16(-32768, 32767), sh(-1, 14);
    std::uniform_int_distribution<std::int32_t> mul(std::int32_t{1} << 30, INT32_MAX), bias(-70000, 70000);
    std::int8_t A_x[kRowsN * kNx], A_r[kRowsN * kNr];
    std::int32_t b[kRowsN], m[kRowsN];
    std::int8_t shift[kRowsN];
    q15 x[kNx], r[kNr], z[kRowsN];
    int mismatches = 0, checked = 0;
    for (int x_shift = -31; x_shift <= 30; ++x_shift) {
        for (int trial = 0; trial < 40; ++trial) {
            // trial 0 and 1: every weight and input at its extreme, of one sign and of alternating signs
            for (std::size_t k = 0; k < kRowsN * kNx; ++k)
                A_x[k] = static_cast<std::int8_t>(trial < 2 ? -128 : w8(rng));
            for (std::size_t k = 0; k < kRowsN * kNr; ++k)
                A_r[k] = static_cast<std::int8_t>(trial < 2 ? -128 : w8(rng));
            for (std::size_t k = 0; k < kNx; ++k)
                x[k] = q15{static_cast<std::int16_t>(trial == 0 ? -32768 : (trial == 1 ? (k % 2 ? 32767 : -32768) : v16(rng)))};
            for (std::size_t k = 0; k < kNr; ++k)
                r[k] = q15{static_cast<std::int16_t>(trial < 2 ? -32768 : v16(rng))};
            for (std::size_t k = 0; k < kRowsN; ++k) {
                b[k] = bias(rng);
                m[k] = mul(rng);
                shift[k] = static_cast<std::int8_t>(sh(rng));
            }
            const sarnn::QGates g{A_x, A_r, b, m, shift, std::int32_t{1} << 30, x_shift};
            sarnn::kernel::Q15::affine(g, kRowsN, x, kNx, r, kNr, z);
            for (std::size_t row = 0; row < kRowsN; ++row) {
                std::int64_t s_x = 0, s_r = 0;
                for (std::size_t k = 0; k < kNx; ++k) s_x += A_x[row * kNx + k] * x[k].raw;
                for (std::size_t k = 0; k < kNr; ++k) s_r += A_r[row * kNr + k] * r[k].raw;
                const std::int64_t xq = std::max<std::int64_t>(
                    -(std::int64_t{1} << 30),
                    std::min<std::int64_t>(std::int64_t{1} << 30, requantize_ref(s_x, std::int64_t{1} << 30, x_shift)));
                const std::int64_t pre = requantize_ref(xq + s_r, m[row], shift[row]) + b[row];
                const std::int64_t want = std::max<std::int64_t>(-32768, std::min<std::int64_t>(32767, pre));
                mismatches += z[row].raw != want;
                ++checked;
            }
        }
    }
    CHECK(checked == 62 * 40 * 7);
    CHECK(mismatches == 0);
}
