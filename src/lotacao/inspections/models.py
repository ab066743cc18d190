"""Models of the inspections app."""
