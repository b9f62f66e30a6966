"""Recurrent layers and the transformer encoder, decoder and Transformer."""

import math

import numpy as np

from . import Case, entry, layer_norm, linear, rand, sigmoid, softmax


def _gates(p, x, h, suffix=""):
    return (x @ p["weight_ih" + suffix].T + p["bias_ih" + suffix],
            h @ p["weight_hh" + suffix].T + p["bias_hh" + suffix])


def simple_step(p, x, state, sfx="", act=np.tanh):
    a, b = _gates(p, x, state, sfx)
    h = act(a + b)
    return h, h


def lstm_step(p, x, state, sfx=""):
    """Gates in Paddle's order i, f, g, o; with a projection, h = (o tanh c) @ weight_ho."""
    h, c = state
    a, b = _gates(p, x, h, sfx)
    i, f, g, o = np.split(a + b, 4, -1)
    c = sigmoid(f) * c + sigmoid(i) * np.tanh(g)
    h = sigmoid(o) * np.tanh(c)
    if "weight_ho" + sfx in p:
        h = h @ p["weight_ho" + sfx]
    return h, (h, c)


def gru_step(p, x, h, sfx=""):
    """Gates in Paddle's order r, z, c; h' = z h + (1 - z) c."""
    a, b = _gates(p, x, h, sfx)
    ar, az, ac = np.split(a, 3, -1)
    br, bz, bc = np.split(b, 3, -1)
    r, z = sigmoid(ar + br), sigmoid(az + bz)
    c = np.tanh(ac + r * bc)
    h = z * h + (1 - z) * c
    return h, h


def run(step, p, x, state, reverse=False, sfx=""):
    """Unroll ``step`` over x [N, T, I]; returns (outputs [N, T, H], final state)."""
    outs = []
    steps = range(x.shape[1] - 1, -1, -1) if reverse else range(x.shape[1])
    for t in steps:
        out, state = step(p, x[:, t], state, sfx)
        outs.append(out)
    if reverse:
        outs = outs[::-1]
    return np.stack(outs, 1), state


def _zeros(step, n, h):
    z = np.zeros((n, h))
    return (z, z) if step is lstm_step else z


def stacked(step, layers, dirs, hidden):
    """ref of SimpleRNN/LSTM/GRU (batch major): inputs x [, h0 [, c0]] [, lengths]; initial
    states default to zeros, final states are stacked as [layers * dirs, N, H] (h and c
    apart for the LSTM). With lengths, each sequence runs alone over its own steps and its
    outputs past them are zeros."""
    def one(sd, x, init):
        finals = []
        for layer in range(layers):
            outs = []
            for d in range(dirs):
                i = layer * dirs + d
                if init:
                    st = tuple(a[i] for a in init) if step is lstm_step else init[0][i]
                else:
                    st = _zeros(step, x.shape[0], hidden)
                sfx = f"_l{layer}" + ("_reverse" if d else "")
                out, st = run(step, sd, x, st, bool(d), sfx)
                outs.append(out)
                finals.append(st)
            x = np.concatenate(outs, -1)
        if step is lstm_step:
            return x, (np.stack([f[0] for f in finals]), np.stack([f[1] for f in finals]))
        return x, np.stack(finals)

    def ref(sd, x, *rest):
        if not rest or rest[-1].dtype.kind not in "iu":
            return one(sd, x, rest)
        init, lengths = rest[:-1], rest[-1]
        outs, finals = [], []
        for n, length in enumerate(lengths):
            out, fin = one(sd, x[n:n + 1, :length], [a[:, n:n + 1] for a in init])
            outs.append(np.pad(out, [(0, 0), (0, x.shape[1] - length), (0, 0)]))
            finals.append(fin)
        out = np.concatenate(outs)
        if step is lstm_step:
            return out, tuple(np.concatenate([f[k] for f in finals], 1) for k in range(2))
        return out, np.concatenate(finals, 1)
    return ref


def _with_lengths(*state_shapes, lengths):
    """inputs(rng): x [N, T, I], initial states and int64 sequence lengths."""
    def gen(rng):
        arrays = tuple(rng.uniform(-2, 2, s) for s in ((len(lengths), 4, 3),) + state_shapes)
        return arrays + (np.array(lengths, dtype=np.int64),)
    return gen


def _cell(step):
    def ref(sd, x, *state):
        st = (tuple(state) if step is lstm_step else state[0]) if state else \
            _zeros(step, x.shape[0], sd["weight_hh"].shape[1])
        return step(sd, x, st)
    return ref


def _sub(sd, prefix):
    return {k[len(prefix):]: v for k, v in sd.items() if k.startswith(prefix)}


def _rnn_wrapper(step, reverse=False):
    def ref(sd, x):
        p = _sub(sd, "cell.")
        return run(step, p, x, _zeros(step, x.shape[0], p["weight_hh"].shape[1]), reverse)
    return ref


def _birnn(sd, x):
    fw, bw = _sub(sd, "cell_fw."), _sub(sd, "cell_bw.")
    z = np.zeros((x.shape[0], 3))
    o1, s1 = run(gru_step, fw, x, z)
    o2, s2 = run(gru_step, bw, x, z, reverse=True)
    return np.concatenate([o1, o2], -1), (s1, s2)


# ---------------------------------------------------------------------------
# attention and the encoder
# ---------------------------------------------------------------------------

def attention(p, q, k, v, heads, mask=None, weights=False):
    def proj(name, a):
        y = linear(a, p[name + ".weight"], p[name + ".bias"])
        return y.reshape(y.shape[0], y.shape[1], heads, -1).transpose(0, 2, 1, 3)
    qh, kh, vh = proj("q_proj", q), proj("k_proj", k), proj("v_proj", v)
    scores = qh @ kh.transpose(0, 1, 3, 2) / np.sqrt(qh.shape[-1])
    if mask is not None:
        scores = scores + mask
    probs = softmax(scores)
    out = (probs @ vh).transpose(0, 2, 1, 3).reshape(q.shape[0], q.shape[1], -1)
    out = linear(out, p["out_proj.weight"], p["out_proj.bias"])
    return (out, probs) if weights else out


def encoder_layer(p, x, heads, pre=False, act=lambda a: np.maximum(a, 0), mask=None):
    def ln(name, a):
        return layer_norm(a, p[name + ".weight"], p[name + ".bias"], 1)

    def ff(a):
        h = act(linear(a, p["linear1.weight"], p["linear1.bias"]))
        return linear(h, p["linear2.weight"], p["linear2.bias"])
    att = _sub(p, "self_attn.")
    if pre:
        x = x + attention(att, *(ln("norm1", x),) * 3, heads, mask)
        return x + ff(ln("norm2", x))
    x = ln("norm1", x + attention(att, x, x, x, heads, mask))
    return ln("norm2", x + ff(x))


def decoder_layer(p, x, memory, heads, pre=False, act=lambda a: np.maximum(a, 0),
                  tgt_mask=None, memory_mask=None):
    def ln(name, a):
        return layer_norm(a, p[name + ".weight"], p[name + ".bias"], 1)

    def ff(a):
        h = act(linear(a, p["linear1.weight"], p["linear1.bias"]))
        return linear(h, p["linear2.weight"], p["linear2.bias"])
    self_att, cross_att = _sub(p, "self_attn."), _sub(p, "cross_attn.")
    if pre:
        x = x + attention(self_att, *(ln("norm1", x),) * 3, heads, tgt_mask)
        x = x + attention(cross_att, ln("norm2", x), memory, memory, heads, memory_mask)
        return x + ff(ln("norm3", x))
    x = ln("norm1", x + attention(self_att, x, x, x, heads, tgt_mask))
    x = ln("norm2", x + attention(cross_att, x, memory, memory, heads, memory_mask))
    return ln("norm3", x + ff(x))


def _gelu(a):
    return 0.5 * a * (1 + np.vectorize(math.erf)(a / math.sqrt(2)))


def _mask(rng):
    """An additive mask [1, 1, 3, 4] keeping key 0 for every query (a fully masked row
    puts every score at -1e9, where rounding swamps the finite differences)."""
    m = np.where(rng.random((1, 1, 3, 4)) < 0.4, -1e9, 0.0)
    m[..., 0] = 0
    return m


def _encoder(nn, pre=False, norm=False):
    layer = nn.TransformerEncoderLayer(4, 2, 6, dropout=0.0, normalize_before=pre)
    return nn.TransformerEncoder(layer, 2, norm=nn.LayerNorm(4) if norm else None)


def _encoder_ref(pre=False, norm=False):
    def ref(sd, x):
        for i in range(2):
            x = encoder_layer(_sub(sd, f"layers.{i}."), x, 2, pre)
        return layer_norm(x, sd["norm.weight"], sd["norm.bias"], 1) if norm else x
    return ref


def _decoder(nn, pre=False, norm=False):
    layer = nn.TransformerDecoderLayer(4, 2, 6, dropout=0.0, normalize_before=pre)
    return nn.TransformerDecoder(layer, 2, norm=nn.LayerNorm(4) if norm else None)


def _decoder_ref(pre=False, norm=False, prefix="", layers=2):
    def ref(sd, x, memory, tgt_mask=None):
        for i in range(layers):
            x = decoder_layer(_sub(sd, f"{prefix}layers.{i}."), x, memory, 2, pre, tgt_mask=tgt_mask)
        return layer_norm(x, sd[prefix + "norm.weight"], sd[prefix + "norm.bias"], 1) if norm else x
    return ref


def _transformer_ref(sd, src, tgt, tgt_mask):
    memory = _encoder_ref(norm=True)(_sub(sd, "encoder."), src)
    return _decoder_ref(norm=True, prefix="decoder.", layers=1)(sd, tgt, memory, tgt_mask)


def _causal(rng):
    return np.triu(np.full((3, 3), -1e9), 1)


SEQ = rand((2, 3, 3))

LAYERS = [
    entry("SimpleRNNCell",
          Case({"input_size": 3, "hidden_size": 4}, rand((2, 3), (2, 4)), _cell(simple_step)),
          Case({"input_size": 3, "hidden_size": 2, "activation": "relu"}, rand((1, 3)),
               lambda sd, x: simple_step(sd, x, np.zeros((1, 2)), act=lambda a: np.maximum(a, 0)),
               desc="relu, zero state")),
    entry("LSTMCell", Case({"input_size": 3, "hidden_size": 2}, rand((2, 3), (2, 2), (2, 2)),
                           _cell(lstm_step), pack=lambda t: (t[0], (t[1], t[2]))),
          Case({"input_size": 2, "hidden_size": 3}, rand((1, 2)), _cell(lstm_step)),
          Case({"input_size": 3, "hidden_size": 4, "proj_size": 2}, rand((2, 3), (2, 2), (2, 4)),
               _cell(lstm_step), pack=lambda t: (t[0], (t[1], t[2])), desc="proj_size")),
    entry("GRUCell", Case({"input_size": 3, "hidden_size": 2}, rand((3, 3), (3, 2)),
                          _cell(gru_step))),
    entry("RNN",
          Case({}, SEQ, _rnn_wrapper(lstm_step), build=lambda nn: nn.RNN(nn.LSTMCell(3, 2))),
          Case({}, SEQ, _rnn_wrapper(simple_step, reverse=True), desc="reverse",
               build=lambda nn: nn.RNN(nn.SimpleRNNCell(3, 2), is_reverse=True))),
    entry("BiRNN", Case({}, SEQ, _birnn,
                        build=lambda nn: nn.BiRNN(nn.GRUCell(3, 3), nn.GRUCell(3, 3)))),
    entry("SimpleRNN",
          Case({"input_size": 3, "hidden_size": 2}, SEQ, stacked(simple_step, 1, 1, 2)),
          Case({"input_size": 3, "hidden_size": 2, "num_layers": 2, "direction": "bidirect"},
               rand((1, 4, 3)), stacked(simple_step, 2, 2, 2), desc="2 layers bidirect"),
          Case({"input_size": 3, "hidden_size": 2}, _with_lengths(lengths=[3, 4, 1]),
               stacked(simple_step, 1, 1, 2), pack=lambda t: (t[0], None, t[1]),
               desc="sequence_length")),
    entry("LSTM",
          Case({"input_size": 3, "hidden_size": 2}, SEQ, stacked(lstm_step, 1, 1, 2)),
          Case({"input_size": 3, "hidden_size": 2, "num_layers": 2, "direction": "bidirect"},
               SEQ, stacked(lstm_step, 2, 2, 2), desc="2 layers bidirect"),
          Case({"input_size": 3, "hidden_size": 2, "num_layers": 2, "direction": "bidirect"},
               _with_lengths((4, 3, 2), (4, 3, 2), lengths=[4, 2, 3]),
               stacked(lstm_step, 2, 2, 2), pack=lambda t: (t[0], (t[1], t[2]), t[3]),
               desc="initial states, sequence_length")),
    entry("GRU",
          Case({"input_size": 3, "hidden_size": 2, "num_layers": 2}, SEQ,
               stacked(gru_step, 2, 1, 2)),
          Case({"input_size": 3, "hidden_size": 2, "direction": "bidirectional"}, rand((1, 3, 3)),
               stacked(gru_step, 1, 2, 2), desc="bidirectional"),
          Case({"input_size": 3, "hidden_size": 2, "direction": "bidirect"},
               _with_lengths((2, 2, 2), lengths=[1, 4]), stacked(gru_step, 1, 2, 2),
               desc="initial state, sequence_length")),
    entry("MultiHeadAttention",
          Case({"embed_dim": 4, "num_heads": 2}, rand((2, 3, 4), (2, 4, 4), (2, 4, 4)),
               lambda sd, q, k, v: attention(sd, q, k, v, 2)),
          Case({"embed_dim": 4, "num_heads": 1}, lambda rng: (
              rng.uniform(-2, 2, (1, 3, 4)), rng.uniform(-2, 2, (1, 4, 4)),
              rng.uniform(-2, 2, (1, 4, 4)), _mask(rng)),
               lambda sd, q, k, v, m: attention(sd, q, k, v, 1, m), grad_inputs=(0, 1, 2),
               desc="additive mask"),
          Case({"embed_dim": 4, "num_heads": 2, "kdim": 3, "vdim": 5, "need_weights": True},
               rand((1, 2, 4), (1, 3, 3), (1, 3, 5)),
               lambda sd, q, k, v: attention(sd, q, k, v, 2, weights=True),
               desc="kdim vdim need_weights")),
    entry("TransformerEncoderLayer",
          Case({"d_model": 4, "nhead": 2, "dim_feedforward": 6, "dropout": 0.0},
               rand((2, 3, 4)), lambda sd, x: encoder_layer(sd, x, 2)),
          Case({"d_model": 4, "nhead": 2, "dim_feedforward": 6, "dropout": 0.0,
                "normalize_before": True}, rand((1, 3, 4)),
               lambda sd, x: encoder_layer(sd, x, 2, pre=True), desc="normalize_before"),
          Case({"d_model": 4, "nhead": 2, "dim_feedforward": 6, "dropout": 0.3,
                "activation": "gelu"}, lambda rng: (rng.uniform(-2, 2, (2, 3, 4)),
                                                    _mask(rng)[..., :3]),
               lambda sd, x, m: encoder_layer(sd, x, 2, act=_gelu, mask=m), train=False,
               grad_inputs=(0,), desc="eval: no dropout, gelu, src_mask")),
    entry("TransformerEncoder",
          Case({}, rand((2, 3, 4)), _encoder_ref(), build=_encoder, joint_params=True),
          Case({}, rand((1, 2, 4)), _encoder_ref(True, True), desc="pre-norm, final norm",
               build=lambda nn: _encoder(nn, True, True), joint_params=True)),
    entry("TransformerDecoderLayer",
          Case({"d_model": 4, "nhead": 2, "dim_feedforward": 6, "dropout": 0.0},
               rand((2, 3, 4), (2, 4, 4)), lambda sd, x, m: decoder_layer(sd, x, m, 2)),
          Case({"d_model": 4, "nhead": 2, "dim_feedforward": 6, "dropout": 0.0,
                "normalize_before": True}, rand((1, 2, 4), (1, 3, 4)),
               lambda sd, x, m: decoder_layer(sd, x, m, 2, pre=True), desc="normalize_before"),
          Case({"d_model": 4, "nhead": 2, "dim_feedforward": 6, "dropout": 0.3,
                "activation": "gelu"}, lambda rng: (rng.uniform(-2, 2, (2, 3, 4)),
                                                    rng.uniform(-2, 2, (2, 4, 4)), _mask(rng)),
               lambda sd, x, m, mm: decoder_layer(sd, x, m, 2, act=_gelu, memory_mask=mm),
               train=False, pack=lambda t: (t[0], t[1], None, t[2]), grad_inputs=(0, 1),
               desc="eval: no dropout, gelu, memory_mask")),
    entry("TransformerDecoder",
          Case({}, rand((2, 3, 4), (2, 2, 4)), _decoder_ref(), build=_decoder,
               joint_params=True),
          Case({}, lambda rng: (rng.uniform(-2, 2, (1, 3, 4)), rng.uniform(-2, 2, (1, 2, 4)),
                                _causal(rng)),
               _decoder_ref(True, True), desc="pre-norm, final norm, tgt_mask",
               build=lambda nn: _decoder(nn, True, True), grad_inputs=(0, 1),
               joint_params=True)),
    entry("Transformer",
          Case({"d_model": 4, "nhead": 2, "num_encoder_layers": 2, "num_decoder_layers": 1,
                "dim_feedforward": 6, "dropout": 0.0},
               lambda rng: (rng.uniform(-2, 2, (2, 4, 4)), rng.uniform(-2, 2, (2, 3, 4)),
                            _causal(rng)),
               _transformer_ref, pack=lambda t: (t[0], t[1], None, t[2]), grad_inputs=(0, 1),
               joint_params=True, desc="tgt_mask")),
]
