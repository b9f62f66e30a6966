# Seed 002 (Paddle 1.4 "DyGraph" guide), section "Installation and Basic Usage": sums, backward,
# gradient, verbatim (re-indented): run with `python -m dygrad.compat seed002_s2_sums_gradient.py`.
import paddle.fluid as fluid
import numpy as np
x = np.ones([2, 2], np.float32)
with fluid.dygraph.guard():
    inputs = []
    for _ in range(10):
        inputs.append(fluid.dygraph.base.to_variable(x))
    ret = fluid.layers.sums(inputs)
    print(ret.numpy())

    loss = fluid.layers.reduce_sum(ret)
    loss.backward()
    print(loss.gradient())
