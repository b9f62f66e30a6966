# Seed 003 (blog post on Paddle's static and dynamic graphs), its static `cond` program,
# verbatim: run with `python -m dygrad.compat seed003_static_cond.py`.
import paddle.fluid as fluid
import numpy as np
x_np = np.random.rand(1).astype("float32")
y_np = np.random.rand(1).astype("float32")
x = fluid.data( shape=[1], name="x", dtype="float32")
y = fluid.data( shape=[1], name="y", dtype="float32")
z = fluid.layers.cond( x > y, lambda: x + y, lambda: x -y)
exe = fluid.Executor()
out = exe.run(fluid.default_main_program(),
feed={ "x" : x_np, "y" : y_np},
fetch_list=[z])
print( out )
# >>> supplied (not in the seed): the inputs, to check the branch taken
print("inputs", x_np[0].item(), y_np[0].item(), "z", out[0][0].item())
# <<<
