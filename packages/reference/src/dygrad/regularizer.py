"""paddle.regularizer: weight decay as L1Decay or L2Decay."""

__all__: list = []
