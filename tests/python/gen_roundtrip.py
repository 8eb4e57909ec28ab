"""Writes the headers of the C++ round trip (tests/python/roundtrip.cpp), all in this one process.

    /usr/bin/python3 gen_roundtrip.py --out-dir DIR      (PYTHONPATH=<sarnn>/python)

For every model below it calls sarnn.export_header() (the package, not the command line: one torch import
for all of them) and writes DIR/<name>.hpp, namespace <name>. Then DIR/roundtrip_models.hpp includes them
all and defines SARNN_ROUNDTRIP_MODELS(X), one X(name, "C++ type", constructor arguments...) per model.

The models: random ones (seeded) for every align (dot, scaled_dot, bilinear, key_query, additive) under both
memory policies (Bounded with capacity 64; Window of 8 or 16, shorter than the 40-step golden run, so the
ring wraps), the LSTMN under both policies, the SimpleRnn, two GRUs and two LSTMs and six SelfAttentionRNNs with the
GRU cell (issue 33: SelfAttentionRnn<..., GruCell>, every align, both memories), each as float and as double; sizes that are not multiples of any SIMD width (In, Hidden in 1, 3, 7, 17, 33; K = 5). And one trained model: a
SelfAttentionRNN taught a delayed-recall task for 50 Adam steps (seeded, under a second), saved with
sarnn.save() to DIR/trained.pt and exported from that file as float (with the command line's generator
string, so the ctest test sarnn_python_export_cli can compare `python3 -m sarnn.export` against it byte for
byte) and as double.

Tolerances are the exporter's defaults: 1e-4 for float, 1e-10 for double.

The quantised headers (`--quantize int8`, DIR/rt_q15_<name>.hpp, listed by SARNN_ROUNDTRIP_Q15_MODELS(X)): the
SimpleRnn, the dot / scaled_dot / bilinear / key_query / additive SelfAttentionRNNs above (both memories;
key_query K 5 in the cache form at Hidden 33, Bounded, and in the fold form at Hidden 7, Window: KeyQueryAlign<5>'s
default plan picks by 4·K <= Hidden), both LSTMNs (their c the cell in Q3.12), the GRUs and the LSTMs (c the
cell in Q3.12), the GRU-cell attention models (c the context), each with a seeded calibration of 6 sequences of 40 steps, uniform in a range
of its own (so that x_scale differs: 2^-11 .. 2^-20). Their self_check() demands the Python twin's int16 h and c
bit for bit and the bound recorded over the calibration. One of them, the dot Window model, is saved with
sarnn.save() to DIR/q15_model.pt with its calibration DIR/q15_calibration.pt and exported from those files with
the command line's generator string (ctest sarnn_python_export_cli_q15 compares).

A torch.nn.GRU and a torch.nn.LSTM (In 3, Hidden 12) trained for 40 Adam steps on the delayed-recall task are saved
as plain state dicts (DIR/gru_state.pt, DIR/lstm_state.pt) with a calibration of 8 sequences (DIR/gru_calibration.pt,
DIR/lstm_calibration.pt) and exported from those files as float (rt_gru_cli_f, rt_lstm_cli_f) and q15
(rt_gru_cli_q15, rt_lstm_cli_q15) with the command line's generator string: PyTorch to firmware with one command each
(ctest sarnn_python_export_cli_gru, ..._lstm, ..._gru_q15, ..._lstm_q15 compare the command's bytes).
"""
import argparse
import os
import sys
import time

import torch
from torch import nn

import sarnn

GOLDEN_STEPS = 40
CAPACITY = 64
K = 5
TRAINED = "trained.pt"
# The ctest test sarnn_python_export_cli runs `python3 -m sarnn.export trained.pt --name rt_trained_f
# --golden-steps 40` (see CMakeLists.txt) and expects this script's rt_trained_f.hpp, byte for byte.
CLI_NAME = "rt_trained_f"

# (name, In, Hidden, align, window) of the random SelfAttentionRNNs; window None: Bounded with CAPACITY.
SELF_ATTENTION = (
    ("sa_dot_bounded", 3, 17, "dot", None),
    ("sa_dot_window", 17, 7, "dot", 8),
    ("sa_scaled_dot_bounded", 7, 33, "scaled_dot", None),
    ("sa_scaled_dot_window", 3, 33, "scaled_dot", 16),
    ("sa_bilinear_bounded", 17, 7, "bilinear", None),
    ("sa_bilinear_window", 7, 17, "bilinear", 8),
    ("sa_key_query_bounded", 3, 33, "key_query", None),
    ("sa_key_query_window", 33, 7, "key_query", 16),
    ("sa_additive_bounded", 7, 17, "additive", None),
    ("sa_additive_window", 3, 33, "additive", 8),
)
# (name, In, Hidden, window) of the random LSTMNs (K = 5).
LSTMNS = (
    ("lstmn_bounded", 7, 17, None),
    ("lstmn_window", 3, 33, 16),
)
SIMPLE = ("simple", 7, 33)
# (name, In, Hidden) of the random GRUs and LSTMs (issue 33), after the others (their seeds follow)
GRUS = (("gru", 7, 33), ("gru_small", 1, 3))
LSTMS = (("lstm", 17, 7), ("lstm_small", 3, 1))
# (name, In, Hidden, align, window) of the random SelfAttentionRNN(cell="gru")s (issue 33), last (their seeds follow)
GRU_CELLS = (
    ("sa_gru_dot_window", 7, 17, "dot", 8),
    ("sa_gru_scaled_dot_bounded", 3, 33, "scaled_dot", None),
    ("sa_gru_bilinear_bounded", 1, 3, "bilinear", None),
    ("sa_gru_key_query_bounded", 3, 33, "key_query", None),
    ("sa_gru_key_query_window", 17, 7, "key_query", 16),
    ("sa_gru_additive_window", 33, 7, "additive", 8),
)
# (random model above, half-range of its calibration inputs) of the quantised exports
Q15 = (("simple", 3.0), ("sa_dot_bounded", 1.0), ("sa_dot_window", 0.02), ("sa_scaled_dot_bounded", 0.7),
       ("sa_scaled_dot_window", 5.5), ("sa_bilinear_bounded", 0.3), ("sa_bilinear_window", 12.0),
       ("sa_key_query_bounded", 2.0), ("sa_key_query_window", 0.05), ("sa_additive_bounded", 0.5),
       ("sa_additive_window", 9.0), ("lstmn_bounded", 1.5), ("lstmn_window", 0.1), ("gru", 2.0),
       ("gru_small", 0.3), ("lstm", 1.0), ("lstm_small", 6.0), ("sa_gru_dot_window", 1.0),
       ("sa_gru_scaled_dot_bounded", 0.2), ("sa_gru_bilinear_bounded", 4.0), ("sa_gru_key_query_bounded", 1.5),
       ("sa_gru_key_query_window", 0.05), ("sa_gru_additive_window", 2.5))
Q15_CLI = "sa_dot_window"   # saved to Q15_MODEL, exported as rt_q15_cli by the command line too
Q15_MODEL, Q15_CALIBRATION, Q15_CLI_NAME = "q15_model.pt", "q15_calibration.pt", "rt_q15_cli"


def random_models():
    """(name, module) of every random model, each seeded by its position in the list."""
    specs = [(name, lambda i=i, h=h, a=a, w=w: sarnn.SelfAttentionRNN(
                 i, h, align=a, window=w, k=K if a in ("key_query", "additive") else None))
             for name, i, h, a, w in SELF_ATTENTION]
    specs += [(name, lambda i=i, h=h, w=w: sarnn.LSTMN(i, h, K, window=w)) for name, i, h, w in LSTMNS]
    specs.append((SIMPLE[0], lambda: sarnn.SimpleRNN(SIMPLE[1], SIMPLE[2])))
    specs += [(name, lambda i=i, h=h: sarnn.GRU(i, h)) for name, i, h in GRUS]
    specs += [(name, lambda i=i, h=h: sarnn.LSTM(i, h)) for name, i, h in LSTMS]
    specs += [(name, lambda i=i, h=h, a=a, w=w: sarnn.SelfAttentionRNN(
                 i, h, align=a, window=w, k=K if a in ("key_query", "additive") else None, cell="gru"))
              for name, i, h, a, w in GRU_CELLS]
    for seed, (name, make) in enumerate(specs):
        torch.manual_seed(1000 + seed)
        yield name, make()


def trained_model():
    """A SelfAttentionRNN (In 3, Hidden 17, key_query K 5, Window 16) with a linear readout, trained for 50
    Adam steps to output x_{t-2}[0] (the first input channel two steps back), which takes a memory of past
    inputs. Returns (model, first loss, last loss)."""
    torch.manual_seed(7)
    model = sarnn.SelfAttentionRNN(3, 17, align="key_query", k=K, window=16)
    readout = nn.Linear(17, 1)
    opt = torch.optim.Adam(list(model.parameters()) + list(readout.parameters()), lr=0.03)
    delay, batch, steps = 2, 32, 24
    losses = []
    for _ in range(50):
        x = torch.rand(batch, steps, 3) * 2 - 1
        target = x[:, : steps - delay, 0]
        y = readout(model(x)).squeeze(-1)[:, delay:]
        loss = torch.mean((y - target) ** 2)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return model, losses[0], losses[-1]


def trained_torch_layer(kind):
    """A torch.nn.GRU or nn.LSTM (In 3, Hidden 12, batch_first) with a linear readout, trained for 40 Adam steps to
    output x_{t-2}[0], as trained_model() does. Returns (layer, first loss, last loss)."""
    torch.manual_seed(8 if kind == "gru" else 9)
    layer = (nn.GRU if kind == "gru" else nn.LSTM)(3, 12, batch_first=True)
    readout = nn.Linear(12, 1)
    opt = torch.optim.Adam(list(layer.parameters()) + list(readout.parameters()), lr=0.03)
    delay, batch, steps = 2, 32, 24
    losses = []
    for _ in range(40):
        x = torch.rand(batch, steps, 3) * 2 - 1
        y = readout(layer(x)[0]).squeeze(-1)[:, delay:]
        loss = torch.mean((y - x[:, : steps - delay, 0]) ** 2)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return layer, losses[0], losses[-1]


class Aggregate:
    """The lines of roundtrip_models.hpp."""

    def __init__(self):
        self.includes, self.entries, self.q15 = [], [], []

    def add_q15(self, name, qspec):
        args = f"{name}::params" + ("" if qspec.align_params is None else f", {name}::align_params")
        self.includes.append(f'#include "{name}.hpp"')
        self.q15.append(f'    X({name}, "{qspec.model_type()}", {args})')

    def add(self, name, spec):
        args = [f"{name}::{g.variable}" for g in spec.groups()]
        self.includes.append(f'#include "{name}.hpp"')
        self.entries.append(f'    X({name}, "{spec.model_type()}", {", ".join(args)})')

    def text(self):
        body = " \\\n".join(self.entries)
        return "\n".join([
            "// roundtrip_models.hpp: generated by tests/python/gen_roundtrip.py. Do not edit.",
            "#ifndef SARNN_ROUNDTRIP_MODELS_HPP",
            "#define SARNN_ROUNDTRIP_MODELS_HPP",
            *self.includes,
            "// X(namespace, \"C++ model type\", constructor arguments...), one per exported header",
            "#define SARNN_ROUNDTRIP_MODELS(X) \\",
            body,
            "// X(namespace, \"C++ model type\", constructor arguments...), one per quantised header",
            "#define SARNN_ROUNDTRIP_Q15_MODELS(X) \\",
            " \\\n".join(self.q15),
            "#endif",
            "",
        ])


def write_atomic(path, text):
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)
    os.replace(tmp, path)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out-dir", required=True)
    args = p.parse_args(argv)
    out = args.out_dir
    os.makedirs(out, exist_ok=True)
    torch.set_num_threads(1)  # deterministic, and the build shares the machine
    t0 = time.monotonic()
    aggregate = Aggregate()

    def export(source, name, dtype, **options):
        spec = sarnn.export_header(source, name, os.path.join(out, name + ".hpp"), dtype=dtype,
                                   golden_steps=GOLDEN_STEPS, **options)
        aggregate.add(name, spec)

    q15_range = dict(Q15)
    for seed, (name, model) in enumerate(random_models()):
        capacity = CAPACITY if model.kind in ("self_attention", "lstmn") and model.config()["window"] is None else None
        for dtype, suffix in (("float", "f"), ("double", "d")):
            export(model, f"rt_{suffix}_{name}", dtype, capacity=capacity)
        if name in q15_range:
            generator = torch.Generator().manual_seed(2000 + seed)
            calibration = (torch.rand(6, GOLDEN_STEPS, model.in_size, generator=generator) * 2 - 1) * q15_range[name]
            qspec = sarnn.export_header(model, f"rt_q15_{name}", os.path.join(out, f"rt_q15_{name}.hpp"),
                                        quantize="int8", calibration=calibration, capacity=capacity,
                                        golden_steps=GOLDEN_STEPS)
            aggregate.add_q15(f"rt_q15_{name}", qspec)
            if name == Q15_CLI:
                # As `python3 -m sarnn.export q15_model.pt --quantize int8 --calibration q15_calibration.pt
                # --name rt_q15_cli --golden-steps 40` writes it (same bytes)
                sarnn.save(model, os.path.join(out, Q15_MODEL))
                torch.save(calibration, os.path.join(out, Q15_CALIBRATION))
                qspec = sarnn.export_header(os.path.join(out, Q15_MODEL), Q15_CLI_NAME,
                                            os.path.join(out, Q15_CLI_NAME + ".hpp"), quantize="int8",
                                            calibration=os.path.join(out, Q15_CALIBRATION),
                                            golden_steps=GOLDEN_STEPS, generator="python3 -m sarnn.export")
                aggregate.add_q15(Q15_CLI_NAME, qspec)

    # A trained torch.nn.GRU and nn.LSTM, saved as plain state dicts and exported from those files as the command line
    # does (`python3 -m sarnn.export gru_state.pt --name rt_gru_cli_f --golden-steps 40`, and with `--quantize int8
    # --calibration gru_calibration.pt`): the ctest tests sarnn_python_export_cli_{gru,lstm}{,_q15} compare.
    trained_layers = []
    for kind in ("gru", "lstm"):
        layer, first_loss, last_loss = trained_torch_layer(kind)
        trained_layers.append(f"{kind} {first_loss:.4f} -> {last_loss:.4f}")
        state, calibration = os.path.join(out, f"{kind}_state.pt"), os.path.join(out, f"{kind}_calibration.pt")
        torch.save(layer.state_dict(), state)
        torch.save(torch.rand(8, GOLDEN_STEPS, 3, generator=torch.Generator().manual_seed(5)) * 2 - 1, calibration)
        export(state, f"rt_{kind}_cli_f", "float", generator="python3 -m sarnn.export")
        qspec = sarnn.export_header(state, f"rt_{kind}_cli_q15", os.path.join(out, f"rt_{kind}_cli_q15.hpp"),
                                    quantize="int8", calibration=calibration, golden_steps=GOLDEN_STEPS,
                                    generator="python3 -m sarnn.export")
        aggregate.add_q15(f"rt_{kind}_cli_q15", qspec)

    model, first, last = trained_model()
    trained = os.path.join(out, TRAINED)
    sarnn.save(model, trained)
    # As `python3 -m sarnn.export trained.pt --name rt_trained_f --golden-steps 40` writes it (same bytes).
    export(trained, CLI_NAME, "float", generator="python3 -m sarnn.export")
    export(trained, "rt_trained_d", "double")

    write_atomic(os.path.join(out, "roundtrip_models.hpp"), aggregate.text())
    print(f"gen_roundtrip: {len(aggregate.entries)} + {len(aggregate.q15)} quantised headers in {out} "
          f"({time.monotonic() - t0:.1f} s; trained model: "
          f"loss {first:.4f} -> {last:.4f} in 50 steps; torch layers: {', '.join(trained_layers)} in 40 steps)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
