"""paddle.hapi: the high-level API (Model, callbacks, summary, flops)."""

__all__: list = []
