"""dygrad.vision: the IDX reader, MNIST / FashionMNIST (files, cache, download, the shipped
subset) and the transforms.

Expected values come from NumPy statements or, where Paddle's sampling and rounding are the
point (resize, center_crop, pad), from values captured from PaddlePaddle 3.3.1.
"""

import gzip
import hashlib
import warnings

import numpy as np
import pytest

import dygrad as paddle
from dygrad.vision import datasets, transforms
from dygrad.vision import image as vision_image
from dygrad.vision.datasets import mnist as mnist_module
from dygrad.vision.datasets.idx import read_idx, write_idx
from dygrad.vision.transforms import functional as F

try:
    import PIL  # noqa: F401
    HAVE_PIL = True
except ImportError:
    HAVE_PIL = False


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    """Every test gets an empty dataset cache: nothing read from or written to ~/.cache."""
    monkeypatch.setenv("DYGRAD_HOME", str(tmp_path / "home"))
    return tmp_path / "home" / "dataset"


def fake_mnist(folder, n=7, mode="train", seed=0):
    """Write n random digits as the IDX pair Paddle names for ``mode``; return them."""
    rng = np.random.default_rng(seed)
    images = rng.integers(0, 256, (n, 28, 28), dtype=np.uint8)
    labels = rng.integers(0, 10, n).astype(np.uint8)
    prefix = "train" if mode == "train" else "t10k"
    folder.mkdir(parents=True, exist_ok=True)
    write_idx(folder / f"{prefix}-images-idx3-ubyte.gz", images)
    write_idx(folder / f"{prefix}-labels-idx1-ubyte.gz", labels)
    return images, labels


# ---------------------------------------------------------------------------
# IDX files
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", [np.uint8, np.int8, np.int16, np.int32, np.float32, np.float64])
@pytest.mark.parametrize("name", ["a.idx", "a.idx.gz"])
def test_idx_round_trip(tmp_path, dtype, name):
    array = (np.arange(24) - 5).astype(dtype).reshape(2, 3, 4)
    write_idx(tmp_path / name, array)
    back = read_idx(tmp_path / name)
    assert back.dtype == np.dtype(dtype) and back.shape == (2, 3, 4)
    np.testing.assert_array_equal(back, array)


def test_idx_header_is_the_standard_one(tmp_path):
    write_idx(tmp_path / "l.gz", np.array([3, 1, 4], np.uint8))
    raw = gzip.decompress((tmp_path / "l.gz").read_bytes())
    assert raw == bytes([0, 0, 8, 1, 0, 0, 0, 3, 3, 1, 4])  # magic 2049, count 3, values


@pytest.mark.parametrize("content,message", [
    (b"\x00\x00\x08\x01\x00\x00\x00\x05\x01\x02", "truncated or corrupt"),
    (b"PK\x03\x04 not idx", "not an IDX file"),
    (b"\x00\x00\x08\x03\x00\x00", "header is truncated"),
    (gzip.compress(b"\x00\x00\x08\x01\x00\x00\x00\x01\x07")[:-6], "gzip data is truncated"),
])
def test_idx_bad_files_name_the_file(tmp_path, content, message):
    path = tmp_path / "bad.gz"
    path.write_bytes(content)
    with pytest.raises(ValueError, match=message) as info:
        read_idx(path)
    assert "bad.gz" in str(info.value)


def test_write_idx_rejects_unsupported_dtypes(tmp_path):
    with pytest.raises(TypeError, match="int64"):
        write_idx(tmp_path / "x.idx", np.arange(3))


# ---------------------------------------------------------------------------
# MNIST from files
# ---------------------------------------------------------------------------


def test_mnist_from_paths_returns_paddles_types(tmp_path):
    images, labels = fake_mnist(tmp_path / "files", n=5)
    ds = datasets.MNIST(image_path=str(tmp_path / "files/train-images-idx3-ubyte.gz"),
                        label_path=str(tmp_path / "files/train-labels-idx1-ubyte.gz"))
    assert len(ds) == 5
    image, label = ds[3]
    # As Paddle's backend='cv2': a float32 [28, 28] array of 0-255, an int64 [1] label
    assert isinstance(image, np.ndarray) and image.dtype == np.float32 and image.shape == (28, 28)
    np.testing.assert_array_equal(image, images[3].astype(np.float32))
    assert label.dtype == np.int64 and label.shape == (1,) and label[0] == labels[3]


def test_mnist_test_mode_reads_the_t10k_files(private_cache):
    fake_mnist(private_cache / "mnist", n=4, mode="train", seed=1)
    images, labels = fake_mnist(private_cache / "mnist", n=3, mode="test", seed=2)
    ds = datasets.MNIST(mode="TEST")
    assert ds.mode == "test" and len(ds) == 3
    np.testing.assert_array_equal(ds[2][0], images[2])
    assert ds.label_path.endswith("t10k-labels-idx1-ubyte.gz")


def test_mnist_transform_and_default_dtype(private_cache):
    images, _ = fake_mnist(private_cache / "mnist", n=2)
    ds = datasets.MNIST(transform=transforms.ToTensor())
    image, _ = ds[0]
    # float32 input is not rescaled by ToTensor (only uint8 is): Paddle gives 0-255 too
    assert isinstance(image, paddle.Tensor) and image.shape == [1, 28, 28]
    np.testing.assert_array_equal(image.numpy()[0], images[0])
    paddle.set_default_dtype("float64")
    image, _ = datasets.MNIST()[0]
    assert image.dtype == np.float64


def test_mnist_cache_folder_from_argument(tmp_path, private_cache):
    images, _ = fake_mnist(tmp_path / "elsewhere" / "mnist", n=2)
    ds = datasets.MNIST(data_home=tmp_path / "elsewhere")
    np.testing.assert_array_equal(ds[1][0], images[1])


def test_mnist_cache_folder_default_is_paddles(monkeypatch, tmp_path):
    monkeypatch.delenv("DYGRAD_HOME")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert mnist_module.dataset_root() == tmp_path / ".cache" / "paddle" / "dataset"


def test_mnist_missing_given_path_or_half_the_cache(tmp_path, private_cache):
    with pytest.raises(FileNotFoundError, match="nowhere.gz"):
        datasets.MNIST(image_path=str(tmp_path / "nowhere.gz"))
    fake_mnist(private_cache / "mnist", n=2)
    (private_cache / "mnist" / "train-labels-idx1-ubyte.gz").unlink()
    with pytest.raises(FileNotFoundError, match="train-labels-idx1-ubyte.gz.*download=True"):
        datasets.MNIST()


def test_mnist_mismatched_files(private_cache):
    fake_mnist(private_cache / "mnist", n=2)
    write_idx(private_cache / "mnist" / "train-labels-idx1-ubyte.gz", np.zeros(3, np.uint8))
    with pytest.raises(ValueError, match=r"\[2, 28, 28\] and \[3\]"):
        datasets.MNIST()


def test_mnist_argument_errors():
    with pytest.raises(ValueError, match="mode should be 'train' or 'test'"):
        datasets.MNIST(mode="val")
    with pytest.raises(ValueError, match="backend"):
        datasets.MNIST(backend="opencv")


@pytest.mark.skipif(HAVE_PIL, reason="Pillow is installed: backend 'pil' works")
def test_pil_backend_needs_pillow():
    with pytest.raises(ImportError, match="Pillow"):
        datasets.MNIST(backend="pil")
    with pytest.raises(ImportError, match="Pillow"):
        paddle.vision.set_image_backend("pil")
    assert paddle.vision.get_image_backend() == "cv2"


@pytest.mark.skipif(not HAVE_PIL, reason="Pillow is not installed")
def test_pil_backend_returns_pil_images(private_cache):
    images, _ = fake_mnist(private_cache / "mnist", n=2)
    image, label = datasets.MNIST(backend="pil")[1]
    assert type(image).__module__.startswith("PIL.") and image.size == (28, 28)
    np.testing.assert_array_equal(np.asarray(image), images[1])
    assert label.dtype == np.int64


def test_set_image_backend_rejects_unknown(monkeypatch):
    monkeypatch.setattr(vision_image, "_image_backend", "cv2")
    with pytest.raises(ValueError, match="'tensor'"):
        paddle.vision.set_image_backend("tensor")
    paddle.vision.set_image_backend("cv2")
    assert paddle.vision.get_image_backend() == "cv2"


# ---------------------------------------------------------------------------
# download (a file:// mirror: tests never use the network)
# ---------------------------------------------------------------------------


def _mirror(tmp_path, monkeypatch, cls):
    images, labels = fake_mnist(tmp_path / "mirror", n=3)
    md5 = {p.name: hashlib.md5(p.read_bytes()).hexdigest() for p in (tmp_path / "mirror").iterdir()}
    monkeypatch.setattr(cls, "URL_PREFIX", (tmp_path / "mirror").as_uri() + "/")
    monkeypatch.setattr(cls, "MD5", md5)
    return images, labels


@pytest.mark.parametrize("cls,folder", [(datasets.MNIST, "mnist"),
                                        (datasets.FashionMNIST, "fashion-mnist")])
def test_download_fills_the_cache(tmp_path, monkeypatch, private_cache, cls, folder):
    images, labels = _mirror(tmp_path, monkeypatch, cls)
    ds = cls(download=True)
    assert len(ds) == 3 and ds[2][1][0] == labels[2]
    assert sorted(p.name for p in (private_cache / folder).iterdir()) == [
        "train-images-idx3-ubyte.gz", "train-labels-idx1-ubyte.gz"]
    np.testing.assert_array_equal(cls()[0][0], images[0])  # now cached: no download needed


def test_download_checks_md5_and_leaves_nothing(tmp_path, monkeypatch, private_cache):
    _mirror(tmp_path, monkeypatch, datasets.MNIST)
    monkeypatch.setitem(datasets.MNIST.MD5, "train-images-idx3-ubyte.gz", "0" * 32)
    with pytest.raises(RuntimeError, match="MD5"):
        datasets.MNIST(download=True)
    assert not (private_cache / "mnist" / "train-images-idx3-ubyte.gz").exists()
    assert not any("part" in p.name for p in (private_cache / "mnist").iterdir())


def test_download_failure_says_where_to_put_the_file(tmp_path, monkeypatch):
    monkeypatch.setattr(datasets.MNIST, "URL_PREFIX", (tmp_path / "no-mirror").as_uri() + "/")
    with pytest.raises(RuntimeError, match="could not download.*put the file at"):
        datasets.MNIST(download=True)


# ---------------------------------------------------------------------------
# the shipped subset
# ---------------------------------------------------------------------------


def test_shipped_subset_file_is_mlxtends_5000_digits():
    images, labels = mnist_module._shipped_subset()
    assert images.shape == (5000, 28, 28) and images.dtype == np.uint8
    # the first 500 digits of each class, sorted by label
    np.testing.assert_array_equal(labels, np.repeat(np.arange(10), 500))
    assert images.max() == 255 and 0.05 < (images > 0).mean() < 0.5  # real strokes, not noise


def test_fallback_split_is_the_seeded_permutation(monkeypatch):
    monkeypatch.setattr(mnist_module, "_said_fallback", True)
    train, test = datasets.MNIST(mode="train"), datasets.MNIST(mode="test")
    assert (len(train), len(test)) == (4000, 1000)
    images, labels = mnist_module._shipped_subset()
    order = np.random.default_rng(0).permutation(5000)
    np.testing.assert_array_equal(train.images, images[order[:4000]])
    np.testing.assert_array_equal(test.labels.ravel(), labels[order[4000:]])
    assert set(np.unique(test.labels)) == set(range(10))
    image, label = train[0]
    assert image.dtype == np.float32 and image.shape == (28, 28) and label.shape == (1,)
    assert train.image_path is None and train.label_path is None


def test_fallback_says_so_once(monkeypatch):
    monkeypatch.setattr(mnist_module, "_said_fallback", False)
    with pytest.warns(UserWarning, match="5,000-digit MNIST subset shipped with dygrad"):
        datasets.MNIST()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        datasets.MNIST(mode="test")


def test_fashion_mnist_has_no_fallback(private_cache):
    with pytest.raises(FileNotFoundError, match="fashion-mnist.*download=True"):
        datasets.FashionMNIST(mode="test")
    images, _ = fake_mnist(private_cache / "fashion-mnist", n=2, mode="test")
    np.testing.assert_array_equal(datasets.FashionMNIST(mode="test")[1][0], images[1])


def test_mnist_feeds_a_normalized_pipeline(monkeypatch):
    monkeypatch.setattr(mnist_module, "_said_fallback", True)
    pipeline = transforms.Compose([transforms.ToTensor(),
                                   transforms.Normalize(mean=[127.5], std=[127.5])])
    image, _ = datasets.MNIST(mode="test", transform=pipeline)[0]
    assert image.shape == [1, 28, 28] and image.dtype == paddle.float32
    assert image.numpy().min() == -1.0 and image.numpy().max() == 1.0


def test_mnist_in_a_dataloader(monkeypatch):
    monkeypatch.setattr(mnist_module, "_said_fallback", True)
    ds = datasets.MNIST(mode="test", transform=transforms.ToTensor())
    images, labels = next(iter(paddle.io.DataLoader(ds, batch_size=32, shuffle=True)))
    assert images.shape == [32, 1, 28, 28] and images.dtype == paddle.float32
    assert labels.shape == [32, 1] and labels.dtype == paddle.int64


# ---------------------------------------------------------------------------
# functional transforms
# ---------------------------------------------------------------------------


def test_to_tensor_uint8_hwc():
    img = np.arange(24, dtype=np.uint8).reshape(2, 4, 3) * 10
    t = F.to_tensor(img)
    assert t.dtype == paddle.float32 and t.shape == [3, 2, 4]
    np.testing.assert_array_equal(t.numpy(), img.transpose(2, 0, 1).astype(np.float32) / np.float32(255))
    assert F.to_tensor(img, "HWC").shape == [2, 4, 3]


def test_to_tensor_other_dtypes_and_tensors():
    gray = np.arange(6, dtype=np.float64).reshape(2, 3)
    t = F.to_tensor(gray)
    assert t.dtype == paddle.float64 and t.shape == [1, 2, 3]
    np.testing.assert_array_equal(t.numpy()[0], gray)  # no scaling for non-uint8
    chw = paddle.to_tensor(np.arange(24, dtype=np.float32).reshape(2, 3, 4))
    assert F.to_tensor(chw) is chw
    np.testing.assert_array_equal(F.to_tensor(chw, "HWC").numpy(), chw.numpy().transpose(1, 2, 0))


def test_transform_input_errors():
    with pytest.raises(ValueError, match="data_format should be 'CHW' or 'HWC'"):
        F.to_tensor(np.zeros((2, 2), np.uint8), "XYZ")
    with pytest.raises(TypeError, match=r"got an array of shape \[2\]"):
        F.hflip(np.zeros(2))
    with pytest.raises(TypeError, match="got list"):
        F.resize([[1, 2]], 3)


def test_normalize_per_channel_both_layouts():
    hwc = np.arange(12, dtype=np.uint8).reshape(2, 2, 3)
    mean, std = [1.0, 2.0, 3.0], [2.0, 4.0, 8.0]
    out = F.normalize(hwc, mean, std, data_format="HWC")
    assert out.dtype == np.float32
    np.testing.assert_allclose(out, (hwc - np.float32(mean)) / np.float32(std))
    chw = paddle.to_tensor(hwc.transpose(2, 0, 1).astype(np.float32))
    out_t = F.normalize(chw, mean, std)
    assert isinstance(out_t, paddle.Tensor)
    np.testing.assert_allclose(out_t.numpy(), out.transpose(2, 0, 1))


def test_normalize_scalar_keeps_one_channel_and_to_rgb():
    gray = paddle.to_tensor(np.full((1, 2, 2), 255.0, np.float32))
    out = transforms.Normalize(127.5, 127.5)(gray)
    assert out.shape == [1, 2, 2]  # Paddle would repeat the image to 3 channels
    np.testing.assert_array_equal(out.numpy(), np.ones((1, 2, 2)))
    bgr = np.stack([np.full((2, 2), v, np.float32) for v in (1, 2, 3)], axis=-1)
    rgb = F.normalize(bgr, 0.0, 1.0, data_format="HWC", to_rgb=True)
    np.testing.assert_array_equal(rgb[0, 0], [3, 2, 1])


# Paddle 3.3.1: paddle.vision.transforms.functional.resize(arange(6).reshape([1, 2, 3]), ...)
PADDLE_BILINEAR_3x4 = [[0.0, 0.625, 1.375, 2.0], [1.5, 2.125, 2.875, 3.5],
                       [3.0, 3.625, 4.375, 5.0]]
PADDLE_NEAREST_3x4 = [[0, 0, 1, 2], [0, 0, 1, 2], [3, 3, 4, 5]]
PADDLE_BILINEAR_4x2 = [[0.25, 1.75], [1.0, 2.5], [2.5, 4.0], [3.25, 4.75]]


@pytest.mark.parametrize("size,mode,expected", [
    ((3, 4), "bilinear", PADDLE_BILINEAR_3x4), ((3, 4), "nearest", PADDLE_NEAREST_3x4),
    ((4, 2), "bilinear", PADDLE_BILINEAR_4x2),
])
def test_resize_matches_paddle(size, mode, expected):
    img = paddle.to_tensor(np.arange(6, dtype=np.float32).reshape(1, 2, 3))
    out = F.resize(img, size, mode)
    assert out.shape == [1, *size]
    np.testing.assert_allclose(out.numpy()[0], expected, atol=1e-6)
    hwc = np.arange(6, dtype=np.float32).reshape(2, 3, 1)
    np.testing.assert_allclose(F.resize(hwc, size, mode)[..., 0], expected, atol=1e-6)


def _bilinear_reference(img, oh, ow):
    """Half-pixel bilinear sampling, one output pixel at a time."""
    h, w = img.shape
    out = np.zeros((oh, ow))
    for i in range(oh):
        for j in range(ow):
            y = max((i + 0.5) * h / oh - 0.5, 0.0)
            x = max((j + 0.5) * w / ow - 0.5, 0.0)
            y0, x0 = min(int(y), h - 1), min(int(x), w - 1)
            y1, x1 = min(y0 + 1, h - 1), min(x0 + 1, w - 1)
            dy, dx = y - y0, x - x0
            out[i, j] = ((1 - dy) * ((1 - dx) * img[y0, x0] + dx * img[y0, x1])
                         + dy * ((1 - dx) * img[y1, x0] + dx * img[y1, x1]))
    return out


@pytest.mark.parametrize("oh,ow", [(3, 5), (9, 13), (7, 2), (1, 1)])
def test_resize_bilinear_against_a_direct_formula(oh, ow):
    img = np.random.default_rng(3).random((6, 4))
    np.testing.assert_allclose(F.resize(img, (oh, ow)), _bilinear_reference(img, oh, ow),
                               rtol=1e-12)


def test_resize_int_size_uint8_and_errors():
    img = np.full((6, 9, 3), 7, np.uint8)
    out = F.resize(img, 4)  # the shorter side becomes 4, the ratio is kept
    assert out.shape == (4, 6, 3) and out.dtype == np.uint8 and (out == 7).all()
    assert F.resize(img, 6) is img
    ramp = np.array([[0, 255]], np.uint8)
    np.testing.assert_array_equal(F.resize(ramp, (1, 4)), [[0, 64, 191, 255]])  # rounded
    assert transforms.Resize((3, 2))(paddle.zeros([2, 6, 6])).shape == [2, 3, 2]
    with pytest.raises(ValueError, match="interpolation.*'bicubic'"):
        F.resize(img, 3, "bicubic")
    with pytest.raises(TypeError, match="size"):
        transforms.Resize((1, 2, 3))


def test_center_crop_rounds_like_paddle():
    img = paddle.to_tensor(np.arange(30).reshape(1, 5, 6))
    np.testing.assert_array_equal(transforms.CenterCrop((2, 3))(img).numpy()[0],
                                  [[14, 15, 16], [20, 21, 22]])
    np.testing.assert_array_equal(F.center_crop(np.arange(16).reshape(4, 4), 3),
                                  np.arange(16).reshape(4, 4)[:3, :3])  # round(0.5) == 0
    with pytest.raises(ValueError, match="does not fit"):
        F.center_crop(np.zeros((2, 2)), 3)


PAD_IMG = np.arange(6, dtype=np.float32).reshape(2, 3)


@pytest.mark.parametrize("mode,expected", [  # Paddle 3.3.1, padding [1, 0, 2, 1]
    ("reflect", [[1, 0, 1, 2, 1, 0], [4, 3, 4, 5, 4, 3], [1, 0, 1, 2, 1, 0]]),
    ("edge", [[0, 0, 1, 2, 2, 2], [3, 3, 4, 5, 5, 5], [3, 3, 4, 5, 5, 5]]),
])
def test_pad_modes_match_paddle(mode, expected):
    out = F.pad(paddle.to_tensor(PAD_IMG[None]), [1, 0, 2, 1], padding_mode=mode)
    np.testing.assert_array_equal(out.numpy()[0], expected)
    np.testing.assert_array_equal(F.pad(PAD_IMG, [1, 0, 2, 1], padding_mode=mode), expected)


def test_pad_constant_symmetric_and_fill_per_channel():
    np.testing.assert_array_equal(F.pad(PAD_IMG, 1, fill=9), np.pad(PAD_IMG, 1, constant_values=9))
    np.testing.assert_array_equal(F.pad(PAD_IMG, (1, 2)), np.pad(PAD_IMG, ((2, 2), (1, 1))))
    np.testing.assert_array_equal(F.pad(PAD_IMG, 2, padding_mode="symmetric"),
                                  np.pad(PAD_IMG, 2, mode="symmetric"))
    out = transforms.Pad(1, fill=(1, 2, 3))(np.zeros((1, 1, 3), np.uint8))
    assert out.shape == (3, 3, 3) and out[0, 0].tolist() == [1, 2, 3] and out[1, 1].tolist() == [0, 0, 0]
    with pytest.raises(ValueError, match="3 values.*3 channels"):
        F.pad(PAD_IMG, 1, fill=(1, 2, 3))
    with pytest.raises(ValueError, match="padding"):
        F.pad(PAD_IMG, (1, 2, 3))
    with pytest.raises(ValueError, match="padding_mode"):
        F.pad(PAD_IMG, 1, padding_mode="wrap")


def test_hflip_and_crop():
    img = np.arange(12).reshape(2, 3, 2)
    np.testing.assert_array_equal(F.hflip(img), img[:, ::-1])
    t = paddle.to_tensor(img.transpose(2, 0, 1))
    np.testing.assert_array_equal(F.hflip(t).numpy(), img.transpose(2, 0, 1)[:, :, ::-1])
    np.testing.assert_array_equal(F.crop(t, 1, 1, 1, 2).numpy(), t.numpy()[:, 1:2, 1:3])


# ---------------------------------------------------------------------------
# transform classes
# ---------------------------------------------------------------------------


def test_random_crop_is_a_window_and_seeded():
    img = np.arange(100, dtype=np.uint8).reshape(10, 10)
    crop = transforms.RandomCrop(4)
    paddle.seed(5)
    first = [crop(img) for _ in range(5)]
    paddle.seed(5)
    again = [crop(img) for _ in range(5)]
    for a, b in zip(first, again):
        np.testing.assert_array_equal(a, b)
        top, left = divmod(int(a[0, 0]), 10)
        np.testing.assert_array_equal(a, img[top:top + 4, left:left + 4])
    assert len({int(a[0, 0]) for a in first}) > 1


def test_random_crop_padding():
    assert transforms.RandomCrop(4, padding=1)(np.zeros((3, 3, 1), np.uint8)).shape == (4, 4, 1)
    out = transforms.RandomCrop(5, pad_if_needed=True, fill=9)(paddle.ones([1, 3, 3]))
    assert out.shape == [1, 5, 5] and (out.numpy() == 1).sum() == 9  # padded on both sides
    img = np.ones((3, 3))
    assert transforms.RandomCrop(3)(img) is img
    with pytest.raises(ValueError, match="larger than the image.*pad_if_needed"):
        transforms.RandomCrop(5)(img)


def test_random_horizontal_flip():
    img = np.arange(6).reshape(2, 3)
    np.testing.assert_array_equal(transforms.RandomHorizontalFlip(1.0)(img), img[:, ::-1])
    np.testing.assert_array_equal(transforms.RandomHorizontalFlip(0.0)(img), img)
    flip = transforms.RandomHorizontalFlip(keys=("image", "image"))
    paddle.seed(0)
    draws = [flip((img, img + 10)) for _ in range(20)]
    assert all(np.array_equal(a + 10, b) for a, b in draws)  # one draw per call, both keys
    flipped = [bool(a[0, 0] == 2) for a, _ in draws]
    assert 0 < sum(flipped) < 20
    paddle.seed(0)
    assert [bool(flip((img, img))[0][0, 0] == 2) for _ in range(20)] == flipped
    with pytest.raises(ValueError, match="prob"):
        transforms.RandomHorizontalFlip(1.5)


def test_transpose_and_compose():
    assert transforms.Transpose()(np.zeros((4, 5), np.uint8)).shape == (1, 4, 5)
    assert transforms.Transpose()(np.zeros((4, 5, 3))).shape == (3, 4, 5)
    assert transforms.Transpose((1, 2, 0))(paddle.zeros([3, 4, 5])).shape == [4, 5, 3]
    pipeline = transforms.Compose([transforms.Resize((4, 4)), transforms.Transpose(),
                                   transforms.Normalize(0.5, 0.5)])
    out = pipeline(np.ones((8, 8, 3), np.float32))
    assert out.shape == (3, 4, 4) and np.allclose(out, 1.0)
    assert "Resize" in repr(pipeline) and "Transpose(order=(2, 0, 1))" in repr(pipeline)


def test_base_transform_keys():
    class Double(transforms.BaseTransform):
        def _apply_image(self, img):
            return img * 2

    assert Double()(3) == 6
    assert Double(keys=("image",))((3, "label")) == (6, "label")  # extra inputs pass through
    with pytest.raises(NotImplementedError, match="'boxes'"):
        Double(keys=("image", "boxes"))
