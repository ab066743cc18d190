"""Models of delegation: each record belongs to one jurisdiction (core.tenancy)."""
