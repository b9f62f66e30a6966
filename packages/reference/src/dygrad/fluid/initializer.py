"""``fluid.initializer``: Paddle 1.x's initializers, as the 2.x ones under 1.x names and
arguments. Values come from the engine's generator (``paddle.seed``); a fixed per-op
``seed`` other than 0 (1.x's "random") is refused rather than ignored."""

from __future__ import annotations

from ..nn import initializer as _init

__all__ = ["Constant", "ConstantInitializer", "Normal", "NormalInitializer", "TruncatedNormal",
           "TruncatedNormalInitializer", "Uniform", "UniformInitializer", "Xavier",
           "XavierInitializer", "MSRA", "MSRAInitializer", "NumpyArrayInitializer"]


def _no_seed(seed, api):
    if seed != 0:
        raise ValueError(f"{api}: a fixed seed ({seed}) per initializer is not supported; "
                         f"leave seed=0 and call paddle.seed(n) for reproducible values")


class ConstantInitializer(_init.Constant):
    """Every value is ``value`` (``force_cpu`` is accepted and changes nothing)."""

    def __init__(self, value=0.0, force_cpu=False):
        super().__init__(value)


class NormalInitializer(_init.Normal):
    """Values from N(loc, scale^2)."""

    def __init__(self, loc=0.0, scale=1.0, seed=0):
        _no_seed(seed, "NormalInitializer")
        super().__init__(loc, scale)


class TruncatedNormalInitializer(_init.TruncatedNormal):
    """Values from N(loc, scale^2) within two standard deviations of ``loc``."""

    def __init__(self, loc=0.0, scale=1.0, seed=0):
        _no_seed(seed, "TruncatedNormalInitializer")
        super().__init__(loc, scale, loc - 2.0 * scale, loc + 2.0 * scale)


class UniformInitializer(_init.Uniform):
    """Values from U(low, high)."""

    def __init__(self, low=-1.0, high=1.0, seed=0):
        _no_seed(seed, "UniformInitializer")
        super().__init__(low, high)


def XavierInitializer(uniform=True, fan_in=None, fan_out=None, seed=0):  # noqa: N802
    """Glorot's initializer: U(-sqrt(6 / (fan_in + fan_out)), +...) when ``uniform``, else
    N(0, 2 / (fan_in + fan_out)); the fans come from the parameter's shape unless given."""
    _no_seed(seed, "XavierInitializer")
    cls = _init.XavierUniform if uniform else _init.XavierNormal
    return cls(fan_in=fan_in, fan_out=fan_out)


def MSRAInitializer(uniform=True, fan_in=None, seed=0):  # noqa: N802
    """He's initializer: U(-sqrt(6 / fan_in), +...) when ``uniform``, else
    N(0, 2 / fan_in); ``fan_in`` comes from the parameter's shape unless given."""
    _no_seed(seed, "MSRAInitializer")
    cls = _init.KaimingUniform if uniform else _init.KaimingNormal
    return cls(fan_in=fan_in)


NumpyArrayInitializer = _init.Assign
Constant = ConstantInitializer
Normal = NormalInitializer
TruncatedNormal = TruncatedNormalInitializer
Uniform = UniformInitializer
Xavier = XavierInitializer
MSRA = MSRAInitializer
