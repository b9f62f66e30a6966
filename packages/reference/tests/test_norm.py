"""Normalization: nn.functional batch_norm, layer_norm, group_norm, instance_norm,
local_response_norm, normalize and their layers (values against NumPy statements,
gradients against finite differences, Paddle's names, defaults and errors)."""

import numpy as np
import pytest

import dygrad as paddle
import dygrad.nn.functional as F
from dygrad import nn

EPS = 1e-5


def numpy_standardize(x, axes, eps=EPS):
    x = x.astype(np.float64)
    mean = x.mean(axis=axes, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=axes, keepdims=True)
    return (x - mean) / np.sqrt(var + eps)


def numeric_grad(f, x, v, h=1e-6):
    """Central differences of sum(f(x) * v) in every element of the float64 array x."""
    g = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        old = x[i]
        x[i] = old + h
        fp = np.sum(f(x) * v)
        x[i] = old - h
        fm = np.sum(f(x) * v)
        x[i] = old
        g[i] = (fp - fm) / (2 * h)
    return g


def check_grad(fn, x_np, rng):
    """The gradient of sum(fn(x) * v) from backward() equals central differences."""
    x = paddle.to_tensor(x_np, stop_gradient=False)
    out = fn(x)
    v = rng.standard_normal(out.shape)
    (out * paddle.to_tensor(v)).sum().backward()
    with paddle.no_grad():
        num = numeric_grad(lambda a: fn(paddle.to_tensor(a)).numpy(), x_np.copy(), v)
    np.testing.assert_allclose(x.grad.numpy(), num, rtol=1e-5, atol=1e-7)


# ---------------------------------------------------------------------------
# batch norm
# ---------------------------------------------------------------------------

def test_batch_norm2d_parameters_buffers_and_defaults():
    bn = nn.BatchNorm2D(3)
    assert [n for n, _ in bn.named_parameters()] == ["weight", "bias", "_mean", "_variance"]
    assert list(bn.state_dict()) == ["weight", "bias", "_mean", "_variance"]
    for name, value in [("weight", 1.0), ("bias", 0.0), ("_mean", 0.0), ("_variance", 1.0)]:
        p = getattr(bn, name)
        assert p.shape == [3] and p.dtype == paddle.float32
        np.testing.assert_array_equal(p.numpy(), np.full(3, value, np.float32))
    assert not bn.weight.stop_gradient and not bn.bias.stop_gradient
    assert bn._mean.stop_gradient and bn._variance.stop_gradient and not bn._mean.trainable
    # Paddle's naming: weight w_0, bias b_0, then the running mean and variance w_1, w_2
    prefix = bn.full_name()
    assert prefix.startswith("batch_norm2d_")
    assert [bn.weight.name, bn.bias.name, bn._mean.name, bn._variance.name] == \
        [f"{prefix}.w_0", f"{prefix}.b_0", f"{prefix}.w_1", f"{prefix}.w_2"]
    assert repr(bn) == "BatchNorm2D(num_features=3, momentum=0.9, epsilon=1e-05)"
    assert repr(nn.BatchNorm1D(2)) == \
        "BatchNorm1D(num_features=2, momentum=0.9, epsilon=1e-05, data_format=NCL)"
    named = nn.BatchNorm2D(2, name="bn_named")
    assert (named._mean.name, named._variance.name) == ("bn_named_mean", "bn_named_variance")
    assert nn.BatchNorm3D(2)._data_format == "NCDHW"


def test_batch_norm_weight_attr_false_leaves_parameters_out():
    bn = nn.BatchNorm2D(3, weight_attr=False, bias_attr=False)
    assert bn.weight is None and bn.bias is None
    assert [n for n, _ in bn.named_parameters()] == ["_mean", "_variance"]
    x = np.random.default_rng(0).standard_normal((2, 3, 2, 2)).astype(np.float32)
    np.testing.assert_allclose(bn(paddle.to_tensor(x)).numpy(), numpy_standardize(x, (0, 2, 3)),
                               rtol=1e-5, atol=1e-5)


def test_batch_norm_running_statistics_follow_paddle_convention():
    """Training: batch mean and biased variance normalize; running = momentum * running +
    (1 - momentum) * batch statistic, with the biased variance (as Paddle 3.3.1 does).
    Eval: the running statistics normalize and stay as they are."""
    rng = np.random.default_rng(1)
    bn = nn.BatchNorm2D(3, momentum=0.8)
    bn.weight.set_value(rng.uniform(0.5, 2, 3).astype(np.float32))
    bn.bias.set_value(rng.standard_normal(3).astype(np.float32))
    w, b = bn.weight.numpy().astype(np.float64), bn.bias.numpy().astype(np.float64)
    mean, var = np.zeros(3), np.ones(3)
    for _ in range(3):
        x = rng.normal(2.0, 3.0, (4, 3, 2, 5)).astype(np.float32)
        out = bn(paddle.to_tensor(x))
        expect = numpy_standardize(x, (0, 2, 3)) * w[:, None, None] + b[:, None, None]
        np.testing.assert_allclose(out.numpy(), expect, rtol=1e-4, atol=1e-4)
        mean = 0.8 * mean + 0.2 * x.mean(axis=(0, 2, 3))
        var = 0.8 * var + 0.2 * x.var(axis=(0, 2, 3))
        np.testing.assert_allclose(bn._mean.numpy(), mean, rtol=1e-5)
        np.testing.assert_allclose(bn._variance.numpy(), var, rtol=1e-5)
    bn.eval()
    x = rng.standard_normal((2, 3, 2, 2)).astype(np.float32)
    out = bn(paddle.to_tensor(x))
    expect = (x - mean[:, None, None]) / np.sqrt(var[:, None, None] + EPS) * w[:, None, None] \
        + b[:, None, None]
    np.testing.assert_allclose(out.numpy(), expect, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(bn._mean.numpy(), mean, rtol=1e-5)


def test_batch_norm_use_global_stats_overrides_the_mode():
    rng = np.random.default_rng(2)
    x = rng.standard_normal((4, 3, 2, 2)).astype(np.float32)
    bn = nn.BatchNorm2D(3, use_global_stats=True)  # training, but running statistics
    np.testing.assert_allclose(bn(paddle.to_tensor(x)).numpy(), x / np.sqrt(1 + EPS), rtol=1e-6)
    np.testing.assert_array_equal(bn._mean.numpy(), np.zeros(3, np.float32))
    bn = nn.BatchNorm2D(3, use_global_stats=False).eval()  # eval, but batch statistics
    np.testing.assert_allclose(bn(paddle.to_tensor(x)).numpy(), numpy_standardize(x, (0, 2, 3)),
                               rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(bn._mean.numpy(), 0.1 * x.mean(axis=(0, 2, 3)), rtol=1e-5)


def test_functional_batch_norm_updates_running_statistics_in_place():
    rng = np.random.default_rng(3)
    x = rng.standard_normal((5, 2)).astype(np.float32)
    rm, rv = paddle.zeros([2]), paddle.ones([2])
    out = F.batch_norm(paddle.to_tensor(x), rm, rv, None, None)  # training=False: running
    np.testing.assert_allclose(out.numpy(), x / np.sqrt(1 + EPS), rtol=1e-6)
    np.testing.assert_array_equal(rm.numpy(), np.zeros(2, np.float32))
    out = F.batch_norm(paddle.to_tensor(x), rm, rv, None, None, training=True, momentum=0.5)
    np.testing.assert_allclose(out.numpy(), numpy_standardize(x, (0,)), rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(rm.numpy(), 0.5 * x.mean(axis=0), rtol=1e-5)
    np.testing.assert_allclose(rv.numpy(), 0.5 + 0.5 * x.var(axis=0), rtol=1e-5)


@pytest.mark.parametrize("layer,shape,axes", [
    (lambda: nn.BatchNorm1D(3), (4, 3), (0,)),
    (lambda: nn.BatchNorm1D(3), (4, 3, 5), (0, 2)),
    (lambda: nn.BatchNorm1D(3, data_format="NLC"), (4, 5, 3), (0, 1)),
    (lambda: nn.BatchNorm2D(3, data_format="NHWC"), (2, 2, 3, 3), (0, 1, 2)),
    (lambda: nn.BatchNorm3D(3), (2, 3, 2, 1, 2), (0, 2, 3, 4)),
    (lambda: nn.BatchNorm3D(3, data_format="NDHWC"), (2, 2, 1, 2, 3), (0, 1, 2, 3)),
    (lambda: nn.BatchNorm(3), (2, 3, 2, 2), (0, 2, 3)),
    (lambda: nn.BatchNorm(3, data_layout="NHWC"), (2, 2, 2, 3), (0, 1, 2)),
])
def test_batch_norm_layouts(layer, shape, axes):
    x = np.random.default_rng(4).standard_normal(shape)
    out = layer()(paddle.to_tensor(x.astype(np.float32)))
    np.testing.assert_allclose(out.numpy(), numpy_standardize(x, axes), rtol=1e-4, atol=1e-5)


def test_batch_norm_gradients_train_and_eval():
    """Training: the closed form through the batch statistics (against finite differences);
    eval: an affine map, dx = g * weight / sqrt(running_var + eps)."""
    rng = np.random.default_rng(5)
    paddle.set_default_dtype("float64")
    bn = nn.BatchNorm2D(2)
    bn.weight.set_value(rng.uniform(0.5, 2, 2))
    w = paddle.to_tensor(bn.weight.numpy())
    check_grad(lambda x: F.batch_norm(x, paddle.zeros([2], "float64"),
                                      paddle.ones([2], "float64"), w, None, training=True),
               rng.standard_normal((3, 2, 2, 1)), rng)
    x = paddle.to_tensor(rng.standard_normal((3, 2, 2, 2)), stop_gradient=False)
    g = rng.standard_normal((3, 2, 2, 2))
    (bn(x) * paddle.to_tensor(g)).sum().backward()
    xhat = numpy_standardize(x.numpy(), (0, 2, 3))
    np.testing.assert_allclose(bn.weight.grad.numpy(), (g * xhat).sum(axis=(0, 2, 3)), rtol=1e-8)
    np.testing.assert_allclose(bn.bias.grad.numpy(), g.sum(axis=(0, 2, 3)), rtol=1e-8)
    assert bn._mean.grad is None and bn._variance.grad is None
    bn.eval()
    x.clear_gradient()
    (bn(x) * paddle.to_tensor(g)).sum().backward()
    scale = bn.weight.numpy() / np.sqrt(bn._variance.numpy() + EPS)
    np.testing.assert_allclose(x.grad.numpy(), g * scale[:, None, None], rtol=1e-10)


@pytest.mark.parametrize("training", [True, False])
def test_batch_norm_fused_and_differentiable_gradients_agree(training):
    """The fused batch_norm_grad row (first derivatives) and the rule in ops (used under
    create_graph) give the same gradients."""
    rng = np.random.default_rng(6)
    x = paddle.to_tensor(rng.standard_normal((4, 3, 2)), stop_gradient=False)
    w = paddle.to_tensor(rng.uniform(0.5, 2, 3), stop_gradient=False)
    b = paddle.to_tensor(rng.standard_normal(3), stop_gradient=False)
    rm, rv = paddle.to_tensor(rng.standard_normal(3)), paddle.to_tensor(rng.uniform(1, 2, 3))
    g = paddle.to_tensor(rng.standard_normal((4, 3, 2)))

    def grads(create_graph):
        out = F.batch_norm(x, rm, rv, w, b, training=training)
        return paddle.grad([out], [x, w, b], [g], create_graph=create_graph)

    for fused, graph in zip(grads(False), grads(True)):
        np.testing.assert_allclose(fused.numpy(), graph.numpy(), rtol=1e-10, atol=1e-12)


def test_batch_norm_errors():
    x = paddle.randn([4, 3, 5])
    with pytest.raises(ValueError, match=r"expected 4D input \(got 3D input"):
        nn.BatchNorm2D(3)(x)
    with pytest.raises(ValueError, match=r"expected 2D or 3D input \(got 4D"):
        nn.BatchNorm1D(3)(paddle.randn([2, 3, 2, 2]))
    with pytest.raises(ValueError, match="expected NCHW or NHWC for data_format"):
        nn.BatchNorm2D(3, data_format="NCL")(paddle.randn([2, 3, 2, 2]))
    with pytest.raises(ValueError, match=r"running_mean must have shape \[4\].*\[4, 3, 4\].*got \[3\]"):
        nn.BatchNorm1D(3, data_format="NLC")(paddle.randn([4, 3, 4]))
    with pytest.raises(TypeError, match="int32"):
        nn.BatchNorm1D(3)(paddle.ones([4, 3], dtype="int32"))
    with pytest.raises(ValueError, match="data_format must be one of"):
        F.batch_norm(x, paddle.zeros([3]), paddle.ones([3]), None, None, data_format="XX")
    with pytest.raises(TypeError, match="running_mean must be a Tensor"):
        F.batch_norm(x, np.zeros(3), paddle.ones([3]), None, None)
    with pytest.raises(ValueError, match="data_layout"):
        nn.BatchNorm(3, data_layout="NCL")


def test_batch_norm_1x_layer():
    bn = nn.BatchNorm(3, act="relu", moving_mean_name="mm", moving_variance_name="mv")
    assert [n for n, _ in bn.named_parameters()] == ["weight", "bias", "_mean", "_variance"]
    assert (bn._mean.name, bn._variance.name) == ("mm", "mv")
    assert bn._mean.stop_gradient and not bn.weight.stop_gradient
    rng = np.random.default_rng(7)
    x = rng.standard_normal((4, 3, 2, 2)).astype(np.float32)
    out = bn(paddle.to_tensor(x))  # training: batch statistics, then relu
    np.testing.assert_allclose(out.numpy(), np.maximum(numpy_standardize(x, (0, 2, 3)), 0),
                               rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(bn._mean.numpy(), 0.1 * x.mean(axis=(0, 2, 3)), rtol=1e-5)
    bn.eval()  # eval: the running statistics, which stay
    mean = bn._mean.numpy()
    out = bn(paddle.to_tensor(x))
    expect = (x - mean[:, None, None]) / np.sqrt(bn._variance.numpy()[:, None, None] + EPS)
    np.testing.assert_allclose(out.numpy(), np.maximum(expect, 0), rtol=1e-5, atol=1e-6)
    np.testing.assert_array_equal(bn._mean.numpy(), mean)
    # trainable_statistics: batch statistics (and updates) in eval mode too
    bn = nn.BatchNorm(3, trainable_statistics=True).eval()
    bn(paddle.to_tensor(x))
    np.testing.assert_allclose(bn._mean.numpy(), 0.1 * x.mean(axis=(0, 2, 3)), rtol=1e-5)
    # use_global_stats: running statistics in training mode, no update
    bn = nn.BatchNorm(3, use_global_stats=True)
    np.testing.assert_allclose(bn(paddle.to_tensor(x)).numpy(), x / np.sqrt(1 + EPS), rtol=1e-6)
    np.testing.assert_array_equal(bn._mean.numpy(), np.zeros(3, np.float32))
    assert nn.BatchNorm(3, dtype="float64")._mean.dtype == paddle.float64


def test_batch_norm_state_dict_round_trip():
    a, b = nn.BatchNorm2D(2), nn.BatchNorm2D(2)
    a(paddle.randn([3, 2, 2, 2]))
    b.set_state_dict(a.state_dict())
    for key in ("weight", "bias", "_mean", "_variance"):
        np.testing.assert_array_equal(getattr(b, key).numpy(), getattr(a, key).numpy())


# ---------------------------------------------------------------------------
# layer norm
# ---------------------------------------------------------------------------

def test_layer_norm_layer_and_functional():
    ln = nn.LayerNorm([4, 5])
    assert list(ln.state_dict()) == ["weight", "bias"]
    assert ln.weight.shape == [20] and ln.bias.shape == [20]  # flat, as Paddle
    np.testing.assert_array_equal(ln.weight.numpy(), np.ones(20, np.float32))
    assert repr(ln) == "LayerNorm(normalized_shape=[4, 5], epsilon=1e-05)"
    rng = np.random.default_rng(8)
    ln.weight.set_value(rng.standard_normal(20).astype(np.float32))
    ln.bias.set_value(rng.standard_normal(20).astype(np.float32))
    x = rng.standard_normal((2, 3, 4, 5)).astype(np.float32)
    expect = numpy_standardize(x, (2, 3)) * ln.weight.numpy().reshape(4, 5) \
        + ln.bias.numpy().reshape(4, 5)
    np.testing.assert_allclose(ln(paddle.to_tensor(x)).numpy(), expect, rtol=1e-4, atol=1e-5)
    out = F.layer_norm(paddle.to_tensor(x), 5, epsilon=1e-3)
    np.testing.assert_allclose(out.numpy(), numpy_standardize(x, (3,), 1e-3), rtol=1e-4,
                               atol=1e-5)
    bare = nn.LayerNorm(5, weight_attr=False, bias_attr=False)
    assert bare.parameters() == [] and bare.weight is None


def test_layer_norm_gradient():
    rng = np.random.default_rng(9)
    w = paddle.to_tensor(rng.standard_normal(6))
    check_grad(lambda x: F.layer_norm(x, [2, 3], weight=w), rng.standard_normal((2, 2, 3)), rng)


def test_layer_norm_errors():
    x = paddle.randn([4, 3, 2, 5])
    with pytest.raises(ValueError, match=r"normalized_shape \[3, 5\].*\[\*, 3, 5\].*\[4, 3, 2, 5\]"):
        F.layer_norm(x, [3, 5])
    with pytest.raises(ValueError, match=r"weight must have shape \[10\].*got \[7\]"):
        F.layer_norm(x, [2, 5], paddle.ones([7]))
    with pytest.raises(TypeError, match="int64"):
        nn.LayerNorm(5)(paddle.ones([2, 5], dtype="int64"))
    with pytest.raises(ValueError, match="begin_norm_axis"):  # Paddle keeps a leading dim
        F.layer_norm(x, [4, 3, 2, 5])


# ---------------------------------------------------------------------------
# group and instance norm
# ---------------------------------------------------------------------------

def test_group_norm_values_and_layouts():
    rng = np.random.default_rng(10)
    gn = nn.GroupNorm(2, 4)
    assert list(gn.state_dict()) == ["weight", "bias"] and gn.weight.shape == [4]
    assert repr(gn) == "GroupNorm(num_groups=2, num_channels=4, epsilon=1e-05)"
    gn.weight.set_value(rng.standard_normal(4).astype(np.float32))
    gn.bias.set_value(rng.standard_normal(4).astype(np.float32))
    x = rng.standard_normal((3, 4, 2, 3)).astype(np.float32)
    grouped = numpy_standardize(x.reshape(3, 2, 2, 2, 3), (2, 3, 4)).reshape(x.shape)
    expect = grouped * gn.weight.numpy()[:, None, None] + gn.bias.numpy()[:, None, None]
    np.testing.assert_allclose(gn(paddle.to_tensor(x)).numpy(), expect, rtol=1e-4, atol=1e-5)
    nhwc = F.group_norm(paddle.to_tensor(x.transpose(0, 2, 3, 1)), 2, data_format="NHWC")
    np.testing.assert_allclose(nhwc.numpy(), grouped.transpose(0, 2, 3, 1), rtol=1e-4, atol=1e-5)
    flat = F.group_norm(paddle.to_tensor(x[:, :, 0, 0]), 2)  # [N, C]
    np.testing.assert_allclose(flat.numpy(), numpy_standardize(x[:, :, 0, 0].reshape(3, 2, 2),
                                                               (2,)).reshape(3, 4), rtol=1e-4,
                               atol=1e-5)
    bare = nn.GroupNorm(2, 4, weight_attr=False, bias_attr=False)
    assert bare.parameters() == [] and bare.weight is None


def test_group_norm_gradient_and_errors():
    rng = np.random.default_rng(11)
    w = paddle.to_tensor(rng.standard_normal(4))
    check_grad(lambda x: F.group_norm(x, 2, weight=w, data_format="NLC"),
               rng.standard_normal((2, 3, 4)), rng)
    with pytest.raises(ValueError, match=r"channels of x \(4.*divisible by num_groups \(3\)"):
        F.group_norm(paddle.randn([2, 4, 3]), 3)
    with pytest.raises(ValueError, match=r"weight must have shape \[6\].*got \[4\]"):
        nn.GroupNorm(2, 4)(paddle.randn([2, 6, 3]))
    with pytest.raises(ValueError, match="unsupported data layout"):
        nn.GroupNorm(2, 4, data_format="NCX")
    with pytest.raises(TypeError, match="int32"):
        F.group_norm(paddle.ones([2, 4], dtype="int32"), 2)


def test_instance_norm_values_names_and_errors():
    rng = np.random.default_rng(12)
    inn = nn.InstanceNorm2D(3)
    assert list(inn.state_dict()) == ["scale", "bias"]
    assert repr(inn) == "InstanceNorm2D(num_features=3, epsilon=1e-05)"
    inn.scale.set_value(rng.standard_normal(3).astype(np.float32))
    x = rng.standard_normal((2, 3, 4, 2)).astype(np.float32)
    expect = numpy_standardize(x, (2, 3)) * inn.scale.numpy()[:, None, None]
    np.testing.assert_allclose(inn(paddle.to_tensor(x)).numpy(), expect, rtol=1e-4, atol=1e-5)
    inn.eval()  # no running statistics: eval is the same
    np.testing.assert_allclose(inn(paddle.to_tensor(x)).numpy(), expect, rtol=1e-4, atol=1e-5)
    x1 = rng.standard_normal((2, 3, 5))
    np.testing.assert_allclose(F.instance_norm(paddle.to_tensor(x1), eps=1e-3).numpy(),
                               numpy_standardize(x1, (2,), 1e-3), rtol=1e-8)
    assert nn.InstanceNorm3D(2)(paddle.randn([1, 2, 2, 2, 2])).shape == [1, 2, 2, 2, 2]
    assert nn.InstanceNorm1D(2, weight_attr=False, bias_attr=False).parameters() == []
    with pytest.raises(ValueError, match="at the same time"):
        nn.InstanceNorm2D(3, weight_attr=False)
    with pytest.raises(ValueError, match=r"expected 4D input \(got 3D"):
        nn.InstanceNorm2D(3)(paddle.randn([2, 3, 4]))
    with pytest.raises(ValueError, match=r"weight must have shape \[4\].*got \[3\]"):
        nn.InstanceNorm2D(3)(paddle.randn([2, 4, 2, 2]))
    with pytest.raises(TypeError, match="int64"):
        F.instance_norm(paddle.ones([2, 3, 2], dtype="int64"))


def test_instance_norm_gradient():
    rng = np.random.default_rng(13)
    b = paddle.to_tensor(rng.standard_normal(2))
    check_grad(lambda x: F.instance_norm(x, bias=b), rng.standard_normal((2, 2, 3)), rng)


# ---------------------------------------------------------------------------
# local response norm and normalize
# ---------------------------------------------------------------------------

def numpy_lrn(x, size, alpha, beta, k, c_axis):
    xl = np.moveaxis(x.astype(np.float64), c_axis, -1)
    c = xl.shape[-1]
    sq = xl ** 2
    window = np.stack([sq[..., max(0, i - size // 2):i + (size - 1) // 2 + 1].sum(axis=-1)
                       for i in range(c)], axis=-1)
    return np.moveaxis(xl / (k + alpha / size * window) ** beta, -1, c_axis)


def test_local_response_norm():
    # from Paddle 3.3.1: F.local_response_norm(arange(1, 6) as [1, 5, 1], 4, 1.0, 1.0, 1.0)
    paddle_out = [0.44444445, 0.44444445, 0.3529412, 0.27586207, 0.37037036]
    x = paddle.to_tensor(np.arange(1, 6, dtype=np.float32).reshape(1, 5, 1))
    np.testing.assert_allclose(F.local_response_norm(x, 4, 1.0, 1.0, 1.0).numpy().ravel(),
                               paddle_out, rtol=1e-6)
    rng = np.random.default_rng(14)
    x = rng.standard_normal((2, 5, 3, 2)).astype(np.float32)
    lrn = nn.LocalResponseNorm(3, alpha=0.5)
    assert repr(lrn) == "LocalResponseNorm(size=3, alpha=0.5, beta=0.75, k=1.0)"
    np.testing.assert_allclose(lrn(paddle.to_tensor(x)).numpy(),
                               numpy_lrn(x, 3, 0.5, 0.75, 1.0, 1), rtol=1e-5)
    out = F.local_response_norm(paddle.to_tensor(x), 2, 0.3, 0.5, 2.0, data_format="NHWC")
    np.testing.assert_allclose(out.numpy(), numpy_lrn(x, 2, 0.3, 0.5, 2.0, 3), rtol=1e-5)
    check_grad(lambda t: F.local_response_norm(t, 3, 0.5, 0.75, 1.0),
               rng.standard_normal((1, 4, 2)), rng)
    with pytest.raises(ValueError, match="3 or more dimensions"):
        F.local_response_norm(paddle.randn([2, 3]), 3)
    with pytest.raises(ValueError, match="size must be a positive int"):
        F.local_response_norm(paddle.randn([2, 3, 2]), 0)
    with pytest.raises(TypeError, match="int32"):
        F.local_response_norm(paddle.ones([2, 3, 2], dtype="int32"), 3)


def test_normalize():
    x = paddle.to_tensor([[3.0, 4.0], [0.0, 0.0]])
    np.testing.assert_allclose(F.normalize(x).numpy(), [[0.6, 0.8], [0.0, 0.0]], rtol=1e-6)
    np.testing.assert_allclose(F.normalize(x, p=1, axis=0).numpy(), [[1, 1], [0, 0]])
    np.testing.assert_allclose(F.normalize(paddle.to_tensor([3.0, 4.0]), axis=0).numpy(),
                               [0.6, 0.8], rtol=1e-6)
    rng = np.random.default_rng(15)
    a = rng.standard_normal((3, 4))
    np.testing.assert_allclose(F.normalize(paddle.to_tensor(a), p=3, axis=-1).numpy(),
                               a / (np.abs(a) ** 3).sum(axis=-1, keepdims=True) ** (1 / 3),
                               rtol=1e-10)
    check_grad(lambda t: F.normalize(t, axis=0), rng.standard_normal((3, 2)), rng)
    with pytest.raises(ValueError, match="out of range"):
        F.normalize(paddle.to_tensor([3.0, 4.0]))
    with pytest.raises(TypeError, match="int64"):
        F.normalize(paddle.to_tensor([3, 4]), axis=0)
