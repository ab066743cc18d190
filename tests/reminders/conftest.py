from tests.outbox.conftest import smtp_server  # noqa: F401  (the real local SMTP server)
