"""Vision models and layers: LeNet as Paddle's (structure, state_dict, a Paddle-computed
output)."""

import numpy as np

import dygrad as paddle
from dygrad.vision.models import LeNet

# parameter names and shapes of Paddle 3.3.1's LeNet().state_dict()
PADDLE_LENET = [("features.0.weight", [6, 1, 3, 3]), ("features.0.bias", [6]),
                ("features.3.weight", [16, 6, 5, 5]), ("features.3.bias", [16]),
                ("fc.0.weight", [400, 120]), ("fc.0.bias", [120]),
                ("fc.1.weight", [120, 84]), ("fc.1.bias", [84]),
                ("fc.2.weight", [84, 10]), ("fc.2.bias", [10])]


def test_lenet_state_dict_matches_paddle():
    model = LeNet()
    assert [(k, v.shape) for k, v in model.state_dict().items()] == PADDLE_LENET
    assert paddle.vision.models.LeNet is LeNet


def test_lenet_output_from_a_paddle_state_dict():
    """Weights sin(0.37 k + i) * 0.2 for the i-th entry, input cos(0.11 k); the expected
    output was computed by Paddle 3.3.1's LeNet with the same state dict."""
    model = LeNet()
    state = {}
    for i, (name, shape) in enumerate(PADDLE_LENET):
        n = int(np.prod(shape))
        state[name] = (np.sin(np.arange(n) * 0.37 + i) * 0.2).reshape(shape).astype("float32")
    model.set_state_dict(state)
    x = np.cos(np.arange(2 * 28 * 28) * 0.11).reshape(2, 1, 28, 28).astype("float32")
    out = model(paddle.to_tensor(x))
    want = [[-0.2666148, -0.35238168, -0.39045548, -0.37568313, -0.31006396, -0.2024788,
             -0.06748916, 0.07663479, 0.21038665, 0.31566378],
            [0.07714964, -0.00753147, -0.09119317, -0.16251253, -0.21183687, -0.23248947,
             -0.22167599, -0.18085967, -0.11556451, -0.03462895]]
    np.testing.assert_allclose(out.numpy(), want, rtol=1e-4, atol=1e-5)


def test_lenet_without_classifier_and_training_step():
    features = LeNet(num_classes=0)
    assert not hasattr(features, "fc")
    assert features(paddle.rand([3, 1, 28, 28])).shape == [3, 16, 5, 5]
    paddle.seed(1)
    model = LeNet(num_classes=4)
    opt = paddle.optimizer.Adam(1e-3, parameters=model.parameters())
    x, y = paddle.rand([8, 1, 28, 28]), paddle.rand([8, 4])
    losses = []
    for _ in range(4):
        loss = ((model(x) - y) ** 2).mean()
        loss.backward()
        opt.step()
        opt.clear_grad()
        losses.append(float(loss))
    assert losses[-1] < losses[0]


def test_lenet_repr_as_paddle():
    # Paddle 3.3.1 prints the same lines
    lines = repr(LeNet()).splitlines()
    assert lines[2] == "    (0): Conv2D(1, 6, kernel_size=[3, 3], padding=1, data_format=NCHW)"
    assert lines[4] == "    (2): MaxPool2D(kernel_size=2, stride=2, padding=0)"
    assert lines[5] == "    (3): Conv2D(6, 16, kernel_size=[5, 5], data_format=NCHW)"
