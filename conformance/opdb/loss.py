"""Op database entries: loss ops."""

OPS: list = []
