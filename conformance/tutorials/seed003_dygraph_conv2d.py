# Seed 003 (blog post on Paddle's static and dynamic graphs), its dygraph conv2d program,
# verbatim (re-indented): run with `python -m dygrad.compat seed003_dygraph_conv2d.py OUT.npz`.
from paddle.fluid.dygraph.base import to_variable
import paddle.fluid as fluid
from paddle.fluid.dygraph import Conv2D
import numpy as np
x = np.random.rand(1, 3, 32, 32).astype("float32")
with fluid.dygraph.guard():
    conv2d = Conv2D(num_channels=3,
                    num_filters=2,
                    filter_size=3,
                    act='relu')
    data = to_variable(x)
    conv = conv2d(data)
    print(conv.numpy())
# >>> supplied (not in the seed): what the test checks against a NumPy convolution
import sys
np.savez(sys.argv[1], x=x, weight=conv2d.weight.numpy(), bias=conv2d.bias.numpy(),
         out=conv.numpy())
# <<<
