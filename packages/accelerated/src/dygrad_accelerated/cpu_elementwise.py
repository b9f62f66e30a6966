"""CPU kernels of the elementwise family: the compiled broadcasting arithmetic of
``_elementwise.pyx``, whose ``def`` functions are the kernels themselves (for tensors of a
few elements, a glue function's call would cost what the compiled loop saves)."""

from __future__ import annotations

from ._elementwise import add, divide, multiply, subtract

KERNELS = {"add": add, "subtract": subtract, "multiply": multiply, "divide": divide}
