"""paddle.linalg: linear algebra functions (defined in :mod:`dygrad.tensor.linalg`)."""

from .tensor.linalg import (
    cholesky,
    cholesky_solve,
    cond,
    corrcoef,
    cov,
    cross,
    det,
    eigh,
    eigvals,
    eigvalsh,
    lstsq,
    lu,
    lu_unpack,
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
    triangular_solve,
    vector_norm,
)
from .tensor.linalg import inverse as inv

__all__ = ["cholesky", "cholesky_solve", "cond", "corrcoef", "cov", "cross", "det", "eigh",
           "eigvals", "eigvalsh", "inv", "lstsq", "lu", "lu_unpack", "matmul", "matrix_norm",
           "matrix_power", "matrix_rank", "multi_dot", "norm", "pinv", "qr", "slogdet", "solve",
           "svd", "triangular_solve", "vector_norm"]
