// tests/test_view_status.cpp: View, Status and the arch selection API.
#include <catch2/catch.hpp>

#include <sarnn/sarnn.hpp>

#include <cstring>
#include <set>
#include <string>

#include "support.hpp"

namespace {
constexpr double kValues[4] = {1.0, 2.0, 3.0, 4.0};
constexpr sarnn::View<double> kView{kValues, 4};
static_assert(kView.size() == 4 && !kView.empty() && kView[2] == 3.0 && kView.data() == kValues);
static_assert(kView.end() - kView.begin() == 4);
static_assert(sarnn::View<float>{}.empty() && sarnn::View<float>{}.data() == nullptr);
}  // namespace

TEST_CASE("View is a read-only span", "[view]") {
    const float data[3] = {0.5f, -1.0f, 2.0f};
    const sarnn::View<float> v{data, 3};
    CHECK(v.size() == 3);
    CHECK_FALSE(v.empty());
    CHECK(v.data() == data);
    CHECK(v.begin() == data);
    CHECK(v.end() == data + 3);
    CHECK(v[1] == -1.0f);
    float sum = 0.0f;
    for (float x : v) sum += x;
    CHECK(sum == 1.5f);
    const sarnn::View<float> empty;
    CHECK(empty.size() == 0);
    CHECK(empty.empty());
    CHECK(empty.begin() == empty.end());
}

TEST_CASE("Status names", "[status]") {
    CHECK(std::string(sarnn::to_string(sarnn::Status::ok)) == "ok");
    CHECK(std::string(sarnn::to_string(sarnn::Status::memory_full)) == "memory_full");
    CHECK(std::string(sarnn::to_string(sarnn::Status::null_input)) == "null_input");
    CHECK(std::string(sarnn::to_string(sarnn::Status::non_finite_input)) == "non_finite_input");
    CHECK(std::string(sarnn::to_string(sarnn::Status::arch_unavailable)) == "arch_unavailable");
    STATIC_REQUIRE(static_cast<int>(sarnn::Status::ok) == 0);
}

TEST_CASE("Arch selection", "[arch]") {
    test::ArchGuard guard;
    CHECK(sarnn::arch_available(sarnn::Arch::scalar));
    std::set<std::string> names;
    for (sarnn::Arch a : test::kAllArches) {
        INFO("arch " << static_cast<int>(a));
        REQUIRE(sarnn::arch_name(a) != nullptr);
        names.insert(sarnn::arch_name(a));
        const bool available = sarnn::arch_available(a);
        CHECK((sarnn::kernels_for<float>(a) != nullptr) == available);
        CHECK((sarnn::kernels_for<double>(a) != nullptr) == available);
        if (available) {
            CHECK(sarnn::kernels_for<float>(a)->arch == a);
            CHECK(test::set_reports<double>(sarnn::kernels_for<double>(a)->arch, a));
            CHECK(sarnn::set_arch(a) == sarnn::Status::ok);
            CHECK(sarnn::active_arch() == a);
            CHECK(sarnn::kernels<float>().arch == a);
            CHECK(test::set_reports<double>(sarnn::kernels<double>().arch, a));
        } else {
            const sarnn::Arch before = sarnn::active_arch();
            CHECK(sarnn::set_arch(a) == sarnn::Status::arch_unavailable);
            CHECK(sarnn::active_arch() == before);
        }
    }
    CHECK(names.size() == test::kAllArches.size());
    CHECK(std::string(sarnn::arch_name(sarnn::Arch::scalar)) == "scalar");
    CHECK(std::string(sarnn::arch_name(sarnn::Arch::sse2)) == "sse2");
    CHECK(std::string(sarnn::arch_name(sarnn::Arch::avx2_fma)) == "avx2+fma");
    CHECK(std::string(sarnn::arch_name(sarnn::Arch::avx512)) == "avx512");
    CHECK(std::string(sarnn::arch_name(sarnn::Arch::neon)) == "neon");
    CHECK(std::string(sarnn::arch_name(sarnn::Arch::neon64)) == "neon64");
}

TEST_CASE("Storage layout constants", "[kernels]") {
    STATIC_REQUIRE(sarnn::lanes<float>() >= 1);
    STATIC_REQUIRE(sarnn::lanes<double>() >= 1);
    STATIC_REQUIRE(sarnn::padded<float>(1) == sarnn::lanes<float>());
    STATIC_REQUIRE(sarnn::padded<float>(sarnn::lanes<float>() + 1) == 2 * sarnn::lanes<float>());
    STATIC_REQUIRE(sarnn::padded<double>(0) == 0);
    STATIC_REQUIRE(sarnn::storage_alignment<float>() % alignof(float) == 0);
    STATIC_REQUIRE(sarnn::storage_alignment<double>() % alignof(double) == 0);
#if SARNN_VECTOR_BYTES > 0
    STATIC_REQUIRE(sarnn::storage_alignment<float>() == SARNN_VECTOR_BYTES);
    STATIC_REQUIRE(sarnn::lanes<float>() * sizeof(float) == SARNN_VECTOR_BYTES);
#endif
}
