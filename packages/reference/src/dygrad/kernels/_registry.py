"""The reference engine's kernel registry: ``@kernel`` files a function under its op name."""

KERNELS: dict = {}


def kernel(fn=None, *, name=None):
    """Register ``fn`` as the reference kernel of op ``name`` (default: the function's name,
    without a trailing underscore, so ``abs_`` serves op ``abs``)."""
    def deco(f):
        key = name or f.__name__.rstrip("_")
        if key in KERNELS:
            raise ValueError(f"reference kernels: {key!r} is registered twice")
        KERNELS[key] = f
        return f
    return deco(fn) if fn is not None else deco
