// tests/shared/aligns.hpp: each align as the tests, the fuzz targets, the benchmarks and tools/limits see it, in
// one place: its name, its params type, how its weights are drawn, a bound on its scores, its double reference
// (reference_family.hpp); and the list of aligns the fuzz targets and tools/limits cover.
//
// Adding an align: the align (include/sarnn/align.hpp), its params (params.hpp), its double reference
// (reference.hpp or reference_family.hpp), an AlignTraits here and its entry in Aligns, its checks in
// tests/test_aligns.cpp.
#ifndef SARNN_TESTS_SHARED_ALIGNS_HPP
#define SARNN_TESTS_SHARED_ALIGNS_HPP

#include <sarnn/sarnn.hpp>

#include <cmath>
#include <cstddef>
#include <random>
#include <string>

#include "../reference.hpp"
#include "../reference_family.hpp"

namespace kit {

// ---- drawing weights ------------------------------------------------------------------------------------------
/// Every value of a uniform in [-bound, bound].
template <class T, std::size_t N>
void draw(T (&a)[N], std::mt19937& g, double bound) {
    std::uniform_real_distribution<double> u(-bound, bound);
    for (T& v : a) v = static_cast<T>(u(g));
}
template <class T, std::size_t R, std::size_t C>
void draw(T (&a)[R][C], std::mt19937& g, double bound) {
    for (auto& row : a) draw(row, g, bound);
}
inline double inv_sqrt(std::size_t n) { return 1.0 / std::sqrt(static_cast<double>(n)); }

// ---- magnitudes (for the score bounds) ------------------------------------------------------------------------
/// Largest Σ_c |M[r][c]| over the rows (the most a row can amplify a vector bounded by 1).
template <class T, std::size_t R, std::size_t C>
double row_abs(const T (&M)[R][C]) {
    double m = 0.0;
    for (std::size_t r = 0; r < R; ++r) {
        double s = 0.0;
        for (std::size_t c = 0; c < C; ++c) s += std::fabs(static_cast<double>(M[r][c]));
        m = s > m ? s : m;
    }
    return m;
}
/// Largest Σ_r |M[r][c]| over the columns.
template <class T, std::size_t R, std::size_t C>
double col_abs(const T (&M)[R][C]) {
    double m = 0.0;
    for (std::size_t c = 0; c < C; ++c) {
        double s = 0.0;
        for (std::size_t r = 0; r < R; ++r) s += std::fabs(static_cast<double>(M[r][c]));
        m = s > m ? s : m;
    }
    return m;
}
/// Σ_k |v[k]|
template <class T, std::size_t N>
double abs_sum(const T (&v)[N]) {
    double s = 0.0;
    for (const T& x : v) s += std::fabs(static_cast<double>(x));
    return s;
}

// ---- the aligns -------------------------------------------------------------------------------------------------
/// What an align without weights takes as params here.
struct NoParams {};

/// Per align:
///  - has_params, Params<T, Hidden> (NoParams when it has none);
///  - name() as in C++ ("KeyQueryAlign<16, cache>"), slug() as in the benchmark families ("keyquery16_cache");
///  - fan_in(Hidden): the fan-in of its weights, for draws scaled like PyTorch's init;
///  - draw(p, g, gain): its weights, uniform in ±gain/sqrt(fan-in) (each array with its own fan-in);
///  - score_bound(p, Hidden): a bound on |e_ij| when every |h| <= 1;
///  - reference(p): the double reference of the score (reference*.hpp).
template <class Align>
struct AlignTraits;

template <>
struct AlignTraits<sarnn::DotAlign> {
    static constexpr bool has_params = false;
    template <class T, std::size_t Hidden>
    using Params = NoParams;
    static std::string name() { return "DotAlign"; }
    static std::string slug() { return "dot"; }
    static constexpr std::size_t fan_in(std::size_t hidden) { return hidden; }
    static void draw(NoParams&, std::mt19937&, double) {}
    // e = h_j·h_i
    static double score_bound(const NoParams&, std::size_t hidden) { return static_cast<double>(hidden); }
    static ref::Dot reference(const NoParams&) { return {}; }
};

template <>
struct AlignTraits<sarnn::ScaledDotAlign> {
    static constexpr bool has_params = false;
    template <class T, std::size_t Hidden>
    using Params = NoParams;
    static std::string name() { return "ScaledDotAlign"; }
    static std::string slug() { return "scaled_dot"; }
    static constexpr std::size_t fan_in(std::size_t hidden) { return hidden; }
    static void draw(NoParams&, std::mt19937&, double) {}
    // e = h_j·h_i / sqrt(Hidden)
    static double score_bound(const NoParams&, std::size_t hidden) { return std::sqrt(static_cast<double>(hidden)); }
    static ref::ScaledDot reference(const NoParams&) { return {}; }
};

template <>
struct AlignTraits<sarnn::BilinearAlign> {
    static constexpr bool has_params = true;
    template <class T, std::size_t Hidden>
    using Params = sarnn::BilinearParams<T, Hidden>;
    static std::string name() { return "BilinearAlign"; }
    static std::string slug() { return "bilinear"; }
    static constexpr std::size_t fan_in(std::size_t hidden) { return hidden; }
    template <class T, std::size_t Hidden>
    static void draw(Params<T, Hidden>& p, std::mt19937& g, double gain) {
        kit::draw(p.W, g, gain * inv_sqrt(Hidden));
    }
    // e = h_j·(W h_i): |W h_i| <= row_abs(W)
    template <class T, std::size_t Hidden>
    static double score_bound(const Params<T, Hidden>& p, std::size_t hidden) {
        return static_cast<double>(hidden) * row_abs(p.W);
    }
    template <class T, std::size_t Hidden>
    static ref::Bilinear reference(const Params<T, Hidden>& p) {
        return ref::bilinear_of(p);
    }
};

template <std::size_t K, sarnn::KeyQueryPlan Plan>
struct AlignTraits<sarnn::KeyQueryAlign<K, Plan>> {
    static constexpr bool has_params = true;
    template <class T, std::size_t Hidden>
    using Params = sarnn::KeyQueryParams<T, Hidden, K>;
    static const char* plan_suffix(bool cpp) {
        if (Plan == sarnn::KeyQueryPlan::cache) return cpp ? ", cache" : "_cache";
        if (Plan == sarnn::KeyQueryPlan::fold) return cpp ? ", fold" : "_fold";
        return "";
    }
    static std::string name() { return "KeyQueryAlign<" + std::to_string(K) + plan_suffix(true) + ">"; }
    static std::string slug() { return "keyquery" + std::to_string(K) + plan_suffix(false); }
    static constexpr std::size_t fan_in(std::size_t hidden) { return hidden; }
    template <class T, std::size_t Hidden>
    static void draw(Params<T, Hidden>& p, std::mt19937& g, double gain) {
        kit::draw(p.Wk, g, gain * inv_sqrt(Hidden));
        kit::draw(p.Wq, g, gain * inv_sqrt(Hidden));
    }
    // e = h_j·(Wkᵀ (Wq h_i)): |Wq h_i| <= row_abs(Wq), |Wkᵀ u| <= col_abs(Wk)·max|u|
    template <class T, std::size_t Hidden>
    static double score_bound(const Params<T, Hidden>& p, std::size_t hidden) {
        return static_cast<double>(hidden) * col_abs(p.Wk) * (1.0 + row_abs(p.Wq));
    }
    template <class T, std::size_t Hidden>
    static ref::KeyQuery reference(const Params<T, Hidden>& p) {
        return ref::key_query_of(p);
    }
};

template <std::size_t K>
struct AlignTraits<sarnn::AdditiveAlign<K>> {
    static constexpr bool has_params = true;
    template <class T, std::size_t Hidden>
    using Params = sarnn::AdditiveParams<T, Hidden, K>;
    static std::string name() { return "AdditiveAlign<" + std::to_string(K) + ">"; }
    static std::string slug() { return "additive" + std::to_string(K); }
    static constexpr std::size_t fan_in(std::size_t hidden) { return 2 * hidden; }
    template <class T, std::size_t Hidden>
    static void draw(Params<T, Hidden>& p, std::mt19937& g, double gain) {
        kit::draw(p.W, g, gain * inv_sqrt(2 * Hidden));
        kit::draw(p.v, g, gain * inv_sqrt(K));
    }
    // e = v·tanh(W [h_j; h_i]): each term of the sum is at most |v_k|; the tanh argument at most row_abs(W)
    template <class T, std::size_t Hidden>
    static double score_bound(const Params<T, Hidden>& p, std::size_t) {
        return abs_sum(p.v) * (1.0 + row_abs(p.W));
    }
    template <class T, std::size_t Hidden>
    static ref::Additive reference(const Params<T, Hidden>& p) {
        return ref::additive_of(p);
    }
};

// ---- the list ---------------------------------------------------------------------------------------------------
template <class... Ts>
struct TypeList {};

/// Every align, with key size K where it has one: what the fuzz targets and tools/limits go through.
template <std::size_t K>
using Aligns = TypeList<sarnn::DotAlign, sarnn::ScaledDotAlign, sarnn::BilinearAlign, sarnn::KeyQueryAlign<K>,
                        sarnn::AdditiveAlign<K>>;

/// concat_t<TypeList<A...>, TypeList<B...>, ...> = TypeList<A..., B..., ...>
template <class... Lists>
struct Concat;
template <>
struct Concat<> {
    using type = TypeList<>;
};
template <class... Xs>
struct Concat<TypeList<Xs...>> {
    using type = TypeList<Xs...>;
};
template <class... Xs, class... Ys, class... Rest>
struct Concat<TypeList<Xs...>, TypeList<Ys...>, Rest...> {
    using type = typename Concat<TypeList<Xs..., Ys...>, Rest...>::type;
};
template <class... Lists>
using concat_t = typename Concat<Lists...>::type;

template <class T>
struct Tag {
    using type = T;
};
/// Calls f(Tag<X>{}) for each X of a TypeList, in order.
template <class... Xs, class F>
void for_each_type(TypeList<Xs...>, F&& f) {
    (f(Tag<Xs>{}), ...);
}

}  // namespace kit

#endif
