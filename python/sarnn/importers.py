"""Weights from PyTorch and Keras recurrent layers into sarnn modules.

    from_rnn        torch.nn.RNN, RNNCell                     -> SimpleRNN (or into a SelfAttentionRNN)
    from_gru        torch.nn.GRU, GRUCell or their state dict -> GRU (or into a SelfAttentionRNN(cell="gru"))
    from_lstm       torch.nn.LSTM, LSTMCell or their state dict -> LSTM
    from_lstm_cell  torch.nn.LSTMCell                         -> LSTMN (the gates only: a starting point)
    keras_simple_rnn, keras_gru, keras_lstm: the arrays of a Keras layer's get_weights()

Conversions are exact copies (cast to the target dtype), apart from the sums of two biases (LSTM, RNN) and the
reordering of Keras's gates.
"""
import re
from collections.abc import Mapping

import numpy as np
import torch
from torch import nn

from sarnn.modules import GRU, LSTM, LSTMN, SelfAttentionRNN, SimpleRNN

TORCH_LAYERS = (nn.RNN, nn.RNNCell, nn.GRU, nn.GRUCell, nn.LSTM, nn.LSTMCell)


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
    """What sarnn does not compute in this torch recurrent layer (nn.RNN, GRU, LSTM, their cells), as a list of
    reasons; empty when sarnn runs it as it is. The one check of from_rnn(), from_gru(), from_lstm() and of the
    exporter.

    sarnn runs a torch.nn.RNN, GRU or LSTM of one layer, forward in time (an RNN with nonlinearity 'tanh', an
    LSTM without projection), and their cells (an RNNCell with 'tanh'). Not problems, as they do not change what
    a step computes: batch_first (the order of the input's axes only), dropout (PyTorch applies it between
    layers, so with one layer it does nothing, in training mode too) and bias=False (biases 0).
    """
    problems = []
    if not isinstance(layer, TORCH_LAYERS):
        problems.append("not a torch.nn.RNN, GRU or LSTM, nor one of their cells")
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
        raise TypeError(f"from_rnn takes a torch.nn.RNN or torch.nn.RNNCell, got {type(rnn).__name__} (from_gru "
                        "takes a GRU or GRUCell, from_lstm an LSTM or LSTMCell)")
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


def torch_key_reason(key, what):
    """Why the key of a torch state dict is not one of a one-layer, one-direction layer's: a deeper layer, the
    reverse direction, an LSTM's projection (the settings sarnn does not compute), or else not a key of `what`."""
    if key.endswith("_reverse"):
        return "the reverse direction, so bidirectional=True (sarnn runs forward in time only)"
    if key.startswith("weight_hr"):
        return "the projection of a torch.nn.LSTM with proj_size > 0 (sarnn has no projection of h)"
    if re.fullmatch(r"(weight|bias)_(ih|hh)_l[1-9][0-9]*", key):
        return "a layer past the first, so num_layers > 1 (sarnn runs one layer)"
    return f"not a key of a {what}"


def _torch_layer(source, kind, types):
    """The torch layer of `source`: the layer itself (checked by rnn_problems) or a state dict of one (the keys of
    torch.nn.<kind> of one layer, weight_ih_l0 ..., or of its cell, weight_ih ...; biases optional), loaded into a
    new layer of its dtype. Raises TypeError for anything else, ValueError for what sarnn does not compute."""
    if isinstance(source, Mapping):
        cell = "weight_ih" in source
        suffix = "" if cell else "_l0"
        what = f"torch.nn.{kind}Cell" if cell else f"torch.nn.{kind}"
        for key in ("weight_ih", "weight_hh"):
            if key + suffix not in source or not torch.is_tensor(source[key + suffix]) or \
                    source[key + suffix].dim() != 2:
                raise ValueError(f"not the state dict of a {what}: missing key {key + suffix} (a matrix)")
        bias = "bias_ih" + suffix in source or "bias_hh" + suffix in source
        expected = [k + suffix for k in ("weight_ih", "weight_hh") + (("bias_ih", "bias_hh") if bias else ())]
        for key in source:
            if key not in expected:
                raise ValueError(f"unexpected key {key}: {torch_key_reason(key, what)}")
        gates = {"GRU": 3, "LSTM": 4}[kind]
        w_ih, w_hh = source["weight_ih" + suffix], source["weight_hh" + suffix]
        hidden, in_size = w_hh.shape[1], w_ih.shape[1]
        if w_hh.shape[0] != gates * hidden:
            raise ValueError(f"weight_hh{suffix} has shape {tuple(w_hh.shape)}, expected ({gates * hidden}, {hidden}) "
                             f"for a {what} ({gates} gates)")
        layer = (getattr(nn, kind + "Cell") if cell else getattr(nn, kind))(in_size, hidden, bias=bias)
        layer.to(dtype=w_ih.dtype).load_state_dict(source)
        return layer
    if not isinstance(source, types):
        names = " or ".join(f"torch.nn.{t.__name__}" for t in types)
        raise TypeError(f"from_{kind.lower()} takes a {names} or the state dict of one, got {type(source).__name__}")
    problems = rnn_problems(source)
    if problems:
        raise ValueError(f"cannot import this {layer_name(source)}: " + "; ".join(problems))
    return source


def _layer_tensors(layer, gates):
    """(W_ih, W_hh, b_ih, b_hh) of a one-layer torch RNN/GRU/LSTM or cell; zeros for the biases of bias=False."""
    suffix = "" if isinstance(layer, nn.RNNCellBase) else "_l0"
    w_ih = getattr(layer, "weight_ih" + suffix)
    w_hh = getattr(layer, "weight_hh" + suffix)
    if layer.bias:
        return w_ih, w_hh, getattr(layer, "bias_ih" + suffix), getattr(layer, "bias_hh" + suffix)
    zeros = torch.zeros(w_hh.shape[0], dtype=w_ih.dtype)
    return w_ih, w_hh, zeros, zeros


def from_gru(source, into=None):
    """Imports a torch.nn.GRU (one layer, unidirectional, with or without bias), a torch.nn.GRUCell, or the state
    dict of either (weight_ih_l0, ... or weight_ih, ...), into a sarnn GRU: W_ih, W_hh, b_ih, b_hh copied as they
    are (rows r, z, n; biases 0 without bias). Returns a new GRU in the layer's dtype, or copies into `into` (a
    GRU, or a SelfAttentionRNN(cell="gru") whose GRU cell then acts on c_{i-1}, its align params left as they
    are; same sizes) and returns it. Raises TypeError for another layer type, ValueError for a layer sarnn cannot
    run (num_layers > 1, bidirectional: the reasons of rnn_problems(); for a state dict, the keys that say so) or
    mismatched sizes."""
    layer = _torch_layer(source, "GRU", (nn.GRU, nn.GRUCell))
    w_ih, w_hh, b_ih, b_hh = _layer_tensors(layer, 3)
    in_size, hidden = w_ih.shape[1], w_hh.shape[1]
    if into is None:
        into = GRU(in_size, hidden).to(dtype=w_ih.dtype)
    _check_into(into, (GRU, SelfAttentionRNN), in_size, hidden)
    if isinstance(into, SelfAttentionRNN) and into.cell != "gru":
        raise ValueError("into is a SelfAttentionRNN with the Elman cell: a GRU goes into SelfAttentionRNN(..., "
                         "cell='gru')")
    return _copy(into, {"W_ih": w_ih, "W_hh": w_hh, "b_ih": b_ih, "b_hh": b_hh})


def from_lstm(source, into=None):
    """Imports a torch.nn.LSTM (one layer, unidirectional, no projection, with or without bias), a
    torch.nn.LSTMCell, or the state dict of either, into a sarnn LSTM: W_ih and W_hh copied as they are (gates i,
    f, g, o) and b = b_ih + b_hh (0 without bias). Returns a new LSTM in the layer's dtype, or copies into `into`
    (an LSTM of the same sizes) and returns it. Raises TypeError for another layer type, ValueError for a layer
    sarnn cannot run (num_layers > 1, bidirectional, proj_size > 0) or mismatched sizes. (from_lstm_cell starts an
    LSTMN, the attention form, from an LSTMCell's gates.)"""
    layer = _torch_layer(source, "LSTM", (nn.LSTM, nn.LSTMCell))
    w_ih, w_hh, b_ih, b_hh = _layer_tensors(layer, 4)
    in_size, hidden = w_ih.shape[1], w_hh.shape[1]
    if into is None:
        into = LSTM(in_size, hidden).to(dtype=w_ih.dtype)
    _check_into(into, (LSTM,), in_size, hidden)
    return _copy(into, {"W_ih": w_ih, "W_hh": w_hh, "b": b_ih + b_hh})


def _keras_arrays(kernel, recurrent_kernel, gates):
    """kernel (In, gates·Hidden) and recurrent_kernel (Hidden, gates·Hidden) as float arrays, checked."""
    kernel = np.asarray(kernel)
    recurrent_kernel = np.asarray(recurrent_kernel)
    if kernel.ndim != 2 or kernel.shape[1] < gates or kernel.shape[1] % gates:
        raise ValueError(f"kernel has shape {kernel.shape}, expected (In, {gates}*Hidden)")
    in_size, hidden = kernel.shape[0], kernel.shape[1] // gates
    if recurrent_kernel.shape != (hidden, gates * hidden):
        raise ValueError(f"recurrent_kernel has shape {recurrent_kernel.shape}, expected ({hidden}, {gates * hidden})")
    return kernel, recurrent_kernel, in_size, hidden


def _keras_activations(activation, recurrent_activation, layer):
    if activation != "tanh" or recurrent_activation != "sigmoid":
        raise ValueError(f"cannot import this Keras {layer}: activation={activation!r}, recurrent_activation="
                         f"{recurrent_activation!r} (sarnn computes activation='tanh', recurrent_activation='sigmoid', "
                         "the Keras 2 defaults)")


def keras_gru(kernel, recurrent_kernel, bias=None, reset_after=True, activation="tanh",
              recurrent_activation="sigmoid", dtype=torch.float32):
    """Imports the weights of a Keras GRU layer, as `layer.get_weights()` returns them: kernel (In, 3·Hidden),
    recurrent_kernel (Hidden, 3·Hidden) and bias (2, 3·Hidden) (absent with use_bias=False); pass the layer's
    reset_after, activation and recurrent_activation.

    Keras computes on row vectors with the gates in the order z, r, h (columns); with reset_after=True (the
    Keras 2 / TensorFlow 2 default) its candidate is tanh(x K_h + b_h + r ⊙ (h R_h + b'_h)), bias[0] the input
    biases and bias[1] the recurrent ones: PyTorch's GRU, whose rows are r, z, n. So W_ih = [K_r | K_z | K_h]ᵀ,
    W_hh = [R_r | R_z | R_h]ᵀ, b_ih = bias[0] and b_hh = bias[1] reordered the same way (0 without bias). Both
    update h' = z ⊙ h + (1 - z) ⊙ n.
    reset_after=False (Keras 1's form, bias (3·Hidden,)) applies r before the matrix product, tanh(x K_h + b_h +
    (r ⊙ h) R_h): sarnn's GRU cannot compute that, and it is refused with ValueError (retrain with
    reset_after=True). Returns a GRU of `dtype`. Raises ValueError for shapes that do not fit together, and for
    activations other than tanh and sigmoid.
    """
    if not reset_after:
        raise ValueError("cannot import a Keras GRU with reset_after=False: it applies the reset gate before the "
                         "recurrent matrix product, W_hn (r ⊙ h), which sarnn's Gru (PyTorch's form, r ⊙ (W_hn h + "
                         "b_hn)) does not compute; retrain it with reset_after=True (the Keras 2 default)")
    _keras_activations(activation, recurrent_activation, "GRU")
    kernel, recurrent_kernel, in_size, hidden = _keras_arrays(kernel, recurrent_kernel, 3)
    if bias is None:
        bias = np.zeros((2, 3 * hidden))
    bias = np.asarray(bias)
    if bias.shape == (3 * hidden,):
        raise ValueError(f"bias has shape {bias.shape}, the one bias of a Keras GRU with reset_after=False, which "
                         "sarnn does not compute (reset_after=True has bias (2, 3*Hidden)); see keras_gru")
    if bias.shape != (2, 3 * hidden):
        raise ValueError(f"bias has shape {bias.shape}, expected (2, {3 * hidden})")

    def torch_order(a):
        # the gate blocks z, r, h of the last axis -> r, z, n
        z, r, h = np.split(a, 3, axis=-1)
        return np.concatenate([r, z, h], axis=-1)

    model = GRU(in_size, hidden).to(dtype=dtype)
    arrays = {"W_ih": torch_order(kernel).T, "W_hh": torch_order(recurrent_kernel).T,
              "b_ih": torch_order(bias[0]), "b_hh": torch_order(bias[1])}
    return _copy(model, {key: torch.from_numpy(np.ascontiguousarray(a)) for key, a in arrays.items()})


def keras_lstm(kernel, recurrent_kernel, bias=None, activation="tanh", recurrent_activation="sigmoid",
               dtype=torch.float32):
    """Imports the weights of a Keras LSTM layer, as `layer.get_weights()` returns them: kernel (In, 4·Hidden),
    recurrent_kernel (Hidden, 4·Hidden) and bias (4·Hidden,) (absent with use_bias=False); pass the layer's
    activation and recurrent_activation.

    Keras computes z = x K + h R + bias on row vectors, with the gates in the order i, f, c, o (columns): PyTorch's
    i, f, g, o. So W_ih = Kᵀ, W_hh = Rᵀ and b = bias (0 without bias); unit_forget_bias only sets the initial
    bias. Returns an LSTM of `dtype`. Raises ValueError for shapes that do not fit together, and for activations
    other than tanh and sigmoid.
    """
    _keras_activations(activation, recurrent_activation, "LSTM")
    kernel, recurrent_kernel, in_size, hidden = _keras_arrays(kernel, recurrent_kernel, 4)
    bias = np.zeros(4 * hidden) if bias is None else np.asarray(bias)
    if bias.shape != (4 * hidden,):
        raise ValueError(f"bias has shape {bias.shape}, expected ({4 * hidden},)")
    model = LSTM(in_size, hidden).to(dtype=dtype)
    arrays = {"W_ih": kernel.T, "W_hh": recurrent_kernel.T, "b": bias}
    return _copy(model, {key: torch.from_numpy(np.ascontiguousarray(a)) for key, a in arrays.items()})
