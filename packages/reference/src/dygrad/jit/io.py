"""paddle.jit.save / load: a Layer's inference program and parameters on disk (the
formats of ``paddle.static.save_inference_model``), loaded back as a callable Layer."""

from __future__ import annotations

import os

from .._core.autograd import no_grad
from .._core.program import Scope, scope_guard, variable_of
from .._core.tensor import Parameter, Tensor
from ..nn.layer import Layer
from ..static.executor import Executor
from ..static.io import load_inference_model, save_inference_model
from .api import StaticFunction, to_static
from .partial_program import run_plan


def save(layer, path, input_spec=None, **configs):
    """Save ``layer`` (a Layer, or a ``to_static`` function) for inference:
    ``path.pdmodel`` (its program, built in eval mode for ``input_spec``) and
    ``path.pdiparams`` (the parameters and buffers it reads)."""
    if isinstance(layer, Layer):
        forward = layer.__dict__.get("forward")
        fn = forward if isinstance(forward, StaticFunction) else (
            to_static(type(layer).forward).__get__(layer))
    elif isinstance(layer, StaticFunction):
        fn = layer
    else:
        raise TypeError(f"paddle.jit.save: layer must be a Layer or a to_static function, got "
                        f"{type(layer).__name__}")
    spec = input_spec if input_spec is not None else fn._input_spec
    if not spec:
        raise ValueError("paddle.jit.save: give input_spec (a list of paddle.static.InputSpec), "
                         "here or to paddle.jit.to_static")
    spec = [s if not isinstance(s, Tensor) else _spec_of(s) for s in spec]
    training = getattr(fn._instance, "training", None)
    if training:
        fn._instance.eval()
    try:
        with no_grad():
            program = fn.concrete_program(spec)
    finally:
        if training:
            fn._instance.train()
    scope = Scope()
    scope._values.update({d.name: t._data for t, d in program.bound})
    with scope_guard(scope):
        save_inference_model(os.fspath(path), [variable_of(d) for d in program.data],
                             program.outputs, Executor(), program=program.main)


def _spec_of(t):
    from ..static.input import InputSpec
    return InputSpec.from_tensor(t)


class TranslatedLayer(Layer):
    """A Layer loaded by :func:`load`: runs the saved program on its own parameters
    (inference only: its outputs need no gradient)."""

    def __init__(self, program, feed_names, fetch_names, params):
        super().__init__()
        self._program, self._feed, self._fetch = program, feed_names, fetch_names
        for name, value in params.items():
            self._parameters[name] = Parameter(value, name=name)

    def forward(self, *inputs):
        if len(inputs) != len(self._feed):
            raise TypeError(f"TranslatedLayer: expected {len(self._feed)} inputs "
                            f"({self._feed}), got {len(inputs)}")
        env, sizes = Executor._feed(self._program.global_block(), dict(zip(self._feed, inputs)))
        values = {name: p._data for name, p in self._parameters.items()}
        results, _ = run_plan(self._program, env, values, self._fetch, frozenset(sizes))
        outs = [Tensor._wrap(a) for a in results]
        return outs[0] if len(outs) == 1 else outs


def load(path, **configs):
    """The Layer saved by :func:`save` at ``path`` (a :class:`TranslatedLayer`)."""
    scope = Scope()
    with scope_guard(scope):
        program, feed_names, fetch = load_inference_model(os.fspath(path), Executor())
    return TranslatedLayer(program, feed_names, [v.name for v in fetch], dict(scope._values))
