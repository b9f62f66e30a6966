# Seed 000 (Paddle 2.2 "动态图" tutorial), section 一 (setup) followed by section 三,
# verbatim: run with `python -m dygrad.compat seed000_s3_control_flow.py`.
import paddle
import paddle.nn.functional as F
import numpy as np

print(paddle.__version__)

a = paddle.to_tensor(np.array([1, 2, 3]))
b = paddle.to_tensor(np.array([4, 5, 6]))

for i in range(10):
    r = paddle.rand([1,])
    if r > 0.5:
        c = paddle.pow(a, i) + b
        print("{} +> {}".format(i, c.numpy()))
    else:
        c = paddle.pow(a, i) - b
        print("{} -> {}".format(i, c.numpy()))

