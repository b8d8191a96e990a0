"""No secret in any log line: every log record of the process is redacted before any handler sees it.

The access log redacts the paths it writes (`accesslog.redact`); this module covers every other log
path: the server's own error lines (a failed write's database message), uvicorn's tracebacks,
SQLAlchemy's, a library's. `install()` wraps logging's record factory, so each record is redacted
once, when it is made, whichever logger made it and whichever handlers (stderr, JSON lines, pytest's
capture) then write it:

- the message (with its arguments merged in) has every secret-looking word replaced by [redacted]:
  a run of 20 or more token characters (`A-Z a-z 0-9 _ -`) holding a digit or a capital letter
  (seat, spectator and invite tokens are 24 such characters, a randomness key 64 hex digits; a
  game id, 12 characters, and ordinary words are kept), and `token=`/`invite=`/`key=`/`secret=`
  values whatever their length;
- an exception's traceback text is redacted the same way (the record carries it as `exc_text`).

The database engine is also made with `hide_parameters=True` (store.py), so SQLAlchemy's messages
never carry the statement's parameters in the first place.
"""

from __future__ import annotations

import logging
import re
from typing import Any

REDACTED = "[redacted]"
# A secret-looking word: 20+ token characters with a digit or a capital letter in it.
_LONG_WORD = re.compile(r"(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{20,}(?![A-Za-z0-9_-])")
_NAMED = re.compile(
    r"(?i)(\b(?:token|invite|spectator_token|secret|key|t)['\"]?\s*[=:]\s*['\"]?)[A-Za-z0-9_-]{6,}"
)


def _looks_secret(word: str) -> bool:
    return any(c.isdigit() or c.isupper() for c in word)


def redact_text(text: str) -> str:
    """`text` with every secret-looking word replaced by [redacted]."""
    if not text:
        return text
    text = _NAMED.sub(lambda m: m.group(1) + REDACTED, text)
    return _LONG_WORD.sub(lambda m: REDACTED if _looks_secret(m.group(0)) else m.group(0), text)


_formatter = logging.Formatter()


def redact_record(record: logging.LogRecord) -> logging.LogRecord:
    """Redact a record in place (message, traceback, stack); returns it."""
    if getattr(record, "_trapworks_redacted", False):
        return record
    try:
        message = record.getMessage()
    except Exception:  # a bad format string: keep what there is, as text
        message = f"{record.msg!r} {record.args!r}"
    record.msg = redact_text(message)
    record.args = None
    if record.exc_info and record.exc_info[0] is not None and not record.exc_text:
        record.exc_text = _formatter.formatException(record.exc_info)
    if record.exc_text:
        record.exc_text = redact_text(record.exc_text)
    if record.stack_info:
        record.stack_info = redact_text(record.stack_info)
    record._trapworks_redacted = True
    return record


class RedactingFilter(logging.Filter):
    """The same redaction as a logging.Filter (for a handler that must not depend on install())."""

    def filter(self, record: logging.LogRecord) -> bool:
        redact_record(record)
        return True


_installed = False


def install() -> None:
    """Redact every log record made in this process from now on (idempotent)."""
    global _installed
    if _installed:
        return
    previous = logging.getLogRecordFactory()

    def factory(*args: Any, **kwargs: Any) -> logging.LogRecord:
        return redact_record(previous(*args, **kwargs))

    logging.setLogRecordFactory(factory)
    _installed = True
