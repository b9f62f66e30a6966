"""Typed loops of the loss family (losses (softmax with cross-entropy)); the glue is in ``cpu_loss.py``."""
