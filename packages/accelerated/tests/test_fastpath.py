"""The accelerated engine's compiled dispatch and backward walk (``_fastpath``) against the
reference functions they replace: same values, same graph records, same autograd behaviour,
and graphs that cross a ``set_engine`` switch."""

import contextlib
import os

import numpy as np
import pytest

import dygrad
import dygrad.nn.functional as F
from dygrad._core import autograd, dispatch
from dygrad._core.autograd import BackwardError
from dygrad._core.tensor import Parameter
from dygrad_accelerated import _fastpath

ENGINES = ["reference", "accelerated"]


@contextlib.contextmanager
def engine(name):
    before = dygrad.get_engine()
    dygrad.set_engine(name)
    try:
        yield
    finally:
        dygrad.set_engine(before)


def leaf(values, stop_gradient=False):
    return dygrad.to_tensor(np.asarray(values, dtype=np.float32), stop_gradient=stop_gradient)


def program(x, w, b):
    """Broadcasting, scalars, matmul, an activation, a reduction and a shared input."""
    h = F.relu(dygrad.matmul(x, w) + b) * 2.0 - x.sum()
    return (h * h + 1).mean() + (1 - w).sum()


def inputs():
    rng = np.random.default_rng(0)
    return (leaf(rng.standard_normal((3, 4))), leaf(rng.standard_normal((4, 2))),
            leaf(rng.standard_normal((2,))))


def test_installed_only_while_the_accelerated_engine_is_selected():
    with engine("accelerated"):
        assert dispatch.apply is _fastpath.apply
        assert dispatch.binary is _fastpath.binary
        assert autograd.run_backward is _fastpath.run_backward
        assert autograd.Node.__getitem__ is _fastpath.node_getitem
    with engine("reference"):
        assert dispatch.apply is dispatch.REFERENCE_PATHS["apply"]
        assert dispatch.binary is dispatch.REFERENCE_PATHS["binary"]
        assert autograd.run_backward is autograd.REFERENCE_PATHS["run_backward"]
        assert autograd.Node.__getitem__ is autograd.REFERENCE_NODE_GETITEM


def _reads(getitem, node, name):
    """What ``getitem(node, name)`` gives: the saved object itself (an input), a Tensor's
    record (an output), or the error's type and message."""
    try:
        t = getitem(node, name)
    except Exception as exc:  # noqa: BLE001 - the error is what is compared
        return type(exc), str(exc)
    if t is node._saved[name][0]:
        return "input", id(t)
    return (type(t), t._data is node._saved[name][0], t.stop_gradient, t._grad_fn,
            t._out_idx, t._version == [0])


def test_node_getitem_reads_as_the_reference_method():
    """Inputs, outputs, a name not saved, an input changed in place, a freed node, a
    variadic list and an output read while recording (create_graph)."""
    ref, fast = autograd.REFERENCE_NODE_GETITEM, _fastpath.node_getitem
    with engine("accelerated"):
        x = leaf([[1.0, -2.0], [3.0, 4.0]])
        y = F.relu(x)
        node = y._grad_fn
        for name in ("out", "x", "nothing"):
            assert _reads(fast, node, name) == _reads(ref, node, name)
        w = leaf([[1.0], [2.0]])
        z = dygrad.matmul(x, w)
        for name in ("x", "y"):
            assert _reads(fast, z._grad_fn, name) == _reads(ref, z._grad_fn, name)
        v = dygrad.to_tensor(np.ones((2, 2), np.float32))
        v.stop_gradient = False
        u = v * 1.0
        m = u * u
        with dygrad.no_grad():
            u.add_(dygrad.ones([2, 2]))
        assert _reads(fast, m._grad_fn, "x")[0] is BackwardError
        assert _reads(fast, m._grad_fn, "x") == _reads(ref, m._grad_fn, "x")
        e = dygrad.einsum("ij,jk->ik", x, w)  # a variadic op: it saves the list of operands
        got, want = fast(e._grad_fn, "operands"), ref(e._grad_fn, "operands")
        assert type(got) is list and [a is b for a, b in zip(got, want)] == [True, True]
        with dygrad.no_grad():  # as a backward walk without create_graph reads them
            assert _reads(fast, node, "out") == _reads(ref, node, "out")
        assert autograd.grad_mode.enabled  # as with create_graph: the output keeps its history
        assert _reads(fast, node, "out") == _reads(ref, node, "out")
        y.sum().backward()
        assert _reads(fast, node, "out")[0] is BackwardError
        assert _reads(fast, node, "out") == _reads(ref, node, "out")


def test_operators_are_compiled_only_while_the_fast_paths_are_installed():
    ops = dispatch.REFERENCE_OPERATORS
    assert {"__add__", "__radd__", "__matmul__", "__rpow__", "__eq__"} <= set(ops)
    x, y = leaf([1.0, -2.0, 3.0]), leaf([0.5, 4.0, -1.0])
    with engine("reference"):
        assert all(getattr(dygrad.Tensor, d) is fn for d, (fn, _, _) in ops.items())
        want = [(x + y).numpy(), (2.0 - x).numpy(), (x ** 2).numpy(), (x < y).numpy()]
    with engine("accelerated"):
        for dunder, (fn, _, _) in ops.items():
            method = getattr(dygrad.Tensor, dunder)
            assert method is not fn and method.__name__ == fn.__name__
        got = [(x + y).numpy(), (2.0 - x).numpy(), (x ** 2).numpy(), (x < y).numpy()]
        dispatch.set_debug_hook(lambda name, fn: fn)  # a debugging mode: the reference's
        try:
            assert dygrad.Tensor.__add__ is ops["__add__"][0]
        finally:
            dispatch.set_debug_hook(None)
        assert dygrad.Tensor.__add__ is not ops["__add__"][0]
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, w)


def test_same_values_and_gradients_as_the_reference():
    results = {}
    for name in ENGINES:
        with engine(name):
            x, w, b = inputs()
            loss = program(x, w, b)
            loss.backward()
            results[name] = [loss.numpy(), x.grad.numpy(), w.grad.numpy(), b.grad.numpy()]
    for ref, acc in zip(results["reference"], results["accelerated"]):
        np.testing.assert_allclose(acc, ref, rtol=1e-5, atol=1e-6)


def test_the_recorded_node_is_the_reference_record():
    nodes = {}
    for name in ENGINES:
        with engine(name):
            x, w, _ = inputs()
            h = dygrad.exp(x * 3.0)          # exp saves its output
            y = dygrad.matmul(h, w)          # an edge to a node and one to a leaf
            s = h * x                        # inputs and output of one shape and dtype
            c = dygrad.cast(x, "float64") + x.astype("float64")[:1]  # broadcast: three metas
            nodes[name] = y._grad_fn, h._grad_fn, s._grad_fn, c._grad_fn
    for ref, acc in zip(nodes["reference"], nodes["accelerated"]):
        assert type(acc) is autograd.Node
        assert acc.op is ref.op and acc.attrs == ref.attrs
        assert acc.in_meta == ref.in_meta and acc.out_meta == ref.out_meta
        assert [e is None for e in acc.next_edges] == [e is None for e in ref.next_edges]
        assert [type(e[0]) for e in acc.next_edges] == [type(e[0]) for e in ref.next_edges]
        assert (acc._saved is None) == (ref._saved is None)
        assert sorted(acc._saved or {}) == sorted(ref._saved or {})
        assert [v[2:] for v in (acc._saved or {}).values()] == \
            [v[2:] for v in (ref._saved or {}).values()]


@pytest.mark.parametrize("record,walk", [("accelerated", "reference"),
                                         ("reference", "accelerated")])
def test_a_graph_recorded_on_one_engine_is_walked_on_the_other(record, walk):
    with engine("reference"):
        x, w, b = inputs()
        program(x, w, b).backward()
        expected = [x.grad.numpy(), w.grad.numpy(), b.grad.numpy()]
    with engine(record):
        x, w, b = inputs()
        loss = program(x, w, b)
    with engine(walk):
        loss.backward()
    for t, e in zip((x, w, b), expected):
        np.testing.assert_allclose(t.grad.numpy(), e, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("name", ENGINES)
def test_hooks_change_the_gradient(name):
    with engine(name):
        x = leaf([1.0, 2.0])
        x.register_hook(lambda g: g * 10)
        h = x * x
        h.register_hook(lambda g: g + 1)
        h.sum().backward()
        np.testing.assert_allclose(x.grad.numpy(), [40, 80])   # (1 + 1) * 2x * 10


@pytest.mark.parametrize("name", ENGINES)
def test_backward_twice_needs_retain_graph(name):
    with engine(name):
        x = leaf([1.0, 2.0])
        y = (x * x).sum()
        y.backward(retain_graph=True)
        y.backward()
        np.testing.assert_allclose(x.grad.numpy(), [4, 8])
        with pytest.raises(BackwardError, match="op 'sum' a second time.*retain_graph=True"):
            y.backward()


@pytest.mark.parametrize("name", ENGINES)
def test_leaf_gradients_accumulate_as_the_reference(name):
    """A leaf's gradient: the first one detached, the next ones added as new Tensors (the
    one read before stays as it was), zeros from clear_grad(set_to_zero) added to, a
    gradient of another dtype cast first."""
    with engine(name):
        x = leaf([1.0, -2.0])
        (x * x).sum().backward()
        first = x.grad
        assert first.stop_gradient and first.grad_fn is None
        (x * 3.0).sum().backward()
        np.testing.assert_array_equal(first.numpy(), [2, -4])
        np.testing.assert_array_equal(x.grad.numpy(), [5, -1])
        assert x.grad is not first and x.grad.stop_gradient and x.grad.grad_fn is None
        x.clear_grad(set_to_zero=True)
        (x * x).sum().backward()
        np.testing.assert_array_equal(x.grad.numpy(), [2, -4])
        y = dygrad.to_tensor(np.array([1.0, 2.0]), stop_gradient=False)  # float64
        y.grad = dygrad.to_tensor(np.array([1.0, 1.0], np.float32))
        (y * y).sum().backward()
        assert x.grad.dtype == dygrad.float32 and y.grad.dtype == dygrad.float64
        np.testing.assert_array_equal(y.grad.numpy(), [3, 5])


def test_a_gradient_nothing_else_holds_is_added_to_in_place():
    """The accelerated walk adds into the old gradient's array when only the leaf holds it
    (the same sum; the reference makes a new array), and never when anything else does."""
    with engine("accelerated"):
        x, y = leaf([1.0, -2.0]), leaf([3.0, 4.0])
        (x * y).sum().backward()
        x.clear_grad(set_to_zero=True)
        address = x.grad._data.ctypes.data
        held = y.grad._data
        (x * y).sum().backward()
        assert x.grad._data.ctypes.data == address
        assert y.grad._data is not held
        np.testing.assert_array_equal(x.grad.numpy(), [3, 4])
        np.testing.assert_array_equal(held, [1, -2])
        np.testing.assert_array_equal(y.grad.numpy(), [2, -4])


@pytest.mark.parametrize("name", ENGINES)
def test_inplace_change_of_a_saved_tensor_is_caught(name):
    with engine(name):
        x = leaf([1.0, 2.0])
        h = x * 1.0
        y = (h * h).sum()
        h.add_(leaf([1.0, 1.0], stop_gradient=True))
        with pytest.raises(BackwardError, match=r"multiply.*\(version 0 when saved, 1 now\)"):
            y.backward()


@pytest.mark.parametrize("name", ENGINES)
@pytest.mark.parametrize("create_graph", [True, 1])  # any truthy value records the backward
def test_create_graph_gives_second_derivatives(name, create_graph):
    with engine(name):
        x = leaf([1.0, -2.0, 3.0])
        (dx,) = dygrad.grad((x * x * x).sum(), x, create_graph=create_graph)
        np.testing.assert_allclose(dx.numpy(), 3 * x.numpy() ** 2)
        x.clear_grad()
        dx.sum().backward()                                   # through the compiled walk
        np.testing.assert_allclose(x.grad.numpy(), 6 * x.numpy())


@pytest.mark.parametrize("name", ENGINES)
def test_stop_gradient_prunes_and_no_grad_records_nothing(name):
    with engine(name):
        x, c = leaf([1.0, 2.0]), leaf([3.0, 4.0], stop_gradient=True)
        assert (c * c)._grad_fn is None and (c * c).stop_gradient
        y = x * c
        assert not y.stop_gradient and [e is None for e in y._grad_fn.next_edges] == [False, True]
        with dygrad.no_grad():
            z = x * c + x
        assert z._grad_fn is None and z.stop_gradient
        (y + z).sum().backward()
        np.testing.assert_allclose(x.grad.numpy(), [3, 4])
        assert c.grad is None


@pytest.mark.parametrize("name", ENGINES)
def test_operands_and_errors_as_the_reference(name):
    with engine(name):
        i = dygrad.to_tensor(np.array([1, 2], dtype=np.int32))
        assert (i + 1.5).dtype == dygrad.float32 and (2 * i).dtype == dygrad.int32
        f64 = dygrad.to_tensor(np.array([1.0, 2.0]))
        assert (leaf([1.0, 1.0]) + f64).dtype == dygrad.float64
        with pytest.raises(ValueError, match=r"add: shapes \[2\] and \[3\] cannot be broadcast"):
            leaf([1.0, 2.0]) + leaf([1.0, 2.0, 3.0])
        with pytest.raises(TypeError, match="only floating-point dtypes promote"):
            i + dygrad.to_tensor(np.array([1, 2], dtype=np.int64))


@pytest.mark.parametrize("name", ENGINES)
def test_numbers_and_parameters_as_operands(name):
    with engine(name):
        p = Parameter(np.array([1.0, 3.0]))
        f16 = dygrad.to_tensor(np.array([1.0, 2.0], dtype=np.float16))
        cases = [(leaf([2.0, 4.0]) * 0.1, [0.2, 0.4], "float32"), (3 - leaf([1.0, 2.0]), [2, 1], "float32"),
                 (p / 2, [0.5, 1.5], "float64"), (p + dygrad.to_tensor(np.ones(2)), [2, 4], "float64"),
                 (1.5 ** f16, [1.5, 2.25], "float16"), (f16 * True, [1, 2], "float16")]
        for got, want, dtype in cases:
            assert got.dtype == getattr(dygrad, dtype)
            np.testing.assert_allclose(got.numpy(), want, rtol=1e-3)
        x = leaf([1.0, 2.0])
        y = x * 2.0
        y.sum().backward()
        np.testing.assert_array_equal(x.grad.numpy(), [2.0, 2.0])


def test_set_num_threads_reaches_openmp_and_blas():
    threadpoolctl = pytest.importorskip("threadpoolctl")
    before = dygrad.get_num_threads()
    assert before >= 1
    with engine("accelerated"):
        try:
            dygrad.set_num_threads(1)
            assert dygrad.get_num_threads() == 1
            assert _fastpath.get_omp_threads() == 1
            blas = threadpoolctl.threadpool_info()
            assert all(p["num_threads"] == 1 for p in blas if p["user_api"] == "blas")
            with pytest.raises(ValueError, match="positive number of threads"):
                dygrad.set_num_threads(0)
        finally:
            dygrad.set_num_threads(before)
    assert dygrad.get_num_threads() == before


def test_default_is_every_core():
    assert dygrad.get_num_threads() == (os.cpu_count() or 1)


@pytest.mark.parametrize("set_to_zero", [True, False])
def test_clear_grads_is_the_reference_loop(set_to_zero):
    """``Optimizer.clear_grad``'s compiled loop: new zero gradients of each parameter's
    dtype and layout (or None), the old gradient Tensors untouched, parameters that need no
    gradient and other arrays left to ``Tensor.clear_grad``."""
    def grads_after_clear(name):
        with engine(name):
            dygrad.seed(0)
            lin = dygrad.nn.Linear(3, 2)
            make = dygrad.nn.Layer().create_parameter
            frozen, half, f_order = make([2]), make([2, 2], dtype="float16"), make([3, 2], dtype="float64")
            frozen.stop_gradient = True
            params = [*lin.parameters(), frozen, half, f_order]
            lin(dygrad.ones([4, 3])).sum().backward()
            frozen._grad, half._grad = dygrad.ones([2]), dygrad.ones([2, 2], "float16")
            f_order._grad = dygrad.to_tensor(np.asfortranarray(np.ones((3, 2))))
            held = lin.weight.grad
            dygrad.optimizer.SGD(parameters=params).clear_grad(set_to_zero)
            np.testing.assert_array_equal(held.numpy(), np.full((3, 2), 4.0, np.float32))
            assert frozen.grad is not None and frozen.grad.numpy().sum() == 2
            grads = [p.grad for p in params if p is not frozen]
            return [None if g is None else (g._data, g.stop_gradient, g._grad_fn, g._version)
                    for g in grads]
    fast, ref = grads_after_clear("accelerated"), grads_after_clear("reference")
    for a, b in zip(fast, ref):
        if not set_to_zero:
            assert a is None and b is None
            continue
        assert a[0].dtype == b[0].dtype and a[0].flags.c_contiguous == b[0].flags.c_contiguous
        np.testing.assert_array_equal(a[0], b[0])
        assert not a[0].any() and a[1:] == b[1:] == (True, None, [0])


def test_clear_grads_zeroes_a_gradient_nothing_else_holds_in_place():
    """clear_grads writes the zeros into the old gradient's array when only the parameter
    holds it (the Tensor and the array), else into a new array, the held one untouched; the
    next backward takes its gradient in place of adding it to those zeros."""
    with engine("accelerated"):
        x, y = leaf([1.0, -2.0]), leaf([3.0, 4.0])
        (x * y).sum().backward()
        address = x.grad._data.ctypes.data
        held = y.grad
        dygrad.optimizer.SGD(parameters=[x, y]).clear_grad()
        assert x.grad._data.ctypes.data == address
        np.testing.assert_array_equal(x.grad.numpy(), [0, 0])
        np.testing.assert_array_equal(held.numpy(), [1, -2])
        np.testing.assert_array_equal(y.grad.numpy(), [0, 0])
        array = x.grad._data
        dygrad.optimizer.SGD(parameters=[x]).clear_grad()
        assert x.grad._data is not array
        del array
        zeros = x.grad._data.ctypes.data
        (x * y).sum().backward()  # g itself, not added into the zeros' array in place
        assert x.grad._data.ctypes.data != zeros
        np.testing.assert_array_equal(x.grad.numpy(), [3, 4])


@pytest.mark.parametrize("n_threads", [1, 2])
def test_clear_grads_zeroes_a_big_gradient_with_the_pools_threads(n_threads):
    """A gradient of 64 KiB or more is zeroed by the pool's threads too: all of it."""
    from dygrad_accelerated import _linalg, threads
    before = threads.count()
    threads.set_num_threads(n_threads)
    _linalg.pool_threads()
    try:
        with engine("accelerated"):
            x = leaf(np.linspace(-1, 1, 3 * 17000).reshape(3, 17000))
            (x * x).sum().backward()
            address = x.grad._data.ctypes.data
            assert _linalg.workers() == n_threads - 1
            dygrad.optimizer.SGD(parameters=[x]).clear_grad()
            assert x.grad._data.ctypes.data == address
            np.testing.assert_array_equal(x.grad.numpy(), np.zeros((3, 17000)))
    finally:
        threads.set_num_threads(before)


@pytest.mark.parametrize("write", ["add_", "set_value", "detached", "held view", "none"])
@pytest.mark.parametrize("name", ENGINES)
def test_backward_after_clear_grad_adds_to_what_the_gradient_holds(name, write):
    """After Optimizer.clear_grad the next backward gives 0 + g (the accelerated walk takes
    g itself), and adds to the gradient where it was written in place since (its version
    counts the writes, a detached Tensor's too; an array view that is still held may have
    written unseen)."""
    with engine(name):
        x = leaf([1.0, -2.0])
        opt = dygrad.optimizer.SGD(parameters=[x])
        (x * x).sum().backward()
        opt.clear_grad()
        zeros = x.grad
        with dygrad.no_grad():
            if write == "add_":
                x.grad.add_(dygrad.ones([2]))
            elif write == "set_value":
                x.grad.set_value(np.ones(2, np.float32))
            elif write == "detached":
                x.grad.detach().add_(dygrad.ones([2]))
            elif write == "held view":  # a NumPy view writes without a version count
                view = np.asarray(x.grad)[:]
                view += 1
        (x * 3.0).sum().backward()
        np.testing.assert_array_equal(x.grad.numpy(), [3, 3] if write == "none" else [4, 4])
        assert x.grad is not zeros and x.grad.stop_gradient and x.grad.grad_fn is None
        np.testing.assert_array_equal(zeros.numpy(), [0, 0] if write == "none" else [1, 1])
        (x * 3.0).sum().backward()  # then added to, as always
        np.testing.assert_array_equal(x.grad.numpy(), [6, 6] if write == "none" else [7, 7])
