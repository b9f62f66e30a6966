"""Typed loops of the conv family (convolutions and pooling); the glue is in ``cpu_conv.py``.

Images are C-contiguous float32/float64 ``[N, C, H, W]`` (pooling: ``[planes, H, W]``) and
the caller allocates every output. The loops run on one thread, without the GIL: on the
shared 2-core machines they were measured on, an OpenMP region over the batch cost a
LeNet step more than it saved whenever the cores were busy (the products' threads are
BLAS's).

A window's row ``i`` reads input row ``y * stride - pad + i * dilation``; positions outside
the image are padding. The project-wide directives switch off bounds and wraparound checks,
so nothing here indexes with negative numbers.
"""

from libc.math cimport INFINITY
from libc.string cimport memset

ctypedef fused real:
    float
    double

ctypedef fused index_t:
    int
    long long


cdef inline Py_ssize_t _lo(Py_ssize_t off, Py_ssize_t stride, Py_ssize_t out) noexcept nogil:
    """The first output o in [0, out] whose read o * stride + off is not before 0."""
    cdef Py_ssize_t a = 0
    if off < 0:
        a = (-off + stride - 1) // stride
    return a if a < out else out


cdef inline Py_ssize_t _hi(Py_ssize_t off, Py_ssize_t stride, Py_ssize_t size, Py_ssize_t out,
                           Py_ssize_t lo) noexcept nogil:
    """The end (>= lo) of the outputs from lo on whose read o * stride + off is before size."""
    cdef Py_ssize_t b = 0
    if size - 1 - off >= 0:
        b = (size - 1 - off) // stride + 1
    b = b if b < out else out
    return b if b > lo else lo


# im2col and col2im when a window's columns are consecutive input columns (column stride
# and dilation 1: most convolutions), in C with restrict pointers: each window row is then a
# plain copy (an add) of consecutive elements that the compiler vectorises without checking
# at every row whether input and output overlap (seven instructions per element before,
# most of a LeNet convolution's time outside the matrix products). The loops are those of
# ``_im2col``/``_col2im`` below, which stay the meaning and take every other case.
cdef extern from *:
    """
    static inline Py_ssize_t dy_clamp(Py_ssize_t v, Py_ssize_t lo, Py_ssize_t hi) {
        return v < lo ? lo : (v > hi ? hi : v);
    }
    /* the outputs o in [lo, hi) whose read o * stride + off lies in [0, size) */
    static inline void dy_span(Py_ssize_t off, Py_ssize_t stride, Py_ssize_t size,
                               Py_ssize_t out, Py_ssize_t *lo, Py_ssize_t *hi) {
        Py_ssize_t a = off < 0 ? (-off + stride - 1) / stride : 0;
        Py_ssize_t b = size - 1 - off >= 0 ? (size - 1 - off) / stride + 1 : 0;
        *lo = dy_clamp(a, 0, out);
        *hi = dy_clamp(b, *lo, out);
    }
    /* the sizes, in the order of _im2col's arguments after the two arrays, less sw, dw */
    #define DY_COLS_SIZES(a)                                                              \
        Py_ssize_t n = a[0], c = a[1], h = a[2], w = a[3], kh = a[4], kw = a[5],          \
                   sh = a[6], ph = a[7], pw = a[8], dh = a[9], oh = a[10], ow = a[11],    \
                   sn = a[12], sr = a[13];
    #define DY_COLS_S1(IM2COL, COL2IM, T)                                               \
    static void IM2COL(const T *restrict x, T *restrict cols, const Py_ssize_t *a) {      \
        DY_COLS_SIZES(a)                                                                  \
        for (Py_ssize_t b = 0; b < n; b++) for (Py_ssize_t ch = 0; ch < c; ch++)         \
        for (Py_ssize_t i = 0; i < kh; i++) {                                             \
            Py_ssize_t ylo, yhi;                                                          \
            dy_span(i * dh - ph, sh, h, oh, &ylo, &yhi);                                  \
            for (Py_ssize_t j = 0; j < kw; j++) {                                         \
                Py_ssize_t off = j - pw, lo, hi;                                          \
                dy_span(off, 1, w, ow, &lo, &hi);                                         \
                T *restrict dst = cols + b * sn + ((ch * kh + i) * kw + j) * sr;          \
                for (Py_ssize_t y = 0; y < oh; y++) {                                     \
                    T *restrict d = dst + y * ow;                                         \
                    if (y < ylo || y >= yhi) {                                            \
                        for (Py_ssize_t o = 0; o < ow; o++) d[o] = 0;                     \
                        continue;                                                         \
                    }                                                                     \
                    const T *restrict src =                                               \
                        x + ((b * c + ch) * h + y * sh - ph + i * dh) * w + off;          \
                    for (Py_ssize_t o = 0; o < lo; o++) d[o] = 0;                         \
                    for (Py_ssize_t o = lo; o < hi; o++) d[o] = src[o];                   \
                    for (Py_ssize_t o = hi; o < ow; o++) d[o] = 0;                        \
                }                                                                         \
            }                                                                             \
        }                                                                                 \
    }                                                                                     \
    static void COL2IM(const T *restrict cols, T *restrict x, const Py_ssize_t *a) {      \
        DY_COLS_SIZES(a)                                                                  \
        for (Py_ssize_t b = 0; b < n; b++) {                                              \
            memset(x + b * c * h * w, 0, c * h * w * sizeof(T));                          \
            for (Py_ssize_t ch = 0; ch < c; ch++) for (Py_ssize_t i = 0; i < kh; i++) {   \
                Py_ssize_t ylo, yhi;                                                      \
                dy_span(i * dh - ph, sh, h, oh, &ylo, &yhi);                              \
                for (Py_ssize_t j = 0; j < kw; j++) {                                     \
                    Py_ssize_t off = j - pw, lo, hi;                                      \
                    dy_span(off, 1, w, ow, &lo, &hi);                                     \
                    const T *restrict src = cols + b * sn + ((ch * kh + i) * kw + j) * sr; \
                    for (Py_ssize_t y = ylo; y < yhi; y++) {                              \
                        T *restrict d = x + ((b * c + ch) * h + y * sh - ph + i * dh) * w \
                                        + off;                                            \
                        const T *restrict s = src + y * ow;                               \
                        for (Py_ssize_t o = lo; o < hi; o++) d[o] += s[o];                \
                    }                                                                     \
                }                                                                         \
            }                                                                             \
        }                                                                                 \
    }
    DY_COLS_S1(dy_im2col_s1_f, dy_col2im_s1_f, float)
    DY_COLS_S1(dy_im2col_s1_d, dy_col2im_s1_d, double)
    """
    void dy_im2col_s1_f(const float*, float*, const Py_ssize_t*) noexcept nogil
    void dy_im2col_s1_d(const double*, double*, const Py_ssize_t*) noexcept nogil
    void dy_col2im_s1_f(const float*, float*, const Py_ssize_t*) noexcept nogil
    void dy_col2im_s1_d(const double*, double*, const Py_ssize_t*) noexcept nogil


cdef inline void _unit_stride(const real* src, real* dst, bint adjoint,
                              const Py_ssize_t* sizes) noexcept nogil:
    """The C loop for src's dtype: im2col (x into cols), or col2im when ``adjoint``."""
    if real is float:
        (dy_col2im_s1_f if adjoint else dy_im2col_s1_f)(src, dst, sizes)
    else:
        (dy_col2im_s1_d if adjoint else dy_im2col_s1_d)(src, dst, sizes)

cdef void _im2col(const real* x, real* cols, Py_ssize_t n, Py_ssize_t c, Py_ssize_t h,
                  Py_ssize_t w, Py_ssize_t kh, Py_ssize_t kw, Py_ssize_t sh, Py_ssize_t sw,
                  Py_ssize_t ph, Py_ssize_t pw, Py_ssize_t dh, Py_ssize_t dw, Py_ssize_t oh,
                  Py_ssize_t ow, Py_ssize_t sn, Py_ssize_t sr) noexcept nogil:
    cdef Py_ssize_t b, ch, i, j, y, o, iy, off, lo, hi, ylo, yhi
    cdef const real* src
    cdef real* dst
    cdef Py_ssize_t[14] sizes = [n, c, h, w, kh, kw, sh, ph, pw, dh, oh, ow, sn, sr]
    if sw == 1 and dw == 1:
        _unit_stride(x, cols, False, sizes)
        return
    for b in range(n):
        for ch in range(c):
            for i in range(kh):
                ylo = _lo(i * dh - ph, sh, oh)
                yhi = _hi(i * dh - ph, sh, h, oh, ylo)
                for j in range(kw):
                    off = j * dw - pw
                    lo = _lo(off, sw, ow)
                    hi = _hi(off, sw, w, ow, lo)
                    dst = cols + b * sn + ((ch * kh + i) * kw + j) * sr
                    for y in range(oh):
                        if y < ylo or y >= yhi:
                            for o in range(ow):
                                dst[y * ow + o] = 0
                            continue
                        iy = y * sh - ph + i * dh
                        src = x + ((b * c + ch) * h + iy) * w
                        for o in range(lo):
                            dst[y * ow + o] = 0
                        if sw == 1:
                            for o in range(lo, hi):
                                dst[y * ow + o] = src[o + off]
                        else:
                            for o in range(lo, hi):
                                dst[y * ow + o] = src[o * sw + off]
                        for o in range(hi, ow):
                            dst[y * ow + o] = 0


cdef void _col2im(const real* cols, real* x, Py_ssize_t n, Py_ssize_t c, Py_ssize_t h,
                  Py_ssize_t w, Py_ssize_t kh, Py_ssize_t kw, Py_ssize_t sh, Py_ssize_t sw,
                  Py_ssize_t ph, Py_ssize_t pw, Py_ssize_t dh, Py_ssize_t dw, Py_ssize_t oh,
                  Py_ssize_t ow, Py_ssize_t sn, Py_ssize_t sr) noexcept nogil:
    cdef Py_ssize_t b, ch, i, j, y, o, iy, off, lo, hi, ylo, yhi
    cdef const real* src
    cdef real* dst
    cdef Py_ssize_t[14] sizes = [n, c, h, w, kh, kw, sh, ph, pw, dh, oh, ow, sn, sr]
    if sw == 1 and dw == 1:
        _unit_stride(cols, x, True, sizes)
        return
    for b in range(n):
        memset(x + b * c * h * w, 0, c * h * w * sizeof(real))
        for ch in range(c):
            for i in range(kh):
                ylo = _lo(i * dh - ph, sh, oh)
                yhi = _hi(i * dh - ph, sh, h, oh, ylo)
                for j in range(kw):
                    off = j * dw - pw
                    lo = _lo(off, sw, ow)
                    hi = _hi(off, sw, w, ow, lo)
                    src = cols + b * sn + ((ch * kh + i) * kw + j) * sr
                    for y in range(ylo, yhi):
                        iy = y * sh - ph + i * dh
                        dst = x + ((b * c + ch) * h + iy) * w
                        if sw == 1:
                            for o in range(lo, hi):
                                dst[o + off] += src[y * ow + o]
                        else:
                            for o in range(lo, hi):
                                dst[o * sw + off] += src[y * ow + o]


def im2col(real[:, :, :, ::1] x, real[::1] cols, kernel, strides, paddings, dilations,
           out, Py_ssize_t sn, Py_ssize_t sr):
    """cols[n * sn + ((c * KH + i) * KW + j) * sr + y * OW + o] = x[n, c] at window (y, o)'s
    position (i, j), 0 in the padding; kernel/strides/dilations/out are (rows, columns),
    paddings the (before, after) pairs."""
    if cols.shape[0] == 0:
        return
    cdef Py_ssize_t[10] a = [kernel[0], kernel[1], strides[0], strides[1], paddings[0][0],
                             paddings[1][0], dilations[0], dilations[1], out[0], out[1]]
    with nogil:
        _im2col(&x[0, 0, 0, 0], &cols[0], x.shape[0], x.shape[1], x.shape[2], x.shape[3],
                a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], sn, sr)


def col2im(real[::1] cols, real[:, :, :, ::1] x, kernel, strides, paddings, dilations,
           out, Py_ssize_t sn, Py_ssize_t sr):
    """The adjoint of ``im2col``: x = zeros, then every entry of cols added at the position of
    x it was read from."""
    if x.shape[0] == 0 or x.shape[1] == 0 or x.shape[2] == 0 or x.shape[3] == 0:
        return
    if cols.shape[0] == 0:
        x[...] = 0
        return
    cdef Py_ssize_t[10] a = [kernel[0], kernel[1], strides[0], strides[1], paddings[0][0],
                             paddings[1][0], dilations[0], dilations[1], out[0], out[1]]
    with nogil:
        _col2im(&cols[0], &x[0, 0, 0, 0], x.shape[0], x.shape[1], x.shape[2], x.shape[3],
                a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], sn, sr)


# ``_max_pool`` for 2x2 windows, stride 2, no padding, every window inside the image (LeNet's
# pooling): the same four comparisons in the same order, written so that the compiler makes
# them selects (a maximum and an index blend) rather than branches: on random data every
# other branch was a misprediction.
cdef extern from *:
    """
    #define DY_MAX_POOL_2X2(NAME, T)                                                   \
    static void NAME(const T *x, T *out, int *mask, Py_ssize_t planes, Py_ssize_t h,   \
                     Py_ssize_t w, Py_ssize_t oh, Py_ssize_t ow) {                     \
        for (Py_ssize_t p = 0; p < planes; p++)                                        \
            for (Py_ssize_t y = 0; y < oh; y++) {                                      \
                const T *r0 = x + (p * h + 2 * y) * w, *r1 = r0 + w;                   \
                T *o_out = out + (p * oh + y) * ow;                                    \
                int *o_mask = mask + (p * oh + y) * ow;                                \
                int top = (int)(2 * y * w), wi = (int)w;                               \
                for (Py_ssize_t o = 0; o < ow; o++) {                                  \
                    int at = top + 2 * (int)o, gt;                                     \
                    T v = r0[2 * o], best = v > -INFINITY ? v : -INFINITY;             \
                    v = r0[2 * o + 1]; gt = v > best; best = gt ? v : best;            \
                    at += gt;                                                          \
                    v = r1[2 * o]; gt = v > best; best = gt ? v : best;                \
                    at += gt * (top + wi + 2 * (int)o - at);                           \
                    v = r1[2 * o + 1]; gt = v > best; best = gt ? v : best;            \
                    at += gt * (top + wi + 2 * (int)o + 1 - at);                       \
                    o_out[o] = best;                                                   \
                    o_mask[o] = at;                                                    \
                }                                                                      \
            }                                                                          \
    }
    DY_MAX_POOL_2X2(dy_max_pool_2x2_f, float)
    DY_MAX_POOL_2X2(dy_max_pool_2x2_d, double)
    """
    void dy_max_pool_2x2_f(const float*, float*, int*, Py_ssize_t, Py_ssize_t, Py_ssize_t,
                           Py_ssize_t, Py_ssize_t) noexcept nogil
    void dy_max_pool_2x2_d(const double*, double*, int*, Py_ssize_t, Py_ssize_t, Py_ssize_t,
                           Py_ssize_t, Py_ssize_t) noexcept nogil


cdef void _max_pool(const real* x, real* out, int* mask, Py_ssize_t planes, Py_ssize_t h,
                    Py_ssize_t w, Py_ssize_t kh, Py_ssize_t kw, Py_ssize_t sh, Py_ssize_t sw,
                    Py_ssize_t ph, Py_ssize_t pw, Py_ssize_t oh, Py_ssize_t ow,
                    real lowest) noexcept nogil:
    cdef Py_ssize_t p, y, o, i, j, iy, ix, ylo, yhi, xlo, xhi, at
    cdef real best, v
    cdef const real* img
    if kh == 2 and kw == 2 and sh == 2 and sw == 2 and ph == 0 and pw == 0 and (
            2 * oh <= h and 2 * ow <= w):
        if real is float:
            dy_max_pool_2x2_f(x, out, mask, planes, h, w, oh, ow)
        else:
            dy_max_pool_2x2_d(x, out, mask, planes, h, w, oh, ow)
        return
    for p in range(planes):
        img = x + p * h * w
        for y in range(oh):
            iy = y * sh - ph
            ylo = iy if iy > 0 else 0
            yhi = iy + kh if iy + kh < h else h
            for o in range(ow):
                ix = o * sw - pw
                xlo = ix if ix > 0 else 0
                xhi = ix + kw if ix + kw < w else w
                best = -INFINITY
                at = -1                   # where a window with nothing above -inf points:
                if iy >= 0 and ix >= 0 and iy < h and ix < w:       # its first position
                    at = iy * w + ix
                for i in range(ylo, yhi):
                    for j in range(xlo, xhi):
                        v = img[i * w + j]
                        if v > best:
                            best = v
                            at = i * w + j
                out[(p * oh + y) * ow + o] = best if at >= 0 else lowest
                mask[(p * oh + y) * ow + o] = <int>at


def max_pool(real[:, :, ::1] x, real[:, :, ::1] out, int[:, :, ::1] mask, kernel, strides,
             paddings, double lowest):
    """out, mask = each window's first maximum and its flat index into H * W (a window with
    none above -inf: its first position, -1 and ``lowest`` when that is padding)."""
    if out.shape[0] == 0:
        return
    cdef Py_ssize_t[6] a = [kernel[0], kernel[1], strides[0], strides[1], paddings[0][0],
                            paddings[1][0]]
    with nogil:
        _max_pool(&x[0, 0, 0], &out[0, 0, 0], &mask[0, 0, 0], x.shape[0], x.shape[1],
                  x.shape[2], a[0], a[1], a[2], a[3], a[4], a[5], out.shape[1], out.shape[2],
                  <real>lowest)


def max_pool_grad(real[:, ::1] out_grad, index_t[:, ::1] mask, real[:, ::1] dx):
    """dx = zeros, then out_grad[p, k] added at dx[p, mask[p, k]] (nowhere outside [0, H W))."""
    cdef Py_ssize_t p, k, m, planes = dx.shape[0], hw = dx.shape[1], length = mask.shape[1]
    if planes == 0 or hw == 0:
        return
    with nogil:
        for p in range(planes):
            memset(&dx[p, 0], 0, hw * sizeof(real))
            for k in range(length):
                m = mask[p, k]
                if m >= 0 and m < hw:
                    dx[p, m] += out_grad[p, k]


def avg_pool(real[:, :, ::1] x, real[:, :, ::1] out, double[:, ::1] divisor, kernel, strides,
             paddings):
    """out = the sum of each window's elements inside x, over divisor."""
    cdef Py_ssize_t p, y, o, i, j, ylo, yhi, xlo, xhi
    cdef Py_ssize_t h = x.shape[1], w = x.shape[2], oh = out.shape[1], ow = out.shape[2]
    cdef Py_ssize_t kh = kernel[0], kw = kernel[1], sh = strides[0], sw = strides[1]
    cdef Py_ssize_t ph = paddings[0][0], pw = paddings[1][0]
    cdef double total
    if out.shape[0] == 0:
        return
    with nogil:
        for p in range(out.shape[0]):
            for y in range(oh):
                ylo = y * sh - ph
                yhi = ylo + kh
                ylo = ylo if ylo > 0 else 0
                yhi = yhi if yhi < h else h
                for o in range(ow):
                    xlo = o * sw - pw
                    xhi = xlo + kw
                    xlo = xlo if xlo > 0 else 0
                    xhi = xhi if xhi < w else w
                    total = 0
                    for i in range(ylo, yhi):
                        for j in range(xlo, xhi):
                            total = total + x[p, i, j]
                    out[p, y, o] = <real>(total / divisor[y, o])


def avg_pool_grad(real[:, :, ::1] out_grad, double[:, ::1] divisor, real[:, :, ::1] dx,
                  kernel, strides, paddings):
    """dx = zeros, then each window's out_grad over divisor added over its elements inside dx."""
    cdef Py_ssize_t p, y, o, i, j, ylo, yhi, xlo, xhi
    cdef Py_ssize_t h = dx.shape[1], w = dx.shape[2], oh = out_grad.shape[1]
    cdef Py_ssize_t ow = out_grad.shape[2], kh = kernel[0], kw = kernel[1]
    cdef Py_ssize_t sh = strides[0], sw = strides[1], ph = paddings[0][0], pw = paddings[1][0]
    cdef real g
    if dx.shape[0] == 0 or h == 0 or w == 0:
        return
    with nogil:
        for p in range(dx.shape[0]):
            memset(&dx[p, 0, 0], 0, h * w * sizeof(real))
            for y in range(oh):
                ylo = y * sh - ph
                yhi = ylo + kh
                ylo = ylo if ylo > 0 else 0
                yhi = yhi if yhi < h else h
                for o in range(ow):
                    xlo = o * sw - pw
                    xhi = xlo + kw
                    xlo = xlo if xlo > 0 else 0
                    xhi = xhi if xhi < w else w
                    g = <real>(out_grad[p, y, o] / divisor[y, o])
                    for i in range(ylo, yhi):
                        for j in range(xlo, xhi):
                            dx[p, i, j] += g
