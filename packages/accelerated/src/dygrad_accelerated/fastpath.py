"""The accelerated engine's fast paths (``Engine.fast_paths``): compiled equivalents of
dygrad's dispatch and autograd functions, bound to this engine's kernels when it is selected."""

from __future__ import annotations

from . import _fastpath, _optimizer


def fast_paths(engine) -> dict:
    """``{name: compiled function}`` for ``dygrad._core.dispatch`` (``binary_operator``
    makes Tensor's operators), ``autograd`` (``node_getitem`` is ``Node.__getitem__``) and
    the optimizers (``update_params``: one call for a group's parameters; ``clear_grads``:
    ``clear_grad``'s loop) to install."""
    _fastpath.configure(engine.kernels, engine.array_type, engine.ensure)
    _fastpath.configure_autograd()
    return {"apply": _fastpath.apply, "binary": _fastpath.binary,
            "binary_operator": _fastpath.binary_operator,
            "run_backward": _fastpath.run_backward, "node_getitem": _fastpath.node_getitem,
            "update_params": _optimizer.update_params,
            "clear_grads": _fastpath.clear_grads}


def set_num_threads(n: int) -> None:
    """Threads for the compiled kernels, the batch-parallel ones and BLAS (``threads``)."""
    from . import threads
    threads.set_num_threads(n)
