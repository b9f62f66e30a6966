"""paddle.vision.transforms beyond the basics: flips, random resized crops, colour
adjustments, grayscale, rotation, affine and perspective warps, erasing.

Expected values are NumPy statements, or, where a comment says so, values captured from
PaddlePaddle 3.3.1 (through its Pillow path for uint8 images, its Tensor path for floats).
"""

import math

import numpy as np
import pytest

import dygrad as paddle
from dygrad.vision import transforms as T
from dygrad.vision.transforms import functional as F

try:
    from PIL import Image
except ImportError:
    Image = None

RNG = np.random.default_rng(0)
HWC = RNG.integers(0, 256, (5, 7, 3)).astype(np.uint8)
# an RGB uint8 image with saturated, gray and mixed pixels
RGB = np.array([[[200, 30, 90], [12, 250, 128], [77, 77, 77]],
                [[0, 0, 255], [140, 60, 20], [255, 255, 0]]], np.uint8)


def chw(array):
    """An HWC array as a CHW Tensor."""
    return paddle.to_tensor(np.ascontiguousarray(array.transpose(2, 0, 1)))


# ---------------------------------------------------------------------------
# vflip / RandomVerticalFlip
# ---------------------------------------------------------------------------

def test_vflip_every_image_kind():
    np.testing.assert_array_equal(F.vflip(HWC), HWC[::-1])
    np.testing.assert_array_equal(F.vflip(HWC[:, :, 0]), HWC[::-1, :, 0])
    out = F.vflip(chw(HWC))
    assert isinstance(out, paddle.Tensor) and out.shape == [3, 5, 7]
    np.testing.assert_array_equal(out.numpy(), HWC[::-1].transpose(2, 0, 1))
    batch = paddle.to_tensor(np.arange(24.0).reshape(2, 1, 3, 4))
    np.testing.assert_array_equal(F.vflip(batch).numpy(), batch.numpy()[:, :, ::-1])
    with pytest.raises(TypeError, match="vflip: img should be"):
        F.vflip([1, 2])


@pytest.mark.skipif(Image is None, reason="Pillow is not installed")
def test_pil_images_come_back_as_arrays():
    out = F.vflip(Image.fromarray(HWC))
    assert isinstance(out, np.ndarray)
    np.testing.assert_array_equal(out, HWC[::-1])
    np.testing.assert_array_equal(F.to_grayscale(Image.fromarray(RGB)), F.to_grayscale(RGB))


def test_random_vertical_flip():
    np.testing.assert_array_equal(T.RandomVerticalFlip(1.0)(HWC), HWC[::-1])
    assert T.RandomVerticalFlip(0.0)(HWC) is HWC
    flip = T.RandomVerticalFlip(keys=("image", "image"))
    paddle.seed(3)
    draws = [flip((HWC, HWC + 1)) for _ in range(40)]
    assert all(np.array_equal(a + 1, b) for a, b in draws)  # one draw shared by both keys
    flipped = sum(not np.array_equal(a, HWC) for a, _ in draws)
    assert 8 <= flipped <= 32
    paddle.seed(3)
    assert all(np.array_equal(flip((HWC, HWC + 1))[0], a) for a, _ in draws)
    with pytest.raises(ValueError, match="prob must be between 0 and 1"):
        T.RandomVerticalFlip(-0.1)


# ---------------------------------------------------------------------------
# RandomResizedCrop
# ---------------------------------------------------------------------------

def test_random_resized_crop_is_a_resized_window():
    img = RNG.random((20, 30, 3)).astype(np.float32)
    crop = T.RandomResizedCrop((8, 6), scale=(0.2, 0.6), ratio=(0.5, 2.0))
    paddle.seed(11)
    for _ in range(20):
        out = crop(img)
        top, left, h, w = crop.params
        assert out.shape == (8, 6, 3) and out.dtype == np.float32
        assert 0 <= top <= 20 - h and 0 <= left <= 30 - w
        # area and aspect drawn in range (up to the rounding to whole pixels)
        assert 0.2 * 600 - (h + w + 1) <= h * w <= 0.6 * 600 + (h + w + 1)
        assert 0.5 * (h - 1) / (h + 1) <= w / h and w / h <= 2.0 * (w + 1) / (w - 1)
        np.testing.assert_array_equal(out, F.resize(img[top:top + h, left:left + w], (8, 6)))


def test_random_resized_crop_tensor_int_size_and_seed():
    img = paddle.to_tensor(RNG.random((2, 3, 16, 12)).astype(np.float32))
    crop = T.RandomResizedCrop(5, interpolation="nearest")
    paddle.seed(4)
    first = crop(img)
    params = crop.params
    assert first.shape == [2, 3, 5, 5]
    paddle.seed(4)
    np.testing.assert_array_equal(crop(img).numpy(), first.numpy())
    assert crop.params == params


def test_random_resized_crop_whole_image_and_fallback():
    img = np.arange(48.0).reshape(6, 8)
    out = T.RandomResizedCrop((6, 8), scale=(1.0, 1.0), ratio=(8 / 6, 8 / 6))(img)
    np.testing.assert_array_equal(out, img)
    # no draw can fit (a larger area than the image): the central crop, its aspect ratio
    # brought into `ratio`
    wide = T.RandomResizedCrop(4, scale=(2.0, 3.0))
    wide(np.zeros((4, 10)))
    assert wide.params == (0, 2, 4, 5)  # width round(4 * 4/3) = 5, centred
    tall = T.RandomResizedCrop(4, scale=(2.0, 3.0))
    tall(np.zeros((10, 4)))
    assert tall.params == (2, 0, 5, 4)  # height round(4 / (3/4)) = 5
    fits = T.RandomResizedCrop(4, scale=(2.0, 3.0))
    fits(np.zeros((9, 10)))
    assert fits.params == (0, 0, 9, 10)
    with pytest.raises(ValueError, match="scale should be a \\(min, max\\) pair"):
        T.RandomResizedCrop(4, scale=(1.0, 0.5))
    with pytest.raises(ValueError, match="ratio"):
        T.RandomResizedCrop(4, ratio=(2.0,))


# ---------------------------------------------------------------------------
# colour adjustments
# ---------------------------------------------------------------------------

# Paddle 3.3.1, functional.adjust_* / to_grayscale of Image.fromarray(RGB) (its Pillow path)
PADDLE_UINT8 = {
    ("brightness", 1.3): [[[255, 39, 116], [15, 255, 166], [100, 100, 100]],
                          [[0, 0, 255], [182, 78, 26], [255, 255, 0]]],
    ("contrast", 0.6): [[[164, 62, 98], [51, 194, 121], [90, 90, 90]],
                        [[44, 44, 197], [128, 80, 56], [197, 197, 44]]],
    ("contrast", 1.7): [[[255, 0, 75], [0, 255, 139], [53, 53, 53]],
                        [[0, 0, 255], [160, 24, 0], [255, 255, 0]]],
    ("saturation", 0.4): [[[132, 64, 88], [103, 199, 150], [77, 77, 77]],
                          [[17, 17, 119], [103, 71, 55], [237, 237, 135]]],
    ("saturation", 1.5): [[[255, 1, 91], [0, 255, 109], [77, 77, 77]],
                          [[0, 0, 255], [170, 50, 0], [255, 255, 0]]],
}


@pytest.mark.parametrize("kind,factor", list(PADDLE_UINT8))
def test_adjust_uint8_matches_paddle(kind, factor):
    adjust = getattr(F, f"adjust_{kind}")
    out = adjust(RGB, factor)
    assert out.dtype == np.uint8
    np.testing.assert_array_equal(out, PADDLE_UINT8[kind, factor])
    tensor = adjust(chw(RGB), factor)
    assert tensor.dtype == paddle.uint8
    np.testing.assert_array_equal(tensor.numpy().transpose(1, 2, 0), PADDLE_UINT8[kind, factor])


def test_to_grayscale_matches_paddle():
    # Paddle 3.3.1: functional.to_grayscale(Image.fromarray(RGB))
    expected = np.array([[88, 165, 77], [29, 79, 226]], np.uint8)
    out = F.to_grayscale(RGB)
    assert out.shape == (2, 3, 1) and out.dtype == np.uint8
    np.testing.assert_array_equal(out[:, :, 0], expected)
    three = F.to_grayscale(RGB, 3)
    np.testing.assert_array_equal(three, np.repeat(expected[:, :, None], 3, axis=2))
    tensor = F.to_grayscale(chw(RGB), num_output_channels=3)
    assert tensor.shape == [3, 2, 3]
    np.testing.assert_array_equal(tensor.numpy(), np.repeat(expected[None], 3, axis=0))


def test_to_grayscale_float_batches_and_gray_input():
    img = RNG.random((2, 3, 4, 5)).astype(np.float32)
    out = F.to_grayscale(paddle.to_tensor(img))
    assert out.shape == [2, 1, 4, 5] and out.dtype == paddle.float32
    expected = 0.299 * img[:, 0] + 0.587 * img[:, 1] + 0.114 * img[:, 2]
    np.testing.assert_allclose(out.numpy()[:, 0], expected, rtol=1e-6)
    gray = HWC[:, :, 0]
    np.testing.assert_array_equal(F.to_grayscale(gray, 3), np.stack([gray] * 3, axis=2))
    assert T.Grayscale()(gray).shape == (5, 7, 1)
    assert T.Grayscale(3)(paddle.zeros([1, 4, 4])).shape == [3, 4, 4]
    with pytest.raises(ValueError, match="num_output_channels should be 1 or 3, got 2"):
        F.to_grayscale(HWC, 2)
    with pytest.raises(ValueError, match="to_grayscale: the image should have 1 or 3"):
        T.Grayscale()(np.zeros((2, 2, 4)))


def test_adjust_float_images_against_numpy():
    img = RNG.random((3, 4, 5)).astype(np.float32)
    gray = np.tensordot([0.299, 0.587, 0.114], img, axes=1)[None]
    t = paddle.to_tensor(img)
    np.testing.assert_allclose(F.adjust_brightness(t, 1.4).numpy(), np.clip(img * 1.4, 0, 1),
                               rtol=1e-6)
    np.testing.assert_allclose(F.adjust_saturation(t, 1.6).numpy(),
                               np.clip(1.6 * img - 0.6 * gray, 0, 1), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(F.adjust_contrast(t, 0.3).numpy(),
                               np.clip(0.3 * img + 0.7 * gray.mean(), 0, 1), rtol=1e-5)
    out = F.adjust_contrast(img.transpose(1, 2, 0), 0.0)  # an HWC array: all the mean gray
    np.testing.assert_allclose(out, np.full((4, 5, 3), gray.mean()), rtol=1e-5)
    assert out.dtype == np.float32


def test_adjust_contrast_per_image_of_a_batch_and_one_channel():
    batch = np.stack([np.full((1, 2, 2), 0.2), np.full((1, 2, 2), 0.8)]).astype(np.float32)
    batch[:, :, 0, 0] += 0.1
    out = F.adjust_contrast(paddle.to_tensor(batch), 0.0).numpy()
    np.testing.assert_allclose(out, np.broadcast_to(batch.mean(axis=(1, 2, 3), keepdims=True),
                                                    batch.shape), rtol=1e-6)
    one = HWC[:, :, :1]
    assert F.adjust_saturation(one, 0.0) is one and F.adjust_hue(one, 0.3) is one


# Paddle 3.3.1: functional.adjust_hue(to_tensor(RGB CHW) / 255, factor) (its Tensor path)
PADDLE_HUE = {
    0.25: [[[0.68627, 0.04706, 0.30196], [1.0, 0.15686, 0.0]],
           [[0.78431, 0.05882, 0.30196], [0.0, 0.54902, 1.0]],
           [[0.11765, 0.98039, 0.30196], [0.5, 0.07843, 0.5]]],
    -0.4: [[[0.11765, 0.98039, 0.30196], [0.4, 0.07843, 0.6]],
           [[0.61961, 0.12863, 0.30196], [1.0, 0.1098, 0.0]],
           [[0.78431, 0.04706, 0.30196], [0.0, 0.54902, 1.0]]],
}


@pytest.mark.parametrize("factor", list(PADDLE_HUE))
def test_adjust_hue_matches_paddle(factor):
    img = RGB.transpose(2, 0, 1).astype(np.float32) / 255
    out = F.adjust_hue(paddle.to_tensor(img), factor)
    assert out.dtype == paddle.float32
    np.testing.assert_allclose(out.numpy(), PADDLE_HUE[factor], atol=2e-5)
    # uint8: the same colours, rounded back to whole levels
    as_uint8 = F.adjust_hue(RGB, factor)
    assert as_uint8.dtype == np.uint8
    np.testing.assert_array_equal(as_uint8, np.rint(np.transpose(PADDLE_HUE[factor], (1, 2, 0))
                                                     * 255))


def test_adjust_hue_round_trips():
    np.testing.assert_array_equal(F.adjust_hue(HWC, 0.0), HWC)
    img = RNG.random((3, 4, 4)).astype(np.float64)
    there = F.adjust_hue(paddle.to_tensor(img), 0.3)
    np.testing.assert_allclose(F.adjust_hue(there, -0.3).numpy(), img, atol=1e-12)
    # a half turn maps each colour to its complement within the same min/max
    np.testing.assert_allclose(F.adjust_hue(np.array([[[1.0, 0.0, 0.0]]]), 0.5), [[[0, 1, 1]]])


def test_colour_argument_errors():
    with pytest.raises(ValueError, match="adjust_brightness: brightness_factor should be a "
                                         "non-negative number"):
        F.adjust_brightness(HWC, -1)
    with pytest.raises(ValueError, match="contrast_factor"):
        F.adjust_contrast(HWC, -0.5)
    with pytest.raises(ValueError, match="hue_factor should be in \\[-0.5, 0.5\\], got 0.7"):
        F.adjust_hue(HWC, 0.7)
    with pytest.raises(ValueError, match="adjust_saturation: the image should have 1 or 3"):
        F.adjust_saturation(np.zeros((2, 2, 2)), 0.5)


def test_colour_transform_ranges():
    assert T.BrightnessTransform(0.4).value == (0.6, 1.4)
    assert T.ContrastTransform(1.5).value == (0.0, 2.5)  # the low end clipped at 0
    assert T.SaturationTransform((0.2, 0.9)).value == (0.2, 0.9)
    assert T.HueTransform(0.1).value == (-0.1, 0.1)
    assert T.BrightnessTransform(0).value is None and T.HueTransform(0)(HWC) is HWC
    with pytest.raises(ValueError, match="must be non-negative"):
        T.ContrastTransform(-1)
    with pytest.raises(ValueError, match="HueTransform: values should be ordered and between"):
        T.HueTransform(0.6)
    with pytest.raises(ValueError, match="between"):
        T.SaturationTransform((0.9, 0.2))
    with pytest.raises(TypeError, match="a number or a \\(low, high\\) pair"):
        T.BrightnessTransform("x")


def test_colour_transforms_draw_in_range():
    img = RNG.random((4, 4, 3)).astype(np.float32) * 0.5
    bright = T.BrightnessTransform(0.5)
    paddle.seed(2)
    factors = []
    for _ in range(30):
        out = bright(img)
        factors.append(bright.params)
        np.testing.assert_allclose(out, np.clip(img * bright.params, 0, 1), rtol=1e-6)
    assert 0.5 <= min(factors) and max(factors) <= 1.5 and max(factors) - min(factors) > 0.5
    hue = T.HueTransform((0.1, 0.2))
    for _ in range(5):
        out = hue(img)
        assert 0.1 <= hue.params <= 0.2
        np.testing.assert_array_equal(out, F.adjust_hue(img, hue.params))


def test_color_jitter_random_order_and_factors():
    img = paddle.to_tensor(RNG.random((3, 4, 4)).astype(np.float32))
    jitter = T.ColorJitter(brightness=0.3, contrast=0.2, saturation=0.4, hue=0.1)
    paddle.seed(8)
    orders = set()
    for _ in range(20):
        out = jitter(img)
        names = tuple(adjust.__name__ for adjust, _ in jitter.params)
        orders.add(names)
        assert sorted(names) == ["adjust_brightness", "adjust_contrast", "adjust_hue",
                                 "adjust_saturation"]
        ranges = {"adjust_brightness": (0.7, 1.3), "adjust_contrast": (0.8, 1.2),
                  "adjust_saturation": (0.6, 1.4), "adjust_hue": (-0.1, 0.1)}
        expected = img
        for adjust, factor in jitter.params:
            low, high = ranges[adjust.__name__]
            assert low <= factor <= high
            expected = adjust(expected, factor)
        np.testing.assert_array_equal(out.numpy(), expected.numpy())
    assert len(orders) > 5
    assert T.ColorJitter()(HWC) is HWC  # nothing to change
    only = T.ColorJitter(saturation=0.5)
    only(HWC)
    assert [a.__name__ for a, _ in only.params] == ["adjust_saturation"]
    with pytest.raises(ValueError, match="must be non-negative"):
        T.ColorJitter(brightness=-0.1)


# ---------------------------------------------------------------------------
# rotate / RandomRotation
# ---------------------------------------------------------------------------

def _ramps():
    """A [3, 4, 6] Tensor: channel 0 is arange(24), channels 1 and 2 the same plus 100, 200
    (the oracle's input for the warps)."""
    base = np.arange(24, dtype=np.float32).reshape(1, 4, 6)
    return paddle.to_tensor(np.concatenate([base, base + 100, base + 200]))


SQUARE = np.arange(5 * 5 * 2).reshape(5, 5, 2).astype(np.uint8)
# Paddle 3.3.1: functional.rotate(Tensor arange(24).reshape([1, 4, 6]) float32, ...)
PADDLE_ROTATE = {
    (30, "nearest", None, 0): [[0, 0, 3, 4, 11, 11], [1, 1, 8, 9, 16, 17],
                               [6, 7, 14, 15, 22, 22], [12, 12, 19, 20, 0, 0]],
    (30, "bilinear", None, 0): [[0.0, 0.3968, 2.5475, 6.3888, 10.2548, 4.6894],
                                [0.3904, 3.3529, 7.2189, 11.0849, 14.951, 18.817],
                                [4.183, 8.049, 11.9151, 15.7811, 19.6471, 14.9613],
                                [3.18, 12.7452, 16.6112, 18.2521, 4.2807, 0.0]],
    (30, "nearest", (1, 1), 99): [[0, 1, 8, 9, 16, 17], [6, 7, 14, 14, 21, 22],
                                  [99, 12, 19, 20, 99, 99], [99, 18, 19, 99, 99, 99]],
}


def test_rotate_quarter_turns_are_exact():
    for k in (1, 2, 3):
        np.testing.assert_array_equal(F.rotate(SQUARE, 90 * k), np.rot90(SQUARE, k))
        out = F.rotate(chw(SQUARE), 90 * k, interpolation="bilinear")
        np.testing.assert_array_equal(out.numpy(), np.rot90(SQUARE, k).transpose(2, 0, 1))
    wide = np.arange(24.0).reshape(4, 6)
    np.testing.assert_array_equal(F.rotate(wide, -90, expand=True), np.rot90(wide, -1))
    # without expand the frame stays 4x6: the central part of the turned image, 0 beside it
    inner = F.rotate(wide, 90)
    np.testing.assert_array_equal(inner[:, 1:5], np.rot90(wide)[1:5])
    assert (inner[:, [0, 5]] == 0).all()


@pytest.mark.parametrize("key", list(PADDLE_ROTATE))
def test_rotate_matches_paddle(key):
    angle, mode, center, fill = key
    img = paddle.to_tensor(np.arange(24, dtype=np.float32).reshape(1, 4, 6))
    out = F.rotate(img, angle, mode, center=center, fill=fill)
    assert out.shape == [1, 4, 6] and out.dtype == paddle.float32
    np.testing.assert_allclose(out.numpy()[0], PADDLE_ROTATE[key], atol=1e-4)


def test_rotate_expand_matches_paddle():
    # Paddle 3.3.1: functional.rotate(Tensor arange(24).reshape([1, 4, 6]), 30, expand=True)
    expected = [[0, 0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 4, 5, 0, 0], [0, 0, 0, 3, 4, 11, 11, 0],
                [0, 1, 1, 8, 9, 16, 17, 0], [0, 6, 7, 14, 15, 22, 22, 0],
                [0, 12, 12, 19, 20, 0, 0, 0], [0, 0, 18, 19, 0, 0, 0, 0],
                [0, 0, 0, 0, 0, 0, 0, 0]]
    out = F.rotate(np.arange(24, dtype=np.float32).reshape(4, 6, 1), 30, expand=True)
    assert out.shape == (8, 8, 1)
    np.testing.assert_array_equal(out[:, :, 0], expected)


def test_rotate_fill_per_channel_dtype_and_errors():
    img = np.full((4, 4, 3), 7, np.uint8)
    out = F.rotate(img, 45, fill=(1, 2, 3))
    assert out.dtype == np.uint8 and out.shape == (4, 4, 3)
    assert out[0, 0].tolist() == [1, 2, 3] and out[2, 2].tolist() == [7, 7, 7]
    bilinear = F.rotate(img.astype(np.float32), 45, "bilinear", fill=(1, 2, 3))
    np.testing.assert_allclose(bilinear[1:3, 1:3], 7, rtol=1e-6)
    # at the border Paddle weights the zero-padded sample by the part inside, then adds the fill
    # for the part outside: all 3 channels' corners are below 7 here
    assert bilinear.dtype == np.float32 and (bilinear[0, 0] < 7).all()
    with pytest.raises(ValueError, match="rotate: interpolation should be one of"):
        F.rotate(img, 10, "bicubic")
    with pytest.raises(ValueError, match="rotate: fill has 2 values"):
        F.rotate(img, 10, fill=(1, 2))
    with pytest.raises(TypeError, match="center should be a \\(x, y\\) pair"):
        F.rotate(img, 10, center=3)


def test_random_rotation():
    rotation = T.RandomRotation((10, 20), interpolation="bilinear")
    paddle.seed(1)
    angles = []
    for _ in range(10):
        out = rotation(SQUARE)
        angles.append(rotation.params)
        np.testing.assert_array_equal(out, F.rotate(SQUARE, rotation.params, "bilinear"))
    assert all(10 <= a <= 20 for a in angles) and len(set(angles)) == 10
    assert T.RandomRotation(30).degrees == [-30.0, 30.0]
    assert T.RandomRotation(90, expand=True)(np.zeros((4, 6))).shape[0] >= 4
    with pytest.raises(ValueError, match="must be non-negative"):
        T.RandomRotation(-5)
    with pytest.raises(ValueError, match="sequence of length 2"):
        T.RandomRotation((1, 2, 3))


# ---------------------------------------------------------------------------
# affine / RandomAffine
# ---------------------------------------------------------------------------

def test_affine_simple_cases_against_numpy():
    np.testing.assert_array_equal(F.affine(SQUARE, 0, [0, 0], 1, 0), SQUARE)
    np.testing.assert_array_equal(F.affine(SQUARE, 90, (0, 0), 1.0, 0), np.rot90(SQUARE, -1))
    shifted = F.affine(SQUARE, 0, [2, 1], 1, [0, 0])  # right by 2, down by 1
    expected = np.zeros_like(SQUARE)
    expected[1:, 2:] = SQUARE[:-1, :-2]
    np.testing.assert_array_equal(shifted, expected)
    # a scale of 2 about the centre of a 4x4 image spreads each pixel over 2x2
    img = np.arange(16.0).reshape(4, 4)
    np.testing.assert_array_equal(F.affine(img, 0, [0, 0], 2, 0),
                                  np.repeat(np.repeat(img[1:3, 1:3], 2, 0), 2, 1))
    # an x-shear moves each row by -tan(shear) times its distance from the centre row
    sheared = F.affine(np.tile(np.arange(8.0), (8, 1)), 0, [0, 0], 1, [45, 0], fill=-1)
    assert sheared[0, :3].tolist() == [-1, -1, -1] and sheared[7, 5:].tolist() == [-1, -1, -1]


def test_affine_matches_paddle():
    # Paddle 3.3.1: functional.affine(Tensor [3, 4, 6] with channel 0 = arange(24), 20,
    # [1, -1], 1.2, [10, 5], interpolation), channel 0
    nearest = [[12, 12, 7, 8, 9, 9], [18, 13, 14, 14, 15, 16], [19, 19, 20, 21, 22, 16],
               [0, 0, 0, 0, 22, 23]]
    bilinear = [[5.1295, 10.2476, 9.6934, 9.1393, 8.5851, 8.031],
                [16.0773, 15.5231, 14.969, 14.4149, 13.8607, 13.3066],
                [5.2103, 10.7496, 18.5781, 19.6904, 19.1363, 18.5821],
                [0.0, 0.0, 0.4927, 2.9287, 7.5917, 14.6912]]
    img = _ramps()
    out = F.affine(img, 20, [1, -1], 1.2, [10, 5])
    np.testing.assert_array_equal(out.numpy()[0], nearest)
    out = F.affine(img, 20, [1, -1], 1.2, [10, 5], interpolation="bilinear")
    np.testing.assert_allclose(out.numpy()[0], bilinear, atol=1e-4)


def test_affine_argument_errors():
    with pytest.raises(TypeError, match="affine: angle should be a number"):
        F.affine(SQUARE, "90", [0, 0], 1, 0)
    with pytest.raises(TypeError, match="translate should be a \\(dx, dy\\) pair"):
        F.affine(SQUARE, 0, 1, 1, 0)
    with pytest.raises(ValueError, match="scale should be positive, got 0"):
        F.affine(SQUARE, 0, [0, 0], 0, 0)
    with pytest.raises(TypeError, match="shear should be a number or 1 or 2 numbers"):
        F.affine(SQUARE, 0, [0, 0], 1, [1, 2, 3])


def test_random_affine_draws_in_range():
    img = np.zeros((10, 20))
    transform = T.RandomAffine(15, translate=(0.1, 0.3), scale=(0.8, 1.2),
                               shear=(-5, 5, 10, 20))
    paddle.seed(6)
    for _ in range(20):
        out = transform(img)
        angle, (tx, ty), scale, (sx, sy) = transform.params
        assert -15 <= angle <= 15 and 0.8 <= scale <= 1.2
        assert isinstance(tx, int) and abs(tx) <= 2 and abs(ty) <= 3
        assert -5 <= sx <= 5 and 10 <= sy <= 20 and out.shape == (10, 20)
    assert T.RandomAffine(0).params is None
    assert T.RandomAffine(0, shear=7).shear == [-7.0, 7.0]
    with pytest.raises(ValueError, match="translate should be 2 fractions"):
        T.RandomAffine(0, translate=(0.5, 1.5))
    with pytest.raises(ValueError, match="scale should be 2 positive numbers"):
        T.RandomAffine(0, scale=(0, 1))
    with pytest.raises(ValueError, match="shear should be a number or a sequence of length 2 or 4"):
        T.RandomAffine(0, shear=(1, 2, 3))


# ---------------------------------------------------------------------------
# perspective / RandomPerspective
# ---------------------------------------------------------------------------

def test_perspective_identity_and_paddle():
    corners = [[0, 0], [6, 0], [6, 4], [0, 4]]
    np.testing.assert_allclose(F.perspective(SQUARE, corners, corners), SQUARE)
    # Paddle 3.3.1: functional.perspective(Tensor [3, 4, 6] with channel 0 = arange(24),
    # startpoints, endpoints, 'bilinear'), channel 0
    expected = [[0.3121, 1.6196, 0.4375, 0.0, 0.0, 0.0],
                [5.601, 10.8479, 9.9714, 8.8199, 6.3499, 0.0],
                [15.6728, 16.6543, 16.5833, 16.4953, 16.383, 0.0616],
                [7.1908, 9.0097, 11.4895, 14.9662, 20.0083, 22.2719]]
    img = _ramps()
    start, end = [[0, 0], [5, 0], [5, 3], [0, 3]], [[1, 0], [4, 1], [5, 3], [0, 2]]
    out = F.perspective(img, start, end, "bilinear")
    np.testing.assert_allclose(out.numpy()[0], expected, atol=1e-4)
    with pytest.raises(ValueError, match="4 \\(x, y\\) points"):
        F.perspective(SQUARE, corners[:3], corners[:3])


def test_perspective_is_a_projective_map():
    # startpoints -> endpoints: a pure shift of 1 pixel to the right
    start = [[0, 0], [4, 0], [4, 4], [0, 4]]
    end = [[1, 0], [5, 0], [5, 4], [1, 4]]
    out = F.perspective(SQUARE, start, end, fill=(9, 9))
    np.testing.assert_array_equal(out[:, 1:], SQUARE[:, :-1])
    assert (out[:, 0] == 9).all()


def test_random_perspective():
    img = RNG.random((3, 12, 16)).astype(np.float32)
    assert T.RandomPerspective(prob=0.0)(img) is img
    transform = T.RandomPerspective(prob=1.0, distortion_scale=0.5)
    paddle.seed(9)
    for _ in range(10):
        tensor = paddle.to_tensor(img)
        out = transform(tensor)
        start, end = transform.params
        assert start == [[0, 0], [15, 0], [15, 11], [0, 11]]
        (x0, y0), (x1, y1), (x2, y2), (x3, y3) = end
        assert 0 <= x0 <= 4 and 0 <= y0 <= 3 and 11 <= x1 <= 15 and 0 <= y1 <= 3
        assert 11 <= x2 <= 15 and 8 <= y2 <= 11 and 0 <= x3 <= 4 and 8 <= y3 <= 11
        np.testing.assert_array_equal(out.numpy(), F.perspective(tensor, start, end).numpy())
    with pytest.raises(ValueError, match="distortion_scale must be between 0 and 1"):
        T.RandomPerspective(distortion_scale=2)


# ---------------------------------------------------------------------------
# erase / RandomErasing
# ---------------------------------------------------------------------------

def test_erase_arrays_and_tensors():
    img = np.ones((4, 5, 3), np.float32)
    out = F.erase(img, 1, 2, 2, 3, np.array([0.0, 5.0, 6.0]))
    expected = img.copy()
    expected[1:3, 2:5] = [0.0, 5.0, 6.0]
    np.testing.assert_array_equal(out, expected)
    assert (img == 1).all()  # not in place
    F.erase(img, 0, 0, 1, 1, 0, inplace=True)
    assert img[0, 0].tolist() == [0, 0, 0]
    tensor = paddle.ones([3, 4, 5])
    out = F.erase(tensor, 1, 2, 2, 3, paddle.zeros([3, 1, 1]))
    assert out is not tensor and tensor.numpy().min() == 1
    np.testing.assert_array_equal(out.numpy(), expected.transpose(2, 0, 1) * 0 + (
        1 - np.pad(np.ones((2, 3)), ((1, 1), (2, 0)))))
    same = F.erase(tensor, 0, 0, 2, 2, 0.5, inplace=True)
    assert same is tensor and tensor.numpy()[:, :2, :2].tolist() == [[[0.5] * 2] * 2] * 3
    rounded = F.erase(np.zeros((3, 3), np.uint8), 0, 0, 2, 2, np.array([[-3.0, 2.6], [300, 1]]))
    assert rounded[:2, :2].tolist() == [[0, 3], [255, 1]]


def test_random_erasing_box_and_values():
    img = paddle.to_tensor(RNG.random((3, 20, 30)).astype(np.float32) + 1)
    eraser = T.RandomErasing(prob=1.0, value=(0, 0.5, 0.25))
    paddle.seed(12)
    for _ in range(10):
        out = eraser(img).numpy()
        top, left, h, w, noise = eraser.params
        assert noise is None and 0.02 * 600 - (h + w) <= h * w <= 0.33 * 600 + (h + w)
        assert out[:, top:top + h, left:left + w].reshape(3, -1).tolist() == [
            [0.0] * (h * w), [0.5] * (h * w), [0.25] * (h * w)]
        assert (out >= 1).sum() == 3 * (600 - h * w)
    assert T.RandomErasing(prob=0.0)(img) is img
    noisy = T.RandomErasing(prob=1.0, value="random")
    array = np.full((20, 30, 3), 128, np.uint8)
    out = noisy(array)
    top, left, h, w, noise = noisy.params
    assert noise.shape == (3, h, w) and out.dtype == np.uint8
    np.testing.assert_array_equal(
        out[top:top + h, left:left + w],
        np.clip(np.rint(noise.transpose(1, 2, 0) * 255), 0, 255))
    assert (array == 128).all()
    gray = T.RandomErasing(prob=1.0, value=3)(np.zeros((20, 30), np.uint8))
    assert gray.shape == (20, 30) and 0.02 * 600 <= (gray == 3).sum() <= 0.33 * 600 + 50
    for img in (np.zeros((20, 30)), paddle.zeros([20, 30]), paddle.zeros([2, 3, 20, 30])):
        out = noisy(img)
        box = noisy.params[2] * noisy.params[3]
        erased = np.asarray(out.numpy() if isinstance(out, paddle.Tensor) else out) != 0
        assert erased.sum() == box * (1 if img.ndim == 2 else 6)


def test_random_erasing_errors():
    with pytest.raises(ValueError, match="a string value must be 'random'"):
        T.RandomErasing(value="noise")
    with pytest.raises(ValueError, match="value should be a number or 1 or 3 numbers"):
        T.RandomErasing(value=(1, 2))
    with pytest.raises(ValueError, match="scale should be within \\[0, 1\\]"):
        T.RandomErasing(scale=(0.5, 1.5))
    with pytest.raises(ValueError, match="prob must be between 0 and 1"):
        T.RandomErasing(prob=2)


def test_public_names_match_paddle():
    names = {"RandomResizedCrop", "RandomVerticalFlip", "BrightnessTransform",
             "ContrastTransform", "SaturationTransform", "HueTransform", "ColorJitter",
             "Grayscale", "RandomRotation", "RandomAffine", "RandomPerspective", "RandomErasing",
             "vflip", "adjust_brightness", "adjust_contrast", "adjust_hue", "to_grayscale",
             "rotate", "affine", "perspective", "erase"}
    assert names <= set(T.__all__) and all(hasattr(T, n) for n in names)
    assert "adjust_saturation" in F.__all__ and "adjust_saturation" not in T.__all__
    assert math.isclose(T.RandomResizedCrop(3).ratio[1], 4 / 3)
