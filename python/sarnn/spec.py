"""From an exporter input and its options to a checked Spec: what the C++ model is and every array's values.

An input is a sarnn module, a sarnn.save() dict, a plain state dict (of a sarnn module, or of a one-layer
torch.nn.RNN, GRU or LSTM or of their cells), any torch.nn.Module whose state dict is one of those, or the path of a
file torch.load() reads into one of those. A sarnn module or a saved dict carries its configuration; for a
plain state dict it is inferred from the key names and shapes, with the options settling what the keys do
not say (see resolve()). Everything that does not fit raises ExportError naming the key or option.

A torch recurrent layer given as a module says what it computes, and what sarnn does not compute is refused
by the check sarnn.from_rnn makes (sarnn.importers.rnn_problems): another nonlinearity than tanh, more than
one layer, bidirectional, an LSTM with proj_size. batch_first and dropout pass: they do not change a one-layer
step. A torch.nn.GRU or GRUCell becomes a sarnn::Gru, an LSTM or LSTMCell a sarnn::Lstm (sarnn.from_gru,
from_lstm). A SelfAttentionRNN(cell="gru") (config "cell": "gru") becomes a sarnn::SelfAttentionRnn<..., GruCell>
with GruParams; a plain state dict with the GRU's keys (W_ih, W_hh, b_ih, b_hh) is one when it has align keys or
--align / --window is given (else it is a sarnn::Gru). The state dict of a torch.nn.RNN or RNNCell does not record its nonlinearity: tanh is assumed, and
Spec.notes says so; the keys and shapes of every torch state dict still tell (and refuse) more layers, the
reverse direction and an LSTM's projection.
"""
import math
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import torch
from torch import nn

from sarnn import files, layout
from sarnn.errors import ExportError
from sarnn.importers import from_gru, from_lstm, from_rnn, layer_name, rnn_problems, torch_key_reason
from sarnn.modules import GRU, LSTM, LSTMN, SelfAttentionRNN, SimpleRNN
from sarnn.numeric import FLOATING, NUMERIC, numeric
from sarnn.store import KINDS, from_config

DEFAULT_CAPACITY = 128
MEMORY_KINDS = ("self_attention", "lstmn")   # the models with a memory (a capacity, a window)
PLAIN_KINDS = ("simple", "gru", "lstm")      # and those without: no align, window or capacity
CPP_NAMES = {"simple": "SimpleRnn", "gru": "Gru", "lstm": "Lstm"}
# Bounds on what an export may ask for, checked before anything is allocated (a small file can claim a huge model:
# a tensor expanded with stride 0 is saved as one value). A firmware model is far below them.
MAX_SIZE = 4096              # In, Hidden and K, each
MAX_WEIGHTS = 1 << 22        # the model's weights (every params array's values together)
MAX_CAPACITY = 1 << 20       # states a memory holds (Bounded capacity, Window width)
MAX_GOLDEN_STEPS = 10000     # steps of the golden run
MAX_GOLDEN_VALUES = 1 << 22  # golden_steps * (In + Hidden): the golden run's values in the header


@dataclass
class Spec:
    """A model ready to be written: config as returned by the modules' config(), the C++ capacity (None for
    SimpleRnn), the target dtype ("float" or "double"), arrays {state-dict key: float64 ndarray whose values
    are exactly representable in dtype}, the golden run's settings, a short name of the input, and notes:
    one-line messages about what was assumed rather than given (the command line prints them on stderr)."""

    config: dict
    capacity: int
    dtype: str
    arrays: dict
    golden_steps: int
    golden_seed: int
    tolerance: float
    source: str
    notes: tuple = ()

    def groups(self):
        c = self.config
        return layout.groups(c["kind"], c["in_size"], c["hidden"], c["align"], c["k"], c.get("cell", "elman"))

    def model_type(self):
        c = self.config
        return layout.model_type(c["kind"], c["in_size"], c["hidden"], self.dtype, self.capacity, c["align"], c["k"],
                                 c["window"], c.get("cell", "elman"))


def resolve(source, *, model=None, align=None, window=None, capacity=None, dtype="float", golden_steps=8,
            golden_seed=0, tolerance=None, trust_pickled_code=False):
    """The Spec of `source` (see the module docstring) under these options:

    model: "simple", "self_attention", "lstmn", "gru" or "lstm"; align: one of sarnn.aligns.ALIGNS (self-attention
    only);
    window: W for the sarnn::Window memory (None: sarnn::Bounded); capacity: the Bounded memory's length
    (default 128; for Window it is W); dtype: "float" or "double"; golden_steps: length of the golden run
    (at most the capacity for a Bounded memory); golden_seed: its generator seed; tolerance: the C++
    self-check's bound (default 1e-4 for float, 1e-10 for double); trust_pickled_code: read a file that holds
    pickled classes (a whole module), which runs code from it (sarnn.files: plain data only otherwise).

    For a plain state dict, model, align and window say what the keys cannot; for an input that carries its
    configuration, any of them that is given must agree with it. When a plain state dict gets neither window
    nor capacity, its memory is assumed to be Bounded with the default capacity, and Spec.notes says so (the
    keys cannot tell a Window, nor can the golden self-check, computed with the assumed memory). Raises
    ExportError.
    """
    _check_options(model, align, window, capacity, dtype, golden_steps, golden_seed, tolerance)
    obj, name = _load(source, trust_pickled_code)
    config, state = _unpack(obj, name)
    notes = []
    if config is None:
        rnn_keys = "weight_ih" in state or "weight_ih_l0" in state
        config, state = _infer(state, model, align, window)
        if rnn_keys and config["kind"] in ("simple", "self_attention") and not isinstance(obj, (nn.RNN, nn.RNNCell)):
            notes.append(f"assumed nonlinearity='tanh': the torch.nn.RNN/RNNCell weights in {name} do not record "
                         "it; torch.save the layer itself to have its settings checked (a whole layer is read with "
                         "--trust-pickled-code)")
        if config["kind"] in MEMORY_KINDS and window is None and capacity is None:
            notes.append(f"assumed a sarnn::Bounded memory of capacity {DEFAULT_CAPACITY}: {name} does not record "
                         "the memory policy; pass --window W if the model was trained with window=W, or --capacity "
                         "N to set the capacity")
    else:
        _agree(config, model=model, align=align, window=window)
    _check_sizes(config)
    capacity = _capacity(config, capacity)
    sizes = (config["kind"], config["in_size"], config["hidden"], config["align"], config["k"],
             config.get("cell", "elman"))
    fields = [(f.key, f.shape, g.owner) for g in layout.groups(*sizes) for f in g.fields]
    _check_state(state, fields, layout.describe(*sizes))
    arrays = {key: _rounded(key, state[key], dtype) for key, _, _ in fields}
    if config["kind"] in MEMORY_KINDS and config["window"] is None:
        golden_steps = min(golden_steps, capacity)
    values = golden_steps * (config["in_size"] + config["hidden"])
    if values > MAX_GOLDEN_VALUES:
        raise ExportError(f"golden_steps {golden_steps} with In + Hidden = {config['in_size'] + config['hidden']} "
                          f"makes {values} golden values, more than the exporter writes ({MAX_GOLDEN_VALUES})")
    return Spec(config, capacity, dtype, arrays, golden_steps, golden_seed,
                numeric(dtype).tolerance if tolerance is None else float(tolerance), name, tuple(notes))


def _is_count(n, least):
    return isinstance(n, (int, np.integer)) and not isinstance(n, bool) and n >= least


def _check_options(model, align, window, capacity, dtype, golden_steps, golden_seed, tolerance):
    if model is not None and model not in KINDS:
        raise ExportError(f"unknown model {model!r} (expected one of {', '.join(KINDS)})")
    if align is not None and align not in layout.aligns():
        raise ExportError(f"unknown align {align!r} (expected one of {', '.join(layout.aligns())})")
    if dtype not in NUMERIC:
        raise ExportError(f"unknown dtype {dtype!r} (expected one of {', '.join(FLOATING)})")
    if dtype not in FLOATING:
        raise ExportError(f"dtype {dtype!r} is fixed point: its model is quantised from float weights "
                          "(--quantize int8 with --calibration), not rounded from them")
    for option, value, least in (("window", window, 1), ("capacity", capacity, 1), ("golden_steps", golden_steps, 1),
                                 ("golden_seed", golden_seed, 0)):
        if value is not None and not _is_count(value, least):
            raise ExportError(f"{option} must be an integer >= {least}, got {value!r}")
    for option, value, most in (("window", window, MAX_CAPACITY), ("capacity", capacity, MAX_CAPACITY),
                                ("golden_steps", golden_steps, MAX_GOLDEN_STEPS)):
        if value is not None and value > most:
            raise ExportError(f"{option} {value} is more than the exporter takes ({most})")
    if tolerance is not None and not (isinstance(tolerance, (int, float)) and 0 < tolerance < math.inf):
        raise ExportError(f"tolerance must be a finite number > 0, got {tolerance!r}")
    if model in ("simple", "lstmn", "gru", "lstm") and align is not None:
        raise ExportError(f"model {model!r} takes no align (got align {align!r}); aligns are for self_attention")
    if model in PLAIN_KINDS and (window is not None or capacity is not None):
        raise ExportError(f"model {model!r} ({CPP_NAMES[model]}) has no memory: window and capacity do not apply")


def _load(source, trust_pickled_code):
    """(object, short name for the header) from a path (read by sarnn.files.load) or an object."""
    if isinstance(source, (str, os.PathLike)):
        return files.load(source, "the model", trust_pickled_code), os.path.basename(os.fspath(source))
    return source, f"a {type(source).__name__}"


def _unpack(obj, name):
    """(config or None, state dict) of a loaded object."""
    if isinstance(obj, (SimpleRNN, SelfAttentionRNN, LSTMN, GRU, LSTM)):
        return obj.config(), obj.state_dict()
    if isinstance(obj, (nn.RNNBase, nn.RNNCellBase)):
        problems = rnn_problems(obj)
        if problems:
            raise ExportError(f"sarnn does not compute this {layer_name(obj)}: " + "; ".join(problems))
    if isinstance(obj, nn.Module):
        return None, _state_dict(obj.state_dict(), name)
    if isinstance(obj, Mapping) and "sarnn_config" in obj:
        extra = sorted(str(key) for key in obj if key not in ("sarnn_config", "state_dict"))
        if extra:
            raise ExportError(f"unexpected key {extra[0]} in {name}: a sarnn.save() dict holds only sarnn_config and "
                              "state_dict")
        if "state_dict" not in obj:
            raise ExportError(f"missing key state_dict in {name} (a sarnn.save() dict holds sarnn_config and "
                              "state_dict)")
        saved = obj["sarnn_config"]
        if isinstance(saved, Mapping):   # before from_config allocates the module
            _check_sizes({key: saved.get(key) for key in ("kind", "in_size", "hidden", "align", "k", "window")})
        try:
            config = from_config(saved).config()
        except ValueError as e:
            raise ExportError(f"sarnn_config in {name}: {e}") from e
        return config, _state_dict(obj["state_dict"], name)
    if isinstance(obj, Mapping):
        return None, _state_dict(obj, name)
    raise ExportError(f"{name} is not a state dict or a module (it holds a {type(obj).__name__})")


def _state_dict(obj, name):
    if not isinstance(obj, Mapping):
        raise ExportError(f"{name} is not a state dict or a module (found a {type(obj).__name__})")
    if not obj:
        raise ExportError(f"{name} is an empty state dict")
    for key, value in obj.items():
        if not torch.is_tensor(value):
            raise ExportError(f"{name} is not a state dict: key {key!r} holds a {type(value).__name__}, not a tensor")
    return obj


def _check_sizes(config):
    """Refuses sizes past MAX_SIZE, MAX_CAPACITY (a window) and MAX_WEIGHTS, from a config's values alone (any that
    is not an integer is left to from_config)."""
    for key, label in (("in_size", "In"), ("hidden", "Hidden"), ("k", "K")):
        value = config.get(key)
        if _is_count(value, 0) and value > MAX_SIZE:
            raise ExportError(f"{label} = {value} is more than the exporter takes ({MAX_SIZE})")
    window = config.get("window")
    if _is_count(window, 0) and window > MAX_CAPACITY:
        raise ExportError(f"window {window} is more than the exporter takes ({MAX_CAPACITY})")
    try:
        fields = [f for g in layout.groups(config["kind"], config["in_size"], config["hidden"], config["align"],
                                           config["k"], config.get("cell", "elman")) for f in g.fields]
        weights = sum(math.prod(f.shape) for f in fields)
    except (KeyError, TypeError):
        return
    if weights > MAX_WEIGHTS:
        model = layout.describe(config["kind"], config["in_size"], config["hidden"], config["align"], config["k"],
                                config.get("cell", "elman"))
        raise ExportError(f"{model} has {weights} weights, more than the exporter takes ({MAX_WEIGHTS})")


def _agree(config, **options):
    for option, value in options.items():
        held = config["kind" if option == "model" else option]
        if value is not None and value != held:
            raise ExportError(f"option {option}={value!r} contradicts the model, which has {option}={held!r}"
                              + (" (unbounded memory; exported as Bounded with a capacity)" if option == "window"
                                 and held is None else ""))


def _size(state, key, axis, ndim, expected):
    """Extent `axis` of state[key], which must have `ndim` dimensions and a nonzero extent there."""
    if key not in state:
        raise ExportError(f"missing key {key}: expected a tensor of shape {expected}")
    shape = tuple(state[key].shape)
    if len(shape) != ndim or shape[axis] < 1:
        raise ExportError(f"{key} has shape {shape}, expected {expected} with every size at least 1")
    return shape[axis]


def _infer(state, model, align, window):
    """(config, state) of a plain state dict. Keys of a torch.nn.RNN/RNNCell become a SimpleRNN's A and b (or a
    SelfAttentionRNN's), those of a GRU/GRUCell a GRU's, those of an LSTM/LSTMCell an LSTM's."""
    if "weight_ih" in state or "weight_ih_l0" in state:
        state, layer = _import_torch_layer(state)
        held = {"RNN": ("simple", "self_attention"), "GRU": ("gru",), "LSTM": ("lstm",)}[layer]
        if model is not None and model not in held:
            hint = {"lstmn": " (sarnn.from_lstm_cell makes an LSTMN to train from an LSTMCell's gates)",
                    "self_attention": " (sarnn.from_gru puts a GRU's weights into a SelfAttentionRNN(cell='gru'), "
                                      "whose state dict the exporter takes)" if layer == "GRU" else ""}.get(model, "")
            raise ExportError(f"model {model!r} contradicts the keys, which are those of a torch.nn.{layer}/"
                              f"{layer}Cell{hint}")
        if layer == "RNN":
            model = model or ("self_attention" if align is not None or window is not None else "simple")
        else:
            model = held[0]
            if align is not None or window is not None:
                raise ExportError(f"the keys are those of a torch.nn.{layer}/{layer}Cell, which has no memory and no "
                                  "align: window and align do not apply")
    cell = "elman"
    if model in (None, "self_attention") and "W_ih" in state and ("b_ih" in state or "b_hh" in state) and (
            model == "self_attention" or align is not None or window is not None
            or any(key.startswith("align.") for key in state)):
        # the GRU's keys with an align (keys or option) or a window: the GRU cell under attention
        model, cell = "self_attention", "gru"
    if model is None and "W_ih" in state:
        # the GRU's b_ih / b_hh; the LSTMN's attention (W_h, W_x, W_ht, v); else the LSTM's W_ih, W_hh, b
        if "b_ih" in state or "b_hh" in state:
            model = "gru"
        else:
            model = "lstmn" if any(key in state for key in ("W_h", "W_x", "W_ht", "v")) else "lstm"
    align_keys = sorted(key for key in state if key.startswith("align."))
    if model is None:
        if "W_ih" in state:
            model = "lstmn"
        elif "A" in state:
            model = "self_attention" if align or align_keys or window is not None else None
            if model is None:
                raise ExportError("the state dict has A and b but no align keys: it is a SimpleRnn, or a "
                                  f"SelfAttentionRnn with the {_without_params('or')} align; pass "
                                  f"{_without_params('or', '--align ')} (or --model simple)")
        else:
            raise ExportError(f"cannot tell the model from the keys {sorted(state)[:8]}: expected A and b "
                              "(SimpleRnn, SelfAttentionRnn), W_ih, W_hh, ... (Lstmn, Gru, Lstm) or the keys of a "
                              "one-layer torch.nn.RNN, GRU or LSTM or of their cells")
    if model in ("lstmn", "lstm", "gru") or cell == "gru":
        rows = "4*Hidden" if model in ("lstmn", "lstm") else "3*Hidden"
        in_size = _size(state, "W_ih", 1, 2, f"({rows}, In)")
        hidden = _size(state, "W_hh", 1, 2, f"({rows}, Hidden)")
        k = _size(state, "v", 0, 1, "(K,)") if model == "lstmn" else None
        if cell == "gru":
            align, k = _align_and_k(state, align, align_keys, hidden)
    else:
        hidden = _size(state, "A", 0, 2, "(Hidden, In + Hidden)")
        in_size = _size(state, "A", 1, 2, "(Hidden, In + Hidden)") - hidden
        if in_size < 1:
            raise ExportError(f"A has shape {tuple(state['A'].shape)}, expected (Hidden, In + Hidden) with In >= 1")
        k = None
        if model == "self_attention":
            align, k = _align_and_k(state, align, align_keys, hidden)
    config = {"kind": model, "in_size": in_size, "hidden": hidden,
              "align": align if model == "self_attention" else None, "k": k, "window": window}
    if cell == "gru":
        config["cell"] = cell
    _check_sizes(config)   # before from_config allocates the module
    try:
        return from_config(config).config(), state
    except ValueError as e:
        raise ExportError(str(e)) from e


def _align_and_k(state, align, align_keys, hidden):
    """(align, K) of a SelfAttentionRnn's state dict: the align given or told by its keys, and K (None: an align
    without K)."""
    align = align or _infer_align(state, align_keys, hidden)
    entry = layout.registry().get(align)
    if entry is not None and entry.takes_k:
        # K: the first extent of the first of its params the state has, vectors before matrices (every K-taking
        # align's params are (K, ...))
        for name, shape in sorted(entry.shapes(hidden, "K"), key=lambda member: len(member[1])):
            if "align." + name in state:
                return align, _size(state, "align." + name, 0, len(shape),
                                    "(" + ", ".join(str(e) for e in shape) + (",)" if len(shape) == 1 else ")"))
    return align, None


def _without_params(last, prefix=""):
    """The aligns that have no params, for messages: "dot or scaled_dot" (with prefix: "--align dot or ...")."""
    return layout.names_text([prefix + a for a in layout.aligns() if a not in layout.aligns_with_params()], last)


def _infer_align(state, align_keys, hidden):
    """The align of the state's align keys, from the registry: the first (in its order) that owns one of them alone
    (Wk, Wq: key_query; v: additive); else, of those whose params hold them all, the first whose shapes fit (K
    free), or the first."""
    table = layout.registry()
    known = sorted({key for entry in table.values() for key in entry.keys()})
    if not align_keys:
        raise ExportError(f"the state dict has no align keys, so its align is {_without_params('or')}: pass "
                          f"{_without_params('or', '--align ')}")
    for key in align_keys:
        if key not in known:
            raise ExportError(f"unexpected key {key}: no align has it (align keys are {', '.join(known)})")
    owners = {key: [e for e in table.values() if key in e.keys()] for key in align_keys}
    for entry in table.values():
        if any(owners[key] == [entry] for key in align_keys):
            return entry.name
    holding = [e for e in table.values() if e.params is not None and set(align_keys) <= set(e.keys())]
    if not holding:
        raise ExportError(f"no align has all of the keys {', '.join(align_keys)}")

    def fits(entry):
        for name, extents in entry.tensors:
            key = "align." + name
            if key not in state:
                continue
            shape = tuple(state[key].shape)
            want = tuple(None if e == "K" else (2 * hidden if e == "2*Hidden" else hidden) for e in extents)
            if len(shape) != len(want) or any(w is not None and w != n for w, n in zip(want, shape)):
                return False
        return True

    return next((e.name for e in holding if fits(e)), holding[0].name)


def _import_torch_layer(state):
    """(state dict of the sarnn module, "RNN" | "GRU" | "LSTM") from the state dict of a one-layer torch.nn.RNN,
    GRU or LSTM or of their cells: a SimpleRNN's (A, b), a GRU's or an LSTM's, the layer told by weight_hh's rows
    (Hidden, 3·Hidden or 4·Hidden). Refuses, naming the setting, the keys of more layers, of the reverse
    direction and of an LSTM's projection."""
    cell = "weight_ih" in state
    suffix = "" if cell else "_l0"
    w_hh = "weight_hh" + suffix
    if "weight_hr" + suffix in state:
        raise ExportError(f"unexpected key weight_hr{suffix}: {torch_key_reason('weight_hr' + suffix, '')}")
    hidden = _size(state, w_hh, 1, 2, "(Hidden, Hidden), (3*Hidden, Hidden) or (4*Hidden, Hidden)")
    layer = {hidden: "RNN", 3 * hidden: "GRU", 4 * hidden: "LSTM"}.get(state[w_hh].shape[0])
    if layer is None:
        raise ExportError(f"{w_hh} has shape {tuple(state[w_hh].shape)}, expected ({hidden}, {hidden}) (an RNN), "
                          f"({3 * hidden}, {hidden}) (a GRU) or ({4 * hidden}, {hidden}) (an LSTM)")
    what = f"torch.nn.{layer}Cell" if cell else f"torch.nn.{layer}"
    problems = []
    deeper = next((key for key in state if re.fullmatch(r"(weight|bias)_(ih|hh)_l[1-9][0-9]*(_reverse)?", key)),
                  None)
    if deeper is not None:
        problems.append(f"unexpected key {deeper}: {torch_key_reason(deeper.replace('_reverse', ''), what)}")
    reverse = next((key for key in state if key.endswith("_reverse")), None)
    if reverse is not None:
        problems.append(f"unexpected key {reverse}: {torch_key_reason(reverse, what)}")
    if problems:
        raise ExportError("; ".join(problems))
    in_size = _size(state, "weight_ih" + suffix, 1, 2, "(Hidden, In)")
    kind = {"RNN": "simple", "GRU": "gru", "LSTM": "lstm"}[layer]
    _check_sizes({"kind": kind, "in_size": in_size, "hidden": hidden, "align": None, "k": None, "window": None})
    bias = "bias_ih" + suffix in state or "bias_hh" + suffix in state
    owner = f"a {what} with In={in_size}, Hidden={hidden}"
    rows = state[w_hh].shape[0]
    shapes = {"weight_ih": (rows, in_size), "weight_hh": (rows, hidden)}
    shapes.update({"bias_ih": (rows,), "bias_hh": (rows,)} if bias else {})
    fields = [(key + suffix, shape, owner) for key, shape in shapes.items()]
    _check_state(state, fields, owner)
    for key, _, _ in fields:
        _first_non_finite(key, state[key].detach().cpu().to(torch.float64).numpy())
    make = getattr(nn, layer + "Cell") if cell else getattr(nn, layer)
    torch_layer = make(in_size, hidden, bias=bias).to(dtype=state["weight_ih" + suffix].dtype)
    torch_layer.load_state_dict(state)
    importer = {"RNN": from_rnn, "GRU": from_gru, "LSTM": from_lstm}[layer]
    return importer(torch_layer).state_dict(), layer


def _check_state(state, fields, model):
    """state has exactly the keys of `fields` ((key, shape, owner) triples, owner naming what needs the key),
    each a floating-point tensor of that shape; `model` names the whole model in messages."""
    for key, shape, owner in fields:
        if key not in state:
            raise ExportError(f"missing key {key}: {owner} needs {key} of shape {shape}")
    expected = [key for key, _, _ in fields]
    for key in state:
        if key not in expected:
            raise ExportError(f"unexpected key {key}: {model} takes only {', '.join(expected)}")
    for key, shape, owner in fields:
        if tuple(state[key].shape) != shape:
            raise ExportError(f"{key} has shape {tuple(state[key].shape)}, expected {shape} for {owner}")
        if not state[key].is_floating_point():
            raise ExportError(f"{key} has dtype {state[key].dtype}, expected a floating-point tensor")


def _index(shape, flat):
    return "".join(f"[{i}]" for i in np.unravel_index(flat, shape)) if shape else ""


def _first_non_finite(key, a):
    bad = np.flatnonzero(~np.isfinite(a))
    if bad.size:
        raise ExportError(f"{key}{_index(a.shape, bad[0])} (flat index {bad[0]}) is {a.flat[bad[0]]}: weights must be "
                          "finite")


def _rounded(key, tensor, dtype):
    """tensor's values rounded to dtype, as a float64 ndarray; refuses NaN, Inf and overflow."""
    a = tensor.detach().cpu().to(torch.float64).numpy()
    _first_non_finite(key, a)
    with np.errstate(over="ignore"):
        rounded = a.astype(numeric(dtype).weight).astype(np.float64)
    bad = np.flatnonzero(~np.isfinite(rounded))
    if bad.size:
        raise ExportError(f"{key}{_index(a.shape, bad[0])} (flat index {bad[0]}) is {a.flat[bad[0]]}, which "
                          f"overflows {dtype}")
    return rounded


def _capacity(config, capacity):
    if config["kind"] in PLAIN_KINDS:
        if capacity is not None:
            raise ExportError(f"a {CPP_NAMES[config['kind']]} has no memory: capacity does not apply")
        return None
    window = config["window"]
    if window is not None:
        if capacity is not None and capacity != window:
            raise ExportError(f"capacity {capacity} contradicts window {window} (a Window memory's capacity is the "
                              "window)")
        return window
    return DEFAULT_CAPACITY if capacity is None else int(capacity)
