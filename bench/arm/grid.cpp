// bench/arm/grid.cpp: the shape grid of bench/grid.hpp on ARM Linux, counted as main.cpp counts (one step between
// the markers, under qemu-user with tools/qemu-count/insn_regions.c). At each (In, Hidden) of the grid, n = 64 states
// attended (the LSTMN: n - 1 tape entries), Capacity 64, K 16: SimpleRnn, SelfAttentionRnn dot and additive, the
// LSTMN and the plain cells Gru and Lstm (their 16th step from reset(), as main.cpp's), sarnn (the build's set)
// against the Eigen 3.4 fixed-size peers of bench/ (eigen_cell.hpp for the cells; for the SimpleRnn, EigenRnn
// below, in the same style). Labels: "grid <model> In <i> Hidden <h> n <n> macs <m> <ours|eigen>"; bench/arm/table.py
// turns them into the grid table (per multiply-add, relative to the reference shape, sarnn / Eigen). A separate
// translation unit, so the grid's instantiations leave main.cpp's code, and its table, as they were.
#include "eigen_dot.hpp"  // first: it sets Eigen's fixed-size limits
#include "eigen_cell.hpp"
#include "eigen_scored.hpp"

#include <sarnn/sarnn.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <utility>
#include <vector>

#include "grid.hpp"

extern "C" void sarnn_count_begin();
extern "C" void sarnn_count_end();

namespace {

namespace grid = sarnn_bench::grid;
constexpr int C = static_cast<int>(grid::kCapacity);
constexpr int K = static_cast<int>(grid::kK);
constexpr std::size_t kN = grid::kStates;
constexpr std::size_t kCellWarm = 15;  // the Gru's and Lstm's counted step is their 16th (main.cpp's)

/// The SimpleRnn in Eigen fixed-size types, written as eigen_dot.hpp's peer: h = tanh(A·[x; h] + b).
template <int In, int Hidden>
class EigenRnn {
public:
    using MatA = Eigen::Matrix<float, Hidden, In + Hidden, Eigen::RowMajor>;
    using VecH = Eigen::Matrix<float, Hidden, 1>;
    using VecIn = Eigen::Matrix<float, In, 1>;
    using VecXH = Eigen::Matrix<float, In + Hidden, 1>;

    EigenRnn(const float* A, const float* b) : A_(Eigen::Map<const MatA>(A)), b_(Eigen::Map<const VecH>(b)) { reset(); }
    void reset() { xh_.setZero(); }
    void step(const float* x) {
        xh_.template head<In>() = Eigen::Map<const VecIn>(x);
        h_.noalias() = A_ * xh_;
        xh_.template tail<Hidden>() = (h_ + b_).array().tanh().matrix();
    }

private:
    MatA A_;
    VecH b_, h_;
    VecXH xh_;
};

int* g_region = nullptr;
const char* g_only = nullptr;

std::uint32_t g_lcg = 0;
float uniform(float scale) {  // in [-scale, scale)
    g_lcg = g_lcg * 1664525u + 1013904223u;
    return scale * static_cast<float>(static_cast<std::int32_t>(g_lcg >> 8) - (1 << 23)) / static_cast<float>(1 << 23);
}

template <class P>
std::unique_ptr<P> params(float scale) {
    auto p = std::make_unique<P>();
    sarnn::for_each_array(*p, [scale](const char*, float* d, std::size_t k) {
        for (std::size_t i = 0; i < k; ++i) d[i] = uniform(scale);
        return false;
    });
    return p;
}

/// Steps m over `warm` inputs, then counts the next step as the next region, labelled.
template <class M>
void count(M& m, const std::vector<float>& xs, std::size_t warm, std::size_t in, const char* model, std::size_t hidden,
           std::uint64_t macs, const char* variant) {
    for (std::size_t i = 0; i < warm; ++i) (void)m.step(xs.data() + i * in);
    char label[160];
    std::snprintf(label, sizeof label, "grid %s In %u Hidden %u n %u macs %lu %s", model, static_cast<unsigned>(in),
                  static_cast<unsigned>(hidden), static_cast<unsigned>(kN), static_cast<unsigned long>(macs), variant);
    const float* x = xs.data() + warm * in;
    if (g_only != nullptr && std::strstr(label, g_only) == nullptr) {
        (void)m.step(x);
        return;
    }
    std::printf("count %d %s\n", (*g_region)++, label);
    std::fflush(stdout);
    sarnn_count_begin();
    (void)m.step(x);
    sarnn_count_end();
}

/// The same seed for every model and shape: a shape's counts do not depend on the other shapes of the build.
std::vector<float> start(std::size_t in) {
    g_lcg = 20261205u;
    std::vector<float> xs(kN * in);
    for (float& v : xs) v = uniform(1.0f);
    return xs;
}

template <std::size_t I>
void shape() {
    constexpr int In = static_cast<int>(grid::kShapes[I].in), H = static_cast<int>(grid::kShapes[I].hidden);
    using P = sarnn::RnnParams<float, In, H>;
    {
        const auto xs = start(In);
        auto p = params<P>(0.3f);
        const std::uint64_t macs = grid::simple_macs(In, H);
        auto m = std::make_unique<sarnn::SimpleRnn<float, In, H>>(*p);
        count(*m, xs, 8, In, "simple", H, macs, "ours");
        auto e = std::make_unique<EigenRnn<In, H>>(&p->A[0][0], p->b);
        count(*e, xs, 8, In, "simple", H, macs, "eigen");
    }
    {
        const auto xs = start(In);
        auto p = params<P>(0.3f);
        const std::uint64_t macs = grid::dot_macs(In, H, kN);
        auto m = std::make_unique<sarnn::SelfAttentionRnn<float, In, H, C, sarnn::DotAlign>>(*p);
        count(*m, xs, kN - 1, In, "dot", H, macs, "ours");
        auto e = std::make_unique<sarnn_bench::EigenSarnn<In, H, C, false>>(&p->A[0][0], p->b);
        count(*e, xs, kN - 1, In, "dot", H, macs, "eigen");
    }
    {
        using Align = sarnn::AdditiveAlign<K>;
        const auto xs = start(In);
        auto p = params<P>(0.3f);
        auto ap = params<typename sarnn::SelfAttentionRnn<float, In, H, C, Align>::AlignParams>(0.3f);
        sarnn_bench::ScoreWeights w;
        w.W = &ap->W[0][0];
        w.v = ap->v;
        const std::uint64_t macs = grid::additive_macs(In, H, kN, K);
        auto m = std::make_unique<sarnn::SelfAttentionRnn<float, In, H, C, Align>>(*p, *ap);
        count(*m, xs, kN - 1, In, "additive16", H, macs, "ours");
        auto e = std::make_unique<sarnn_bench::EigenScoredSarnn<In, H, C, sarnn_bench::Score::additive, K>>(&p->A[0][0],
                                                                                                            p->b, w);
        count(*e, xs, kN - 1, In, "additive16", H, macs, "eigen");
    }
    {
        const auto xs = start(In);
        auto p = params<sarnn::LstmnParams<float, In, H, K>>(0.3f);
        const typename sarnn_bench::NaiveLstmn<In, H, C, K>::Weights w{
            &p->W_ih[0][0], &p->W_hh[0][0], p->b, &p->W_h[0][0], &p->W_x[0][0], &p->W_ht[0][0], p->v};
        const std::uint64_t macs = grid::lstmn_macs(In, H, kN - 1, K);
        auto m = std::make_unique<sarnn::Lstmn<float, In, H, C, K>>(*p);
        count(*m, xs, kN - 1, In, "lstmn16", H, macs, "ours");
        auto e = std::make_unique<sarnn_bench::EigenLstmn<In, H, C, K>>(w);
        count(*e, xs, kN - 1, In, "lstmn16", H, macs, "eigen");
    }
    {
        const auto xs = start(In);
        auto p = params<sarnn::GruParams<float, In, H>>(0.3f);
        const typename sarnn_bench::NaiveGru<In, H>::Weights w{&p->W_ih[0][0], &p->W_hh[0][0], p->b_ih, p->b_hh};
        const std::uint64_t macs = grid::gru_macs(In, H);
        auto m = std::make_unique<sarnn::Gru<float, In, H>>(*p);
        count(*m, xs, kCellWarm, In, "gru", H, macs, "ours");
        auto e = std::make_unique<sarnn_bench::EigenGru<In, H>>(w);
        count(*e, xs, kCellWarm, In, "gru", H, macs, "eigen");
    }
    {
        const auto xs = start(In);
        auto p = params<sarnn::LstmParams<float, In, H>>(0.3f);
        const typename sarnn_bench::NaiveLstm<In, H>::Weights w{&p->W_ih[0][0], &p->W_hh[0][0], p->b};
        const std::uint64_t macs = grid::lstm_macs(In, H);
        auto m = std::make_unique<sarnn::Lstm<float, In, H>>(*p);
        count(*m, xs, kCellWarm, In, "lstm", H, macs, "ours");
        auto e = std::make_unique<sarnn_bench::EigenLstm<In, H>>(w);
        count(*e, xs, kCellWarm, In, "lstm", H, macs, "eigen");
    }
}

template <std::size_t... I>
void shapes(std::index_sequence<I...>) {
    (shape<I>(), ...);
}

}  // namespace

void sarnn_bench_arm_grid(int& region, const char* only);

/// Counts the grid, numbering its regions from `region` on (main.cpp's counter); `only` as main.cpp's.
void sarnn_bench_arm_grid(int& region, const char* only) {
    g_region = &region;
    g_only = only;
    shapes(std::make_index_sequence<grid::kCount>{});
}
