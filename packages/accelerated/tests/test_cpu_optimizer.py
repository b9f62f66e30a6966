"""The compiled optimizer updates against the reference kernels: the same values (to the
last bit in float32 and float64, the arithmetic being the same operation by operation),
written into the same arrays, returned the same way; float16, non-contiguous and mismatched
inputs are declined by the loops and run by the reference kernel."""

import numpy as np
import pytest

from dygrad.kernels import KERNELS as REFERENCE
from dygrad_accelerated import _linalg, _optimizer, cpu_optimizer, threads

# (accumulators of the parameter's shape, one-element beta powers, attribute sets)
RULES = {
    "sgd_": (0, 0, [{}]),
    "momentum_": (1, 0, [{}, {"mu": 0.8, "use_nesterov": True},
                         {"regularization_method": "l2_decay", "regularization_coeff": 0.1,
                          "rescale_grad": 0.3}]),
    "adam_": (2, 2, [{}, {"beta1": 0.7, "beta2": 0.95, "epsilon": 0.1}]),
    "adamw_": (2, 2, [{}, {"lr_ratio": 0.3, "coeff": 0.2}, {"with_decay": False}]),
    "rmsprop_": (3, 0, [{}, {"centered": True, "momentum": 0.9, "rho": 0.8}]),
    "adagrad_": (1, 0, [{}, {"epsilon": 0.3}]),
    "adadelta_": (2, 0, [{}, {"rho": 0.7, "epsilon": 0.01}]),
    "adamax_": (2, 1, [{}, {"beta1": 0.5, "beta2": 0.9, "epsilon": 0.1}]),
}
# batch-1-like, odd, empty and 0-D shapes and W2's sizes in both dtypes; one large enough
# for the threads (a last block of 512 elements)
CASES = [(shape, dtype) for shape in [(), (1,), (7,), (3, 5), (2, 0, 3), (256,), (128, 256)]
         for dtype in (np.float32, np.float64)] + [((513, 512), np.float32)]


def _inputs(name, shape, dtype, seed=0):
    n_accs, n_pows, _ = RULES[name]
    rng = np.random.default_rng(seed)
    param, grad = (rng.uniform(-2, 2, shape).astype(dtype) for _ in range(2))
    accs = [rng.uniform(0.1, 1.0, shape).astype(dtype) for _ in range(n_accs)]
    if name == "rmsprop_":  # mean_grad small, so a centered variance stays positive
        accs[1] = rng.uniform(-0.2, 0.2, shape).astype(dtype)
    pows = [np.array([rng.uniform(0.3, 0.95)], dtype) for _ in range(n_pows)]
    return [param, grad, np.array([0.07], dtype), *accs, *pows]


def _both(name, inputs, attrs):
    """(reference outputs, compiled outputs, the compiled kernel's own input arrays)."""
    ref_in = [a.copy() for a in inputs]
    want = REFERENCE[name](*ref_in, **attrs)
    got = cpu_optimizer.KERNELS[name](*inputs, **attrs)
    return want, got


def _as_tuple(out):
    return out if isinstance(out, tuple) else (out,)


def test_every_rule_but_lamb_is_compiled():
    assert set(cpu_optimizer.KERNELS) == set(RULES)


@pytest.mark.parametrize("shape,dtype", CASES, ids=str)
@pytest.mark.parametrize("name", list(RULES))
def test_same_bits_as_the_reference_written_in_place(name, shape, dtype):
    for i, attrs in enumerate(RULES[name][2]):
        inputs = _inputs(name, shape, dtype, seed=i)
        want, got = _both(name, inputs, attrs)
        updated = [inputs[0], *inputs[3:]]  # what a kernel returns: param, accumulators
        assert type(got) is type(want)
        for g, w, arr in zip(_as_tuple(got), _as_tuple(want), updated, strict=True):
            assert g is arr  # written in place, the given arrays returned
            np.testing.assert_array_equal(g, w, err_msg=f"{name} {attrs}")


@pytest.fixture(params=[1, 2, 3], ids=lambda n: f"{n} threads")
def pool(request):
    """_linalg's pool with n - 1 workers, the loops' pieces shared among them."""
    before = threads.count()
    threads.set_num_threads(request.param)
    _linalg.pool_threads()
    assert _linalg.workers() == request.param - 1
    yield
    threads.set_num_threads(before)


@pytest.mark.parametrize("shape", [(128, 256), (16384,), (16385,), (3, 10007)], ids=str)
@pytest.mark.parametrize("name", list(RULES))
def test_pieces_shared_by_the_pool_give_the_same_bits(name, shape, pool):
    for i, attrs in enumerate(RULES[name][2]):
        inputs = _inputs(name, shape, np.float32, seed=i)
        want, got = _both(name, inputs, attrs)
        for g, w in zip(_as_tuple(got), _as_tuple(want), strict=True):
            np.testing.assert_array_equal(g, w, err_msg=f"{name} {attrs}")


@pytest.mark.parametrize("name", list(RULES))
def test_several_steps_follow_the_reference(name):
    ref = _inputs(name, (37,), np.float32)
    acc = [a.copy() for a in ref]
    rng = np.random.default_rng(3)
    for _ in range(5):
        grad = rng.normal(size=37).astype(np.float32)
        ref[1][...] = acc[1][...] = grad
        REFERENCE[name](*ref)
        cpu_optimizer.KERNELS[name](*acc)
    for r, a in zip(ref, acc):
        np.testing.assert_array_equal(a, r)


@pytest.mark.parametrize("name", list(RULES))
@pytest.mark.parametrize("case", ["float16", "non-contiguous", "broadcast grad", "float64 grad"])
def test_declined_inputs_run_the_reference_kernel(name, case):
    inputs = _inputs(name, (3, 4), np.float16 if case == "float16" else np.float32)
    if case == "non-contiguous":  # every array of the parameter's shape a strided view
        inputs = [np.asfortranarray(np.repeat(a, 2, axis=1))[:, ::2] if a.ndim == 2 else a
                  for a in inputs]
    elif case == "broadcast grad":  # NumPy broadcasts it in the reference kernel
        inputs[1] = inputs[1][:1].copy()
    elif case == "float64 grad":
        inputs[1] = inputs[1].astype(np.float64)
    want, got = _both(name, inputs, {})
    for g, w, arr in zip(_as_tuple(got), _as_tuple(want), [inputs[0], *inputs[3:]],
                         strict=True):
        assert g is arr
        np.testing.assert_array_equal(g, w)


def test_a_loop_declines_without_touching_anything():
    p = np.ones((3, 4), np.float32)
    g = np.ones((4, 3), np.float32)
    lr = np.array([0.5], np.float32)
    assert not _optimizer.sgd((p, g, lr))  # same size, another shape
    assert not _optimizer.sgd((p.T, g.T, lr))  # not C-contiguous
    assert not _optimizer.sgd((p.astype(np.float16), g.T.astype(np.float16), lr))
    assert not _optimizer.sgd((p, g.T, lr.astype(np.float64)))  # mixed dtypes
    assert not _optimizer.sgd((p, g.T, np.array([0.5, 0.5], np.float32)))  # rate of 2
    frozen = p.copy()
    frozen.flags.writeable = False
    assert not _optimizer.sgd((frozen, g.T, lr))
    np.testing.assert_array_equal(p, 1)
    assert _optimizer.sgd((p, g.T.copy(), lr))
    np.testing.assert_array_equal(p, 0.5)
