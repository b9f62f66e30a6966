"""Op database entries: optimizer ops."""

OPS: list = []
