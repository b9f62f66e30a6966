# Seed 002 (Paddle 1.4 "DyGraph" guide), sections "Train model by DyGraph" (steps 1-5) and "Save
# the Model Parameters", verbatim (re-indented): `python -m dygrad.compat <this file> BATCH EPOCHS`.
# >>> supplied (not in the seed): the imports, constants and optimizer the seed leaves out
import sys
import paddle
import paddle.fluid as fluid
import numpy as np
from paddle.fluid.dygraph.nn import Conv2D, Pool2D, FC
from paddle.fluid.dygraph.base import to_variable
from paddle.fluid.optimizer import SGDOptimizer
BATCH_SIZE, epoch_num = int(sys.argv[1]), int(sys.argv[2])
# <<<
train_reader = paddle.batch(
paddle.dataset.mnist.train(), batch_size=BATCH_SIZE, drop_last=True)

class SimpleImgConvPool(fluid.dygraph.Layer):
    def __init__(self,
                 name_scope,
                 num_channels,
                 num_filters,
                 filter_size,
                 pool_size,
                 pool_stride,
                 pool_padding=0,
                 pool_type='max',
                 global_pooling=False,
                 conv_stride=1,
                 conv_padding=0,
                 conv_dilation=1,
                 conv_groups=1,
                 act=None,
                 use_cudnn=False,
                 param_attr=None,
                 bias_attr=None):
        super(SimpleImgConvPool, self).__init__(name_scope)

        self._conv2d = Conv2D(
            self.full_name(),
            num_channels=num_channels,
            num_filters=num_filters,
            filter_size=filter_size,
            stride=conv_stride,
            padding=conv_padding,
            dilation=conv_dilation,
            groups=conv_groups,
            param_attr=None,
            bias_attr=None,
            use_cudnn=use_cudnn)

        self._pool2d = Pool2D(
            self.full_name(),
            pool_size=pool_size,
            pool_type=pool_type,
            pool_stride=pool_stride,
            pool_padding=pool_padding,
            global_pooling=global_pooling,
            use_cudnn=use_cudnn)

    def forward(self, inputs):
        x = self._conv2d(inputs)
        x = self._pool2d(x)
        return x

class MNIST(fluid.dygraph.Layer):
    def __init__(self, name_scope):
        super(MNIST, self).__init__(name_scope)

        self._simple_img_conv_pool_1 = SimpleImgConvPool(
            self.full_name(), 1, 20, 5, 2, 2, act="relu")

        self._simple_img_conv_pool_2 = SimpleImgConvPool(
            self.full_name(), 20, 50, 5, 2, 2, act="relu")

        pool_2_shape = 50 * 4 * 4
        SIZE = 10
        scale = (2.0 / (pool_2_shape**2 * SIZE))**0.5
        self._fc = FC(self.full_name(),
                      10,
                      param_attr=fluid.param_attr.ParamAttr(
                          initializer=fluid.initializer.NormalInitializer(
                              loc=0.0, scale=scale)),
                      act="softmax")

    def forward(self, inputs):
        x = self._simple_img_conv_pool_1(inputs)
        x = self._simple_img_conv_pool_2(x)
        x = self._fc(x)
        return x

with fluid.dygraph.guard():
    mnist = MNIST("mnist")
    id, data = list(enumerate(train_reader()))[0]
    dy_x_data = np.array(
        [x[0].reshape(1, 28, 28)
         for x in data]).astype('float32')
    img = to_variable(dy_x_data)
    print("cost is: {}".format(mnist(img).numpy()))

    # >>> supplied (not in the seed): the optimizer, and the loss of the first batch before
    sgd = SGDOptimizer(learning_rate=1e-3)
    first = [(x[0].reshape(1, 28, 28), x[1]) for x in data]
    def first_batch_loss():
        cost = mnist(to_variable(np.array([x for x, _ in first]).astype('float32')))
        label = to_variable(np.array([y for _, y in first]).astype('int64').reshape(-1, 1))
        return float(fluid.layers.mean(fluid.layers.cross_entropy(cost, label)).numpy())
    print("first batch loss before training: {}".format(first_batch_loss()))
    # <<<
    for epoch in range(epoch_num):
        for batch_id, data in enumerate(train_reader()):
            dy_x_data = np.array(
                [x[0].reshape(1, 28, 28)
                 for x in data]).astype('float32')
            y_data = np.array(
                [x[1] for x in data]).astype('int64').reshape(BATCH_SIZE, 1)

            img = to_variable(dy_x_data)
            label = to_variable(y_data)
            label.stop_gradient = True

            cost = mnist(img)
            loss = fluid.layers.cross_entropy(cost, label)
            avg_loss = fluid.layers.mean(loss)

            dy_out = avg_loss.numpy()
            avg_loss.backward()
            sgd.minimize(avg_loss)
            mnist.clear_gradients()
    # >>> supplied (not in the seed): the loss of the first batch after, the seed's dict
    print("first batch loss after training: {}".format(first_batch_loss()))
    print("parameters updated: {}".format(len(sgd._param_groups[0]["params"])))
    dy_param_init_value = {}
    # <<<

    for epoch in range(epoch_num):
        for batch_id, data in enumerate(train_reader()):
            dy_x_data = np.array(
                [x[0].reshape(1, 28, 28)
                 for x in data]).astype('float32')
            y_data = np.array(
                [x[1] for x in data]).astype('int64').reshape(BATCH_SIZE, 1)

            img = to_variable(dy_x_data)
            label = to_variable(y_data)
            label.stop_gradient = True

            cost = mnist(img)
            loss = fluid.layers.cross_entropy(cost, label)
            avg_loss = fluid.layers.mean(loss)

            dy_out = avg_loss.numpy()

            avg_loss.backward()
            sgd.minimize(avg_loss)
            fluid.dygraph.save_persistables(mnist.state_dict(), "save_dir")
            mnist.clear_gradients()

            for param in mnist.parameters():
                dy_param_init_value[param.name] = param.numpy()

            mnist.load_dict(fluid.dygraph.load_persistables(mnist.state_dict(), "save_dir"))
            restore = mnist.parameters()
    # check save and load
    success = True
    for value in restore:
        if (not np.allclose(value.numpy(), dy_param_init_value[value.name])) or (not np.isfinite(value.numpy().all())) or (np.isnan(value.numpy().any())):
            success = False
    print("model save and load success? {}".format(success))
