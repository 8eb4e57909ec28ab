"""sarnn.rounding: the int8 rows of the q15 GRU's and LSTM's gates fitted to the calibration's inputs (issue 33).

The plain rule (sarnn.quantize._int8_rows) rounds each weight of a row w (of [W_ih | W_hh]) to the nearest
multiple of a = max|w| / 127. With In 1 and Hidden 16 that is 17 weights of 7 bits, and the rounding errors
d = a·q - w add up in the pre-activation z = w·u (u = [x; h_{t-1}]) at every step; the LSTM's cell integrates
them (c_t = f·c_{t-1} + i·g): a trained torch.nn.LSTM(1, 16) of the sunspots example lands 0.023 from its float
model in h, while the activations' tables, the Q3.12 gates and the rounding of h and c together cost below 0.001.

What the error of z is over the calibration: e_t = d·u_t, u_t the float model's [x_t; h_{t-1}] (for the GRU's
candidate row k, [x_t; r_t,k·h_{t-1}]: gh_n is multiplied by r). Its mean d·μ goes into the bias (Q3.12: 1/8192 at
most of rounding), so what is left is its variance dᵀ G d, G the covariance of u over the calibration. For each
row, over the scales a = max|w|/127·(1 + k/128), k = 0 .. 16 (a coarser grid that may put the weights closer to
it):
    q = round(w / a), clamped to int8;
    coordinate descent: q_j ± 1 while it lowers dᵀ G_λ d (G_λ = G + λ·mean(diag G)·I, λ = 0.01: directions the
    calibration does not move are kept near the nearest rounding, so inputs beyond it are not worse off);
    a refitted to (qᵀ G_λ w) / (qᵀ G_λ q) when that lowers it;
the best (q, a) is kept, and b += -(a·q - w)·μ. The integers are int8 rows, a multiplier and shift per row
(M = a / 8) and a Q3.12 bias, exactly what the plain rule gives the kernels: only their values change.
Measured (examples/sunspots, seeds 0 .. 7, 300 steps, the test years): the LSTM's max |h_q - h_float| 0.007 ..
0.023 -> 0.0014 .. 0.0052, the GRU's 0.004 .. 0.021 -> 0.0009 .. 0.0023.
"""
import numpy as np

RIDGE = 0.01        # λ: G_λ = G + λ·mean(diag G)·I
SCALE_STEPS = 17    # a = max|w|/127·(1 + k/128), k = 0 .. 16
MAX_SAMPLES = 4096  # calibration steps the moments are taken over (evenly spaced when there are more)
MAX_SWEEPS = 50


def moments(U):
    """(G, μ): the covariance (C, C) and the mean (C,) of the samples U (N, C)."""
    mu = U.mean(axis=0)
    Uc = U - mu
    return Uc.T @ Uc / len(U), mu


def _nearest(w, a):
    v = w / a
    return np.clip(np.sign(v) * np.floor(np.abs(v) + 0.5), -127, 127)


def _descend(q, a, w, G):
    """Coordinate descent of dᵀ G d, d = a·q - w, over q_j ± 1 within int8 (q changed in place)."""
    g = G @ (a * q - w)                     # the gradient's half, kept up to date
    for _ in range(MAX_SWEEPS):
        changed = False
        for j in range(len(q)):
            for step in (-1.0, 1.0):
                if abs(q[j] + step) > 127:
                    continue
                # change of dᵀ G d when q_j moves by step: 2·step·a·g_j + a²·G_jj
                if 2.0 * step * a * g[j] + a * a * G[j, j] < -1e-12 * a * a * G[j, j]:
                    q[j] += step
                    g += step * a * G[:, j]
                    changed = True
                    break
        if not changed:
            return


def fit_row(w, G, mu):
    """(q, a, db) of one row w (C,): int8 values q (int64), its scale a and the bias change db, for inputs of
    covariance G and mean mu (the module docstring). A row of zeros: zeros, 2^-20, 0 (the plain rule's)."""
    w = np.asarray(w, dtype=np.float64)
    big = float(np.max(np.abs(w)))
    if big == 0.0:
        return np.zeros(len(w), dtype=np.int64), 2.0 ** -20, 0.0
    level = float(np.mean(np.diag(G)))
    G = G + RIDGE * (level if level > 0 else 1.0) * np.eye(len(w))

    def cost(q, a):
        d = a * q - w
        return float(d @ G @ d)

    best = None
    for k in range(SCALE_STEPS):
        a = big / 127.0 * (1.0 + k / 128.0)
        q = _nearest(w, a)
        _descend(q, a, w, G)
        qGq = float(q @ G @ q)
        if qGq > 0:
            refit = float(q @ G @ w) / qGq
            if refit > 0 and cost(q, refit) < cost(q, a):
                a = refit
        c = cost(q, a)
        if best is None or c < best[0]:
            best = (c, q.copy(), a)
    _, q, a = best
    return q.astype(np.int64), a, -float((a * q - w) @ mu)


def _samples(U):
    """At most MAX_SAMPLES rows of U, evenly spaced."""
    if len(U) <= MAX_SAMPLES:
        return U
    return U[np.linspace(0, len(U) - 1, MAX_SAMPLES).round().astype(np.int64)]


def gate_inputs(x, h):
    """The gates' inputs u_t = [x_t; h_{t-1}] (N, In + Hidden) of calibration inputs x (B, T, In) and the float
    model's states h (B, T, Hidden), h_{-1} = 0 (each sequence from reset())."""
    x = np.asarray(x, dtype=np.float32).astype(np.float64)
    h = np.asarray(h, dtype=np.float64)
    batch, steps, hidden = h.shape
    prev = np.concatenate([np.zeros((batch, 1, hidden)), h[:, :-1]], axis=1)
    return np.concatenate([x.reshape(batch * steps, -1), prev.reshape(batch * steps, hidden)], axis=1)


def fit_lstm(W, U):
    """The LSTM's gate rows W (4·Hidden, In + Hidden) fitted to its inputs U (gate_inputs): (q rows (R, C) int64,
    scales (R,), bias changes (R,))."""
    G, mu = moments(_samples(U))
    fits = [fit_row(w, G, mu) for w in np.asarray(W, dtype=np.float64)]
    return np.array([f[0] for f in fits]), np.array([f[1] for f in fits]), np.array([f[2] for f in fits])


def fit_gru(W, U, r):
    """The GRU's gate rows W (3·Hidden, In + Hidden) fitted to its inputs U (gate_inputs) and its float reset gate
    r (N, Hidden) at the same steps: rows r and z see u_t, candidate row k sees [x_t; r_t,k·h_{t-1}] (its bias
    change belongs in b_ih, outside r): (q rows, scales, bias changes) as fit_lstm's."""
    W = np.asarray(W, dtype=np.float64)
    hidden = r.shape[1]
    n_in = U.shape[1] - hidden
    keep = np.linspace(0, len(U) - 1, min(len(U), MAX_SAMPLES)).round().astype(np.int64)
    U, r = U[keep], r[keep]
    G, mu = moments(U)
    fits = [fit_row(w, G, mu) for w in W[:2 * hidden]]
    for k in range(hidden):
        Gk, muk = moments(np.concatenate([U[:, :n_in], r[:, k:k + 1] * U[:, n_in:]], axis=1))
        fits.append(fit_row(W[2 * hidden + k], Gk, muk))
    return np.array([f[0] for f in fits]), np.array([f[1] for f in fits]), np.array([f[2] for f in fits])
