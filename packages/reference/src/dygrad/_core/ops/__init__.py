"""The op table's rows, one module per family. Importing this package registers them all."""

from . import (  # noqa: F401
    conv,
    creation,
    elementwise,
    linalg,
    loss,
    manipulation,
    nn,
    norm,
    optimizer,
    reduction,
)
