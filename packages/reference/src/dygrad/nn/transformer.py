"""Attention layers: MultiHeadAttention, TransformerEncoderLayer, TransformerEncoder."""

__all__: list = []
