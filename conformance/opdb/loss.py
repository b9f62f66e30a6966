"""Op database entries: loss ops (softmax with cross-entropy and its gradient, CTC, the mean
squared error and its gradient)."""

import itertools

import numpy as np

from . import FLOATS, FLOATS16, ErrorInput, OpInfo, Sample, make

# ---------------------------------------------------------------------------
# softmax_with_cross_entropy and its gradient
# ---------------------------------------------------------------------------


def _targets(logits, label, soft_label, ignore_index, axis):
    """The target distribution along ``axis``: soft labels as given; hard labels one-hot
    (all zeros where label == ignore_index)."""
    if soft_label:
        return label.astype(np.float64)
    classes = np.arange(logits.shape[axis]).reshape(
        [-1 if i == axis % logits.ndim else 1 for i in range(logits.ndim)])
    return ((label == classes) & (label != ignore_index)).astype(np.float64)


def _probabilities(logits, axis, use_softmax):
    x = logits.astype(np.float64)
    if not use_softmax:
        return x
    return np.exp(x - np.logaddexp.reduce(x, axis=axis, keepdims=True))


def _swce_ref(logits, label, soft_label=False, ignore_index=-100, axis=-1, use_softmax=True):
    """softmax p and the cross-entropy -sum(t * log p) of the target t along axis."""
    p = _probabilities(logits, axis, use_softmax)
    t = _targets(logits, label, soft_label, ignore_index, axis)
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(t != 0, t * np.log(p), 0.0)
    loss = -np.sum(terms, axis=axis, keepdims=True)
    return p.astype(logits.dtype), loss.astype(logits.dtype)


def _swce_grad_ref(softmax, label, loss_grad, soft_label=False, ignore_index=-100, axis=-1,
                   use_softmax=True):
    """d(-sum(t * log p)) / d logits = p * sum(t) - t (p = softmax(logits)), or -t / p when
    the logits are the probabilities p themselves; times loss_grad."""
    p = softmax.astype(np.float64)
    t = _targets(softmax, label, soft_label, ignore_index, axis)
    if use_softmax:
        d = p * np.sum(t, axis=axis, keepdims=True) - t
    else:
        d = np.where(t != 0, -t / np.where(t != 0, p, 1.0), 0.0)
    return (d * loss_grad).astype(softmax.dtype)


def _hard(shape, axis, rng, high, dtype=np.int64):
    lab_shape = tuple(1 if i == axis % len(shape) else d for i, d in enumerate(shape))
    return rng.integers(0, high, size=lab_shape).astype(dtype)


def _soft(shape, axis, dtype, rng):
    w = rng.uniform(0.1, 1.0, size=shape)
    return (w / np.sum(w, axis=axis, keepdims=True)).astype(dtype)


def _swce_cases(dtype, rng):
    """(logits, label, attrs, desc, grad) of every kind: hard and soft labels, ignored
    entries, int32 labels, other axes, probabilities as input, batch size 1, 1-D logits.
    The first six (those the second-derivative check runs) cover each kind of target."""
    label = _hard((6, 5), -1, rng, 5)
    label[[1, 4]] = -100
    yield make((6, 5), dtype, rng), label, {}, "ignored entries (-100)", True
    label = np.array([[0], [2], [1], [2]])
    yield make((4, 3), dtype, rng), label, {"ignore_index": 2}, "ignore_index 2", True
    yield (make((3, 5), dtype, rng), _soft((3, 5), 0, dtype, rng),
           {"soft_label": True, "axis": 0}, "soft (3, 5) axis 0", True)
    probs = _soft((4, 3), -1, dtype, rng)
    yield (probs, _hard((4, 3), -1, rng, 3), {"use_softmax": False}, "probabilities, hard",
           True)
    yield (probs, _soft((4, 3), -1, dtype, rng), {"use_softmax": False, "soft_label": True},
           "probabilities, soft", True)
    for shape, axis in [((2, 4, 3), 1), ((5, 4), -1), ((1, 3), -1), ((3, 1), -1), ((7,), 0),
                        ((3, 2), 0)]:
        yield (make(shape, dtype, rng, -3, 3), _hard(shape, axis, rng, shape[axis]),
               {"axis": axis}, f"hard {shape} axis {axis}", True)
    yield (make((4, 3), dtype, rng), _hard((4, 3), -1, rng, 3, np.int32), {}, "int32 label",
           True)
    for shape, axis in [((4, 3), -1), ((2, 3, 4), 1)]:
        yield (make(shape, dtype, rng), _soft(shape, axis, dtype, rng),
               {"soft_label": True, "axis": axis}, f"soft {shape} axis {axis}", True)
    # large logits: a naive exp would overflow
    yield (make((3, 4), dtype, rng, 80, 120), _hard((3, 4), -1, rng, 4), {}, "large logits",
           False)


def swce_samples(dtype, rng):
    for logits, label, attrs, desc, grad in _swce_cases(dtype, rng):
        yield Sample((logits, label), attrs, desc, grad=grad)


def swce_grad_samples(dtype, rng):
    for logits, label, attrs, desc, _ in _swce_cases(dtype, rng):
        axis = attrs.get("axis", -1)
        p = logits if not attrs.get("use_softmax", True) else \
            _probabilities(logits, axis, True).astype(dtype)
        g = make(tuple(1 if i == axis % p.ndim else d for i, d in enumerate(p.shape)),
                 dtype, rng)
        yield Sample((p, label, g), attrs, desc)


def swce_errors(rng):
    x = make((4, 3), np.float32, rng)
    yield ErrorInput(Sample((x, np.zeros((3, 1), np.int64))), ValueError,
                     r"label shape \[3, 1\], logits shape \[4, 3\]")
    yield ErrorInput(Sample((x, np.zeros((4, 2), np.int64))), ValueError, r"\[4, 1\]")
    yield ErrorInput(Sample((x, np.zeros((4, 1), np.float32))), TypeError,
                     "int32 or int64, got float32")
    yield ErrorInput(Sample((x, np.zeros((4,), np.int64))), ValueError, r"label shape \[4\]")
    yield ErrorInput(Sample((x, _soft((4, 3), -1, np.float64, rng)), {"soft_label": True}),
                     TypeError, "float64")
    yield ErrorInput(Sample((x, _soft((1, 3), -1, np.float32, rng)), {"soft_label": True}),
                     ValueError, r"label shape \[1, 3\], logits shape \[4, 3\]")
    yield ErrorInput(Sample((np.zeros((4, 3), np.int64), np.zeros((4, 1), np.int64))),
                     TypeError, "floating-point")
    yield ErrorInput(Sample((x, np.zeros((4, 1), np.int64)), {"axis": 2}), ValueError,
                     "axis")
    yield ErrorInput(Sample((x, np.array([[0], [3], [1], [2]]))), IndexError, r"\[0, 3\)")


def swce_grad_errors(rng):
    p = make((4, 3), np.float32, rng, 0.1, 0.5)
    yield ErrorInput(Sample((p, np.zeros((4, 1), np.int64), np.ones((4,), np.float32))),
                     ValueError, r"loss_grad must have the loss's shape \[4, 1\]")
    yield ErrorInput(Sample((p, np.zeros((4, 1), np.float32), np.ones((4, 1), np.float32))),
                     TypeError, "float32")


# ---------------------------------------------------------------------------
# warpctc
# ---------------------------------------------------------------------------

def _collapse(path, blank):
    """A CTC path read as a label: repeats merged, then blanks dropped."""
    merged = [k for i, k in enumerate(path) if i == 0 or k != path[i - 1]]
    return tuple(k for k in merged if k != blank)


def _warpctc_ref(logits, label, logits_length, labels_length, blank=0, norm_by_times=False):
    """By enumeration of every path of each sequence's length: p(label) is the summed
    probability of the paths that collapse to it, the gradient softmax minus the expected
    one-hot of the path (0 where no path fits, and past the sequence's end)."""
    steps, batch, classes = logits.shape
    x = logits.astype(np.float64)
    probs = np.exp(x) / np.sum(np.exp(x), axis=2, keepdims=True)
    loss = np.zeros((batch, 1))
    grad = np.zeros_like(x)
    for n in range(batch):
        t_n = int(logits_length[n])
        target = tuple(int(v) for v in label[n, :int(labels_length[n])])
        paths = np.array([p for p in itertools.product(range(classes), repeat=t_n)
                          if _collapse(p, blank) == target]).reshape(-1, t_n)
        if len(paths) == 0:
            continue
        weights = np.prod(probs[np.arange(t_n), n, paths], axis=1)
        total = np.sum(weights)
        loss[n, 0] = -np.log(total)
        expected = np.einsum("p,ptc->tc", weights / total, np.eye(classes)[paths])
        grad[:t_n, n] = (probs[:t_n, n] - expected) / (t_n if norm_by_times else 1)
    return grad.astype(logits.dtype), loss.astype(logits.dtype)


def _ctc(dtype, rng, steps, labels, t_len, classes=3, **attrs):
    label = np.array(labels, dtype=np.int32)
    return Sample((make((steps, len(labels), classes), dtype, rng),
                   label, np.array(t_len, np.int64),
                   np.array([np.count_nonzero(r >= 0) for r in label], np.int64)), attrs)


def warpctc_samples(dtype, rng):
    def s(*args, desc="", grad=True, **kw):
        sample = _ctc(dtype, rng, *args, **kw)
        sample.desc, sample.grad = desc, grad
        # padding past each label's length is whatever the caller had: here -1 -> 0
        sample.inputs[1][sample.inputs[1] < 0] = 0
        return sample
    yield s(4, [[1, 2], [2, -1]], [4, 3], desc="two sequences")
    yield s(5, [[1, 1]], [5], desc="batch 1, a repeated label needs a blank between")
    yield s(3, [[2, -1, -1], [1, 2, 1]], [3, 3], desc="padded labels")
    yield s(2, [[1, 1], [1, -1]], [2, 2], desc="an alignment that cannot exist (loss 0)")
    yield s(4, [[0, 1], [1, -1]], [4, 2], blank=2, desc="blank 2")
    yield s(4, [[-1, -1], [1, -1]], [3, 4], desc="an empty label")
    yield s(4, [[1, 2], [2, -1]], [4, 3], norm_by_times=True, grad=False,
            desc="norm_by_times (scales only the gradient, so not a derivative of the loss)")


def warpctc_errors(rng):
    x = make((4, 2, 3), np.float32, rng)
    lab, lens = np.zeros((2, 2), np.int32), np.array([4, 4], np.int64)
    yield ErrorInput(Sample((x[0], lab, lens, lens)), ValueError, r"shape \[2, 3\]")
    yield ErrorInput(Sample((x, np.zeros((3, 2), np.int32), lens, lens)), ValueError,
                     r"labels shape \[3, 2\]")
    yield ErrorInput(Sample((x, lab, lens.astype(np.float32), lens)), TypeError,
                     "input_lengths must be int32 or int64, got float32")
    yield ErrorInput(Sample((x, lab, lens, lens), {"blank": 3}), ValueError, r"\[0, 3\)")


# ---------------------------------------------------------------------------
# mse_loss and its gradient
# ---------------------------------------------------------------------------

def _mse_ref(input, label, reduction="mean"):
    """sum over the elements of (input - label)^2 in float64, divided by their number for
    'mean' (NaN over no elements)."""
    d = (input.astype(np.float64) - label.astype(np.float64)).ravel()
    with np.errstate(invalid="ignore"):
        total = np.vdot(d, d) / (d.size if reduction == "mean" else 1)
    return np.asarray(total).astype(input.dtype)


def _mse_grad_ref(input, label, out_grad, reduction="mean"):
    """d/d input of out_grad * mse: 2 (input - label) out_grad, over n for 'mean'."""
    n = input.size if reduction == "mean" else 1
    d = input.astype(np.float64) - label.astype(np.float64)
    return (2.0 * d * float(out_grad) / max(n, 1)).astype(input.dtype)


_MSE_SHAPES = [(3, 4), (1, 5), (7,), (), (2, 3, 5), (64, 1), (33, 17)]


def _mse_cases(dtype, rng):
    """(input, label, attrs, desc): every shape with each reduction, and empty inputs."""
    for shape in _MSE_SHAPES:
        for reduction in ("mean", "sum"):
            yield (make(shape, dtype, rng), make(shape, dtype, rng), {"reduction": reduction},
                   f"{shape} {reduction}")
    for reduction in ("mean", "sum"):
        yield (make((0, 3), dtype, rng), make((0, 3), dtype, rng), {"reduction": reduction},
               f"empty {reduction}")


def mse_samples(dtype, rng):
    for x, y, attrs, desc in _mse_cases(dtype, rng):
        yield Sample((x, y), attrs, desc, grad=x.size > 0)


def mse_grad_samples(dtype, rng):
    for x, y, attrs, desc in _mse_cases(dtype, rng):
        yield Sample((x, y, make((), dtype, rng)), attrs, desc, grad=x.size > 0)


def mse_errors(rng):
    x = make((3, 4), np.float32, rng)
    yield ErrorInput(Sample((x, make((4,), np.float32, rng))), ValueError,
                     r"paddle.nn.functional.mse_loss: input and label must have the same "
                     r"shape, got input shape \[3, 4\] and label shape \[4\]")
    yield ErrorInput(Sample((x, make((3, 4), np.float64, rng))), TypeError,
                     "label must have input's dtype float32, got float64")
    yield ErrorInput(Sample((make((3,), np.int64, rng), make((3,), np.int64, rng))), TypeError,
                     "floating-point tensor .* got int64")
    yield ErrorInput(Sample((x, x), {"reduction": "none"}), ValueError,
                     "reduction 'mean' or 'sum', got 'none'")


def mse_grad_errors(rng):
    x = make((3, 4), np.float32, rng)
    yield ErrorInput(Sample((x, x, make((1,), np.float32, rng))), ValueError,
                     r"mse_loss_grad: out_grad must be the 0-D loss's gradient .* shape \[1\]")
    yield ErrorInput(Sample((x, make((3, 5), np.float32, rng), make((), np.float32, rng))),
                     ValueError, r"label shape \[3, 5\]")


OPS = [
    OpInfo("softmax_with_cross_entropy", _swce_ref, swce_samples, dtypes=FLOATS,
           gradgrad=True, errors=swce_errors,
           grad_inputs=(0,)),  # soft labels get no gradient, as in Paddle
    OpInfo("softmax_with_cross_entropy_grad", _swce_grad_ref, swce_grad_samples,
           dtypes=FLOATS, errors=swce_grad_errors),
    OpInfo("warpctc", _warpctc_ref, warpctc_samples, dtypes=FLOATS, errors=warpctc_errors),
    OpInfo("mse_loss", _mse_ref, mse_samples, dtypes=FLOATS16, gradgrad=True,
           errors=mse_errors),
    OpInfo("mse_loss_grad", _mse_grad_ref, mse_grad_samples, dtypes=FLOATS16, gradgrad=True,
           errors=mse_grad_errors),
]
