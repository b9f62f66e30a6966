"""Typed loops of the norm family (normalization (batch norm, layer norm)); the glue is in ``cpu_norm.py``."""
