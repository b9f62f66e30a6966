"""Typed loops of the loss family: softmax with cross-entropy and its gradient, one pass per
row over C-contiguous float32/float64 rows (the class axis last), rows in parallel (OpenMP);
the squared error and its gradient, one pass over two flat arrays.

The glue (axes, dtypes, label checks' messages, allocation) is in ``cpu_loss.py``. Nothing
here indexes with negative numbers.
"""

cimport numpy as cnp
from cython.parallel cimport prange
from libc.math cimport exp, expf, log
from libc.stdint cimport int64_t

from ._plain cimport plain

ctypedef fused real:
    float
    double

cnp.import_array()

cdef enum:
    PARALLEL_MIN = 32768  # fewer elements than this: one thread (a team costs more)


def first_bad_label(const int64_t[::1] label, int64_t ignore_index, int64_t n):
    """The position of the first label outside [0, n) that is not ignore_index, or -1."""
    cdef Py_ssize_t i
    cdef int64_t v
    for i in range(label.shape[0]):
        v = label[i]
        if v != ignore_index and (v < 0 or v >= n):
            return i
    return -1


cdef inline double _softmax_row(const real* x, real* p, Py_ssize_t n, double* m) noexcept nogil:
    """p = softmax(x); returns log(sum(exp(x - max))) and sets m to max(x)."""
    cdef Py_ssize_t j
    cdef double mx = x[0], s = 0.0, e
    for j in range(1, n):
        if x[j] > mx:
            mx = x[j]
    for j in range(n):
        e = expf(<float>(x[j] - mx)) if real is float else exp(x[j] - mx)
        p[j] = <real>e
        s += e
    for j in range(n):
        p[j] = <real>(p[j] / s)
    m[0] = mx
    return log(s)


cdef inline real _forward_row(const real* x, real* p, const real* q, int64_t k, Py_ssize_t n,
                              bint hard, bint use_softmax) noexcept nogil:
    """The row's loss (writing p = softmax(x) when use_softmax); hard: the label k, else the
    soft labels q."""
    cdef Py_ssize_t j
    cdef double m = 0.0, lt = 0.0, acc = 0.0
    if use_softmax:
        lt = _softmax_row(x, p, n, &m)
        if hard:
            return <real>(lt - (x[k] - m))
        for j in range(n):
            acc += q[j] * (lt - (x[j] - m))
        return <real>acc
    if hard:
        return <real>(-log(x[k]))
    for j in range(n):
        acc -= q[j] * log(x[j])
    return <real>acc


cdef inline void _forward_one(const real* x, real* p, real* loss, const int64_t* lab,
                              const real* q, Py_ssize_t i, Py_ssize_t n, int64_t ignore_index,
                              bint use_softmax) noexcept nogil:
    """Row i of forward (q NULL: hard labels lab)."""
    if q != NULL:
        loss[i] = _forward_row(x + i * n, p + i * n, q + i * n, 0, n, False, use_softmax)
    elif lab[i] == ignore_index:  # still the row's softmax, reading class 0
        _forward_row(x + i * n, p + i * n, q, 0, n, True, use_softmax)
        loss[i] = 0
    else:
        loss[i] = _forward_row(x + i * n, p + i * n, q, lab[i], n, True, use_softmax)


def forward(real[:, ::1] x, real[:, ::1] p, real[::1] loss, const int64_t[::1] label,
            real[:, ::1] soft, int64_t ignore_index, bint use_softmax):
    """Per row: p = softmax(x) (when use_softmax) and the cross-entropy loss; hard labels
    from ``label`` (soft is None), else soft labels from ``soft``."""
    cdef Py_ssize_t rows = x.shape[0], n = x.shape[1], i
    cdef const int64_t* lab = &label[0] if soft is None else NULL
    cdef real* q = NULL if soft is None else &soft[0, 0]
    if rows == 0 or n == 0:
        return
    with nogil:
        if rows * n < PARALLEL_MIN:
            for i in range(rows):
                _forward_one(&x[0, 0], &p[0, 0], &loss[0], lab, q, i, n, ignore_index,
                             use_softmax)
        else:
            for i in prange(rows, schedule="static"):
                _forward_one(&x[0, 0], &p[0, 0], &loss[0], lab, q, i, n, ignore_index,
                             use_softmax)


cdef inline void _backward_row(const real* p, const real* q, int64_t k, double g, real* dx,
                               Py_ssize_t n, bint hard, bint use_softmax) noexcept nogil:
    """The row's gradient; hard: the label k, else the soft labels q."""
    cdef Py_ssize_t j
    cdef double total = 0.0
    if hard:
        for j in range(n):
            dx[j] = <real>(p[j] * g) if use_softmax else 0
        dx[k] = <real>((p[k] - 1.0) * g) if use_softmax else <real>(-1.0 / p[k] * g)
    elif use_softmax:
        for j in range(n):
            total += q[j]
        for j in range(n):
            dx[j] = <real>((p[j] * total - q[j]) * g)
    else:
        for j in range(n):
            dx[j] = <real>(-q[j] / p[j] * g) if q[j] != 0 else 0


cdef inline void _backward_one(const real* p, const real* loss_grad, real* dx,
                               const int64_t* lab, const real* q, Py_ssize_t i, Py_ssize_t n,
                               int64_t ignore_index, bint use_softmax) noexcept nogil:
    """Row i of backward (q NULL: hard labels lab)."""
    cdef Py_ssize_t j
    if q != NULL:
        _backward_row(p + i * n, q + i * n, 0, loss_grad[i], dx + i * n, n, False, use_softmax)
    elif lab[i] == ignore_index:
        for j in range(n):
            dx[i * n + j] = 0
    else:
        _backward_row(p + i * n, q, lab[i], loss_grad[i], dx + i * n, n, True, use_softmax)


def backward(real[:, ::1] p, const real[::1] loss_grad, real[:, ::1] dx,
             const int64_t[::1] label, real[:, ::1] soft, int64_t ignore_index,
             bint use_softmax):
    """Per row: dx = (p * sum(target) - target) * loss_grad (use_softmax), else
    -target / p * loss_grad where target != 0 (0 elsewhere)."""
    cdef Py_ssize_t rows = p.shape[0], n = p.shape[1], i
    cdef const int64_t* lab = &label[0] if soft is None else NULL
    cdef real* q = NULL if soft is None else &soft[0, 0]
    if rows == 0 or n == 0:
        return
    with nogil:
        if rows * n < PARALLEL_MIN:
            for i in range(rows):
                _backward_one(&p[0, 0], &loss_grad[0], &dx[0, 0], lab, q, i, n, ignore_index,
                              use_softmax)
        else:
            for i in prange(rows, schedule="static"):
                _backward_one(&p[0, 0], &loss_grad[0], &dx[0, 0], lab, q, i, n, ignore_index,
                              use_softmax)


cdef enum:
    LANES = 8     # running sums of squares in the dtype (SIMD lanes) ...
    BLOCK = 64    # ... over this many elements, then added into a double


cdef double _sum_squares(const real* x, const real* y, Py_ssize_t n) noexcept nogil:
    """sum((x - y)^2): each block's differences and squares in the dtype, LANES partial sums
    of BLOCK / LANES terms each (so the compiler can vectorise them), blocks summed in double."""
    cdef real part[LANES]
    cdef real d
    cdef double total = 0.0
    cdef Py_ssize_t b, k, j, i, whole = n - n % BLOCK
    for b in range(n // BLOCK):
        for j in range(LANES):
            part[j] = 0
        for k in range(BLOCK // LANES):
            for j in range(LANES):
                i = b * BLOCK + k * LANES + j
                d = x[i] - y[i]
                part[j] += d * d
        for j in range(LANES):
            total += part[j]
    for i in range(whole, n):
        d = x[i] - y[i]
        total += <double>d * d
    return total


def squared_error(const real[::1] x, const real[::1] y):
    """sum((x - y)^2) over two flat arrays of one length (see ``_sum_squares``)."""
    cdef double total
    with nogil:
        total = _sum_squares(&x[0], &y[0], x.shape[0])
    return total


cdef inline int _pair(x, y) noexcept:
    """The type number of x and y when both are arrays ``_plain.plain`` takes, of one type
    and one size; else -1."""
    cdef int kind, kind_y
    if not (plain(x, &kind) and plain(y, &kind_y)) or kind != kind_y or \
            cnp.PyArray_SIZE(<cnp.ndarray>x) != cnp.PyArray_SIZE(<cnp.ndarray>y):
        return -1
    return kind


def squared_error_array(x, y):
    """``squared_error`` of two arrays as ``_pair`` takes them, in one call (no memoryviews,
    no fused-type dispatch); None for any others."""
    cdef int kind = _pair(x, y)
    if kind < 0:
        return None
    cdef void* a = cnp.PyArray_DATA(<cnp.ndarray>x)
    cdef void* b = cnp.PyArray_DATA(<cnp.ndarray>y)
    cdef Py_ssize_t n = cnp.PyArray_SIZE(<cnp.ndarray>x)
    cdef double total
    with nogil:
        if kind == cnp.NPY_FLOAT:
            total = _sum_squares(<const float*>a, <const float*>b, n)
        else:
            total = _sum_squares(<const double*>a, <const double*>b, n)
    return total


def squared_error_grad_array(x, y, double scale):
    """``squared_error_grad`` of two arrays as ``_pair`` takes them into a new array of x's
    shape and dtype, in one call; None for any others."""
    cdef int kind = _pair(x, y)
    if kind < 0:
        return None
    cdef cnp.ndarray a = <cnp.ndarray>x
    cdef cnp.ndarray out = cnp.PyArray_EMPTY(a.ndim, a.shape, kind, 0)
    cdef void* pa = cnp.PyArray_DATA(a)
    cdef void* pb = cnp.PyArray_DATA(<cnp.ndarray>y)
    cdef void* po = cnp.PyArray_DATA(out)
    cdef Py_ssize_t n = cnp.PyArray_SIZE(a)
    with nogil:
        if kind == cnp.NPY_FLOAT:
            _scaled_difference(<const float*>pa, <const float*>pb, <float>scale, <float*>po, n)
        else:
            _scaled_difference(<const double*>pa, <const double*>pb, scale, <double*>po, n)
    return out


cdef void _scaled_difference(const real* x, const real* y, real s, real* out,
                             Py_ssize_t n) noexcept nogil:
    cdef Py_ssize_t i
    for i in range(n):
        out[i] = (x[i] - y[i]) * s


def squared_error_grad(const real[::1] x, const real[::1] y, double scale, real[::1] out):
    """out = (x - y) * scale over flat arrays of one length, in their dtype (scale rounded to
    it), as the reference kernel computes it."""
    if x.shape[0]:
        with nogil:
            _scaled_difference(&x[0], &y[0], <real>scale, &out[0], x.shape[0])
