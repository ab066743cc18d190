"""Models of tenders: each record belongs to one jurisdiction (core.tenancy)."""
