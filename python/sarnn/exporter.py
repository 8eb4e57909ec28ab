"""export_header(): a trained model to a C++ header, written atomically."""
import os
import tempfile

from sarnn.errors import ExportError
from sarnn.golden import golden_run
from sarnn.header import check_name, render
from sarnn.spec import resolve


def export_header(source, name, path, *, generator="sarnn.export_header()", **options):
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
    """
    check_name(name)
    spec = resolve(source, **options)
    golden_x, golden_h = golden_run(spec)
    text = render(spec, name, golden_x, golden_h, os.path.basename(os.fspath(path)), generator)
    _write_atomic(os.fspath(path), text)
    return spec


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
