"""Matrix products and linear algebra of the tensor API (paddle.tensor.linalg).

The functions Paddle has only under ``paddle.linalg`` (det, solve, qr, svd, ...) are
defined here too but left out of ``__all__``; :mod:`dygrad.linalg` re-exports them.
``vander``, ``trapezoid`` and ``cumulative_trapezoid`` (in Paddle's ``paddle.tensor.math``)
live here too.
"""

from __future__ import annotations

import math

import numpy as np

from .._core import dispatch as _dispatch
from .._core.dispatch import as_operands, ops
from .._core.optable import TABLE
from .._core.tensor import Tensor

__all__ = ["matmul", "mm", "addmm", "bmm", "dot", "outer", "t", "einsum", "kron", "cross", "norm",
           "inverse", "cholesky", "tensordot", "inner", "mv", "bincount", "eigvalsh", "cdist", "dist",
           "vander", "trapezoid", "cumulative_trapezoid"]
METHODS = ["matmul", "mm", "addmm", "bmm", "dot", "outer", "t", "kron", "cross", "norm", "inverse",
           "cholesky", "solve", "qr", "tensordot", "inner", "mv", "bincount", "matrix_power",
           "multi_dot", "pinv", "slogdet", "eigvalsh", "eigvals", "cond", "lstsq",
           "cholesky_solve", "lu", "lu_unpack", "cov", "corrcoef", "cdist", "dist",
           "vander", "trapezoid", "cumulative_trapezoid"]


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


def addmm(input, x, y, beta=1.0, alpha=1.0, name=None):
    """beta * input + alpha * (x @ y) for 2-D x, y; input broadcasts to the product's
    shape."""
    for t, what in ((input, "input"), (x, "x"), (y, "y")):
        _check_tensor("addmm", t, what)
    if x.ndim != 2 or y.ndim != 2:
        raise ValueError(f"addmm: x and y must be 2-D, got shapes {x.shape} and {y.shape}")
    if x.shape[1] != y.shape[0]:
        raise ValueError(f"addmm: x's columns must equal y's rows, got shapes {x.shape} and "
                         f"{y.shape}")
    shape = (x.shape[0], y.shape[1])
    if input.ndim > 2 or any(d not in (1, n) for d, n in zip(input.shape[::-1], shape[::-1])):
        raise ValueError(f"addmm: input (shape {input.shape}) must broadcast to the shape "
                         f"{list(shape)} of x @ y")
    if not input._data.dtype == x._data.dtype == y._data.dtype:
        raise TypeError(f"addmm: input, x and y must have one dtype, got {input.dtype}, "
                        f"{x.dtype} and {y.dtype}")
    product = ops.matmul(x, y)
    if alpha != 1.0:
        product = product * alpha
    if beta != 1.0:
        input = input * beta
    return ops.add(ops.broadcast_to(input, shape=shape), product)


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


def _axes_list(axes):
    """An int, a list/tuple of ints, or a Tensor of them as a Python value."""
    if isinstance(axes, Tensor):
        if axes._data.dtype.kind not in "iu":
            raise TypeError(f"tensordot: a Tensor axes must hold ints, got {axes.dtype}")
        return axes.numpy().tolist()
    if isinstance(axes, (list, tuple)):
        return [_axes_list(a) for a in axes]
    if isinstance(axes, (bool, np.bool_)) or not isinstance(axes, (int, np.integer)):
        raise TypeError(f"tensordot: axes must be an int, a list/tuple or a Tensor, got "
                        f"{type(axes).__name__} {axes!r}")
    return int(axes)


def _contracted_axes(axes, nx, ny):
    """Paddle's tensordot axes as (x's axes, y's axes), of equal length."""
    axes = _axes_list(axes)
    if isinstance(axes, int):
        if axes < 0:
            raise ValueError(f"tensordot: an int axes must be >= 0, got {axes}")
        if axes > min(nx, ny):
            raise ValueError(f"tensordot: axes={axes} exceeds the rank of x ({nx}) or y ({ny})")
        return list(range(nx - axes, nx)), list(range(axes))
    if all(isinstance(a, int) for a in axes):
        ax, ay = list(axes), list(axes)
    else:  # one or two sequences (more are ignored, as in Paddle)
        seqs = [a if isinstance(a, list) else [a] for a in axes[:2]]
        ax, ay = seqs[0], seqs[-1]
    longer = ax if len(ax) >= len(ay) else ay
    ax, ay = ax + longer[len(ax):], ay + longer[len(ay):]
    return ax, ay


def tensordot(x, y, axes=2, name=None):
    """Sum of products of x and y over pairs of axes: ``axes`` is an int n (x's last n
    axes with y's first n), one list of axes for both, or a pair of lists (the shorter is
    completed from the longer); the contracted axes' sizes match or one of them is 1
    (broadcast). The result has x's remaining axes, then y's."""
    x, y = as_operands("tensordot", x, y)
    ax, ay = _contracted_axes(axes, x.ndim, y.ndim)
    for a, n, who in [(a, x.ndim, "x") for a in ax] + [(a, y.ndim, "y") for a in ay]:
        if not -n <= a < n:
            raise ValueError(f"tensordot: axis {a} is out of range for {who} of rank {n}")
    ax, ay = [a % x.ndim for a in ax], [a % y.ndim for a in ay]
    if len(set(ax)) != len(ax) or len(set(ay)) != len(ay):
        raise ValueError(f"tensordot: an axis is contracted twice in axes {list(ax)}, {list(ay)}")
    sx, sy = list(x.shape), list(y.shape)
    for a, b in zip(ax, ay):
        if sx[a] != sy[b] and 1 not in (sx[a], sy[b]):
            raise ValueError(f"tensordot: axis {a} of x (shape {x.shape}) has size {sx[a]} but "
                             f"axis {b} of y (shape {y.shape}) has size {sy[b]}")
        sx[a] = sy[b] = max(sx[a], sy[b]) if 0 not in (sx[a], sy[b]) else 0
    keep_x = [a for a in range(x.ndim) if a not in ax]
    keep_y = [b for b in range(y.ndim) if b not in ay]
    k = math.prod(sx[a] for a in ax)
    xm = ops.reshape(ops.transpose(ops.broadcast_to(x, shape=tuple(sx)), perm=tuple(keep_x + ax)),
                     shape=(math.prod(sx[a] for a in keep_x), k))
    ym = ops.reshape(ops.transpose(ops.broadcast_to(y, shape=tuple(sy)), perm=tuple(ay + keep_y)),
                     shape=(k, math.prod(sy[b] for b in keep_y)))
    return ops.reshape(ops.matmul(xm, ym), shape=tuple([sx[a] for a in keep_x] +
                                                       [sy[b] for b in keep_y]))


def inner(x, y, name=None):
    """Inner product over the last axis: out[i..., j...] = sum(x[i..., :] * y[j..., :]);
    a 0-D operand multiplies the other."""
    x, y = as_operands("inner", x, y)
    if x.ndim == 0 or y.ndim == 0:
        return ops.multiply(x, y)
    n = x.shape[-1]
    if y.shape[-1] != n:
        raise ValueError(f"inner: the last dimensions of x (shape {x.shape}) and y (shape "
                         f"{y.shape}) must be equal")
    out = ops.matmul(ops.reshape(x, shape=(math.prod(x.shape[:-1]), n)),
                     ops.reshape(y, shape=(math.prod(y.shape[:-1]), n)), transpose_y=True)
    return ops.reshape(out, shape=tuple(x.shape[:-1] + y.shape[:-1]))


def mv(x, vec, name=None):
    """Matrix-vector product of a 2-D x and a 1-D vec (float32 or float64)."""
    _check_tensor("mv", x)
    _check_tensor("mv", vec, "vec")
    for t, what in ((x, "x"), (vec, "vec")):
        if t._data.dtype.kind != "f":
            raise TypeError(f"mv: {what} must be float32 or float64, got {t.dtype}")
    if x.ndim != 2 or vec.ndim != 1:
        raise ValueError(f"mv: x must be 2-D and vec 1-D, got shapes {x.shape} and {vec.shape}")
    if x.shape[1] != vec.shape[0]:
        raise ValueError(f"mv: x's second dimension must equal vec's length, got shapes "
                         f"{x.shape} and {vec.shape}")
    x, vec = as_operands("mv", x, vec)
    return ops.matmul(x, vec)


def bincount(x, weights=None, minlength=0, name=None):
    """How often each value 0, 1, ..., max(max(x) + 1, minlength) - 1 occurs in the
    non-negative 1-D int tensor x (int64); with ``weights`` (x's shape) the sum of the
    weights of its occurrences instead, in the weights' float dtype (float64 for int
    weights)."""
    _check_tensor("bincount", x)
    counts = ops.bincount(x, minlength=int(minlength))
    if weights is None:
        return counts
    _check_tensor("bincount", weights, "weights")
    if weights.shape != x.shape:
        raise ValueError(f"bincount: weights (shape {weights.shape}) must have x's shape "
                         f"{x.shape}")
    if weights._data.dtype.kind != "f":
        weights = ops.cast(weights, dtype=np.dtype(np.float64))
    zeros = ops.full_like(counts, fill_value=0, dtype=weights._data.dtype)
    return ops.scatter_nd_add(zeros, ops.reshape(x, shape=(x.size, 1)), weights)


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


_CDIST_MODES = ("use_mm_for_euclid_dist_if_necessary", "use_mm_for_euclid_dist",
                "donot_use_mm_for_euclid_dist")


def cdist(x, y, p=2.0, compute_mode="use_mm_for_euclid_dist_if_necessary", name=None):
    """The p-norm distances between the rows of x [..., P, M] and of y [..., R, M] (their
    leading axes broadcast): out[..., i, j] = ||x[..., i, :] - y[..., j, :]||_p, p >= 0
    (inf included). ``compute_mode`` is accepted for Paddle's API; the distances are
    always computed directly."""
    _check_tensor("cdist", x)
    _check_tensor("cdist", y, "y")
    if compute_mode not in _CDIST_MODES:
        raise ValueError(f"cdist: compute_mode must be one of {', '.join(_CDIST_MODES)}, got "
                         f"{compute_mode!r}")
    if not p >= 0:
        raise ValueError(f"cdist: p must be >= 0, got {p}")
    for arg, t in (("x", x), ("y", y)):
        if t.ndim < 2:
            raise ValueError(f"cdist: {arg} must be at least 2-D, got shape {t.shape}")
    if x.shape[-1] != y.shape[-1]:
        raise ValueError(f"cdist: x and y must have the same last dimension, got shapes "
                         f"{x.shape} and {y.shape}")
    diff = ops.subtract(ops.unsqueeze(x, axis=(-2,)), ops.unsqueeze(y, axis=(-3,)))
    return ops.p_norm(diff, porder=float(p), axis=-1, keepdim=False)


def dist(x, y, p=2, name=None):
    """The p-norm of x - y (broadcast together) over all elements, a 0-D tensor: p = 0
    counts the nonzero differences, inf / -inf give the largest / smallest |x - y|."""
    _check_tensor("dist", x)
    _check_tensor("dist", y, "y")
    if x._data.dtype != y._data.dtype:
        raise ValueError(f"dist: x and y must have one dtype, got {x.dtype} and {y.dtype}")
    return ops.p_norm(ops.subtract(x, y), porder=float(p), axis=None, keepdim=False)


def vander(x, n=None, increasing=False, name=None):
    """The Vandermonde matrix of the 1-D x: column j holds x ** (n - 1 - j) (x ** j when
    ``increasing``); n defaults to len(x). Keeps x's dtype."""
    _check_tensor("vander", x)
    if x.ndim != 1:
        raise ValueError(f"vander: x must be a 1-D tensor, got shape {x.shape}")
    n = x.shape[0] if n is None else int(n)
    if n < 0:
        raise ValueError(f"vander: n must be non-negative, got {n}")
    if n == 0:
        return ops.full(shape=(x.shape[0], 0), fill_value=0, dtype=x._data.dtype)
    # x ** 0 as ones: pow's gradient 0 * x ** -1 would be nan at x = 0
    columns = [ops.full_like(x, fill_value=1) if k == 0 else ops.pow(x, factor=k)
               for k in range(n)]
    return ops.stack(columns if increasing else columns[::-1], axis=1)


# ---------------------------------------------------------------------------
# numerical integration
# ---------------------------------------------------------------------------

def _trapezoids(api, y, x, dx, axis):
    """The areas of the trapezoids under y along ``axis`` (that axis one shorter), and
    the axis made non-negative."""
    _check_tensor(api, y, "y")
    if y._data.dtype.kind != "f":
        raise TypeError(f"{api}: y must be a float16, float32 or float64 tensor, got {y.dtype}")
    if x is not None and dx is not None:
        raise ValueError(f"{api}: x and dx cannot both be given")
    if not -y.ndim <= axis < y.ndim:
        raise ValueError(f"{api}: axis {axis} is out of range for y of shape {y.shape}")
    axis %= y.ndim
    n = y.shape[axis]

    def cut(t, start, stop, along=axis):
        return ops.slice(t, axes=(along,), starts=(start,), ends=(stop,))

    mean = (cut(y, 1, n) + cut(y, 0, n - 1)) * 0.5
    if x is None:
        return mean * (1.0 if dx is None else float(dx)), axis
    _check_tensor(api, x)
    if x.ndim == 1:
        if x.shape[0] != n:
            raise ValueError(f"{api}: a 1-D x must have the size {n} of axis {axis} of y, got "
                             f"shape {x.shape}")
        width = ops.reshape(cut(x, 1, n, 0) - cut(x, 0, n - 1, 0),
                            shape=tuple(n - 1 if i == axis else 1 for i in range(y.ndim)))
    else:
        if x.ndim != y.ndim:
            raise ValueError(f"{api}: x (shape {x.shape}) must be 1-D or have y's rank "
                             f"(shape {y.shape})")
        width = cut(x, 1, x.shape[axis]) - cut(x, 0, x.shape[axis] - 1)
    return mean * width, axis


def trapezoid(y, x=None, dx=None, axis=-1, name=None):
    """The integral of y along ``axis`` by the trapezoidal rule, with sample points x
    (1-D, or of y's shape) or a constant spacing dx (default 1)."""
    areas, axis = _trapezoids("trapezoid", y, x, dx, axis)
    return ops.sum(areas, axis=axis, keepdim=False)


def cumulative_trapezoid(y, x=None, dx=None, axis=-1, name=None):
    """The running integral of y along ``axis`` by the trapezoidal rule (that axis one
    shorter than y's), as trapezoid."""
    areas, axis = _trapezoids("cumulative_trapezoid", y, x, dx, axis)
    return ops.cumsum(areas, axis=axis)


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


def _square_float(api, x):
    """Check the input of a function on square float matrices (as the op rows do)."""
    _check_tensor(api, x)
    if x.ndim < 2 or x.shape[-1] != x.shape[-2]:
        raise ValueError(f"{api}: x must be a square matrix or a batch of them (shape "
                         f"[..., n, n]), got shape {x.shape}")
    if x._data.dtype.kind != "f":
        raise TypeError(f"{api}: x must be float32 or float64, got {x.dtype}")


def _identity_like(x):
    """Identity matrices with x's shape and dtype (constants)."""
    n = x.shape[-1]
    return ops.broadcast_to(ops.eye(num_rows=n, num_columns=n, dtype=x._data.dtype),
                            shape=tuple(x.shape))


def matrix_power(x, n, name=None):
    """x multiplied by itself n times (square matrices, batched); n = 0 gives the identity
    and a negative n the power of the inverse."""
    _square_float("matrix_power", x)
    if isinstance(n, (bool, np.bool_)) or not isinstance(n, (int, np.integer)):
        raise TypeError(f"matrix_power: n must be an int, got {type(n).__name__} {n!r}")
    if n == 0:
        return _identity_like(x)
    base = ops.inverse(x) if n < 0 else x
    n, out = abs(int(n)), None
    while True:  # binary exponentiation: about log2(n) products
        if n & 1:
            out = base if out is None else ops.matmul(out, base)
        n >>= 1
        if not n:
            return out
        base = ops.matmul(base, base)


def multi_dot(x, name=None):
    """The product of the matrices in the list x (at least 2); the first may be a 1-D row
    vector and the last a 1-D column vector, every other one is 2-D."""
    if not isinstance(x, (list, tuple)) or len(x) < 2:
        raise ValueError(f"multi_dot: x must be a list of at least 2 tensors, got "
                         f"{type(x).__name__} of length {len(x) if hasattr(x, '__len__') else '?'}")
    for i, t in enumerate(x):
        _check_tensor("multi_dot", t, f"x[{i}]")
        if t.ndim != 2 and not (t.ndim == 1 and i in (0, len(x) - 1)):
            raise ValueError(f"multi_dot: x[{i}] must be 2-D (only the first and last may be "
                             f"1-D), got shape {t.shape}")
        if t.dtype != x[0].dtype:
            raise TypeError(f"multi_dot: all tensors must have one dtype, got {x[0].dtype} "
                            f"(x[0]) and {t.dtype} (x[{i}])")
    out = x[0]
    for i, t in enumerate(x[1:], 1):
        if out.shape[-1] != t.shape[0]:
            raise ValueError(f"multi_dot: x[{i - 1}] and x[{i}] do not chain: shapes "
                             f"{x[i - 1].shape} and {t.shape}")
        out = ops.matmul(out, t)
    return out


def _cutoff_inverse(s, mag, cutoff):
    """1 / s where mag = |s| > cutoff, else 0 (with a gradient free of the masked-out 1 / 0)."""
    keep = ops.greater_than(mag, cutoff)
    safe = ops.where(keep, s, ops.full_like(s, fill_value=1.0))
    return ops.where(keep, ops.reciprocal(safe), ops.full_like(s, fill_value=0.0))


def _svd_pinv(x, rcond):
    """(pseudo-inverse, singular values, cutoff) of x's matrices from the SVD: singular
    values at most rcond times the largest count as zero."""
    u, s, vh = ops.svd(x)
    cutoff = ops.scale(ops.max(s, axis=-1, keepdim=True), scale=float(rcond))
    inv = _cutoff_inverse(s, s, cutoff)
    pseudo = ops.matmul(ops.multiply(vh, ops.unsqueeze(inv, axis=(-1,))), u, transpose_x=True,
                        transpose_y=True)
    return pseudo, s, cutoff


def pinv(x, rcond=1e-15, hermitian=False, name=None):
    """Moore-Penrose pseudo-inverse from the SVD (the eigendecomposition when hermitian):
    singular values at most rcond times the largest are treated as zero."""
    _check_tensor("pinv", x)
    if x.ndim < 2:
        raise ValueError(f"pinv: x must have at least 2 dimensions, got shape {x.shape}")
    if hermitian:
        _square_float("pinv", x)
        w, v = ops.eigh(x)
        mag = ops.abs(w)
        inv = _cutoff_inverse(w, mag, ops.scale(ops.max(mag, axis=-1, keepdim=True),
                                                scale=float(rcond)))
        return ops.matmul(ops.multiply(v, ops.unsqueeze(inv, axis=(-2,))), v, transpose_y=True)
    return _svd_pinv(x, rcond)[0]


def slogdet(x, name=None):
    """Sign and natural log of |det| of a square matrix (or batch), stacked along a new
    first axis: out[0] is the sign, out[1] the log-determinant's absolute value."""
    _check_tensor("slogdet", x)
    return ops.stack(list(ops.slogdet(x)), axis=0)


def eigh(x, UPLO="L", name=None):
    """Eigenvalues (ascending) and eigenvectors (the columns of v) of a symmetric matrix
    or batch; returns (w, v)."""
    _check_tensor("eigh", x)
    return ops.eigh(x, UPLO=UPLO)


def eigvalsh(x, UPLO="L", name=None):
    """Eigenvalues (ascending) of a symmetric matrix or batch."""
    _check_tensor("eigvalsh", x)
    return ops.eigh(x, UPLO=UPLO)[0]


def eigvals(x, name=None):
    """Eigenvalues of a general square matrix or batch: complex64 for float32 input,
    complex128 for float64 (no gradient, as in Paddle)."""
    _check_tensor("eigvals", x)
    return ops.eigvals(x)


def _singular_values(api, x, hermitian=False):
    """The singular values of x's matrices (|eigenvalues| when hermitian)."""
    _check_tensor(api, x)
    if x.ndim < 2:
        raise ValueError(f"{api}: x must have at least 2 dimensions, got shape {x.shape}")
    if hermitian:
        _square_float(api, x)
        return ops.abs(ops.eigh(x)[0])
    return ops.svd(x)[1]


def _count_above(s, tol):
    """How many of the values along s's last axis exceed tol (int64)."""
    return ops.sum(ops.cast(ops.greater_than(s, tol), dtype=np.dtype(np.int64)), axis=-1)


def matrix_rank(x, tol=None, hermitian=False, name=None):
    """The number of singular values (|eigenvalues| when hermitian) above tol (a float, or a
    Tensor broadcast against x's batch); tol None: the largest singular value times
    max(rows, columns) times the dtype's machine epsilon. Returns int64."""
    s = _singular_values("matrix_rank", x, hermitian)
    if tol is None:
        eps = float(np.finfo(x._data.dtype).eps) * max(x.shape[-2:])
        tol = ops.scale(ops.max(s, axis=-1, keepdim=True), scale=eps)
    elif isinstance(tol, Tensor):
        tol = ops.unsqueeze(ops.cast(tol, dtype=s._data.dtype), axis=(-1,))
    else:
        tol = ops.full_like(s, fill_value=float(tol))
    return _count_above(s, tol)


def cond(x, p=None, name=None):
    """Condition number of x's matrices in norm p: None or 2 (largest / smallest singular
    value, any shape), -2 (smallest / largest); 'fro', 'nuc', 1, -1, inf, -inf (square
    matrices): norm(x, p) * norm(inv(x), p)."""
    _check_tensor("cond", x)
    if p is not None and p not in _MATRIX_P:
        raise ValueError(f"cond: p must be None, 'fro', 'nuc', 1, -1, 2, -2, inf or -inf, got "
                         f"{p!r}")
    if p in (None, 2, -2):
        s = _singular_values("cond", x)
        big, small = ops.max(s, axis=-1), ops.min(s, axis=-1)
        return ops.divide(small, big) if p == -2 else ops.divide(big, small)
    _square_float("cond", x)
    return ops.multiply(matrix_norm(x, p), matrix_norm(ops.inverse(x), p))


_LSTSQ_DRIVERS = ("gels", "gelsy", "gelsd", "gelss")


def lstsq(x, y, rcond=None, driver=None, name=None):
    """Least-squares solution of x @ X = y (x [..., M, N], y [..., M, K]), the minimum-norm
    one when x is rank deficient: returns (solution, residuals, rank, singular_values) with
    Paddle's shapes per driver (None is 'gelsy'): residuals (squared column norms of
    x @ solution - y) for M > N and full rank except with 'gelsy', rank (int32) except with
    'gels', singular_values for 'gelsd' and 'gelss'; what a driver does not give is empty.
    Singular values at most rcond times the largest are treated as zero (rcond None: the
    dtype's machine epsilon times max(M, N))."""
    x, y = as_operands("lstsq", x, y)
    if driver is None:
        driver = "gelsy"
    if driver not in _LSTSQ_DRIVERS:
        raise ValueError(f"lstsq: driver must be 'gels', 'gelss', 'gelsd', 'gelsy' or None, got "
                         f"{driver!r}")
    if x.ndim < 2 or y.ndim < 2:
        raise ValueError(f"lstsq: x and y must have at least 2 dimensions ([..., M, N] and "
                         f"[..., M, K]), got shapes {x.shape} and {y.shape}")
    if x.shape[-2] != y.shape[-2]:
        raise ValueError(f"lstsq: x and y must have the same number of rows, got shapes "
                         f"{x.shape} and {y.shape}")
    if x.dtype != y.dtype or x._data.dtype.kind != "f":
        raise TypeError(f"lstsq: x and y must both be float32 or both float64, got {x.dtype} "
                        f"and {y.dtype}")
    m, n = x.shape[-2:]
    dtype = x._data.dtype
    if rcond is None:
        rcond = float(np.finfo(dtype).eps) * max(m, n)
    pseudo, s, cutoff = _svd_pinv(x, rcond)
    solution = ops.matmul(pseudo, y)
    rank = _count_above(s, cutoff)
    empty = ops.full(shape=(0,), fill_value=0, dtype=dtype)
    residuals = empty
    if m > n and driver != "gelsy" and bool(np.all(rank.numpy() == n)):
        residuals = ops.sum(ops.square(ops.subtract(ops.matmul(x, solution), y)), axis=-2)
    if driver == "gels":
        rank = ops.full(shape=(0,), fill_value=0, dtype=np.dtype(np.int64))
    else:
        rank = ops.cast(rank, dtype=np.dtype(np.int32))
    return solution, residuals, rank, s if driver in ("gelsd", "gelss") else empty


# ---------------------------------------------------------------------------
# triangular and LU solvers
# ---------------------------------------------------------------------------

def triangular_solve(x, y, upper=True, transpose=False, unitriangular=False, name=None):
    """The solution X of op(T) X = y, T the upper (upper=True) or lower triangle of the
    square x (its diagonal taken as ones when unitriangular), op the transpose when
    transpose; y is [..., n, K] and batch dimensions broadcast."""
    x, y = as_operands("triangular_solve", x, y)
    return ops.triangular_solve(x, y, upper=bool(upper), transpose=bool(transpose),
                                unitriangular=bool(unitriangular))


def cholesky_solve(x, y, upper=False, name=None):
    """The solution X of A X = x given y, A's Cholesky factor (lower L with A = L L^T, or
    upper U with A = U^T U when upper=True): two triangular solves."""
    x, y = as_operands("cholesky_solve", x, y)
    half = ops.triangular_solve(y, x, upper=bool(upper), transpose=bool(upper))
    return ops.triangular_solve(y, half, upper=bool(upper), transpose=not upper)


def lu(x, pivot=True, get_infos=False, name=None):
    """LU decomposition with partial pivoting x = P L U: returns (LU, pivots) with L (unit
    lower) and U packed in one tensor of x's shape and pivots (int32, 1-based), and infos
    (int32: 0, or the index of U's first zero diagonal entry) when get_infos."""
    _check_tensor("lu", x)
    out, pivots, infos = ops.lu(x, pivot=bool(pivot))
    return (out, pivots, infos) if get_infos else (out, pivots)


def lu_unpack(x, y, unpack_ludata=True, unpack_pivots=True, name=None):
    """(P, L, U) with P L U = A from lu's outputs x (packed L and U) and y (pivots); L and U
    are empty when not unpack_ludata, P when not unpack_pivots."""
    _check_tensor("lu_unpack", x)
    _check_tensor("lu_unpack", y, "y")
    return ops.lu_unpack(x, y, unpack_ludata=bool(unpack_ludata),
                         unpack_pivots=bool(unpack_pivots))


# ---------------------------------------------------------------------------
# covariance and correlation
# ---------------------------------------------------------------------------

def _observations(api, x, rowvar):
    """x as a 2-D float tensor with one variable per row."""
    _check_tensor(api, x)
    if x.ndim not in (1, 2):
        raise ValueError(f"{api}: x must be 1-D or 2-D, got shape {x.shape}")
    if x._data.dtype.kind != "f":
        raise TypeError(f"{api}: x must be float32 or float64, got {x.dtype}")
    if x.ndim == 1:
        return ops.reshape(x, shape=(1, x.shape[0]))
    return x if rowvar else ops.transpose(x, perm=(1, 0))


def _weights(api, w, arg, n, dtype):
    """fweights / aweights as a float vector of the n observations (checked >= 0)."""
    _check_tensor(api, w, arg)
    if w.ndim != 1 or w.shape[0] != n:
        raise ValueError(f"{api}: {arg} must be 1-D with one weight per observation ({n}), got "
                         f"shape {w.shape}")
    if w.size and float(w.numpy().min()) < 0:
        raise ValueError(f"{api}: {arg} must not be negative, got a minimum of "
                         f"{w.numpy().min()}")
    return ops.cast(w, dtype=dtype)


def cov(x, rowvar=True, ddof=True, fweights=None, aweights=None, name=None):
    """Covariance matrix of the variables in x's rows (columns when not rowvar; a 1-D x is
    one variable), as numpy.cov: ddof True divides by the (weighted) count minus 1;
    fweights are integer repeat counts and aweights relative weights of the observations."""
    obs = _observations("cov", x, rowvar)
    dtype, n = obs._data.dtype, obs.shape[1]
    if fweights is not None:
        fweights = _weights("cov", fweights, "fweights", n, dtype)
    if aweights is not None:
        aweights = _weights("cov", aweights, "aweights", n, dtype)
    given = [v for v in (fweights, aweights) if v is not None]
    w = (ops.full(shape=(n,), fill_value=1.0, dtype=dtype) if not given else
         given[0] if len(given) == 1 else ops.multiply(*given))
    w_sum = ops.sum(w)
    avg = ops.divide(ops.sum(ops.multiply(obs, w), axis=1, keepdim=True), w_sum)
    if not ddof:
        fact = w_sum
    elif aweights is None:
        fact = ops.scale(w_sum, bias=-1.0)
    else:  # w_sum - sum(w * aweights) / w_sum
        fact = ops.subtract(w_sum, ops.divide(ops.sum(ops.multiply(w, aweights)), w_sum))
    centred = ops.subtract(obs, avg)
    out = ops.divide(ops.matmul(ops.multiply(centred, w), centred, transpose_y=True), fact)
    return ops.reshape(out, shape=()) if out.shape == [1, 1] else out


def corrcoef(x, rowvar=True, name=None):
    """Pearson correlation coefficients of the variables in x's rows (columns when not
    rowvar), as numpy.corrcoef: cov(x) scaled by the standard deviations, clipped to
    [-1, 1]."""
    _observations("corrcoef", x, rowvar)
    c = cov(x, rowvar)
    if c.ndim == 0:
        return ops.divide(c, c)
    std = ops.sqrt(ops.diag(c))
    c = ops.divide(ops.divide(c, ops.unsqueeze(std, axis=(1,))), ops.unsqueeze(std, axis=(0,)))
    return ops.clip(c, min=-1.0, max=1.0)
