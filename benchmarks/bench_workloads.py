"""The seed workloads W2-W4 (workloads.py) per engine: a fixed small number of training steps
from the same start, the LeNet evaluation batch, and LeNet's peak memory."""

from . import workloads
from .workloads import ENGINES, framework


class W2MyModel:
    """Seed 000's MyModel with its random branch, SGD, batch 64."""

    params = [ENGINES]
    param_names = ["engine"]
    steps = 10

    def setup(self, engine):
        self.step = workloads.w2_paddle(framework(engine), self.steps)

    def time_steps(self, engine):
        for t in range(self.steps):
            self.step(t)


class W3Autoencoder:
    """Seed 000's shared-weight autoencoder, Adam."""

    params = [ENGINES]
    param_names = ["engine"]
    steps = 20

    def setup(self, engine):
        self.step = workloads.w3_paddle(framework(engine))

    def time_steps(self, engine):
        for _ in range(self.steps):
            self.step()


class W4LeNetTrain:
    """Seed 002's LeNet, Adam: training steps of batch 64 over MNIST digits."""

    params = [ENGINES]
    param_names = ["engine"]
    steps = 2
    batch = workloads.W4_BATCH
    timeout = 180   # seconds for all of asv's repeats; the reference engine takes seconds a call

    def setup(self, engine):
        xtr, ytr, _, _ = workloads.mnist_split()
        n = self.steps * self.batch
        self.x, self.y = xtr[:n], ytr[:n]
        _, self.train, _ = workloads.w4_paddle(framework(engine))

    def _run(self):
        for i in range(0, len(self.x), self.batch):
            self.train(self.x[i:i + self.batch], self.y[i:i + self.batch])

    def time_steps(self, engine):
        self._run()

    def peakmem_steps(self, engine):
        """The process's peak resident memory over the steps."""
        self._run()


class W4LeNetEval:
    """Seed 002's LeNet in eval mode: one batch of 1,000 test digits under no_grad."""

    params = [ENGINES]
    param_names = ["engine"]
    batch = workloads.W4_EVAL_BATCH
    timeout = 180

    def setup(self, engine):
        _, _, xte, _ = workloads.mnist_split()
        self.x = xte[:self.batch]
        model, _, self.predict = workloads.w4_paddle(framework(engine))
        model.eval()

    def time_batch(self, engine):
        self.predict(self.x)
