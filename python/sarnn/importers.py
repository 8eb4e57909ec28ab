"""Weights from PyTorch and Keras recurrent layers into sarnn modules.

Conversions are exact copies (cast to the target dtype), apart from the sums of two biases.
"""
import numpy as np
import torch
from torch import nn

from sarnn.modules import LSTMN, SelfAttentionRNN, SimpleRNN


def _copy(into, values):
    """Copies {param name: tensor} into the module's parameters (in its dtype)."""
    params = dict(into.named_parameters())
    with torch.no_grad():
        for name, value in values.items():
            params[name].copy_(value.detach().to(params[name].dtype))
    return into


def _check_into(into, types, in_size, hidden):
    if not isinstance(into, types):
        raise TypeError(f"into must be one of {', '.join(t.__name__ for t in types)}, got {type(into).__name__}")
    if (into.in_size, into.hidden) != (in_size, hidden):
        raise ValueError(f"into has in_size={into.in_size}, hidden={into.hidden}; the source layer has "
                         f"in_size={in_size}, hidden={hidden}")


def layer_name(layer):
    """'torch.nn.RNN' for torch's own layer classes, else the class's full name."""
    cls = type(layer)
    if getattr(nn, cls.__name__, None) is cls:
        return f"torch.nn.{cls.__name__}"
    return f"{cls.__module__}.{cls.__qualname__}"


def rnn_problems(layer):
    """What sarnn does not compute in this torch recurrent layer (nn.RNN, RNNCell, LSTM, GRU, their cells), as a
    list of reasons; empty when sarnn runs it as it is. The one check of from_rnn() and of the exporter.

    sarnn runs a torch.nn.RNN of one layer, forward in time, with nonlinearity 'tanh', and a torch.nn.RNNCell
    with 'tanh'. Not problems, as they do not change what a step computes: batch_first (the order of the
    input's axes only), dropout (PyTorch applies it between layers, so with one layer it does nothing, in
    training mode too) and bias=False (b = 0).
    """
    problems = []
    if not isinstance(layer, (nn.RNN, nn.RNNCell)):
        problems.append("not a torch.nn.RNN or RNNCell (sarnn.from_lstm_cell starts an LSTMN from the weights of "
                        "a torch.nn.LSTMCell)")
    if isinstance(layer, nn.RNNBase):
        if layer.num_layers != 1:
            problems.append(f"num_layers={layer.num_layers} (sarnn runs one layer)")
        if layer.bidirectional:
            problems.append("bidirectional=True (sarnn runs forward in time only)")
        if getattr(layer, "proj_size", 0):
            problems.append(f"proj_size={layer.proj_size} (sarnn has no projection of h)")
    nonlinearity = getattr(layer, "nonlinearity", "tanh")
    if nonlinearity != "tanh":
        problems.append(f"nonlinearity={nonlinearity!r} (sarnn uses 'tanh')")
    return problems


def from_rnn(rnn, into=None):
    """Imports a torch.nn.RNN (one layer, tanh, unidirectional, with or without bias) or torch.nn.RNNCell.

    PyTorch's h_t = tanh(W_ih x_t + b_ih + W_hh h_{t-1} + b_hh) is sarnn's h_i = tanh(A·[x_i; h_{i-1}] + b)
    with A = [W_ih | W_hh] and b = b_ih + b_hh (b = 0 without bias). Returns a new SimpleRNN in the layer's
    dtype, or, when `into` (a SimpleRNN or SelfAttentionRNN of the same sizes) is given, copies A and b into it
    and returns it (its align params are left as they are; for a SelfAttentionRNN, A's last Hidden columns
    then act on c_{i-1}). Raises TypeError for another layer type, ValueError for a layer sarnn cannot run
    (naming the problems found by rnn_problems(); batch_first and a one-layer dropout are fine) or mismatched
    sizes.
    """
    if not isinstance(rnn, (nn.RNN, nn.RNNCell)):
        raise TypeError(f"from_rnn takes a torch.nn.RNN or torch.nn.RNNCell, got {type(rnn).__name__}")
    problems = rnn_problems(rnn)
    if problems:
        raise ValueError(f"cannot import this {layer_name(rnn)}: " + "; ".join(problems))
    suffix = "_l0" if isinstance(rnn, nn.RNN) else ""
    w_ih = getattr(rnn, "weight_ih" + suffix)
    w_hh = getattr(rnn, "weight_hh" + suffix)
    in_size, hidden = w_ih.shape[1], w_hh.shape[0]
    if rnn.bias:
        b = getattr(rnn, "bias_ih" + suffix) + getattr(rnn, "bias_hh" + suffix)
    else:
        b = torch.zeros(hidden, dtype=w_ih.dtype)
    if into is None:
        into = SimpleRNN(in_size, hidden).to(dtype=w_ih.dtype)
    _check_into(into, (SimpleRNN, SelfAttentionRNN), in_size, hidden)
    return _copy(into, {"A": torch.cat([w_ih, w_hh], 1), "b": b})


def from_lstm_cell(cell, k=None, window=None, into=None):
    """Imports a torch.nn.LSTMCell (with or without bias) into an LSTMN.

    W_ih and W_hh are copied as they are (both use the gate order i, f, g, o) and b = b_ih + b_hh (0 without
    bias). The attention weights W_h, W_x, W_ht and v are freshly initialised, not imported: an LSTMCell has
    none, and the LSTMN's recurrent input is the attention summary h~_t, not h_{t-1}, so the result is a
    starting point for training, not an equivalent of the cell (only its first step, from empty tapes,
    equals the cell's step from zero state). Returns a new LSTMN(In, Hidden, k, window) in the cell's dtype,
    or copies into `into` (an LSTMN of the same sizes; then k and window, if given, must match it) and
    returns it, leaving its attention weights as they are.
    """
    if not isinstance(cell, nn.LSTMCell):
        raise TypeError(f"from_lstm_cell takes a torch.nn.LSTMCell, got {type(cell).__name__}")
    in_size, hidden = cell.input_size, cell.hidden_size
    if into is None:
        if k is None:
            raise ValueError("from_lstm_cell needs k (the attention size) when no `into` model is given")
        into = LSTMN(in_size, hidden, k, window=window).to(dtype=cell.weight_ih.dtype)
    _check_into(into, (LSTMN,), in_size, hidden)
    if (k is not None and k != into.k) or (window is not None and window != into.window):
        raise ValueError(f"k={k!r}, window={window!r} contradict into (k={into.k}, window={into.window})")
    b = cell.bias_ih + cell.bias_hh if cell.bias else torch.zeros(4 * hidden, dtype=cell.weight_ih.dtype)
    return _copy(into, {"W_ih": cell.weight_ih, "W_hh": cell.weight_hh, "b": b})


def keras_simple_rnn(kernel, recurrent_kernel, bias=None, dtype=torch.float32):
    """Imports the weights of a Keras SimpleRNN layer (tanh activation), as `layer.get_weights()` returns them:
    kernel (In, Hidden), recurrent_kernel (Hidden, Hidden) and bias (Hidden,) (absent with use_bias=False).

    Keras computes on row vectors, h_t = tanh(x_t K + h_{t-1} R + bias); transposed, that is sarnn's
    h_i = tanh(A·[x_i; h_{i-1}] + b) with A = [Kᵀ | Rᵀ] and b = bias (0 without bias). Returns a SimpleRNN
    of `dtype`. Raises ValueError for shapes that do not fit together.
    """
    kernel = np.asarray(kernel)
    recurrent_kernel = np.asarray(recurrent_kernel)
    if kernel.ndim != 2 or kernel.shape[1] < 1:
        raise ValueError(f"kernel has shape {kernel.shape}, expected (In, Hidden)")
    in_size, hidden = kernel.shape
    if recurrent_kernel.shape != (hidden, hidden):
        raise ValueError(f"recurrent_kernel has shape {recurrent_kernel.shape}, expected ({hidden}, {hidden})")
    bias = np.zeros(hidden) if bias is None else np.asarray(bias)
    if bias.shape != (hidden,):
        raise ValueError(f"bias has shape {bias.shape}, expected ({hidden},)")
    model = SimpleRNN(in_size, hidden).to(dtype=dtype)
    a = np.concatenate([kernel.T, recurrent_kernel.T], axis=1)
    return _copy(model, {"A": torch.from_numpy(np.ascontiguousarray(a)), "b": torch.from_numpy(bias)})
