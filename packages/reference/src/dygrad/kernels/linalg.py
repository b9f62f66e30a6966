"""Matrix product and linear-algebra kernels."""

import math

import numpy as np

from .._core.ops.linalg import LINEAR_ACTIVATIONS, cross_axis, norm_axes, solve_is_vector
from .._core.optable import TABLE
from ._registry import KERNELS, kernel


def _validate(op, *inputs, **attrs):
    """NumPy accepts more than Paddle does (integer inputs, broadcasting, mixed dtypes):
    check the inputs with the row's infer_meta (arrays have .shape and .dtype like Metas)."""
    TABLE[op].infer_meta(*inputs, **attrs)


@kernel
def matmul(x, y, transpose_x=False, transpose_y=False):
    """op(x) @ op(y) with Paddle's 1-D rules (transposes apply to matrices only)"""
    if transpose_x and x.ndim > 1:
        x = np.swapaxes(x, -1, -2)
    if transpose_y and y.ndim > 1:
        y = np.swapaxes(y, -1, -2)
    return np.matmul(x, y)


@kernel
def bmm(x, y):
    """x[b] @ y[b] for each b of two 3-D tensors"""
    _validate("bmm", x, y)
    return np.matmul(x, y)


@kernel
def dot(x, y):
    """sum over the last axis of x * y (vectors, or the rows of 2-D tensors)"""
    _validate("dot", x, y)
    return np.sum(x * y, axis=-1, dtype=x.dtype)


@kernel
def einsum(operands, equation=""):
    """NumPy's Einstein summation (a contraction order chosen by NumPy)"""
    _validate("einsum", operands, equation=equation)
    return np.einsum(equation, *operands, optimize=True)


@kernel
def kron(x, y):
    """Kronecker product"""
    _validate("kron", x, y)
    return np.kron(x, y)


@kernel
def cross(x, y, axis=9):
    """cross product along axis (9: the first axis of size 3)"""
    _validate("cross", x, y, axis=axis)
    return np.cross(x, y, axis=cross_axis(x.shape, axis))


@kernel
def p_norm(x, porder=2.0, axis=None, keepdim=False):
    """(sum |x|^p)^(1/p) over axis; max/min |x| for p = ±inf; the nonzero count for p = 0"""
    _validate("p_norm", x, porder=porder, axis=axis, keepdim=keepdim)
    axes, a = norm_axes(axis, x.ndim), np.abs(x)
    if porder == np.inf:
        return np.max(a, axis=axes, keepdims=keepdim, initial=0)
    if porder == -np.inf:
        return np.min(a, axis=axes, keepdims=keepdim, initial=np.inf)
    if porder == 0:
        return np.sum(a != 0, axis=axes, keepdims=keepdim).astype(x.dtype)
    with np.errstate(divide="ignore"):  # a negative p at a zero entry gives inf, then 0
        return np.sum(a ** porder, axis=axes, keepdims=keepdim) ** (1 / porder)


def _lapack(op, requirement, fn, *args):
    """Run a NumPy linear-algebra routine; its LinAlgError becomes a ValueError naming the op."""
    try:
        return fn(*args)
    except np.linalg.LinAlgError as exc:
        raise ValueError(f"{op}: {requirement} (NumPy: {exc})") from None


@kernel
def inverse(x):
    """inverse of each square matrix"""
    _validate("inverse", x)
    return _lapack("inverse", "the matrix is singular (not invertible)", np.linalg.inv, x)


@kernel
def det(x):
    """determinant of each square matrix"""
    _validate("det", x)
    return np.linalg.det(x)


@kernel
def solve(x, y):
    """X with x X = y (y a matrix or, by Paddle's rule, a vector)"""
    _validate("solve", x, y)
    vector = solve_is_vector(x.shape, y.shape)
    if vector:
        y = y[..., None]
    out = _lapack("solve", "x is singular, so x X = y has no unique solution", np.linalg.solve, x, y)
    return out[..., 0] if vector else out


@kernel
def cholesky(x, upper=False):
    """lower Cholesky factor of the symmetric part of x (its transpose for upper=True)"""
    _validate("cholesky", x, upper=upper)
    low = _lapack("cholesky", "the matrix is not positive definite", np.linalg.cholesky,
                  (x + np.swapaxes(x, -1, -2)) / 2)
    return np.swapaxes(low, -1, -2) if upper else low


@kernel
def qr(x, mode="reduced"):
    """(Q, R) of the QR decomposition"""
    _validate("qr", x, mode=mode)
    return tuple(np.linalg.qr(x, mode=mode))


@kernel
def svd(x, full_matrices=False):
    """(U, S, VH) of the singular value decomposition, S descending"""
    _validate("svd", x, full_matrices=full_matrices)
    return tuple(np.linalg.svd(x, full_matrices=full_matrices))


@kernel
def slogdet(x):
    """(sign, log|det|) of each square matrix"""
    _validate("slogdet", x)
    sign, logabsdet = np.linalg.slogdet(x)
    return sign.astype(x.dtype), logabsdet.astype(x.dtype)


@kernel
def eigh(x, UPLO="L"):
    """(w, V) of the symmetric part of x, w ascending"""
    _validate("eigh", x, UPLO=UPLO)
    return tuple(np.linalg.eigh((x + np.swapaxes(x, -1, -2)) / 2, UPLO=UPLO))


@kernel
def eigvals(x):
    """complex eigenvalues of each square matrix"""
    out_dtype = TABLE["eigvals"].infer_meta(x).dtype
    return _lapack("eigvals", "the eigenvalue iteration did not converge", np.linalg.eigvals,
                   x).astype(out_dtype)


@kernel
def triangular_solve(x, y, upper=True, transpose=False, unitriangular=False):
    """X with op(T) X = y, T x's upper/lower triangle: substitution, one row at a time"""
    _validate("triangular_solve", x, y, upper=upper, transpose=transpose,
              unitriangular=unitriangular)
    n = x.shape[-1]
    batch = np.broadcast_shapes(x.shape[:-2], y.shape[:-2])
    a = np.triu(x) if upper else np.tril(x)
    if unitriangular:
        a = a - a * np.eye(n, dtype=x.dtype) + np.eye(n, dtype=x.dtype)
    if transpose:
        a = np.swapaxes(a, -1, -2)
    a = np.broadcast_to(a, batch + (n, n))
    out = np.zeros(batch + y.shape[-2:], dtype=np.result_type(x, y))
    b = np.broadcast_to(y, out.shape)
    forward = upper == transpose  # op(T) is lower: first row first
    with np.errstate(divide="ignore", invalid="ignore"):  # a zero diagonal gives inf/nan
        for i in range(n) if forward else range(n - 1, -1, -1):
            done = slice(0, i) if forward else slice(i + 1, n)
            rest = b[..., i, :] - (a[..., i:i + 1, done] @ out[..., done, :])[..., 0, :]
            out[..., i, :] = rest / a[..., i, i, None]
    return out


@kernel
def lu(x, pivot=True):
    """(packed L and U, 1-based pivots, infos) of Gaussian elimination with partial
    pivoting (LAPACK getrf's choices), one column at a time over the whole batch"""
    _validate("lu", x, pivot=pivot)
    *batch, m, n = x.shape
    k = min(m, n)
    a = np.array(x, dtype=x.dtype).reshape(math.prod(batch), m, n)
    pivots = np.zeros((a.shape[0], k), np.int32)
    infos = np.zeros(a.shape[0], np.int32)
    rows = np.arange(a.shape[0])
    for j in range(k):
        p = j + np.argmax(np.abs(a[:, j:, j]), axis=1)
        pivots[:, j] = p + 1
        a[rows, j], a[rows, p] = a[rows, p], a[rows, j].copy()
        d = a[:, j, j]
        zero = d == 0
        infos[(infos == 0) & zero] = j + 1
        a[:, j + 1:, j] /= np.where(zero, 1, d)[:, None]  # a zero pivot's column is zero
        a[:, j + 1:, j + 1:] -= a[:, j + 1:, j, None] * a[:, j, None, j + 1:]
    return a.reshape(x.shape), pivots.reshape(*batch, k), infos.reshape(batch)


@kernel
def lu_unpack(x, y, unpack_ludata=True, unpack_pivots=True):
    """(P, L, U) with x = P L U from lu's packed output x and pivots y"""
    _validate("lu_unpack", x, y, unpack_ludata=unpack_ludata, unpack_pivots=unpack_pivots)
    *batch, m, n = x.shape
    k = min(m, n)
    empty = np.zeros(0, x.dtype)
    pmat = low = up = empty
    if unpack_pivots:
        piv = y.reshape(math.prod(batch), k).astype(np.int64) - 1
        perm = np.broadcast_to(np.arange(m), (piv.shape[0], m)).copy()
        rows = np.arange(piv.shape[0])
        for j in range(k):  # the row swaps in order: row i of L U is row perm[i] of x
            p = piv[:, j]
            perm[rows, j], perm[rows, p] = perm[rows, p], perm[rows, j].copy()
        pmat = (perm[:, None, :] == np.arange(m)[:, None]).astype(x.dtype).reshape(*batch, m, m)
    if unpack_ludata:
        low = np.tril(x[..., :k], -1) + np.eye(m, k, dtype=x.dtype)
        up = np.triu(x[..., :k, :])
    return pmat, low, up


@kernel
def fused_linear_activation(x, weight, bias, activation="none"):
    """activation(x @ weight + bias); the bias and a ReLU are applied in place"""
    if not x.dtype == weight.dtype == bias.dtype or activation not in LINEAR_ACTIVATIONS:
        _validate("fused_linear_activation", x, weight, bias, activation=activation)
    out = np.matmul(x, weight)
    out += bias
    if activation == "relu":
        return np.maximum(out, 0, out=out)
    return out if activation == "none" else KERNELS[activation](out)


@kernel
def fused_linear_activation_grad(x, out, out_grad, activation="none"):
    """(weight_grad, bias_grad, z_grad) of activation(x @ weight + bias) from x, out, out_grad"""
    if not x.dtype == out.dtype == out_grad.dtype or activation not in LINEAR_ACTIVATIONS or \
            out.shape != out_grad.shape:
        _validate("fused_linear_activation_grad", x, out, out_grad, activation=activation)
    if activation == "relu":
        gz = KERNELS["relu_grad"](out, out_grad)
    elif activation == "sigmoid":
        gz = out_grad * out * (1 - out)
    elif activation == "tanh":
        gz = out_grad * (1 - out * out)
    else:
        gz = out_grad.copy()
    rows = math.prod(x.shape[:-1])
    x2, g2 = x.reshape(rows, x.shape[-1]), gz.reshape(rows, gz.shape[-1])
    return np.matmul(x2.T, g2), np.sum(g2, axis=0), gz
