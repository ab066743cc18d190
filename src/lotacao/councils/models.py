"""Models of councils: each record belongs to one jurisdiction (core.tenancy)."""
