"""Matrix products and linear algebra of the tensor API (paddle.tensor.linalg).

The functions Paddle has only under ``paddle.linalg`` (det, solve, qr, svd, ...) are
defined here too but left out of ``__all__``; :mod:`dygrad.linalg` re-exports them.
"""

from __future__ import annotations

import math

import numpy as np

from .._core import dispatch as _dispatch
from .._core.dispatch import as_operands, ops
from .._core.optable import TABLE
from .._core.tensor import Tensor

__all__ = ["matmul", "mm", "bmm", "dot", "outer", "t", "einsum", "kron", "cross", "norm",
           "inverse", "cholesky"]
METHODS = ["matmul", "mm", "bmm", "dot", "outer", "t", "kron", "cross", "norm", "inverse",
           "cholesky", "solve", "qr"]


def _check_tensor(api, x, arg="x"):
    if not isinstance(x, Tensor):
        raise TypeError(f"{api}: {arg} must be a Tensor, got {type(x).__name__}")


# ---------------------------------------------------------------------------
# products
# ---------------------------------------------------------------------------

def matmul(x, y, transpose_x=False, transpose_y=False, name=None):
    """Matrix product with Paddle's 1-D, batch-broadcasting and transpose rules."""
    x, y = as_operands("matmul", x, y)
    return ops.matmul(x, y, transpose_x=bool(transpose_x), transpose_y=bool(transpose_y))


def mm(input, mat2, name=None):
    """Matrix product of input and mat2 (paddle.mm is paddle.matmul without transposes)."""
    x, y = as_operands("mm", input, mat2)
    return ops.matmul(x, y)


def bmm(x, y, name=None):
    """Batched matrix product of two 3-D tensors: out[b] = x[b] @ y[b]."""
    return _dispatch.binary(TABLE["bmm"], x, y)


def dot(x, y, name=None):
    """Inner product of two 1-D tensors, or of the matching rows of two 2-D tensors."""
    return _dispatch.binary(TABLE["dot"], x, y)


def outer(x, y, name=None):
    """Outer product: x and y flattened, out[i, j] = x[i] * y[j]."""
    x, y = as_operands("outer", x, y)
    column = ops.reshape(x, shape=(math.prod(x._data.shape), 1))
    row = ops.reshape(y, shape=(1, math.prod(y._data.shape)))
    return ops.multiply(column, row)


def t(input, name=None):
    """Transpose of a tensor of at most 2 dimensions (0-D and 1-D are returned as they are)."""
    _check_tensor("t", input, "input")
    if input.ndim > 2:
        raise ValueError(f"t: input must have at most 2 dimensions, got shape {input.shape}; "
                         f"use paddle.transpose for more")
    if input.ndim < 2:
        return input
    return ops.transpose(input, perm=(1, 0))


def einsum(equation, *operands):
    """Einstein summation, e.g. einsum('ij,jk->ik', a, b). As Paddle, labels are
    case-insensitive and spaces are ignored; '...' broadcasts; without '->' the output is
    '...' followed by the labels used once, in alphabetical order."""
    if not isinstance(equation, str):
        raise TypeError(f"einsum: equation must be a str, got {type(equation).__name__}")
    for i, op in enumerate(operands):
        _check_tensor("einsum", op, f"operand {i}")
    return ops.einsum(list(operands), equation=equation.lower().replace(" ", ""))


def kron(x, y, name=None):
    """Kronecker product (the lower-rank operand is padded with leading ones)."""
    return _dispatch.binary(TABLE["kron"], x, y)


def cross(x, y, axis=9, name=None):
    """Cross product of 3-vectors along axis; the default 9 means the first axis of size 3."""
    x, y = as_operands("cross", x, y)
    return ops.cross(x, y, axis=9 if axis is None else int(axis))


# ---------------------------------------------------------------------------
# norms
# ---------------------------------------------------------------------------

_MATRIX_P = ("fro", "nuc", 1, -1, 2, -2, np.inf, -np.inf)


def _norm_axis(axis):
    """Paddle's axis argument of the norms: None, an int, or a tuple of ints."""
    if axis is None:
        return None
    if isinstance(axis, (int, np.integer)):
        return int(axis)
    axis = tuple(int(a) for a in axis)
    return axis[0] if len(axis) == 1 else axis


def vector_norm(x, p=2.0, axis=None, keepdim=False, name=None):
    """Vector p-norm over axis (an int, a list/tuple of ints, or None for all elements)."""
    _check_tensor("vector_norm", x)
    if isinstance(p, str) or not isinstance(p, (int, float, np.integer, np.floating)):
        raise ValueError(f"vector_norm: p must be a number (inf and -inf included), got {p!r}")
    return ops.p_norm(x, porder=float(p), axis=_norm_axis(axis), keepdim=bool(keepdim))


def matrix_norm(x, p="fro", axis=(-2, -1), keepdim=False, name=None):
    """Matrix norm over the two dimensions in axis: 'fro', 'nuc' (sum of singular values),
    2 / -2 (largest / smallest singular value), 1 / -1 (max / min absolute column sum),
    inf / -inf (max / min absolute row sum)."""
    _check_tensor("matrix_norm", x)
    axis = _norm_axis(axis)
    if not isinstance(axis, tuple) or len(axis) != 2:
        raise ValueError(f"matrix_norm: axis must name 2 dimensions, got {axis}")
    if p not in _MATRIX_P:
        raise ValueError(f"matrix_norm: p must be one of 'fro', 'nuc', 1, -1, 2, -2, inf, -inf "
                         f"for a matrix norm, got {p!r}")
    nd = x.ndim
    if not all(-nd <= a < nd for a in axis) or axis[0] % max(nd, 1) == axis[1] % max(nd, 1):
        raise ValueError(f"matrix_norm: axis {list(axis)} must be two different dimensions of "
                         f"a tensor of shape {x.shape}")
    rows, cols = (a % nd for a in axis)
    keep = tuple(1 if i in (rows, cols) else d for i, d in enumerate(x.shape))
    out_shape = keep if keepdim else tuple(d for i, d in enumerate(x.shape) if i not in (rows, cols))
    if p == "fro":
        return ops.p_norm(x, porder=2.0, axis=(rows, cols), keepdim=bool(keepdim))
    if p in ("nuc", 2, -2):
        rest = tuple(i for i in range(nd) if i not in (rows, cols))
        s = ops.svd(ops.transpose(x, perm=rest + (rows, cols)))[1]
        out = (ops.sum(s, axis=-1) if p == "nuc" else
               ops.max(s, axis=-1) if p == 2 else ops.min(s, axis=-1))
    else:
        # 1: max over columns of the column sums |x|; inf: the same with rows and columns swapped
        summed, reduced = (rows, cols) if p in (1, -1) else (cols, rows)
        sums = ops.p_norm(x, porder=1.0, axis=summed, keepdim=True)
        out = (ops.max if p > 0 else ops.min)(sums, axis=reduced, keepdim=True)
    return ops.reshape(out, shape=out_shape)


def norm(x, p="fro", axis=None, keepdim=False, name=None):
    """Matrix or vector norm, as paddle.linalg.norm.

    - axis None: the vector norm of all elements ('fro' is the 2-norm); with p 'nuc' the
      matrix norm of a 2-D x;
    - axis an int (or a 1-element list): the vector p-norm along it ('fro' is the 2-norm);
    - axis 2 dimensions: the matrix norm (see matrix_norm); more dimensions: the vector
      p-norm over them.
    """
    _check_tensor("norm", x)
    axis = _norm_axis(axis)
    if p is None:
        p = "fro"
    if isinstance(p, str):
        if p == "fro" and not isinstance(axis, tuple):
            return vector_norm(x, 2.0, axis, keepdim)
        if axis is None:
            axis = tuple(range(x.ndim))
        if not isinstance(axis, tuple) or len(axis) != 2:
            raise ValueError(f"norm: p={p!r} is a matrix norm and needs axis to name 2 "
                             f"dimensions, got axis {axis} for a tensor of shape {x.shape}")
        return matrix_norm(x, p, axis, keepdim)
    if isinstance(axis, tuple) and len(axis) == 2:
        return matrix_norm(x, p, axis, keepdim)
    return vector_norm(x, p, axis, keepdim)


# ---------------------------------------------------------------------------
# inverse, determinant, solve, decompositions
# ---------------------------------------------------------------------------

def inverse(x, name=None):
    """Inverse of a square matrix, or of each matrix of a batch."""
    _check_tensor("inverse", x)
    return ops.inverse(x)


def det(x, name=None):
    """Determinant of a square matrix, or of each matrix of a batch."""
    _check_tensor("det", x)
    return ops.det(x)


def solve(x, y, name=None):
    """The solution X of x @ X = y; y is a vector (batch) when it is 1-D or has x's batch
    dimensions and one dimension less than x, else a matrix (batches broadcast)."""
    x, y = as_operands("solve", x, y)
    return ops.solve(x, y)


def cholesky(x, upper=False, name=None):
    """Cholesky factor of a symmetric positive-definite matrix: lower L with x = L L^T, or
    upper U = L^T with x = U^T U when upper=True."""
    _check_tensor("cholesky", x)
    return ops.cholesky(x, upper=bool(upper))


def qr(x, mode="reduced", name=None):
    """QR decomposition: (Q, R) for mode 'reduced' (default) or 'complete'; R only for 'r'."""
    _check_tensor("qr", x)
    if mode not in ("reduced", "complete", "r"):
        raise ValueError(f"qr: mode must be 'reduced', 'complete' or 'r', got {mode!r}")
    q, r = ops.qr(x, mode="reduced" if mode == "r" else mode)
    return r if mode == "r" else (q, r)


def svd(x, full_matrices=False, name=None):
    """Singular value decomposition x = U @ diag(S) @ VH; returns (U, S, VH), S descending."""
    _check_tensor("svd", x)
    return ops.svd(x, full_matrices=bool(full_matrices))
