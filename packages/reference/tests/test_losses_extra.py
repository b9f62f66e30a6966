"""The margin, embedding and likelihood losses of paddle.nn and paddle.nn.functional
(soft margin, hinge embedding, multi-label soft margin, multi margin, triplet, Poisson and
Gaussian NLL): values against NumPy statements for every reduction, gradients against
central differences (float64), Paddle's shapes, defaults and errors; and the layout
shuffles pixel_unshuffle and channel_shuffle. Numbers said to come from Paddle 3.3.1 were
computed with it on the same inputs."""

import numpy as np
import pytest
from gradcheck import check_grads

import dygrad as paddle
import dygrad.nn.functional as F
from dygrad import nn

REDUCTIONS = ["mean", "sum", "none"]
rng = np.random.default_rng(7)
X = rng.standard_normal((5, 3))
Y = rng.standard_normal((5, 3))
Z = rng.standard_normal((5, 3))
SIGNS = np.where(rng.random((5, 3)) < 0.5, -1.0, 1.0)


def t(a):
    return paddle.to_tensor(np.asarray(a))


def reduce_np(loss, reduction):
    return {"mean": np.mean, "sum": np.sum, "none": lambda v: v}[reduction](loss)


def check(out, expected, rtol=1e-10):
    assert out.shape == list(np.shape(expected))
    np.testing.assert_allclose(out.numpy(), expected, rtol=rtol, atol=1e-12)


def log_sigmoid_np(x):
    return -np.logaddexp(0.0, -x)


# ---------------------------------------------------------------------------
# soft margin and hinge embedding
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_soft_margin_loss(reduction):
    expected = reduce_np(np.log(1 + np.exp(-SIGNS * X)), reduction)
    check(F.soft_margin_loss(t(X), t(SIGNS), reduction), expected)
    check(nn.SoftMarginLoss(reduction)(t(X), t(SIGNS)), expected)
    check_grads(lambda x: F.soft_margin_loss(x, t(SIGNS), reduction), X)


def test_soft_margin_loss_int_labels_stability_and_errors():
    out = F.soft_margin_loss(t(np.float32([1, 2, 3])), t(np.int64([1, -1, 1])), "none")
    assert out.dtype == paddle.float32
    # from Paddle 3.3.1
    np.testing.assert_allclose(out.numpy(), [0.31326166, 2.126928, 0.04858733], rtol=1e-6)
    big = F.soft_margin_loss(t([1000.0, -1000.0]), t([-1.0, 1.0]), "none")
    np.testing.assert_allclose(big.numpy(), [1000.0, 1000.0])  # Paddle overflows to inf
    with pytest.raises(ValueError, match="soft_margin_loss.*same shape"):
        F.soft_margin_loss(t(X), t(Y[:, :2]))
    with pytest.raises(ValueError, match="'reduction' in 'soft_margin_loss'"):
        F.soft_margin_loss(t(X), t(SIGNS), "max")
    with pytest.raises(ValueError, match="SoftMarginLoss"):
        nn.SoftMarginLoss("max")
    with pytest.raises(TypeError, match="soft_margin_loss: input"):
        F.soft_margin_loss(t(np.int64([1, 2])), t(np.int64([1, 2])))


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("margin", [1.0, 0.3])
def test_hinge_embedding_loss(reduction, margin):
    labels = SIGNS.copy()
    labels[0, 0] = 0.0  # neither 1 nor -1: no loss
    loss = np.where(labels == 1, X, 0) + np.where(labels == -1, np.maximum(0, margin - X), 0)
    expected = reduce_np(loss, reduction)
    check(F.hinge_embedding_loss(t(X), t(labels), margin, reduction), expected)
    check(nn.HingeEmbeddingLoss(margin, reduction)(t(X), t(labels)), expected)
    check_grads(lambda x: F.hinge_embedding_loss(x, t(labels), margin, reduction), X)


def test_hinge_embedding_loss_defaults_broadcast_and_errors():
    # from Paddle 3.3.1
    out = F.hinge_embedding_loss(t([1.0, 2.0, 3.0]), t([1.0, 0.0, -1.0]), reduction="none")
    np.testing.assert_allclose(out.numpy(), [1.0, 0.0, 0.0])
    column = SIGNS[:, :1]
    expected = np.where(column == 1, X, np.maximum(0, 1 - X))
    check(F.hinge_embedding_loss(t(X), t(column), reduction="none"), expected)
    assert nn.HingeEmbeddingLoss().margin == 1.0
    with pytest.raises(ValueError, match="'reduction' in 'hinge_embedding_loss'"):
        F.hinge_embedding_loss(t(X), t(SIGNS), reduction="max")
    with pytest.raises(TypeError, match="hinge_embedding_loss: label must be a Tensor"):
        F.hinge_embedding_loss(t(X), SIGNS)


# ---------------------------------------------------------------------------
# multi-label soft margin and multi margin
# ---------------------------------------------------------------------------

LABELS01 = (SIGNS > 0).astype(np.float64)
WEIGHT3 = np.array([0.5, 2.0, 1.5])


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("weighted", [False, True])
def test_multi_label_soft_margin_loss(reduction, weighted):
    weight = WEIGHT3 if weighted else np.ones(3)
    loss = -(LABELS01 * log_sigmoid_np(X) + (1 - LABELS01) * log_sigmoid_np(-X)) * weight
    expected = reduce_np(loss.mean(axis=-1), reduction)
    w = t(WEIGHT3) if weighted else None
    check(F.multi_label_soft_margin_loss(t(X), t(LABELS01), w, reduction), expected)
    check(nn.MultiLabelSoftMarginLoss(w, reduction)(t(X), t(LABELS01)), expected)
    check_grads(lambda x: F.multi_label_soft_margin_loss(x, t(LABELS01), w, reduction), X)


def test_multi_label_soft_margin_loss_shapes_and_errors():
    out = F.multi_label_soft_margin_loss(paddle.ones([2, 3, 4]), paddle.zeros([2, 3, 4]),
                                         reduction="none")
    assert out.shape == [2, 3]
    with pytest.raises(ValueError, match="multi_label_soft_margin_loss.*same shape"):
        F.multi_label_soft_margin_loss(t(X), t(LABELS01[:, :2]))
    with pytest.raises(ValueError, match="MultiLabelSoftMarginLoss"):
        nn.MultiLabelSoftMarginLoss(reduction="max")


def multi_margin_np(x, y, p=1, margin=1.0, weight=None):
    """sum over i != y of max(0, margin - x[y] + x[i])^p / C, times weight[y]."""
    n, c = x.shape
    loss = np.zeros(n)
    for k in range(n):
        for i in range(c):
            if i != y[k]:
                loss[k] += max(0.0, margin - x[k, y[k]] + x[k, i]) ** p / c
        if weight is not None:
            loss[k] *= weight[y[k]]
    return loss


CLASSES = np.array([0, 2, 1, 2, 0])


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("p,margin,weighted", [(1, 1.0, False), (2, 0.5, True),
                                               (1, 2.0, True)])
def test_multi_margin_loss(reduction, p, margin, weighted):
    weight = WEIGHT3 if weighted else None
    expected = reduce_np(multi_margin_np(X, CLASSES, p, margin, weight), reduction)
    w = t(weight) if weighted else None
    check(F.multi_margin_loss(t(X), t(CLASSES), p, margin, w, reduction), expected)
    check(nn.MultiMarginLoss(p, margin, w, reduction)(t(X), t(CLASSES)), expected)
    check_grads(lambda x: F.multi_margin_loss(x, t(CLASSES), p, margin, w, reduction), X)
    if weighted:
        check_grads(lambda v: F.multi_margin_loss(t(X), t(CLASSES), p, margin, v, reduction),
                    WEIGHT3)


def test_multi_margin_loss_paddle_details_and_errors():
    # from Paddle 3.3.1: labels [N, 1] are accepted, p=2
    out = F.multi_margin_loss(t(np.float32([[0.1, 0.5, 0.3], [1, 2, 3]])),
                              t(np.int32([[1], [0]])), p=2, reduction="none")
    np.testing.assert_allclose(out.numpy(), [0.33333334, 4.333333], rtol=1e-6)
    one = F.multi_margin_loss(t(X[:1]), t(CLASSES[:1]), weight=t(WEIGHT3), reduction="none")
    assert one.shape == [1]
    with pytest.raises(ValueError, match="multi_margin_loss: label must hold one class"):
        F.multi_margin_loss(t(X), t(CLASSES[:2]))
    with pytest.raises(ValueError, match=r"multi_margin_loss: label values must be in \[0, 3\)"):
        F.multi_margin_loss(t(X), t(np.array([0, 1, 3, 0, 0])))
    with pytest.raises(ValueError, match=r"multi_margin_loss: weight must have shape \[3\]"):
        F.multi_margin_loss(t(X), t(CLASSES), weight=t(np.ones(4)))
    with pytest.raises(TypeError, match="multi_margin_loss: label must hold class indices"):
        F.multi_margin_loss(t(X), t(CLASSES.astype(np.float64)))
    with pytest.raises(ValueError, match=r"multi_margin_loss: input must be \[N, C\]"):
        F.multi_margin_loss(t(X[0]), t(CLASSES[:1]))
    with pytest.raises(ValueError, match="MultiMarginLoss"):
        nn.MultiMarginLoss(reduction="max")


# ---------------------------------------------------------------------------
# triplet losses
# ---------------------------------------------------------------------------

def distance_np(a, b, p=2.0, epsilon=1e-6):
    d = np.abs(a - b + epsilon)
    if p == np.inf:
        return d.max(axis=-1)
    if p == 0:
        return (d != 0).sum(axis=-1).astype(a.dtype)
    return (d ** p).sum(axis=-1) ** (1 / p)


def triplet_np(a, pos, neg, margin=1.0, p=2.0, epsilon=1e-6, swap=False, distance=None):
    distance = distance or (lambda u, v: distance_np(u, v, p, epsilon))
    d_neg = distance(a, neg)
    if swap:
        d_neg = np.minimum(d_neg, distance(pos, neg))
    return np.maximum(0.0, distance(a, pos) - d_neg + margin)


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("margin,p,epsilon,swap", [(1.0, 2, 1e-6, False), (0.5, 1, 0.0, True),
                                                   (2.0, 3.0, 1e-3, True),
                                                   (1.0, np.inf, 1e-6, False)])
def test_triplet_margin_loss(reduction, margin, p, epsilon, swap):
    expected = reduce_np(triplet_np(X, Y, Z, margin, p, epsilon, swap), reduction)
    check(F.triplet_margin_loss(t(X), t(Y), t(Z), margin, p, epsilon, swap, reduction),
          expected)
    layer = nn.TripletMarginLoss(margin, p, epsilon, swap, reduction)
    check(layer(t(X), t(Y), t(Z)), expected)
    check_grads(lambda a, b, c: F.triplet_margin_loss(a, b, c, margin, p, epsilon, swap,
                                                      reduction), X, Y, Z, rtol=1e-5)


def test_triplet_margin_loss_shapes_p0_and_errors():
    # from Paddle 3.3.1: 1-D inputs give a 0-D loss, 3-D ones a loss per row
    one = F.triplet_margin_loss(t([1.0, 2.0]), t([1.0, 3.0]), t([0.0, 2.0]), reduction="none")
    assert one.shape == []
    rows = F.triplet_margin_loss(paddle.ones([2, 3, 4]), paddle.zeros([2, 3, 4]),
                                 paddle.ones([2, 3, 4]), reduction="none")
    assert rows.shape == [2, 3]
    check(F.triplet_margin_loss(t(X), t(Y), t(Z), p=0, reduction="none"),
          triplet_np(X, Y, Z, p=0))
    with pytest.raises(ValueError, match="triplet_margin_loss: margin must be at least 0"):
        F.triplet_margin_loss(t(X), t(Y), t(Z), margin=-1.0)
    with pytest.raises(ValueError, match="triplet_margin_loss: input, positive and negative"):
        F.triplet_margin_loss(t(X), t(Y), t(Z[:, :2]))
    with pytest.raises(ValueError, match="'reduction' in 'triplet_margin_loss'"):
        F.triplet_margin_loss(t(X), t(Y), t(Z), reduction="max")
    with pytest.raises(ValueError, match="TripletMarginLoss"):
        nn.TripletMarginLoss(reduction="max")


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("swap", [False, True])
def test_triplet_margin_with_distance_loss(reduction, swap):
    expected = reduce_np(triplet_np(X, Y, Z, swap=swap), reduction)
    check(F.triplet_margin_with_distance_loss(t(X), t(Y), t(Z), swap=swap,
                                              reduction=reduction), expected)

    def cosine(a, b):
        return 1.0 - F.cosine_similarity(a, b, axis=-1)

    def cosine_np(a, b):
        return 1.0 - (a * b).sum(-1) / np.linalg.norm(a, axis=-1) / np.linalg.norm(b, axis=-1)
    expected = reduce_np(triplet_np(X, Y, Z, 0.2, swap=swap, distance=cosine_np), reduction)
    layer = nn.TripletMarginWithDistanceLoss(cosine, 0.2, swap, reduction)
    check(layer(t(X), t(Y), t(Z)), expected, rtol=1e-7)
    check_grads(lambda a, b, c: F.triplet_margin_with_distance_loss(
        a, b, c, cosine, 0.2, swap, reduction), X, Y, Z, rtol=1e-5)


def test_triplet_margin_with_distance_loss_errors():
    api = "triplet_margin_with_distance_loss"
    with pytest.raises(ValueError, match=f"{api}: the distances must be at least 0"):
        F.triplet_margin_with_distance_loss(t(X), t(Y), t(Z), lambda a, b: (a - b).sum(-1))
    with pytest.raises(ValueError, match=f"{api}: margin must be at least 0"):
        F.triplet_margin_with_distance_loss(t(X), t(Y), t(Z), margin=-0.5)
    with pytest.raises(ValueError, match=f"{api}: input, positive and negative"):
        F.triplet_margin_with_distance_loss(t(X), t(Y[:2]), t(Z))
    with pytest.raises(ValueError, match="TripletMarginWithDistanceLoss"):
        nn.TripletMarginWithDistanceLoss(reduction="max")


# ---------------------------------------------------------------------------
# Poisson and Gaussian negative log-likelihood
# ---------------------------------------------------------------------------

COUNTS = np.array([[0.0, 1.0, 3.0], [2.0, 5.0, 0.0], [1.0, 1.5, 4.0], [0.0, 0.0, 7.0],
                   [2.5, 1.0, 0.5]])
RATES = np.abs(X) + 0.1


def poisson_np(x, y, log_input=True, full=False, epsilon=1e-8):
    loss = np.exp(x) - y * x if log_input else x - y * np.log(x + epsilon)
    if full:
        safe = np.where(y > 1, y, 1.0)
        loss = loss + np.where(y > 1, safe * np.log(safe) - safe +
                               0.5 * np.log(2 * np.pi * safe), 0.0)
    return loss


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("log_input,full", [(True, False), (False, False), (True, True),
                                            (False, True)])
def test_poisson_nll_loss(reduction, log_input, full):
    x = X if log_input else RATES
    expected = reduce_np(poisson_np(x, COUNTS, log_input, full), reduction)
    check(F.poisson_nll_loss(t(x), t(COUNTS), log_input, full, reduction=reduction), expected)
    layer = nn.PoissonNLLLoss(log_input, full, reduction=reduction)
    check(layer(t(x), t(COUNTS)), expected)
    check_grads(lambda v: F.poisson_nll_loss(v, t(COUNTS), log_input, full,
                                             reduction=reduction), x)


def test_poisson_nll_loss_paddle_values_and_errors():
    x, y = t(np.float32([0.5, 1.0, 2.0])), t(np.float32([0.0, 1.0, 3.0]))
    # from Paddle 3.3.1
    np.testing.assert_allclose(F.poisson_nll_loss(x, y, full=True, reduction="none").numpy(),
                               [1.6487212, 1.7182817, 3.1531377], rtol=1e-6)
    np.testing.assert_allclose(
        F.poisson_nll_loss(x, y, log_input=False, full=True, reduction="none").numpy(),
        [0.5, 1.0, 1.68464], rtol=1e-5)
    with pytest.raises(ValueError, match="poisson_nll_loss: epsilon must be positive"):
        F.poisson_nll_loss(x, y, epsilon=0)
    with pytest.raises(ValueError, match="PoissonNLLLoss: epsilon must be positive"):
        nn.PoissonNLLLoss(epsilon=-1.0)
    with pytest.raises(ValueError, match="poisson_nll_loss.*same shape"):
        F.poisson_nll_loss(t(X), t(COUNTS[:2]))
    with pytest.raises(ValueError, match="'reduction' in 'poisson_nll_loss'"):
        F.poisson_nll_loss(x, y, reduction="max")


def gaussian_np(x, y, var, full=False, epsilon=1e-6):
    var = np.maximum(var, epsilon)
    loss = 0.5 * (np.log(var) + (x - y) ** 2 / var)
    return loss + 0.5 * np.log(2 * np.pi) if full else loss


VARIANCE = RATES ** 2


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("full", [False, True])
@pytest.mark.parametrize("var_shape", ["same", "row", "row1"])
def test_gaussian_nll_loss(reduction, full, var_shape):
    var = {"same": VARIANCE, "row": VARIANCE[:, 0], "row1": VARIANCE[:, :1]}[var_shape]
    var_np = var[:, None] if var_shape == "row" else var
    expected = reduce_np(gaussian_np(X, Y, var_np, full), reduction)
    check(F.gaussian_nll_loss(t(X), t(Y), t(var), full, reduction=reduction), expected)
    check(nn.GaussianNLLLoss(full, reduction=reduction)(t(X), t(Y), t(var)), expected)
    check_grads(lambda a, b, v: F.gaussian_nll_loss(a, b, v, full, reduction=reduction),
                X, Y, var)


def test_gaussian_nll_loss_clips_variance_and_errors():
    var = np.array([0.0, 1e-8, 0.5])
    out = F.gaussian_nll_loss(t([1.0, 1.0, 1.0]), t([0.0, 0.0, 0.0]), t(var), epsilon=1e-3,
                              reduction="none")
    check(out, gaussian_np(np.ones(3), np.zeros(3), var, epsilon=1e-3))
    api = "gaussian_nll_loss"
    with pytest.raises(ValueError, match=f"{api}: variance must have input's shape"):
        F.gaussian_nll_loss(t(X), t(Y), t(VARIANCE[:, :2]))
    with pytest.raises(ValueError, match=f"{api}: variance has negative entries"):
        F.gaussian_nll_loss(t(X), t(Y), t(-VARIANCE))
    with pytest.raises(ValueError, match=f"'reduction' in '{api}'"):
        F.gaussian_nll_loss(t(X), t(Y), t(VARIANCE), reduction="max")
    with pytest.raises(ValueError, match="GaussianNLLLoss"):
        nn.GaussianNLLLoss(reduction="max")
    with pytest.raises(TypeError, match=f"{api}: variance must be a floating-point"):
        F.gaussian_nll_loss(t(X), t(Y), t(np.ones((5, 3), np.int64)))


def test_float32_inputs_give_float32_losses():
    a, b, c = (t(v.astype(np.float32)) for v in (X, Y, Z))
    w, var = t(WEIGHT3.astype(np.float32)), t(VARIANCE.astype(np.float32))
    losses = [F.soft_margin_loss(a, b), F.hinge_embedding_loss(a, b),
              F.multi_label_soft_margin_loss(a, b, w),
              F.multi_margin_loss(a, t(CLASSES), 2, 0.5, w),
              F.triplet_margin_loss(a, b, c, p=3), F.triplet_margin_with_distance_loss(a, b, c),
              F.poisson_nll_loss(a, b, full=True), F.gaussian_nll_loss(a, b, var, full=True)]
    for loss in losses:
        assert loss.dtype == paddle.float32 and loss.shape == []

def test_value_checks_wait_for_dynamic_mode_in_a_static_program(static):
    """The checks of values (labels in range, distances and variances not negative) are
    skipped while a program is built, as Paddle's; the program computes the losses."""
    main, startup = static
    x = paddle.static.data("x", [-1, 3], "float64")
    y = paddle.static.data("y", [-1, 3], "float64")
    label = paddle.static.data("label", [-1], "int64")
    losses = [F.multi_margin_loss(x, label), F.triplet_margin_loss(x, y, 2 * y),
              F.gaussian_nll_loss(x, y, y * y)]
    exe = paddle.static.Executor()
    exe.run(startup)
    got = exe.run(main, feed={"x": X, "y": Y, "label": CLASSES}, fetch_list=losses)
    expected = [multi_margin_np(X, CLASSES).mean(), triplet_np(X, Y, 2 * Y).mean(),
                gaussian_np(X, Y, Y * Y).mean()]
    np.testing.assert_allclose(np.array(got, dtype=np.float64), expected, rtol=1e-10)

# ---------------------------------------------------------------------------
# pixel_unshuffle and channel_shuffle
# ---------------------------------------------------------------------------

IMAGE = rng.standard_normal((2, 3, 4, 6))


def test_pixel_unshuffle():
    out = F.pixel_unshuffle(t(IMAGE), 2)
    assert out.shape == [2, 12, 2, 3]
    for c in range(3):
        for i in range(2):
            for j in range(2):
                np.testing.assert_array_equal(out.numpy()[:, c * 4 + i * 2 + j],
                                              IMAGE[:, c, i::2, j::2])
    np.testing.assert_array_equal(F.pixel_shuffle(out, 2).numpy(), IMAGE)
    nhwc = F.pixel_unshuffle(t(IMAGE.transpose(0, 2, 3, 1)), 2, data_format="NHWC")
    np.testing.assert_array_equal(nhwc.numpy(), out.numpy().transpose(0, 2, 3, 1))
    layer = nn.PixelUnshuffle(2, "NHWC")
    assert layer(t(IMAGE.transpose(0, 2, 3, 1))).shape == [2, 2, 3, 12]
    assert repr(layer) == "PixelUnshuffle(downscale_factor=2, data_format=NHWC)"
    assert repr(nn.PixelUnshuffle(3)) == "PixelUnshuffle(downscale_factor=3)"
    check_grads(lambda x: F.pixel_unshuffle(x, 2), IMAGE[:1, :2])


def test_channel_shuffle():
    x = rng.standard_normal((2, 6, 3, 2))
    out = F.channel_shuffle(t(x), 3)
    for j in range(2):
        for g in range(3):
            np.testing.assert_array_equal(out.numpy()[:, j * 3 + g], x[:, g * 2 + j])
    nhwc = F.channel_shuffle(t(x.transpose(0, 2, 3, 1)), 3, data_format="NHWC")
    np.testing.assert_array_equal(nhwc.numpy(), out.numpy().transpose(0, 2, 3, 1))
    np.testing.assert_array_equal(nn.ChannelShuffle(3)(t(x)).numpy(), out.numpy())
    assert repr(nn.ChannelShuffle(2, "NHWC")) == "ChannelShuffle(groups=2, data_format=NHWC)"
    check_grads(lambda v: F.channel_shuffle(v, 2), x[:1, :4, :2])


@pytest.mark.parametrize("call,error,message", [
    (lambda: F.pixel_unshuffle(paddle.ones([1, 2, 5, 4]), 2), ValueError,
     r"pixel_unshuffle: downscale_factor \(2\) must divide"),
    (lambda: F.pixel_unshuffle(paddle.ones([1, 2, 4, 4]), 0), ValueError,
     "pixel_unshuffle: downscale_factor must be positive"),
    (lambda: F.pixel_unshuffle(paddle.ones([1, 2, 4, 4]), 2.0), TypeError,
     "pixel_unshuffle: downscale_factor must be an int"),
    (lambda: F.pixel_unshuffle(paddle.ones([2, 4, 4]), 2), ValueError,
     "pixel_unshuffle: x must be a 4-D tensor"),
    (lambda: F.pixel_unshuffle(paddle.ones([1, 2, 4, 4]), 2, "NCDHW"), ValueError,
     "pixel_unshuffle: data_format must be 'NCHW' or 'NHWC'"),
    (lambda: nn.PixelUnshuffle(-1), ValueError, "PixelUnshuffle: downscale_factor must be"),
    (lambda: F.channel_shuffle(paddle.ones([1, 6, 4, 4]), 4), ValueError,
     r"channel_shuffle: groups \(4\) must divide the number of channels \(6\)"),
    (lambda: F.channel_shuffle(paddle.ones([1, 6, 4, 4]), 0), ValueError,
     "channel_shuffle: groups must be positive"),
    (lambda: nn.ChannelShuffle(2.0), TypeError, "ChannelShuffle: groups must be an int"),
    (lambda: nn.ChannelShuffle(2, "X"), ValueError, "ChannelShuffle: data_format"),
])
def test_shuffle_errors_as_paddle(call, error, message):
    with pytest.raises(error, match=message):
        call()
