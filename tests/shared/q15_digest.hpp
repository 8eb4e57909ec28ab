// tests/shared/q15_digest.hpp: the digest of many runs of the q15 models, FNV-1a (64 bit) in the order
// python/tests/twin_digest.py's q15_digest() feeds them: for each case of DIGEST_CASES (params and inputs drawn from
// one 64-bit LCG per case, as digest_params() draws them), every step's h (SimpleRnn), or its status (1 ok, 0
// memory_full), h, c and alpha (SelfAttentionRnn), or its status, h, c, s and saturated() (Lstmn), 16-bit two's
// complement, little endian. tests/test_q15_models.cpp (every test job, under qemu too) and tests/firmware/main.cpp
// (the Cortex-M boards) compare it with kQ15Digest, the value python/tests/test_q15.py checks for the Python twin.
#ifndef SARNN_TESTS_SHARED_Q15_DIGEST_HPP
#define SARNN_TESTS_SHARED_Q15_DIGEST_HPP

#include <cstddef>
#include <cstdint>
#include <new>
#include <type_traits>

#include <sarnn/sarnn.hpp>

namespace test {

/// `cd python && python3 -m tests.twin_digest`
constexpr std::uint64_t kQ15Digest = 0x4154111d6323df19ull;

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

/// One buffer for every case's params and model, one case at a time (the M0+ board has 16 KB of RAM: the cases'
/// objects side by side would not fit). Objects are placed with new and never destroyed (no destructor does anything).
class Q15Arena {
public:
    static constexpr std::size_t kBytes = 8192;
    /// A T made from args (value-initialised without), after what the case made before: the callers' static_asserts
    /// keep a case within kBytes (its objects' sizes plus 192 bytes for their alignment).
    template <class T, class... Args>
    T& make(Args&&... args) {
        static_assert(alignof(T) <= 64, "q15_digest: the arena aligns to 64 bytes");
        used_ = (used_ + alignof(T) - 1) / alignof(T) * alignof(T);
        T* t = new (bytes_ + used_) T(static_cast<Args&&>(args)...);
        used_ += sizeof(T);
        return *t;
    }
    void clear() { used_ = 0; }

private:
    alignas(64) unsigned char bytes_[kBytes];
    std::size_t used_ = 0;
};
inline Q15Arena& q15_arena() {
    static Q15Arena arena;
    return arena;
}

template <std::size_t In, std::size_t Hidden, class Set = sarnn::kernel::Q15>
void q15_digest_simple(Q15Fnv& fnv, std::size_t steps, std::uint64_t seed) {
    static_assert(sizeof(sarnn::RnnParams<sarnn::q15, In, Hidden>) + sizeof(sarnn::SimpleRnn<sarnn::q15, In, Hidden, Set>) +
                      192 <= Q15Arena::kBytes, "q15_digest: a case does not fit the arena");
    Q15Lcg rng{seed};
    Q15Arena& arena = q15_arena();
    arena.clear();
    auto& p = arena.make<sarnn::RnnParams<sarnn::q15, In, Hidden>>();
    draw_q15_params(rng, p);
    auto& model = arena.make<sarnn::SimpleRnn<sarnn::q15, In, Hidden, Set>>(p);
    model.reset();
    sarnn::q15 x[In];
    for (std::size_t t = 0; t < steps; ++t) {
        draw_q15_input(rng, x);
        (void)model.step(x);
        fnv.feed_view(model.hidden());
    }
}

/// BilinearParams<q15>, drawn after the model's params (python/tests/twin_digest.py, digest_bilinear_params)
template <std::size_t Hidden>
void draw_q15_params(Q15Lcg& rng, sarnn::BilinearParams<sarnn::q15, Hidden>& p) {
    for (auto& row : p.W)
        for (auto& w : row) w = static_cast<std::int8_t>(rng.below(255) - 127);
    for (auto& m : p.m) m = (std::int32_t{1} << 30) + rng.below(1u << 30);
    for (auto& s : p.shift) s = static_cast<std::int8_t>(8 + rng.below(5));
    p.g = static_cast<std::int8_t>(rng.below(5));
}

/// KeyQueryParams<q15>, drawn after the model's params (python/tests/twin_digest.py, digest_key_query_params)
template <std::size_t Hidden, std::size_t K>
void draw_q15_params(Q15Lcg& rng, sarnn::KeyQueryParams<sarnn::q15, Hidden, K>& p) {
    for (auto* W : {&p.Wk, &p.Wq})
        for (auto& row : *W)
            for (auto& w : row) w = static_cast<std::int8_t>(rng.below(255) - 127);
    for (auto* m : {&p.m_k, &p.m_q, &p.m_f})
        for (auto& v : *m) v = (std::int32_t{1} << 30) + rng.below(1u << 30);
    p.m_t = (std::int32_t{1} << 30) + rng.below(1u << 30);
    for (auto& s : p.shift_k) s = static_cast<std::int8_t>(8 + rng.below(5));
    for (auto& s : p.shift_q) s = static_cast<std::int8_t>(8 + rng.below(5));
    for (auto& s : p.shift_f) s = static_cast<std::int8_t>(14 + rng.below(5));
    p.shift_t = static_cast<std::int8_t>(rng.below(4) - 2);
    p.g_k = static_cast<std::int8_t>(rng.below(4));
    p.g_u = static_cast<std::int8_t>(rng.below(4));
    p.g = static_cast<std::int8_t>(rng.below(5));
}

/// AdditiveParams<q15>, drawn after the model's params (python/tests/twin_digest.py, digest_additive_params)
template <std::size_t Hidden, std::size_t K>
void draw_q15_params(Q15Lcg& rng, sarnn::AdditiveParams<sarnn::q15, Hidden, K>& p) {
    for (auto& row : p.W)
        for (auto& w : row) w = static_cast<std::int8_t>(rng.below(255) - 127);
    for (auto& v : p.v) v = static_cast<std::int8_t>(rng.below(255) - 127);
    for (auto& m : p.m) m = (std::int32_t{1} << 30) + rng.below(1u << 30);
    p.m_v = (std::int32_t{1} << 30) + rng.below(1u << 30);
    for (auto& s : p.shift) s = static_cast<std::int8_t>(9 + rng.below(4));
    p.shift_v = static_cast<std::int8_t>(8 + rng.below(5));
    p.f = static_cast<std::int8_t>(rng.below(18) - 2);
}

template <class Align, class Memory, std::size_t In, std::size_t Hidden, std::size_t Capacity,
          class Set = sarnn::kernel::Q15, class Cell = sarnn::ElmanCell>
void q15_digest_attention(Q15Fnv& fnv, std::size_t steps, std::uint64_t seed) {
    using Model = sarnn::SelfAttentionRnn<sarnn::q15, In, Hidden, Capacity, Align, Memory, Set, Cell>;
    using Params = typename Model::Params;  // the cell's: RnnParams, or GruParams (q15_gru_cell_digest.hpp)
    Q15Lcg rng{seed};
    Q15Arena& arena = q15_arena();
    arena.clear();
    auto& p = arena.make<Params>();
    draw_q15_params(rng, p);
    Model* model_ptr = nullptr;
    if constexpr (!std::is_void_v<typename Model::AlignParams>) {
        static_assert(sizeof(Params) + sizeof(typename Model::AlignParams) + sizeof(Model) + 192 <= Q15Arena::kBytes,
                      "q15_digest: a case does not fit the arena");
        auto& ap = arena.make<typename Model::AlignParams>();
        draw_q15_params(rng, ap);
        model_ptr = &arena.make<Model>(p, ap);
    } else {
        static_assert(sizeof(Params) + sizeof(Model) + 192 <= Q15Arena::kBytes, "q15_digest: a case does not fit");
        model_ptr = &arena.make<Model>(p);
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

/// LstmnParams<q15>, drawn as python/tests/twin_digest.py's digest_lstmn_params
template <std::size_t In, std::size_t Hidden, std::size_t K>
void draw_q15_params(Q15Lcg& rng, sarnn::LstmnParams<sarnn::q15, In, Hidden, K>& p) {
    const auto int8s = [&rng](auto& rows) {
        for (auto& row : rows)
            for (auto& w : row) w = static_cast<std::int8_t>(rng.below(255) - 127);
    };
    int8s(p.W_ih);
    int8s(p.W_hh);
    int8s(p.W_h);
    int8s(p.W_x);
    int8s(p.W_ht);
    for (auto& v : p.v) v = static_cast<std::int8_t>(rng.below(255) - 127);
    for (auto& b : p.b) b = rng.below(16385) - 8192;
    for (auto& m : p.m) m = (std::int32_t{1} << 30) + rng.below(1u << 30);
    for (auto& m : p.m_a) m = (std::int32_t{1} << 30) + rng.below(1u << 30);
    p.m_v = (std::int32_t{1} << 30) + rng.below(1u << 30);
    p.x_m = (std::int32_t{1} << 30) + rng.below(1u << 30);
    for (auto& s : p.shift) s = static_cast<std::int8_t>(9 + rng.below(4));
    for (auto& s : p.shift_a) s = static_cast<std::int8_t>(9 + rng.below(4));
    p.x_shift = static_cast<std::int8_t>(-rng.below(3));
    p.shift_v = static_cast<std::int8_t>(8 + rng.below(5));
    p.f = static_cast<std::int8_t>(rng.below(18) - 2);
    p.x_scale = 0.0f;
}

template <class Memory, std::size_t In, std::size_t Hidden, std::size_t Capacity, std::size_t K,
          class Set = sarnn::kernel::Q15>
void q15_digest_lstmn(Q15Fnv& fnv, std::size_t steps, std::uint64_t seed) {
    using Model = sarnn::Lstmn<sarnn::q15, In, Hidden, Capacity, K, Memory, Set>;
    using Params = sarnn::LstmnParams<sarnn::q15, In, Hidden, K>;
    static_assert(sizeof(Params) + sizeof(Model) + 192 <= Q15Arena::kBytes, "q15_digest: a case does not fit the arena");
    Q15Lcg rng{seed};
    Q15Arena& arena = q15_arena();
    arena.clear();
    auto& p = arena.make<Params>();
    draw_q15_params(rng, p);
    auto& model = arena.make<Model>(p);
    sarnn::q15 x[In];
    for (std::size_t t = 0; t < steps; ++t) {
        draw_q15_input(rng, x);
        fnv.feed(model.step(x) == sarnn::Status::ok ? 1 : 0);
        fnv.feed_view(model.hidden());
        fnv.feed_view(model.cell());
        fnv.feed_view(model.attention());
        fnv.feed(static_cast<std::int32_t>(model.saturated()));
    }
}

/// The digest of python/tests/twin_digest.py's DIGEST_CASES (the same list, in order), run with the q15 set Set
/// (kernel::Q15: this target's loops; kernel::Q15Plain: the plain C++ ones; both must give kQ15Digest).
template <class Set = sarnn::kernel::Q15>
std::uint64_t q15_digest() {
    using sarnn::AdditiveAlign;
    using sarnn::BilinearAlign;
    using sarnn::Bounded;
    using sarnn::DotAlign;
    using sarnn::KeyQueryAlign;
    using sarnn::ScaledDotAlign;
    using sarnn::Window;
    Q15Fnv fnv;
    q15_digest_simple<3, 5, Set>(fnv, 40, 11);
    q15_digest_simple<16, 33, Set>(fnv, 20, 12);
    q15_digest_attention<DotAlign, Bounded, 4, 7, 16, Set>(fnv, 16, 13);
    q15_digest_attention<ScaledDotAlign, Bounded, 1, 1, 4, Set>(fnv, 6, 14);
    q15_digest_attention<ScaledDotAlign, Window, 5, 17, 8, Set>(fnv, 30, 15);
    q15_digest_attention<DotAlign, Window, 3, 3, 3, Set>(fnv, 12, 16);
    q15_digest_attention<DotAlign, Bounded, 16, 32, 64, Set>(fnv, 64, 17);
    q15_digest_attention<BilinearAlign, Bounded, 3, 7, 16, Set>(fnv, 16, 18);
    q15_digest_attention<BilinearAlign, Window, 5, 17, 6, Set>(fnv, 20, 19);
    q15_digest_attention<KeyQueryAlign<4>, Bounded, 3, 17, 8, Set>(fnv, 16, 20);  // keys cached
    q15_digest_attention<KeyQueryAlign<3>, Window, 2, 7, 5, Set>(fnv, 14, 21);    // folded
    q15_digest_attention<AdditiveAlign<5>, Bounded, 3, 9, 8, Set>(fnv, 16, 22);
    q15_digest_attention<AdditiveAlign<3>, Window, 2, 6, 5, Set>(fnv, 14, 23);
    q15_digest_lstmn<Bounded, 3, 5, 8, 4, Set>(fnv, 12, 24);  // the last 4 steps refused
    q15_digest_lstmn<Window, 2, 6, 5, 3, Set>(fnv, 20, 25);
    q15_digest_lstmn<Window, 4, 16, 16, 8, Set>(fnv, 40, 26);
    return fnv.h;
}

}  // namespace test

#endif
