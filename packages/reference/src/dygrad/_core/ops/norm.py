"""Normalization ops."""
