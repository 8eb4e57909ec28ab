"""sarnn.quantize: a float model and calibration inputs -> the q15 model `python3 -m sarnn.export --quantize int8`
writes, with its golden run and the error bound measured over the calibration run.

What it takes (issue 17's q15 path): the SimpleRnn, and the SelfAttentionRnn with the dot or scaled_dot align under
a Bounded or a Window memory, from float weights. Anything else is refused (ExportError): the other aligns and the
LSTMN come in a later issue, and a q15 model is made from the float weights (no --dtype double).

The weights: sarnn.q15.quantize_rnn (A per row to int8 at the scale max|A_r| / 127, b to Q3.12, the requantisation
multipliers and shifts).

The input scale x_scale (the real value of one raw input unit) is set by the calibration inputs x (a tensor
[sequences, steps, In], rounded to float first, as the header's float helper takes them):
    x_scale = 2^e, the least power of two with max|x| <= 32768·x_scale;
    raw = round(x / x_scale), halves away from zero, saturated to [-32768, 32767].
A power of two because then x / x_scale is exact in float and in double: the header's host helper
(quantize_input) and this module give the same raw values for the same float x, and the input's requantisation
factor x_scale·32768 is exact too (multiplier 2^30). It costs at most one bit of the input's 15 (x_scale is at most
twice max|x| / 32768), far below what the int8 weights round (7 bits). Only the largest values can saturate, by
at most one raw unit (max|x| = 32768·x_scale exactly, e.g. a one-hot 1.0 with x_scale 2^-15, becomes 32767).

The bound: every calibration sequence runs from reset() through the Python twin (sarnn.q15_batch, bit-exact with the
C++) on the raw inputs, and through the float model (PyTorch, float64, on the exported float weights and the float
inputs). h_bound = max |h_q - h_float| over every step, lane and sequence, c_bound the same for c; measured in units
of 2^-31 (both sides rounded to Q31 integers, h_q/32768 exactly), so that the header's check is integers only. The
golden run is the first golden_steps steps of the first calibration sequence: C++ reproduces the twin's integers
exactly, so its error is one of those the bound covers, and self_check() can demand error <= bound with no margin.
"""
import math
import os
from dataclasses import dataclass

import numpy as np
import torch

from sarnn import layout, q15, q15_batch
from sarnn.errors import ExportError
from sarnn.store import from_config

FORMATS = ("int8",)
LIMIT = ("--quantize int8 takes the SimpleRnn and the SelfAttentionRnn with the dot or scaled_dot align "
         "(Bounded or Window memory), from float weights (issue 17); the other aligns and the LSTMN come in a later "
         "issue")
Q31 = float(1 << 31)


@dataclass
class QSpec:
    """A quantised model ready to be written: the float Spec it came from (config, capacity, golden_steps, source),
    the q15 params (a sarnn.q15 params dict), the bounds (int, units of 2^-31; c_bound None for the SimpleRnn), the
    calibration's shape, and the golden run (int64 arrays): golden_x (steps, In) raw inputs, golden_h / golden_c
    (steps, Hidden) the twin's Q15 outputs, golden_h_ref / golden_c_ref the float model's, in Q31."""

    spec: object
    params: dict
    h_bound: int
    c_bound: object
    calibration_shape: tuple
    golden_x: np.ndarray
    golden_h: np.ndarray
    golden_c: object
    golden_h_ref: np.ndarray
    golden_c_ref: object

    @property
    def notes(self):
        return self.spec.notes

    def summary(self):
        """One line: the input scale and the bounds, for the command line."""
        n, t, _ = self.calibration_shape
        text = (f"q15: x_scale 2^{math.frexp(self.params['x_scale'])[1] - 1}; over the calibration ({n} sequences of "
                f"{t} steps) max |h_q - h_float| = {self.h_bound / Q31:.3e}")
        return text + ("" if self.c_bound is None else f", max |c_q - c_float| = {self.c_bound / Q31:.3e}")

    def model_type(self):
        c = self.spec.config
        return layout.model_type(c["kind"], c["in_size"], c["hidden"], "sarnn::q15", self.spec.capacity, c["align"],
                                 c["k"], c["window"])


def check_options(quantize, calibration, dtype, tolerance, golden_seed):
    """Refuses what --quantize does not take, before anything is loaded."""
    if quantize is None:
        if calibration is not None:
            raise ExportError("--calibration is for --quantize int8 (the float export needs no calibration)")
        return
    if quantize not in FORMATS:
        raise ExportError(f"unknown --quantize {quantize!r} (expected {', '.join(FORMATS)})")
    if calibration is None:
        raise ExportError("--quantize int8 needs --calibration INPUTS.pt (a tensor [sequences, steps, In] of typical "
                          "inputs: it sets the input scale and the recorded error bound)")
    if dtype not in (None, "float"):
        raise ExportError(f"--dtype {dtype} does not apply to --quantize: {LIMIT}")
    if tolerance is not None:
        raise ExportError("--tolerance does not apply to --quantize: the header's bound is measured over the "
                          "calibration run")
    if golden_seed is not None:
        raise ExportError("--golden-seed does not apply to --quantize: the golden inputs are the calibration's")


def check_model(config):
    """Refuses a model the q15 path does not run (LIMIT)."""
    if config["kind"] == "lstmn":
        raise ExportError(f"the LSTMN has no q15 model yet: {LIMIT}")
    if config["kind"] == "self_attention" and config["align"] not in ("dot", "scaled_dot"):
        raise ExportError(f"the {config['align']} align has no q15 model yet: {LIMIT}")


def load_calibration(source, in_size):
    """The calibration inputs as a float32 ndarray (sequences, steps, In) from a tensor, an array or the path of a
    torch.save'd tensor. Raises ExportError for anything else, a wrong In, no values or a non-finite value."""
    name = "the calibration"
    if isinstance(source, (str, os.PathLike)):
        name = os.path.basename(os.fspath(source))
        try:
            source = torch.load(source, map_location="cpu")
        except Exception as e:  # torch.load raises many types for a file it cannot read
            raise ExportError(f"cannot read the calibration {os.fspath(source)}: {type(e).__name__}: {e}") from e
    if torch.is_tensor(source):
        source = source.detach().cpu().to(torch.float64).numpy()
    if not isinstance(source, np.ndarray) or not np.issubdtype(source.dtype, np.number):
        raise ExportError(f"{name} must hold a tensor [sequences, steps, In], not a {type(source).__name__}")
    if source.ndim != 3 or source.shape[2] != in_size or source.shape[0] < 1 or source.shape[1] < 1:
        raise ExportError(f"{name} has shape {tuple(source.shape)}, expected [sequences, steps, {in_size}] "
                          "(In of the model, at least one sequence of one step)")
    x = source.astype(np.float32)
    bad = np.flatnonzero(~np.isfinite(x))
    if bad.size:
        raise ExportError(f"{name}{list(np.unravel_index(bad[0], x.shape))} is {x.flat[bad[0]]}: calibration inputs "
                          "must be finite")
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
    sequence from reset(); c None for the SimpleRnn."""
    model = from_config(spec.config).double()
    model.load_state_dict({key: torch.from_numpy(a) for key, a in spec.arrays.items()})
    xt = torch.from_numpy(np.asarray(x, dtype=np.float64))
    with torch.no_grad():
        h = model(xt, emit="hidden").numpy()
        c = model(xt, emit="context").numpy() if spec.config["kind"] == "self_attention" else None
    return h, c


def to_q31(v):
    """round(v·2^31) as int64, saturated to int32 (v in [-1, 1])."""
    return np.clip(np.floor(np.asarray(v, dtype=np.float64) * Q31 + 0.5), -Q31, Q31 - 1).astype(np.int64)


def quantize_params(spec, x_scale):
    """The q15 params of spec's float weights for inputs of scale x_scale (sarnn.q15.quantize_rnn); refuses a row
    whose scale the int8 shift cannot express."""
    params = q15.quantize_rnn(spec.arrays["A"].tolist(), spec.arrays["b"].tolist(), x_scale)
    for r, sh in enumerate(params["shift"]):
        if not -31 <= sh <= 31:
            big = float(np.max(np.abs(spec.arrays["A"][r])))
            raise ExportError(f"row {r} of A (max |A| = {big:g}) needs a requantisation shift {sh}, outside "
                              "[-31, 31]")
    return params


def twin_run(spec, params, raw):
    """(h, c) of the Python twin (sarnn.q15_batch) of spec's model with these params over raw (B, T, In)."""
    c = spec.config
    if c["kind"] == "simple":
        return q15_batch.run(params, raw)
    return q15_batch.run(params, raw, c["align"], spec.capacity, window=c["window"] is not None)


def quantize(spec, calibration):
    """The QSpec of spec (a float Spec from sarnn.spec.resolve) quantised with the calibration inputs (see
    load_calibration). Raises ExportError for a model the q15 path does not take, a bad calibration, or calibration
    sequences longer than a Bounded memory holds."""
    check_model(spec.config)
    x = load_calibration(calibration, spec.config["in_size"])
    sequences, steps, _ = x.shape
    if spec.config["kind"] == "self_attention" and spec.config["window"] is None and steps > spec.capacity:
        raise ExportError(f"the calibration sequences have {steps} steps, more than the Bounded memory's capacity "
                          f"{spec.capacity} holds: pass --capacity {steps} (or more), or shorter sequences")
    x_scale = input_scale(x)
    params = quantize_params(spec, x_scale)
    raw = quantize_inputs(x, x_scale)
    h_q, c_q = twin_run(spec, params, raw)
    h_f, c_f = float_run(spec, x)
    h_ref = to_q31(h_f)
    h_bound = int(np.max(np.abs(h_q * 65536 - h_ref)))
    c_ref = c_bound = None
    if c_q is not None:
        c_ref = to_q31(c_f)
        c_bound = int(np.max(np.abs(c_q * 65536 - c_ref)))
    g = min(spec.golden_steps, steps)
    return QSpec(spec, params, h_bound, c_bound, (sequences, steps, spec.config["in_size"]), raw[0, :g], h_q[0, :g],
                 None if c_q is None else c_q[0, :g], h_ref[0, :g], None if c_ref is None else c_ref[0, :g])
