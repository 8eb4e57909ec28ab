"""The align functions e_ij = align(h_j, h_i) of SelfAttentionRNN, as torch modules.

Each align splits its score into a per-state key (computed once, when h_j enters the memory), a per-step
query (from the new state h_i) and a score of the stacked keys against the query, the way the C++ aligns
cache their work. Parameter names and shapes are those of the C++ params structs (sarnn/params.hpp); each module
makes the params its entry of the align registry (sarnn.layout.ALIGN_TABLE) lists, and make_align() takes the
names, the K rule and the module from there. The aligns:

| name         | e_ij                   | C++ align               | params (shape)                     |
|--------------|------------------------|-------------------------|------------------------------------|
| 'dot'        | h_j·h_i                | sarnn::DotAlign         | none                               |
| 'scaled_dot' | h_j·h_i / sqrt(Hidden) | sarnn::ScaledDotAlign   | none                               |
| 'bilinear'   | h_jᵀ W h_i             | sarnn::BilinearAlign    | W (Hidden, Hidden)                 |
| 'key_query'  | (Wk h_j)·(Wq h_i)      | sarnn::KeyQueryAlign<K> | Wk (K, Hidden), Wq (K, Hidden)     |
| 'additive'   | v·tanh(W [h_j; h_i])   | sarnn::AdditiveAlign<K> | W (K, 2·Hidden), v (K)             |

No align has a bias; key_query applies no 1/sqrt(K).
"""
import math

import torch
from torch import nn

from sarnn import layout

ALIGNS = layout.ALIGNS                  # the names (kept for importers of sarnn.aligns)
ALIGNS_WITH_K = layout.aligns_with_k()


class DotAlign(nn.Module):
    """e_ij = h_j·h_i (sarnn::DotAlign). No params."""

    def __init__(self, hidden, k=None, entry=None):
        super().__init__()
        self.hidden = hidden
        # the params of its registry entry (by default the first naming this module), in the entry's order, left
        # uninitialised: the owner initialises them
        entry = entry or next(a for a in layout.ALIGN_TABLE if a.module == type(self).__name__)
        for name, shape in entry.shapes(hidden, k):
            self.register_parameter(name, nn.Parameter(torch.empty(*shape)))

    def key(self, h):
        """The per-state key of h_j: h_j itself. (B, Hidden) -> (B, Hidden)."""
        return h

    def query(self, h):
        """The per-step query of h_i: h_i itself. (B, Hidden) -> (B, Hidden)."""
        return h

    def score(self, keys, q):
        """e_j = key_j·q for keys (B, n, D) and q (B, D) -> (B, n)."""
        return (keys * q.unsqueeze(-2)).sum(-1)


class ScaledDotAlign(DotAlign):
    """e_ij = h_j·h_i / sqrt(Hidden) (sarnn::ScaledDotAlign). No params."""

    def score(self, keys, q):
        """e_j = key_j·q / sqrt(Hidden)."""
        return super().score(keys, q) / math.sqrt(self.hidden)


class BilinearAlign(DotAlign):
    """e_ij = h_jᵀ W h_i (sarnn::BilinearAlign, params sarnn::BilinearParams<T, Hidden>{W[Hidden][Hidden]}).

    Key h_j, query W h_i, score their dot product.
    """

    def query(self, h):
        """q = W h_i."""
        return torch.matmul(h, self.W.t())


class KeyQueryAlign(DotAlign):
    """e_ij = (Wk h_j)·(Wq h_i) (sarnn::KeyQueryAlign<K>, params
    sarnn::KeyQueryParams<T, Hidden, K>{Wk[K][Hidden], Wq[K][Hidden]}). No 1/sqrt(K).

    Key Wk h_j, query Wq h_i, score their dot product.
    """

    def key(self, h):
        """Wk h_j."""
        return torch.matmul(h, self.Wk.t())

    def query(self, h):
        """Wq h_i."""
        return torch.matmul(h, self.Wq.t())


class AdditiveAlign(DotAlign):
    """e_ij = v·tanh(W [h_j; h_i]) (sarnn::AdditiveAlign<K>, params
    sarnn::AdditiveParams<T, Hidden, K>{W[K][2·Hidden], v[K]}).

    The first Hidden columns of W act on the stored state h_j (key P_j = W[:, :Hidden] h_j), the others on
    the new state h_i (query q = W[:, Hidden:] h_i); e_ij = v·tanh(P_j + q).
    """

    def key(self, h):
        """P_j = W[:, :Hidden] h_j."""
        return torch.matmul(h, self.W[:, : self.hidden].t())

    def query(self, h):
        """q = W[:, Hidden:] h_i."""
        return torch.matmul(h, self.W[:, self.hidden :].t())

    def score(self, keys, q):
        """e_j = v·tanh(P_j + q)."""
        return (torch.tanh(keys + q.unsqueeze(-2)) * self.v).sum(-1)


def make_align(name, hidden, k=None):
    """The align module called `name` (one of the registry's: sarnn.layout.aligns()) for states of size `hidden`;
    `k` is required for the aligns that take K (key_query, additive) and refused for the others. Raises ValueError
    otherwise."""
    table = layout.registry()
    if name not in table:
        raise ValueError(f"unknown align {name!r} (expected one of {', '.join(table)})")
    entry = table[name]
    if entry.takes_k:
        if k is None or int(k) < 1:
            raise ValueError(f"align {name!r} needs k >= 1 (its key/attention size), got k={k!r}")
        k = int(k)
    elif k is not None:
        with_k = layout.names_text(layout.aligns_with_k(), "and")
        raise ValueError(f"align {name!r} has no k (only {with_k} do), got k={k!r}")
    return globals()[entry.module](hidden, k, entry)
