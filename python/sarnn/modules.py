"""PyTorch reference modules of the sarnn C++ models (include/sarnn/), trainable with autograd.

    SimpleRNN, SelfAttentionRNN (cell "elman" or "gru"), LSTMN, GRU, LSTM

Parameter names and shapes are one-to-one with the C++ params structs (sarnn/params.hpp), so a state dict
exports as it is. Every module takes x of shape (T, In) or (B, T, In) (batch first) and returns
(.., T, Hidden): one output vector per step, starting from the C++ model's reset() state. The loop over
steps runs in Python; the batch and the stored states are handled as tensors.

Float32 by default (`.double()` works). Every parameter starts uniform in [-1/sqrt(Hidden), 1/sqrt(Hidden)],
as PyTorch's own RNNs do.
"""
import math

import torch
from torch import nn

from sarnn.aligns import make_align


def _check_window(window):
    if window is not None and (isinstance(window, bool) or int(window) != window or window < 1):
        raise ValueError(f"window must be None (unbounded memory) or an integer >= 1, got {window!r}")
    return None if window is None else int(window)


def _weighted_sum(weights, rows):
    """Σ_j w_j r_j for weights (B, n) and a list of n rows (B, D) -> (B, D). (Elementwise, not a batched
    matmul: for these small sizes its backward pass is about twice as fast.)"""
    return (weights.unsqueeze(-1) * torch.stack(rows, 1)).sum(1)


CELLS = ("elman", "gru")   # the cells of SelfAttentionRNN


def _gru_parameters(module):
    """W_ih (3·Hidden, In), W_hh (3·Hidden, Hidden), b_ih, b_hh (3·Hidden): torch.nn.GRU's, rows r, z, n."""
    h3 = 3 * module.hidden
    module.W_ih = nn.Parameter(torch.empty(h3, module.in_size))
    module.W_hh = nn.Parameter(torch.empty(h3, module.hidden))
    module.b_ih = nn.Parameter(torch.empty(h3))
    module.b_hh = nn.Parameter(torch.empty(h3))


def _elman_cell(module, x):
    """Receives the recurrent input v (B, Hidden) of each step of x (B, T, In), yields h = tanh(A·[x_i; v] + b)."""
    ax = torch.matmul(x, module.A[:, : module.in_size].t()) + module.b
    ar = module.A[:, module.in_size :].t()
    v = yield
    for ax_i in ax.unbind(1):
        v = yield torch.tanh(ax_i + torch.matmul(v, ar))


def _gru_cell(module, x):
    """Receives the recurrent input v (B, Hidden) of each step of x (B, T, In), yields PyTorch's GRU step on it:
    r = σ(W_ir x + b_ir + W_hr v + b_hr), z = σ(W_iz x + b_iz + W_hz v + b_hz), n = tanh(W_in x + b_in + r ⊙ (W_hn v
    + b_hn)), h = (1 - z) ⊙ n + z ⊙ v."""
    gx = torch.matmul(x, module.W_ih.t()) + module.b_ih
    w_hh = module.W_hh.t()
    v = yield
    for gx_i in gx.unbind(1):
        gh = torch.matmul(v, w_hh) + module.b_hh
        xr, xz, xn = gx_i.chunk(3, -1)
        hr, hz, hn = gh.chunk(3, -1)
        r = torch.sigmoid(xr + hr)
        z = torch.sigmoid(xz + hz)
        n = torch.tanh(xn + r * hn)
        v = yield (1 - z) * n + z * v


class _Recurrent(nn.Module):
    """What every model shares: sizes, initialisation, input shapes and the emit choice."""

    kind = None
    emits = ("hidden",)

    def __init__(self, in_size, hidden):
        super().__init__()
        for name, n in (("in_size", in_size), ("hidden", hidden)):
            if isinstance(n, bool) or int(n) != n or n < 1:
                raise ValueError(f"{name} must be an integer >= 1, got {n!r}")
        self.in_size = int(in_size)
        self.hidden = int(hidden)

    def reset_parameters(self):
        """Every parameter uniform in [-1/sqrt(Hidden), 1/sqrt(Hidden)]."""
        bound = 1.0 / math.sqrt(self.hidden)
        with torch.no_grad():
            for p in self.parameters():
                p.uniform_(-bound, bound)

    def forward(self, x, emit="hidden"):
        """Runs the model from its reset() state over x ((T, In) or (B, T, In)) and returns each step's
        `emit` vector, shape (T, Hidden) or (B, T, Hidden). Raises ValueError for an emit the model lacks."""
        if emit not in self.emits:
            raise ValueError(f"{type(self).__name__} cannot emit {emit!r} (it emits {', '.join(self.emits)})")
        xb = self._batched(x)
        outs = [step[emit] for step in self._steps(xb)]
        y = torch.stack(outs, 1) if outs else xb.new_zeros(xb.shape[0], 0, self.hidden)
        return y if x.dim() == 3 else y[0]

    def _batched(self, x):
        if not torch.is_tensor(x) or x.dim() not in (2, 3) or x.shape[-1] != self.in_size:
            shape = tuple(x.shape) if torch.is_tensor(x) else type(x).__name__
            raise ValueError(f"x must be a tensor of shape (T, {self.in_size}) or (B, T, {self.in_size}), "
                             f"got {shape}")
        return x if x.dim() == 3 else x.unsqueeze(0)

    def _steps(self, x):
        """Yields, for each step of x (B, T, In), a dict of (B, ..) tensors keyed by emit name."""
        raise NotImplementedError

    def config(self):
        """A plain dict that re-creates this model (see sarnn.store.from_config)."""
        return {"kind": self.kind, "in_size": self.in_size, "hidden": self.hidden, "align": None, "k": None,
                "window": None}


class _Attentive(_Recurrent):
    """A model with a memory it attends: adds the attention weights of every step."""

    def attention(self, x):
        """The attention weights of each step of x (alpha_i of SelfAttentionRNN, s_t of LSTMN): a list of T
        tensors of shape (.., n), n the states attended at that step (for LSTMN, 0 at the first step)."""
        xb = self._batched(x)
        return [step["attention"] if x.dim() == 3 else step["attention"][0] for step in self._steps(xb)]


class SimpleRNN(_Recurrent):
    """The Elman RNN; C++ sarnn::SimpleRnn<T, In, Hidden>, params sarnn::RnnParams<T, In, Hidden>.

        h_i = tanh(A·[x_i; h_{i-1}] + b),  h_0 = 0

    Params: A (Hidden, In + Hidden) (its first In columns act on x_i, the rest on h_{i-1}), b (Hidden).
    Emits 'hidden' (h_i).
    """

    kind = "simple"

    def __init__(self, in_size, hidden):
        super().__init__(in_size, hidden)
        self.A = nn.Parameter(torch.empty(self.hidden, self.in_size + self.hidden))
        self.b = nn.Parameter(torch.empty(self.hidden))
        self.reset_parameters()

    def _steps(self, x):
        ax = torch.matmul(x, self.A[:, : self.in_size].t()) + self.b
        ar = self.A[:, self.in_size :].t()
        h = x.new_zeros(x.shape[0], self.hidden)
        for ax_i in ax.unbind(1):
            h = torch.tanh(ax_i + torch.matmul(h, ar))
            yield {"hidden": h}


class SelfAttentionRNN(_Attentive):
    """An RNN whose recurrent input is attention over its own past states; C++
    sarnn::SelfAttentionRnn<T, In, Hidden, Capacity, Align, Memory>, params sarnn::RnnParams<T, In, Hidden>
    plus the align's params.

        h_i = tanh(A·[x_i; c_{i-1}] + b),  c_0 = 0
        h_i is stored into the memory first, then over the states j in memory (h_i included):
        e_ij = align(h_j, h_i),  alpha_ij = softmax_j(e_ij),  c_i = Σ_j alpha_ij h_j   (so c_1 = h_1)

    align: 'dot' (e = h_j·h_i, sarnn::DotAlign), 'scaled_dot' (h_j·h_i / sqrt(Hidden), ScaledDotAlign),
    'bilinear' (h_jᵀ W h_i, BilinearAlign), 'key_query' ((Wk h_j)·(Wq h_i), KeyQueryAlign<K>), 'additive'
    (v·tanh(W [h_j; h_i]), AdditiveAlign<K>); k is required for the last two (see sarnn.aligns).
    window: None keeps every state (exported as sarnn::Bounded with a capacity); W keeps the newest W states
    (sarnn::Window with Capacity = W), so step i attends the states max(1, i-W+1)..i.

    cell: "elman" (the default, above) or "gru": h_i = GRU(x_i, c_{i-1}), the GRU module's step (see GRU) with
    the context c_{i-1} as its recurrent input in every gate and in the interpolation:
        r = σ(W_ir x_i + b_ir + W_hr c_{i-1} + b_hr),  z = σ(W_iz x_i + b_iz + W_hz c_{i-1} + b_hz)
        n = tanh(W_in x_i + b_in + r ⊙ (W_hn c_{i-1} + b_hn)),  h_i = (1 - z) ⊙ n + z ⊙ c_{i-1}

    Params: A (Hidden, In + Hidden), b (Hidden) (cell "gru": W_ih (3·Hidden, In), W_hh (3·Hidden, Hidden), b_ih,
    b_hh (3·Hidden) as GRU's), and under `align.`: W, Wk, Wq, v as the align has them.
    Emits 'hidden' (h_i) and 'context' (c_i).
    """

    kind = "self_attention"
    emits = ("hidden", "context")

    def __init__(self, in_size, hidden, align="dot", window=None, k=None, cell="elman"):
        super().__init__(in_size, hidden)
        if cell not in CELLS:
            raise ValueError(f"cell must be one of {', '.join(map(repr, CELLS))}, got {cell!r}")
        self.cell = cell
        self.window = _check_window(window)
        self.align_name = align
        self.k = None if k is None else int(k)
        if cell == "elman":
            self.A = nn.Parameter(torch.empty(self.hidden, self.in_size + self.hidden))
            self.b = nn.Parameter(torch.empty(self.hidden))
        else:
            _gru_parameters(self)
        self.align = make_align(align, self.hidden, k)
        self.reset_parameters()

    def _cell_steps(self, x):
        """The cell over x (B, T, In): a generator that takes c_{i-1} (send) and yields h_i."""
        if self.cell == "gru":
            return _gru_cell(self, x)
        return _elman_cell(self, x)

    def _steps(self, x):
        c = x.new_zeros(x.shape[0], self.hidden)
        states, keys = [], []
        cell = self._cell_steps(x)
        next(cell)
        for _ in range(x.shape[1]):
            h = cell.send(c)  # h_i = tanh(A·[x_i; c_{i-1}] + b), or GRU(x_i, c_{i-1})
            states.append(h)
            keys.append(self.align.key(h))
            if self.window is not None and len(states) > self.window:
                del states[0], keys[0]
            # alpha_i = softmax_j(align(h_j, h_i)) over the memory, c_i = Σ_j alpha_ij h_j
            alpha = torch.softmax(self.align.score(torch.stack(keys, 1), self.align.query(h)), -1)
            c = _weighted_sum(alpha, states)
            yield {"hidden": h, "context": c, "attention": alpha}

    def config(self):
        # "cell" only for the GRU cell: the configs (and sarnn.save files) of the Elman models stay as they were
        extra = {} if self.cell == "elman" else {"cell": self.cell}
        return dict(super().config(), align=self.align_name, k=self.k, window=self.window, **extra)


class LSTMN(_Attentive):
    """The LSTM-network of Cheng, Dong and Lapata (2016); C++ sarnn::Lstmn<T, In, Hidden, Capacity, K, Memory>,
    params sarnn::LstmnParams<T, In, Hidden, K>.

    At step t, over the tapes h_1..h_{t-1}, c_1..c_{t-1} (the newest `window` of them when window is set;
    the new state is not on them yet):
        a_j = v·tanh(W_h h_j + W_x x_t + W_ht h~_{t-1}),  s = softmax(a)
        h~_t = Σ_j s_j h_j,  c~_t = Σ_j s_j c_j            (both zero while the tapes are empty; h~_0 = 0)
        z = W_ih x_t + W_hh h~_t + b,  gates in nn.LSTMCell order i, f, g, o:
        i = σ(z_i), f = σ(z_f), g = tanh(z_g), o = σ(z_o)
        c_t = f ⊙ c~_t + i ⊙ g,  h_t = o ⊙ tanh(c_t)       then h_t and c_t join the tapes.

    window: None keeps the whole tapes (exported as sarnn::Bounded with a capacity); W keeps the newest W
    entries (sarnn::Window with Capacity = W).
    Params: W_ih (4·Hidden, In), W_hh (4·Hidden, Hidden), b (4·Hidden), W_h (K, Hidden), W_x (K, In),
    W_ht (K, Hidden), v (K). Emits 'hidden' (h_t) and 'cell' (c_t).
    """

    kind = "lstmn"
    emits = ("hidden", "cell")

    def __init__(self, in_size, hidden, k, window=None):
        super().__init__(in_size, hidden)
        if isinstance(k, bool) or int(k) != k or k < 1:
            raise ValueError(f"k (attention size) must be an integer >= 1, got {k!r}")
        self.k = int(k)
        self.window = _check_window(window)
        h4, n_in = 4 * self.hidden, self.in_size
        self.W_ih = nn.Parameter(torch.empty(h4, n_in))
        self.W_hh = nn.Parameter(torch.empty(h4, self.hidden))
        self.b = nn.Parameter(torch.empty(h4))
        self.W_h = nn.Parameter(torch.empty(self.k, self.hidden))
        self.W_x = nn.Parameter(torch.empty(self.k, n_in))
        self.W_ht = nn.Parameter(torch.empty(self.k, self.hidden))
        self.v = nn.Parameter(torch.empty(self.k))
        self.reset_parameters()

    def _steps(self, x):
        batch, hid = x.shape[0], self.hidden
        xz = torch.matmul(x, self.W_ih.t()) + self.b
        xq = torch.matmul(x, self.W_x.t())
        h_tilde = x.new_zeros(batch, hid)
        c_tilde = x.new_zeros(batch, hid)
        tape = []  # one (B, 2·Hidden + K) row per entry: [h_j; c_j; W_h h_j] (one stack per step, not three)
        for xz_t, xq_t in zip(xz.unbind(1), xq.unbind(1)):
            s = x.new_zeros(batch, 0)
            if tape:
                rows = torch.stack(tape, 1)
                # a_j = v·tanh(W_h h_j + W_x x_t + W_ht h~_{t-1}), s = softmax(a)
                q = xq_t + torch.matmul(h_tilde, self.W_ht.t())
                s = torch.softmax((torch.tanh(rows[..., 2 * hid :] + q.unsqueeze(1)) * self.v).sum(-1), -1)
                # [h~_t; c~_t] = Σ_j s_j [h_j; c_j]
                summary = (s.unsqueeze(-1) * rows[..., : 2 * hid]).sum(1)
                h_tilde, c_tilde = summary[:, :hid], summary[:, hid:]
            # z = W_ih x_t + W_hh h~_t + b; c_t = σ(z_f) ⊙ c~_t + σ(z_i) ⊙ tanh(z_g); h_t = σ(z_o) ⊙ tanh(c_t)
            zi, zf, zg, zo = (xz_t + torch.matmul(h_tilde, self.W_hh.t())).chunk(4, -1)
            c = torch.sigmoid(zf) * c_tilde + torch.sigmoid(zi) * torch.tanh(zg)
            h = torch.sigmoid(zo) * torch.tanh(c)
            tape.append(torch.cat([h, c, torch.matmul(h, self.W_h.t())], -1))
            if self.window is not None and len(tape) > self.window:
                del tape[0]
            yield {"hidden": h, "cell": c, "attention": s}

    def config(self):
        return dict(super().config(), k=self.k, window=self.window)


class GRU(_Recurrent):
    """The gated recurrent unit, as torch.nn.GRU computes it; C++ sarnn::Gru<T, In, Hidden>, params
    sarnn::GruParams<T, In, Hidden>.

        r = σ(W_ir x_i + b_ir + W_hr h_{i-1} + b_hr)
        z = σ(W_iz x_i + b_iz + W_hz h_{i-1} + b_hz)
        n = tanh(W_in x_i + b_in + r ⊙ (W_hn h_{i-1} + b_hn))
        h_i = (1 - z) ⊙ n + z ⊙ h_{i-1},  h_0 = 0

    Params: torch.nn.GRU's tensors as they are: W_ih (3·Hidden, In) (weight_ih_l0: rows r, z, n), W_hh
    (3·Hidden, Hidden), b_ih and b_hh (3·Hidden) (both kept: b_hn sits inside r ⊙ (...)). Emits 'hidden' (h_i).
    """

    kind = "gru"

    def __init__(self, in_size, hidden):
        super().__init__(in_size, hidden)
        _gru_parameters(self)
        self.reset_parameters()

    def _steps(self, x):
        h = x.new_zeros(x.shape[0], self.hidden)
        cell = _gru_cell(self, x)
        next(cell)
        for _ in range(x.shape[1]):
            h = cell.send(h)
            yield {"hidden": h}


class LSTM(_Recurrent):
    """The long short-term memory, as torch.nn.LSTM computes it; C++ sarnn::Lstm<T, In, Hidden>, params
    sarnn::LstmParams<T, In, Hidden>.

        z = W_ih x_i + W_hh h_{i-1} + b,  gates in torch's order i, f, g, o:
        i = σ(z_i), f = σ(z_f), g = tanh(z_g), o = σ(z_o)
        c_i = f ⊙ c_{i-1} + i ⊙ g,  h_i = o ⊙ tanh(c_i),  h_0 = c_0 = 0

    Params: W_ih (4·Hidden, In), W_hh (4·Hidden, Hidden) (torch's weight_ih_l0, weight_hh_l0 as they are) and
    b (4·Hidden) = b_ih + b_hh. Emits 'hidden' (h_i) and 'cell' (c_i).
    """

    kind = "lstm"
    emits = ("hidden", "cell")

    def __init__(self, in_size, hidden):
        super().__init__(in_size, hidden)
        h4 = 4 * self.hidden
        self.W_ih = nn.Parameter(torch.empty(h4, self.in_size))
        self.W_hh = nn.Parameter(torch.empty(h4, self.hidden))
        self.b = nn.Parameter(torch.empty(h4))
        self.reset_parameters()

    def _steps(self, x):
        xz = torch.matmul(x, self.W_ih.t()) + self.b
        w_hh = self.W_hh.t()
        h = x.new_zeros(x.shape[0], self.hidden)
        c = x.new_zeros(x.shape[0], self.hidden)
        for xz_i in xz.unbind(1):
            # z = W_ih x_i + W_hh h_{i-1} + b; c_i = σ(z_f) ⊙ c_{i-1} + σ(z_i) ⊙ tanh(z_g); h_i = σ(z_o) ⊙ tanh(c_i)
            zi, zf, zg, zo = (xz_i + torch.matmul(h, w_hh)).chunk(4, -1)
            c = torch.sigmoid(zf) * c + torch.sigmoid(zi) * torch.tanh(zg)
            h = torch.sigmoid(zo) * torch.tanh(c)
            yield {"hidden": h, "cell": c}
