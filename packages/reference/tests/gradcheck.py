"""Gradients by central differences, for the unit tests: the gradient of
``sum(fn(*inputs) * w)`` for a fixed random ``w`` against the one backward() gives."""

import numpy as np

import dygrad as paddle


def analytic_grads(fn, *values, seed=0):
    """The gradients backward() gives of sum(fn(*xs) * w), xs the leaves made of
    ``values`` (each keeps its dtype; floating ones need a gradient), and ``w``."""
    xs = [paddle.to_tensor(np.asarray(v)) for v in values]
    for x in xs:
        x.stop_gradient = not x.is_floating_point()
    out = fn(*xs)
    w = np.random.default_rng(seed).standard_normal(out.shape)
    (out * paddle.to_tensor(w)).sum().backward()
    return [None if x.grad is None else x.grad.numpy() for x in xs], w


def numeric_grad(fn, values, i, w, eps=1e-6):
    """Central differences of sum(fn(*values) * w) with respect to values[i] (float64)."""
    values = [np.array(v) for v in values]
    g = np.zeros_like(values[i], dtype=np.float64)
    for k in np.ndindex(g.shape):
        old = values[i][k]
        values[i][k] = old + eps
        fp = np.sum(fn(*[paddle.to_tensor(v) for v in values]).numpy() * w)
        values[i][k] = old - eps
        fm = np.sum(fn(*[paddle.to_tensor(v) for v in values]).numpy() * w)
        values[i][k] = old
        g[k] = (fp - fm) / (2 * eps)
    return g


def check_grads(fn, *values, wrt=None, rtol=1e-6, atol=1e-7):
    """backward()'s gradients of fn at ``values`` (float64 for the ones checked) against
    central differences: of every floating input, or only of input ``wrt``."""
    grads, w = analytic_grads(fn, *values)
    for i, g in enumerate(grads):
        if g is not None and wrt in (None, i):
            np.testing.assert_allclose(g, numeric_grad(fn, values, i, w), rtol=rtol, atol=atol)
