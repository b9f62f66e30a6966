"""Op database entries: norm ops."""

OPS: list = []
