// tests/shared/q15_digest.hpp: the digest of many runs of the q15 models, FNV-1a (64 bit) in the order
// python/sarnn/q15.py's digest() feeds them: for each case of DIGEST_CASES (params and inputs drawn from one 64-bit
// LCG per case, as digest_params() draws them), every step's h (SimpleRnn), or its status (1 ok, 0 memory_full), h,
// c and alpha (SelfAttentionRnn), 16-bit two's complement, little endian. tests/test_q15_models.cpp (every test job,
// under qemu too) and tests/firmware/main.cpp (the Cortex-M boards) compare it with kQ15Digest, the value
// python/tests/test_q15.py checks for the Python twin.
#ifndef SARNN_TESTS_SHARED_Q15_DIGEST_HPP
#define SARNN_TESTS_SHARED_Q15_DIGEST_HPP

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include <sarnn/sarnn.hpp>

namespace test {

/// `PYTHONPATH=python python3 -m sarnn.q15`
constexpr std::uint64_t kQ15Digest = 0xb2e386f7dbc70105ull;

struct Q15Lcg {
    std::uint64_t x;
    /// 31 pseudo-random bits
    std::uint32_t next() {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        return static_cast<std::uint32_t>(x >> 33);
    }
    std::int32_t below(std::uint32_t n) { return static_cast<std::int32_t>(next() % n); }
};

struct Q15Fnv {
    std::uint64_t h = 0xcbf29ce484222325ull;
    void feed(std::int32_t value) {
        auto v = static_cast<std::uint32_t>(value) & 0xFFFFu;
        for (int k = 0; k < 2; ++k) {
            h ^= v & 0xFFu;
            h *= 0x100000001b3ull;
            v >>= 8;
        }
    }
    template <class V>
    void feed_view(const V& view) {
        for (const sarnn::q15& v : view) feed(v.raw);
    }
};

template <std::size_t In, std::size_t Hidden>
void draw_q15_params(Q15Lcg& rng, sarnn::RnnParams<sarnn::q15, In, Hidden>& p) {
    for (auto& row : p.A)
        for (auto& a : row) a = static_cast<std::int8_t>(rng.below(255) - 127);
    for (auto& b : p.b) b = rng.below(16385) - 8192;
    for (auto& m : p.m) m = (std::int32_t{1} << 30) + rng.below(1u << 30);
    for (auto& s : p.shift) s = static_cast<std::int8_t>(9 + rng.below(4));
    p.x_m = (std::int32_t{1} << 30) + rng.below(1u << 30);
    p.x_shift = static_cast<std::int8_t>(-rng.below(3));
    p.x_scale = 0.0f;
}

template <std::size_t In>
void draw_q15_input(Q15Lcg& rng, sarnn::q15 (&x)[In]) {
    for (auto& v : x) v = sarnn::q15{static_cast<std::int16_t>(rng.below(65536) - 32768)};
}

template <std::size_t In, std::size_t Hidden>
void q15_digest_simple(Q15Fnv& fnv, std::size_t steps, std::uint64_t seed) {
    Q15Lcg rng{seed};
    static sarnn::RnnParams<sarnn::q15, In, Hidden> p{};
    draw_q15_params(rng, p);
    static sarnn::SimpleRnn<sarnn::q15, In, Hidden> model(p);
    model.reset();
    sarnn::q15 x[In];
    for (std::size_t t = 0; t < steps; ++t) {
        draw_q15_input(rng, x);
        (void)model.step(x);
        fnv.feed_view(model.hidden());
    }
}

/// BilinearParams<q15>, drawn after the model's params (python/sarnn/q15.py, digest_bilinear_params)
template <std::size_t Hidden>
void draw_q15_params(Q15Lcg& rng, sarnn::BilinearParams<sarnn::q15, Hidden>& p) {
    for (auto& row : p.W)
        for (auto& w : row) w = static_cast<std::int8_t>(rng.below(255) - 127);
    for (auto& m : p.m) m = (std::int32_t{1} << 30) + rng.below(1u << 30);
    for (auto& s : p.shift) s = static_cast<std::int8_t>(8 + rng.below(5));
    p.g = static_cast<std::int8_t>(rng.below(5));
}

template <class Model, class Params, class... AlignParams>
Model& make_q15_model(const Params& p, const AlignParams&... ap) {
    static Model model(p, ap...);
    return model;
}

template <class Align, class Memory, std::size_t In, std::size_t Hidden, std::size_t Capacity>
void q15_digest_attention(Q15Fnv& fnv, std::size_t steps, std::uint64_t seed) {
    using Model = sarnn::SelfAttentionRnn<sarnn::q15, In, Hidden, Capacity, Align, Memory>;
    Q15Lcg rng{seed};
    static sarnn::RnnParams<sarnn::q15, In, Hidden> p{};
    draw_q15_params(rng, p);
    Model* model_ptr = nullptr;
    if constexpr (!std::is_void_v<typename Model::AlignParams>) {
        static typename Model::AlignParams ap{};
        draw_q15_params(rng, ap);
        model_ptr = &make_q15_model<Model>(p, ap);
    } else {
        model_ptr = &make_q15_model<Model>(p);
    }
    Model& model = *model_ptr;
    model.reset();
    sarnn::q15 x[In];
    for (std::size_t t = 0; t < steps; ++t) {
        draw_q15_input(rng, x);
        fnv.feed(model.step(x) == sarnn::Status::ok ? 1 : 0);
        fnv.feed_view(model.hidden());
        fnv.feed_view(model.context());
        fnv.feed_view(model.attention());
    }
}

/// The digest of python/sarnn/q15.py's DIGEST_CASES (the same list, in order).
inline std::uint64_t q15_digest() {
    using sarnn::BilinearAlign;
    using sarnn::Bounded;
    using sarnn::DotAlign;
    using sarnn::ScaledDotAlign;
    using sarnn::Window;
    Q15Fnv fnv;
    q15_digest_simple<3, 5>(fnv, 40, 11);
    q15_digest_simple<16, 33>(fnv, 20, 12);
    q15_digest_attention<DotAlign, Bounded, 4, 7, 16>(fnv, 16, 13);
    q15_digest_attention<ScaledDotAlign, Bounded, 1, 1, 4>(fnv, 6, 14);
    q15_digest_attention<ScaledDotAlign, Window, 5, 17, 8>(fnv, 30, 15);
    q15_digest_attention<DotAlign, Window, 3, 3, 3>(fnv, 12, 16);
    q15_digest_attention<DotAlign, Bounded, 16, 32, 64>(fnv, 64, 17);
    q15_digest_attention<BilinearAlign, Bounded, 3, 7, 16>(fnv, 16, 18);
    q15_digest_attention<BilinearAlign, Window, 5, 17, 6>(fnv, 20, 19);
    return fnv.h;
}

}  // namespace test

#endif
