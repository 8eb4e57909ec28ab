"""sarnn.q15: the Python twin of sarnn's q15 arithmetic, over a batch of sequences at once, in numpy int64.

Integers only, the same operations in the same order as the C++, lane by lane, so that it predicts sarnn's
fixed-point results bit for bit: the activations (include/sarnn/fixed.hpp, lib/fixed.cpp), the kernels
(include/sarnn/kernels_q15.hpp, include/sarnn/kernels/q15/) and the q15 models (SimpleRnn<q15>, SelfAttentionRnn<q15> with
every align, Lstmn<q15>, Lstm<q15>: include/sarnn/align.hpp, include/sarnn/lstmn.hpp, include/sarnn/lstm.hpp). python/tests/test_fixed.py and
python/tests/test_q15.py pin it to the digests the C++ tests check (tests/test_fixed.cpp, tests/test_q15_models.cpp),
computed from a batch of one (python/tests/twin_digest.py). The exporter (sarnn.quantize) runs its calibration
through it; use it to measure a quantised model's accuracy in Python before flashing it.

Formats (raw integer -> value): Q3.12 int16 raw / 4096 (the input of tanh and sigmoid, [-8, 8)); Q15 int16
raw / 32768 (their output); Q16 int32 raw / 65536 (exp's input, <= 0, and output, [0, 1]).

Every elementwise function takes arrays or ints and returns int64 arrays. Every product and sum fits int64 with
room to spare: the largest is requantize's acc·multiplier + 2^61 < 2^31·2^31 + 2^61 < 2^63.

    run(params, raw, align=None | "dot" | "scaled_dot" | "bilinear" | "key_query" | "additive", capacity=None,
        window=False, align_params=None, plan="by_size", cell="elman" | "gru") -> (h, c)
    run_lstmn(params, raw, capacity, window=False) -> (h, c, saturated)
    run_lstm(params, raw) -> (h, c, saturated)
    run_gru(params, raw) -> h
    steps(...), lstmn_steps(...), lstm_steps(...), gru_steps(...): the same, one step at a time (with the attention
    weights)

raw: int (B, T, In) raw inputs; h and c: int64 (B, T, Hidden), c None for the SimpleRnn (align None); for the LSTMN
and the LSTM c is the cell in Q3.12 and saturated (B,) the clamped lanes of c per sequence.

Params (RnnParams<q15, In, Hidden> in include/sarnn/params.hpp), a dict:
  A        Hidden rows of In + Hidden int8           b        Hidden int32, Q3.12
  m, shift Hidden requantisation multipliers/shifts  x_m, x_shift   the input's factor to the r part's units
  x_scale  the real value of one raw input unit (host side)
align_params as BilinearParams<q15> (W, m, shift, g), KeyQueryParams<q15> (Wk, Wq, m_k, m_q, m_f, m_t, shift_k,
shift_q, shift_f, shift_t, g_k, g_u, g), AdditiveParams<q15> (W, v, m, m_v, shift, shift_v, f); the LSTMN's params
as LstmnParams<q15> (W_ih, W_hh, b, m, shift, W_h, W_x, W_ht, m_a, shift_a, v, m_v, shift_v, f, x_m, x_shift); the
LSTM's as LstmParams<q15> (W_ih, W_hh, b, m, shift, x_m, x_shift: the LSTMN's gate part), the GRU's as
GruParams<q15> (W_ih, W_hh, b_ih, b_hh, m, shift, x_m, x_shift). run()/steps() with cell="gru" are
SelfAttentionRnn<q15, ..., GruCell> (include/sarnn/cell.hpp): h_i = GRU(x_i, c_{i-1}), Gru<q15>'s step with the
context as its recurrent input, p then GruParams<q15>; the aligns and memories as for the Elman cell.

Run as a module (python3 -m sarnn.q15 --tables) it prints the C++ tables of include/sarnn/kernels/q15/fixed_tables.inc.
"""
import math
import sys

import numpy as np

from sarnn import layout

TANH_SEGMENT_BITS = 6                      # tanh's table: one entry per 2^6 LSB of Q3.12, i.e. per 1/64
TANH_TABLE = [min(32767, int(math.floor(math.tanh(i / 64.0) * 32768.0 + 0.5))) for i in range(513)]
EXP2_SEGMENT_BITS = 8                      # 2^-f for f = i / 256, in Q16 (65536 .. 32768)
EXP2_TABLE = [int(math.floor(2.0 ** (-i / 256.0) * 65536.0 + 0.5)) for i in range(257)]
LOG2E_Q16 = 94548                          # round(log2(e) * 65536)
EXP_ZERO_BELOW = 12 * 65536                # exp(-12) * 65536 = 0.40 < 0.5: rounds to 0

INT32_MIN, INT32_MAX = -(1 << 31), (1 << 31) - 1
ALIGNS = layout.aligns_q15()             # the aligns of the q15 models (the align registry's)
WITH_PARAMS = tuple(a for a in ALIGNS if a in layout.aligns_with_params())
_TANH = np.array(TANH_TABLE, dtype=np.int64)
_EXP2 = np.array(EXP2_TABLE, dtype=np.int64)


def _ints(v):
    return np.asarray(v, dtype=np.int64)


def _round_shift(v, s):
    """floor((v + 2^(s-1)) / 2^s) for s >= 1 (array or scalar s)."""
    return (v + (np.int64(1) << (s - 1))) >> s


# ---- the host side: constants of the params (Python ints) ----------------------------------------------------
def quantize_multiplier(m):
    """The (multiplier, shift) of a real factor m > 0 for requantize: m = multiplier * 2^-(31 + shift), multiplier
    in [2^30, 2^31). For the host side (the exporter), not for the integer path."""
    if m <= 0:
        raise ValueError("quantize_multiplier: the factor must be positive")
    mant, exp = math.frexp(m)            # m = mant * 2^exp, mant in [0.5, 1)
    q = int(math.floor(mant * (1 << 31) + 0.5))
    if q == 1 << 31:                     # mant rounded up to 1
        q, exp = q >> 1, exp + 1
    return q, -exp


def inv_sqrt_q15(n):
    """round(32768 / sqrt(n)) for n >= 1, from integers: the r with n(2r - 1)^2 <= 2^32 < n(2r + 1)^2."""
    lo, hi = 0, 32768
    while lo < hi:
        mid = (lo + hi) // 2
        if n * (2 * mid + 1) ** 2 > 1 << 32:
            hi = mid
        else:
            lo = mid + 1
    return lo


def quantize_rnn(A, b, x_scale):
    """q15 params from float weights A (Hidden rows of In + Hidden) and b (Hidden), for inputs of real value
    raw·x_scale: A per row to int8 with the scale max|row| / 127, b to Q3.12, and the requantisation constants."""
    hidden = len(A)
    params = {"A": [], "b": [], "m": [], "shift": [], "x_scale": float(x_scale)}
    params["x_m"], params["x_shift"] = quantize_multiplier(x_scale * 32768.0)
    for r in range(hidden):
        big = max(abs(v) for v in A[r])
        a_r = big / 127.0 if big > 0 else 2.0 ** -20
        params["A"].append([max(-127, min(127, int(round(v / a_r)))) for v in A[r]])
        m, sh = quantize_multiplier(a_r / 8.0)
        params["m"].append(m)
        params["shift"].append(sh)
        params["b"].append(max(INT32_MIN, min(INT32_MAX, int(round(b[r] * 4096.0)))))
    return params


# ---- the activations and requantisation (include/sarnn/fixed.hpp), elementwise ------------------------------
def requantize(acc, multiplier, shift):
    """acc·multiplier / 2^(31 + shift), rounded half up, saturated to int32 (shift clamped to [-31, 31])."""
    s = 31 + np.clip(_ints(shift), -31, 31)
    half = np.where(s > 0, np.int64(1) << np.maximum(s - 1, 0), 0)
    return np.clip((_ints(acc) * _ints(multiplier) + half) >> s, INT32_MIN, INT32_MAX)


def requantize_q15(acc, multiplier, shift):
    """requantize, saturated to int16."""
    return np.clip(requantize(acc, multiplier, shift), -32768, 32767)


def mul_q15(a, b):
    """a·b / 32768 rounded half up, saturated to int16 (a Q15 value times a Q15 factor b in [-32768, 32768])."""
    return np.clip((_ints(a) * _ints(b) + 16384) >> 15, -32768, 32767)


def tanh_q15(z):
    """tanh of z in Q3.12 (int16 range), in Q15: odd, within 1 LSB of tanh (see the C++'s stated bound)."""
    z = _ints(z)
    a = np.abs(z)                                    # 0 .. 32768
    i, frac = a >> TANH_SEGMENT_BITS, a & ((1 << TANH_SEGMENT_BITS) - 1)
    j = np.minimum(i, 511)
    y = _TANH[j] + (((_TANH[j + 1] - _TANH[j]) * frac + (1 << (TANH_SEGMENT_BITS - 1))) >> TANH_SEGMENT_BITS)
    y = np.where(i >= 512, _TANH[512], y)
    return np.where(z < 0, -y, y)


def sigmoid_q15(z):
    """sigmoid of z in Q3.12 (int16 range), in Q15 (0 .. 32767): (1 + tanh(z / 2)) / 2 from tanh's table."""
    z = _ints(z)
    a = np.abs(z)                                    # tanh(a / 2): the table's entries every 2^7 LSB of a
    i, frac = a >> (TANH_SEGMENT_BITS + 1), a & ((1 << (TANH_SEGMENT_BITS + 1)) - 1)
    t = _TANH[i] + (((_TANH[i + 1] - _TANH[i]) * frac + (1 << TANH_SEGMENT_BITS)) >> (TANH_SEGMENT_BITS + 1))
    return np.minimum(np.where(z >= 0, (32768 + t + 1) >> 1, (32768 - t + 1) >> 1), 32767)


def exp_q16(d):
    """exp of d in Q16 (d > 0 counts as 0), in Q16: 2^-(k + f) with 2^-f from a table."""
    d = _ints(d)
    y = np.maximum(-d, 0)
    t = (np.minimum(y, EXP_ZERO_BELOW) * LOG2E_Q16 + (1 << 15)) >> 16   # y·log2(e) in Q16
    k, f = t >> 16, t & 0xFFFF
    i, frac = f >> EXP2_SEGMENT_BITS, f & ((1 << EXP2_SEGMENT_BITS) - 1)
    m = _EXP2[i] + (((_EXP2[i + 1] - _EXP2[i]) * frac + (1 << (EXP2_SEGMENT_BITS - 1))) >> EXP2_SEGMENT_BITS)
    m = np.where(k > 0, _round_shift(m, np.maximum(k, 1)), m)
    return np.where(d >= 0, 65536, np.where(y >= EXP_ZERO_BELOW, 0, m))


# ---- the kernels (Kernels<q15> in include/sarnn/kernels_q15.hpp), over a batch ----------------------------
def affine_tanh(p, x, r):
    """Kernels<q15>::affine_tanh, y = tanh(A·[x; r] + b), for (B, In) inputs x and (B, Hidden) recurrent vectors r."""
    A = np.asarray(p["A"], dtype=np.int64)
    nx = x.shape[1]
    s_x = x @ A[:, :nx].T
    s_r = r @ A[:, nx:].T
    xq = np.clip(requantize(s_x, p["x_m"], p["x_shift"]), -(1 << 30), 1 << 30)
    z = np.clip(xq + s_r, INT32_MIN, INT32_MAX)
    t = requantize(z, np.asarray(p["m"], dtype=np.int64), np.asarray(p["shift"], dtype=np.int64))
    return tanh_q15(np.clip(t + np.asarray(p["b"], dtype=np.int64), -32768, 32767))


def _least_shift(ok, limit=64):
    """Per lane, the least s >= 0 with ok(s) true (ok monotone in s), as an int64 array."""
    s = np.zeros_like(ok(np.int64(0)), dtype=np.int64)
    for _ in range(limit):
        need = ~ok(s)
        if not need.any():
            break
        s = s + need
    return s


def gemv(W, m, shift, v):
    """Kernels<q15>::gemv for (B, Hidden) vectors v: y_r = requantize(Σ_k W[r][k]·v_k, m[r], shift[r]), int16."""
    acc = v @ np.asarray(W, dtype=np.int64).T
    return np.clip(requantize(acc, np.asarray(m, dtype=np.int64), np.asarray(shift, dtype=np.int64)), -32768, 32767)


def gemv_t(W, m, shift, v):
    """Kernels<q15>::gemv_t for (B, K) vectors v: y_r = requantize(Σ_k W[k][r]·v_k, m, shift), int16."""
    return np.clip(requantize(v @ np.asarray(W, dtype=np.int64), m, shift), -32768, 32767)


def prepare_query(q, g=0):
    """Kernels<q15>::prepare_query for (B, D) queries q in Q(15 - g): (q', t, f), t and f per lane."""
    g = min(max(int(g), 0), 8)
    dim = q.shape[1]
    qsum = np.abs(q).sum(-1)
    s = _least_shift(lambda s: (qsum >> s) + dim + 1 <= 65536)
    qq = np.where(s[:, None] == 0, q, _round_shift(q, np.maximum(s, 1)[:, None]))
    qqsum = np.abs(qq).sum(-1)
    t = _least_shift(lambda t: (np.int64(1) << t) >= qqsum)
    t = np.maximum(np.maximum(t, 15 - g - s), 1)
    return qq, t, 30 - g - s - t


def attend_query(keys, qq, t, f, values):
    """Kernels<q15>::attend_query for (B, n, D) keys, (B, n, Hidden) values (oldest first) and prepared (B, D)
    queries: (alpha, c)."""
    if values.shape[1] == 1:
        return np.full((values.shape[0], 1), 32767, dtype=np.int64), values[:, 0].copy()
    return attend_scored(_round_shift(np.einsum("bjk,bk->bj", keys, qq), t[:, None]), f, values)


def additive_scores(keys, q, v, m_v, shift_v):
    """Kernels<q15>::additive_scores for (B, n, K) keys in Q3.12 (oldest first) and (B, K) queries: (B, n) scores
    e_j = requantize(Σ_k v_k·tanh(P_j,k + q_k), m_v, shift_v) saturated to int16, P_j,k + q_k saturated first."""
    z = np.clip(keys + q[:, None, :], -32768, 32767)
    acc = tanh_q15(z) @ np.asarray(v, dtype=np.int64)
    return np.clip(requantize(acc, m_v, shift_v), -32768, 32767)


def attend_scored(e, f, values):
    """Kernels<q15>::attend_scored for (B, n) scores in Q(f) (f per lane or one for all, clamped to -2..15) and
    (B, n, Hidden) values (oldest first): (alpha, c)."""
    b, n, _ = values.shape
    if n == 1:
        return np.full((b, 1), 32767, dtype=np.int64), values[:, 0].copy()
    f = np.clip(np.broadcast_to(np.asarray(f, dtype=np.int64), (b,)), -2, 15)
    to_q16 = np.int64(1) << (16 - f)
    p = np.minimum(exp_q16((e - e.max(-1, keepdims=True)) * to_q16[:, None]), 65535)
    total = p.sum(-1)
    sh = _least_shift(lambda sh: (total << sh) >= (1 << 30))
    den = (total << sh) >> 15
    rec = np.minimum((np.int64(1) << 31) // den, 65535)
    alpha = np.minimum((p * rec[:, None]) >> (31 - sh)[:, None], 32767)
    acc = np.einsum("bj,bjk->bk", alpha, values)
    return alpha, np.clip(_round_shift(acc, 15), -32767, 32767)


def attend_dot(states, q):
    """Kernels<q15>::attend_dot for (B, n, Hidden) states (oldest first) and (B, Hidden) queries: (alpha, c)."""
    qq, t, f = prepare_query(q)
    return attend_query(states, qq, t, f, states)


def caches_keys(align_params, hidden, plan="by_size"):
    """Whether KeyQueryAlign<K, plan> keeps the keys (the cache form) for this Hidden: cache, or by_size and
    4·K <= Hidden (include/sarnn/align.hpp); False: the fold form."""
    return plan == "cache" or (plan == "by_size" and 4 * len(align_params["Wk"]) <= hidden)


def affine(A_x, A_r, b, m, shift, x_m, x_shift, x, r):
    """Kernels<q15>::affine for (B, In) inputs x and (B, R) vectors r: z in Q3.12 (B, rows), b None: no bias."""
    s_x = x @ np.asarray(A_x, dtype=np.int64).T
    s_r = r @ np.asarray(A_r, dtype=np.int64).T
    xq = np.clip(requantize(s_x, x_m, x_shift), -(1 << 30), 1 << 30)
    t = requantize(np.clip(xq + s_r, INT32_MIN, INT32_MAX), np.asarray(m, dtype=np.int64),
                   np.asarray(shift, dtype=np.int64))
    return np.clip(t + (0 if b is None else np.asarray(b, dtype=np.int64)), -32768, 32767)


def lstm_cell(z, c_tilde):
    """Kernels<q15>::lstm_cell for (B, 4·Hidden) pre-activations and (B, Hidden) c~: (c, h, saturated), saturated
    the clamped lanes of c per row (B,)."""
    hidden = c_tilde.shape[1]
    i, f = sigmoid_q15(z[:, :hidden]), sigmoid_q15(z[:, hidden:2 * hidden])
    g, o = tanh_q15(z[:, 2 * hidden:3 * hidden]), sigmoid_q15(z[:, 3 * hidden:])
    # c = f·c~ / 2^15 + i·g / 2^18 (each rounded half up), saturated to int16; h = o·tanh(c) / 2^15
    c = _round_shift(f * c_tilde, 15) + _round_shift(i * g, 18)
    cs = np.clip(c, -32768, 32767)
    return cs, _round_shift(o * tanh_q15(cs), 15), np.sum(cs != c, axis=1)


def gru_cell(gi, gh, h):
    """Kernels<q15>::gru_cell for (B, 3·Hidden) rows gi, gh in Q3.12 (r, z, n) and (B, Hidden) h in Q15: the new h."""
    hidden = h.shape[1]
    # r, z = sigmoid(gi + gh saturated to Q3.12)
    r = sigmoid_q15(np.clip(gi[:, :hidden] + gh[:, :hidden], -32768, 32767))
    z = sigmoid_q15(np.clip(gi[:, hidden:2 * hidden] + gh[:, hidden:2 * hidden], -32768, 32767))
    # n = tanh(gi_n + r·gh_n / 2^15), the product rounded half up, the sum saturated to Q3.12
    n = tanh_q15(np.clip(gi[:, 2 * hidden:] + _round_shift(r * gh[:, 2 * hidden:], 15), -32768, 32767))
    # h' = n + z·(h - n) / 2^15, rounded half up (between n and h: no saturation)
    return n + _round_shift(z * (h - n), 15)


def gru_step(p, x, h_prev):
    """One GRU step of GruParams<q15> p (detail::gru_step in include/sarnn/detail/gru_step.hpp) for (B, In) inputs x
    and (B, Hidden) recurrent inputs h_prev in Q15 (Gru: h_{i-1}; GruCell: c_{i-1}): the new h (B, Hidden)."""
    batch, hidden = h_prev.shape
    none = np.zeros((3 * hidden, 0), dtype=np.int64)   # affine's recurrent part: no columns
    empty = np.zeros((batch, 0), dtype=np.int64)
    # gi = W_ih x + b_ih, gh = W_hh h_prev + b_hh (h_prev with the factor 1: 2^30·2^-30), each in Q3.12
    gi = affine(p["W_ih"], none, p["b_ih"], p["m"], p["shift"], p["x_m"], p["x_shift"], x, empty)
    gh = affine(p["W_hh"], none, p["b_hh"], p["m"], p["shift"], 1 << 30, -1, h_prev, empty)
    return gru_cell(gi, gh, h_prev)


CELLS = ("elman", "gru")                   # the cells of SelfAttentionRnn (include/sarnn/cell.hpp)


def cell_hidden(p, cell="elman"):
    """Hidden of the params p of a cell: RnnParams' rows of A (elman) or GruParams' columns of W_hh (gru)."""
    if cell not in CELLS:
        raise ValueError(f"sarnn.q15.run: cell is one of {', '.join(CELLS)}")
    return len(p["A"]) if cell == "elman" else len(p["W_hh"][0])


# ---- the models, step by step over a batch ---------------------------------------------------------------
def steps(p, raw, align=None, capacity=None, window=False, align_params=None, plan="by_size", cell="elman"):
    """Yields (h, c, alpha) after each step of every sequence of raw (B, T, In), each from reset(): h, c (B, Hidden),
    alpha (B, n) the attention weights over the n states kept (oldest first); c and alpha None for the SimpleRnn
    (align None). See run() for the arguments."""
    raw = _ints(raw)
    batch, n_steps, _ = raw.shape
    hidden = cell_hidden(p, cell)
    if align is None and cell == "gru":
        raise ValueError("sarnn.q15.run: the GRU cell runs under an align (the GRU alone: gru_steps / run_gru)")
    if align is None:
        h = np.zeros((batch, hidden), dtype=np.int64)
        for t in range(n_steps):
            h = affine_tanh(p, raw[:, t], h)
            yield h, None, None
        return
    if align not in ALIGNS:
        raise ValueError(f"sarnn.q15.run: align is None or one of {', '.join(ALIGNS)}")
    if (align in WITH_PARAMS) != (align_params is not None):
        raise ValueError("sarnn.q15.run: the bilinear, key/query and additive aligns take align_params, the "
                         "others none")
    if not window and n_steps > capacity:
        raise ValueError(f"sarnn.q15.run: {n_steps} steps do not fit a Bounded memory of {capacity}")
    ap = align_params
    scale = inv_sqrt_q15(hidden) if align == "scaled_dot" else None
    cache = align == "key_query" and caches_keys(ap, hidden, plan)
    keys = np.zeros((batch, n_steps, len(ap["Wk"])), dtype=np.int64) if cache else None
    if align == "additive":
        # the two halves of W (the stored state's and the new state's), one row factor for both
        W_key, W_query = [row[:hidden] for row in ap["W"]], [row[hidden:] for row in ap["W"]]
        keys = np.zeros((batch, n_steps, len(ap["W"])), dtype=np.int64)
    h_all = np.zeros((batch, n_steps, hidden), dtype=np.int64)
    c = np.zeros((batch, hidden), dtype=np.int64)
    for t in range(n_steps):
        # h_i = cell(x_i, c_{i-1}): tanh(A·[x_i; c_{i-1}] + b) or GRU(x_i, c_{i-1})
        h = affine_tanh(p, raw[:, t], c) if cell == "elman" else gru_step(p, raw[:, t], c)
        h_all[:, t] = h
        first = max(0, t + 1 - capacity) if window else 0
        states = h_all[:, first:t + 1]
        if cache:
            # P_i = Wk h_i (kept per state), u = Wq h_i: e_ij = P_j·u
            keys[:, t] = gemv(ap["Wk"], ap["m_k"], ap["shift_k"], h)
            u = gemv(ap["Wq"], ap["m_q"], ap["shift_q"], h)
            qq, sh, f = prepare_query(u, ap["g_k"] + ap["g_u"])
            alpha, c = attend_query(keys[:, first:t + 1], qq, sh, f, states)
        elif align == "key_query":
            # u' = diag(wk) Wq h_i, q = Wk_q^T u': e_ij = h_j·q
            u = gemv(ap["Wq"], ap["m_f"], ap["shift_f"], h)
            qq, sh, f = prepare_query(gemv_t(ap["Wk"], ap["m_t"], ap["shift_t"], u), ap["g"])
            alpha, c = attend_query(states, qq, sh, f, states)
        elif align == "additive":
            # P_i = W[:, :Hidden] h_i in Q3.12 (kept per state), q = W[:, Hidden:] h_i: e_ij = v·tanh(P_j + q) in Q(f)
            keys[:, t] = gemv(W_key, ap["m"], ap["shift"], h)
            q = gemv(W_query, ap["m"], ap["shift"], h)
            e = additive_scores(keys[:, first:t + 1], q, ap["v"], ap["m_v"], ap["shift_v"])
            alpha, c = attend_scored(e, ap["f"], states)
        elif align == "bilinear":
            # q = W h_i in Q(15 - g)
            qq, sh, f = prepare_query(gemv(ap["W"], ap["m"], ap["shift"], h), ap["g"])
            alpha, c = attend_query(states, qq, sh, f, states)
        else:
            alpha, c = attend_dot(states, h if scale is None else mul_q15(h, scale))
        yield h, c, alpha


def run(p, raw, align=None, capacity=None, window=False, align_params=None, plan="by_size", cell="elman"):
    """(h, c) of every step of every sequence of raw (B, T, In), each from reset(); see the module docstring.
    A Bounded memory (window False) must hold every step: T <= capacity (the C++ would return memory_full).
    align_params: for "bilinear", "key_query" and "additive", plan the key/query form (KeyQueryAlign<K, plan>:
    "by_size", "cache" or "fold"); cell: "elman" (p RnnParams<q15>) or "gru" (p GruParams<q15>, under an align)."""
    raw = _ints(raw)
    batch, n_steps, _ = raw.shape
    h_out = np.zeros((batch, n_steps, cell_hidden(p, cell)), dtype=np.int64)
    c_out = None if align is None else np.zeros_like(h_out)
    for t, (h, c, _) in enumerate(steps(p, raw, align, capacity, window, align_params, plan, cell)):
        h_out[:, t] = h
        if c_out is not None:
            c_out[:, t] = c
    return h_out, c_out


def lstmn_steps(p, raw, capacity, window=False):
    """Yields (h, c, s, saturated) after each step of every sequence of raw (B, T, In) through Lstmn<q15>, each from
    reset(): h (B, Hidden) in Q15, c (B, Hidden) the cell in Q3.12, s (B, n) the attention weights over the n entries
    of the tape before the step (None at the first step), saturated (B,) the lanes of c clamped at this step."""
    raw = _ints(raw)
    batch, n_steps, _ = raw.shape
    hidden, k = len(p["W_hh"][0]), len(p["v"])
    if not window and n_steps > capacity:
        raise ValueError(f"sarnn.q15.run_lstmn: {n_steps} steps do not fit a Bounded memory of {capacity}")
    h_all = np.zeros((batch, n_steps, hidden), dtype=np.int64)
    c_all = np.zeros_like(h_all)
    keys = np.zeros((batch, n_steps, k), dtype=np.int64)
    h_tilde = np.zeros((batch, hidden), dtype=np.int64)
    c_tilde = np.zeros_like(h_tilde)
    s = None
    for t in range(n_steps):
        x = raw[:, t]
        first = max(0, t - capacity) if window else 0   # the tape before this step: entries first .. t - 1
        if t > 0:
            # q = W_x x_t + W_ht h~_{t-1} in Q3.12; a_j = v·tanh(P_j + q) in Q(f); [h~; c~] = Σ_j s_j [h_j; c_j]
            q = affine(p["W_x"], p["W_ht"], None, p["m_a"], p["shift_a"], p["x_m"], p["x_shift"], x, h_tilde)
            e = additive_scores(keys[:, first:t], q, p["v"], p["m_v"], p["shift_v"])
            s, summary = attend_scored(e, p["f"], np.concatenate([h_all[:, first:t], c_all[:, first:t]], axis=2))
            h_tilde, c_tilde = summary[:, :hidden], summary[:, hidden:]
        # z = W_ih x_t + W_hh h~_t + b in Q3.12; the cell; the key of h_t
        z = affine(p["W_ih"], p["W_hh"], p["b"], p["m"], p["shift"], p["x_m"], p["x_shift"], x, h_tilde)
        c, h, saturated = lstm_cell(z, c_tilde)
        h_all[:, t], c_all[:, t] = h, c
        keys[:, t] = gemv(p["W_h"], p["m_a"], p["shift_a"], h)
        yield h, c, s, saturated


def run_lstmn(p, raw, capacity, window=False):
    """(h, c, saturated) of every step of every sequence of raw (B, T, In) through Lstmn<q15> (p as
    LstmnParams<q15>), each from reset(): h (B, T, Hidden) in Q15, c (B, T, Hidden) the cell in Q3.12, saturated
    (B,) the lanes of c clamped per sequence. A Bounded memory (window False) must hold every step: T <= capacity."""
    raw = _ints(raw)
    batch, n_steps, _ = raw.shape
    h_out = np.zeros((batch, n_steps, len(p["W_hh"][0])), dtype=np.int64)
    c_out = np.zeros_like(h_out)
    saturated = np.zeros(batch, dtype=np.int64)
    for t, (h, c, _, sat) in enumerate(lstmn_steps(p, raw, capacity, window)):
        h_out[:, t], c_out[:, t] = h, c
        saturated += sat
    return h_out, c_out, saturated


def lstm_steps(p, raw):
    """Yields (h, c, saturated) after each step of every sequence of raw (B, T, In) through Lstm<q15> (p as
    LstmParams<q15>: W_ih, W_hh, b, m, shift, x_m, x_shift), each from reset(): h (B, Hidden) in Q15, c (B, Hidden)
    the cell in Q3.12, saturated (B,) the lanes of c clamped at this step."""
    raw = _ints(raw)
    batch, n_steps, _ = raw.shape
    hidden = len(p["W_hh"][0])
    h = np.zeros((batch, hidden), dtype=np.int64)
    c = np.zeros_like(h)
    for t in range(n_steps):
        # z = W_ih x_t + W_hh h_{t-1} + b in Q3.12; c_t = f·c_{t-1} + i·g in Q3.12, h_t = o·tanh(c_t) in Q15
        z = affine(p["W_ih"], p["W_hh"], p["b"], p["m"], p["shift"], p["x_m"], p["x_shift"], raw[:, t], h)
        c, h, saturated = lstm_cell(z, c)
        yield h, c, saturated


def run_lstm(p, raw):
    """(h, c, saturated) of every step of every sequence of raw (B, T, In) through Lstm<q15> (p as LstmParams<q15>),
    each from reset(): h (B, T, Hidden) in Q15, c (B, T, Hidden) the cell in Q3.12, saturated (B,) the lanes of c
    clamped per sequence."""
    raw = _ints(raw)
    batch, n_steps, _ = raw.shape
    h_out = np.zeros((batch, n_steps, len(p["W_hh"][0])), dtype=np.int64)
    c_out = np.zeros_like(h_out)
    saturated = np.zeros(batch, dtype=np.int64)
    for t, (h, c, sat) in enumerate(lstm_steps(p, raw)):
        h_out[:, t], c_out[:, t] = h, c
        saturated += sat
    return h_out, c_out, saturated


def gru_steps(p, raw):
    """Yields h (B, Hidden) in Q15 after each step of every sequence of raw (B, T, In) through Gru<q15> (p as
    GruParams<q15>), each from reset()."""
    raw = _ints(raw)
    batch, n_steps, _ = raw.shape
    h = np.zeros((batch, len(p["W_hh"][0])), dtype=np.int64)
    for t in range(n_steps):
        # h_t = GRU(x_t, h_{t-1})
        h = gru_step(p, raw[:, t], h)
        yield h


def run_gru(p, raw):
    """h (B, T, Hidden) in Q15 of every step of every sequence of raw (B, T, In) through Gru<q15> (p as
    GruParams<q15>), each from reset()."""
    raw = _ints(raw)
    batch, n_steps, _ = raw.shape
    h_out = np.zeros((batch, n_steps, len(p["W_hh"][0])), dtype=np.int64)
    for t, h in enumerate(gru_steps(p, raw)):
        h_out[:, t] = h
    return h_out


def cpp_tables():
    """The C++ tables (include/sarnn/kernels/q15/fixed_tables.inc), from the same lists as above."""
    def rows(values, per_line):
        return "\n".join("    " + " ".join(f"{v}," for v in values[k:k + per_line])
                         for k in range(0, len(values), per_line))
    return ("// include/sarnn/kernels/q15/fixed_tables.inc: generated by `python3 -m sarnn.q15 --tables`\n"
            "// (python/sarnn/q15.py); do not edit.\n"
            "// tanh(i / 64) in Q15, i = 0..512 (clamped to 32767)\n"
            f"constexpr std::int16_t kTanhTable[513] = {{\n{rows(TANH_TABLE, 12)}\n}};\n"
            "// 2^(-i / 256) in Q16, i = 0..256\n"
            f"constexpr std::uint32_t kExp2Table[257] = {{\n{rows(EXP2_TABLE, 10)}\n}};\n")


if __name__ == "__main__":
    if sys.argv[1:] == ["--tables"]:
        sys.stdout.write(cpp_tables())
    else:
        sys.exit("usage: python3 -m sarnn.q15 --tables")
