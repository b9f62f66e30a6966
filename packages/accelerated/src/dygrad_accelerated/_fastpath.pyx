"""Compiled equivalents of ``dygrad._core.dispatch.apply``/``binary``, of recording a
``Node`` and of ``autograd.run_backward``; the pure-Python functions there are the
meaning, line for line.

The Tensors and Nodes made here are the reference classes (created with ``__new__`` and
their slots set), so a graph recorded on this engine is walked by the reference backward
and the other way round. Rare shapes of call (variadic and random ops, mixed operands)
go to the reference functions. ``set_omp_threads`` sets OpenMP's thread count.

The slots of the Tensors and Nodes (``_data``, ``stop_gradient``, ``op``, ...) are read and
written at their offsets in the object, as CPython's member descriptors do, without the
attribute lookup by name: for a fresh Node or Tensor, and for inputs whose class is Tensor
or Parameter (other subclasses take ``getattr``).
"""

cimport numpy as cnp
from cpython.object cimport PyObject
from cpython.dict cimport PyDict_GetItemWithError
from cpython.ref cimport Py_INCREF, Py_REFCNT, Py_XDECREF
from cpython.weakref cimport PyWeakref_GetObject, PyWeakref_NewRef
from libc.string cimport memset

from ._pool cimport dy_pool_api, dy_pool_import

cdef extern from "Python.h":
    ctypedef struct PyMemberDef:
        Py_ssize_t offset
    ctypedef struct PyMemberDescrObject:
        PyMemberDef* d_member

# offsets of the slots
cdef Py_ssize_t T_DATA, T_STOP, T_GRAD_FN, T_VERSION
cdef Py_ssize_t N_OP, N_ATTRS, N_EDGES, N_IN_META, N_OUT_META, N_SAVED, N_FREED, N_HOOKS
cdef Py_ssize_t N_ORIGIN, A_TENSOR, G_ENABLED
cdef object _Parameter


cdef Py_ssize_t _offset(cls, str name) except -1:
    descr = cls.__dict__[name]
    if type(descr).__name__ != "member_descriptor":
        raise TypeError(f"{cls.__name__}.{name} is not a slot")
    return (<PyMemberDescrObject*><PyObject*>descr).d_member.offset


cdef inline void _put(object obj, Py_ssize_t off, object value) noexcept:
    """obj's slot at off = value (what PyMember_SetOne does)."""
    cdef PyObject** p = <PyObject**>((<char*><PyObject*>obj) + off)
    cdef PyObject* old = p[0]
    Py_INCREF(value)
    p[0] = <PyObject*>value
    Py_XDECREF(old)


cdef inline object _slot(object obj, Py_ssize_t off, str name):
    """obj's slot at off (getattr when obj's class is not Tensor or Parameter, or the slot is
    empty, so the usual AttributeError comes)."""
    cdef PyObject* v
    cls = type(obj)
    if cls is _Tensor or cls is _Parameter:
        v = (<PyObject**>((<char*><PyObject*>obj) + off))[0]
        if v != NULL:
            return <object>v
    return getattr(obj, name)


cdef void _bind_slots() except *:
    global T_DATA, T_STOP, T_GRAD_FN, T_VERSION, _Parameter
    global N_OP, N_ATTRS, N_EDGES, N_IN_META, N_OUT_META, N_SAVED, N_FREED, N_HOOKS, N_ORIGIN
    global A_TENSOR, G_ENABLED
    from dygrad._core.autograd import _GradMode
    from dygrad._core.tensor import Parameter
    _Parameter = Parameter
    T_DATA, T_STOP = _offset(_Tensor, "_data"), _offset(_Tensor, "stop_gradient")
    T_GRAD_FN, T_VERSION = _offset(_Tensor, "_grad_fn"), _offset(_Tensor, "_version")
    N_OP, N_ATTRS, N_EDGES = _offset(_Node, "op"), _offset(_Node, "attrs"), _offset(_Node, "next_edges")
    N_IN_META, N_OUT_META = _offset(_Node, "in_meta"), _offset(_Node, "out_meta")
    N_SAVED, N_FREED, N_HOOKS = _offset(_Node, "_saved"), _offset(_Node, "_freed"), _offset(_Node, "pre_hooks")
    N_ORIGIN, A_TENSOR = _offset(_Node, "origin"), _offset(_AccumulateGrad, "tensor")
    G_ENABLED = _offset(_GradMode, "enabled")


cdef inline bint _grad_enabled() except -1:
    """``bool(grad_mode.enabled)``, the slot read at its offset (a bool but for a backward's
    ``create_graph``, which may be any truthy value)."""
    cdef PyObject* v = (<PyObject**>((<char*><PyObject*>_grad_mode) + G_ENABLED))[0]
    if v == <PyObject*>True:
        return True
    if v == <PyObject*>False:
        return False
    return bool(<object>v)

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


cnp.import_array()


cdef inline object _dtype(d):
    """``d.dtype``; an ndarray's read from the array itself, without the attribute lookup."""
    if type(d) is cnp.ndarray:
        return (<cnp.ndarray>d).descr
    return d.dtype


cdef inline tuple _meta(d, tuple like):
    """``(d.shape, d.dtype)``, what a Node records of an array: ``like`` itself when it is
    the same shape and dtype (the tuple is immutable; an elementwise op's inputs and output
    share one)."""
    cdef cnp.ndarray a
    cdef Py_ssize_t j
    cdef tuple shape
    if type(d) is not cnp.ndarray:
        return (d.shape, d.dtype)
    a = <cnp.ndarray>d
    if like is not None and <object>like[1] is <object>a.descr:
        shape = <tuple>like[0]
        if len(shape) == a.ndim:
            for j in range(a.ndim):
                if <Py_ssize_t>shape[j] != a.shape[j]:
                    break
            else:
                return like
    return (cnp.PyArray_IntTupleFromIntp(a.ndim, a.shape), a.descr)


cdef object _kernels, _array_type, _ensure, _Tensor, _Node, _grad_mode
cdef object _note_cuts_py  # dispatch.note_cuts: marks where the tape was cut
cdef object _explain, _wrap_outputs, _ref_apply, _as_operands
cdef object _ref_run_backward, _AccumulateGrad, _BackwardError, _zeros
cdef object _backward_failed, _add
cdef bint _bare_raise_keeps_trim = True
# references to a leaf's old gradient while _add_into looks at it: the leaf's and the
# caller's variable (a cdef function's arguments are borrowed)
cdef Py_ssize_t _OLD_REFS = 2
# references to a parameter's gradient Tensor, and to its array, while clear_grads looks
# at them: the parameter's and clear_grads' variable; g's slot and two variables
cdef Py_ssize_t _GRAD_REFS = 2, _GRAD_DATA_REFS = 3
cdef Py_ssize_t ZERO_SHARE_MIN = 1 << 16  # bytes of zeros from which the pool's threads help
# references to a known-zero gradient's array while _known_zero looks at it: the Tensor's
# slot and the temporary of the call
cdef Py_ssize_t _ZERO_DATA_REFS = 2
cdef bint _record_origin = False
cdef extern from *:
    """
    /* object.__new__(cls) for a class whose instances need no arguments: its tp_alloc,
       which is what object_new calls after checking the (absent) arguments */
    static PyObject *dy_new(PyObject *cls) {
        return ((PyTypeObject *)cls)->tp_alloc((PyTypeObject *)cls, 0);
    }
    """
    object _new "dy_new"(object cls)
from weakref import ref as _weakref

from numpy import add as _np_add, array as _np_array, ndarray as _ndarray

from dygrad._core import device as _device


def _set_record_origin(flag):
    """Record each node's forward line (``dygrad._core.errors.set_record_origin``)."""
    global _record_origin
    _record_origin = flag


def configure(kernels, array_type, ensure):
    """Bind the engine's kernels and the reference classes and functions (once per engine)."""
    global _kernels, _array_type, _ensure, _Tensor, _Node, _grad_mode
    global _explain, _wrap_outputs, _ref_apply, _as_operands, _AccumulateGrad
    global _backward_failed, _framework_files, _is_framework_file, _bare_raise_keeps_trim
    from dygrad._core import autograd, dispatch, errors
    _backward_failed = errors.backward_failed
    _bare_raise_keeps_trim = errors.BARE_RAISE_KEEPS_TRIM
    _framework_files, _is_framework_file = errors._framework_files, errors.is_framework_file
    from dygrad._core.tensor import Tensor
    _kernels, _array_type, _ensure = kernels, array_type, ensure
    _Tensor, _Node, _grad_mode = Tensor, autograd.Node, autograd.grad_mode
    _AccumulateGrad = autograd.AccumulateGrad
    _explain, _wrap_outputs = dispatch._explain, dispatch._wrap_outputs
    global _note_cuts_py
    _note_cuts_py = dispatch.note_cuts
    _ref_apply, _as_operands = dispatch.REFERENCE_PATHS["apply"], dispatch.as_operands
    _bind_slots()
    if _set_record_origin not in errors._listeners:
        errors.on_record_origin(_set_record_origin)


# The user's forward line of a Node, as ``errors.creation_site`` finds it: (code, lasti) of
# the innermost frame whose file is not the framework's (``errors.is_framework_file``, whose
# cache this shares), or None. Only the code object is kept, never a frame. On CPython 3.11
# and 3.12 the walk reads the interpreter's own frames (``internal/pycore_frame.h``, which
# Cython's tracebacks include too), as ``PyFrame_GetBack`` does, without making a frame
# object for each (half of a W1 ``a + b``'s recording); elsewhere it walks the frame objects
# through the C API.
cdef extern from *:
    """
    #if PY_VERSION_HEX >= 0x030B0000 && PY_VERSION_HEX < 0x030D0000 && !defined(PYPY_VERSION)
    #ifndef Py_BUILD_CORE
    #define Py_BUILD_CORE 1
    #define DY_UNDEF_BUILD_CORE
    #endif
    #include "internal/pycore_frame.h"
    #ifdef DY_UNDEF_BUILD_CORE
    #undef Py_BUILD_CORE
    #endif
    #define DY_FRAMES_DIRECT 1
    static _PyInterpreterFrame *dy_complete(_PyInterpreterFrame *f) {
        while (f != NULL && _PyFrame_IsIncomplete(f)) f = f->previous;
        return f;
    }
    static void *dy_top_frame(void) {
        return dy_complete(PyThreadState_Get()->cframe->current_frame);
    }
    static void *dy_back_frame(void *f) {
        return dy_complete(((_PyInterpreterFrame *)f)->previous);
    }
    static PyCodeObject *dy_frame_code(void *f) { return ((_PyInterpreterFrame *)f)->f_code; }
    static int dy_frame_lasti_direct(void *f) {  /* PyFrame_GetLasti */
        int lasti = _PyInterpreterFrame_LASTI((_PyInterpreterFrame *)f);
        return lasti < 0 ? -1 : lasti * (int)sizeof(_Py_CODEUNIT);
    }
    #else
    #define DY_FRAMES_DIRECT 0
    static void *dy_top_frame(void) { return NULL; }
    static void *dy_back_frame(void *f) { (void)f; return NULL; }
    static PyCodeObject *dy_frame_code(void *f) { (void)f; return NULL; }
    static int dy_frame_lasti_direct(void *f) { (void)f; return -1; }
    #endif
    #if PY_VERSION_HEX < 0x030B0000
    #include "code.h"
    #include "frameobject.h"
    static int dy_frame_lasti(PyFrameObject *f) {
        return f->f_lasti < 0 ? -1 : f->f_lasti * (int)sizeof(_Py_CODEUNIT);
    }
    #else
    static int dy_frame_lasti(PyFrameObject *f) { return PyFrame_GetLasti(f); }
    #endif
    static PyObject *dy_code_filename(PyCodeObject *code) { return code->co_filename; }
    """
    ctypedef struct PyFrameObject
    ctypedef struct PyCodeObject
    bint DY_FRAMES_DIRECT
    void* dy_top_frame() noexcept  # the innermost complete interpreter frame, or NULL
    void* dy_back_frame(void*) noexcept
    PyCodeObject* dy_frame_code(void*) noexcept  # borrowed
    int dy_frame_lasti_direct(void*) noexcept
    PyFrameObject* PyEval_GetFrame() noexcept  # borrowed
    PyFrameObject* PyFrame_GetBack(PyFrameObject*) noexcept  # new reference or NULL
    PyCodeObject* PyFrame_GetCode(PyFrameObject*) noexcept  # new reference
    int dy_frame_lasti(PyFrameObject*) noexcept
    PyObject* dy_code_filename(PyCodeObject*) noexcept  # borrowed

cdef dict _framework_files
cdef object _is_framework_file
cdef object _user_code = None, _framework_code = None  # the codes last classified


cdef inline object _creation_site():
    """``errors.creation_site()`` from the innermost Python frame."""
    cdef void* frame
    cdef PyCodeObject* c
    if DY_FRAMES_DIRECT:
        frame = dy_top_frame()
        while frame != NULL:
            c = dy_frame_code(frame)
            if _is_user_code(c):
                return (<object><PyObject*>c, dy_frame_lasti_direct(frame))
            frame = dy_back_frame(frame)
        return None
    cdef PyFrameObject* f = PyEval_GetFrame()
    cdef PyFrameObject* back
    cdef PyCodeObject* code
    if f != NULL:
        Py_INCREF(<object><PyObject*>f)  # the walk owns each frame, the first one too
    while f != NULL:
        code = PyFrame_GetCode(f)
        if _is_user_code(code):
            site = (<object><PyObject*>code, dy_frame_lasti(f))
            Py_XDECREF(<PyObject*>code)
            Py_XDECREF(<PyObject*>f)
            return site
        back = PyFrame_GetBack(f)
        Py_XDECREF(<PyObject*>code)
        Py_XDECREF(<PyObject*>f)
        f = back
    return None


cdef inline bint _is_user_code(PyCodeObject* code) noexcept:
    """Whether ``code``'s file is not the framework's: the code last found either way, else
    ``is_framework_file`` by the file's name (its cache first)."""
    global _user_code, _framework_code
    if <PyObject*>code == <PyObject*>_user_code:
        return True
    if <PyObject*>code == <PyObject*>_framework_code:
        return False
    filename = <object>dy_code_filename(code)
    cdef PyObject* cached = PyDict_GetItemWithError(_framework_files, filename)
    if (<object>cached) if cached != NULL else _is_framework_file(filename):
        _framework_code = <object><PyObject*>code
        return False
    _user_code = <object><PyObject*>code
    return True


cdef tuple _leaf(t):
    """``autograd._leaf_edge``: the edge to a leaf's (one) AccumulateGrad node (a new one
    once the last graph that held it is gone: the tensor holds it weakly)."""
    ref = t._accum
    if ref is None:
        acc = None
    elif type(ref) is _weakref:
        acc = <object>PyWeakref_GetObject(ref)  # None once dead
    else:
        acc = ref()
    if acc is None:
        acc = _new(_AccumulateGrad)
        _put(acc, A_TENSOR, t)
        t._accum = PyWeakref_NewRef(acc, None)
    return (acc, 0)


cdef class _Row:
    """What dispatch reads of an op's row (``OpDef`` is frozen: read once per row)."""
    cdef str name
    cdef bint differentiable, rare
    cdef dict attrs
    cdef tuple saves, inputs, outputs


cdef dict _rows = {}


cdef _Row _row(op):
    cdef _Row r = _rows.get(op)
    if r is None:
        r = _Row()
        r.name, r.differentiable, r.rare = op.name, op.grad is not None, op.variadic or op.random
        r.attrs, r.saves, r.inputs, r.outputs = op.attrs, tuple(op.saves), op.inputs, op.outputs
        _rows[op] = r
    return r


cdef object _node(op, _Row row, dict attrs, tuple inputs, tuple outputs):
    """``Node(op, attrs, inputs, outputs)`` for a non-variadic op."""
    cdef object n = _new(_Node)
    cdef Py_ssize_t i, k = len(inputs)
    cdef list edges = [None] * k, meta = [None] * k
    cdef dict saved
    cdef tuple names, outs
    op_attrs = row.attrs
    _put(n, N_OP, op)
    _put(n, N_ATTRS, {**op_attrs, **attrs} if attrs else op_attrs)
    cdef tuple m = None
    for i in range(k):
        t = inputs[i]
        m = meta[i] = _meta(_slot(t, T_DATA, "_data"), m)
        if not _slot(t, T_STOP, "stop_gradient"):
            fn = _slot(t, T_GRAD_FN, "_grad_fn")
            edges[i] = (fn, t._out_idx) if fn is not None else _leaf(t)
    _put(n, N_EDGES, edges)
    _put(n, N_IN_META, meta)
    _put(n, N_OUT_META, [_meta(_slot(t, T_DATA, "_data"), m) for t in outputs])
    _put(n, N_FREED, False)
    _put(n, N_HOOKS, None)
    _put(n, N_ORIGIN, _creation_site() if _record_origin else None)  # the user's forward line
    saves = row.saves
    if saves:
        saved = {}
        names, outs = row.inputs, row.outputs
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
        _put(n, N_SAVED, saved)
    else:
        _put(n, N_SAVED, None)
    return n


def apply(op, *inputs, **attrs):
    """Run ``op`` on Tensors ``inputs`` with attributes ``attrs``; record it if needed."""
    cdef _Row row = _row(op)
    if row.rare:
        return _ref_apply(op, *inputs, **attrs)
    return _apply(op, row, inputs, attrs)


cdef object _apply(op, _Row row, tuple inputs, dict attrs):
    cdef Py_ssize_t k = len(inputs)
    cdef bint need = False
    cdef list arrays = None  # one or two operands without attributes go without a list
    if attrs or k > 2 or k == 0:
        arrays = [_slot(t, T_DATA, "_data") for t in inputs]
    else:
        a0 = _slot(inputs[0], T_DATA, "_data")
        a1 = _slot(inputs[1], T_DATA, "_data") if k == 2 else None
    kernel = _kernels[row.name]
    try:
        if arrays is not None:
            out = kernel(*arrays, **attrs)
        elif k == 2:
            out = kernel(a0, a1)
        else:
            out = kernel(a0)
    except Exception as exc:  # raises the table's error, in the user's terms
        _explain(op, exc, arrays if arrays is not None else [a0, a1][:k], attrs)
    if _grad_enabled() and row.differentiable:
        for t in inputs:
            if not _slot(t, T_STOP, "stop_gradient"):
                need = True
                break
    elif _record_origin:
        _note_cuts(op, inputs, out)
    cls = type(out)
    if cls is tuple:
        if need:
            return _wrap_outputs(op, out, need, inputs, attrs)
        return tuple([_tensor(a if type(a) is _array_type else _ensure(a)) for a in out])
    if cls is not _array_type:
        out = _ensure(out)
    t = _new(_Tensor)
    _put(t, T_DATA, out)
    _put(t, T_STOP, not need)
    _put(t, T_VERSION, [0])
    _put(t, T_GRAD_FN, _node(op, row, attrs, inputs, (t,)) if need else None)
    return t


cdef int _note_cuts(op, tuple inputs, out) except -1:
    """The op ran without recording a node: unless a backward walk runs it, an input that
    needs a gradient and has no mark yet is marked where the tape was cut (``dispatch``)."""
    for t in inputs:
        if not _slot(t, T_STOP, "stop_gradient") and t._cut is None:
            if _grad_mode.user_off or _grad_mode.enabled:
                _note_cuts_py(op, inputs, out)
            break
    return 0


def binary(op, x, y):
    """Apply a binary op after making both operands Tensors of one dtype."""
    return _binary(op, x, y)


def binary_operator(op, bint reflected, str name):
    """Tensor's operator method for ``op`` (``__add__``; ``__radd__`` when ``reflected``) as
    ``dispatch.install_operators`` makes it, calling the compiled ``binary`` without a Python
    frame in between."""
    if reflected:
        def f(self, other):
            return _binary(op, other, self)
    else:
        def f(self, other):
            return _binary(op, self, other)
    f.__name__ = name
    return f


cdef object _binary(op, x, y):
    cx, cy = type(x), type(y)
    n = None
    if (cx is _Tensor or cx is _Parameter) and (cy is _Tensor or cy is _Parameter):
        dx, dy = _dtype(_slot(x, T_DATA, "_data")), _dtype(_slot(y, T_DATA, "_data"))
        if dx is dy or dx == dy:  # the hot path
            n = y
    elif cy is float or cy is int:
        n = _number(y, x)
        if n is not None:
            y = n
    elif cx is float or cx is int:
        n = _number(x, y)
        if n is not None:
            x = n
    if n is None:
        x, y = _as_operands(op.name, x, y)
    cdef _Row row = _row(op)
    if row.rare:  # a random op (no binary op is variadic)
        return _ref_apply(op, x, y)
    return _apply(op, row, (x, y), {})


cdef object _number(value, tensor):
    """``dispatch._other`` for a Python float or int next to a float Tensor on the CPU while
    the CPU is the current place: a 0-D array of the tensor's dtype (``scalar_dtype``) in a
    Tensor; None for any other pair (``as_operands`` makes those)."""
    cls = type(tensor)
    if not (cls is _Tensor or cls is _Parameter):
        return None
    d = _slot(tensor, T_DATA, "_data")
    if type(d) is not _ndarray or d.dtype.kind != "f" or _device._place.kind != "cpu":
        return None
    t = _new(_Tensor)
    _put(t, T_DATA, _np_array(value, dtype=d.dtype))
    _put(t, T_STOP, True)
    _put(t, T_VERSION, [0])
    _put(t, T_GRAD_FN, None)
    return t


def configure_autograd():
    """Bind the reference autograd classes and functions the compiled walk uses."""
    global _ref_run_backward, _AccumulateGrad, _BackwardError, _zeros, _grad_mode
    global _Node, _Tensor, _add, _ref_node_getitem
    from dygrad._core import autograd
    _ref_node_getitem = autograd.REFERENCE_NODE_GETITEM
    from dygrad._core.optable import TABLE
    from dygrad._core.tensor import Tensor
    _Node, _Tensor = autograd.Node, Tensor
    _ref_run_backward = autograd.REFERENCE_PATHS["run_backward"]
    _AccumulateGrad, _BackwardError = autograd.AccumulateGrad, autograd.BackwardError
    _zeros, _grad_mode = autograd._zeros, autograd.grad_mode
    _add = TABLE["add"]


cdef object _ref_node_getitem


def node_getitem(node, name):
    """``Node.__getitem__`` (``autograd.REFERENCE_NODE_GETITEM`` is the meaning), what a
    gradient rule's ``ctx[name]`` runs: the saved input, or a Tensor on the saved output,
    without a Python frame; the reference method for a subclass of Node, a freed node, a
    name not saved, a variadic list, a tensor changed in place since, and an output that
    keeps its history (create_graph): its errors and rare cases."""
    if type(node) is not _Node:
        return _ref_node_getitem(node, name)
    saved = _nslot(node, N_SAVED)
    if saved is None:
        return _ref_node_getitem(node, name)
    cdef PyObject* found = PyDict_GetItemWithError(<dict>saved, name)
    if found == NULL:
        return _ref_node_getitem(node, name)
    cdef tuple entry = <tuple>found
    box, out_idx = entry[1], entry[3]
    if box is None or (<list>box)[0] != entry[2]:
        return _ref_node_getitem(node, name)
    if out_idx is None:
        return entry[0]
    stop = entry[4]
    if not stop and _grad_enabled():
        return _ref_node_getitem(node, name)
    t = _tensor(entry[0])
    _put(t, T_STOP, stop)
    return t


cdef inline object _nslot(node, Py_ssize_t off):
    """A slot of a Node (of class Node exactly: the caller checks), set at its creation."""
    return <object>(<PyObject**>((<char*><PyObject*>node) + off))[0]


cdef inline Py_ssize_t _n_outputs(node) except -1:
    """``node.n_outputs`` (a property of Node: its Python frame is the cost saved here)."""
    if type(node) is _Node:
        return len(<list>_nslot(node, N_OUT_META))
    return node.n_outputs


cdef object _node_apply(node, list grads, bint retain_graph):
    """``Node.apply``: input gradients from output gradients."""
    if _nslot(node, N_FREED):
        raise node._freed_error()
    op = _nslot(node, N_OP)
    cdef Py_ssize_t i
    for i in range(len(grads)):
        if grads[i] is None:
            shape, dtype = _nslot(node, N_OUT_META)[i]
            grads[i] = _zeros(shape, dtype)
    result = op.grad(node, *grads)
    if not isinstance(result, (tuple, list)):
        result = (result,)
    if op.variadic:
        result = (*result[0], *result[1:])
    if len(result) != len(_nslot(node, N_EDGES)):
        raise _BackwardError(f"gradient rule of {op.name!r} returned {len(result)} gradients "
                             f"for {len(node.next_edges)} inputs")
    if not retain_graph:
        _put(node, N_SAVED, None)
        _put(node, N_FREED, True)
    return result


cdef void _accumulate(acc, g, bint create_graph) except *:
    """``acc.accumulate(g, create_graph)``; here, for a leaf without hooks whose gradient so
    far is None or a Tensor of g's dtype: ``t._grad + g`` as ``binary`` runs it, without the
    method's and the operator's Python frames; where that gradient is zeros that
    ``clear_grads`` made (``_known_zero``), g itself as for None: 0 + g is g."""
    t = acc.tensor
    old = t._grad
    if (create_graph or type(acc) is not _AccumulateGrad or t._hooks or type(g) is not _Tensor
            or (old is not None and type(old) is not _Tensor)):
        acc.accumulate(g, create_graph)
        return
    d = _slot(g, T_DATA, "_data").dtype
    if d != _slot(t, T_DATA, "_data").dtype or (old is not None and d != _slot(old, T_DATA, "_data").dtype):
        acc.accumulate(g, create_graph)
    elif old is None or _known_zero(old):
        t._grad = _detached(g)
    elif not _add_into(old, _slot(g, T_DATA, "_data"), t):
        t._grad = _apply(_add, _row(_add), (old, g), {})


cdef object _detached(g):
    """``g.detach()`` for a Tensor g (of class Tensor: the caller checks) that needs no
    gradient, without the method's frames (detach marks a cut only for one that does): a
    new Tensor on g's array sharing its version box."""
    if not _slot(g, T_STOP, "stop_gradient"):
        return g.detach()
    t = _tensor(_slot(g, T_DATA, "_data"))
    _put(t, T_VERSION, _slot(g, T_VERSION, "_version"))
    return t


class _ZeroVersion(list):
    """The version box (``Tensor._version``) of a gradient that ``clear_grads`` made: its
    array holds zeros for as long as the box reads 0, since whatever writes into a Tensor
    (in-place ops, ``set_value``, ``_bump``) counts up its box, which ``detach`` shares."""


cdef inline bint _known_zero(old) except -1:
    """Whether ``old`` is a gradient ``clear_grads`` zeroed, nothing has written since, and
    nothing else holds its array (a view or ``np.asarray`` of it could write unseen)."""
    v = _slot(old, T_VERSION, "_version")
    if type(v) is not _ZeroVersion or (<list>v)[0] != 0:
        return False
    return Py_REFCNT(_slot(old, T_DATA, "_data")) == _ZERO_DATA_REFS


cdef bint _add_into(old, gd, t) except -1:
    """``t._grad = old + g`` written into old's array, when nothing but ``t`` can see it
    change: the Tensor ``old`` is referenced by ``t`` alone (and the caller), its array by
    ``old`` alone (and ``od`` here) and owns its float32/float64 memory, of g's shape.
    The sum is the same to the bit as a new array's; ``t._grad`` is a new Tensor as
    ``binary`` makes. False (nothing done) otherwise."""
    od = _slot(old, T_DATA, "_data")
    if (Py_REFCNT(old) != _OLD_REFS or Py_REFCNT(od) != 2 or type(od) is not _ndarray
            or type(gd) is not _ndarray or od.base is not None or od.dtype.char not in "fd"
            or od.shape != gd.shape or not od.flags.writeable):
        return False
    _np_add(od, gd, out=od)
    t._grad = _tensor(od)
    return True


cdef object _tensor(data):
    """``Tensor._wrap(data)``: a new Tensor, stop_gradient and no grad_fn."""
    t = _new(_Tensor)
    _put(t, T_DATA, data)
    _put(t, T_STOP, True)
    _put(t, T_VERSION, [0])
    _put(t, T_GRAD_FN, None)
    return t


def run_backward(roots, root_grads, retain_graph=False, create_graph=False,
                 inputs=None, allow_unused=False, no_grad_vars=None):
    """``autograd.run_backward`` for ``backward()`` (no ``inputs``, no ``no_grad_vars``);
    ``dygrad.grad``'s captures go to the reference walk."""
    if inputs is not None or no_grad_vars:
        return _ref_run_backward(roots, root_grads, retain_graph, create_graph, inputs,
                                 allow_unused, no_grad_vars)
    cdef list starts = [], order = [], stack, ready, grads, buf
    cdef dict deps = {}, buffers = {}
    cdef set seen = set()
    cdef Py_ssize_t i, n
    cdef bint any_grad
    for t, g in zip(roots, root_grads):
        if t.stop_gradient:
            raise _backward_failed(_BackwardError(
                f"backward: the tensor (shape {list(t._data.shape)}) has stop_gradient=True, so "
                f"no input of it needs a gradient. Set stop_gradient=False on the inputs "
                f"(parameters have it already) before computing it."), None)
        if g._data.shape != t._data.shape:
            raise _backward_failed(ValueError(
                f"backward: grad_tensor has shape {list(g._data.shape)} but the tensor has "
                f"shape {list(t._data.shape)}"), None)
        fn = t._grad_fn
        node, idx = (fn, t._out_idx) if fn is not None else _leaf(t)
        starts.append((node, idx, g))

    # dependency counts over the reachable graph
    stack = [s[0] for s in starts]
    while stack:
        node = stack.pop()
        if node in seen:
            continue
        seen.add(node)
        for edge in node.next_edges:
            if edge is None:
                continue
            child = edge[0]
            deps[child] = deps.get(child, 0) + 1
            if child not in seen:
                stack.append(child)

    for node, idx, g in starts:
        buf = buffers.get(node)
        if buf is None:
            buf = buffers[node] = [None] * _n_outputs(node)
        buf[idx] = g if buf[idx] is None else buf[idx] + g
    ready = [node for node in dict.fromkeys(s[0] for s in starts) if deps.get(node, 0) == 0]

    prev_mode = _grad_mode.enabled
    _grad_mode.enabled = create_graph
    node = None
    try:
        while ready:
            node = ready.pop()
            grads = buffers.pop(node, None) or [None] * _n_outputs(node)
            hooks = node.pre_hooks
            if hooks:
                for idx, fns in hooks.items():
                    if grads[idx] is not None:
                        for fn in list(fns.values()):
                            out = fn(grads[idx])
                            if out is not None:
                                grads[idx] = out
            if isinstance(node, _AccumulateGrad):
                if grads[0] is not None:
                    _accumulate(node, grads[0], create_graph)
                continue
            edges = node.next_edges
            any_grad = False
            for g in grads:
                if g is not None:
                    any_grad = True
                    break
            if not any_grad:
                in_grads = (None,) * len(edges)
            elif type(node) is _Node:
                in_grads = _node_apply(node, grads, retain_graph)
            else:  # a PyLayer's node
                in_grads = node.apply(grads, retain_graph)
            n = len(edges)
            for i in range(n):
                edge = edges[i]
                if edge is None:
                    continue
                child = edge[0]
                g = in_grads[i]
                if g is not None:
                    if not isinstance(g, _Tensor):
                        raise _BackwardError(f"gradient rule of {node.op.name!r} returned "
                                             f"{type(g).__name__}, expected a Tensor")
                    buf = buffers.get(child)
                    if buf is None:
                        buf = buffers[child] = [None] * _n_outputs(child)
                    idx = edge[1]
                    buf[idx] = g if buf[idx] is None else buf[idx] + g
                deps[child] -= 1
                if deps[child] == 0:
                    ready.append(child)
    except Exception as exc:  # name the op and the forward line that recorded it
        _backward_failed(exc, node)
        if _bare_raise_keeps_trim:
            raise
        raise exc
    finally:
        _grad_mode.enabled = prev_mode


def clear_grads(params, bint set_to_zero):
    """``Optimizer.clear_grad`` for one group's ``params``: ``p.clear_gradient(set_to_zero)``
    for each that needs a gradient. For a Tensor or Parameter whose gradient holds a
    C-contiguous float32/float64 NumPy array, what ``Tensor.clear_grad`` does (a new Tensor
    of zeros, ``np.zeros_like``'s), without its Python frames, its version box a
    ``_ZeroVersion`` so the next backward takes its gradient in place of adding it to
    zeros; the zeros are written into the old gradient's array when nothing but the
    parameter can see it (``_zero_in_place``), else into a new one."""
    cdef cnp.ndarray d
    for p in params:
        if _slot(p, T_STOP, "stop_gradient"):
            continue
        cls = type(p)
        if cls is not _Tensor and cls is not _Parameter:
            p.clear_gradient(set_to_zero)
            continue
        g = p._grad
        if not set_to_zero or g is None:
            p._grad = None
            continue
        data = _slot(g, T_DATA, "_data")
        if type(data) is not _ndarray:
            p.clear_gradient(set_to_zero)
            continue
        d = <cnp.ndarray>data
        if not cnp.PyArray_IS_C_CONTIGUOUS(d) or (d.descr.type_num != cnp.NPY_FLOAT32
                                                  and d.descr.type_num != cnp.NPY_FLOAT64):
            p.clear_gradient(set_to_zero)
            continue
        if not _zero_in_place(g, d):
            d = cnp.PyArray_ZEROS(d.ndim, d.shape, d.descr.type_num, 0)
        g = data = None
        z = _tensor(d)
        _put(z, T_VERSION, _ZeroVersion([0]))
        p._grad = z


cdef bint _zero_in_place(g, cnp.ndarray d) except -1:
    """Zero ``d``, the array of the gradient Tensor ``g``, when only the parameter holds
    ``g`` and only ``g`` holds ``d`` (references: the parameter's and clear_grads'
    variables ``g``, ``data`` and ``d``), an array that owns its writable memory; False
    (nothing done) otherwise."""
    if (Py_REFCNT(g) != _GRAD_REFS or Py_REFCNT(d) != _GRAD_DATA_REFS
            or not cnp.PyArray_CHKFLAGS(d, cnp.NPY_ARRAY_OWNDATA | cnp.NPY_ARRAY_WRITEABLE)):
        return False
    _zero(<char*>cnp.PyArray_DATA(d), cnp.PyArray_NBYTES(d))
    return True


cdef const dy_pool_api* _pool = NULL
cdef struct _Zeros:
    char* data
    Py_ssize_t nbytes, step


cdef void _zero_piece(void* ctx, int i) noexcept nogil:
    cdef _Zeros* z = <_Zeros*>ctx
    cdef Py_ssize_t lo = i * z.step
    memset(z.data + lo, 0, min(z.step, z.nbytes - lo))


cdef int _zero(char* data, Py_ssize_t nbytes) except -1:
    """memset(data, 0, nbytes), shared with the workers of _linalg's pool when it has some
    and there are ZERO_SHARE_MIN bytes or more (a W2 step's gradients on two threads)."""
    global _pool
    cdef _Zeros z
    cdef int workers = 0
    if nbytes >= ZERO_SHARE_MIN:
        if _pool is NULL:
            _pool = dy_pool_import()
        workers = _pool.workers()
    if not workers:
        memset(data, 0, nbytes)
        return 0
    z.data, z.nbytes = data, nbytes
    z.step = (nbytes // (2 * (workers + 1)) + 63) // 64 * 64  # two pieces per thread
    with nogil:
        _pool.run(_zero_piece, &z, <int>((nbytes + z.step - 1) // z.step))
    return 0
