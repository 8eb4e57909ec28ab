// tests/test_non_finite_result.cpp: the overflow policy. A finite x whose step would overflow (A·[x; r] + b is
// inf - inf, an align query so large that a score could overflow, a gate pre-activation or key that is NaN) is
// refused with Status::non_finite_result and changes nothing; no step that returns ok leaves a NaN or Inf in any
// view (h, c, alpha, the LSTMN's cell and s) or in the memory. For every model, align and memory, float and
// double, on every kernel set:
//  - weights up to the largest finite value (every array of every params type), and the case reported from
//    outside (A[r][k] = 3·cos(31r + k), inputs of ±3e38);
//  - inputs at ±max, ±1e38 (±1e308 for double), mixed signs, alternating, one huge value among usual ones,
//    interleaved with usual inputs, over several times the capacity (a Window wraps, a Bounded memory fills,
//    is reset and fills again);
//  - each refused step leaves every view bit-identical, and the model then goes on bit-identical to a twin that
//    was only given the steps that were taken (so nothing hidden changed either).
// And the kernels themselves saturate: tanh(±inf) = ±1, σ(±inf) = 1 or 0, exp of a score max/4 below the max
// is 0, on every set.
#include <catch2/catch.hpp>

#include <sarnn/sarnn.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "family_support.hpp"
#include "support.hpp"

namespace {

// ---- weights ------------------------------------------------------------------------------------------------
enum class Scale {
    usual,    ///< uniform ±3 (as in the case reported): ±max inputs overflow A·x, usual ones do not
    largest,  ///< magnitudes in [max/4, max], random signs
};

template <class T>
T draw(Scale s, std::mt19937& g) {
    const double sign = test::random_sign(g);
    if (s == Scale::largest) return static_cast<T>(sign * test::uniform(g, 0.25, 1.0)) * std::numeric_limits<T>::max();
    return static_cast<T>(sign * test::uniform(g, 0.0, 3.0));
}
/// Every weight of any params aggregate, array by array in declaration order.
template <class P>
void fill_params(P& p, Scale s, std::mt19937& g) {
    (void)sarnn::for_each_array(p, [&](const char*, auto* a, std::size_t n) {
        using T = std::remove_pointer_t<decltype(a)>;
        for (std::size_t k = 0; k < n; ++k) a[k] = draw<T>(s, g);
        return false;
    });
}
inline void fill_params(fam::NoParams&, Scale, std::mt19937&) {}

// ---- inputs ---------------------------------------------------------------------------------------------------
/// A stream of n inputs: usual ones (uniform ±1) and, at most steps, one of the extreme patterns.
template <class T>
std::vector<std::vector<T>> extreme_stream(std::size_t n, std::size_t in, std::uint32_t seed) {
    using L = std::numeric_limits<T>;
    const T huge = static_cast<T>(sizeof(T) == 4 ? 1e38 : 1e308);
    std::mt19937 g(seed);
    std::vector<std::vector<T>> xs(n, std::vector<T>(in));
    for (std::size_t i = 0; i < n; ++i) {
        auto& x = xs[i];
        for (T& v : x) v = static_cast<T>(test::uniform(g, -1.0, 1.0));
        switch (i % 8) {
        case 0: break;  // usual
        case 1:
            for (T& v : x) v = L::max();
            break;
        case 2:
            for (T& v : x) v = -L::max();
            break;
        case 3:
            for (std::size_t k = 0; k < in; ++k) x[k] = k % 2 ? -L::max() : L::max();
            break;
        case 4:
            for (std::size_t k = 0; k < in; ++k) x[k] = k % 2 ? huge : -huge;
            break;
        case 5:
            for (T& v : x) v = static_cast<T>(test::random_sign(g)) * (g() % 2 ? L::max() : huge);
            break;
        case 6: x[g() % in] = g() % 2 ? L::max() : -L::max(); break;
        default: break;  // usual
        }
    }
    return xs;
}

// ---- the property ---------------------------------------------------------------------------------------------
template <class T>
bool finite(const sarnn::View<T>& v) {
    for (T x : v)
        if (!std::isfinite(x)) return false;
    return true;
}
template <class T, std::size_t In, std::size_t Hidden>
bool views_finite(const sarnn::SimpleRnn<T, In, Hidden>& m) {
    return finite(m.hidden());
}
template <class T, std::size_t In, std::size_t Hidden, std::size_t Capacity, class Align, class Memory>
bool views_finite(const sarnn::SelfAttentionRnn<T, In, Hidden, Capacity, Align, Memory>& m) {
    return finite(m.hidden()) && finite(m.context()) && finite(m.attention());
}
template <class T, std::size_t In, std::size_t Hidden, std::size_t Capacity, std::size_t K, class Memory>
bool views_finite(const sarnn::Lstmn<T, In, Hidden, Capacity, K, Memory>& m) {
    return finite(m.hidden()) && finite(m.cell()) && finite(m.attention());
}
struct Outcome {
    std::size_t taken = 0, refused = 0;
};

/// Steps `model` and its `twin` through xs: a refused step must say non_finite_result (memory_full only when a
/// Bounded memory is full: then both are reset) and change no view; a taken step must leave every view finite,
/// and the twin, given only the taken steps, must take it too and show the same bytes.
template <class Model>
Outcome check_stream(Model& model, Model& twin, const std::vector<std::vector<typename Model::value_type>>& xs,
                     std::string& problem) {
    Outcome out;
    for (std::size_t i = 0; i < xs.size() && problem.empty(); ++i) {
        const auto before = fam::state_bytes(model);
        const sarnn::Status s = model.step(xs[i].data());
        const std::string at = "step " + std::to_string(i) + " (pattern " + std::to_string(i % 8) + ")";
        if (s == sarnn::Status::memory_full) {
            if (fam::state_bytes(model) != before) problem = at + ": memory_full changed the state";
            model.reset();
            twin.reset();
            continue;
        }
        if (s != sarnn::Status::ok) {
            ++out.refused;
            if (s != sarnn::Status::non_finite_result)
                problem = at + ": status " + sarnn::to_string(s);
            else if (fam::state_bytes(model) != before)
                problem = at + ": refused, but a view changed";
            continue;
        }
        ++out.taken;
        if (!views_finite(model)) problem = at + ": ok, but a view holds NaN or Inf";
        const sarnn::Status t = twin.step(xs[i].data());
        if (t != sarnn::Status::ok || fam::state_bytes(twin) != fam::state_bytes(model))
            problem = at + ": differs from the twin that never saw the refused steps";
    }
    return out;
}

/// Both scales of the model's weights, with the align or LSTMN params at both scales as well, on every set.
/// Every scale: the property over a stream; with usual weights the usual inputs between the extreme ones are
/// taken. Then one input that must be refused on every set.
template <class Model, class Make>
void check_model(const Make& make, std::size_t steps, std::uint32_t seed, const std::string& label) {
    using T = typename Model::value_type;
    const auto xs = extreme_stream<T>(steps, Model::in_size, seed);
    for (Scale main_scale : {Scale::usual, Scale::largest}) {
        for (Scale other_scale : {Scale::usual, Scale::largest}) {
            INFO(label << ", weights " << (main_scale == Scale::largest ? "largest" : "usual") << ", other params "
                       << (other_scale == Scale::largest ? "largest" : "usual"));
            test::for_each_arch([&](sarnn::Arch) {
                auto kit = make(main_scale, other_scale, seed + 1);
                auto model = kit.make();
                auto twin = kit.make();
                std::string problem;
                const Outcome o = check_stream(*model, *twin, xs, problem);
                INFO("first problem: " << problem << "; taken " << o.taken << ", refused " << o.refused);
                CHECK(problem.empty());
                if (main_scale == Scale::usual && other_scale == Scale::usual) CHECK(o.taken > 0);
            });
        }
    }
    // Whether a ±max input overflows into NaN (refused) or only into ±inf (tanh gives ±1) depends on the set's
    // summation order: with fused multiply-adds the products are exact and one accumulator that reached +inf
    // stays there (the compiler fuses even the scalar set's loops on AArch64). So x-weights of 2 and
    // x = (max, -max, ...) must be refused with nothing changed, or taken with finite views; and the model goes
    // on. (The reported case above must be refused on every set.)
    test::for_each_arch([&](sarnn::Arch) {
        auto kit = make(Scale::usual, Scale::usual, seed + 2);
        kit.poison_x_weights();
        auto model = kit.make();
        const auto usual = extreme_stream<T>(1, Model::in_size, seed + 3)[0];
        std::vector<T> bad(Model::in_size);
        for (std::size_t k = 0; k < bad.size(); ++k)
            bad[k] = k % 2 ? -std::numeric_limits<T>::max() : std::numeric_limits<T>::max();
        for (int i = 0; i < 3; ++i) {
            const auto before = fam::state_bytes(*model);
            if (Model::in_size >= 2) {
                INFO(label << ": x = (max, -max, ...) after " << i << " steps");
                const sarnn::Status s = model->step(bad.data());
                if (s == sarnn::Status::ok) {
                    CHECK(views_finite(*model));
                    model->reset();
                } else {
                    CHECK(s == sarnn::Status::non_finite_result);
                    CHECK(fam::state_bytes(*model) == before);
                }
            }
            REQUIRE(model->step(usual.data()) == sarnn::Status::ok);
            CHECK(views_finite(*model));
        }
    });
}

// ---- kits: params (on the heap) and a model maker -----------------------------------------------------------
template <class T, std::size_t In, std::size_t Hidden>
struct SimpleKit {
    using Model = sarnn::SimpleRnn<T, In, Hidden>;
    std::unique_ptr<sarnn::RnnParams<T, In, Hidden>> p = std::make_unique<sarnn::RnnParams<T, In, Hidden>>();
    SimpleKit(Scale s, Scale, std::uint32_t seed) {
        std::mt19937 g(seed);
        fill_params(*p, s, g);
    }
    std::unique_ptr<Model> make() const { return std::make_unique<Model>(*p); }
    void poison_x_weights() {
        for (auto& row : p->A)
            for (std::size_t k = 0; k < In; ++k) row[k] = T(2);
    }
};

template <class T, std::size_t In, std::size_t Hidden, std::size_t Capacity, class Align, class Memory>
struct SarKit {
    using Model = sarnn::SelfAttentionRnn<T, In, Hidden, Capacity, Align, Memory>;
    using AlignKit = fam::AlignKit<Align>;
    using AlignParams = typename AlignKit::template Params<T, Hidden>;
    std::unique_ptr<sarnn::RnnParams<T, In, Hidden>> p = std::make_unique<sarnn::RnnParams<T, In, Hidden>>();
    std::unique_ptr<AlignParams> ap = std::make_unique<AlignParams>();
    SarKit(Scale s, Scale align_scale, std::uint32_t seed) {
        std::mt19937 g(seed);
        fill_params(*p, s, g);
        fill_params(*ap, align_scale, g);
    }
    std::unique_ptr<Model> make() const {
        if constexpr (AlignKit::has_params)
            return std::make_unique<Model>(*p, *ap);
        else
            return std::make_unique<Model>(*p);
    }
    void poison_x_weights() {
        for (auto& row : p->A)
            for (std::size_t k = 0; k < In; ++k) row[k] = T(2);
    }
};

template <class T, std::size_t In, std::size_t Hidden, std::size_t Capacity, std::size_t K, class Memory>
struct LstmnKit {
    using Model = sarnn::Lstmn<T, In, Hidden, Capacity, K, Memory>;
    using Params = sarnn::LstmnParams<T, In, Hidden, K>;
    std::unique_ptr<Params> p = std::make_unique<Params>();
    LstmnKit(Scale s, Scale attention_scale, std::uint32_t seed) {
        std::mt19937 g(seed);
        fill_params(*p, s, g);
        // the attention's arrays at their own scale
        Params other{};
        fill_params(other, attention_scale, g);
        std::copy(&other.W_h[0][0], &other.W_h[0][0] + K * Hidden, &p->W_h[0][0]);
        std::copy(&other.W_x[0][0], &other.W_x[0][0] + K * In, &p->W_x[0][0]);
        std::copy(&other.W_ht[0][0], &other.W_ht[0][0] + K * Hidden, &p->W_ht[0][0]);
        std::copy(&other.v[0], &other.v[0] + K, &p->v[0]);
    }
    std::unique_ptr<Model> make() const { return std::make_unique<Model>(*p); }
    void poison_x_weights() {
        for (auto& row : p->W_ih)
            for (T& w : row) w = T(2);
    }
};

template <class Kit>
auto kit_maker() {
    return [](Scale a, Scale b, std::uint32_t seed) { return Kit(a, b, seed); };
}

template <class T, std::size_t In, std::size_t Hidden>
void check_simple(std::uint32_t seed) {
    check_model<typename SimpleKit<T, In, Hidden>::Model>(kit_maker<SimpleKit<T, In, Hidden>>(), 48, seed, "SimpleRnn");
}
template <class T, std::size_t In, std::size_t Hidden, std::size_t Capacity, class Align, class Memory>
void check_sar(std::uint32_t seed) {
    using Kit = SarKit<T, In, Hidden, Capacity, Align, Memory>;
    check_model<typename Kit::Model>(kit_maker<Kit>(), 4 * Capacity + 16, seed,
                                     fam::Sar<T, In, Hidden, Capacity, Align, Memory>::label());
}
template <class T, std::size_t In, std::size_t Hidden, std::size_t Capacity, std::size_t K, class Memory>
void check_lstmn(std::uint32_t seed) {
    using Kit = LstmnKit<T, In, Hidden, Capacity, K, Memory>;
    check_model<typename Kit::Model>(kit_maker<Kit>(), 4 * Capacity + 16, seed,
                                     "Lstmn<" + std::string(sizeof(T) == 4 ? "float" : "double") + ", K " +
                                         std::to_string(K) + ", " +
                                         fam::memory_name(std::is_same_v<Memory, sarnn::Window>) + ">");
}

}  // namespace

TEST_CASE("The reported case: a finite input that overflows A·[x; c] + b is refused and the model goes on",
          "[non_finite_result]") {
    // SelfAttentionRnn<float, 7, 19, 40, ScaledDotAlign>, A[r][k] = 3·cos(31r + k), x = ±3e38 alternating
    using M = sarnn::SelfAttentionRnn<float, 7, 19, 40, sarnn::ScaledDotAlign>;
    auto p = std::make_unique<M::Params>();
    for (std::size_t r = 0; r < 19; ++r) {
        for (std::size_t k = 0; k < 7 + 19; ++k)
            p->A[r][k] = static_cast<float>(3.0 * std::cos(31.0 * static_cast<double>(r) + static_cast<double>(k)));
        p->b[r] = 0.0f;
    }
    std::array<float, 7> bad{}, usual{};
    for (std::size_t k = 0; k < 7; ++k) {
        bad[k] = k % 2 ? -3e38f : 3e38f;
        usual[k] = 0.1f * static_cast<float>(k) - 0.3f;
    }
    test::for_each_arch([&](sarnn::Arch) {
        auto m = std::make_unique<M>(*p);
        auto twin = std::make_unique<M>(*p);
        for (int i = 0; i < 5; ++i) {
            REQUIRE(m->step(usual) == sarnn::Status::ok);
            REQUIRE(twin->step(usual) == sarnn::Status::ok);
            const auto before = fam::state_bytes(*m);
            CHECK(m->step(bad) == sarnn::Status::non_finite_result);
            CHECK(fam::state_bytes(*m) == before);
        }
        CHECK(std::string(sarnn::to_string(sarnn::Status::non_finite_result)) == "non_finite_result");
        REQUIRE(m->step(usual) == sarnn::Status::ok);
        REQUIRE(twin->step(usual) == sarnn::Status::ok);
        CHECK(fam::state_bytes(*m) == fam::state_bytes(*twin));
        CHECK(views_finite(*m));
    });
}

TEST_CASE("No step that returns ok leaves NaN or Inf, for any finite input and weights", "[non_finite_result]") {
    SECTION("SimpleRnn") {
        check_simple<float, 7, 19>(100);
        check_simple<double, 3, 17>(101);
        check_simple<float, 1, 1>(102);
    }
    SECTION("SelfAttentionRnn, every align, Bounded and Window") {
        check_sar<float, 7, 19, 5, sarnn::ScaledDotAlign, sarnn::Bounded>(110);
        check_sar<double, 3, 5, 3, sarnn::ScaledDotAlign, sarnn::Window>(111);
        check_sar<float, 3, 7, 4, sarnn::DotAlign, sarnn::Window>(112);
        check_sar<double, 1, 33, 3, sarnn::DotAlign, sarnn::Bounded>(113);
        check_sar<float, 3, 17, 4, sarnn::BilinearAlign, sarnn::Bounded>(114);
        check_sar<double, 2, 5, 3, sarnn::BilinearAlign, sarnn::Window>(115);
        check_sar<float, 7, 5, 3, sarnn::KeyQueryAlign<7>, sarnn::Window>(116);
        check_sar<double, 1, 33, 4, sarnn::KeyQueryAlign<5>, sarnn::Bounded>(117);  // keys cached (4·K <= Hidden)
        check_sar<float, 3, 17, 4, sarnn::KeyQueryAlign<3>, sarnn::Window>(121);    // keys cached
        check_sar<double, 2, 7, 3, sarnn::KeyQueryAlign<7, sarnn::KeyQueryPlan::cache>, sarnn::Window>(122);
        check_sar<float, 2, 7, 3, sarnn::KeyQueryAlign<1, sarnn::KeyQueryPlan::fold>, sarnn::Bounded>(123);
        check_sar<float, 3, 7, 4, sarnn::AdditiveAlign<5>, sarnn::Window>(118);
        check_sar<double, 2, 17, 3, sarnn::AdditiveAlign<1>, sarnn::Bounded>(119);
        check_sar<float, 1, 3, 2, sarnn::AdditiveAlign<33>, sarnn::Window>(120);
    }
    SECTION("Lstmn, Bounded and Window") {
        check_lstmn<float, 3, 7, 4, 5, sarnn::Bounded>(130);
        check_lstmn<float, 1, 5, 3, 17, sarnn::Window>(131);
        check_lstmn<double, 7, 17, 3, 1, sarnn::Window>(132);
        check_lstmn<double, 3, 1, 4, 7, sarnn::Bounded>(133);
    }
}

TEST_CASE("Kernels saturate: tanh(±inf) = ±1, σ(±inf) in {0, 1}, huge scores give finite weights",
          "[non_finite_result][kernels]") {
    auto check_set = [](auto zero) {
        using T = decltype(zero);
        using L = std::numeric_limits<T>;
        const T inf = L::infinity();
        test::for_each_arch([&](sarnn::Arch a) {
            const test::Ops<T> k = test::ops_for<T>(a);
            REQUIRE(k.gemv != nullptr);
            // tanh
            for (std::size_t n : {1u, 3u, 7u, 17u, 33u}) {
                std::vector<T> y(n);
                for (std::size_t i = 0; i < n; ++i) y[i] = i % 3 == 0 ? inf : i % 3 == 1 ? -inf : L::max();
                k.tanh(y.data(), n);
                for (std::size_t i = 0; i < n; ++i) CHECK(y[i] == (i % 3 == 1 ? T(-1) : T(1)));
            }
            // affine_tanh: a pre-activation of +-inf (no inf - inf) gives +-1
            {
                constexpr std::size_t rows = 7, nx = 3, nr = 5;
                std::vector<T> A(rows * (nx + nr), T(1));
                std::vector<T> b(rows, T(0));
                alignas(64) T r[64] = {};
                alignas(64) T y[64] = {};
                const T x[nx] = {L::max(), L::max(), L::max()};
                k.affine_tanh(A.data(), b.data(), rows, x, nx, r, nr, y);
                for (std::size_t i = 0; i < rows; ++i) CHECK(y[i] == T(1));
                const T xm[nx] = {-L::max(), -L::max(), -L::max()};
                k.affine_tanh(A.data(), b.data(), rows, xm, nx, r, nr, y);
                for (std::size_t i = 0; i < rows; ++i) CHECK(y[i] == T(-1));
            }
            // lstm_cell: z = ±inf saturates every gate
            for (std::size_t H : {1u, 3u, 17u}) {
                std::vector<T> z(4 * H), b(4 * H, T(0));
                for (std::size_t i = 0; i < 4 * H; ++i) z[i] = (i / H) % 2 ? -inf : inf;  // i, g: +inf; f, o: -inf
                alignas(64) T c_prev[64] = {}, c[64] = {}, h[64] = {};
                for (std::size_t d = 0; d < H; ++d) c_prev[d] = T(0.5);
                k.lstm_cell(z.data(), b.data(), c_prev, H, c, h);
                for (std::size_t d = 0; d < H; ++d) {
                    CHECK(c[d] == T(1));  // f = 0, i = 1, g = 1
                    CHECK(h[d] == T(0));  // o = 0
                }
            }
            // softmax and attend_dot: scores a quarter of the max apart give weights 1 and 0
            {
                const T big = sarnn::detail::score_limit<T>();
                std::vector<T> e = {big, -big, T(0), -big, big / T(2)};
                k.softmax(e.data(), e.size());
                CHECK(e[0] == T(1));
                for (std::size_t i = 1; i < e.size(); ++i) CHECK(e[i] == T(0));
                constexpr std::size_t dim = 3, n = 37;
                constexpr std::size_t stride = sarnn::padded<T>(dim);
                alignas(64) T S[n * 16] = {};
                for (std::size_t j = 0; j < n; ++j)
                    for (std::size_t d = 0; d < dim; ++d) S[j * stride + d] = (j + d) % 2 ? T(1) : T(-1);
                alignas(64) T q[64] = {}, c[64] = {};
                q[0] = big / T(2);
                q[1] = -big / T(2);
                std::vector<T> alpha(n);
                k.attend_dot(sarnn::Rows<T>{S, stride, dim, n, 5, n}, q, T(1), alpha.data(), c);
                T sum = 0;
                for (T w : alpha) {
                    CHECK(std::isfinite(w));
                    sum += w;
                }
                CHECK(sum == Approx(1.0));
                for (std::size_t d = 0; d < dim; ++d) CHECK(std::isfinite(c[d]));
            }
            // additive_scores: P_j + q = ±inf gives v·(±1)
            {
                constexpr std::size_t K = 5, n = 3;
                constexpr std::size_t stride = sarnn::padded<T>(K);
                alignas(64) T P[n * 16] = {};
                for (std::size_t j = 0; j < n; ++j)
                    for (std::size_t d = 0; d < K; ++d) P[j * stride + d] = L::max();
                alignas(64) T q[64] = {};
                for (std::size_t d = 0; d < K; ++d) q[d] = L::max();
                const T v[K] = {1, 2, 3, 4, 5};
                std::vector<T> e(n);
                k.additive_scores(sarnn::Rows<T>{P, stride, K, n, 0, n}, q, v, e.data());
                for (T s : e) CHECK(s == T(15));
            }
        });
    };
    check_set(0.0f);
    check_set(0.0);
}
