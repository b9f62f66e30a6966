"""Attention layers: MultiHeadAttention against a NumPy statement, masks, caches, the
encoder layer and encoder against Paddle 3.3.1 values, parameter names, errors."""

import numpy as np
import pytest

import dygrad as paddle
from dygrad import nn


def np_softmax(x):
    e = np.exp(x - x.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def np_mha(mha, q, k, v, mask=None):
    """Attention weights and output of ``mha`` in NumPy (mask: additive, broadcastable)."""
    def proj(lin, x, n):
        y = x @ lin.weight.numpy() + lin.bias.numpy()
        return y.reshape(y.shape[0], y.shape[1], n, -1).transpose(0, 2, 1, 3)
    h = mha.num_heads
    qh, kh, vh = proj(mha.q_proj, q, h), proj(mha.k_proj, k, h), proj(mha.v_proj, v, h)
    scores = qh @ kh.transpose(0, 1, 3, 2) / np.sqrt(mha.head_dim)
    weights = np_softmax(scores if mask is None else scores + mask)
    out = (weights @ vh).transpose(0, 2, 1, 3).reshape(q.shape[0], q.shape[1], -1)
    return out @ mha.out_proj.weight.numpy() + mha.out_proj.bias.numpy(), weights


def test_multi_head_attention_matches_numpy_with_bool_and_float_masks():
    rng = np.random.default_rng(0)
    mha = nn.MultiHeadAttention(6, 3, kdim=4, vdim=5, need_weights=True)
    q, k, v = (rng.standard_normal(s) for s in ((2, 3, 6), (2, 5, 4), (2, 5, 5)))
    keep = rng.random((2, 1, 3, 5)) > 0.3
    keep[..., 0] = True
    add = rng.standard_normal((3, 5))
    for mask, np_mask in ((None, None), (keep, np.where(keep, 0.0, -1e9)), (add, add),
                          (keep.astype("int64"), np.where(keep, 0.0, -1e9))):
        t = [paddle.to_tensor(a, "float32") for a in (q, k, v)]
        m = None if mask is None else paddle.to_tensor(
            mask if mask.dtype != np.float64 else mask.astype("float32"))
        out, weights = mha(*t, attn_mask=m)
        expected, expected_w = np_mha(mha, q, k, v, np_mask)
        np.testing.assert_allclose(out.numpy(), expected, rtol=1e-4, atol=1e-5)
        np.testing.assert_allclose(weights.numpy(), expected_w, rtol=1e-4, atol=1e-6)
    assert np.all(weights.numpy()[np.broadcast_to(~keep, weights.shape)] == 0)


def test_multi_head_attention_defaults_and_parameters():
    mha = nn.MultiHeadAttention(8, 2)
    x = paddle.randn([3, 4, 8])
    out = mha(x)
    assert out.shape == [3, 4, 8] and not isinstance(out, tuple)
    np.testing.assert_allclose(out.numpy(), np_mha(mha, *[x.numpy()] * 3)[0], rtol=1e-4,
                               atol=1e-5)
    assert [(n, p.shape) for n, p in nn.MultiHeadAttention(4, 2, kdim=3, vdim=5)
            .named_parameters()] == [
        ("q_proj.weight", [4, 4]), ("q_proj.bias", [4]), ("k_proj.weight", [3, 4]),
        ("k_proj.bias", [4]), ("v_proj.weight", [5, 4]), ("v_proj.bias", [4]),
        ("out_proj.weight", [4, 4]), ("out_proj.bias", [4])]
    assert nn.MultiHeadAttention(4, 2, bias_attr=False).q_proj.bias is None


def test_multi_head_attention_caches():
    rng = np.random.default_rng(1)
    mha = nn.MultiHeadAttention(4, 2)
    x = paddle.to_tensor(rng.standard_normal((2, 5, 4)), "float32")
    causal = paddle.to_tensor(np.tril(np.ones((5, 5), bool)))
    full = mha(x, attn_mask=causal).numpy()
    cache = mha.gen_cache(x)
    assert cache.k.shape == [2, 2, 0, 2]
    for t in range(5):  # incremental decoding: each step attends to itself and the past
        step, cache = mha(x[:, t:t + 1], cache=cache)
        np.testing.assert_allclose(step.numpy()[:, 0], full[:, t], rtol=1e-5, atol=1e-6)
    assert cache.k.shape == [2, 2, 5, 2]
    memory = paddle.to_tensor(rng.standard_normal((2, 3, 4)), "float32")
    static = mha.gen_cache(memory, memory, type=nn.MultiHeadAttention.StaticCache)
    out, same = mha(x, cache=static)
    assert same is static
    np.testing.assert_allclose(out.numpy(), mha(x, memory, memory).numpy(), atol=1e-6)


def test_multi_head_attention_gradients_match_finite_differences():
    paddle.set_default_dtype("float64")
    rng = np.random.default_rng(2)
    mha = nn.MultiHeadAttention(4, 2)
    x = rng.standard_normal((1, 3, 4))
    r = paddle.to_tensor(rng.standard_normal((1, 3, 4)))
    xt = paddle.to_tensor(x, stop_gradient=False)
    (mha(xt) * r).sum().backward()
    numeric = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        d = np.zeros_like(x)
        d[i] = 1e-6
        numeric[i] = float(((mha(paddle.to_tensor(x + d)) - mha(paddle.to_tensor(x - d)))
                            * r).sum()) / 2e-6
    np.testing.assert_allclose(xt.grad.numpy(), numeric, rtol=1e-6, atol=1e-8)


def test_multi_head_attention_dropout_only_when_training():
    paddle.seed(3)
    mha = nn.MultiHeadAttention(4, 2, dropout=0.5, need_weights=True)
    x = paddle.randn([2, 3, 4])
    mha.eval()
    _, w_eval = mha(x)
    mha.train()
    _, w = mha(x)
    w, w_eval = w.numpy(), w_eval.numpy()
    dropped = w == 0
    assert dropped.any() and not dropped.all()  # upscale_in_train: kept weights doubled
    np.testing.assert_allclose(w[~dropped], 2 * w_eval[~dropped], rtol=1e-6)


def test_multi_head_attention_errors():
    with pytest.raises(ValueError, match="divisible"):
        nn.MultiHeadAttention(5, 2)
    with pytest.raises(ValueError, match="num_heads to be greater than 0"):
        nn.MultiHeadAttention(4, 0)
    with pytest.raises(ValueError, match=r"query must be a 3-D Tensor \[batch_size, length, 4\]"):
        nn.MultiHeadAttention(4, 2)(paddle.randn([2, 3, 5]))


def fill(layer):
    """The same deterministic values in every parameter, in named_parameters() order."""
    for i, (_, p) in enumerate(layer.named_parameters()):
        n = int(np.prod(p.shape))
        p.set_value((0.5 * np.sin(np.arange(n) * 0.37 + i)).reshape(p.shape).astype("float32"))


Q = np.cos(np.arange(24) * 0.5).reshape(2, 3, 4).astype("float32")


def test_multi_head_attention_matches_paddle():
    mha = nn.MultiHeadAttention(4, 2, kdim=3, vdim=5)
    fill(mha)
    k = np.sin(np.arange(30) * 0.3).reshape(2, 5, 3).astype("float32")
    v = np.cos(np.arange(50) * 0.2).reshape(2, 5, 5).astype("float32")
    mask = np.arange(30).reshape(2, 1, 3, 5) % 4 != 1
    out = mha(paddle.to_tensor(Q), paddle.to_tensor(k), paddle.to_tensor(v),
              attn_mask=paddle.to_tensor(mask))
    # from Paddle 3.3.1 (paddle.nn.MultiHeadAttention with the same fill, inputs and mask)
    np.testing.assert_allclose(out.numpy(), [
        [[0.22986588, 0.29790527, 0.32562459, 0.30927214],
         [0.18702641, 0.21628369, 0.21626803, 0.18698144],
         [0.16739264, 0.22078651, 0.24429795, 0.23474482]],
        [[0.20472041, 0.29174358, 0.33928066, 0.34089762],
         [0.20607673, 0.28229165, 0.32029977, 0.31495672],
         [0.13278545, 0.17730537, 0.19782785, 0.19157526]]], rtol=1e-5, atol=1e-6)


def test_transformer_encoder_matches_paddle():
    layer = nn.TransformerEncoderLayer(4, 2, 6, dropout=0.0)
    enc = nn.TransformerEncoder(layer, 2, norm=nn.LayerNorm(4))
    fill(enc)
    enc.eval()
    causal = paddle.to_tensor(np.tril(np.ones((3, 3), bool)))
    # from Paddle 3.3.1 (paddle.nn.TransformerEncoder with the same fill, input and mask)
    np.testing.assert_allclose(enc(paddle.to_tensor(Q), causal).numpy(), [
        [[0.15127128, 0.20923361, 0.98622370, 0.51744634],
         [0.14928183, 0.18911496, 0.77017212, 0.76660901],
         [0.11399817, 0.33189708, 0.55210704, 0.87958038]],
        [[0.14905277, 0.22386859, 1.00457180, 0.48485798],
         [0.14894143, 0.18608046, 0.86720347, 0.67161125],
         [0.11588243, 0.33191609, 0.54267389, 0.88582021]]], rtol=1e-5, atol=1e-5)


def test_pre_norm_encoder_layer_with_gelu_matches_paddle():
    layer = nn.TransformerEncoderLayer(4, 2, 6, dropout=0.0, normalize_before=True,
                                       activation="gelu")
    fill(layer)
    mask = paddle.to_tensor((-np.arange(9).reshape(3, 3) * 0.5).astype("float32"))
    # from Paddle 3.3.1 (paddle.nn.TransformerEncoderLayer with the same fill, input, mask)
    np.testing.assert_allclose(layer(paddle.to_tensor(Q), mask).numpy(), [
        [[0.71614009, 0.66725326, 0.43197063, 0.07906538],
         [-0.84446752, -1.16272902, -1.23590374, -1.03341079],
         [-0.93152303, -0.41118848, 0.18787855, 0.73045892]],
        [[0.69850612, 0.79028898, 0.66818357, 0.37309834],
         [-0.53389025, -0.92284977, -1.12099171, -1.06765366],
         [-1.13019252, -0.68996990, -0.10429657, 0.49500811]]], rtol=1e-5, atol=1e-5)


def test_encoder_layer_structure_and_dropouts():
    layer = nn.TransformerEncoderLayer(8, 2, 16, dropout=0.2, attn_dropout=0.3,
                                       weight_attr=[None, nn.initializer.Constant(0.1)],
                                       bias_attr=False)
    assert [n for n, _ in layer.named_children()] == [
        "self_attn", "linear1", "dropout", "linear2", "norm1", "norm2", "dropout1", "dropout2"]
    assert layer.self_attn.dropout == 0.3 and layer.dropout.p == 0.2
    assert np.all(layer.linear1.weight.numpy() == 0.1) and layer.linear1.bias is None
    assert layer.self_attn.q_proj.bias is None
    x = paddle.randn([2, 5, 8])
    out = layer(x)
    assert out.shape == [2, 5, 8]
    layer.eval()
    np.testing.assert_array_equal(layer(x).numpy(), layer(x).numpy())
    with pytest.raises(ValueError, match="d_model to be greater than 0"):
        nn.TransformerEncoderLayer(0, 2, 4)
    with pytest.raises(ValueError, match="length of param_attr should be 2"):
        nn.TransformerEncoderLayer(4, 2, 4, weight_attr=[None])


def test_transformer_encoder_builds_new_layers_of_the_same_configuration():
    layer = nn.TransformerEncoderLayer(4, 2, 6, activation="gelu", normalize_before=True)
    enc = nn.TransformerEncoder(layer, 3)
    assert enc.layers[0] is layer and enc.norm is None and enc.num_layers == 3
    second = enc.layers[1]
    assert second is not layer and second.normalize_before and second.linear1.weight.shape == [4, 6]
    assert not np.array_equal(second.linear1.weight.numpy(), layer.linear1.weight.numpy())
    assert list(enc.state_dict())[:2] == ["layers.0.self_attn.q_proj.weight",
                                          "layers.0.self_attn.q_proj.bias"]
    assert len(enc.state_dict()) == 3 * 16
    x = paddle.randn([2, 3, 4])
    caches = enc.gen_cache(x)
    out, new_caches = enc(x, cache=caches)
    assert out.shape == [2, 3, 4] and new_caches[2].k.shape == [2, 2, 3, 2]
