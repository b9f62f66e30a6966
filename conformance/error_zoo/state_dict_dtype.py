"""Loading float64 values into float32 parameters."""

import numpy as np  # noqa: F401

import dygrad as paddle  # noqa: F401
import dygrad.nn.functional as F  # noqa: F401
from dygrad import nn  # noqa: F401

EXPECT = {"type": TypeError, "has": ["float64", "float32", "weight"]}


def main():
    fc = nn.Linear(3, 2)
    state = {k: v.astype("float64") for k, v in fc.state_dict().items()}
    fc.set_state_dict(state)  # ERROR
