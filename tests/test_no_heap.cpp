// tests/test_no_heap.cpp: proof that the models never touch the heap. A separate executable, because it replaces
// the global allocation functions:
//  - every form of operator new / new[] / delete / delete[] (plain, sized, aligned, nothrow), counted;
//  - on glibc (without a sanitizer, which owns malloc itself) also malloc, calloc, realloc, free,
//    aligned_alloc, posix_memalign, memalign and valloc, counted and forwarded to glibc's own allocator.
// Each test takes the counts, runs the models (construction, many steps, full memory, bad input, reset) without
// any Catch macro in between (Catch may allocate), takes the counts again and requires them equal.
#include <catch2/catch.hpp>

#include <sarnn/sarnn.hpp>

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <new>
#include <type_traits>

// ---- counting allocation functions ---------------------------------------------------------------------------
namespace {
std::atomic<unsigned long> g_news{0};     // operator new, all forms
std::atomic<unsigned long> g_deletes{0};  // operator delete, all forms (non-null pointers)
std::atomic<unsigned long> g_mallocs{0};  // malloc family (when wrapped)
std::atomic<unsigned long> g_frees{0};    // free (non-null pointers, when wrapped)

void* new_plain(std::size_t n) noexcept {
    g_news.fetch_add(1, std::memory_order_relaxed);
    return std::malloc(n == 0 ? 1 : n);
}
void* new_aligned(std::size_t n, std::align_val_t al) noexcept {
    g_news.fetch_add(1, std::memory_order_relaxed);
    const std::size_t a = static_cast<std::size_t>(al) < sizeof(void*) ? sizeof(void*) : static_cast<std::size_t>(al);
    void* p = nullptr;
    return posix_memalign(&p, a, n == 0 ? 1 : n) == 0 ? p : nullptr;
}
void release(void* p) noexcept {
    if (p == nullptr) return;
    g_deletes.fetch_add(1, std::memory_order_relaxed);
    std::free(p);
}
}  // namespace

void* operator new(std::size_t n) {
    if (void* p = new_plain(n)) return p;
    throw std::bad_alloc();
}
void* operator new[](std::size_t n) {
    if (void* p = new_plain(n)) return p;
    throw std::bad_alloc();
}
void* operator new(std::size_t n, const std::nothrow_t&) noexcept { return new_plain(n); }
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept { return new_plain(n); }
void* operator new(std::size_t n, std::align_val_t al) {
    if (void* p = new_aligned(n, al)) return p;
    throw std::bad_alloc();
}
void* operator new[](std::size_t n, std::align_val_t al) {
    if (void* p = new_aligned(n, al)) return p;
    throw std::bad_alloc();
}
void* operator new(std::size_t n, std::align_val_t al, const std::nothrow_t&) noexcept { return new_aligned(n, al); }
void* operator new[](std::size_t n, std::align_val_t al, const std::nothrow_t&) noexcept { return new_aligned(n, al); }

void operator delete(void* p) noexcept { release(p); }
void operator delete[](void* p) noexcept { release(p); }
void operator delete(void* p, std::size_t) noexcept { release(p); }
void operator delete[](void* p, std::size_t) noexcept { release(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { release(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { release(p); }
void operator delete(void* p, std::align_val_t) noexcept { release(p); }
void operator delete[](void* p, std::align_val_t) noexcept { release(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { release(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { release(p); }
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept { release(p); }
void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept { release(p); }

// glibc: the executable's malloc family interposes libc's for the whole process; forward to glibc's allocator.
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer) || __has_feature(thread_sanitizer)
#define SARNN_TEST_SANITIZER 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define SARNN_TEST_SANITIZER 1
#endif
#if defined(__GLIBC__) && !defined(SARNN_TEST_SANITIZER)
#define SARNN_TEST_WRAPS_MALLOC 1
extern "C" {
void* __libc_malloc(std::size_t);
void* __libc_calloc(std::size_t, std::size_t);
void* __libc_realloc(void*, std::size_t);
void* __libc_memalign(std::size_t, std::size_t);
void __libc_free(void*);

void* malloc(std::size_t n) {
    g_mallocs.fetch_add(1, std::memory_order_relaxed);
    return __libc_malloc(n);
}
void* calloc(std::size_t count, std::size_t n) {
    g_mallocs.fetch_add(1, std::memory_order_relaxed);
    return __libc_calloc(count, n);
}
void* realloc(void* p, std::size_t n) {
    g_mallocs.fetch_add(1, std::memory_order_relaxed);
    return __libc_realloc(p, n);
}
void free(void* p) {
    if (p != nullptr) g_frees.fetch_add(1, std::memory_order_relaxed);
    __libc_free(p);
}
void* aligned_alloc(std::size_t al, std::size_t n) {
    g_mallocs.fetch_add(1, std::memory_order_relaxed);
    return __libc_memalign(al, n);
}
void* memalign(std::size_t al, std::size_t n) {
    g_mallocs.fetch_add(1, std::memory_order_relaxed);
    return __libc_memalign(al, n);
}
void* valloc(std::size_t n) {
    g_mallocs.fetch_add(1, std::memory_order_relaxed);
    return __libc_memalign(4096, n);
}
int posix_memalign(void** out, std::size_t al, std::size_t n) {
    g_mallocs.fetch_add(1, std::memory_order_relaxed);
    if (al < sizeof(void*) || (al & (al - 1)) != 0) return 22;  // EINVAL
    void* p = __libc_memalign(al, n);
    if (p == nullptr) return 12;  // ENOMEM
    *out = p;
    return 0;
}
}
#else
#define SARNN_TEST_WRAPS_MALLOC 0
#endif

namespace {

struct Counts {
    unsigned long news, deletes, mallocs, frees;
    static Counts now() noexcept {
        return {g_news.load(), g_deletes.load(), g_mallocs.load(), g_frees.load()};
    }
};

// Opaque sinks: keep the compiler from dropping the sanity allocations and the models' results.
void* volatile g_sink_ptr = nullptr;
volatile double g_sink = 0.0;

// ---- models and params: global, function-local static and local objects --------------------------------------
constexpr std::size_t kIn = 16, kHidden = 33, kCap = 64;
sarnn::RnnParams<float, kIn, kHidden> g_params_f;
sarnn::RnnParams<double, kIn, kHidden> g_params_d;

// Constructed before main (not counted); their steps and resets are.
sarnn::SelfAttentionRnn<float, kIn, kHidden, kCap> g_attn_f{g_params_f};
sarnn::SimpleRnn<double, kIn, kHidden> g_simple_d{g_params_d};

template <class P>
void fill(P& p) {
    std::uint32_t s = 12345u;
    auto next = [&s] {  // small LCG in [-0.2, 0.2]
        s = s * 1664525u + 1013904223u;
        return (static_cast<double>(s >> 8) / 16777216.0 - 0.5) * 0.4;
    };
    for (auto& row : p.A)
        for (auto& v : row) v = static_cast<std::remove_reference_t<decltype(v)>>(next());
    for (auto& v : p.b) v = static_cast<std::remove_reference_t<decltype(v)>>(next());
}

template <class T>
std::array<T, kIn> input(std::size_t i) {
    std::array<T, kIn> x{};
    for (std::size_t k = 0; k < kIn; ++k) x[k] = static_cast<T>(static_cast<double>((i * 7 + k * 3) % 11) / 11.0 - 0.45);
    return x;
}

template <class Model>
void drive(Model& m, std::size_t steps) {
    using T = typename Model::value_type;
    for (std::size_t i = 0; i < steps; ++i) {
        const std::array<T, kIn> x = input<T>(i);
        (void)m.step(x);            // ok, or memory_full once full
        (void)m.step(x.data());
        (void)m.step(nullptr);      // null_input
        if (i % 17 == 5) {
            std::array<T, kIn> bad = x;
            bad[3] = std::numeric_limits<T>::quiet_NaN();
            (void)m.step(bad);      // non_finite_input (with SARNN_CHECK_INPUT)
        }
        if (i % 50 == 49) m.reset();
        g_sink = g_sink + static_cast<double>(m.hidden()[0]);
    }
    m.reset();
    (void)m.step(input<T>(1));
    g_sink = g_sink + static_cast<double>(m.hidden()[kHidden - 1]);
}

/// Everything the models do, from construction to reset, for both models and both types.
void exercise_models() {
    sarnn::SelfAttentionRnn<float, kIn, kHidden, kCap> attn_f{g_params_f};
    sarnn::SelfAttentionRnn<double, kIn, kHidden, kCap, sarnn::ScaledDotAlign> attn_d{g_params_d};
    sarnn::SimpleRnn<float, kIn, kHidden> simple_f{g_params_f};
    static sarnn::SimpleRnn<double, kIn, kHidden> simple_d{g_params_d};
    static sarnn::SelfAttentionRnn<double, kIn, kHidden, 5> attn_small{g_params_d};
    drive(attn_f, 200);
    drive(attn_d, 150);
    drive(simple_f, 200);
    drive(simple_d, 100);
    drive(attn_small, 20);
    drive(g_attn_f, 130);
    drive(g_simple_d, 60);
    g_sink = g_sink + static_cast<double>(attn_f.context()[0]) + attn_d.attention()[0];
}

struct Filled {
    Filled() {
        fill(g_params_f);
        fill(g_params_d);
    }
};

}  // namespace

TEST_CASE("The counters see allocations", "[no_heap]") {
    const Counts before = Counts::now();
    g_sink_ptr = ::operator new(24);
    ::operator delete(g_sink_ptr);
    g_sink_ptr = ::operator new[](24, std::align_val_t(64));
    ::operator delete[](g_sink_ptr, std::align_val_t(64));
    const Counts mid = Counts::now();
    CHECK(mid.news == before.news + 2);
    CHECK(mid.deletes == before.deletes + 2);
#if SARNN_TEST_WRAPS_MALLOC
    void* (*volatile m)(std::size_t) = &std::malloc;  // through a volatile pointer: never elided
    g_sink_ptr = m(40);
    std::free(g_sink_ptr);
    const Counts after = Counts::now();
    CHECK(after.mallocs > mid.mallocs);
    CHECK(after.frees > mid.frees);
#else
    WARN("malloc is not wrapped on this platform/build: only operator new/delete are counted");
#endif
}

TEST_CASE("No heap use: construction, steps, full memory, bad input, reset", "[no_heap]") {
    static Filled filled;
    (void)filled;

    // First with the kernel set picked on first use (this may be the first call into the library), then with
    // every set available.
    const Counts before = Counts::now();
    exercise_models();
    const Counts after = Counts::now();
    CHECK(after.news == before.news);
    CHECK(after.deletes == before.deletes);
    CHECK(after.mallocs == before.mallocs);
    CHECK(after.frees == before.frees);

    const sarnn::Arch saved = sarnn::active_arch();
    for (sarnn::Arch a : {sarnn::Arch::scalar, sarnn::Arch::sse2, sarnn::Arch::avx2_fma, sarnn::Arch::avx512,
                          sarnn::Arch::neon, sarnn::Arch::neon64}) {
        if (sarnn::set_arch(a) != sarnn::Status::ok) continue;
        INFO("arch " << sarnn::arch_name(a));
        const Counts b = Counts::now();
        exercise_models();
        const Counts e = Counts::now();
        CHECK(e.news == b.news);
        CHECK(e.deletes == b.deletes);
        CHECK(e.mallocs == b.mallocs);
        CHECK(e.frees == b.frees);
    }
    REQUIRE(sarnn::set_arch(saved) == sarnn::Status::ok);
}

TEST_CASE("No heap use: selecting kernel sets", "[no_heap]") {
    const sarnn::Arch saved = sarnn::active_arch();
    const Counts before = Counts::now();
    for (sarnn::Arch a : {sarnn::Arch::scalar, sarnn::Arch::sse2, sarnn::Arch::avx2_fma, sarnn::Arch::avx512,
                          sarnn::Arch::neon, sarnn::Arch::neon64}) {
        (void)sarnn::arch_available(a);
        (void)sarnn::set_arch(a);
        g_sink_ptr = const_cast<void*>(static_cast<const void*>(sarnn::kernels_for<float>(a)));
    }
    (void)sarnn::set_arch(saved);
    const Counts after = Counts::now();
    CHECK(after.news == before.news);
    CHECK(after.mallocs == before.mallocs);
    CHECK(sarnn::active_arch() == saved);
}
