"""The C++ side of each model: its type, and the params aggregates with the state-dict key of every field.

This is the single table that both the shape checks (sarnn.spec) and the header writer (sarnn.header)
read, so that key names, shapes and field order follow include/sarnn/params.hpp in one place.
"""
from dataclasses import dataclass

ALIGN_TYPES = {"dot": "DotAlign", "scaled_dot": "ScaledDotAlign", "bilinear": "BilinearAlign",
               "key_query": "KeyQueryAlign", "additive": "AdditiveAlign"}


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
    return ALIGN_TYPES[align] + (f"<{k}>" if align in ("key_query", "additive") else "")


def describe(kind, in_size, hidden, align=None, k=None):
    """The model in words, for messages: "SelfAttentionRnn with In=3, Hidden=16 and BilinearAlign"."""
    if kind == "lstmn":
        return f"Lstmn with In={in_size}, Hidden={hidden}, K={k}"
    if kind == "simple":
        return f"SimpleRnn with In={in_size}, Hidden={hidden}"
    return f"SelfAttentionRnn with In={in_size}, Hidden={hidden} and {align_type(align, k)}"


def groups(kind, in_size, hidden, align=None, k=None):
    """The params aggregates of a model, in constructor order. kind is "simple", "self_attention" or "lstmn";
    align and k as in SelfAttentionRNN (k also for "lstmn")."""
    n_in, h = in_size, hidden
    if kind == "lstmn":
        return (Group("params", "sarnn::LstmnParams", (n_in, h, k), f"Lstmn with In={n_in}, Hidden={h}, K={k}", (
            Field("W_ih", "W_ih", (4 * h, n_in)), Field("W_hh", "W_hh", (4 * h, h)), Field("b", "b", (4 * h,)),
            Field("W_h", "W_h", (k, h)), Field("W_x", "W_x", (k, n_in)), Field("W_ht", "W_ht", (k, h)),
            Field("v", "v", (k,)))),)
    owner = f"{'SimpleRnn' if kind == 'simple' else 'SelfAttentionRnn'} with In={n_in}, Hidden={h}"
    rnn = Group("params", "sarnn::RnnParams", (n_in, h), owner,
                (Field("A", "A", (h, n_in + h)), Field("b", "b", (h,))))
    if kind == "simple" or align in ("dot", "scaled_dot"):
        return (rnn,)
    owner = f"{align_type(align, k)} with Hidden={h}"
    if align == "bilinear":
        return rnn, Group("align_params", "sarnn::BilinearParams", (h,), owner, (Field("align.W", "W", (h, h)),))
    if align == "key_query":
        return rnn, Group("align_params", "sarnn::KeyQueryParams", (h, k), owner,
                          (Field("align.Wk", "Wk", (k, h)), Field("align.Wq", "Wq", (k, h))))
    return rnn, Group("align_params", "sarnn::AdditiveParams", (h, k), owner,
                      (Field("align.W", "W", (k, 2 * h)), Field("align.v", "v", (k,))))


def model_type(kind, in_size, hidden, t, capacity=None, align=None, k=None, window=None):
    """The C++ model type, e.g. "sarnn::SelfAttentionRnn<float, 3, 16, 64, sarnn::BilinearAlign, sarnn::Bounded>"."""
    if kind == "simple":
        return f"sarnn::SimpleRnn<{t}, {in_size}, {hidden}>"
    memory = "sarnn::Window" if window is not None else "sarnn::Bounded"
    if kind == "lstmn":
        return f"sarnn::Lstmn<{t}, {in_size}, {hidden}, {capacity}, {k}, {memory}>"
    return f"sarnn::SelfAttentionRnn<{t}, {in_size}, {hidden}, {capacity}, sarnn::{align_type(align, k)}, {memory}>"
