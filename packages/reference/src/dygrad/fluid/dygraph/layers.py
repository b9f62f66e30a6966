"""``fluid.dygraph.Layer``: Paddle 1.x's Layer, the 2.x :class:`dygrad.nn.Layer` plus
``build_once``.

``Layer(name_scope=None, dtype='float32')``: ``name_scope`` names the layer (``full_name()``
is it with a counter, e.g. 'mnist_0'). The first call runs ``build_once(*inputs)`` (also
spelled ``_build_once``) before ``forward``: the place to create parameters whose shapes
depend on the input, as ``FC`` does. ``load_dict`` before that first call still reaches those
parameters: as in 1.x, the values are kept and copied in once the parameters exist.
"""

from __future__ import annotations

from ..._core.tensor import Tensor
from ...nn.layer import Layer as _Layer

__all__ = ["Layer"]


class Layer(_Layer):
    """Base class of 1.x layers and models (see the module docstring)."""

    _built = False

    def build_once(self, *inputs, **kwargs):
        """Called once, before the first ``forward``, with the same inputs."""

    def _build_once(self, *inputs, **kwargs):
        self.build_once(*inputs, **kwargs)

    def __call__(self, *inputs, **kwargs):
        if not self._built:
            self._build_once(*inputs, **kwargs)
            self._built = True
            pending = self.__dict__.pop("_pending_state", None)
            if pending:
                own = self.state_dict(use_hook=False)
                super().set_state_dict({k: v for k, v in pending.items() if k in own})
        return super().__call__(*inputs, **kwargs)

    def set_state_dict(self, state_dict, use_structured_name=True):
        """Copy values into the parameters and buffers (see :meth:`dygrad.nn.Layer.set_state_dict`);
        sublayers not built yet also keep their share for the parameters they create at
        their first call."""
        result = super().set_state_dict(state_dict, use_structured_name)
        if use_structured_name:
            for prefix, layer in self.named_sublayers(include_self=True):
                if isinstance(layer, Layer) and not layer._built:
                    start = prefix + "." if prefix else ""
                    layer._pending_state = {k[len(start):]: v for k, v in state_dict.items()
                                            if k.startswith(start)}
        return result

    set_dict = set_state_dict
    load_dict = set_state_dict


def keep_gradient(out):
    """Make ``out`` (a Tensor, or a list/tuple of them) keep its gradient after backward,
    as every 1.x Variable does (``Variable.gradient()``); returns ``out``."""
    for t in out if isinstance(out, (list, tuple)) else (out,):
        if isinstance(t, Tensor) and not t.stop_gradient and t.grad_fn is not None:
            t.retain_grads()
    return out
