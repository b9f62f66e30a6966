"""Compiled equivalents of ``dygrad._core.dispatch.apply``/``binary`` and of recording a
``Node``; the pure-Python functions there are the meaning, line for line.

The Tensors and Nodes made here are the reference classes (created with ``__new__`` and
their slots set), so a graph recorded on this engine is walked by the reference backward
and the other way round. Rare shapes of call (variadic and random ops, mixed operands)
go to the reference functions. ``set_omp_threads`` sets OpenMP's thread count.
"""

cdef extern from *:
    """
    #ifdef _OPENMP
    #include <omp.h>
    static void dy_set_omp_threads(int n) { omp_set_num_threads(n); }
    static int dy_get_omp_threads(void) { return omp_get_max_threads(); }
    #else
    static void dy_set_omp_threads(int n) { (void)n; }
    static int dy_get_omp_threads(void) { return 1; }
    #endif
    """
    void dy_set_omp_threads(int n) noexcept nogil
    int dy_get_omp_threads() noexcept nogil


def set_omp_threads(int n):
    """Threads for the ``prange`` loops of every compiled kernel (no-op without OpenMP)."""
    dy_set_omp_threads(n)


def get_omp_threads():
    return dy_get_omp_threads()


cdef object _kernels, _array_type, _ensure, _Tensor, _Node, _grad_mode
cdef object _leaf_edge, _explain, _wrap_outputs, _ref_apply, _as_operands
cdef object _new = object.__new__


def configure(kernels, array_type, ensure):
    """Bind the engine's kernels and the reference classes and functions (once per engine)."""
    global _kernels, _array_type, _ensure, _Tensor, _Node, _grad_mode
    global _leaf_edge, _explain, _wrap_outputs, _ref_apply, _as_operands
    from dygrad._core import autograd, dispatch
    from dygrad._core.tensor import Tensor
    _kernels, _array_type, _ensure = kernels, array_type, ensure
    _Tensor, _Node, _grad_mode, _leaf_edge = Tensor, autograd.Node, autograd.grad_mode, autograd._leaf_edge
    _explain, _wrap_outputs = dispatch._explain, dispatch._wrap_outputs
    _ref_apply, _as_operands = dispatch.REFERENCE_PATHS["apply"], dispatch.as_operands


cdef object _node(op, dict attrs, tuple inputs, tuple outputs):
    """``Node(op, attrs, inputs, outputs)`` for a non-variadic op."""
    cdef object n = _new(_Node)
    cdef list edges = [], meta = []
    cdef dict saved
    cdef tuple names, outs
    cdef Py_ssize_t i
    op_attrs = op.attrs
    n.op = op
    n.attrs = {**op_attrs, **attrs} if attrs else op_attrs
    for t in inputs:
        d = t._data
        meta.append((d.shape, d.dtype))
        if t.stop_gradient:
            edges.append(None)
        else:
            fn = t._grad_fn
            edges.append((fn, t._out_idx) if fn is not None else _leaf_edge(t))
    n.next_edges = edges
    n.in_meta = meta
    n.out_meta = [(t._data.shape, t._data.dtype) for t in outputs]
    n._freed = False
    n.pre_hooks = None
    saves = op.saves
    if saves:
        saved = {}
        names, outs = op.inputs, op.outputs
        for name in saves:
            if name in outs:
                i = outs.index(name)
                t = outputs[i]
                box = t._version
                saved[name] = (t._data, box, box[0], i, t.stop_gradient)
            else:
                t = inputs[names.index(name)]
                box = t._version
                saved[name] = (t, box, box[0], None, None)
        n._saved = saved
    else:
        n._saved = None
    return n


def apply(op, *inputs, **attrs):
    """Run ``op`` on Tensors ``inputs`` with attributes ``attrs``; record it if needed."""
    if op.variadic or op.random:
        return _ref_apply(op, *inputs, **attrs)
    cdef list arrays = [t._data for t in inputs]
    cdef bint need = False
    try:
        out = _kernels[op.name](*arrays, **attrs)
    except Exception as exc:
        _explain(op, exc, arrays, attrs)
        raise
    if _grad_mode.enabled and op.grad is not None:
        for t in inputs:
            if not t.stop_gradient:
                need = True
                break
    cls = type(out)
    if cls is tuple:
        return _wrap_outputs(op, out, need, inputs, attrs)
    if cls is not _array_type:
        out = _ensure(out)
    t = _new(_Tensor)
    t._data = out
    t.stop_gradient = not need
    t._version = [0]
    t._grad_fn = _node(op, attrs, inputs, (t,)) if need else None
    return t


def binary(op, x, y):
    """Apply a binary op after making both operands Tensors of one dtype."""
    T = _Tensor
    if type(x) is T and type(y) is T and x._data.dtype is y._data.dtype:  # the hot path
        return apply(op, x, y)
    x, y = _as_operands(op.name, x, y)
    return apply(op, x, y)
