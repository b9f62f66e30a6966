"""The core: dtypes, places, the op table, the engine protocol, dispatch, the tape and
Tensor. Nothing here imports the user-facing packages (nn, optimizer, ...)."""

from . import (  # noqa: F401  # noqa: F401
    autograd,
    creation,
    device,
    dispatch,
    dtype,
    engine,
    ops,  # noqa: F401  (registers every row of the op table)
    optable,
    place,
    tensor,
)
