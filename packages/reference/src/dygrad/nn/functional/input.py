"""paddle.nn.functional: one_hot and embedding."""

from __future__ import annotations

from ...tensor.manipulation import _checked, one_hot
from ._check import check_tensor


def embedding(x, weight, padding_idx=None, sparse=False, name=None):
    """The rows of ``weight`` ([num_embeddings, embedding_dim]) for the int32/int64 ids of x:
    the output has shape x.shape + [embedding_dim].

    Where an id equals ``padding_idx`` (negative values count from the end), the output row
    is zero and the weight row gets no gradient. ``sparse=True`` asks Paddle for a
    SelectedRows gradient; it gives the same values, and here the gradient is always a dense
    [num_embeddings, embedding_dim] tensor."""
    check_tensor(x, "embedding")
    check_tensor(weight, "embedding", "weight")
    if padding_idx is not None:
        n = weight.shape[0]
        if not -n <= padding_idx < n:
            raise ValueError(f"embedding: padding_idx must be within [-{n}, {n}), got "
                             f"{padding_idx}")
        padding_idx = int(padding_idx) % n
    return _checked("embedding", x, weight, padding_idx=padding_idx)


__all__ = ["one_hot", "embedding"]
