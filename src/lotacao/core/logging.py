"""Log records as JSON lines (production), one object per line, for the city's log collector."""

from __future__ import annotations

import datetime as dt
import json
import logging

_STANDARD = set(vars(logging.makeLogRecord({}))) | {"message", "asctime"}


class JsonLinesFormatter(logging.Formatter):
    """time, level, logger, message, the exception if any, and any `extra=` fields."""

    def format(self, record: logging.LogRecord) -> str:
        data = {
            "time": dt.datetime.fromtimestamp(record.created, dt.UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        if record.exc_info:
            data["exception"] = self.formatException(record.exc_info)
        data.update({k: v for k, v in vars(record).items() if k not in _STANDARD and not k.startswith("_")})
        return json.dumps(data, ensure_ascii=False, default=str)
