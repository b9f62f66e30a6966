"""Evaluation metrics (paddle.metric): the ``accuracy`` function and the Metric classes.

A :class:`Metric` accumulates statistics batch after batch: ``compute`` (optional) turns a
batch's network output and labels into what ``update`` takes, ``update`` adds that batch
(and returns its own value where Paddle does), ``accumulate`` gives the value over every
batch since ``reset``. The formulas are Paddle's, so the numbers agree with Paddle's.
"""

from __future__ import annotations

import abc

import numpy as np

from .. import tensor as _api
from .._core.tensor import Tensor

__all__ = ["Metric", "Accuracy", "Precision", "Recall", "Auc", "accuracy"]


def accuracy(input, label, k=1, correct=None, total=None, name=None):
    """The fraction of samples whose label is among the ``k`` largest scores of ``input``.

    ``input`` has shape [N, C] (scores per class), ``label`` shape [N, 1] (int64 or int32).
    The result is a float32 Tensor of shape []. ``correct`` and ``total`` (int Tensors),
    when given, receive the number of correct samples and N.
    """
    if input.ndim != 2:
        raise ValueError(f"accuracy: input must have shape [N, C] (scores of C classes for N "
                         f"samples), got shape {input.shape}")
    if label.ndim != 2 or label.shape[1] != 1 or label.shape[0] != input.shape[0]:
        raise ValueError(f"accuracy: label must have shape [N, 1] with N = {input.shape[0]} "
                         f"(the input's rows), got shape {label.shape}")
    if label.dtype.name not in ("int64", "int32"):
        raise TypeError(f"accuracy: label must be int64 or int32, got {label.dtype.name}")
    _, indices = _api.topk(input, k=k)
    hits = _api.cast(_api.equal(indices, _api.cast(label, indices.dtype)), "float32")
    n = input.shape[0]
    acc = _api.mean(_api.sum(hits, axis=1)) if n else _api.zeros([], "float32")
    if correct is not None:
        correct.set_value(np.full(correct.shape, int(_api.sum(hits).item()) if n else 0))
    if total is not None:
        total.set_value(np.full(total.shape, n))
    return acc


def _as_numpy(value, what):
    if isinstance(value, Tensor):
        return value.numpy()
    if isinstance(value, (np.ndarray, np.generic)):
        return np.asarray(value)
    raise ValueError(f"The '{what}' must be a numpy ndarray or Tensor, got {type(value).__name__}")


def _one_per_sample(values, n, api, what):
    """``values`` as a flat array of one value per sample (shape [N] or [N, 1])."""
    if values.size != n or values.ndim > 2:
        raise ValueError(f"{api}: '{what}' must hold one value per sample (shape [N] or [N, 1] "
                         f"with N = {n}), got shape {list(values.shape)}")
    return values.reshape(n)


class Metric(metaclass=abc.ABCMeta):
    """Base class of the metrics: subclasses write reset, update, accumulate and name."""

    @abc.abstractmethod
    def reset(self):
        """Forget every batch seen so far."""

    @abc.abstractmethod
    def update(self, *args):
        """Add one batch (what ``compute`` returned, or the raw inputs)."""

    @abc.abstractmethod
    def accumulate(self):
        """The metric over every batch since the last reset."""

    @abc.abstractmethod
    def name(self):
        """The metric's name(s)."""

    def compute(self, *args):
        """Turn a batch's outputs and labels into ``update``'s arguments (here: unchanged)."""
        return args


class Accuracy(Metric):
    """Top-k accuracy for every k in ``topk``: the fraction of samples whose label is among
    the k highest scores."""

    def __init__(self, topk=(1,), name=None, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.topk = topk
        self.maxk = max(topk)
        name = name or "acc"
        self._name = [f"{name}_top{k}" for k in topk] if self.maxk != 1 else [name]
        self.reset()

    def compute(self, pred, label, *args):
        """[N, maxk] float32: 1 where the label is the i-th highest score of its row.

        ``label`` is class indices of shape [N] or [N, 1], or one-hot / soft scores [N, C].
        """
        _, indices = _api.topk(pred, k=self.maxk)
        if label.ndim == 1 or (label.ndim == 2 and label.shape[-1] == 1):
            label = _api.reshape(label, (-1, 1))
        else:
            label = _api.argmax(label, axis=-1, keepdim=True)
        return _api.cast(_api.equal(indices, _api.cast(label, indices.dtype)), "float32")

    def update(self, correct, *args):
        """Add a batch of ``compute``'s output; returns this batch's accuracy (one per k)."""
        correct = _as_numpy(correct, "correct")
        samples = int(np.prod(correct.shape[:-1]))
        accs = []
        for i, k in enumerate(self.topk):
            hits = float(correct[..., :k].sum())
            accs.append(hits / samples if samples else 0.0)
            self.total[i] += hits
            self.count[i] += samples
        return accs[0] if len(self.topk) == 1 else accs

    def reset(self):
        self.total = [0.0] * len(self.topk)
        self.count = [0] * len(self.topk)

    def accumulate(self):
        res = [t / c if c > 0 else 0.0 for t, c in zip(self.total, self.count)]
        return res[0] if len(self.topk) == 1 else res

    def name(self):
        return self._name


class Precision(Metric):
    """Binary precision: true positives / predicted positives.

    ``update(preds, labels)``: ``preds`` are probabilities of class 1 (shape [N] or [N, 1]),
    rounded half up (p >= 0.5 is a positive prediction); ``labels`` are 0/1.
    """

    def __init__(self, name="precision", *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.tp = 0
        self.fp = 0
        self._name = name

    def update(self, preds, labels):
        preds, labels = _as_numpy(preds, "preds"), _as_numpy(labels, "labels")
        n = labels.shape[0]
        predicted = _one_per_sample(np.floor(preds + 0.5).astype(np.int32), n, "Precision", "preds")
        labels = _one_per_sample(labels, n, "Precision", "labels")
        positive = predicted == 1
        self.tp += int(np.sum(positive & (labels == 1)))
        self.fp += int(np.sum(positive & (labels != 1)))

    def reset(self):
        self.tp = 0
        self.fp = 0

    def accumulate(self):
        predicted_positive = self.tp + self.fp
        return self.tp / predicted_positive if predicted_positive else 0.0

    def name(self):
        return self._name


class Recall(Metric):
    """Binary recall: true positives / actual positives.

    ``update(preds, labels)``: ``preds`` are probabilities of class 1 (shape [N] or [N, 1]),
    rounded to the nearest integer with ties to even (0.5 counts as negative, as in Paddle);
    ``labels`` are 0/1.
    """

    def __init__(self, name="recall", *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.tp = 0
        self.fn = 0
        self._name = name

    def update(self, preds, labels):
        preds, labels = _as_numpy(preds, "preds"), _as_numpy(labels, "labels")
        n = labels.shape[0]
        predicted = _one_per_sample(np.rint(preds).astype(np.int32), n, "Recall", "preds")
        actual = _one_per_sample(labels, n, "Recall", "labels") == 1
        self.tp += int(np.sum(actual & (predicted == 1)))
        self.fn += int(np.sum(actual & (predicted != 1)))

    def accumulate(self):
        actual_positive = self.tp + self.fn
        return self.tp / actual_positive if actual_positive else 0.0

    def reset(self):
        self.tp = 0
        self.fn = 0

    def name(self):
        return self._name


class Auc(Metric):
    """Area under the ROC curve, from a histogram of the predicted probabilities.

    ``update(preds, labels)``: ``preds`` has shape [N, 2] (column 1 is the probability of
    the positive class, in [0, 1]); ``labels`` are 0/1 of shape [N] or [N, 1]. A probability
    p falls in bucket ``int(p * num_thresholds)``; ``accumulate`` sweeps the threshold from
    the top bucket down and sums the trapezoids under the (false positive, true positive)
    counts, divided by (positives * negatives).
    """

    def __init__(self, curve="ROC", num_thresholds=4095, name="auc", *args, **kwargs):
        super().__init__(*args, **kwargs)
        if curve != "ROC":
            raise ValueError(f"Auc: only curve='ROC' is implemented, got {curve!r} (Paddle's "
                             f"Auc computes the ROC area whatever curve says)")
        self._curve = curve
        self._num_thresholds = num_thresholds
        self._name = name
        self.reset()

    def update(self, preds, labels):
        labels, preds = _as_numpy(labels, "labels"), _as_numpy(preds, "preds")
        n = labels.shape[0]
        labels = _one_per_sample(labels, n, "Auc", "labels").astype(bool)
        if preds.ndim != 2 or preds.shape[0] != n or preds.shape[1] < 2:
            raise ValueError(f"Auc: preds must have shape [N, 2] with N = {n} (column 1 is the "
                             f"positive class's probability), got shape {list(preds.shape)}")
        positive_prob = preds[:, 1]
        if np.any(positive_prob < 0) or np.any(positive_prob > 1):
            raise ValueError("Auc: the probabilities in preds[:, 1] must lie in [0, 1]")
        buckets = (positive_prob * self._num_thresholds).astype(np.int64)
        size = self._num_thresholds + 1
        self._stat_pos += np.bincount(buckets[labels], minlength=size)
        self._stat_neg += np.bincount(buckets[~labels], minlength=size)

    @staticmethod
    def trapezoid_area(x1, x2, y1, y2):
        """The area under the segment from (x1, y1) to (x2, y2)."""
        return abs(x1 - x2) * (y1 + y2) / 2.0

    def accumulate(self):
        tp = np.cumsum(self._stat_pos[::-1])   # positives above each threshold, top down
        fp = np.cumsum(self._stat_neg[::-1])
        tp_prev = np.concatenate([[0.0], tp[:-1]])
        fp_prev = np.concatenate([[0.0], fp[:-1]])
        area = float(np.sum(self.trapezoid_area(fp, fp_prev, tp, tp_prev)))
        return area / tp[-1] / fp[-1] if tp[-1] > 0 and fp[-1] > 0 else 0.0

    def reset(self):
        self._stat_pos = np.zeros(self._num_thresholds + 1)
        self._stat_neg = np.zeros(self._num_thresholds + 1)

    def name(self):
        return self._name
