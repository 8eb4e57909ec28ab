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
                        first_problem = std::string("two planted in ") + a.name + ": reported index " + std::to_string(v2.index);
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
        check_validate(*p, std::vector<Array<float>>{array("W", p->W), array("v", p->v)}, "AdditiveParams<float, 6, 4>");
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
