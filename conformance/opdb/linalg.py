"""Op database entries: matrix products and linear algebra.

Samples for inverse/det/solve are diagonally dominant (well conditioned), cholesky's are
symmetric positive definite, and svd's have well-separated singular values (its gradient
assumes distinct ones); qr's are of full rank.
"""

import numpy as np

from . import ALL_NUMERIC, FLOATS, ErrorInput, OpInfo, Sample, make

F32_LINALG_TOL = {np.float32: (1e-4, 1e-5)}


def _sample(*inputs, desc="", grad=True, **attrs):
    return Sample(tuple(inputs), attrs, desc, grad=grad)


# ---------------------------------------------------------------------------
# matmul, bmm, dot
# ---------------------------------------------------------------------------

def _matmul_ref(x, y, transpose_x=False, transpose_y=False):
    if transpose_x and x.ndim > 1:
        x = np.swapaxes(x, -1, -2)
    if transpose_y and y.ndim > 1:
        y = np.swapaxes(y, -1, -2)
    return np.matmul(x, y)


def _matmul_samples(dtype, rng):
    m = lambda *s: make(s, dtype, rng)  # noqa: E731
    yield Sample((m(3, 4), m(4, 5)), desc="2-D")
    yield Sample((m(4, 3), m(4, 5)), {"transpose_x": True}, "transpose_x")
    yield Sample((m(3, 4), m(5, 4)), {"transpose_y": True}, "transpose_y")
    yield Sample((m(4, 3), m(5, 4)), {"transpose_x": True, "transpose_y": True}, "both")
    yield Sample((m(4,), m(4,)), desc="1-D x 1-D")
    yield Sample((m(3, 4), m(4,)), desc="2-D x 1-D")
    yield Sample((m(4,), m(4, 5)), desc="1-D x 2-D")
    yield Sample((m(2, 3, 4), m(4, 5)), desc="batched x 2-D")
    yield Sample((m(2, 1, 3, 4), m(5, 4, 2)), desc="batch broadcasting")
    yield Sample((m(2, 3, 4), m(4,)), desc="batched x 1-D")
    yield Sample((m(4,), m(2, 4, 5)), desc="1-D x batched")
    yield Sample((m(2, 4, 3), m(2, 5, 4)), {"transpose_x": True, "transpose_y": True}, "batched transposes")
    yield Sample((m(0, 4), m(4, 5)), desc="size 0")
    yield Sample((m(1, 1), m(1, 1)), desc="1x1")


def _matmul_errors(rng):
    f = np.float32
    yield ErrorInput(Sample((make((3, 4), f, rng), make((5, 6), f, rng))), ValueError, "contracted")
    yield ErrorInput(Sample((make((), f, rng), make((3,), f, rng))), ValueError, "at least 1-D")
    yield ErrorInput(Sample((make((2, 3, 4), f, rng), make((3, 4, 5), f, rng))), ValueError,
                     "cannot be broadcast")


def _bmm_samples(dtype, rng):
    m = lambda *s: make(s, dtype, rng)  # noqa: E731
    yield _sample(m(2, 3, 4), m(2, 4, 5), desc="2 batches")
    yield _sample(m(1, 1, 1), m(1, 1, 1), desc="size 1")
    yield _sample(m(0, 3, 4), m(0, 4, 2), desc="empty batch")
    yield _sample(m(2, 0, 3), m(2, 3, 4), desc="no rows")
    yield _sample(m(3, 2, 0), m(3, 0, 2), desc="empty contraction")


def _bmm_errors(rng):
    f = np.float32
    m = lambda *s: make(s, f, rng)  # noqa: E731
    yield ErrorInput(_sample(m(3, 4), m(4, 5)), ValueError, r"3-D.*\[3, 4\]")
    yield ErrorInput(_sample(m(2, 3, 4), m(3, 4, 5)), ValueError, r"same batch size.*\[3, 4, 5\]")
    yield ErrorInput(_sample(m(1, 3, 4), m(2, 4, 5)), ValueError, "same batch size")
    yield ErrorInput(_sample(m(2, 3, 4), m(2, 5, 5)), ValueError, r"last dimension.*\[2, 5, 5\]")
    yield ErrorInput(_sample(make((2, 3, 4), np.int64, rng), make((2, 4, 5), np.int64, rng)),
                     TypeError, "float")


def _dot_ref(x, y):
    return np.einsum("...i,...i->...", x, y)


def _dot_samples(dtype, rng):
    m = lambda *s: make(s, dtype, rng)  # noqa: E731
    yield _sample(m(5), m(5), desc="vectors")
    yield _sample(m(3, 4), m(3, 4), desc="rows")
    yield _sample(m(1), m(1), desc="size 1")
    yield _sample(m(1, 1), m(1, 1), desc="one row of size 1")
    yield _sample(m(0), m(0), desc="empty vectors")
    yield _sample(m(0, 3), m(0, 3), desc="no rows")
    yield _sample(m(3, 0), m(3, 0), desc="empty rows")


def _dot_errors(rng):
    f = np.float32
    m = lambda *s: make(s, f, rng)  # noqa: E731
    yield ErrorInput(_sample(m(), m()), ValueError, r"1-D.*\[\]")
    yield ErrorInput(_sample(m(2, 2, 3), m(2, 2, 3)), ValueError, r"\[2, 2, 3\]")
    yield ErrorInput(_sample(m(3), m(4)), ValueError, r"same shape.*\[3\].*\[4\]")
    yield ErrorInput(_sample(m(3), m(2, 3)), ValueError, "same shape")
    yield ErrorInput(_sample(m(3), make((3,), np.int32, rng)), TypeError, "dtype")


# ---------------------------------------------------------------------------
# einsum
# ---------------------------------------------------------------------------

def _einsum_ref(operands, equation=""):
    return np.einsum(equation, *operands)


EINSUM_CASES = [
    ("ij,jk->ik", [(3, 4), (4, 5)], "matrix product"),
    ("ij,jk", [(2, 3), (3, 4)], "implicit output"),
    ("ii->i", [(3, 3)], "diagonal"),
    ("ii", [(3, 3)], "trace"),
    ("iij->ji", [(3, 3, 2)], "diagonal with a free label"),
    ("i,i,i->i", [(4,), (4,), (4,)], "three operands, one label"),
    ("bij,bjk->bik", [(2, 3, 4), (2, 4, 2)], "batched product"),
    ("...ij,...jk->...ik", [(2, 1, 3, 4), (5, 4, 2)], "ellipsis broadcasting"),
    ("...i,i", [(2, 3), (3,)], "implicit output with ellipsis"),
    ("ij,ij->ij", [(1, 3), (2, 3)], "size-1 label broadcasting"),
    ("ij,jk->ik", [(2, 1), (3, 4)], "size-1 contracted label"),
    ("i,j->ij", [(2,), (3,)], "outer product"),
    ("ij->", [(2, 3)], "sum of all"),
    ("ij->j", [(2, 3)], "sum of one label"),
    ("ij->ji", [(2, 3)], "transpose"),
    (",i->i", [(), (3,)], "0-D operand"),
    ("->", [()], "0-D only"),
    ("ijk,jil->kl", [(2, 3, 2), (3, 2, 4)], "two contracted labels"),
    ("ij,jk,kl->il", [(2, 3), (3, 4), (4, 2)], "chain of three"),
    ("ij,jk->ik", [(2, 0), (0, 3)], "empty contraction"),
    ("ij,jk->ik", [(0, 2), (2, 3)], "empty output"),
]


def _einsum_samples(dtype, rng):
    for eq, shapes, desc in EINSUM_CASES:
        yield Sample(([make(s, dtype, rng) for s in shapes],), {"equation": eq}, desc)


def _einsum_errors(rng):
    m = lambda *s: make(s, np.float32, rng)  # noqa: E731

    def err(eq, operands, exc, match):
        return ErrorInput(Sample((operands,), {"equation": eq}), exc, match)
    yield err("ij,jk->ik", [m(2, 3)], ValueError, "2 operand term")
    yield err("ijk->i", [m(2, 3)], ValueError, r"shape \[2, 3\].*'ijk'")
    yield err("ij,jk->ik", [m(2, 3), m(4, 4)], ValueError, "label 'j'.*sizes 3 and 4")
    yield err("ij->ii", [m(2, 2)], ValueError, "output label 'i'")
    yield err("ij->k", [m(2, 2)], ValueError, "output label 'k'")
    yield err("...ij->ij", [m(5, 2, 3)], ValueError, r"must contain '\.\.\.'")
    yield err("i->i->i", [m(2)], ValueError, "more than one '->'")
    yield err("i1->i", [m(2, 2)], ValueError, "invalid term")
    yield err("ii->i", [m(2, 3)], ValueError, "repeats in operand 0")
    yield err("...i,...i->...i", [m(2, 3), m(4, 3)], ValueError, r"'\.\.\.' dimensions")
    yield err("ij->i", [make((2, 2), np.int64, rng)], TypeError, "float")
    yield err("i,i->i", [m(2), make((2,), np.float64, rng)], TypeError, "same dtype")
    yield err("", [], ValueError, "at least one operand")


# ---------------------------------------------------------------------------
# kron, cross
# ---------------------------------------------------------------------------

def _kron_samples(dtype, rng):
    m = lambda *s: make(s, dtype, rng)  # noqa: E731
    yield _sample(m(2, 3), m(4,), desc="2-D x 1-D")
    yield _sample(m(2,), m(3,), desc="vectors")
    yield _sample(m(2, 2), m(3, 2), desc="matrices")
    yield _sample(m(), m(4,), desc="0-D x 1-D")
    yield _sample(m(3,), m(), desc="1-D x 0-D")
    yield _sample(m(), m(), desc="0-D x 0-D")
    yield _sample(m(2, 1, 3), m(2, 2), desc="rank 3 x rank 2")
    yield _sample(m(1,), m(1, 1), desc="size 1")
    yield _sample(m(0, 2), m(3,), desc="size 0")


def _kron_errors(rng):
    yield ErrorInput(_sample(make((2,), np.float32, rng), make((2,), np.int64, rng)), TypeError,
                     "same dtype")


def _cross_ref(x, y, axis=9):
    if axis == 9:
        axis = list(x.shape).index(3)
    return np.cross(x, y, axis=axis)


def _cross_samples(dtype, rng):
    m = lambda *s: make(s, dtype, rng)  # noqa: E731
    yield _sample(m(3), m(3), desc="vectors")
    yield _sample(m(4, 3), m(4, 3), desc="rows (first axis of size 3 is 1)")
    yield _sample(m(3, 3), m(3, 3), desc="square (first axis of size 3 is 0)")
    yield _sample(m(3, 4), m(3, 4), axis=0, desc="axis 0")
    yield _sample(m(2, 3, 5), m(2, 3, 5), axis=1, desc="middle axis")
    yield _sample(m(2, 3, 3), m(2, 3, 3), axis=-1, desc="negative axis")
    yield _sample(m(1, 3), m(1, 3), desc="one row")
    yield _sample(m(0, 3), m(0, 3), desc="size 0")


def _cross_errors(rng):
    m = lambda *s: make(s, np.float32, rng)  # noqa: E731
    yield ErrorInput(_sample(m(3, 3), m(1, 3)), ValueError, r"same shape.*\[3, 3\].*\[1, 3\]")
    yield ErrorInput(_sample(m(2, 4), m(2, 4)), ValueError, r"no dimension of size 3.*\[2, 4\]")
    yield ErrorInput(_sample(m(3, 4), m(3, 4), axis=1), ValueError, "size 4")
    yield ErrorInput(_sample(m(4, 3), m(4, 3), axis=2), IndexError, "out of range")
    yield ErrorInput(_sample(m(), m()), ValueError, "no dimension of size 3")
    yield ErrorInput(_sample(m(3), make((3,), np.int64, rng)), TypeError, "same dtype")


# ---------------------------------------------------------------------------
# p_norm
# ---------------------------------------------------------------------------

def _p_norm_ref(x, porder=2.0, axis=None, keepdim=False):
    if x.ndim == 0:
        axis = None
    elif isinstance(axis, int):
        axis = (axis,)
    a = np.abs(x)
    if porder == np.inf:
        out = a.max(axis=axis, keepdims=keepdim, initial=0)
    elif porder == -np.inf:
        out = a.min(axis=axis, keepdims=keepdim, initial=np.inf)
    elif porder == 0:
        out = np.count_nonzero(x, axis=axis, keepdims=keepdim)
    else:
        out = np.sum(a ** porder, axis=axis, keepdims=keepdim) ** (1 / porder)
    return np.asarray(out, dtype=x.dtype)


P_NORM_CASES = [
    ((3, 4), {}, "2-norm of all"),
    ((3, 4), {"axis": 1}, "2-norm of rows"),
    ((3, 4), {"axis": -1, "keepdim": True}, "negative axis, keepdim"),
    ((2, 3, 4), {"axis": (0, 2)}, "2-norm over two axes"),
    ((3, 4), {"porder": 1.0, "axis": 0}, "1-norm"),
    ((2, 3, 4), {"porder": 3.0, "axis": (0, 2), "keepdim": True}, "3-norm over two axes"),
    ((5,), {"porder": 0.5}, "p = 0.5"),
    ((3, 4), {"porder": -1.0, "axis": 1}, "p = -1"),
    ((3, 4), {"porder": np.inf, "axis": 1}, "inf-norm"),
    ((3, 4), {"porder": -np.inf}, "-inf-norm of all"),
    ((3, 4), {"porder": 0.0, "axis": 0}, "nonzero count"),
    ((), {}, "0-D"),
    ((), {"porder": 3.0, "axis": 0}, "0-D with axis"),
    ((1,), {"porder": np.inf}, "size 1"),
    ((2, 1, 3), {"axis": 1}, "size-1 axis"),
    ((0, 3), {"axis": 0}, "empty axis"),
    ((0, 3), {"porder": np.inf, "axis": 0}, "inf-norm of an empty axis"),
]


def _p_norm_samples(dtype, rng):
    for shape, attrs, desc in P_NORM_CASES:
        # |x| in [0.3, 2]: away from 0, where the norms of p < 1 are not differentiable
        x = make(shape, dtype, rng, 0.3, 2.0) * np.where(rng.random(shape) < 0.5, -1, 1).astype(dtype)
        yield Sample((x,), dict(attrs), desc)
    yield Sample((np.zeros((2, 3), dtype),), {"axis": 1}, "zero rows (gradient 0)", grad=False)


def _p_norm_errors(rng):
    m = lambda *s: make(s, np.float32, rng)  # noqa: E731
    yield ErrorInput(_sample(make((3,), np.int64, rng)), TypeError, "float")
    yield ErrorInput(_sample(m(2, 3), axis=2), ValueError, "out of range")
    yield ErrorInput(_sample(m(2, 3), axis=(1, -1)), ValueError, "repeats")


# ---------------------------------------------------------------------------
# inverse, det, solve
# ---------------------------------------------------------------------------

def _well_conditioned(shape, dtype, rng):
    """Random matrices plus a multiple of the identity (diagonally dominant)."""
    n = shape[-1]
    return (make(shape, dtype, rng, -1, 1) + n * np.eye(n, dtype=dtype)).astype(dtype)


SQUARE_SHAPES = [(3, 3), (2, 3, 3), (2, 1, 2, 2), (1, 1), (0, 0), (2, 0, 0), (0, 2, 2)]


def _square_samples(dtype, rng):
    for s in SQUARE_SHAPES:
        yield _sample(_well_conditioned(s, dtype, rng), desc=f"{s}")


def _square_errors(op):
    def gen(rng):
        m = lambda *s: make(s, np.float32, rng)  # noqa: E731
        yield ErrorInput(_sample(m(2, 3)), ValueError, rf"{op}: .*square.*\[2, 3\]")
        yield ErrorInput(_sample(m(3)), ValueError, rf"{op}: .*at least 2 dimensions")
        yield ErrorInput(_sample(make((2, 2), np.int64, rng)), TypeError, "float")
    return gen


def _inverse_errors(rng):
    yield from _square_errors("inverse")(rng)
    yield ErrorInput(_sample(np.zeros((2, 2), np.float32)), ValueError, "singular")
    yield ErrorInput(_sample(np.ones((2, 3, 3))), ValueError, "singular")


def _solve_samples(dtype, rng):
    a = lambda *s: _well_conditioned(s, dtype, rng)  # noqa: E731
    m = lambda *s: make(s, dtype, rng)  # noqa: E731
    yield _sample(a(3, 3), m(3, 2), desc="matrix right-hand side")
    yield _sample(a(3, 3), m(3), desc="vector")
    yield _sample(a(2, 3, 3), m(2, 3), desc="batch of vectors")
    yield _sample(a(2, 3, 3), m(3), desc="one vector for a batch")
    yield _sample(a(3, 3, 3), m(3, 3), desc="(3, 3) is a batch of vectors for a (3, 3, 3) x")
    yield _sample(a(2, 3, 3), m(3, 3), desc="(3, 3) is a matrix for a (2, 3, 3) x")
    yield _sample(a(2, 1, 3, 3), m(4, 3, 2), desc="batch broadcasting")
    yield _sample(a(1, 1), m(1, 1), desc="1x1")
    yield _sample(a(3, 3), m(3, 0), desc="no right-hand sides")
    yield _sample(a(0, 0), m(0, 2), desc="size 0")


def _solve_errors(rng):
    a = lambda *s: _well_conditioned(s, np.float32, rng)  # noqa: E731
    m = lambda *s: make(s, np.float32, rng)  # noqa: E731
    yield ErrorInput(_sample(a(3, 3), m(4, 2)), ValueError, r"\[3, 3\].*\[4, 2\]")
    yield ErrorInput(_sample(a(3, 3), m(4)), ValueError, r"length 4")
    yield ErrorInput(_sample(a(1, 3, 3), m(5, 3)), ValueError, r"\[1, 3, 3\].*\[5, 3\]")
    yield ErrorInput(_sample(m(3, 4), m(3, 2)), ValueError, r"square.*\[3, 4\]")
    yield ErrorInput(_sample(np.zeros((2, 2), np.float32), m(2, 2)), ValueError, "singular")
    yield ErrorInput(_sample(a(2, 2), make((2,), np.float64, rng)), TypeError, "same dtype")
    yield ErrorInput(_sample(a(2, 2).astype(np.int64), make((2,), np.int64, rng)), TypeError,
                     "float")


def _solve_ref(x, y):
    if y.ndim == 1 or (y.ndim == x.ndim - 1 and y.shape[:-1] == x.shape[:-2]):
        return np.linalg.solve(x, y[..., None])[..., 0]
    return np.linalg.solve(x, y)


# ---------------------------------------------------------------------------
# cholesky, qr, svd
# ---------------------------------------------------------------------------

def _spd(shape, dtype, rng):
    """Symmetric positive-definite matrices A A^T + n I."""
    a = make(shape, dtype, rng, -1, 1)
    n = shape[-1]
    return (a @ np.swapaxes(a, -1, -2) + n * np.eye(n, dtype=dtype)).astype(dtype)


def _cholesky_ref(x, upper=False):
    low = np.linalg.cholesky(x)
    return np.swapaxes(low, -1, -2) if upper else low


def _cholesky_samples(dtype, rng):
    for s in [(3, 3), (2, 3, 3), (1, 1), (0, 0), (2, 0, 0)]:
        yield _sample(_spd(s, dtype, rng), desc=f"{s}")
    yield _sample(_spd((3, 3), dtype, rng), upper=True, desc="upper")
    yield _sample(_spd((2, 2, 2), dtype, rng), upper=True, desc="batched upper")


def _cholesky_errors(rng):
    yield from _square_errors("cholesky")(rng)
    yield ErrorInput(_sample(-_spd((3, 3), np.float32, rng)), ValueError, "positive definite")


def _with_singular_values(shape, dtype, rng):
    """Random matrices whose singular values are 1, 2, ... (distinct, well separated)."""
    *batch, m, n = shape
    k = min(m, n)
    u = np.linalg.qr(rng.standard_normal((*batch, m, m)))[0][..., :k]
    v = np.linalg.qr(rng.standard_normal((*batch, n, n)))[0][..., :k]
    s = np.arange(1, k + 1, dtype=np.float64)[::-1].copy()
    return ((u * s[..., None, :]) @ np.swapaxes(v, -1, -2)).astype(dtype)


def _up_to_sign(actual, expected, rtol, atol):
    """Singular vectors and QR factors are unique up to the signs of columns/rows: compare
    absolute values (samples have distinct singular values and full rank)."""
    np.testing.assert_allclose(np.abs(actual), np.abs(expected), rtol=rtol, atol=atol)


def _qr_ref(x, mode="reduced"):
    return tuple(np.linalg.qr(x, mode=mode))


def _qr_samples(dtype, rng):
    for s in [(4, 3), (3, 3), (3, 4), (2, 4, 3), (2, 2, 3), (1, 1)]:
        yield _sample(_with_singular_values(s, dtype, rng), desc=f"{s}")
    yield _sample(_with_singular_values((3, 4), dtype, rng), mode="complete",
                  desc="complete, wide (same as reduced)")
    yield _sample(_with_singular_values((4, 3), dtype, rng), mode="complete", grad=False,
                  desc="complete, tall")
    yield _sample(make((0, 3), dtype, rng), grad=False, desc="size 0")


def _qr_errors(rng):
    m = lambda *s: make(s, np.float32, rng)  # noqa: E731
    yield ErrorInput(_sample(m(3)), ValueError, "at least 2 dimensions")
    yield ErrorInput(_sample(m(3, 3), mode="full"), ValueError, "mode")
    yield ErrorInput(_sample(make((2, 2), np.int64, rng)), TypeError, "float")


def _svd_ref(x, full_matrices=False):
    return tuple(np.linalg.svd(x, full_matrices=full_matrices))


def _svd_samples(dtype, rng):
    for s in [(4, 3), (3, 4), (3, 3), (2, 4, 3), (2, 2, 3), (1, 1), (5, 1)]:
        yield _sample(_with_singular_values(s, dtype, rng), desc=f"{s}")
    yield _sample(_with_singular_values((3, 3), dtype, rng), full_matrices=True,
                  desc="full_matrices, square")
    yield _sample(_with_singular_values((4, 2), dtype, rng), full_matrices=True, grad=False,
                  desc="full_matrices, tall")
    yield _sample(make((0, 3), dtype, rng), grad=False, desc="size 0")


def _svd_errors(rng):
    yield ErrorInput(_sample(make((3,), np.float32, rng)), ValueError, "at least 2 dimensions")
    yield ErrorInput(_sample(make((2, 2), np.int32, rng)), TypeError, "float")


def _slogdet_ref(x):
    sign, logabsdet = np.linalg.slogdet(x.astype(np.float64))
    return sign.astype(x.dtype), logabsdet.astype(x.dtype)


def _slogdet_samples(dtype, rng):
    yield from _square_samples(dtype, rng)
    flipped = _well_conditioned((2, 3, 3), dtype, rng)
    flipped[..., 0, :] *= -1
    yield _sample(flipped, desc="negative determinants")
    yield _sample(np.array([[1, 2], [2, 4]], dtype), grad=False, desc="singular: sign 0, -inf")


def _symmetric(shape, dtype, rng):
    """Symmetric matrices Q diag(d) Q^T with distinct eigenvalues d = -1, 0.5, 2, 3.5, ..."""
    *batch, n, _ = shape
    q = np.linalg.qr(rng.standard_normal((*batch, n, n)))[0]
    d = -1 + 1.5 * np.arange(n)
    return ((q * d) @ np.swapaxes(q, -1, -2)).astype(dtype)


def _eigh_ref(x, UPLO="L"):
    return tuple(np.linalg.eigh(x, UPLO=UPLO))


def _eigh_samples(dtype, rng):
    for s in [(3, 3), (2, 4, 4), (2, 1, 2, 2), (1, 1), (0, 0)]:
        yield _sample(_symmetric(s, dtype, rng), desc=f"{s}")
    yield _sample(_symmetric((3, 3), dtype, rng), UPLO="U", desc="UPLO='U'")


def _eigh_errors(rng):
    yield from _square_errors("eigh")(rng)
    yield ErrorInput(_sample(make((2, 2), np.float32, rng), UPLO="X"), ValueError, "UPLO")


def _eigvals_ref(x):
    return np.linalg.eigvals(x).astype(np.complex64 if x.dtype == np.float32 else np.complex128)


def _eigvals_samples(dtype, rng):
    for s in [(3, 3), (2, 4, 4), (1, 1), (0, 0), (2, 0, 0)]:
        yield _sample(make(s, dtype, rng), grad=False, desc=f"{s}")
    yield _sample(np.array([[0, -1], [1, 0]], dtype), grad=False, desc="rotation: +-i")
    yield _sample(_symmetric((3, 3), dtype, rng), grad=False, desc="symmetric: real")


def _sorted_close(actual, expected, rtol, atol):
    """Eigenvalues in any order: compare them sorted."""
    np.testing.assert_allclose(np.sort(actual, axis=-1), np.sort(expected, axis=-1), rtol=rtol,
                               atol=atol)


def _triangular_solve_ref(x, y, upper=True, transpose=False, unitriangular=False):
    a = np.triu(x) if upper else np.tril(x)
    if unitriangular:
        a[..., np.arange(a.shape[-1]), np.arange(a.shape[-1])] = 1
    if transpose:
        a = np.swapaxes(a, -1, -2)
    return np.linalg.solve(a, y)


def _triangular_solve_samples(dtype, rng):
    a = lambda *s: _well_conditioned(s, dtype, rng)  # noqa: E731
    m = lambda *s: make(s, dtype, rng)  # noqa: E731
    for upper in (True, False):
        for transpose in (False, True):
            yield _sample(a(3, 3), m(3, 2), upper=upper, transpose=transpose,
                          desc=f"upper={upper} transpose={transpose}")
            yield _sample(a(4, 4), m(4, 1), upper=upper, transpose=transpose,
                          unitriangular=True, desc=f"unit, upper={upper} transpose={transpose}")
    yield _sample(a(2, 1, 3, 3), m(4, 3, 2), desc="batch broadcasting")
    yield _sample(a(3, 3), m(2, 3, 3), upper=False, desc="one x for a batch of y")
    yield _sample(a(1, 1), m(1, 1), desc="1x1")
    yield _sample(a(3, 3), m(3, 0), desc="no right-hand sides")
    yield _sample(a(0, 0), m(0, 2), desc="size 0")


def _triangular_solve_errors(rng):
    a = lambda *s: _well_conditioned(s, np.float32, rng)  # noqa: E731
    m = lambda *s: make(s, np.float32, rng)  # noqa: E731
    yield ErrorInput(_sample(m(3, 4), m(3, 2)), ValueError, r"triangular_solve: .*square.*\[3, 4\]")
    yield ErrorInput(_sample(a(3, 3), m(3)), ValueError, r"y must be \[..., 3, K\]")
    yield ErrorInput(_sample(a(3, 3), m(4, 2)), ValueError, r"\[4, 2\]")
    yield ErrorInput(_sample(a(2, 3, 3), m(3, 3, 2)), ValueError, "cannot be broadcast")
    yield ErrorInput(_sample(a(2, 2), make((2, 1), np.float64, rng)), TypeError, "same dtype")


def _lu_ref(x, pivot=True):
    """Doolittle elimination with partial pivoting, one matrix at a time."""
    *batch, m, n = x.shape
    k = min(m, n)
    packed = np.array(x, dtype=np.float64).reshape(int(np.prod(batch)), m, n)
    pivots = np.zeros((len(packed), k), np.int32)
    infos = np.zeros(len(packed), np.int32)
    for b, a in enumerate(packed):
        for j in range(k):
            p = j + int(np.argmax(np.abs(a[j:, j])))
            pivots[b, j] = p + 1
            a[[j, p]] = a[[p, j]]
            if a[j, j] == 0:
                infos[b] = infos[b] or j + 1
                continue
            a[j + 1:, j] /= a[j, j]
            a[j + 1:, j + 1:] -= np.outer(a[j + 1:, j], a[j, j + 1:])
    return (packed.reshape(x.shape).astype(x.dtype), pivots.reshape(*batch, k),
            infos.reshape(batch))


LU_SHAPES = [(3, 3), (4, 3), (3, 5), (2, 3, 3), (2, 1, 4, 2), (1, 1), (0, 0), (0, 3), (2, 0, 0)]


def _lu_samples(dtype, rng):
    for s in LU_SHAPES:
        yield _sample(make(s, dtype, rng), desc=f"{s}")
    singular = np.array([[1, 2, 3], [2, 4, 6], [1, 1, 1]], dtype)
    yield _sample(singular, grad=False, desc="singular: infos 3")
    yield _sample(np.zeros((2, 2, 2), dtype), grad=False, desc="zero matrices: infos 1")


def _lu_errors(rng):
    yield ErrorInput(_sample(make((3,), np.float32, rng)), ValueError, "lu: .*at least 2")
    yield ErrorInput(_sample(make((2, 2), np.int32, rng)), TypeError, "float")
    yield ErrorInput(_sample(make((2, 2), np.float32, rng), pivot=False), ValueError, "pivot")


def _lu_unpack_ref(x, y, unpack_ludata=True, unpack_pivots=True):
    *batch, m, n = x.shape
    k = min(m, n)
    empty = np.zeros(0, x.dtype)
    pmat = empty
    if unpack_pivots:
        pmat = np.zeros((*batch, m, m), x.dtype)
        for idx in np.ndindex(*batch):
            rows = np.eye(m, dtype=x.dtype)
            for j, p in enumerate(y[idx]):  # P^T x = L U: undo the swaps on the identity
                rows[[j, p - 1]] = rows[[p - 1, j]]
            pmat[idx] = rows.T
    if not unpack_ludata:
        return pmat, empty, empty
    low = np.tril(x[..., :k], -1) + np.eye(m, k, dtype=x.dtype)
    return pmat, low, np.triu(x[..., :k, :])


def _lu_unpack_samples(dtype, rng):
    for s in LU_SHAPES:
        packed, pivots, _ = _lu_ref(make(s, dtype, rng))
        yield _sample(packed, pivots, desc=f"{s}")
    packed, pivots, _ = _lu_ref(make((2, 4, 3), dtype, rng))
    yield _sample(packed, pivots, unpack_ludata=False, desc="pivots only")
    yield _sample(packed, pivots, unpack_pivots=False, desc="L and U only")
    yield _sample(packed, pivots.astype(np.int64), desc="int64 pivots")


def _lu_unpack_errors(rng):
    m = make((3, 3), np.float32, rng)
    yield ErrorInput(_sample(m, np.ones(2, np.int32)), ValueError, r"lu_unpack: y .*\[3\]")
    yield ErrorInput(_sample(m, np.ones(3, np.float32)), ValueError, "int tensor")
    yield ErrorInput(_sample(make((3,), np.float32, rng), np.ones(3, np.int32)), ValueError,
                     "at least 2")


def _fused_linear_ref(x, weight, bias, activation="none"):
    pre = x @ weight + bias
    return {"none": pre, "relu": np.maximum(pre, 0), "sigmoid": 1 / (1 + np.exp(-pre)),
            "tanh": np.tanh(pre)}[activation]


def _fused_linear_samples(dtype, rng):
    m = lambda *s: make(s, dtype, rng)  # noqa: E731
    for act in ("none", "relu", "sigmoid", "tanh"):
        yield _sample(m(5, 3), m(3, 4), m(4), desc=f"2-D {act}", activation=act)
    yield _sample(m(1, 7), m(7, 2), m(2), desc="batch 1", activation="relu")
    yield _sample(m(2, 3, 5), m(5, 3), m(3), desc="3-D x", activation="tanh")
    yield _sample(m(4,), m(4, 3), m(3), desc="1-D x", activation="sigmoid")
    yield _sample(m(0, 3), m(3, 2), m(2), desc="no rows", activation="relu")


def _fused_linear_errors(rng):
    m = lambda *s: make(s, np.float32, rng)  # noqa: E731
    yield ErrorInput(_sample(m(2, 3), m(4, 5), m(5)), ValueError, r"must agree.*\[2, 3\]")
    yield ErrorInput(_sample(m(2, 3), m(3, 5), m(4)), ValueError, r"bias must have shape \[5\]")
    yield ErrorInput(_sample(m(2, 3), m(3, 5), m(5), activation="gelu"), ValueError, "activation")
    yield ErrorInput(_sample(m(2, 3), make((3, 5), np.float64, rng), m(5)), TypeError,
                     "one dtype")


def _fused_linear_grad_ref(x, out, out_grad, activation="none"):
    """With z = x @ w + b and out = act(z): dz = out_grad * act'(z), written with out."""
    dz = out_grad * {"none": np.ones_like(out), "relu": (out > 0).astype(out.dtype),
                     "sigmoid": out * (1 - out), "tanh": 1 - out ** 2}[activation]
    rows = dz.reshape(-1, dz.shape[-1])
    return x.reshape(-1, x.shape[-1]).T @ rows, rows.sum(axis=0), dz


def _fused_linear_grad_samples(dtype, rng):
    m = lambda *s: make(s, dtype, rng)  # noqa: E731

    def out_of(act, *shape):
        z = m(*shape)
        return {"none": z, "relu": np.maximum(z, 0), "sigmoid": 1 / (1 + np.exp(-z)),
                "tanh": np.tanh(z)}[act].astype(dtype)
    for act in ("none", "relu", "sigmoid", "tanh"):
        yield _sample(m(5, 3), out_of(act, 5, 4), m(5, 4), desc=f"2-D {act}", grad=False,
                      activation=act)
    yield _sample(m(1, 7), out_of("relu", 1, 2), m(1, 2), desc="batch 1", grad=False,
                  activation="relu")
    yield _sample(m(2, 3, 5), out_of("relu", 2, 3, 3), m(2, 3, 3), desc="3-D x", grad=False,
                  activation="relu")
    yield _sample(m(4,), out_of("tanh", 3), m(3), desc="1-D x", grad=False, activation="tanh")
    yield _sample(m(0, 3), out_of("relu", 0, 2), m(0, 2), desc="no rows", grad=False,
                  activation="relu")


def _fused_linear_grad_errors(rng):
    m = lambda *s: make(s, np.float32, rng)  # noqa: E731
    yield ErrorInput(_sample(m(2, 3), m(3, 5), m(3, 5)), ValueError, r"must agree.*\[2, 3\]")
    yield ErrorInput(_sample(m(2, 3), m(2, 5), m(2, 4)), ValueError, "must agree")
    yield ErrorInput(_sample(m(2, 3), m(2, 5), m(2, 5), activation="gelu"), ValueError,
                     "activation")
    yield ErrorInput(_sample(m(2, 3), make((2, 5), np.float64, rng), m(2, 5)), TypeError,
                     "one dtype")
    yield ErrorInput(_sample(make((2, 3), np.int32, rng), m(2, 5), m(2, 5)), TypeError, "int32")


OPS = [
    OpInfo("matmul", _matmul_ref, _matmul_samples, dtypes=FLOATS, gradgrad=True,
           tol={np.float32: (1e-5, 1e-5)}, errors=_matmul_errors),
    OpInfo("bmm", np.matmul, _bmm_samples, dtypes=FLOATS, gradgrad=True,
           tol={np.float32: (1e-5, 1e-5)}, errors=_bmm_errors),
    OpInfo("dot", _dot_ref, _dot_samples, dtypes=ALL_NUMERIC, gradgrad=True,
           tol={np.float32: (1e-5, 1e-5)}, errors=_dot_errors),
    OpInfo("einsum", _einsum_ref, _einsum_samples, dtypes=FLOATS, gradgrad=True,
           tol={np.float32: (1e-5, 1e-5)}, errors=_einsum_errors),
    OpInfo("kron", np.kron, _kron_samples, dtypes=ALL_NUMERIC, gradgrad=True, errors=_kron_errors),
    OpInfo("cross", _cross_ref, _cross_samples, dtypes=ALL_NUMERIC, gradgrad=True,
           errors=_cross_errors),
    OpInfo("p_norm", _p_norm_ref, _p_norm_samples, dtypes=FLOATS, gradgrad=True,
           tol={np.float32: (1e-5, 1e-5)}, errors=_p_norm_errors),
    OpInfo("inverse", np.linalg.inv, _square_samples, dtypes=FLOATS, gradgrad=True,
           tol=F32_LINALG_TOL, errors=_inverse_errors),
    OpInfo("det", np.linalg.det, _square_samples, dtypes=FLOATS, gradgrad=True,
           tol=F32_LINALG_TOL, errors=_square_errors("det")),
    OpInfo("solve", _solve_ref, _solve_samples, dtypes=FLOATS, gradgrad=True,
           tol=F32_LINALG_TOL, errors=_solve_errors),
    OpInfo("cholesky", _cholesky_ref, _cholesky_samples, dtypes=FLOATS, gradgrad=True,
           tol=F32_LINALG_TOL, errors=_cholesky_errors),
    OpInfo("qr", _qr_ref, _qr_samples, dtypes=FLOATS, gradgrad=True, tol=F32_LINALG_TOL,
           compare=_up_to_sign, errors=_qr_errors),
    OpInfo("svd", _svd_ref, _svd_samples, dtypes=FLOATS, gradgrad=True, tol=F32_LINALG_TOL,
           compare=_up_to_sign, errors=_svd_errors),
    OpInfo("slogdet", _slogdet_ref, _slogdet_samples, dtypes=FLOATS, gradgrad=True,
           tol=F32_LINALG_TOL, errors=_square_errors("slogdet")),
    OpInfo("eigh", _eigh_ref, _eigh_samples, dtypes=FLOATS, gradgrad=True, tol=F32_LINALG_TOL,
           compare=_up_to_sign, errors=_eigh_errors),
    OpInfo("eigvals", _eigvals_ref, _eigvals_samples, dtypes=FLOATS, grad=False,
           tol=F32_LINALG_TOL, compare=_sorted_close, errors=_square_errors("eigvals")),
    OpInfo("triangular_solve", _triangular_solve_ref, _triangular_solve_samples, dtypes=FLOATS,
           gradgrad=True, tol=F32_LINALG_TOL, errors=_triangular_solve_errors),
    OpInfo("lu", _lu_ref, _lu_samples, dtypes=FLOATS, gradgrad=True, tol=F32_LINALG_TOL,
           errors=_lu_errors),
    OpInfo("lu_unpack", _lu_unpack_ref, _lu_unpack_samples, dtypes=FLOATS, gradgrad=True,
           errors=_lu_unpack_errors),
    OpInfo("fused_linear_activation", _fused_linear_ref, _fused_linear_samples, dtypes=FLOATS,
           gradgrad=True, tol={np.float32: (1e-5, 1e-5)}, errors=_fused_linear_errors),
    OpInfo("fused_linear_activation_grad", _fused_linear_grad_ref, _fused_linear_grad_samples,
           dtypes=FLOATS, grad=False, tol={np.float32: (1e-5, 1e-5)},
           errors=_fused_linear_grad_errors),
]
