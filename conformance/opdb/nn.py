"""Op database entries: neural-network ops."""

import numpy as np

from . import OpInfo, unary_samples

OPS = [
    OpInfo("relu", lambda x: np.maximum(x, 0), unary_samples()),
]
