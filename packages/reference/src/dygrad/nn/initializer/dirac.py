"""Dirac initializer: convolution kernels that pass their input through."""

from __future__ import annotations

import numpy as np

from ..._core.creation import to_array
from ..._core.tensor import Tensor
from .initializer import Initializer


class Dirac(Initializer):
    """A conv weight [out_c, in_c, k...] (3 to 5 dimensions) that is zero except a 1 at
    the kernel's centre (index k // 2 on each kernel axis) linking output channel
    ``g * out_c / groups + i`` to input channel ``i``, for each group ``g`` and
    ``i < min(out_c / groups, in_c)``: a convolution with it copies those input channels."""

    def __init__(self, groups=1, name=None):
        if not isinstance(groups, int) or isinstance(groups, bool) or groups <= 0:
            raise ValueError(f"Dirac: 'groups' must be a positive integer, got {groups!r}")
        self._groups = groups

    def _draw(self, shape, dtype):
        if len(shape) not in (3, 4, 5):
            raise ValueError(f"Dirac: only a tensor with 3, 4 or 5 dimensions can be "
                             f"initialized, got shape {list(shape)}")
        if shape[0] % self._groups:
            raise ValueError(f"Dirac: dimension 0 of the tensor ({shape[0]}) must be divisible "
                             f"by groups ({self._groups})")
        per_group = shape[0] // self._groups
        group, channel = np.meshgrid(np.arange(self._groups),
                                     np.arange(min(per_group, shape[1])), indexing="ij")
        weight = np.zeros(shape, dtype)
        centre = tuple(k // 2 for k in shape[2:])
        weight[((group * per_group + channel).ravel(), channel.ravel()) + centre] = 1
        return Tensor._wrap(to_array(weight, dtype))
