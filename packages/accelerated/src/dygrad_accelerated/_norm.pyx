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


cdef inline void _channel_stats(const real* x, Py_ssize_t outer, Py_ssize_t stride,
                                Py_ssize_t inner, double* mean, double* var) noexcept nogil:
    """Mean and biased variance of the outer x inner values x[o * stride + k]."""
    cdef Py_ssize_t o, k
    cdef double s = 0.0, d
    for o in range(outer):
        for k in range(inner):
            s += x[o * stride + k]
    mean[0] = s / (outer * inner)
    s = 0.0
    for o in range(outer):
        for k in range(inner):
            d = x[o * stride + k] - mean[0]
            s += d * d
    var[0] = s / (outer * inner)


cdef inline void _bn_channel(const real* x, real* out, Py_ssize_t outer, Py_ssize_t stride,
                             Py_ssize_t inner, double mean, double scale,
                             double shift) noexcept nogil:
    cdef Py_ssize_t o, k
    cdef real sc = <real>scale, sh = <real>shift
    for o in range(outer):
        for k in range(inner):
            out[o * stride + k] = x[o * stride + k] * sc + sh


def batch_norm(real[:, :, ::1] x, real[:, :, ::1] out, const real[::1] running_mean,
               const real[::1] running_var, const real[::1] weight, const real[::1] bias,
               real[::1] new_mean, real[::1] new_var, real[::1] saved_mean,
               real[::1] saved_inv_std, double momentum, double epsilon, bint glob):
    """Per channel c of x [outer, C, inner]: the batch (or, glob, the running) statistics,
    out = (x - mean) * weight * inv_std + bias, and the new running statistics."""
    cdef Py_ssize_t outer = x.shape[0], channels = x.shape[1], inner = x.shape[2], c
    cdef Py_ssize_t stride = channels * inner
    cdef double mean, var, inv, scale
    if channels == 0:
        return
    with nogil:
        for c in prange(channels, schedule="static"):
            if glob:
                mean = running_mean[c]
                var = running_var[c]
                new_mean[c] = running_mean[c]
                new_var[c] = running_var[c]
            else:
                _channel_stats(&x[0, 0, 0] + c * inner, outer, stride, inner, &mean, &var)
                new_mean[c] = <real>(momentum * running_mean[c] + (1 - momentum) * mean)
                new_var[c] = <real>(momentum * running_var[c] + (1 - momentum) * var)
            inv = 1 / sqrt(var + epsilon)
            saved_mean[c] = <real>mean
            saved_inv_std[c] = <real>inv
            scale = weight[c] * inv
            if outer * inner > 0:
                _bn_channel(&x[0, 0, 0] + c * inner, &out[0, 0, 0] + c * inner, outer, stride,
                            inner, mean, scale, bias[c] - mean * scale)


cdef inline void _bn_grad_channel(const real* x, const real* g, real* dx, Py_ssize_t outer,
                                  Py_ssize_t stride, Py_ssize_t inner, double mean, double inv,
                                  double w, bint glob, real* dw, real* db) noexcept nogil:
    cdef Py_ssize_t o, k, at
    cdef double sg = 0.0, sgx = 0.0, n = outer * inner, scale = w * inv, xhat
    for o in range(outer):
        for k in range(inner):
            at = o * stride + k
            sg += g[at]
            sgx += g[at] * (x[at] - mean)
    sgx *= inv
    db[0] = <real>sg
    dw[0] = <real>sgx
    for o in range(outer):
        for k in range(inner):
            at = o * stride + k
            if glob:
                dx[at] = <real>(g[at] * scale)
            else:
                xhat = (x[at] - mean) * inv
                dx[at] = <real>(scale * (g[at] - (sg + xhat * sgx) / n))


def batch_norm_grad(real[:, :, ::1] x, const real[::1] weight, const real[::1] saved_mean,
                    const real[::1] saved_inv_std, real[:, :, ::1] out_grad,
                    real[:, :, ::1] dx, real[::1] dweight, real[::1] dbias, bint glob):
    """Per channel: dbias = sum(g), dweight = sum(g * xhat), dx in closed form."""
    cdef Py_ssize_t outer = x.shape[0], channels = x.shape[1], inner = x.shape[2], c
    cdef Py_ssize_t stride = channels * inner
    if channels == 0:
        return
    with nogil:
        for c in prange(channels, schedule="static"):
            if outer * inner == 0:
                dweight[c] = 0
                dbias[c] = 0
            else:
                _bn_grad_channel(&x[0, 0, 0] + c * inner, &out_grad[0, 0, 0] + c * inner,
                                 &dx[0, 0, 0] + c * inner, outer, stride, inner, saved_mean[c],
                                 saved_inv_std[c], weight[c], glob, &dweight[c], &dbias[c])


cdef inline void _ln_row(const real* x, const real* w, const real* b, real* out, Py_ssize_t n,
                         double epsilon, real* mean, real* var) noexcept nogil:
    cdef Py_ssize_t j
    cdef double m, v, inv
    _channel_stats(x, 1, n, n, &m, &v)
    inv = 1 / sqrt(v + epsilon)
    for j in range(n):
        out[j] = <real>((x[j] - m) * inv * w[j] + b[j])
    mean[0] = <real>m
    var[0] = <real>v


def layer_norm(real[:, ::1] x, const real[::1] weight, const real[::1] bias, real[:, ::1] out,
               real[::1] mean, real[::1] var, double epsilon):
    """Per row: out = (x - mean) / sqrt(var + epsilon) * weight + bias, its mean and var."""
    cdef Py_ssize_t rows = x.shape[0], n = x.shape[1], i
    if rows == 0 or n == 0:
        return
    with nogil:
        for i in prange(rows, schedule="static"):
            _ln_row(&x[i, 0], &weight[0], &bias[0], &out[i, 0], n, epsilon, &mean[i], &var[i])


cdef inline void _ln_grad_row(const real* x, const real* g, const real* w, real* dx,
                              Py_ssize_t n, double mean, double inv) noexcept nogil:
    cdef Py_ssize_t j
    cdef double mg = 0.0, mgx = 0.0, gx
    for j in range(n):
        gx = g[j] * w[j]
        mg += gx
        mgx += gx * (x[j] - mean)
    mg /= n
    mgx *= inv / n
    for j in range(n):
        dx[j] = <real>(inv * (g[j] * w[j] - mg - (x[j] - mean) * inv * mgx))


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


def layer_norm_grad(real[:, ::1] x, const real[::1] weight, const real[::1] mean,
                    const real[::1] variance, real[:, ::1] out_grad, real[:, ::1] dx,
                    real[::1] dweight, real[::1] dbias, double[::1] inv_std, double epsilon):
    """Per row: dx in closed form; per column: dweight = sum(g * xhat), dbias = sum(g).
    inv_std is the caller's scratch, one value per row."""
    cdef Py_ssize_t rows = x.shape[0], n = x.shape[1], i, t
    cdef Py_ssize_t tasks = (n + BLOCK - 1) // BLOCK
    if n == 0:
        return
    if rows == 0:
        dweight[:] = 0
        dbias[:] = 0
        return
    with nogil:
        for i in prange(rows, schedule="static"):
            inv_std[i] = 1 / sqrt(variance[i] + epsilon)
            _ln_grad_row(&x[i, 0], &out_grad[i, 0], &weight[0], &dx[i, 0], n, mean[i],
                         inv_std[i])
        for t in prange(tasks, schedule="static"):
            _ln_column_sums(&x[0, 0], &out_grad[0, 0], &mean[0], &inv_std[0], rows, n,
                            t * BLOCK, min(n, (t + 1) * BLOCK), &dweight[0], &dbias[0])
