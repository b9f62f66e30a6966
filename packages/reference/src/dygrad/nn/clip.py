"""Gradient clipping (``grad_clip=`` of the optimizers), as Paddle's ``paddle.nn.ClipGrad*``.

A clip object maps the optimizer's list of (parameter, gradient) pairs to a new list, before
weight decay and the update; ``param.grad`` itself is left alone (Paddle 3's global-norm
clip scales it in place; Paddle 2's did not). Parameters created with
``ParamAttr(need_clip=False)`` keep their gradient (and, for the global norm, do not count).
The arithmetic is ops of the table, in the gradients' dtypes, so it runs on any engine.
"""

from __future__ import annotations

import numpy as np

from .._core.autograd import no_grad
from .._core.dispatch import ops

__all__ = ["ClipGradByValue", "ClipGradByNorm", "ClipGradByGlobalNorm"]


def _needs_clip(p) -> bool:
    return getattr(p, "need_clip", True) is not False


def _sum_of_squares(g):
    return ops.sum(ops.square(g))


class ClipGradBase:
    """Base class: subclasses define ``_clip(params_grads)``."""

    def __call__(self, params_grads):
        with no_grad():
            return self._clip([(p, g) for p, g in params_grads if g is not None])

    def _clip(self, params_grads):
        raise NotImplementedError(f"{type(self).__name__} does not define _clip")


GradientClipBase = ClipGradBase


class ClipGradByValue(ClipGradBase):
    """Clip every element of every gradient into [min, max] (min defaults to -max)."""

    def __init__(self, max, min=None):
        if min is None:
            if not max > 0.0:  # an assertion in Paddle
                raise AssertionError(f"ClipGradByValue: max must be positive when min is not "
                                     f"given, got {max}")
            min = -max
        self.max, self.min = float(max), float(min)

    def __str__(self):
        return f"Clip Gradient By Value, min = {self.min:f}, max={self.max:f}"

    def _clip(self, params_grads):
        return [(p, ops.clip(g, min=self.min, max=self.max) if _needs_clip(p) else g)
                for p, g in params_grads]


class ClipGradByNorm(ClipGradBase):
    """Rescale each gradient whose L2 norm exceeds clip_norm to norm clip_norm:
    g * clip_norm / norm(g) when norm(g) > clip_norm, else g."""

    def __init__(self, clip_norm):
        self.clip_norm = float(clip_norm)

    def __str__(self):
        return f"Gradient Clip By Norm, clip_norm={self.clip_norm:f}"

    def _clip(self, params_grads):
        out = []
        for p, g in params_grads:
            if _needs_clip(p):
                norm = ops.sqrt(_sum_of_squares(g))
                if float(norm.numpy()) > self.clip_norm:
                    limit = ops.full(shape=(), fill_value=self.clip_norm, dtype=g._data.dtype)
                    g = ops.multiply(g, ops.divide(limit, norm))
            out.append((p, g))
        return out


class ClipGradByGlobalNorm(ClipGradBase):
    """Rescale all gradients together so that their global L2 norm (the norm of all of them
    concatenated) is at most clip_norm: every g becomes g * clip_norm / max(global_norm,
    clip_norm). With ``auto_skip_clip=True`` nothing is multiplied when the norm is within
    bounds. The norm is summed in float64 if any gradient is float64, else in float32."""

    def __init__(self, clip_norm, group_name="default_group", auto_skip_clip=False):
        if not isinstance(auto_skip_clip, bool):  # an assertion in Paddle
            raise AssertionError("ClipGradByGlobalNorm: auto_skip_clip must be a bool")
        self.clip_norm = float(clip_norm)
        self.group_name = group_name
        self.auto_skip_clip = auto_skip_clip

    def __str__(self):
        return f"Gradient Clip By GlobalNorm, global_norm={self.clip_norm:f}"

    def _clip(self, params_grads):
        squares = [_sum_of_squares(g) for p, g in params_grads if _needs_clip(p)]
        if not squares:
            return list(params_grads)
        acc = "float64" if any(s._data.dtype == np.float64 for s in squares) else "float32"
        global_norm = ops.sqrt(ops.sum(ops.stack([ops.cast(s, dtype=acc) for s in squares])))
        limit = ops.full(shape=(), fill_value=self.clip_norm, dtype=acc)
        if self.auto_skip_clip and not float(global_norm.numpy()) > self.clip_norm:
            return list(params_grads)
        scale = ops.divide(limit, ops.maximum(global_norm, limit))
        return [(p, ops.multiply(g, ops.cast(scale, dtype=g._data.dtype)) if _needs_clip(p)
                 else g) for p, g in params_grads]
