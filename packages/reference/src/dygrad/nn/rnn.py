"""Recurrent layers: SimpleRNN, LSTM, GRU and their cells, as Paddle's ``paddle.nn``.

Everything here is a composite of ops of the table: a cell is two matmuls, a split into
gates and elementwise activations; ``RNN`` runs a cell over the time steps in a Python loop
and stacks the outputs, so autograd differentiates through time by itself.

Gate layouts follow Paddle (and cuDNN): the rows of an LSTM's ``weight_ih``/``weight_hh``
are the gates i, f, g (the candidate cell), o; a GRU's are r, z, c, with the reset gate
applied to ``h @ W_hc^T + b_hc``, the candidate's hidden part *including its bias*.
"""

from __future__ import annotations

import math

from .. import tensor as T
from .._core.dtype import get_default_dtype
from .._core.tensor import Tensor
from . import functional as F
from .container import LayerList
from .initializer import Constant, Uniform
from .layer import Layer

__all__ = ["RNNCellBase", "SimpleRNNCell", "LSTMCell", "GRUCell", "RNN", "BiRNN",
           "SimpleRNN", "LSTM", "GRU"]

_BIDIRECTIONAL = ("bidirect", "bidirectional")


def _map(fn, *structures):
    """``fn`` applied leafwise to Tensors nested in tuples/lists of the same structure."""
    first = structures[0]
    if isinstance(first, (tuple, list)):
        return type(first)(_map(fn, *parts) for parts in zip(*structures))
    return fn(*structures)


def _flatten(structure) -> list:
    if isinstance(structure, (tuple, list)):
        return [leaf for part in structure for leaf in _flatten(part)]
    return [structure]


def _is_shape(shape) -> bool:
    return isinstance(shape, (tuple, list)) and all(isinstance(d, int) for d in shape)


def _affine(x, weight, bias):
    """x @ weight^T + bias (bias may be None)."""
    y = T.matmul(x, weight, transpose_y=True)
    return y if bias is None else y + bias


class RNNCellBase(Layer):
    """Base class of the cells: ``forward(inputs, states)`` computes one time step and
    returns ``(outputs, new_states)``; subclasses give ``state_shape``."""

    def get_initial_states(self, batch_ref, shape=None, dtype=None, init_value=0.0,
                           batch_dim_idx=0):
        """States filled with ``init_value``, shaped ``[batch] + shape`` for each shape of
        ``shape`` (a nested structure; default ``state_shape``; a leading -1 stands for the
        batch), the batch size read from ``batch_ref.shape[batch_dim_idx]``. ``dtype`` (one
        for all, or the same structure) defaults to ``state_dtype``, else the default
        float dtype."""
        batch = batch_ref.shape[batch_dim_idx]
        shapes = self.state_shape if shape is None else shape
        if dtype is None:
            try:
                dtype = self.state_dtype
            except NotImplementedError:
                dtype = get_default_dtype()

        def build(shape, dtype):
            if _is_shape(shape):
                dims = list(shape[1:]) if shape and shape[0] == -1 else list(shape)
                return T.full([batch] + dims, init_value, dtype=dtype)
            dtypes = dtype if isinstance(dtype, (tuple, list)) else [dtype] * len(shape)
            return type(shape)(build(s, d) for s, d in zip(shape, dtypes))
        return build(shapes, dtype)

    @property
    def state_shape(self):
        """The shape of each state without the batch dimension (a nested structure)."""
        raise NotImplementedError("Please add implementation for `state_shape` in the used "
                                  "cell.")

    @property
    def state_dtype(self):
        """The dtype of each state (a nested structure), or one dtype for all."""
        raise NotImplementedError("Please add implementation for `state_dtype` in the used "
                                  "cell.")

    def _create_weights(self, gates, input_size, hidden_size, weight_ih_attr, weight_hh_attr,
                        bias_ih_attr, bias_hh_attr, hh_columns=None):
        """weight_ih [gates*hidden, input], weight_hh [gates*hidden, hh_columns or hidden],
        bias_ih and bias_hh [gates*hidden], drawn from U(-1/sqrt(hidden), 1/sqrt(hidden)).
        An attr of False gives, as in Paddle, a fixed parameter (stop_gradient) of ones
        for a weight and zeros for a bias."""
        api = type(self).__name__
        if hidden_size <= 0:
            raise ValueError(f"hidden_size of {api} must be greater than 0, but now equals to "
                             f"{hidden_size}")
        self._dtype = get_default_dtype()
        self.input_size, self.hidden_size = input_size, hidden_size
        std = 1.0 / math.sqrt(hidden_size)
        rows = gates * hidden_size
        for name, shape, attr, is_bias in (
                ("weight_ih", [rows, input_size], weight_ih_attr, False),
                ("weight_hh", [rows, hh_columns or hidden_size], weight_hh_attr, False),
                ("bias_ih", [rows], bias_ih_attr, True),
                ("bias_hh", [rows], bias_hh_attr, True)):
            if attr is False:
                p = self.create_parameter(shape, None, is_bias=is_bias,
                                          default_initializer=Constant(0.0 if is_bias else 1.0))
                p.stop_gradient = True
            else:
                p = self.create_parameter(shape, attr, is_bias=is_bias,
                                          default_initializer=Uniform(-std, std))
            setattr(self, name, p)

    def _check_inputs(self, inputs):
        if not isinstance(inputs, Tensor):
            raise TypeError(f"paddle.nn.{type(self).__name__}: inputs must be a Tensor, got "
                            f"{type(inputs).__name__}")
        if inputs.ndim < 1 or inputs.shape[-1] != self.input_size:
            raise ValueError(f"paddle.nn.{type(self).__name__}: the last dimension of inputs "
                             f"must be input_size={self.input_size}, got inputs of shape "
                             f"{inputs.shape}")

    def extra_repr(self):
        return f"{self.input_size}, {self.hidden_size}"


class SimpleRNNCell(RNNCellBase):
    """h' = act(x @ W_ih^T + b_ih + h @ W_hh^T + b_hh), act tanh or relu; returns (h', h')."""

    def __init__(self, input_size, hidden_size, activation="tanh", weight_ih_attr=None,
                 weight_hh_attr=None, bias_ih_attr=None, bias_hh_attr=None, name=None):
        super().__init__()
        self._create_weights(1, input_size, hidden_size, weight_ih_attr, weight_hh_attr,
                             bias_ih_attr, bias_hh_attr)
        if activation not in ("tanh", "relu"):
            raise ValueError(f"activation for SimpleRNNCell should be tanh or relu, but get "
                             f"{activation}")
        self.activation = activation
        self._activation_fn = T.tanh if activation == "tanh" else F.relu

    def forward(self, inputs, states=None):
        self._check_inputs(inputs)
        if states is None:
            states = self.get_initial_states(inputs, self.state_shape)
        h = self._activation_fn(_affine(inputs, self.weight_ih, self.bias_ih)
                                + _affine(states, self.weight_hh, self.bias_hh))
        return h, h

    @property
    def state_shape(self):
        return (self.hidden_size,)

    def extra_repr(self):
        act = "" if self.activation == "tanh" else f", activation={self.activation}"
        return super().extra_repr() + act


class LSTMCell(RNNCellBase):
    """With gates = x @ W_ih^T + b_ih + h @ W_hh^T + b_hh cut into i, f, g, o:
    c' = sigmoid(f) * c + sigmoid(i) * tanh(g), h' = sigmoid(o) * tanh(c') (then
    h' @ weight_ho when ``proj_size`` > 0); states are (h, c); returns (h', (h', c'))."""

    def __init__(self, input_size, hidden_size, weight_ih_attr=None, weight_hh_attr=None,
                 bias_ih_attr=None, bias_hh_attr=None, proj_size=0, name=None):
        super().__init__()
        if proj_size < 0:
            raise ValueError(f"proj_size of LSTMCell must be greater than or equal to 0, but "
                             f"now equals to {proj_size}")
        if proj_size >= hidden_size > 0:
            raise ValueError("proj_size must be smaller than hidden_size")
        self._create_weights(4, input_size, hidden_size, weight_ih_attr, weight_hh_attr,
                             bias_ih_attr, bias_hh_attr, hh_columns=proj_size)
        self.proj_size = proj_size
        if proj_size > 0:
            std = 1.0 / math.sqrt(hidden_size)
            self.weight_ho = self.create_parameter((hidden_size, proj_size), weight_hh_attr,
                                                   default_initializer=Uniform(-std, std))

    def forward(self, inputs, states=None):
        self._check_inputs(inputs)
        if states is None:
            states = self.get_initial_states(inputs, self.state_shape)
        pre_hidden, pre_cell = states
        gates = (_affine(inputs, self.weight_ih, self.bias_ih)
                 + _affine(pre_hidden, self.weight_hh, self.bias_hh))
        i, f, g, o = T.split(gates, 4, axis=-1)
        c = F.sigmoid(f) * pre_cell + F.sigmoid(i) * T.tanh(g)
        h = F.sigmoid(o) * T.tanh(c)
        if self.proj_size > 0:
            h = T.matmul(h, self.weight_ho)
        return h, (h, c)

    @property
    def state_shape(self):
        # h has proj_size features when projecting (Paddle 3.3.1 lists the two the other
        # way round, which makes get_initial_states fail for proj_size > 0)
        return ((self.proj_size or self.hidden_size,), (self.hidden_size,))


class GRUCell(RNNCellBase):
    """With x @ W_ih^T + b_ih cut into x_r, x_z, x_c and h @ W_hh^T + b_hh into h_r, h_z,
    h_c: r = sigmoid(x_r + h_r), z = sigmoid(x_z + h_z), c = tanh(x_c + r * h_c),
    h' = z * h + (1 - z) * c; returns (h', h')."""

    def __init__(self, input_size, hidden_size, weight_ih_attr=None, weight_hh_attr=None,
                 bias_ih_attr=None, bias_hh_attr=None, name=None):
        super().__init__()
        self._create_weights(3, input_size, hidden_size, weight_ih_attr, weight_hh_attr,
                             bias_ih_attr, bias_hh_attr)

    def forward(self, inputs, states=None):
        self._check_inputs(inputs)
        if states is None:
            states = self.get_initial_states(inputs, self.state_shape)
        x_r, x_z, x_c = T.split(_affine(inputs, self.weight_ih, self.bias_ih), 3, axis=-1)
        h_r, h_z, h_c = T.split(_affine(states, self.weight_hh, self.bias_hh), 3, axis=-1)
        r = F.sigmoid(x_r + h_r)
        z = F.sigmoid(x_z + h_z)
        c = T.tanh(x_c + r * h_c)
        h = (states - c) * z + c
        return h, h

    @property
    def state_shape(self):
        return (self.hidden_size,)


def _valid_steps(sequence_length, batch, steps, api):
    """[batch, steps, 1] bool: whether step t is within sequence b's length."""
    if not isinstance(sequence_length, Tensor):
        raise TypeError(f"{api}: sequence_length must be a Tensor, got "
                        f"{type(sequence_length).__name__}")
    if sequence_length.dtype.name not in ("int32", "int64") or sequence_length.shape != [batch]:
        raise ValueError(f"{api}: sequence_length must be an int32 or int64 Tensor of shape "
                         f"[batch_size] = [{batch}], got {sequence_length.dtype.name} of shape "
                         f"{sequence_length.shape}")
    t = T.arange(steps, dtype=sequence_length.dtype)
    return T.unsqueeze(T.less_than(t, T.unsqueeze(sequence_length, -1)), -1)


def _rnn(cell, inputs, initial_states, sequence_length, time_major, is_reverse, api, **kwargs):
    """Run ``cell`` over the time axis of ``inputs`` (first to last, or last to first when
    ``is_reverse``); past a sequence's length its states are kept. Returns the stacked
    outputs and the final states."""
    if not isinstance(inputs, Tensor) or inputs.ndim < 2:
        raise ValueError(f"{api}: inputs must be a Tensor of shape [batch_size, time_steps, "
                         f"input_size] ([time_steps, batch_size, input_size] when time_major)"
                         f", got {getattr(inputs, 'shape', type(inputs).__name__)}")
    time_axis, batch_axis = (0, 1) if time_major else (1, 0)
    steps = T.unbind(inputs, time_axis)
    if not steps:
        raise ValueError(f"{api}: inputs has no time steps (shape {inputs.shape})")
    if initial_states is None:
        initial_states = cell.get_initial_states(inputs, batch_dim_idx=batch_axis)
    masks = None
    if sequence_length is not None:
        masks = T.unbind(_valid_steps(sequence_length, inputs.shape[batch_axis], len(steps),
                                      api), 1)
    order = range(len(steps) - 1, -1, -1) if is_reverse else range(len(steps))
    states, outputs = initial_states, [None] * len(steps)
    for t in order:
        outputs[t], new_states = cell(steps[t], states, **kwargs)
        if masks is not None:
            new_states = _map(lambda old, new, m=masks[t]: T.where(m, new, old), states,
                              new_states)
        states = new_states
    return _map(lambda *outs: T.stack(list(outs), axis=time_axis), *outputs), states


class RNN(Layer):
    """Runs ``cell`` over the time steps of the input (``[batch, time, ...]``, or
    ``[time, batch, ...]`` when ``time_major``), from the last step when ``is_reverse``.
    ``forward(inputs, initial_states=None, sequence_length=None)`` returns
    ``(outputs, final_states)``: outputs stacked along the time axis, and the states after
    each sequence's last valid step. As in Paddle, outputs past a sequence's length are
    not masked here (the multi-layer SimpleRNN/LSTM/GRU zero them)."""

    def __init__(self, cell, is_reverse=False, time_major=False):
        super().__init__()
        self.cell = cell
        self.is_reverse = is_reverse
        self.time_major = time_major

    def forward(self, inputs, initial_states=None, sequence_length=None, **kwargs):
        return _rnn(self.cell, inputs, initial_states, sequence_length, self.time_major,
                    self.is_reverse, "paddle.nn.RNN", **kwargs)


class BiRNN(Layer):
    """``cell_fw`` run forward and ``cell_bw`` backward over the same input; outputs are
    concatenated along the last axis, final states are ``(states_fw, states_bw)``."""

    def __init__(self, cell_fw, cell_bw, time_major=False):
        super().__init__()
        self.cell_fw = cell_fw
        self.cell_bw = cell_bw
        if cell_fw.input_size != cell_bw.input_size:
            raise ValueError(f"input size of forward cell({cell_fw.input_size}) does not equals"
                             f" that of backward cell({cell_bw.input_size})")
        self.time_major = time_major

    def forward(self, inputs, initial_states=None, sequence_length=None, **kwargs):
        states_fw = states_bw = None
        if initial_states is not None:
            if not isinstance(initial_states, (list, tuple)) or len(initial_states) != 2:
                raise ValueError("paddle.nn.BiRNN: initial_states must be a pair (states of "
                                 "cell_fw, states of cell_bw)")
            states_fw, states_bw = initial_states
        out_fw, states_fw = _rnn(self.cell_fw, inputs, states_fw, sequence_length,
                                 self.time_major, False, "paddle.nn.BiRNN", **kwargs)
        out_bw, states_bw = _rnn(self.cell_bw, inputs, states_bw, sequence_length,
                                 self.time_major, True, "paddle.nn.BiRNN", **kwargs)
        outputs = _map(lambda a, b: T.concat([a, b], -1), out_fw, out_bw)
        return outputs, (states_fw, states_bw)


class RNNBase(LayerList):
    """Stacked (and possibly bidirectional) recurrent layers: sublayers '0', '1', ... are
    RNN or BiRNN layers of cells of one kind; the parameters are also reachable under
    Paddle's flat names (weight_ih_l0, bias_hh_l1_reverse, ...), so a Paddle state_dict,
    which holds both kinds of key, loads unchanged."""

    def __init__(self, mode, input_size, hidden_size, num_layers=1, direction="forward",
                 time_major=False, dropout=0.0, weight_ih_attr=None, weight_hh_attr=None,
                 bias_ih_attr=None, bias_hh_attr=None, proj_size=0, activation="tanh"):
        super().__init__()
        api = type(self).__name__
        if direction not in ("forward",) + _BIDIRECTIONAL:
            raise ValueError(f"direction should be forward or bidirect (or bidirectional), "
                             f"received direction = {direction}")
        if not isinstance(num_layers, int) or num_layers < 1:
            raise ValueError(f"{api}: num_layers must be a positive int, got {num_layers!r}")
        if proj_size and mode != "LSTM":
            raise ValueError(f"{api}: proj_size is only supported by LSTM")
        self.mode = mode
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.dropout = dropout
        self.num_directions = 2 if direction in _BIDIRECTIONAL else 1
        self.time_major = time_major
        self.num_layers = num_layers
        self.state_components = 2 if mode == "LSTM" else 1
        self.proj_size = proj_size
        kwargs = {"weight_ih_attr": weight_ih_attr, "weight_hh_attr": weight_hh_attr,
                  "bias_ih_attr": bias_ih_attr, "bias_hh_attr": bias_hh_attr}
        if mode == "LSTM":
            cell_cls = LSTMCell
            kwargs["proj_size"] = proj_size
        elif mode == "GRU":
            cell_cls = GRUCell
        else:
            cell_cls = SimpleRNNCell
            kwargs["activation"] = activation
        layer_out = (proj_size or hidden_size) * self.num_directions
        for i in range(num_layers):
            in_size = input_size if i == 0 else layer_out
            if self.num_directions == 1:
                self.append(RNN(cell_cls(in_size, hidden_size, **kwargs), False, time_major))
            else:
                self.append(BiRNN(cell_cls(in_size, hidden_size, **kwargs),
                                  cell_cls(in_size, hidden_size, **kwargs), time_major))
        # Paddle names the parameters in this order, leaving out a bias whose attr is
        # False, and pairs the names with parameters() as they come (so with a False bias
        # attr or proj_size the later names land on other parameters, as in Paddle)
        names = []
        for i in range(num_layers):
            for suffix in ("", "_reverse")[:self.num_directions]:
                names += [f"weight_ih_l{i}{suffix}", f"weight_hh_l{i}{suffix}"]
                names += [f"bias_ih_l{i}{suffix}"] * (bias_ih_attr is not False)
                names += [f"bias_hh_l{i}{suffix}"] * (bias_hh_attr is not False)
        for name, param in zip(names, self.parameters()):
            setattr(self, name, param)

    def _check_states(self, initial_states, batch, api):
        """The initial states as a tuple of state_components Tensors of Paddle's shapes."""
        dims = ([self.proj_size or self.hidden_size], [self.hidden_size])
        states = ((initial_states,) if isinstance(initial_states, Tensor)
                  else tuple(initial_states))
        expected = [[self.num_layers * self.num_directions, batch] + dims[i]
                    for i in range(self.state_components)]
        if len(states) != len(expected) or any(
                not isinstance(s, Tensor) or s.shape != e for s, e in zip(states, expected)):
            got = [getattr(s, "shape", type(s).__name__) for s in states]
            what = "a pair (h, c) of Tensors" if self.state_components == 2 else "a Tensor"
            raise ValueError(f"{api}: initial_states must be {what} of shape "
                             f"{' and '.join(map(str, expected))} ([num_layers * "
                             f"num_directions, batch_size, hidden_size]), got {got}")
        return states

    def forward(self, inputs, initial_states=None, sequence_length=None):
        api = f"paddle.nn.{type(self).__name__}"
        if not isinstance(inputs, Tensor) or inputs.ndim != 3 \
                or inputs.shape[-1] != self.input_size:
            raise ValueError(f"{api}: inputs must be a 3-D Tensor whose last dimension is "
                             f"input_size={self.input_size}, got "
                             f"{getattr(inputs, 'shape', type(inputs).__name__)}")
        batch = inputs.shape[1 if self.time_major else 0]
        if initial_states is None:
            dims = ([self.proj_size or self.hidden_size], [self.hidden_size])
            initial_states = tuple(
                T.zeros([self.num_layers * self.num_directions, batch] + dims[i],
                        dtype=inputs.dtype) for i in range(self.state_components))
        states = self._check_states(initial_states, batch, api)
        # per (layer, direction): a Tensor, or (h, c) for an LSTM
        per_cell = list(zip(*[T.unbind(s, 0) for s in states]))
        if self.state_components == 1:
            per_cell = [s[0] for s in per_cell]
        final_states = []
        for i, layer in enumerate(self):
            if i > 0 and self.dropout > 0:
                inputs = F.dropout(inputs, self.dropout, training=self.training,
                                   mode="upscale_in_train")
            if self.num_directions == 1:
                layer_states = per_cell[i]
            else:
                layer_states = (per_cell[2 * i], per_cell[2 * i + 1])
            inputs, layer_final = layer(inputs, layer_states, sequence_length)
            final_states.append(layer_final)
        outputs = inputs
        if sequence_length is not None:  # Paddle's rnn kernel outputs zeros past the end
            valid = _valid_steps(sequence_length, batch, outputs.shape[0 if self.time_major
                                                                        else 1], api)
            if self.time_major:
                valid = T.transpose(valid, [1, 0, 2])
            outputs = T.where(valid, outputs, T.zeros_like(outputs))
        flat = _flatten(final_states)
        stacked = [T.stack(flat[k::self.state_components]) for k in
                   range(self.state_components)]
        return outputs, stacked[0] if self.state_components == 1 else tuple(stacked)

    def extra_repr(self):
        s = f"{self.input_size}, {self.hidden_size}"
        if self.num_layers != 1:
            s += f", num_layers={self.num_layers}"
        if self.time_major is not False:
            s += f", time_major={self.time_major}"
        if self.dropout != 0:
            s += f", dropout={self.dropout}"
        return s


class SimpleRNN(RNNBase):
    """Multi-layer Elman RNN of SimpleRNNCells (tanh or relu). ``forward(inputs,
    initial_states=None, sequence_length=None)`` returns outputs ``[batch, time,
    num_directions * hidden_size]`` and final states ``[num_layers * num_directions,
    batch, hidden_size]``."""

    def __init__(self, input_size, hidden_size, num_layers=1, direction="forward",
                 time_major=False, dropout=0.0, activation="tanh", weight_ih_attr=None,
                 weight_hh_attr=None, bias_ih_attr=None, bias_hh_attr=None, name=None):
        if activation not in ("tanh", "relu"):
            raise ValueError(f"Unknown activation '{activation}'")
        super().__init__("RNN_TANH" if activation == "tanh" else "RNN_RELU", input_size,
                         hidden_size, num_layers, direction, time_major, dropout,
                         weight_ih_attr, weight_hh_attr, bias_ih_attr, bias_hh_attr,
                         activation=activation)
        self.activation = activation


class LSTM(RNNBase):
    """Multi-layer LSTM of LSTMCells; final states are a pair (h, c), each
    ``[num_layers * num_directions, batch, hidden_size]`` (h has proj_size features when
    ``proj_size`` > 0)."""

    def __init__(self, input_size, hidden_size, num_layers=1, direction="forward",
                 time_major=False, dropout=0.0, weight_ih_attr=None, weight_hh_attr=None,
                 bias_ih_attr=None, bias_hh_attr=None, proj_size=0, name=None):
        super().__init__("LSTM", input_size, hidden_size, num_layers, direction, time_major,
                         dropout, weight_ih_attr, weight_hh_attr, bias_ih_attr, bias_hh_attr,
                         proj_size)


class GRU(RNNBase):
    """Multi-layer GRU of GRUCells; final states ``[num_layers * num_directions, batch,
    hidden_size]``."""

    def __init__(self, input_size, hidden_size, num_layers=1, direction="forward",
                 time_major=False, dropout=0.0, weight_ih_attr=None, weight_hh_attr=None,
                 bias_ih_attr=None, bias_hh_attr=None, name=None):
        super().__init__("GRU", input_size, hidden_size, num_layers, direction, time_major,
                         dropout, weight_ih_attr, weight_hh_attr, bias_ih_attr, bias_hh_attr)
