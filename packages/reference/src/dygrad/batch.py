"""``paddle.batch``: group a reader's samples into lists (Paddle 1.x's reader API)."""

from __future__ import annotations

__all__ = ["batch"]


def batch(reader, batch_size, drop_last=False):
    """A reader whose items are lists of ``batch_size`` samples of ``reader`` (the last,
    shorter list is dropped with ``drop_last``)."""
    if isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size <= 0:
        raise ValueError(f"batch_size should be a positive integer value, but got "
                         f"batch_size={batch_size}")

    def batch_reader():
        items = []
        for sample in reader():
            items.append(sample)
            if len(items) == batch_size:
                yield items
                items = []
        if items and not drop_last:
            yield items
    return batch_reader
