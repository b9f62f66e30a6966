"""paddle.linalg: linear algebra functions (defined in :mod:`dygrad.tensor.linalg`)."""

from .tensor.linalg import (
    cholesky,
    cond,
    cross,
    det,
    eigh,
    eigvalsh,
    lstsq,
    matmul,
    matrix_norm,
    matrix_power,
    matrix_rank,
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

__all__ = ["cholesky", "cond", "cross", "det", "eigh", "eigvalsh", "inv", "lstsq", "matmul",
           "matrix_norm", "matrix_power", "matrix_rank", "multi_dot", "norm", "pinv", "qr",
           "slogdet", "solve", "svd", "vector_norm"]
