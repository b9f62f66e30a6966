"""Loss kernels."""
