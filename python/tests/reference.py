"""Plain NumPy float64 references of the sarnn models, one sequence at a time with explicit loops, written
straight from the formulas in include/sarnn/ (independent of sarnn.modules)."""
import math

import numpy as np


def _softmax(e):
    w = np.exp(np.asarray(e) - np.max(e))
    return w / w.sum()


def simple_rnn(p, xs):
    """h_i = tanh(A·[x_i; h_{i-1}] + b), h_0 = 0. Returns hs (T, Hidden)."""
    h = np.zeros(p["b"].shape[0])
    hs = []
    for x in xs:
        h = np.tanh(p["A"] @ np.concatenate([x, h]) + p["b"])
        hs.append(h)
    return np.array(hs)


def align_score(name, p, h_j, h_i):
    """e_ij = align(h_j, h_i); p holds the align's params under their C++ names."""
    if name == "dot":
        return float(h_j @ h_i)
    if name == "scaled_dot":
        return float(h_j @ h_i) / math.sqrt(h_i.shape[0])
    if name == "bilinear":
        return float(h_j @ p["W"] @ h_i)
    if name == "key_query":
        return float((p["Wk"] @ h_j) @ (p["Wq"] @ h_i))
    if name == "additive":
        return float(p["v"] @ np.tanh(p["W"] @ np.concatenate([h_j, h_i])))
    raise ValueError(name)


def gru_step(p, x, v):
    """PyTorch's GRU step on input x and recurrent input v: r, z, n from the rows r, z, n of W_ih, W_hh, b_ih, b_hh;
    returns (1 - z) ⊙ n + z ⊙ v."""
    hid = v.shape[0]
    gx = p["W_ih"] @ x + p["b_ih"]
    gh = p["W_hh"] @ v + p["b_hh"]
    r = _sigmoid(gx[:hid] + gh[:hid])
    z = _sigmoid(gx[hid:2 * hid] + gh[hid:2 * hid])
    n = np.tanh(gx[2 * hid:] + r * gh[2 * hid:])
    return (1.0 - z) * n + z * v


def gru(p, xs):
    """h_i = GRU(x_i, h_{i-1}), h_0 = 0. Returns hs (T, Hidden)."""
    h = np.zeros(p["W_hh"].shape[1])
    hs = []
    for x in xs:
        h = gru_step(p, x, h)
        hs.append(h)
    return np.array(hs)


def lstm(p, xs):
    """z = W_ih x_i + W_hh h_{i-1} + b (gates i, f, g, o), c_i = σ(z_f) c_{i-1} + σ(z_i) tanh(z_g),
    h_i = σ(z_o) tanh(c_i). Returns hs, cs (T, Hidden)."""
    hid = p["W_hh"].shape[1]
    h, c = np.zeros(hid), np.zeros(hid)
    hs, cs = [], []
    for x in xs:
        z = p["W_ih"] @ x + p["W_hh"] @ h + p["b"]
        i, f, g, o = (z[k * hid:(k + 1) * hid] for k in range(4))
        c = _sigmoid(f) * c + _sigmoid(i) * np.tanh(g)
        h = _sigmoid(o) * np.tanh(c)
        hs.append(h)
        cs.append(c)
    return np.array(hs), np.array(cs)


def self_attention_rnn(p, align, align_p, xs, window=None):
    """h_i = tanh(A·[x_i; c_{i-1}] + b) (with p holding W_ih, b_ih, ...: h_i = GRU(x_i, c_{i-1})); h_i joins the memory (the newest `window` states are kept), then
    alpha_i = softmax_j(align(h_j, h_i)) and c_i = Σ_j alpha_ij h_j. Returns hs, cs (T, Hidden) and the list
    of alpha_i."""
    c = np.zeros(p["W_hh"].shape[1] if "W_hh" in p else p["b"].shape[0])
    memory, hs, cs, alphas = [], [], [], []
    for x in xs:
        h = gru_step(p, x, c) if "W_hh" in p else np.tanh(p["A"] @ np.concatenate([x, c]) + p["b"])
        memory.append(h)
        if window is not None and len(memory) > window:
            memory.pop(0)
        alpha = _softmax([align_score(align, align_p, h_j, h) for h_j in memory])
        c = np.zeros_like(h)
        for a_j, h_j in zip(alpha, memory):
            c = c + a_j * h_j
        hs.append(h)
        cs.append(c)
        alphas.append(alpha)
    return np.array(hs), np.array(cs), alphas


def _sigmoid(z):
    return 1.0 / (1.0 + np.exp(-z))


def lstmn(p, xs, window=None):
    """Cheng, Dong and Lapata's LSTMN over tapes of the previous steps (the newest `window` entries).
    Returns hs, cs (T, Hidden) and the list of s_t (empty at the first step)."""
    hidden = p["W_hh"].shape[1]
    h_tilde = np.zeros(hidden)
    tape_h, tape_c, hs, cs, ss = [], [], [], [], []
    for x in xs:
        c_tilde = np.zeros(hidden)
        s = np.zeros(0)
        if tape_h:
            a = [p["v"] @ np.tanh(p["W_h"] @ h_j + p["W_x"] @ x + p["W_ht"] @ h_tilde) for h_j in tape_h]
            s = _softmax(a)
            h_tilde = sum(s_j * h_j for s_j, h_j in zip(s, tape_h))
            c_tilde = sum(s_j * c_j for s_j, c_j in zip(s, tape_c))
        z = p["W_ih"] @ x + p["W_hh"] @ h_tilde + p["b"]
        i = _sigmoid(z[:hidden])
        f = _sigmoid(z[hidden : 2 * hidden])
        g = np.tanh(z[2 * hidden : 3 * hidden])
        o = _sigmoid(z[3 * hidden :])
        c = f * c_tilde + i * g
        h = o * np.tanh(c)
        tape_h.append(h)
        tape_c.append(c)
        if window is not None and len(tape_h) > window:
            tape_h.pop(0)
            tape_c.pop(0)
        hs.append(h)
        cs.append(c)
        ss.append(s)
    return np.array(hs), np.array(cs), ss


def params_of(model):
    """The model's parameters as float64 arrays under their C++ names (align params in a second dict)."""
    p, align_p = {}, {}
    for key, value in model.state_dict().items():
        target = align_p if key.startswith("align.") else p
        target[key.split(".")[-1]] = value.detach().double().numpy()
    return p, align_p


def run(model, xs):
    """The reference outputs for a sarnn module's config: (hs, second, weights), second being cs of
    SelfAttentionRNN / LSTMN / LSTM (None for SimpleRNN and GRU), weights the attention weights per step."""
    config = model.config()
    p, align_p = params_of(model)
    if config["kind"] == "simple":
        return simple_rnn(p, xs), None, None
    if config["kind"] == "lstmn":
        return lstmn(p, xs, config["window"])
    if config["kind"] == "gru":
        return gru(p, xs), None, None
    if config["kind"] == "lstm":
        return (*lstm(p, xs), None)
    return self_attention_rnn(p, config["align"], align_p, xs, config["window"])
