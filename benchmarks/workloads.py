"""The seed workloads W1-W4 (../shared/ANCHORS.md), defined once for ``compare.py`` and the asv
benchmarks (``bench_*.py``).

Each workload has a builder for the Paddle API (``*_paddle``: dygrad on an engine, or
PaddlePaddle itself) and one for PyTorch (``*_torch``), which ``compare.py`` runs as the peer.
A builder takes the framework's module, makes the model, optimizer and data from fixed seeds
and returns what one step needs; the caller times the steps. Importing this module imports
NumPy only (compare.py's workers for PyTorch and Paddle run without dygrad).
"""

from __future__ import annotations

import numpy as np

W2_TOTAL_DATA, W2_BATCH, W2_INPUT, W2_HIDDEN = 1000, 64, 128, 256
W4_BATCH, W4_EVAL_BATCH, W4_TRAIN = 64, 1000, 4000
ENGINES = ["reference", "accelerated"]   # the dygrad engines the asv benchmarks compare


def framework(name: str):
    """The module a workload runs on: ``torch``, ``paddle`` (on the CPU), or dygrad with the
    engine ``name`` selected. An engine that is not installed raises NotImplementedError,
    which asv reports as a skipped benchmark."""
    if name == "torch":
        import torch
        return torch
    if name == "paddle":
        import paddle
        paddle.set_device("cpu")
        return paddle
    import dygrad
    if name not in dygrad.available_engines():
        raise NotImplementedError(f"the {name!r} engine is not installed")
    dygrad.set_engine(name)
    return dygrad


# -- W1: c = a + b on [4, 2] float32 tensors that require gradients ----------------------

def w1_inputs():
    """The two [4, 2] float32 arrays."""
    rng = np.random.default_rng(0)
    return rng.random((4, 2), dtype=np.float32), rng.random((4, 2), dtype=np.float32)


def w1_paddle(paddle):
    """a, b as tensors that require gradients."""
    return tuple(paddle.to_tensor(v, stop_gradient=False) for v in w1_inputs())


def w1_torch(torch):
    return tuple(torch.tensor(v, requires_grad=True) for v in w1_inputs())


# -- W2: seed 000's MyModel with its random branch, SGD, batch 64 -------------------------

def w2_data(steps: int):
    """Inputs, targets, the rows of each step's batch and each step's branch."""
    rs = np.random.RandomState(0)
    x = rs.randn(W2_TOTAL_DATA, W2_INPUT).astype(np.float32)
    y = rs.randn(W2_TOTAL_DATA, 1).astype(np.float32)
    idx = [rs.choice(W2_TOTAL_DATA, W2_BATCH, replace=False) for _ in range(steps)]
    return x, y, idx, rs.rand(steps) > 0.5


def w2_paddle(paddle, steps: int):
    """``step(t)``: training step ``t`` (< steps), returning the loss."""
    x_data, y_data, idx, branch = w2_data(steps)
    paddle.seed(0)
    F = paddle.nn.functional

    class MyModel(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.linear1 = paddle.nn.Linear(W2_INPUT, W2_HIDDEN)
            self.linear2 = paddle.nn.Linear(W2_HIDDEN, W2_HIDDEN)
            self.linear3 = paddle.nn.Linear(W2_HIDDEN, 1)

        def forward(self, x, take):
            x = F.relu(self.linear1(x))
            if take:
                x = F.relu(self.linear2(x))
            return self.linear3(x)

    model = MyModel()
    loss_fn = paddle.nn.MSELoss(reduction="mean")
    opt = paddle.optimizer.SGD(learning_rate=0.01, parameters=model.parameters())

    def step(t):
        x, y = paddle.to_tensor(x_data[idx[t]]), paddle.to_tensor(y_data[idx[t]])
        loss = loss_fn(model(x, branch[t]), y)
        loss.backward()
        opt.step()
        opt.clear_grad()
        return loss
    return step


def w2_torch(torch, steps: int):
    x_data, y_data, idx, branch = w2_data(steps)
    torch.manual_seed(0)

    class MyModel(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.linear1 = torch.nn.Linear(W2_INPUT, W2_HIDDEN)
            self.linear2 = torch.nn.Linear(W2_HIDDEN, W2_HIDDEN)
            self.linear3 = torch.nn.Linear(W2_HIDDEN, 1)

        def forward(self, x, take):
            x = torch.relu(self.linear1(x))
            if take:
                x = torch.relu(self.linear2(x))
            return self.linear3(x)

    model = MyModel()
    loss_fn = torch.nn.MSELoss()
    opt = torch.optim.SGD(model.parameters(), lr=0.01)

    def step(t):
        x, y = torch.from_numpy(x_data[idx[t]]), torch.from_numpy(y_data[idx[t]])
        loss = loss_fn(model(x, branch[t]), y)
        loss.backward()
        opt.step()
        opt.zero_grad()
        return loss
    return step


# -- W3: seed 000's shared-weight autoencoder, Adam ----------------------------------------

def w3_inputs():
    return np.random.RandomState(0).rand(256, 64).astype(np.float32)


def w3_paddle(paddle):
    """``step()``: one training step, returning the loss."""
    paddle.seed(0)
    inputs = paddle.to_tensor(w3_inputs())
    linear = paddle.nn.Linear(64, 8, bias_attr=False)
    loss_fn = paddle.nn.MSELoss()
    opt = paddle.optimizer.Adam(0.01, parameters=linear.parameters())

    def step():
        hidden = linear(inputs)
        outputs = paddle.matmul(hidden, linear.weight, transpose_y=True)
        loss = loss_fn(outputs, inputs)
        loss.backward()
        opt.step()
        opt.clear_grad()
        return loss
    return step


def w3_torch(torch):
    torch.manual_seed(0)
    inputs = torch.from_numpy(w3_inputs())
    linear = torch.nn.Linear(64, 8, bias=False)
    loss_fn = torch.nn.MSELoss()
    opt = torch.optim.Adam(linear.parameters(), lr=0.01)

    def step():
        hidden = linear(inputs)
        outputs = torch.matmul(hidden, linear.weight)
        loss = loss_fn(outputs, inputs)
        loss.backward()
        opt.step()
        opt.zero_grad()
        return loss
    return step


# -- W4: seed 002's LeNet, Adam, batch 64; eval with batch 1,000 ---------------------------

def mnist_split():
    """The shipped 5,000-digit subset (stored sorted by label) shuffled with a fixed seed:
    4,000 training and 1,000 test digits scaled to [0, 1], as xtr, ytr, xte, yte."""
    from dygrad.vision.datasets.mnist import _shipped_subset
    images, labels = _shipped_subset()
    order = np.random.RandomState(0).permutation(len(images))
    x = (images[order].astype(np.float32) / 255.0).reshape(-1, 1, 28, 28)
    y = labels[order].astype(np.int64)
    return x[:W4_TRAIN], y[:W4_TRAIN], x[W4_TRAIN:], y[W4_TRAIN:]


def w4_batches(n: int):
    """The rows of each training batch of one epoch over ``n`` digits, in a fixed order."""
    order = np.random.RandomState(0).permutation(n)
    return [order[i:i + W4_BATCH] for i in range(0, n - W4_BATCH + 1, W4_BATCH)]


def w4_paddle(paddle):
    """``(model, train, predict)``: ``train(x, y)`` is one Adam step on NumPy images and
    labels, returning the loss; ``predict(x)`` the classes under no_grad (call
    ``model.eval()`` first)."""
    paddle.seed(0)
    nn = paddle.nn
    model = nn.Sequential(nn.Conv2D(1, 20, 5), nn.ReLU(), nn.MaxPool2D(2, 2),
                          nn.Conv2D(20, 50, 5), nn.ReLU(), nn.MaxPool2D(2, 2),
                          nn.Flatten(), nn.Linear(800, 10))
    opt = paddle.optimizer.Adam(learning_rate=0.001, parameters=model.parameters())
    loss_fn = nn.CrossEntropyLoss()

    def train(x, y):
        loss = loss_fn(model(paddle.to_tensor(x)), paddle.to_tensor(y))
        loss.backward()
        opt.step()
        opt.clear_grad()
        return loss

    def predict(x):
        with paddle.no_grad():
            return model(paddle.to_tensor(x)).numpy().argmax(axis=1)
    return model, train, predict


def w4_torch(torch):
    torch.manual_seed(0)
    nn = torch.nn
    model = nn.Sequential(nn.Conv2d(1, 20, 5), nn.ReLU(), nn.MaxPool2d(2, 2),
                          nn.Conv2d(20, 50, 5), nn.ReLU(), nn.MaxPool2d(2, 2),
                          nn.Flatten(), nn.Linear(800, 10))
    opt = torch.optim.Adam(model.parameters(), lr=0.001)
    loss_fn = nn.CrossEntropyLoss()

    def train(x, y):
        loss = loss_fn(model(torch.from_numpy(x)), torch.from_numpy(y))
        loss.backward()
        opt.step()
        opt.zero_grad()
        return loss

    def predict(x):
        with torch.no_grad():
            return model(torch.from_numpy(x)).numpy().argmax(axis=1)
    return model, train, predict
