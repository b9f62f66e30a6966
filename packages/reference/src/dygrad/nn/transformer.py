"""Attention layers: MultiHeadAttention, TransformerEncoderLayer, TransformerEncoder, as
Paddle's ``paddle.nn``: composites of Linear, matmul, softmax, dropout and LayerNorm."""

from __future__ import annotations

import collections
import copy

from .. import tensor as T
from .._core.tensor import Tensor
from . import functional as F
from .common import Dropout, Linear
from .container import LayerList
from .layer import Layer
from .norm import LayerNorm
from .param_attr import ParamAttr

__all__ = ["MultiHeadAttention", "TransformerEncoderLayer", "TransformerEncoder"]


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


class TransformerEncoderLayer(Layer):
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
        self._config = config
        for name, value in (("d_model", d_model), ("nhead", nhead),
                            ("dim_feedforward", dim_feedforward)):
            if value <= 0:
                raise ValueError(f"Expected {name} to be greater than 0, but received {value}")
        attn_dropout = dropout if attn_dropout is None else attn_dropout
        act_dropout = dropout if act_dropout is None else act_dropout
        self.normalize_before = normalize_before
        weight_attrs = _convert_param_attr_to_list(weight_attr, 2)
        bias_attrs = _convert_param_attr_to_list(bias_attr, 2)
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
        if not hasattr(F, activation):
            raise ValueError(f"TransformerEncoderLayer: unknown activation {activation!r} "
                             f"(a name in paddle.nn.functional, e.g. 'relu' or 'gelu')")
        self.activation = getattr(F, activation)

    def forward(self, src, src_mask=None, cache=None):
        src_mask = _convert_attention_mask(src_mask, src.dtype)
        residual = src
        if self.normalize_before:
            src = self.norm1(src)
        if cache is None:
            src = self.self_attn(src, src, src, src_mask)
        else:
            src, cache = self.self_attn(src, src, src, src_mask, cache)
        src = residual + self.dropout1(src)
        if not self.normalize_before:
            src = self.norm1(src)
        residual = src
        if self.normalize_before:
            src = self.norm2(src)
        src = self.linear2(self.dropout(self.activation(self.linear1(src))))
        src = residual + self.dropout2(src)
        if not self.normalize_before:
            src = self.norm2(src)
        return src if cache is None else (src, cache)

    def gen_cache(self, src):
        """An empty incremental Cache for the self-attention."""
        return self.self_attn.gen_cache(src, type=self.self_attn.Cache)


class TransformerEncoder(Layer):
    """``num_layers`` encoder layers applied in turn (then ``norm`` if given): the first is
    ``encoder_layer`` itself, the others new layers of the same configuration (with their
    own freshly initialised parameters, as Paddle builds them)."""

    def __init__(self, encoder_layer, num_layers, norm=None):
        super().__init__()
        self.layers = LayerList([encoder_layer if i == 0 else
                                 type(encoder_layer)(**encoder_layer._config)
                                 for i in range(num_layers)])
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
