"""Loss ops."""
