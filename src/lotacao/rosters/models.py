"""Models of rosters: each record belongs to one jurisdiction (core.tenancy)."""
