"""The twin's digests, fixtures of python/tests (test_fixed.py, test_q15.py): FNV-1a (64 bit) over outputs of
sarnn.q15 that tests/test_fixed.cpp and tests/test_q15_models.cpp (and the Cortex-M firmware) compute from the C++
and check against the same constants (tests/shared/fixed_digest.hpp, tests/shared/q15_digest.hpp).

    cd python && /usr/bin/python3 -m tests.twin_digest       prints them (fixed, q15, then the LSTM's)

The q15 models run as batches of one through sarnn.q15.steps, sarnn.q15.lstmn_steps and sarnn.q15.lstm_steps (the
LSTM's digest apart: tests/shared/q15_lstm_digest.hpp; the GRU's and the GRU cell's under attention too:
q15_gru_digest.hpp, q15_gru_cell_digest.hpp); their params and inputs
are drawn from one 64-bit LCG in the order tests/shared/q15_digest.hpp draws them.
"""
import numpy as np

from sarnn import q15

FNV_OFFSET, FNV_PRIME = 0xcbf29ce484222325, 0x100000001b3


class Fnv:
    """FNV-1a (64 bit) of values fed as little-endian two's complement of nbytes each."""

    def __init__(self):
        self.h = FNV_OFFSET

    def feed(self, values, nbytes=2):
        h = self.h
        mask = (1 << (8 * nbytes)) - 1
        for value in np.asarray(values, dtype=np.int64).ravel().tolist():
            v = value & mask
            for _ in range(nbytes):
                h ^= v & 0xFF
                h = (h * FNV_PRIME) & 0xFFFFFFFFFFFFFFFF
                v >>= 8
        self.h = h


# ---- the activations' digest (tests/shared/fixed_digest.hpp) -------------------------------------------------
def requantize_cases():
    """The requantize inputs the digest covers, as (acc, multiplier, shift) lists: edges and a fixed pseudo-random
    spread (an LCG, no library)."""
    edges = [0, 1, -1, 2, -2, 32767, -32768, (1 << 31) - 1, -(1 << 31), 123456789, -987654321]
    mults = [1 << 30, (1 << 31) - 1, 1518500250, 1 << 30 | 1]
    shifts = [-31, -5, -1, 0, 1, 7, 15, 30, 31]
    cases = [(a, m, sh) for a in edges for m in mults for sh in shifts]
    x = 2024
    for _ in range(20000):
        x = (x * 6364136223846793005 + 1442695040888963407) & 0xFFFFFFFFFFFFFFFF
        a = ((x >> 32) & 0xFFFFFFFF) - (1 << 31)
        m = (1 << 30) + ((x >> 2) & ((1 << 30) - 1))
        sh = (x & 0x3F) - 31 if (x & 0x3F) <= 62 else 0
        cases.append((a, m, sh))
    return [list(column) for column in zip(*cases)]


def fixed_digest():
    """tanh and sigmoid of all 65,536 int16 inputs (16 bit), then exp of d = 0, -1, ..., -12·65536 - 15 (32 bit),
    then for each of requantize_cases() requantize (32 bit) and requantize_q15 (16 bit), in the order
    tests/test_fixed.cpp hashes them."""
    fnv = Fnv()
    z = np.arange(-32768, 32768, dtype=np.int64)
    fnv.feed(q15.tanh_q15(z))
    fnv.feed(q15.sigmoid_q15(z))
    fnv.feed(q15.exp_q16(-np.arange(q15.EXP_ZERO_BELOW + 16, dtype=np.int64)), 4)
    acc, mult, shift = requantize_cases()
    wide, narrow = q15.requantize(acc, mult, shift), q15.requantize_q15(acc, mult, shift)
    for w, n in zip(wide.tolist(), narrow.tolist()):
        fnv.feed([w], 4)
        fnv.feed([n], 2)
    return fnv.h


# ---- the q15 models' digest (tests/shared/q15_digest.hpp) -----------------------------------------------------
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


def case_model(kind, n_in, hidden, rng):
    """The params of a DIGEST_CASES kind drawn from rng: (params, align (None: the SimpleRnn; "lstmn"), align_params)."""
    if kind.startswith("lstmn_k"):
        k = int(kind[len("lstmn_k"):].split("_")[0])
        return digest_lstmn_params(rng, n_in, hidden, k), "lstmn", None
    p = digest_params(rng, n_in, hidden)
    align, ap = case_align(kind, hidden, rng)
    return p, None if align == "simple" else align, ap


def case_align(kind, hidden, rng):
    """The align of a DIGEST_CASES kind and its params drawn from rng (after the model's): (align, align_params)."""
    align = kind[:-len("_window")] if kind.endswith("_window") else kind
    ap = None
    if align == "bilinear":
        ap = digest_bilinear_params(rng, hidden)
    elif align.startswith("key_query_k"):
        ap = digest_key_query_params(rng, hidden, int(align[len("key_query_k"):]))
        align = "key_query"
    elif align.startswith("additive_k"):
        ap = digest_additive_params(rng, hidden, int(align[len("additive_k"):]))
        align = "additive"
    return align, ap


def q15_digest():
    """Every step's h (and for the attention models the step's status, c and alpha; for the LSTMN its status, h,
    c, s and the saturation count since reset) of DIGEST_CASES, 16 bits each, little endian. The inputs of all
    steps are drawn after the params; a step a full Bounded memory refuses (the C++'s Status::memory_full)
    changes nothing: status 0 and the last step's values again."""
    fnv = Fnv()
    for kind, n_in, hidden, capacity, n_steps, seed in DIGEST_CASES:
        rng = _Lcg(seed)
        p, align, ap = case_model(kind, n_in, hidden, rng)
        raw = np.array([[[rng.next() % 65536 - 32768 for _ in range(n_in)] for _ in range(n_steps)]])
        window = kind.endswith("window")
        if align is None:
            for h, _, _ in q15.steps(p, raw):
                fnv.feed(h[0])
            continue
        taken = n_steps if window else min(n_steps, capacity)
        if align == "lstmn":
            trace, saturated = [], 0
            for h, c, s, sat in q15.lstmn_steps(p, raw[:, :taken], capacity, window):
                saturated += int(sat[0])
                trace.append((h[0], c[0], [] if s is None else s[0], [saturated]))
        else:
            trace = [(h[0], c[0], alpha[0]) for h, c, alpha in
                     q15.steps(p, raw[:, :taken], align, capacity, window, align_params=ap)]
        for t in range(n_steps):
            fnv.feed([1 if t < taken else 0])
            for values in trace[min(t, taken - 1)]:
                fnv.feed(values)
    return fnv.h


# ---- the LSTM's digest (tests/shared/q15_lstm_digest.hpp), apart from the models' above -----------------------
def digest_lstm_params(rng, n_in, hidden):
    """LstmParams<q15> drawn from the LCG, in the C++ order (tests/shared/q15_lstm_digest.hpp): W_ih, W_hh, b, m,
    shift (9 to 16: gates from saturated to finely graded), x_m, x_shift."""
    p = {"W_ih": [[rng.next() % 255 - 127 for _ in range(n_in)] for _ in range(4 * hidden)]}
    p["W_hh"] = [[rng.next() % 255 - 127 for _ in range(hidden)] for _ in range(4 * hidden)]
    p["b"] = [rng.next() % 16385 - 8192 for _ in range(4 * hidden)]
    p["m"] = [(1 << 30) + rng.next() % (1 << 30) for _ in range(4 * hidden)]
    p["shift"] = [9 + rng.next() % 8 for _ in range(4 * hidden)]
    p["x_m"] = (1 << 30) + rng.next() % (1 << 30)
    p["x_shift"] = -(rng.next() % 3)
    p["x_scale"] = 0.0
    return p


# ---- Gru<q15>'s digest (tests/shared/q15_gru_digest.hpp), apart from q15_digest() -----------------------------
def digest_gru_params(rng, n_in, hidden):
    """GruParams<q15> drawn from the LCG, in the C++ order (tests/shared/q15_gru_digest.hpp)."""
    def int8_rows(rows, cols):
        return [[rng.next() % 255 - 127 for _ in range(cols)] for _ in range(rows)]

    p = {"W_ih": int8_rows(3 * hidden, n_in), "W_hh": int8_rows(3 * hidden, hidden)}
    p["b_ih"] = [rng.next() % 16385 - 8192 for _ in range(3 * hidden)]
    p["b_hh"] = [rng.next() % 16385 - 8192 for _ in range(3 * hidden)]
    p["m"] = [(1 << 30) + rng.next() % (1 << 30) for _ in range(3 * hidden)]
    p["x_m"] = (1 << 30) + rng.next() % (1 << 30)
    p["shift"] = [8 + rng.next() % 5 for _ in range(3 * hidden)]
    p["x_shift"] = -(rng.next() % 3)
    p["x_scale"] = 0.0
    return p


LSTM_DIGEST_CASES = [  # (In, Hidden, steps, seed)
    (3, 5, 40, 101),
    (1, 1, 30, 102),
    (16, 32, 64, 103),
    (7, 17, 50, 104),
    (33, 7, 20, 105),
    (4, 36, 24, 106),
    (2, 3, 200, 107),
]


def q15_lstm_digest():
    """Every step's status (1: ok), h, c and the saturation count since reset of Lstm<q15> over LSTM_DIGEST_CASES, 16
    bits each, little endian; the inputs of all steps are drawn after the params."""
    fnv = Fnv()
    for n_in, hidden, n_steps, seed in LSTM_DIGEST_CASES:
        rng = _Lcg(seed)
        p = digest_lstm_params(rng, n_in, hidden)
        raw = np.array([[[rng.next() % 65536 - 32768 for _ in range(n_in)] for _ in range(n_steps)]])
        saturated = 0
        for h, c, sat in q15.lstm_steps(p, raw):
            saturated += int(sat[0])
            fnv.feed([1])
            fnv.feed(h[0])
            fnv.feed(c[0])
            fnv.feed([saturated])
    return fnv.h


GRU_DIGEST_CASES = [  # (In, Hidden, steps, seed)
    (1, 1, 20, 31),
    (3, 5, 40, 32),
    (7, 17, 30, 33),
    (16, 32, 64, 34),
    (33, 3, 20, 35),
    (17, 33, 25, 36),
]


def q15_gru_digest():
    """Every step's h of GRU_DIGEST_CASES, 16 bits each, little endian; the inputs of all steps drawn after the
    params."""
    fnv = Fnv()
    for n_in, hidden, n_steps, seed in GRU_DIGEST_CASES:
        rng = _Lcg(seed)
        p = digest_gru_params(rng, n_in, hidden)
        raw = np.array([[[rng.next() % 65536 - 32768 for _ in range(n_in)] for _ in range(n_steps)]])
        for h in q15.gru_steps(p, raw):
            fnv.feed(h[0])
    return fnv.h


# ---- SelfAttentionRnn<q15, ..., GruCell>'s digest (tests/shared/q15_gru_cell_digest.hpp), apart from the others --
GRU_CELL_DIGEST_CASES = [  # (kind, In, Hidden, Capacity, steps, seed): the kinds of DIGEST_CASES' attention models
    ("dot", 3, 5, 8, 12, 41),                      # Bounded: the last 4 steps refused
    ("scaled_dot_window", 1, 1, 4, 10, 42),
    ("scaled_dot", 7, 17, 32, 30, 43),
    ("dot_window", 5, 9, 6, 40, 44),
    ("bilinear", 3, 7, 16, 16, 45),
    ("bilinear_window", 4, 6, 5, 20, 46),
    ("key_query_k4", 3, 17, 8, 16, 47),            # 4·K <= Hidden: keys cached
    ("key_query_k3_window", 2, 7, 5, 14, 48),      # folded
    ("additive_k5", 3, 9, 8, 16, 49),
    ("additive_k3_window", 2, 6, 5, 14, 50),
    ("dot_window", 8, 32, 16, 40, 51),
    ("scaled_dot_window", 33, 3, 3, 30, 52),
]


def q15_gru_cell_digest():
    """Every step's status (1 ok, 0 memory_full), h, c and alpha of SelfAttentionRnn<q15, ..., GruCell> over
    GRU_CELL_DIGEST_CASES (GruParams<q15> drawn first, then the align's params, then the inputs of all steps), 16
    bits each, little endian; a refused step changes nothing (the last step's values again)."""
    fnv = Fnv()
    for kind, n_in, hidden, capacity, n_steps, seed in GRU_CELL_DIGEST_CASES:
        rng = _Lcg(seed)
        p = digest_gru_params(rng, n_in, hidden)
        align, ap = case_align(kind, hidden, rng)
        raw = np.array([[[rng.next() % 65536 - 32768 for _ in range(n_in)] for _ in range(n_steps)]])
        window = kind.endswith("window")
        taken = n_steps if window else min(n_steps, capacity)
        trace = [(h[0], c[0], alpha[0]) for h, c, alpha in
                 q15.steps(p, raw[:, :taken], align, capacity, window, align_params=ap, cell="gru")]
        for t in range(n_steps):
            fnv.feed([1 if t < taken else 0])
            for values in trace[min(t, taken - 1)]:
                fnv.feed(values)
    return fnv.h


# ---- Lstm<q15> and Gru<q15> whose x part's factor is 1 (tests/shared/q15_one_digest.hpp), apart from the others ---
ONE_DIGEST_CASES = [  # (In, Hidden, steps, seed): the packed passes and four rows a finishing pass (16, 32), odd rows
    (16, 32, 32, 61),
    (7, 17, 30, 62),
    (3, 5, 20, 63),
]


def q15_one_digest():
    """Every step's h and c (Lstm<q15>) and h (Gru<q15>) over ONE_DIGEST_CASES, each case's LSTM then its GRU, their
    params drawn as digest_lstm_params' and digest_gru_params' from the case's seed and then given the x factor 1 (x_m
    = 2^30, x_shift = -1: the rows' sums finished by the targets' finish_sum and finish_gru, which the draws of the
    digests above never take), then the inputs of all steps; 16 bits each, little endian."""
    fnv = Fnv()
    for n_in, hidden, n_steps, seed in ONE_DIGEST_CASES:
        for draw, steps in ((digest_lstm_params, q15.lstm_steps), (digest_gru_params, q15.gru_steps)):
            rng = _Lcg(seed)
            p = draw(rng, n_in, hidden)
            p["x_m"], p["x_shift"] = 1 << 30, -1
            raw = np.array([[[rng.next() % 65536 - 32768 for _ in range(n_in)] for _ in range(n_steps)]])
            for out in steps(p, raw):
                for values in (out[:2] if isinstance(out, tuple) else (out,)):
                    fnv.feed(values[0])
    return fnv.h


if __name__ == "__main__":
    print(f"fixed 0x{fixed_digest():016x}\nq15   0x{q15_digest():016x}\nlstm  0x{q15_lstm_digest():016x}\n"
          f"gru   0x{q15_gru_digest():016x}\ngru_cell 0x{q15_gru_cell_digest():016x}\none   0x{q15_one_digest():016x}")
