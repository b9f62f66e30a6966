"""The hot kernels of the seed workloads, called through the engine's kernel table (no
dispatch, no tape), at the seeds' sizes, per engine."""

import numpy as np

from .workloads import ENGINES, W2_HIDDEN, W2_INPUT, W4_BATCH, framework

# LeNet (W4): one digit's input [C, H, W] and the filter [O, C, K, K] of each convolution, and
# one digit's input of each max pooling (2 x 2, stride 2). The benchmarks take `batch` digits.
CONVS = {"conv1": ((1, 28, 28), (20, 1, 5, 5)), "conv2": ((20, 12, 12), (50, 20, 5, 5))}
POOLS = {"pool1": (20, 24, 24), "pool2": (50, 8, 8)}


def kernels(engine):
    """The kernel table of ``engine`` (NotImplementedError when it is not installed)."""
    framework(engine)
    from dygrad._core.engine import current
    return current().kernels


def _rand(*shape):
    return np.random.default_rng(0).standard_normal(shape, dtype=np.float32)


class Conv2D:
    """conv2d forward and its input and filter gradients at LeNet's two convolutions."""

    params = [ENGINES, list(CONVS)]
    param_names = ["engine", "layer"]
    batch = W4_BATCH

    def setup(self, engine, layer):
        self.k = kernels(engine)
        x_shape, w_shape = CONVS[layer]
        self.x, self.w = _rand(self.batch, *x_shape), _rand(*w_shape)
        self.out_grad = _rand(*self.k["conv2d"](self.x, self.w).shape)

    def time_forward(self, engine, layer):
        self.k["conv2d"](self.x, self.w)

    def time_grad_input(self, engine, layer):
        self.k["conv2d_grad_input"](self.out_grad, self.w, input_size=self.x.shape[2:])

    def time_grad_filter(self, engine, layer):
        self.k["conv2d_grad_filter"](self.x, self.out_grad, filter_size=self.w.shape[2:])


class MaxPool2D:
    """max_pool2d 2 x 2, stride 2, forward (maxima and their positions) and backward."""

    params = [ENGINES, list(POOLS)]
    param_names = ["engine", "layer"]
    batch = W4_BATCH
    attrs = {"kernel_size": (2, 2), "strides": (2, 2)}

    def setup(self, engine, layer):
        self.k = kernels(engine)
        self.x = _rand(self.batch, *POOLS[layer])
        out, self.mask = self.k["max_pool2d"](self.x, **self.attrs)
        self.out_grad = _rand(*out.shape)

    def time_forward(self, engine, layer):
        self.k["max_pool2d"](self.x, **self.attrs)

    def time_backward(self, engine, layer):
        self.k["max_pool2d_grad"](self.out_grad, self.mask, input_size=self.x.shape[2:])


class SoftmaxWithCrossEntropy:
    """LeNet's loss: [batch, 10] logits, hard labels; forward and backward."""

    params = [ENGINES]
    param_names = ["engine"]
    batch = W4_BATCH

    def setup(self, engine):
        self.k = kernels(engine)
        self.logits = _rand(self.batch, 10)
        self.label = np.random.default_rng(1).integers(0, 10, (self.batch, 1))
        self.softmax, loss = self.k["softmax_with_cross_entropy"](self.logits, self.label)
        self.loss_grad = np.full(loss.shape, 1 / self.batch, dtype=np.float32)

    def time_forward(self, engine):
        self.k["softmax_with_cross_entropy"](self.logits, self.label)

    def time_backward(self, engine):
        self.k["softmax_with_cross_entropy_grad"](self.softmax, self.label, self.loss_grad)


class BatchNorm:
    """batch_norm in training mode on LeNet's first activation [batch, 20, 24, 24]; forward
    and backward."""

    params = [ENGINES]
    param_names = ["engine"]
    batch = W4_BATCH

    def setup(self, engine):
        self.k = kernels(engine)
        self.x = _rand(self.batch, *POOLS["pool1"])
        c = self.x.shape[1]
        self.stats = (np.zeros(c, np.float32), np.ones(c, np.float32))
        self.weight, self.bias = np.ones(c, np.float32), np.zeros(c, np.float32)
        _, _, _, self.mean, self.inv_std = self.k["batch_norm"](
            self.x, *self.stats, self.weight, self.bias, training=True)
        self.out_grad = _rand(*self.x.shape)

    def time_forward(self, engine):
        self.k["batch_norm"](self.x, *self.stats, self.weight, self.bias, training=True)

    def time_backward(self, engine):
        self.k["batch_norm_grad"](self.x, self.weight, self.mean, self.inv_std, self.out_grad)


class AdamUpdate:
    """adam_ over W2's parameters (Linear 128-256-256-1: weights and biases), one call each."""

    params = [ENGINES]
    param_names = ["engine"]
    shapes = [(W2_INPUT, W2_HIDDEN), (W2_HIDDEN,), (W2_HIDDEN, W2_HIDDEN), (W2_HIDDEN,),
              (W2_HIDDEN, 1), (1,)]

    def setup(self, engine):
        self.k = kernels(engine)
        lr = np.full(1, 0.001, np.float32)
        self.states = [(_rand(*s), _rand(*s), lr, np.zeros(s, np.float32),
                        np.zeros(s, np.float32), np.full(1, 0.9, np.float32),
                        np.full(1, 0.999, np.float32)) for s in self.shapes]

    def time_update(self, engine):
        for state in self.states:
            self.k["adam_"](*state)
