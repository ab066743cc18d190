"""Settings modules: `base` (shared), `dev` (make demo), `test` (pytest), `production`."""
