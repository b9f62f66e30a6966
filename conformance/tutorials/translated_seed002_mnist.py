# Seed 002 (Paddle 1.4 "DyGraph" guide), its MNIST network and training loop written with the
# Paddle 2.x API, as a Paddle 2.x user writes it: SimpleImgConvPool (conv 5x5, ReLU, max pool
# 2x2) twice with 20 and 50 filters, then a fully connected layer of 10 (the 2.x default
# initializers; the seed's tiny Normal scale was for its softmax-output FC); Adam (0.005), batch 64,
# 3 epochs. Run with `python -m dygrad.compat <this file>`.
import numpy as np
import paddle
import paddle.nn as nn
import paddle.nn.functional as F
from paddle.vision.datasets import MNIST
from paddle.vision.transforms import Compose, Normalize


class SimpleImgConvPool(nn.Layer):
    def __init__(self, num_channels, num_filters, filter_size, pool_size, pool_stride):
        super().__init__()
        self._conv2d = nn.Conv2D(num_channels, num_filters, filter_size)
        self._pool2d = nn.MaxPool2D(kernel_size=pool_size, stride=pool_stride)

    def forward(self, inputs):
        return self._pool2d(F.relu(self._conv2d(inputs)))


class MNISTNet(nn.Layer):
    def __init__(self):
        super().__init__()
        self._simple_img_conv_pool_1 = SimpleImgConvPool(1, 20, 5, 2, 2)
        self._simple_img_conv_pool_2 = SimpleImgConvPool(20, 50, 5, 2, 2)
        pool_2_shape = 50 * 4 * 4
        SIZE = 10
        self._fc = nn.Linear(pool_2_shape, SIZE)

    def forward(self, inputs):
        x = self._simple_img_conv_pool_1(inputs)
        x = self._simple_img_conv_pool_2(x)
        x = paddle.flatten(x, start_axis=1)
        return self._fc(x)


paddle.seed(0)
np.random.seed(0)
BATCH_SIZE = 64
transform = Compose([Normalize(mean=[0.0], std=[255.0], data_format='CHW')])  # pixels in [0, 1]
train_loader = paddle.io.DataLoader(MNIST(mode='train', transform=transform),
                                    batch_size=BATCH_SIZE, shuffle=True, drop_last=True)
test_loader = paddle.io.DataLoader(MNIST(mode='test', transform=transform), batch_size=1000)

mnist = MNISTNet()
adam = paddle.optimizer.Adam(learning_rate=0.005, parameters=mnist.parameters())
for epoch in range(3):
    mnist.train()
    for batch_id, (img, label) in enumerate(train_loader):
        loss = F.cross_entropy(mnist(img), label)
        loss.backward()
        adam.step()
        adam.clear_grad()
        if batch_id % 20 == 0:
            print("epoch {} batch {} loss {}".format(epoch, batch_id, float(loss)))
    mnist.eval()
    correct = total = 0
    with paddle.no_grad():
        for img, label in test_loader:
            pred = paddle.argmax(mnist(img), axis=1)
            correct += int((pred == label.flatten()).astype('int64').sum())
            total += label.shape[0]
    print("epoch {} test accuracy {:.4f} on {} digits".format(epoch, correct / total, total))
