"""Neural-network kernels on C-contiguous float32/float64 rows, rows in parallel (OpenMP).

Only typed loops live here; the NumPy-level glue (axes, dtypes, allocation) is in
``cpu_nn.py``. The project-wide directives switch off bounds and wraparound checks, so
nothing here indexes with negative numbers.
"""

cimport numpy as cnp
from cython.parallel cimport prange
from libc.math cimport exp, expf, log, logf
from libc.stdint cimport int64_t

from ._plain cimport plain

ctypedef fused real:
    float
    double

cnp.import_array()

cdef enum:
    PARALLEL_MIN = 32768  # fewer elements than this: one thread (a team costs more)


cdef inline void _softmax_row(const real* x, real* out, Py_ssize_t n, bint take_log) noexcept nogil:
    cdef Py_ssize_t j
    cdef double m = x[0], s = 0.0, ls
    for j in range(1, n):
        if x[j] > m:
            m = x[j]
    if real is float:
        for j in range(n):
            out[j] = expf(x[j] - <float>m)
            s += out[j]
    else:
        for j in range(n):
            out[j] = exp(x[j] - m)
            s += out[j]
    if take_log:
        ls = log(s)
        for j in range(n):
            out[j] = <real>(x[j] - m - ls)
    else:
        for j in range(n):
            out[j] = <real>(out[j] / s)


cdef void _rows(const real* x, real* out, Py_ssize_t rows, Py_ssize_t n,
                bint take_log) noexcept nogil:
    cdef Py_ssize_t i
    if rows * n < PARALLEL_MIN:
        for i in range(rows):
            _softmax_row(x + i * n, out + i * n, n, take_log)
    else:
        for i in prange(rows, schedule="static"):
            _softmax_row(x + i * n, out + i * n, n, take_log)


def softmax_rows(real[:, ::1] x, real[:, ::1] out, bint take_log):
    """out[i] = softmax(x[i]) (or log_softmax), for every row i; out is allocated by the caller."""
    if x.shape[0] == 0 or x.shape[1] == 0:
        return
    with nogil:
        _rows(&x[0, 0], &out[0, 0], x.shape[0], x.shape[1], take_log)



cdef void _relu(const real* x, real* out, Py_ssize_t n) noexcept nogil:
    cdef Py_ssize_t j
    for j in range(n):
        out[j] = 0 if x[j] <= 0 else x[j]  # nan stays nan, as np.maximum


cdef void _relu_grad(const real* out, const real* g, real* dx, Py_ssize_t n) noexcept nogil:
    cdef Py_ssize_t j
    cdef real v
    for j in range(n):
        v = g[j]  # read unconditionally, so the loop vectorizes as a select
        dx[j] = v if out[j] > 0 else 0


def relu_array(x):
    """max(x, 0) as a new array of x's shape and dtype, for x as ``_plain.plain`` takes it
    (one thread, as ``relu_flat``); None for any other x. Without ``relu_flat``'s memoryviews
    and fused-type dispatch: an activation of a small batch costs little more than its loop."""
    cdef int kind
    if not plain(x, &kind):
        return None
    cdef cnp.ndarray a = <cnp.ndarray>x
    cdef cnp.ndarray out = cnp.PyArray_EMPTY(a.ndim, a.shape, kind, 0)
    cdef Py_ssize_t n = cnp.PyArray_SIZE(a)
    with nogil:
        if kind == cnp.NPY_FLOAT:
            _relu(<const float*>cnp.PyArray_DATA(a), <float*>cnp.PyArray_DATA(out), n)
        else:
            _relu(<const double*>cnp.PyArray_DATA(a), <double*>cnp.PyArray_DATA(out), n)
    return out


def relu_grad_array(out, g):
    """g where out > 0, else 0, as ``relu_grad_flat``, as a new array of g's shape and
    dtype, for out and g as ``_plain.plain`` takes them, of one dtype and shape; None
    otherwise."""
    cdef int kind, kind_g
    if not (plain(out, &kind) and plain(g, &kind_g)) or kind != kind_g:
        return None
    cdef cnp.ndarray o = <cnp.ndarray>out, a = <cnp.ndarray>g
    cdef int j, nd = a.ndim
    if o.ndim != nd:
        return None
    for j in range(nd):
        if o.shape[j] != a.shape[j]:
            return None
    cdef cnp.ndarray dx = cnp.PyArray_EMPTY(nd, a.shape, kind, 0)
    cdef Py_ssize_t n = cnp.PyArray_SIZE(a)
    with nogil:
        if kind == cnp.NPY_FLOAT:
            _relu_grad(<const float*>cnp.PyArray_DATA(o), <const float*>cnp.PyArray_DATA(a),
                       <float*>cnp.PyArray_DATA(dx), n)
        else:
            _relu_grad(<const double*>cnp.PyArray_DATA(o), <const double*>cnp.PyArray_DATA(a),
                       <double*>cnp.PyArray_DATA(dx), n)
    return dx


def relu_flat(const real[::1] x, real[::1] out):
    """out = max(x, 0) elementwise, one thread (memory-bound: a team does not pay)."""
    if x.shape[0]:
        with nogil:
            _relu(&x[0], &out[0], x.shape[0])


def relu_grad_flat(const real[::1] out, const real[::1] g, real[::1] dx):
    """dx = g where out > 0, else 0, one thread (memory-bound: a team does not pay)."""
    if out.shape[0]:
        with nogil:
            _relu_grad(&out[0], &g[0], &dx[0], out.shape[0])


def embedding_grad_rows(const int64_t[::1] ids, const real[:, ::1] g, real[:, ::1] out):
    """out[ids[p]] += g[p] for every position p, in order (one thread: ids repeat)."""
    cdef Py_ssize_t p, j, dim = g.shape[1]
    cdef real* row
    if dim == 0:
        return
    with nogil:
        for p in range(ids.shape[0]):
            row = &out[ids[p], 0]
            for j in range(dim):
                row[j] += g[p, j]
