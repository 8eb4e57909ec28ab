"""sarnn.q15_batch: the Python twin of the q15 models (sarnn.q15) over a batch of sequences at once, in numpy int64.

The same integers as sarnn.q15, step by step and lane by lane (python/tests/test_quantize.py checks them equal), so
it too predicts the C++ q15 models bit for bit; numpy only makes it fast enough for a calibration run of many
sequences (the exporter's bound, the recall example's accuracy). Every product and sum fits int64 with room to
spare: the largest is requantize's acc·multiplier + 2^61 < 2^31·2^31 + 2^61 < 2^63.

    run(params, raw, align=None | "dot" | "scaled_dot" | "bilinear" | "key_query" | "additive", capacity=None,
        window=False, align_params=None, plan="by_size") -> (h, c)
    run_lstmn(params, raw, capacity, window=False) -> (h, c, saturated)

raw: int (B, T, In) raw inputs; h and c: int64 (B, T, Hidden), c None for the SimpleRnn (align None); for the LSTMN
(sarnn.q15.LstmnQ15) c is the cell in Q3.12 (raw / 4096) and saturated (B,) the clamped lanes of c per sequence.
"""
import numpy as np

from sarnn.fixed import (EXP2_SEGMENT_BITS, EXP2_TABLE, EXP_ZERO_BELOW, LOG2E_Q16, TANH_SEGMENT_BITS, TANH_TABLE,
                         inv_sqrt_q15)

INT32_MIN, INT32_MAX = -(1 << 31), (1 << 31) - 1
ALIGNS = ("dot", "scaled_dot", "bilinear", "key_query", "additive")
WITH_PARAMS = ("bilinear", "key_query", "additive")
_TANH = np.array(TANH_TABLE, dtype=np.int64)
_EXP2 = np.array(EXP2_TABLE, dtype=np.int64)


def _round_shift(v, s):
    """floor((v + 2^(s-1)) / 2^s) for s >= 1 (array or scalar s)."""
    return (v + (np.int64(1) << (s - 1))) >> s


def requantize(acc, multiplier, shift):
    """sarnn.fixed.requantize, elementwise: acc·multiplier / 2^(31 + shift) rounded half up, saturated to int32."""
    s = 31 + np.clip(np.asarray(shift, dtype=np.int64), -31, 31)
    half = np.where(s > 0, np.int64(1) << np.maximum(s - 1, 0), 0)
    return np.clip((acc * np.asarray(multiplier, dtype=np.int64) + half) >> s, INT32_MIN, INT32_MAX)


def tanh_q15(z):
    """sarnn.fixed.tanh_q15, elementwise (z in Q3.12, int16 range)."""
    a = np.abs(z)
    i, frac = a >> TANH_SEGMENT_BITS, a & ((1 << TANH_SEGMENT_BITS) - 1)
    j = np.minimum(i, 511)
    y = _TANH[j] + (((_TANH[j + 1] - _TANH[j]) * frac + (1 << (TANH_SEGMENT_BITS - 1))) >> TANH_SEGMENT_BITS)
    y = np.where(i >= 512, _TANH[512], y)
    return np.where(z < 0, -y, y)


def sigmoid_q15(z):
    """sarnn.fixed.sigmoid_q15, elementwise (z in Q3.12, int16 range): (1 + tanh(z / 2)) / 2 from tanh's table."""
    a = np.abs(z)
    i, frac = a >> (TANH_SEGMENT_BITS + 1), a & ((1 << (TANH_SEGMENT_BITS + 1)) - 1)
    t = _TANH[i] + (((_TANH[i + 1] - _TANH[i]) * frac + (1 << TANH_SEGMENT_BITS)) >> (TANH_SEGMENT_BITS + 1))
    return np.minimum(np.where(z >= 0, (32768 + t + 1) >> 1, (32768 - t + 1) >> 1), 32767)


def exp_q16(d):
    """sarnn.fixed.exp_q16, elementwise (d in Q16, <= 0 counts)."""
    y = np.maximum(-d, 0)
    t = (np.minimum(y, EXP_ZERO_BELOW) * LOG2E_Q16 + (1 << 15)) >> 16
    k, f = t >> 16, t & 0xFFFF
    i, frac = f >> EXP2_SEGMENT_BITS, f & ((1 << EXP2_SEGMENT_BITS) - 1)
    m = _EXP2[i] + (((_EXP2[i + 1] - _EXP2[i]) * frac + (1 << (EXP2_SEGMENT_BITS - 1))) >> EXP2_SEGMENT_BITS)
    m = np.where(k > 0, _round_shift(m, np.maximum(k, 1)), m)
    return np.where(d >= 0, 65536, np.where(y >= EXP_ZERO_BELOW, 0, m))


def affine_tanh(p, x, r):
    """sarnn.q15.affine_tanh_q15 for (B, In) inputs x and (B, Hidden) recurrent vectors r."""
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
    """sarnn.q15.gemv_q15 for (B, Hidden) vectors v: y_r = requantize(Σ_k W[r][k]·v_k, m[r], shift[r]), int16."""
    acc = v @ np.asarray(W, dtype=np.int64).T
    return np.clip(requantize(acc, np.asarray(m, dtype=np.int64), np.asarray(shift, dtype=np.int64)), -32768, 32767)


def gemv_t(W, m, shift, v):
    """sarnn.q15.gemv_t_q15 for (B, K) vectors v: y_r = requantize(Σ_k W[k][r]·v_k, m, shift), int16."""
    return np.clip(requantize(v @ np.asarray(W, dtype=np.int64), m, shift), -32768, 32767)


def prepare_query(q, g=0):
    """sarnn.q15.prepare_query_q15 for (B, D) queries q in Q(15 - g): (q', t, f), t and f per lane."""
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
    """sarnn.q15.attend_query_q15 for (B, n, D) keys, (B, n, Hidden) values (oldest first) and prepared (B, D)
    queries: (alpha, c)."""
    if values.shape[1] == 1:
        return np.full((values.shape[0], 1), 32767, dtype=np.int64), values[:, 0].copy()
    return attend_scored(_round_shift(np.einsum("bjk,bk->bj", keys, qq), t[:, None]), f, values)


def additive_scores(keys, q, v, m_v, shift_v):
    """sarnn.q15.additive_scores_q15 for (B, n, K) keys in Q3.12 (oldest first) and (B, K) queries: (B, n) scores
    e_j = requantize(Σ_k v_k·tanh(P_j,k + q_k), m_v, shift_v) saturated to int16, P_j,k + q_k saturated first."""
    z = np.clip(keys + q[:, None, :], -32768, 32767)
    acc = tanh_q15(z) @ np.asarray(v, dtype=np.int64)
    return np.clip(requantize(acc, m_v, shift_v), -32768, 32767)


def attend_scored(e, f, values):
    """sarnn.q15.attend_scored_q15 for (B, n) scores in Q(f) (f per lane or one for all, clamped to -2..15) and
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
    """sarnn.q15.attend_dot_q15 for (B, n, Hidden) states (oldest first) and (B, Hidden) queries: (alpha, c)."""
    qq, t, f = prepare_query(q)
    return attend_query(states, qq, t, f, states)


def caches_keys(align_params, hidden, plan="by_size"):
    """Whether KeyQueryAlign<K, plan> keeps the keys (the cache form) for this Hidden: cache, or by_size and
    4·K <= Hidden (include/sarnn/align.hpp); False: the fold form."""
    return plan == "cache" or (plan == "by_size" and 4 * len(align_params["Wk"]) <= hidden)


def run(p, raw, align=None, capacity=None, window=False, align_params=None, plan="by_size"):
    """(h, c) of every step of every sequence of raw (B, T, In), each from reset(); see the module docstring.
    A Bounded memory (window False) must hold every step: T <= capacity (the C++ would return memory_full).
    align_params: for "bilinear", "key_query" and "additive" (as sarnn.q15.SelfAttentionRnnQ15), plan the key/query
    form."""
    raw = np.asarray(raw, dtype=np.int64)
    batch, steps, _ = raw.shape
    hidden = len(p["A"])
    h_out = np.zeros((batch, steps, hidden), dtype=np.int64)
    if align is None:
        h = np.zeros((batch, hidden), dtype=np.int64)
        for t in range(steps):
            h = affine_tanh(p, raw[:, t], h)
            h_out[:, t] = h
        return h_out, None
    if align not in ALIGNS:
        raise ValueError(f"sarnn.q15_batch.run: align is None or one of {', '.join(ALIGNS)}")
    if (align in WITH_PARAMS) != (align_params is not None):
        raise ValueError("sarnn.q15_batch.run: the bilinear, key/query and additive aligns take align_params, the "
                         "others none")
    if not window and steps > capacity:
        raise ValueError(f"sarnn.q15_batch.run: {steps} steps do not fit a Bounded memory of {capacity}")
    ap = align_params
    scale = inv_sqrt_q15(hidden) if align == "scaled_dot" else None
    cache = align == "key_query" and caches_keys(ap, hidden, plan)
    keys = np.zeros((batch, steps, len(ap["Wk"])), dtype=np.int64) if cache else None
    if align == "additive":
        # the two halves of W (the stored state's and the new state's), one row factor for both
        W_key, W_query = [row[:hidden] for row in ap["W"]], [row[hidden:] for row in ap["W"]]
        keys = np.zeros((batch, steps, len(ap["W"])), dtype=np.int64)
    c_out = np.zeros_like(h_out)
    c = np.zeros((batch, hidden), dtype=np.int64)
    for t in range(steps):
        h = affine_tanh(p, raw[:, t], c)
        h_out[:, t] = h
        first = max(0, t + 1 - capacity) if window else 0
        states = h_out[:, first:t + 1]
        if cache:
            # P_i = Wk h_i (kept per state), u = Wq h_i: e_ij = P_j·u
            keys[:, t] = gemv(ap["Wk"], ap["m_k"], ap["shift_k"], h)
            u = gemv(ap["Wq"], ap["m_q"], ap["shift_q"], h)
            qq, sh, f = prepare_query(u, ap["g_k"] + ap["g_u"])
            _, c = attend_query(keys[:, first:t + 1], qq, sh, f, states)
        elif align == "key_query":
            # u' = diag(wk) Wq h_i, q = Wk_q^T u': e_ij = h_j·q
            u = gemv(ap["Wq"], ap["m_f"], ap["shift_f"], h)
            qq, sh, f = prepare_query(gemv_t(ap["Wk"], ap["m_t"], ap["shift_t"], u), ap["g"])
            _, c = attend_query(states, qq, sh, f, states)
        elif align == "additive":
            # P_i = W[:, :Hidden] h_i in Q3.12 (kept per state), q = W[:, Hidden:] h_i: e_ij = v·tanh(P_j + q) in Q(f)
            keys[:, t] = gemv(W_key, ap["m"], ap["shift"], h)
            q = gemv(W_query, ap["m"], ap["shift"], h)
            e = additive_scores(keys[:, first:t + 1], q, ap["v"], ap["m_v"], ap["shift_v"])
            _, c = attend_scored(e, ap["f"], states)
        elif align == "bilinear":
            # q = W h_i in Q(15 - g)
            qq, sh, f = prepare_query(gemv(ap["W"], ap["m"], ap["shift"], h), ap["g"])
            _, c = attend_query(states, qq, sh, f, states)
        else:
            q = h if scale is None else np.clip((h * scale + 16384) >> 15, -32768, 32767)
            _, c = attend_dot(states, q)
        c_out[:, t] = c
    return h_out, c_out


def affine(A_x, A_r, b, m, shift, x_m, x_shift, x, r):
    """sarnn.q15.affine_q15 for (B, In) inputs x and (B, R) vectors r: z in Q3.12 (B, rows), b None: no bias."""
    s_x = x @ np.asarray(A_x, dtype=np.int64).T
    s_r = r @ np.asarray(A_r, dtype=np.int64).T
    xq = np.clip(requantize(s_x, x_m, x_shift), -(1 << 30), 1 << 30)
    t = requantize(np.clip(xq + s_r, INT32_MIN, INT32_MAX), np.asarray(m, dtype=np.int64),
                   np.asarray(shift, dtype=np.int64))
    return np.clip(t + (0 if b is None else np.asarray(b, dtype=np.int64)), -32768, 32767)


def lstm_cell(z, c_tilde):
    """sarnn.q15.lstm_cell_q15 for (B, 4·Hidden) pre-activations and (B, Hidden) c~: (c, h, saturated), saturated
    the clamped lanes of c per row (B,)."""
    hidden = c_tilde.shape[1]
    i, f = sigmoid_q15(z[:, :hidden]), sigmoid_q15(z[:, hidden:2 * hidden])
    g, o = tanh_q15(z[:, 2 * hidden:3 * hidden]), sigmoid_q15(z[:, 3 * hidden:])
    # c = f·c~ / 2^15 + i·g / 2^18 (each rounded half up), saturated to int16; h = o·tanh(c) / 2^15
    c = _round_shift(f * c_tilde, 15) + _round_shift(i * g, 18)
    cs = np.clip(c, -32768, 32767)
    return cs, _round_shift(o * tanh_q15(cs), 15), np.sum(cs != c, axis=1)


def run_lstmn(p, raw, capacity, window=False):
    """(h, c, saturated) of every step of every sequence of raw (B, T, In) through Lstmn<q15> (sarnn.q15.LstmnQ15;
    p as LstmnParams<q15>), each from reset(): h (B, T, Hidden) in Q15, c (B, T, Hidden) the cell in Q3.12, saturated
    (B,) the lanes of c clamped per sequence. A Bounded memory (window False) must hold every step: T <= capacity."""
    raw = np.asarray(raw, dtype=np.int64)
    batch, steps, _ = raw.shape
    hidden, k = len(p["W_hh"][0]), len(p["v"])
    if not window and steps > capacity:
        raise ValueError(f"sarnn.q15_batch.run_lstmn: {steps} steps do not fit a Bounded memory of {capacity}")
    h_out = np.zeros((batch, steps, hidden), dtype=np.int64)
    c_out = np.zeros_like(h_out)
    keys = np.zeros((batch, steps, k), dtype=np.int64)
    h_tilde = np.zeros((batch, hidden), dtype=np.int64)
    c_tilde = np.zeros_like(h_tilde)
    saturated = np.zeros(batch, dtype=np.int64)
    for t in range(steps):
        x = raw[:, t]
        first = max(0, t - capacity) if window else 0   # the tape before this step: entries first .. t - 1
        if t > 0:
            # q = W_x x_t + W_ht h~_{t-1} in Q3.12; a_j = v·tanh(P_j + q) in Q(f); [h~; c~] = Σ_j s_j [h_j; c_j]
            q = affine(p["W_x"], p["W_ht"], None, p["m_a"], p["shift_a"], p["x_m"], p["x_shift"], x, h_tilde)
            e = additive_scores(keys[:, first:t], q, p["v"], p["m_v"], p["shift_v"])
            _, summary = attend_scored(e, p["f"], np.concatenate([h_out[:, first:t], c_out[:, first:t]], axis=2))
            h_tilde, c_tilde = summary[:, :hidden], summary[:, hidden:]
        # z = W_ih x_t + W_hh h~_t + b in Q3.12; the cell; the key of h_t
        z = affine(p["W_ih"], p["W_hh"], p["b"], p["m"], p["shift"], p["x_m"], p["x_shift"], x, h_tilde)
        c, h, sat = lstm_cell(z, c_tilde)
        saturated += sat
        h_out[:, t], c_out[:, t] = h, c
        keys[:, t] = gemv(p["W_h"], p["m_a"], p["shift_a"], h)
    return h_out, c_out, saturated
