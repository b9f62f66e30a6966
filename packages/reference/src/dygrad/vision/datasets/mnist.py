"""MNIST and Fashion-MNIST (paddle.vision.datasets), read from the standard IDX files.

Where the files come from, in order:

1. ``image_path`` / ``label_path`` when given;
2. the cache directory ``<data home>/mnist/`` (``<data home>/fashion-mnist/``), where
   ``<data home>`` is the ``data_home`` argument, else ``$DYGRAD_HOME/dataset``, else
   ``~/.cache/paddle/dataset`` as in Paddle, so files Paddle downloaded are found; the file
   names are Paddle's (``train-images-idx3-ubyte.gz``, ``t10k-labels-idx1-ubyte.gz``, ...);
3. with ``download=True``, Paddle's download mirror, into the cache directory;
4. MNIST only: the 5,000-digit MNIST subset shipped inside dygrad (see ``data/README.md``),
   split once with a fixed seed into 4,000 'train' and 1,000 'test' digits. dygrad says so
   once per process. Fashion-MNIST has no shipped subset and raises an error instead.

Unlike Paddle, ``download`` defaults to False: nothing touches the network unless asked.
"""

from __future__ import annotations

import functools
import hashlib
import os
import urllib.request
import warnings
from pathlib import Path

import numpy as np

from ..._core import dtype as _dt
from ..._core.dispatch import ops
from ..._core.tensor import Tensor
from ...io.dataset import Dataset
from ..image import check_backend, get_image_backend
from .idx import read_idx

__all__ = ["MNIST", "FashionMNIST"]

_DATA_DIR = Path(__file__).parent / "data"
SUBSET_SEED = 0     # numpy.random.default_rng(SUBSET_SEED).permutation orders the subset
SUBSET_TRAIN = 4000  # the first 4,000 of that order are 'train', the other 1,000 'test'
_said_fallback = False


def dataset_root(data_home=None) -> Path:
    """The root of the dataset cache: ``data_home``, ``$DYGRAD_HOME/dataset`` or
    ``~/.cache/paddle/dataset``."""
    if data_home is not None:
        return Path(data_home).expanduser()
    if os.environ.get("DYGRAD_HOME"):
        return Path(os.environ["DYGRAD_HOME"]).expanduser() / "dataset"
    return Path.home() / ".cache" / "paddle" / "dataset"


@functools.lru_cache(maxsize=1)
def _shipped_subset():
    """The shipped subset in file order (sorted by label): uint8 images, uint8 labels."""
    return (read_idx(_DATA_DIR / "mnist-5k-images-idx3-ubyte.gz"),
            read_idx(_DATA_DIR / "mnist-5k-labels-idx1-ubyte.gz"))


def shipped_subset(mode: str):
    """The shipped subset's 'train' (4,000) or 'test' (1,000) digits: images, labels.

    Row ``i`` of 'train' is row ``order[i]`` of the file, and row ``i`` of 'test' is row
    ``order[4000 + i]``, where ``order = numpy.random.default_rng(0).permutation(5000)``.
    """
    images, labels = _shipped_subset()
    order = np.random.default_rng(SUBSET_SEED).permutation(len(labels))
    rows = order[:SUBSET_TRAIN] if mode == "train" else order[SUBSET_TRAIN:]
    return images[rows], labels[rows]


def _md5(path) -> str:
    h = hashlib.md5()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def _download(api, url, dest: Path, md5):
    """Fetch ``url`` into ``dest`` (through a temporary file) and check its MD5."""
    dest.parent.mkdir(parents=True, exist_ok=True)
    part = dest.with_name(f"{dest.name}.part-{os.getpid()}")
    try:
        with urllib.request.urlopen(url, timeout=60) as response, open(part, "wb") as f:
            for chunk in iter(lambda: response.read(1 << 20), b""):
                f.write(chunk)
        got = _md5(part)
        if got != md5:
            raise RuntimeError(f"{api}: {url} downloaded with MD5 {got}, expected {md5}")
        os.replace(part, dest)
    except OSError as exc:
        raise RuntimeError(f"{api}: could not download {url} ({exc}); put the file at {dest} "
                           f"yourself, or pass image_path and label_path") from None
    finally:
        part.unlink(missing_ok=True)


class MNIST(Dataset):
    """The MNIST handwritten digits: 28x28 grey images of 0-9 (60,000 train, 10,000 test).

    ``dataset[i]`` is ``(image, label)``: with backend 'cv2' (dygrad's default) the image is
    a float32 NumPy array of shape [28, 28] holding 0-255 (as Paddle returns it), passed
    through ``transform`` when given; with backend 'pil' (needs Pillow) a PIL image. The
    label is an int64 array of shape [1]. See the module docstring for where the files come
    from; ``data_home`` (not in Paddle) overrides the cache root.
    """

    NAME = "mnist"
    URL_PREFIX = "https://dataset.bj.bcebos.com/mnist/"
    FILES = {"train": ("train-images-idx3-ubyte.gz", "train-labels-idx1-ubyte.gz"),
             "test": ("t10k-images-idx3-ubyte.gz", "t10k-labels-idx1-ubyte.gz")}
    MD5 = {"train-images-idx3-ubyte.gz": "f68b3c2dcbeaaa9fbdd348bbdeb94873",
           "train-labels-idx1-ubyte.gz": "d53e105ee54ea40749a09fcbcd1e9432",
           "t10k-images-idx3-ubyte.gz": "9fb629c4189551a2d022fa330f9573f3",
           "t10k-labels-idx1-ubyte.gz": "ec29112dd5afa0611ce80d1b7f02629c"}

    def __init__(self, image_path=None, label_path=None, mode="train", transform=None,
                 download=False, backend=None, data_home=None):
        api = type(self).__name__
        if not isinstance(mode, str) or mode.lower() not in self.FILES:
            raise ValueError(f"{api}: mode should be 'train' or 'test', got {mode!r}")
        self.mode = mode.lower()
        self.backend = check_backend(get_image_backend() if backend is None else backend, api)
        self.transform = transform
        self.dtype = _dt.get_default_dtype()
        folder = dataset_root(data_home) / self.NAME
        paths = [self._find(api, given, folder / name, download)
                 for given, name in zip((image_path, label_path), self.FILES[self.mode])]
        if paths[0] is None and paths[1] is None:
            images, labels = self._without_files(api, folder)
        elif None in paths:
            missing = folder / self.FILES[self.mode][paths.index(None)]
            raise FileNotFoundError(f"{api}: {missing} does not exist; put it there, pass its "
                                    f"path, or pass download=True")
        else:
            images, labels = read_idx(paths[0]), read_idx(paths[1])
        if images.ndim != 3 or labels.ndim != 1 or len(images) != len(labels):
            raise ValueError(f"{api}: expected images of shape [N, rows, cols] and labels of "
                             f"shape [N], got {list(images.shape)} and {list(labels.shape)}")
        self.image_path, self.label_path = paths
        self.images = images.astype(np.uint8, copy=False)
        self.labels = labels.astype(np.int64).reshape(-1, 1)

    def _find(self, api, given, cached: Path, download):
        """The file to read: the given path, the cached file, a fresh download, or None."""
        if given is not None:
            if not os.path.isfile(given):
                raise FileNotFoundError(f"{api}: {given} does not exist")
            return os.fspath(given)
        if cached.is_file():
            return os.fspath(cached)
        if download:
            _download(api, self.URL_PREFIX + cached.name, cached, self.MD5[cached.name])
            return os.fspath(cached)
        return None

    def _without_files(self, api, folder):
        """No file given, cached or downloaded: the shipped subset."""
        global _said_fallback
        if not _said_fallback:
            _said_fallback = True
            warnings.warn(
                f"{api}: no MNIST files in {folder} and download=False: using the 5,000-digit "
                f"MNIST subset shipped with dygrad ({SUBSET_TRAIN} 'train' / "
                f"{5000 - SUBSET_TRAIN} 'test' digits). Pass download=True for the full "
                f"60,000 / 10,000.", UserWarning, stacklevel=3)
        return shipped_subset(self.mode)

    def __getitem__(self, idx):
        image, label = self.images[idx], self.labels[idx]
        if self.backend == "pil":
            from PIL import Image
            image = Image.fromarray(image)
        else:
            image = image.astype(np.float32)
        if self.transform is not None:
            image = self.transform(image)
        if self.backend == "cv2":
            image = _as_dtype(image, np.dtype(self.dtype))
        return image, label.copy()

    def __len__(self):
        return len(self.labels)


def _as_dtype(image, dtype):
    """A transformed image converted to the default float dtype, as Paddle does."""
    if isinstance(image, Tensor):
        return image if image._data.dtype == dtype else ops.cast(image, dtype=dtype)
    return np.asarray(image).astype(dtype, copy=False)


class FashionMNIST(MNIST):
    """Fashion-MNIST: 28x28 grey images of 10 kinds of clothing, in MNIST's file format.

    The same reader, cache and backends as :class:`MNIST`; there is no shipped subset, so the
    files must be given, cached (``<data home>/fashion-mnist/``) or downloaded.
    """

    NAME = "fashion-mnist"
    URL_PREFIX = "https://dataset.bj.bcebos.com/fashion_mnist/"
    MD5 = {"train-images-idx3-ubyte.gz": "8d4fb7e6c68d591d4c3dfef9ec88bf0d",
           "train-labels-idx1-ubyte.gz": "25c81989df183df01b3e8a0aad5dffbe",
           "t10k-images-idx3-ubyte.gz": "bef4ecab320f06d8554ea6380940ec79",
           "t10k-labels-idx1-ubyte.gz": "bb300cfdad3c16e7a12a480ee83cd310"}

    def _without_files(self, api, folder):
        names = " and ".join(self.FILES[self.mode])
        raise FileNotFoundError(f"{api}: no Fashion-MNIST files: put {names} in {folder}, "
                                f"pass image_path and label_path, or pass download=True")
