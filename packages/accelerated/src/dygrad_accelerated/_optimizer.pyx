"""Typed loops of the optimizer family (optimizer updates (sgd_, momentum_, adam_, ...)); the glue is in ``cpu_optimizer.py``."""
