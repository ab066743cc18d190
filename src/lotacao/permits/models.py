"""Models of the permits app."""
