"""sarnn's Python side: PyTorch reference modules of the C++ models, importers and the header exporter.

    SimpleRNN         h_i = tanh(A·[x_i; h_{i-1}] + b)                          sarnn::SimpleRnn
    SelfAttentionRNN  h_i = tanh(A·[x_i; c_{i-1}] + b), c_i = Σ_j alpha_ij h_j   sarnn::SelfAttentionRnn
    LSTMN             the LSTM-network of Cheng, Dong and Lapata (2016)         sarnn::Lstmn
    GRU, LSTM         torch.nn.GRU's and torch.nn.LSTM's step                    sarnn::Gru, sarnn::Lstm
    SelfAttentionRNN(..., cell="gru")  h_i = GRU(x_i, c_{i-1}) under attention

`export_header(model, name, path)` (or `python3 -m sarnn.export model.pt --name NAME`) writes a C++
header holding the weights, the model type and a golden self-check.
With `--quantize int8 --calibration inputs.pt` it writes the q15 model (int8 weights, int16 activations) of a
SimpleRNN, a SelfAttentionRNN (any align: dot, scaled_dot, bilinear, key_query, additive), an LSTMN, a GRU or an
LSTM instead (sarnn.quantize; the twin of its integers, bit for bit: sarnn.q15). torch.nn.GRU, nn.LSTM, their cells
and their state dicts export as they are (sarnn.from_gru, from_lstm).

Everything but ExportError needs torch and numpy, and is imported on first use: `import sarnn` works
without them, and using sarnn.SimpleRNN (etc.) then raises an ImportError saying what is missing.
"""
import importlib
import sys

from sarnn.errors import ExportError
from sarnn.version import __version__

# name -> the submodule that defines it, imported on first access (PEP 562). dir(sarnn) lists only what is
# imported, so tools that getattr() every listed name (unittest discovery) work without torch.
_LAZY = {"export_header": "export", "from_rnn": "importers", "from_lstm_cell": "importers",
         "keras_simple_rnn": "importers", "from_gru": "importers", "from_lstm": "importers", "keras_gru": "importers",
         "keras_lstm": "importers", "SimpleRNN": "modules", "SelfAttentionRNN": "modules", "LSTMN": "modules",
         "GRU": "modules", "LSTM": "modules", "from_config": "store", "load": "store", "save": "store"}

__all__ = ["SimpleRNN", "SelfAttentionRNN", "LSTMN", "GRU", "LSTM", "from_rnn", "from_lstm_cell", "from_gru",
           "from_lstm", "keras_simple_rnn", "keras_gru", "keras_lstm", "save", "load", "from_config", "ExportError",
           "export_header"]


def __getattr__(name):
    if name not in _LAZY:
        raise AttributeError(f"module 'sarnn' has no attribute {name!r}")
    try:
        module = importlib.import_module(f"sarnn.{_LAZY[name]}")
    except ImportError as e:
        if e.name is not None and e.name.partition(".")[0] not in ("torch", "numpy"):
            raise
        raise ImportError(f"sarnn.{name} needs torch and numpy, which {sys.executable} cannot import ({e}); "
                          "scripts/deps python installs python3-torch and python3-numpy", name=e.name) from e
    value = getattr(module, name)
    globals()[name] = value
    return value
