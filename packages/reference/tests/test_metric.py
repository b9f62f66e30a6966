"""dygrad.metric: accuracy and the Metric classes (Accuracy, Precision, Recall, Auc).

Expected values come from NumPy statements of the formulas or from values captured from
PaddlePaddle 3.3.1 on the same inputs.
"""

import numpy as np
import pytest

import dygrad as paddle
from dygrad import metric

SCORES = np.array([[0.1, 0.9, 0.0], [0.8, 0.15, 0.05], [0.2, 0.3, 0.5], [0.3, 0.25, 0.45]],
                  np.float32)
LABELS = np.array([[1], [2], [2], [0]], np.int64)


def accuracy_reference(scores, labels, k):
    """The fraction of rows whose label is among the k highest scores."""
    top = np.argsort(-scores, axis=1, kind="stable")[:, :k]
    return np.mean([labels[i, 0] in top[i] for i in range(len(scores))])


# ---------------------------------------------------------------------------
# accuracy
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("k,expected", [(1, 0.5), (2, 0.75), (3, 1.0)])  # Paddle 3.3.1
def test_accuracy_matches_paddle(k, expected):
    acc = metric.accuracy(paddle.to_tensor(SCORES), paddle.to_tensor(LABELS), k=k)
    assert isinstance(acc, paddle.Tensor) and acc.shape == [] and acc.dtype == paddle.float32
    assert acc.item() == pytest.approx(expected)


@pytest.mark.parametrize("k", [1, 2, 5])
def test_accuracy_against_numpy(k):
    rng = np.random.default_rng(k)
    scores = rng.permuted(np.tile(np.arange(10, dtype=np.float64), (50, 1)), axis=1)  # no ties
    labels = rng.integers(0, 10, (50, 1))
    acc = metric.accuracy(paddle.to_tensor(scores), paddle.to_tensor(labels), k=k)
    assert acc.item() == pytest.approx(accuracy_reference(scores, labels, k), abs=1e-7)


def test_accuracy_correct_total_and_int32_labels():
    correct = paddle.zeros([1], dtype="int32")
    total = paddle.zeros([1], dtype="int32")
    acc = metric.accuracy(paddle.to_tensor(SCORES), paddle.to_tensor(LABELS.astype(np.int32)), k=2,
                          correct=correct, total=total)
    assert acc.item() == pytest.approx(0.75)
    assert correct.item() == 3 and total.item() == 4


def test_accuracy_is_not_differentiable_and_handles_empty_batches():
    scores = paddle.to_tensor(SCORES, stop_gradient=False)
    assert metric.accuracy(scores, paddle.to_tensor(LABELS)).stop_gradient
    empty = metric.accuracy(paddle.zeros([0, 3]), paddle.zeros([0, 1], dtype="int64"))
    assert empty.item() == 0.0 and empty.shape == []


def test_accuracy_errors():
    scores, labels = paddle.to_tensor(SCORES), paddle.to_tensor(LABELS)
    with pytest.raises(ValueError, match=r"input must have shape \[N, C\]"):
        metric.accuracy(paddle.zeros([2, 3, 4]), labels)
    with pytest.raises(ValueError, match=r"label must have shape \[N, 1\] with N = 4"):
        metric.accuracy(scores, paddle.to_tensor([1, 2, 2, 0]))
    with pytest.raises(ValueError, match=r"label must have shape"):
        metric.accuracy(scores, paddle.to_tensor([[1], [2]]))
    with pytest.raises(TypeError, match="int64 or int32, got float32"):
        metric.accuracy(scores, paddle.to_tensor(LABELS.astype(np.float32)))


# ---------------------------------------------------------------------------
# Metric and Accuracy
# ---------------------------------------------------------------------------


def test_metric_is_abstract():
    with pytest.raises(TypeError):
        metric.Metric()

    class Count(metric.Metric):
        def reset(self):
            self.n = 0

        def update(self, x):
            self.n += x

        def accumulate(self):
            return self.n

        def name(self):
            return "count"

    m = Count()
    m.reset()
    m.update(*m.compute(3))
    assert m.accumulate() == 3 and m.compute(1, 2) == (1, 2)


BATCH = np.array([[0.1, 0.6, 0.3], [0.5, 0.2, 0.3], [0.2, 0.3, 0.5], [0.7, 0.2, 0.1],
                  [0.25, 0.35, 0.4]], np.float32)
BATCH_LABELS = np.array([[1], [2], [0], [0], [1]])


def test_accuracy_metric_matches_paddle():
    m = metric.Accuracy(topk=(1, 2))
    assert m.name() == ["acc_top1", "acc_top2"]
    correct = m.compute(paddle.to_tensor(BATCH), paddle.to_tensor(BATCH_LABELS))
    assert correct.dtype == paddle.float32
    np.testing.assert_array_equal(correct.numpy(), [[1, 0], [0, 1], [0, 0], [1, 0], [0, 1]])
    assert m.update(correct) == pytest.approx([0.4, 0.8])
    one_hot = np.eye(3)[[2, 0]]  # labels given as one-hot rows
    second = m.compute(paddle.to_tensor(BATCH[:2]), paddle.to_tensor(one_hot))
    np.testing.assert_array_equal(second.numpy(), [[0, 1], [1, 0]])
    assert m.update(second) == pytest.approx([0.5, 1.0])
    assert m.accumulate() == pytest.approx([3 / 7, 6 / 7])
    m.reset()
    assert m.accumulate() == [0.0, 0.0]


def test_accuracy_metric_single_k_and_flat_labels():
    m = metric.Accuracy(name="top")
    assert m.name() == ["top"]
    acc = m.update(m.compute(paddle.to_tensor(BATCH), paddle.to_tensor(BATCH_LABELS.ravel())))
    assert acc == pytest.approx(0.4) and m.accumulate() == pytest.approx(0.4)
    assert m.update(np.ones((3, 1), np.float32)) == 1.0  # update also takes NumPy arrays
    assert m.accumulate() == pytest.approx(5 / 8)
    assert metric.Accuracy(topk=(1, 3), name="a").name() == ["a_top1", "a_top3"]


# ---------------------------------------------------------------------------
# Precision, Recall, Auc
# ---------------------------------------------------------------------------

PROBS = np.array([0.1, 0.4, 0.35, 0.8, 0.5, 0.65, 0.2, 0.95, 0.5, 0.05])
TRUTH = np.array([0, 0, 1, 1, 1, 0, 0, 1, 0, 1])


def test_precision_matches_paddle():
    m = metric.Precision()
    m.update(PROBS, TRUTH)
    assert (m.tp, m.fp, m.accumulate()) == (3, 2, pytest.approx(0.6))  # 0.5 counts as 1
    m.update(paddle.to_tensor(PROBS.reshape(-1, 1)), paddle.to_tensor(TRUTH.reshape(-1, 1)))
    assert (m.tp, m.fp) == (6, 4) and m.name() == "precision"
    m.reset()
    assert m.accumulate() == 0.0


def test_recall_matches_paddle():
    m = metric.Recall(name="r")
    m.update(PROBS, TRUTH)
    assert (m.tp, m.fn, m.accumulate()) == (2, 3, pytest.approx(0.4))  # 0.5 rounds to 0
    m.update(paddle.to_tensor(PROBS.reshape(-1, 1)), paddle.to_tensor(TRUTH.reshape(-1, 1)))
    assert (m.tp, m.fn) == (4, 6) and m.name() == "r"
    m.reset()
    assert m.accumulate() == 0.0


@pytest.mark.parametrize("cls", [metric.Precision, metric.Recall, metric.Auc])
def test_binary_metrics_input_errors(cls):
    with pytest.raises(ValueError, match="numpy ndarray or Tensor"):
        cls().update([0.5, 0.2], np.array([1, 0]))
    with pytest.raises(ValueError, match="one value per sample"):
        cls().update(np.zeros((3, 2)), np.zeros((2, 2)))


def auc_reference(probs, labels, num_thresholds):
    """Bucket the probabilities, sweep the threshold down, add up trapezoids."""
    pos = np.zeros(num_thresholds + 1)
    neg = np.zeros(num_thresholds + 1)
    for p, y in zip(probs, labels):
        (pos if y else neg)[int(p * num_thresholds)] += 1
    area, tp, fp = 0.0, 0.0, 0.0
    for b in range(num_thresholds, -1, -1):
        new_tp, new_fp = tp + pos[b], fp + neg[b]
        area += (new_fp - fp) * (new_tp + tp) / 2
        tp, fp = new_tp, new_fp
    return area / tp / fp


@pytest.mark.parametrize("num_thresholds,expected", [(4095, 0.62), (3, 0.72)])  # Paddle 3.3.1
def test_auc_matches_paddle(num_thresholds, expected):
    m = metric.Auc(num_thresholds=num_thresholds)
    m.update(np.stack([1 - PROBS, PROBS], 1), TRUTH.reshape(-1, 1))
    assert m.accumulate() == pytest.approx(expected, abs=1e-12)
    assert m.name() == "auc"


def test_auc_against_the_formula_over_batches():
    rng = np.random.default_rng(0)
    probs, labels = rng.random(300), rng.random(300) < 0.4
    m = metric.Auc(num_thresholds=200)
    for i in range(0, 300, 100):
        batch = probs[i:i + 100]
        m.update(paddle.to_tensor(np.stack([1 - batch, batch], 1)),
                 paddle.to_tensor(labels[i:i + 100].astype(np.int64)))
    assert m.accumulate() == pytest.approx(auc_reference(probs, labels, 200), rel=1e-12)
    m.reset()
    assert m.accumulate() == 0.0


def test_auc_errors_and_one_class():
    m = metric.Auc()
    m.update(np.array([[0.2, 0.8], [0.9, 0.1]]), np.array([1, 1]))
    assert m.accumulate() == 0.0  # no negatives: the area is undefined, Paddle gives 0
    with pytest.raises(ValueError, match=r"preds must have shape \[N, 2\]"):
        m.update(np.array([0.2, 0.8]), np.array([1, 0]))
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        m.update(np.array([[0.2, 1.5]]), np.array([1]))
    with pytest.raises(ValueError, match="only curve='ROC'"):
        metric.Auc(curve="PR")
