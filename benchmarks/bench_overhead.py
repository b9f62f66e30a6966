"""Per-op overhead (W1): ops on [4, 2] float32 tensors, where dispatch, the tape and the
backward walk cost more than the arithmetic; per engine."""

from .workloads import ENGINES, framework, w1_inputs, w1_paddle


class OpOverhead:
    """Ops on tensors that require gradients: each records a node of the tape."""

    params = [ENGINES]
    param_names = ["engine"]

    def setup(self, engine):
        self.paddle = framework(engine)
        self.a, self.b = w1_paddle(self.paddle)
        self.w = self.paddle.to_tensor(self.a.numpy()[:2], stop_gradient=False)  # [2, 2]

    def time_add(self, engine):
        """W1: ``c = a + b``."""
        self.a + self.b

    def time_matmul(self, engine):
        """``matmul(a, w)``, [4, 2] x [2, 2]."""
        self.paddle.matmul(self.a, self.w)

    def time_forward_backward(self, engine):
        """A small graph, ``((a + b) * a).sum()``, built and walked back (the gradients of
        a and b accumulate across calls, as without clear_grad)."""
        ((self.a + self.b) * self.a).sum().backward()

    def time_greater_than(self, engine):
        """``greater_than(a, b)``: not differentiable, so nothing is recorded; a and b were
        marked as cut there on the first call (dygrad.autograd.explain), later calls only
        look."""
        self.paddle.greater_than(self.a, self.b)


class OpOverheadNoGrad:
    """``c = a + b`` under no_grad: dispatch alone, nothing recorded. a and b require
    gradients, so dygrad marks them as cut there (dygrad.autograd.explain) on the first call
    and later calls only look; ``time_add_data`` adds tensors that need no gradient."""

    params = [ENGINES]
    param_names = ["engine"]

    def setup(self, engine):
        paddle = framework(engine)
        self.a, self.b = w1_paddle(paddle)
        self.x, self.y = (paddle.to_tensor(v) for v in w1_inputs())
        self.no_grad = paddle.no_grad()
        self.no_grad.__enter__()

    def teardown(self, engine):
        self.no_grad.__exit__(None, None, None)

    def time_add(self, engine):
        self.a + self.b

    def time_add_data(self, engine):
        self.x + self.y


class AnomalyModeOverhead:
    """The cost of anomaly mode (``detect_anomaly``, ``FLAGS_check_nan_inf``) on W1's ops:
    "off" is the plain path (the mode swaps dispatch's apply in and out, so it costs nothing
    when off), "on" checks every output for NaN/Inf and records each op's line and Layer."""

    params = [ENGINES, ["off", "on"]]
    param_names = ["engine", "anomaly"]

    def setup(self, engine, anomaly):
        self.paddle = framework(engine)
        self.a, self.b = w1_paddle(self.paddle)
        self.mode = self.paddle.autograd.detect_anomaly() if anomaly == "on" else None
        if self.mode is not None:
            self.mode.__enter__()

    def teardown(self, engine, anomaly):
        if self.mode is not None:
            self.mode.__exit__(None, None, None)

    def time_add(self, engine, anomaly):
        """W1: ``c = a + b``."""
        self.a + self.b

    def time_forward_backward(self, engine, anomaly):
        """``((a + b) * a).sum()`` built and walked back."""
        ((self.a + self.b) * self.a).sum().backward()
