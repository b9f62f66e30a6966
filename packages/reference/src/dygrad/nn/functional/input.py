"""paddle.nn.functional: one_hot and embedding."""

from __future__ import annotations

from ... import tensor as T
from ..._core.autograd import no_grad
from ...tensor.manipulation import _checked, one_hot
from ._check import check_tensor


def _renorm_rows(x, weight, max_norm, norm_type):
    """Scale the rows of weight that x looks up whose ``norm_type``-norm exceeds
    ``max_norm`` down to it (by max_norm / (norm + 1e-7)), in place and unrecorded."""
    with no_grad():
        rows = T.unique(T.flatten(x))
        picked = T.index_select(weight, rows)
        norms = T.linalg.norm(picked, p=float(norm_type), axis=1, keepdim=True)
        scale = T.where(norms > max_norm, max_norm / (norms + 1e-7), T.ones_like(norms))
        weight[rows] = picked * scale


def embedding(x, weight, padding_idx=None, sparse=False, name=None, *, max_norm=None,
              norm_type=2.0):
    """The rows of ``weight`` ([num_embeddings, embedding_dim]) for the int32/int64 ids of x:
    the output has shape x.shape + [embedding_dim].

    Where an id equals ``padding_idx`` (negative values count from the end), the output row
    is zero and the weight row gets no gradient. ``sparse=True`` asks Paddle for a
    SelectedRows gradient; it gives the same values, and here the gradient is always a dense
    [num_embeddings, embedding_dim] tensor.

    ``max_norm`` (keyword-only: Paddle 3 placed it before ``sparse``) first scales the rows
    that x looks up down to that ``norm_type``-norm, in place, as Paddle 3 does."""
    check_tensor(x, "embedding")
    check_tensor(weight, "embedding", "weight")
    if padding_idx is not None:
        n = weight.shape[0]
        if not -n <= padding_idx < n:
            raise ValueError(f"embedding: padding_idx must be within [-{n}, {n}), got "
                             f"{padding_idx}")
        padding_idx = int(padding_idx) % n
    if max_norm is not None and x.size:
        # one lookup first: it rejects bad ids and weights before any row is written
        _checked("embedding", x, weight, padding_idx=padding_idx)
        _renorm_rows(x, weight, max_norm, norm_type)
    return _checked("embedding", x, weight, padding_idx=padding_idx)


__all__ = ["one_hot", "embedding"]
