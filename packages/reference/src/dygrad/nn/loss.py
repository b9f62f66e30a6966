"""Loss layers: each holds its options and calls its paddle.nn.functional counterpart."""

from __future__ import annotations

from . import functional as F
from .functional.loss import check_reduction
from .layer import Layer


class _Loss(Layer):
    """A loss layer with a checked ``reduction``."""

    def __init__(self, reduction, api, allowed=("sum", "mean", "none")):
        check_reduction(reduction, api, allowed)
        super().__init__()
        self.reduction = reduction


class MSELoss(_Loss):
    """Mean squared error: ``MSELoss()(input, label)`` is F.mse_loss with this reduction."""

    def __init__(self, reduction="mean"):
        super().__init__(reduction, "MSELoss")

    def forward(self, input, label):
        return F.mse_loss(input, label, self.reduction)


class L1Loss(_Loss):
    """Mean absolute error, as F.l1_loss."""

    def __init__(self, reduction="mean", name=None):
        super().__init__(reduction, "L1Loss")

    def forward(self, input, label):
        return F.l1_loss(input, label, self.reduction)


class SmoothL1Loss(_Loss):
    """The Huber loss with threshold ``delta``, as F.smooth_l1_loss."""

    def __init__(self, reduction="mean", delta=1.0, name=None):
        super().__init__(reduction, "SmoothL1Loss")
        self.delta = delta

    def forward(self, input, label):
        return F.smooth_l1_loss(input, label, self.reduction, self.delta)


HuberLoss = SmoothL1Loss  # Paddle's name for the same class (paddle.nn.HuberLoss is SmoothL1Loss)


class CrossEntropyLoss(_Loss):
    """Softmax cross-entropy with class weights, ignore_index and label smoothing, as
    F.cross_entropy."""

    def __init__(self, weight=None, ignore_index=-100, reduction="mean", soft_label=False,
                 axis=-1, use_softmax=True, label_smoothing=0.0, name=None):
        super().__init__(reduction, "CrossEntropyLoss")
        self.weight = weight
        self.ignore_index = ignore_index
        self.soft_label = soft_label
        self.axis = axis
        self.use_softmax = use_softmax
        self.label_smoothing = label_smoothing

    def forward(self, input, label):
        return F.cross_entropy(input, label, weight=self.weight, ignore_index=self.ignore_index,
                               reduction=self.reduction, soft_label=self.soft_label,
                               axis=self.axis, use_softmax=self.use_softmax,
                               label_smoothing=self.label_smoothing)


class NLLLoss(_Loss):
    """Negative log-likelihood of log-probabilities, as F.nll_loss."""

    def __init__(self, weight=None, ignore_index=-100, reduction="mean", name=None):
        super().__init__(reduction, "NLLLoss")
        self.weight = weight
        self.ignore_index = ignore_index

    def forward(self, input, label):
        return F.nll_loss(input, label, self.weight, self.ignore_index, self.reduction)


class BCELoss(_Loss):
    """Binary cross-entropy of probabilities, as F.binary_cross_entropy."""

    def __init__(self, weight=None, reduction="mean", name=None):
        super().__init__(reduction, "BCELoss")
        self.weight = weight

    def forward(self, input, label):
        return F.binary_cross_entropy(input, label, self.weight, self.reduction)


class BCEWithLogitsLoss(_Loss):
    """Binary cross-entropy of logits, as F.binary_cross_entropy_with_logits."""

    def __init__(self, weight=None, reduction="mean", pos_weight=None, name=None):
        super().__init__(reduction, "BCEWithLogitsLoss")
        self.weight = weight
        self.pos_weight = pos_weight

    def forward(self, logit, label):
        return F.binary_cross_entropy_with_logits(logit, label, self.weight, self.reduction,
                                                  self.pos_weight)


class KLDivLoss(_Loss):
    """Kullback-Leibler divergence of log-probabilities, as F.kl_div."""

    def __init__(self, reduction="mean", log_target=False):
        super().__init__(reduction, "KLDivLoss", ("mean", "batchmean", "sum", "none"))
        self.log_target = log_target

    def forward(self, input, label):
        return F.kl_div(input, label, self.reduction, self.log_target)


class MarginRankingLoss(_Loss):
    """max(0, -label * (input - other) + margin), as F.margin_ranking_loss."""

    def __init__(self, margin=0.0, reduction="mean", name=None):
        super().__init__(reduction, "MarginRankingLoss")
        self.margin = margin

    def forward(self, input, other, label):
        return F.margin_ranking_loss(input, other, label, self.margin, self.reduction)


class CosineEmbeddingLoss(_Loss):
    """Cosine similarity loss of pairs, as F.cosine_embedding_loss."""

    def __init__(self, margin=0, reduction="mean", name=None):
        super().__init__(reduction, "CosineEmbeddingLoss")
        self.margin = margin

    def forward(self, input1, input2, label):
        return F.cosine_embedding_loss(input1, input2, label, self.margin, self.reduction)


class CTCLoss(_Loss):
    """Connectionist temporal classification, as F.ctc_loss."""

    def __init__(self, blank=0, reduction="mean"):
        super().__init__(reduction, "CTCLoss")
        self.blank = blank

    def forward(self, log_probs, labels, input_lengths, label_lengths, norm_by_times=False):
        return F.ctc_loss(log_probs, labels, input_lengths, label_lengths, self.blank,
                          self.reduction, norm_by_times)


class SoftMarginLoss(_Loss):
    """log(1 + exp(-label * input)), as F.soft_margin_loss."""

    def __init__(self, reduction="mean", name=None):
        super().__init__(reduction, "SoftMarginLoss")

    def forward(self, input, label):
        return F.soft_margin_loss(input, label, self.reduction)


class HingeEmbeddingLoss(_Loss):
    """input for label 1, max(0, margin - input) for label -1, as F.hinge_embedding_loss."""

    def __init__(self, margin=1.0, reduction="mean", name=None):
        super().__init__(reduction, "HingeEmbeddingLoss")
        self.margin = margin

    def forward(self, input, label):
        return F.hinge_embedding_loss(input, label, self.margin, self.reduction)


class MultiLabelSoftMarginLoss(_Loss):
    """Per-class logistic loss averaged over classes, as F.multi_label_soft_margin_loss."""

    def __init__(self, weight=None, reduction="mean", name=None):
        super().__init__(reduction, "MultiLabelSoftMarginLoss")
        self.weight = weight

    def forward(self, input, label):
        return F.multi_label_soft_margin_loss(input, label, self.weight, self.reduction)


class MultiMarginLoss(_Loss):
    """The multi-class hinge loss, as F.multi_margin_loss."""

    def __init__(self, p=1, margin=1.0, weight=None, reduction="mean", name=None):
        super().__init__(reduction, "MultiMarginLoss")
        self.p, self.margin, self.weight = p, margin, weight

    def forward(self, input, label):
        return F.multi_margin_loss(input, label, self.p, self.margin, self.weight,
                                   self.reduction)


class TripletMarginLoss(_Loss):
    """The triplet loss with p-norm distances, as F.triplet_margin_loss."""

    def __init__(self, margin=1.0, p=2.0, epsilon=1e-06, swap=False, reduction="mean",
                 name=None):
        super().__init__(reduction, "TripletMarginLoss")
        self.margin, self.p, self.epsilon, self.swap = margin, p, epsilon, swap

    def forward(self, input, positive, negative):
        return F.triplet_margin_loss(input, positive, negative, self.margin, self.p,
                                     self.epsilon, self.swap, self.reduction)


class TripletMarginWithDistanceLoss(_Loss):
    """The triplet loss with a distance function, as F.triplet_margin_with_distance_loss."""

    def __init__(self, distance_function=None, margin=1.0, swap=False, reduction="mean",
                 name=None):
        super().__init__(reduction, "TripletMarginWithDistanceLoss")
        self.distance_function, self.margin, self.swap = distance_function, margin, swap

    def forward(self, input, positive, negative):
        return F.triplet_margin_with_distance_loss(input, positive, negative,
                                                   self.distance_function, self.margin,
                                                   self.swap, self.reduction)


class PoissonNLLLoss(_Loss):
    """The Poisson negative log-likelihood, as F.poisson_nll_loss."""

    def __init__(self, log_input=True, full=False, epsilon=1e-08, reduction="mean",
                 name=None):
        if epsilon <= 0:
            raise ValueError(f"PoissonNLLLoss: epsilon must be positive, got {epsilon}")
        super().__init__(reduction, "PoissonNLLLoss")
        self.log_input, self.full, self.epsilon = log_input, full, epsilon

    def forward(self, input, label):
        return F.poisson_nll_loss(input, label, self.log_input, self.full, self.epsilon,
                                  self.reduction)


class GaussianNLLLoss(_Loss):
    """The Gaussian negative log-likelihood, as F.gaussian_nll_loss."""

    def __init__(self, full=False, epsilon=1e-06, reduction="mean", name=None):
        super().__init__(reduction, "GaussianNLLLoss")
        self.full, self.epsilon = full, epsilon

    def forward(self, input, label, variance):
        return F.gaussian_nll_loss(input, label, variance, self.full, self.epsilon,
                                   self.reduction)


__all__ = ["MSELoss", "L1Loss", "SmoothL1Loss", "HuberLoss", "CrossEntropyLoss", "NLLLoss", "BCELoss",
           "BCEWithLogitsLoss", "KLDivLoss", "MarginRankingLoss", "CosineEmbeddingLoss",
           "CTCLoss", "SoftMarginLoss", "HingeEmbeddingLoss", "MultiLabelSoftMarginLoss",
           "MultiMarginLoss", "TripletMarginLoss", "TripletMarginWithDistanceLoss",
           "PoissonNLLLoss", "GaussianNLLLoss"]
