// tests/shared/weights.hpp: the weights and inputs the tests and tools/limits draw: RnnParams in three
// distributions (scaled, large, extreme), the align params (aligns.hpp), LstmnParams, input sequences. Every draw is a fixed-seed std::mt19937, so a seed names a model.
#ifndef SARNN_TESTS_SHARED_WEIGHTS_HPP
#define SARNN_TESTS_SHARED_WEIGHTS_HPP

#include <sarnn/sarnn.hpp>

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <random>
#include <vector>

#include "aligns.hpp"

namespace kit {

// ---- RnnParams and inputs ----------------------------------------------------------------------------------
enum class Weights {
    scaled,   ///< uniform ±1/sqrt(In+Hidden): the usual initialisation, contracting dynamics
    large,    ///< uniform ±3: tanh saturates; the dynamics are chaotic (see compare_teacher_forced)
    extreme,  ///< x-columns ±20, recurrent columns ±0.01, b ±10, x in {-1,+1}: every h_k is ±(1 - tiny),
              ///< so dot scores reach ±Hidden and the softmax is as peaked as the model can make it
};

inline const char* name(Weights w) {
    switch (w) {
    case Weights::scaled: return "scaled";
    case Weights::large: return "large";
    case Weights::extreme: return "extreme";
    }
    return "?";
}

inline constexpr std::array<Weights, 3> kAllWeights = {Weights::scaled, Weights::large, Weights::extreme};

inline double uniform(std::mt19937& g, double lo, double hi) {
    return std::uniform_real_distribution<double>(lo, hi)(g);
}
inline double random_sign(std::mt19937& g) { return (g() & 1u) ? 1.0 : -1.0; }

/// Params on the heap (they can be large), filled from a fixed-seed generator.
template <class T, std::size_t In, std::size_t Hidden>
std::unique_ptr<sarnn::RnnParams<T, In, Hidden>> make_params(Weights kind, std::uint32_t seed) {
    auto p = std::make_unique<sarnn::RnnParams<T, In, Hidden>>();
    std::mt19937 g(seed);
    const double s = 1.0 / std::sqrt(static_cast<double>(In + Hidden));
    for (std::size_t r = 0; r < Hidden; ++r) {
        for (std::size_t k = 0; k < In + Hidden; ++k) {
            double v = 0.0;
            switch (kind) {
            case Weights::scaled: v = uniform(g, -s, s); break;
            case Weights::large: v = uniform(g, -3.0, 3.0); break;
            case Weights::extreme: v = k < In ? 20.0 * random_sign(g) : uniform(g, -0.01, 0.01); break;
            }
            p->A[r][k] = static_cast<T>(v);
        }
        double bv = 0.0;
        switch (kind) {
        case Weights::scaled: bv = uniform(g, -s, s); break;
        case Weights::large: bv = uniform(g, -3.0, 3.0); break;
        case Weights::extreme: bv = 10.0 * random_sign(g); break;
        }
        p->b[r] = static_cast<T>(bv);
    }
    return p;
}

/// A sequence of n inputs of `in` values: uniform [-1, 1], or ±1 for the extreme weights.
template <class T>
std::vector<std::vector<T>> make_inputs(Weights kind, std::size_t n, std::size_t in, std::uint32_t seed) {
    std::mt19937 g(seed);
    std::vector<std::vector<T>> xs(n, std::vector<T>(in));
    for (auto& x : xs)
        for (T& v : x) v = static_cast<T>(kind == Weights::extreme ? random_sign(g) : uniform(g, -1.0, 1.0));
    return xs;
}

// ---- align params ------------------------------------------------------------------------------------------------
/// The align params of a SelfAttentionRnn<T, ..., Hidden, ..., Align>, drawn with AlignTraits::draw (on the heap).
template <class Align, class T, std::size_t Hidden>
std::unique_ptr<typename AlignTraits<Align>::template Params<T, Hidden>> make_align_params(double gain,
                                                                                           std::uint32_t seed) {
    auto p = std::make_unique<typename AlignTraits<Align>::template Params<T, Hidden>>();
    std::mt19937 g(seed);
    AlignTraits<Align>::draw(*p, g, gain);
    return p;
}

// ---- LstmnParams --------------------------------------------------------------------------------------------------
enum class LstmnWeightsKind {
    scaled,  ///< PyTorch's init: ±1/sqrt(Hidden) for the LSTM, ±1/sqrt(fan-in) for the attention
    large,   ///< ±2 everywhere: saturating gates, peaked attention (checked teacher-forced only)
};
inline const char* name(LstmnWeightsKind k) { return k == LstmnWeightsKind::scaled ? "scaled" : "large"; }

template <class T, std::size_t In, std::size_t Hidden, std::size_t K>
std::unique_ptr<sarnn::LstmnParams<T, In, Hidden, K>> make_lstmn_params(LstmnWeightsKind kind, std::uint32_t seed) {
    auto p = std::make_unique<sarnn::LstmnParams<T, In, Hidden, K>>();
    std::mt19937 g(seed);
    const bool large = kind == LstmnWeightsKind::large;
    const double lstm = large ? 2.0 : inv_sqrt(Hidden);
    draw(p->W_ih, g, lstm);
    draw(p->W_hh, g, lstm);
    draw(p->b, g, lstm);
    draw(p->W_h, g, large ? 2.0 : inv_sqrt(Hidden));
    draw(p->W_x, g, large ? 2.0 : inv_sqrt(In));
    draw(p->W_ht, g, large ? 2.0 : inv_sqrt(Hidden));
    draw(p->v, g, large ? 2.0 : inv_sqrt(K));
    return p;
}

}  // namespace kit

#endif
