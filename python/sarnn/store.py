"""Saving and loading sarnn modules with the configuration that re-creates them.

A saved file is `torch.save` of {'sarnn_config': model.config(), 'state_dict': model.state_dict()}: plain
data, so it loads without pickled classes, and `python3 -m sarnn.export` reads it without options.
"""
import torch

from sarnn.modules import CELLS, GRU, LSTM, LSTMN, SelfAttentionRNN, SimpleRNN

CONFIG_KEYS = ("kind", "in_size", "hidden", "align", "k", "window")
OPTIONAL_KEYS = ("cell",)   # a self_attention config's cell: "elman" when absent
KINDS = ("simple", "self_attention", "lstmn", "gru", "lstm")


def from_config(config):
    """A freshly initialised module (float32) from a config() dict. Raises ValueError for a bad config."""
    if not isinstance(config, dict):
        raise ValueError(f"a sarnn config must be a dict, got {type(config).__name__}")
    missing = [key for key in CONFIG_KEYS if key not in config]
    extra = sorted(str(key) for key in config if key not in CONFIG_KEYS + OPTIONAL_KEYS)
    if missing or extra:
        raise ValueError(f"bad sarnn config: missing keys {missing}, unexpected keys {extra}")
    kind = config["kind"]
    if "cell" in config and kind != "self_attention":
        raise ValueError(f"a {kind!r} config takes no cell (only 'self_attention' does), got {config['cell']!r}")
    plain = {"simple": SimpleRNN, "gru": GRU, "lstm": LSTM}
    if kind in plain:
        unused = {key: config[key] for key in ("align", "k", "window") if config[key] is not None}
        if unused:
            raise ValueError(f"a {kind!r} config takes no align, k or window, got {unused}")
        return plain[kind](config["in_size"], config["hidden"])
    if kind == "self_attention":
        cell = config.get("cell", "elman")
        if cell not in CELLS:
            raise ValueError(f"unknown cell {cell!r} (expected one of {', '.join(CELLS)})")
        return SelfAttentionRNN(config["in_size"], config["hidden"], align=config["align"], window=config["window"],
                                k=config["k"], cell=cell)
    if kind == "lstmn":
        if config["align"] is not None:
            raise ValueError(f"an 'lstmn' config takes no align, got {config['align']!r}")
        return LSTMN(config["in_size"], config["hidden"], config["k"], window=config["window"])
    raise ValueError(f"unknown model kind {kind!r} (expected one of {', '.join(KINDS)})")


def save(model, path):
    """Writes model's config and state dict to `path` with torch.save."""
    torch.save({"sarnn_config": model.config(), "state_dict": model.state_dict()}, path)


def load(source):
    """The module saved by save(): `source` is a path or the loaded dict. The module takes the dtype of the
    saved tensors. A path is read with torch.load(weights_only=True): tensors, dicts, numbers and strings only, so
    no code from the file runs (pickle.UnpicklingError for a file that holds anything else). Raises ValueError when
    the content is not what save() writes."""
    data = source if isinstance(source, dict) else torch.load(source, map_location="cpu", weights_only=True)
    if not isinstance(data, dict) or set(data) != {"sarnn_config", "state_dict"}:
        raise ValueError("not a sarnn.save() file: expected a dict with keys 'sarnn_config' and 'state_dict'")
    model = from_config(data["sarnn_config"])
    state = data["state_dict"]
    dtypes = {t.dtype for t in state.values() if torch.is_tensor(t) and t.is_floating_point()}
    if len(dtypes) == 1:
        model.to(dtype=dtypes.pop())
    model.load_state_dict(state)
    return model
