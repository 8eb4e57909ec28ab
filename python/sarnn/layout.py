"""The C++ side of each model: its type, and the params aggregates with the state-dict key of every field; and the
align registry, the one table of the aligns that every module reads.

This is the single table that both the shape checks (sarnn.spec) and the header writer (sarnn.header)
read, so that key names, shapes and field order follow include/sarnn/params.hpp in one place.

The align registry (ALIGN_TABLE, include/sarnn/align.hpp and params.hpp): per align its Python name (the `align` of
SelfAttentionRNN, --align, a config's "align"), its C++ tag, whether it takes K (a template argument, and the k of
SelfAttentionRNN), its C++ params aggregate and that aggregate's members in order with their extents, and the torch
module of sarnn.aligns that computes it (whose parameters are the members, under `align.` in a state dict). The
names it accepts (ALIGNS), the header's types and params (align_type, groups), the spec's checks and inference
(sarnn.spec), the torch modules (sarnn.aligns), the quantised path's list (sarnn.quantize) and the twin's
(sarnn.q15) all come from it.
"""
from dataclasses import dataclass


@dataclass(frozen=True)
class AlignEntry:
    name: str        # the Python name: "key_query"
    cpp: str         # the C++ tag in namespace sarnn, without <K>: "KeyQueryAlign"
    takes_k: bool    # a template argument K (KeyQueryAlign<K>), the k of SelfAttentionRNN
    params: str      # the C++ params template, <T, Hidden> or <T, Hidden, K>: "sarnn::KeyQueryParams"; None: no params
    tensors: tuple   # the aggregate's members in order, (name, extents): the torch params under `align.`
    module: str      # the torch module in sarnn.aligns
    q15: bool = False  # whether the q15 path has it (Kernels<q15>, the twin sarnn.q15, --quantize int8)

    def shapes(self, hidden, k):
        """((member, shape), ...) for these sizes: the extents "Hidden", "2*Hidden" and "K" evaluated."""
        sizes = {"Hidden": hidden, "2*Hidden": 2 * hidden, "K": k}
        return tuple((name, tuple(sizes[e] for e in extents)) for name, extents in self.tensors)

    def keys(self):
        """The state-dict keys of its params: "align.Wk", "align.Wq"."""
        return tuple("align." + name for name, _ in self.tensors)


ALIGN_TABLE = (
    AlignEntry("dot", "DotAlign", False, None, (), "DotAlign", q15=True),
    AlignEntry("scaled_dot", "ScaledDotAlign", False, None, (), "ScaledDotAlign", q15=True),
    AlignEntry("bilinear", "BilinearAlign", False, "sarnn::BilinearParams", (("W", ("Hidden", "Hidden")),),
               "BilinearAlign", q15=True),
    AlignEntry("key_query", "KeyQueryAlign", True, "sarnn::KeyQueryParams",
               (("Wk", ("K", "Hidden")), ("Wq", ("K", "Hidden"))), "KeyQueryAlign", q15=True),
    AlignEntry("additive", "AdditiveAlign", True, "sarnn::AdditiveParams",
               (("W", ("K", "2*Hidden")), ("v", ("K",))), "AdditiveAlign", q15=True),
)


def registry():
    """{name: AlignEntry} of ALIGN_TABLE, in its order (read at each call, so that an entry added to the table is
    seen everywhere)."""
    return {a.name: a for a in ALIGN_TABLE}


def aligns():
    """The align names, in the table's order."""
    return tuple(a.name for a in ALIGN_TABLE)


def aligns_with_k():
    return tuple(a.name for a in ALIGN_TABLE if a.takes_k)


def aligns_with_params():
    return tuple(a.name for a in ALIGN_TABLE if a.params is not None)


def aligns_q15():
    """The aligns the q15 path takes."""
    return tuple(a.name for a in ALIGN_TABLE if a.q15)


def names_text(names, last="or"):
    """"a, b or c": a list of names for messages."""
    names = list(names)
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} {last} {names[-1]}"


ALIGNS = aligns()
ALIGN_TYPES = {a.name: a.cpp for a in ALIGN_TABLE}


@dataclass(frozen=True)
class Field:
    key: str      # state-dict key, e.g. "align.W"
    name: str     # the C++ member, e.g. "W"
    shape: tuple  # the C array's extents


@dataclass(frozen=True)
class Group:
    """One params aggregate: the variable the header defines, its C++ template and its fields in order."""

    variable: str   # "params" or "align_params"
    template: str   # e.g. "sarnn::RnnParams"
    args: tuple     # the template's size arguments after T
    owner: str      # what takes it, for messages: "SelfAttentionRnn with In=3, Hidden=16"
    fields: tuple

    def cpp_type(self, t):
        return f"{self.template}<{', '.join([t] + [str(a) for a in self.args])}>"


def align_type(align, k):
    """The C++ align tag: "DotAlign", ..., "KeyQueryAlign<8>", "AdditiveAlign<8>"."""
    entry = registry()[align]
    return entry.cpp + (f"<{k}>" if entry.takes_k else "")


def describe(kind, in_size, hidden, align=None, k=None, cell="elman"):
    """The model in words, for messages: "SelfAttentionRnn with In=3, Hidden=16 and BilinearAlign" (", GruCell"
    for the GRU cell)."""
    if kind == "lstmn":
        return f"Lstmn with In={in_size}, Hidden={hidden}, K={k}"
    if kind in ("gru", "lstm"):
        return f"{kind.capitalize()} with In={in_size}, Hidden={hidden}"
    if kind == "simple":
        return f"SimpleRnn with In={in_size}, Hidden={hidden}"
    return (f"SelfAttentionRnn with In={in_size}, Hidden={hidden} and {align_type(align, k)}"
            + (", GruCell" if cell == "gru" else ""))


def groups(kind, in_size, hidden, align=None, k=None, cell="elman"):
    """The params aggregates of a model, in constructor order. kind is "simple", "self_attention", "lstmn", "gru"
    or "lstm"; align, k and cell ("elman" or "gru") as in SelfAttentionRNN (k also for "lstmn")."""
    n_in, h = in_size, hidden
    gru_cell = kind == "self_attention" and cell == "gru"
    if kind == "gru" or gru_cell:
        # GruParams: torch.nn.GRU's tensors as they are (rows r, z, n); the GRU cell's too, then the align's
        owner = describe(kind, n_in, h, align, k, cell)
        gru = (Group("params", "sarnn::GruParams", (n_in, h), owner, (
            Field("W_ih", "W_ih", (3 * h, n_in)), Field("W_hh", "W_hh", (3 * h, h)), Field("b_ih", "b_ih", (3 * h,)),
            Field("b_hh", "b_hh", (3 * h,)))),)
        return gru if kind == "gru" else gru + _align_group(align, k, h)
    if kind == "lstm":
        # LstmParams: gates i, f, g, o; b = b_ih + b_hh
        return (Group("params", "sarnn::LstmParams", (n_in, h), f"Lstm with In={n_in}, Hidden={h}", (
            Field("W_ih", "W_ih", (4 * h, n_in)), Field("W_hh", "W_hh", (4 * h, h)), Field("b", "b", (4 * h,)))),)
    if kind == "lstmn":
        return (Group("params", "sarnn::LstmnParams", (n_in, h, k), f"Lstmn with In={n_in}, Hidden={h}, K={k}", (
            Field("W_ih", "W_ih", (4 * h, n_in)), Field("W_hh", "W_hh", (4 * h, h)), Field("b", "b", (4 * h,)),
            Field("W_h", "W_h", (k, h)), Field("W_x", "W_x", (k, n_in)), Field("W_ht", "W_ht", (k, h)),
            Field("v", "v", (k,)))),)
    owner = f"{'SimpleRnn' if kind == 'simple' else 'SelfAttentionRnn'} with In={n_in}, Hidden={h}"
    rnn = Group("params", "sarnn::RnnParams", (n_in, h), owner,
                (Field("A", "A", (h, n_in + h)), Field("b", "b", (h,))))
    return (rnn,) if kind == "simple" else (rnn,) + _align_group(align, k, h)


def _align_group(align, k, h):
    """The align's params aggregate, as a tuple of one Group (none: an align without params)."""
    entry = registry()[align]
    if entry.params is None:
        return ()
    args = (h, k) if entry.takes_k else (h,)
    owner = f"{align_type(align, k)} with Hidden={h}"
    return (Group("align_params", entry.params, args, owner,
                  tuple(Field("align." + name, name, shape) for name, shape in entry.shapes(h, k))),)


def model_type(kind, in_size, hidden, t, capacity=None, align=None, k=None, window=None, cell="elman"):
    """The C++ model type, e.g. "sarnn::SelfAttentionRnn<float, 3, 16, 64, sarnn::BilinearAlign, sarnn::Bounded>";
    the GRU cell (cell "gru") adds the kernel set (the default, sarnn::kernel::Default) and sarnn::GruCell."""
    if kind in ("simple", "gru", "lstm"):
        name = {"simple": "SimpleRnn", "gru": "Gru", "lstm": "Lstm"}[kind]
        return f"sarnn::{name}<{t}, {in_size}, {hidden}>"
    memory = "sarnn::Window" if window is not None else "sarnn::Bounded"
    if kind == "lstmn":
        return f"sarnn::Lstmn<{t}, {in_size}, {hidden}, {capacity}, {k}, {memory}>"
    tail = ", sarnn::kernel::Default, sarnn::GruCell" if cell == "gru" else ""
    return (f"sarnn::SelfAttentionRnn<{t}, {in_size}, {hidden}, {capacity}, sarnn::{align_type(align, k)}, {memory}"
            f"{tail}>")


def wrap_type(prefix, cpp_type, suffix="", indent=None, width=119):
    """The lines of prefix + cpp_type + suffix at most width characters each (as long as the type's pieces allow):
    the type broken after a ", " between its template arguments, the next line starting with indent (default:
    spaces up to where the type starts). One line when it fits, as for every model but SelfAttentionRnn<...,
    GruCell>."""
    line = prefix + cpp_type + suffix
    if len(line) <= width:
        return [line]
    indent = " " * len(prefix) if indent is None else indent
    lines, current = [], prefix
    for i, piece in enumerate(cpp_type.split(", ")):
        last = i == len(cpp_type.split(", ")) - 1
        piece = piece + ("" if last else ",") + (suffix if last else "")
        joined = current + ("" if current in (prefix, indent) else " ") + piece
        if len(joined) > width and current not in (prefix, indent):
            lines.append(current)
            joined = indent + piece
        current = joined
    return lines + [current]
