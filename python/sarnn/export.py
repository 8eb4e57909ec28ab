"""The exporter: export_header() writes a trained model as a C++ header, and its command line, `python3 -m
sarnn.export MODEL [--name NAME] [--out HEADER] [options]`.

With `--dtype q15 --calibration INPUTS.pt` (`--quantize int8` is another spelling of `--dtype q15`) it writes the
q15 model (int8 weights, int16 activations, no float at run time) of a SimpleRnn, a SelfAttentionRnn (any align:
dot, scaled_dot, bilinear, key_query, additive; the Elman cell or the GRU cell), an LSTMN, a Gru or an Lstm instead, and prints the input scale
(and the align's headrooms, or the scores' format of the additive align and the LSTMN) and the error bound it
measured over the calibration run on a second line (sarnn.quantize says how).

With `--c-api` it also writes the model's C API next to the header X.hpp: X.h (C99) and X.cpp (the C++ glue, one
static model); sarnn.header_c and docs/c-api.md say what they hold. Without it the output is the header alone.

The command writes the C++ header for MODEL (a file of torch.save: a sarnn.save() dict or a state dict; a whole
sarnn module only with --trust-pickled-code, which runs the file's code: sarnn.files); see export_header. What it
had to assume (the memory policy of a plain state dict given neither --window nor --capacity, the tanh of the state
dict of a torch.nn.RNN) it prints on stderr, one line "sarnn.export: note: <message>" each, and still exits with
status 0. On an error (also a torch layer sarnn does not compute: relu, more layers, bidirectional, an LSTM's
projection) it prints "sarnn.export: error: <message>" to stderr, writes nothing and exits with status 2
(docs/pytorch.md lists the refusals).
"""
import argparse
import os
import stat
import sys
import tempfile

from sarnn import layout
from sarnn import quantize as q
from sarnn.errors import ExportError
from sarnn.files import TRUST_OPTION
from sarnn.golden import golden_run
from sarnn.header import check_name, render
from sarnn.header_c import c_paths, render_c
from sarnn.header_q15 import render_q15
from sarnn.spec import resolve

__all__ = ["ExportError", "export_header", "main"]

WRITE_BITS = stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH
DTYPES = ("float", "double", "q15")   # --dtype; q15 is --quantize int8


def export_header(source, name, path, *, generator="sarnn.export_header()", quantize=None, calibration=None,
                  c_api=False, trust_pickled_code=False, **options):
    """Writes the C++ header for `source` to `path`, in namespace `name`, and returns the Spec it wrote.

    source: a sarnn module, a sarnn.save() dict, a state dict, or the path of a file holding one (see
    sarnn.spec). options: model, align, window, capacity, dtype, golden_steps, golden_seed, tolerance (see
    sarnn.spec.resolve). generator names the tool in the header's first line. name: see sarnn.names (refused: not
    an identifier, a C or C++ keyword or standard library name, a compiler's predefined macro, upper case only).

    The header declares the model type `Model`, its params as constexpr aggregates of exact hex literals,
    a golden run (golden_x, golden_h: PyTorch's float64 outputs h_i for golden_steps inputs from reset()),
    golden_error(model) and self_check(model). Files are written as in write_files(): never half-written, left as
    they were on any error, a read-only one refused, a symbolic link written through.
    Raises ExportError for anything that does not fit, with a message naming the key or option. The returned
    Spec's notes say what was assumed rather than given (the memory policy of a plain state dict, the
    nonlinearity of a torch.nn.RNN's state dict). A torch.nn.GRU / GRUCell is written as a sarnn::Gru, an LSTM /
    LSTMCell as a sarnn::Lstm, a SelfAttentionRNN(cell="gru") as a sarnn::SelfAttentionRnn<..., sarnn::GruCell> with
    GruParams (a plain state dict: the GRU's keys with an align's keys, --align or --window); a torch layer sarnn does not compute (relu, more layers, bidirectional, proj_size)
    is refused with the check sarnn.from_rnn makes.

    Files are read as plain data (sarnn.files): a file holding pickled classes (a whole module saved with
    torch.save(model)) is refused unless trust_pickled_code=True, which runs the file's code to load it.

    dtype="q15" (or quantize="int8", the same) with calibration (a tensor [sequences, steps, In], or the path of a
    torch.save'd one) writes the q15 model instead (sarnn.quantize: what it takes, the input scale, the recorded
    bound; sarnn.header_q15: the text) and returns its QSpec; tolerance and golden_seed do not apply then.

    c_api=True also writes the C API next to `path` (its name with .h and .cpp for the extension; sarnn.header_c):
    a C99 header and the C++ glue that defines one static model. `path` must then not end in .h or .cpp. The
    three files are written as a set: all of them or, on an error, none.
    """
    check_name(name)
    path = os.fspath(path)
    c_api_paths = None
    if c_api:
        c_api_paths = c_paths(path)
        if c_api_paths is None:
            raise ExportError(f"with --c-api the C++ header cannot be named {os.path.basename(path)}: the C API "
                              "takes its name with .h and .cpp (use --out NAME.hpp)")
    if options.get("dtype", "float") not in DTYPES:
        raise ExportError(f"unknown dtype {options['dtype']!r} (expected one of {', '.join(DTYPES)})")
    if options.get("dtype") == "q15":
        if quantize not in (None, "int8"):
            raise ExportError(f"--dtype q15 contradicts --quantize {quantize} (--quantize int8 is --dtype q15)")
        del options["dtype"]
        quantize = "int8"
    if quantize is not None or calibration is not None:
        model = _export_q15(source, name, generator, quantize, calibration, trust_pickled_code, options)
        text = render_q15(model, name, os.path.basename(path), generator)
    else:
        model = resolve(source, trust_pickled_code=trust_pickled_code, **options)
        golden_x, golden_h = golden_run(model)
        text = render(model, name, golden_x, golden_h, os.path.basename(path), generator)
    texts = [(path, text)]
    if c_api_paths is not None:
        h_path, cpp_path = c_api_paths
        h_text, cpp_text = render_c(model, name, os.path.basename(path), os.path.basename(h_path), generator)
        texts += [(h_path, h_text), (cpp_path, cpp_text)]
    write_files(texts)
    return model


def _export_q15(source, name, generator, quantize, calibration, trust_pickled_code, options):
    q.check_options(quantize, calibration, options.pop("dtype", None), options.pop("tolerance", None),
                    options.pop("golden_seed", None))
    spec = resolve(source, dtype="float", trust_pickled_code=trust_pickled_code, **options)
    return q.quantize(spec, calibration, trust_pickled_code)


def _target(path):
    """The file `path` names: a symbolic link is followed (to its final target, which need not exist yet). Refuses
    a directory and a read-only file: one the user may not write, or without any write permission bit (which root
    may write, but whose mode says not to)."""
    target = os.path.realpath(path) if os.path.islink(path) else os.path.abspath(path)
    if os.path.isdir(target):
        raise ExportError(f"cannot write {path}: it is a directory")
    if os.path.exists(target) and (not os.access(target, os.W_OK) or not os.stat(target).st_mode & WRITE_BITS):
        raise ExportError(f"cannot write {path}: the file is read-only (not replaced; make it writable or remove it)")
    return target


def write_files(texts):
    """Writes each (path, text) of `texts` as a set: every text goes to a temporary file in its target's directory
    first, and only when all are written do they replace their targets (os.replace), so each file is either the
    old one or the whole new one, and on an error none is replaced (a replacement that fails undoes the ones
    made). A symbolic link is written through: its target gets the text and the link stays. An existing file
    keeps its permission bits; a new one gets 0666 less the umask. A read-only file or a directory is refused.
    Raises ExportError."""
    targets = [(path, _target(path), text) for path, text in texts]
    umask = os.umask(0)
    os.umask(umask)
    written = []   # (path, target, temporary file)
    try:
        for path, target, text in targets:
            directory, base = os.path.split(target)
            try:
                with tempfile.NamedTemporaryFile("w", encoding="utf-8", newline="\n", dir=directory, delete=False,
                                                 prefix="." + base + ".", suffix=".tmp") as f:
                    written.append((path, target, f.name))
                    f.write(text)
                mode = stat.S_IMODE(os.stat(target).st_mode) if os.path.exists(target) else 0o666 & ~umask
                os.chmod(f.name, mode)
            except OSError as e:
                raise ExportError(f"cannot write {path}: {e.strerror or e}") from e
        _replace_all(written)
    finally:
        for _, _, tmp in written:
            if os.path.lexists(tmp):
                os.unlink(tmp)


def _replace_all(written):
    """Moves each temporary file onto its target; if one fails, puts back the targets already replaced (from hard
    links to the old files, made where the file system allows them) and removes the ones that did not exist."""
    done = []   # (target, backup: a hard link to the old file, or None when the target did not exist)
    try:
        for path, target, tmp in written:
            backup = None
            if os.path.exists(target):
                backup = tmp + ".old"
                try:
                    os.link(target, backup)
                except OSError:
                    backup = False   # no hard links here: this one cannot be put back
            try:
                os.replace(tmp, target)
            except OSError as e:
                if backup:
                    os.unlink(backup)
                raise ExportError(f"cannot write {path}: {e.strerror or e}") from e
            done.append((target, backup))
    except ExportError:
        for target, backup in reversed(done):
            if backup is None:
                os.unlink(target)
            elif backup:
                os.replace(backup, target)
        raise
    for _, backup in done:
        if backup:
            os.unlink(backup)


def _parser():
    p = argparse.ArgumentParser(prog="sarnn.export", description="Write a sarnn model as a C++ header.",
                                usage="python3 -m sarnn.export MODEL [--name NAME] [--out HEADER] [options]")
    p.add_argument("model", help="file written by torch.save: sarnn.save() output or a state dict (a whole module "
                                 "only with --trust-pickled-code)")
    p.add_argument("--name", help="C++ namespace of the header (default: the stem of --out, else of MODEL)")
    p.add_argument("--out", help="header to write (default: NAME.hpp)")
    p.add_argument("--model", dest="kind", help="simple, self_attention, lstmn, gru or lstm, when the keys cannot "
                                                "tell")
    p.add_argument("--align", help=layout.names_text(layout.aligns()) + " (self_attention)")
    p.add_argument("--window", type=int, help="use the sarnn::Window memory of this many states")
    p.add_argument("--capacity", type=int, help="states a sarnn::Bounded memory holds (default: 128)")
    p.add_argument("--dtype", help="float (default), double, or q15: the fixed-point model (int8 weights, int16 "
                                   "activations; needs --calibration)")
    p.add_argument("--golden-steps", type=int, default=8, help="steps of the golden run (default: 8)")
    p.add_argument("--golden-seed", type=int, help="seed of the golden inputs (default: 0)")
    p.add_argument("--tolerance", type=float, help="self-check bound (default: 1e-4 float, 1e-10 double)")
    p.add_argument("--quantize", metavar="int8", help="the same as --dtype q15 (another spelling)")
    p.add_argument("--calibration", metavar="INPUTS.pt",
                   help="with --dtype q15: torch.save'd tensor [sequences, steps, In] of typical inputs")
    p.add_argument(TRUST_OPTION, dest="trust_pickled_code", action="store_true",
                   help="RUNS CODE FROM THE FILES: also read MODEL and INPUTS.pt when they hold pickled classes (a "
                        "whole module saved with torch.save(model)), which torch.load builds by running code the "
                        "file names. Only for files you trust; without it they are refused (save a state dict)")
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
                             capacity=args.capacity, golden_steps=args.golden_steps, c_api=args.c_api,
                             trust_pickled_code=args.trust_pickled_code, **given)
    except ExportError as e:
        print(f"sarnn.export: error: {e}", file=sys.stderr)
        return 2
    for note in spec.notes:
        print(f"sarnn.export: note: {note}", file=sys.stderr)
    print(f"wrote {out}: {spec.model_type()}")
    if args.c_api:
        print(f"wrote {' and '.join(c_paths(out))}: its C API")
    if isinstance(spec, q.QSpec):
        print(spec.summary())
    return 0


if __name__ == "__main__":
    sys.exit(main())
