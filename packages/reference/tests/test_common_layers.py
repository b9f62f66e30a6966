"""Common layers and functions: dropout (all forms), embedding and one_hot, bilinear,
Flatten / Unflatten / Identity, padding, cosine similarity and label smoothing."""

import numpy as np
import pytest

import dygrad as paddle
import dygrad.nn.functional as F
from dygrad import nn
from dygrad._core.dispatch import ops

SELU_ALPHA, SELU_SCALE = 1.6732632423543772848170429916717, 1.0507009873554804934193349852946


def randn(*shape, dtype="float32", seed=0):
    return paddle.to_tensor(np.random.default_rng(seed).standard_normal(shape).astype(dtype))


# ---------------------------------------------------------------------------
# dropout
# ---------------------------------------------------------------------------

def test_dropout_values_follow_the_mask_and_the_mode():
    x = randn(40, 50)
    out, mask = ops.dropout(x, p=0.3)
    m = mask.numpy()
    assert mask.dtype == paddle.uint8 and set(np.unique(m)) <= {0, 1}
    np.testing.assert_allclose(out.numpy(), x.numpy() * m / 0.7, rtol=1e-6)
    assert abs(1 - m.mean() - 0.3) < 0.05  # 2000 draws: the kept fraction is near 1 - p
    out, mask = ops.dropout(x, p=0.3, mode="downscale_in_infer")
    np.testing.assert_array_equal(out.numpy(), x.numpy() * mask.numpy())


def test_dropout_gradient_is_the_scaled_mask():
    x = randn(6, 7, dtype="float64")
    x.stop_gradient = False
    g = randn(6, 7, dtype="float64", seed=1)
    for mode, scale in [("upscale_in_train", 1 / 0.6), ("downscale_in_infer", 1.0)]:
        out, mask = ops.dropout(x, p=0.4, mode=mode)
        assert mask.stop_gradient
        (dx,) = paddle.grad(out, x, grad_outputs=g)
        np.testing.assert_allclose(dx.numpy(), g.numpy() * mask.numpy() * scale)


def test_dropout_inference_and_edge_probabilities():
    x = randn(3, 4)
    np.testing.assert_array_equal(F.dropout(x, 0.3, training=False).numpy(), x.numpy())
    np.testing.assert_allclose(
        F.dropout(x, 0.3, training=False, mode="downscale_in_infer").numpy(), x.numpy() * 0.7,
        rtol=1e-6)
    np.testing.assert_array_equal(F.dropout(x, 0.0).numpy(), x.numpy())
    assert not F.dropout(x, 1.0).numpy().any()
    assert not F.dropout(x, 1.0, mode="downscale_in_infer").numpy().any()
    out = F.dropout(paddle.ones([4], dtype="float64"), paddle.to_tensor(0.5))
    assert out.dtype == paddle.float64 and set(out.numpy()) <= {0.0, 2.0}


def test_dropout_axis_shares_the_mask():
    x = paddle.ones([6, 5, 4])
    out = F.dropout(x, 0.5, axis=[0, 2]).numpy()
    assert (out == out[:, :1, :]).all()  # one draw per (axis 0, axis 2) position
    out = F.dropout(x, 0.5, axis=1).numpy()
    assert (out == out[:1, :, :1]).all()
    assert set(np.unique(out)) <= {0.0, 2.0}


def test_dropout_errors():
    x = paddle.ones([2, 3])
    with pytest.raises(ValueError, match="p must be between 0 and 1"):
        F.dropout(x, p=1.5)
    with pytest.raises(TypeError, match="p must be a number"):
        F.dropout(x, p="a")
    with pytest.raises(ValueError, match="mode must be"):
        F.dropout(x, mode="foo")
    with pytest.raises(TypeError, match="axis must be an int or a list"):
        F.dropout(x, axis=1.5)
    with pytest.raises(ValueError, match="axis values must be >= 0"):
        F.dropout(x, axis=-1)
    with pytest.raises(ValueError, match="more entries"):
        F.dropout(x, axis=[0, 1, 0])
    with pytest.raises(TypeError, match="dropout: x must be a floating-point tensor.*int64"):
        F.dropout(paddle.to_tensor([1, 2]))


def test_seed_makes_masks_reproducible():
    x = paddle.ones([50])
    paddle.seed(11)
    a = F.dropout(x).numpy()
    b = F.dropout(x).numpy()
    paddle.seed(11)
    np.testing.assert_array_equal(F.dropout(x).numpy(), a)
    np.testing.assert_array_equal(F.dropout(x).numpy(), b)
    assert not np.array_equal(a, b)
    layer = nn.Dropout(0.5)
    paddle.seed(11)
    np.testing.assert_array_equal(layer(x).numpy(), a)


def test_dropout2d_and_3d_drop_whole_channels():
    x = paddle.ones([4, 6, 3, 5])
    out = F.dropout2d(x, 0.5).numpy()
    assert (out == out[:, :, :1, :1]).all() and set(np.unique(out)) <= {0.0, 2.0}
    out = F.dropout2d(x, 0.5, data_format="NHWC").numpy()
    assert (out == out[:, :1, :1, :]).all()
    out = F.dropout3d(paddle.ones([2, 4, 2, 3, 2]), 0.5).numpy()
    assert (out == out[:, :, :1, :1, :1]).all()
    np.testing.assert_array_equal(F.dropout2d(x, training=False).numpy(), x.numpy())
    with pytest.raises(ValueError, match="dropout2d: x must be 4-D"):
        F.dropout2d(paddle.ones([2, 3, 4]))
    with pytest.raises(ValueError, match="dropout3d: x must be 5-D"):
        F.dropout3d(paddle.ones([2, 3, 4, 5]))
    with pytest.raises(ValueError, match="data_format must be 'NCHW' or 'NHWC'"):
        F.dropout2d(x, data_format="NCL")


def test_alpha_dropout():
    out = F.alpha_dropout(paddle.ones([64]), p=0.5).numpy()
    # from Paddle 3.3.1: kept ones become 1.6655989, dropped ones -0.7791938
    np.testing.assert_allclose(np.unique(out), [-0.7791938, 1.6655989], rtol=1e-6)
    alpha_p = -SELU_ALPHA * SELU_SCALE
    a = (0.8 * (1 + 0.2 * alpha_p ** 2)) ** -0.5
    x = randn(20000, dtype="float64")
    out = F.alpha_dropout(x, p=0.2).numpy()
    kept = np.isclose(out, a * x.numpy() + (-a * alpha_p * 0.2))
    np.testing.assert_allclose(out[~kept], a * alpha_p - a * alpha_p * 0.2)
    assert abs(out.mean()) < 0.05 and abs(out.std() - 1) < 0.05  # self-normalising
    x = randn(5)
    assert F.alpha_dropout(x, training=False) is x
    assert not F.alpha_dropout(x, p=1.0).numpy().any()
    with pytest.raises(ValueError, match="alpha_dropout: p must be between 0 and 1"):
        F.alpha_dropout(x, p=2)


def test_dropout_layers_follow_training_mode():
    x = paddle.ones([8, 8])
    for layer in [nn.Dropout(0.5), nn.Dropout(0.5, axis=1), nn.AlphaDropout(0.5)]:
        assert not np.array_equal(layer(x).numpy(), x.numpy())
        layer.eval()
        np.testing.assert_array_equal(layer(x).numpy(), x.numpy())
        layer.train()
    layer = nn.Dropout(0.25, mode="downscale_in_infer").eval()
    np.testing.assert_allclose(layer(x).numpy(), 0.75 * np.ones((8, 8)))
    x4 = paddle.ones([2, 3, 4, 4])
    np.testing.assert_array_equal(nn.Dropout2D().eval()(x4).numpy(), x4.numpy())
    x5 = paddle.ones([2, 3, 2, 2, 2])
    assert set(np.unique(nn.Dropout3D()(x5).numpy())) <= {0.0, 2.0}


def test_dropout_layer_reprs():
    # from Paddle 3.3.1, less the 3.x-only `inplace`
    assert repr(nn.Dropout(0.2)) == "Dropout(p=0.2, axis=None, mode=upscale_in_train)"
    assert repr(nn.Dropout(0.1, axis=1, mode="downscale_in_infer")) == \
        "Dropout(p=0.1, axis=1, mode=downscale_in_infer)"
    assert repr(nn.Dropout2D()) == "Dropout2D(p=0.5, data_format=NCHW)"
    assert repr(nn.Dropout3D()) == "Dropout3D(p=0.5, data_format=NCDHW)"
    assert repr(nn.AlphaDropout(0.3)) == "AlphaDropout(p=0.3)"
    assert nn.Dropout().parameters() == []


# ---------------------------------------------------------------------------
# embedding and one_hot
# ---------------------------------------------------------------------------

W = np.arange(12, dtype="float32").reshape(4, 3)


def test_embedding_lookup_and_padding():
    w = paddle.to_tensor(W, stop_gradient=False)
    ids = paddle.to_tensor([[0, 2], [2, 3]])
    out = F.embedding(ids, w, padding_idx=2)
    # from Paddle 3.3.1: the padding rows are zero and get no gradient
    np.testing.assert_array_equal(out.numpy(), [[[0, 1, 2], [0, 0, 0]], [[0, 0, 0], [9, 10, 11]]])
    out.sum().backward()
    np.testing.assert_array_equal(w.grad.numpy(), [[1, 1, 1], [0, 0, 0], [0, 0, 0], [1, 1, 1]])
    np.testing.assert_array_equal(F.embedding(ids, w, padding_idx=-1).numpy(),
                                  [[[0, 1, 2], [6, 7, 8]], [[6, 7, 8], [0, 0, 0]]])
    assert F.embedding(paddle.to_tensor(1), w).shape == [3]
    out = F.embedding(paddle.to_tensor([1, 3], dtype="int32"), w, sparse=True)
    np.testing.assert_array_equal(out.numpy(), W[[1, 3]])


def test_embedding_gradient_adds_repeated_ids():
    w = paddle.to_tensor(W.astype("float64"), stop_gradient=False)
    ids = paddle.to_tensor([[1, 1, 3], [1, 0, 3]])
    g = randn(2, 3, 3, dtype="float64")
    (dw,) = paddle.grad(F.embedding(ids, w), w, grad_outputs=g)
    expected = np.zeros((4, 3))
    np.add.at(expected, ids.numpy().ravel(), g.numpy().reshape(-1, 3))
    np.testing.assert_allclose(dw.numpy(), expected)


def test_embedding_errors():
    w = paddle.to_tensor(W)
    with pytest.raises(ValueError, match=r"padding_idx must be within \[-4, 4\)"):
        F.embedding(paddle.to_tensor([1]), w, padding_idx=4)
    with pytest.raises(ValueError, match=r"ids must be in \[0, 4\).*\[5, 5\]"):
        F.embedding(paddle.to_tensor([5]), w)
    with pytest.raises(ValueError, match=r"ids must be in \[0, 4\)"):
        F.embedding(paddle.to_tensor([-1]), w)
    with pytest.raises(TypeError, match="int32 or int64 tensor, got float32"):
        F.embedding(paddle.to_tensor([1.0]), w)
    with pytest.raises(ValueError, match="weight must be 2-D"):
        F.embedding(paddle.to_tensor([1]), paddle.ones([2, 2, 2]))


def test_embedding_layer():
    layer = nn.Embedding(10, 4, padding_idx=3)
    assert list(layer.state_dict()) == ["weight"] and layer.weight.shape == [10, 4]
    np.testing.assert_array_equal(layer.weight.numpy()[3], 0)
    assert repr(layer) == "Embedding(10, 4, padding_idx=3, sparse=False)"
    out = layer(paddle.to_tensor([[3, 1]]))
    assert out.shape == [1, 2, 4]
    out.sum().backward()
    np.testing.assert_array_equal(layer.weight.grad.numpy()[3], 0)
    np.testing.assert_array_equal(layer.weight.grad.numpy()[1], 1)
    layer = nn.Embedding(10, 4, padding_idx=-2)
    np.testing.assert_array_equal(layer.weight.numpy()[8], 0)
    np.testing.assert_array_equal(layer(paddle.to_tensor([8])).numpy(), 0)
    # the default initializer is XavierUniform: |w| <= sqrt(6 / (num_embeddings + dim))
    w = nn.Embedding(300, 200).weight.numpy()
    bound = np.sqrt(6 / 500)
    assert np.abs(w).max() <= bound and np.abs(w).max() > 0.95 * bound
    const = nn.Embedding(3, 2, weight_attr=nn.initializer.Constant(0.5), name="emb")
    np.testing.assert_array_equal(const.weight.numpy(), 0.5)
    assert repr(const) == "Embedding(3, 2, sparse=False, name=emb)"
    with pytest.raises(ValueError, match=r"padding_idx must be within \[-10, 10\)"):
        nn.Embedding(10, 4, padding_idx=10)
    with pytest.raises(ValueError, match="num_embeddings must be greater than 0"):
        nn.Embedding(0, 4)


def test_embedding_max_norm_renormalises_the_rows_looked_up():
    w = paddle.to_tensor([[3.0, 4.0], [0.3, 0.4], [1.0, 1.0]], stop_gradient=False)
    out = F.embedding(paddle.to_tensor([0, 1, 0]), w, max_norm=1.0)
    # from Paddle 3.3.1: row 0 (norm 5) is scaled in place to norm 1; rows 1 and 2 stay
    np.testing.assert_allclose(w.numpy(), [[0.6, 0.8], [0.3, 0.4], [1.0, 1.0]], rtol=1e-6)
    np.testing.assert_allclose(out.numpy(), [[0.6, 0.8], [0.3, 0.4], [0.6, 0.8]], rtol=1e-6)
    out.sum().backward()
    np.testing.assert_array_equal(w.grad.numpy(), [[2, 2], [1, 1], [0, 0]])
    w = paddle.to_tensor([[3.0, 4.0], [0.3, 0.4], [1.0, 1.0]])
    F.embedding(paddle.to_tensor([0, 2]), w, max_norm=1.0, norm_type=1.0)
    np.testing.assert_allclose(w.numpy(), [[3 / 7, 4 / 7], [0.3, 0.4], [0.5, 0.5]], rtol=1e-6)
    with pytest.raises(ValueError, match="ids must be in"):
        F.embedding(paddle.to_tensor([-1]), w, max_norm=0.1)
    np.testing.assert_allclose(w.numpy()[2], [0.5, 0.5])  # nothing written
    layer = nn.Embedding(3, 2, max_norm=0.5, weight_attr=nn.initializer.Constant(1.0))
    layer(paddle.to_tensor([2]))
    np.testing.assert_allclose(np.linalg.norm(layer.weight.numpy(), axis=1),
                               [np.sqrt(2), np.sqrt(2), 0.5], rtol=1e-6)


def test_one_hot():
    out = F.one_hot(paddle.to_tensor([1, 2]), 4)
    assert out.dtype == paddle.float32
    np.testing.assert_array_equal(out.numpy(), np.eye(4)[[1, 2]])


# ---------------------------------------------------------------------------
# bilinear
# ---------------------------------------------------------------------------

def test_bilinear_layer_and_function():
    layer = nn.Bilinear(3, 4, 5)
    assert repr(layer) == "Bilinear(in1_features=3, in2_features=4, out_features=5, dtype=float32)"
    assert [(k, v.shape) for k, v in layer.state_dict().items()] == \
        [("weight", [5, 3, 4]), ("bias", [1, 5])]
    np.testing.assert_array_equal(layer.bias.numpy(), 0)
    assert np.abs(layer.weight.numpy()).max() <= np.sqrt(6 / (12 + 20))  # XavierUniform fans
    x1, x2 = randn(2, 3), randn(2, 4, seed=1)
    with paddle.no_grad():
        layer.bias[...] = paddle.to_tensor([[1.0, 2.0, 3.0, 4.0, 5.0]])
    expected = np.einsum("bi,oij,bj->bo", x1.numpy(), layer.weight.numpy(), x2.numpy()) + \
        layer.bias.numpy()
    out = layer(x1, x2)
    np.testing.assert_allclose(out.numpy(), expected, rtol=1e-5, atol=1e-6)
    out.sum().backward()
    assert layer.weight.grad.shape == [5, 3, 4] and layer.bias.grad.shape == [1, 5]
    np.testing.assert_allclose(layer.bias.grad.numpy(), [[2.0] * 5])
    assert nn.Bilinear(3, 4, 5, bias_attr=False).bias is None
    np.testing.assert_allclose(F.bilinear(x1, x2, layer.weight).numpy(),
                               expected - layer.bias.numpy(), rtol=1e-5, atol=1e-5)


def test_bilinear_errors():
    w = paddle.ones([5, 3, 4])
    with pytest.raises(ValueError, match="bias must have shape \\[1, 5\\]"):
        F.bilinear(paddle.ones([2, 3]), paddle.ones([2, 4]), w, paddle.ones([5]))
    with pytest.raises(ValueError, match="must be 2-D"):
        F.bilinear(paddle.ones([2, 2, 3]), paddle.ones([2, 2, 4]), w)
    with pytest.raises(ValueError, match="weight must have shape"):
        F.bilinear(paddle.ones([2, 3]), paddle.ones([2, 3]), w)
    with pytest.raises(ValueError, match="same batch size"):
        F.bilinear(paddle.ones([2, 3]), paddle.ones([3, 4]), w)


# ---------------------------------------------------------------------------
# shapes
# ---------------------------------------------------------------------------

def test_flatten_unflatten_identity():
    x = paddle.ones([2, 3, 4, 5])
    assert nn.Flatten()(x).shape == [2, 60]
    assert nn.Flatten(0, 1)(x).shape == [6, 4, 5]
    assert repr(nn.Flatten()) == "Flatten()"
    with pytest.raises(ValueError, match="start_axis 1 is out of range"):
        nn.Flatten()(paddle.ones([2]))
    y = paddle.ones([2, 6, 4])
    assert nn.Unflatten(1, [2, -1])(y).shape == [2, 2, 3, 4]
    assert nn.Unflatten(-1, (2, 2))(y).shape == [2, 6, 2, 2]
    assert nn.Unflatten(1, paddle.to_tensor([2, 3]))(y).shape == [2, 2, 3, 4]
    assert repr(nn.Unflatten(1, [2, 3])) == "Unflatten(axis=1, shape=[2, 3])"
    with pytest.raises(ValueError, match="48 elements"):
        nn.Unflatten(1, [4, 2])(y)
    with pytest.raises(ValueError, match="axis 3 is out of range"):
        nn.Unflatten(3, [1])(y)
    assert nn.Identity(54, k=3)(y) is y
    assert repr(nn.Identity()) == "Identity()"


# ---------------------------------------------------------------------------
# padding
# ---------------------------------------------------------------------------

NP_MODES = {"constant": "constant", "reflect": "reflect", "replicate": "edge",
            "circular": "wrap"}


@pytest.mark.parametrize("mode", sorted(NP_MODES))
def test_pad_layers_match_numpy(mode):
    x3 = np.arange(2 * 3 * 5, dtype="float32").reshape(2, 3, 5)
    x4 = np.arange(2 * 3 * 4 * 5, dtype="float32").reshape(2, 3, 4, 5)
    x5 = np.arange(2 * 2 * 3 * 4 * 5, dtype="float32").reshape(2, 2, 3, 4, 5)
    cases = [(nn.Pad1D([1, 2], mode=mode), x3, [(0, 0), (0, 0), (1, 2)]),
             (nn.Pad2D([1, 2, 0, 3], mode=mode), x4, [(0, 0), (0, 0), (0, 3), (1, 2)]),
             (nn.Pad2D([1, 0, 2, 1], mode=mode, data_format="NHWC"), x4,
              [(0, 0), (2, 1), (1, 0), (0, 0)]),
             (nn.Pad3D(1, mode=mode), x5, [(0, 0), (0, 0), (1, 1), (1, 1), (1, 1)])]
    for layer, x, widths in cases:
        out = layer(paddle.to_tensor(x)).numpy()
        np.testing.assert_array_equal(out, np.pad(x, widths, mode=NP_MODES[mode]),
                                      err_msg=repr(layer))


def test_pad_function_and_reprs():
    x4 = paddle.arange(12, dtype="float32").reshape([1, 1, 3, 4])
    # constant padding: 2 numbers pad the last axis, 2 * ndim numbers every axis from the first
    assert F.pad(x4, [1, 1]).shape == [1, 1, 3, 6]
    assert F.pad(x4, [1, 0, 0, 2]).shape == [1, 1, 5, 5]
    assert F.pad(x4, [0, 1, 0, 0, 0, 0, 2, 0]).shape == [2, 1, 3, 6]
    np.testing.assert_array_equal(F.pad(x4, [1, 1], value=7.0).numpy()[0, 0, :, 0], 7)
    x = paddle.to_tensor(np.ones((1, 2, 3), "float32"), stop_gradient=False)
    F.pad(x, [2, 1], mode="replicate").sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [[[3, 1, 2], [3, 1, 2]]])
    assert repr(nn.Pad2D(1)) == \
        "Pad2D(padding=[1, 1, 1, 1], mode=constant, value=0.0, data_format=NCHW)"
    assert repr(nn.Pad1D([1, 2], mode="reflect")) == \
        "Pad1D(padding=[1, 2], mode=reflect, value=0.0, data_format=NCL)"
    assert repr(nn.ZeroPad2D(2)) == \
        "ZeroPad2D(padding=[2, 2, 2, 2], mode=constant, value=0.0, data_format=NCHW)"
    assert repr(nn.Pad3D(1, value=1.0)) == \
        "Pad3D(padding=[1, 1, 1, 1, 1, 1], mode=constant, value=1.0, data_format=NCDHW)"
    assert nn.Pad2D(paddle.to_tensor([1, 1, 0, 0]))(x4).shape == [1, 1, 3, 6]
    assert nn.ZeroPad1D(1)(paddle.ones([1, 1, 2])).numpy().tolist() == [[[0, 1, 1, 0]]]
    assert nn.ZeroPad3D([1, 0, 0, 0, 0, 0])(paddle.ones([1, 1, 1, 1, 1])).shape == [1, 1, 1, 1, 2]
    # from Paddle 3.3.1
    np.testing.assert_array_equal(F.zeropad2d(paddle.ones([1, 1, 2, 2]), [1, 0, 0, 1]).numpy(),
                                  [[[[0, 1, 1], [0, 1, 1], [0, 0, 0]]]])
    with pytest.raises(ValueError, match="mode must be one of"):
        F.pad(x4, [1, 1, 1, 1], mode="foo")


# ---------------------------------------------------------------------------
# similarity and label smoothing
# ---------------------------------------------------------------------------

def test_cosine_similarity():
    a = paddle.to_tensor([[1.0, 2.0, 3.0], [0.0, 0.0, 0.0]])
    b = paddle.to_tensor([[1.0, 0.0, 1.0], [1.0, 1.0, 1.0]])
    # from Paddle 3.3.1 (a zero vector gives 0, eps keeps the division finite)
    np.testing.assert_allclose(F.cosine_similarity(a, b).numpy(), [0.755929, 0.0], rtol=1e-6)
    np.testing.assert_allclose(F.cosine_similarity(a, b, axis=0).numpy(),
                               [0.70710677, 0.0, 0.7071068], rtol=1e-6)
    np.testing.assert_allclose(F.cosine_similarity(a, paddle.to_tensor([[1.0, 0.0, 1.0]])).numpy(),
                               [0.755929, 0.0], rtol=1e-6)
    x1, x2 = randn(3, 4, 5, dtype="float64"), randn(3, 4, 5, dtype="float64", seed=1)
    n1, n2 = x1.numpy(), x2.numpy()
    expected = (n1 * n2).sum(-1) / np.sqrt((n1 ** 2).sum(-1) * (n2 ** 2).sum(-1))
    layer = nn.CosineSimilarity(axis=-1)
    assert repr(layer) == "CosineSimilarity(axis=-1, eps=1e-08)"
    np.testing.assert_allclose(layer(x1, x2).numpy(), expected)
    with pytest.raises(ValueError, match="cannot be broadcast"):
        F.cosine_similarity(a, paddle.ones([2, 2]))


def test_label_smooth():
    label = paddle.to_tensor([[0.0, 1.0, 0.0], [1.0, 0.0, 0.0]])
    np.testing.assert_allclose(F.label_smooth(label).numpy(),
                               [[0.1 / 3, 0.9 + 0.1 / 3, 0.1 / 3], [0.9 + 0.1 / 3, 0.1 / 3, 0.1 / 3]],
                               rtol=1e-6)
    prior = paddle.to_tensor([0.2, 0.3, 0.5])
    # from Paddle 3.3.1
    expected = [[0.04, 0.86, 0.1], [0.84, 0.06, 0.1]]
    np.testing.assert_allclose(F.label_smooth(label, prior, epsilon=0.2).numpy(), expected,
                               rtol=1e-6)
    np.testing.assert_allclose(
        F.label_smooth(label, prior_dist=prior.reshape([1, 3]), epsilon=0.2).numpy(), expected,
        rtol=1e-6)
    assert F.label_smooth(label.astype("float64")).dtype == paddle.float64
    with pytest.raises(ValueError, match="epsilon must be between 0 and 1"):
        F.label_smooth(label, epsilon=1.5)
    with pytest.raises(TypeError, match="label must be a floating-point tensor.*int64"):
        F.label_smooth(paddle.to_tensor([[0, 1]]))


def test_a_small_model_with_these_layers_trains():
    paddle.seed(0)

    class Net(nn.Layer):
        def __init__(self):
            super().__init__()
            self.emb = nn.Embedding(10, 8, padding_idx=0)
            self.drop = nn.Dropout(0.1)
            self.act = nn.GELU()
            self.flat = nn.Flatten()
            self.out = nn.Linear(3 * 8, 2)

        def forward(self, ids):
            return self.out(self.flat(self.act(self.drop(self.emb(ids)))))

    net = Net()
    opt = paddle.optimizer.Adam(learning_rate=0.05, parameters=net.parameters())
    ids = paddle.to_tensor(np.random.default_rng(0).integers(0, 10, (16, 3)))
    target = F.one_hot(paddle.to_tensor(ids.numpy().sum(1) % 2), 2)
    losses = []
    for _ in range(30):
        loss = F.mse_loss(net(ids), target)
        loss.backward()
        opt.step()
        opt.clear_grad()
        losses.append(float(loss))
    assert losses[-1] < 0.5 * losses[0]
    np.testing.assert_array_equal(net.emb.weight.numpy()[0], 0)  # the padding row never moves
