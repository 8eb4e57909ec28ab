// sarnn/params.hpp: the weights of each model, as plain aggregates.
//
// They hold no pointers and need no constructor, so they can be `constexpr` or `const` and sit in flash.
// A model keeps a reference to its params and never copies them.
//
// Each is aligned like the models' own buffers, to storage_alignment<T>() = SARNN_VECTOR_BYTES (the widest vector
// of lib/'s kernels; 64 on x86-64, 16 on ARM, none on
// Cortex-M), so that wherever it is placed (a global, a constexpr in flash, the stack, `new`) its rows start on a
// vector boundary whenever their byte length is a multiple of it: a vector load that straddles two cache lines
// costs about twice as much (measured on a Xeon with AVX-512: A·[x; c] for Hidden 64, In 32 took 205 ns with A
// 16 bytes off a 64-byte boundary, 138 ns aligned).
#ifndef SARNN_PARAMS_HPP
#define SARNN_PARAMS_HPP

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "sarnn/fixed.hpp"
#include "sarnn/kernels.hpp"  // storage_alignment
#include "sarnn/numeric.hpp"

namespace sarnn {

/// Weights of SimpleRnn and SelfAttentionRnn: `h_i = tanh(A·[x_i; r_{i-1}] + b)`.
/// `A` is Hidden x (In + Hidden), row-major; its first In columns act on x_i, the other Hidden on the
/// recurrent vector r (h_{i-1} for SimpleRnn, c_{i-1} for SelfAttentionRnn).
/// PyTorch nn.RNNCell: A = [W_ih | W_hh], b = b_ih + b_hh.
template <class T, std::size_t In, std::size_t Hidden>
struct alignas(storage_alignment<T>()) RnnParams {
    static_assert(Numeric<T>::supported, "sarnn: T must be float or double (a type with a sarnn::Numeric policy)");
    static_assert(In > 0, "sarnn: In (input size) must be at least 1");
    static_assert(Hidden > 0, "sarnn: Hidden (state size) must be at least 1");

    weight_t<T> A[Hidden][In + Hidden];
    weight_t<T> b[Hidden];

    /// Calls f(name, data, count) for each array in declaration order (see for_each_array()).
    template <class P, class F>
    static constexpr bool arrays(P& p, F&& f) {
        return f("A", &p.A[0][0], Hidden * (In + Hidden)) || f("b", &p.b[0], Hidden);
    }
};

/// Weights of SimpleRnn<q15> and SelfAttentionRnn<q15>: the same h_i = tanh(A·[x_i; r_{i-1}] + b) in integers.
/// Row r of A is int8 with a real scale a_r of its own (A ≈ A_q·a_r), the input x arrives as int16 raw values of
/// real value raw·x_scale (an ADC's counts), r (h or c) is Q15. Per row, exactly (kernels_q15.hpp):
///   s_x = Σ_k A[r][k]·x_k, s_r = Σ_k A[r][In + k]·r_k                        (int32, exact)
///   z   = requantize(s_x, x_m, x_shift) + s_r      (x_m·2^-(31 + x_shift) = x_scale·32768: s_x in s_r's units)
///   pre = requantize(z, m[r], shift[r]) + b[r]     (m[r]·2^-(31 + shift[r]) = a_r / 8: Q3.12, saturated)
///   h_r = tanh_q15(pre)
/// (requantize: fixed.hpp.) The multipliers and shifts come from the exporter (python3 -m sarnn.export --quantize)
/// or sarnn.q15.quantize_multiplier; x_scale is there for the host side (to quantise inputs) and is never read by
/// the model. Headroom: In <= 511 and Hidden <= 256 keep both sums and z within int32 (128·32768·511 < 2^31).
template <std::size_t In, std::size_t Hidden>
struct alignas(4) RnnParams<q15, In, Hidden> {
    static_assert(In > 0, "sarnn: In (input size) must be at least 1");
    static_assert(Hidden > 0, "sarnn: Hidden (state size) must be at least 1");
    static_assert(In <= 511 && Hidden <= 256, "sarnn: q15 models take In <= 511 and Hidden <= 256 (int32 headroom)");

    std::int32_t b[Hidden];  ///< Q3.12
    std::int32_t m[Hidden];  ///< requantisation multiplier of row r, in [2^30, 2^31)
    std::int32_t x_m;        ///< the input's factor, in [2^30, 2^31)
    float x_scale;           ///< real value of one raw input unit (host side only)
    std::int8_t A[Hidden][In + Hidden];
    std::int8_t shift[Hidden];  ///< in [-31, 31]
    std::int8_t x_shift;        ///< in [-31, 31]

    /// Calls f(name, data, count) for each array in declaration order (see for_each_array()).
    template <class P, class F>
    static constexpr bool arrays(P& p, F&& f) {
        return f("b", &p.b[0], Hidden) || f("m", &p.m[0], Hidden) || f("A", &p.A[0][0], Hidden * (In + Hidden)) ||
               f("shift", &p.shift[0], Hidden);
    }
};

/// Weights of Gru (gru.hpp): PyTorch nn.GRU's (one layer) and nn.GRUCell's tensors as they are, gate rows in their
/// order r, z, n:
///   r = σ(W_ir x + b_ir + W_hr h + b_hr), z = σ(W_iz x + b_iz + W_hz h + b_hz),
///   n = tanh(W_in x + b_in + r ⊙ (W_hn h + b_hn)), h' = (1 - z) ⊙ n + z ⊙ h.
/// W_ih is 3·Hidden x In and W_hh 3·Hidden x Hidden, row-major; the two biases stay apart (b_hn is inside r ⊙ (..)).
template <class T, std::size_t In, std::size_t Hidden>
struct alignas(storage_alignment<T>()) GruParams {
    static_assert(Numeric<T>::supported, "sarnn: T must be float or double (a type with a sarnn::Numeric policy)");
    static_assert(In > 0, "sarnn: In (input size) must be at least 1");
    static_assert(Hidden > 0, "sarnn: Hidden (state size) must be at least 1");

    weight_t<T> W_ih[3 * Hidden][In];
    weight_t<T> W_hh[3 * Hidden][Hidden];
    weight_t<T> b_ih[3 * Hidden];
    weight_t<T> b_hh[3 * Hidden];

    /// Calls f(name, data, count) for each array in declaration order (see for_each_array()).
    template <class P, class F>
    static constexpr bool arrays(P& p, F&& f) {
        return f("W_ih", &p.W_ih[0][0], 3 * Hidden * In) || f("W_hh", &p.W_hh[0][0], 3 * Hidden * Hidden) ||
               f("b_ih", &p.b_ih[0], 3 * Hidden) || f("b_hh", &p.b_hh[0], 3 * Hidden);
    }
};

/// Weights of Gru<q15> (gru.hpp): the same GRU in integers. Gate row r (of W_ih and W_hh together) is int8 with one
/// real scale a_r (W ≈ W_q·a_r, m[r]·2^-(31 + shift[r]) = a_r / 8); x arrives as int16 raw values of real value
/// raw·x_scale (x_m·2^-(31 + x_shift) = x_scale·32768, as RnnParams<q15>); h is Q15; the biases Q3.12. Per row,
/// exactly (kernels_q15.hpp: gru_gates, gru_cell; requantize: fixed.hpp; sat16: saturated to int16):
///   gi_r = sat16(requantize(requantize(W_ih[r]·x, x_m, x_shift), m[r], shift[r]) + b_ih[r])      Q3.12
///   gh_r = sat16(requantize(W_hh[r]·h, m[r], shift[r]) + b_hh[r])                                Q3.12
/// (the inner requantize clamped to +-2^30, as affine's) and per lane d, with the rows r, z, n = d, H + d, 2·H + d:
///   r = sigmoid_q15(sat16(gi_r + gh_r)),  z = sigmoid_q15(sat16(gi_z + gh_z))                      Q15, 0 .. 32767
///   n = tanh_q15(sat16(gi_n + ((r·gh_n + 2^14) >> 15)))                                           Q15
///   h' = n + ((z·(h - n) + 2^14) >> 15)                                                           Q15
/// (>> a floor: each product rounded half up). Headroom: W_ih[r]·x <= 128·32768·511 < 2^31 and W_hh[r]·h <=
/// 128·32768·256 = 2^30 (In <= 511, Hidden <= 256); |r·gh_n| <= 32767·32768 < 2^30; |h - n| <= 65535, so
/// |z·(h - n)| + 2^14 <= 32767·65535 + 2^14 < 2^31; z < 32768 keeps the rounded |z·(h - n)| / 2^15 within |h - n|, so
/// h' lies between n and h: within int16 without a clamp, |h'| <= 32767. Gate rows in PyTorch's order r, z, n, as
/// GruParams. x_scale is for the host side and never read by the model.
template <std::size_t In, std::size_t Hidden>
struct alignas(4) GruParams<q15, In, Hidden> {
    static_assert(In > 0, "sarnn: In (input size) must be at least 1");
    static_assert(Hidden > 0, "sarnn: Hidden (state size) must be at least 1");
    static_assert(In <= 511 && Hidden <= 256, "sarnn: q15 models take In <= 511 and Hidden <= 256 (int32 headroom)");

    std::int32_t b_ih[3 * Hidden];  ///< Q3.12
    std::int32_t b_hh[3 * Hidden];  ///< Q3.12
    std::int32_t m[3 * Hidden];     ///< gate row r's multiplier (W_ih and W_hh), in [2^30, 2^31)
    std::int32_t x_m;               ///< the input's factor, in [2^30, 2^31)
    float x_scale;                  ///< real value of one raw input unit (host side only)
    std::int8_t W_ih[3 * Hidden][In];
    std::int8_t W_hh[3 * Hidden][Hidden];
    std::int8_t shift[3 * Hidden];  ///< in [-31, 31]
    std::int8_t x_shift;            ///< in [-31, 31]

    /// Calls f(name, data, count) for each array in declaration order (see for_each_array()).
    template <class P, class F>
    static constexpr bool arrays(P& p, F&& f) {
        return f("b_ih", &p.b_ih[0], 3 * Hidden) || f("b_hh", &p.b_hh[0], 3 * Hidden) || f("m", &p.m[0], 3 * Hidden) ||
               f("W_ih", &p.W_ih[0][0], 3 * Hidden * In) || f("W_hh", &p.W_hh[0][0], 3 * Hidden * Hidden) ||
               f("shift", &p.shift[0], 3 * Hidden);
    }
};

/// Weights of BilinearAlign: e_ij = h_j^T W h_i (Luong's "general" score). W is Hidden x Hidden, row-major.
template <class T, std::size_t Hidden>
struct alignas(storage_alignment<T>()) BilinearParams {
    static_assert(Numeric<T>::supported, "sarnn: T must be float or double (a type with a sarnn::Numeric policy)");
    static_assert(Hidden > 0, "sarnn: Hidden (state size) must be at least 1");

    weight_t<T> W[Hidden][Hidden];

    /// Calls f(name, data, count) for each array in declaration order (see for_each_array()).
    template <class P, class F>
    static constexpr bool arrays(P& p, F&& f) {
        return f("W", &p.W[0][0], Hidden * Hidden);
    }
};

/// Weights of BilinearAlign for q15 models: the query q = W h_i in integers, then e_ij = h_j·q. Row r of W is int8
/// with a real scale w_r of its own (W ≈ W_q·w_r); q is kept in Q(15 - g), g bits of headroom (0 to 8; outside,
/// the nearest bound is taken) that the exporter chooses so that |q_r| <= w_r·Σ_k |W_q[r][k]| < 2^g: then nothing
/// saturates. Per row, exactly (kernels_q15.hpp):
///   q_r = requantize(Σ_k W[r][k]·h_k, m[r], shift[r]), saturated to int16   (m[r]·2^-(31 + shift[r]) = w_r / 2^g)
/// Headroom: Hidden <= 256 keeps the sum within int32 (128·32768·256 = 2^30).
template <std::size_t Hidden>
struct alignas(4) BilinearParams<q15, Hidden> {
    static_assert(Hidden > 0, "sarnn: Hidden (state size) must be at least 1");
    static_assert(Hidden <= 256, "sarnn: q15 models take Hidden <= 256 (int32 headroom)");

    std::int32_t m[Hidden];  ///< requantisation multiplier of row r
    std::int8_t W[Hidden][Hidden];
    std::int8_t shift[Hidden];  ///< in [-31, 31]
    std::int8_t g;              ///< q's headroom bits: q in Q(15 - g)

    /// Calls f(name, data, count) for each array in declaration order (see for_each_array()).
    template <class P, class F>
    static constexpr bool arrays(P& p, F&& f) {
        return f("m", &p.m[0], Hidden) || f("W", &p.W[0][0], Hidden * Hidden) || f("shift", &p.shift[0], Hidden);
    }
};

/// Weights of KeyQueryAlign<K>: e_ij = (Wk h_j)·(Wq h_i). Both are K x Hidden, row-major. There is no
/// 1/sqrt(K): fold any scale into Wq.
template <class T, std::size_t Hidden, std::size_t K>
struct alignas(storage_alignment<T>()) KeyQueryParams {
    static_assert(Numeric<T>::supported, "sarnn: T must be float or double (a type with a sarnn::Numeric policy)");
    static_assert(Hidden > 0, "sarnn: Hidden (state size) must be at least 1");
    static_assert(K > 0, "sarnn: K (key size) must be at least 1");

    weight_t<T> Wk[K][Hidden];
    weight_t<T> Wq[K][Hidden];

    /// Calls f(name, data, count) for each array in declaration order (see for_each_array()).
    template <class P, class F>
    static constexpr bool arrays(P& p, F&& f) {
        return f("Wk", &p.Wk[0][0], K * Hidden) || f("Wq", &p.Wq[0][0], K * Hidden);
    }
};

/// Weights of KeyQueryAlign<K> for q15 models: e_ij = (Wk h_j)·(Wq h_i) in integers. Row k of Wk and of Wq is int8
/// with a real scale of its own (Wk ≈ Wk_q·wk_k, Wq ≈ Wq_q·wq_k). Both forms of the align (KeyQueryPlan) read the
/// same params; per step, exactly (kernels_q15.hpp: gemv, gemv_t, prepare_query, attend_query):
///   cache: P_i,k = requantize(Σ_r Wk[k][r]·h_r, m_k[k], shift_k[k])   keys in Q(15 - g_k)  (M = wk_k / 2^g_k)
///          u_k   = requantize(Σ_r Wq[k][r]·h_r, m_q[k], shift_q[k])   in Q(15 - g_u)       (M = wq_k / 2^g_u)
///          e_ij  = P_j·u, a query of g_k + g_u headroom bits
///   fold:  u'_k  = requantize(Σ_r Wq[k][r]·h_r, m_f[k], shift_f[k])   in Q(15 - g_f)  (M = wk_k·wq_k / 2^g_f)
///          q_r   = requantize(Σ_k Wk[k][r]·u'_k, m_t, shift_t)        in Q(15 - g)    (M = 2^(g_f - g))
///          e_ij  = h_j·q
/// each saturated to int16. The exporter chooses the headrooms (0 to 8 each; g_k + g_u <= 8) from the weights'
/// row sums so that nothing saturates; g_f, which only the multipliers carry, is usually negative (u' = wk_k·u_k is
/// small: more fractional bits keep its precision). Headroom: Hidden <= 256 and K <= 256 keep every sum within int32.
template <std::size_t Hidden, std::size_t K>
struct alignas(4) KeyQueryParams<q15, Hidden, K> {
    static_assert(Hidden > 0, "sarnn: Hidden (state size) must be at least 1");
    static_assert(K > 0, "sarnn: K (key size) must be at least 1");
    static_assert(Hidden <= 256 && K <= 256, "sarnn: q15 models take Hidden <= 256 and K <= 256 (int32 headroom)");

    std::int32_t m_k[K];  ///< cache: the keys' multipliers
    std::int32_t m_q[K];  ///< cache: the query's
    std::int32_t m_f[K];  ///< fold: u''s
    std::int32_t m_t;     ///< fold: q's
    std::int8_t Wk[K][Hidden];
    std::int8_t Wq[K][Hidden];
    std::int8_t shift_k[K];
    std::int8_t shift_q[K];
    std::int8_t shift_f[K];
    std::int8_t shift_t;
    std::int8_t g_k, g_u, g;  ///< the headrooms of P, u and q

    /// Calls f(name, data, count) for each array in declaration order (see for_each_array()).
    template <class P, class F>
    static constexpr bool arrays(P& p, F&& f) {
        return f("m_k", &p.m_k[0], K) || f("m_q", &p.m_q[0], K) || f("m_f", &p.m_f[0], K) ||
               f("Wk", &p.Wk[0][0], K * Hidden) || f("Wq", &p.Wq[0][0], K * Hidden) || f("shift_k", &p.shift_k[0], K) ||
               f("shift_q", &p.shift_q[0], K) || f("shift_f", &p.shift_f[0], K);
    }
};

/// Weights of AdditiveAlign<K>: e_ij = v·tanh(W [h_j; h_i]) (Bahdanau). W is K x 2·Hidden, row-major; its first
/// Hidden columns act on the stored state h_j, the others on the new state h_i.
template <class T, std::size_t Hidden, std::size_t K>
struct alignas(storage_alignment<T>()) AdditiveParams {
    static_assert(Numeric<T>::supported, "sarnn: T must be float or double (a type with a sarnn::Numeric policy)");
    static_assert(Hidden > 0, "sarnn: Hidden (state size) must be at least 1");
    static_assert(K > 0, "sarnn: K (attention size) must be at least 1");

    weight_t<T> W[K][2 * Hidden];
    weight_t<T> v[K];

    /// Calls f(name, data, count) for each array in declaration order (see for_each_array()).
    template <class P, class F>
    static constexpr bool arrays(P& p, F&& f) {
        return f("W", &p.W[0][0], K * 2 * Hidden) || f("v", &p.v[0], K);
    }
};

/// Weights of AdditiveAlign<K> for q15 models: e_ij = v·tanh(W [h_j; h_i]) in integers. Row k of W (both halves) is
/// int8 with one real scale w_k (W ≈ W_q·w_k), v is int8 with one scale (v ≈ v_q·s_v). Per step, exactly
/// (kernels_q15.hpp: gemv, additive_scores, attend_scored):
///   P_j,k = requantize(Σ_r W[k][r]·h_j,r, m[k], shift[k])            in Q3.12 (M = w_k / 8): once per state, kept
///   q_k   = requantize(Σ_r W[k][Hidden + r]·h_i,r, m[k], shift[k])   in Q3.12
///   e_j   = requantize(Σ_k v[k]·tanh_q15(P_j,k + q_k), m_v, shift_v) in Q(f)    (M = s_v·2^f / 32768)
/// each saturated to int16 (P_j,k + q_k too: tanh is flat beyond +-8 anyway). The exporter chooses f (-2 to 15) so
/// that Σ_k |v_k| (the scores' bound) fits Q(f). Headroom: Hidden <= 256 and K <= 256 keep every sum within int32.
template <std::size_t Hidden, std::size_t K>
struct alignas(4) AdditiveParams<q15, Hidden, K> {
    static_assert(Hidden > 0, "sarnn: Hidden (state size) must be at least 1");
    static_assert(K > 0, "sarnn: K (attention size) must be at least 1");
    static_assert(Hidden <= 256 && K <= 256, "sarnn: q15 models take Hidden <= 256 and K <= 256 (int32 headroom)");

    std::int32_t m[K];  ///< row k's multiplier (both halves of W)
    std::int32_t m_v;   ///< the scores'
    std::int8_t W[K][2 * Hidden];
    std::int8_t v[K];
    std::int8_t shift[K];
    std::int8_t shift_v;
    std::int8_t f;  ///< the scores' format Q(f), -2 to 15

    /// Calls f(name, data, count) for each array in declaration order (see for_each_array()).
    template <class P, class F>
    static constexpr bool arrays(P& p, F&& fn) {
        return fn("m", &p.m[0], K) || fn("W", &p.W[0][0], K * 2 * Hidden) || fn("v", &p.v[0], K) ||
               fn("shift", &p.shift[0], K);
    }
};

/// Weights of Lstmn (Cheng, Dong and Lapata 2016). Gate rows are in PyTorch nn.LSTMCell's order i, f, g, o,
/// so W_ih, W_hh import directly and b = b_ih + b_hh. The attention part: a_j = v·tanh(W_h h_j + W_x x_t +
/// W_ht h~_{t-1}).
template <class T, std::size_t In, std::size_t Hidden, std::size_t K>
struct alignas(storage_alignment<T>()) LstmnParams {
    static_assert(Numeric<T>::supported, "sarnn: T must be float or double (a type with a sarnn::Numeric policy)");
    static_assert(In > 0, "sarnn: In (input size) must be at least 1");
    static_assert(Hidden > 0, "sarnn: Hidden (state size) must be at least 1");
    static_assert(K > 0, "sarnn: K (attention size) must be at least 1");

    weight_t<T> W_ih[4 * Hidden][In];
    weight_t<T> W_hh[4 * Hidden][Hidden];
    weight_t<T> b[4 * Hidden];
    weight_t<T> W_h[K][Hidden];
    weight_t<T> W_x[K][In];
    weight_t<T> W_ht[K][Hidden];
    weight_t<T> v[K];

    /// Calls f(name, data, count) for each array in declaration order (see for_each_array()).
    template <class P, class F>
    static constexpr bool arrays(P& p, F&& f) {
        return f("W_ih", &p.W_ih[0][0], 4 * Hidden * In) || f("W_hh", &p.W_hh[0][0], 4 * Hidden * Hidden) ||
               f("b", &p.b[0], 4 * Hidden) || f("W_h", &p.W_h[0][0], K * Hidden) || f("W_x", &p.W_x[0][0], K * In) ||
               f("W_ht", &p.W_ht[0][0], K * Hidden) || f("v", &p.v[0], K);
    }
};

/// Weights of Lstmn<q15> (lstmn.hpp): the same LSTMN in integers. Each gate row r (of W_ih and W_hh together) is int8
/// with one real scale a_r (W ≈ W_q·a_r), each attention row k (of W_h, W_x and W_ht together) with one scale w_k, v
/// with one scale s_v; x arrives as int16 raw values of real value raw·x_scale; h, h~ are Q15, c, c~ Q3.12 (|c| < 8:
/// see Lstmn<q15> for what happens beyond). Per step, exactly (kernels_q15.hpp: affine, gemv, additive_scores,
/// attend_scored_pair, lstm_cell):
///   q_k   = requantize(requantize(W_x[k]·x, x_m, x_shift) + W_ht[k]·h~_{t-1}, m_a[k], shift_a[k])  Q3.12 (M = w_k / 8)
///   P_j,k = requantize(W_h[k]·h_j, m_a[k], shift_a[k])                   Q3.12, once per state, kept (int16)
///   a_j   = requantize(Σ_k v[k]·tanh_q15(P_j,k + q_k), m_v, shift_v)    in Q(f) (M = s_v·2^f / 32768)
///   z_r   = requantize(requantize(W_ih[r]·x, x_m, x_shift) + W_hh[r]·h~_t, m[r], shift[r]) + b[r]  Q3.12 (M = a_r / 8)
/// each saturated to int16 (x_m·2^-(31 + x_shift) = x_scale·32768, as RnnParams<q15>). The exporter chooses f (-2 to
/// 15) so that Σ_k |v_k| fits Q(f). Gate rows in PyTorch's order i, f, g, o, as LstmnParams. x_scale is for the host
/// side and never read by the model. Headroom: In <= 511, Hidden <= 256 and K <= 256 keep every sum within int32.
template <std::size_t In, std::size_t Hidden, std::size_t K>
struct alignas(4) LstmnParams<q15, In, Hidden, K> {
    static_assert(In > 0, "sarnn: In (input size) must be at least 1");
    static_assert(Hidden > 0, "sarnn: Hidden (state size) must be at least 1");
    static_assert(K > 0, "sarnn: K (attention size) must be at least 1");
    static_assert(In <= 511 && Hidden <= 256 && K <= 256,
                  "sarnn: q15 models take In <= 511, Hidden <= 256 and K <= 256 (int32 headroom)");

    std::int32_t b[4 * Hidden];  ///< Q3.12
    std::int32_t m[4 * Hidden];  ///< gate row r's multiplier (W_ih and W_hh), in [2^30, 2^31)
    std::int32_t m_a[K];         ///< attention row k's multiplier (W_h, W_x and W_ht)
    std::int32_t m_v;            ///< the scores'
    std::int32_t x_m;            ///< the input's factor, in [2^30, 2^31)
    float x_scale;               ///< real value of one raw input unit (host side only)
    std::int8_t W_ih[4 * Hidden][In];
    std::int8_t W_hh[4 * Hidden][Hidden];
    std::int8_t W_h[K][Hidden];
    std::int8_t W_x[K][In];
    std::int8_t W_ht[K][Hidden];
    std::int8_t v[K];
    std::int8_t shift[4 * Hidden];  ///< in [-31, 31]
    std::int8_t shift_a[K];         ///< in [-31, 31]
    std::int8_t x_shift;            ///< in [-31, 31]
    std::int8_t shift_v;            ///< in [-31, 31]
    std::int8_t f;                  ///< the scores' format Q(f), -2 to 15

    /// Calls f(name, data, count) for each array in declaration order (see for_each_array()).
    template <class P, class F>
    static constexpr bool arrays(P& p, F&& fn) {
        return fn("b", &p.b[0], 4 * Hidden) || fn("m", &p.m[0], 4 * Hidden) || fn("m_a", &p.m_a[0], K) ||
               fn("W_ih", &p.W_ih[0][0], 4 * Hidden * In) || fn("W_hh", &p.W_hh[0][0], 4 * Hidden * Hidden) ||
               fn("W_h", &p.W_h[0][0], K * Hidden) || fn("W_x", &p.W_x[0][0], K * In) ||
               fn("W_ht", &p.W_ht[0][0], K * Hidden) || fn("v", &p.v[0], K) || fn("shift", &p.shift[0], 4 * Hidden) ||
               fn("shift_a", &p.shift_a[0], K);
    }
};

/// Weights of Lstm (lstm.hpp), PyTorch nn.LSTM's (one layer, one direction) and nn.LSTMCell's: gate rows in their
/// order i, f, g, o, so W_ih (weight_ih_l0) and W_hh (weight_hh_l0) import directly and b = b_ih + b_hh (as the gate
/// part of LstmnParams).
template <class T, std::size_t In, std::size_t Hidden>
struct alignas(storage_alignment<T>()) LstmParams {
    static_assert(Numeric<T>::supported, "sarnn: T must be float or double (a type with a sarnn::Numeric policy)");
    static_assert(In > 0, "sarnn: In (input size) must be at least 1");
    static_assert(Hidden > 0, "sarnn: Hidden (state size) must be at least 1");

    weight_t<T> W_ih[4 * Hidden][In];
    weight_t<T> W_hh[4 * Hidden][Hidden];
    weight_t<T> b[4 * Hidden];

    /// Calls f(name, data, count) for each array in declaration order (see for_each_array()).
    template <class P, class F>
    static constexpr bool arrays(P& p, F&& f) {
        return f("W_ih", &p.W_ih[0][0], 4 * Hidden * In) || f("W_hh", &p.W_hh[0][0], 4 * Hidden * Hidden) ||
               f("b", &p.b[0], 4 * Hidden);
    }
};

/// Weights of Lstm<q15> (lstm.hpp): the same LSTM in integers, with exactly the gate part of LstmnParams<q15> (its
/// arrays, their formats and their order). Each gate row r (of W_ih and W_hh together) is int8 with one real scale
/// a_r (W ≈ W_q·a_r); x arrives as int16 raw values of real value raw·x_scale; h is Q15, c Q3.12 (|c| < 8: see
/// Lstm<q15> for what happens beyond). Per step, exactly (kernels_q15.hpp: affine, lstm_cell):
///   z_r = requantize(requantize(W_ih[r]·x, x_m, x_shift) + W_hh[r]·h_{t-1}, m[r], shift[r]) + b[r]  Q3.12 (M = a_r / 8)
/// saturated to int16 (x_m·2^-(31 + x_shift) = x_scale·32768, as RnnParams<q15>); then the cell of Lstmn<q15> on
/// c_{t-1}. Gate rows in PyTorch's order i, f, g, o, as LstmParams; b = (b_ih + b_hh)·4096. x_scale is for the host
/// side and never read by the model.
/// Headroom, In <= 511 and Hidden <= 256 (any int8 weights, -128 included): |W_ih[r]·x| <= 128·32768·511 < 2^31 and
/// |W_hh[r]·h| <= 128·32766·256 < 2^30 (|h| <= 32766: o·tanh(c) rounded), both exact in int32, in any order of the
/// partial sums; the first requantisation is clamped to +-2^30, so z's sum is below 2^30 + 2^30 = 2^31 in magnitude;
/// b[r] is added with saturation (any int32 b is safe). The cell: |f·c|, |i·g|, |o·tanh(c)| < 2^15·2^15 = 2^30, and
/// c = round(f·c / 2^15) + round(i·g / 2^18) < 2^15 + 2^12 in magnitude before it is clamped to int16.
template <std::size_t In, std::size_t Hidden>
struct alignas(4) LstmParams<q15, In, Hidden> {
    static_assert(In > 0, "sarnn: In (input size) must be at least 1");
    static_assert(Hidden > 0, "sarnn: Hidden (state size) must be at least 1");
    static_assert(In <= 511 && Hidden <= 256, "sarnn: q15 models take In <= 511 and Hidden <= 256 (int32 headroom)");

    std::int32_t b[4 * Hidden];  ///< Q3.12
    std::int32_t m[4 * Hidden];  ///< gate row r's multiplier (W_ih and W_hh), in [2^30, 2^31)
    std::int32_t x_m;            ///< the input's factor, in [2^30, 2^31)
    float x_scale;               ///< real value of one raw input unit (host side only)
    std::int8_t W_ih[4 * Hidden][In];
    std::int8_t W_hh[4 * Hidden][Hidden];
    std::int8_t shift[4 * Hidden];  ///< in [-31, 31]
    std::int8_t x_shift;            ///< in [-31, 31]

    /// Calls f(name, data, count) for each array in declaration order (see for_each_array()).
    template <class P, class F>
    static constexpr bool arrays(P& p, F&& f) {
        return f("b", &p.b[0], 4 * Hidden) || f("m", &p.m[0], 4 * Hidden) ||
               f("W_ih", &p.W_ih[0][0], 4 * Hidden * In) || f("W_hh", &p.W_hh[0][0], 4 * Hidden * Hidden) ||
               f("shift", &p.shift[0], 4 * Hidden);
    }
};

/// Calls f(name, data, count) for every weight array of a params aggregate p, in declaration order: `name` as in
/// the struct ("A", "W_hh", ...), `data` its first value (row-major; `const T*` when p is const, `T*` otherwise),
/// `count` its number of values. f returns bool: true stops the walk. Returns whether an f returned true.
/// O(number of arrays) calls; what f does with the values is its own cost. validate() is built on it.
template <class P, class F>
constexpr bool for_each_array(P& p, F&& f) {
    return std::remove_const_t<P>::arrays(p, f);
}

}  // namespace sarnn

#endif
