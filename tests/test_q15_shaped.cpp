// tests/test_q15_shaped.cpp: the q15 set's shaped products of rows and cells (kernels_q15.hpp: affine_tanh_at,
// affine_at, gru_gates_at, lstm_cell_at, gru_cell_at; q15/shaped.hpp compiles them for the sizes given as template
// parameters) and its attention by size (attend_dot_shaped, attend_query_shaped), which the models call where
// the target's loops are chosen at compile time (the M4, M7 and M55: kernels/q15/target.hpp). On both sets (kernel::Q15, kernel::Q15Plain),
// at a handful of shapes (sizes 1, 3, 7, 17, 33 and the reference In 16, Hidden 32), with every kind of input factor
// (1, a power of two, near 1, any other) and rows whose factors leave the targets' fast paths: the same integers as
// the run-time forms (affine_tanh, affine, gru_gates, lstm_cell, gru_cell), bit for bit. The run-time forms are checked against double in
// test_q15_models.cpp and by the q15 digests; on the boards, tests/firmware/q15_main.cpp's models take these forms.
#include <catch2/catch.hpp>

#include <sarnn/sarnn.hpp>

#include <sarnn/kernels/q15/shaped.hpp>

#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

namespace {

using sarnn::q15;

/// n values uniform in [lo, hi], with two spare (the padding lanes a padded row may have)
template <class V>
std::vector<V> uniform(std::size_t n, long lo, long hi, std::mt19937& rng) {
    std::uniform_int_distribution<long> d(lo, hi);
    std::vector<V> v(n + 2);
    for (std::size_t k = 0; k < n; ++k) v[k] = static_cast<V>(d(rng));
    return v;
}
std::vector<q15> activations(std::size_t n, std::mt19937& rng) {
    std::vector<q15> v(n + 2);
    std::uniform_int_distribution<int> d(-32768, 32767);
    for (std::size_t k = 0; k < n; ++k) v[k].raw = static_cast<std::int16_t>(d(rng));
    return v;
}

/// The rows' requantisation: m in [2^29, 2^31), shift in 4 .. 12; one row in eight with a shift below 2 or a negative
/// m (the targets' loops leave those rows to the generic finish)
struct Factors {
    std::vector<std::int32_t> m;
    std::vector<std::int8_t> shift;
    Factors(std::size_t rows, std::mt19937& rng) : m(rows + 2), shift(rows + 2) {
        std::uniform_int_distribution<std::int32_t> dm(std::int32_t{1} << 29, 2147483647);
        std::uniform_int_distribution<int> ds(4, 12), odd(0, 7);
        for (std::size_t i = 0; i < rows; ++i) {
            m[i] = dm(rng);
            shift[i] = static_cast<std::int8_t>(ds(rng));
            if (odd(rng) == 0) shift[i] = static_cast<std::int8_t>(odd(rng) % 2);
            if (odd(rng) == 0) m[i] = -m[i];
        }
    }
};

/// a product's operands beside its weights: the bias (R values), the rows' factors, the inputs x (Nx) and r (Nr)
struct Operands {
    std::vector<std::int32_t> b;
    Factors f;
    std::vector<q15> x, r;
    Operands(std::size_t R, std::size_t Nx, std::size_t Nr, std::mt19937& rng)
        : b(uniform<std::int32_t>(R, -6000, 6000, rng)), f(R, rng), x(activations(Nx, rng)), r(activations(Nr, rng)) {}
};

/// the shaped form's R outputs y1 equal the run-time form's y0 bit for bit
void require_same(const std::vector<q15>& y1, const std::vector<q15>& y0, std::size_t R) {
    for (std::size_t i = 0; i < R; ++i) REQUIRE(y1[i].raw == y0[i].raw);
}

/// the input factors x_m / 2^(31 + x_shift): 1 (the exporter's), powers of two, near 1, and others
constexpr std::int32_t kX[][2] = {{1 << 30, -1},    {1 << 30, 2},   {1 << 30, -3},  {1300000000, 0},
                                  {1700000000, -1}, {900000000, 3}, {-800000000, 1}};

template <class Set, std::size_t R, std::size_t Nx, std::size_t Nr>
void check_affine_tanh(std::mt19937& rng) {
    const auto A = uniform<std::int8_t>(R * (Nx + Nr), -128, 127, rng);
    const Operands o(R, Nx, Nr, rng);
    for (const auto& xf : kX) {
        const sarnn::QAffine a{A.data(), o.b.data(), o.f.m.data(), o.f.shift.data(), xf[0], xf[1]};
        std::vector<q15> y0(R + 2), y1(R + 2);
        Set::affine_tanh(a, R, o.x.data(), Nx, o.r.data(), Nr, y0.data());
        Set::template affine_tanh_at<R, Nx, Nr>(a, o.x.data(), o.r.data(), y1.data());
        require_same(y1, y0, R);
    }
}

template <class Set, std::size_t R, std::size_t Nx, std::size_t Nr>
void check_affine(std::mt19937& rng) {
    const auto Ax = uniform<std::int8_t>(R * Nx, -128, 127, rng);
    const auto Ar = uniform<std::int8_t>(R * Nr, -128, 127, rng);
    const Operands o(R, Nx, Nr, rng);
    for (const auto& xf : kX) {
        for (const bool bias : {true, false}) {
            const sarnn::QGates a{Ax.data(), Ar.data(), bias ? o.b.data() : nullptr, o.f.m.data(), o.f.shift.data(),
                                  xf[0],     xf[1]};
            std::vector<q15> z0(R + 2), z1(R + 2);
            Set::affine(a, R, o.x.data(), Nx, o.r.data(), Nr, z0.data());
            Set::template affine_at<R, Nx, Nr>(a, o.x.data(), o.r.data(), z1.data());
            require_same(z1, z0, R);
        }
    }
}

template <class Set, std::size_t R, std::size_t Nx, std::size_t Nh>
void check_gru_gates(std::mt19937& rng) {
    const auto Wi = uniform<std::int8_t>(R * Nx, -128, 127, rng);
    const auto Wh = uniform<std::int8_t>(R * Nh, -128, 127, rng);
    const auto bi = uniform<std::int32_t>(R, -6000, 6000, rng), bh = uniform<std::int32_t>(R, -6000, 6000, rng);
    const Factors f(R, rng);
    const auto x = activations(Nx, rng), h = activations(Nh, rng);
    for (const auto& xf : kX) {
        const sarnn::QGru a{Wi.data(), Wh.data(), bi.data(), bh.data(), f.m.data(), f.shift.data(), xf[0], xf[1]};
        std::vector<q15> gi0(R + 2), gh0(R + 2), gi1(R + 2), gh1(R + 2);
        Set::gru_gates(a, R, x.data(), Nx, h.data(), Nh, gi0.data(), gh0.data());
        Set::template gru_gates_at<R, Nx, Nh>(a, x.data(), h.data(), gi1.data(), gh1.data());
        require_same(gi1, gi0, R);
        require_same(gh1, gh0, R);
    }
}

template <class Set, std::size_t H>
void check_cells(std::mt19937& rng) {
    // the LSTM cell: z (4·H, Q3.12) and c~ over the whole range (lanes saturate), then the GRU cell (3·H rows each)
    const auto z = activations(4 * H, rng), ct = activations(H, rng);
    std::vector<q15> c0(H + 2), h0(H + 2), c1(H + 2), h1(H + 2);
    const std::size_t s0 = Set::lstm_cell(z.data(), ct.data(), H, c0.data(), h0.data());
    const std::size_t s1 = Set::template lstm_cell_at<H>(z.data(), ct.data(), c1.data(), h1.data());
    REQUIRE(s1 == s0);
    for (std::size_t k = 0; k < H; ++k) {
        REQUIRE(c1[k].raw == c0[k].raw);
        REQUIRE(h1[k].raw == h0[k].raw);
    }
    const auto gi = activations(3 * H, rng), gh = activations(3 * H, rng), hp = activations(H, rng);
    Set::gru_cell(gi.data(), gh.data(), hp.data(), H, h0.data());
    Set::template gru_cell_at<H>(gi.data(), gh.data(), hp.data(), h1.data());
    for (std::size_t k = 0; k < H; ++k) REQUIRE(h1[k].raw == h0[k].raw);
}

/// attend_dot_shaped<Dim, St>: the states' attention with their size known (the models' form where the target's loops
/// have scores by size) against attend_dot, on rings of 1 to Cap states that wrap, with the states' padded rows and
/// the query at any magnitude (q' rounded or not): alpha and c bit for bit
template <class Set, std::size_t Dim>
void check_attend_dot(std::mt19937& rng) {
    constexpr std::size_t stride = sarnn::padded<q15>(Dim), cap = 37;
    std::vector<q15> S(cap * stride + 2);
    std::uniform_int_distribution<int> d(-32768, 32767), scale(0, 3);
    for (std::size_t j = 0; j < cap; ++j)
        for (std::size_t k = 0; k < Dim; ++k) S[j * stride + k].raw = static_cast<std::int16_t>(d(rng));
    for (const std::size_t n : {std::size_t{1}, std::size_t{2}, std::size_t{5}, std::size_t{16}, cap}) {
        const std::size_t first = n == cap ? 11 : static_cast<std::size_t>(d(rng) & 31) % cap;
        const sarnn::Rows<q15> rows{S.data(), stride, Dim, cap, first, n};
        std::vector<q15> q(stride + 2), a0(cap), a1(cap), c0(stride + 2), c1(stride + 2);
        const int shift = scale(rng) * 5;  // q at full scale, or 2^5, 2^10, 2^15 smaller
        for (std::size_t k = 0; k < Dim; ++k) q[k].raw = static_cast<std::int16_t>(d(rng) >> shift);
        Set::template attend_dot_at<sarnn::kernel::q15_stride(stride)>(rows, q.data(), a0.data(), c0.data());
        Set::template attend_dot_shaped<Dim, sarnn::kernel::q15_stride(stride)>(rows, q.data(), a1.data(), c1.data());
        require_same(a1, a0, n);
        require_same(c1, c0, Dim);
    }
}

/// attend_query_shaped<Dim>: the attention with keys E of Dim values and states S of Hidden (the key/query align's
/// keys, or the states themselves) against attend_query, on rings of 1 to 37 states, the scale from prepare_query
template <class Set, std::size_t Dim, std::size_t Hidden>
void check_attend_query(std::mt19937& rng) {
    constexpr std::size_t es = sarnn::padded<q15>(Dim), ss = sarnn::padded<q15>(Hidden), cap = 37;
    std::vector<q15> E(cap * es + 2), S(cap * ss + 2);
    std::uniform_int_distribution<int> d(-32768, 32767), scale(0, 3), g(0, 8);
    for (std::size_t j = 0; j < cap; ++j) {
        for (std::size_t k = 0; k < Dim; ++k) E[j * es + k].raw = static_cast<std::int16_t>(d(rng));
        for (std::size_t k = 0; k < Hidden; ++k) S[j * ss + k].raw = static_cast<std::int16_t>(d(rng));
    }
    for (const std::size_t n : {std::size_t{1}, std::size_t{2}, std::size_t{5}, std::size_t{16}, cap}) {
        const std::size_t first = n == cap ? 11 : static_cast<std::size_t>(d(rng) & 31) % cap;
        const sarnn::Rows<q15> keys{E.data(), es, Dim, cap, first, n}, states{S.data(), ss, Hidden, cap, first, n};
        std::vector<q15> q(es + 2), a0(cap), a1(cap), c0(ss + 2), c1(ss + 2);
        const int shift = scale(rng) * 5;
        for (std::size_t k = 0; k < Dim; ++k) q[k].raw = static_cast<std::int16_t>(d(rng) >> shift);
        const sarnn::QueryScale qs = Set::prepare_query(q.data(), q.data(), Dim, g(rng));
        Set::attend_query(keys, q.data(), qs, states, a0.data(), c0.data());
        Set::template attend_query_shaped<Dim>(keys, q.data(), qs, states, a1.data(), c1.data());
        require_same(a1, a0, n);
        require_same(c1, c0, Hidden);
    }
}

/// a model's three products at (In, Hidden): the RNN's rows (Hidden x (In + Hidden)), the LSTM's gates (4·Hidden),
/// the GRU's (3·Hidden); and the two cells of Hidden lanes
template <class Set, std::size_t In, std::size_t Hidden>
void check_shape(std::mt19937& rng) {
    check_affine_tanh<Set, Hidden, In, Hidden>(rng);
    check_affine<Set, 4 * Hidden, In, Hidden>(rng);
    check_gru_gates<Set, 3 * Hidden, In, Hidden>(rng);
    check_cells<Set, Hidden>(rng);
}

template <class Set>
void check_set() {
    std::mt19937 rng(32);
    for (int rep = 0; rep < 4; ++rep) {
        check_shape<Set, 1, 1>(rng);
        check_shape<Set, 3, 7>(rng);
        check_shape<Set, 7, 3>(rng);
        check_shape<Set, 17, 33>(rng);
        check_shape<Set, 33, 17>(rng);
        check_shape<Set, 16, 32>(rng);
    }
    // the LSTMN's attention query (K rows of In and Hidden: affine without a bias, above) at K 16
    check_affine<Set, 16, 3, 17>(rng);
    // the dot align's attention by size, below, at and past the Helium scores' in-register range (8 to 56 values)
    for (int rep = 0; rep < 4; ++rep) {
        check_attend_dot<Set, 1>(rng);
        check_attend_dot<Set, 3>(rng);
        check_attend_dot<Set, 7>(rng);
        check_attend_dot<Set, 12>(rng);
        check_attend_dot<Set, 17>(rng);
        check_attend_dot<Set, 32>(rng);
        check_attend_dot<Set, 33>(rng);
        check_attend_dot<Set, 56>(rng);
        check_attend_dot<Set, 64>(rng);
        check_attend_query<Set, 16, 12>(rng);
        check_attend_query<Set, 5, 17>(rng);
        check_attend_query<Set, 33, 33>(rng);
        check_attend_query<Set, 40, 7>(rng);
    }
}

}  // namespace

TEST_CASE("q15 shaped products of rows, cells and attention give the run-time forms' integers", "[q15][shaped]") {
    SECTION("kernel::Q15") { check_set<sarnn::kernel::Q15>(); }
    SECTION("kernel::Q15Plain") { check_set<sarnn::kernel::Q15Plain>(); }
}
