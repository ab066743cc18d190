"""Esteio's delegation of the service: the contract and its clauses, caducidade with due process,
extinction and encampação, reversible assets and the indemnity, staff take-over, consortia
(issue 23, item 6)."""
