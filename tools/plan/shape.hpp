// tools/plan/shape.hpp: one model shape of the size planner (scripts/plan): its model type for a kernel set, its
// params, and pseudo-random params of the right kind (float, or q15 with multipliers in range). The planner
// generates plan_shapes.hpp, a list of these (plan::Shapes), for the programs next to this file.
#ifndef SARNN_PLAN_SHAPE_HPP
#define SARNN_PLAN_SHAPE_HPP

#include <cstddef>
#include <cstdint>
#include <new>
#include <type_traits>

#include <sarnn/sarnn.hpp>

namespace plan {

enum class Kind { simple, sar, lstmn, gru, lstm };

/// The models without a memory (the SimpleRnn and the plain cells): every step costs the same, Capacity unused.
constexpr bool memoryless(Kind k) { return k == Kind::simple || k == Kind::gru || k == Kind::lstm; }

/// The params of a model without align params (a member that takes no room worth counting).
struct NoParams {
    template <class P, class F>
    static constexpr bool arrays(P&, F&&) {
        return false;
    }
};

template <Kind kind, class T, std::size_t In, std::size_t H, std::size_t C, std::size_t K, class Align, class Memory,
          class Set>
struct ModelOf;
template <class T, std::size_t In, std::size_t H, std::size_t C, std::size_t K, class Align, class Memory, class Set>
struct ModelOf<Kind::simple, T, In, H, C, K, Align, Memory, Set> {
    using type = sarnn::SimpleRnn<T, In, H, Set>;
    using align_params = NoParams;
};
template <class T, std::size_t In, std::size_t H, std::size_t C, std::size_t K, class Align, class Memory, class Set>
struct ModelOf<Kind::sar, T, In, H, C, K, Align, Memory, Set> {
    using type = sarnn::SelfAttentionRnn<T, In, H, C, Align, Memory, Set>;
    using align_params =
        std::conditional_t<std::is_void_v<typename type::AlignParams>, NoParams, typename type::AlignParams>;
};
template <class T, std::size_t In, std::size_t H, std::size_t C, std::size_t K, class Align, class Memory, class Set>
struct ModelOf<Kind::lstmn, T, In, H, C, K, Align, Memory, Set> {
    using type = sarnn::Lstmn<T, In, H, C, K, Memory, Set>;
    using align_params = NoParams;
};

template <class T, std::size_t In, std::size_t H, std::size_t C, std::size_t K, class Align, class Memory, class Set>
struct ModelOf<Kind::gru, T, In, H, C, K, Align, Memory, Set> {
    using type = sarnn::Gru<T, In, H, Set>;
    using align_params = NoParams;
};
template <class T, std::size_t In, std::size_t H, std::size_t C, std::size_t K, class Align, class Memory, class Set>
struct ModelOf<Kind::lstm, T, In, H, C, K, Align, Memory, Set> {
    using type = sarnn::Lstm<T, In, H, Set>;
    using align_params = NoParams;
};

/// A shape: kind, element type, sizes (C and K unused where the model has none), align and memory.
template <Kind kind_, class T, std::size_t In, std::size_t H, std::size_t C, std::size_t K, class Align, class Memory>
struct Shape {
    static constexpr Kind kind = kind_;
    static constexpr std::size_t in = In;
    static constexpr std::size_t capacity = C;
    static constexpr bool window = std::is_same_v<Memory, sarnn::Window>;
    static constexpr bool memoryless = plan::memoryless(kind_);
    using value_type = T;
    template <class Set>
    using Model = typename ModelOf<kind_, T, In, H, C, K, Align, Memory, Set>::type;
    using Params = typename Model<sarnn::kernel::Default>::Params;
    using AlignParams = typename ModelOf<kind_, T, In, H, C, K, Align, Memory, sarnn::kernel::Default>::align_params;
    /// Bytes of weights (what sits in flash when the params are const).
    static constexpr std::size_t weight_bytes = sizeof(Params) +
                                                (std::is_same_v<AlignParams, NoParams> ? 0 : sizeof(AlignParams));

    template <class Set>
    static Model<Set>* make(void* at, const Params& p, const AlignParams& ap) {
        if constexpr (std::is_same_v<AlignParams, NoParams>) {
            static_cast<void>(ap);
            return new (at) Model<Set>(p);
        } else {
            return new (at) Model<Set>(p, ap);
        }
    }
};

/// Pseudo-random numbers, the same on every target (an LCG).
struct Lcg {
    std::uint32_t s = 12345u;
    constexpr std::uint32_t next() {
        s = s * 1664525u + 1013904223u;
        return s >> 8;
    }
    /// Uniform in [-1, 1).
    constexpr float uniform() { return static_cast<float>(static_cast<std::int32_t>(next()) - (1 << 23)) / 8388608.0f; }
};

constexpr bool starts_with(const char* s, const char* prefix) {
    for (; *prefix != '\0'; ++s, ++prefix)
        if (*s != *prefix) return false;
    return true;
}

/// Fills every array of a params aggregate: float weights uniform in ±0.3; for q15, int8 weights in ±127, biases in
/// ±0.5 (Q3.12), multipliers of weights of about ±0.3 (0.3 / 127 / 8 as m·2^-(31 + 10)) and shift 10, so that the
/// pre-activations have the range of a trained model's.
template <class P>
constexpr void fill(P& p, Lcg& g) {
    sarnn::for_each_array(p, [&g](const char* name, auto* d, std::size_t n) {
        using E = std::remove_pointer_t<decltype(d)>;
        for (std::size_t k = 0; k < n; ++k) {
            if constexpr (std::is_floating_point_v<E>) {
                d[k] = static_cast<E>(0.3f * g.uniform());
            } else if constexpr (std::is_same_v<E, std::int8_t>) {
                d[k] = starts_with(name, "shift") ? std::int8_t{10} : static_cast<std::int8_t>(g.uniform() * 127.0f);
            } else if (starts_with(name, "b")) {
                d[k] = static_cast<E>(g.uniform() * 2048.0f);
            } else {
                d[k] = 1267449479;  // a multiplier in [2^30, 2^31)
            }
        }
        return false;
    });
}

/// The fields of q15 params that are not arrays (for_each_array does not walk them).
template <std::size_t In, std::size_t H>
constexpr void fill_scalars(sarnn::RnnParams<sarnn::q15, In, H>& p) {
    p.x_m = 1073741824;  // inputs in Q15: the factor 1
    p.x_shift = -1;
    p.x_scale = 1.0f / 32768.0f;
}
template <std::size_t H>
constexpr void fill_scalars(sarnn::BilinearParams<sarnn::q15, H>& p) {
    p.g = 2;
}
template <std::size_t H, std::size_t K>
constexpr void fill_scalars(sarnn::KeyQueryParams<sarnn::q15, H, K>& p) {
    p.m_t = 1073741824;
    p.shift_t = 0;
    p.g_k = 2;
    p.g_u = 2;
    p.g = 2;
}
template <std::size_t H, std::size_t K>
constexpr void fill_scalars(sarnn::AdditiveParams<sarnn::q15, H, K>& p) {
    p.m_v = 1297080000;  // the scores in Q13 (|e| <= Σ|v| < 4): s_v·2^13 / 32768 = 0.604·2^-10
    p.shift_v = 10;
    p.f = 13;
}
template <std::size_t In, std::size_t H, std::size_t K>
constexpr void fill_scalars(sarnn::LstmnParams<sarnn::q15, In, H, K>& p) {
    p.m_v = 1267449479;  // the scores in Q12: s_v·2^12 / 32768 = 1267449479·2^-(31 + 7)
    p.shift_v = 7;
    p.f = 12;
    p.x_m = 1073741824;  // inputs in Q15: the factor 1
    p.x_shift = -1;
    p.x_scale = 1.0f / 32768.0f;
}
template <std::size_t In, std::size_t H>
constexpr void fill_scalars(sarnn::GruParams<sarnn::q15, In, H>& p) {
    p.x_m = 1073741824;  // inputs in Q15: the factor 1
    p.x_shift = -1;
    p.x_scale = 1.0f / 32768.0f;
}
template <std::size_t In, std::size_t H>
constexpr void fill_scalars(sarnn::LstmParams<sarnn::q15, In, H>& p) {
    p.x_m = 1073741824;  // inputs in Q15: the factor 1
    p.x_shift = -1;
    p.x_scale = 1.0f / 32768.0f;
}
template <class P>
constexpr void fill_scalars(P&) {}

/// Fills p in place (the params of a large shape do not fit a stack).
template <class P>
void fill_params(P& p, std::uint32_t seed) {
    Lcg g{seed};
    fill(p, g);
    fill_scalars(p);
}

/// The shapes as a type list.
template <class... S>
struct List {
    static constexpr std::size_t size = sizeof...(S);
};
template <std::size_t I, class L>
struct At;
template <class S0, class... S>
struct At<0, List<S0, S...>> {
    using type = S0;
};
template <std::size_t I, class S0, class... S>
struct At<I, List<S0, S...>> {
    using type = typename At<I - 1, List<S...>>::type;
};

}  // namespace plan

#endif
