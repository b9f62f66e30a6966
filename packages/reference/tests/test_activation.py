"""Activation functions and layers: values, defaults, reprs, PReLU's parameter, errors.

The op database checks each op's values and gradients against NumPy; here the public API:
names, defaults, reprs, argument handling and Paddle's own numbers.
"""

import numpy as np
import pytest

import dygrad as paddle
import dygrad.nn.functional as F
from dygrad import nn

X = [-30.0, -3.5, -1.0, -0.2, 0.0, 0.4, 2.0, 3.5, 30.0]

# F.<name>(x) for the float64 tensor X with default arguments, from Paddle 3.3.1
PADDLE_VALUES = {
    "relu6": [0.0, 0.0, 0.0, 0.0, 0.0, 0.4, 2.0, 3.5, 6.0],
    "leaky_relu": [-0.3, -0.035, -0.01, -0.002, 0.0, 0.4, 2.0, 3.5, 30.0],
    "elu": [-0.9999999999999064, -0.9698026165776815, -0.6321205588285577,
            -0.18126924692201818, 0.0, 0.4, 2.0, 3.5, 30.0],
    "selu": [-1.7580993463428658, -1.7050093462869824, -1.1113307412864781,
             -0.31868934452569364, 0.0, 0.42028040885925294, 2.1014020442962646,
             3.677453577518463, 31.52103066444397],
    "gelu": [-0.0, -0.0008142017766243903, -0.15865525393145702, -0.0841480581121794, 0.0,
             0.2621686966441297, 1.9544997361036416, 3.4991857982233756, 30.0],
    "silu": [-2.8072868906517896e-12, -0.10259280762974712, -0.2689414213699951,
             -0.09003320053750444, 0.0, 0.23947506404498087, 1.7615941559557646,
             3.397407192370253, 29.999999999997197],
    "hardswish": [-0.0, -0.0, -0.3333333333333333, -0.09333333333333332, 0.0,
                  0.22666666666666668, 1.6666666666666667, 3.5, 30.0],
    "mish": [-2.8044233602030146e-12, -0.10409575448637151, -0.30340146137410895,
             -0.10714478086835713, 0.0, 0.2890305340723631, 1.9439589595339946,
             3.4939907151175196, 30.0],
    "softplus": [9.348077867343381e-14, 0.029750418272620652, 0.31326168751822286,
                 0.5981388693815918, 0.6931471805599453, 0.9130152523999526,
                 2.1269280110429722, 3.5297504182726205, 30.0],
    "hardtanh": [-1.0, -1.0, -1.0, -0.2, 0.0, 0.4, 1.0, 1.0, 1.0],
    "softsign": [-0.967741935483871, -0.7777777777777778, -0.5, -0.16666666666666669, 0.0,
                 0.28571428571428575, 0.6666666666666666, 0.7777777777777778,
                 0.967741935483871],
    "tanhshrink": [-29.0, -2.501822102388801, -0.23840584404423515, -0.002624679775096006,
                   0.0, 0.020051037744775124, 1.035972419924183, 2.501822102388801, 29.0],
    "log_sigmoid": [-30.000000000000092, -3.5297504182726205, -1.3132616875182228,
                    -0.7981388693815918, -0.6931471805599453, -0.5130152523999525,
                    -0.1269280110429726, -0.029750418272620652, -9.348077867343381e-14],
    "celu": [-0.9999999999999064, -0.9698026165776815, -0.6321205588285577,
             -0.18126924692201818, 0.0, 0.4, 2.0, 3.5, 30.0],
}


@pytest.mark.parametrize("name", sorted(PADDLE_VALUES))
def test_functional_matches_paddle(name):
    out = getattr(F, name)(paddle.to_tensor(X, dtype="float64"))
    assert out.dtype == paddle.float64
    # Paddle keeps float attributes (selu's scale and alpha, ...) as float32: about 1e-7 off
    np.testing.assert_allclose(out.numpy(), PADDLE_VALUES[name], rtol=1e-7, atol=1e-14)


def test_swish_is_silu_and_hardsigmoid_defaults():
    x = paddle.to_tensor(X, dtype="float64")
    np.testing.assert_array_equal(F.swish(x).numpy(), F.silu(x).numpy())
    # Paddle 3.3.1 gives [0, 0, 0.33333330, 0.46666666, 0.5, ...] (its slope is a float32)
    np.testing.assert_allclose(F.hardsigmoid(x).numpy(),
                               np.clip(np.array(X) * 0.1666667 + 0.5, 0, 1), rtol=1e-12)


def test_gelu_approximate_spellings():
    x = paddle.to_tensor(X, dtype="float64")
    # from Paddle 3.3.1
    tanh_form = [-0.0, -0.0006161976553737403, -0.15880800939172324, -0.08414857021789374, 0.0,
                 0.2621611694273562, 1.954597694087775, 3.499383802344626, 30.0]
    np.testing.assert_allclose(F.gelu(x, approximate=True).numpy(), tanh_form, rtol=1e-12)
    np.testing.assert_array_equal(F.gelu(x, "tanh").numpy(), F.gelu(x, True).numpy())
    np.testing.assert_array_equal(F.gelu(x, "none").numpy(), F.gelu(x).numpy())
    with pytest.raises(ValueError, match="approximate"):
        F.gelu(x, approximate="erf")


def test_settings_change_values():
    x = paddle.to_tensor(X, dtype="float64")
    a = np.array(X)
    # Paddle 3.3.1: softplus(beta=2, threshold=1) is linear once 2x > 1
    np.testing.assert_allclose(
        F.softplus(x, beta=2, threshold=1).numpy(),
        [0.0, 0.00045573322688710074, 0.0634640055214863, 0.25650762619997625,
         0.34657359027997264, 0.5855503329738889, 2.0, 3.5, 30.0], rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(F.leaky_relu(x, 0.2).numpy(), np.where(a > 0, a, 0.2 * a))
    np.testing.assert_allclose(F.elu(x, alpha=-1.0).numpy(), np.where(a > 0, a, -np.expm1(a)))
    np.testing.assert_allclose(F.hardtanh(x, -2, 3).numpy(), np.clip(a, -2, 3))
    np.testing.assert_allclose(F.celu(x, 2.0).numpy(),
                               np.maximum(a, 0) + np.minimum(0, 2 * np.expm1(a / 2)))
    np.testing.assert_allclose(F.hardsigmoid(x, slope=0.2, offset=0.3).numpy(),
                               np.clip(0.2 * a + 0.3, 0, 1))


def test_float32_stays_float32_and_gradients_flow():
    x = paddle.to_tensor([-1.5, 0.3, 2.0], stop_gradient=False)
    for name in ["relu6", "gelu", "mish", "softplus", "selu", "log_sigmoid", "hardswish"]:
        y = getattr(F, name)(x)
        assert y.dtype == paddle.float32, name
        (g,) = paddle.grad(y.sum(), x)
        assert g.dtype == paddle.float32 and g.shape == [3]
    (g,) = paddle.grad(F.relu6(x).sum(), x)
    np.testing.assert_array_equal(g.numpy(), [0, 1, 1])


@pytest.mark.parametrize("name", ["relu6", "leaky_relu", "elu", "selu", "celu", "gelu", "silu",
                                  "swish", "hardswish", "hardsigmoid", "mish", "softplus",
                                  "hardtanh", "softsign", "tanhshrink", "log_sigmoid",
                                  "hardshrink", "softshrink", "thresholded_relu", "rrelu"])
def test_errors_name_the_api_and_dtype(name):
    fn = getattr(F, name)
    op = {"swish": "silu", "tanhshrink": "tanh_shrink", "log_sigmoid": "logsigmoid"}.get(name, name)
    with pytest.raises(TypeError, match=f"{op}: x must be a floating-point tensor.*int64"):
        fn(paddle.to_tensor([1, 2]))
    with pytest.raises(TypeError, match=f"{name}: x must be a Tensor"):
        fn(np.ones(2))


def test_attribute_errors():
    x = paddle.to_tensor([1.0])
    with pytest.raises(ValueError, match="scale must be greater than 1.0"):
        F.selu(x, scale=0.5)
    with pytest.raises(ValueError, match="alpha must be no less than zero"):
        F.selu(x, alpha=-0.5)
    with pytest.raises(ZeroDivisionError, match="alpha cannot be 0"):
        F.celu(x, alpha=0.0)
    with pytest.raises(ZeroDivisionError):
        nn.CELU(0.0)(x)


# ---------------------------------------------------------------------------
# layers
# ---------------------------------------------------------------------------

# repr of each layer with default arguments, from Paddle 3.3.1 (Silu's `inplace` is 3.x only)
REPRS = {
    "ReLU6": "ReLU6()", "LeakyReLU": "LeakyReLU(negative_slope=0.01)", "ELU": "ELU(alpha=1.0)",
    "SELU": "SELU(scale=1.0507009873554805, alpha=1.6732632423543772)",
    "GELU": "GELU(approximate=False)", "Silu": "Silu()", "Swish": "Swish()",
    "Hardswish": "Hardswish()", "Hardsigmoid": "Hardsigmoid()", "Mish": "Mish()",
    "Softplus": "Softplus(beta=1, threshold=20)", "Hardtanh": "Hardtanh(min=-1.0, max=1.0)",
    "LogSigmoid": "LogSigmoid()", "Softsign": "Softsign()", "Tanhshrink": "Tanhshrink()",
    "CELU": "CELU(alpha=1.0)",
}

LAYER_FN = {"ReLU6": "relu6", "LeakyReLU": "leaky_relu", "ELU": "elu", "SELU": "selu",
            "GELU": "gelu", "Silu": "silu", "Swish": "swish", "Hardswish": "hardswish",
            "Hardsigmoid": "hardsigmoid", "Mish": "mish", "Softplus": "softplus",
            "Hardtanh": "hardtanh", "LogSigmoid": "log_sigmoid", "Softsign": "softsign",
            "Tanhshrink": "tanhshrink", "CELU": "celu"}


@pytest.mark.parametrize("cls", sorted(REPRS))
def test_layer_defaults_repr_and_values(cls):
    layer = getattr(nn, cls)()
    assert repr(layer) == REPRS[cls]
    assert repr(getattr(nn, cls)(name="act")).endswith("name=act)")
    assert layer.parameters() == []
    x = paddle.to_tensor(X, dtype="float64")
    np.testing.assert_array_equal(layer(x).numpy(), getattr(F, LAYER_FN[cls])(x).numpy())


def test_layer_settings_are_passed_on():
    x = paddle.to_tensor(X, dtype="float64")
    assert repr(nn.Softplus(2, 10)) == "Softplus(beta=2, threshold=10)"
    np.testing.assert_array_equal(nn.Softplus(2, 10)(x).numpy(), F.softplus(x, 2, 10).numpy())
    np.testing.assert_array_equal(nn.LeakyReLU(0.3)(x).numpy(), F.leaky_relu(x, 0.3).numpy())
    np.testing.assert_array_equal(nn.Hardtanh(-2, 2)(x).numpy(), F.hardtanh(x, -2, 2).numpy())
    np.testing.assert_array_equal(nn.GELU(True)(x).numpy(), F.gelu(x, True).numpy())
    np.testing.assert_array_equal(nn.ELU(0.5)(x).numpy(), F.elu(x, 0.5).numpy())


# ---------------------------------------------------------------------------
# prelu
# ---------------------------------------------------------------------------

X4 = np.array([-1.0, 2.0, 3.0, -4.0, -5.0, 6.0, 7.0, -8.0], dtype="float32").reshape(1, 2, 2, 2)


def test_prelu_functional_layouts():
    x = paddle.to_tensor(X4)
    # from Paddle 3.3.1
    np.testing.assert_allclose(F.prelu(x, paddle.to_tensor([0.25])).numpy().ravel(),
                               [-0.25, 2, 3, -1, -1.25, 6, 7, -2])
    np.testing.assert_allclose(F.prelu(x, paddle.to_tensor([0.1, 0.2])).numpy().ravel(),
                               [-0.1, 2, 3, -0.4, -1, 6, 7, -1.6], rtol=1e-6)
    np.testing.assert_allclose(
        F.prelu(x, paddle.to_tensor([0.1, 0.2]), data_format="NHWC").numpy().ravel(),
        [-0.1, 2, 3, -0.8, -0.5, 6, 7, -1.6], rtol=1e-6)
    assert F.prelu(paddle.to_tensor(-1.0), paddle.to_tensor([0.25])).shape == []
    np.testing.assert_allclose(
        F.prelu(paddle.to_tensor([[-1.0, 2.0], [-3.0, 4.0]]), paddle.to_tensor([0.25, 0.5])),
        [[-0.25, 2.0], [-0.75, 4.0]])


def test_prelu_gradients():
    x = paddle.to_tensor(X4, stop_gradient=False)
    w = paddle.to_tensor([0.1, 0.2], stop_gradient=False)
    F.prelu(x, w).sum().backward()
    # from Paddle 3.3.1
    np.testing.assert_allclose(w.grad.numpy(), [-5.0, -13.0])
    np.testing.assert_allclose(x.grad.numpy().ravel(), [0.1, 1, 1, 0.1, 0.2, 1, 1, 0.2], rtol=1e-6)


def test_prelu_errors():
    x = paddle.to_tensor(X4)
    with pytest.raises(ValueError, match="weight has 3 values but x .* has 2 channels"):
        F.prelu(x, paddle.to_tensor([0.1, 0.2, 0.3]))
    with pytest.raises(ValueError, match="weight must be 0-D or 1-D"):
        F.prelu(x, paddle.ones([2, 2, 2]))
    with pytest.raises(ValueError, match="at least 2 dimensions"):
        F.prelu(paddle.to_tensor([-1.0, 2.0]), paddle.to_tensor([0.25, 0.5]))
    with pytest.raises(ValueError, match="weight must have x's dtype float32, got float64"):
        F.prelu(x, paddle.to_tensor([0.1], dtype="float64"))
    with pytest.raises(ValueError, match="data_format"):
        F.prelu(x, paddle.to_tensor([0.1]), data_format="XY")
    with pytest.raises(TypeError, match="weight must be a Tensor"):
        F.prelu(x, 0.25)


def test_prelu_layer():
    layer = nn.PReLU()
    assert repr(layer) == "PReLU(num_parameters=1, data_format=NCHW, init=0.25, dtype=float32)"
    assert list(layer.state_dict()) == ["_weight"]
    assert [n for n, _ in layer.named_parameters()] == ["_weight"]
    np.testing.assert_array_equal(layer._weight.numpy(), np.array([0.25], np.float32))
    layer = nn.PReLU(3, init=0.1, data_format="NHWC")
    assert layer._weight.shape == [3]
    np.testing.assert_allclose(layer._weight.numpy(), [0.1] * 3)
    x = paddle.to_tensor(-np.ones((2, 4, 4, 3), np.float32))
    y = layer(x)
    np.testing.assert_allclose(y.numpy(), -0.1 * np.ones((2, 4, 4, 3)), rtol=1e-6)
    y.sum().backward()
    np.testing.assert_allclose(layer._weight.grad.numpy(), [-32.0] * 3)
    init = nn.PReLU(2, weight_attr=paddle.ParamAttr(initializer=nn.initializer.Constant(0.5)))
    np.testing.assert_array_equal(init._weight.numpy(), [0.5, 0.5])


# ---------------------------------------------------------------------------
# shrinks, thresholded relu, rrelu, glu, maxout, Softmax2D
# ---------------------------------------------------------------------------

S = [-2.0, -0.5, -0.3, 0.0, 0.3, 0.5, 0.7, 1.0, 2.0]


def test_shrinks_and_thresholded_relu():
    x = paddle.to_tensor(S, dtype="float64")
    # from Paddle 3.3.1 (hardshrink keeps |x| == threshold)
    np.testing.assert_array_equal(F.hardshrink(x).numpy(), [-2, -0.5, 0, 0, 0, 0.5, 0.7, 1, 2])
    np.testing.assert_allclose(F.softshrink(x).numpy(), [-1.5, 0, 0, 0, 0, 0, 0.2, 0.5, 1.5],
                               atol=1e-15)
    np.testing.assert_array_equal(F.thresholded_relu(x, 0.4, 9.0).numpy(),
                                  [9, 9, 9, 9, 9, 0.5, 0.7, 1, 2])
    np.testing.assert_array_equal(nn.ThresholdedReLU()(x).numpy(), [0] * 7 + [0, 2])
    x.stop_gradient = False
    (g,) = paddle.grad(F.thresholded_relu(x, 0.4, 9.0).sum(), x)
    np.testing.assert_array_equal(g.numpy(), [0] * 5 + [1] * 4)
    with pytest.raises(ValueError, match="threshold must be no less than zero"):
        F.softshrink(x, -1)
    assert repr(nn.Hardshrink()) == "Hardshrink(threshold=0.5)"
    assert repr(nn.Softshrink(0.2)) == "Softshrink(threshold=0.2)"
    assert repr(nn.ThresholdedReLU()) == "ThresholdedReLU(threshold=1.0, value=0.0)"


def test_rrelu():
    x = paddle.to_tensor(S, dtype="float64")
    # from Paddle 3.3.1: at inference the slope is (lower + upper) / 2
    np.testing.assert_allclose(F.rrelu(x, training=False).numpy()[:3],
                               [-0.4583333, -0.1145833, -0.06875], rtol=1e-6)
    paddle.seed(3)
    out = F.rrelu(x).numpy()
    slopes = out[:3] / np.array(S[:3])
    assert ((slopes >= 0.125) & (slopes <= 1 / 3)).all() and len(set(slopes)) == 3
    np.testing.assert_array_equal(out[3:], S[3:])
    paddle.seed(3)
    layer = nn.RReLU()
    np.testing.assert_array_equal(layer(x).numpy(), out)
    np.testing.assert_array_equal(layer.eval()(x).numpy(), F.rrelu(x, training=False).numpy())
    assert repr(nn.RReLU()) == \
        "RReLU(lower=0.125, upper=0.3333333333333333, training=True, dtype=float32)"
    with pytest.raises(ValueError, match="upper must be greater than lower"):
        F.rrelu(x, lower=0.5, upper=0.1)
    with pytest.raises(ValueError, match="lower must be in"):
        F.rrelu(x, lower=-0.5)


def test_glu_maxout_softmax2d():
    g = paddle.arange(12, dtype="float32").reshape([2, 6])
    a = g.numpy()
    np.testing.assert_allclose(F.glu(g).numpy(), a[:, :3] / (1 + np.exp(-a[:, 3:])), rtol=1e-6)
    np.testing.assert_allclose(nn.GLU(axis=0)(g).numpy(), a[:1] / (1 + np.exp(-a[1:])),
                               rtol=1e-6)
    with pytest.raises(ValueError, match="even size"):
        F.glu(paddle.ones([2, 3]))
    m = paddle.arange(24, dtype="float32").reshape([2, 6, 2, 1])
    # from Paddle 3.3.1: groups of consecutive channels
    np.testing.assert_array_equal(F.maxout(m, 3).numpy().ravel(), [4, 5, 10, 11, 16, 17, 22, 23])
    last = paddle.arange(24, dtype="float32").reshape([2, 1, 2, 6])
    np.testing.assert_array_equal(nn.Maxout(3, axis=-1)(last).numpy().ravel(),
                                  [2, 5, 8, 11, 14, 17, 20, 23])
    with pytest.raises(ValueError, match="divide by groups"):
        F.maxout(m, 4)
    with pytest.raises(ValueError, match="axis must be 1, -1 or 3"):
        F.maxout(m, 2, axis=2)
    with pytest.raises(ValueError, match="4-D"):
        F.maxout(paddle.ones([2, 6, 2]), 2)
    x = paddle.arange(24, dtype="float32").reshape([2, 3, 2, 2])
    e = np.exp(x.numpy() - x.numpy().max(axis=1, keepdims=True))
    np.testing.assert_allclose(nn.Softmax2D()(x).numpy(), e / e.sum(axis=1, keepdims=True),
                               rtol=1e-6)
    assert nn.Softmax2D()(x[0]).shape == [3, 2, 2]
    with pytest.raises(ValueError, match="3-D or 4-D"):
        nn.Softmax2D()(paddle.ones([3, 2]))
    assert repr(nn.Maxout(2)) == "Maxout(groups=2, axis=1)" and repr(nn.GLU()) == "GLU(axis=-1)"
