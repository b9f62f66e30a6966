"""paddle.nn.functional: one_hot and embedding."""

__all__: list = []
