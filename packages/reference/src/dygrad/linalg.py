"""paddle.linalg: linear algebra functions (defined in :mod:`dygrad.tensor.linalg`)."""

from .tensor.linalg import cholesky, cross, det, matmul, matrix_norm, norm, qr, solve, svd, vector_norm
from .tensor.linalg import inverse as inv

__all__ = ["cholesky", "cross", "det", "inv", "matmul", "matrix_norm", "norm", "qr", "solve",
           "svd", "vector_norm"]
