"""dygrad.debug: find where two runs of a model part (engines, or a recording)."""

from .compare import Comparison, Difference, compare, load_recording, record

__all__ = ["compare", "record", "load_recording", "Comparison", "Difference"]
