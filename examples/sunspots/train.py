"""examples/sunspots/train.py: next-year forecasts of the yearly sunspot numbers with a SimpleRNN and a
SelfAttentionRNN (sarnn.modules) and PyTorch's own torch.nn.GRU and torch.nn.LSTM (one layer), each with a linear
readout y_t = w·h_t + b of its state h_t; the same seed, optimiser (Adam) and budget for all. Saves the models for
`python3 -m sarnn.export`, a calibration set (the training years) for `--quantize int8`, and the stream's states and
forecasts of PyTorch and of the Python twin of the q15 models as a C++ header (write_data.py).

Training: --steps Adam steps (lr LR, gradient norm clipped to 1) on batches of BATCH windows of LENGTH years cut at
random from the training years (inputs 1700 .. 1919, targets 1701 .. 1920), each window from reset(); the loss is
the mean squared error of y_t against x_{t+1} over the steps after the first WARM of each window.
Forecasts: one stream from reset() over every input 1700 .. 2007 (the training years are its warm-up); the test
forecasts are those of the inputs 1920 .. 2007 (targets 1921 .. 2008).

Writes into --out-dir: sunspots_<model>.pt for each of --models (simple, attention: sarnn.save(); gru, lstm: the
torch.nn.GRU's / LSTM's state_dict(), as a PyTorch user saves it), sunspots_calibration.pt (1, 220, 1),
sunspots_data.hpp and sunspots_results.json (every forecast in the original units, for report.py).
Exits with status 1 when a check below fails (the example would show nothing worth showing):
a model's test RMSE above RMSE_FACTOR times persistence's, a q15 forecast more than Q15_GAP (original units)
from its float model's, or a GRU's or LSTM's q15 state h_t more than H_GAP from its float model's in a test year.

    /usr/bin/python3 examples/sunspots/train.py --out-dir /tmp/sunspots [--steps 300] [--seed 0] [--models gru,lstm]
"""
import argparse
import copy
import json
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))  # sarnn's Python package, from the source tree
sys.path.insert(0, HERE)

import numpy as np  # noqa: E402
import torch  # noqa: E402
from torch import nn  # noqa: E402

import sarnn  # noqa: E402
from sarnn import q15  # noqa: E402  (the Python twin of the q15 models)
from sarnn.quantize import quantize, quantize_inputs, twin_run  # noqa: E402  (what --quantize int8 runs)
from sarnn.spec import resolve  # noqa: E402

import series  # noqa: E402
import write_data  # noqa: E402

HIDDEN = 16
WINDOW = 16          # the SelfAttentionRNN's memory: sarnn::Window of the newest 16 states
ALIGN = "scaled_dot"  # e_ij = h_j·h_i / sqrt(Hidden)
STEPS = 300          # the full budget (run); the test command's smoke build passes fewer
BATCH = 32
LENGTH = 48          # years per training window
WARM = 8             # steps of each window left out of the loss
LR = 1e-2
RMSE_FACTOR = 1.0    # a model's test RMSE at most persistence's (beats next = last)
Q15_GAP = 2.0        # |q15 forecast - float forecast| at most this, in sunspots (0.02 of the scaled input)
H_GAP = 0.02         # the GRU's and LSTM's |q15 h_t - float h_t| at most this in every lane (issue 33's bound)
MODELS = ("simple", "attention", "gru", "lstm")   # --models, in this order
CELLS = ("gru", "lstm")                           # torch.nn layers, with the h_t bound H_GAP


def make_rnn(key):
    """The recurrent model `key` (before its readout): sarnn's own modules, or PyTorch's plain layers."""
    if key == "simple":
        return sarnn.SimpleRNN(1, HIDDEN)
    if key == "attention":
        return sarnn.SelfAttentionRNN(1, HIDDEN, align=ALIGN, window=WINDOW)
    if key == "gru":
        return nn.GRU(1, HIDDEN, batch_first=True)
    return nn.LSTM(1, HIDDEN, batch_first=True)


class Forecaster(nn.Module):
    """A recurrent model (a sarnn module or a torch.nn.GRU / LSTM) and the linear readout of its hidden state:
    y_t = w·h_t + b."""

    def __init__(self, rnn):
        super().__init__()
        self.rnn = rnn
        self.readout = nn.Linear(HIDDEN, 1)

    def states(self, x):
        """h_t of every step of x (B, T, 1), each sequence from h_0 = 0 (c_0 = 0)."""
        if isinstance(self.rnn, nn.RNNBase):
            return self.rnn(x)[0]
        return self.rnn(x, emit="hidden")

    def forward(self, x):
        return self.readout(self.states(x)).squeeze(-1)


def train(net, x, warm, steps, seed):
    """`steps` Adam steps on random windows of the training years; returns the last loss."""
    data = torch.Generator().manual_seed(seed + 1)
    inputs = torch.from_numpy(x[: warm + 1])  # x_0 .. x_220: inputs and targets of the training years
    opt = torch.optim.Adam(net.parameters(), lr=LR)
    loss = torch.zeros(())
    for _ in range(steps):
        start = torch.randint(0, warm - LENGTH + 1, (BATCH,), generator=data)
        idx = start[:, None] + torch.arange(LENGTH + 1)
        windows = inputs[idx]                                   # (BATCH, LENGTH + 1)
        y = net(windows[:, :-1, None])
        loss = nn.functional.mse_loss(y[:, WARM:], windows[:, 1 + WARM:])
        opt.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(net.parameters(), 1.0)
        opt.step()
    return loss.item()


def readout_of(net):
    """(w, b) of the readout as the header holds them: float32 values as float64."""
    w = net.readout.weight.detach().float().double().numpy()[0]
    return w, float(net.readout.bias.detach().float().double())


def float_stream(net, x):
    """(h, y): PyTorch's states h_t and forecasts y_t over the whole stream x (float64 arithmetic on the weights
    rounded to float, as the exported header holds them; the torch.nn.GRU / LSTM compute them themselves)."""
    ref = copy.deepcopy(net).double()
    ref.load_state_dict({k: v.float().double() for k, v in net.state_dict().items()})
    with torch.no_grad():
        h = ref.states(torch.from_numpy(x.astype(np.float64))[None, :, None])
        return h[0].numpy(), ref.readout(h).squeeze(-1)[0].numpy()


def float_cells(net, x):
    """The torch.nn.LSTM's cell c_t over the whole stream x (float64 on the float weights), one step at a time
    (the layer returns the last c only)."""
    ref = copy.deepcopy(net.rnn).double()
    ref.load_state_dict({k: v.float().double() for k, v in net.rnn.state_dict().items()})
    state, cells = None, []
    with torch.no_grad():
        for v in x.astype(np.float64):
            _, state = ref(torch.tensor([[[v]]], dtype=torch.float64), state)
            cells.append(state[1][0, 0].numpy().copy())
    return np.array(cells)


def q15_stream(net, x, model_file, calibration):
    """(h_q, y_q, QSpec): the Python twin's int16 h_t over the stream (the model of model_file quantised as
    `python3 -m sarnn.export <model_file> --quantize int8 --calibration <calibration>` quantises it) and
    y_t = w·(h_q / 32768) + b in float64."""
    spec = resolve(model_file)
    q = quantize(spec, calibration)
    raw = quantize_inputs(x[None, :, None], q.params["x_scale"])
    h, c = twin_run(spec, q.params, raw, q.align_params)
    w, b = readout_of(net)
    return h[0], (h[0] / 32768.0) @ w + b, q, c, raw


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out-dir", default=".", help="where the models, the header and the results go (default .)")
    p.add_argument("--steps", type=int, default=STEPS, help=f"Adam steps per model (default {STEPS})")
    p.add_argument("--seed", type=int, default=0, help="seed of the weights and the batches (default 0)")
    p.add_argument("--models", default=",".join(MODELS),
                   help=f"the models to train, comma-separated, of {', '.join(MODELS)} (default all)")
    args = p.parse_args()
    keys = [k for k in MODELS if k in args.models.split(",")]
    unknown = sorted(set(args.models.split(",")) - set(MODELS))
    if unknown or not keys:
        p.error(f"--models: {','.join(unknown) or 'none'}: choose among {', '.join(MODELS)}")
    os.makedirs(args.out_dir, exist_ok=True)
    torch.set_num_threads(1)  # tiny tensors: a second thread only spins (see examples/pytorch_recall/README.md)
    torch.use_deterministic_algorithms(True)
    t0 = time.time()

    x, warm = series.split()
    s = series.load()
    truth = s[warm + 1:]                      # 1921 .. 2008
    persistence = s[warm:-1]                  # next = last
    calibration = torch.from_numpy(x[None, :warm, None].copy())  # the training inputs 1700 .. 1919
    torch.save(calibration, os.path.join(args.out_dir, "sunspots_calibration.pt"))
    base = {"rmse": series.rmse(persistence, truth), "mae": series.mae(persistence, truth)}
    print(f"persistence (next = last) on 1921-2008: RMSE {base['rmse']:.2f}, MAE {base['mae']:.2f}")

    models, status = {}, 0
    for key in keys:
        torch.manual_seed(args.seed)  # the same initial weights' generator for each
        net = Forecaster(make_rnn(key))
        loss = train(net, x, warm, args.steps, args.seed)
        model_file = os.path.join(args.out_dir, f"sunspots_{key}.pt")
        if isinstance(net.rnn, nn.RNNBase):
            torch.save(net.rnn.state_dict(), model_file)   # plain PyTorch: the layer's state dict
        else:
            sarnn.save(net.rnn, model_file)
        h, y = float_stream(net, x)
        h_q, y_q, q, c_q, raw = q15_stream(net, x, model_file, calibration)
        w, b = readout_of(net)
        test_f, test_q = y[warm:] * series.SCALE, y_q[warm:] * series.SCALE
        gap = float(np.max(np.abs(test_q - test_f)))
        h_gap = float(np.max(np.abs(h_q[warm:] / 32768.0 - h[warm:])))
        m = {"readout_w": w.tolist(), "readout_b": b, "loss": loss, "float": test_f.tolist(), "q15": test_q.tolist(),
             "y": y[warm:].tolist(), "h": h[warm:].tolist(), "y_q15": y_q[warm:].tolist(),
             "h_q15": h_q[warm:].astype(int).tolist(),
             "rmse": series.rmse(test_f, truth), "mae": series.mae(test_f, truth),
             "rmse_q15": series.rmse(test_q, truth), "mae_q15": series.mae(test_q, truth), "gap": gap,
             "h_gap": h_gap, "x_scale": q.params["x_scale"], "bounds": q.summary()}
        if key == "lstm":   # the cell: PyTorch's c_t, the twin's Q3.12 c_t and its clamped lanes over the stream
            m["c"] = float_cells(net, x)[warm:].tolist()
            m["c_q15"] = c_q[0, warm:].astype(int).tolist()
            m["saturated_q15"] = int(q15.run_lstm(q.params, raw)[2][0])
        models[key] = m
        print(f"{key:9s} loss {loss:.4f}; test RMSE float {m['rmse']:.2f}, q15 {m['rmse_q15']:.2f}; MAE float "
              f"{m['mae']:.2f}, q15 {m['mae_q15']:.2f}; largest |q15 - float| {gap:.2f}, of h {h_gap:.4f}\n"
              f"    {q.summary()}", flush=True)
        if max(m["rmse"], m["rmse_q15"]) > RMSE_FACTOR * base["rmse"]:
            print(f"train.py: {key}: test RMSE above {RMSE_FACTOR} times persistence's", file=sys.stderr)
            status = 1
        if gap > Q15_GAP:
            print(f"train.py: {key}: a q15 forecast is {gap:.2f} from the float one (bound {Q15_GAP})",
                  file=sys.stderr)
            status = 1
        if key in CELLS and h_gap > H_GAP:
            print(f"train.py: {key}: a q15 state is {h_gap:.4f} from the float one (bound {H_GAP})", file=sys.stderr)
            status = 1

    results = {"seed": args.seed, "steps": args.steps, "warm": warm, "first_test_year": series.LAST_TRAIN_YEAR + 1,
               "truth": truth.tolist(), "persistence": base, "rmse_factor": RMSE_FACTOR, "q15_gap": Q15_GAP,
               "h_gap": H_GAP,
               "x": x.tolist(), "models": models}
    with open(os.path.join(args.out_dir, "sunspots_results.json"), "w", encoding="utf-8") as f:
        json.dump(results, f)
    write_data.write(os.path.join(args.out_dir, "sunspots_data.hpp"), results)
    print(f"wrote {args.out_dir}/sunspots_{{{','.join(keys)}}}.pt, sunspots_calibration.pt, sunspots_data.hpp, "
          f"sunspots_results.json in {time.time() - t0:.1f} s")
    return status


if __name__ == "__main__":
    sys.exit(main())
