"""A dataset that fails on one sample, loaded by two worker processes."""

import numpy as np  # noqa: F401

import dygrad as paddle  # noqa: F401
import dygrad.nn.functional as F  # noqa: F401
from dygrad import nn  # noqa: F401

EXPECT = {"type": ValueError, "has": ["DataLoader worker", "sample indices"]}


class Broken(paddle.io.Dataset):
    def __len__(self):
        return 8

    def __getitem__(self, i):
        if i == 5:
            raise ValueError(f"corrupt record {i}")  # ERROR
        return np.zeros([3], "float32")


def main():
    for _ in paddle.io.DataLoader(Broken(), batch_size=2, num_workers=2):
        pass
