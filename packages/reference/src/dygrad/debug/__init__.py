"""dygrad.debug: compare a model across engines or against a recording (filled below)."""
