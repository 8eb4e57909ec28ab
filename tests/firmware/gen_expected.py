#!/usr/bin/env python3
"""tests/firmware/gen_expected.py: the firmware's test data and expected outputs, computed on the host.

Writes a C++ header (the path given with --out) holding, for each case below: the model's sizes, its weights,
the input sequence and the outputs the model must produce at every step. The expected outputs come from a
plain double-precision reference written here from the model formulas (Python's math module, no NumPy), not
from sarnn's code, so the firmware checks the library against an independent implementation:

  SimpleRnn         h_i = tanh(A·[x_i; h_{i-1}] + b),  h_0 = 0
  SelfAttentionRnn  h_i = tanh(A·[x_i; c_{i-1}] + b),  c_0 = 0
                    e_ij = align(h_j, h_i) over the memory h_1..h_i (Window: the newest Capacity of them),
                    alpha_ij = softmax_j(e_ij), c_i = sum_j alpha_ij h_j
  aligns            dot: h_j·h_i   scaled_dot: h_j·h_i / sqrt(Hidden)   bilinear: h_j·(W h_i)
                    key_query: (Wk h_j)·(Wq h_i)   additive: v·tanh(W [h_j; h_i])
  Lstmn             tapes h_1..h_{t-1}, c_1..c_{t-1} (Window: the newest Capacity); when not empty:
                    a_j = v·tanh(W_h h_j + W_x x_t + W_ht h~_{t-1}), s = softmax(a),
                    h~_t = sum_j s_j h_j, c~_t = sum_j s_j c_j (else h~_t = c~_t = 0);
                    z = W_ih x_t + W_hh h~_t + b, gates i, f, g, o (PyTorch order),
                    c_t = sigmoid(f) c~_t + sigmoid(i) tanh(g), h_t = sigmoid(o) tanh(c_t)
  Lstm              the same gates and cell on h_{t-1} and c_{t-1} (h_0 = c_0 = 0): PyTorch's nn.LSTM

Weights and inputs are multiples of 2^-12 drawn from a fixed pseudo-random generator, so they are exact in
float and double and the model sees exactly the numbers the reference used.

Adding a model: write its reference step function and params maker, register them in MODELS with the C++
runner that checks it (a template in main.cpp), and add a Case. An align: an ALIGNS entry (+ ALIGN_FIELDS).
"""
import argparse
import math
import sys

# ---- deterministic inputs ------------------------------------------------------------------------------------


class Rng:
    """splitmix64: the same numbers on every host and Python version."""

    def __init__(self, seed):
        self.s = seed & 0xFFFFFFFFFFFFFFFF

    def next(self):
        self.s = (self.s + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
        z = self.s
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
        return z ^ (z >> 31)

    def uniform(self, bound):
        """A multiple of 2^-12 in [-bound, bound]: exact in float and double."""
        u = (self.next() >> 11) / float(1 << 53)  # [0, 1)
        return round((2.0 * u - 1.0) * bound * 4096.0) / 4096.0

    def matrix(self, rows, cols, bound):
        return [[self.uniform(bound) for _ in range(cols)] for _ in range(rows)]


# ---- the double-precision reference ----------------------------------------------------------------------


def dot(a, b):
    return sum(x * y for x, y in zip(a, b))


def softmax(e):
    m = max(e)
    p = [math.exp(v - m) for v in e]
    s = sum(p)
    return [v / s for v in p]


def rnn_cell(A, b, x, r):
    """tanh(A·[x; r] + b)"""
    xr = list(x) + list(r)
    return [math.tanh(dot(row, xr) + bi) for row, bi in zip(A, b)]


def matvec(M, v):
    return [dot(row, v) for row in M]


def sigmoid(x):
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)


# name: (score e = align(h_j, h_i, align params, Hidden), C++ type, params C++ type or None, params maker)
ALIGNS = {
    "dot": (lambda hj, hi, p: dot(hj, hi), "sarnn::DotAlign", None, None),
    "scaled_dot": (lambda hj, hi, p: dot(hj, hi) / math.sqrt(len(hi)), "sarnn::ScaledDotAlign", None, None),
    "bilinear": (lambda hj, hi, p: dot(hj, matvec(p["W"], hi)), "sarnn::BilinearAlign",
                 "sarnn::BilinearParams<T, Hidden>",
                 lambda rng, c: {"W": rng.matrix(c.hidden, c.hidden, 1.0 / math.sqrt(c.hidden))}),
    "key_query": (lambda hj, hi, p: dot(matvec(p["Wk"], hj), matvec(p["Wq"], hi)), "sarnn::KeyQueryAlign<K>",
                  "sarnn::KeyQueryParams<T, Hidden, K>",
                  lambda rng, c: {"Wk": rng.matrix(c.K, c.hidden, 1.0 / math.sqrt(c.hidden)),
                                  "Wq": rng.matrix(c.K, c.hidden, 1.0 / math.sqrt(c.hidden))}),
    "additive": (lambda hj, hi, p: dot(p["v"], [math.tanh(z) for z in matvec(p["W"], hj + hi)]),
                 "sarnn::AdditiveAlign<K>", "sarnn::AdditiveParams<T, Hidden, K>",
                 lambda rng, c: {"W": rng.matrix(c.K, 2 * c.hidden, 1.0 / math.sqrt(2 * c.hidden)),
                                 "v": [rng.uniform(1.0 / math.sqrt(c.K)) for _ in range(c.K)]}),
}


def run_simple_rnn(case, P, xs):
    h = [0.0] * case.hidden
    out = {"h": []}
    for x in xs:
        h = rnn_cell(P["A"], P["b"], x, h)
        out["h"].append(h)
    return out


def run_self_attention_rnn(case, P, xs):
    score = ALIGNS[case.align][0]
    c = [0.0] * case.hidden
    memory = []
    out = {"h": [], "c": [], "alpha": []}
    for x in xs:
        h = rnn_cell(P["A"], P["b"], x, c)
        memory.append(h)
        if case.window and len(memory) > case.capacity:
            memory.pop(0)
        alpha = softmax([score(hj, h, P.get("align")) for hj in memory])
        c = [sum(a * hj[k] for a, hj in zip(alpha, memory)) for k in range(case.hidden)]
        out["h"].append(h)
        out["c"].append(c)
        # one weight per state in memory; rows are padded to Capacity with zeros.
        out["alpha"].append(alpha + [0.0] * (case.capacity - len(alpha)))
    return out


def run_lstmn(case, P, xs):
    H = case.hidden
    htape, ctape = [], []
    h_tilde = [0.0] * H
    out = {"h": [], "c": [], "alpha": []}
    for x in xs:
        s = []
        if htape:
            q = [a + b for a, b in zip(matvec(P["W_x"], x), matvec(P["W_ht"], h_tilde))]
            a = [dot(P["v"], [math.tanh(p + qq) for p, qq in zip(matvec(P["W_h"], hj), q)]) for hj in htape]
            s = softmax(a)
            h_tilde = [sum(w * hj[k] for w, hj in zip(s, htape)) for k in range(H)]
            c_tilde = [sum(w * cj[k] for w, cj in zip(s, ctape)) for k in range(H)]
        else:
            h_tilde, c_tilde = [0.0] * H, [0.0] * H
        z = [a + b + bb for a, b, bb in zip(matvec(P["W_ih"], x), matvec(P["W_hh"], h_tilde), P["b"])]
        i = [sigmoid(v) for v in z[0:H]]
        f = [sigmoid(v) for v in z[H:2 * H]]
        g = [math.tanh(v) for v in z[2 * H:3 * H]]
        o = [sigmoid(v) for v in z[3 * H:4 * H]]
        c = [f[k] * c_tilde[k] + i[k] * g[k] for k in range(H)]
        h = [o[k] * math.tanh(c[k]) for k in range(H)]
        htape.append(h)
        ctape.append(c)
        if case.window and len(htape) > case.capacity:
            htape.pop(0)
            ctape.pop(0)
        out["h"].append(h)
        out["c"].append(c)
        out["alpha"].append(s + [0.0] * (case.capacity - len(s)))
    return out


def run_lstm(case, P, xs):
    H = case.hidden
    h, c = [0.0] * H, [0.0] * H
    out = {"h": [], "c": []}
    for x in xs:
        z = [a + b + bb for a, b, bb in zip(matvec(P["W_ih"], x), matvec(P["W_hh"], h), P["b"])]
        i = [sigmoid(v) for v in z[0:H]]
        f = [sigmoid(v) for v in z[H:2 * H]]
        g = [math.tanh(v) for v in z[2 * H:3 * H]]
        o = [sigmoid(v) for v in z[3 * H:4 * H]]
        c = [f[k] * c[k] + i[k] * g[k] for k in range(H)]
        h = [o[k] * math.tanh(c[k]) for k in range(H)]
        out["h"].append(h)
        out["c"].append(c)
    return out


def rnn_params(rng, c):
    return {"A": rng.matrix(c.hidden, c.In + c.hidden, c.weight_bound),
            "b": [rng.uniform(c.weight_bound) for _ in range(c.hidden)]}


def lstmn_params(rng, c):
    H, bx, bh = c.hidden, 1.0 / math.sqrt(c.In + c.hidden), 1.0 / math.sqrt(c.hidden)
    return {"W_ih": rng.matrix(4 * H, c.In, c.weight_bound), "W_hh": rng.matrix(4 * H, H, c.weight_bound),
            "b": [rng.uniform(c.weight_bound) for _ in range(4 * H)], "W_h": rng.matrix(c.K, H, bh),
            "W_x": rng.matrix(c.K, c.In, bx), "W_ht": rng.matrix(c.K, H, bh),
            "v": [rng.uniform(1.0 / math.sqrt(c.K)) for _ in range(c.K)]}


def lstm_params(rng, c):
    H = c.hidden
    return {"W_ih": rng.matrix(4 * H, c.In, c.weight_bound), "W_hh": rng.matrix(4 * H, H, c.weight_bound),
            "b": [rng.uniform(c.weight_bound) for _ in range(4 * H)]}


# kind: (reference, C++ runner template in main.cpp, params maker, C++ params type, params field order)
MODELS = {
    "simple_rnn": (run_simple_rnn, "run_simple_rnn", rnn_params, "sarnn::RnnParams<T, In, Hidden>", ("A", "b")),
    "self_attention_rnn": (run_self_attention_rnn, "run_self_attention_rnn", rnn_params,
                           "sarnn::RnnParams<T, In, Hidden>", ("A", "b")),
    "lstmn": (run_lstmn, "run_lstmn", lstmn_params, "sarnn::LstmnParams<T, In, Hidden, K>",
              ("W_ih", "W_hh", "b", "W_h", "W_x", "W_ht", "v")),
    "lstm": (run_lstm, "run_lstm", lstm_params, "sarnn::LstmParams<T, In, Hidden>", ("W_ih", "W_hh", "b")),
}
# params fields of each align with params, in the order of its C++ aggregate
ALIGN_FIELDS = {"bilinear": ("W",), "key_query": ("Wk", "Wq"), "additive": ("W", "v")}


class Case:
    def __init__(self, name, kind, T, In, hidden, steps, seed, weight_bound=None, capacity=0, align=None, K=0,
                 window=False, input_bound=1.0):
        self.name, self.kind, self.T = name, kind, T
        self.In, self.hidden, self.capacity, self.align, self.K = In, hidden, capacity, align, K
        self.window, self.steps, self.seed, self.input_bound = window, steps, seed, input_bound
        # default: the usual uniform ±1/sqrt(fan-in) initialisation
        self.weight_bound = weight_bound if weight_bound is not None else 1.0 / math.sqrt(In + hidden)


# The cases the firmware runs. Bounded memory: steps == Capacity, so the memory ends full and the firmware
# also checks that one more step is refused. Window: more steps than Capacity, so the ring wraps.
# attention_reference is the footprint's reference model (In 16, Hidden 32, Capacity 64).
CASES = [
    Case("simple_rnn", "simple_rnn", "float", In=3, hidden=8, steps=10, seed=1),
    Case("attention_dot", "self_attention_rnn", "float", In=3, hidden=8, capacity=12, steps=12, seed=2,
         align="dot"),
    # larger weights: saturated states, peaked softmax
    Case("attention_scaled_dot", "self_attention_rnn", "float", In=4, hidden=16, capacity=20, steps=20, seed=3,
         align="scaled_dot", weight_bound=1.5),
    Case("attention_dot_double", "self_attention_rnn", "double", In=3, hidden=8, capacity=10, steps=10, seed=4,
         align="dot"),
    Case("attention_bilinear", "self_attention_rnn", "float", In=3, hidden=8, capacity=10, steps=10, seed=6,
         align="bilinear"),
    Case("attention_key_query", "self_attention_rnn", "float", In=3, hidden=8, capacity=10, steps=10, seed=7,
         align="key_query", K=4),
    Case("attention_additive", "self_attention_rnn", "float", In=3, hidden=8, capacity=10, steps=10, seed=8,
         align="additive", K=6),
    Case("attention_dot_window", "self_attention_rnn", "float", In=3, hidden=8, capacity=5, steps=14, seed=9,
         align="dot", window=True),
    Case("lstmn", "lstmn", "float", In=3, hidden=8, capacity=10, steps=10, seed=10, K=5),
    Case("lstmn_window", "lstmn", "float", In=3, hidden=8, capacity=4, steps=12, seed=11, K=5, window=True),
    Case("lstmn_double", "lstmn", "double", In=3, hidden=6, capacity=8, steps=8, seed=12, K=4),
    # the LSTM; larger weights: saturated gates, a cell that integrates
    Case("lstm", "lstm", "float", In=3, hidden=8, steps=16, seed=14),
    Case("lstm_large", "lstm", "float", In=5, hidden=7, steps=12, seed=15, weight_bound=1.5, input_bound=2.0),
    Case("lstm_double", "lstm", "double", In=3, hidden=6, steps=10, seed=16),
    Case("lstm_reference", "lstm", "float", In=16, hidden=32, steps=24, seed=17),
    Case("attention_reference", "self_attention_rnn", "float", In=16, hidden=32, capacity=64, steps=64, seed=5,
         align="dot"),
    # [x; h] of 70 values (past the 64 the Helium set joins on its stack) and a Hidden that is not a multiple of 4
    Case("attention_wide", "self_attention_rnn", "float", In=40, hidden=30, capacity=8, steps=8, seed=13,
         align="dot"),
]

# Absolute tolerances, library vs this reference: those of the Catch2 suite (tests/reference.hpp).
TOL = {"float": 1e-5, "double": 1e-12}

# ---- C++ output ---------------------------------------------------------------------------------------------


def literal(v, T):
    text = ("%.9g" if T == "float" else "%.17g") % v
    if not any(ch in text for ch in ".en"):
        text += ".0"  # 1 -> 1.0: "1f" is not a C++ literal
    return text + ("f" if T == "float" else "")


def exact(v, T):
    # v is a multiple of 2^-12 below 2^12: repr() is exact, and so is the float parse of it
    s = repr(float(v))
    return s + ("f" if T == "float" else "")


def nested(values, fmt, indent):
    if values and isinstance(values[0], list):
        inner = (",\n" + " " * (indent + 1)).join(nested(v, fmt, indent + 1) for v in values)
        return "{" + inner + "}"
    return "{" + ", ".join(fmt(v) for v in values) + "}"


def emit_case(case):
    rng = Rng(case.seed)
    reference, runner, make_params, params_type, fields = MODELS[case.kind]
    P = make_params(rng, case)
    align_type, align_params_type = None, None
    if case.align:
        _, align_type, align_params_type, make_align = ALIGNS[case.align]
        if make_align:
            P["align"] = make_align(rng, case)
    xs = rng.matrix(case.steps, case.In, case.input_bound)
    out = reference(case, P, xs)
    T = case.T
    ex = lambda v: exact(v, T)
    lit = lambda v: literal(v, T)
    lines = [f"struct {case.name} {{",
             f"    static constexpr const char* name = \"{case.name}\";",
             f"    using T = {T};",
             f"    static constexpr std::size_t In = {case.In};",
             f"    static constexpr std::size_t Hidden = {case.hidden};",
             f"    static constexpr std::size_t Capacity = {case.capacity};",
             f"    static constexpr std::size_t K = {case.K};",
             f"    static constexpr std::size_t Steps = {case.steps};",
             f"    static constexpr bool window = {'true' if case.window else 'false'};",
             f"    using Memory = {'sarnn::Window' if case.window else 'sarnn::Bounded'};",
             f"    static constexpr double tol = {TOL[T]!r};"]
    if align_type:
        lines.append(f"    using Align = {align_type};")
    lines.append(f"    static constexpr bool has_align_params = {'true' if align_params_type else 'false'};")
    body = ",\n        ".join(nested(P[f], ex, 8) for f in fields)
    lines.append(f"    static constexpr {params_type} params{{\n        {body}}};")
    if align_params_type:
        ap = P["align"]
        body = ",\n        ".join(nested(ap[f], ex, 8) for f in ALIGN_FIELDS[case.align])
        lines.append(f"    static constexpr {align_params_type} align_params{{\n        {body}}};")
    lines.append(f"    static constexpr T x[Steps][In] = {nested(xs, ex, 8)};")
    for key, rows in out.items():
        width = len(rows[0])
        lines.append(f"    static constexpr T {key}[Steps][{width}] = {nested(rows, lit, 8)};")
    lines.append("};")
    return "\n".join(lines), runner


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    body, runs = [], []
    for case in CASES:
        text, runner = emit_case(case)
        body.append(text)
        runs.append(f"    X({case.name}, {runner})")
    nl = "\n"
    cases_macro = " \\\n".join(runs)
    header = (
        "// Generated by tests/firmware/gen_expected.py at build time. Do not edit.\n"
        "// Expected outputs of a plain double-precision reference (Python math) for the firmware's cases.\n"
        "#ifndef SARNN_FIRMWARE_EXPECTED_HPP\n#define SARNN_FIRMWARE_EXPECTED_HPP\n\n"
        "#include <cstddef>\n\n#include <sarnn/sarnn.hpp>\n\nnamespace expected {\n\n"
        + (nl + nl).join(body)
        + "\n\n}  // namespace expected\n\n"
        "// X(case, runner) for every case: main.cpp runs runner<expected::case>().\n"
        "#define SARNN_FIRMWARE_CASES(X) \\\n" + cases_macro + "\n\n#endif\n")
    with open(args.out, "w") as f:
        f.write(header)
    return 0


if __name__ == "__main__":
    sys.exit(main())
