"""Typed loops of the norm family: batch norm over (outer, channels, inner) C-contiguous
blocks, channels in parallel; layer norm over rows, rows in parallel (OpenMP). Statistics
are accumulated in double, two passes (mean, then squared deviations).

The glue (layouts, dtypes, allocation) is in ``cpu_norm.py``. Nothing here indexes with
negative numbers.
"""

from cython.parallel cimport prange
from libc.math cimport sqrt

ctypedef fused real:
    float
    double

cdef enum:
    BLOCK = 16  # columns per task of layer_norm_grad's column sums
    PARALLEL_MIN = 32768  # fewer elements than this: one thread (a team costs more)


cdef inline void _shifted_sums(const real* x, Py_ssize_t n, double shift, double* s1,
                               double* s2) noexcept nogil:
    """s1 += sum(x - shift), s2 += sum((x - shift)^2), in four independent lanes."""
    cdef Py_ssize_t j = 0
    cdef double a0 = 0, a1 = 0, a2 = 0, a3 = 0, b0 = 0, b1 = 0, b2 = 0, b3 = 0
    cdef double d0, d1, d2, d3
    while j + 4 <= n:
        d0 = x[j] - shift
        d1 = x[j + 1] - shift
        d2 = x[j + 2] - shift
        d3 = x[j + 3] - shift
        a0 += d0
        a1 += d1
        a2 += d2
        a3 += d3
        b0 += d0 * d0
        b1 += d1 * d1
        b2 += d2 * d2
        b3 += d3 * d3
        j += 4
    while j < n:
        d0 = x[j] - shift
        a0 += d0
        b0 += d0 * d0
        j += 1
    s1[0] += (a0 + a1) + (a2 + a3)
    s2[0] += (b0 + b1) + (b2 + b3)


cdef inline void _grad_sums(const real* g, const real* w, const real* x, Py_ssize_t n,
                            double mean, double* s1, double* s2) noexcept nogil:
    """s1 += sum(g * w), s2 += sum(g * w * (x - mean)) (w NULL: w = 1), in four lanes."""
    cdef Py_ssize_t j = 0
    cdef double a0 = 0, a1 = 0, a2 = 0, a3 = 0, b0 = 0, b1 = 0, b2 = 0, b3 = 0
    cdef double g0, g1, g2, g3
    while j + 4 <= n:
        g0 = g[j] if w == NULL else g[j] * w[j]
        g1 = g[j + 1] if w == NULL else g[j + 1] * w[j + 1]
        g2 = g[j + 2] if w == NULL else g[j + 2] * w[j + 2]
        g3 = g[j + 3] if w == NULL else g[j + 3] * w[j + 3]
        a0 += g0
        a1 += g1
        a2 += g2
        a3 += g3
        b0 += g0 * (x[j] - mean)
        b1 += g1 * (x[j + 1] - mean)
        b2 += g2 * (x[j + 2] - mean)
        b3 += g3 * (x[j + 3] - mean)
        j += 4
    while j < n:
        g0 = g[j] if w == NULL else g[j] * w[j]
        a0 += g0
        b0 += g0 * (x[j] - mean)
        j += 1
    s1[0] += (a0 + a1) + (a2 + a3)
    s2[0] += (b0 + b1) + (b2 + b3)


cdef inline void _channel_stats(const real* x, Py_ssize_t outer, Py_ssize_t stride,
                                Py_ssize_t inner, double* mean, double* var) noexcept nogil:
    """Mean and biased variance of the outer x inner values x[o * stride + k] (sums shifted
    by the first value, for precision)."""
    cdef Py_ssize_t o
    cdef double s1 = 0.0, s2 = 0.0, shift = x[0], n = outer * inner
    for o in range(outer):
        _shifted_sums(x + o * stride, inner, shift, &s1, &s2)
    s1 /= n
    mean[0] = shift + s1
    var[0] = max(s2 / n - s1 * s1, 0.0)


cdef inline void _bn_channel(const real* x, real* out, Py_ssize_t outer, Py_ssize_t stride,
                             Py_ssize_t inner, double mean, double scale,
                             double shift) noexcept nogil:
    """out = (x - mean) * scale + shift."""
    cdef Py_ssize_t o, k
    cdef real m = <real>mean, sc = <real>scale, sh = <real>shift
    for o in range(outer):
        for k in range(inner):
            out[o * stride + k] = (x[o * stride + k] - m) * sc + sh


cdef inline void _bn_one(const real* x, real* out, const real* running_mean,
                         const real* running_var, const real* weight, const real* bias,
                         real* new_mean, real* new_var, real* saved_mean, real* saved_inv_std,
                         Py_ssize_t c, Py_ssize_t outer, Py_ssize_t stride, Py_ssize_t inner,
                         double momentum, double epsilon, bint glob) noexcept nogil:
    """Channel c of batch_norm."""
    cdef double mean, var, inv
    if glob:
        mean, var = running_mean[c], running_var[c]
        new_mean[c], new_var[c] = running_mean[c], running_var[c]
    else:
        _channel_stats(x + c * inner, outer, stride, inner, &mean, &var)
        new_mean[c] = <real>(momentum * running_mean[c] + (1 - momentum) * mean)
        new_var[c] = <real>(momentum * running_var[c] + (1 - momentum) * var)
    inv = 1 / sqrt(var + epsilon)
    saved_mean[c], saved_inv_std[c] = <real>mean, <real>inv
    _bn_channel(x + c * inner, out + c * inner, outer, stride, inner, mean, weight[c] * inv,
                bias[c])


def batch_norm(real[:, :, ::1] x, real[:, :, ::1] out, const real[::1] running_mean,
               const real[::1] running_var, const real[::1] weight, const real[::1] bias,
               real[::1] new_mean, real[::1] new_var, real[::1] saved_mean,
               real[::1] saved_inv_std, double momentum, double epsilon, bint glob):
    """Per channel c of a non-empty x [outer, C, inner]: the batch (or, glob, the running)
    statistics, out = (x - mean) * weight * inv_std + bias, the new running statistics."""
    cdef Py_ssize_t outer = x.shape[0], channels = x.shape[1], inner = x.shape[2], c
    cdef Py_ssize_t stride = channels * inner
    with nogil:
        if outer * stride < PARALLEL_MIN:
            for c in range(channels):
                _bn_one(&x[0, 0, 0], &out[0, 0, 0], &running_mean[0], &running_var[0],
                        &weight[0], &bias[0], &new_mean[0], &new_var[0], &saved_mean[0],
                        &saved_inv_std[0], c, outer, stride, inner, momentum, epsilon, glob)
        else:
            for c in prange(channels, schedule="static"):
                _bn_one(&x[0, 0, 0], &out[0, 0, 0], &running_mean[0], &running_var[0],
                        &weight[0], &bias[0], &new_mean[0], &new_var[0], &saved_mean[0],
                        &saved_inv_std[0], c, outer, stride, inner, momentum, epsilon, glob)


cdef inline void _bn_grad_channel(const real* x, const real* g, real* dx, Py_ssize_t outer,
                                  Py_ssize_t stride, Py_ssize_t inner, double mean, double inv,
                                  double w, bint glob, real* dw, real* db) noexcept nogil:
    """dx = scale * (g - (sum(g) + xhat * sum(g * xhat)) / n) (glob: g * scale), written
    as g * a + (x - mean) * b + c."""
    cdef Py_ssize_t o, k, at
    cdef double sg = 0.0, sgx = 0.0, n = outer * inner, scale = w * inv
    cdef real a = <real>scale, b = 0, c = 0, m = <real>mean
    for o in range(outer):
        _grad_sums(g + o * stride, NULL, x + o * stride, inner, mean, &sg, &sgx)
    sgx *= inv
    db[0] = <real>sg
    dw[0] = <real>sgx
    if not glob:
        b = <real>(-scale * inv * sgx / n)
        c = <real>(-scale * sg / n)
    for o in range(outer):
        for k in range(inner):
            at = o * stride + k
            dx[at] = g[at] * a + (x[at] - m) * b + c


def batch_norm_grad(real[:, :, ::1] x, const real[::1] weight, const real[::1] saved_mean,
                    const real[::1] saved_inv_std, real[:, :, ::1] out_grad,
                    real[:, :, ::1] dx, real[::1] dweight, real[::1] dbias, bint glob):
    """Per channel of a non-empty x: dbias = sum(g), dweight = sum(g * xhat), dx."""
    cdef Py_ssize_t outer = x.shape[0], channels = x.shape[1], inner = x.shape[2], c
    cdef Py_ssize_t stride = channels * inner
    with nogil:
        if outer * stride < PARALLEL_MIN:
            for c in range(channels):
                _bn_grad_channel(&x[0, 0, 0] + c * inner, &out_grad[0, 0, 0] + c * inner,
                                 &dx[0, 0, 0] + c * inner, outer, stride, inner, saved_mean[c],
                                 saved_inv_std[c], weight[c], glob, &dweight[c], &dbias[c])
        else:
            for c in prange(channels, schedule="static"):
                _bn_grad_channel(&x[0, 0, 0] + c * inner, &out_grad[0, 0, 0] + c * inner,
                                 &dx[0, 0, 0] + c * inner, outer, stride, inner, saved_mean[c],
                                 saved_inv_std[c], weight[c], glob, &dweight[c], &dbias[c])


cdef inline void _ln_row(const real* x, const real* w, const real* b, real* out, Py_ssize_t n,
                         double epsilon, real* mean, real* var) noexcept nogil:
    cdef Py_ssize_t j
    cdef double m, v
    cdef real mr, inv
    _channel_stats(x, 1, n, n, &m, &v)
    mr, inv = <real>m, <real>(1 / sqrt(v + epsilon))
    for j in range(n):
        out[j] = (x[j] - mr) * inv * w[j] + b[j]
    mean[0] = mr
    var[0] = <real>v


def layer_norm(real[:, ::1] x, const real[::1] weight, const real[::1] bias, real[:, ::1] out,
               real[::1] mean, real[::1] var, double epsilon):
    """Per row of a non-empty x: out = (x - mean) / sqrt(var + epsilon) * weight + bias,
    its mean and var."""
    cdef Py_ssize_t rows = x.shape[0], n = x.shape[1], i
    with nogil:
        if rows * n < PARALLEL_MIN:
            for i in range(rows):
                _ln_row(&x[i, 0], &weight[0], &bias[0], &out[i, 0], n, epsilon, &mean[i],
                        &var[i])
        else:
            for i in prange(rows, schedule="static"):
                _ln_row(&x[i, 0], &weight[0], &bias[0], &out[i, 0], n, epsilon, &mean[i],
                        &var[i])


cdef inline void _ln_grad_row(const real* x, const real* g, const real* w, real* dx,
                              Py_ssize_t n, double mean, double inv) noexcept nogil:
    cdef Py_ssize_t j
    cdef double mg = 0.0, mgx = 0.0
    cdef real m = <real>mean, r = <real>inv, a, b
    _grad_sums(g, w, x, n, mean, &mg, &mgx)
    a, b = <real>(mg / n), <real>(inv * inv * mgx / n)
    for j in range(n):
        dx[j] = (g[j] * w[j] - a - (x[j] - m) * b) * r


cdef inline void _ln_column_sums(const real* x, const real* g, const real* mean,
                                 const double* inv, Py_ssize_t rows, Py_ssize_t n,
                                 Py_ssize_t j0, Py_ssize_t j1, real* dw,
                                 real* db) noexcept nogil:
    """dw[j] = sum_i g[i, j] * xhat[i, j] and db[j] = sum_i g[i, j] for j in [j0, j1)."""
    cdef double sw[BLOCK]
    cdef double sb[BLOCK]
    cdef Py_ssize_t i, j
    for j in range(j1 - j0):
        sw[j] = 0.0
        sb[j] = 0.0
    for i in range(rows):
        for j in range(j1 - j0):
            sb[j] += g[i * n + j0 + j]
            sw[j] += g[i * n + j0 + j] * (x[i * n + j0 + j] - mean[i]) * inv[i]
    for j in range(j1 - j0):
        dw[j0 + j] = <real>sw[j]
        db[j0 + j] = <real>sb[j]


cdef inline void _ln_grad_one(const real* x, const real* g, const real* w, const real* mean,
                              const real* variance, double* inv_std, real* dx, Py_ssize_t i,
                              Py_ssize_t n, double epsilon) noexcept nogil:
    """Row i of layer_norm_grad's dx (and the row's inverse standard deviation)."""
    inv_std[i] = 1 / sqrt(variance[i] + epsilon)
    _ln_grad_row(x + i * n, g + i * n, w, dx + i * n, n, mean[i], inv_std[i])


def layer_norm_grad(real[:, ::1] x, const real[::1] weight, const real[::1] mean,
                    const real[::1] variance, real[:, ::1] out_grad, real[:, ::1] dx,
                    real[::1] dweight, real[::1] dbias, double[::1] inv_std, double epsilon):
    """Per row of a non-empty x: dx in closed form; per column: dweight = sum(g * xhat),
    dbias = sum(g). inv_std is the caller's scratch, one value per row."""
    cdef Py_ssize_t rows = x.shape[0], n = x.shape[1], i, t
    cdef Py_ssize_t tasks = (n + BLOCK - 1) // BLOCK
    with nogil:
        if rows * n < PARALLEL_MIN:
            for i in range(rows):
                _ln_grad_one(&x[0, 0], &out_grad[0, 0], &weight[0], &mean[0], &variance[0],
                             &inv_std[0], &dx[0, 0], i, n, epsilon)
            for t in range(tasks):
                _ln_column_sums(&x[0, 0], &out_grad[0, 0], &mean[0], &inv_std[0], rows, n,
                                t * BLOCK, min(n, (t + 1) * BLOCK), &dweight[0], &dbias[0])
        else:
            for i in prange(rows, schedule="static"):
                _ln_grad_one(&x[0, 0], &out_grad[0, 0], &weight[0], &mean[0], &variance[0],
                             &inv_std[0], &dx[0, 0], i, n, epsilon)
            for t in prange(tasks, schedule="static"):
                _ln_column_sums(&x[0, 0], &out_grad[0, 0], &mean[0], &inv_std[0], rows, n,
                                t * BLOCK, min(n, (t + 1) * BLOCK), &dweight[0], &dbias[0])
