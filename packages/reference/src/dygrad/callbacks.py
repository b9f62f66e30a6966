"""paddle.callbacks: the callbacks of Model.fit (they live in dygrad.hapi.callbacks)."""

__all__: list = []
