"""The core: dtypes, places, the op table, the engine protocol, dispatch, the tape and
Tensor. Nothing here imports the user-facing packages (nn, optimizer, ...)."""

from . import dtype, place, optable, engine, autograd, dispatch  # noqa: F401
from . import ops  # noqa: F401  (registers every row of the op table)
from . import tensor, creation, device  # noqa: F401
