"""Op database entries: conv ops."""

OPS: list = []
