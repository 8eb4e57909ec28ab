// tests/test_validate.cpp: validate() on every params type: Status::ok on clean params (huge, denormal and -0.0
// weights included), and for a NaN/+Inf/-Inf planted anywhere, the array's name and the flat row-major index of
// the first one; validate() on constexpr params.
#include <catch2/catch.hpp>

#include <sarnn/sarnn.hpp>

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "family_support.hpp"
#include "reference.hpp"
#include "reference_family.hpp"
#include "support.hpp"

namespace {

// ---- validate() ----------------------------------------------------------------------------------------------
template <class T>
struct Array {
    const char* name;
    T* data;
    std::size_t size;
};
template <class T, std::size_t N>
Array<T> array(const char* name, T (&a)[N]) {
    return {name, a, N};
}
template <class T, std::size_t R, std::size_t C>
Array<T> array(const char* name, T (&a)[R][C]) {
    return {name, &a[0][0], R * C};
}

/// validate(p) with `arrays` (p's arrays in declaration order): ok when clean (also with huge, denormal and -0.0
/// entries); the array and flat index of a planted NaN/+Inf/-Inf at the first, a middle and the last index of
/// every array; the first of two planted values (by declaration order, then by index).
template <class P, class T>
void check_validate(P& p, const std::vector<Array<T>>& arrays, const std::string& label) {
    INFO(label);
    auto ok = [&] {
        const sarnn::Validation v = sarnn::validate(p);
        return v.status == sarnn::Status::ok && static_cast<bool>(v);
    };
    CHECK(ok());
    // extreme finite values are fine
    for (const Array<T>& a : arrays) {
        const T saved[3] = {a.data[0], a.data[a.size / 2], a.data[a.size - 1]};
        a.data[0] = std::numeric_limits<T>::max();
        a.data[a.size / 2] = test::denormal<T>();
        a.data[a.size - 1] = -T(0);
        CHECK(ok());
        a.data[a.size - 1] = saved[2];
        a.data[a.size / 2] = saved[1];
        a.data[0] = saved[0];
    }
    CHECK(ok());

    bool all_named = true;
    std::string first_problem;
    for (std::size_t ai = 0; ai < arrays.size(); ++ai) {
        const Array<T>& a = arrays[ai];
        for (T bad : test::non_finite_values<T>()) {
            for (std::size_t k : {std::size_t{0}, a.size / 2, a.size - 1}) {
                const T saved = a.data[k];
                a.data[k] = bad;
                const sarnn::Validation v = sarnn::validate(p);
                const bool right = v.status == sarnn::Status::non_finite_param && !static_cast<bool>(v) &&
                                   v.array != nullptr && std::string(v.array) == a.name && v.index == k;
                if (!right && all_named) {
                    all_named = false;
                    first_problem = std::string("planted in ") + a.name + "[" + std::to_string(k) + "], got " +
                                    sarnn::to_string(v.status) + " " + (v.array ? v.array : "(null)") + "[" +
                                    std::to_string(v.index) + "]";
                }
                // a second bad value later in the same array, or in a later array: the first is reported
                if (k + 1 < a.size) {
                    const T saved2 = a.data[a.size - 1];
                    a.data[a.size - 1] = bad;
                    const sarnn::Validation v2 = sarnn::validate(p);
                    if (!(v2.array != nullptr && std::string(v2.array) == a.name && v2.index == k) && all_named) {
                        all_named = false;
                        first_problem = std::string("two planted in ") + a.name + ": reported index " +
                                        std::to_string(v2.index);
                    }
                    a.data[a.size - 1] = saved2;
                }
                if (ai + 1 < arrays.size()) {
                    const Array<T>& later = arrays.back();
                    const T saved3 = later.data[0];
                    later.data[0] = bad;
                    const sarnn::Validation v3 = sarnn::validate(p);
                    if (!(v3.array != nullptr && std::string(v3.array) == a.name && v3.index == k) && all_named) {
                        all_named = false;
                        first_problem = std::string("planted in ") + a.name + " and " + later.name + ": reported " +
                                        (v3.array ? v3.array : "(null)");
                    }
                    later.data[0] = saved3;
                }
                a.data[k] = saved;
            }
        }
    }
    INFO("first problem: " << first_problem);
    CHECK(all_named);
    CHECK(ok());
}

}  // namespace

TEST_CASE("validate() takes every params aggregate and nothing else", "[validate]") {
    using sarnn::detail::is_params;
    STATIC_REQUIRE(is_params<sarnn::RnnParams<float, 3, 5>>::value);
    STATIC_REQUIRE(is_params<sarnn::BilinearParams<double, 7>>::value);
    STATIC_REQUIRE(is_params<sarnn::KeyQueryParams<float, 3, 5>>::value);
    STATIC_REQUIRE(is_params<sarnn::AdditiveParams<float, 6, 4>>::value);
    STATIC_REQUIRE(is_params<sarnn::LstmnParams<double, 1, 2, 3>>::value);
    STATIC_REQUIRE_FALSE(is_params<int>::value);
    STATIC_REQUIRE_FALSE(is_params<float[4]>::value);
    STATIC_REQUIRE_FALSE(is_params<sarnn::Validation>::value);
}

TEST_CASE("validate() names the array and index of the first NaN/Inf weight", "[validate]") {
    {
        auto p = test::make_params<float, 3, 5>(test::Weights::scaled, 70);
        check_validate(*p, std::vector<Array<float>>{array("A", p->A), array("b", p->b)}, "RnnParams<float, 3, 5>");
    }
    {
        auto p = test::make_params<double, 1, 1>(test::Weights::scaled, 71);
        check_validate(*p, std::vector<Array<double>>{array("A", p->A), array("b", p->b)}, "RnnParams<double, 1, 1>");
    }
    {
        auto p = fam::make_align_params<sarnn::BilinearAlign, float, 7>(1.0, 72);
        check_validate(*p, std::vector<Array<float>>{array("W", p->W)}, "BilinearParams<float, 7>");
    }
    {
        auto p = fam::make_align_params<sarnn::KeyQueryAlign<5>, double, 3>(1.0, 73);
        check_validate(*p, std::vector<Array<double>>{array("Wk", p->Wk), array("Wq", p->Wq)},
                       "KeyQueryParams<double, 3, 5>");
    }
    {
        auto p = fam::make_align_params<sarnn::AdditiveAlign<4>, float, 6>(1.0, 74);
        check_validate(*p, std::vector<Array<float>>{array("W", p->W), array("v", p->v)},
                       "AdditiveParams<float, 6, 4>");
    }
    {
        auto p = fam::make_lstmn_params<float, 3, 5, 4>(fam::LstmnWeightsKind::scaled, 75);
        check_validate(*p,
                       std::vector<Array<float>>{array("W_ih", p->W_ih), array("W_hh", p->W_hh), array("b", p->b),
                                                 array("W_h", p->W_h), array("W_x", p->W_x), array("W_ht", p->W_ht),
                                                 array("v", p->v)},
                       "LstmnParams<float, 3, 5, 4>");
    }
    {
        auto p = fam::make_lstmn_params<double, 1, 1, 1>(fam::LstmnWeightsKind::large, 76);
        check_validate(*p,
                       std::vector<Array<double>>{array("W_ih", p->W_ih), array("W_hh", p->W_hh), array("b", p->b),
                                                  array("W_h", p->W_h), array("W_x", p->W_x), array("W_ht", p->W_ht),
                                                  array("v", p->v)},
                       "LstmnParams<double, 1, 1, 1>");
    }
    {
        auto p = std::make_unique<sarnn::LstmParams<float, 3, 5>>();
        std::mt19937 g(77);
        kit::draw(p->W_ih, g, 0.5);
        kit::draw(p->W_hh, g, 0.5);
        kit::draw(p->b, g, 0.5);
        check_validate(*p, std::vector<Array<float>>{array("W_ih", p->W_ih), array("W_hh", p->W_hh), array("b", p->b)},
                       "LstmParams<float, 3, 5>");
    }
}

TEST_CASE("validate() works on constexpr params", "[validate]") {
    static constexpr sarnn::RnnParams<float, 1, 1> kClean{{{0.5f, 0.25f}}, {0.1f}};
    static constexpr sarnn::RnnParams<float, 1, 1> kBad{{{0.5f, std::numeric_limits<float>::infinity()}}, {0.1f}};
    CHECK(sarnn::validate(kClean).status == sarnn::Status::ok);
    const sarnn::Validation v = sarnn::validate(kBad);
    CHECK(v.status == sarnn::Status::non_finite_param);
    REQUIRE(v.array != nullptr);
    CHECK(std::string(v.array) == "A");
    CHECK(v.index == 1);
    CHECK(std::string(sarnn::to_string(v.status)) == "non_finite_param");
}

// ---- validate() on q15 params: every requantisation constant's range ------------------------------------------
namespace {

/// q15 params p (zeroed, so every weight is 0) with every multiplier 2^30, shift 0, headroom 0 and format 0: valid.
template <class P>
std::unique_ptr<P> q15_params() {
    auto p = std::make_unique<P>();
    std::memset(p.get(), 0, sizeof(P));
    return p;
}
void fill(std::int32_t* a, std::size_t n) {
    for (std::size_t k = 0; k < n; ++k) a[k] = std::int32_t{1} << 30;
}

/// For the field `name` (n values at a), each bad value planted at the first and the last index: validate() gives
/// invalid_argument naming it and the index; each good value (the range's ends) gives ok. The field is restored.
template <class P, class I>
void check_range(const P& p, const char* name, I* a, std::size_t n, std::initializer_list<long long> bad,
                 std::initializer_list<long long> good) {
    INFO(name);
    for (const std::size_t k : {std::size_t{0}, n - 1}) {
        const I saved = a[k];
        for (const long long b : bad) {
            INFO("index " << k << " = " << b);
            a[k] = static_cast<I>(b);
            const sarnn::Validation v = sarnn::validate(p);
            CHECK(v.status == sarnn::Status::invalid_argument);
            CHECK_FALSE(static_cast<bool>(v));
            REQUIRE(v.array != nullptr);
            CHECK(std::string(v.array) == name);
            CHECK(v.index == k);
        }
        for (const long long g : good) {
            INFO("index " << k << " = " << g);
            a[k] = static_cast<I>(g);
            CHECK(sarnn::validate(p).status == sarnn::Status::ok);
        }
        a[k] = saved;
    }
    CHECK(sarnn::validate(p).status == sarnn::Status::ok);
}

constexpr long long kMin = -(1LL << 31), kMax = (1LL << 31) - 1;
// the kinds of constant: (bad values, good values)
#define SARNN_MULTIPLIER \
    {kMin, -1, 0, 1, (1LL << 30) - 1}, { 1LL << 30, kMax }
#define SARNN_SHIFT \
    {-128, -32, 32, 40, 127}, { -31, 31 }
#define SARNN_HEADROOM \
    {-128, -1, 9, 127}, { 0, 8 }
#define SARNN_FORMAT \
    {-128, -3, 16, 127}, { -2, 15 }

}  // namespace

TEST_CASE("validate() refuses a q15 multiplier outside [2^30, 2^31), naming it", "[validate][q15]") {
    using sarnn::q15;
    auto r = q15_params<sarnn::RnnParams<q15, 3, 5>>();
    fill(r->m, 5);
    r->x_m = 1 << 30;
    CHECK(sarnn::validate(*r).status == sarnn::Status::ok);
    check_range(*r, "m", r->m, 5, SARNN_MULTIPLIER);
    check_range(*r, "x_m", &r->x_m, 1, SARNN_MULTIPLIER);
    auto b = q15_params<sarnn::BilinearParams<q15, 4>>();
    fill(b->m, 4);
    check_range(*b, "m", b->m, 4, SARNN_MULTIPLIER);
    auto kq = q15_params<sarnn::KeyQueryParams<q15, 4, 3>>();
    fill(kq->m_k, 3);
    fill(kq->m_q, 3);
    fill(kq->m_f, 3);
    kq->m_t = 1 << 30;
    check_range(*kq, "m_k", kq->m_k, 3, SARNN_MULTIPLIER);
    check_range(*kq, "m_q", kq->m_q, 3, SARNN_MULTIPLIER);
    check_range(*kq, "m_f", kq->m_f, 3, SARNN_MULTIPLIER);
    check_range(*kq, "m_t", &kq->m_t, 1, SARNN_MULTIPLIER);
    auto a = q15_params<sarnn::AdditiveParams<q15, 4, 3>>();
    fill(a->m, 3);
    a->m_v = 1 << 30;
    check_range(*a, "m", a->m, 3, SARNN_MULTIPLIER);
    check_range(*a, "m_v", &a->m_v, 1, SARNN_MULTIPLIER);
    auto l = q15_params<sarnn::LstmnParams<q15, 2, 3, 4>>();
    fill(l->m, 12);
    fill(l->m_a, 4);
    l->m_v = l->x_m = 1 << 30;
    check_range(*l, "m", l->m, 12, SARNN_MULTIPLIER);
    check_range(*l, "m_a", l->m_a, 4, SARNN_MULTIPLIER);
    check_range(*l, "m_v", &l->m_v, 1, SARNN_MULTIPLIER);
    check_range(*l, "x_m", &l->x_m, 1, SARNN_MULTIPLIER);
    auto lstm = q15_params<sarnn::LstmParams<q15, 2, 3>>();
    fill(lstm->m, 12);
    lstm->x_m = 1 << 30;
    CHECK(sarnn::validate(*lstm).status == sarnn::Status::ok);
    check_range(*lstm, "m", lstm->m, 12, SARNN_MULTIPLIER);
    check_range(*lstm, "x_m", &lstm->x_m, 1, SARNN_MULTIPLIER);
}

TEST_CASE("validate() refuses a q15 shift outside [-31, 31], naming it", "[validate][q15]") {
    using sarnn::q15;
    auto r = q15_params<sarnn::RnnParams<q15, 3, 5>>();
    fill(r->m, 5);
    r->x_m = 1 << 30;
    check_range(*r, "shift", r->shift, 5, SARNN_SHIFT);
    check_range(*r, "x_shift", &r->x_shift, 1, SARNN_SHIFT);
    auto b = q15_params<sarnn::BilinearParams<q15, 4>>();
    fill(b->m, 4);
    check_range(*b, "shift", b->shift, 4, SARNN_SHIFT);
    auto kq = q15_params<sarnn::KeyQueryParams<q15, 4, 3>>();
    fill(kq->m_k, 3);
    fill(kq->m_q, 3);
    fill(kq->m_f, 3);
    kq->m_t = 1 << 30;
    check_range(*kq, "shift_k", kq->shift_k, 3, SARNN_SHIFT);
    check_range(*kq, "shift_q", kq->shift_q, 3, SARNN_SHIFT);
    check_range(*kq, "shift_f", kq->shift_f, 3, SARNN_SHIFT);
    check_range(*kq, "shift_t", &kq->shift_t, 1, SARNN_SHIFT);
    auto a = q15_params<sarnn::AdditiveParams<q15, 4, 3>>();
    fill(a->m, 3);
    a->m_v = 1 << 30;
    check_range(*a, "shift", a->shift, 3, SARNN_SHIFT);
    check_range(*a, "shift_v", &a->shift_v, 1, SARNN_SHIFT);
    auto l = q15_params<sarnn::LstmnParams<q15, 2, 3, 4>>();
    fill(l->m, 12);
    fill(l->m_a, 4);
    l->m_v = l->x_m = 1 << 30;
    check_range(*l, "shift", l->shift, 12, SARNN_SHIFT);
    check_range(*l, "shift_a", l->shift_a, 4, SARNN_SHIFT);
    check_range(*l, "x_shift", &l->x_shift, 1, SARNN_SHIFT);
    check_range(*l, "shift_v", &l->shift_v, 1, SARNN_SHIFT);
    auto lstm = q15_params<sarnn::LstmParams<q15, 2, 3>>();
    fill(lstm->m, 12);
    lstm->x_m = 1 << 30;
    check_range(*lstm, "shift", lstm->shift, 12, SARNN_SHIFT);
    check_range(*lstm, "x_shift", &lstm->x_shift, 1, SARNN_SHIFT);
}

TEST_CASE("validate() refuses a q15 headroom g outside [0, 8] (g_k + g_u too) and a format f outside [-2, 15]",
          "[validate][q15]") {
    using sarnn::q15;
    auto b = q15_params<sarnn::BilinearParams<q15, 4>>();
    fill(b->m, 4);
    check_range(*b, "g", &b->g, 1, SARNN_HEADROOM);
    auto kq = q15_params<sarnn::KeyQueryParams<q15, 4, 3>>();
    fill(kq->m_k, 3);
    fill(kq->m_q, 3);
    fill(kq->m_f, 3);
    kq->m_t = 1 << 30;
    check_range(*kq, "g_k", &kq->g_k, 1, SARNN_HEADROOM);
    check_range(*kq, "g_u", &kq->g_u, 1, SARNN_HEADROOM);
    check_range(*kq, "g", &kq->g, 1, SARNN_HEADROOM);
    kq->g_k = 5;  // g_k + g_u <= 8: g_u up to 3
    check_range(*kq, "g_u", &kq->g_u, 1, {4, 8}, {0, 3});
    auto a = q15_params<sarnn::AdditiveParams<q15, 4, 3>>();
    fill(a->m, 3);
    a->m_v = 1 << 30;
    check_range(*a, "f", &a->f, 1, SARNN_FORMAT);
    auto l = q15_params<sarnn::LstmnParams<q15, 2, 3, 4>>();
    fill(l->m, 12);
    fill(l->m_a, 4);
    l->m_v = l->x_m = 1 << 30;
    check_range(*l, "f", &l->f, 1, SARNN_FORMAT);
}
#undef SARNN_MULTIPLIER
#undef SARNN_SHIFT
#undef SARNN_HEADROOM
#undef SARNN_FORMAT
