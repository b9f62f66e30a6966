"""Which kind of image the vision datasets return: NumPy arrays ('cv2') or PIL images ('pil').

Paddle's default is 'pil'. dygrad does not depend on Pillow, so its default is 'cv2':
images are NumPy arrays (the name says "the layout OpenCV uses", HWC; no OpenCV is needed).
'pil' can be chosen when Pillow is installed.
"""

from __future__ import annotations

__all__ = ["get_image_backend", "set_image_backend"]

_BACKENDS = ("pil", "cv2")
_image_backend = "cv2"


def check_backend(backend: str, api: str) -> str:
    """``backend`` if it is usable here, else a clear error naming ``api``."""
    if backend not in _BACKENDS:
        raise ValueError(f"{api}: expected backend to be one of {list(_BACKENDS)}, got {backend!r}")
    if backend == "pil":
        try:
            import PIL.Image  # noqa: F401
        except ImportError:
            raise ImportError(f"{api}: backend 'pil' returns PIL images and needs Pillow "
                              f"(pip install pillow); backend 'cv2' returns NumPy arrays and "
                              f"needs nothing more") from None
    return backend


def set_image_backend(backend: str) -> None:
    """Make the vision datasets return NumPy arrays ('cv2') or PIL images ('pil')."""
    global _image_backend
    _image_backend = check_backend(backend, "set_image_backend")


def get_image_backend() -> str:
    """'cv2' (NumPy arrays, dygrad's default) or 'pil'."""
    return _image_backend
