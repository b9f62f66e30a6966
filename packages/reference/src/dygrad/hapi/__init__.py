"""paddle.hapi: the high-level API: Model (fit / evaluate / predict), its callbacks,
summary and flops."""

from .dynamic_flops import flops
from .model import Model
from .model_summary import summary

__all__ = ["Model", "summary", "flops"]
