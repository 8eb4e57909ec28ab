// sarnn/kernels_q15.hpp: the kernel set of the q15 models (SimpleRnn<q15, ...>, SelfAttentionRnn<q15, ...>,
// Lstmn<q15, ...>). Integer arithmetic only: no float, no division but one 32-bit division per attention step; every
// function has its twin in python/sarnn/q15.py, which computes the same integers (tests/test_q15_models.cpp,
// python/tests/test_fixed.py).
//
// A model names a float set as `Set`; for T = q15 it runs kernel::Q15 instead (kernel::set_for_t<T, Set>): the
// q15 set (kernels/q15/{affine,attention,cells}.hpp, compiled by lib/kernels/q15/*.cpp), whose inner loops are
// chosen at compile time for the target (kernels/q15/loops.hpp, behind the typed seam of q15/seam.hpp): Thumb
// assembly on the M0, M0+ and M3, the DSP extension's two-at-a-time multiply-adds (SMLAD) on the M4 and M7, Helium
// (MVE) on the M55, plain C++ elsewhere. A model with Set = kernel::Q15Plain runs the same kernels with the plain C++ loops on any target (the twin the target's loops
// are checked against in the same run). Every target computes the same integers: the loops' sums are exact.
//
// The operations, and what each rounds (Q15: raw / 32768; Q3.12: raw / 4096; see fixed.hpp):
//   affine_tanh(a, rows, x, nx, r, nr, y)   y = tanh(A·[x; r] + b) for the int8 A of RnnParams<q15> (params.hpp):
//        per row, s_x = Σ A_x·x (int32), s_r = Σ A_r·r (int32: both exact), z = requantize(s_x, x_m, x_shift)
//        (clamped to +-2^30) + s_r, pre = requantize(z, m[row], shift[row]) + b[row] saturated to Q3.12, y =
//        tanh_q15(pre). y is a padded row of rows values (lanes past rows untouched), r of nr; O(rows·(nx + nr)).
//   attend_dot(S, q, alpha, c)              the dot context over the n = S.n >= 1 stored states:
//        q' = q / 2^s rounded half up, s the least with Σ|q'_k| <= 65536 (0 unless Σ|q_k| is near 2^16), so that
//        e_j = S_j·q' is exact in int32; e_j kept to 16 bits, rounded half up, in a format Q(f) chosen per step
//        from Σ|q'_k| (f <= 15, so that none can pass 32767); alpha = softmax(e) with the max subtracted (exp_q16
//        of the differences, one reciprocal of their sum, alpha_j floored to Q15); c = Σ_j alpha_j S_j rounded
//        half up to Q15 (c holds q' until then). n = 1: alpha_1 = 32767 (the largest q15) and c = S_1 exactly.
//        S and c padded rows (word aligned: their zero padding lane is read where dim is odd). O(2·n·dim) +
//        n exp_q16 + one 32-bit division. It is prepare_query (g = 0) and attend_query with E = S.
//   gemv(W, v, y)                           y_r = requantize(Σ_k W[r][k]·v_k, m[r], shift[r]) saturated to int16, for
//        the int8 rows of a QMatrix (the align transforms: BilinearParams<q15> in params.hpp): the sum exact in
//        int32 (cols <= 256), one rounding. O(rows·cols).
//   gemv_t(W, v, m, shift, y)               y_r = requantize(Σ_k W[k][r]·v_k, m, shift) saturated to int16: Wᵀ v for
//        the int8 rows of W (rows <= 256: exact in int32), one factor for all of y. O(rows·cols).
//   prepare_query(q, q', dim, g)            q, dim values in Q(15 - g) (0 <= g <= 8), rounded to q' = q / 2^s (half
//        up; q' may be q), s the least with Σ|q'_k| <= 65536, so that E_j·q' is exact in int32 for any Q15 row E_j;
//        returns t = max(ceil(log2 Σ|q'_k|), 15 - g - s, 1) and f = 30 - g - s - t: the scores E_j·q' / 2^t,
//        rounded half up, are the real E_j·q in Q(f) (f <= 15), and none passes 32767. O(dim).
//   attend_query(E, q', scale, S, alpha, c) the context with scores from the rows of E (the keys; E = S for the
//        dot forms) and values from the rows of S (two rings of the same n >= 1 states): e_j = E_j·q' as above,
//        then alpha and c as attend_dot's. q' word aligned, with a zero padding lane where E's dim is odd.
//        O(n·(E.dim + S.dim)) + n exp_q16 + one 32-bit division.
//   additive_scores(P, q, v, m_v, shift_v, e)   the additive align's scores over the n = P.n rows of P (keys in
//        Q3.12, K = P.dim values each): e_j = requantize(Σ_k v_k·tanh_q15(P_j,k + q_k), m_v, shift_v) saturated to
//        int16, the sum P_j,k + q_k saturated to int16 first (AdditiveParams<q15> in params.hpp): the sum of products
//        exact in int32 (K <= 256). O(n·K) tanh_q15.
//   attend_scored(S, f, alpha, c)           the context from scores already in alpha (n = S.n values in Q(f), f
//        clamped to -2..15): alpha = softmax(e) and c = Σ_j alpha_j S_j as attend_dot's; n = 1: alpha_1 = 32767, c = S_1.
//        O(n·S.dim) + n exp_q16 + one 32-bit division.
//   affine(a, rows, x, nx, r, nr, z)        z = A_x·x + A_r·r (+ b) in Q3.12, the pre-activations of the LSTMN's gates
//        and its attention query (LstmnParams<q15> in params.hpp): per row, as affine_tanh but for two int8 matrices
//        (A_x rows x nx, A_r rows x nr, row-major) and without the tanh: z_r = requantize(s_x, x_m, x_shift)
//        (clamped to +-2^30) + s_r, requantize(z, m[row], shift[row]) + b[row] (b null: no bias) saturated to int16.
//        z has rows values (any alignment); O(rows·(nx + nr)).
//   attend_scored_pair(S, T, f, alpha, c, d)  attend_scored over two rings of the same n >= 1 states (the LSTMN's h
//        and c tapes): alpha = softmax(e) once, c = Σ_j alpha_j S_j and d = Σ_j alpha_j T_j, each rounded half up
//        to the rows' own format (Q15 for h, Q3.12 for c: the weighted sum is the same integers), within +-32767; n =
//        1: alpha_1 = 32767, c = S_1 and d = T_1 exactly. O(n·(S.dim + T.dim)) + n exp_q16 + one 32-bit division.
//   attend_dot_at<St>, attend_scored_at<St>, attend_scored_pair_at<St>   the three above where the caller knows the
//        states' row stride at compile time, St = q15_stride(S.stride): the same integers, and an image links the
//        loops of that stride only (the models call these).
//   lstm_cell(z, c~, H, c, h)               the LSTM cell from the Q3.12 pre-activations z = [z_i; z_f; z_g; z_o]
//        (4·H values) and c~ (Q3.12): i, f, o = sigmoid_q15, g = tanh_q15 (Q15); per lane
//        c = round(f·c~ / 2^15) + round(i·g / 2^18) (both Q3.12, rounded half up), saturated to int16 (|c| < 8);
//        h = round(o·tanh_q15(c) / 2^15) in Q15. Returns how many lanes of c saturated (0 to H). O(H): 4·H
//        sigmoid/tanh and H tanh more.
//   gru_gates(a, rows, x, nx, h, nh, gi, gh)   the GRU's two gate rows from one pass over both int8 matrices
//        (GruParams<q15> in params.hpp: QGru): per row, s_x = W_ih[r]·x, s_h = W_hh[r]·h (int32, exact: nx <= 511,
//        nh <= 256), gi_r = requantize(s_x, x_m, x_shift) (clamped to +-2^30), then requantize(., m[r], shift[r]) +
//        b_ih[r], gh_r = requantize(s_h, m[r], shift[r]) + b_hh[r], each saturated to int16 (Q3.12): what affine gives
//        for (W_ih, x) and for (W_hh, h) with the factor 1, nr = 0. gi and gh have rows values (any alignment), h is
//        a padded row of nh; O(rows·(nx + nh)).
//   gru_cell(gi, gh, h_prev, H, h)          the GRU cell from the Q3.12 rows gi = [gi_r; gi_z; gi_n] and gh = [gh_r;
//        gh_z; gh_n] (3·H values each, affine's: GruParams<q15> in params.hpp) and h_prev (Q15): per lane,
//        r = sigmoid_q15(sat16(gi_r + gh_r)), z = sigmoid_q15(sat16(gi_z + gh_z)),
//        n = tanh_q15(sat16(gi_n + ((r·gh_n + 2^14) >> 15))), h = n + ((z·(h_prev - n) + 2^14) >> 15) in Q15 (each
//        product rounded half up; h lies between n and h_prev: no saturation). h must not alias h_prev. O(H): 3·H
//        sigmoid/tanh.
#ifndef SARNN_KERNELS_Q15_HPP
#define SARNN_KERNELS_Q15_HPP

#include <cstddef>
#include <cstdint>

#include "sarnn/fixed.hpp"
#include "sarnn/kernels.hpp"

namespace sarnn {

/// An int8 matrix with a requantisation per row (what gemv reads; pointers into the params).
struct QMatrix {
    const std::int8_t* W;      ///< rows x cols, row stride ld
    std::size_t rows, cols, ld;
    const std::int32_t* m;     ///< rows
    const std::int8_t* shift;  ///< rows
};

/// What prepare_query tells attend_query: the scores' shift t and their format Q(f).
struct QueryScale {
    std::int8_t t;
    std::int8_t f;
};

/// What affine_tanh reads of RnnParams<q15> (params.hpp): pointers into the params, which stay where they are.
struct QAffine {
    const std::int8_t* A;      ///< rows x (nx + nr), row-major
    const std::int32_t* b;     ///< rows, Q3.12
    const std::int32_t* m;     ///< rows: requantisation multiplier of row r
    const std::int8_t* shift;  ///< rows: and its shift
    std::int32_t x_m;          ///< the x part's factor to the r part's units
    int x_shift;
};

/// What affine reads of LstmnParams<q15> (params.hpp) for the gates or the attention query: pointers into the params.
struct QGates {
    const std::int8_t* A_x;    ///< rows x nx, row-major (W_ih or W_x)
    const std::int8_t* A_r;    ///< rows x nr, row-major (W_hh or W_ht)
    const std::int32_t* b;     ///< rows, Q3.12; null: no bias
    const std::int32_t* m;     ///< rows: requantisation multiplier of row r
    const std::int8_t* shift;  ///< rows: and its shift
    std::int32_t x_m;          ///< the x part's factor to the r part's units
    int x_shift;
};

/// What gru_gates reads of GruParams<q15> (params.hpp): pointers into the params.
struct QGru {
    const std::int8_t* W_ih;   ///< rows x nx, row-major
    const std::int8_t* W_hh;   ///< rows x nh, row-major
    const std::int32_t* b_ih;  ///< rows, Q3.12
    const std::int32_t* b_hh;  ///< rows, Q3.12
    const std::int32_t* m;     ///< rows: requantisation multiplier of row r (both matrices)
    const std::int8_t* shift;  ///< rows: and its shift
    std::int32_t x_m;          ///< the x part's factor to h's units
    int x_shift;
};

namespace kernel {

/// The q15 set (see above). Plain C++, no heap, integer arithmetic only.
/// Which inner loops a q15 set runs (kernels/q15/loops.hpp): the target's own (Thumb assembly on the M0, M0+
/// and M3, the DSP extension's on the M4 and M7, Helium on the M55; plain C++ elsewhere), or the plain C++ loops on
/// every target: the twin that the target's are checked against, on the same board, in the same run.
struct TargetLoops;
struct PlainLoops;

/// The row stride of the states (Rows::stride, in values) as a model knows it at compile time, for the attention
/// kernels' forms by stride (Q15Set::attend_dot_at<St>, attend_scored_at<St>, attend_scored_pair_at<St>): s16, s32,
/// s64 (16, 32 and 64 values: Hidden 16, 32 and 64, the strides the DSP set has loops of their own for), or other
/// (any other stride). q15_stride(stride) gives it.
enum class Q15Stride : std::size_t { other = 0, s16 = 16, s32 = 32, s64 = 64 };
constexpr Q15Stride q15_stride(std::size_t stride) noexcept {
    return stride == 16 || stride == 32 || stride == 64 ? static_cast<Q15Stride>(stride) : Q15Stride::other;
}

/// The q15 kernels with the inner loops `Loops` (TargetLoops or PlainLoops): the operations above, each a static
/// function. Both are in lib/ on every target (an image links only the one its models use: --gc-sections); they
/// compute the same integers.
template <class Loops>
struct Q15Set {
    static void affine_tanh(const QAffine& a, std::size_t rows, const q15* x, std::size_t nx, const q15* r,
                            std::size_t nr, q15* y) noexcept;
    static void attend_dot(const Rows<q15>& S, const q15* q, q15* alpha, q15* c) noexcept;
    static void gemv(const QMatrix& W, const q15* v, q15* y) noexcept;
    static void gemv_t(const QMatrix& W, const q15* v, std::int32_t m, int shift, q15* y) noexcept;
    static QueryScale prepare_query(const q15* q, q15* qp, std::size_t dim, int g) noexcept;
    static void attend_query(const Rows<q15>& E, const q15* q, QueryScale scale, const Rows<q15>& S, q15* alpha,
                             q15* c) noexcept;
    static void additive_scores(const Rows<q15>& P, const q15* q, const std::int8_t* v, std::int32_t m_v, int shift_v,
                                q15* e) noexcept;
    static void attend_scored(const Rows<q15>& S, int f, q15* alpha, q15* c) noexcept;
    static void affine(const QGates& a, std::size_t rows, const q15* x, std::size_t nx, const q15* r, std::size_t nr,
                       q15* z) noexcept;
    static void attend_scored_pair(const Rows<q15>& S, const Rows<q15>& T, int f, q15* alpha, q15* c, q15* d) noexcept;
    static std::size_t lstm_cell(const q15* z, const q15* c_tilde, std::size_t hidden, q15* c, q15* h) noexcept;
    static void gru_gates(const QGru& a, std::size_t rows, const q15* x, std::size_t nx, const q15* h, std::size_t nh,
                          q15* gi, q15* gh) noexcept;
    static void gru_cell(const q15* gi, const q15* gh, const q15* h_prev, std::size_t hidden, q15* h) noexcept;

    /// attend_dot_at, attend_scored_at, attend_scored_pair_at: attend_dot, attend_scored and attend_scored_pair where
    /// the caller knows the states' row stride at compile time: St = q15_stride(S.stride) (T.stride = S.stride). The
    /// same contracts and integers, the cost at most theirs; the target's loops for that stride alone, so that an
    /// image links the code of its own shape only (the forms above choose among every stride's loops at run time).
    /// The models call these. In lib/ for every Q15Stride.
    template <Q15Stride St>
    static void attend_dot_at(const Rows<q15>& S, const q15* q, q15* alpha, q15* c) noexcept;
    template <Q15Stride St>
    static void attend_scored_at(const Rows<q15>& S, int f, q15* alpha, q15* c) noexcept;
    template <Q15Stride St>
    static void attend_scored_pair_at(const Rows<q15>& S, const Rows<q15>& T, int f, q15* alpha, q15* c,
                                      q15* d) noexcept;

    /// attend_dot_shaped<Dim, St>: attend_dot_at<St> for rows of Dim values (S.dim = Dim, the model's Hidden), compiled
    /// in the caller's translation unit (q15/shaped.hpp) with the target's scores for that size alone (kScoresDim:
    /// the Helium loops), so that an image links the code of its own shape only. The same contract and integers. The
    /// models call it where the target's loops are chosen at compile time and have such scores, else attend_dot_at.
    template <std::size_t Dim, Q15Stride St>
    static void attend_dot_shaped(const Rows<q15>& S, const q15* q, q15* alpha, q15* c) noexcept;
    /// attend_query_shaped<Dim>: attend_query for keys of Dim values (E.dim = Dim: the bilinear align's states, the
    /// key/query align's keys or states), compiled as attend_dot_shaped: the same contract and integers.
    template <std::size_t Dim>
    static void attend_query_shaped(const Rows<q15>& E, const q15* q, QueryScale scale, const Rows<q15>& S,
                                    q15* alpha, q15* c) noexcept;

    /// affine_tanh_at, affine_at, gru_gates_at: affine_tanh, affine and gru_gates with their sizes (rows R, nx Nx,
    /// nr or nh Nr) as template parameters: the same contracts and integers, compiled for that shape in the caller's
    /// translation unit (q15/shaped.hpp: the rows' groups of kRows, their remainders and the inner loops' counts known
    /// at compile time), so that an image holds its own shapes' forms only. The models call these where the target's
    /// loops are chosen at compile time (SARNN_Q15_SHAPED, q15/target.hpp: the DSP loops of the M4 and M7, the Helium
    /// loops of the M55), else the forms above.
    template <std::size_t R, std::size_t Nx, std::size_t Nr>
    static void affine_tanh_at(const QAffine& a, const q15* x, const q15* r, q15* y) noexcept;
    template <std::size_t R, std::size_t Nx, std::size_t Nr>
    static void affine_at(const QGates& a, const q15* x, const q15* r, q15* z) noexcept;
    template <std::size_t R, std::size_t Nx, std::size_t Nr>
    static void gru_gates_at(const QGru& a, const q15* x, const q15* h, q15* gi, q15* gh) noexcept;
    /// lstm_cell_at, gru_cell_at: lstm_cell and gru_cell for H lanes (hidden = H), as the shaped forms above.
    template <std::size_t H>
    static std::size_t lstm_cell_at(const q15* z, const q15* c_tilde, q15* c, q15* h) noexcept;
    template <std::size_t H>
    static void gru_cell_at(const q15* gi, const q15* gh, const q15* h_prev, q15* h) noexcept;
};
extern template struct Q15Set<TargetLoops>;
extern template struct Q15Set<PlainLoops>;

/// The q15 set every q15 model runs by default: the target's loops.
using Q15 = Q15Set<TargetLoops>;
/// The same kernels with the plain C++ loops (a model takes them with Set = kernel::Q15Plain).
using Q15Plain = Q15Set<PlainLoops>;

/// The set a model of value type T runs: Set itself for float and double; for q15, Q15Plain where Set names it,
/// else Q15 (a float set's name, the default, or Q15 itself).
template <class T, class Set>
struct set_for {
    using type = Set;
};
template <class Set>
struct set_for<q15, Set> {
    using type = Q15;
};
template <>
struct set_for<q15, Q15Plain> {
    using type = Q15Plain;
};
template <class T, class Set>
using set_for_t = typename set_for<T, Set>::type;

}  // namespace kernel
}  // namespace sarnn

#endif
