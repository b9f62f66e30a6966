"""Tensor printing in Paddle's layout (interim: NumPy's layout under Paddle's header)."""

import numpy as np


def tensor_to_string(t) -> str:
    data = t.numpy()
    body = np.array2string(data, separator=", ", prefix="       ")
    return (f"Tensor(shape={t.shape}, dtype={t.dtype.name}, place={t.place}, "
            f"stop_gradient={t.stop_gradient},\n       {body})")
