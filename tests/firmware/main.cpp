// tests/firmware/main.cpp: sarnn on a bare-metal Cortex-M, checked against host-computed outputs.
//
// Runs every case of the generated header firmware_expected.hpp (weights, inputs and the outputs of an
// independent double-precision reference, written at build time by gen_expected.py) through the library:
// SimpleRnn, SelfAttentionRnn with every align and both memories, Lstmn. Checks each step's outputs, the
// status codes, that refused calls change no view (bit for bit), reset() and run(), prints "N passed,
// N failed" over semihosting and exits with status 0 only when nothing failed. No heap, no exceptions. Each
// model lives on the stack of its runner, one at a time (the largest, the reference model, is 8.6 kB;
// stack_reserve.ld makes the link fail unless 12 kB of RAM are left for the stack: the Cortex-M0 board has
// 16 kB in all).
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <type_traits>

#include <sarnn/sarnn.hpp>

#include "firmware_expected.hpp"
#include "shared/fixed_digest.hpp"

namespace {

int g_passed = 0;
int g_failed = 0;

unsigned u(std::size_t v) { return static_cast<unsigned>(v); }

/// One check: counts it and, when it failed, says what.
void expect(bool ok, const char* name, const char* what, std::size_t step) {
    if (ok) {
        ++g_passed;
    } else {
        ++g_failed;
        std::printf("FAIL %s step %u: %s\n", name, u(step), what);
    }
}

/// One check over n values: |got_k - want_k| <= tol for every k (NaN fails); prints the first value off.
template <class T, class U>
void expect_close(const char* name, const char* what, std::size_t step, const T* got, const U* want, std::size_t n,
                  double tol) {
    for (std::size_t k = 0; k < n; ++k) {
        const double g = static_cast<double>(got[k]);
        const double w = static_cast<double>(want[k]);
        if (!(std::fabs(g - w) <= tol)) {
            ++g_failed;
            std::printf("FAIL %s step %u: %s[%u] = %.9g, expected %.9g (tol %g)\n", name, u(step), what, u(k), g, w,
                        tol);
            return;
        }
    }
    ++g_passed;
}

template <class T, std::size_t N>
bool equal(const sarnn::View<T>& v, const T (&want)[N]) {
    if (v.size() != N) return false;
    for (std::size_t k = 0; k < N; ++k)
        if (!(v[k] == want[k])) return false;
    return true;
}

/// Every view of a model: hidden(), context() (SelfAttentionRnn) or cell() (Lstmn), attention(), length(),
/// attended() (SelfAttentionRnn) or stored() (Lstmn), full(). SimpleRnn shows hidden() and length() only.
template <class T>
struct Shown {
    sarnn::View<T> h, c, alpha;
    std::uint64_t length;
    std::size_t kept;
    bool full;
};
template <class T, std::size_t In, std::size_t H>
Shown<T> shown(const sarnn::SimpleRnn<T, In, H>& m) {
    return {m.hidden(), {}, {}, m.length(), 0, false};
}
template <class T, std::size_t In, std::size_t H, std::size_t C, class Align, class Memory>
Shown<T> shown(const sarnn::SelfAttentionRnn<T, In, H, C, Align, Memory>& m) {
    return {m.hidden(), m.context(), m.attention(), m.length(), m.attended(), m.full()};
}
template <class T, std::size_t In, std::size_t H, std::size_t C, std::size_t K, class Memory>
Shown<T> shown(const sarnn::Lstmn<T, In, H, C, K, Memory>& m) {
    return {m.hidden(), m.cell(), m.attention(), m.length(), m.stored(), m.full()};
}

template <class T, std::size_t In, std::size_t H>
Shown<T> shown(const sarnn::Lstm<T, In, H>& m) {
    return {m.hidden(), m.cell(), {}, m.length(), m.saturated(), false};
}

/// A copy of everything a model shows (see Shown), taken before a call that must change nothing and compared
/// bit for bit (memcmp) after it. Lives on the stack of the check: Hidden and Capacity values of the case.
template <class T, std::size_t Hidden, std::size_t Capacity>
class Snapshot {
public:
    explicit Snapshot(const Shown<T>& s) noexcept
        : length_(s.length), kept_(s.kept), full_(s.full), h_n_(copy(s.h, h_, Hidden)), c_n_(copy(s.c, c_, Hidden)),
          alpha_n_(copy(s.alpha, alpha_, Capacity)) {}
    /// True when every view shows exactly what it showed when the snapshot was taken (sizes and bits).
    bool same(const Shown<T>& s) const noexcept {
        return s.length == length_ && s.kept == kept_ && s.full == full_ && equal(s.h, h_, h_n_, Hidden) &&
               equal(s.c, c_, c_n_, Hidden) && equal(s.alpha, alpha_, alpha_n_, Capacity);
    }

private:
    static std::size_t copy(const sarnn::View<T>& v, T* to, std::size_t max) noexcept {
        if (v.size() != 0 && v.size() <= max) std::memcpy(to, v.data(), v.size() * sizeof(T));
        return v.size();
    }
    static bool equal(const sarnn::View<T>& v, const T* kept, std::size_t n, std::size_t max) noexcept {
        return n <= max && v.size() == n && (n == 0 || std::memcmp(v.data(), kept, n * sizeof(T)) == 0);
    }

    std::uint64_t length_;
    std::size_t kept_;
    bool full_;
    T h_[Hidden], c_[Hidden], alpha_[Capacity];
    std::size_t h_n_, c_n_, alpha_n_;
};
template <class E>
using SnapshotOf = Snapshot<typename E::T, E::Hidden, (E::Capacity > 0 ? E::Capacity : 1)>;

/// The rejected inputs: a null pointer, and (when the library checks its input) a NaN. Neither may change
/// any view of the model, bit for bit.
template <class E, class Model>
void expect_rejected_inputs(Model& m, std::size_t step) {
    using T = typename E::T;
    const SnapshotOf<E> before(shown(m));
    expect(m.step(static_cast<const T*>(nullptr)) == sarnn::Status::null_input, E::name, "null input refused", step);
    expect(before.same(shown(m)), E::name, "null input changes no view, bit for bit", step);
#if SARNN_CHECK_INPUT
    T bad[E::In];
    for (std::size_t k = 0; k < E::In; ++k) bad[k] = E::x[0][k];
    bad[E::In - 1] = std::nan("");
    expect(m.step(bad) == sarnn::Status::non_finite_input, E::name, "NaN input refused", step);
    expect(before.same(shown(m)), E::name, "NaN input changes no view, bit for bit", step);
#endif
}

/// The steps after which the rejected inputs are tried: the first, the middle one (a Bounded memory is not full
/// yet) and, for a Window, the last (the ring has wrapped).
template <class E>
bool try_rejected_inputs_after(std::size_t s) {
    return s == 0 || s == E::Steps / 2 || (E::window && s + 1 == E::Steps);
}

// ---- one runner per model kind (gen_expected.py names the runner of each case) ---------------------------

template <class E>
void run_simple_rnn() {
    using T = typename E::T;
    sarnn::SimpleRnn<T, E::In, E::Hidden> m{E::params};
    for (std::size_t s = 0; s < E::Steps; ++s) {
        expect(m.step(E::x[s]) == sarnn::Status::ok, E::name, "step ok", s + 1);
        expect_close(E::name, "h", s + 1, m.hidden().data(), E::h[s], E::Hidden, E::tol);
        if (s == 0 || s == E::Steps / 2) expect_rejected_inputs<E>(m, s + 1);
    }
    expect(m.length() == E::Steps, E::name, "length", E::Steps);
    // reset() starts over: the same first step again, bit for bit.
    T first[E::Hidden];
    m.reset();
    expect(m.length() == 0 && m.hidden()[0] == T(0), E::name, "reset", 0);
    (void)m.step(E::x[0]);
    for (std::size_t k = 0; k < E::Hidden; ++k) first[k] = m.hidden()[k];
    m.reset();
    (void)m.step(E::x[0]);
    expect(equal(m.hidden(), first), E::name, "same step after reset, bitwise", 1);
    expect_close(E::name, "h after reset", 1, m.hidden().data(), E::h[0], E::Hidden, E::tol);
}

/// Where run() writes its outputs (one buffer per element type, shared by all cases: RAM is scarce on an M0+).
constexpr std::size_t kRunOut = 160;
float g_run_f[kRunOut];
double g_run_d[kRunOut];
template <class T>
T* run_buffer() {
    if constexpr (sizeof(T) == sizeof(float))
        return g_run_f;
    else
        return g_run_d;
}

/// The checks shared by the attention models. cell(m) is what E::c holds (the context c_i of
/// SelfAttentionRnn, the memory cell c_t of Lstmn); lag is how many of the newest states the attention of a
/// step leaves out (0: SelfAttentionRnn attends to h_i itself; 1: Lstmn attends to the tapes before step t).
template <class E, class Model, class Cell>
void check_attention_model(Model& m, Cell cell, std::size_t lag) {
    using T = typename E::T;
    for (std::size_t s = 0; s < E::Steps; ++s) {
        expect(m.step(E::x[s]) == sarnn::Status::ok, E::name, "step ok", s + 1);
        expect_close(E::name, "h", s + 1, m.hidden().data(), E::h[s], E::Hidden, E::tol);
        expect_close(E::name, "c", s + 1, cell(m).data(), E::c[s], E::Hidden, E::tol);
        const std::size_t seen = s + 1 - lag < E::Capacity ? s + 1 - lag : E::Capacity;
        expect(m.attention().size() == seen, E::name, "one weight per state attended", s + 1);
        expect_close(E::name, "alpha", s + 1, m.attention().data(), E::alpha[s], seen, E::tol);
        if (try_rejected_inputs_after<E>(s)) expect_rejected_inputs<E>(m, s + 1);
    }
    expect(m.length() == E::Steps && m.full(), E::name, "length, memory full", E::Steps);
    if constexpr (!E::window) {
        // Bounded memory: the next step is refused and changes nothing (every view, bit for bit), nor does a
        // null input (the full memory is reported first).
        static_assert(E::Steps == E::Capacity, "a Bounded case fills the memory exactly");
        const SnapshotOf<E> before(shown(m));
        expect(m.step(E::x[0]) == sarnn::Status::memory_full, E::name, "step refused when full", E::Steps);
        expect(before.same(shown(m)), E::name, "refused step when full changes no view, bit for bit", E::Steps);
        expect(m.step(static_cast<const T*>(nullptr)) == sarnn::Status::memory_full, E::name,
               "null input when full: memory_full", E::Steps);
        expect(before.same(shown(m)), E::name, "null input when full changes no view, bit for bit", E::Steps);
    } else {
        static_assert(E::Steps > E::Capacity, "a Window case wraps around its ring");
    }
    m.reset();
    expect(m.length() == 0 && !m.full() && m.hidden()[0] == T(0), E::name, "reset", 0);
    // run() over the whole sequence again gives the same h at every step (written to a buffer shared by the
    // small cases; the large ones check the last h only).
    constexpr bool kFits = E::Steps * E::Hidden <= kRunOut;
    T* out = nullptr;
    if constexpr (kFits) out = run_buffer<T>();
    const sarnn::RunResult r = m.run(&E::x[0][0], E::Steps, out);
    expect(r.status == sarnn::Status::ok && r.steps == E::Steps, E::name, "run() over the sequence", E::Steps);
    if constexpr (kFits) {
        for (std::size_t s = 0; s < E::Steps; ++s)
            expect_close(E::name, "run() h", s + 1, out + s * E::Hidden, E::h[s], E::Hidden, E::tol);
    } else {
        expect_close(E::name, "h after run()", E::Steps, m.hidden().data(), E::h[E::Steps - 1], E::Hidden, E::tol);
    }
}

template <class E>
void run_self_attention_rnn() {
    using Model = sarnn::SelfAttentionRnn<typename E::T, E::In, E::Hidden, E::Capacity, typename E::Align,
                                          typename E::Memory>;
    const auto context = [](const Model& m) { return m.context(); };
    if constexpr (E::has_align_params) {
        Model m{E::params, E::align_params};
        check_attention_model<E>(m, context, 0);
    } else {
        Model m{E::params};
        check_attention_model<E>(m, context, 0);
    }
}

template <class E>
void run_lstmn() {
    using Model = sarnn::Lstmn<typename E::T, E::In, E::Hidden, E::Capacity, E::K, typename E::Memory>;
    Model m{E::params};
    check_attention_model<E>(m, [](const Model& mm) { return mm.cell(); }, 1);
}

/// The Lstm: h and c of every step, the rejected inputs, reset(), run() with Emit::cell.
template <class E>
void run_lstm() {
    using T = typename E::T;
    sarnn::Lstm<T, E::In, E::Hidden> m{E::params};
    for (std::size_t s = 0; s < E::Steps; ++s) {
        expect(m.step(E::x[s]) == sarnn::Status::ok, E::name, "step ok", s + 1);
        expect_close(E::name, "h", s + 1, m.hidden().data(), E::h[s], E::Hidden, E::tol);
        expect_close(E::name, "c", s + 1, m.cell().data(), E::c[s], E::Hidden, E::tol);
        if (s == 0 || s == E::Steps / 2) expect_rejected_inputs<E>(m, s + 1);
    }
    expect(m.length() == E::Steps && m.saturated() == 0, E::name, "length, saturated() 0", E::Steps);
    m.reset();
    expect(m.length() == 0 && m.hidden()[0] == T(0) && m.cell()[0] == T(0), E::name, "reset", 0);
    // run() over the whole sequence again gives the same c at every step (the large case: the last c only)
    constexpr bool kFits = E::Steps * E::Hidden <= kRunOut;
    T* out = nullptr;
    if constexpr (kFits) out = run_buffer<T>();
    const sarnn::RunResult r = m.run(&E::x[0][0], E::Steps, out, sarnn::Emit::cell);
    expect(r.status == sarnn::Status::ok && r.steps == E::Steps, E::name, "run() over the sequence", E::Steps);
    if constexpr (kFits) {
        for (std::size_t s = 0; s < E::Steps; ++s)
            expect_close(E::name, "run() c", s + 1, out + s * E::Hidden, E::c[s], E::Hidden, E::tol);
    } else {
        expect_close(E::name, "c after run()", E::Steps, m.cell().data(), E::c[E::Steps - 1], E::Hidden, E::tol);
    }
}

}  // namespace

int main() {
    std::printf("sarnn firmware: kernels %s, vector bytes %u\n", sarnn::arch_name(sarnn::kernel::arch_in_use<sarnn::kernel::Default>()),
                static_cast<unsigned>(SARNN_VECTOR_BYTES));
    // The models call the target's set directly: Helium's (lib/kernels/arm_mve.cpp, rows padded to 16 bytes) where
    // the core has MVE float (M55, M85); otherwise the cortex-m set (lib/kernels/cortex_m.cpp; cortex-m0 without
    // an FPU), with element-aligned storage.
#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 2)
    expect(std::is_same_v<sarnn::kernel::Default, sarnn::kernel::Mve> && SARNN_VECTOR_BYTES == 16, "kernels",
           "mve set", 0);
#elif defined(__ARM_FP)
    expect(std::is_same_v<sarnn::kernel::Default, sarnn::kernel::CortexM> && SARNN_VECTOR_BYTES == 0, "kernels",
           "cortex-m set", 0);
#else
    expect(std::is_same_v<sarnn::kernel::Default, sarnn::kernel::CortexM0> && SARNN_VECTOR_BYTES == 0, "kernels",
           "cortex-m0 set (no FPU)", 0);
#endif
#define SARNN_FIRMWARE_RUN(id, runner)                                                     \
    {                                                                                       \
        const int failed_before = g_failed;                                                 \
        runner<expected::id>();                                                             \
        std::printf("%-24s %s\n", #id, g_failed == failed_before ? "ok" : "FAILED");       \
    }
    SARNN_FIRMWARE_CASES(SARNN_FIRMWARE_RUN)
#undef SARNN_FIRMWARE_RUN
    // the integer activations compute on the board what their Python twin computes (python/sarnn/q15.py)
    const bool digest_ok = test::fixed_digest() == test::kFixedDigest;
    expect(digest_ok, "fixed", "integer activations: the Python twin's digest", 0);
    std::printf("%-24s %s\n", "fixed_digest", digest_ok ? "ok" : "FAILED");
    std::printf("%d passed, %d failed\n", g_passed, g_failed);
    return g_failed == 0 ? 0 : 1;
}
