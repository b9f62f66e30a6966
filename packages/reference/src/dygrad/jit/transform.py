"""The AST transform (as Paddle's dy2static): a function's source, parsed, with its
control flow rewritten into calls of :mod:`dygrad.jit.convert`'s helpers.

- ``if``/``while``/``for i in range(...)`` bodies become nested functions that take and
  return the variables the statement assigns; ``convert_ifelse``/``convert_while_loop``/
  ``convert_for_range`` decide at run time between Python control flow and
  ``cond``/``while_loop``. A statement whose body holds ``return``/``break``/``continue``
  stays Python; its condition goes through ``python_bool`` (a tensor there is a break).
- ``a if test else b`` becomes ``convert_ifexp``; ``for x in <expr>`` walks
  ``convert_iter(expr)``; ``and``/``or``/``not`` become ``convert_logical_*``; ``print``
  becomes ``convert_print``; every other call goes through ``convert_call``, which
  converts user functions and Layers recursively.

The new code keeps the user's line numbers and is compiled with the user's file name, so
errors and tracebacks point at the user's own lines.
"""

from __future__ import annotations

import ast
import inspect
import sys
import textwrap
import types
import weakref

from . import convert as _jst

_PREFIX = "_jit_"
_IGNORED = {"dygrad", "dygrad_accelerated", "numpy", "cupy", "scipy", "pytest", "_pytest",
            "pluggy", *sys.stdlib_module_names}
_converted: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def ignore_module(modules):
    """Never convert the functions of these modules (called as they are)."""
    for m in modules:
        _IGNORED.add(m.__name__.split(".")[0] if isinstance(m, types.ModuleType) else str(m))


def convertible(fn) -> bool:
    """Whether ``fn`` is user code that ``to_static`` converts."""
    if not isinstance(fn, types.FunctionType) or getattr(fn, "_jit_not_to_static", False):
        return False
    if "_jst" in fn.__code__.co_freevars:  # defined inside converted code: converted
        return False
    module = (fn.__module__ or "").split(".")[0]
    return module not in _IGNORED and fn.__name__ != "<lambda>"


def convert_function(fn):
    """``fn`` with its control flow converted (cached); ``fn`` itself when its source is
    not available."""
    done = _converted.get(fn)
    if done is None:
        done = _converted[fn] = _convert(fn)
    return done


def _convert(fn):
    try:
        filename = inspect.getsourcefile(fn)
        lines, first = inspect.getsourcelines(fn)
    except (OSError, TypeError):
        return fn
    tree = ast.parse(textwrap.dedent("".join(lines)))
    ast.increment_lineno(tree, first - 1)
    fdef = tree.body[0]
    if not isinstance(fdef, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return fn  # a lambda or a callable object
    fdef.decorator_list = []
    fdef = _Transformer().visit(fdef)
    freevars = fn.__code__.co_freevars
    # a factory whose locals are the function's free variables (and _jst), so that the
    # compiled inner function takes the original closure cells
    factory = _funcdef(
        name=f"{_PREFIX}factory",
        args=ast.arguments(posonlyargs=[], args=[ast.arg(a) for a in (*freevars, "_jst")],
                           kwonlyargs=[], kw_defaults=[], defaults=[]),
        body=[fdef, ast.Return(ast.Name(fdef.name, ast.Load()))], decorator_list=[],
        returns=None)
    module = ast.Module(body=[factory], type_ignores=[])
    ast.copy_location(factory, fdef)
    ast.fix_missing_locations(module)
    namespace: dict = {}
    exec(compile(module, filename, "exec"), fn.__globals__ | namespace, namespace)
    code = next(c for c in namespace[f"{_PREFIX}factory"].__code__.co_consts
                if isinstance(c, types.CodeType) and c.co_name == fn.__name__)
    cells = dict(zip(freevars, fn.__closure__ or ()))
    cells["_jst"] = types.CellType(_jst)
    new = types.FunctionType(code, fn.__globals__, fn.__name__, fn.__defaults__,
                             tuple(cells[n] for n in code.co_freevars))
    new.__kwdefaults__ = fn.__kwdefaults__
    new.__dict__.update(fn.__dict__)
    new.__wrapped__ = fn
    return new


def _funcdef(**fields):
    """An ``ast.FunctionDef`` (with ``type_params`` where the Python version has them)."""
    if "type_params" in ast.FunctionDef._fields:
        fields["type_params"] = []
    return ast.FunctionDef(**fields)


def _header(new, node):
    """``new`` placed on the first line of statement ``node`` (its header: ``if test:``),
    so that an error in it points at that line."""
    last = getattr(node, "test", getattr(node, "iter", node))
    new.lineno, new.col_offset = node.lineno, node.col_offset
    new.end_lineno, new.end_col_offset = last.end_lineno, last.end_col_offset
    return new


def _jst_call(name, *args, node=None):
    call = ast.Call(ast.Attribute(ast.Name("_jst", ast.Load()), name, ast.Load()),
                    list(args), [])
    return _header(call, node) if node is not None else call


class _Escapes(ast.NodeVisitor):
    """Whether statements hold a return, or a break/continue of the enclosing loop."""

    def __init__(self, loop_level=True):
        self.found, self.loop_level = False, loop_level

    def visit_Return(self, node):
        self.found = True

    def visit_Break(self, node):
        self.found = self.found or self.loop_level

    visit_Continue = visit_Break

    def visit_FunctionDef(self, node):
        pass

    visit_AsyncFunctionDef = visit_Lambda = visit_ClassDef = visit_FunctionDef

    def _loop(self, node):
        inner = _Escapes(loop_level=False)
        for s in node.body + node.orelse:
            inner.visit(s)
        self.found = self.found or inner.found

    visit_For = visit_While = _loop


def _escapes(stmts) -> bool:
    v = _Escapes()
    for s in stmts:
        v.visit(s)
    return v.found


class _Assigned(ast.NodeVisitor):
    """Names that statements assign (not inside nested functions or comprehensions)."""

    def __init__(self):
        self.names: dict = {}

    def visit_Name(self, node):
        if isinstance(node.ctx, ast.Store) and not node.id.startswith(_PREFIX):
            self.names[node.id] = None

    def visit_FunctionDef(self, node):
        if not node.name.startswith(_PREFIX):
            self.names[node.name] = None

    visit_AsyncFunctionDef = visit_ClassDef = visit_FunctionDef

    def visit_Lambda(self, node):
        pass

    visit_ListComp = visit_SetComp = visit_DictComp = visit_GeneratorExp = visit_Lambda


def _assigned(stmts) -> list:
    v = _Assigned()
    for s in stmts:
        v.visit(s)
    return list(v.names)


class _Transformer(ast.NodeTransformer):
    def __init__(self):
        self.count = 0
        self.declared: set = set()  # global/nonlocal names (never made parameters)

    def _name(self, kind):
        self.count += 1
        return f"{_PREFIX}{kind}_{self.count}"

    def visit_FunctionDef(self, node):
        for s in ast.walk(node):
            if isinstance(s, (ast.Global, ast.Nonlocal)):
                self.declared.update(s.names)
        self.generic_visit(node)
        return node

    def _def(self, name, params, body, returns, node):
        fn = _funcdef(
            name=name, args=ast.arguments(posonlyargs=[], args=[ast.arg(p) for p in params],
                                          kwonlyargs=[], kw_defaults=[], defaults=[]),
            body=(body or [ast.Pass()]) + [ast.Return(ast.Tuple(
                [ast.Name(r, ast.Load()) for r in returns], ast.Load()))],
            decorator_list=[], returns=None)
        return _header(fn, node)

    def _state(self, stmts):
        return [n for n in _assigned(stmts) if n not in self.declared]

    def _init(self, names, node):
        locs = ast.Call(ast.Name("locals", ast.Load()), [], [])
        return ast.Tuple([_jst_call("ld", locs, ast.Constant(n), node=node) for n in names],
                         ast.Load())

    def _assign(self, names, call, node):
        if not names:
            return _header(ast.Expr(call), node)
        target = ast.Tuple([ast.Name(n, ast.Store()) for n in names], ast.Store())
        return _header(ast.Assign([target], call), node)

    def _names_const(self, names):
        return ast.Tuple([ast.Constant(n) for n in names], ast.Load())

    def visit_If(self, node):
        self.generic_visit(node)
        if _escapes(node.body + node.orelse):
            node.test = _jst_call("python_bool", node.test, ast.Constant("if"), node=node)
            return node
        names = self._state(node.body + node.orelse)
        t, f = self._name("true"), self._name("false")
        call = _jst_call("convert_ifelse", node.test, ast.Name(t, ast.Load()),
                         ast.Name(f, ast.Load()), self._init(names, node),
                         self._names_const(names), node=node)
        return [self._def(t, names, node.body, names, node),
                self._def(f, names, node.orelse, names, node),
                self._assign(names, call, node)]

    def visit_While(self, node):
        self.generic_visit(node)
        if node.orelse or _escapes(node.body):
            node.test = _jst_call("python_bool", node.test, ast.Constant("while"), node=node)
            return node
        names = self._state(node.body)
        c, b = self._name("cond"), self._name("body")
        cond = _header(_funcdef(
            name=c, args=ast.arguments(posonlyargs=[], args=[ast.arg(p) for p in names],
                                       kwonlyargs=[], kw_defaults=[], defaults=[]),
            body=[ast.Return(node.test)], decorator_list=[], returns=None),
            node)
        call = _jst_call("convert_while_loop", ast.Name(c, ast.Load()), ast.Name(b, ast.Load()),
                         self._init(names, node), self._names_const(names), node=node)
        return [cond, self._def(b, names, node.body, names, node),
                self._assign(names, call, node)]

    def visit_For(self, node):
        self.generic_visit(node)
        it = node.iter
        is_range = (isinstance(it, ast.Call) and isinstance(it.func, ast.Name)
                    and it.func.id == "range" and not it.keywords
                    and isinstance(node.target, ast.Name))
        if not is_range or node.orelse or _escapes(node.body):
            if is_range:
                it.args = [_jst_call("python_bool", a, ast.Constant("for ... in range()"),
                                     node=node) for a in it.args]
            else:
                node.iter = _jst_call("convert_iter", it, node=node)
            return node
        target = node.target.id
        names = [target] + [n for n in self._state(node.body) if n != target]
        b = self._name("for")
        call = _jst_call("convert_for_range", ast.Tuple(it.args, ast.Load()),
                         ast.Name(b, ast.Load()), self._init(names, node),
                         self._names_const(names), node=node)
        return [self._def(b, names, node.body, names[1:], node), self._assign(names, call, node)]

    def visit_BoolOp(self, node):
        self.generic_visit(node)
        helper = "convert_logical_and" if isinstance(node.op, ast.And) else "convert_logical_or"
        result = node.values[-1]
        for value in reversed(node.values[:-1]):
            lam = ast.Lambda(ast.arguments(posonlyargs=[], args=[], kwonlyargs=[],
                                           kw_defaults=[], defaults=[]), result)
            result = _jst_call(helper, value, lam, node=node)
        return result

    def visit_IfExp(self, node):
        self.generic_visit(node)
        lam = [ast.Lambda(ast.arguments(posonlyargs=[], args=[], kwonlyargs=[], kw_defaults=[],
                                        defaults=[]), v) for v in (node.body, node.orelse)]
        return ast.copy_location(_jst_call("convert_ifexp", node.test, *lam), node)

    def visit_UnaryOp(self, node):
        self.generic_visit(node)
        if isinstance(node.op, ast.Not):
            return _jst_call("convert_logical_not", node.operand, node=node)
        return node

    def visit_Call(self, node):
        self.generic_visit(node)
        func = node.func
        if isinstance(func, ast.Name) and func.id == "print":
            node.func = ast.copy_location(
                ast.Attribute(ast.Name("_jst", ast.Load()), "convert_print", ast.Load()), func)
        elif not (isinstance(func, ast.Name) and func.id in ("super", "locals", "range",
                                                             "len", "isinstance")):
            node.func = _jst_call("convert_call", func, node=func)
        return node
