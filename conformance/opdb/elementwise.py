"""Op database entries: elementwise ops."""

import numpy as np

from . import ALL_NUMERIC, OpInfo, binary_samples

OPS = [
    OpInfo("add", np.add, binary_samples(), dtypes=ALL_NUMERIC, gradgrad=True),
    OpInfo("multiply", np.multiply, binary_samples(), dtypes=ALL_NUMERIC, gradgrad=True),
]
