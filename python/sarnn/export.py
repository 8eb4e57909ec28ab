"""The exporter: export_header() writes a trained model as a C++ header, and its command line,
`python3 -m sarnn.export MODEL [--name NAME] [--out HEADER] [options]`.

With `--quantize int8 --calibration INPUTS.pt` it writes the q15 model (int8 weights, int16 activations, no float at
run time) of a SimpleRnn, a SelfAttentionRnn (any align: dot, scaled_dot, bilinear, key_query, additive) or an LSTMN
instead, and prints the input scale (and the align's headrooms, or the scores' format of the additive align and the
LSTMN) and the error bound it measured over the calibration run on a second line (sarnn.quantize says how).

With `--c-api` it also writes the model's C API next to the header X.hpp: X.h (C99) and X.cpp (the C++ glue, one
static model); sarnn.header_c and docs/c-api.md say what they hold. Without it the output is the header alone.

The command writes the C++ header for MODEL (a file of torch.save: a sarnn module, a sarnn.save() dict or a state
dict); see export_header. What it had to assume (the memory policy of a plain state dict given neither
--window nor --capacity, the tanh of the state dict of a torch.nn.RNN) it prints on stderr, one line
"sarnn.export: note: <message>" each, and still exits with status 0. On an error (also a torch layer sarnn
does not compute: relu, more layers, bidirectional, LSTM, GRU) it prints "sarnn.export: error: <message>"
to stderr, writes nothing and exits with status 2.
"""
import argparse
import os
import sys
import tempfile

from sarnn import quantize as q
from sarnn.errors import ExportError
from sarnn.golden import golden_run
from sarnn.header import check_name, render
from sarnn.header_c import c_paths, render_c
from sarnn.header_q15 import render_q15
from sarnn.spec import resolve

__all__ = ["ExportError", "export_header", "main"]


def export_header(source, name, path, *, generator="sarnn.export_header()", quantize=None, calibration=None,
                  c_api=False, **options):
    """Writes the C++ header for `source` to `path`, in namespace `name`, and returns the Spec it wrote.

    source: a sarnn module, a sarnn.save() dict, a state dict, or the path of a file holding one (see
    sarnn.spec). options: model, align, window, capacity, dtype, golden_steps, golden_seed, tolerance (see
    sarnn.spec.resolve). generator names the tool in the header's first line.

    The header declares the model type `Model`, its params as constexpr aggregates of exact hex literals,
    a golden run (golden_x, golden_h: PyTorch's float64 outputs h_i for golden_steps inputs from reset()),
    golden_error(model) and self_check(model). The text goes to a temporary file in the same directory that
    then replaces `path`, so `path` is never half-written and is left as it was on any error.
    Raises ExportError for anything that does not fit, with a message naming the key or option. The returned
    Spec's notes say what was assumed rather than given (the memory policy of a plain state dict, the
    nonlinearity of a torch.nn.RNN's state dict). A torch layer sarnn does not compute (relu, more layers,
    bidirectional, LSTM, GRU) is refused with the check sarnn.from_rnn makes.

    quantize="int8" with calibration (a tensor [sequences, steps, In], or the path of a torch.save'd one) writes
    the q15 model instead (sarnn.quantize: what it takes, the input scale, the recorded bound; sarnn.header_q15: the
    text) and returns its QSpec; dtype, tolerance and golden_seed do not apply then.

    c_api=True also writes the C API next to `path` (its name with .h and .cpp for the extension; sarnn.header_c):
    a C99 header and the C++ glue that defines one static model. `path` must then not end in .h or .cpp.
    """
    check_name(name)
    path = os.fspath(path)
    c_api_paths = None
    if c_api:
        c_api_paths = c_paths(path)
        if c_api_paths is None:
            raise ExportError(f"with --c-api the C++ header cannot be named {os.path.basename(path)}: the C API "
                              "takes its name with .h and .cpp (use --out NAME.hpp)")
    if quantize is not None or calibration is not None:
        model = _export_q15(source, name, path, generator, quantize, calibration, options)
    else:
        model = resolve(source, **options)
        golden_x, golden_h = golden_run(model)
        _write_atomic(path, render(model, name, golden_x, golden_h, os.path.basename(path), generator))
    if c_api_paths is not None:
        h_path, cpp_path = c_api_paths
        h_text, cpp_text = render_c(model, name, os.path.basename(path), os.path.basename(h_path), generator)
        _write_atomic(h_path, h_text)
        _write_atomic(cpp_path, cpp_text)
    return model


def _export_q15(source, name, path, generator, quantize, calibration, options):
    q.check_options(quantize, calibration, options.pop("dtype", None), options.pop("tolerance", None),
                    options.pop("golden_seed", None))
    spec = resolve(source, dtype="float", **options)
    qspec = q.quantize(spec, calibration)
    _write_atomic(path, render_q15(qspec, name, os.path.basename(path), generator))
    return qspec


def _write_atomic(path, text):
    directory = os.path.dirname(os.path.abspath(path))
    tmp = None
    try:
        with tempfile.NamedTemporaryFile("w", encoding="utf-8", newline="\n", dir=directory, delete=False,
                                         prefix="." + os.path.basename(path) + ".", suffix=".tmp") as f:
            tmp = f.name
            f.write(text)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, path)
    except OSError as e:
        if tmp is not None and os.path.exists(tmp):
            os.unlink(tmp)
        raise ExportError(f"cannot write {path}: {e.strerror or e}") from e


def _parser():
    p = argparse.ArgumentParser(prog="sarnn.export", description="Write a sarnn model as a C++ header.",
                                usage="python3 -m sarnn.export MODEL [--name NAME] [--out HEADER] [options]")
    p.add_argument("model", help="file written by torch.save: a sarnn module, sarnn.save() output or a state dict")
    p.add_argument("--name", help="C++ namespace of the header (default: the stem of --out, else of MODEL)")
    p.add_argument("--out", help="header to write (default: NAME.hpp)")
    p.add_argument("--model", dest="kind", help="simple, self_attention or lstmn, when the keys cannot tell")
    p.add_argument("--align", help="dot, scaled_dot, bilinear, key_query or additive (self_attention)")
    p.add_argument("--window", type=int, help="use the sarnn::Window memory of this many states")
    p.add_argument("--capacity", type=int, help="states a sarnn::Bounded memory holds (default: 128)")
    p.add_argument("--dtype", help="float (default) or double")
    p.add_argument("--golden-steps", type=int, default=8, help="steps of the golden run (default: 8)")
    p.add_argument("--golden-seed", type=int, help="seed of the golden inputs (default: 0)")
    p.add_argument("--tolerance", type=float, help="self-check bound (default: 1e-4 float, 1e-10 double)")
    p.add_argument("--quantize", metavar="int8", help="write the q15 model (int8 weights, int16 activations)")
    p.add_argument("--calibration", metavar="INPUTS.pt",
                   help="with --quantize: torch.save'd tensor [sequences, steps, In] of typical inputs")
    p.add_argument("--c-api", action="store_true",
                   help="also write the model's C API next to HEADER: X.h (C99) and X.cpp (C++ glue, one static "
                        "model; compile it and link sarnn), X being HEADER without .hpp (docs/c-api.md)")
    return p


def main(argv=None):
    """Runs the command line; returns the exit status (0, or 2 on an error)."""
    args = _parser().parse_args(argv)
    name = args.name or os.path.splitext(os.path.basename(args.out or args.model))[0]
    out = args.out or name + ".hpp"
    try:
        given = {key: value for key, value in (("dtype", args.dtype), ("golden_seed", args.golden_seed),
                                                ("tolerance", args.tolerance)) if value is not None}
        spec = export_header(args.model, name, out, generator="python3 -m sarnn.export", quantize=args.quantize,
                             calibration=args.calibration, model=args.kind, align=args.align, window=args.window,
                             capacity=args.capacity, golden_steps=args.golden_steps, c_api=args.c_api, **given)
    except ExportError as e:
        print(f"sarnn.export: error: {e}", file=sys.stderr)
        return 2
    for note in spec.notes:
        print(f"sarnn.export: note: {note}", file=sys.stderr)
    print(f"wrote {out}: {spec.model_type()}")
    if args.c_api:
        print(f"wrote {' and '.join(c_paths(out))}: its C API")
    if args.quantize is not None:
        print(spec.summary())
    return 0


if __name__ == "__main__":
    sys.exit(main())
