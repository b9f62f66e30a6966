"""Fused one-pass loops: a linear layer's bias and activation, dropout's mask and scale, and
the sums that take a broadcast gradient back to its input's shape.

Only typed loops over C-contiguous float32/float64 data live here; the glue (GEMM, dtypes,
shapes, allocation, the random draws) is in ``cpu_fused.py``, which hands over C-contiguous
arrays of the sizes and dtypes each function names. The arrays are taken as NumPy arrays,
their data by pointer: a typed memoryview of a fused type costs microseconds per call, which
the seed workloads' small tensors would notice. Nothing here indexes with negative numbers.
"""

cimport numpy as cnp
from cython.parallel cimport prange
from libc.math cimport exp, expf
from libc.stdint cimport uint8_t

cnp.import_array()

ctypedef fused real:
    float
    double

cpdef enum Activation:
    RELU, SIGMOID

cdef enum:
    # a team of threads costs more than it saves below these many elements: the cheap
    # passes (bias and relu, sums) are bound by memory, sigmoid by its exp (softmax's
    # threshold: on a busy machine a smaller team's wait for a descheduled thread cost
    # three times the work, a W2 [64, 256] sigmoid 1245 us against 410 us on one thread)
    PARALLEL_MIN = 65536
    PARALLEL_MIN_TRANSCENDENTAL = 32768
    BLOCK = 256  # columns summed, or dropout's elements, at a time


cdef inline real _sigmoid(real v) noexcept nogil:
    """1 / (1 + exp(-v)), with exp of a non-positive number only (nothing overflows)."""
    cdef real e
    if real is float:
        if v >= 0:
            return 1 / (1 + expf(-v))
        e = expf(v)
    else:
        if v >= 0:
            return 1 / (1 + exp(-v))
        e = exp(v)
    return e / (1 + e)


cdef inline void _bias_act_row(real* row, const real* bias, Py_ssize_t n,
                               Activation act) noexcept nogil:
    cdef Py_ssize_t j
    cdef real v
    if act == RELU:
        for j in range(n):
            v = row[j] + bias[j]
            row[j] = 0 if v <= 0 else v  # nan stays nan, as np.maximum
    else:
        for j in range(n):
            row[j] = _sigmoid(row[j] + bias[j])


cdef void _bias_act(real* out, const real* bias, Py_ssize_t rows, Py_ssize_t n,
                   Activation act) noexcept nogil:
    cdef Py_ssize_t i
    if rows == 1 or rows * n < (PARALLEL_MIN if act == RELU else PARALLEL_MIN_TRANSCENDENTAL):
        for i in range(rows):
            _bias_act_row(out + i * n, bias, n, act)
    else:
        for i in prange(rows, schedule="static"):
            _bias_act_row(out + i * n, bias, n, act)


def bias_activation_rows(cnp.ndarray out, cnp.ndarray bias, Activation act):
    """out[i] = act(out[i] + bias) in place for every row i of out [rows, n] (rows in
    parallel when big); bias [n], of out's dtype (float32 or float64), copied when it is not
    contiguous."""
    cdef Py_ssize_t rows = cnp.PyArray_DIMS(out)[0], n = cnp.PyArray_DIMS(out)[1]
    if rows == 0 or n == 0:
        return
    bias = cnp.PyArray_GETCONTIGUOUS(bias)
    if cnp.PyArray_TYPE(out) == cnp.NPY_FLOAT:
        with nogil:
            _bias_act(<float*>cnp.PyArray_DATA(out), <const float*>cnp.PyArray_DATA(bias),
                      rows, n, act)
    else:
        with nogil:
            _bias_act(<double*>cnp.PyArray_DATA(out), <const double*>cnp.PyArray_DATA(bias),
                      rows, n, act)


cdef void _dropout(const double* u, const real* x, real* out, uint8_t* mask, Py_ssize_t n,
                   double p, real scale) noexcept nogil:
    """BLOCK elements at a time, the keep flags (0 or 1) in a local array: three loops the
    compiler vectorizes, where one loop mixing double, real and uint8 stays scalar."""
    cdef Py_ssize_t j, lo = 0, w
    cdef real keep[BLOCK]
    while lo < n:
        w = min(<Py_ssize_t>BLOCK, n - lo)
        for j in range(w):
            keep[j] = 1 if u[lo + j] >= p else 0
        for j in range(w):
            mask[lo + j] = <uint8_t>keep[j]
        for j in range(w):
            out[lo + j] = (x[lo + j] * keep[j]) * scale
        lo += w


def dropout_flat(cnp.ndarray u, cnp.ndarray x, cnp.ndarray out, cnp.ndarray mask, double p,
                 double scale):
    """mask = u >= p; out = x * mask * scale (the reference's products, in its order, with
    scale rounded to x's dtype), for u float64, x and out float32 or float64, mask uint8,
    all of x's size."""
    cdef Py_ssize_t n = cnp.PyArray_SIZE(x)
    cdef const double* pu = <const double*>cnp.PyArray_DATA(u)
    cdef uint8_t* pm = <uint8_t*>cnp.PyArray_DATA(mask)
    if cnp.PyArray_TYPE(x) == cnp.NPY_FLOAT:
        with nogil:
            _dropout(pu, <const float*>cnp.PyArray_DATA(x), <float*>cnp.PyArray_DATA(out), pm, n,
                     p, <float>scale)
    else:
        with nogil:
            _dropout(pu, <const double*>cnp.PyArray_DATA(x), <double*>cnp.PyArray_DATA(out), pm,
                     n, p, scale)


cdef void _column_sums(const real* g, real* out, Py_ssize_t rows, Py_ssize_t n) noexcept nogil:
    """out = the sum of the rows of g [rows, n], added row after row in real (NumPy's order),
    BLOCK columns at a time in a local array (which the compiler knows aliases nothing)."""
    cdef Py_ssize_t i, j, lo = 0, w
    cdef real acc[BLOCK]
    cdef const real* row
    while lo < n:
        w = min(<Py_ssize_t>BLOCK, n - lo)
        for j in range(w):
            acc[j] = g[lo + j]
        for i in range(1, rows):
            row = g + i * n + lo
            for j in range(w):
                acc[j] = acc[j] + row[j]
        for j in range(w):
            out[lo + j] = acc[j]
        lo += w


cdef inline double _sum(const real* x, Py_ssize_t n) noexcept nogil:
    """sum(x) in eight independent lanes of real, the lanes added in double."""
    cdef Py_ssize_t j = 0
    cdef real a0 = 0, a1 = 0, a2 = 0, a3 = 0, a4 = 0, a5 = 0, a6 = 0, a7 = 0
    cdef double s
    while j + 8 <= n:
        a0 = a0 + x[j]
        a1 = a1 + x[j + 1]
        a2 = a2 + x[j + 2]
        a3 = a3 + x[j + 3]
        a4 = a4 + x[j + 4]
        a5 = a5 + x[j + 5]
        a6 = a6 + x[j + 6]
        a7 = a7 + x[j + 7]
        j += 8
    s = ((<double>a0 + a1) + (<double>a2 + a3)) + ((<double>a4 + a5) + (<double>a6 + a7))
    while j < n:
        s += x[j]
        j += 1
    return s


cdef void _channel_sums(const real* g, real* out, Py_ssize_t outer, Py_ssize_t chans,
                        Py_ssize_t inner) noexcept nogil:
    """out[c] = the sum of g [outer, chans, inner] over its outer and inner axes."""
    cdef Py_ssize_t c, a
    cdef double s
    if outer * chans * inner < PARALLEL_MIN or chans == 1:
        for c in range(chans):
            s = 0
            for a in range(outer):
                s = s + _sum(g + (a * chans + c) * inner, inner)
            out[c] = <real>s
    else:
        for c in prange(chans, schedule="static"):
            s = 0
            for a in range(outer):
                s = s + _sum(g + (a * chans + c) * inner, inner)
            out[c] = <real>s


cdef void _sums(const real* g, real* out, Py_ssize_t outer, Py_ssize_t chans,
                Py_ssize_t inner) noexcept nogil:
    cdef Py_ssize_t c
    if outer == 0 or inner == 0:
        for c in range(chans):
            out[c] = 0
    elif inner == 1 and chans > 1:
        _column_sums(g, out, outer, chans)
    else:
        _channel_sums(g, out, outer, chans, inner)


def sum_outer_inner(cnp.ndarray g, cnp.ndarray out, Py_ssize_t outer, Py_ssize_t chans,
                    Py_ssize_t inner):
    """out[c] = the sum of g[:, c, :] for g [outer, chans, inner] (float32 or float64) and out
    [chans] of its dtype: a gradient summed back to a bias row (inner 1) or to per-channel
    values (NCHW: outer N, inner H * W)."""
    if cnp.PyArray_TYPE(g) == cnp.NPY_FLOAT:
        with nogil:
            _sums(<const float*>cnp.PyArray_DATA(g), <float*>cnp.PyArray_DATA(out), outer,
                  chans, inner)
    else:
        with nogil:
            _sums(<const double*>cnp.PyArray_DATA(g), <double*>cnp.PyArray_DATA(out), outer,
                  chans, inner)
