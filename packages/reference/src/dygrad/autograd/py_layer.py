"""PyLayer: an op whose forward and backward the user writes (Paddle 2.x's PyLayer).

``forward(ctx, *args, **kwargs)`` runs with grad mode off; ``backward(ctx, *grads)``
returns one gradient per Tensor argument of forward (NumPy arrays are accepted and wrapped).
The recorded node takes part in the same backward walk as the table's ops.
"""

from __future__ import annotations

from .._core.autograd import BackwardError, edge_of, grad_mode, no_grad
from .._core.creation import to_tensor
from .._core.tensor import Tensor


class PyLayerContext:
    """The ``ctx`` of a PyLayer: keeps what forward saves for backward."""

    def __init__(self):
        self._saved = ()
        self._not_inplace = False
        self._non_differentiable = ()
        self.materialize_grads = True

    def save_for_backward(self, *tensors):
        """Keep ``tensors`` for backward (checked against later in-place changes)."""
        self._saved = tuple((t, t._version[0]) if isinstance(t, Tensor) else (t, None)
                            for t in tensors)

    def saved_tensor(self):
        """The tensors given to save_for_backward, as a tuple."""
        if self._saved is None:
            raise BackwardError("PyLayer: saved tensors were freed by an earlier backward; pass "
                                "retain_graph=True to keep them")
        out = []
        for t, version in self._saved:
            if version is not None and t._version[0] != version:
                raise BackwardError(
                    f"PyLayer: a tensor saved with save_for_backward (shape {t.shape}) was "
                    f"modified in place after forward (version {version} -> {t._version[0]})")
            out.append(t)
        return tuple(out)

    def mark_not_inplace(self, *tensors):
        self._not_inplace = True

    def mark_non_differentiable(self, *tensors):
        """Outputs in ``tensors`` get no gradient (stop_gradient=True)."""
        self._non_differentiable = tuple(id(t) for t in tensors)

    def set_materialize_grads(self, value: bool):
        """With False, backward receives None (not zeros) for outputs without a gradient."""
        self.materialize_grads = bool(value)


class _PyLayerNode:
    """The graph node of one PyLayer call."""

    __slots__ = ("cls", "ctx", "next_edges", "out_meta", "pre_hooks", "_freed", "__weakref__")

    def __init__(self, cls, ctx, inputs, outputs):
        self.cls = cls
        self.ctx = ctx
        self.next_edges = tuple(edge_of(t) for t in inputs)
        self.out_meta = tuple((t._data.shape, t._data.dtype) for t in outputs)
        self.pre_hooks = None
        self._freed = False

    def __repr__(self):
        return f"<{self.cls.__name__}Backward>"

    @property
    def name(self):
        return f"{self.cls.__name__}_grad"

    @property
    def n_outputs(self):
        return len(self.out_meta)

    def apply(self, grads, retain_graph):
        if self._freed:
            raise BackwardError(f"backward through PyLayer {self.cls.__name__} a second time: "
                                f"pass retain_graph=True to the first backward")
        if self.ctx.materialize_grads:
            from .._core.dispatch import ops
            grads = [g if g is not None else ops.full(shape=shape, fill_value=0, dtype=dtype)
                     for g, (shape, dtype) in zip(grads, self.out_meta)]
        result = self.cls.backward(self.ctx, *grads)
        if not isinstance(result, (tuple, list)):
            result = (result,)
        if len(result) != len(self.next_edges):
            raise BackwardError(
                f"PyLayer {self.cls.__name__}.backward returned {len(result)} gradients, but "
                f"forward took {len(self.next_edges)} Tensor inputs: return one per Tensor input "
                f"(None for inputs that need none)")
        out = []
        for g, edge in zip(result, self.next_edges):
            if g is not None and not isinstance(g, Tensor):
                g = to_tensor(g)
            if edge is None:
                g = None
            out.append(g)
        if not retain_graph:
            self._freed = True
            self.ctx._saved = None
        return tuple(out)


class PyLayer:
    """Subclass with ``forward`` and ``backward`` staticmethods; call ``Cls.apply(...)``."""

    @staticmethod
    def forward(ctx, *args, **kwargs):
        raise NotImplementedError("PyLayer subclasses must define forward(ctx, *args)")

    @staticmethod
    def backward(ctx, *grads):
        raise NotImplementedError("PyLayer subclasses must define backward(ctx, *grads)")

    @classmethod
    def apply(cls, *args, **kwargs):
        ctx = PyLayerContext()
        inputs = [a for a in (*args, *kwargs.values()) if isinstance(a, Tensor)]
        with no_grad():
            result = cls.forward(ctx, *args, **kwargs)
        outs = result if isinstance(result, (tuple, list)) else (result,)
        tensors = [o for o in outs if isinstance(o, Tensor)]
        need = grad_mode.enabled and any(not t.stop_gradient for t in inputs)
        if not need:
            return result
        # outputs that are inputs or shared with other tensors get fresh wrappers
        fresh = []
        for o in outs:
            if isinstance(o, Tensor):
                t = Tensor._wrap(o._data, id(o) in ctx._non_differentiable)
                fresh.append(t)
            else:
                fresh.append(o)
        diff = [t for t in fresh if isinstance(t, Tensor)]
        node = _PyLayerNode(cls, ctx, inputs, diff)
        for i, t in enumerate(diff):
            if not t.stop_gradient:
                t._grad_fn, t._out_idx = node, i
        del tensors
        if isinstance(result, (tuple, list)):
            return type(result)(fresh)
        return fresh[0]
