"""sarnn.quantize: a float model and calibration inputs -> the q15 model `python3 -m sarnn.export --quantize int8`
writes, with its golden run and the error bound measured over the calibration run.

What it takes (issues 17 and 18): the SimpleRnn, the SelfAttentionRnn with the dot, scaled_dot, bilinear,
key_query or additive align and the LSTMN, each under a Bounded or a Window memory, and (issue 33) the GRU, the
LSTM and the SelfAttentionRnn with the GRU cell (SelfAttentionRnn<..., GruCell>, any of those aligns and memories),
from float weights (a q15 model is made from the float weights: --dtype double is refused).

The weights: sarnn.q15.quantize_rnn (A per row to int8 at the scale max|A_r| / 127, b to Q3.12, the requantisation
multipliers and shifts). The align's (quantize_bilinear, quantize_key_query, quantize_additive; the rules of
tests/test_q15_models.cpp): every row of W, Wk, Wq to int8 at the scale max|row| / 127 (halves away from zero), and
each intermediate vector kept with g bits of headroom, g the least in its range with bound < 2^g, the bound from the
float rows' L1 sums (|h| <= 1), so that nothing saturates (the kept precision is 15 - g bits):
    bilinear   q = W h:            g from max_r Σ_k |W[r][k]|                                      (0 .. 8)
    key_query  cache: P = Wk h     g_k from max_k Σ_r |Wk[k][r]|                                   (0 .. 4)
                      u = Wq h     g_u from max_k Σ_r |Wq[k][r]|                                   (0 .. 4)
               fold:  u' = wk·Wq h g_f from max_k wk_k·Σ_r |Wq[k][r]|, wk_k Wk's row scale       (-15 .. 8)
                      q = Wkᵀ u'   g from max_r Σ_k |Wk[k][r]|·Σ_s |Wq[k][s]|                      (0 .. 8)
KeyQueryParams<q15> holds both forms' constants; the header's model type is KeyQueryAlign<K> whose default plan
(by_size) caches the keys when 4·K <= Hidden and folds otherwise, and the golden run and the bounds are that form's
(another plan computes other integers: its self_check() would fail).
The additive align (AdditiveParams<q15>): row k of W (both halves) to int8 at w_k = max|W_k| / 127, its keys
P = W[:, :Hidden] h_j and queries q = W[:, Hidden:] h_i in Q3.12 (factor w_k / 8; tanh's input, flat beyond +-8);
v to int8 at one scale s_v = max|v| / 127, and the scores e_j = v·tanh(P_j + q) in Q(f), f the finest format in
-2 .. 15 that holds Σ_k |v_q,k|·s_v (the scores' bound: nothing saturates), factor s_v·2^f / 32768. A key or query
can pass +-8 only where a half's row L1 sum does (max_k Σ_r |W[k][r]| > 8 over either half): a note says so.

The LSTMN (LstmnParams<q15>, quantize_lstmn; the rules of tests/test_q15_models.cpp's QuantisedLstmn): gate row r
of [W_ih | W_hh] to int8 at a_r = max|row| / 127 (one scale over both parts), M = a_r / 8 (the gates in Q3.12); b
in Q3.12, round(b·4096) halves away from zero; attention row k of [W_h | W_x | W_ht] to int8 at w_k = max|row| / 127,
M = w_k / 8 (keys and queries in Q3.12); v and the scores' format f as the additive align's (quantize_scores). The
cell c is kept in Q3.12 and saturates at +-8 (Lstmn<q15> counts it in saturated()): a note says when the
calibration run saturated it.

The LSTM (LstmParams<q15>, quantize_lstm) is exactly the LSTMN's gate part (quantize_gates and b in Q3.12); its
cell too is kept in Q3.12, saturates at +-8 (Lstm<q15>::saturated() counts the clamped lanes) and is noted as the
LSTMN's. The GRU (GruParams<q15>, quantize_gru): gate row r of [W_ih | W_hh] as the LSTM's (one scale a_r over both
parts, M = a_r / 8: the pre-activations gi = W_ih x + b_ih and gh = W_hh h + b_hh in Q3.12, flat beyond +-8), b_ih
and b_hh each in Q3.12; h in Q15 (it stays between n and h_{i-1}, within +-1). The GRU cell under attention
(SelfAttentionRnn<q15, ..., GruCell>) takes exactly the GRU's GruParams<q15> (its recurrent input is the context
c_{i-1}, in Q15 and within +-1 as h is) and the align's params as the Elman cell's; its c is the context (Q15).
The GRU's and the LSTM's gate rows (not the LSTMN's, nor the GRU cell's under attention) are then fitted to the
calibration (sarnn.rounding; quantize_gru / quantize_lstm with calibration = (x, h_float)): the same layout and
ranges of integers (int8 rows, M = a_r / 8, b in Q3.12), each row's int8 values and scale chosen for the least
variance of its pre-activation's error over the float model's calibration inputs [x_t; h_{t-1}], and the mean of
that error moved into the bias (b, b_ih). Without a calibration the two functions keep the plain rule above.

The input scale x_scale (the real value of one raw input unit) is set by the calibration inputs x (a tensor
[sequences, steps, In], rounded to float first, as the header's float helper takes them):
    x_scale = 2^e, the least power of two with max|x| <= 32768·x_scale;
    raw = round(x / x_scale), halves away from zero, saturated to [-32768, 32767].
A power of two because then x / x_scale is exact in float and in double: the header's host helper
(quantize_input) and this module give the same raw values for the same float x, and the input's requantisation
factor x_scale·32768 is exact too (multiplier 2^30). It costs at most one bit of the input's 15 (x_scale is at most
twice max|x| / 32768), far below what the int8 weights round (7 bits). Only the largest values can saturate, by
at most one raw unit (max|x| = 32768·x_scale exactly, e.g. a one-hot 1.0 with x_scale 2^-15, becomes 32767).

The bound: every calibration sequence runs from reset() through the Python twin (sarnn.q15, bit-exact with the
C++) on the raw inputs, and through the float model (PyTorch, float64, on the exported float weights and the float
inputs). h_bound = max |h_q - h_float| over every step, lane and sequence, c_bound the same for c (the context of
a SelfAttentionRnn, the cell of an LSTMN); measured in units of 2^-31 (both sides as integers in those units: h_q
and a context c_q are Q15, raw·2^16 exactly; the LSTMN's cell c_q is Q3.12, raw·2^19 exactly, and its float
reference is not limited to +-1, so it is kept in int64), so that the header's check is integers only. The
golden run is the first golden_steps steps of the first calibration sequence: C++ reproduces the twin's integers
exactly, so its error is one of those the bound covers, and self_check() can demand error <= bound with no margin.
"""
import math
import os
from dataclasses import dataclass

import numpy as np
import torch

from sarnn import files, layout, q15, rounding
from sarnn.errors import ExportError
from sarnn.q15 import quantize_multiplier
from sarnn.store import from_config

FORMATS = ("int8",)   # --quantize int8 is --dtype q15
CELL_KINDS = ("lstmn", "lstm")   # the models whose second output is a cell in Q3.12
ALIGNS = layout.aligns_q15()   # the aligns the q15 path takes (the registry's q15 entries; kept for importers)


def limit():
    """What --dtype q15 (--quantize int8) takes, for messages."""
    return ("--dtype q15 takes the SimpleRnn, the SelfAttentionRnn with the "
            f"{layout.names_text(layout.aligns_q15())} align (the Elman or the GRU cell) and the LSTMN (Bounded or "
            "Window memory), the GRU and the LSTM, from float weights")


LIMIT = limit()
Q31 = float(1 << 31)


@dataclass
class QSpec:
    """A quantised model ready to be written: the float Spec it came from (config, capacity, golden_steps, source),
    the q15 params (a sarnn.q15 params dict), align_params (the bilinear, key/query or additive align's, as
    sarnn.q15 takes them; None for the others and the LSTMN, whose params hold everything), the bounds (int, units
    of 2^-31; c_bound None for the SimpleRnn), the calibration's shape, the golden run (int64 arrays): golden_x
    (steps, In) raw inputs, golden_h / golden_c (steps, Hidden) the twin's outputs (Q15; the LSTMN's cell in Q3.12),
    golden_h_ref / golden_c_ref the float model's, in units of 2^-31; and align_notes, what the quantisation could
    not promise (additive_notes, lstmn_notes), after the Spec's notes in notes."""

    spec: object
    params: dict
    align_params: object
    h_bound: int
    c_bound: object
    calibration_shape: tuple
    golden_x: np.ndarray
    golden_h: np.ndarray
    golden_c: object
    golden_h_ref: np.ndarray
    golden_c_ref: object
    align_notes: tuple = ()

    @property
    def notes(self):
        """The float Spec's notes, then the quantisation's (align_notes)."""
        return tuple(self.spec.notes) + tuple(self.align_notes)

    def summary(self):
        """One line: the input scale and the bounds, for the command line."""
        n, t, _ = self.calibration_shape
        text = (f"q15: x_scale 2^{math.frexp(self.params['x_scale'])[1] - 1}{self.align_summary()}; over the "
                f"calibration ({n} sequences of {t} steps) max |h_q - h_float| = {self.h_bound / Q31:.3e}")
        return text + ("" if self.c_bound is None else f", max |c_q - c_float| = {self.c_bound / Q31:.3e}")

    def align_summary(self):
        """The align's headrooms (and the key/query form), for summary(): "" for the aligns without params."""
        ap = self.align_params
        if self.spec.config["kind"] == "lstmn":
            return f", scores f {self.params['f']}"
        if ap is None:
            return ""
        if "v" in ap:
            return f", additive f {ap['f']}"
        if "W" in ap:
            return f", bilinear g {ap['g']}"
        form = "cache" if q15.caches_keys(ap, self.spec.config["hidden"]) else "fold"
        return f", key_query {form} form (g_k {ap['g_k']}, g_u {ap['g_u']}, g {ap['g']})"

    def model_type(self):
        c = self.spec.config
        return layout.model_type(c["kind"], c["in_size"], c["hidden"], "sarnn::q15", self.spec.capacity, c["align"],
                                 c["k"], c["window"], c.get("cell", "elman"))


def check_options(quantize, calibration, dtype, tolerance, golden_seed):
    """Refuses what --quantize does not take, before anything is loaded."""
    if quantize is None:
        if calibration is not None:
            raise ExportError("--calibration is for --quantize int8, that is --dtype q15 (the float export needs no "
                              "calibration)")
        return
    if quantize not in FORMATS:
        raise ExportError(f"unknown --quantize {quantize!r} (expected {', '.join(FORMATS)})")
    if calibration is None:
        raise ExportError("--dtype q15 (--quantize int8) needs --calibration INPUTS.pt (a tensor [sequences, steps, In] of typical "
                          "inputs: it sets the input scale and the recorded error bound)")
    if dtype not in (None, "float"):
        raise ExportError(f"--dtype {dtype} does not apply to --quantize: {limit()}")
    if tolerance is not None:
        raise ExportError("--tolerance does not apply to --quantize: the header's bound is measured over the "
                          "calibration run")
    if golden_seed is not None:
        raise ExportError("--golden-seed does not apply to --quantize: the golden inputs are the calibration's")


def check_model(config):
    """Refuses a model the q15 path does not run (limit())."""
    if config["kind"] == "self_attention" and config["align"] not in layout.aligns_q15():
        raise ExportError(f"the {config['align']} align has no q15 model yet: {limit()}")


# The C++ q15 models' static_asserts (include/sarnn/params.hpp: int32 headroom of the sums; self_attention_rnn.hpp
# and lstmn.hpp: a q15 attention weight of 1/Capacity must stay above zero).
Q15_MAX_IN, Q15_MAX_HIDDEN, Q15_MAX_K, Q15_MAX_CAPACITY = 511, 256, 256, 32767
# Calibration values the exporter reads (sequences * steps * In), checked before they are converted.
MAX_CALIBRATION_VALUES = 1 << 24


def check_q15_sizes(spec):
    """Refuses the sizes the C++ q15 models do not compile: In > 511, Hidden > 256, K > 256, Capacity > 32767."""
    c = spec.config
    for label, value, most in (("In", c["in_size"], Q15_MAX_IN), ("Hidden", c["hidden"], Q15_MAX_HIDDEN),
                               ("K", c["k"], Q15_MAX_K), ("Capacity", spec.capacity, Q15_MAX_CAPACITY)):
        if value is not None and value > most:
            raise ExportError(f"{label} = {value}: q15 models take at most {most} (the C++ static_assert of "
                              "include/sarnn; export it as float or double)")


def load_calibration(source, in_size, trust_pickled_code=False):
    """The calibration inputs as a float32 ndarray (sequences, steps, In) from a tensor, an array or the path of a
    torch.save'd tensor (read as plain data: sarnn.files). Raises ExportError for anything else, a wrong In, no
    values or a non-finite value."""
    name = "the calibration"
    if isinstance(source, (str, os.PathLike)):
        name = os.path.basename(os.fspath(source))
        source = files.load(source, "the calibration", trust_pickled_code)
    if not (torch.is_tensor(source) or isinstance(source, np.ndarray)):
        raise ExportError(f"{name} must hold a tensor [sequences, steps, In], not a {type(source).__name__}")
    floating = source.is_floating_point() if torch.is_tensor(source) else np.issubdtype(source.dtype, np.floating)
    if not floating:
        raise ExportError(f"{name} has dtype {source.dtype}: calibration inputs must be real floating point "
                          "(float32 or float64; not complex, bool or integer)")
    shape = tuple(source.shape)
    if len(shape) != 3 or shape[2] != in_size or shape[0] < 1 or shape[1] < 1:
        raise ExportError(f"{name} has shape {shape}, expected [sequences, steps, {in_size}] "
                          "(In of the model, at least one sequence of one step)")
    if math.prod(shape) > MAX_CALIBRATION_VALUES:
        raise ExportError(f"{name} has shape {shape}: {math.prod(shape)} values, more than the exporter takes "
                          f"({MAX_CALIBRATION_VALUES})")
    if torch.is_tensor(source):
        source = source.detach().cpu().to(torch.float64).numpy()
    wide = source.astype(np.float64)
    bad = np.flatnonzero(~np.isfinite(wide))
    if bad.size:
        raise ExportError(f"{name}{list(np.unravel_index(bad[0], wide.shape))} is {wide.flat[bad[0]]}: calibration "
                          "inputs must be finite")
    with np.errstate(over="ignore"):
        x = wide.astype(np.float32)
    big = np.flatnonzero(~np.isfinite(x))
    if big.size:
        raise ExportError(f"{name}{list(np.unravel_index(big[0], wide.shape))} is {wide.flat[big[0]]:g}: value out of "
                          "float range (calibration inputs are rounded to float)")
    return x


def input_scale(x):
    """x_scale = 2^e, the least power of two with max|x| <= 32768·x_scale (see the module docstring)."""
    big = float(np.max(np.abs(x)))
    if big == 0.0:
        raise ExportError("the calibration inputs are all 0: they cannot set the input scale")
    mant, exp = math.frexp(big / 32768.0)   # big / 32768 = mant·2^exp, mant in [0.5, 1)
    e = exp - 1 if mant == 0.5 else exp
    if not -47 <= e <= 15:                  # x_shift = -(e + 16) must lie in [-31, 31]
        raise ExportError(f"the calibration's max |x| = {big:g} needs an input scale 2^{e}, outside the q15 "
                          "params' range 2^-47 .. 2^15")
    return math.ldexp(1.0, e)


def quantize_inputs(x, x_scale):
    """raw = round(x / x_scale), halves away from zero, saturated to int16, as int64 (x float32, x_scale 2^e)."""
    v = np.asarray(x, dtype=np.float32).astype(np.float64) / x_scale   # exact: a power of two
    r = np.sign(v) * np.floor(np.abs(v) + 0.5)
    return np.clip(r, -32768, 32767).astype(np.int64)


def float_run(spec, x):
    """(h, c) of the float model (float64, the exported float weights) over x (sequences, steps, In), each
    sequence from reset(); c the context (SelfAttentionRnn), the cell (LSTMN, LSTM), None for the SimpleRnn and
    the GRU."""
    model = from_config(spec.config).double()
    model.load_state_dict({key: torch.from_numpy(a) for key, a in spec.arrays.items()})
    xt = torch.from_numpy(np.asarray(x, dtype=np.float64))
    with torch.no_grad():
        h = model(xt, emit="hidden").numpy()
        second = {"self_attention": "context", "lstmn": "cell", "lstm": "cell"}.get(spec.config["kind"])
        c = None if second is None else model(xt, emit=second).numpy()
    return h, c


def to_q31(v):
    """round(v·2^31) as int64, saturated to int32 (v in [-1, 1])."""
    return np.clip(np.floor(np.asarray(v, dtype=np.float64) * Q31 + 0.5), -Q31, Q31 - 1).astype(np.int64)


def to_q31_wide(v):
    """round(v·2^31) as int64, within +-2^62 (the LSTMN's float cell, not limited to +-1)."""
    return np.clip(np.floor(np.asarray(v, dtype=np.float64) * Q31 + 0.5), -2.0 ** 62, 2.0 ** 62).astype(np.int64)


def quantize_params(spec, x_scale, calibration=None):
    """The q15 params of spec's float weights for inputs of scale x_scale (sarnn.q15.quantize_rnn; quantize_lstmn,
    quantize_lstm, quantize_gru for the LSTMN, LSTM, GRU); refuses a row whose scale the int8 shift cannot express.
    calibration = (x, h), the calibration inputs and the float model's h over them: the GRU's and the LSTM's gate
    rows are fitted to them (sarnn.rounding); the other models' rules do not take it."""
    if spec.config["kind"] == "lstmn":
        return quantize_lstmn(spec.arrays, x_scale)
    if spec.config["kind"] == "lstm":
        return quantize_lstm(spec.arrays, x_scale, calibration)
    if spec.config["kind"] == "gru":
        return quantize_gru(spec.arrays, x_scale, calibration)
    if spec.config.get("cell") == "gru":
        return quantize_gru(spec.arrays, x_scale)   # the GRU cell under attention: the plain rule
    params = q15.quantize_rnn(spec.arrays["A"].tolist(), spec.arrays["b"].tolist(), x_scale)
    for r, sh in enumerate(params["shift"]):
        if not -31 <= sh <= 31:
            big = float(np.max(np.abs(spec.arrays["A"][r])))
            raise ExportError(f"row {r} of A (max |A| = {big:g}) needs a requantisation shift {sh}, outside "
                              "[-31, 31]")
    return params


def _int8_rows(W):
    """Each row of W (float64 (R, C)) to int8 at the scale max|row| / 127 (2^-20 for a row of zeros), halves away
    from zero: (the int8 rows as lists, the scales)."""
    W = np.asarray(W, dtype=np.float64)
    big = np.max(np.abs(W), axis=1)
    scale = np.where(big > 0, big / 127.0, 2.0 ** -20)
    v = W / scale[:, None]
    q = np.clip(np.sign(v) * np.floor(np.abs(v) + 0.5), -127, 127).astype(np.int64)
    return q.tolist(), scale.tolist()


def headroom(bound, least=0, most=8):
    """The least g in [least, most] with bound < 2^g (most when none is)."""
    g = least
    while g < most and math.ldexp(1.0, g) <= bound:
        g += 1
    return g


def _multiplier(factor, what):
    """quantize_multiplier(factor), refused when its shift falls outside the int8 params' [-31, 31]."""
    m, sh = quantize_multiplier(factor)
    if not -31 <= sh <= 31:
        raise ExportError(f"{what} needs a requantisation factor {factor:g} (shift {sh}), outside what shifts in "
                          "[-31, 31] express (2^-32 .. 2^31)")
    return m, sh


def quantize_bilinear(W):
    """BilinearParams<q15> (a dict W, m, shift, g) of the float W (Hidden, Hidden): q_r = requantize(W_q[r]·h,
    m[r], shift[r]) = (W h)_r in Q(15 - g), g from the rows' L1 sums (module docstring)."""
    Wq, scale = _int8_rows(W)
    g = headroom(float(np.max(np.sum(np.abs(W), axis=1))))
    p = {"W": Wq, "m": [], "shift": [], "g": g}
    for r, w_r in enumerate(scale):
        m, sh = _multiplier(math.ldexp(w_r, -g), f"row {r} of the bilinear W")
        p["m"].append(m)
        p["shift"].append(sh)
    return p


def quantize_key_query(Wk, Wq):
    """KeyQueryParams<q15> (a dict as sarnn.q15 takes it) of the float Wk, Wq (K, Hidden): both forms' constants,
    the headrooms from the rows' L1 sums (module docstring)."""
    Wk, Wq = np.asarray(Wk, dtype=np.float64), np.asarray(Wq, dtype=np.float64)
    Wk_q, sk = _int8_rows(Wk)
    Wq_q, sq = _int8_rows(Wq)
    l1k, l1q = np.sum(np.abs(Wk), axis=1), np.sum(np.abs(Wq), axis=1)
    g_k = headroom(float(np.max(l1k)), most=4)
    g_u = headroom(float(np.max(l1q)), most=4)
    g_f = headroom(float(np.max(np.asarray(sk) * l1q)), least=-15)   # |u'_k| = wk_k·|u_k|: small, keep its bits
    g = headroom(float(np.max(np.abs(Wk).T @ l1q)))                  # |q_r| <= Σ_k |Wk[k][r]|·|u_k|
    p = {"Wk": Wk_q, "Wq": Wq_q, "g_k": g_k, "g_u": g_u, "g": g}
    for name in ("m_k", "m_q", "m_f", "shift_k", "shift_q", "shift_f"):
        p[name] = []
    for k in range(len(sk)):
        for form, factor in (("k", math.ldexp(sk[k], -g_k)), ("q", math.ldexp(sq[k], -g_u)),
                             ("f", math.ldexp(sk[k] * sq[k], -g_f))):
            m, sh = _multiplier(factor, f"row {k} of the key/query W{'k' if form == 'k' else 'q'}")
            p["m_" + form].append(m)
            p["shift_" + form].append(sh)
    p["m_t"], p["shift_t"] = _multiplier(math.ldexp(1.0, g_f - g), "the folded query")
    return p


def scores_format(bound):
    """The finest Q(f), f in -2 .. 15, that holds the scores' bound: the greatest f with bound·2^f <= 32767."""
    f = 15
    while f > -2 and math.ldexp(bound, f) > 32767.0:
        f -= 1
    return f


def quantize_scores(v, what):
    """The scores' vector of the additive align and the LSTMN: (v_q, f, m_v, shift_v), v to int8 at one scale
    s_v = max|v| / 127, the scores in Q(f), f the finest format holding Σ_k |v_q,k|·s_v (module docstring)."""
    (v_q,), (s_v,) = _int8_rows([v])
    bound = 0.0
    for q in v_q:   # |e_j| <= Σ_k |v_k| (|tanh| <= 1), with v as the integers apply it
        bound += abs(q) * s_v
    f = scores_format(bound)
    # m_v·2^-(31 + shift_v) = s_v·2^f / 32768: Σ_k v_q,k·tanh_q15 to Q(f)
    m_v, shift_v = _multiplier(math.ldexp(s_v, f) / 32768.0, what)
    return v_q, f, m_v, shift_v


def _q312_rows(W, what):
    """Each row of W to int8 at the scale max|row| / 127 with the multiplier of scale / 8 (the row's int8 sums to
    Q3.12): (int8 rows, multipliers, shifts)."""
    W_q, w = _int8_rows(W)
    ms, shifts = [], []
    for k, w_k in enumerate(w):
        # m_k·2^-(31 + shift_k) = w_k / 8
        m, sh = _multiplier(w_k / 8.0, f"row {k} of {what}")
        ms.append(m)
        shifts.append(sh)
    return W_q, ms, shifts


def quantize_additive(W, v):
    """AdditiveParams<q15> (a dict m, m_v, W, v, shift, shift_v, f as sarnn.q15 takes it) of the float W
    (K, 2·Hidden) and v (K): keys and queries in Q3.12, the scores in Q(f) (module docstring)."""
    p = dict(zip(("W", "m", "shift"), _q312_rows(W, "the additive W")))
    p["v"], p["f"], p["m_v"], p["shift_v"] = quantize_scores(v, "the additive v")
    return p


def _q312_bias(b):
    """b in Q3.12: round(b·4096), halves away from zero, saturated to int32, as a list."""
    v = np.asarray(b, dtype=np.float64) * 4096.0
    return np.clip(np.sign(v) * np.floor(np.abs(v) + 0.5), -Q31, Q31 - 1).astype(np.int64).tolist()


def quantize_gates(W_ih, W_hh, x_scale):
    """The gate part of LstmnParams<q15>, LstmParams<q15> and GruParams<q15> (a dict x_scale, x_m, x_shift, W_ih,
    W_hh, m, shift) for inputs of scale x_scale: gate row r of [W_ih | W_hh] to int8 at a_r = max|row| / 127 (one
    scale over both parts), M = a_r / 8 (the gates in Q3.12), and the input's factor x_scale·32768."""
    W_ih, W_hh = np.asarray(W_ih, dtype=np.float64), np.asarray(W_hh, dtype=np.float64)
    n_in = W_ih.shape[1]
    p = {"x_scale": float(x_scale)}
    # x_m·2^-(31 + x_shift) = x_scale·32768: the input's sums to the recurrent part's units (as RnnParams<q15>)
    p["x_m"], p["x_shift"] = _multiplier(x_scale * 32768.0, "the input scale")
    gates, p["m"], p["shift"] = _q312_rows(np.concatenate([W_ih, W_hh], axis=1), "the gates' [W_ih | W_hh]")
    p["W_ih"], p["W_hh"] = [row[:n_in] for row in gates], [row[n_in:] for row in gates]
    return p


def _fitted_gates(rows, scales, n_in, x_scale):
    """The gate part (as quantize_gates') of int8 rows (R, In + Hidden) at the scales a_r fitted by sarnn.rounding."""
    p = {"x_scale": float(x_scale)}
    p["x_m"], p["x_shift"] = _multiplier(x_scale * 32768.0, "the input scale")
    p["m"], p["shift"] = [], []
    for k, a_k in enumerate(scales):
        # m_k·2^-(31 + shift_k) = a_k / 8: the row's int8 sums to Q3.12
        m, sh = _multiplier(float(a_k) / 8.0, f"row {k} of the gates' [W_ih | W_hh]")
        p["m"].append(m)
        p["shift"].append(sh)
    rows = np.asarray(rows, dtype=np.int64).tolist()
    p["W_ih"], p["W_hh"] = [row[:n_in] for row in rows], [row[n_in:] for row in rows]
    return p


def quantize_lstm(arrays, x_scale, calibration=None):
    """LstmParams<q15> (a dict as sarnn.q15.run_lstm takes it) of the LSTM's float arrays (W_ih, W_hh, b). Without
    calibration: exactly the gates of quantize_lstmn (quantize_gates, b in Q3.12). With calibration = (x, h), the
    calibration inputs (B, T, In) and the float model's h over them (B, T, Hidden): the gate rows fitted to them
    (sarnn.rounding: the same integers' layout, rows and scales chosen for the least error of z, its mean moved
    into b)."""
    if calibration is None:
        p = quantize_gates(arrays["W_ih"], arrays["W_hh"], x_scale)
        p["b"] = _q312_bias(arrays["b"])
        return p
    W_ih, W_hh = np.asarray(arrays["W_ih"], dtype=np.float64), np.asarray(arrays["W_hh"], dtype=np.float64)
    U = rounding.gate_inputs(*calibration)
    rows, scales, db = rounding.fit_lstm(np.concatenate([W_ih, W_hh], axis=1), U)
    p = _fitted_gates(rows, scales, W_ih.shape[1], x_scale)
    p["b"] = _q312_bias(np.asarray(arrays["b"], dtype=np.float64) + db)
    return p


def _sigmoid(v):
    return 1.0 / (1.0 + np.exp(-v))


def quantize_gru(arrays, x_scale, calibration=None):
    """GruParams<q15> (a dict as sarnn.q15.run_gru takes it) of the GRU's float arrays (W_ih, W_hh, b_ih, b_hh).
    Without calibration: the gates as quantize_gates (row r of [W_ih | W_hh] at one scale a_r, M = a_r / 8), b_ih
    and b_hh each in Q3.12. With calibration = (x, h) as quantize_lstm's: the gate rows fitted to them
    (sarnn.rounding; the candidate rows to [x; r·h_{t-1}], r the float reset gate), the mean errors moved into b_ih."""
    if calibration is None:
        p = quantize_gates(arrays["W_ih"], arrays["W_hh"], x_scale)
        p["b_ih"], p["b_hh"] = _q312_bias(arrays["b_ih"]), _q312_bias(arrays["b_hh"])
        return p
    a = {key: np.asarray(arrays[key], dtype=np.float64) for key in ("W_ih", "W_hh", "b_ih", "b_hh")}
    n_in, hidden = a["W_ih"].shape[1], a["W_hh"].shape[1]
    U = rounding.gate_inputs(*calibration)
    # the float reset gate at each calibration step: r = sigmoid(W_ir x + b_ir + W_hr h_{t-1} + b_hr)
    r = _sigmoid(U[:, :n_in] @ a["W_ih"][:hidden].T + a["b_ih"][:hidden] + U[:, n_in:] @ a["W_hh"][:hidden].T
                 + a["b_hh"][:hidden])
    rows, scales, db = rounding.fit_gru(np.concatenate([a["W_ih"], a["W_hh"]], axis=1), U, r)
    p = _fitted_gates(rows, scales, n_in, x_scale)
    p["b_ih"], p["b_hh"] = _q312_bias(a["b_ih"] + db), _q312_bias(a["b_hh"])
    return p


def quantize_lstmn(arrays, x_scale):
    """LstmnParams<q15> (a dict as sarnn.q15.run_lstmn takes it) of the LSTMN's float arrays (W_ih, W_hh, b, W_h,
    W_x, W_ht, v) for inputs of scale x_scale: gate rows over [W_ih | W_hh] and attention rows over [W_h | W_x |
    W_ht], each to int8 at max|row| / 127 with M = scale / 8 (Q3.12), b in Q3.12, v as quantize_scores (module
    docstring)."""
    a = {key: np.asarray(arrays[key], dtype=np.float64) for key in ("W_ih", "W_hh", "b", "W_h", "W_x", "W_ht", "v")}
    n_in, hidden = a["W_ih"].shape[1], a["W_hh"].shape[1]
    p = quantize_gates(a["W_ih"], a["W_hh"], x_scale)
    # b in Q3.12: round(b·4096), halves away from zero
    p["b"] = _q312_bias(a["b"])
    att, p["m_a"], p["shift_a"] = _q312_rows(np.concatenate([a["W_h"], a["W_x"], a["W_ht"]], axis=1),
                                             "the attention's [W_h | W_x | W_ht]")
    p["W_h"] = [row[:hidden] for row in att]
    p["W_x"] = [row[hidden:hidden + n_in] for row in att]
    p["W_ht"] = [row[hidden + n_in:] for row in att]
    p["v"], p["f"], p["m_v"], p["shift_v"] = quantize_scores(a["v"], "the LSTMN's v")
    return p


def lstmn_notes(saturated, sequences, model="LSTMN", cpp="Lstmn"):
    """A note when the calibration run saturated the Q3.12 cell of the LSTMN (or the LSTM: model, cpp) (saturated:
    clamped lanes per sequence)."""
    total = int(np.sum(saturated))
    if total == 0:
        return ()
    hit = int(np.count_nonzero(saturated))
    return (f"the {model}'s cell is kept in Q3.12 and saturates at +-8: over the calibration run {total} lanes of c "
            f"were clamped ({hit} of {sequences} sequences; {cpp}<q15>::saturated() counts them at run time; the "
            "bound over the calibration run shows what it costs)",)


def additive_notes(W, hidden):
    """What the additive align's Q3.12 keys and queries cannot hold: a note per half of W whose largest row L1 sum
    passes 8 (|P_k|, |q_k| <= Σ_r |W[k][r]| over the half, as |h| <= 1), else none."""
    W = np.asarray(W, dtype=np.float64)
    notes = []
    for name, half, what in (("keys", W[:, :hidden], "first"), ("queries", W[:, hidden:], "last")):
        l1 = np.sum(np.abs(half), axis=1)
        k = int(np.argmax(l1))
        if l1[k] > 8.0:
            notes.append(f"the additive align's {name} (W's {what} Hidden columns) are kept in Q3.12 and saturate at "
                         f"+-8: row {k} of that half has Σ|W| = {l1[k]:.3g}, so a state may reach past 8 (the "
                         "bound over the calibration run shows what it costs)")
    return tuple(notes)


def quantize_align(spec):
    """The align's q15 params of spec (bilinear, key_query, additive), None for the aligns without params."""
    align = spec.config.get("align")
    if align == "bilinear":
        return quantize_bilinear(spec.arrays["align.W"])
    if align == "key_query":
        return quantize_key_query(spec.arrays["align.Wk"], spec.arrays["align.Wq"])
    if align == "additive":
        return quantize_additive(spec.arrays["align.W"], spec.arrays["align.v"])
    return None


def twin_run(spec, params, raw, align_params=None):
    """(h, c) of the Python twin (sarnn.q15) of spec's model with these params (and align_params, for the
    bilinear, key_query and additive aligns: see quantize_align) over raw (B, T, In). Key/query: the form
    KeyQueryAlign<K>'s default plan takes (by_size), as the header's model type."""
    c = spec.config
    if c["kind"] == "simple":
        return q15.run(params, raw)
    if c["kind"] == "lstmn":
        return q15.run_lstmn(params, raw, spec.capacity, window=c["window"] is not None)[:2]
    if c["kind"] == "lstm":
        return q15.run_lstm(params, raw)[:2]
    if c["kind"] == "gru":
        return q15.run_gru(params, raw), None
    return q15.run(params, raw, c["align"], spec.capacity, window=c["window"] is not None,
                   align_params=align_params, cell=c.get("cell", "elman"))


def quantize(spec, calibration, trust_pickled_code=False):
    """The QSpec of spec (a float Spec from sarnn.spec.resolve) quantised with the calibration inputs (see
    load_calibration). Raises ExportError for a model the q15 path does not take, a bad calibration, or calibration
    sequences longer than a Bounded memory holds."""
    check_model(spec.config)
    check_q15_sizes(spec)
    x = load_calibration(calibration, spec.config["in_size"], trust_pickled_code)
    sequences, steps, _ = x.shape
    if spec.config["kind"] in ("self_attention", "lstmn") and spec.config["window"] is None and steps > spec.capacity:
        raise ExportError(f"the calibration sequences have {steps} steps, more than the Bounded memory's capacity "
                          f"{spec.capacity} holds: pass --capacity {steps} (or more), or shorter sequences")
    x_scale = input_scale(x)
    h_f, c_f = float_run(spec, x)
    params = quantize_params(spec, x_scale, (x, h_f))
    align_params = quantize_align(spec)
    raw = quantize_inputs(x, x_scale)
    h_q, c_q = twin_run(spec, params, raw, align_params)
    h_ref = to_q31(h_f)
    h_bound = int(np.max(np.abs(h_q * 65536 - h_ref)))
    c_ref = c_bound = None
    notes = ()
    if spec.config["kind"] in CELL_KINDS:
        # the cell: Q3.12 raw·2^19 in units of 2^-31 against the float cell, unbounded (int64)
        c_ref = to_q31_wide(c_f)
        c_bound = int(np.max(np.abs(c_q * (1 << 19) - c_ref)))
        if spec.config["kind"] == "lstmn":
            saturated = q15.run_lstmn(params, raw, spec.capacity, spec.config["window"] is not None)[2]
            notes = lstmn_notes(saturated, sequences)
        else:
            notes = lstmn_notes(q15.run_lstm(params, raw)[2], sequences, "LSTM", "Lstm")
    elif c_q is not None:
        c_ref = to_q31(c_f)
        c_bound = int(np.max(np.abs(c_q * 65536 - c_ref)))
    g = min(spec.golden_steps, steps)
    if spec.config.get("align") == "additive":
        notes = additive_notes(spec.arrays["align.W"], spec.config["hidden"])
    return QSpec(spec, params, align_params, h_bound, c_bound, (sequences, steps, spec.config["in_size"]),
                 raw[0, :g], h_q[0, :g], None if c_q is None else c_q[0, :g], h_ref[0, :g],
                 None if c_ref is None else c_ref[0, :g], notes)
