"""The IDX format of the MNIST files: a small big-endian header, then the raw values.

Header: two zero bytes, a type code (0x08 = uint8, ...), the number of dimensions ``n``,
then ``n`` big-endian uint32 sizes; the values follow in C order. Files may be gzipped
(the usual ``train-images-idx3-ubyte.gz``): the reader looks at the first bytes, not the name.
"""

from __future__ import annotations

import gzip
import math
import os
import struct
import zlib

import numpy as np

__all__ = ["read_idx", "write_idx"]

_TYPES = {0x08: np.dtype(">u1"), 0x09: np.dtype(">i1"), 0x0B: np.dtype(">i2"),
          0x0C: np.dtype(">i4"), 0x0D: np.dtype(">f4"), 0x0E: np.dtype(">f8")}
_CODES = {d.newbyteorder("=").str[1:]: code for code, d in _TYPES.items()}
_GZIP_MAGIC = b"\x1f\x8b"


def _read_bytes(path) -> bytes:
    with open(path, "rb") as f:
        raw = f.read()
    if not raw.startswith(_GZIP_MAGIC):
        return raw
    try:
        return gzip.decompress(raw)
    except (OSError, EOFError, zlib.error) as exc:
        raise ValueError(f"{os.fspath(path)}: the gzip data is truncated or corrupt ({exc})") from None


def read_idx(path) -> np.ndarray:
    """The array stored in the IDX file ``path`` (gzipped or not), in native byte order."""
    raw = _read_bytes(path)
    name = os.fspath(path)
    if len(raw) < 4 or raw[0] != 0 or raw[1] != 0 or raw[2] not in _TYPES:
        raise ValueError(f"{name}: not an IDX file (it starts with bytes {raw[:4].hex()}; an IDX "
                         f"file starts with 00 00, a type code and the number of dimensions)")
    dtype, ndim = _TYPES[raw[2]], raw[3]
    header = 4 + 4 * ndim
    if len(raw) < header:
        raise ValueError(f"{name}: the IDX header is truncated ({len(raw)} bytes)")
    shape = struct.unpack(f">{ndim}I", raw[4:header])
    expected = header + math.prod(shape) * dtype.itemsize
    if len(raw) != expected:
        raise ValueError(f"{name}: an IDX file of shape {list(shape)} and dtype "
                         f"{dtype.newbyteorder('=').name} has {expected} bytes, this one has "
                         f"{len(raw)} (truncated or corrupt)")
    return np.frombuffer(raw, dtype, offset=header).reshape(shape).astype(dtype.newbyteorder("="))


def write_idx(path, array) -> None:
    """Write ``array`` as an IDX file (gzipped when ``path`` ends with '.gz')."""
    array = np.asarray(array)
    code = _CODES.get(array.dtype.str[1:])
    if code is None:
        raise TypeError(f"write_idx: IDX stores uint8, int8, int16, int32, float32 or float64, "
                        f"not {array.dtype.name}")
    data = struct.pack(f">BBBB{array.ndim}I", 0, 0, code, array.ndim, *array.shape)
    data += array.astype(_TYPES[code]).tobytes()
    if os.fspath(path).endswith(".gz"):
        data = gzip.compress(data, compresslevel=9, mtime=0)
    with open(path, "wb") as f:
        f.write(data)
