"""paddle.callbacks: the callbacks of Model.fit (they live in dygrad.hapi.callbacks)."""

from .hapi.callbacks import (
    Callback,
    EarlyStopping,
    LRScheduler,
    ModelCheckpoint,
    ProgBarLogger,
    ReduceLROnPlateau,
    VisualDL,
)

__all__ = ["Callback", "ProgBarLogger", "ModelCheckpoint", "VisualDL", "LRScheduler",
           "EarlyStopping", "ReduceLROnPlateau"]
