"""Matrix products and linear algebra.

Conventions shared by the rows below: matrices are the last two dimensions and any
leading dimensions are a batch; decompositions and solvers take floating-point inputs only
(as Paddle's kernels); ``mT`` in the comments is the transpose of the last two dimensions.
"""

from __future__ import annotations

import math
import string
from collections import Counter

import numpy as np

from ..autograd import grad_mode, sum_to
from ..dispatch import ops
from ..optable import Meta, OpDef, broadcast_shapes, normalize_axes, reduce_shape, register

# ---------------------------------------------------------------------------
# checks and small helpers shared by the rows
# ---------------------------------------------------------------------------


def _dtype_name(d) -> str:
    return np.dtype(d).name


def _require_float(op, *metas):
    """Paddle's linear-algebra kernels exist for floating-point dtypes only."""
    for m in metas:
        if m.dtype.kind != "f":
            raise TypeError(f"{op}: expected a float32 or float64 tensor, got {_dtype_name(m.dtype)} "
                            f"(shape {list(m.shape)}); cast it first, e.g. x.astype('float32')")


def _require_same_dtype(op, x, y):
    if x.dtype != y.dtype:
        raise TypeError(f"{op}: x and y must have the same dtype, got {_dtype_name(x.dtype)} and "
                        f"{_dtype_name(y.dtype)}")


def _require_square(op, x, what="x"):
    if len(x.shape) < 2:
        raise ValueError(f"{op}: {what} must have at least 2 dimensions (a matrix or a batch of "
                         f"matrices), got shape {list(x.shape)}")
    if x.shape[-1] != x.shape[-2]:
        raise ValueError(f"{op}: {what} must be square in its last two dimensions, got shape "
                         f"{list(x.shape)}")


def _mT(x):
    """The transpose of the last two dimensions (a table op, so rules stay differentiable)."""
    n = len(x.shape)
    return ops.transpose(x, perm=tuple(range(n - 2)) + (n - 1, n - 2))


def _eye_like(n, x):
    """An n x n identity in x's dtype (a constant: it carries no gradient)."""
    return ops.eye(num_rows=n, num_columns=n, dtype=x._data.dtype)


def _row(v):
    """A batch of vectors (..., k) as rows (..., 1, k), for broadcasting against matrices."""
    shape = v._data.shape
    return ops.reshape(v, shape=(*shape[:-1], 1, shape[-1]))


def _col(v):
    """A batch of vectors (..., k) as columns (..., k, 1); a scalar batch (...) as (..., 1)."""
    return ops.reshape(v, shape=(*v._data.shape, 1))


# ---------------------------------------------------------------------------
# matmul, bmm, dot
# ---------------------------------------------------------------------------

def _matmul_meta(x, y, transpose_x=False, transpose_y=False):
    xs, ys = list(x.shape), list(y.shape)
    if not xs or not ys:
        raise ValueError(f"matmul: inputs must be at least 1-D, got shapes {xs} and {ys}")
    x1, y1 = len(xs) == 1, len(ys) == 1
    if x1:
        xs = [1] + xs
    if y1:
        ys = ys + [1]
    if transpose_x and not x1:
        xs[-1], xs[-2] = xs[-2], xs[-1]
    if transpose_y and not y1:
        ys[-1], ys[-2] = ys[-2], ys[-1]
    if xs[-1] != ys[-2]:
        raise ValueError(
            f"matmul: the contracted dimensions differ: x has shape {list(x.shape)} "
            f"(transpose_x={transpose_x}), y has shape {list(y.shape)} "
            f"(transpose_y={transpose_y}); x's last dimension ({xs[-1]}) must equal y's "
            f"second-to-last ({ys[-2]})")
    batch = broadcast_shapes(tuple(xs[:-2]), tuple(ys[:-2]), op="matmul")
    out = list(batch) + ([] if x1 else [xs[-2]]) + ([] if y1 else [ys[-1]])
    return Meta(tuple(out), np.result_type(x.dtype, y.dtype))


def _matmul_grad(ctx, g):
    """With X = op(x), Y = op(y) (1-D operands promoted to matrices as in forward):
    dX = g Y^T and dY = X^T g; then undo the transposes, promotions and batch broadcasting."""
    x, y = ctx["x"], ctx["y"]
    xs, ys = ctx.shape("x"), ctx.shape("y")
    x1, y1 = len(xs) == 1, len(ys) == 1
    tx, ty = ctx.attrs["transpose_x"] and not x1, ctx.attrs["transpose_y"] and not y1
    x2s, y2s = ((1,) + xs if x1 else xs), (ys + (1,) if y1 else ys)
    x2 = ops.reshape(x, shape=x2s) if x1 else x
    y2 = ops.reshape(y, shape=y2s) if y1 else y
    g2 = g
    if x1 or y1:  # g without the dimensions the promotions added: put them back
        gs = list(g._data.shape)
        if x1:
            gs.insert(len(gs) if y1 else len(gs) - 1, 1)
        if y1:
            gs.append(1)
        g2 = ops.reshape(g, shape=tuple(gs))
    gx = gy = None
    if ctx.needs("x"):
        gx = (ops.matmul(y2, g2, transpose_x=ty, transpose_y=True) if tx
              else ops.matmul(g2, y2, transpose_y=not ty))
        gx = sum_to(gx, x2s)
        gx = ops.reshape(gx, shape=xs) if x1 else gx
    if ctx.needs("y"):
        gy = (ops.matmul(g2, x2, transpose_x=True, transpose_y=tx) if ty
              else ops.matmul(x2, g2, transpose_x=not tx))
        gy = sum_to(gy, y2s)
        gy = ops.reshape(gy, shape=ys) if y1 else gy
    return gx, gy


register(OpDef("matmul", ("x", "y"), _matmul_meta,
               "Matrix product with Paddle's rules: 1-D operands are promoted and the added "
               "dimension removed, batch dimensions broadcast, optional transposes of the last "
               "two dimensions.",
               attrs={"transpose_x": False, "transpose_y": False}, grad=_matmul_grad,
               saves=("x", "y")))


def _bmm_meta(x, y):
    if len(x.shape) != 3 or len(y.shape) != 3:
        raise ValueError(f"bmm: x and y must be 3-D (batch, rows, columns), got shapes "
                         f"{list(x.shape)} and {list(y.shape)}")
    if x.shape[0] != y.shape[0]:
        raise ValueError(f"bmm: x and y must have the same batch size (no broadcasting), got "
                         f"shapes {list(x.shape)} and {list(y.shape)}")
    if x.shape[2] != y.shape[1]:
        raise ValueError(f"bmm: x's last dimension must equal y's second, got shapes "
                         f"{list(x.shape)} and {list(y.shape)}")
    _require_float("bmm", x, y)
    _require_same_dtype("bmm", x, y)
    return Meta((x.shape[0], x.shape[1], y.shape[2]), x.dtype)


def _bmm_grad(ctx, g):
    """out[b] = x[b] y[b]: dx[b] = g[b] y[b]^T, dy[b] = x[b]^T g[b]."""
    return (ops.matmul(g, ctx["y"], transpose_y=True) if ctx.needs("x") else None,
            ops.matmul(ctx["x"], g, transpose_x=True) if ctx.needs("y") else None)


register(OpDef("bmm", ("x", "y"), _bmm_meta,
               "Batched matrix product of two 3-D tensors with the same batch size.",
               grad=_bmm_grad, saves=("x", "y")))


def _dot_meta(x, y):
    if len(x.shape) not in (1, 2) or len(y.shape) not in (1, 2):
        raise ValueError(f"dot: x and y must be 1-D vectors or 2-D batches of row vectors, got "
                         f"shapes {list(x.shape)} and {list(y.shape)}")
    if x.shape != y.shape:
        raise ValueError(f"dot: x and y must have the same shape, got {list(x.shape)} and "
                         f"{list(y.shape)}")
    _require_same_dtype("dot", x, y)
    return Meta(x.shape[:-1], x.dtype)


def _dot_grad(ctx, g):
    """out[..] = sum_k x[.., k] y[.., k]: dx = g y and dy = g x (g broadcast along k)."""
    if len(ctx.shape("x")) == 2:
        g = _col(g)
    return (ops.multiply(g, ctx["y"]) if ctx.needs("x") else None,
            ops.multiply(g, ctx["x"]) if ctx.needs("y") else None)


register(OpDef("dot", ("x", "y"), _dot_meta,
               "Inner product of two vectors, or of the matching rows of two 2-D tensors.",
               grad=_dot_grad, saves=("x", "y")))


# ---------------------------------------------------------------------------
# einsum
# ---------------------------------------------------------------------------

_LABELS = string.ascii_letters


def parse_einsum(equation, shapes):
    """Read an einsum equation for operands of the given shapes.

    Returns ``(terms, out, sizes)``: each operand's labels and the output's labels as lists,
    with ``...`` spelled out as fresh letters (right-aligned, so ellipsis dimensions
    broadcast like NumPy's), the implicit output (``'ij,jk'``) made explicit, and the size
    of every label (dimensions of size 1 broadcast). Raises ValueError for anything wrong.
    """
    eq = equation.replace(" ", "")
    if eq.count("->") > 1:
        raise ValueError(f"einsum: the equation {equation!r} has more than one '->'")
    lhs, arrow, rhs = eq.partition("->")
    terms = lhs.split(",")
    if len(terms) != len(shapes):
        raise ValueError(f"einsum: the equation {equation!r} has {len(terms)} operand term(s) "
                         f"but {len(shapes)} operand(s) were given")
    for term in terms + ([rhs] if arrow else []):
        if term.count("...") > 1 or any(c not in _LABELS for c in term.replace("...", "")):
            raise ValueError(f"einsum: invalid term {term!r} in {equation!r}: a term is letters "
                             f"(a-z, A-Z) with at most one '...'")
    ranks = []
    for k, (term, shape) in enumerate(zip(terms, shapes)):
        named = len(term.replace("...", ""))
        if named > len(shape) or ("..." not in term and named != len(shape)):
            raise ValueError(f"einsum: operand {k} has shape {list(shape)} ({len(shape)} "
                             f"dimensions) but its term {term!r} names {named}")
        ranks.append(len(shape) - named)
    used = set(eq)
    fresh = [c for c in _LABELS if c not in used]
    n_ell = max(ranks, default=0)
    if n_ell > len(fresh):
        raise ValueError(f"einsum: {equation!r} needs more than {len(_LABELS)} labels")
    ell = fresh[:n_ell]

    def spell(term, rank):
        return list(term.replace("...", "".join(ell[n_ell - rank:])))

    spelled = [spell(t, r) for t, r in zip(terms, ranks)]
    if arrow:
        if "..." in lhs and "..." not in rhs:
            raise ValueError(f"einsum: the operands of {equation!r} use '...', so the output "
                             f"must contain '...' too")
        out = spell(rhs, n_ell)
    else:
        counts = Counter(label for t in spelled for label in t if label not in ell)
        out = ell + sorted(label for label, c in counts.items() if c == 1)
    seen = {label for t in spelled for label in t}
    for label, c in Counter(out).items():
        if c > 1 or label not in seen:
            raise ValueError(f"einsum: output label {label!r} of {equation!r} must appear once in "
                             f"the output and in some operand")
    sizes = {}
    for k, (t, shape) in enumerate(zip(spelled, shapes)):
        own = {}
        for label, d in zip(t, shape):
            if own.setdefault(label, d) != d:
                raise ValueError(f"einsum: label {label!r} repeats in operand {k} (shape "
                                 f"{list(shape)}) with different sizes {own[label]} and {d}")
            prev = sizes.get(label)
            if prev is None or prev == 1:
                sizes[label] = d
            elif d not in (1, prev):
                what = "the '...' dimensions" if label in ell else f"label {label!r}"
                raise ValueError(f"einsum: {what} of the operands (shapes "
                                 f"{[list(s) for s in shapes]}) have sizes {prev} and {d}; sizes "
                                 f"must match or be 1")
    return spelled, out, sizes


def _einsum_meta(operands, equation=""):
    if not operands:
        raise ValueError("einsum: at least one operand is needed")
    _require_float("einsum", *operands)
    if any(m.dtype != operands[0].dtype for m in operands):
        raise TypeError(f"einsum: all operands must have the same dtype, got "
                        f"{[_dtype_name(m.dtype) for m in operands]}")
    _, out, sizes = parse_einsum(equation, [m.shape for m in operands])
    return Meta(tuple(sizes[label] for label in out), operands[0].dtype)


def _einsum_operand_grad(operands, terms, out, g, k):
    """The gradient of operand k is itself an einsum: g times every other operand, summed
    over the labels operand k lacks. A label repeated in operand k (a diagonal) gets a fresh
    label tied to it by an identity matrix; a label of operand k found nowhere else (summed
    away) is brought back by a vector of ones; broadcasting is undone (dimensions of size 1
    in operand k are summed back to size 1, and a gradient of size 1 where operand k is
    larger is broadcast)."""
    x = operands[k]
    shape = x._data.shape
    used = {label for t in terms for label in t} | set(out)
    fresh = iter(c for c in _LABELS if c not in used)
    inputs, subs = [g], ["".join(out)]
    for j, (t, term) in enumerate(zip(operands, terms)):
        if j != k:
            inputs.append(t)
            subs.append("".join(term))
    target = []
    for label, d in zip(terms[k], shape):
        if label in target:
            tied = next(fresh, None)
            if tied is None:
                raise ValueError(f"einsum: the gradient needs more than {len(_LABELS)} labels")
            inputs.append(_eye_like(d, x))
            subs.append(label + tied)
            label = tied
        target.append(label)
    present = set("".join(subs))
    for label, d in zip(target, shape):
        if label not in present:
            inputs.append(ops.full(shape=(d,), fill_value=1.0, dtype=x._data.dtype))
            subs.append(label)
    grad = ops.einsum(inputs, equation=",".join(subs) + "->" + "".join(target))
    widened = tuple(i for i, d in enumerate(shape) if d == 1 and grad._data.shape[i] != 1)
    if widened:
        grad = ops.sum(grad, axis=widened, keepdim=True)
    # a label of size 1 everywhere else (x broadcast it): every element gets the same gradient
    return grad if grad._data.shape == shape else ops.broadcast_to(grad, shape=shape)


def _einsum_grad(ctx, g):
    """d/d operand k of an einsum is an einsum of g and the other operands."""
    operands = ctx["operands"]
    terms, out, _ = parse_einsum(ctx.attrs["equation"], [t._data.shape for t in operands])
    return ([_einsum_operand_grad(operands, terms, out, g, k) if ctx.needs(k) else None
             for k in range(len(operands))],)


register(OpDef("einsum", ("operands",), _einsum_meta,
               "Einstein summation over the operands as the equation says ('ij,jk->ik'; "
               "implicit output, '...' broadcasting and repeated labels as NumPy).",
               attrs={"equation": ""}, grad=_einsum_grad, saves=("operands",), variadic=True))


# ---------------------------------------------------------------------------
# kron, cross
# ---------------------------------------------------------------------------

def _kron_meta(x, y):
    _require_same_dtype("kron", x, y)
    n = max(len(x.shape), len(y.shape))
    xs = (1,) * (n - len(x.shape)) + tuple(x.shape)
    ys = (1,) * (n - len(y.shape)) + tuple(y.shape)
    return Meta(tuple(a * b for a, b in zip(xs, ys)), x.dtype)


def _kron_grad(ctx, g):
    """out viewed as (r0, s0, r1, s1, ...) is x[i0, _, i1, _, ...] * y[_, j0, _, j1, ...]
    (shapes padded with leading ones to one rank): each input's gradient is g times the
    other, summed over the other's axes."""
    xs, ys = ctx.shape("x"), ctx.shape("y")
    n = max(len(xs), len(ys))
    xp = (1,) * (n - len(xs)) + tuple(xs)
    yp = (1,) * (n - len(ys)) + tuple(ys)
    g = ops.reshape(g, shape=tuple(d for pair in zip(xp, yp) for d in pair))
    gx = gy = None
    if ctx.needs("x"):
        y = ops.reshape(ctx["y"], shape=tuple(d for s in yp for d in (1, s)))
        gx = ops.reshape(ops.sum(ops.multiply(g, y), axis=tuple(range(1, 2 * n, 2))), shape=xs)
    if ctx.needs("y"):
        x = ops.reshape(ctx["x"], shape=tuple(d for r in xp for d in (r, 1)))
        gy = ops.reshape(ops.sum(ops.multiply(g, x), axis=tuple(range(0, 2 * n, 2))), shape=ys)
    return gx, gy


register(OpDef("kron", ("x", "y"), _kron_meta,
               "Kronecker product: blocks of y scaled by the elements of x (ranks padded with "
               "leading ones).", grad=_kron_grad, saves=("x", "y")))


def cross_axis(shape, axis=9):
    """The axis of the cross product: Paddle's default 9 means the first axis of size 3."""
    if axis == 9:
        for i, d in enumerate(shape):
            if d == 3:
                return i
        raise ValueError(f"cross: no dimension of size 3 in shape {list(shape)}; the cross "
                         f"product needs one (or pass axis)")
    if not -len(shape) <= axis < len(shape):
        raise IndexError(f"cross: axis {axis} is out of range for shape {list(shape)} (expected "
                         f"{-len(shape)} <= axis < {len(shape)})")
    if shape[axis] != 3:
        raise ValueError(f"cross: dimension {axis} of shape {list(shape)} has size {shape[axis]}; "
                         f"the cross product needs size 3")
    return axis % len(shape)


def _cross_meta(x, y, axis=9):
    if x.shape != y.shape:
        raise ValueError(f"cross: x and y must have the same shape, got {list(x.shape)} and "
                         f"{list(y.shape)}")
    _require_same_dtype("cross", x, y)
    cross_axis(x.shape, axis)
    return Meta(x.shape, x.dtype)


def _cross_grad(ctx, g):
    """d(x × y) = dx × y + x × dy, and <g, a × b> = <b × g, a> = <g × a, b>."""
    axis = cross_axis(ctx.shape("x"), ctx.attrs["axis"])
    return (ops.cross(ctx["y"], g, axis=axis) if ctx.needs("x") else None,
            ops.cross(g, ctx["x"], axis=axis) if ctx.needs("y") else None)


register(OpDef("cross", ("x", "y"), _cross_meta,
               "Cross product of 3-vectors along axis (default 9: the first axis of size 3).",
               attrs={"axis": 9}, grad=_cross_grad, saves=("x", "y")))


# ---------------------------------------------------------------------------
# p_norm
# ---------------------------------------------------------------------------

def norm_axes(axis, ndim, op="p_norm"):
    """The axes a norm reduces: all when None; a 0-D tensor has none."""
    if ndim == 0:
        normalize_axes(axis, 0, op)  # still reject an out-of-range axis
        return ()
    axes = normalize_axes(axis, ndim, op)
    if axis is not None and not isinstance(axis, (int, np.integer)) and len(axes) != len(axis):
        raise ValueError(f"{op}: axis {list(axis)} repeats a dimension")
    return axes


def _p_norm_meta(x, porder=2.0, axis=None, keepdim=False):
    _require_float("norm", x)
    axes = norm_axes(axis, len(x.shape), "norm")
    return Meta(reduce_shape(x.shape, axes, keepdim, "norm") if axes else tuple(x.shape), x.dtype)


def _p_norm_grad(ctx, g):
    """With n = (sum |x|^p)^(1/p): dn/dx = sign(x) |x|^(p-1) / n^(p-1) (x / n for p = 2);
    for p = ±inf only the entries with |x| = n get sign(x) (all of them on ties, as Paddle);
    p = 0 counts nonzeros and has zero gradient. Where n = 0 (all of x is 0) the gradient
    is 0, as in Paddle."""
    x, out = ctx["x"], ctx["out"]
    p, axis, keepdim = ctx.attrs["porder"], ctx.attrs["axis"], ctx.attrs["keepdim"]
    shape = ctx.shape("x")
    axes = norm_axes(axis, len(shape))
    if p == 0:
        return ops.full_like(x, fill_value=0.0)
    if not keepdim and axes:
        kept = tuple(1 if i in axes else d for i, d in enumerate(shape))
        g, out = ops.reshape(g, shape=kept), ops.reshape(out, shape=kept)
    if p in (np.inf, -np.inf):
        hit = ops.cast(ops.equal(ops.abs(x), out), dtype=ctx.dtype("x"))
        return ops.multiply(ops.multiply(ops.sign(x), hit), g)
    # n = 0 only where all of that slice of x is 0: divide by 1 there instead
    out = ops.add(out, ops.cast(ops.equal(out, ops.full_like(out, fill_value=0.0)),
                                dtype=ctx.dtype("x")))
    if p == 2:
        return ops.multiply(x, ops.divide(g, out))
    num = ops.multiply(ops.sign(x), ops.pow(ops.abs(x), factor=float(p - 1)))
    return ops.multiply(num, ops.divide(g, ops.pow(out, factor=float(p - 1))))


register(OpDef("p_norm", ("x",), _p_norm_meta,
               "Vector p-norm (sum |x|^p)^(1/p) over axis (an int, a tuple, or None for all "
               "axes); p = inf/-inf give max/min |x|, p = 0 the count of nonzeros.",
               attrs={"porder": 2.0, "axis": None, "keepdim": False}, grad=_p_norm_grad,
               saves=("x", "out")))


# ---------------------------------------------------------------------------
# inverse, det, solve
# ---------------------------------------------------------------------------

def _inverse_meta(x):
    _require_square("inverse", x)
    _require_float("inverse", x)
    return Meta(x.shape, x.dtype)


def _inverse_grad(ctx, g):
    """d(A^-1) = -A^-1 dA A^-1, so dA = -A^-T g A^-T (A^-1 is the output)."""
    y = ctx["out"]
    return ops.neg(ops.matmul(ops.matmul(y, g, transpose_x=True), y, transpose_y=True))


register(OpDef("inverse", ("x",), _inverse_meta,
               "Inverse of a square matrix (or of each matrix of a batch).",
               grad=_inverse_grad, saves=("out",)))


def _det_meta(x):
    _require_square("det", x)
    _require_float("det", x)
    return Meta(tuple(x.shape[:-2]), x.dtype)


def _det_grad(ctx, g):
    """d det(A) = det(A) tr(A^-1 dA), so dA = g det(A) A^-T (A must be invertible)."""
    scale = _col(_col(ops.multiply(g, ctx["out"])))
    return ops.multiply(scale, _mT(ops.inverse(ctx["x"])))


register(OpDef("det", ("x",), _det_meta,
               "Determinant of a square matrix (or of each matrix of a batch).",
               grad=_det_grad, saves=("x", "out")))


def solve_is_vector(x_shape, y_shape) -> bool:
    """Paddle's rule: y is a (batch of) vector(s) when it is 1-D, or has one dimension less
    than x with x's batch dimensions; otherwise it is a (batch of) matrix(es)."""
    return len(y_shape) == 1 or (len(y_shape) == len(x_shape) - 1
                                 and tuple(y_shape[:-1]) == tuple(x_shape[:-2]))


def _solve_meta(x, y):
    _require_square("solve", x)
    _require_float("solve", x, y)
    _require_same_dtype("solve", x, y)
    n = x.shape[-1]
    if solve_is_vector(x.shape, y.shape):
        if y.shape[-1] != n:
            raise ValueError(f"solve: y (shape {list(y.shape)}) is a vector of length "
                             f"{y.shape[-1]} but x has shape {list(x.shape)} ({n} x {n} matrices)")
        return Meta(tuple(x.shape[:-2]) + (n,), x.dtype)
    if len(y.shape) < 2 or y.shape[-2] != n:
        raise ValueError(f"solve: y's rows must match x's size: x has shape {list(x.shape)} "
                         f"({n} x {n} matrices), y has shape {list(y.shape)}")
    batch = broadcast_shapes(tuple(x.shape[:-2]), tuple(y.shape[:-2]), op="solve")
    return Meta(batch + (n, y.shape[-1]), x.dtype)


def _solve_grad(ctx, g):
    """X = A^-1 B: dB = A^-T g (a solve with the transpose) and dA = -dB X^T (an outer
    product for vectors); batch broadcasting is summed back."""
    a, x = ctx["x"], ctx["out"]
    gy = ops.solve(_mT(a), g)
    ga = None
    if ctx.needs("x"):
        if solve_is_vector(ctx.shape("x"), ctx.shape("y")):
            ga = ops.multiply(_col(gy), _row(x))
        else:
            ga = ops.matmul(gy, x, transpose_y=True)
        ga = sum_to(ops.neg(ga), ctx.shape("x"))
    return ga, sum_to(gy, ctx.shape("y")) if ctx.needs("y") else None


register(OpDef("solve", ("x", "y"), _solve_meta,
               "The solution X of x X = y for square x (y a matrix, or a vector as Paddle's "
               "rule says); batch dimensions broadcast.",
               grad=_solve_grad, saves=("x", "out")))


# ---------------------------------------------------------------------------
# decompositions: cholesky, qr, svd
# ---------------------------------------------------------------------------

def _cholesky_meta(x, upper=False):
    _require_square("cholesky", x)
    _require_float("cholesky", x)
    return Meta(x.shape, x.dtype)


def _cholesky_grad(ctx, g):
    """Murray (2016): with A = L L^T and Φ(X) = the lower triangle of X with its diagonal
    halved, dA = sym(L^-T Φ(L^T gL) L^-1), sym(S) = (S + S^T) / 2 (A is symmetric; the
    kernel factors the symmetric part of its input). For upper=True, L = U^T, gL = gU^T."""
    out = ctx["out"]
    low, g = (_mT(out), _mT(g)) if ctx.attrs["upper"] else (out, g)
    p = ops.tril(ops.matmul(low, g, transpose_x=True))
    p = p - p * _eye_like(low._data.shape[-1], low) * 0.5
    inv = ops.inverse(low)
    s = ops.matmul(ops.matmul(inv, p, transpose_x=True), inv)
    return (s + _mT(s)) * 0.5


register(OpDef("cholesky", ("x",), _cholesky_meta,
               "Cholesky factor of a symmetric positive-definite matrix: lower L with x = L L^T "
               "(upper=True: U = L^T).",
               attrs={"upper": False}, grad=_cholesky_grad, saves=("out",)))


def _qr_meta(x, mode="reduced"):
    if len(x.shape) < 2:
        raise ValueError(f"qr: x must have at least 2 dimensions, got shape {list(x.shape)}")
    if mode not in ("reduced", "complete"):
        raise ValueError(f"qr: mode must be 'reduced', 'complete' or 'r', got {mode!r}")
    _require_float("qr", x)
    *batch, m, n = x.shape
    k = min(m, n) if mode == "reduced" else m
    return Meta((*batch, m, k), x.dtype), Meta((*batch, k, n), x.dtype)


def _copyltu(m):
    """The symmetric matrix with m's lower triangle: tril(m) + tril(m, -1)^T."""
    return ops.add(ops.tril(m), _mT(ops.tril(m, diagonal=-1)))


def _qr_grad_tall(q, r, gq, gr):
    """A = QR with A m x n, m >= n (R square, invertible): with M = R gR^T - gQ^T Q,
    dA = (gQ + Q copyltu(M)) R^-T (Walter & Lehmann 2018)."""
    m = ops.subtract(ops.matmul(r, gr, transpose_y=True), ops.matmul(gq, q, transpose_x=True))
    b = ops.add(gq, ops.matmul(q, _copyltu(m)))
    return _mT(ops.solve(r, _mT(b)))


def _qr_grad(ctx, gq, gr):
    """Reduced QR, R's diagonal nonzero (A of full rank). For m < n, A = [X | Y] and
    R = [U | V] with X = QU square: dY = Q gV and dX is the square case with gQ + Y gV^T."""
    q, r = ctx["q"], ctx["r"]
    m, n = ctx.shape("x")[-2:]
    if ctx.attrs["mode"] == "complete" and m > n:
        raise RuntimeError("qr: the gradient of mode='complete' for a tall matrix (rows > "
                           "columns) is not defined (the extra columns of Q are arbitrary); "
                           "use mode='reduced'")
    if m >= n:
        return _qr_grad_tall(q, r, gq, gr)
    y, u, gu, gv = ctx["x"][..., m:], r[..., :m], gr[..., :m], gr[..., m:]
    gx = _qr_grad_tall(q, u, gq + ops.matmul(y, gv, transpose_y=True), gu)
    return ops.concat([gx, ops.matmul(q, gv)], axis=-1)


register(OpDef("qr", ("x",), _qr_meta,
               "QR decomposition x = Q R: Q with orthonormal columns, R upper triangular "
               "(mode 'reduced': k = min(m, n) columns; 'complete': Q square).",
               attrs={"mode": "reduced"}, grad=_qr_grad, saves=("x", "q", "r"),
               outputs=("q", "r")))


def _svd_meta(x, full_matrices=False):
    if len(x.shape) < 2:
        raise ValueError(f"svd: x must have at least 2 dimensions, got shape {list(x.shape)}")
    _require_float("svd", x)
    *batch, m, n = x.shape
    k = min(m, n)
    mu, nv = (m, n) if full_matrices else (k, k)
    return (Meta((*batch, m, mu), x.dtype), Meta((*batch, k), x.dtype),
            Meta((*batch, nv, n), x.dtype))


def _svd_grad(ctx, gu, gs, gvh):
    """Thin SVD A = U diag(s) VH, k = min(m, n), distinct nonzero singular values
    (Townsend 2016). With F[i, j] = 1 / (s_j^2 - s_i^2) off the diagonal (0 on it):
    dA = U [ F∘(U^T gU - gU^T U) S + diag(gs) + S F∘(VH gVH^T - gVH VH^T) ] VH
         + (I - U U^T) gU S^-1 VH       (when m > k)
         + U S^-1 (gVH - gVH VH^T VH)   (when n > k)."""
    u, s, vh = ctx["u"], ctx["s"], ctx["vh"]
    m, n = ctx.shape("x")[-2:]
    k = min(m, n)
    if ctx.attrs["full_matrices"] and m != n:
        raise RuntimeError("svd: the gradient with full_matrices=True of a non-square matrix "
                           "is not defined (the extra singular vectors are arbitrary); use "
                           "full_matrices=False")
    eye = _eye_like(k, s)
    s2 = ops.multiply(s, s)
    f = ops.divide(ops.subtract(ops.full_like(eye, fill_value=1.0), eye),
                   ops.add(ops.subtract(_row(s2), _col(s2)), eye))
    skew_u = ops.subtract(ops.matmul(u, gu, transpose_x=True), ops.matmul(gu, u, transpose_x=True))
    skew_v = ops.subtract(ops.matmul(vh, gvh, transpose_y=True),
                          ops.matmul(gvh, vh, transpose_y=True))
    inner = ops.add(ops.add(ops.multiply(ops.multiply(f, skew_u), _row(s)),
                            ops.multiply(_row(gs), eye)),
                    ops.multiply(_col(s), ops.multiply(f, skew_v)))
    ga = ops.matmul(ops.matmul(u, inner), vh)
    if m > k:
        proj = ops.subtract(gu, ops.matmul(u, ops.matmul(u, gu, transpose_x=True)))
        ga = ops.add(ga, ops.matmul(ops.divide(proj, _row(s)), vh))
    if n > k:
        proj = ops.subtract(gvh, ops.matmul(ops.matmul(gvh, vh, transpose_y=True), vh))
        ga = ops.add(ga, ops.matmul(u, ops.divide(proj, _col(s))))
    return ga


register(OpDef("svd", ("x",), _svd_meta,
               "Singular value decomposition x = U diag(S) VH, S descending (full_matrices=False: "
               "k = min(m, n) singular vectors).",
               attrs={"full_matrices": False}, grad=_svd_grad, saves=("u", "s", "vh"),
               outputs=("u", "s", "vh")))


def _slogdet_meta(x):
    _require_square("slogdet", x)
    _require_float("slogdet", x)
    batch = tuple(x.shape[:-2])
    return Meta(batch, x.dtype), Meta(batch, x.dtype)


def _slogdet_grad(ctx, gsign, glog):
    """The sign is piecewise constant; d log|det A| = tr(A^-1 dA), so dA = glog A^-T."""
    return ops.multiply(_col(_col(glog)), _mT(ops.inverse(ctx["x"])))


register(OpDef("slogdet", ("x",), _slogdet_meta,
               "Sign and natural log of the absolute value of the determinant of a square "
               "matrix (or of each matrix of a batch); a singular matrix gives sign 0 and -inf.",
               grad=_slogdet_grad, saves=("x",), outputs=("sign", "logabsdet")))


def _eigh_meta(x, UPLO="L"):
    _require_square("eigh", x)
    _require_float("eigh", x)
    if UPLO not in ("L", "U"):
        raise ValueError(f"eigh: UPLO must be 'L' or 'U', got {UPLO!r}")
    return Meta((*x.shape[:-1],), x.dtype), Meta(tuple(x.shape), x.dtype)


def _eigh_grad(ctx, gw, gv):
    """A = V diag(w) V^T with distinct eigenvalues: with F[i, j] = 1 / (w_j - w_i) off the
    diagonal (0 on it), dA = sym(V (diag(gw) + F∘(V^T gV)) V^T), sym(S) = (S + S^T) / 2 (A
    is symmetric; the kernel decomposes the symmetric part of its input)."""
    w, v = ctx["w"], ctx["v"]
    eye = _eye_like(w._data.shape[-1], w)
    f = ops.divide(ops.subtract(ops.full_like(eye, fill_value=1.0), eye),
                   ops.add(ops.subtract(_row(w), _col(w)), eye))
    inner = ops.add(ops.multiply(_row(gw), eye),
                    ops.multiply(f, ops.matmul(v, gv, transpose_x=True)))
    ga = ops.matmul(ops.matmul(v, inner), v, transpose_y=True)
    return (ga + _mT(ga)) * 0.5


register(OpDef("eigh", ("x",), _eigh_meta,
               "Eigenvalues (ascending) and orthonormal eigenvectors (columns) of a symmetric "
               "matrix: x = V diag(w) V^T. The symmetric part of x is decomposed, so both UPLO "
               "values agree on symmetric input.",
               attrs={"UPLO": "L"}, grad=_eigh_grad, saves=("w", "v"), outputs=("w", "v")))


def _eigvals_meta(x):
    _require_square("eigvals", x)
    _require_float("eigvals", x)
    complex_dtype = np.complex64 if np.dtype(x.dtype) == np.float32 else np.complex128
    return Meta((*x.shape[:-1],), np.dtype(complex_dtype))


register(OpDef("eigvals", ("x",), _eigvals_meta,
               "Eigenvalues of a general square matrix (complex64 for float32 input, "
               "complex128 for float64), in LAPACK's order. Not differentiable (as Paddle's)."))


# ---------------------------------------------------------------------------
# triangular_solve, lu, lu_unpack
# ---------------------------------------------------------------------------

def _triangular_solve_meta(x, y, upper=True, transpose=False, unitriangular=False):
    api = "triangular_solve"
    _require_square(api, x)
    _require_float(api, x, y)
    _require_same_dtype(api, x, y)
    n = x.shape[-1]
    if len(y.shape) < 2 or y.shape[-2] != n:
        raise ValueError(f"{api}: y must be [..., {n}, K] for x of shape {list(x.shape)} (rows "
                         f"matching x's size), got shape {list(y.shape)}")
    batch = broadcast_shapes(tuple(x.shape[:-2]), tuple(y.shape[:-2]), op=api)
    return Meta(batch + (n, y.shape[-1]), x.dtype)


def _triangle(m, upper, strict=False):
    """The upper or lower triangle of m (without the diagonal when strict)."""
    if upper:
        return ops.triu(m, diagonal=1 if strict else 0)
    return ops.tril(m, diagonal=-1 if strict else 0)


def _triangular_solve_grad(ctx, g):
    """X = A^-1 B with A = op(T), T the triangle of x that is read: dB = A^-T g (a solve
    with the other transpose) and dA = -dB X^T; x gets dA (or its transpose) on the
    triangle read, without the diagonal when it is taken as ones."""
    upper, trans, unit = (ctx.attrs[k] for k in ("upper", "transpose", "unitriangular"))
    gy = ops.triangular_solve(ctx["x"], g, upper=upper, transpose=not trans,
                              unitriangular=unit)
    gx = None
    if ctx.needs("x"):
        x = ctx["out"]
        ga = ops.matmul(x, gy, transpose_y=True) if trans else ops.matmul(gy, x, transpose_y=True)
        gx = sum_to(ops.neg(_triangle(ga, upper, strict=unit)), ctx.shape("x"))
    return gx, sum_to(gy, ctx.shape("y")) if ctx.needs("y") else None


register(OpDef("triangular_solve", ("x", "y"), _triangular_solve_meta,
               "The solution X of op(T) X = y, T the upper (or lower) triangle of square x "
               "(its diagonal taken as ones when unitriangular), op the transpose when "
               "transpose; batch dimensions broadcast.",
               attrs={"upper": True, "transpose": False, "unitriangular": False},
               grad=_triangular_solve_grad, saves=("x", "out")))


def _lu_meta(x, pivot=True):
    if len(x.shape) < 2:
        raise ValueError(f"lu: x must have at least 2 dimensions, got shape {list(x.shape)}")
    _require_float("lu", x)
    if not pivot:
        raise ValueError("lu: LU without pivoting (pivot=False) is not implemented on the CPU "
                         "(as in Paddle)")
    *batch, m, n = x.shape
    i32 = np.dtype(np.int32)
    return Meta(tuple(x.shape), x.dtype), Meta((*batch, min(m, n)), i32), Meta(tuple(batch), i32)


def _lu_grad(ctx, glu, gpiv, ginfo):
    """A = P L U (L m x k unit lower, U k x n upper, k = min(m, n), packed in one output);
    gL and gU are the strict lower and the upper parts of its gradient. Square (L and U
    invertible): dA = P L^-T [tril(L^T gL, -1) + triu(gU U^T)] U^-T. Wide (A = P L [U1 U2]):
    dA = P L^-T [tril(L^T gL - gU U^T, -1) U1^-T + triu(gU1) | gU2]. Tall (L = [L1; L2]):
    dA = P [L1^-T triu(gU U^T - L^T gL) + tril(gL1, -1); gL2] U^-T. Triangular solves read
    L and U from the packed output."""
    lu, piv = ctx["out"], ctx["pivots"]
    m, n = ctx.shape("x")[-2:]
    k = min(m, n)
    low = ops.add(ops.tril(lu[..., :k], diagonal=-1),
                  ops.eye(num_rows=m, num_columns=k, dtype=lu._data.dtype))
    up = ops.triu(lu[..., :k, :])
    gl, gu = ops.tril(glu[..., :k], diagonal=-1), ops.triu(glu[..., :k, :])
    sq = lu[..., :k, :k]

    def right_solve_ut(b):  # b U1^-T
        return _mT(ops.triangular_solve(sq, _mT(b), upper=True))

    def left_solve_lt(b):  # L1^-T b
        return ops.triangular_solve(sq, b, upper=False, transpose=True, unitriangular=True)

    ltgl = ops.matmul(low, gl, transpose_x=True)
    guut = ops.matmul(gu, up, transpose_y=True)
    if m == n:
        inner = ops.add(ops.tril(ltgl, diagonal=-1), ops.triu(guut))
        ga = left_solve_lt(right_solve_ut(inner))
    elif m < n:
        inner = right_solve_ut(ops.tril(ops.subtract(ltgl, guut), diagonal=-1))
        inner = ops.concat([ops.add(inner, ops.triu(gu[..., :k])), gu[..., k:]], axis=-1)
        ga = left_solve_lt(inner)
    else:
        inner = left_solve_lt(ops.triu(ops.subtract(guut, ltgl)))
        inner = ops.concat([ops.add(inner, ops.tril(gl[..., :k, :], diagonal=-1)),
                            gl[..., k:, :]], axis=-2)
        ga = right_solve_ut(inner)
    perm = ops.lu_unpack(lu, piv, unpack_ludata=False)[0]
    return ops.matmul(perm, ga)


register(OpDef("lu", ("x",), _lu_meta,
               "LU decomposition with partial pivoting x = P L U of m x n matrices: L (unit "
               "lower, m x k) and U (upper, k x n), k = min(m, n), packed in one m x n output; "
               "pivots (int32, 1-based): row i was swapped with row pivots[i]; infos (int32): "
               "0, or the 1-based index of U's first zero diagonal entry.",
               attrs={"pivot": True}, grad=_lu_grad, saves=("out", "pivots"),
               outputs=("out", "pivots", "infos")))


def _lu_unpack_meta(x, y, unpack_ludata=True, unpack_pivots=True):
    api = "lu_unpack"
    if len(x.shape) < 2:
        raise ValueError(f"{api}: x must have at least 2 dimensions, got shape {list(x.shape)}")
    _require_float(api, x)
    *batch, m, n = x.shape
    k = min(m, n)
    if tuple(y.shape) != (*batch, k) or np.dtype(y.dtype).kind not in "iu":
        raise ValueError(f"{api}: y (the pivots) must be an int tensor of shape "
                         f"{[*batch, k]} for x of shape {list(x.shape)}, got "
                         f"{_dtype_name(y.dtype)} of shape {list(y.shape)}")
    empty = Meta((0,), x.dtype)
    return (Meta((*batch, m, m), x.dtype) if unpack_pivots else empty,
            Meta((*batch, m, k), x.dtype) if unpack_ludata else empty,
            Meta((*batch, k, n), x.dtype) if unpack_ludata else empty)


def _lu_unpack_grad(ctx, gp, gl, gu):
    """L and U are copies of parts of x: x gets gL's strict lower triangle and gU's upper
    one, each padded with zeros to x's shape (P depends on the pivots only)."""
    if not ctx.attrs["unpack_ludata"]:
        return None, None
    m, n = ctx.shape("x")[-2:]
    k = min(m, n)
    batch = ((0, 0),) * (len(ctx.shape("x")) - 2)
    low = ops.pad(ops.tril(gl, diagonal=-1), paddings=batch + ((0, 0), (0, n - k)))
    up = ops.pad(ops.triu(gu), paddings=batch + ((0, m - k), (0, 0)))
    return ops.add(low, up), None


register(OpDef("lu_unpack", ("x", "y"), _lu_unpack_meta,
               "The permutation matrix P, unit lower L and upper U of x = P L U from lu's "
               "packed output x and pivots y; unpack_ludata=False leaves L and U empty, "
               "unpack_pivots=False leaves P empty.",
               attrs={"unpack_ludata": True, "unpack_pivots": True}, grad=_lu_unpack_grad,
               saves=("x",), outputs=("pmat", "l", "u")))


# ---------------------------------------------------------------------------
# fused_linear_activation: what static mode's bias+activation fusion runs
# ---------------------------------------------------------------------------

LINEAR_ACTIVATIONS = ("none", "relu", "sigmoid", "tanh")


def _check_one_dtype(api, names, metas):
    """The three inputs ``names`` of a fused linear row share one dtype."""
    a, b, c = (np.dtype(m.dtype) for m in metas)
    if not a == b == c:
        raise TypeError(f"{api}: {names[0]}, {names[1]} and {names[2]} must have one dtype, got "
                        f"{_dtype_name(a)}, {_dtype_name(b)} and {_dtype_name(c)}")


def _check_activation(api, activation):
    if activation not in LINEAR_ACTIVATIONS:
        raise ValueError(f"{api}: activation must be one of {list(LINEAR_ACTIVATIONS)}, got "
                         f"{activation!r}")


def _fused_linear_meta(x, weight, bias, activation="none"):
    api = "fused_linear_activation"
    _require_float(api, x, weight, bias)
    _check_activation(api, activation)
    if len(x.shape) < 1 or len(weight.shape) != 2 or x.shape[-1] != weight.shape[0]:
        raise ValueError(f"{api}: x [..., K] and weight [K, N] must agree, got shapes "
                         f"{list(x.shape)} and {list(weight.shape)}")
    if tuple(bias.shape) != (weight.shape[1],):
        raise ValueError(f"{api}: bias must have shape [{weight.shape[1]}] (weight's N), got "
                         f"{list(bias.shape)}")
    _check_one_dtype(api, ("x", "weight", "bias"), (x, weight, bias))
    return Meta(tuple(x.shape[:-1]) + (weight.shape[1],), x.dtype)


def _fused_linear_grad(ctx, g):
    """Without create_graph, when the weight and the bias need gradients: the fused
    ``fused_linear_activation_grad`` row gives them and the pre-activation's gradient z_grad,
    and x's is ``z_grad @ weight^T`` (with no activation the row does not read the output:
    g stands in for it). Else through the activation (from the output), then as matmul and
    bias add; an operand is read only where its gradient needs it."""
    act = ctx.attrs["activation"]
    x_edge, w_edge, b_edge = ctx.next_edges  # ctx.needs(name): that input's edge is not None
    if not grad_mode.enabled and w_edge is not None and b_edge is not None:
        out = g if act == "none" else ctx["out"]
        gw, gb, gz = ops.fused_linear_activation_grad(ctx["x"], out, g, activation=act)
        gx = ops.matmul(gz, ctx["weight"], transpose_y=True) if x_edge is not None else None
        return gx, gw, gb
    if act != "none":
        out = ctx["out"]
        if act == "relu":
            g = ops.relu_grad(out, g)
        elif act == "sigmoid":
            g = g * out * ops.scale(out, scale=-1.0, bias=1.0)
        elif act == "tanh":
            g = g * ops.scale(out * out, scale=-1.0, bias=1.0)
    gx = ops.matmul(g, ctx["weight"], transpose_y=True) if x_edge is not None else None
    xs = ctx.shape("x")
    if len(xs) != 2:  # the leading axes as the rows of one product
        rows = math.prod(xs[:-1])
        k, n = ctx.shape("weight")
        g = ops.reshape(g, shape=(rows, n))
    gw = None
    if w_edge is not None:
        x = ctx["x"]
        gw = ops.matmul(ops.reshape(x, shape=(rows, k)) if len(xs) != 2 else x, g,
                        transpose_x=True)
    gb = ops.sum(g, axis=0) if b_edge is not None else None
    return gx, gw, gb


register(OpDef("fused_linear_activation", ("x", "weight", "bias"), _fused_linear_meta,
               "activation(x @ weight + bias) for x [..., K], weight [K, N], bias [N] (a "
               "Linear layer and its activation in one op: static mode's bias+activation "
               "fusion); activation 'none', 'relu', 'sigmoid' or 'tanh'.",
               attrs={"activation": "none"}, grad=_fused_linear_grad,
               saves=("x", "weight", "out")))


def _fused_linear_grad_meta(x, out, out_grad, activation="none"):
    api = "fused_linear_activation_grad"
    _require_float(api, x, out, out_grad)
    _check_activation(api, activation)
    if len(x.shape) < 1 or tuple(out.shape) != tuple(out_grad.shape) or \
            tuple(out.shape[:-1]) != tuple(x.shape[:-1]) or len(out.shape) != len(x.shape):
        raise ValueError(f"{api}: x [..., K], out and out_grad [..., N] must agree, got shapes "
                         f"{list(x.shape)}, {list(out.shape)} and {list(out_grad.shape)}")
    _check_one_dtype(api, ("x", "out", "out_grad"), (x, out, out_grad))
    k, n = x.shape[-1], out.shape[-1]
    return Meta((k, n), x.dtype), Meta((n,), x.dtype), Meta(tuple(out.shape), x.dtype)


register(OpDef("fused_linear_activation_grad", ("x", "out", "out_grad"),
               _fused_linear_grad_meta,
               "The weight and bias gradients of out = activation(x @ weight + bias), and the "
               "gradient z_grad of its pre-activation z, from x, out and out_grad: z_grad = "
               "out_grad through the activation, weight_grad = x^T z_grad over the leading "
               "axes, bias_grad = z_grad summed over them (static mode's fusion of a Linear "
               "layer's gradient ops). Not differentiable: programs get it from first-order "
               "gradient ops only.",
               attrs={"activation": "none"},
               outputs=("weight_grad", "bias_grad", "z_grad")))
