"""Models of training: each record belongs to one jurisdiction (core.tenancy)."""
