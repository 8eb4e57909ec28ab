// tests/test_aligns.cpp: SelfAttentionRnn with the parameterised aligns (BilinearAlign, KeyQueryAlign<K>,
// AdditiveAlign<K>) against the double reference of reference_family.hpp, on every kernel set, float and
// double, Bounded and Window; K and Hidden from {1, 5, 7, 17, 33} (a covering set of pairs: none is a multiple of
// a vector width). Plus: attention sums to 1, c_1 = h_1, full Bounded memory, reset(), align params kept by
// reference, constexpr params, and the cached keys of AdditiveAlign in sizeof.
//
// As in test_self_attention_rnn.cpp: teacher-forced for every weight kind (one step recomputed in double from
// what the model showed), free-running and against the scalar set for the kinds whose dynamics contract.
#include <catch2/catch.hpp>

#include <sarnn/sarnn.hpp>

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "family_support.hpp"
#include "model_checks.hpp"
#include "reference.hpp"
#include "reference_family.hpp"
#include "support.hpp"

namespace {

/// Every weight kind, on every arch (model_checks.hpp): Bounded runs Capacity steps (then must refuse); Window
/// runs 3·Capacity + 2 (wrapping the ring three times).
template <class T, std::size_t In, std::size_t Hidden, std::size_t Capacity, class Align, class Memory>
void check_align(std::uint32_t seed) {
    using S = fam::Sar<T, In, Hidden, Capacity, Align, Memory>;
    const std::size_t steps = S::window ? 3 * Capacity + 2 : Capacity;
    for (test::Weights kind : test::kAllWeights) {
        const std::uint32_t s = seed + 100u * static_cast<std::uint32_t>(kind);
        const S sar(kind, s);
        test::ReferenceCase rc;
        rc.xs = test::to_vecs(test::make_inputs<T>(kind, steps, In, s + 1));
        rc.tol = ref::tol<T>();
        rc.c1_tol = ref::c1_tol<T>();
        rc.free_running = kind != test::Weights::large;
        rc.label = S::label() + ", weights " + test::name(kind);
        test::check_against_reference(sar.factory(), rc);
        CHECK(sar.factory()()->params_address() == sar.params.get());  // a reference, not a copy
    }
}

template <class T, class Memory>
void bilinear_shapes() {
    using A = sarnn::BilinearAlign;
    check_align<T, 1, 1, 3, A, Memory>(2000);
    check_align<T, 2, 5, 8, A, Memory>(2010);
    check_align<T, 3, 7, 12, A, Memory>(2020);
    check_align<T, 1, 17, 6, A, Memory>(2030);
    check_align<T, 2, 33, 9, A, Memory>(2040);
}
template <class T, class Memory>
void key_query_shapes() {
    check_align<T, 1, 5, 7, sarnn::KeyQueryAlign<1>, Memory>(3000);
    check_align<T, 2, 1, 5, sarnn::KeyQueryAlign<5>, Memory>(3010);
    check_align<T, 3, 17, 9, sarnn::KeyQueryAlign<7>, Memory>(3020);
    check_align<T, 1, 33, 6, sarnn::KeyQueryAlign<17>, Memory>(3030);
    check_align<T, 2, 7, 10, sarnn::KeyQueryAlign<33>, Memory>(3040);
    check_align<T, 2, 17, 8, sarnn::KeyQueryAlign<3>, Memory>(3080);  // 4·K <= Hidden: keys cached
    // the plan forced: keys cached for large K, Wk folded for small K
    check_align<T, 1, 3, 7, sarnn::KeyQueryAlign<17, sarnn::KeyQueryPlan::cache>, Memory>(3050);
    check_align<T, 2, 33, 6, sarnn::KeyQueryAlign<7, sarnn::KeyQueryPlan::fold>, Memory>(3060);
    check_align<T, 3, 7, 9, sarnn::KeyQueryAlign<7, sarnn::KeyQueryPlan::cache>, Memory>(3070);
}
template <class T, class Memory>
void additive_shapes() {
    check_align<T, 1, 7, 6, sarnn::AdditiveAlign<1>, Memory>(4000);
    check_align<T, 2, 33, 5, sarnn::AdditiveAlign<5>, Memory>(4010);
    check_align<T, 3, 1, 8, sarnn::AdditiveAlign<7>, Memory>(4020);
    check_align<T, 1, 5, 11, sarnn::AdditiveAlign<17>, Memory>(4030);
    check_align<T, 2, 17, 7, sarnn::AdditiveAlign<33>, Memory>(4040);
}

}  // namespace

TEST_CASE("BilinearAlign matches the reference", "[align][bilinear][reference]") {
    bilinear_shapes<float, sarnn::Bounded>();
    bilinear_shapes<double, sarnn::Bounded>();
    bilinear_shapes<float, sarnn::Window>();
    bilinear_shapes<double, sarnn::Window>();
}
TEST_CASE("KeyQueryAlign<K> matches the reference", "[align][key_query][reference]") {
    key_query_shapes<float, sarnn::Bounded>();
    key_query_shapes<double, sarnn::Bounded>();
    key_query_shapes<float, sarnn::Window>();
    key_query_shapes<double, sarnn::Window>();
}
TEST_CASE("AdditiveAlign<K> matches the reference", "[align][additive][reference]") {
    additive_shapes<float, sarnn::Bounded>();
    additive_shapes<double, sarnn::Bounded>();
    additive_shapes<float, sarnn::Window>();
    additive_shapes<double, sarnn::Window>();
}

TEST_CASE("Align params are kept by reference, not copied", "[align]") {
    // Change the align weights after construction: the next steps must use the new ones.
    constexpr std::size_t In = 2, Hidden = 5, Capacity = 6, K = 3;
    const auto params = test::make_params<float, In, Hidden>(test::Weights::scaled, 11);
    const auto xs = test::make_inputs<float>(test::Weights::scaled, Capacity, In, 12);
    const ref::Weights w = ref::weights_of(*params, In, Hidden);
    auto check = [&](auto& model, auto&& change, const auto& ref_align_after) {
        REQUIRE(model.step(xs[0].data()) == sarnn::Status::ok);
        change();
        ref::SelfAttentionRnn<std::decay_t<decltype(ref_align_after)>> reference(w, ref_align_after);
        test::MaxError err;
        // the first step is the same for any align (c_1 = h_1): start the reference from it
        reference.step(test::to_vec(xs[0]));
        for (std::size_t i = 1; i < Capacity; ++i) {
            REQUIRE(model.step(xs[i].data()) == sarnn::Status::ok);
            reference.step(test::to_vec(xs[i]));
            err.add(test::to_vec(model.attention()), reference.attention(), i + 1, "alpha");
            err.add(test::to_vec(model.context()), reference.context(), i + 1, "c");
        }
        INFO("worst: " << err.where);
        CHECK(err.max <= ref::kFloatTol);
    };
    test::for_each_arch([&](sarnn::Arch) {
        {
            INFO("BilinearAlign");
            auto ap = fam::make_align_params<sarnn::BilinearAlign, float, Hidden>(1.0, 13);
            sarnn::SelfAttentionRnn<float, In, Hidden, Capacity, sarnn::BilinearAlign> model(*params, *ap);
            fam::fill_value(ap->W, 0.0f);
            for (std::size_t k = 0; k < Hidden; ++k) ap->W[k][k] = 4.0f;  // now 4·(h_j·h_i)
            check(
                model, [] {}, ref::bilinear_of(*ap));
        }
        {
            INFO("KeyQueryAlign");
            auto ap = fam::make_align_params<sarnn::KeyQueryAlign<K>, float, Hidden>(1.0, 14);
            sarnn::SelfAttentionRnn<float, In, Hidden, Capacity, sarnn::KeyQueryAlign<K>> model(*params, *ap);
            auto change = [&] {
                for (auto& row : ap->Wq)
                    for (float& v : row) v *= -3.0f;
            };
            auto after = *ap;
            for (auto& row : after.Wq)
                for (float& v : row) v *= -3.0f;
            check(model, change, ref::key_query_of(after));
        }
        {
            INFO("AdditiveAlign");
            // The cached keys W[:, :Hidden] h_j of the states already in memory were computed with the old
            // weights; change only the query half and v, which every step reads afresh.
            auto ap = fam::make_align_params<sarnn::AdditiveAlign<K>, float, Hidden>(1.0, 15);
            sarnn::SelfAttentionRnn<float, In, Hidden, Capacity, sarnn::AdditiveAlign<K>> model(*params, *ap);
            auto change = [&] {
                for (float& v : ap->v) v *= -2.0f;
                for (auto& row : ap->W)
                    for (std::size_t c = Hidden; c < 2 * Hidden; ++c) row[c] *= 3.0f;
            };
            auto after = *ap;
            for (float& v : after.v) v *= -2.0f;
            for (auto& row : after.W)
                for (std::size_t c = Hidden; c < 2 * Hidden; ++c) row[c] *= 3.0f;
            check(model, change, ref::additive_of(after));
        }
    });
}

namespace {
// Params of every align are aggregates that can be constexpr (flash).
static_assert(std::is_aggregate_v<sarnn::BilinearParams<float, 3>>);
static_assert(std::is_aggregate_v<sarnn::KeyQueryParams<double, 5, 2>>);
static_assert(std::is_aggregate_v<sarnn::AdditiveParams<float, 7, 4>>);
// the arrays, nothing else but the padding up to the params' alignment
static_assert(sizeof(sarnn::BilinearParams<float, 3>) ==
              test::params_size<sarnn::BilinearParams<float, 3>>(9 * sizeof(float)));
static_assert(sizeof(sarnn::KeyQueryParams<double, 5, 2>) ==
              test::params_size<sarnn::KeyQueryParams<double, 5, 2>>(2 * 2 * 5 * sizeof(double)));
static_assert(sizeof(sarnn::AdditiveParams<float, 7, 4>) ==
              test::params_size<sarnn::AdditiveParams<float, 7, 4>>((4 * 14 + 4) * sizeof(float)));

constexpr sarnn::RnnParams<float, 1, 2> kRnn{{{0.5f, 0.25f, -0.5f}, {-1.0f, 0.5f, 0.75f}}, {0.1f, -0.2f}};
constexpr sarnn::BilinearParams<float, 2> kBilinear{{{1.0f, -2.0f}, {0.5f, 3.0f}}};
constexpr sarnn::KeyQueryParams<float, 2, 3> kKeyQuery{{{1.0f, 0.0f}, {0.5f, -1.0f}, {2.0f, 1.0f}},
                                                       {{0.0f, 1.5f}, {-1.0f, 1.0f}, {0.25f, 0.5f}}};
constexpr sarnn::AdditiveParams<float, 2, 3> kAdditive{
    {{1.0f, -1.0f, 0.5f, 2.0f}, {0.0f, 3.0f, -2.0f, 1.0f}, {1.5f, 0.5f, 0.25f, -1.0f}}, {1.0f, -2.0f, 0.5f}};
static_assert(kBilinear.W[1][1] == 3.0f && kKeyQuery.Wq[2][1] == 0.5f && kAdditive.v[1] == -2.0f);
}  // namespace

TEST_CASE("Models run from constexpr align params", "[align][params]") {
    const std::array<float, 6> xs{{1.0f, -2.0f, 0.5f, 0.25f, -1.0f, 3.0f}};
    const ref::Weights w = ref::weights_of(kRnn, 1, 2);
    auto run = [&](auto& model, const auto& ref_align, std::size_t window) {
        CHECK(&model.params() == &kRnn);
        ref::SelfAttentionRnn<std::decay_t<decltype(ref_align)>> reference(w, ref_align, window);
        test::MaxError err;
        for (std::size_t i = 0; i < xs.size(); ++i) {
            REQUIRE(model.step(&xs[i]) == sarnn::Status::ok);
            reference.step({static_cast<double>(xs[i])});
            err.add(test::to_vec(model.hidden()), reference.hidden(), i + 1, "h");
            err.add(test::to_vec(model.attention()), reference.attention(), i + 1, "alpha");
            err.add(test::to_vec(model.context()), reference.context(), i + 1, "c");
        }
        INFO("worst: " << err.where);
        CHECK(err.max <= ref::kFloatTol);
    };
    test::for_each_arch([&](sarnn::Arch) {
        sarnn::SelfAttentionRnn<float, 1, 2, 6, sarnn::BilinearAlign> bilinear{kRnn, kBilinear};
        run(bilinear, ref::bilinear_of(kBilinear), 0);
        sarnn::SelfAttentionRnn<float, 1, 2, 6, sarnn::KeyQueryAlign<3>> key_query{kRnn, kKeyQuery};
        run(key_query, ref::key_query_of(kKeyQuery), 0);
        sarnn::SelfAttentionRnn<float, 1, 2, 6, sarnn::AdditiveAlign<3>> additive{kRnn, kAdditive};
        run(additive, ref::additive_of(kAdditive), 0);
        sarnn::SelfAttentionRnn<float, 1, 2, 4, sarnn::AdditiveAlign<3>, sarnn::Window> additive_window{kRnn,
                                                                                                        kAdditive};
        run(additive_window, ref::additive_of(kAdditive), 4);  // 6 steps through a window of 4
    });
}

namespace {
template <class T, std::size_t In, std::size_t Hidden, std::size_t Capacity, std::size_t K>
constexpr bool additive_caches_keys() {
    using Additive = sarnn::SelfAttentionRnn<T, In, Hidden, Capacity, sarnn::AdditiveAlign<K>>;
    using Dot = sarnn::SelfAttentionRnn<T, In, Hidden, Capacity, sarnn::DotAlign>;
    return sizeof(Additive) > sizeof(Dot) && sizeof(Additive) - sizeof(Dot) >= Capacity * K * sizeof(T);
}
}  // namespace

namespace {
template <class T, std::size_t Hidden, std::size_t Capacity, std::size_t K, sarnn::KeyQueryPlan Plan>
constexpr bool key_query_caches() {
    using KQ = sarnn::SelfAttentionRnn<T, 1, Hidden, Capacity, sarnn::KeyQueryAlign<K, Plan>>;
    using Dot = sarnn::SelfAttentionRnn<T, 1, Hidden, Capacity, sarnn::DotAlign>;
    return sarnn::KeyQueryAlign<K, Plan>::template State<T, Hidden, Capacity>::caches_keys &&
           sizeof(KQ) - sizeof(Dot) >= Capacity * K * sizeof(T);
}
template <class T, std::size_t Hidden, std::size_t Capacity, std::size_t K, sarnn::KeyQueryPlan Plan>
constexpr bool key_query_folds() {
    using KQ = sarnn::SelfAttentionRnn<T, 1, Hidden, Capacity, sarnn::KeyQueryAlign<K, Plan>>;
    using Dot = sarnn::SelfAttentionRnn<T, 1, Hidden, Capacity, sarnn::DotAlign>;
    // u and q and a params reference, nothing per state
    return !sarnn::KeyQueryAlign<K, Plan>::template State<T, Hidden, Capacity>::caches_keys &&
           sizeof(KQ) - sizeof(Dot) < (K + Hidden) * sizeof(T) + 3 * 64;
}
}  // namespace

TEST_CASE("KeyQueryAlign caches Capacity·K keys when 4·K <= Hidden or asked to, else folds Wk",
          "[align][key_query][sizeof]") {
    using P = sarnn::KeyQueryPlan;
    STATIC_REQUIRE(key_query_caches<float, 64, 100, 16, P::by_size>());
    STATIC_REQUIRE(key_query_caches<double, 68, 64, 17, P::by_size>());
    STATIC_REQUIRE(key_query_caches<float, 5, 100, 7, P::cache>());
    STATIC_REQUIRE(key_query_folds<float, 16, 100, 16, P::by_size>());
    STATIC_REQUIRE(key_query_folds<float, 64, 100, 24, P::by_size>());
    STATIC_REQUIRE(key_query_folds<double, 7, 300, 33, P::by_size>());
    STATIC_REQUIRE(key_query_folds<float, 64, 300, 16, P::fold>());
}

TEST_CASE("AdditiveAlign keeps Capacity·K cached keys in the model", "[align][additive][sizeof]") {
    STATIC_REQUIRE(additive_caches_keys<float, 1, 1, 1, 1>());
    STATIC_REQUIRE(additive_caches_keys<float, 3, 7, 100, 5>());
    STATIC_REQUIRE(additive_caches_keys<float, 2, 33, 64, 17>());
    STATIC_REQUIRE(additive_caches_keys<double, 1, 5, 300, 33>());
    STATIC_REQUIRE(additive_caches_keys<double, 7, 17, 16, 7>());
    // the dot forms add nothing of their own; the Window policy one spare row of the memory (see memory.hpp)
    STATIC_REQUIRE(sizeof(sarnn::SelfAttentionRnn<float, 3, 7, 100, sarnn::ScaledDotAlign>) ==
                   sizeof(sarnn::SelfAttentionRnn<float, 3, 7, 100, sarnn::DotAlign>));
    STATIC_REQUIRE(sizeof(sarnn::SelfAttentionRnn<float, 3, 7, 100, sarnn::DotAlign, sarnn::Window>) ==
                   sizeof(sarnn::SelfAttentionRnn<float, 3, 7, 100, sarnn::DotAlign>) +
                       sarnn::padded<float>(7) * sizeof(float));
}
