"""Ops that create tensors: constants, ranges and random numbers (no tensor inputs)."""

from __future__ import annotations

import numpy as np

from ..dispatch import ops
from ..optable import Meta, OpDef, register


def _full_meta(shape, fill_value=0.0, dtype=None):
    return Meta(tuple(shape), np.dtype(dtype))


register(OpDef("full", (), _full_meta, "A tensor of shape filled with fill_value.",
               attrs={"shape": None, "fill_value": 0.0, "dtype": None}))


def _full_like_meta(x, fill_value=0.0, dtype=None):
    return Meta(x.shape, x.dtype if dtype is None else np.dtype(dtype))


register(OpDef("full_like", ("x",), _full_like_meta,
               "A tensor like x (its shape; its dtype unless given) filled with fill_value.",
               attrs={"fill_value": 0.0, "dtype": None}))
