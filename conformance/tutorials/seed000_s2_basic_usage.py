# Seed 000 (Paddle 2.2 "动态图" tutorial), section 一 (setup) followed by section 二,
# verbatim: run with `python -m dygrad.compat seed000_s2_basic_usage.py`.
import paddle
import paddle.nn.functional as F
import numpy as np

print(paddle.__version__)

a = paddle.randn([4, 2])
b = paddle.arange(1, 3, dtype='float32')

print(a)
print(b)

c = a + b
print(c)

d = paddle.matmul(a, b)
print(d)
