// tests/test_kernels.cpp: every function of sarnn::Kernels<T>, for every kernel set available here, against
// plain double loops, over sizes around the vector widths (1..100), honouring the padding contract of
// kernels.hpp:
//  - a padded row is aligned to storage_alignment<T>(), holds padded(n) values, lanes >= n zero on entry, and
//    the kernel writes only lanes < n (checked: padding lanes are still exactly 0 afterwards);
//  - padded-row outputs that are never read (lstm_cell's c and h) hold a sentinel in their padding lanes, which
//    must survive;
//  - other pointers hold exactly n values (allocated to that exact size, so a sanitizer build sees any read
//    past them), outputs among them get sentinel guards after n (gemv_add, gemv_t, additive_scores: also one
//    before them) that must survive; where the contract allows any alignment, they are also tried one element
//    off a vector boundary;
//  - ring-ordered rows (first > 0, cap > n) whose unused physical rows hold large garbage that must not leak.
// Tolerances: reference.hpp (abs tol for bounded results, tol·max(1, Σ|terms|) for unbounded sums, relative
// for exp).
#include <catch2/catch.hpp>

#include <sarnn/sarnn.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <new>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "reference.hpp"
#include "support.hpp"

namespace {

constexpr std::array<std::size_t, 13> kSizes = {1, 2, 3, 5, 7, 15, 16, 17, 31, 33, 64, 65, 100};
constexpr std::size_t kGuard = 8;  // sentinel values after an output that holds exactly n values

/// `count` values of T, `offset` elements past an address aligned to storage_alignment<T>(); the allocation
/// ends exactly after the last value.
template <class T>
class Buffer {
public:
    explicit Buffer(std::size_t count, std::size_t offset = 0) : count_(count), offset_(offset) {
        raw_ = static_cast<T*>(::operator new((count + offset) * sizeof(T), std::align_val_t(kAlign)));
        for (std::size_t k = 0; k < count + offset; ++k) raw_[k] = T(0);
    }
    ~Buffer() { ::operator delete(raw_, std::align_val_t(kAlign)); }
    Buffer(const Buffer&) = delete;
    Buffer& operator=(const Buffer&) = delete;

    T* data() noexcept { return raw_ + offset_; }
    const T* data() const noexcept { return raw_ + offset_; }
    T& operator[](std::size_t k) noexcept { return data()[k]; }
    const T& operator[](std::size_t k) const noexcept { return data()[k]; }
    std::size_t size() const noexcept { return count_; }

private:
    static constexpr std::size_t kAlign = sarnn::storage_alignment<T>();
    T* raw_ = nullptr;
    std::size_t count_;
    std::size_t offset_;
};

/// A padded row of n values: valid lanes from `fill`, padding lanes zero.
template <class T, class Fill>
void fill_padded(Buffer<T>& row, std::size_t n, Fill fill) {
    for (std::size_t k = 0; k < row.size(); ++k) row[k] = k < n ? static_cast<T>(fill(k)) : T(0);
}
template <class T>
bool padding_is_zero(const Buffer<T>& row, std::size_t n) {
    for (std::size_t k = n; k < row.size(); ++k)
        if (!(row[k] == T(0)) || std::signbit(row[k])) return false;
    return true;
}

/// The sentinel written after an n-value output; a different one per type so it is exact.
template <class T>
constexpr T kSentinel = T(-12345.5);

template <class T>
bool guard_intact(const Buffer<T>& b, std::size_t n) {
    for (std::size_t k = n; k < b.size(); ++k)
        if (!(b[k] == kSentinel<T>)) return false;
    return true;
}

/// The largest (normalised) error of one kernel over all sizes, and where it was.
struct Worst {
    double max = 0.0;
    std::string where = "nowhere";
    bool pads_ok = true;
    std::string pads_where;
    bool guards_ok = true;
    std::string guards_where;

    template <class Describe>
    void add(double err, Describe describe) {
        if (!(err <= max)) {
            max = std::isnan(err) ? std::numeric_limits<double>::infinity() : err;
            where = describe();
        }
    }
    template <class Describe>
    void pads(bool ok, Describe describe) {
        if (!ok && pads_ok) pads_where = describe();
        pads_ok = pads_ok && ok;
    }
    template <class Describe>
    void guards(bool ok, Describe describe) {
        if (!ok && guards_ok) guards_where = describe();
        guards_ok = guards_ok && ok;
    }
    void check(double tol) const {
        INFO("worst: " << where);
        CHECK(max <= tol);
        INFO("padding lanes written: " << pads_where);
        CHECK(pads_ok);
        INFO("values written past n: " << guards_where);
        CHECK(guards_ok);
    }
};

/// Runs f(ops) for every kernel set lib/ holds and the CPU runs, calling the set's functions directly (without
/// touching the run-time choice).
template <class T, class F>
void for_each_set(F&& f) {
    int ran = 0;
    sarnn::kernel::for_each_set([&](auto set) {
        using Set = decltype(set);
        CHECK(Set::runs_here() == sarnn::arch_available(Set::arch));
        if (!Set::runs_here()) {
            test::note_unavailable(Set::arch);
            return;
        }
        const test::Ops<T> k = test::ops_of<Set, T>();
        REQUIRE(test::set_reports<T>(k.arch, Set::arch));
        if (k.arch != Set::arch) return;  // the scalar code standing in for a double-less SIMD arch: tested as scalar
        INFO("kernel set " << sarnn::arch_name(Set::arch) << ", T = " << (sizeof(T) == 4 ? "float" : "double"));
        f(k);
        ++ran;
    });
    REQUIRE(ran >= 1);
}

template <class T>
std::string describe(const char* what, std::size_t a, std::size_t b = 0, std::size_t c = 0) {
    std::ostringstream os;
    os << what << " (" << a << ", " << b << ", " << c << ")";
    return os.str();
}

// ---- dot -----------------------------------------------------------------------------------------------------
template <class T>
void check_dot() {
    for_each_set<T>([](const test::Ops<T>& k) {
        std::mt19937 g(11);
        Worst w;
        for (std::size_t n : kSizes) {
            for (std::size_t offset : {0, 1}) {  // any alignment
                Buffer<T> a(n, offset), b(n, 1 - offset);
                double want = 0.0, mag = 0.0;
                for (std::size_t i = 0; i < n; ++i) {
                    a[i] = static_cast<T>(test::uniform(g, -1.0, 1.0));
                    b[i] = static_cast<T>(test::uniform(g, -1.0, 1.0));
                    want += static_cast<double>(a[i]) * static_cast<double>(b[i]);
                    mag += std::fabs(static_cast<double>(a[i]) * static_cast<double>(b[i]));
                }
                const double got = static_cast<double>(k.dot(a.data(), b.data(), n));
                w.add(std::fabs(got - want) / std::max(1.0, mag), [&] { return describe<T>("dot n, offset", n, offset); });
            }
        }
        w.check(ref::tol<T>());
    });
}

// ---- gemv ----------------------------------------------------------------------------------------------------
/// An output of exactly n values at data() + 1 (any alignment: `offset` shifts the whole buffer), with one
/// sentinel before it and kGuard after it.
template <class T>
bool sentinels_around(const Buffer<T>& b, std::size_t n) {
    if (!(b[0] == kSentinel<T>)) return false;
    for (std::size_t k = 1 + n; k < b.size(); ++k)
        if (!(b[k] == kSentinel<T>)) return false;
    return true;
}

/// gemv (y = M·v), gemv_add (y += M·v) and gemv_t (y = Mᵀ·v), one loop over their shapes: every rows x cols of
/// kSizes, ld = cols or cols + 3 (the gaps hold garbage), M, v and y each on or off a vector boundary in turn
/// (all three may have any alignment), sentinels before and after the output.
enum class GemvOp { plain, add, transposed };

template <class T>
void check_gemv_op(GemvOp op, unsigned seed) {
    for_each_set<T>([&](const test::Ops<T>& k) {
        std::mt19937 g(seed);
        Worst w;
        std::size_t case_index = 0;
        const bool tr = op == GemvOp::transposed;
        const char* name = op == GemvOp::plain ? "gemv" : op == GemvOp::add ? "gemv_add" : "gemv_t";
        for (std::size_t rows : kSizes) {
            for (std::size_t cols : kSizes) {
                for (std::size_t extra : {0, 3}) {
                    ++case_index;
                    const std::size_t ld = cols + extra, n_in = tr ? rows : cols, n_out = tr ? cols : rows;
                    Buffer<T> M(rows * ld - extra, case_index % 2), v(n_in, (case_index / 2) % 2),
                        y(1 + n_out + kGuard, (case_index / 4) % 2);
                    for (std::size_t i = 0; i < M.size(); ++i)
                        M[i] = static_cast<T>(i % ld < cols ? test::uniform(g, -1.0, 1.0) : 999.0);  // gaps: garbage
                    for (std::size_t i = 0; i < n_in; ++i) v[i] = static_cast<T>(test::uniform(g, -1.0, 1.0));
                    std::vector<double> y0(n_out, 0.0);
                    for (std::size_t i = 0; i < y.size(); ++i) y[i] = kSentinel<T>;
                    for (std::size_t o = 0; o < n_out; ++o) {
                        // gemv and gemv_t must overwrite what is there; gemv_add adds to it
                        y[1 + o] = static_cast<T>(op == GemvOp::add ? test::uniform(g, -4.0, 4.0) : 7.0);
                        if (op == GemvOp::add) y0[o] = static_cast<double>(y[1 + o]);
                    }
                    if (op == GemvOp::plain) k.gemv(M.data(), rows, cols, ld, v.data(), y.data() + 1);
                    if (op == GemvOp::add) k.gemv_add(M.data(), rows, cols, ld, v.data(), y.data() + 1);
                    if (tr) k.gemv_t(M.data(), rows, cols, ld, v.data(), y.data() + 1);
                    const std::string label = std::string(name) + " rows, cols, ld";
                    const auto where = [&] { return describe<T>(label.c_str(), rows, cols, ld); };
                    for (std::size_t o = 0; o < n_out; ++o) {
                        // y_o = y0_o + Σ_i M_oi v_i  (gemv_t: M_io)
                        double want = y0[o], mag = std::fabs(y0[o]);
                        for (std::size_t i = 0; i < n_in; ++i) {
                            const T m = tr ? M[i * ld + o] : M[o * ld + i];
                            const double t = static_cast<double>(m) * static_cast<double>(v[i]);
                            want += t;
                            mag += std::fabs(t);
                        }
                        w.add(std::fabs(static_cast<double>(y[1 + o]) - want) / std::max(1.0, mag), where);
                    }
                    w.guards(sentinels_around(y, n_out), where);
                }
            }
        }
        w.check(ref::tol<T>());
    });
}

// ---- affine_tanh ---------------------------------------------------------------------------------------------
template <class T>
void check_affine_tanh() {
    for_each_set<T>([](const test::Ops<T>& k) {
        std::mt19937 g(13);
        Worst w;
        for (std::size_t rows : kSizes) {
            for (std::size_t nx : {std::size_t{1}, std::size_t{3}, std::size_t{16}, std::size_t{33}}) {
                for (std::size_t nr : kSizes) {
                    const std::size_t cols = nx + nr;
                    const double s = 1.5 / std::sqrt(static_cast<double>(cols));
                    Buffer<T> A(rows * cols, rows % 2), b(rows), x(nx, nx % 2);
                    Buffer<T> r(sarnn::padded<T>(nr)), y(sarnn::padded<T>(rows));
                    for (std::size_t i = 0; i < A.size(); ++i) A[i] = static_cast<T>(test::uniform(g, -s, s));
                    for (std::size_t i = 0; i < rows; ++i) b[i] = static_cast<T>(test::uniform(g, -s, s));
                    for (std::size_t i = 0; i < nx; ++i) x[i] = static_cast<T>(test::uniform(g, -1.0, 1.0));
                    fill_padded(r, nr, [&](std::size_t) { return test::uniform(g, -1.0, 1.0); });
                    fill_padded(y, rows, [](std::size_t) { return 7.0; });  // valid lanes: garbage to overwrite
                    k.affine_tanh(A.data(), b.data(), rows, x.data(), nx, r.data(), nr, y.data());
                    const auto where = [&] { return describe<T>("affine_tanh rows, nx, nr", rows, nx, nr); };
                    for (std::size_t i = 0; i < rows; ++i) {
                        double z = static_cast<double>(b[i]), mag = std::fabs(z);
                        for (std::size_t c = 0; c < cols; ++c) {
                            const double t =
                                static_cast<double>(A[i * cols + c]) * static_cast<double>(c < nx ? x[c] : r[c - nx]);
                            z += t;
                            mag += std::fabs(t);
                        }
                        w.add(std::fabs(static_cast<double>(y[i]) - std::tanh(z)) / std::max(1.0, mag), where);
                    }
                    w.pads(padding_is_zero(y, rows), where);
                    w.pads(padding_is_zero(r, nr), where);  // input untouched
                }
            }
        }
        w.check(ref::tol<T>());
    });
}

// ---- tanh, exp -----------------------------------------------------------------------------------------------
template <class T>
void check_tanh() {
    for_each_set<T>([](const test::Ops<T>& k) {
        std::mt19937 g(14);
        Worst w;
        const double specials[] = {0.0, 1e-4, -1e-4, 0.5, -0.625, 0.625, 3.0, -9.0, 20.0, -20.0, 100.0, -1000.0};
        for (std::size_t n : kSizes) {
            for (std::size_t offset : {0, 1}) {
                Buffer<T> y(n + kGuard, offset);
                std::vector<double> in(n);
                for (std::size_t i = 0; i < n; ++i) {
                    const T v = static_cast<T>(i % 4 == 3 ? specials[(i / 4) % 12] : test::uniform(g, -10.0, 10.0));
                    y[i] = v;
                    in[i] = static_cast<double>(v);
                }
                for (std::size_t i = n; i < y.size(); ++i) y[i] = kSentinel<T>;
                k.tanh(y.data(), n);
                const auto where = [&] { return describe<T>("tanh n, offset", n, offset); };
                for (std::size_t i = 0; i < n; ++i) w.add(std::fabs(static_cast<double>(y[i]) - std::tanh(in[i])), where);
                w.guards(guard_intact(y, n), where);
            }
        }
        w.check(ref::tol<T>());
    });
}

template <class T>
void check_exp() {
    for_each_set<T>([](const test::Ops<T>& k) {
        std::mt19937 g(15);
        Worst w;
        // within the range where exp(x) is a normal number of T
        const double lim = sizeof(T) == 4 ? 80.0 : 700.0;
        for (std::size_t n : kSizes) {
            for (std::size_t offset : {0, 1}) {
                Buffer<T> y(n + kGuard, offset);
                std::vector<double> in(n);
                for (std::size_t i = 0; i < n; ++i) {
                    const T v = static_cast<T>(i % 5 == 4 ? 0.0 : test::uniform(g, -lim, lim));
                    y[i] = v;
                    in[i] = static_cast<double>(v);
                }
                for (std::size_t i = n; i < y.size(); ++i) y[i] = kSentinel<T>;
                k.exp(y.data(), n);
                const auto where = [&] { return describe<T>("exp n, offset", n, offset); };
                for (std::size_t i = 0; i < n; ++i) {
                    const double want = std::exp(in[i]);
                    w.add(std::fabs(static_cast<double>(y[i]) - want) / want, where);
                }
                w.guards(guard_intact(y, n), where);
            }
        }
        w.check(ref::tol<T>());

        // underflow gives 0, overflow +inf
        bool under = true, over = true;
        for (std::size_t n : kSizes) {
            Buffer<T> lo(n), hi(n);
            for (std::size_t i = 0; i < n; ++i) {
                lo[i] = T(-1000);
                hi[i] = T(1000);
            }
            k.exp(lo.data(), n);
            k.exp(hi.data(), n);
            for (std::size_t i = 0; i < n; ++i) {
                if (!(lo[i] == T(0))) under = false;
                if (!(hi[i] == std::numeric_limits<T>::infinity())) over = false;
            }
        }
        CHECK(under);
        CHECK(over);
    });
}

/// float exp and tanh over their whole range, densely (every set: the SIMD sets' own polynomials of
/// kernels/simd/float_math.hpp, the Cortex-M approximations, libm): error within 3 ulp of float (3.6e-7) against
/// double, exp on [-86, 88.7] relative, tanh on 0 and ±[1e-30, 20] relative (the Cortex-M sets: absolute, as
/// kernels/cortex_m/set.hpp documents); and the edges: exp(-inf) = 0, exp(+inf) = +inf, exp(x) = +inf above
/// ln FLT_MAX, tanh(±inf) = ±1, tanh(±FLT_MAX) = ±1, NaN stays NaN.
void check_float_math_dense() {
    for_each_set<float>([](const test::Ops<float>& k) {
        const bool absolute_tanh = std::string(sarnn::arch_name(k.arch)).rfind("cortex", 0) == 0;
        constexpr std::size_t kN = 20000;
        constexpr double kUlps3 = 3.0 * 0x1p-23;
        Buffer<float> y(kN);
        std::vector<double> in(kN);
        double worst_exp = 0.0, worst_tanh = 0.0, at_exp = 0.0, at_tanh = 0.0;
        for (int sweep = 0; sweep < 10; ++sweep) {
            for (std::size_t i = 0; i < kN; ++i) {
                const double t = (static_cast<double>(sweep * kN + i) + 0.5) / (10.0 * kN);
                y[i] = static_cast<float>(-86.0 + t * (88.7 + 86.0));
                in[i] = static_cast<double>(y[i]);
            }
            k.exp(y.data(), kN);
            for (std::size_t i = 0; i < kN; ++i) {
                const double err = std::fabs(static_cast<double>(y[i]) - std::exp(in[i])) / std::exp(in[i]);
                if (!(err <= worst_exp)) {
                    worst_exp = err;
                    at_exp = in[i];
                }
            }
            for (std::size_t i = 0; i < kN; ++i) {
                // half linear in [-20, 20], half geometric in ±[1e-30, 1]
                const double t = (static_cast<double>(sweep * kN + i) + 0.5) / (10.0 * kN);
                const double v = i % 2 == 0 ? -20.0 + 40.0 * t : (i % 4 == 1 ? 1.0 : -1.0) * std::pow(10.0, -30.0 * t);
                y[i] = static_cast<float>(v);
                in[i] = static_cast<double>(y[i]);
            }
            k.tanh(y.data(), kN);
            for (std::size_t i = 0; i < kN; ++i) {
                const double want = std::tanh(in[i]);
                const double scale = absolute_tanh ? 1.0 : std::fabs(want);
                const double err = want == 0.0 ? std::fabs(static_cast<double>(y[i])) : std::fabs(static_cast<double>(y[i]) - want) / scale;
                if (!(err <= worst_tanh)) {
                    worst_tanh = err;
                    at_tanh = in[i];
                }
            }
        }
        INFO("worst exp " << worst_exp << " at " << at_exp << ", worst tanh " << worst_tanh << " at " << at_tanh);
        CHECK(worst_exp <= kUlps3);
        CHECK(worst_tanh <= kUlps3);

        constexpr float inf = std::numeric_limits<float>::infinity();
        constexpr float big = std::numeric_limits<float>::max();
        const float nan = std::numeric_limits<float>::quiet_NaN();
        Buffer<float> e(6), t(7);
        const float e_in[6] = {-inf, inf, 88.73f, 1000.0f, -1000.0f, nan};
        const float t_in[7] = {-inf, inf, big, -big, 0.0f, nan, -0.0f};
        for (std::size_t i = 0; i < 6; ++i) e[i] = e_in[i];
        for (std::size_t i = 0; i < 7; ++i) t[i] = t_in[i];
        k.exp(e.data(), 6);
        k.tanh(t.data(), 7);
        CHECK(e[0] == 0.0f);
        CHECK(e[1] == inf);
        CHECK(e[2] == inf);
        CHECK(e[3] == inf);
        CHECK(e[4] == 0.0f);
        CHECK(std::isnan(e[5]));
        CHECK(t[0] == -1.0f);
        CHECK(t[1] == 1.0f);
        CHECK(t[2] == 1.0f);
        CHECK(t[3] == -1.0f);
        CHECK(t[4] == 0.0f);
        CHECK(std::isnan(t[5]));
        CHECK(t[6] == 0.0f);
    });
}

// ---- softmax -------------------------------------------------------------------------------------------------
template <class T>
void check_softmax_values(const test::Ops<T>& k, Worst& w, const std::vector<double>& scores, bool zero_padded,
                          const char* what) {
    const std::size_t n = scores.size();
    // zero_padded: the layout of a padded row (the "exp(0) of empty lanes" trap); otherwise exactly n values
    // followed by sentinel guards that would dominate the max if they were read.
    Buffer<T> y(zero_padded ? sarnn::padded<T>(n) : n + kGuard);
    for (std::size_t i = 0; i < y.size(); ++i) y[i] = i < n ? static_cast<T>(scores[i]) : (zero_padded ? T(0) : T(40));
    k.softmax(y.data(), n);
    std::vector<double> in(n);
    for (std::size_t i = 0; i < n; ++i) in[i] = static_cast<double>(static_cast<T>(scores[i]));
    const ref::Vec want = ref::softmax(in);
    const auto where = [&] { return describe<T>(what, n, zero_padded); };
    double sum = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
        w.add(std::fabs(static_cast<double>(y[i]) - want[i]), where);
        sum += static_cast<double>(y[i]);
    }
    w.add(std::fabs(sum - 1.0), [&] { return describe<T>("softmax sum n, zero padded", n, zero_padded); });
    bool rest = true;
    for (std::size_t i = n; i < y.size(); ++i)
        if (!(y[i] == (zero_padded ? T(0) : T(40)))) rest = false;
    w.guards(rest, where);
}

template <class T>
void check_softmax() {
    for_each_set<T>([](const test::Ops<T>& k) {
        std::mt19937 g(16);
        Worst w;
        for (std::size_t n : kSizes) {
            for (bool zero_padded : {true, false}) {
                std::vector<double> e(n);
                for (double& v : e) v = test::uniform(g, -10.0, 10.0);
                check_softmax_values(k, w, e, zero_padded, "softmax random n, zero padded");
                // huge scores: max subtraction, exact integer differences
                for (std::size_t i = 0; i < n; ++i) e[i] = 1e4 - static_cast<double>(i % 4);
                check_softmax_values(k, w, e, zero_padded, "softmax 1e4 n, zero padded");
                for (std::size_t i = 0; i < n; ++i) e[i] = i % 3 == 0 ? -1e4 : (i % 3 == 1 ? 1e4 : 0.0);
                check_softmax_values(k, w, e, zero_padded, "softmax ±1e4 n, zero padded");
                for (std::size_t i = 0; i < n; ++i) e[i] = -1e4;  // all equal and very negative: 1/n each
                check_softmax_values(k, w, e, zero_padded, "softmax -1e4 n, zero padded");
                for (std::size_t i = 0; i < n; ++i) e[i] = i + 1 == n ? 1e30 : -1e30;  // one-hot
                check_softmax_values(k, w, e, zero_padded, "softmax 1e30 n, zero padded");
            }
        }
        w.check(ref::tol<T>());
    });
}

// ---- ring-ordered rows -----------------------------------------------------------------------------------------
/// cap physical padded rows of dim values; the n logical ones start at `first` (mod cap). Physical rows outside
/// the logical range hold 1e3 in their valid lanes: reading one of them would show.
template <class T>
struct RingRows {
    std::size_t dim, stride, cap, first, n;
    Buffer<T> storage;

    RingRows(std::size_t dim_, std::size_t cap_, std::size_t first_, std::size_t n_, std::mt19937& g, double lo,
             double hi)
        : dim(dim_), stride(sarnn::padded<T>(dim_)), cap(cap_), first(first_), n(n_), storage(cap_ * stride) {
        for (std::size_t p = 0; p < cap; ++p) {
            const bool used = (p + cap - first) % cap < n;
            for (std::size_t k = 0; k < stride; ++k)
                storage[p * stride + k] =
                    k >= dim ? T(0) : static_cast<T>(used ? test::uniform(g, lo, hi) : 1e3);
        }
    }
    sarnn::Rows<T> rows() const { return {storage.data(), stride, dim, cap, first, n}; }
    /// Logical row j, located independently of sarnn::Rows::row.
    const T* row(std::size_t j) const { return storage.data() + ((first + j) % cap) * stride; }
    T* row(std::size_t j) { return storage.data() + ((first + j) % cap) * stride; }
};

/// (cap, first) for the i-th case with n logical rows: plain, wrapped, wrapped with spare rows.
inline void ring_layout(std::size_t i, std::size_t n, std::size_t& cap, std::size_t& first) {
    switch (i % 4) {
    case 0: cap = n; first = 0; break;
    case 1: cap = n; first = n / 2; break;
    case 2: cap = n + 3; first = n + 2; break;  // logical row 0 is the last physical row
    default: cap = n + 5; first = 2; break;     // spare rows on both sides
    }
}

constexpr std::array<std::size_t, 15> kRowCounts = {1, 2, 3, 5, 7, 15, 16, 17, 31, 33, 64, 65, 100, 257, 300};

template <class T>
void check_weighted_sum() {
    for_each_set<T>([](const test::Ops<T>& k) {
        std::mt19937 g(17);
        Worst w;
        std::size_t case_index = 0;
        for (std::size_t dim : kSizes) {
            for (std::size_t n : kRowCounts) {
                if (n * dim > 6000) continue;  // keep it fast
                for (int variant = 0; variant < 2; ++variant, ++case_index) {
                    std::size_t cap = 0, first = 0;
                    ring_layout(case_index, n, cap, first);
                    RingRows<T> S(dim, cap, first, n, g, -1.0, 1.0);
                    Buffer<T> wt(n), c(sarnn::padded<T>(dim));
                    for (std::size_t j = 0; j < n; ++j) wt[j] = static_cast<T>(test::uniform(g, -1.0, 1.0));
                    fill_padded(c, dim, [](std::size_t) { return 7.0; });
                    k.weighted_sum(wt.data(), S.rows(), c.data());
                    const auto where = [&] { return describe<T>("weighted_sum dim, n, cap/first", dim, n, cap * 1000 + first); };
                    for (std::size_t d = 0; d < dim; ++d) {
                        double want = 0.0, mag = 0.0;
                        for (std::size_t j = 0; j < n; ++j) {
                            const double t = static_cast<double>(wt[j]) * static_cast<double>(S.row(j)[d]);
                            want += t;
                            mag += std::fabs(t);
                        }
                        w.add(std::fabs(static_cast<double>(c[d]) - want) / std::max(1.0, mag), where);
                    }
                    w.pads(padding_is_zero(c, dim), where);
                }
            }
        }
        w.check(ref::tol<T>());
    });
}

// ---- attend_dot ----------------------------------------------------------------------------------------------
template <class T>
void check_attend_case(const test::Ops<T>& k, Worst& w, const RingRows<T>& S, const Buffer<T>& q, T scale,
                       const char* what) {
    const std::size_t n = S.n, dim = S.dim;
    Buffer<T> alpha(n + kGuard), c(sarnn::padded<T>(dim));
    for (std::size_t j = 0; j < alpha.size(); ++j) alpha[j] = j < n ? T(3) : kSentinel<T>;
    fill_padded(c, dim, [](std::size_t) { return 7.0; });
    k.attend_dot(S.rows(), q.data(), scale, alpha.data(), c.data());

    // reference: e_j = scale·(S_j·q), softmax, c = Σ alpha_j S_j, in double
    std::vector<ref::Vec> rows(n, ref::Vec(dim));
    ref::Vec qd(dim);
    for (std::size_t d = 0; d < dim; ++d) qd[d] = static_cast<double>(q[d]);
    ref::Vec e(n);
    for (std::size_t j = 0; j < n; ++j) {
        for (std::size_t d = 0; d < dim; ++d) rows[j][d] = static_cast<double>(S.row(j)[d]);
        e[j] = static_cast<double>(scale) * ref::dot(rows[j], qd);
    }
    const ref::Vec a = ref::softmax(e);
    const auto where = [&] {
        std::ostringstream os;
        os << what << ": dim " << dim << ", n " << n << ", cap " << S.cap << ", first " << S.first << ", scale "
           << static_cast<double>(scale);
        return os.str();
    };
    double sum = 0.0;
    for (std::size_t j = 0; j < n; ++j) {
        w.add(std::fabs(static_cast<double>(alpha[j]) - a[j]), where);
        sum += static_cast<double>(alpha[j]);
    }
    w.add(std::fabs(sum - 1.0), where);
    for (std::size_t d = 0; d < dim; ++d) {
        double want = 0.0;
        for (std::size_t j = 0; j < n; ++j) want += a[j] * rows[j][d];
        w.add(std::fabs(static_cast<double>(c[d]) - want), where);
    }
    w.pads(padding_is_zero(c, dim), where);
    w.pads(padding_is_zero(q, dim), where);
    w.guards(guard_intact(alpha, n), where);
}

template <class T>
void check_attend_dot() {
    for_each_set<T>([](const test::Ops<T>& k) {
        std::mt19937 g(18);
        Worst w;
        std::size_t case_index = 0;
        for (std::size_t dim : kSizes) {
            for (std::size_t n : kRowCounts) {
                if (n * dim > 6000) continue;
                std::size_t cap = 0, first = 0;
                ring_layout(case_index++, n, cap, first);
                // rows like the model's states (|h| <= 1), q one of them or random
                RingRows<T> S(dim, cap, first, n, g, -1.0, 1.0);
                Buffer<T> q(sarnn::padded<T>(dim));
                fill_padded(q, dim, [&](std::size_t d) {
                    return case_index % 2 ? static_cast<double>(S.row(n - 1)[d]) : test::uniform(g, -1.0, 1.0);
                });
                check_attend_case(k, w, S, q, T(1), "attend_dot");
                check_attend_case(k, w, S, q, static_cast<T>(1.0 / std::sqrt(static_cast<double>(dim))), "attend_dot");
            }
        }
        w.check(ref::tol<T>());
    });
}

/// Scores of 1e4 (exact integers): the online softmax must subtract the running max, never overflow.
template <class T>
void check_attend_dot_huge_scores() {
    for_each_set<T>([](const test::Ops<T>& k) {
        std::mt19937 g(19);
        Worst w;
        std::size_t case_index = 0;
        for (std::size_t n : kRowCounts) {
            const std::size_t dim = 100;
            if (n > 100) continue;
            std::size_t cap = 0, first = 0;
            ring_layout(case_index++, n, cap, first);
            RingRows<T> S(dim, cap, first, n, g, -1.0, 1.0);
            // row j: all 10 - (j mod 3), q: all 10 -> scores 1e4, 9e3, 8e3, 1e4, ... (ties among the maxima);
            // for the rising variant the max comes last, so a running max must be revised block after block.
            for (int rising = 0; rising < 2; ++rising) {
                for (std::size_t j = 0; j < n; ++j) {
                    const double v = rising ? -10.0 + 20.0 * static_cast<double>(j) / static_cast<double>(n)
                                            : 10.0 - static_cast<double>(j % 3);
                    T* row = S.row(j);
                    for (std::size_t d = 0; d < dim; ++d) row[d] = static_cast<T>(std::round(v));
                }
                Buffer<T> q(sarnn::padded<T>(dim));
                fill_padded(q, dim, [](std::size_t) { return 10.0; });
                check_attend_case(k, w, S, q, T(1), rising ? "attend_dot 1e4 rising" : "attend_dot 1e4 ties");
            }
        }
        w.check(ref::tol<T>());
    });
}

/// Memories of thousands of states: many chunks (and, past 64 of them, alpha kept as raw scores until the end),
/// with scores that keep rising (the softmax shift must be raised again and again, also in the middle of a
/// chunk) or one spike far above the rest late in the memory.
template <class T>
void check_attend_dot_long_memory() {
    for_each_set<T>([](const test::Ops<T>& k) {
        std::mt19937 g(20);
        Worst w;
        std::size_t case_index = 0;
        for (std::size_t dim : {16, 33, 64, 128, 256}) {
            const std::size_t n = dim * 4100 <= 600000 ? 4100 : 1500;
            for (int pattern = 0; pattern < 3; ++pattern) {
                std::size_t cap = 0, first = 0;
                ring_layout(case_index++, n, cap, first);
                RingRows<T> S(dim, cap, first, n, g, -1.0, 1.0);
                Buffer<T> q(sarnn::padded<T>(dim));
                fill_padded(q, dim, [&](std::size_t) { return test::uniform(g, -1.0, 1.0); });
                const char* what = "attend_dot long, random";
                if (pattern == 1) {
                    // row j: all (j - n/2) / D, q: all 1 -> scores rising by dim / D (1 to 2) per state, from about
                    // -2000 to 2000, all exact in float (the reference sees the same scores)
                    what = "attend_dot long, rising";
                    fill_padded(q, dim, [](std::size_t) { return 1.0; });
                    const double D = dim >= 64 ? static_cast<double>(dim) : 32.0;
                    for (std::size_t j = 0; j < n; ++j) {
                        T* row = S.row(j);
                        for (std::size_t d = 0; d < dim; ++d)
                            row[d] = static_cast<T>((static_cast<double>(j) - static_cast<double>(n / 2)) / D);
                    }
                } else if (pattern == 2) {
                    // one state, two thirds in, scores 40·Σ|q_d| against scores of at most Σ|q_d| elsewhere
                    what = "attend_dot long, spike";
                    T* row = S.row(n * 2 / 3);
                    for (std::size_t d = 0; d < dim; ++d) row[d] = q[d] < T(0) ? T(-40) : T(40);
                }
                check_attend_case(k, w, S, q, T(1), what);
            }
        }
        w.check(ref::tol<T>());
    });
}

// ---- additive_scores -----------------------------------------------------------------------------------------
template <class T>
void check_additive_scores() {
    for_each_set<T>([](const test::Ops<T>& k) {
        std::mt19937 g(23);
        Worst w;
        std::size_t case_index = 0;
        for (std::size_t K : kSizes) {
            for (std::size_t n : kRowCounts) {
                if (n * K > 6000) continue;
                for (int variant = 0; variant < 2; ++variant, ++case_index) {
                    // variant 0: P, q in ±2 (tanh in its curved part); 1: in ±12 (tanh saturated)
                    const double range = variant == 0 ? 2.0 : 12.0;
                    std::size_t cap = 0, first = 0;
                    ring_layout(case_index, n, cap, first);
                    RingRows<T> P(K, cap, first, n, g, -range, range);
                    Buffer<T> q(sarnn::padded<T>(K)), v(K, case_index % 2), e(1 + n + kGuard, (case_index / 2) % 2);
                    fill_padded(q, K, [&](std::size_t) { return test::uniform(g, -range, range); });
                    for (std::size_t d = 0; d < K; ++d) v[d] = static_cast<T>(test::uniform(g, -1.0, 1.0));
                    for (std::size_t j = 0; j < e.size(); ++j) e[j] = j >= 1 && j <= n ? T(3) : kSentinel<T>;
                    k.additive_scores(P.rows(), q.data(), v.data(), e.data() + 1);
                    const auto where = [&] {
                        std::ostringstream os;
                        os << "additive_scores K " << K << ", n " << n << ", cap " << cap << ", first " << first
                           << ", range " << range;
                        return os.str();
                    };
                    double mag = 0.0;  // each term is |v_d·tanh(..)| <= |v_d|
                    for (std::size_t d = 0; d < K; ++d) mag += std::fabs(static_cast<double>(v[d]));
                    for (std::size_t j = 0; j < n; ++j) {
                        // e_j = Σ_d v_d tanh(P_jd + q_d)
                        double want = 0.0;
                        for (std::size_t d = 0; d < K; ++d)
                            want += static_cast<double>(v[d]) *
                                    std::tanh(static_cast<double>(P.row(j)[d]) + static_cast<double>(q[d]));
                        w.add(std::fabs(static_cast<double>(e[1 + j]) - want) / std::max(1.0, mag), where);
                    }
                    w.guards(sentinels_around(e, n), where);
                    w.pads(padding_is_zero(q, K), where);  // input untouched
                }
            }
        }
        w.check(ref::tol<T>());
    });
}

// ---- lstm_cell -----------------------------------------------------------------------------------------------
/// A padded row of n values whose padding lanes hold the sentinel: an output must leave them as they are.
template <class T>
bool padding_is_sentinel(const Buffer<T>& row, std::size_t n) {
    for (std::size_t k = n; k < row.size(); ++k)
        if (!(row[k] == kSentinel<T>)) return false;
    return true;
}

inline double sigmoid(double z) { return 1.0 / (1.0 + std::exp(-z)); }

template <class T>
void check_lstm_cell() {
    for_each_set<T>([](const test::Ops<T>& k) {
        std::mt19937 g(24);
        Worst w;
        std::size_t case_index = 0;
        for (std::size_t H : kSizes) {
            for (int variant = 0; variant < 3; ++variant, ++case_index) {
                // pre-activations in ±4 (every gate in its curved part), ±60 (saturated: exp of ±60 in the
                // sigmoids), or a mix with exact zeros
                const double range = variant == 1 ? 60.0 : 4.0;
                const std::size_t offset = case_index % 2;  // z and b: any alignment, in turn
                Buffer<T> z(4 * H, offset), b(4 * H, 1 - offset), c_prev(sarnn::padded<T>(H));
                Buffer<T> c(sarnn::padded<T>(H)), h(sarnn::padded<T>(H));
                for (std::size_t i = 0; i < 4 * H; ++i) {
                    z[i] = static_cast<T>(variant == 2 && i % 3 == 0 ? 0.0 : test::uniform(g, -range, range));
                    b[i] = static_cast<T>(test::uniform(g, -1.0, 1.0));
                }
                fill_padded(c_prev, H, [&](std::size_t) { return test::uniform(g, -3.0, 3.0); });
                for (std::size_t i = 0; i < c.size(); ++i) {
                    c[i] = i < H ? T(7) : kSentinel<T>;
                    h[i] = i < H ? T(7) : kSentinel<T>;
                }
                k.lstm_cell(z.data(), b.data(), c_prev.data(), H, c.data(), h.data());
                const auto where = [&] { return describe<T>("lstm_cell H, variant, offset", H, variant, offset); };
                for (std::size_t d = 0; d < H; ++d) {
                    const auto pre = [&](std::size_t gate) {
                        return static_cast<double>(z[gate * H + d]) + static_cast<double>(b[gate * H + d]);
                    };
                    const double i_g = sigmoid(pre(0)), f_g = sigmoid(pre(1)), g_g = std::tanh(pre(2)),
                                 o_g = sigmoid(pre(3));
                    const double cp = static_cast<double>(c_prev[d]);
                    const double want_c = f_g * cp + i_g * g_g;
                    const double want_h = o_g * std::tanh(want_c);
                    // c is a sum of two bounded products: error relative to max(1, |c_prev| + 1)
                    w.add(std::fabs(static_cast<double>(c[d]) - want_c) / std::max(1.0, std::fabs(cp) + 1.0), where);
                    w.add(std::fabs(static_cast<double>(h[d]) - want_h), where);
                }
                w.pads(padding_is_sentinel(c, H) && padding_is_sentinel(h, H), where);
                w.pads(padding_is_zero(c_prev, H), where);  // input untouched
            }
        }
        w.check(ref::tol<T>());
    });
}

// ---- gru_cell ------------------------------------------------------------------------------------------------
template <class T>
void check_gru_cell() {
    for_each_set<T>([](const test::Ops<T>& k) {
        std::mt19937 g(25);
        Worst w;
        std::size_t case_index = 0;
        for (std::size_t H : kSizes) {
            for (int variant = 0; variant < 3; ++variant, ++case_index) {
                // gate sums in ±4 (curved), ±60 (saturated), or a mix with exact zeros
                const double range = variant == 1 ? 60.0 : 4.0;
                const std::size_t offset = case_index % 2;  // gi, gh and the biases: any alignment, in turn
                Buffer<T> gi(3 * H, offset), gh(3 * H, 1 - offset), b_ih(3 * H, 1 - offset), b_hh(3 * H, offset);
                Buffer<T> h_prev(sarnn::padded<T>(H)), h(sarnn::padded<T>(H));
                for (std::size_t i = 0; i < 3 * H; ++i) {
                    gi[i] = static_cast<T>(variant == 2 && i % 3 == 0 ? 0.0 : test::uniform(g, -range, range));
                    gh[i] = static_cast<T>(variant == 2 && i % 4 == 0 ? 0.0 : test::uniform(g, -range, range));
                    b_ih[i] = static_cast<T>(test::uniform(g, -1.0, 1.0));
                    b_hh[i] = static_cast<T>(test::uniform(g, -1.0, 1.0));
                }
                fill_padded(h_prev, H, [&](std::size_t) { return test::uniform(g, -1.0, 1.0); });
                for (std::size_t i = 0; i < h.size(); ++i) h[i] = i < H ? T(7) : kSentinel<T>;
                k.gru_cell(gi.data(), gh.data(), b_ih.data(), b_hh.data(), h_prev.data(), H, h.data());
                const auto where = [&] { return describe<T>("gru_cell H, variant, offset", H, variant, offset); };
                for (std::size_t d = 0; d < H; ++d) {
                    const auto in = [&](std::size_t gate) {
                        return static_cast<double>(gi[gate * H + d]) + static_cast<double>(b_ih[gate * H + d]);
                    };
                    const auto rec = [&](std::size_t gate) {
                        return static_cast<double>(gh[gate * H + d]) + static_cast<double>(b_hh[gate * H + d]);
                    };
                    // r, z = σ(..), n = tanh(gi_n + b_in + r (gh_n + b_hn)), h = (1 - z) n + z h_prev
                    const double r = sigmoid(in(0) + rec(0)), z = sigmoid(in(1) + rec(1));
                    const double n = std::tanh(in(2) + r * rec(2));
                    const double want = (1.0 - z) * n + z * static_cast<double>(h_prev[d]);
                    // the n sum's error is relative to its terms (up to 2·60 + 2)
                    const double mag = std::max(1.0, std::fabs(in(2)) + std::fabs(rec(2)));
                    w.add(std::fabs(static_cast<double>(h[d]) - want) / mag, where);
                }
                w.pads(padding_is_sentinel(h, H), where);
                w.pads(padding_is_zero(h_prev, H), where);  // input untouched
            }
        }
        w.check(ref::tol<T>());
    });
}

// ---- attend_keys ---------------------------------------------------------------------------------------------
/// Cached keys in ring order, laid out as sarnn::KeyBlocks says: value k of the key of physical row p at
/// ((p / L)·dim + k)·L + p % L, L = lanes<T>(), over padded(cap) rows. Rows that hold no state, and the padding
/// rows past cap, hold NaN: none may reach a result.
template <class T>
struct RingKeys {
    static constexpr std::size_t L = sarnn::lanes<T>();
    std::size_t dim, cap, first, n;
    Buffer<T> storage;

    RingKeys(std::size_t dim_, std::size_t cap_, std::size_t first_, std::size_t n_, std::mt19937& g, double lo,
             double hi)
        : dim(dim_), cap(cap_), first(first_), n(n_), storage(sarnn::padded<T>(cap_) * dim_) {
        for (std::size_t p = 0; p < sarnn::padded<T>(cap); ++p) {
            const bool used = p < cap && (p + cap - first) % cap < n;
            for (std::size_t k = 0; k < dim; ++k)
                value(p, k) = used ? static_cast<T>(test::uniform(g, lo, hi)) : std::numeric_limits<T>::quiet_NaN();
        }
    }
    sarnn::KeyBlocks<T> blocks() const { return {storage.data(), dim, cap, first, n}; }
    /// Value k of the key of logical row j, located independently of sarnn::KeyBlocks.
    T& at(std::size_t j, std::size_t k) { return value((first + j) % cap, k); }
    T at(std::size_t j, std::size_t k) const { return storage[index((first + j) % cap, k)]; }

private:
    std::size_t index(std::size_t p, std::size_t k) const { return (p / L * dim + k) * L + p % L; }
    T& value(std::size_t p, std::size_t k) { return storage[index(p, k)]; }
};

/// attend_keys over keys P (K values each, RingKeys) and values S (the same ring layout), against a double
/// reference written out here: e_j = P_j·u, alpha = exp(e - max e) / Σ, c = Σ alpha_j S_j. Also: alpha finite and
/// summing to 1, padding lanes of c and u untouched, nothing written to alpha past n.
template <class T>
void check_keys_case(const test::Ops<T>& k, Worst& w, const RingKeys<T>& P, const Buffer<T>& u,
                     const RingRows<T>& S, const char* what) {
    const std::size_t n = S.n, K = P.dim, dim = S.dim;
    Buffer<T> alpha(n + kGuard), c(sarnn::padded<T>(dim));
    for (std::size_t j = 0; j < alpha.size(); ++j) alpha[j] = j < n ? T(3) : kSentinel<T>;
    fill_padded(c, dim, [](std::size_t) { return 7.0; });
    k.attend_keys(P.blocks(), u.data(), S.rows(), alpha.data(), c.data());

    std::vector<double> e(n), a(n);
    double max_e = -std::numeric_limits<double>::infinity();
    for (std::size_t j = 0; j < n; ++j) {
        double s = 0.0;
        for (std::size_t d = 0; d < K; ++d) s += static_cast<double>(P.at(j, d)) * static_cast<double>(u[d]);
        e[j] = s;
        max_e = std::max(max_e, s);
    }
    double total = 0.0;
    for (std::size_t j = 0; j < n; ++j) total += (a[j] = std::exp(e[j] - max_e));
    for (double& v : a) v /= total;
    const auto where = [&] {
        std::ostringstream os;
        os << what << ": K " << K << ", dim " << dim << ", n " << n << ", cap " << S.cap << ", first " << S.first;
        return os.str();
    };
    double sum = 0.0;
    for (std::size_t j = 0; j < n; ++j) {
        const double got = static_cast<double>(alpha[j]);
        w.add(std::isfinite(got) ? std::fabs(got - a[j]) : std::numeric_limits<double>::infinity(), where);
        sum += got;
    }
    w.add(std::fabs(sum - 1.0), where);
    for (std::size_t d = 0; d < dim; ++d) {
        double want = 0.0;
        for (std::size_t j = 0; j < n; ++j) want += a[j] * static_cast<double>(S.row(j)[d]);
        w.add(std::fabs(static_cast<double>(c[d]) - want), where);
    }
    w.pads(padding_is_zero(c, dim), where);
    w.pads(padding_is_zero(u, K), where);
    w.guards(guard_intact(alpha, n), where);
}

constexpr std::array<std::size_t, 5> kKeySizes = {1, 3, 7, 17, 33};

/// Every pair of K and Hidden from kKeySizes, memories of 1 to 300 states in every ring layout; keys and u of
/// the sizes a model makes (|P_j|, |u| up to about 1) or larger (scores in the tens).
template <class T>
void check_attend_keys() {
    for_each_set<T>([](const test::Ops<T>& k) {
        std::mt19937 g(21);
        Worst w;
        std::size_t case_index = 0;
        for (std::size_t K : kKeySizes) {
            for (std::size_t dim : kKeySizes) {
                for (std::size_t n : kRowCounts) {
                    std::size_t cap = 0, first = 0;
                    ring_layout(case_index++, n, cap, first);
                    const double span = case_index % 3 == 0 ? 4.0 : 1.0;
                    RingKeys<T> P(K, cap, first, n, g, -span, span);
                    RingRows<T> S(dim, cap, first, n, g, -1.0, 1.0);
                    Buffer<T> u(sarnn::padded<T>(K));
                    fill_padded(u, K, [&](std::size_t) { return test::uniform(g, -span, span); });
                    check_keys_case(k, w, P, u, S, "attend_keys");
                }
            }
        }
        w.check(ref::tol<T>());
    });
}

/// Scores of any magnitude, up to ±max/4 of T: u = (1, 0, ...) and P_j = (s_j, noise...), so e_j = s_j exactly.
/// Ties at the top, a lone maximum late in the memory, rising and falling runs, huge negatives next to small
/// scores: alpha must stay finite (exp of very negative differences 0, never NaN) and sum to 1.
template <class T>
void check_attend_keys_huge_scores() {
    for_each_set<T>([](const test::Ops<T>& k) {
        std::mt19937 g(22);
        Worst w;
        const double big = static_cast<double>(std::numeric_limits<T>::max()) / 4;
        std::size_t case_index = 0;
        for (std::size_t K : kKeySizes) {
            for (std::size_t dim : {std::size_t{1}, std::size_t{17}}) {
                for (std::size_t n : {std::size_t{1}, std::size_t{3}, std::size_t{17}, std::size_t{100}, std::size_t{300}}) {
                    for (int pattern = 0; pattern < 4; ++pattern) {
                        std::size_t cap = 0, first = 0;
                        ring_layout(case_index++, n, cap, first);
                        RingKeys<T> P(K, cap, first, n, g, -1.0, 1.0);
                        RingRows<T> S(dim, cap, first, n, g, -1.0, 1.0);
                        Buffer<T> u(sarnn::padded<T>(K));
                        fill_padded(u, K, [](std::size_t d) { return d == 0 ? 1.0 : 0.0; });
                        for (std::size_t j = 0; j < n; ++j) {
                            double s = 0.0;
                            switch (pattern) {
                            case 0: s = j % 3 == 0 ? big : -big; break;                      // ties at +max/4
                            case 1: s = j == n * 2 / 3 ? big : (j % 2 ? -big : 1.0); break;  // one spike
                            case 2: s = big * (2.0 * static_cast<double>(j + 1) / static_cast<double>(n) - 1.0); break;
                            default: s = -big * (2.0 * static_cast<double>(j + 1) / static_cast<double>(n) - 1.0); break;
                            }
                            P.at(j, 0) = static_cast<T>(s);
                        }
                        check_keys_case(k, w, P, u, S, "attend_keys huge");
                    }
                }
            }
        }
        w.check(ref::tol<T>());
    });
}

/// Thousands of states: many chunks (past 64 of them alpha is kept as raw scores until the end), with random
/// scores, scores rising by about 1 per state (the shift raised again and again) and one late spike.
template <class T>
void check_attend_keys_long_memory() {
    for_each_set<T>([](const test::Ops<T>& k) {
        std::mt19937 g(23);
        Worst w;
        std::size_t case_index = 0;
        const std::size_t shapes[][3] = {{16, 64, 4100}, {17, 33, 3000}, {1, 3, 17000}, {33, 7, 2000}};
        for (const auto& shape : shapes) {
            const std::size_t K = shape[0], dim = shape[1], n = shape[2];
            for (int pattern = 0; pattern < 3; ++pattern) {
                std::size_t cap = 0, first = 0;
                ring_layout(case_index++, n, cap, first);
                RingKeys<T> P(K, cap, first, n, g, -1.0, 1.0);
                RingRows<T> S(dim, cap, first, n, g, -1.0, 1.0);
                Buffer<T> u(sarnn::padded<T>(K));
                fill_padded(u, K, [&](std::size_t) { return test::uniform(g, -1.0, 1.0); });
                const char* what = "attend_keys long, random";
                if (pattern == 1) {
                    // P_j = (j - n/2, 0, ...), u = (1, 0, ...): scores -n/2 .. n/2, exact in float
                    what = "attend_keys long, rising";
                    fill_padded(u, K, [](std::size_t d) { return d == 0 ? 1.0 : 0.0; });
                    for (std::size_t j = 0; j < n; ++j)
                        P.at(j, 0) = static_cast<T>(static_cast<double>(j) - static_cast<double>(n / 2));
                } else if (pattern == 2) {
                    what = "attend_keys long, spike";
                    for (std::size_t d = 0; d < K; ++d) P.at(n * 2 / 3, d) = u[d] < T(0) ? T(-40) : T(40);
                }
                check_keys_case(k, w, P, u, S, what);
            }
        }
        w.check(ref::tol<T>());
    });
}

}  // namespace

TEST_CASE("Kernels: dot", "[kernels]") {
    check_dot<float>();
    check_dot<double>();
}
TEST_CASE("Kernels: gemv", "[kernels]") {
    check_gemv_op<float>(GemvOp::plain, 12);
    check_gemv_op<double>(GemvOp::plain, 12);
}
TEST_CASE("Kernels: gemv_add", "[kernels]") {
    check_gemv_op<float>(GemvOp::add, 21);
    check_gemv_op<double>(GemvOp::add, 21);
}
TEST_CASE("Kernels: gemv_t", "[kernels]") {
    check_gemv_op<float>(GemvOp::transposed, 22);
    check_gemv_op<double>(GemvOp::transposed, 22);
}
TEST_CASE("Kernels: affine_tanh", "[kernels]") {
    check_affine_tanh<float>();
    check_affine_tanh<double>();
}
TEST_CASE("Kernels: tanh", "[kernels]") {
    check_tanh<float>();
    check_tanh<double>();
}
TEST_CASE("Kernels: exp", "[kernels]") {
    check_exp<float>();
    check_exp<double>();
}
TEST_CASE("Kernels: float exp and tanh within 3 ulp, densely, and at the edges", "[kernels]") {
    check_float_math_dense();
}
TEST_CASE("Kernels: softmax", "[kernels]") {
    check_softmax<float>();
    check_softmax<double>();
}
TEST_CASE("Kernels: weighted_sum over ring-ordered rows", "[kernels]") {
    check_weighted_sum<float>();
    check_weighted_sum<double>();
}
// ---- gru_step, lstm_step ------------------------------------------------------------------------------------------
// The cells' whole steps against double loops over In and H around the vector widths (the x86 sets' one pass takes H
// of 1 to 8 whole vectors, with 16 lanes always and with fewer once the weights pass 32 kB: (64, 32), (100, 16) in
// double; gemv and the cell the others), weights and x one element off a vector boundary in turn, both directions
// (the same bits either way: each row's sum is taken in the same order).
constexpr std::array<std::pair<std::size_t, std::size_t>, 16> kStepShapes = {{{1, 1},
                                                                              {3, 7},
                                                                              {17, 3},
                                                                              {32, 16},
                                                                              {7, 17},
                                                                              {32, 32},
                                                                              {33, 33},
                                                                              {16, 48},
                                                                              {32, 64},
                                                                              {64, 32},
                                                                              {100, 16},
                                                                              {5, 64},
                                                                              {33, 65},
                                                                              {32, 96},
                                                                              {3, 128},
                                                                              {32, 128}}};

/// Σ_j |M[row][j]·v[j]| and Σ_j M[row][j]·v[j] in double (M row-major, n columns).
template <class T>
std::pair<double, double> row_dot(const Buffer<T>& M, std::size_t row, const T* v, std::size_t n) {
    double s = 0.0, mag = 0.0;
    for (std::size_t j = 0; j < n; ++j) {
        const double t = static_cast<double>(M[row * n + j]) * static_cast<double>(v[j]);
        s += t;
        mag += std::fabs(t);
    }
    return {s, mag};
}

template <class T>
void check_gru_step() {
    for_each_set<T>([](const test::Ops<T>& k) {
        std::mt19937 g(26);
        Worst w;
        std::size_t case_index = 0;
        for (const auto& shape : kStepShapes) {
            const std::size_t In = shape.first, H = shape.second;
            for (int variant = 0; variant < 2; ++variant, ++case_index) {
                // weights in ±1/sqrt(H) (PyTorch's init) or ±4/sqrt(H) (gates near saturation)
                const double a = (variant == 0 ? 1.0 : 4.0) / std::sqrt(static_cast<double>(H));
                const std::size_t offset = case_index % 2;  // weights, biases and x: any alignment, in turn
                Buffer<T> W_ih(3 * H * In, offset), W_hh(3 * H * H, 1 - offset), b_ih(3 * H, 1 - offset),
                    b_hh(3 * H, offset), x(In, offset);
                Buffer<T> h_prev(sarnn::padded<T>(H)), gi(3 * H), gh(3 * H);
                Buffer<T> h_fwd(sarnn::padded<T>(H)), h_bwd(sarnn::padded<T>(H));
                for (std::size_t i = 0; i < W_ih.size(); ++i) W_ih[i] = static_cast<T>(test::uniform(g, -a, a));
                for (std::size_t i = 0; i < W_hh.size(); ++i) W_hh[i] = static_cast<T>(test::uniform(g, -a, a));
                for (std::size_t i = 0; i < 3 * H; ++i) {
                    b_ih[i] = static_cast<T>(test::uniform(g, -a, a));
                    b_hh[i] = static_cast<T>(test::uniform(g, -a, a));
                }
                for (std::size_t i = 0; i < In; ++i) x[i] = static_cast<T>(test::uniform(g, -1.0, 1.0));
                fill_padded(h_prev, H, [&](std::size_t) { return test::uniform(g, -1.0, 1.0); });
                for (std::size_t i = 0; i < h_fwd.size(); ++i) h_fwd[i] = h_bwd[i] = i < H ? T(7) : kSentinel<T>;
                k.gru_step(W_ih.data(), W_hh.data(), b_ih.data(), b_hh.data(), In, H, x.data(), h_prev.data(),
                           gi.data(), gh.data(), h_fwd.data(), false);
                k.gru_step(W_ih.data(), W_hh.data(), b_ih.data(), b_hh.data(), In, H, x.data(), h_prev.data(),
                           gi.data(), gh.data(), h_bwd.data(), true);
                const auto where = [&] { return describe<T>("gru_step In, H, variant", In, H, variant); };
                bool same = true;
                for (std::size_t d = 0; d < H; ++d) {
                    double mag = 1.0;
                    const auto gate = [&](std::size_t gt, bool in) {
                        const auto [s, m] = in ? row_dot(W_ih, gt * H + d, x.data(), In)
                                               : row_dot(W_hh, gt * H + d, h_prev.data(), H);
                        mag += m;
                        return s + static_cast<double>(in ? b_ih[gt * H + d] : b_hh[gt * H + d]);
                    };
                    // r, z = σ(W_i x + b_i + W_h h + b_h), n = tanh(W_in x + b_in + r (W_hn h + b_hn)),
                    // h = (1 - z) n + z h_prev
                    const double r = sigmoid(gate(0, true) + gate(0, false));
                    const double z = sigmoid(gate(1, true) + gate(1, false));
                    const double n = std::tanh(gate(2, true) + r * gate(2, false));
                    const double want = (1.0 - z) * n + z * static_cast<double>(h_prev[d]);
                    // the sums' error is relative to their terms
                    w.add(std::fabs(static_cast<double>(h_fwd[d]) - want) / mag, where);
                    same = same && h_fwd[d] == h_bwd[d];
                }
                w.pads(same, [&] { return "backward differs: " + where(); });
                w.pads(padding_is_sentinel(h_fwd, H) && padding_is_sentinel(h_bwd, H), where);
                w.pads(padding_is_zero(h_prev, H), where);  // input untouched
            }
        }
        w.check(ref::tol<T>());
    });
}

template <class T>
void check_lstm_step() {
    for_each_set<T>([](const test::Ops<T>& k) {
        std::mt19937 g(27);
        Worst w;
        std::size_t case_index = 0;
        for (const auto& shape : kStepShapes) {
            const std::size_t In = shape.first, H = shape.second;
            for (int variant = 0; variant < 2; ++variant, ++case_index) {
                const double a = (variant == 0 ? 1.0 : 4.0) / std::sqrt(static_cast<double>(H));
                const std::size_t offset = case_index % 2;
                Buffer<T> W_ih(4 * H * In, offset), W_hh(4 * H * H, 1 - offset), b(4 * H, offset), x(In, 1 - offset);
                Buffer<T> h_prev(sarnn::padded<T>(H)), c_prev(sarnn::padded<T>(H)), z(4 * H);
                Buffer<T> c_fwd(sarnn::padded<T>(H)), h_fwd(sarnn::padded<T>(H)), c_bwd(sarnn::padded<T>(H)),
                    h_bwd(sarnn::padded<T>(H));
                for (std::size_t i = 0; i < W_ih.size(); ++i) W_ih[i] = static_cast<T>(test::uniform(g, -a, a));
                for (std::size_t i = 0; i < W_hh.size(); ++i) W_hh[i] = static_cast<T>(test::uniform(g, -a, a));
                for (std::size_t i = 0; i < 4 * H; ++i) b[i] = static_cast<T>(test::uniform(g, -a, a));
                for (std::size_t i = 0; i < In; ++i) x[i] = static_cast<T>(test::uniform(g, -1.0, 1.0));
                fill_padded(h_prev, H, [&](std::size_t) { return test::uniform(g, -1.0, 1.0); });
                fill_padded(c_prev, H, [&](std::size_t) { return test::uniform(g, -3.0, 3.0); });
                for (Buffer<T>* row : {&c_fwd, &h_fwd, &c_bwd, &h_bwd})
                    for (std::size_t i = 0; i < row->size(); ++i) (*row)[i] = i < H ? T(7) : kSentinel<T>;
                k.lstm_step(W_ih.data(), W_hh.data(), b.data(), In, H, x.data(), h_prev.data(), c_prev.data(),
                            z.data(), c_fwd.data(), h_fwd.data(), false);
                k.lstm_step(W_ih.data(), W_hh.data(), b.data(), In, H, x.data(), h_prev.data(), c_prev.data(),
                            z.data(), c_bwd.data(), h_bwd.data(), true);
                const auto where = [&] { return describe<T>("lstm_step In, H, variant", In, H, variant); };
                bool same = true;
                for (std::size_t d = 0; d < H; ++d) {
                    double mag = 1.0;
                    const auto pre = [&](std::size_t gt) {
                        const auto [si, mi] = row_dot(W_ih, gt * H + d, x.data(), In);
                        const auto [sh, mh] = row_dot(W_hh, gt * H + d, h_prev.data(), H);
                        mag += mi + mh;
                        return si + sh + static_cast<double>(b[gt * H + d]);
                    };
                    // c = σ(z_f) c_prev + σ(z_i) tanh(z_g), h = σ(z_o) tanh(c)
                    const double i_g = sigmoid(pre(0)), f_g = sigmoid(pre(1)), g_g = std::tanh(pre(2)),
                                 o_g = sigmoid(pre(3));
                    const double cp = static_cast<double>(c_prev[d]);
                    const double want_c = f_g * cp + i_g * g_g;
                    const double want_h = o_g * std::tanh(want_c);
                    const double scale = mag * std::max(1.0, std::fabs(cp) + 1.0);
                    w.add(std::fabs(static_cast<double>(c_fwd[d]) - want_c) / scale, where);
                    w.add(std::fabs(static_cast<double>(h_fwd[d]) - want_h) / scale, where);
                    same = same && c_fwd[d] == c_bwd[d] && h_fwd[d] == h_bwd[d];
                }
                w.pads(same, [&] { return "backward differs: " + where(); });
                w.pads(padding_is_sentinel(c_fwd, H) && padding_is_sentinel(h_fwd, H), where);
                w.pads(padding_is_sentinel(c_bwd, H) && padding_is_sentinel(h_bwd, H), where);
                w.pads(padding_is_zero(h_prev, H) && padding_is_zero(c_prev, H), where);  // inputs untouched
            }
        }
        w.check(ref::tol<T>());
    });
}

TEST_CASE("Kernels: attend_dot over ring-ordered rows", "[kernels]") {
    check_attend_dot<float>();
    check_attend_dot<double>();
}
TEST_CASE("Kernels: attend_dot over thousands of states", "[kernels]") {
    check_attend_dot_long_memory<float>();
    check_attend_dot_long_memory<double>();
}
TEST_CASE("Kernels: attend_dot with scores of 1e4", "[kernels]") {
    check_attend_dot_huge_scores<float>();
    check_attend_dot_huge_scores<double>();
}
TEST_CASE("Kernels: additive_scores over ring-ordered rows", "[kernels]") {
    check_additive_scores<float>();
    check_additive_scores<double>();
}
TEST_CASE("Kernels: lstm_cell", "[kernels]") {
    check_lstm_cell<float>();
    check_lstm_cell<double>();
}
TEST_CASE("Kernels: gru_cell", "[kernels]") {
    check_gru_cell<float>();
    check_gru_cell<double>();
}
TEST_CASE("Kernels: gru_step", "[kernels]") {
    check_gru_step<float>();
    check_gru_step<double>();
}
TEST_CASE("Kernels: lstm_step", "[kernels]") {
    check_lstm_step<float>();
    check_lstm_step<double>();
}
TEST_CASE("Kernels: attend_keys over ring-ordered rows", "[kernels]") {
    check_attend_keys<float>();
    check_attend_keys<double>();
}
TEST_CASE("Kernels: attend_keys with scores up to max/4", "[kernels]") {
    check_attend_keys_huge_scores<float>();
    check_attend_keys_huge_scores<double>();
}
TEST_CASE("Kernels: attend_keys over thousands of states", "[kernels]") {
    check_attend_keys_long_memory<float>();
    check_attend_keys_long_memory<double>();
}
TEST_CASE("Kernels: kernels<T>() is the active set, and the run-time table holds what the models call", "[kernels]") {
    CHECK(test::set_reports<float>(sarnn::kernels<float>().arch, sarnn::active_arch()));
    CHECK(test::set_reports<double>(sarnn::kernels<double>().arch, sarnn::active_arch()));
    const sarnn::Kernels<float>* s = sarnn::kernels_for<float>(sarnn::Arch::scalar);
    REQUIRE(s != nullptr);
    // the table is one pointer per model operation and the arch, nothing else
    CHECK(sizeof(sarnn::Kernels<float>) <= 14 * sizeof(void*));
    CHECK(s->gemv != nullptr);
    CHECK(s->gemv_add != nullptr);
    CHECK(s->gemv_t != nullptr);
    CHECK(s->affine_tanh != nullptr);
    CHECK(s->softmax != nullptr);
    CHECK(s->weighted_sum != nullptr);
    CHECK(s->additive_scores != nullptr);
    CHECK(s->lstm_cell != nullptr);
    CHECK(s->gru_cell != nullptr);
    CHECK(s->attend_dot != nullptr);
    CHECK(s->attend_keys != nullptr);
    CHECK(s->gru_step != nullptr);
    CHECK(s->lstm_step != nullptr);
    // the table of a set is that set's own functions
    sarnn::kernel::for_each_set([](auto set) {
        using Set = decltype(set);
        const sarnn::Kernels<float>* t = sarnn::kernels_for<float>(Set::arch);
        CHECK((t != nullptr) == Set::runs_here());
        if (t == nullptr) return;
        INFO("kernel set " << sarnn::arch_name(Set::arch));
        CHECK(t->arch == Set::arch);
        const test::Ops<float> own = test::ops_of<Set, float>();
        CHECK(t->gemv == own.gemv);
        CHECK(t->attend_dot == own.attend_dot);
        CHECK(t->lstm_cell == own.lstm_cell);
        CHECK(t->gru_cell == own.gru_cell);
        CHECK(t->gru_step == own.gru_step);
        CHECK(t->lstm_step == own.lstm_step);
    });
}
