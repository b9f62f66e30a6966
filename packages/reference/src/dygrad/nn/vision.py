"""Vision layers: Upsample, PixelShuffle."""

__all__: list = []
