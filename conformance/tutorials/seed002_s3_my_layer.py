# Seed 002 (Paddle 1.4 "DyGraph" guide), section "Bulid a Network based on DyGraph": MyLayer,
# verbatim (re-indented): run with `python -m dygrad.compat seed002_s3_my_layer.py`.
import paddle.fluid as fluid
import numpy as np

class MyLayer(fluid.Layer):
    def __init__(self, name_scope):
        super(MyLayer, self).__init__(name_scope)

    def forward(self, inputs):
        x = fluid.layers.relu(inputs)
        self._x_for_debug = x
        x = fluid.layers.elementwise_mul(x, x)
        x = fluid.layers.reduce_sum(x)
        return [x]

    def build_once(self, input):
        pass

np_inp = np.array([1.0, 2.0, -1.0], dtype=np.float32)

with fluid.dygraph.guard():
    var_inp = fluid.dygraph.base.to_variable(np_inp)
    l = MyLayer("my_layer")
    x = l(var_inp)[0]
    dy_out = x.numpy()

    x.backward()
    dy_grad = l._x_for_debug.gradient()
# >>> supplied (not in the seed): show what the seed computed
print("dy_out", dy_out)
print("dy_grad", dy_grad.tolist())
print("full_name", l.full_name())
# <<<
