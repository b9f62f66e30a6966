# Seed 000 (Paddle 2.2 "动态图" tutorial), section 一 (setup) followed by section 五,
# verbatim: run with `python -m dygrad.compat seed000_s5_shared_weights.py`.
import paddle
import paddle.nn.functional as F
import numpy as np

print(paddle.__version__)

inputs = paddle.rand((256, 64))

linear = paddle.nn.Linear(64, 8, bias_attr=False)
loss_fn = paddle.nn.MSELoss()
optimizer = paddle.optimizer.Adam(0.01, parameters=linear.parameters())

for i in range(10):
    hidden = linear(inputs)
    # weight from input to hidden is shared with the linear mapping from hidden to output
    outputs = paddle.matmul(hidden, linear.weight, transpose_y=True) 
    loss = loss_fn(outputs, inputs)
    loss.backward()
    print("step: {}, loss: {}".format(i, loss.numpy()))
    optimizer.step()
    optimizer.clear_grad()
