"""Typed loops of the conv family (convolutions and pooling); the glue is in ``cpu_conv.py``."""
