"""The Tensor class basics: metadata, conversions, Python protocols, to_tensor's dtype
rules, dtype objects and places (behaviour checked against PaddlePaddle)."""

import copy

import numpy as np
import pytest

import dygrad as paddle
from dygrad._core.optable import TABLE


@pytest.fixture
def x():
    return paddle.to_tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])


# ---------------------------------------------------------------------------
# metadata
# ---------------------------------------------------------------------------

def test_metadata(x):
    assert x.shape == [2, 3] and isinstance(x.shape, list)
    assert x.ndim == 2 and x.dim() == 2
    assert x.size == 6 and isinstance(x.size, int)
    assert x.dtype == paddle.float32
    assert str(x.dtype) == "paddle.float32" and repr(x.dtype) == "paddle.float32"
    assert x.place == paddle.CPUPlace() and str(x.place) == "Place(cpu)"
    assert x.stop_gradient is True
    assert x.persistable is False
    assert x.is_leaf
    assert x.grad is None


def test_0d_metadata():
    s = paddle.to_tensor(2.5)
    assert s.shape == [] and s.ndim == 0 and s.size == 1


def test_name():
    t = paddle.to_tensor([1.0])
    assert t.name.startswith("generated_tensor")
    assert t.name == t.name  # stable
    assert paddle.to_tensor([1.0]).name != t.name
    t.name = "weights"
    assert t.name == "weights"


def test_stop_gradient_and_is_leaf():
    t = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    assert t.stop_gradient is False and t.is_leaf
    y = t * 2
    assert y.stop_gradient is False and not y.is_leaf
    d = y.detach()
    assert d.stop_gradient and d.is_leaf
    np.testing.assert_array_equal(d.numpy(), y.numpy())
    t.stop_gradient = True
    assert (t * 2).stop_gradient


# ---------------------------------------------------------------------------
# conversions
# ---------------------------------------------------------------------------

def test_numpy_tolist_item(x):
    a = x.numpy()
    assert isinstance(a, np.ndarray) and a.dtype == np.float32
    np.testing.assert_array_equal(a, [[1, 2, 3], [4, 5, 6]])
    assert x.tolist() == [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]
    assert x.item(1, 2) == 6.0
    assert paddle.to_tensor(2).item() == 2 and isinstance(paddle.to_tensor(2).item(), int)
    assert isinstance(paddle.to_tensor(2.5).item(), float)
    assert paddle.to_tensor([[7.0]]).item() == 7.0
    with pytest.raises(ValueError, match="one element"):
        x.item()


def test_array_protocol(x):
    a = np.asarray(x)
    assert a.dtype == np.float32 and a.shape == (2, 3)
    assert np.array(x, dtype=np.float64).dtype == np.float64
    np.testing.assert_array_equal(np.asarray(x), x.numpy())


def test_one_element_conversions():
    assert bool(paddle.to_tensor([0.0])) is False
    assert bool(paddle.to_tensor(3)) is True
    assert float(paddle.to_tensor([[2.5]])) == 2.5
    assert int(paddle.to_tensor(3.7)) == 3
    assert int(paddle.to_tensor([-2])) == -2


@pytest.mark.parametrize("conv", [bool, float, int])
def test_conversions_need_one_element(conv, x):
    with pytest.raises(ValueError, match="one element"):
        conv(x)
    with pytest.raises(ValueError, match="one element"):
        conv(paddle.zeros([0]))


def test_if_on_a_comparison():
    if "greater_than" not in TABLE:
        pytest.skip("comparison ops are not in the op table yet")
    paddle.seed(0)
    hits = 0
    for _ in range(50):
        if paddle.rand([1]) > 0.5:
            hits += 1
    assert 0 < hits < 50


def test_len(x):
    assert len(x) == 2 and len(paddle.zeros([0, 3])) == 0
    s = paddle.to_tensor(1.0)
    with pytest.raises(TypeError, match="0-D"):
        len(s)
    with pytest.raises(TypeError, match="0-D"):
        list(s)


def test_iteration(x):
    if "getitem" not in TABLE:
        pytest.skip("indexing (the getitem op) is not in the op table yet")
    rows = list(x)
    assert len(rows) == 2 and all(r.shape == [3] for r in rows)
    assert rows[1].tolist() == [4.0, 5.0, 6.0]


def test_astype(x):
    if not hasattr(paddle.Tensor, "astype"):
        pytest.skip("Tensor.astype is not available yet")
    y = x.astype("int32")
    assert y.dtype == paddle.int32 and y.tolist() == [[1, 2, 3], [4, 5, 6]]
    assert x.astype(paddle.float64).dtype == paddle.float64


def test_clone_and_detach_share_or_copy(x):
    c = x.clone()
    d = x.detach()
    x.fill_(0.0)
    assert c.tolist() == [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]  # clone copies
    assert d.tolist() == [[0.0] * 3] * 2  # detach shares the data


def test_deepcopy_copies_data():
    t = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    c = copy.deepcopy(t)
    assert c is not t and c.stop_gradient is False and c.tolist() == [1.0, 2.0]
    with paddle.no_grad():
        t.fill_(9.0)
    assert c.tolist() == [1.0, 2.0]


# ---------------------------------------------------------------------------
# to_tensor's dtype rules (as Paddle)
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("data,dtype", [
    (1.5, "float32"),
    ([1.5, 2.0], "float32"),
    (1, "int64"),
    ([[1, 2], [3, 4]], "int64"),
    ([1, 2.5], "float32"),
    (True, "bool"),
    ([True, False], "bool"),
    (1 + 2j, "complex64"),
    (np.array([1.5]), "float64"),
    (np.float64(1.5), "float64"),
    (np.array([1.5], dtype="float16"), "float16"),
    (np.array([1], dtype="int32"), "int32"),
    (np.float32(1.0), "float32"),
])
def test_to_tensor_dtype(data, dtype):
    assert paddle.to_tensor(data).dtype == dtype


def test_to_tensor_nested_and_tensors_inside_lists():
    t = paddle.to_tensor([[1, 2], [3, 4]])
    assert t.shape == [2, 2] and t.tolist() == [[1, 2], [3, 4]]
    s = paddle.to_tensor([paddle.to_tensor(1.0), paddle.to_tensor(2.0)])
    assert s.shape == [2] and s.dtype == paddle.float32 and s.tolist() == [1.0, 2.0]
    v = paddle.to_tensor([paddle.to_tensor([1.0]), paddle.to_tensor([2.0])])
    assert v.shape == [2, 1]


def test_to_tensor_copies_and_converts():
    a = np.array([1.0, 2.0], dtype=np.float32)
    t = paddle.to_tensor(a)
    a[0] = 99.0
    assert t.tolist() == [1.0, 2.0]
    x = paddle.to_tensor([1.0, 2.0])
    assert paddle.to_tensor(x).dtype == paddle.float32
    y = paddle.to_tensor(x, dtype="int32")
    assert y.dtype == paddle.int32 and y.tolist() == [1, 2]
    assert paddle.to_tensor([1, 2], dtype=paddle.float64).dtype == paddle.float64
    assert paddle.to_tensor([1.0], stop_gradient=False).stop_gradient is False


def test_to_tensor_rejects_strings():
    with pytest.raises(TypeError, match="to_tensor"):
        paddle.to_tensor("abc")


def test_default_dtype_applies_to_python_floats():
    paddle.set_default_dtype("float64")  # the conftest restores it
    assert paddle.get_default_dtype() == "float64"
    assert paddle.to_tensor(1.5).dtype == paddle.float64
    assert paddle.to_tensor([1, 2.5]).dtype == paddle.float64
    assert paddle.to_tensor(1).dtype == paddle.int64
    assert paddle.to_tensor(np.float32(1.0)).dtype == paddle.float32
    paddle.set_default_dtype("float32")
    assert paddle.to_tensor(1.5).dtype == paddle.float32
    with pytest.raises(TypeError, match="float16, float32 and float64"):
        paddle.set_default_dtype("int32")


# ---------------------------------------------------------------------------
# dtype objects
# ---------------------------------------------------------------------------

def test_dtype_objects_compare_with_spellings():
    assert paddle.float32 == "float32"
    assert paddle.float32 == np.float32
    assert paddle.float32 == np.dtype("float32")
    assert paddle.float32 != paddle.float64
    assert paddle.float32 != "float64"
    assert paddle.int64 == "int64" and paddle.bool == "bool"
    assert paddle.to_tensor([1.0]).dtype == "float32"
    assert str(paddle.int64) == "paddle.int64"
    assert len({paddle.float32, paddle.float32, paddle.int64}) == 2


# ---------------------------------------------------------------------------
# places and devices
# ---------------------------------------------------------------------------

def test_cpu_place_and_device():
    assert paddle.get_device() == "cpu"
    assert paddle.set_device("cpu") == paddle.CPUPlace()
    assert paddle.get_device() == "cpu"
    assert str(paddle.CPUPlace()) == "Place(cpu)"
    assert paddle.to_tensor([1.0], place=paddle.CPUPlace()).place == paddle.CPUPlace()
    assert paddle.to_tensor([1.0], place="cpu").place == paddle.CPUPlace()


def test_gpu_needs_the_accelerated_engine():
    if paddle.get_engine() != "reference":
        pytest.skip("the GPU message is the reference engine's")
    assert str(paddle.CUDAPlace(0)) == "Place(gpu:0)"
    with pytest.raises(RuntimeError, match="accelerated.*CuPy|CuPy.*accelerated"):
        paddle.set_device("gpu")
    assert paddle.get_device() == "cpu"  # unchanged
    with pytest.raises(RuntimeError, match="accelerated.*CuPy|CuPy.*accelerated"):
        paddle.set_device("gpu:1")
    with pytest.raises(RuntimeError, match="accelerated.*CuPy|CuPy.*accelerated"):
        paddle.to_tensor([1.0], place=paddle.CUDAPlace(0))
    with pytest.raises(RuntimeError, match="CuPy"):
        paddle.to_tensor([1.0], place="gpu")


def test_unknown_device():
    with pytest.raises(ValueError, match="device"):
        paddle.set_device("tpu")


def test_numpy_is_a_copy_as_in_paddle():
    t = paddle.to_tensor([1.0, 2.0])
    a = t.numpy()
    a[0] = 5.0
    t.set_value(np.array([3.0, 4.0], np.float32))
    np.testing.assert_array_equal(a, [5.0, 2.0])
    np.testing.assert_array_equal(t.numpy(), [3.0, 4.0])
