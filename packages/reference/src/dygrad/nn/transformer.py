"""Attention layers: MultiHeadAttention, the Transformer encoder and decoder (layers and
stacks) and Transformer, as Paddle's ``paddle.nn``: composites of Linear, matmul, softmax,
dropout and LayerNorm."""

from __future__ import annotations

import collections
import copy

from .. import tensor as T
from .._core.tensor import Tensor
from ..tensor.manipulation import _int
from . import functional as F
from .common import Dropout, Linear
from .container import LayerList
from .layer import Layer
from .norm import LayerNorm
from .param_attr import ParamAttr

__all__ = ["MultiHeadAttention", "TransformerEncoderLayer", "TransformerEncoder",
           "TransformerDecoderLayer", "TransformerDecoder", "Transformer"]


def _convert_param_attr_to_list(param_attr, n):
    """``n`` parameter attrs: a list of n as given (True: default, False: none), one attr
    copied n times (a named one gets the suffixes _0, _1, ...), or a bool for all."""
    if isinstance(param_attr, (list, tuple)):
        if len(param_attr) != n:
            raise ValueError(f"length of param_attr should be {n} when it is a list/tuple, "
                             f"got {len(param_attr)}")
        return [False if a is False else ParamAttr._to_attr(None if a is True else a)
                for a in param_attr]
    if isinstance(param_attr, bool):
        return [ParamAttr._to_attr(None) if param_attr else False for _ in range(n)]
    attr = ParamAttr._to_attr(param_attr)
    attrs = []
    for i in range(n):
        attr_i = copy.deepcopy(attr)
        if attr.name:
            attr_i.name = f"{attr.name}_{i}"
        attrs.append(attr_i)
    return attrs


def _check_sizes(d_model, nhead, dim_feedforward):
    """ValueError unless the sizes of a Transformer (layer) are positive."""
    for name, value in (("d_model", d_model), ("nhead", nhead),
                        ("dim_feedforward", dim_feedforward)):
        if value <= 0:
            raise ValueError(f"Expected {name} to be greater than 0, but received {value}")


def _activation(name, api):
    """The function of paddle.nn.functional called ``name``."""
    if not hasattr(F, name):
        raise ValueError(f"{api}: unknown activation {name!r} (a name in "
                         f"paddle.nn.functional, e.g. 'relu' or 'gelu')")
    return getattr(F, name)


def _convert_attention_mask(attn_mask, dtype):
    """An additive float mask: a bool (or int) mask keeps where True (nonzero) and puts
    -1e9 where False; a float mask of another dtype is cast."""
    if attn_mask is None or attn_mask.dtype == dtype:
        return attn_mask
    if attn_mask.dtype.name == "bool" or "int" in attn_mask.dtype.name:
        return (T.cast(attn_mask, dtype) - 1.0) * 1e9
    return T.cast(attn_mask, dtype)


class MultiHeadAttention(Layer):
    """softmax(Q K^T / sqrt(head_dim) + attn_mask) V over ``num_heads`` heads, with the
    projections q_proj, k_proj, v_proj and out_proj (Linear layers). Inputs are
    ``[batch, length, dim]``; key and value default to query. ``attn_mask`` broadcasts to
    ``[batch, num_heads, query_length, key_length]``: bool (True attends) or additive float.

    ``forward`` returns the output, plus the attention weights when ``need_weights`` and
    the updated cache when a cache is given (``gen_cache``: ``Cache`` appends this call's
    keys and values to earlier ones, ``StaticCache`` holds fixed ones)."""

    Cache = collections.namedtuple("Cache", ["k", "v"])
    StaticCache = collections.namedtuple("StaticCache", ["k", "v"])

    def __init__(self, embed_dim, num_heads, dropout=0.0, kdim=None, vdim=None,
                 need_weights=False, weight_attr=None, bias_attr=None):
        super().__init__()
        if embed_dim <= 0:
            raise ValueError(f"Expected embed_dim to be greater than 0, but received "
                             f"{embed_dim}")
        if num_heads <= 0:
            raise ValueError(f"Expected num_heads to be greater than 0, but received "
                             f"{num_heads}")
        if embed_dim % num_heads:
            raise ValueError(f"embed_dim must be divisible by num_heads, got embed_dim="
                             f"{embed_dim} and num_heads={num_heads}")
        self.embed_dim = embed_dim
        self.kdim = embed_dim if kdim is None else kdim
        self.vdim = embed_dim if vdim is None else vdim
        self.num_heads = num_heads
        self.dropout = dropout
        self.need_weights = need_weights
        self.head_dim = embed_dim // num_heads
        self.q_proj = Linear(embed_dim, embed_dim, weight_attr, bias_attr=bias_attr)
        self.k_proj = Linear(self.kdim, embed_dim, weight_attr, bias_attr=bias_attr)
        self.v_proj = Linear(self.vdim, embed_dim, weight_attr, bias_attr=bias_attr)
        self.out_proj = Linear(embed_dim, embed_dim, weight_attr, bias_attr=bias_attr)

    def _heads(self, x):
        """[batch, length, embed_dim] -> [batch, num_heads, length, head_dim]."""
        return T.transpose(T.reshape(x, [0, 0, self.num_heads, self.head_dim]), [0, 2, 1, 3])

    def compute_kv(self, key, value):
        """The projected keys and values, split into heads."""
        return self._heads(self.k_proj(key)), self._heads(self.v_proj(value))

    def gen_cache(self, key, value=None, type=Cache):
        """A StaticCache of the projected ``key``/``value``; or a Cache: empty when
        ``value`` is None (``key`` gives the batch size), else holding key and value."""
        if type is MultiHeadAttention.StaticCache:
            return self.StaticCache(*self.compute_kv(key, value))
        if value is None:
            empty = T.zeros([key.shape[0], self.num_heads, 0, self.head_dim], key.dtype)
            return self.Cache(empty, empty)
        return self.Cache(key, value)

    def _check(self, x, dim, arg):
        if not isinstance(x, Tensor) or x.ndim != 3 or x.shape[-1] != dim:
            raise ValueError(f"paddle.nn.MultiHeadAttention: {arg} must be a 3-D Tensor "
                             f"[batch_size, length, {dim}], got "
                             f"{getattr(x, 'shape', type(x).__name__)}")

    def forward(self, query, key=None, value=None, attn_mask=None, cache=None):
        key = query if key is None else key
        value = query if value is None else value
        self._check(query, self.embed_dim, "query")
        q = self._heads(self.q_proj(query))
        if isinstance(cache, self.StaticCache):
            k, v = cache.k, cache.v
        else:
            self._check(key, self.kdim, "key")
            self._check(value, self.vdim, "value")
            k, v = self.compute_kv(key, value)
        if isinstance(cache, self.Cache):
            k, v = T.concat([cache.k, k], axis=2), T.concat([cache.v, v], axis=2)
            cache = self.Cache(k, v)
        product = T.matmul(q * self.head_dim ** -0.5, k, transpose_y=True)
        if attn_mask is not None:
            product = product + _convert_attention_mask(attn_mask, product.dtype)
        weights = F.softmax(product)
        if self.dropout:
            weights = F.dropout(weights, self.dropout, training=self.training,
                                mode="upscale_in_train")
        out = T.transpose(T.matmul(weights, v), [0, 2, 1, 3])
        out = self.out_proj(T.reshape(out, [0, 0, self.embed_dim]))
        outs = [out] + [weights] * bool(self.need_weights) + [cache] * (cache is not None)
        return out if len(outs) == 1 else tuple(outs)


class _ResidualBlocks(Layer):
    """The residual blocks that Transformer encoder and decoder layers are made of: each
    with dropout, a residual connection and LayerNorm, after the residual (post-norm) or
    before the block (``normalize_before``)."""

    def _setup(self, config, blocks):
        """Keep the constructor's arguments ``config`` (a stack builds its other layers from
        them) and check the sizes; the attention's and the activation's dropout rates (the
        ``dropout`` when None), and the weight and bias attrs of the ``blocks`` blocks."""
        self._config = config
        _check_sizes(config["d_model"], config["nhead"], config["dim_feedforward"])
        self.normalize_before = config["normalize_before"]
        dropout = config["dropout"]
        return (dropout if config["attn_dropout"] is None else config["attn_dropout"],
                dropout if config["act_dropout"] is None else config["act_dropout"],
                _convert_param_attr_to_list(config["weight_attr"], blocks),
                _convert_param_attr_to_list(config["bias_attr"], blocks))

    def _attend(self, attn, norm, dropout, x, memory, mask, cache):
        """The block around ``attn`` over ``memory`` (None: self-attention); and its new
        cache (None without a cache)."""
        residual = x
        if self.normalize_before:
            x = norm(x)
        kv = x if memory is None else memory
        if cache is None:
            x = attn(x, kv, kv, mask)
        else:
            x, cache = attn(x, kv, kv, mask, cache)
        x = residual + dropout(x)
        return (x if self.normalize_before else norm(x)), cache

    def _feed_forward(self, norm, dropout, x):
        """The block around linear1, the activation, dropout and linear2."""
        residual = x
        if self.normalize_before:
            x = norm(x)
        x = residual + dropout(self.linear2(self.dropout(self.activation(self.linear1(x)))))
        return x if self.normalize_before else norm(x)


def _clones(layer, n):
    """``layer`` and n - 1 new layers of its configuration (their own fresh parameters,
    as Paddle builds a stack)."""
    return LayerList([layer if i == 0 else type(layer)(**layer._config) for i in range(n)])


class TransformerEncoderLayer(_ResidualBlocks):
    """Self-attention then a feed-forward block (linear1, activation, linear2), each with
    dropout, a residual connection and LayerNorm: after the residual (post-norm), or
    before the block with ``normalize_before``. ``attn_dropout``/``act_dropout`` default
    to ``dropout``; ``weight_attr``/``bias_attr`` may be a list of two: the attention's
    and the feed-forward's."""

    def __init__(self, d_model, nhead, dim_feedforward, dropout=0.1, activation="relu",
                 attn_dropout=None, act_dropout=None, normalize_before=False,
                 weight_attr=None, bias_attr=None, layer_norm_eps=1e-05):
        config = {k: v for k, v in locals().items() if k not in ("self", "__class__")}
        super().__init__()
        attn_dropout, act_dropout, weight_attrs, bias_attrs = self._setup(config, 2)
        self.self_attn = MultiHeadAttention(d_model, nhead, dropout=attn_dropout,
                                            weight_attr=weight_attrs[0],
                                            bias_attr=bias_attrs[0])
        self.linear1 = Linear(d_model, dim_feedforward, weight_attrs[1], bias_attr=bias_attrs[1])
        self.dropout = Dropout(act_dropout, mode="upscale_in_train")
        self.linear2 = Linear(dim_feedforward, d_model, weight_attrs[1], bias_attr=bias_attrs[1])
        self.norm1 = LayerNorm(d_model, layer_norm_eps)
        self.norm2 = LayerNorm(d_model, layer_norm_eps)
        self.dropout1 = Dropout(dropout, mode="upscale_in_train")
        self.dropout2 = Dropout(dropout, mode="upscale_in_train")
        self.activation = _activation(activation, "TransformerEncoderLayer")

    def forward(self, src, src_mask=None, cache=None):
        src_mask = _convert_attention_mask(src_mask, src.dtype)
        src, new_cache = self._attend(self.self_attn, self.norm1, self.dropout1, src, None,
                                      src_mask, cache)
        src = self._feed_forward(self.norm2, self.dropout2, src)
        return src if cache is None else (src, new_cache)

    def gen_cache(self, src):
        """An empty incremental Cache for the self-attention."""
        return self.self_attn.gen_cache(src, type=self.self_attn.Cache)


class TransformerEncoder(Layer):
    """``num_layers`` encoder layers applied in turn (then ``norm`` if given): the first is
    ``encoder_layer`` itself, the others new layers of the same configuration (with their
    own freshly initialised parameters, as Paddle builds them)."""

    def __init__(self, encoder_layer, num_layers, norm=None):
        super().__init__()
        self.layers = _clones(encoder_layer, num_layers)
        self.num_layers = num_layers
        self.norm = norm

    def forward(self, src, src_mask=None, cache=None):
        src_mask = _convert_attention_mask(src_mask, src.dtype)
        output, new_caches = src, []
        for i, layer in enumerate(self.layers):
            if cache is None:
                output = layer(output, src_mask=src_mask)
            else:
                output, new_cache = layer(output, src_mask=src_mask, cache=cache[i])
                new_caches.append(new_cache)
        if self.norm is not None:
            output = self.norm(output)
        return output if cache is None else (output, new_caches)

    def gen_cache(self, src):
        """An empty incremental Cache for each layer."""
        return [layer.gen_cache(src) for layer in self.layers]


class TransformerDecoderLayer(_ResidualBlocks):
    """Self-attention (masked by ``tgt_mask``), cross-attention over ``memory`` (masked by
    ``memory_mask``), then a feed-forward block (linear1, activation, linear2); each with
    dropout, a residual connection and LayerNorm (norm1..norm3), after the residual or,
    with ``normalize_before``, before the block. ``weight_attr``/``bias_attr`` may be a
    list of three: the self-attention's, the cross-attention's and the feed-forward's.

    With a ``cache`` from ``gen_cache`` (an incremental Cache for the self-attention and a
    StaticCache of the memory's keys and values), ``forward`` decodes step by step and
    returns ``(output, new_cache)``."""

    def __init__(self, d_model, nhead, dim_feedforward, dropout=0.1, activation="relu",
                 attn_dropout=None, act_dropout=None, normalize_before=False,
                 weight_attr=None, bias_attr=None, layer_norm_eps=1e-05):
        config = {k: v for k, v in locals().items() if k not in ("self", "__class__")}
        super().__init__()
        attn_dropout, act_dropout, weight_attrs, bias_attrs = self._setup(config, 3)
        self.self_attn = MultiHeadAttention(d_model, nhead, dropout=attn_dropout,
                                            weight_attr=weight_attrs[0],
                                            bias_attr=bias_attrs[0])
        self.cross_attn = MultiHeadAttention(d_model, nhead, dropout=attn_dropout,
                                             weight_attr=weight_attrs[1],
                                             bias_attr=bias_attrs[1])
        self.linear1 = Linear(d_model, dim_feedforward, weight_attrs[2], bias_attr=bias_attrs[2])
        self.dropout = Dropout(act_dropout, mode="upscale_in_train")
        self.linear2 = Linear(dim_feedforward, d_model, weight_attrs[2], bias_attr=bias_attrs[2])
        self.norm1 = LayerNorm(d_model, layer_norm_eps)
        self.norm2 = LayerNorm(d_model, layer_norm_eps)
        self.norm3 = LayerNorm(d_model, layer_norm_eps)
        self.dropout1 = Dropout(dropout, mode="upscale_in_train")
        self.dropout2 = Dropout(dropout, mode="upscale_in_train")
        self.dropout3 = Dropout(dropout, mode="upscale_in_train")
        self.activation = _activation(activation, "TransformerDecoderLayer")

    def forward(self, tgt, memory, tgt_mask=None, memory_mask=None, cache=None):
        tgt_mask = _convert_attention_mask(tgt_mask, tgt.dtype)
        memory_mask = _convert_attention_mask(memory_mask, memory.dtype)
        self_cache, static_cache = (None, None) if cache is None else cache
        tgt, self_cache = self._attend(self.self_attn, self.norm1, self.dropout1, tgt, None,
                                       tgt_mask, self_cache)
        tgt, static_cache = self._attend(self.cross_attn, self.norm2, self.dropout2, tgt,
                                         memory, memory_mask, static_cache)
        tgt = self._feed_forward(self.norm3, self.dropout3, tgt)
        return tgt if cache is None else (tgt, (self_cache, static_cache))

    def gen_cache(self, memory):
        """(an empty incremental Cache for the self-attention, a StaticCache of the
        cross-attention's keys and values of ``memory``)."""
        return (self.self_attn.gen_cache(memory, type=self.self_attn.Cache),
                self.cross_attn.gen_cache(memory, memory, type=self.cross_attn.StaticCache))


class TransformerDecoder(Layer):
    """``num_layers`` decoder layers applied in turn (then ``norm`` if given): the first is
    ``decoder_layer`` itself, the others new layers of the same configuration."""

    def __init__(self, decoder_layer, num_layers, norm=None):
        super().__init__()
        self.layers = _clones(decoder_layer, num_layers)
        self.num_layers = num_layers
        self.norm = norm

    def forward(self, tgt, memory, tgt_mask=None, memory_mask=None, cache=None):
        tgt_mask = _convert_attention_mask(tgt_mask, tgt.dtype)
        memory_mask = _convert_attention_mask(memory_mask, memory.dtype)
        output, new_caches = tgt, []
        for i, layer in enumerate(self.layers):
            if cache is None:
                output = layer(output, memory, tgt_mask=tgt_mask, memory_mask=memory_mask)
            else:
                output, new_cache = layer(output, memory, tgt_mask=tgt_mask,
                                          memory_mask=memory_mask, cache=cache[i])
                new_caches.append(new_cache)
        if self.norm is not None:
            output = self.norm(output)
        return output if cache is None else (output, new_caches)

    def gen_cache(self, memory, do_zip=False):
        """Each layer's ``gen_cache(memory)``; with ``do_zip``, zipped into
        [all incremental caches, all static caches]."""
        cache = [layer.gen_cache(memory) for layer in self.layers]
        return list(zip(*cache)) if do_zip else cache


def _split_attr(attr, name):
    """Paddle's split of a Transformer's weight/bias attr list into the encoder layers'
    (attention, feed-forward) and the decoder layers' (self, cross, feed-forward)."""
    if not isinstance(attr, (list, tuple)):
        return attr, attr
    if len(attr) == 1:
        return [attr[0]] * 2, [attr[0]] * 3
    if len(attr) == 2:
        return attr, [attr[0], attr[0], attr[1]]
    if len(attr) == 3:
        return [attr[0], attr[2]], attr
    raise ValueError(f"length of {name} should be 1 or 2 or 3 when it is a list/tuple, "
                     f"got {len(attr)}")


class Transformer(Layer):
    """An encoder (``num_encoder_layers`` layers and a final LayerNorm) and a decoder
    (``num_decoder_layers`` layers and a final LayerNorm), or the ``custom_encoder`` /
    ``custom_decoder`` given. ``forward(src, tgt, ...)`` encodes ``src`` into memory and
    decodes ``tgt`` against it."""

    def __init__(self, d_model=512, nhead=8, num_encoder_layers=6, num_decoder_layers=6,
                 dim_feedforward=2048, dropout=0.1, activation="relu", attn_dropout=None,
                 act_dropout=None, normalize_before=False, weight_attr=None, bias_attr=None,
                 custom_encoder=None, custom_decoder=None):
        super().__init__()
        _check_sizes(d_model, nhead, dim_feedforward)
        encoder_weight_attr, decoder_weight_attr = _split_attr(weight_attr, "weight_attr")
        encoder_bias_attr, decoder_bias_attr = _split_attr(bias_attr, "bias_attr")
        layer_args = (d_model, nhead, dim_feedforward, dropout, activation, attn_dropout,
                      act_dropout, normalize_before)
        if custom_encoder is not None:
            self.encoder = custom_encoder
        else:
            self.encoder = TransformerEncoder(
                TransformerEncoderLayer(*layer_args, encoder_weight_attr, encoder_bias_attr),
                num_encoder_layers, LayerNorm(d_model))
        if custom_decoder is not None:
            self.decoder = custom_decoder
        else:
            self.decoder = TransformerDecoder(
                TransformerDecoderLayer(*layer_args, decoder_weight_attr, decoder_bias_attr),
                num_decoder_layers, LayerNorm(d_model))
        self.d_model = d_model
        self.nhead = nhead

    def forward(self, src, tgt, src_mask=None, tgt_mask=None, memory_mask=None):
        src_mask = _convert_attention_mask(src_mask, src.dtype)
        memory = self.encoder(src, src_mask=src_mask)
        tgt_mask = _convert_attention_mask(tgt_mask, tgt.dtype)
        memory_mask = _convert_attention_mask(memory_mask, memory.dtype)
        return self.decoder(tgt, memory, tgt_mask=tgt_mask, memory_mask=memory_mask)

    def generate_square_subsequent_mask(self, length):
        """A [length, length] additive mask of the default dtype: 0 on and below the
        diagonal, -inf above it (position i attends to positions up to i)."""
        length = _int(length, "Transformer.generate_square_subsequent_mask", "length")
        return T.triu(T.full([length, length], -float("inf")), 1)
