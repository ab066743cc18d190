"""Models of the billing app."""
