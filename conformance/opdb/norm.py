"""Op database entries: normalization ops (batch_norm, layer_norm and their fused gradients)."""

import numpy as np

from . import ErrorInput, OpInfo, Sample, make, make_positive

EPS = 1e-5

# ---------------------------------------------------------------------------
# batch_norm
# ---------------------------------------------------------------------------


def _channels_last(x, data_format):
    """x (as float64) with its channel axis moved last, and that axis."""
    c = 1 if data_format[1] == "C" else x.ndim - 1
    return np.moveaxis(x.astype(np.float64), c, -1), c


def _batch_norm_ref(x, running_mean, running_var, weight, bias, momentum=0.9, epsilon=EPS,
                    training=False, data_format="NCHW", use_global_stats=None):
    """Per channel: statistics over every other axis (biased variance), or the running ones."""
    xl, c = _channels_last(x, data_format)
    rows = xl.reshape(-1, xl.shape[-1])
    glob = (not training) if use_global_stats is None else use_global_stats
    if glob:
        mean, var = running_mean.astype(np.float64), running_var.astype(np.float64)
        new_mean, new_var = running_mean, running_var
    else:
        mean = rows.sum(axis=0) / rows.shape[0]
        var = ((rows - mean) ** 2).sum(axis=0) / rows.shape[0]
        new_mean = momentum * running_mean + (1 - momentum) * mean
        new_var = momentum * running_var + (1 - momentum) * var
    out = np.moveaxis(weight * (xl - mean) / np.sqrt(var + epsilon) + bias, -1, c)
    return tuple(a.astype(x.dtype) for a in (out, new_mean, new_var, mean,
                                             1 / np.sqrt(var + epsilon)))


BN_CASES = [  # x shape, data_format
    ((4, 3, 2, 5), "NCHW"),
    ((1, 3, 2, 2), "NCHW"),
    ((5, 3), "NC"),
    ((2, 3, 4), "NCL"),
    ((2, 4, 3), "NLC"),
    ((2, 3, 3, 2), "NHWC"),
    ((2, 2, 3, 1, 2), "NCDHW"),
    ((1, 2, 1, 3, 2), "NDHWC"),
]

BN_MODES = [  # training, use_global_stats
    (True, None), (False, None), (True, True), (False, False)]


def batch_norm_samples(dtype, rng):
    for k, (shape, fmt) in enumerate(BN_CASES):
        c = shape[1] if fmt[1] == "C" else shape[-1]
        for training, glob in BN_MODES[: 4 if k < 2 else 2]:
            attrs = {"training": training, "data_format": fmt, "momentum": 0.8,
                     "epsilon": 1e-3}
            if glob is not None:
                attrs["use_global_stats"] = glob
            yield Sample((make(shape, dtype, rng), make((c,), dtype, rng, -0.5, 0.5),
                          make_positive((c,), dtype, rng), make((c,), dtype, rng),
                          make((c,), dtype, rng)), attrs, f"{shape} {fmt} training={training} "
                                                          f"use_global_stats={glob}")
    c3 = [make((3,), dtype, rng) for _ in range(4)]
    yield Sample((make((3, 3, 2), dtype, rng), c3[0], make_positive((3,), dtype, rng),
                  c3[2], c3[3]), {}, "default attributes (eval)")


def batch_norm_errors(rng):
    x = make((2, 3, 4), np.float32, rng)
    v3, v4 = make_positive((3,), np.float32, rng), make_positive((4,), np.float32, rng)
    yield ErrorInput(Sample((x, v3, v3, v4, v3)), ValueError,
                     r"batch_norm: weight must have shape \[3\].*\[2, 3, 4\].*got \[4\]")
    yield ErrorInput(Sample((x, v4, v3, v3, v3), {"training": True}), ValueError,
                     r"running_mean must have shape \[3\]")
    yield ErrorInput(Sample((x, v3, v3, v3, v4), {"data_format": "NLC"}), ValueError,
                     r"running_mean must have shape \[4\]")
    yield ErrorInput(Sample((x.astype(np.int32), v3, v3, v3, v3)), TypeError, "int32")
    yield ErrorInput(Sample((x, v3, v3, v3.astype(np.float64), v3)), TypeError,
                     "weight has dtype float64 but x has float32")
    yield ErrorInput(Sample((x, v3, v3, v3, v3), {"data_format": "CHW"}), ValueError,
                     "data_format must be one of")
    yield ErrorInput(Sample((make((3,), np.float32, rng), v3, v3, v3, v3)), ValueError,
                     "2 to 5 dimensions")


def _batch_norm_grad_ref(x, weight, saved_mean, saved_inv_std, out_grad, data_format="NCHW",
                         use_global_stats=False):
    """d/dx of weight * xhat + bias: weight * inv_std * g when the statistics are constants;
    with batch statistics also through the mean and variance of x (n elements per channel):
    weight * inv_std / n * (n g - sum(g) - xhat sum(g xhat))."""
    xl, c = _channels_last(x, data_format)
    gl = np.moveaxis(out_grad.astype(np.float64), c, -1)
    xhat = (xl - saved_mean) * saved_inv_std
    sum_g = gl.reshape(-1, gl.shape[-1]).sum(axis=0)
    sum_gx = (gl * xhat).reshape(-1, gl.shape[-1]).sum(axis=0)
    if use_global_stats:
        dx = weight * saved_inv_std * gl
    else:
        n = xl.size // xl.shape[-1]
        dx = weight * saved_inv_std / n * (n * gl - sum_g - xhat * sum_gx)
    return np.moveaxis(dx, -1, c).astype(x.dtype), sum_gx.astype(x.dtype), sum_g.astype(x.dtype)


def batch_norm_grad_samples(dtype, rng):
    for shape, fmt in BN_CASES:
        xl, c = _channels_last(make(shape, dtype, rng), fmt)
        x = np.moveaxis(xl, -1, c).astype(dtype)
        rows = xl.reshape(-1, xl.shape[-1])
        mean, inv_std = rows.mean(axis=0), 1 / np.sqrt(rows.var(axis=0) + EPS)
        n = xl.shape[-1]
        for glob in (False, True):
            yield Sample((x, make((n,), dtype, rng), mean.astype(dtype), inv_std.astype(dtype),
                          make(shape, dtype, rng)),
                         {"data_format": fmt, "use_global_stats": glob},
                         f"{shape} {fmt} use_global_stats={glob}")


def batch_norm_grad_errors(rng):
    x = make((2, 3, 4), np.float32, rng)
    v3 = make((3,), np.float32, rng)
    yield ErrorInput(Sample((x, make((5,), np.float32, rng), v3, v3, x)), ValueError,
                     r"weight must have shape \[3\]")
    yield ErrorInput(Sample((x, v3, v3, v3, x[:1])), ValueError, "out_grad has shape")
    yield ErrorInput(Sample((x.astype(np.int64), v3, v3, v3, x)), TypeError, "int64")


# ---------------------------------------------------------------------------
# layer_norm
# ---------------------------------------------------------------------------


def _layer_norm_ref(x, weight, bias, epsilon=EPS, begin_norm_axis=1):
    """Each leading position's trailing block standardized (biased variance), then affine."""
    lead = x.shape[:begin_norm_axis]
    rows = x.astype(np.float64).reshape(int(np.prod(lead)), -1)
    mean = rows.mean(axis=1, keepdims=True)
    var = ((rows - mean) ** 2).mean(axis=1, keepdims=True)
    out = (rows - mean) / np.sqrt(var + epsilon) * weight + bias
    return out.reshape(x.shape).astype(x.dtype), mean[:, 0].astype(x.dtype), \
        var[:, 0].astype(x.dtype)


LN_CASES = [((4, 5), 1), ((1, 7), 1), ((2, 3, 4), 1), ((2, 3, 4), 2), ((3, 1, 5), 2),
            ((2, 2, 3, 2), 3), ((2, 1), 1)]


def layer_norm_samples(dtype, rng):
    for shape, axis in LN_CASES:
        right = int(np.prod(shape[axis:]))
        yield Sample((make(shape, dtype, rng), make((right,), dtype, rng),
                      make((right,), dtype, rng)), {"begin_norm_axis": axis, "epsilon": 1e-3},
                     f"{shape} begin_norm_axis={axis}")
    yield Sample((make((3, 4), dtype, rng), make((4,), dtype, rng), make((4,), dtype, rng)),
                 {}, "default attributes")


def layer_norm_errors(rng):
    x = make((2, 4, 5), np.float32, rng)
    v20, v5 = make((20,), np.float32, rng), make((5,), np.float32, rng)
    yield ErrorInput(Sample((x, v5, v20)), ValueError,
                     r"layer_norm: weight must have shape \[20\].*\[4, 5\].*got \[5\]")
    yield ErrorInput(Sample((x, v5, v20), {"begin_norm_axis": 2}), ValueError,
                     r"bias must have shape \[5\]")
    yield ErrorInput(Sample((x.astype(np.int64), v20, v20)), TypeError, "int64")
    yield ErrorInput(Sample((x, v20.astype(np.float64), v20)), TypeError, "float64")
    yield ErrorInput(Sample((x, v20, v20), {"begin_norm_axis": 0}), ValueError,
                     "begin_norm_axis")
    yield ErrorInput(Sample((x, v5, v5), {"begin_norm_axis": 3}), ValueError,
                     "begin_norm_axis")


def _layer_norm_grad_ref(x, weight, mean, variance, out_grad, epsilon=EPS, begin_norm_axis=1):
    """Through xhat = (x - mean(x)) / sqrt(var(x) + eps) over each row of m elements:
    dx = inv_std / m * (m gw - sum(gw) - xhat sum(gw xhat)) with gw = g * weight."""
    rows = x.astype(np.float64).reshape(mean.shape[0], -1)
    g = out_grad.astype(np.float64).reshape(rows.shape)
    m = rows.shape[1]
    inv_std = 1 / np.sqrt(variance.astype(np.float64)[:, None] + epsilon)
    xhat = (rows - mean[:, None]) * inv_std
    gw = g * weight
    dx = inv_std / m * (m * gw - gw.sum(axis=1, keepdims=True)
                        - xhat * (gw * xhat).sum(axis=1, keepdims=True))
    return (dx.reshape(x.shape).astype(x.dtype), (g * xhat).sum(axis=0).astype(x.dtype),
            g.sum(axis=0).astype(x.dtype))


def layer_norm_grad_samples(dtype, rng):
    for shape, axis in LN_CASES:
        x = make(shape, dtype, rng)
        rows = x.astype(np.float64).reshape(int(np.prod(shape[:axis])), -1)
        yield Sample((x, make((rows.shape[1],), dtype, rng), rows.mean(axis=1).astype(dtype),
                      rows.var(axis=1).astype(dtype), make(shape, dtype, rng)),
                     {"begin_norm_axis": axis}, f"{shape} begin_norm_axis={axis}")


def layer_norm_grad_errors(rng):
    x = make((2, 4, 5), np.float32, rng)
    v2, v20 = make_positive((2,), np.float32, rng), make((20,), np.float32, rng)
    yield ErrorInput(Sample((x, v20, make((3,), np.float32, rng), v2, x)), ValueError,
                     r"mean must have shape \[2\]")
    yield ErrorInput(Sample((x, v20[:4], v2, v2, x)), ValueError, r"weight must have shape")
    yield ErrorInput(Sample((x.astype(np.int32), v20, v2, v2, x)), TypeError, "int32")


TOL = {np.float32: (1e-4, 1e-5)}

OPS = [
    OpInfo("batch_norm", _batch_norm_ref, batch_norm_samples, gradgrad=True, tol=TOL,
           errors=batch_norm_errors),
    OpInfo("batch_norm_grad", _batch_norm_grad_ref, batch_norm_grad_samples, grad=False,
           tol=TOL, errors=batch_norm_grad_errors),
    OpInfo("layer_norm", _layer_norm_ref, layer_norm_samples, gradgrad=True, tol=TOL,
           errors=layer_norm_errors),
    OpInfo("layer_norm_grad", _layer_norm_grad_ref, layer_norm_grad_samples, grad=False,
           tol=TOL, errors=layer_norm_grad_errors),
]
