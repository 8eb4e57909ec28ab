// fuzz/fuzz_support.hpp: what the libFuzzer targets share: reading the fuzzer's bytes as weights, inputs and
// operations, and the invariants every step must keep.
//
// How bytes become values: a byte b maps to (b - 127.5) / 127.5 · scale, where the scale is picked by a mode
// byte among unit, 1/sqrt(fan-in), 3, 1e4, 1e30 (float: below FLT_MAX, products overflow), 1e-30 and subnormal,
// and, for one mode byte in eight, the largest finite T (FLT_MAX, DBL_MAX: values from max/255 to max);
// when the mode allows specials, bytes 0xFD/0xFE/0xFF are -Inf/+Inf/NaN. Weights cycle through a fuzzer-chosen
// run of bytes (mixed with the index), then a few "pokes" put a chosen value (specials included) at a chosen
// index, so NaN/Inf weights appear now and then without drowning everything.
//
// The invariants (a violation prints what broke and calls __builtin_trap()):
//  - no crash, no sanitizer report (ASan, UBSan);
//  - the status is the one the contract names: memory_full (Bounded and full) before null_input before
//    non_finite_input, else ok; where the magnitudes could overflow T (not "sane", see sane_limit) a step may
//    also refuse with another status (the arithmetic would overflow). A step that is not ok changes nothing:
//    every byte the model shows is the same, and so is what the next step makes of the memory;
//  - after an ok step, when every weight and every input since the reset is finite, whatever their magnitude
//    (up to FLT_MAX / DBL_MAX): hidden(), context(), cell() and attention() hold no NaN or Inf (the memory holds
//    past h and c, each checked when it was shown);
//  - after an ok step, when besides the magnitudes cannot overflow T ("sane"): |h| <= 1, the attention lies in
//    [0, 1] and sums to 1 within 1e-4;
//  - the SIMD set in use agrees with the scalar set on the same step from the same state (a copy of the model
//    stepped under set_arch(Arch::scalar)), within a bound relative to the magnitudes involved (see tol());
//  - run() is step() in a loop: same status, same count, the same bytes emitted and the same final state.
#ifndef SARNN_FUZZ_SUPPORT_HPP
#define SARNN_FUZZ_SUPPORT_HPP

#include <sarnn/sarnn.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <vector>

namespace fz {

[[noreturn]] inline void fail(const char* what, double got = 0.0, double bound = 0.0) {
    std::fprintf(stderr, "sarnn fuzz: invariant violated: %s (value %.9g, bound %.9g)\n", what, got, bound);
    std::fflush(stderr);
    __builtin_trap();
}
#define FZ_CHECK(cond, what)           \
    do {                               \
        if (!(cond)) ::fz::fail(what); \
    } while (0)

// ---- the fuzzer's bytes ------------------------------------------------------------------------------------
/// Reads the input front to back; past its end every byte reads as 0.
class Bytes {
public:
    Bytes(const std::uint8_t* data, std::size_t size) noexcept : p_(data), n_(size) {}
    std::uint8_t byte() noexcept { return pos_ < n_ ? p_[pos_++] : 0; }
    std::size_t u16() noexcept {
        const std::size_t lo = byte();
        return lo | (static_cast<std::size_t>(byte()) << 8);
    }
    bool done() const noexcept { return pos_ >= n_; }
    /// Up to k bytes from here (fewer at the end), consumed.
    const std::uint8_t* take(std::size_t k, std::size_t& got) noexcept {
        got = std::min(k, n_ - std::min(pos_, n_));
        const std::uint8_t* at = p_ + std::min(pos_, n_);
        pos_ += got;
        return at;
    }

private:
    const std::uint8_t* p_;
    std::size_t n_;
    std::size_t pos_ = 0;
};

/// How bytes map to values (see the top of this file).
struct Mapping {
    double scale = 1.0;
    bool specials = false;
    bool huge = false;  // scale = the largest finite T instead
};

inline Mapping mapping(std::uint8_t mode, std::size_t fan_in) {
    static const double kScales[8] = {1.0, 0.0 /* 1/sqrt(fan-in) */, 3.0, 1e4, 1e30, 1e-30, 1e-40, 0.25};
    Mapping m;
    m.scale = kScales[mode & 7u];
    if ((mode & 7u) == 1u) m.scale = 1.0 / std::sqrt(static_cast<double>(fan_in == 0 ? 1 : fan_in));
    m.specials = (mode & 0x18u) == 0x18u;  // one mode in four
    m.huge = (mode & 0xE0u) == 0xE0u;      // one mode in eight
    return m;
}

template <class T>
T value(std::uint8_t b, const Mapping& m) {
    if (m.specials) {
        if (b == 0xFF) return std::numeric_limits<T>::quiet_NaN();
        if (b == 0xFE) return std::numeric_limits<T>::infinity();
        if (b == 0xFD) return -std::numeric_limits<T>::infinity();
    }
    // |(b - 127.5) / 127.5| <= 1: max<T>() times it stays finite (in double, then exactly representable in T)
    const double scale = m.huge ? static_cast<double>(std::numeric_limits<T>::max()) : m.scale;
    return static_cast<T>((static_cast<double>(b) - 127.5) / 127.5 * scale);
}

/// Fills every T of a params aggregate (plain arrays of T, nothing else) from the bytes.
template <class T, class P>
void fill_params(P& p, Bytes& in, std::size_t fan_in) {
    static_assert(sizeof(P) % sizeof(T) == 0, "params are arrays of T");
    constexpr std::size_t n = sizeof(P) / sizeof(T);
    T* flat = reinterpret_cast<T*>(&p);  // NOLINT: params are standard-layout aggregates of T arrays
    Mapping m = mapping(in.byte(), fan_in);
    m.specials = false;  // specials only through pokes
    std::size_t run = 0;
    const std::uint8_t* bytes = in.take(1 + in.byte() % 48u, run);
    for (std::size_t k = 0; k < n; ++k) {
        const std::uint8_t mix = static_cast<std::uint8_t>((k / (run ? run : 1)) * 0x9Du);
        flat[k] = value<T>(static_cast<std::uint8_t>((run ? bytes[k % run] : 0x80u) ^ mix), m);
    }
    // pokes: a chosen value (NaN/Inf allowed) at a chosen index
    const std::size_t pokes = in.byte() % 4u;
    for (std::size_t k = 0; k < pokes; ++k) {
        const std::size_t at = in.u16() % n;
        Mapping pm = mapping(in.byte(), fan_in);
        pm.specials = true;
        flat[at] = value<T>(in.byte(), pm);
    }
}

template <class T, class P>
double max_abs(const P& p) {
    const T* flat = reinterpret_cast<const T*>(&p);  // NOLINT: as fill_params
    double m = 0.0;
    for (std::size_t k = 0; k < sizeof(P) / sizeof(T); ++k) m = std::max(m, std::fabs(static_cast<double>(flat[k])));
    return m;  // NaN never wins std::max here: NaN weights are caught by validate() first
}

template <class T>
void read_input(Bytes& in, const Mapping& m, std::size_t n, T* x, bool& finite, double& mx) {
    for (std::size_t k = 0; k < n; ++k) {
        x[k] = value<T>(in.byte(), m);
        if (!std::isfinite(x[k]))
            finite = false;
        else
            mx = std::max(mx, std::fabs(static_cast<double>(x[k])));
    }
}

// ---- sanity: when may the bounds on values and the SIMD/scalar comparison be asked for? ---------------------
/// Magnitudes below which no product or sum in a step can overflow T (|h|, |c| <= 1 by construction; scores are
/// at most Hidden·K·Hidden·w², pre-activations In·w·x): 1e4 for float, 1e30 for double. Below them a step must
/// be ok; above them it may refuse (overflow), and an ok step must still show no NaN or Inf.
template <class T>
constexpr double sane_limit() {
    return sizeof(T) == sizeof(float) ? 1e4 : 1e30;
}

// ---- tolerance of the SIMD set vs the scalar set on one step --------------------------------------------------
/// C·eps·magnitude: C covers summation order (the sets sum in different orders), tanh/exp (1-2 ulp apart) and
/// the reciprocal of the softmax.
/// C is SARNN_FUZZ_TOL_C from the environment when set, else the macro (default 64). With C = 0 a run must fail
/// within seconds: it shows that the comparisons run (scripts/fuzz runs that canary).
#ifndef SARNN_FUZZ_TOL_C
#define SARNN_FUZZ_TOL_C 64.0
#endif
inline double tol_c() {
    static const double c = [] {
        const char* e = std::getenv("SARNN_FUZZ_TOL_C");
        return e != nullptr && *e != '\0' ? std::strtod(e, nullptr) : static_cast<double>(SARNN_FUZZ_TOL_C);
    }();
    return c;
}
template <class T>
double tol(double magnitude) {
    return tol_c() * static_cast<double>(std::numeric_limits<T>::epsilon()) * (1.0 + magnitude);
}

template <class T>
void check_close(const sarnn::View<T>& a, const sarnn::View<T>& b, double bound, const char* what) {
    FZ_CHECK(a.size() == b.size(), what);
    for (std::size_t k = 0; k < a.size(); ++k) {
        const double d = std::fabs(static_cast<double>(a[k]) - static_cast<double>(b[k]));
        if (!(d <= bound)) fail(what, d, bound);
    }
}

/// No NaN, no Inf, whatever the magnitude.
template <class T>
void check_no_nan_inf(const sarnn::View<T>& v, const char* what) {
    for (const T& x : v)
        if (!std::isfinite(x)) fail(what, static_cast<double>(x), static_cast<double>(std::numeric_limits<T>::max()));
}

template <class T>
void check_finite(const sarnn::View<T>& v, double bound, const char* what) {
    for (const T& x : v) {
        if (!std::isfinite(x)) fail(what, static_cast<double>(x), bound);
        if (!(std::fabs(static_cast<double>(x)) <= bound)) fail(what, static_cast<double>(x), bound);
    }
}

/// alpha in [0, 1] summing to 1 within 1e-4 (nothing to check when empty).
template <class T>
void check_attention(const sarnn::View<T>& a) {
    if (a.empty()) return;
    double sum = 0.0;
    for (const T& v : a) {
        if (!(v >= T(0) && static_cast<double>(v) <= 1.0 + 1e-6))
            fail("attention weight outside [0, 1]", static_cast<double>(v), 1.0);
        sum += static_cast<double>(v);
    }
    if (!(std::fabs(sum - 1.0) <= 1e-4)) fail("attention does not sum to 1", sum, 1.0);
}

/// The arch every model uses in a fuzz run (the best this CPU has) and whether a scalar twin is worth running.
struct Arches {
    sarnn::Arch best = sarnn::Arch::scalar;
    bool compare = false;
};
inline const Arches& arches() {
    static const Arches a = [] {
        Arches r;
        r.best = sarnn::active_arch();
        r.compare = r.best != sarnn::Arch::scalar;
        return r;
    }();
    return a;
}

}  // namespace fz

#endif
