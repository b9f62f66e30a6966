"""graph: the autograd graph behind a tensor, or a static Program, as DOT, SVG/PNG or text.

A tensor's graph is read from the tape (:mod:`dygrad._core.autograd`): one box per
recorded op with its output shapes and dtypes and what its gradient rule saved; one
ellipse per leaf that needs a gradient (parameters by name); a dashed note per input that
needs none. Arrows follow the data, from inputs to the op that used them. A Program shows
its variables (ellipses) and ops (boxes) the same way.
"""

from __future__ import annotations

import shutil
import subprocess
import warnings

from .._core import dtype as _dt
from .._core.autograd import AccumulateGrad
from .._core.program import Program, public_shape
from .._core.tensor import Parameter, Tensor

_FORMATS = (None, "dot", "text", "svg", "png")


def graph(tensor_or_program, format=None):
    """Render the autograd graph behind a Tensor, or a ``paddle.static.Program``.

    ``format``: None or 'dot' gives Graphviz DOT text, 'text' a plain listing, 'svg' or
    'png' the picture (bytes) drawn by Graphviz's ``dot`` (the binary, or the ``graphviz``
    Python package); without Graphviz those fall back to the plain listing, with a warning.
    """
    if format not in _FORMATS:
        raise ValueError(f"graph: format must be one of {_FORMATS[1:]} or None, got {format!r}")
    if isinstance(tensor_or_program, Program):
        items = _program_items(tensor_or_program)
    elif isinstance(tensor_or_program, Tensor):
        items = _tensor_items(tensor_or_program)
    else:
        raise TypeError(f"graph: expected a Tensor or a paddle.static.Program, got "
                        f"{type(tensor_or_program).__name__}")
    if format == "text":
        return _text(items)
    dot = _dot(items)
    if format in (None, "dot"):
        return dot
    picture = _render(dot, format)
    if picture is None:
        warnings.warn(f"graph: Graphviz is not installed (no 'dot' binary, no graphviz package), "
                      f"so format={format!r} falls back to plain text", stacklevel=2)
        return _text(items)
    return picture


# Both kinds of graph become the same items: nodes (id, kind, title, detail lines) and
# edges (from id, to id, label); kinds: 'op', 'leaf', 'const', 'var', 'output'.

def _meta(shape, dtype) -> str:
    return f"{list(shape)} {_dt.from_numpy(dtype).name}"


def _tensor_items(t):
    nodes, edges = [], []
    ids = {}

    def node_id(n):
        if n not in ids:
            ids[n] = f"n{len(ids)}"
        return ids[n]

    out_title = f"output {t._name}" if t._name else "output"
    nodes.append(("out", "output", out_title, [_meta(t._data.shape, t._data.dtype)]))
    if t._grad_fn is None:
        if not t.stop_gradient:
            leaf = AccumulateGrad(t)
            nodes.append((node_id(leaf), "leaf", _leaf_title(t), [_meta(t._data.shape, t._data.dtype)]))
            edges.append((node_id(leaf), "out", ""))
        else:
            nodes[0][3].append("stop_gradient=True: no graph")
        return nodes, edges
    edges.append((node_id(t._grad_fn), "out", f"out {t._out_idx}" if t._grad_fn.n_outputs > 1 else ""))
    seen, stack = set(), [t._grad_fn]
    while stack:
        n = stack.pop()
        if n in seen:
            continue
        seen.add(n)
        if isinstance(n, AccumulateGrad):
            nodes.append((node_id(n), "leaf", _leaf_title(n.tensor),
                          [_meta(n.tensor._data.shape, n.tensor._data.dtype)]))
            continue
        nodes.append((node_id(n), "op", *_op_label(n)))
        names = _input_names(n)
        metas = getattr(n, "in_meta", None) or [None] * len(n.next_edges)
        for i, (edge, meta) in enumerate(zip(n.next_edges, metas)):
            if edge is None:
                cid = f"{node_id(n)}_c{i}"
                nodes.append((cid, "const", "no grad", [_meta(*meta)] if meta else []))
                edges.append((cid, node_id(n), names[i]))
                continue
            child, idx = edge
            label = names[i] + (f" (out {idx})" if child.n_outputs > 1 else "")
            edges.append((node_id(child), node_id(n), label))
            stack.append(child)
    return nodes, edges


def _leaf_title(t) -> str:
    kind = "param" if isinstance(t, Parameter) else "leaf"
    return f"{kind} {t._name}" if t._name else kind


def _input_names(n) -> list:
    op = getattr(n, "op", None)
    k = len(n.next_edges)
    if op is None:
        return [f"arg {i}" for i in range(k)]
    names = list(op.inputs)
    if op.variadic:  # the first input is a list
        rest = names[1:]
        first = k - len(rest)
        return [f"{names[0]}[{i}]" for i in range(first)] + rest
    return names if len(names) == k else [f"input {i}" for i in range(k)]


def _op_label(n):
    """Title and detail lines of a recorded op: outputs, which inputs need a gradient, saved."""
    op = getattr(n, "op", None)
    title = op.name if op is not None else n.name
    lines = [("-> " + ", ".join(_meta(*m) for m in n.out_meta))] if getattr(n, "out_meta", None) else []
    names = _input_names(n)
    need = [nm for nm, e in zip(names, n.next_edges) if e is not None]
    lines.append("grad to: " + (", ".join(need) if need else "none"))
    if op is not None and op.saves:
        if n._saved is None:
            lines.append(f"saved: {', '.join(op.saves)} (freed by backward)")
        else:
            lines.append("saved: " + ", ".join(f"{k} {_saved_meta(v)}" for k, v in n._saved.items()))
    return title, lines


def _saved_meta(entry):
    first, box = entry[0], entry[1]
    if box is None:  # a variadic list
        return f"[{len(first)} tensors]"
    data = first._data if isinstance(first, Tensor) else first
    return str(list(data.shape))


def _program_items(program):
    nodes, edges = [], []
    for block in program.blocks:
        prefix = f"b{block.idx}_"
        for d in block.vars.values():
            role = ("param" if d.is_parameter else "data" if d.is_data else
                    "persist" if d.persistable else "var")
            detail = [_meta(public_shape(d.shape), d.dtype)]
            if not d.stop_gradient:
                detail.append("needs grad")
            nodes.append((prefix + d.name, "var" if role == "var" else "leaf", f"{role} {d.name}", detail))
        for j, op in enumerate(block.ops):
            oid = f"{prefix}op{j}"
            detail = [] if op.role == "forward" else [op.role]
            nodes.append((oid, "op", op.type, detail))
            for name, x in zip(op.op.inputs, op.inputs):
                for d in (x if isinstance(x, list) else [x]):
                    edges.append((f"b{d.block.idx}_{d.name}", oid, name))
            for name, d in zip(op.op.outputs, op.outputs):
                edges.append((oid, f"b{d.block.idx}_{d.name}", name))
    return nodes, edges


_SHAPES = {"op": "box", "leaf": "ellipse", "var": "ellipse", "const": "note", "output": "doubleoctagon"}


def _dot(items) -> str:
    nodes, edges = items
    out = ["digraph dygrad {", "  rankdir=BT;", '  node [fontname="Helvetica", fontsize=10];',
           '  edge [fontname="Helvetica", fontsize=9];']
    for nid, kind, title, lines in nodes:
        label = "\\n".join(_escape(s) for s in (title, *lines))
        style = ', style="dashed"' if kind == "const" else ', style="filled", fillcolor="lightblue"' \
            if kind == "leaf" else ""
        out.append(f'  "{_escape(nid)}" [shape={_SHAPES[kind]}, label="{label}"{style}];')
    for a, b, label in edges:
        attrs = f' [label="{_escape(label)}"]' if label else ""
        out.append(f'  "{_escape(a)}" -> "{_escape(b)}"{attrs};')
    out.append("}")
    return "\n".join(out) + "\n"


def _escape(s: str) -> str:
    return str(s).replace("\\", "\\\\").replace('"', '\\"')


def _text(items) -> str:
    nodes, edges = items
    by_id = {nid: (kind, title, lines) for nid, kind, title, lines in nodes}
    incoming = {}
    for a, b, label in edges:
        incoming.setdefault(b, []).append((a, label))

    def source(nid):
        kind, title, lines = by_id[nid]
        return f"{title} {lines[0]}" if kind == "const" else f"{nid} {title}"

    out = []
    for nid, kind, title, lines in nodes:
        if kind == "const":
            continue
        out.append(f"{nid} {title}" + (f"  {'; '.join(lines)}" if lines else ""))
        out += [f"    <- {source(a)}" + (f" ({label})" if label else "")
                for a, label in incoming.get(nid, ())]
    return "\n".join(out) + "\n"


def _render(dot: str, fmt: str):
    """The picture as bytes from Graphviz, or None when Graphviz is not installed."""
    exe = shutil.which("dot")
    if exe is not None:
        return subprocess.run([exe, f"-T{fmt}"], input=dot.encode(), capture_output=True,
                              check=True).stdout
    try:
        import graphviz
    except ImportError:
        return None
    return graphviz.Source(dot).pipe(format=fmt)
