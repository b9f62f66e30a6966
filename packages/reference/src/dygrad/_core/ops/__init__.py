"""The op table's rows, one module per family. Importing this package registers them all."""

from . import creation, elementwise, linalg, manipulation, nn, reduction  # noqa: F401
