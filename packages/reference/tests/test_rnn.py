"""Recurrent layers: cells against NumPy statements of their formulas, gradients by finite
differences, shapes, sequence_length masking, Paddle's parameter names and values."""

import itertools

import numpy as np
import pytest

import dygrad as paddle
from dygrad import nn


def sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


def np_simple(x, h, w_ih, w_hh, b_ih, b_hh, act=np.tanh):
    return act(x @ w_ih.T + b_ih + h @ w_hh.T + b_hh)


def np_lstm(x, h, c, w_ih, w_hh, b_ih, b_hh):
    """Gate rows i, f, g, o (Paddle's order)."""
    i, f, g, o = np.split(x @ w_ih.T + b_ih + h @ w_hh.T + b_hh, 4, axis=-1)
    c2 = sigmoid(f) * c + sigmoid(i) * np.tanh(g)
    return sigmoid(o) * np.tanh(c2), c2


def np_gru(x, h, w_ih, w_hh, b_ih, b_hh):
    """Gate rows r, z, c; the reset gate multiplies h @ W_hc^T + b_hc (as cuDNN)."""
    x_r, x_z, x_c = np.split(x @ w_ih.T + b_ih, 3, axis=-1)
    h_r, h_z, h_c = np.split(h @ w_hh.T + b_hh, 3, axis=-1)
    r, z = sigmoid(x_r + h_r), sigmoid(x_z + h_z)
    c = np.tanh(x_c + r * h_c)
    return z * h + (1 - z) * c


def weights(cell):
    return [p.numpy() for p in (cell.weight_ih, cell.weight_hh, cell.bias_ih, cell.bias_hh)]


def test_simple_rnn_cell_matches_numpy():
    rng = np.random.default_rng(0)
    x, h = rng.standard_normal((3, 5)), rng.standard_normal((3, 4))
    for act, np_act in (("tanh", np.tanh), ("relu", lambda v: np.maximum(v, 0))):
        cell = nn.SimpleRNNCell(5, 4, activation=act)
        out, new_h = cell(paddle.to_tensor(x, "float32"), paddle.to_tensor(h, "float32"))
        expected = np_simple(x, h, *weights(cell), act=np_act)
        np.testing.assert_allclose(out.numpy(), expected, rtol=1e-5, atol=1e-6)
        assert new_h is out
        zero_state, _ = cell(paddle.to_tensor(x, "float32"))
        np.testing.assert_allclose(zero_state.numpy(), np_simple(x, 0 * h, *weights(cell),
                                                                 act=np_act), atol=1e-6)


def test_lstm_cell_matches_numpy():
    rng = np.random.default_rng(1)
    x, h, c = rng.standard_normal((3, 5)), rng.standard_normal((3, 4)), rng.standard_normal((3, 4))
    cell = nn.LSTMCell(5, 4)
    out, (new_h, new_c) = cell(paddle.to_tensor(x, "float32"),
                               (paddle.to_tensor(h, "float32"), paddle.to_tensor(c, "float32")))
    eh, ec = np_lstm(x, h, c, *weights(cell))
    np.testing.assert_allclose(out.numpy(), eh, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(new_h.numpy(), eh, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(new_c.numpy(), ec, rtol=1e-5, atol=1e-6)
    out, (zh, zc) = cell(paddle.to_tensor(x, "float32"))
    eh, ec = np_lstm(x, 0 * h, 0 * c, *weights(cell))
    np.testing.assert_allclose(zc.numpy(), ec, rtol=1e-5, atol=1e-6)


def test_lstm_cell_projection():
    rng = np.random.default_rng(2)
    cell = nn.LSTMCell(5, 4, proj_size=2)
    assert cell.weight_hh.shape == [16, 2] and cell.weight_ho.shape == [4, 2]
    assert cell.state_shape == ((2,), (4,))
    x = rng.standard_normal((3, 5))
    out, (h, c) = cell(paddle.to_tensor(x, "float32"))
    eh, ec = np_lstm(x, np.zeros((3, 2)), np.zeros((3, 4)), *weights(cell))
    np.testing.assert_allclose(out.numpy(), eh @ cell.weight_ho.numpy(), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(c.numpy(), ec, rtol=1e-5, atol=1e-6)
    with pytest.raises(ValueError, match="proj_size must be smaller"):
        nn.LSTMCell(5, 4, proj_size=4)


def test_gru_cell_matches_numpy():
    rng = np.random.default_rng(3)
    x, h = rng.standard_normal((3, 5)), rng.standard_normal((3, 4))
    cell = nn.GRUCell(5, 4)
    out, new_h = cell(paddle.to_tensor(x, "float32"), paddle.to_tensor(h, "float32"))
    np.testing.assert_allclose(out.numpy(), np_gru(x, h, *weights(cell)), rtol=1e-5, atol=1e-6)
    assert new_h is out


@pytest.mark.parametrize("cls,gates", [(nn.SimpleRNNCell, 1), (nn.LSTMCell, 4), (nn.GRUCell, 3)])
def test_cell_parameters_shapes_and_default_init(cls, gates):
    paddle.seed(0)  # unseeded, the std of SimpleRNNCell's 16 biases fell below 0.1 1 run in 30
    cell = cls(5, 16)
    assert [n for n, _ in cell.named_parameters()] == ["weight_ih", "weight_hh", "bias_ih",
                                                         "bias_hh"]
    assert [p.shape for p in cell.parameters()] == [[gates * 16, 5], [gates * 16, 16],
                                                    [gates * 16], [gates * 16]]
    for p in cell.parameters():  # Uniform(-1/sqrt(hidden), 1/sqrt(hidden)), biases too
        a = p.numpy()
        assert np.abs(a).max() <= 0.25 and a.std() > 0.1 and not p.stop_gradient
    assert cell.state_shape == ((16,), (16,)) if cls is nn.LSTMCell else (16,)


def test_cell_attr_false_gives_fixed_parameters():
    # as Paddle 3.3.1: a weight of ones and a bias of zeros, both stop_gradient
    cell = nn.GRUCell(2, 3, weight_hh_attr=False, bias_ih_attr=False)
    assert np.all(cell.weight_hh.numpy() == 1) and cell.weight_hh.stop_gradient
    assert np.all(cell.bias_ih.numpy() == 0) and cell.bias_ih.stop_gradient
    assert not cell.weight_ih.stop_gradient


def test_cell_attr_initializer_and_repr():
    cell = nn.SimpleRNNCell(2, 3, weight_ih_attr=nn.initializer.Constant(0.5))
    assert np.all(cell.weight_ih.numpy() == 0.5)
    assert repr(cell) == "SimpleRNNCell(2, 3)"
    assert repr(nn.SimpleRNNCell(2, 3, "relu")) == "SimpleRNNCell(2, 3, activation=relu)"
    assert repr(nn.GRUCell(2, 3)) == "GRUCell(2, 3)" and repr(nn.LSTMCell(2, 3)) == "LSTMCell(2, 3)"


def test_cell_errors():
    with pytest.raises(ValueError, match="hidden_size of GRUCell must be greater than 0"):
        nn.GRUCell(3, 0)
    with pytest.raises(ValueError, match="tanh or relu"):
        nn.SimpleRNNCell(3, 4, activation="sigmoid")
    with pytest.raises(ValueError, match="input_size=3"):
        nn.LSTMCell(3, 4)(paddle.randn([2, 5]))
    with pytest.raises(TypeError, match="must be a Tensor"):
        nn.GRUCell(3, 4)(np.zeros((2, 3)))


def test_get_initial_states():
    cell = nn.LSTMCell(3, 4)
    h, c = cell.get_initial_states(paddle.zeros([5, 2, 3]), batch_dim_idx=1, init_value=0.5)
    assert h.shape == [2, 4] and c.shape == [2, 4] and float(h.numpy().max()) == 0.5
    s = cell.get_initial_states(paddle.zeros([5, 3]), shape=[(-1, 7), (2, 3)], dtype="float64")
    assert [t.shape for t in s] == [[5, 7], [5, 2, 3]] and s[0].dtype == paddle.float64
    with pytest.raises(NotImplementedError):
        nn.RNNCellBase().get_initial_states(paddle.zeros([2, 3]))


# -- RNN, BiRNN -------------------------------------------------------------------------

def test_rnn_runs_the_cell_over_time_forward_and_reversed():
    rng = np.random.default_rng(4)
    x = rng.standard_normal((2, 4, 3))
    cell = nn.GRUCell(3, 5)
    for is_reverse, time_major in itertools.product((False, True), (False, True)):
        layer = nn.RNN(cell, is_reverse=is_reverse, time_major=time_major)
        inp = x.transpose(1, 0, 2) if time_major else x
        out, h = layer(paddle.to_tensor(inp, "float32"))
        expected, state = [], np.zeros((2, 5))
        for t in (range(3, -1, -1) if is_reverse else range(4)):
            state = np_gru(x[:, t], state, *weights(cell))
            expected.append(state)
        expected = np.stack(expected[::-1] if is_reverse else expected, axis=1)
        np.testing.assert_allclose(out.numpy(), expected.transpose(1, 0, 2) if time_major
                                   else expected, rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(h.numpy(), state, rtol=1e-5, atol=1e-6)


def test_rnn_with_sequence_length_keeps_states_but_not_outputs():
    # Paddle's RNN (the Python loop) keeps each sequence's states past its length and
    # leaves the step outputs unmasked; the multi-layer LSTM/GRU/SimpleRNN zero them
    rng = np.random.default_rng(5)
    x = paddle.to_tensor(rng.standard_normal((2, 5, 3)), "float32")
    lengths = paddle.to_tensor([5, 2])
    for is_reverse in (False, True):
        layer = nn.RNN(nn.LSTMCell(3, 4), is_reverse=is_reverse)
        out, (h, c) = layer(x, sequence_length=lengths)
        short_out, (sh, sc) = layer(x[1:, :2])
        np.testing.assert_allclose(out.numpy()[1, :2], short_out.numpy()[0], atol=1e-6)
        np.testing.assert_allclose(h.numpy()[1], sh.numpy()[0], atol=1e-6)
        np.testing.assert_allclose(c.numpy()[1], sc.numpy()[0], atol=1e-6)
        assert np.abs(out.numpy()[1, 2:]).min() > 0


def test_birnn_concatenates_directions():
    rng = np.random.default_rng(6)
    x = paddle.to_tensor(rng.standard_normal((2, 4, 3)), "float32")
    fw, bw = nn.SimpleRNNCell(3, 4), nn.SimpleRNNCell(3, 2)
    out, (h_fw, h_bw) = nn.BiRNN(fw, bw)(x)
    out_fw, ref_fw = nn.RNN(fw)(x)
    out_bw, ref_bw = nn.RNN(bw, is_reverse=True)(x)
    assert out.shape == [2, 4, 6]
    np.testing.assert_allclose(out.numpy(), np.concatenate([out_fw.numpy(), out_bw.numpy()], -1),
                               atol=1e-6)
    np.testing.assert_allclose(h_bw.numpy(), ref_bw.numpy(), atol=1e-6)
    assert [k for k in nn.BiRNN(fw, bw).state_dict()][:2] == ["cell_fw.weight_ih",
                                                             "cell_fw.weight_hh"]
    with pytest.raises(ValueError, match="input size of forward cell"):
        nn.BiRNN(nn.GRUCell(3, 4), nn.GRUCell(2, 4))
    with pytest.raises(ValueError, match="pair"):
        nn.BiRNN(fw, bw)(x, [paddle.zeros([2, 4])])


# -- SimpleRNN, LSTM, GRU ----------------------------------------------------------------

@pytest.mark.parametrize("cls", [nn.SimpleRNN, nn.LSTM, nn.GRU])
@pytest.mark.parametrize("num_layers,direction,time_major",
                         list(itertools.product((1, 2), ("forward", "bidirect",
                                                         "bidirectional"), (False, True))))
def test_shapes(cls, num_layers, direction, time_major):
    layer = cls(3, 4, num_layers=num_layers, direction=direction, time_major=time_major)
    d = 1 if direction == "forward" else 2
    x = paddle.randn([5, 2, 3] if time_major else [2, 5, 3])
    out, states = layer(x)
    assert out.shape == ([5, 2, 4 * d] if time_major else [2, 5, 4 * d])
    states = states if cls is nn.LSTM else (states,)
    assert [s.shape for s in states] == [[num_layers * d, 2, 4]] * len(states)
    # given initial states are used (and checked)
    again, _ = layer(x, states[0] if cls is not nn.LSTM else states)
    assert again.shape == out.shape


def test_multilayer_bidirectional_lstm_matches_numpy():
    rng = np.random.default_rng(7)
    x = rng.standard_normal((2, 3, 3))
    h0, c0 = rng.standard_normal((4, 2, 4)), rng.standard_normal((4, 2, 4))
    lstm = nn.LSTM(3, 4, num_layers=2, direction="bidirect")
    out, (h, c) = lstm(paddle.to_tensor(x, "float32"), (paddle.to_tensor(h0, "float32"),
                                                         paddle.to_tensor(c0, "float32")))
    inp, hs, cs = x, [], []
    for layer in range(2):
        outs = []
        for d, cell in enumerate((lstm[layer].cell_fw, lstm[layer].cell_bw)):
            sh, sc, seq = h0[2 * layer + d], c0[2 * layer + d], [None] * 3
            for t in (range(3) if d == 0 else range(2, -1, -1)):
                sh, sc = np_lstm(inp[:, t], sh, sc, *weights(cell))
                seq[t] = sh
            outs.append(np.stack(seq, 1))
            hs.append(sh)
            cs.append(sc)
        inp = np.concatenate(outs, -1)
    np.testing.assert_allclose(out.numpy(), inp, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(h.numpy(), np.stack(hs), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(c.numpy(), np.stack(cs), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("cls", [nn.LSTM, nn.GRU, nn.SimpleRNN])
@pytest.mark.parametrize("time_major", [False, True])
def test_sequence_length_masking(cls, time_major):
    rng = np.random.default_rng(8)
    layer = cls(3, 4, num_layers=2, direction="bidirect", time_major=time_major)
    x = rng.standard_normal((3, 5, 3)).astype("float32")
    lengths = [5, 2, 4]
    inp = x.transpose(1, 0, 2) if time_major else x
    out, states = layer(paddle.to_tensor(inp), sequence_length=paddle.to_tensor(lengths))
    out = out.numpy().transpose(1, 0, 2) if time_major else out.numpy()
    states = states if cls is nn.LSTM else (states,)
    for b, n in enumerate(lengths):
        piece = x[b:b + 1, :n]
        ref_out, ref_states = layer(paddle.to_tensor(piece.transpose(1, 0, 2) if time_major
                                                     else piece))
        ref_out = ref_out.numpy().transpose(1, 0, 2) if time_major else ref_out.numpy()
        ref_states = ref_states if cls is nn.LSTM else (ref_states,)
        np.testing.assert_allclose(out[b, :n], ref_out[0], rtol=1e-5, atol=1e-6)
        assert np.all(out[b, n:] == 0)  # Paddle's rnn kernel outputs zeros past the length
        for s, r in zip(states, ref_states):
            np.testing.assert_allclose(s.numpy()[:, b], r.numpy()[:, 0], rtol=1e-5, atol=1e-6)


def test_gradients_flow_through_sequence_length_and_all_parameters():
    layer = nn.GRU(3, 4, num_layers=2, direction="bidirect")
    x = paddle.randn([2, 4, 3])
    x.stop_gradient = False
    out, h = layer(x, sequence_length=paddle.to_tensor([4, 1]))
    (out.sum() + h.sum()).backward()
    assert np.all(x.grad.numpy()[1, 1:] == 0) and np.abs(x.grad.numpy()[1, 0]).min() > 0
    assert all(p.grad is not None and np.abs(p.grad.numpy()).max() > 0
               for p in layer.parameters())


def numeric_grad(f, array, eps=1e-6):
    grad = np.zeros_like(array)
    for i in np.ndindex(array.shape):
        old = array[i]
        array[i] = old + eps
        up = f()
        array[i] = old - eps
        down = f()
        array[i] = old
        grad[i] = (up - down) / (2 * eps)
    return grad


@pytest.mark.parametrize("cls", [nn.LSTM, nn.GRU])
def test_gradients_match_finite_differences(cls):
    paddle.set_default_dtype("float64")
    rng = np.random.default_rng(9)
    layer = cls(2, 3, direction="bidirect")
    x = rng.standard_normal((2, 3, 2))
    lengths = paddle.to_tensor([3, 2])
    r_out = rng.standard_normal((2, 3, 6))
    r_state = rng.standard_normal((2, 2, 3))

    def loss(xt):
        out, states = layer(xt, sequence_length=lengths)
        h = states[0] if cls is nn.LSTM else states
        return (out * paddle.to_tensor(r_out)).sum() + (h * paddle.to_tensor(r_state)).sum()

    xt = paddle.to_tensor(x, stop_gradient=False)
    loss(xt).backward()
    np.testing.assert_allclose(xt.grad.numpy(), numeric_grad(
        lambda: float(loss(paddle.to_tensor(x))), x), rtol=1e-6, atol=1e-8)
    for p in (layer.weight_hh_l0, layer.bias_ih_l0_reverse):
        data = p.numpy()

        def f(p=p, data=data):
            p.set_value(data)
            return float(loss(paddle.to_tensor(x)))
        np.testing.assert_allclose(p.grad.numpy(), numeric_grad(f, data), rtol=1e-6, atol=1e-8)


# Keys of paddle.nn.LSTM(3, 4, num_layers=2, direction='bidirect').state_dict() and of
# paddle.nn.GRU(3, 4, bias_ih_attr=False).state_dict() from Paddle 3.3.1: the flat names come
# first; with a False bias attr Paddle pairs its flat names with the parameters as they come,
# so 'bias_hh_l0' is the fixed zero bias_ih.
PADDLE_LSTM_KEYS = [f"{w}_l{i}{s}" for i in range(2) for s in ("", "_reverse")
                    for w in ("weight_ih", "weight_hh", "bias_ih", "bias_hh")] + [
    f"{i}.cell_{d}.{w}" for i in range(2) for d in ("fw", "bw")
    for w in ("weight_ih", "weight_hh", "bias_ih", "bias_hh")]
PADDLE_GRU_KEYS = ["weight_ih_l0", "weight_hh_l0", "bias_hh_l0", "0.cell.weight_ih",
                   "0.cell.weight_hh", "0.cell.bias_ih", "0.cell.bias_hh"]


def test_parameter_names_and_shapes_as_paddle():
    lstm = nn.LSTM(3, 4, num_layers=2, direction="bidirect")
    sd = lstm.state_dict()
    assert list(sd) == PADDLE_LSTM_KEYS
    assert sd["weight_ih_l1_reverse"] is sd["1.cell_bw.weight_ih"]
    assert sd["weight_ih_l1"].shape == [16, 8] and sd["weight_hh_l0"].shape == [16, 4]
    assert len(lstm.parameters()) == 16
    gru = nn.GRU(3, 4, bias_ih_attr=False)
    assert list(gru.state_dict()) == PADDLE_GRU_KEYS
    assert gru.bias_hh_l0 is gru[0].cell.bias_ih
    assert list(nn.SimpleRNN(3, 4).state_dict())[:4] == ["weight_ih_l0", "weight_hh_l0",
                                                          "bias_ih_l0", "bias_hh_l0"]
    assert list(nn.RNN(nn.GRUCell(3, 4)).state_dict())[0] == "cell.weight_ih"


def test_state_dict_round_trip_between_layers():
    a, b = nn.GRU(3, 4, num_layers=2), nn.GRU(3, 4, num_layers=2)
    missing, unexpected = b.set_state_dict({k: v.numpy() for k, v in a.state_dict().items()})
    assert not missing and not unexpected
    x = paddle.randn([2, 3, 3])
    np.testing.assert_array_equal(a(x)[0].numpy(), b(x)[0].numpy())


def test_repr_and_errors():
    assert repr(nn.SimpleRNN(3, 4, num_layers=2, time_major=True, dropout=0.5,
                             activation="relu")).splitlines()[:3] == [
        "SimpleRNN(3, 4, num_layers=2, time_major=True, dropout=0.5",
        "  (0): RNN(", "    (cell): SimpleRNNCell(3, 4, activation=relu)"]
    with pytest.raises(ValueError, match="direction should be forward or bidirect"):
        nn.GRU(3, 4, direction="backward")
    with pytest.raises(ValueError, match="Unknown activation"):
        nn.SimpleRNN(3, 4, activation="gelu")
    lstm = nn.LSTM(3, 4, num_layers=2)
    with pytest.raises(ValueError, match=r"paddle.nn.LSTM: inputs must be a 3-D Tensor"):
        lstm(paddle.randn([2, 5, 6]))
    with pytest.raises(ValueError, match=r"\[2, 2, 4\]"):
        lstm(paddle.randn([2, 5, 3]), paddle.zeros([2, 2, 4]))
    with pytest.raises(ValueError, match="sequence_length must be an int32 or int64"):
        lstm(paddle.randn([2, 5, 3]), sequence_length=paddle.to_tensor([1.0, 2.0]))


def fill(layer):
    """The same deterministic values in every parameter, in named_parameters() order."""
    for i, (_, p) in enumerate(layer.named_parameters()):
        n = int(np.prod(p.shape))
        p.set_value((0.6 * np.sin(np.arange(n) * 0.37 + i)).reshape(p.shape).astype("float32"))


X = np.cos(np.arange(24) * 0.5).reshape(2, 4, 3).astype("float32")


def test_lstm_matches_paddle():
    lstm = nn.LSTM(3, 2, num_layers=2, direction="bidirect")
    fill(lstm)
    out, (h, c) = lstm(paddle.to_tensor(X), sequence_length=paddle.to_tensor([4, 3]))
    # from Paddle 3.3.1 (paddle.nn.LSTM with the same fill, inputs and lengths)
    np.testing.assert_allclose(out.numpy(), [
        [[-0.08705648, -0.06538183, -0.04196501, -0.09530276],
         [-0.03809616, -0.09093618, -0.09633446, -0.02087027],
         [-0.02935901, -0.10063202, -0.07878511, -0.02959147],
         [-0.08522156, -0.09287329, -0.02997294, -0.08284738]],
        [[-0.09072959, -0.06568458, -0.02268179, -0.12024017],
         [-0.06273891, -0.09021831, -0.06659292, -0.05233863],
         [-0.05806527, -0.09522795, -0.05306235, -0.04291249],
         [0.0, 0.0, 0.0, 0.0]]], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(h.numpy(), [
        [[-0.15383822, -0.19424844], [0.02667513, -0.03014094]],
        [[0.21310109, 0.27948639], [0.15314558, 0.28021502]],
        [[-0.08522156, -0.09287329], [-0.05806527, -0.09522795]],
        [[-0.04196501, -0.09530276], [-0.02268179, -0.12024017]]], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(c.numpy(), [
        [[-0.46805727, -0.62171119], [0.23452100, -0.42527002]],
        [[0.85188925, 1.38925385], [0.62062651, 1.22429812]],
        [[-0.16311175, -0.14497593], [-0.12882817, -0.14770833]],
        [[-0.16770369, -0.38896772], [-0.09292781, -0.48782206]]], rtol=1e-5, atol=1e-6)


def test_gru_matches_paddle():
    gru = nn.GRU(3, 2, num_layers=2, time_major=True)
    fill(gru)
    h0 = (0.3 * np.sin(np.arange(8))).reshape(2, 2, 2).astype("float32")
    out, h = gru(paddle.to_tensor(X.transpose(1, 0, 2)), paddle.to_tensor(h0))
    # from Paddle 3.3.1 (paddle.nn.GRU with the same fill, inputs and initial states)
    np.testing.assert_allclose(out.numpy(), [
        [[-0.10408577, -0.12987669], [0.04851508, 0.23905745]],
        [[0.07682500, 0.06662965], [0.16894019, 0.29164809]],
        [[0.29826385, 0.25341237], [0.35060632, 0.40495288]],
        [[0.37004000, 0.31315985], [0.42198056, 0.44214332]]], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(h.numpy(), [
        [[-0.04970399, -0.59708577], [-0.01443720, -0.50045133]],
        [[0.37004000, 0.31315985], [0.42198056, 0.44214332]]], rtol=1e-5, atol=1e-6)


def test_dropout_between_layers_only_when_training():
    paddle.seed(10)
    x = paddle.randn([2, 4, 3])
    one = nn.LSTM(3, 4, dropout=0.5)  # one layer: nothing to drop
    np.testing.assert_array_equal(one(x)[0].numpy(), one.eval()(x)[0].numpy())
    gru = nn.GRU(3, 4, num_layers=2, dropout=0.5)
    train_out = gru(x)[0].numpy()
    gru.eval()
    eval_out = gru(x)[0].numpy()
    np.testing.assert_array_equal(eval_out, gru(x)[0].numpy())
    assert not np.allclose(train_out, eval_out)
    manual = gru[1](gru[0](x)[0])[0].numpy()  # eval: no dropout between the layers
    np.testing.assert_allclose(eval_out, manual, rtol=1e-6)
