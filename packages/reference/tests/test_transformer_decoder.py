"""The Transformer decoder layer, decoder and Transformer: against a NumPy statement and
Paddle 3.3.1 values, incremental decoding with caches, gradients, parameter names, errors."""

import numpy as np
import pytest
from gradcheck import check_grads

import dygrad as paddle
from dygrad import nn


def np_linear(lin, x):
    return x @ lin.weight.numpy() + lin.bias.numpy()


def np_layer_norm(norm, x):
    mean, var = x.mean(-1, keepdims=True), x.var(-1, keepdims=True)
    return (x - mean) / np.sqrt(var + norm._epsilon) * norm.weight.numpy() + norm.bias.numpy()


def np_attention(mha, q, kv, mask):
    """MultiHeadAttention of query q over keys and values kv (mask: additive)."""
    def heads(x):
        return x.reshape(x.shape[0], x.shape[1], mha.num_heads, -1).transpose(0, 2, 1, 3)
    qh = heads(np_linear(mha.q_proj, q))
    kh, vh = heads(np_linear(mha.k_proj, kv)), heads(np_linear(mha.v_proj, kv))
    scores = qh @ kh.transpose(0, 1, 3, 2) / np.sqrt(mha.head_dim) + mask
    e = np.exp(scores - scores.max(-1, keepdims=True))
    out = (e / e.sum(-1, keepdims=True)) @ vh
    return np_linear(mha.out_proj, out.transpose(0, 2, 1, 3).reshape(q.shape))


def np_decoder_layer(layer, tgt, memory, tgt_mask=0.0, memory_mask=0.0):
    """Post-norm decoder layer with relu and no dropout, in NumPy."""
    x = np_layer_norm(layer.norm1, tgt + np_attention(layer.self_attn, tgt, tgt, tgt_mask))
    x = np_layer_norm(layer.norm2, x + np_attention(layer.cross_attn, x, memory, memory_mask))
    ff = np_linear(layer.linear2, np.maximum(np_linear(layer.linear1, x), 0))
    return np_layer_norm(layer.norm3, x + ff)


def test_decoder_layer_matches_numpy_with_masks():
    rng = np.random.default_rng(0)
    layer = nn.TransformerDecoderLayer(6, 3, 5, dropout=0.0)
    tgt, memory = rng.standard_normal((2, 4, 6)), rng.standard_normal((2, 3, 6))
    keep = rng.random((2, 1, 4, 3)) > 0.3
    keep[..., 0] = True
    causal = np.tril(np.ones((4, 4), bool))
    out = layer(paddle.to_tensor(tgt, "float32"), paddle.to_tensor(memory, "float32"),
                tgt_mask=paddle.to_tensor(causal), memory_mask=paddle.to_tensor(keep))
    expected = np_decoder_layer(layer, tgt, memory, np.where(causal, 0.0, -1e9),
                                np.where(keep, 0.0, -1e9))
    np.testing.assert_allclose(out.numpy(), expected, rtol=1e-4, atol=1e-5)
    out = layer(paddle.to_tensor(tgt[:1, :1], "float32"), paddle.to_tensor(memory[:1], "float32"))
    np.testing.assert_allclose(out.numpy(), np_decoder_layer(layer, tgt[:1, :1], memory[:1]),
                               rtol=1e-4, atol=1e-5)


def fill(layer):
    """The same deterministic values in every parameter, in named_parameters() order."""
    for i, (_, p) in enumerate(layer.named_parameters()):
        n = int(np.prod(p.shape))
        p.set_value((0.5 * np.sin(np.arange(n) * 0.37 + i)).reshape(p.shape).astype("float32"))


Q = np.cos(np.arange(24) * 0.5).reshape(2, 3, 4).astype("float32")
M = np.sin(np.arange(40) * 0.3).reshape(2, 5, 4).astype("float32")


def test_transformer_decoder_matches_paddle():
    dec = nn.TransformerDecoder(nn.TransformerDecoderLayer(4, 2, 6, dropout=0.0), 2,
                                norm=nn.LayerNorm(4))
    fill(dec)
    causal = paddle.to_tensor(np.tril(np.ones((3, 3), bool)))
    memory_mask = paddle.to_tensor(np.arange(30).reshape(2, 1, 3, 5) % 4 != 1)
    out = dec(paddle.to_tensor(Q), paddle.to_tensor(M), causal, memory_mask)
    # from Paddle 3.3.1 (paddle.nn.TransformerDecoder with the same fill, inputs and masks)
    np.testing.assert_allclose(out.numpy(), [
        [[-0.14009270, -0.48992124, -0.01168576, -0.12182947],
         [-0.10687575, -0.51333940, -0.01015197, -0.12444805],
         [0.02652599, -0.34208670, -0.32408565, -0.07372211]],
        [[-0.14783055, -0.48066565, -0.01932006, -0.11906886],
         [-0.11687189, -0.50635725, -0.01077029, -0.12356359],
         [0.01402679, -0.42761019, -0.23819500, -0.08157252]]], rtol=1e-5, atol=1e-5)


def test_pre_norm_decoder_layer_with_gelu_matches_paddle():
    layer = nn.TransformerDecoderLayer(4, 2, 6, dropout=0.0, normalize_before=True,
                                       activation="gelu")
    fill(layer)
    mask = paddle.to_tensor((-np.arange(9).reshape(3, 3) * 0.5).astype("float32"))
    # from Paddle 3.3.1 (paddle.nn.TransformerDecoderLayer with the same fill, inputs, mask)
    np.testing.assert_allclose(layer(paddle.to_tensor(Q), paddle.to_tensor(M), mask).numpy(), [
        [[1.22268355, 1.11514366, 0.76058811, 0.24393307],
         [-0.21277976, -0.56398356, -0.75113797, -0.72823548],
         [-0.39720365, 0.07754634, 0.56488091, 0.94470322]],
        [[1.18996847, 1.19997859, 0.94065106, 0.47146648],
         [0.06597182, -0.38227767, -0.71287352, -0.84722614],
         [-0.58625555, -0.20210183, 0.26147175, 0.68917185]]], rtol=1e-5, atol=1e-5)


def test_transformer_matches_paddle_and_its_parameter_names():
    model = nn.Transformer(4, 2, 2, 1, 6, dropout=0.0)
    fill(model)
    mask = model.generate_square_subsequent_mask(3)
    out = model(paddle.to_tensor(M), paddle.to_tensor(Q), None, mask)
    # from Paddle 3.3.1 (paddle.nn.Transformer(4, 2, 2, 1, 6, dropout=0.0), same fill/inputs)
    np.testing.assert_allclose(out.numpy(), [
        [[-0.72842044, -0.50735164, -0.01393947, -0.00829008],
         [-0.73561031, -0.47268692, -0.10640195, 0.06590700],
         [-0.59601885, -0.76373112, -0.47042313, 0.48584035]],
        [[-0.72681153, -0.51352012, -0.00166827, -0.01779452],
         [-0.73446882, -0.48002014, -0.08109394, 0.04488975],
         [-0.62342262, -0.70480204, -0.47163013, 0.48341593]]], rtol=1e-5, atol=1e-5)
    keys = list(model.state_dict())
    assert len(keys) == 62 and keys[:2] == ["encoder.layers.0.self_attn.q_proj.weight",
                                            "encoder.layers.0.self_attn.q_proj.bias"]
    assert keys[32:36] == ["encoder.norm.weight", "encoder.norm.bias",
                           "decoder.layers.0.self_attn.q_proj.weight",
                           "decoder.layers.0.self_attn.q_proj.bias"]
    assert keys[-8:] == [f"decoder.layers.0.norm{i}.{w}" for i in (1, 2, 3)
                         for w in ("weight", "bias")] + ["decoder.norm.weight",
                                                          "decoder.norm.bias"]
    assert [n for n, _ in model.decoder.layers[0].named_children()] == [
        "self_attn", "cross_attn", "linear1", "dropout", "linear2", "norm1", "norm2", "norm3",
        "dropout1", "dropout2", "dropout3"]
    assert model.decoder.layers[0].linear1.weight.shape == [4, 6]


def test_generate_square_subsequent_mask():
    model = nn.Transformer(4, 2, 1, 1, 4)
    mask = model.generate_square_subsequent_mask(3)
    assert mask.dtype == paddle.float32 and mask.shape == [3, 3]
    np.testing.assert_array_equal(mask.numpy(), np.triu(np.full((3, 3), -np.inf), 1) + 0.0)
    np.testing.assert_array_equal(
        model.generate_square_subsequent_mask(paddle.to_tensor(3)).numpy(), mask.numpy())


@pytest.mark.parametrize("normalize_before", [False, True])
def test_incremental_decoding_with_cache_equals_causal_decoding(normalize_before):
    rng = np.random.default_rng(1)
    dec = nn.TransformerDecoder(nn.TransformerDecoderLayer(
        4, 2, 8, dropout=0.0, normalize_before=normalize_before), 2)
    tgt = paddle.to_tensor(rng.standard_normal((2, 5, 4)), "float32")
    memory = paddle.to_tensor(rng.standard_normal((2, 3, 4)), "float32")
    causal = nn.Transformer(4, 2, 1, 1, 4).generate_square_subsequent_mask(5)
    full = dec(tgt, memory, tgt_mask=causal).numpy()
    cache = dec.gen_cache(memory)
    self_cache, static_cache = cache[1]
    assert self_cache.k.shape == [2, 2, 0, 2] and static_cache.k.shape == [2, 2, 3, 2]
    for t in range(5):
        step, cache = dec(tgt[:, t:t + 1], memory, cache=cache)
        np.testing.assert_allclose(step.numpy()[:, 0], full[:, t], rtol=1e-5, atol=1e-5)
    assert cache[0][0].k.shape == [2, 2, 5, 2] and cache[0][1] is not None
    zipped = dec.gen_cache(memory, do_zip=True)
    assert len(zipped) == 2 and len(zipped[0]) == 2
    assert isinstance(zipped[1][0], nn.MultiHeadAttention.StaticCache)


def test_decoder_layer_gradients_match_finite_differences():
    paddle.set_default_dtype("float64")
    rng = np.random.default_rng(2)
    layer = nn.TransformerDecoderLayer(4, 2, 3, dropout=0.0)
    mask = paddle.to_tensor(np.tril(np.ones((2, 2), bool)))
    check_grads(lambda t, m: layer(t, m, tgt_mask=mask), rng.standard_normal((1, 2, 4)),
                rng.standard_normal((1, 3, 4)), rtol=1e-5, atol=1e-7)
    out = layer(paddle.randn([1, 2, 4]), paddle.randn([1, 3, 4]))
    out.sum().backward()
    assert all(p.grad is not None for p in layer.parameters())


def test_transformer_attrs_custom_parts_and_errors():
    model = nn.Transformer(4, 2, 1, 1, 6, weight_attr=[None, nn.initializer.Constant(0.5)],
                           bias_attr=[False])
    enc, dec = model.encoder.layers[0], model.decoder.layers[0]
    assert np.all(enc.linear1.weight.numpy() == 0.5) and np.all(dec.linear2.weight.numpy() == 0.5)
    assert not np.all(dec.cross_attn.q_proj.weight.numpy() == 0.5)
    assert enc.linear1.bias is None and dec.cross_attn.out_proj.bias is None
    layer = nn.TransformerDecoderLayer(4, 2, 6, dropout=0.2, act_dropout=0.3,
                                       bias_attr=[None, False, None])
    assert layer.cross_attn.k_proj.bias is None and layer.self_attn.k_proj.bias is not None
    assert layer.self_attn.dropout == 0.2 and layer.dropout.p == 0.3
    custom = nn.TransformerDecoder(nn.TransformerDecoderLayer(4, 2, 6), 1)
    model = nn.Transformer(4, 2, 1, 1, 6, custom_decoder=custom)
    assert model.decoder is custom and model.d_model == 4 and model.nhead == 2
    assert model(paddle.randn([2, 3, 4]), paddle.randn([2, 5, 4])).shape == [2, 5, 4]
    with pytest.raises(ValueError, match="length of param_attr should be 3"):
        nn.TransformerDecoderLayer(4, 2, 6, weight_attr=[None, None])
    with pytest.raises(ValueError, match="length of bias_attr should be 1 or 2 or 3"):
        nn.Transformer(4, 2, 1, 1, 6, bias_attr=[None] * 4)
    with pytest.raises(ValueError, match="nhead to be greater than 0"):
        nn.TransformerDecoderLayer(4, 0, 6)
    with pytest.raises(ValueError, match="unknown activation 'nope'"):
        nn.TransformerDecoderLayer(4, 2, 6, activation="nope")
