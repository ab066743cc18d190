"""Models of the documents app."""
