"""The CUDA path on a real device (CuPy and a GPU): every op of the op database forward
and backward on gpu:0 against the reference engine on the CPU, the place API, mixed-place
errors, and LeNet training steps equal to the CPU's. Skipped where CuPy or a device is
missing; test_cpu_gpu_generic.py runs the same checks with a stand-in for CuPy."""

from __future__ import annotations

import pytest
from _gpu_checks import accelerated_with, check_lenet, check_op, check_places

from dygrad._core.optable import TABLE
from dygrad_accelerated import gpu

pytestmark = pytest.mark.skipif(not gpu.is_available(),
                                reason=f"no CUDA device: {gpu.unavailable_reason()}")


@pytest.fixture
def on_gpu():
    with accelerated_with():
        yield


@pytest.mark.parametrize("name", sorted(TABLE))
def test_every_op_on_gpu(on_gpu, name):
    check_op(name)


def test_places_on_gpu(on_gpu):
    check_places()


def test_lenet_on_gpu(on_gpu):
    check_lenet()
