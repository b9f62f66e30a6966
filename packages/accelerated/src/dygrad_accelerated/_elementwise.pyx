"""Broadcasting arithmetic (add, subtract, multiply, divide) for the small tensors of the seed
workloads, where NumPy's ufunc machinery (type resolution, an iterator, a Python-level kernel
around it) costs several times the arithmetic.

The kernels are these ``def`` functions themselves (no glue module in between: the glue's call
would cost what the loop saves). Two C-contiguous float32 or float64 arrays of one dtype, of
the same shape or one of them the other's trailing shape (a bias row), take a typed loop into
a freshly allocated array while they are small (``SAME_SHAPE_MAX``, ``ROW_BROADCAST_MAX``); anything else (float16, integers, other broadcasts, views) goes to
the reference kernel. The loops compute what NumPy's do, element by element, so the results
are the reference's to the bit.
"""

cimport numpy as cnp

from dygrad.kernels import KERNELS as _REF

cnp.import_array()

ctypedef fused real:
    float
    double

cdef enum Op:
    ADD, SUB, MUL, DIV

cdef enum:
    # Above these many elements NumPy's own loops (SIMD for the machine's widest vectors)
    # win: the saving is the per-call cost, which a big array hides. A scalar operand
    # counts as the same shape (NumPy's scalar loops are SIMD too).
    SAME_SHAPE_MAX = 4096
    ROW_BROADCAST_MAX = 65536


cdef inline real _apply(Op op, real a, real b) noexcept nogil:
    if op == ADD:
        return a + b
    if op == SUB:
        return a - b
    if op == MUL:
        return a * b
    return a / b


cdef void _loop(Op op, const real* x, const real* y, real* out, Py_ssize_t rows,
                Py_ssize_t cols, int bcast) noexcept nogil:
    """out = x op y over rows x cols; bcast 0: same shape, 1: y is one row, 2: x is one row
    (of one element: a scalar)."""
    cdef Py_ssize_t r, j, n = rows * cols
    cdef real v
    cdef real* o
    cdef const real* a
    cdef const real* b
    if bcast == 0:
        if op == ADD:
            for j in range(n):
                out[j] = x[j] + y[j]
        elif op == SUB:
            for j in range(n):
                out[j] = x[j] - y[j]
        elif op == MUL:
            for j in range(n):
                out[j] = x[j] * y[j]
        else:
            for j in range(n):
                out[j] = x[j] / y[j]
        return
    if cols == 1:  # a scalar operand: one pass, which vectorizes
        if bcast == 1:
            v = y[0]
            for j in range(rows):
                out[j] = _apply(op, x[j], v)
        else:
            v = x[0]
            for j in range(rows):
                out[j] = _apply(op, v, y[j])
        return
    for r in range(rows):
        o = out + r * cols
        if bcast == 1:
            a = x + r * cols
            for j in range(cols):
                o[j] = _apply(op, a[j], y[j])
        else:
            b = y + r * cols
            for j in range(cols):
                o[j] = _apply(op, x[j], b[j])


cdef inline bint _ours(object a):
    """a is an exact, aligned, C-contiguous float32/float64 ndarray."""
    if type(a) is not cnp.ndarray:
        return False
    cdef int t = cnp.PyArray_TYPE(<cnp.ndarray>a)
    return ((t == cnp.NPY_FLOAT or t == cnp.NPY_DOUBLE)
            and cnp.PyArray_CHKFLAGS(<cnp.ndarray>a, cnp.NPY_ARRAY_C_CONTIGUOUS | cnp.NPY_ARRAY_ALIGNED))


cdef int _trailing(cnp.ndarray big, cnp.ndarray small):
    """Whether small's shape is the trailing part of big's (the last len(small.shape) sizes)."""
    cdef int nb = cnp.PyArray_NDIM(big), ns = cnp.PyArray_NDIM(small), i
    cdef cnp.npy_intp* db = cnp.PyArray_DIMS(big)
    cdef cnp.npy_intp* ds = cnp.PyArray_DIMS(small)
    if ns > nb:
        return False
    for i in range(ns):
        if ds[i] != db[nb - ns + i]:
            return False
    return True


cdef object _binary(Op op, object x, object y, str name):
    if not (_ours(x) and _ours(y)):
        return _REF[name](x, y)
    cdef cnp.ndarray a = <cnp.ndarray>x, b = <cnp.ndarray>y, big
    cdef int t = cnp.PyArray_TYPE(a), bcast
    if cnp.PyArray_TYPE(b) != t:
        return _REF[name](x, y)
    cdef Py_ssize_t na = cnp.PyArray_SIZE(a), nb = cnp.PyArray_SIZE(b), rows, cols
    if cnp.PyArray_NDIM(a) == cnp.PyArray_NDIM(b) and _trailing(a, b):
        bcast, big, rows, cols = 0, a, 1, na
    elif _trailing(a, b) and nb > 0:
        bcast, big, rows, cols = 1, a, na // nb, nb
    elif _trailing(b, a) and na > 0:
        bcast, big, rows, cols = 2, b, nb // na, na
    else:
        return _REF[name](x, y)
    if rows * cols > (SAME_SHAPE_MAX if bcast == 0 or cols == 1 else ROW_BROADCAST_MAX):
        return _REF[name](x, y)
    cdef cnp.ndarray out = cnp.PyArray_EMPTY(cnp.PyArray_NDIM(big), cnp.PyArray_DIMS(big), t, 0)
    if t == cnp.NPY_FLOAT:
        _loop(op, <const float*>cnp.PyArray_DATA(a), <const float*>cnp.PyArray_DATA(b),
              <float*>cnp.PyArray_DATA(out), rows, cols, bcast)
    else:
        _loop(op, <const double*>cnp.PyArray_DATA(a), <const double*>cnp.PyArray_DATA(b),
              <double*>cnp.PyArray_DATA(out), rows, cols, bcast)
    return out


def add(x, y):
    """x + y"""
    return _binary(ADD, x, y, "add")


def subtract(x, y):
    """x - y"""
    return _binary(SUB, x, y, "subtract")


def multiply(x, y):
    """x * y"""
    return _binary(MUL, x, y, "multiply")


def divide(x, y):
    """x / y (true division)"""
    return _binary(DIV, x, y, "divide")
