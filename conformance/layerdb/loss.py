"""Losses (layers of dygrad.nn too)."""

import numpy as np

from . import Case, entry, log_softmax, rand, softplus


def _reduce(loss, reduction):
    return {"none": loss, "mean": loss.mean(), "sum": loss.sum()}[reduction]


def _pointwise(fn, reduction="mean"):
    return lambda sd, x, y: _reduce(fn(x, y), reduction)


def _labels(shape, classes, *, logits=None, ignore=None):
    """inputs(rng): float logits of shape ``logits`` and int64 labels (some = ignore)."""
    def gen(rng):
        y = rng.integers(0, classes, shape).astype(np.int64)
        if ignore is not None:
            y.flat[::3] = ignore
        return rng.uniform(-2, 2, logits), y
    return gen


def _weighted_nll(logp, y, w, ignore, reduction, axis=1):
    """-w[y] logp[y] with ignored labels dropped; 'mean' divides by the sum of their weights."""
    valid = y != ignore
    yy = np.where(valid, y, 0)
    picked = np.take_along_axis(logp, np.expand_dims(yy, axis), axis).squeeze(axis)
    wy = (np.ones(logp.shape[axis]) if w is None else w)[yy] * valid
    loss = -picked * wy
    if reduction == "mean":
        return loss.sum() / wy.sum()
    return _reduce(loss, reduction)


W5 = np.array([0.5, 1.0, 2.0, 0.3, 1.2])


def _ce(weight=None, ignore=-100, reduction="mean", axis=-1, smoothing=0.0):
    """Hard labels; with label smoothing, the soft labels (1 - e) onehot + e / C."""
    def ref(sd, x, y):
        if smoothing:
            soft = (1 - smoothing) * np.eye(x.shape[-1])[y] + smoothing / x.shape[-1]
            return _soft_ce(weight, reduction)(sd, x, soft)
        return _weighted_nll(log_softmax(x, axis), y, weight, ignore, reduction, axis % x.ndim)
    return ref


def _soft_ce(weight=None, reduction="mean"):
    """-sum(y log softmax(x)) per sample; a class weight weighs each sample by sum(y w), and
    'mean' divides by the sum of those weights."""
    def ref(sd, x, y):
        loss = -(y * log_softmax(x)).sum(-1, keepdims=True)
        if weight is None:
            return _reduce(loss, reduction)
        wi = (y * weight).sum(-1, keepdims=True)
        return (loss * wi).sum() / wi.sum() if reduction == "mean" else \
            _reduce(loss * wi, reduction)
    return ref


def _probs_labels(rng):
    p = rng.uniform(0.1, 1, (4, 5))
    return p / p.sum(-1, keepdims=True), rng.integers(0, 5, (4,)).astype(np.int64)


def _soft_inputs(rng):
    y = rng.uniform(0.1, 1, (4, 5))
    return rng.uniform(-2, 2, (4, 5)), y / y.sum(-1, keepdims=True)


def _probs(*shapes):
    return lambda rng: tuple(rng.uniform(0.05, 0.95, s) for s in shapes)


def _bce(w=None, reduction="mean"):
    def ref(sd, p, y):
        loss = -(y * np.log(p) + (1 - y) * np.log(1 - p)) * (1 if w is None else w)
        return _reduce(loss, reduction)
    return ref


def _bce_logits(w=None, pos=None, reduction="mean"):
    def ref(sd, x, y):
        pw = 1 if pos is None else pos
        loss = (pw * y * softplus(-x) + (1 - y) * softplus(x)) * (1 if w is None else w)
        return _reduce(loss, reduction)
    return ref


def _kl(reduction="mean", log_target=False):
    def ref(sd, x, t):
        loss = np.exp(t) * (t - x) if log_target else t * (np.log(t) - x)
        if reduction == "batchmean":
            return loss.sum() / x.shape[0]
        return _reduce(loss, reduction)
    return ref


def _ranking_inputs(rng):
    return (rng.uniform(-2, 2, (5,)), rng.uniform(-2, 2, (5,)),
            rng.choice([-1.0, 1.0], (5,)))


def _cos_emb_inputs(rng):
    return (rng.uniform(-2, 2, (4, 3)), rng.uniform(-2, 2, (4, 3)),
            np.array([1, -1, 1, -1], dtype=np.int64))


def _cos_emb(margin, reduction="mean"):
    def ref(sd, a, b, y):
        cos = (a * b).sum(1) / np.sqrt((a ** 2).sum(1) * (b ** 2).sum(1))
        return _reduce(np.where(y == 1, 1 - cos, np.maximum(0, cos - margin)), reduction)
    return ref


def _huber(delta):
    def fn(x, y):
        d = np.abs(x - y)
        return np.where(d < delta, 0.5 * d ** 2, delta * (d - 0.5 * delta))
    return fn


# CTC: log_probs [T, N, C] (softmax taken inside), labels [N, S], lengths

def _ctc_inputs(rng):
    return (rng.uniform(-2, 2, (6, 2, 4)), np.array([[1, 2, 2], [3, 1, 0]], dtype=np.int32),
            np.array([6, 5], dtype=np.int64), np.array([3, 2], dtype=np.int64))


def _ctc_nll(logp, label, blank):
    """-log p(label | logp [T, C]) by the forward recursion over the label with blanks."""
    ext = np.full(2 * len(label) + 1, blank)
    ext[1::2] = label
    alpha = np.full(len(ext), -np.inf)
    alpha[:2] = logp[0, ext[:2]]
    for t in range(1, len(logp)):
        prev = alpha.copy()
        shift1 = np.concatenate([[-np.inf], prev[:-1]])
        shift2 = np.concatenate([[-np.inf, -np.inf], prev[:-2]])
        skip = np.concatenate([[False, False], (ext[2:] != blank) & (ext[2:] != ext[:-2])])
        alpha = np.logaddexp(prev, shift1)
        alpha = np.where(skip, np.logaddexp(alpha, shift2), alpha) + logp[t, ext]
    return -np.logaddexp(alpha[-1], alpha[-2] if len(ext) > 1 else -np.inf)


def _ctc(blank=0, reduction="mean"):
    def ref(sd, x, labels, in_len, lab_len):
        logp = log_softmax(x, -1)
        loss = np.array([_ctc_nll(logp[:in_len[n], n], labels[n, :lab_len[n]], blank)
                         for n in range(x.shape[1])])
        if reduction == "mean":
            return (loss / lab_len).mean()
        return _reduce(loss, reduction)
    return ref


# margin, embedding and likelihood losses

def _signs(*shapes):
    """inputs(rng): float scores of shapes[0] and labels -1 / 1 of shapes[1]."""
    return lambda rng: (rng.uniform(-2, 2, shapes[0]), rng.choice([-1.0, 1.0], shapes[1]))


def _multi_label(w=None, reduction="mean"):
    def ref(sd, x, y):
        loss = y * softplus(-x) + (1 - y) * softplus(x)
        return _reduce((loss * (1 if w is None else w)).mean(-1), reduction)
    return ref


def _multi_margin(p=1, margin=1.0, w=None, reduction="mean"):
    """sum over the classes i != y of max(0, margin - x[y] + x[i])^p / C, times w[y]."""
    def ref(sd, x, y):
        picked = np.take_along_axis(x, y[:, None], 1)
        others = np.arange(x.shape[1]) != y[:, None]
        loss = (np.maximum(0, margin - picked + x) ** p * others).sum(1) / x.shape[1]
        return _reduce(loss * (1 if w is None else w[y]), reduction)
    return ref


def _triplet(margin=1.0, p=2.0, eps=1e-6, swap=False, reduction="mean"):
    def dist(a, b):
        return (np.abs(a - b + eps) ** p).sum(-1) ** (1 / p)

    def ref(sd, a, pos, neg):
        d_neg = np.minimum(dist(a, neg), dist(pos, neg)) if swap else dist(a, neg)
        return _reduce(np.maximum(0, dist(a, pos) - d_neg + margin), reduction)
    return ref


def _poisson(log_input=True, full=False, reduction="mean"):
    def ref(sd, x, y):
        loss = np.exp(x) - y * x if log_input else x - y * np.log(x + 1e-8)
        if full:
            s = np.maximum(y, 1)
            loss = loss + np.where(y > 1, s * np.log(s) - s + 0.5 * np.log(2 * np.pi * s), 0)
        return _reduce(loss, reduction)
    return ref


def _gaussian(full=False, reduction="mean"):
    def ref(sd, x, y, var):
        var = var.reshape(var.shape + (1,) * (x.ndim - var.ndim))
        loss = 0.5 * (np.log(var) + (x - y) ** 2 / var) + (0.5 * np.log(2 * np.pi) * full)
        return _reduce(loss, reduction)
    return ref


def _class_inputs(rng):
    return rng.uniform(-2, 2, (4, 5)), rng.integers(0, 5, (4,)).astype(np.int64)


def _counts(rng):
    return rng.uniform(-1, 1, (3, 4)), rng.integers(0, 5, (3, 4)).astype(np.float64)


def _rates(rng):
    return rng.uniform(0.2, 2, (3, 4)), rng.integers(0, 5, (3, 4)).astype(np.float64)


def _gauss_inputs(var_shape):
    return lambda rng: (rng.uniform(-2, 2, (3, 4)), rng.uniform(-2, 2, (3, 4)),
                        rng.uniform(0.2, 2, var_shape))


XY = rand((3, 4), (3, 4))

LAYERS = [
    entry("MSELoss", Case({}, XY, _pointwise(lambda x, y: (x - y) ** 2)),
          Case({"reduction": "sum"}, XY, _pointwise(lambda x, y: (x - y) ** 2, "sum")),
          Case({"reduction": "none"}, XY, _pointwise(lambda x, y: (x - y) ** 2, "none"))),
    entry("L1Loss", Case({}, XY, _pointwise(lambda x, y: np.abs(x - y))),
          Case({"reduction": "none"}, XY, _pointwise(lambda x, y: np.abs(x - y), "none"))),
    entry("SmoothL1Loss", Case({}, XY, _pointwise(_huber(1.0))),
          Case({"delta": 0.5, "reduction": "sum"}, XY, _pointwise(_huber(0.5), "sum"))),
    entry("CrossEntropyLoss",
          Case({}, _labels((4,), 5, logits=(4, 5)), _ce()),
          Case({"weight": W5, "ignore_index": 2}, _labels((6,), 5, logits=(6, 5), ignore=2),
               _ce(W5, 2), desc="weight ignore_index"),
          Case({"reduction": "none", "axis": 1}, _labels((2, 3), 5, logits=(2, 5, 3)),
               _ce(reduction="none", axis=1), desc="axis 1"),
          # as in Paddle, soft labels get no gradient
          Case({"soft_label": True}, _soft_inputs, _soft_ce(), desc="soft labels",
               grad_inputs=(0,)),
          Case({"soft_label": True, "weight": W5}, _soft_inputs, _soft_ce(W5),
               desc="soft labels weight", grad_inputs=(0,)),
          Case({"label_smoothing": 0.2, "reduction": "sum"}, _labels((4,), 5, logits=(4, 5)),
               _ce(reduction="sum", smoothing=0.2), desc="label_smoothing"),
          Case({"label_smoothing": 0.1, "weight": W5}, _labels((3,), 5, logits=(3, 5)),
               _ce(W5, smoothing=0.1), desc="label_smoothing weight"),
          Case({"use_softmax": False}, _probs_labels, desc="use_softmax=False",
               ref=lambda sd, p, y: _weighted_nll(np.log(p), y, None, -100, "mean"))),
    entry("NLLLoss",
          Case({}, _labels((4,), 5, logits=(4, 5)),
               lambda sd, x, y: _weighted_nll(x, y, None, -100, "mean")),
          Case({"weight": W5, "ignore_index": 1, "reduction": "sum"},
               _labels((2, 3), 5, logits=(2, 5, 3), ignore=1),
               lambda sd, x, y: _weighted_nll(x, y, W5, 1, "sum"), desc="weight 3-D")),
    entry("BCELoss", Case({}, _probs((3, 4), (3, 4)), _bce()),
          Case({"weight": np.array([0.5, 1.0, 2.0, 1.5]), "reduction": "none"},
               _probs((3, 4), (3, 4)), _bce(np.array([0.5, 1.0, 2.0, 1.5]), "none"))),
    entry("BCEWithLogitsLoss", Case({}, _probs((3, 4), (3, 4)), _bce_logits()),
          Case({"pos_weight": np.array([1.0, 2.0, 0.5, 3.0]), "reduction": "sum"},
               _probs((3, 4), (3, 4)), _bce_logits(pos=np.array([1.0, 2.0, 0.5, 3.0]),
                                                    reduction="sum")),
          Case({"weight": np.array([2.0, 0.5, 1.0, 1.5]), "pos_weight": np.array([3.0])},
               _probs((2, 4), (2, 4)), _bce_logits(np.array([2.0, 0.5, 1.0, 1.5]),
                                                    np.array([3.0])), desc="weight pos_weight")),
    entry("KLDivLoss", Case({}, _probs((3, 4), (3, 4)), _kl()),
          Case({"reduction": "batchmean"}, _probs((3, 4), (3, 4)), _kl("batchmean")),
          Case({"reduction": "sum", "log_target": True}, XY, _kl("sum", True))),
    entry("MarginRankingLoss", Case({"margin": 0.3}, _ranking_inputs, lambda sd, a, b, y: (
        np.maximum(0, -y * (a - b) + 0.3).mean()), grad_inputs=(0, 1))),
    entry("CosineEmbeddingLoss",
          Case({"margin": 0.2}, _cos_emb_inputs, _cos_emb(0.2)),
          Case({"reduction": "none"}, _cos_emb_inputs, _cos_emb(0, "none"))),
    entry("CTCLoss", Case({}, _ctc_inputs, _ctc(), tol=(1e-9, 1e-9)),
          Case({"blank": 3, "reduction": "sum"}, lambda rng: (
              rng.uniform(-2, 2, (5, 2, 4)), np.array([[1, 2], [0, 0]], dtype=np.int32),
              np.array([5, 4], dtype=np.int64), np.array([2, 2], dtype=np.int64)),
               _ctc(3, "sum"), tol=(1e-9, 1e-9))),
    entry("SoftMarginLoss", Case({}, _signs((3, 4), (3, 4)),
                                 lambda sd, x, y: softplus(-y * x).mean(), grad_inputs=(0,)),
          Case({"reduction": "none"}, _signs((3, 4), (3, 4)),
               lambda sd, x, y: softplus(-y * x), grad_inputs=(0,))),
    entry("HingeEmbeddingLoss",
          Case({}, _signs((3, 4), (3, 4)), lambda sd, x, y: np.where(
              y == 1, x, np.maximum(0, 1 - x)).mean(), grad_inputs=(0,)),
          Case({"margin": 0.5, "reduction": "none"}, _signs((3, 4), (3, 1)),
               lambda sd, x, y: np.where(y == 1, x, np.maximum(0, 0.5 - x)),
               desc="label broadcast", grad_inputs=(0,))),
    entry("MultiLabelSoftMarginLoss",
          Case({}, _probs((3, 5), (3, 5)), _multi_label(), grad_inputs=(0,)),
          Case({"weight": W5, "reduction": "none"}, _probs((3, 5), (3, 5)),
               _multi_label(W5, "none"), grad_inputs=(0,))),
    entry("MultiMarginLoss", Case({}, _class_inputs, _multi_margin()),
          Case({"p": 2, "margin": 0.5, "weight": W5, "reduction": "sum"}, _class_inputs,
               _multi_margin(2, 0.5, W5, "sum"), desc="p=2 weight")),
    entry("TripletMarginLoss", Case({}, rand((3, 4), (3, 4), (3, 4)), _triplet()),
          Case({"margin": 0.5, "p": 1.0, "swap": True, "reduction": "none"},
               rand((3, 4), (3, 4), (3, 4)), _triplet(0.5, 1.0, swap=True, reduction="none"),
               desc="p=1 swap")),
    entry("TripletMarginWithDistanceLoss",
          Case({}, rand((3, 4), (3, 4), (3, 4)), _triplet()),
          Case({"margin": 2.0, "swap": True, "reduction": "sum"}, rand((3, 4), (3, 4), (3, 4)),
               _triplet(2.0, swap=True, reduction="sum"), desc="swap")),
    entry("PoissonNLLLoss", Case({}, _counts, _poisson(), grad_inputs=(0,)),
          Case({"log_input": False, "full": True, "reduction": "none"}, _rates,
               _poisson(False, True, "none"), desc="rates full", grad_inputs=(0,))),
    entry("GaussianNLLLoss", Case({}, _gauss_inputs((3, 4)), _gaussian()),
          Case({"full": True, "reduction": "sum"}, _gauss_inputs((3,)), _gaussian(True, "sum"),
               desc="one variance per row full")),
]
