"""paddle.nn.functional: convolutions."""

__all__: list = []
