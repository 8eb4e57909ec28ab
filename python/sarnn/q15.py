"""sarnn.q15: the Python twin of sarnn's q15 models (SimpleRnn<q15>, SelfAttentionRnn<q15> with DotAlign,
ScaledDotAlign, BilinearAlign, KeyQueryAlign or AdditiveAlign, Lstmn<q15>: include/sarnn/kernels_q15.hpp,
lib/kernels/q15.cpp, include/sarnn/align.hpp, include/sarnn/lstmn.hpp).

Integers only, the same operations in the same order as the C++, so that it predicts a q15 model's h, c and alpha
bit for bit (tests/test_q15_models.cpp and python/tests/test_q15.py pin both to one digest of many runs). Use it to
measure a quantised model's accuracy in Python before flashing it; quantize_rnn() makes its params from float
weights as the exporter does.

Params (RnnParams<q15, In, Hidden> in include/sarnn/params.hpp), a dict:
  A        Hidden rows of In + Hidden int8           b        Hidden int32, Q3.12
  m, shift Hidden requantisation multipliers/shifts  x_m, x_shift   the input's factor to the r part's units
  x_scale  the real value of one raw input unit (host side)
"""
from sarnn.fixed import exp_q16, inv_sqrt_q15, mul_q15, quantize_multiplier, requantize, sigmoid_q15, tanh_q15

INT32_MIN, INT32_MAX = -(1 << 31), (1 << 31) - 1


def _clamp(v, lo, hi):
    return lo if v < lo else hi if v > hi else v


def _round_shift(v, s):
    """floor((v + 2^(s-1)) / 2^s): v rounded half up, then divided by 2^s."""
    return (v + (1 << (s - 1))) >> s


def affine_tanh_q15(p, x, r):
    """y = tanh(A·[x; r] + b) for q15 params p, raw int16 inputs x and Q15 r (lists of ints)."""
    nx = len(x)
    y = []
    for row, w in enumerate(p["A"]):
        s_x = sum(w[k] * x[k] for k in range(nx))
        s_r = sum(w[nx + k] * r[k] for k in range(len(r)))
        xq = _clamp(requantize(s_x, p["x_m"], p["x_shift"]), -(1 << 30), 1 << 30)
        z = _clamp(xq + s_r, INT32_MIN, INT32_MAX)
        t = requantize(z, p["m"][row], p["shift"][row])
        pre = _clamp(t + p["b"][row], -32768, 32767)
        y.append(tanh_q15(pre))
    return y


def gemv_q15(W, m, shift, v):
    """y_r = requantize(Σ_k W[r][k]·v_k, m[r], shift[r]) saturated to int16 (the align transforms)."""
    return [_clamp(requantize(sum(w * x for w, x in zip(row, v)), m[r], shift[r]), -32768, 32767)
            for r, row in enumerate(W)]


def gemv_t_q15(W, m, shift, v):
    """y_r = requantize(Σ_k W[k][r]·v_k, m, shift) saturated to int16: Wᵀ v, one factor (the folded key/query)."""
    return [_clamp(requantize(sum(W[k][r] * v[k] for k in range(len(W))), m, shift), -32768, 32767)
            for r in range(len(W[0]))]


def prepare_query_q15(q, g=0):
    """(q', t, f) for a query q in Q(15 - g): q' = q / 2^s rounded, the scores' shift t and format Q(f)."""
    g = _clamp(g, 0, 8)
    dim = len(q)
    qsum = sum(abs(v) for v in q)
    s = 0
    while (qsum >> s) + dim + 1 > 65536:
        s += 1
    qq = list(q) if s == 0 else [_round_shift(v, s) for v in q]
    t = 0
    while (1 << t) < sum(abs(v) for v in qq):
        t += 1
    t = max(t, 15 - g - s, 1)
    return qq, t, 30 - g - s - t


def attend_query_q15(keys, qq, t, f, values):
    """(alpha, c): scores keys_j·q' / 2^t in Q(f), softmax, c = Σ_j alpha_j values_j (lists oldest first)."""
    if len(values) == 1:
        return [32767], list(values[0])
    e = [_round_shift(sum(a * b for a, b in zip(key, qq)), t) for key in keys]
    return attend_scored_q15(e, f, values)


def additive_scores_q15(keys, q, v, m_v, shift_v):
    """e_j = requantize(Σ_k v_k·tanh(P_j,k + q_k), m_v, shift_v) saturated to int16, P_j,k + q_k saturated first."""
    return [_clamp(requantize(sum(vk * tanh_q15(_clamp(pk + qk, -32768, 32767)) for vk, pk, qk in zip(v, key, q)),
                              m_v, shift_v), -32768, 32767)
            for key in keys]


def attend_scored_q15(e, f, values):
    """(alpha, c) from the scores e in Q(f) (f clamped to -2..15): softmax, c = Σ_j alpha_j values_j."""
    if len(values) == 1:
        return [32767], list(values[0])
    alpha = _softmax_q15(e, f)
    return alpha, _weighted_sum_q15(alpha, values)


def attend_scored_pair_q15(e, f, values, others):
    """(alpha, c, d): attend_scored_q15 over two tapes of the same states, one softmax (the LSTMN's h and c)."""
    if len(values) == 1:
        return [32767], list(values[0]), list(others[0])
    alpha = _softmax_q15(e, f)
    return alpha, _weighted_sum_q15(alpha, values), _weighted_sum_q15(alpha, others)


def _softmax_q15(e, f):
    """alpha = softmax(e) in Q15, e in Q(f) (f clamped to -2..15), as the C++ softmax (n >= 2)."""
    f = _clamp(f, -2, 15)
    m = max(e)
    to_q16 = 1 << (16 - f)
    p = [min(exp_q16((ej - m) * to_q16), 65535) for ej in e]
    l = sum(p)
    sh = 0
    while (l << sh) < (1 << 30):
        sh += 1
    den = (l << sh) >> 15
    rec = min((1 << 31) // den, 65535)
    return [min((pj * rec) >> (31 - sh), 32767) for pj in p]


def _weighted_sum_q15(alpha, values):
    """c_k = Σ_j alpha_j values_j,k / 2^15 rounded half up, within +-32767 (any format of the values)."""
    n, dim = len(values), len(values[0])
    c = []
    for k in range(dim):
        acc = sum(alpha[j] * values[j][k] for j in range(n))
        c.append(_clamp(_round_shift(acc, 15), -32767, 32767))
    return c


def affine_q15(A_x, A_r, b, m, shift, x_m, x_shift, x, r):
    """z = A_x·x + A_r·r (+ b) in Q3.12 (the LSTMN's gates and query): affine_tanh_q15 without the tanh, b None: no
    bias."""
    z = []
    for row in range(len(A_x)):
        s_x = sum(w * v for w, v in zip(A_x[row], x))
        s_r = sum(w * v for w, v in zip(A_r[row], r))
        xq = _clamp(requantize(s_x, x_m, x_shift), -(1 << 30), 1 << 30)
        t = requantize(_clamp(xq + s_r, INT32_MIN, INT32_MAX), m[row], shift[row])
        z.append(_clamp(t + (b[row] if b is not None else 0), -32768, 32767))
    return z


def lstm_cell_q15(z, c_tilde):
    """(c, h, saturated): the LSTM cell from Q3.12 pre-activations z = [z_i; z_f; z_g; z_o] and c~ (Q3.12):
    c = f·c~ / 2^15 + i·g / 2^18 (each rounded half up) saturated to int16, h = o·tanh(c) / 2^15 rounded half up;
    saturated counts the clamped lanes of c."""
    hidden = len(c_tilde)
    c, h, saturated = [], [], 0
    for k in range(hidden):
        i, f = sigmoid_q15(z[k]), sigmoid_q15(z[hidden + k])
        g, o = tanh_q15(z[2 * hidden + k]), sigmoid_q15(z[3 * hidden + k])
        ck = _round_shift(f * c_tilde[k], 15) + _round_shift(i * g, 18)
        cs = _clamp(ck, -32768, 32767)
        saturated += cs != ck
        c.append(cs)
        h.append(_round_shift(o * tanh_q15(cs), 15))
    return c, h, saturated


def attend_dot_q15(states, q):
    """(alpha, c) of the dot context over `states` (lists of Q15 ints, oldest first) for the query q."""
    qq, t, f = prepare_query_q15(q)
    return attend_query_q15(states, qq, t, f, states)


class SimpleRnnQ15:
    """SimpleRnn<q15, In, Hidden>: h_i = tanh(A·[x_i; h_{i-1}] + b)."""

    def __init__(self, params):
        self.p = params
        self.hidden_size = len(params["A"])
        self.reset()

    def reset(self):
        self.h = [0] * self.hidden_size

    def step(self, x):
        self.h = affine_tanh_q15(self.p, x, self.h)
        return self.h


class SelfAttentionRnnQ15:
    """SelfAttentionRnn<q15, In, Hidden, Capacity, Align, Bounded | Window>, Align "dot", "scaled_dot", "bilinear"
    (align_params: a dict W, m, shift, g as BilinearParams<q15>) or "key_query" (KeyQueryAlign<K, plan>, plan
    "by_size", "cache" or "fold"; align_params as KeyQueryParams<q15>) or "additive" (AdditiveAlign<K>; align_params
    a dict W, v, m, m_v, shift, shift_v, f as AdditiveParams<q15>)."""

    def __init__(self, params, capacity, align="dot", window=False, align_params=None, plan="by_size"):
        if align not in ("dot", "scaled_dot", "bilinear", "key_query", "additive"):
            raise ValueError("SelfAttentionRnnQ15: align is 'dot', 'scaled_dot', 'bilinear', 'key_query' or 'additive'")
        if (align in ("bilinear", "key_query", "additive")) != (align_params is not None):
            raise ValueError("SelfAttentionRnnQ15: the bilinear, key/query and additive aligns take align_params, the "
                             "others none")
        self.p = params
        self.hidden_size = len(params["A"])
        self.capacity = capacity
        self.align = align
        self.ap = align_params
        self.scale = inv_sqrt_q15(self.hidden_size) if align == "scaled_dot" else None
        self.window = window
        if align == "key_query":
            k = len(align_params["Wk"])
            self.caches_keys = plan == "cache" or (plan == "by_size" and 4 * k <= self.hidden_size)
        self.reset()

    def reset(self):
        self.memory = []
        self.keys = []
        self.c = [0] * self.hidden_size
        self.alpha = []
        self.h = [0] * self.hidden_size

    def step(self, x):
        """One step; returns False (changing nothing) where the C++ returns Status::memory_full."""
        if not self.window and len(self.memory) == self.capacity:
            return False
        h = affine_tanh_q15(self.p, x, self.c)
        self.memory.append(h)
        if len(self.memory) > self.capacity:
            self.memory.pop(0)
        ap = self.ap
        if self.align == "key_query" and self.caches_keys:
            # P_i = Wk h_i (kept per state), u = Wq h_i: e_ij = P_j·u
            self.keys.append(gemv_q15(ap["Wk"], ap["m_k"], ap["shift_k"], h))
            if len(self.keys) > self.capacity:
                self.keys.pop(0)
            u = gemv_q15(ap["Wq"], ap["m_q"], ap["shift_q"], h)
            qq, t, f = prepare_query_q15(u, ap["g_k"] + ap["g_u"])
            self.alpha, self.c = attend_query_q15(self.keys, qq, t, f, self.memory)
        elif self.align == "key_query":
            # u' = diag(wk) Wq h_i, q = Wk_q^T u': e_ij = h_j·q
            u = gemv_q15(ap["Wq"], ap["m_f"], ap["shift_f"], h)
            q = gemv_t_q15(ap["Wk"], ap["m_t"], ap["shift_t"], u)
            qq, t, f = prepare_query_q15(q, ap["g"])
            self.alpha, self.c = attend_query_q15(self.memory, qq, t, f, self.memory)
        elif self.align == "additive":
            # P_i = W[:, :Hidden] h_i in Q3.12 (kept per state), q = W[:, Hidden:] h_i: e_ij = v·tanh(P_j + q) in Q(f)
            hidden = self.hidden_size
            self.keys.append(gemv_q15([row[:hidden] for row in ap["W"]], ap["m"], ap["shift"], h))
            if len(self.keys) > self.capacity:
                self.keys.pop(0)
            q = gemv_q15([row[hidden:] for row in ap["W"]], ap["m"], ap["shift"], h)
            e = additive_scores_q15(self.keys, q, ap["v"], ap["m_v"], ap["shift_v"])
            self.alpha, self.c = attend_scored_q15(e, ap["f"], self.memory)
        elif self.align == "bilinear":
            # q = W h_i in Q(15 - g)
            q = gemv_q15(self.ap["W"], self.ap["m"], self.ap["shift"], h)
            qq, t, f = prepare_query_q15(q, self.ap["g"])
            self.alpha, self.c = attend_query_q15(self.memory, qq, t, f, self.memory)
        else:
            q = h if self.scale is None else [mul_q15(v, self.scale) for v in h]
            self.alpha, self.c = attend_dot_q15(self.memory, q)
        self.h = h
        return True


class LstmnQ15:
    """Lstmn<q15, In, Hidden, Capacity, K, Bounded | Window>, params a dict as LstmnParams<q15> (include/sarnn/
    params.hpp): W_ih, W_hh, b, m, shift (the gates), W_h, W_x, W_ht, m_a, shift_a (the attention), v, m_v, shift_v, f
    (the scores), x_m, x_shift. h, h~ and s in Q15, c and c~ in Q3.12; saturated counts the clamped lanes of c since
    reset()."""

    def __init__(self, params, capacity, window=False):
        self.p = params
        self.hidden_size = len(params["W_hh"][0])
        self.capacity = capacity
        self.window = window
        self.reset()

    def reset(self):
        self.tape_h, self.tape_c, self.keys = [], [], []
        self.h_tilde = [0] * self.hidden_size
        self.c_tilde = [0] * self.hidden_size
        self.h = [0] * self.hidden_size
        self.c = [0] * self.hidden_size
        self.s = []
        self.saturated = 0

    def step(self, x):
        """One step; returns False (changing nothing) where the C++ returns Status::memory_full."""
        p = self.p
        if not self.window and len(self.tape_h) == self.capacity:
            return False
        if self.tape_h:
            # q = W_x x_t + W_ht h~_{t-1} in Q3.12; a_j = v·tanh(P_j + q) in Q(f); s, h~, c~
            q = affine_q15(p["W_x"], p["W_ht"], None, p["m_a"], p["shift_a"], p["x_m"], p["x_shift"], x, self.h_tilde)
            e = additive_scores_q15(self.keys, q, p["v"], p["m_v"], p["shift_v"])
            self.s, self.h_tilde, self.c_tilde = attend_scored_pair_q15(e, p["f"], self.tape_h, self.tape_c)
        # z = W_ih x_t + W_hh h~_t + b in Q3.12; the cell; the key of h_t, once
        z = affine_q15(p["W_ih"], p["W_hh"], p["b"], p["m"], p["shift"], p["x_m"], p["x_shift"], x, self.h_tilde)
        self.c, self.h, saturated = lstm_cell_q15(z, self.c_tilde)
        self.saturated += saturated
        for tape, row in ((self.tape_h, self.h), (self.tape_c, self.c),
                          (self.keys, gemv_q15(p["W_h"], p["m_a"], p["shift_a"], self.h))):
            tape.append(row)
            if len(tape) > self.capacity:
                tape.pop(0)
        return True


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


# ---- the digest of many runs, which tests/test_q15_models.cpp computes from the C++ models ----------------------
class _Lcg:
    def __init__(self, seed):
        self.x = seed

    def next(self):
        """31 pseudo-random bits."""
        self.x = (self.x * 6364136223846793005 + 1442695040888963407) & 0xFFFFFFFFFFFFFFFF
        return self.x >> 33


def digest_params(rng, n_in, hidden):
    """Params drawn from the LCG, in the order the C++ draws them (tests/shared/q15_digest.hpp)."""
    p = {"A": [[rng.next() % 255 - 127 for _ in range(n_in + hidden)] for _ in range(hidden)]}
    p["b"] = [rng.next() % 16385 - 8192 for _ in range(hidden)]
    p["m"] = [(1 << 30) + rng.next() % (1 << 30) for _ in range(hidden)]
    p["shift"] = [9 + rng.next() % 4 for _ in range(hidden)]
    p["x_m"] = (1 << 30) + rng.next() % (1 << 30)
    p["x_shift"] = -(rng.next() % 3)
    p["x_scale"] = 0.0
    return p


def digest_bilinear_params(rng, hidden):
    """BilinearParams<q15> drawn from the LCG after the model's params, in the C++ order: W, m, shift, g."""
    p = {"W": [[rng.next() % 255 - 127 for _ in range(hidden)] for _ in range(hidden)]}
    p["m"] = [(1 << 30) + rng.next() % (1 << 30) for _ in range(hidden)]
    p["shift"] = [8 + rng.next() % 5 for _ in range(hidden)]
    p["g"] = rng.next() % 5
    return p


def digest_key_query_params(rng, hidden, k):
    """KeyQueryParams<q15> drawn from the LCG after the model's params, in the C++ order (tests/shared/q15_digest.hpp)."""
    p = {"Wk": [[rng.next() % 255 - 127 for _ in range(hidden)] for _ in range(k)]}
    p["Wq"] = [[rng.next() % 255 - 127 for _ in range(hidden)] for _ in range(k)]
    for name in ("m_k", "m_q", "m_f"):
        p[name] = [(1 << 30) + rng.next() % (1 << 30) for _ in range(k)]
    p["m_t"] = (1 << 30) + rng.next() % (1 << 30)
    p["shift_k"] = [8 + rng.next() % 5 for _ in range(k)]
    p["shift_q"] = [8 + rng.next() % 5 for _ in range(k)]
    p["shift_f"] = [14 + rng.next() % 5 for _ in range(k)]
    p["shift_t"] = rng.next() % 4 - 2
    p["g_k"] = rng.next() % 4
    p["g_u"] = rng.next() % 4
    p["g"] = rng.next() % 5
    return p


def digest_additive_params(rng, hidden, k):
    """AdditiveParams<q15> drawn from the LCG after the model's params, in the C++ order (tests/shared/q15_digest.hpp)."""
    p = {"W": [[rng.next() % 255 - 127 for _ in range(2 * hidden)] for _ in range(k)]}
    p["v"] = [rng.next() % 255 - 127 for _ in range(k)]
    p["m"] = [(1 << 30) + rng.next() % (1 << 30) for _ in range(k)]
    p["m_v"] = (1 << 30) + rng.next() % (1 << 30)
    p["shift"] = [9 + rng.next() % 4 for _ in range(k)]
    p["shift_v"] = 8 + rng.next() % 5
    p["f"] = rng.next() % 18 - 2
    return p


def digest_lstmn_params(rng, n_in, hidden, k):
    """LstmnParams<q15> drawn from the LCG, in the C++ order (tests/shared/q15_digest.hpp)."""
    def int8_rows(rows, cols):
        return [[rng.next() % 255 - 127 for _ in range(cols)] for _ in range(rows)]

    p = {"W_ih": int8_rows(4 * hidden, n_in), "W_hh": int8_rows(4 * hidden, hidden), "W_h": int8_rows(k, hidden),
         "W_x": int8_rows(k, n_in), "W_ht": int8_rows(k, hidden)}
    p["v"] = [rng.next() % 255 - 127 for _ in range(k)]
    p["b"] = [rng.next() % 16385 - 8192 for _ in range(4 * hidden)]
    p["m"] = [(1 << 30) + rng.next() % (1 << 30) for _ in range(4 * hidden)]
    p["m_a"] = [(1 << 30) + rng.next() % (1 << 30) for _ in range(k)]
    p["m_v"] = (1 << 30) + rng.next() % (1 << 30)
    p["x_m"] = (1 << 30) + rng.next() % (1 << 30)
    p["shift"] = [9 + rng.next() % 4 for _ in range(4 * hidden)]
    p["shift_a"] = [9 + rng.next() % 4 for _ in range(k)]
    p["x_shift"] = -(rng.next() % 3)
    p["shift_v"] = 8 + rng.next() % 5
    p["f"] = rng.next() % 18 - 2
    p["x_scale"] = 0.0
    return p


DIGEST_CASES = [  # (kind, In, Hidden, Capacity, steps, seed): kind simple / dot / scaled_dot / dot_window / ...
    ("simple", 3, 5, 0, 40, 11),
    ("simple", 16, 33, 0, 20, 12),
    ("dot", 4, 7, 16, 16, 13),
    ("scaled_dot", 1, 1, 4, 6, 14),
    ("scaled_dot_window", 5, 17, 8, 30, 15),
    ("dot_window", 3, 3, 3, 12, 16),
    ("dot", 16, 32, 64, 64, 17),
    ("bilinear", 3, 7, 16, 16, 18),
    ("bilinear_window", 5, 17, 6, 20, 19),
    ("key_query_k4", 3, 17, 8, 16, 20),            # 4·K <= Hidden: keys cached
    ("key_query_k3_window", 2, 7, 5, 14, 21),      # folded
    ("additive_k5", 3, 9, 8, 16, 22),
    ("additive_k3_window", 2, 6, 5, 14, 23),
    ("lstmn_k4", 3, 5, 8, 12, 24),                 # Bounded: the last 4 steps refused
    ("lstmn_k3_window", 2, 6, 5, 20, 25),
    ("lstmn_k8_window", 4, 16, 16, 40, 26),
]


def digest():
    """FNV-1a (64 bit) of every step's h (and c, alpha) of DIGEST_CASES, 16 bits each, little endian."""
    h = 0xcbf29ce484222325

    def feed(values):
        nonlocal h
        for value in values:
            v = value & 0xFFFF
            for _ in range(2):
                h ^= v & 0xFF
                h = (h * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
                v >>= 8

    for kind, n_in, hidden, capacity, steps, seed in DIGEST_CASES:
        rng = _Lcg(seed)
        if kind.startswith("lstmn_k"):
            k = int(kind[len("lstmn_k"):].split("_")[0])
            model = LstmnQ15(digest_lstmn_params(rng, n_in, hidden, k), capacity, window=kind.endswith("window"))
            for _ in range(steps):
                x = [rng.next() % 65536 - 32768 for _ in range(n_in)]
                feed([1 if model.step(x) else 0])
                feed(model.h)
                feed(model.c)
                feed(model.s)
                feed([model.saturated])
            continue
        p = digest_params(rng, n_in, hidden)
        align = kind[:-len("_window")] if kind.endswith("_window") else kind
        if kind == "simple":
            model = SimpleRnnQ15(p)
        else:
            ap = None
            if align == "bilinear":
                ap = digest_bilinear_params(rng, hidden)
            elif align.startswith("key_query_k"):
                ap = digest_key_query_params(rng, hidden, int(align[len("key_query_k"):]))
                align = "key_query"
            elif align.startswith("additive_k"):
                ap = digest_additive_params(rng, hidden, int(align[len("additive_k"):]))
                align = "additive"
            model = SelfAttentionRnnQ15(p, capacity, align, window=kind.endswith("window"), align_params=ap)
        for _ in range(steps):
            x = [rng.next() % 65536 - 32768 for _ in range(n_in)]
            if kind == "simple":
                feed(model.step(x))
            else:
                ok = model.step(x)
                feed([1 if ok else 0])
                feed(model.h)
                feed(model.c)
                feed(model.alpha)
    return h


if __name__ == "__main__":
    print(f"0x{digest():016x}")
