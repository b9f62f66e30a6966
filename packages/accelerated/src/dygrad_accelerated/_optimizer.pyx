"""Typed loops of the optimizer family: each update rule in one pass over the parameter's
elements, written in place; ``cpu_optimizer.py`` calls them and falls back to the reference
kernel when they decline the arrays.

Each ``def`` takes the rule's arrays as a tuple, the parameter's first, and returns False
(touching nothing) unless they are writable, C-contiguous and all float32 or all float64,
the leading ones of the parameter's shape and the rest (learning rate, beta powers) of one
element. The arrays are read through the buffer protocol, which costs far less per call than
typed memoryviews: most parameters are small, and an optimizer step calls one rule per
parameter.

Every element's arithmetic is the reference kernel's, operation by operation, in the
parameter's dtype (``real``): the rule's scalars are rounded to ``real`` before the loop
(first to float32, ``<float>``, where Paddle keeps them as C++ floats) and every
intermediate is a ``real``, so results are rounded where NumPy rounds them. Parameters of
``SHARE_MIN`` elements or more are cut into pieces that the workers of ``_linalg``'s pool
share when it has some (``dy_pool_api.h``), else from ``PARALLEL_MIN`` into blocks over
OpenMP's threads; each element's arithmetic is the same either way.
"""

from cpython.buffer cimport (PyBUF_C_CONTIGUOUS, PyBUF_FORMAT, PyBUF_WRITABLE,
                             PyBuffer_Release, PyObject_GetBuffer)
from cython.parallel cimport prange
from libc.math cimport fabs, sqrt, sqrtf

from ._pool cimport dy_pool_api, dy_pool_import

ctypedef fused real:
    float
    double

cdef enum:
    MAX_ARRAYS = 8
    BLOCK = 1 << 15
    PARALLEL_MIN = 1 << 18  # below this, starting OpenMP's threads costs more than it saves
    SHARE_MIN = 1 << 14     # from here, when _linalg's pool has workers, they share the loop
    SHARE_PIECES = 2        # pieces per thread

cdef const dy_pool_api* _pool = dy_pool_import()


cdef class _Arrays:
    """The data of an update's arrays (see the module's doc); ``ok`` says whether the loops
    can run on them. The buffers are released with the object."""
    cdef Py_buffer views[MAX_ARRAYS]
    cdef void* data[MAX_ARRAYS]
    cdef int held
    cdef bint ok, wide
    cdef Py_ssize_t n

    def __cinit__(self, tuple arrays, int full):
        cdef int i, k
        cdef Py_buffer* v
        cdef const char* fmt
        self.held = 0
        self.ok = False
        for a in arrays:
            try:
                PyObject_GetBuffer(a, &self.views[self.held],
                                   PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | PyBUF_WRITABLE)
            except (BufferError, ValueError, TypeError):
                return
            self.data[self.held] = self.views[self.held].buf
            self.held += 1
        fmt = self.views[0].format
        if fmt[1] != 0 or not (fmt[0] == b"f" or fmt[0] == b"d"):
            return
        for i in range(self.held):
            v = &self.views[i]
            if v.format[0] != fmt[0] or v.format[1] != 0:
                return
            if i < full:
                if v.ndim != self.views[0].ndim:
                    return
                for k in range(v.ndim):
                    if v.shape[k] != self.views[0].shape[k]:
                        return
            elif v.len != v.itemsize:
                return
        self.wide = fmt[0] == b"d"
        self.n = self.views[0].len // self.views[0].itemsize
        self.ok = True

    def __dealloc__(self):
        cdef int i
        for i in range(self.held):
            PyBuffer_Release(&self.views[i])


cdef inline real _sqrt(real x) noexcept nogil:
    if real is float:
        return sqrtf(x)
    else:
        return sqrt(x)


ctypedef void (*rule_f)(float** x, Py_ssize_t lo, Py_ssize_t hi, const double* attrs) noexcept nogil
ctypedef void (*rule_d)(double** x, Py_ssize_t lo, Py_ssize_t hi, const double* attrs) noexcept nogil


cdef struct _Job:
    void** data
    Py_ssize_t n, step
    bint wide
    rule_f rule32
    rule_d rule64
    const double* attrs


cdef void _piece(void* ctx, int i) noexcept nogil:
    """Elements [i step, (i + 1) step) of a job's rule (a piece the pool's threads share)."""
    cdef _Job* j = <_Job*>ctx
    cdef Py_ssize_t lo = i * j.step, hi = min(j.n, lo + j.step)
    if j.wide:
        j.rule64(<double**>j.data, lo, hi, j.attrs)
    else:
        j.rule32(<float**>j.data, lo, hi, j.attrs)


cdef _Arrays _run(tuple arrays, int full, rule_f rule32, rule_d rule64, const double* attrs):
    """Run a rule over elements [0, n) of ``arrays``: shared with the workers of _linalg's
    pool from SHARE_MIN elements when it has some (a W2 step's SGD on two threads: 14 -> 9
    us), else in blocks over OpenMP's threads from PARALLEL_MIN elements; None when the
    arrays are declined."""
    cdef _Arrays a = _Arrays(arrays, full)
    cdef Py_ssize_t b, n = a.n, blocks = (a.n + BLOCK - 1) // BLOCK
    cdef int workers
    cdef Py_ssize_t pieces
    cdef _Job job
    if not a.ok:
        return None
    workers = _pool.workers() if n >= SHARE_MIN else 0
    if workers:
        job.data, job.n, job.wide = a.data, n, a.wide
        job.rule32, job.rule64, job.attrs = rule32, rule64, attrs
        pieces = min(SHARE_PIECES * (workers + 1), n // (SHARE_MIN // 2))
        job.step = (n + pieces - 1) // pieces
        with nogil:
            _pool.run(_piece, &job, (n + job.step - 1) // job.step)
        return a
    with nogil:
        if n < PARALLEL_MIN:
            if a.wide:
                rule64(<double**>a.data, 0, n, attrs)
            else:
                rule32(<float**>a.data, 0, n, attrs)
        else:
            for b in prange(blocks, schedule="static"):
                if a.wide:
                    rule64(<double**>a.data, b * BLOCK, min(n, (b + 1) * BLOCK), attrs)
                else:
                    rule32(<float**>a.data, b * BLOCK, min(n, (b + 1) * BLOCK), attrs)
    return a


cdef void _scale_one(_Arrays a, int k, double factor) noexcept:
    """The one-element k-th array *= factor (rounded to the arrays' dtype): a beta power."""
    if a.wide:
        (<double*>a.data[k])[0] = (<double*>a.data[k])[0] * factor
    else:
        (<float*>a.data[k])[0] = (<float*>a.data[k])[0] * <float>factor




cdef void _sgd(real** x, Py_ssize_t lo, Py_ssize_t hi, const double* attrs) noexcept nogil:
    cdef real* p = x[0]
    cdef const real* g = x[1]
    cdef real rate = x[2][0]
    cdef Py_ssize_t i
    for i in range(lo, hi):
        p[i] = p[i] - rate * g[i]


def sgd(tuple arrays):
    """(param, grad, lr): param -= lr grad"""
    return _run(arrays, 2, _sgd[float], _sgd[double], NULL) is not None


cdef void _momentum(real** x, Py_ssize_t lo, Py_ssize_t hi, const double* attrs) noexcept nogil:
    cdef real* p = x[0]
    cdef const real* grad = x[1]
    cdef real* velocity = x[2]
    cdef real rate = x[3][0], mu = <real><float>attrs[0], c = <real><float>attrs[3]
    cdef real rs = <real><float>attrs[4], g, v
    cdef bint nesterov = attrs[1] != 0, l2 = attrs[2] != 0
    cdef Py_ssize_t i
    for i in range(lo, hi):
        g = rs * grad[i]
        if l2:
            g = g + c * p[i]
        v = velocity[i] * mu
        v = v + g
        velocity[i] = v
        if nesterov:
            p[i] = p[i] - (g + v * mu) * rate
        else:
            p[i] = p[i] - rate * v


def momentum(tuple arrays, double mu, bint use_nesterov, bint l2_decay, double coeff,
             double rescale_grad):
    """(param, grad, velocity, lr): g = rescale_grad g (+ coeff param with l2_decay);
    velocity = mu velocity + g; param -= lr velocity (Nesterov: lr (g + mu velocity))"""
    cdef double attrs[5]
    attrs[:] = [mu, use_nesterov, l2_decay, coeff, rescale_grad]
    return _run(arrays, 3, _momentum[float], _momentum[double], attrs) is not None


cdef void _adam(real** x, Py_ssize_t lo, Py_ssize_t hi, const double* attrs) noexcept nogil:
    cdef real* p = x[0]
    cdef const real* grad = x[1]
    cdef real* moment1 = x[2]
    cdef real* moment2 = x[3]
    cdef real b1 = <real>attrs[0], b2 = <real>attrs[1], eps = <real>attrs[2]
    cdef real rate = x[4][0] * <real><float>attrs[3]
    cdef real decay = rate * <real><float>attrs[4]
    cdef bint with_decay = attrs[5] != 0
    cdef real one_b1 = 1 - b1, one_b2 = 1 - b2
    cdef real corr2 = _sqrt(<real>(1 - x[6][0]))
    cdef real rate_t = rate * corr2 / <real>(1 - x[5][0])
    cdef real eps_t = eps * corr2
    cdef real q, g, m1, m2
    cdef Py_ssize_t i
    for i in range(lo, hi):
        q = p[i]
        g = grad[i]
        if with_decay:
            q = q - decay * q
        m1 = moment1[i] * b1
        m1 = m1 + one_b1 * g
        m2 = moment2[i] * b2
        m2 = m2 + one_b2 * g * g
        moment1[i] = m1
        moment2[i] = m2
        p[i] = q - rate_t * (m1 / (_sqrt(m2) + eps_t))


def adam(tuple arrays, double beta1, double beta2, double epsilon, double lr_ratio,
         double coeff, bint with_decay):
    """(param, grad, moment1, moment2, lr, beta1_pow, beta2_pow): AdamW's rule, lr_ratio
    and coeff as float32 (Adam's when not with_decay and lr_ratio is 1): with r = lr
    lr_ratio, param -= r coeff param, then Adam's moments and step with r; the powers are
    then multiplied by the betas"""
    cdef double attrs[6]
    attrs[:] = [beta1, beta2, epsilon, lr_ratio, coeff, with_decay]
    cdef _Arrays a = _run(arrays, 4, _adam[float], _adam[double], attrs)
    if a is None:
        return False
    _scale_one(a, 5, attrs[0])
    _scale_one(a, 6, attrs[1])
    return True


cdef void _rmsprop(real** x, Py_ssize_t lo, Py_ssize_t hi, const double* attrs) noexcept nogil:
    cdef real* p = x[0]
    cdef const real* grad = x[1]
    cdef real* mean_square = x[2]
    cdef real* mean_grad = x[3]
    cdef real* moment = x[4]
    cdef real rate = x[5][0], rho = <real><float>attrs[0], eps = <real><float>attrs[1]
    cdef real mom = <real><float>attrs[2], one_rho = 1 - rho, g, ms, mg, denom, v
    cdef bint centered = attrs[3] != 0
    cdef Py_ssize_t i
    for i in range(lo, hi):
        g = grad[i]
        ms = mean_square[i] * rho
        ms = ms + one_rho * g * g
        mean_square[i] = ms
        if centered:
            mg = mean_grad[i] * rho
            mg = mg + one_rho * g
            mean_grad[i] = mg
            denom = _sqrt(ms - mg * mg + eps)
        else:
            denom = _sqrt(ms + eps)
        v = moment[i] * mom
        v = v + rate * g / denom
        moment[i] = v
        p[i] = p[i] - v


def rmsprop(tuple arrays, double rho, double epsilon, double momentum, bint centered):
    """(param, grad, mean_square, mean_grad, moment, lr): ms = rho ms + (1 - rho) g^2
    (centered: mg likewise with g); moment = momentum moment + lr g / sqrt(ms (- mg^2) +
    eps); param -= moment"""
    cdef double attrs[4]
    attrs[:] = [rho, epsilon, momentum, centered]
    return _run(arrays, 5, _rmsprop[float], _rmsprop[double], attrs) is not None


cdef void _adagrad(real** x, Py_ssize_t lo, Py_ssize_t hi, const double* attrs) noexcept nogil:
    cdef real* p = x[0]
    cdef const real* grad = x[1]
    cdef real* moment = x[2]
    cdef real rate = x[3][0], eps = <real><float>attrs[0], g, m
    cdef Py_ssize_t i
    for i in range(lo, hi):
        g = grad[i]
        m = moment[i] + g * g
        moment[i] = m
        p[i] = p[i] - rate * g / (_sqrt(m) + eps)


def adagrad(tuple arrays, double epsilon):
    """(param, grad, moment, lr): moment += g^2; param -= lr g / (sqrt(moment) + eps)"""
    return _run(arrays, 3, _adagrad[float], _adagrad[double], &epsilon) is not None


cdef void _adadelta(real** x, Py_ssize_t lo, Py_ssize_t hi, const double* attrs) noexcept nogil:
    cdef real* p = x[0]
    cdef const real* grad = x[1]
    cdef real* sq_grad = x[2]
    cdef real* sq_update = x[3]
    cdef real rate = x[4][0], rho = <real><float>attrs[0], eps = <real><float>attrs[1]
    cdef real one_rho = 1 - rho, g, sg, su, u
    cdef Py_ssize_t i
    for i in range(lo, hi):
        g = grad[i]
        sg = sq_grad[i] * rho
        sg = sg + one_rho * g * g
        sq_grad[i] = sg
        u = -_sqrt((sq_update[i] + eps) / (sg + eps)) * g
        su = sq_update[i] * rho
        sq_update[i] = su + one_rho * u * u
        p[i] = p[i] + rate * u


def adadelta(tuple arrays, double rho, double epsilon):
    """(param, grad, avg_squared_grad, avg_squared_update, lr): E[g^2] = rho E[g^2] +
    (1 - rho) g^2; u = -sqrt((E[u^2] + eps) / (E[g^2] + eps)) g; E[u^2] = rho E[u^2] +
    (1 - rho) u^2; param += lr u"""
    cdef double attrs[2]
    attrs[:] = [rho, epsilon]
    return _run(arrays, 4, _adadelta[float], _adadelta[double], attrs) is not None


cdef void _adamax(real** x, Py_ssize_t lo, Py_ssize_t hi, const double* attrs) noexcept nogil:
    cdef real* p = x[0]
    cdef const real* grad = x[1]
    cdef real* moment = x[2]
    cdef real* inf_norm = x[3]
    cdef real b1 = <real><float>attrs[0], b2 = <real><float>attrs[1]
    cdef real eps = <real><float>attrs[2], one_b1 = 1 - b1
    cdef real step = x[4][0] / <real>(1 - x[5][0]), g, m, u, a
    cdef Py_ssize_t i
    for i in range(lo, hi):
        g = grad[i]
        m = moment[i] * b1
        m = m + one_b1 * g
        moment[i] = m
        u = b2 * inf_norm[i] + eps
        a = fabs(g)
        if not (u >= a or u != u):  # NumPy's maximum: NaN when either is
            u = a
        inf_norm[i] = u
        p[i] = p[i] - step * (m / u)


def adamax(tuple arrays, double beta1, double beta2, double epsilon):
    """(param, grad, moment, inf_norm, lr, beta1_pow): moment = beta1 moment + (1 - beta1)
    g; inf_norm = max(beta2 inf_norm + eps, |g|); param -= lr / (1 - beta1_pow) moment /
    inf_norm; beta1_pow *= beta1 (the exact one: Paddle's separate scale op)"""
    cdef double attrs[3]
    attrs[:] = [beta1, beta2, epsilon]
    cdef _Arrays a = _run(arrays, 4, _adamax[float], _adamax[double], attrs)
    if a is None:
        return False
    _scale_one(a, 5, beta1)
    return True



cdef object _Tensor = None, _Parameter = None


def update_params(str op, params_grads, lr, dict attrs, tuple before, tuple after):
    """The update op ``op`` (any rule above: 'sgd_', 'momentum_', 'adam_', 'adamw_',
    'rmsprop_', 'adagrad_', 'adadelta_', 'adamax_') on each (parameter, gradient) pair of
    ``params_grads`` in turn, as ``Optimizer._update`` runs it, and the parameter's version
    bumped: the optimizer's hook ``fast_paths['update_params']``. ``lr`` is the
    learning-rate Tensor, ``attrs`` the op's attributes (those of the rule's ``def`` above);
    ``before`` and ``after`` are the accumulator stores ({parameter name: Tensor}) whose
    arrays go before and after the learning rate in the op's inputs. Stops at the first pair
    it cannot update so (a Tensor other than a Tensor or Parameter, a regularizer, a
    learning-rate multiplier other than 1, an accumulator not yet made, arrays the loops
    decline) and returns how many it did."""
    global _Tensor, _Parameter
    cdef double a[6]
    cdef Py_ssize_t done = 0
    cdef int full, powers = 0  # beta powers (after the lr) scaled by the betas after the step
    cdef rule_f rule32
    cdef rule_d rule64
    if _Parameter is None:
        from dygrad._core.tensor import Parameter, Tensor
        _Tensor, _Parameter = Tensor, Parameter
    if op == "sgd_":
        full, rule32, rule64 = 2, _sgd[float], _sgd[double]
    elif op == "momentum_":
        full, rule32, rule64 = 3, _momentum[float], _momentum[double]
        a[:5] = [attrs["mu"], attrs["use_nesterov"], False, 0.0, attrs["rescale_grad"]]
    elif op == "adam_" or op == "adamw_":
        full, rule32, rule64, powers = 4, _adam[float], _adam[double], 2
        if op == "adam_":
            a[:] = [attrs["beta1"], attrs["beta2"], attrs["epsilon"], 1.0, 0.0, False]
        else:
            a[:] = [attrs["beta1"], attrs["beta2"], attrs["epsilon"], attrs["lr_ratio"],
                    attrs["coeff"], attrs["with_decay"]]
    elif op == "rmsprop_":
        full, rule32, rule64 = 5, _rmsprop[float], _rmsprop[double]
        a[:4] = [attrs["rho"], attrs["epsilon"], attrs["momentum"], attrs["centered"]]
    elif op == "adagrad_":
        full, rule32, rule64 = 3, _adagrad[float], _adagrad[double]
        a[0] = attrs["epsilon"]
    elif op == "adadelta_":
        full, rule32, rule64 = 4, _adadelta[float], _adadelta[double]
        a[:2] = [attrs["rho"], attrs["epsilon"]]
    elif op == "adamax_":
        full, rule32, rule64, powers = 4, _adamax[float], _adamax[double], 1
        a[:3] = [attrs["beta1"], attrs["beta2"], attrs["epsilon"]]
    else:
        return 0
    rate = lr._data
    for p, g in params_grads:
        cls = type(p)
        if cls is not _Parameter and cls is not _Tensor or getattr(p, "regularizer", None) is not None:
            break
        multiplier = getattr(p, "optimize_attr", None)
        if multiplier and multiplier.get("learning_rate", 1.0) != 1.0:
            break
        if before or after:
            name = p.name
            try:
                first = tuple([store[name]._data for store in before])
                last = tuple([store[name]._data for store in after])
            except KeyError:
                break
            arrays = (p._data, g._data, *first, rate, *last)
        else:  # SGD: no accumulators, and no name to look them up by
            arrays = (p._data, g._data, rate)
        taken = _run(arrays, full, rule32, rule64, a)
        if taken is None:
            break
        if powers >= 1:
            _scale_one(taken, 5, a[0])
        if powers == 2:
            _scale_one(taken, 6, a[1])
        p._version[0] += 1
        done += 1
    return done
