"""Tensor printing in Paddle's layout, and ``set_printoptions``.

What ``print(t)`` shows, as Paddle shows it::

    Tensor(shape=[2, 2], dtype=float32, place=Place(cpu), stop_gradient=True,
           [[1.        , 2.50000000],
            [3.        , 4.        ]])

The rules, in the order they apply:

- every element is formatted on its own: a float with an integral value as ``3.`` (also
  ``inf.``), any other float with ``precision`` decimals (``2.50000000``), or in
  scientific notation for every float when ``sci_mode`` is on; complex numbers as
  ``(re+imj)`` with the same rules for the parts; ints and bools as Python prints them;
- one width for the whole tensor: the longest element string among the *edge items* (the
  first and last ``edgeitems`` along every dimension longer than ``2 * edgeitems``, even
  when nothing is elided); an element shorter than the width is left-aligned in it, and
  when some edge item is negative, non-negative ones get one leading space (a sign column);
  an element as long as the width or longer is written as is;
- above ``threshold`` elements, dimensions longer than ``2 * edgeitems`` are elided to
  their edge items with ``...``;
- the last dimension is wrapped so that a line fits ``linewidth``; higher dimensions
  separate their blocks with one more blank line per extra dimension;
- a 0-D tensor prints as its bare element, a tensor with no elements as ``[]`` blocks.
"""

from __future__ import annotations

import numpy as np


class _PrintOptions:
    """The current options (Paddle's defaults)."""

    precision = 8
    threshold = 1000
    edgeitems = 3
    linewidth = 80
    sci_mode = False


_options = _PrintOptions()


def set_printoptions(precision=None, threshold=None, edgeitems=None, sci_mode=None,
                     linewidth=None):
    """Set how tensors print: decimals of floats (``precision``), the element count above
    which tensors are summarized (``threshold``), elements kept at each end of a summarized
    dimension (``edgeitems``), scientific notation for floats (``sci_mode``) and the line
    width (``linewidth``). ``None`` leaves an option as it is."""
    given = {"precision": precision, "threshold": threshold, "edgeitems": edgeitems,
             "linewidth": linewidth, "sci_mode": sci_mode}
    for name, value in given.items():
        if value is None:
            continue
        wanted = bool if name == "sci_mode" else int
        if type(value) is not wanted and not (wanted is int and isinstance(value, np.integer)):
            raise TypeError(f"set_printoptions: {name} must be {wanted.__name__}, got "
                            f"{type(value).__name__} {value!r}")
    for name, value in given.items():
        if value is not None:
            setattr(_options, name, bool(value) if name == "sci_mode" else int(value))


# ---------------------------------------------------------------------------
# one element
# ---------------------------------------------------------------------------

def _format_real(v) -> str:
    p = _options.precision
    if _options.sci_mode:
        return f"{v:.{p}e}"
    if np.ceil(v) == v:  # integral (and infinities): "3."
        return f"{v:.0f}."
    return f"{v:.{p}f}"


def _format_element(v) -> str:
    """The unpadded text of one NumPy scalar."""
    kind = v.dtype.kind
    if kind == "f":
        return _format_real(v)
    if kind == "c":
        p = _options.precision
        spec = f".{p}e" if _options.sci_mode else f".{p}f"
        re, im = v.real, v.imag
        sign = "+" if im >= 0 else ""
        return f"({re:{spec}}{sign}{im:{spec}}j)"
    return str(v)


def _is_negative(v) -> bool:
    if v.dtype.kind == "c":  # NumPy's order of complex numbers: by real part, then imaginary
        return bool(v.real < 0 or (v.real == 0 and v.imag < 0))
    if v.dtype.kind == "b":
        return False
    return bool(v < 0)


def _pad(v, width: int, signed: bool) -> str:
    text = _format_element(v)
    if len(text) >= width:
        return text
    if signed and not _is_negative(v):
        return " " + text.ljust(width - 1)
    return text.ljust(width)


# ---------------------------------------------------------------------------
# the layout
# ---------------------------------------------------------------------------

def _edge_items(a: np.ndarray) -> np.ndarray:
    """The elements that decide the width: the edge items along every long dimension."""
    e = _options.edgeitems
    for axis, n in enumerate(a.shape):
        if n > 2 * e:
            keep = np.r_[0:e, n - e:n]
            a = np.take(a, keep, axis=axis)
    return a


def _format_block(a: np.ndarray, indent: int, width: int, signed: bool, summarize: bool) -> str:
    e = _options.edgeitems
    elide = summarize and a.ndim > 0 and a.shape[0] > 2 * e
    rows = list(range(e)) + [None] + list(range(a.shape[0] - e, a.shape[0])) if elide \
        else list(range(a.shape[0] if a.ndim else 0))
    if a.ndim == 1:
        items = ["..." if i is None else _pad(a[i], width, signed) for i in rows]
        per_line = max(1, (_options.linewidth - indent) // (width + 2))
        lines = [", ".join(items[k:k + per_line]) for k in range(0, len(items), per_line)]
        return "[" + (",\n" + " " * (indent + 1)).join(lines) + "]"
    blocks = ["..." if i is None else _format_block(a[i], indent + 1, width, signed, summarize)
              for i in rows]
    sep = "," + "\n" * (a.ndim - 1) + " " * (indent + 1)
    return "[" + sep.join(blocks) + "]"


def format_data(a: np.ndarray, indent: int) -> str:
    """The values of array ``a`` as Paddle lays them out, continuation lines indented
    by ``indent`` (the first line is not indented)."""
    if a.ndim == 0:
        return _format_element(a[()])
    summarize = a.size > _options.threshold
    width, signed = 0, False
    if a.size:
        for v in _edge_items(a).ravel():
            width = max(width, len(_format_element(v)))
            signed = signed or _is_negative(v)
    return _format_block(a, indent, width, signed, summarize)


def tensor_to_string(t, prefix: str = "Tensor") -> str:
    """``repr(t)``: Paddle's header line, then the values indented under it."""
    indent = len(prefix) + 1
    data = format_data(t.numpy(), indent)
    return (f"{prefix}(shape={t.shape}, dtype={t.dtype.name}, place={t.place}, "
            f"stop_gradient={t.stop_gradient},\n{' ' * indent}{data})")
