"""Gradient clipping (``grad_clip=`` of the optimizers), as Paddle's ``paddle.nn.ClipGrad*``.

A clip object maps the optimizer's list of (parameter, gradient) pairs to a new list, before
weight decay and the update; ``param.grad`` itself is left alone. Parameters created with
``ParamAttr(need_clip=False)`` keep their gradient (and, for the global norm, do not count).
"""

from __future__ import annotations

import numpy as np

from .._core.tensor import Tensor


def _needs_clip(p) -> bool:
    return getattr(p, "need_clip", True) is not False


class ClipGradBase:
    """Base class: subclasses define ``_clip(params_grads)``."""

    def __call__(self, params_grads):
        return self._clip(params_grads)


class ClipGradByValue(ClipGradBase):
    """Clip every element of every gradient into [min, max] (min defaults to -max)."""

    def __init__(self, max, min=None):
        if min is None:
            if not max > 0.0:
                raise ValueError(f"ClipGradByValue: max must be positive when min is not given, "
                                 f"got {max}")
            min = -max
        self.max, self.min = float(max), float(min)

    def __str__(self):
        return f"Clip Gradient By Value, min = {self.min:f}, max={self.max:f}"

    def _clip(self, params_grads):
        return [(p, Tensor._wrap(np.clip(g._data, self.min, self.max)) if _needs_clip(p) else g)
                for p, g in params_grads]


class ClipGradByNorm(ClipGradBase):
    """Rescale each gradient whose L2 norm exceeds clip_norm to norm clip_norm:
    g * clip_norm / max(norm(g), clip_norm)."""

    def __init__(self, clip_norm):
        self.clip_norm = float(clip_norm)

    def __str__(self):
        return f"Gradient Clip By Norm, clip_norm={self.clip_norm:f}"

    def _clip(self, params_grads):
        out = []
        for p, g in params_grads:
            if _needs_clip(p):
                a = g._data
                norm = np.sqrt(np.sum(a * a))
                if norm > self.clip_norm:
                    g = Tensor._wrap(a * a.dtype.type(self.clip_norm / norm))
            out.append((p, g))
        return out


class ClipGradByGlobalNorm(ClipGradBase):
    """Rescale all gradients together so that their global L2 norm (the norm of all of them
    concatenated) is at most clip_norm: every g becomes g * clip_norm / max(global_norm,
    clip_norm). With ``auto_skip_clip=True`` nothing is multiplied when the norm is within
    bounds."""

    def __init__(self, clip_norm, group_name="default_group", auto_skip_clip=False):
        if not isinstance(auto_skip_clip, bool):
            raise TypeError("ClipGradByGlobalNorm: auto_skip_clip must be a bool")
        self.clip_norm = float(clip_norm)
        self.group_name = group_name
        self.auto_skip_clip = auto_skip_clip

    def __str__(self):
        return f"Gradient Clip By GlobalNorm, global_norm={self.clip_norm:f}"

    def _clip(self, params_grads):
        clipped = [g._data for p, g in params_grads if _needs_clip(p)]
        if not clipped:
            return list(params_grads)
        # summed in float64 if any gradient is float64, else in float32 (as Paddle)
        acc = np.float64 if any(a.dtype == np.float64 for a in clipped) else np.float32
        global_norm = np.sqrt(sum(np.sum(np.square(a.astype(acc, copy=False))) for a in clipped))
        if self.auto_skip_clip and global_norm <= self.clip_norm:
            return list(params_grads)
        scale = acc(self.clip_norm) / np.maximum(global_norm, acc(self.clip_norm))
        return [(p, Tensor._wrap(g._data * g._data.dtype.type(scale)) if _needs_clip(p) else g)
                for p, g in params_grads]

__all__ = ["ClipGradByValue", "ClipGradByNorm", "ClipGradByGlobalNorm"]
