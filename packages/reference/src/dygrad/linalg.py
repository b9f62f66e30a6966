"""paddle.linalg: linear algebra functions (defined in :mod:`dygrad.tensor.linalg`)."""

from .tensor.linalg import (
    cholesky,
    cross,
    det,
    eigh,
    eigvalsh,
    matmul,
    matrix_norm,
    matrix_power,
    multi_dot,
    norm,
    pinv,
    qr,
    slogdet,
    solve,
    svd,
    vector_norm,
)
from .tensor.linalg import inverse as inv

__all__ = ["cholesky", "cross", "det", "eigh", "eigvalsh", "inv", "matmul", "matrix_norm",
           "matrix_power", "multi_dot", "norm", "pinv", "qr", "slogdet", "solve", "svd",
           "vector_norm"]
