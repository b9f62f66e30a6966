# Seed 003 (blog post on Paddle's static and dynamic graphs), its dygraph `if` program,
# verbatim: run with `python -m dygrad.compat seed003_dygraph_if.py`.
import paddle.fluid as fluid
import numpy as np
fluid.enable_imperative()# 该接口打开动态图模式。
x_np = np.random.rand(1).astype("float32")
y_np = np.random.rand(1).astype("float32")
x = fluid.dygraph.to_variable( x_np )
y = fluid.dygraph.to_variable( y_np )
z = x + y if x > y else x -y
print(z.numpy())
# >>> supplied (not in the seed): the inputs, to check the branch taken
print("inputs", x_np[0].item(), y_np[0].item(), "z", z.numpy()[0].item())
# <<<
