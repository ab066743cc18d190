"""The existing register comes in (`import_register`) and goes out (`export_register`): one file
per kind (CSV, XLSX or ODS, read and written with tablib), validated by the rules of the screens,
written set-based in one transaction, idempotent on natural keys. See docs/moving-in.md."""
