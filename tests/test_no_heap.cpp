// tests/test_no_heap.cpp: proof that the models never touch the heap. A separate executable, because it replaces
// the global allocation functions:
//  - every form of operator new / new[] / delete / delete[] (plain, sized, aligned, nothrow), counted;
//  - on glibc (without a sanitizer, which owns malloc itself) also malloc, calloc, realloc, free,
//    aligned_alloc, posix_memalign, memalign and valloc, counted and forwarded to glibc's own allocator.
// Each test takes the counts, runs the models without any Catch macro in between (Catch may allocate), takes the
// counts again and requires them equal. The models: SimpleRnn, SelfAttentionRnn with every align (Dot, ScaledDot,
// Bilinear, KeyQuery<K>, Additive<K>) and Lstmn, each with Bounded and Window memory, and Lstm, float and double,
// locals, function-local statics and globals; what they do: construction, many steps, steps refused on a full Bounded
// memory, steps on a full Window, null and NaN input, run() with every Emit (those a model has and those it has
// not), reset(). All of it once with the kernel set picked on first use, then on every set available. What the
// models did is recorded in fixed arrays and checked afterwards: the statuses, every view unchanged (bit for bit)
// by a refused step, run()'s results, and the first step after reset() against a double reference.
#include <catch2/catch.hpp>

#include <sarnn/sarnn.hpp>

#include <array>
#include <atomic>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
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
    static Counts now() noexcept { return {g_news.load(), g_deletes.load(), g_mallocs.load(), g_frees.load()}; }
};

// Opaque sinks: keep the compiler from dropping the sanity allocations and the models' results.
void* volatile g_sink_ptr = nullptr;
volatile double g_sink = 0.0;

// ---- sizes and params: global ----------------------------------------------------------------------------------
// Hidden 33, K 7, Capacity 13 are multiples of no vector width; the Capacity-13 memories fill (Bounded) or wrap
// (Window) within one segment of kSegment steps between resets.
constexpr std::size_t kIn = 16, kHidden = 33, kCap = 64, kSmallCap = 13, kK = 7;
constexpr std::size_t kSteps = 130, kSegment = 50, kRunSteps = 10, kMaxRun = kCap + 7;

/// Every params aggregate the models below use, for one T.
template <class T>
struct AllParams {
    sarnn::RnnParams<T, kIn, kHidden> rnn;
    sarnn::BilinearParams<T, kHidden> bilinear;
    sarnn::KeyQueryParams<T, kHidden, kK> key_query;
    sarnn::AdditiveParams<T, kHidden, kK> additive;
    sarnn::LstmnParams<T, kIn, kHidden, kK> lstmn;
    sarnn::LstmParams<T, kIn, kHidden> lstm;
};
AllParams<float> g_params_f;
AllParams<double> g_params_d;
template <class T>
AllParams<T>& params() {
    if constexpr (std::is_same_v<T, float>)
        return g_params_f;
    else
        return g_params_d;
}

// Constructed before main (not counted); their steps and resets are.
sarnn::SelfAttentionRnn<float, kIn, kHidden, kCap> g_attn_f{g_params_f.rnn};
sarnn::SimpleRnn<double, kIn, kHidden> g_simple_d{g_params_d.rnn};
sarnn::Lstmn<float, kIn, kHidden, kSmallCap, kK, sarnn::Window> g_lstmn_window_f{g_params_f.lstmn};

/// Small LCG in [-0.2, 0.2].
struct Lcg {
    std::uint32_t s = 12345u;
    double next() {
        s = s * 1664525u + 1013904223u;
        return (static_cast<double>(s >> 8) / 16777216.0 - 0.5) * 0.4;
    }
};
template <class T, std::size_t N>
void fill(T (&a)[N], Lcg& g) {
    for (T& v : a) v = static_cast<T>(g.next());
}
template <class T, std::size_t R, std::size_t C>
void fill(T (&a)[R][C], Lcg& g) {
    for (auto& row : a) fill(row, g);
}
template <class T>
void fill(AllParams<T>& p) {
    Lcg g;
    fill(p.rnn.A, g);
    fill(p.rnn.b, g);
    fill(p.bilinear.W, g);
    fill(p.key_query.Wk, g);
    fill(p.key_query.Wq, g);
    fill(p.additive.W, g);
    fill(p.additive.v, g);
    fill(p.lstmn.W_ih, g);
    fill(p.lstmn.W_hh, g);
    fill(p.lstmn.b, g);
    fill(p.lstmn.W_h, g);
    fill(p.lstmn.W_x, g);
    fill(p.lstmn.W_ht, g);
    fill(p.lstmn.v, g);
    fill(p.lstm.W_ih, g);
    fill(p.lstm.W_hh, g);
    fill(p.lstm.b, g);
}

template <class T>
std::array<T, kIn> input(std::size_t i) {
    std::array<T, kIn> x{};
    for (std::size_t k = 0; k < kIn; ++k)
        x[k] = static_cast<T>(static_cast<double>((i * 7 + k * 3) % 11) / 11.0 - 0.45);
    return x;
}

/// run()'s inputs (row t is input(t + 1), so its first row is the final step of drive()) and outputs.
template <class T>
struct RunBuffers {
    T xs[kMaxRun * kIn];
    T out[kRunSteps * kHidden];
};
RunBuffers<float> g_run_f;
RunBuffers<double> g_run_d;
template <class T>
RunBuffers<T>& run_buffers() {
    if constexpr (std::is_same_v<T, float>)
        return g_run_f;
    else
        return g_run_d;
}

// ---- what a model shows, without the heap ----------------------------------------------------------------------
/// Every view of a model, copied into fixed arrays: hidden(), context() or cell(), attention(), length(),
/// attended() or stored(), full(). Compared bit for bit (memcmp of the whole object; unused lanes stay zero).
template <class T>
struct Snapshot {
    std::uint64_t length, kept, full, h_n, c_n, alpha_n;  // all 64-bit: no padding before h (memcmp)
    T h[kHidden], c[kHidden], alpha[kCap];

    /// Copies at most `max` values (the model's own bound: Hidden, Capacity) of a view.
    template <class V>
    static void copy(const V& v, T* to, std::uint64_t& n, std::size_t max) {
        n = v.size();
        if (n != 0) std::memcpy(to, v.data(), static_cast<std::size_t>(n < max ? n : max) * sizeof(T));
    }
};
template <class T>
void zero(Snapshot<T>& s) {
    std::memset(static_cast<void*>(&s), 0, sizeof s);
}
template <class T, std::size_t In, std::size_t H>
Snapshot<T> snapshot(const sarnn::SimpleRnn<T, In, H>& m) {
    static_assert(H <= kHidden);
    Snapshot<T> s;
    zero(s);
    s.length = m.length();
    Snapshot<T>::copy(m.hidden(), s.h, s.h_n, H);
    return s;
}
template <class T, std::size_t In, std::size_t H, std::size_t C, class Align, class Memory>
Snapshot<T> snapshot(const sarnn::SelfAttentionRnn<T, In, H, C, Align, Memory>& m) {
    static_assert(H <= kHidden && C <= kCap);
    Snapshot<T> s;
    zero(s);
    s.length = m.length();
    s.kept = m.attended();
    s.full = m.full() ? 1 : 0;
    Snapshot<T>::copy(m.hidden(), s.h, s.h_n, H);
    Snapshot<T>::copy(m.context(), s.c, s.c_n, H);
    Snapshot<T>::copy(m.attention(), s.alpha, s.alpha_n, C);
    return s;
}
template <class T, std::size_t In, std::size_t H, std::size_t C, std::size_t K, class Memory>
Snapshot<T> snapshot(const sarnn::Lstmn<T, In, H, C, K, Memory>& m) {
    static_assert(H <= kHidden && C <= kCap);
    Snapshot<T> s;
    zero(s);
    s.length = m.length();
    s.kept = m.stored();
    s.full = m.full() ? 1 : 0;
    Snapshot<T>::copy(m.hidden(), s.h, s.h_n, H);
    Snapshot<T>::copy(m.cell(), s.c, s.c_n, H);
    Snapshot<T>::copy(m.attention(), s.alpha, s.alpha_n, C);
    return s;
}
template <class T, std::size_t In, std::size_t H>
Snapshot<T> snapshot(const sarnn::Lstm<T, In, H>& m) {
    static_assert(H <= kHidden);
    Snapshot<T> s;
    zero(s);
    s.length = m.length();
    s.kept = m.saturated();
    Snapshot<T>::copy(m.hidden(), s.h, s.h_n, H);
    Snapshot<T>::copy(m.cell(), s.c, s.c_n, H);
    return s;
}
template <class T>
bool same(const Snapshot<T>& a, const Snapshot<T>& b) {
    return std::memcmp(&a, &b, sizeof a) == 0;
}

// ---- model kinds --------------------------------------------------------------------------------------------
enum class Kind { simple, attention, lstmn, lstm };

template <class M>
struct Traits;
template <class T, std::size_t In, std::size_t H>
struct Traits<sarnn::SimpleRnn<T, In, H>> {
    static constexpr Kind kind = Kind::simple;
    static constexpr std::size_t capacity = 0;
    static constexpr bool bounded = false;
};
template <class T, std::size_t In, std::size_t H, std::size_t C, class Align, class Memory>
struct Traits<sarnn::SelfAttentionRnn<T, In, H, C, Align, Memory>> {
    static constexpr Kind kind = Kind::attention;
    static constexpr std::size_t capacity = C;
    static constexpr bool bounded = std::is_same_v<Memory, sarnn::Bounded>;
};
template <class T, std::size_t In, std::size_t H, std::size_t C, std::size_t K, class Memory>
struct Traits<sarnn::Lstmn<T, In, H, C, K, Memory>> {
    static constexpr Kind kind = Kind::lstmn;
    static constexpr std::size_t capacity = C;
    static constexpr bool bounded = std::is_same_v<Memory, sarnn::Bounded>;
};

template <class T, std::size_t In, std::size_t H>
struct Traits<sarnn::Lstm<T, In, H>> {
    static constexpr Kind kind = Kind::lstm;
    static constexpr std::size_t capacity = 0;
    static constexpr bool bounded = false;
};

bool has_emit(Kind kind, sarnn::Emit e) {
    return e == sarnn::Emit::hidden || (kind == Kind::attention && e == sarnn::Emit::context) ||
           ((kind == Kind::lstmn || kind == Kind::lstm) && e == sarnn::Emit::cell);
}

// ---- what a drive saw, checked after the counted region -------------------------------------------------------
struct Outcome {
    const char* label;
    Kind kind;
    bool is_double, bounded;
    std::size_t capacity;
    unsigned long statuses[8];      // step() results, by Status value
    unsigned long unexpected;       // step() results other than the input and memory call for
    unsigned long refused_changed;  // a step() that was not ok changed a view
    unsigned long full_refusals;    // memory_full from a step() on a full model
    unsigned long ok_when_full;     // steps taken on a full Window
    std::uint64_t max_length;
    unsigned long bad_resets;  // reset() that did not give length 0, nothing kept, not full
    unsigned long bad_runs;    // run() results other than the Emit and memory call for
    unsigned long runs;
    std::uint64_t final_length;
    double h1[kHidden];      // hidden() after the final reset() and one step of input(1)
    double run_h1[kHidden];  // the first row run(Emit::hidden) wrote (after a reset(), input(1))
};
std::array<Outcome, 48> g_outcomes;
std::size_t g_outcome_count = 0;

/// One step() call, its status recorded: `want` (any status when `any`), or memory_full when a Bounded memory
/// is full (that check comes first). A refused call must leave every view as it was, bit for bit.
template <class Model, class X>
void step_once(Model& m, Outcome& o, const X& x, sarnn::Status want, bool any = false) {
    using Tr = Traits<Model>;
    const auto before = snapshot(m);
    const bool was_full = before.full != 0;
    const sarnn::Status s = m.step(x);
    const auto idx = static_cast<std::size_t>(s);
    ++o.statuses[idx < 8 ? idx : 7];
    const bool refused_full = Tr::bounded && was_full;
    if (refused_full ? s != sarnn::Status::memory_full : (!any && s != want)) ++o.unexpected;
    if (s != sarnn::Status::ok) {
        if (!same(before, snapshot(m))) ++o.refused_changed;
        if (s == sarnn::Status::memory_full && was_full) ++o.full_refusals;
    } else {
        if (Tr::kind != Kind::simple && was_full) ++o.ok_when_full;
        if (m.length() > o.max_length) o.max_length = m.length();
    }
}

template <class Model>
void check_reset(const Model& m, Outcome& o) {
    const auto s = snapshot(m);
    if (s.length != 0 || s.kept != 0 || s.full != 0 || s.alpha_n != 0) ++o.bad_resets;
}

/// Everything a model does: steps (ok, null, NaN, memory full, past a full Window), reset(), run() with every
/// Emit (those it has and those it has not, with and without an output, past a Bounded capacity).
template <class Model>
void drive(Model& m, const char* label) {
    using T = typename Model::value_type;
    using Tr = Traits<Model>;
    if (g_outcome_count >= g_outcomes.size()) return;  // the check after sees the count and fails
    Outcome& o = g_outcomes[g_outcome_count++];
    std::memset(static_cast<void*>(&o), 0, sizeof o);
    o.label = label;
    o.kind = Tr::kind;
    o.is_double = std::is_same_v<T, double>;
    o.bounded = Tr::bounded;
    o.capacity = Tr::capacity;

    for (std::size_t i = 0; i < kSteps; ++i) {
        const std::array<T, kIn> x = input<T>(i);
        step_once(m, o, static_cast<const T*>(nullptr), sarnn::Status::null_input);
        if (i % 17 == 1) {  // also before a Capacity-5 memory is full (memory_full would come first)
            std::array<T, kIn> bad = x;
            bad[3] = std::numeric_limits<T>::quiet_NaN();
            // refused with SARNN_CHECK_INPUT; without it, whatever the model makes of it
            step_once(m, o, bad, sarnn::Status::non_finite_input, !SARNN_CHECK_INPUT);
        }
        step_once(m, o, x, sarnn::Status::ok);
        step_once(m, o, x.data(), sarnn::Status::ok);
        if (i % kSegment == kSegment - 1) {
            m.reset();
            check_reset(m, o);
        }
        g_sink = g_sink + static_cast<double>(m.hidden()[0]);
    }

    RunBuffers<T>& rb = run_buffers<T>();
    for (sarnn::Emit e : {sarnn::Emit::hidden, sarnn::Emit::context, sarnn::Emit::cell}) {
        const bool valid = has_emit(Tr::kind, e);
        for (std::size_t n : {kRunSteps, Tr::capacity + 7}) {
            T* out = n == kRunSteps ? rb.out : nullptr;
            m.reset();
            check_reset(m, o);
            const sarnn::RunResult r = m.run(rb.xs, n, out, e);
            ++o.runs;
            const std::size_t steps = !valid ? 0 : (Tr::bounded && n > Tr::capacity ? Tr::capacity : n);
            const sarnn::Status want = !valid ? sarnn::Status::invalid_argument
                                              : (steps < n ? sarnn::Status::memory_full : sarnn::Status::ok);
            if (r.status != want || r.steps != steps || m.length() != steps) ++o.bad_runs;
            if (valid && e == sarnn::Emit::hidden && out != nullptr)
                for (std::size_t k = 0; k < kHidden; ++k) o.run_h1[k] = static_cast<double>(out[k]);
        }
    }

    m.reset();
    check_reset(m, o);
    step_once(m, o, input<T>(1), sarnn::Status::ok);
    o.final_length = m.length();
    for (std::size_t k = 0; k < kHidden; ++k) o.h1[k] = static_cast<double>(m.hidden()[k]);
}

/// A fresh model on the stack, driven (its construction counted too).
template <class Model, class... P>
void drive_new(const char* label, const P&... p) {
    Model m{p...};
    drive(m, label);
}

template <class T, class Memory>
void exercise_family(const char* const (&labels)[6]) {
    AllParams<T>& p = params<T>();
    drive_new<sarnn::SelfAttentionRnn<T, kIn, kHidden, kSmallCap, sarnn::DotAlign, Memory>>(labels[0], p.rnn);
    drive_new<sarnn::SelfAttentionRnn<T, kIn, kHidden, kSmallCap, sarnn::ScaledDotAlign, Memory>>(labels[1], p.rnn);
    drive_new<sarnn::SelfAttentionRnn<T, kIn, kHidden, kSmallCap, sarnn::BilinearAlign, Memory>>(labels[2], p.rnn,
                                                                                                 p.bilinear);
    drive_new<sarnn::SelfAttentionRnn<T, kIn, kHidden, kSmallCap, sarnn::KeyQueryAlign<kK>, Memory>>(labels[3], p.rnn,
                                                                                                     p.key_query);
    drive_new<sarnn::SelfAttentionRnn<T, kIn, kHidden, kSmallCap, sarnn::AdditiveAlign<kK>, Memory>>(labels[4], p.rnn,
                                                                                                     p.additive);
    drive_new<sarnn::Lstmn<T, kIn, kHidden, kSmallCap, kK, Memory>>(labels[5], p.lstmn);
}

/// Everything the models do, from construction to reset, for every model, align and memory, both types.
void exercise_models() {
    g_outcome_count = 0;
    drive_new<sarnn::SimpleRnn<float, kIn, kHidden>>("SimpleRnn<float>", g_params_f.rnn);
    drive_new<sarnn::SimpleRnn<double, kIn, kHidden>>("SimpleRnn<double>", g_params_d.rnn);
    exercise_family<float, sarnn::Bounded>({"SAR<float> Dot Bounded", "SAR<float> ScaledDot Bounded",
                                            "SAR<float> Bilinear Bounded", "SAR<float> KeyQuery<7> Bounded",
                                            "SAR<float> Additive<7> Bounded", "Lstmn<float> Bounded"});
    exercise_family<float, sarnn::Window>({"SAR<float> Dot Window", "SAR<float> ScaledDot Window",
                                           "SAR<float> Bilinear Window", "SAR<float> KeyQuery<7> Window",
                                           "SAR<float> Additive<7> Window", "Lstmn<float> Window"});
    exercise_family<double, sarnn::Bounded>({"SAR<double> Dot Bounded", "SAR<double> ScaledDot Bounded",
                                             "SAR<double> Bilinear Bounded", "SAR<double> KeyQuery<7> Bounded",
                                             "SAR<double> Additive<7> Bounded", "Lstmn<double> Bounded"});
    exercise_family<double, sarnn::Window>({"SAR<double> Dot Window", "SAR<double> ScaledDot Window",
                                            "SAR<double> Bilinear Window", "SAR<double> KeyQuery<7> Window",
                                            "SAR<double> Additive<7> Window", "Lstmn<double> Window"});
    // a Capacity-64 memory that never fills between resets, function-local statics, globals
    drive_new<sarnn::SelfAttentionRnn<float, kIn, kHidden, kCap>>("SAR<float> Dot Bounded, Capacity 64",
                                                                  g_params_f.rnn);
    static sarnn::SelfAttentionRnn<double, kIn, kHidden, 5, sarnn::AdditiveAlign<kK>, sarnn::Window> static_attn{
        g_params_d.rnn, g_params_d.additive};
    static sarnn::Lstmn<double, kIn, kHidden, 5, kK> static_lstmn{g_params_d.lstmn};
    drive(static_attn, "static SAR<double> Additive<7> Window, Capacity 5");
    drive(static_lstmn, "static Lstmn<double> Bounded, Capacity 5");
    drive(g_attn_f, "global SAR<float> Dot Bounded, Capacity 64");
    drive(g_simple_d, "global SimpleRnn<double>");
    drive(g_lstmn_window_f, "global Lstmn<float> Window");
    drive_new<sarnn::Lstm<float, kIn, kHidden>>("Lstm<float>", g_params_f.lstm);
    drive_new<sarnn::Lstm<double, kIn, kHidden>>("Lstm<double>", g_params_d.lstm);
}
constexpr std::size_t kModels = 34;  // the drives of exercise_models()

// ---- the double reference of the first step after reset() ------------------------------------------------------
double sigmoid(double z) { return 1.0 / (1.0 + std::exp(-z)); }

/// h_1 from input(1): tanh(A·[x; 0] + b) for SimpleRnn and SelfAttentionRnn (h_0 = c_0 = 0); for Lstmn (empty
/// tapes, h~ = c~ = 0) and Lstm (h_0 = c_0 = 0) z = W_ih x + b, c = σ(z_i) tanh(z_g), h = σ(z_o) tanh(c).
template <class T>
void reference_h1(Kind kind, double (&h)[kHidden]) {
    const AllParams<T>& p = params<T>();
    const std::array<T, kIn> x = input<T>(1);
    for (std::size_t r = 0; r < kHidden; ++r) {
        if (kind != Kind::lstmn && kind != Kind::lstm) {
            double z = static_cast<double>(p.rnn.b[r]);
            for (std::size_t k = 0; k < kIn; ++k) z += static_cast<double>(p.rnn.A[r][k]) * static_cast<double>(x[k]);
            h[r] = std::tanh(z);
        } else {
            double z[4];
            for (std::size_t gate = 0; gate < 4; ++gate) {
                const std::size_t row = gate * kHidden + r;
                const bool lstm = kind == Kind::lstm;
                z[gate] = static_cast<double>(lstm ? p.lstm.b[row] : p.lstmn.b[row]);
                for (std::size_t k = 0; k < kIn; ++k)
                    z[gate] += static_cast<double>(lstm ? p.lstm.W_ih[row][k] : p.lstmn.W_ih[row][k]) *
                               static_cast<double>(x[k]);
            }
            const double c = sigmoid(z[0]) * std::tanh(z[2]);
            h[r] = sigmoid(z[3]) * std::tanh(c);
        }
    }
}

/// What every drive of the last exercise_models() saw.
void check_outcomes() {
    REQUIRE(g_outcome_count == kModels);
    for (std::size_t i = 0; i < g_outcome_count; ++i) {
        const Outcome& o = g_outcomes[i];
        INFO(o.label);
        const auto st = [&](sarnn::Status s) { return o.statuses[static_cast<std::size_t>(s)]; };
        CHECK(st(sarnn::Status::ok) > 0);
        CHECK(st(sarnn::Status::null_input) > 0);
        CHECK((st(sarnn::Status::non_finite_input) > 0) == (SARNN_CHECK_INPUT != 0));
        CHECK(o.unexpected == 0);
        CHECK(o.refused_changed == 0);
        CHECK(o.bad_resets == 0);
        CHECK(o.runs == 6);
        CHECK(o.bad_runs == 0);
        CHECK(o.final_length == 1);
        if (o.kind != Kind::simple && o.kind != Kind::lstm && o.capacity < kSegment) {  // the models with a memory
            if (o.bounded) {
                CHECK(o.full_refusals > 0);
                CHECK(o.full_refusals == st(sarnn::Status::memory_full));
                CHECK(o.max_length == o.capacity);
            } else {
                CHECK(st(sarnn::Status::memory_full) == 0);
                CHECK(o.ok_when_full > 0);
                CHECK(o.max_length > o.capacity);
            }
        }
        double want[kHidden];
        if (o.is_double)
            reference_h1<double>(o.kind, want);
        else
            reference_h1<float>(o.kind, want);
        double err = 0.0;
        bool run_same = true;
        for (std::size_t k = 0; k < kHidden; ++k) {
            const double e = std::fabs(o.h1[k] - want[k]);
            if (!(e <= err)) err = std::isnan(e) ? 1e300 : e;
            if (std::memcmp(&o.h1[k], &o.run_h1[k], sizeof(double)) != 0) run_same = false;
        }
        CHECK(err <= (o.is_double ? 1e-12 : 1e-5));
        CHECK(run_same);  // run(Emit::hidden) from reset() wrote the same first h, bit for bit
    }
}

struct Filled {
    Filled() {
        fill(g_params_f);
        fill(g_params_d);
        for (std::size_t t = 0; t < kMaxRun; ++t) {
            const std::array<float, kIn> xf = input<float>(t + 1);
            const std::array<double, kIn> xd = input<double>(t + 1);
            for (std::size_t k = 0; k < kIn; ++k) {
                g_run_f.xs[t * kIn + k] = xf[k];
                g_run_d.xs[t * kIn + k] = xd[k];
            }
        }
    }
};

}  // namespace

// every arch sarnn knows (the one list in config.hpp)
#define SARNN_NO_HEAP_ARCH_(id, name) sarnn::Arch::id,
constexpr sarnn::Arch kEveryArch[] = {SARNN_ARCHES(SARNN_NO_HEAP_ARCH_)};
#undef SARNN_NO_HEAP_ARCH_

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

TEST_CASE("No heap use: every model, align and memory; steps, full memory, bad input, run(), reset", "[no_heap]") {
    static Filled filled;
    (void)filled;

    // First with the kernel set picked on first use (this may be the first call into the library), then with
    // every set available.
    const sarnn::Arch saved = sarnn::active_arch();
    {
        const Counts before = Counts::now();
        exercise_models();
        const Counts after = Counts::now();
        CHECK(after.news == before.news);
        CHECK(after.deletes == before.deletes);
        CHECK(after.mallocs == before.mallocs);
        CHECK(after.frees == before.frees);
        check_outcomes();
    }

    int ran = 0;
    for (sarnn::Arch a : kEveryArch) {
        const sarnn::Status s = sarnn::set_arch(a);
        CHECK((s == sarnn::Status::ok) == sarnn::arch_available(a));
        if (s != sarnn::Status::ok) continue;
        INFO("arch " << sarnn::arch_name(a));
        const Counts b = Counts::now();
        exercise_models();
        const Counts e = Counts::now();
        CHECK(e.news == b.news);
        CHECK(e.deletes == b.deletes);
        CHECK(e.mallocs == b.mallocs);
        CHECK(e.frees == b.frees);
        check_outcomes();
        ++ran;
    }
    CHECK(ran >= 1);  // the scalar set at least
    REQUIRE(sarnn::set_arch(saved) == sarnn::Status::ok);
    CHECK(sarnn::active_arch() == saved);
}

TEST_CASE("No heap use: selecting kernel sets", "[no_heap]") {
    const sarnn::Arch saved = sarnn::active_arch();
    const Counts before = Counts::now();
    for (sarnn::Arch a : kEveryArch) {
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
