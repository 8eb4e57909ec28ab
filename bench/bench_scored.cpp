// bench/bench_scored.cpp: the per-step benchmarks and the agreement check of the parameterised aligns and the
// LSTM-network, Hidden = 64, In = 32, K = 16, float, Capacity = 4096.
//
//   step/<align>/H64/<variant>/n:<n>      align: bilinear, keyquery16, additive16
//     One SelfAttentionRnn step() when the memory already holds n-1 states, as step/dot (dot_families.hpp).
//     keyquery16 is KeyQueryAlign<16> as sarnn picks it (keys cached, 4·K <= Hidden); keyquery16_fold the same
//     with Wk folded into the query (KeyQueryPlan::fold), ours only.
//   step/keyquery<K>[_cache|_fold]/H64/<variant>/n:<256|1024>, K = 24, 32, 64, 96: the crossover between the two
//     key/query plans; keyquery<K> is the plan sarnn picks (with its peers), the suffixed one the other plan
//     forced (ours only).
//     Ours: the model's own step() (OursStep, ours.hpp); a model loaded so steps as one that took every step
//     (verified).
//     Flops: flops_step_bilinear / flops_step_keyquery / flops_step_additive (common.hpp). Items: n.
//
//   step/lstmn16/H64/<variant>/n:<n>
//     One Lstmn step() when the tapes already hold n-1 entries (it attends over them and writes entry n;
//     at n = 1 the tapes are empty and the step is the LSTM cell alone). Ours: the model's own step()
//     (OursLstmn, ours.hpp); loaded so, it steps as a model that took every step (verified). Flops: flops_step_lstmn. Items: n.
//
// n = 1, 4, 16, ..., 4096 (powers of four: the fit needs no more points and the run stays short), fitted
// with Complexity(oN). Peers: naive_scored.hpp (plain loops) and eigen_scored.hpp (Eigen 3.4).
#include "dot_families.hpp"  // first: it includes eigen_dot.hpp before any other Eigen header

#include "eigen_scored.hpp"
#include "naive_scored.hpp"

namespace sarnn_bench {

extern template const Problem<kAttnHidden>& problem<kAttnHidden>();

namespace {

constexpr std::size_t H = kAttnHidden;
constexpr std::size_t K = kAttnK;
constexpr int kH = static_cast<int>(H), kK = static_cast<int>(K), kI = static_cast<int>(kIn),
              kCap = static_cast<int>(kCapacity);

// ---- problem data -----------------------------------------------------------------------------------------
struct AttnProblem {
    sarnn::BilinearParams<float, H> bilinear;     ///< W uniform in ±1/sqrt(Hidden)
    sarnn::KeyQueryParams<float, H, K> keyquery;  ///< Wk, Wq uniform in ±1/sqrt(Hidden)
    sarnn::AdditiveParams<float, H, K> additive;  ///< W uniform in ±1/sqrt(2·Hidden), v in ±1/sqrt(K)
    sarnn::LstmnParams<float, kIn, H, K> lstmn;   ///< gates ±1/sqrt(Hidden) (PyTorch's init), attention as additive
    float cells[kCapacity][H];                    ///< synthetic stored cells c_j, uniform in ±1
};

const AttnProblem& attn_problem() {
    static const std::unique_ptr<AttnProblem> p = [] {
        auto q = std::make_unique<AttnProblem>();
        std::mt19937 rng(0xa77e4u);
        const float ah = 1.0f / std::sqrt(static_cast<float>(H)), a2h = 1.0f / std::sqrt(static_cast<float>(2 * H)),
                    ak = 1.0f / std::sqrt(static_cast<float>(K));
        std::uniform_real_distribution<float> uh(-ah, ah), u2h(-a2h, a2h), uk(-ak, ak), u1(-1.0f, 1.0f);
        auto fill = [&](auto& dist, float* v, std::size_t count) {
            for (std::size_t i = 0; i < count; ++i) v[i] = dist(rng);
        };
        fill(uh, &q->bilinear.W[0][0], H * H);
        fill(uh, &q->keyquery.Wk[0][0], K * H);
        fill(uh, &q->keyquery.Wq[0][0], K * H);
        fill(u2h, &q->additive.W[0][0], K * 2 * H);
        fill(uk, q->additive.v, K);
        fill(uh, &q->lstmn.W_ih[0][0], 4 * H * kIn);
        fill(uh, &q->lstmn.W_hh[0][0], 4 * H * H);
        fill(uh, q->lstmn.b, 4 * H);
        fill(uh, &q->lstmn.W_h[0][0], K * H);
        fill(uh, &q->lstmn.W_x[0][0], K * kIn);
        fill(uh, &q->lstmn.W_ht[0][0], K * H);
        fill(uk, q->lstmn.v, K);
        fill(u1, &q->cells[0][0], kCapacity * H);
        return q;
    }();
    return *p;
}

// ---- the three parameterised aligns -------------------------------------------------------------------------
template <class Align>
struct AlignInfo;

template <>
struct AlignInfo<sarnn::BilinearAlign> {
    static constexpr Score score = Score::bilinear;
    static constexpr std::size_t key = K;
    static std::string name() { return kit::AlignTraits<sarnn::BilinearAlign>::slug(); }
    static const auto& params(const AttnProblem& a) { return a.bilinear; }
    static ScoreWeights weights(const AttnProblem& a) {
        ScoreWeights w;
        w.W = &a.bilinear.W[0][0];
        return w;
    }
    static double flops(std::size_t n) { return flops_step_bilinear(n, H); }
};

/// Key/query weights for key widths other than kAttnK (the crossover families), uniform in ±1/sqrt(Hidden).
template <std::size_t KK>
const sarnn::KeyQueryParams<float, H, KK>& keyquery_params(const AttnProblem& a) {
    if constexpr (KK == K) {
        return a.keyquery;
    } else {
        static const std::unique_ptr<sarnn::KeyQueryParams<float, H, KK>> p = [] {
            auto q = std::make_unique<sarnn::KeyQueryParams<float, H, KK>>();
            std::mt19937 rng(0x6b71u + static_cast<unsigned>(KK));
            const float ah = 1.0f / std::sqrt(static_cast<float>(H));
            std::uniform_real_distribution<float> uh(-ah, ah);
            for (auto* m : {&q->Wk, &q->Wq})
                for (auto& row : *m)
                    for (float& v : row) v = uh(rng);
            return q;
        }();
        return *p;
    }
}

// keyquery<K>: the plan sarnn picks (keys cached when 4·K <= Hidden); keyquery<K>_cache / _fold: the other plan,
// forced (ours only: the peers are those of keyquery<K>).
template <std::size_t KK, sarnn::KeyQueryPlan Plan>
struct AlignInfo<sarnn::KeyQueryAlign<KK, Plan>> {
    static constexpr Score score = Score::keyquery;
    static constexpr std::size_t key = KK;
    static std::string name() { return kit::AlignTraits<sarnn::KeyQueryAlign<KK, Plan>>::slug(); }
    static const auto& params(const AttnProblem& a) { return keyquery_params<KK>(a); }
    static ScoreWeights weights(const AttnProblem& a) {
        ScoreWeights w;
        w.Wk = &params(a).Wk[0][0];
        w.Wq = &params(a).Wq[0][0];
        return w;
    }
    static double flops(std::size_t n) { return flops_step_keyquery(n, H, KK); }
};

template <>
struct AlignInfo<sarnn::AdditiveAlign<K>> {
    static constexpr Score score = Score::additive;
    static constexpr std::size_t key = K;
    static std::string name() { return kit::AlignTraits<sarnn::AdditiveAlign<K>>::slug(); }
    static const auto& params(const AttnProblem& a) { return a.additive; }
    static ScoreWeights weights(const AttnProblem& a) {
        ScoreWeights w;
        w.W = &a.additive.W[0][0];
        w.v = a.additive.v;
        return w;
    }
    static double flops(std::size_t n) { return flops_step_additive(n, H, K); }
};

template <class Align>
using ScoredOurs = OursStep<kIn, H, kCapacity, Align>;
template <class Align>
using ScoredModel = sarnn::SelfAttentionRnn<float, kIn, H, kCapacity, Align>;
template <class Align>
using ScoredNaive = NaiveScoredSarnn<kIn, H, kCapacity, AlignInfo<Align>::score, AlignInfo<Align>::key>;
template <class Align>
using ScoredEigen = EigenScoredSarnn<kI, kH, kCap, AlignInfo<Align>::score, static_cast<int>(AlignInfo<Align>::key)>;

using LstmnOurs = OursLstmn<kIn, H, kCapacity, K>;
using LstmnModel = sarnn::Lstmn<float, kIn, H, kCapacity, K>;
using LstmnNaive = NaiveLstmn<kIn, H, kCapacity, K>;
using LstmnEigen = EigenLstmn<kI, kH, kCap, kK>;

template <class Align>
std::unique_ptr<ScoredNaive<Align>> make_scored_naive() {
    const Problem<H>& P = problem<H>();
    return std::make_unique<ScoredNaive<Align>>(&P.params.A[0][0], P.params.b,
                                                AlignInfo<Align>::weights(attn_problem()));
}

/// Calls f(m) with a fresh, heap-allocated step harness of variant v (outside any timed region).
template <class Align, class F>
void with_scored_harness(const Variant& v, F&& f) {
    const Problem<H>& P = problem<H>();
    const AttnProblem& Q = attn_problem();
    switch (v.kind) {
    case Kind::ours: {
        auto m = std::make_unique<ScoredOurs<Align>>(P.params, AlignInfo<Align>::params(Q), v.arch);
        f(*m);
        break;
    }
    case Kind::eigen: {
        auto m = std::make_unique<ScoredEigen<Align>>(&P.params.A[0][0], P.params.b, AlignInfo<Align>::weights(Q));
        f(*m);
        break;
    }
    case Kind::naive: {
        f(*make_scored_naive<Align>());
        break;
    }
    }
}

LstmnNaive::Weights lstmn_weights(const AttnProblem& a) {
    const auto& p = a.lstmn;
    return {&p.W_ih[0][0], &p.W_hh[0][0], p.b, &p.W_h[0][0], &p.W_x[0][0], &p.W_ht[0][0], p.v};
}

template <class F>
void with_lstmn_harness(const Variant& v, F&& f) {
    const AttnProblem& Q = attn_problem();
    switch (v.kind) {
    case Kind::ours: {
        auto m = std::make_unique<LstmnOurs>(Q.lstmn, v.arch);
        f(*m);
        break;
    }
    case Kind::eigen: {
        auto m = std::make_unique<LstmnEigen>(lstmn_weights(Q));
        f(*m);
        break;
    }
    case Kind::naive: {
        auto m = std::make_unique<LstmnNaive>(lstmn_weights(Q));
        f(*m);
        break;
    }
    }
}

/// The tapes hold `rows` entries (h_j, c_j from hs, cs; keys cached), the length is `rows`, h~ = h_tilde.
template <class M>
void prefill_lstmn(M& m, const float (*hs)[H], const float (*cs)[H], std::size_t rows, const float* h_tilde) {
    m.reset();
    for (std::size_t j = 0; j < rows; ++j) m.store(j, hs[j], cs[j]);
    m.set_length(rows);
    m.set_tilde(h_tilde);
}

// ---- benchmark bodies -----------------------------------------------------------------------------------------
template <class Align>
void bm_scored_step(benchmark::State& st, const Variant& v) {
    const auto n = static_cast<std::size_t>(st.range(0));
    const Problem<H>& P = problem<H>();
    with_scored_harness<Align>(v, [&](auto& m) {
        prefill<H>(m, P.states, n - 1, P.c0);
        for (auto _ : st) {
            m.set_length(n - 1);
            m.step(P.x);
            benchmark::DoNotOptimize(m.context());
            benchmark::ClobberMemory();
        }
    });
    finish(st, st.range(0), AlignInfo<Align>::flops(n), st.range(0));
}

void bm_lstmn_step(benchmark::State& st, const Variant& v) {
    const auto n = static_cast<std::size_t>(st.range(0));
    const Problem<H>& P = problem<H>();
    const AttnProblem& Q = attn_problem();
    with_lstmn_harness(v, [&](auto& m) {
        prefill_lstmn(m, P.states, Q.cells, n - 1, P.c0);
        for (auto _ : st) {
            m.set_length(n - 1);
            m.step(P.x);
            benchmark::DoNotOptimize(m.hidden());
            benchmark::ClobberMemory();
        }
    });
    finish(st, st.range(0), flops_step_lstmn(n, H, K), st.range(0));
}

// The grid of n for these families: 1, 4, 16, ..., 4096.
constexpr std::int64_t kMultiplier = 4;

template <class Align>
void register_scored(const std::vector<Variant>& vs, bool ours_only = false) {
    for (const Variant& v : vs)
        if (!ours_only || v.kind == Kind::ours)
            benchmark::RegisterBenchmark(family("step", AlignInfo<Align>::name(), H, v).c_str(),
                                         [v](benchmark::State& st) { bm_scored_step<Align>(st, v); })
                ->RangeMultiplier(kMultiplier)
                ->Range(1, static_cast<std::int64_t>(kCapacity))
                ->ArgName("n")
                ->Complexity(benchmark::oN);
}

/// The key/query crossover at Hidden 64: K = 24, 32, 64, 96 at n = 256 and 1024, the plan sarnn picks with its
/// peers, and the other plan forced (ours only).
template <class Align>
void register_crossover(const std::vector<Variant>& vs, bool ours_only) {
    for (const Variant& v : vs)
        if (!ours_only || v.kind == Kind::ours)
            benchmark::RegisterBenchmark(family("step", AlignInfo<Align>::name(), H, v).c_str(),
                                         [v](benchmark::State& st) { bm_scored_step<Align>(st, v); })
                ->Arg(256)
                ->Arg(1024)
                ->ArgName("n");
}

// ---- agreement check ------------------------------------------------------------------------------------------
constexpr std::size_t kCheckedSteps[] = {1, 2, 3, 17, 100, kVerifySteps};

bool is_checked_step(std::size_t t) {
    for (std::size_t c : kCheckedSteps)
        if (c == t) return true;
    return false;
}

/// Appends " <label> <seq>/<each n>[ (=model)][ FAIL]" to line; returns whether the variant passed.
bool report(std::string& line, const Variant& v, float dseq, float dh, bool same_as_model) {
    const bool v_ok = dseq <= kTolerance && dh <= kTolerance && same_as_model;
    char buf[200];
    std::snprintf(buf, sizeof buf, " %s %.1e/%.1e%s%s", v.label.c_str(), static_cast<double>(dseq),
                  static_cast<double>(dh), v.kind == Kind::ours ? (same_as_model ? " (=model)" : " (!=model)") : "",
                  v_ok ? "" : " FAIL");
    line += buf;
    return v_ok;
}

template <class Align>
bool verify_scored(const std::vector<Variant>& vs) {
    const Problem<H>& P = problem<H>();
    const AttnProblem& Q = attn_problem();
    bool ok = true;
    std::string line = std::string("sarnn_bench: verify ") + AlignInfo<Align>::name() + " H=" + std::to_string(H) +
                       " (max abs diff vs naive, sequence/each n):";

    // The step harness at every benchmarked n, from the same prefilled memory, against the naive loops.
    auto harness_diff = [&](const Variant& v) {
        float d = 0.0f;
        for (std::size_t n = 1; n <= kCapacity; n *= kMultiplier) {
            auto ref = make_scored_naive<Align>();
            with_scored_harness<Align>(v, [&](auto& m) {
                prefill<H>(*ref, P.states, n - 1, P.c0);
                prefill<H>(m, P.states, n - 1, P.c0);
                ref->step(P.x);
                m.step(P.x);
                d = std::fmax(d, outputs_diff<H>(m, *ref));
            });
        }
        return d;
    };

    for (const Variant& v : vs) {
        if (v.kind == Kind::naive) continue;
        float dseq = 0.0f;
        bool same_as_model = true;
        auto ref = make_scored_naive<Align>();
        if (v.kind == Kind::ours) {
            if (sarnn::set_arch(v.arch) != sarnn::Status::ok) return false;
            auto model = std::make_unique<ScoredModel<Align>>(P.params, AlignInfo<Align>::params(Q));
            auto seen = std::make_unique<float[][H]>(kVerifySteps);  // h_1..h_t as the model stored them
            auto harness = std::make_unique<ScoredOurs<Align>>(P.params, AlignInfo<Align>::params(Q), v.arch);
            float c_prev[H] = {};
            for (std::size_t t = 1; t <= kVerifySteps; ++t) {
                ref->step(P.xs[t - 1]);
                if (model->step(P.xs[t - 1]) != sarnn::Status::ok) return false;
                std::memcpy(seen[t - 1], model->hidden().data(), sizeof(float) * H);
                dseq = std::fmax(dseq, max_abs_diff(model->hidden().data(), ref->hidden(), H));
                dseq = std::fmax(dseq, max_abs_diff(model->context().data(), ref->context(), H));
                dseq = std::fmax(dseq, max_abs_diff(model->attention().data(), ref->attention(), t));
                if (model->attention().size() != t) dseq = INFINITY;
                // A second model, loaded (ours.hpp) with the first one's h_1..h_{t-1} (its align caching what
                // the first one's cached) and c_{t-1}, must give exactly its step t.
                if (is_checked_step(t)) {
                    prefill<H>(*harness, seen.get(), t - 1, c_prev);
                    harness->step(P.xs[t - 1]);
                    same_as_model = same_as_model &&
                                    std::memcmp(harness->hidden(), model->hidden().data(), sizeof(float) * H) == 0 &&
                                    std::memcmp(harness->context(), model->context().data(), sizeof(float) * H) == 0 &&
                                    std::memcmp(harness->attention(), model->attention().data(), sizeof(float) * t) ==
                                        0;
                }
                std::memcpy(c_prev, model->context().data(), sizeof(float) * H);
            }
        } else {
            auto peer = std::make_unique<ScoredEigen<Align>>(&P.params.A[0][0], P.params.b,
                                                             AlignInfo<Align>::weights(Q));
            for (std::size_t t = 1; t <= kVerifySteps; ++t) {
                ref->step(P.xs[t - 1]);
                peer->step(P.xs[t - 1]);
                dseq = std::fmax(dseq, outputs_diff<H>(*peer, *ref));
            }
        }
        ok = report(line, v, dseq, harness_diff(v), same_as_model) && ok;
    }
    std::fprintf(stderr, "%s\n", line.c_str());
    return ok;
}

/// max difference of h, c and s between two LSTMNs of the same length.
template <class M1, class M2>
float lstmn_diff(const M1& a, const M2& b) {
    if (a.length() != b.length() || a.length() == 0) return INFINITY;
    float d = max_abs_diff(a.hidden(), b.hidden(), H);
    d = std::fmax(d, max_abs_diff(a.cell(), b.cell(), H));
    return std::fmax(d, max_abs_diff(a.attention(), b.attention(), static_cast<std::size_t>(a.length() - 1)));
}

bool verify_lstmn(const std::vector<Variant>& vs) {
    const Problem<H>& P = problem<H>();
    const AttnProblem& Q = attn_problem();
    bool ok = true;
    std::string line = "sarnn_bench: verify lstmn16 H=" + std::to_string(H) +
                       " (max abs diff vs naive, sequence/each n):";
    const float zero[H] = {};

    auto harness_diff = [&](const Variant& v) {
        float d = 0.0f;
        for (std::size_t n = 1; n <= kCapacity; n *= kMultiplier) {
            auto ref = std::make_unique<LstmnNaive>(lstmn_weights(Q));
            with_lstmn_harness(v, [&](auto& m) {
                prefill_lstmn(*ref, P.states, Q.cells, n - 1, P.c0);
                prefill_lstmn(m, P.states, Q.cells, n - 1, P.c0);
                ref->step(P.x);
                m.step(P.x);
                d = std::fmax(d, lstmn_diff(m, *ref));
            });
        }
        return d;
    };

    for (const Variant& v : vs) {
        if (v.kind == Kind::naive) continue;
        float dseq = 0.0f;
        bool same_as_model = true;
        auto ref = std::make_unique<LstmnNaive>(lstmn_weights(Q));
        if (v.kind == Kind::ours) {
            if (sarnn::set_arch(v.arch) != sarnn::Status::ok) return false;
            auto model = std::make_unique<LstmnModel>(Q.lstmn);
            auto seen_h = std::make_unique<float[][H]>(kVerifySteps);  // h_t, c_t as the model stored them
            auto seen_c = std::make_unique<float[][H]>(kVerifySteps);
            auto s_prev = std::make_unique<float[]>(kVerifySteps);  // the attention of step t-1
            auto harness = std::make_unique<LstmnOurs>(Q.lstmn, v.arch);
            for (std::size_t t = 1; t <= kVerifySteps; ++t) {
                // A second model, loaded (ours.hpp) with the first one's tapes h_1..h_{t-1}, c_1..c_{t-1} and
                // its h~_{t-1} (rebuilt with the model's kernel from step t-1's weights: zero before step 3),
                // must give exactly its step t.
                if (is_checked_step(t)) {
                    prefill_lstmn(*harness, seen_h.get(), seen_c.get(), t - 1, zero);
                    if (t >= 3) harness->set_tilde_from(s_prev.get(), t - 2);
                }
                ref->step(P.xs[t - 1]);
                if (model->step(P.xs[t - 1]) != sarnn::Status::ok) return false;
                std::memcpy(seen_h[t - 1], model->hidden().data(), sizeof(float) * H);
                std::memcpy(seen_c[t - 1], model->cell().data(), sizeof(float) * H);
                dseq = std::fmax(dseq, max_abs_diff(model->hidden().data(), ref->hidden(), H));
                dseq = std::fmax(dseq, max_abs_diff(model->cell().data(), ref->cell(), H));
                dseq = std::fmax(dseq, max_abs_diff(model->attention().data(), ref->attention(), t - 1));
                if (model->attention().size() != t - 1) dseq = INFINITY;
                if (is_checked_step(t)) {
                    harness->step(P.xs[t - 1]);
                    same_as_model = same_as_model &&
                                    std::memcmp(harness->hidden(), model->hidden().data(), sizeof(float) * H) == 0 &&
                                    std::memcmp(harness->cell(), model->cell().data(), sizeof(float) * H) == 0 &&
                                    std::memcmp(harness->attention(), model->attention().data(),
                                                sizeof(float) * (t - 1)) == 0;
                }
                if (t - 1 > 0) std::memcpy(s_prev.get(), model->attention().data(), sizeof(float) * (t - 1));
            }
        } else {
            auto peer = std::make_unique<LstmnEigen>(lstmn_weights(Q));
            for (std::size_t t = 1; t <= kVerifySteps; ++t) {
                ref->step(P.xs[t - 1]);
                peer->step(P.xs[t - 1]);
                dseq = std::fmax(dseq, lstmn_diff(*peer, *ref));
            }
        }
        ok = report(line, v, dseq, harness_diff(v), same_as_model) && ok;
    }
    std::fprintf(stderr, "%s\n", line.c_str());
    return ok;
}

}  // namespace

bool verify_attn(const std::vector<Variant>& vs) {
    const sarnn::Arch before = sarnn::active_arch();
    bool ok = verify_scored<sarnn::BilinearAlign>(vs);
    ok = verify_scored<sarnn::KeyQueryAlign<K>>(vs) && ok;
    ok = verify_scored<sarnn::KeyQueryAlign<K, sarnn::KeyQueryPlan::fold>>(vs) && ok;
    ok = verify_scored<sarnn::KeyQueryAlign<24>>(vs) && ok;
    ok = verify_scored<sarnn::KeyQueryAlign<24, sarnn::KeyQueryPlan::cache>>(vs) && ok;
    ok = verify_scored<sarnn::KeyQueryAlign<32>>(vs) && ok;
    ok = verify_scored<sarnn::KeyQueryAlign<32, sarnn::KeyQueryPlan::cache>>(vs) && ok;
    ok = verify_scored<sarnn::KeyQueryAlign<64>>(vs) && ok;
    ok = verify_scored<sarnn::KeyQueryAlign<64, sarnn::KeyQueryPlan::cache>>(vs) && ok;
    ok = verify_scored<sarnn::KeyQueryAlign<96>>(vs) && ok;
    ok = verify_scored<sarnn::KeyQueryAlign<96, sarnn::KeyQueryPlan::cache>>(vs) && ok;
    ok = verify_scored<sarnn::AdditiveAlign<K>>(vs) && ok;
    ok = verify_lstmn(vs) && ok;
    (void)sarnn::set_arch(before);
    return ok;
}

void register_attn(const std::vector<Variant>& vs) {
    register_scored<sarnn::BilinearAlign>(vs);
    register_scored<sarnn::KeyQueryAlign<K>>(vs);
    register_scored<sarnn::KeyQueryAlign<K, sarnn::KeyQueryPlan::fold>>(vs, true);
    register_crossover<sarnn::KeyQueryAlign<24>>(vs, false);
    register_crossover<sarnn::KeyQueryAlign<24, sarnn::KeyQueryPlan::cache>>(vs, true);
    register_crossover<sarnn::KeyQueryAlign<32>>(vs, false);
    register_crossover<sarnn::KeyQueryAlign<32, sarnn::KeyQueryPlan::cache>>(vs, true);
    register_crossover<sarnn::KeyQueryAlign<64>>(vs, false);
    register_crossover<sarnn::KeyQueryAlign<64, sarnn::KeyQueryPlan::cache>>(vs, true);
    register_crossover<sarnn::KeyQueryAlign<96>>(vs, false);
    register_crossover<sarnn::KeyQueryAlign<96, sarnn::KeyQueryPlan::cache>>(vs, true);
    register_scored<sarnn::AdditiveAlign<K>>(vs);
    for (const Variant& v : vs)
        benchmark::RegisterBenchmark(family("step", "lstmn16", H, v).c_str(),
                                     [v](benchmark::State& st) { bm_lstmn_step(st, v); })
            ->RangeMultiplier(kMultiplier)
            ->Range(1, static_cast<std::int64_t>(kCapacity))
            ->ArgName("n")
            ->Complexity(benchmark::oN);
}

}  // namespace sarnn_bench
