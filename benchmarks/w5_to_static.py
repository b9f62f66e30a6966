"""W5 of ../shared/ANCHORS.md: seed 000's MyModel without its random branch (Linear
128-256, ReLU, Linear 256-256, ReLU, Linear 256-1, MSE, SGD lr 0.01, batch 64), trained for
3,000 steps eagerly and through ``paddle.jit.to_static``, on each installed engine.

Prints steps/s of both and their ratio (to_static / eager). Run it once, as a script:
``env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE OMP_NUM_THREADS=1 python benchmarks/w5_to_static.py``
"""

from __future__ import annotations

import time

import numpy as np

STEPS, BATCH, TOTAL = 3000, 64, 1000


def train(paddle, static: bool) -> float:
    """Steps per second of the training loop."""
    rs = np.random.RandomState(0)
    x_data = rs.randn(TOTAL, 128).astype(np.float32)
    y_data = rs.randn(TOTAL, 1).astype(np.float32)
    idx = [rs.choice(TOTAL, BATCH, replace=False) for _ in range(STEPS)]
    paddle.seed(0)
    F = paddle.nn.functional

    class MyModel(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.linear1 = paddle.nn.Linear(128, 256)
            self.linear2 = paddle.nn.Linear(256, 256)
            self.linear3 = paddle.nn.Linear(256, 1)

        def forward(self, x):
            x = F.relu(self.linear1(x))
            x = F.relu(self.linear2(x))
            return self.linear3(x)

    model = MyModel()
    loss_fn = paddle.nn.MSELoss(reduction="mean")
    opt = paddle.optimizer.SGD(learning_rate=0.01, parameters=model.parameters())

    def loss_of(x, y):
        return loss_fn(model(x), y)
    if static:
        loss_of = paddle.jit.to_static(loss_of)
    start = time.perf_counter()
    for t in range(STEPS):
        x, y = paddle.to_tensor(x_data[idx[t]]), paddle.to_tensor(y_data[idx[t]])
        loss = loss_of(x, y)
        loss.backward()
        opt.step()
        opt.clear_grad()
    float(loss)
    return STEPS / (time.perf_counter() - start)


def main():
    import dygrad as paddle
    for engine in paddle.available_engines():
        paddle.set_engine(engine)
        eager = train(paddle, False)
        static = train(paddle, True)
        print(f"{engine:12s} eager {eager:8.1f} steps/s   to_static {static:8.1f} steps/s   "
              f"ratio {static / eager:.2f}")


if __name__ == "__main__":
    main()
