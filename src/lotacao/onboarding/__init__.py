"""Moving in (issue 20): an agency comes in (`setup_agency`), its existing register comes in and
goes out (`import_register`, `export_register`). An edge app: it writes through the services of
every domain app below it and is imported by none of them."""
