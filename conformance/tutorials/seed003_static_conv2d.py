# Seed 003 (blog post on Paddle's static and dynamic graphs), its static conv2d program,
# verbatim: run with `python -m dygrad.compat seed003_static_conv2d.py OUT.npz`.
import paddle.fluid as fluid
import numpy as np
data = fluid.layers.data(name='data', shape=[3, 32, 32], dtype='float32')
param_attr = fluid.ParamAttr(name='conv2d.weight', initializer=fluid.initializer.Xavier(uniform=False), learning_rate=0.001)
res = fluid.layers.conv2d(input=data, num_filters=2, filter_size=3, act="relu", param_attr=param_attr)
place = fluid.CPUPlace()
exe = fluid.Executor(place)
exe.run(fluid.default_startup_program())
x = np.random.rand(1, 3, 32, 32).astype("float32")
output = exe.run(feed={"data": x}, fetch_list=[res])
print(output)
# >>> supplied (not in the seed): what the test checks against a NumPy convolution
import sys
scope = fluid.global_scope()
np.savez(sys.argv[1], x=x, weight=np.array(scope.find_var('conv2d.weight').get_tensor()),
         out=output[0], data_shape=np.array(data.shape))
# <<<
