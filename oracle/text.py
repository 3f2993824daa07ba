"""Text from outside -- an engine's replies, a case file's ids -- made safe to store and to show.

- :func:`trim_text`: at most ``limit`` characters, saying how many were cut (an engine's 100 MB error
  string costs 2 KB in the results, not 100 MB, and the console does not hang printing it).
- :func:`printable`: control characters (CR, LF, ESC, ...) and the bidirectional-text controls (U+202E
  RIGHT-TO-LEFT OVERRIDE and its kin) escaped, so a case id or an engine message cannot forge a line or
  colour in a CI log, nor show its characters in another order than they are stored.
"""

from __future__ import annotations

import re
from typing import Any

from .limits import TEXT_LIMIT

_BIDI = "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
"""The bidirectional-text controls (Unicode UAX #9): marks, embeddings, overrides, isolates."""
_CONTROL = re.compile(f"[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029{_BIDI}]")
_CONTROL_AND_NEWLINE = re.compile(f"[\x00-\x1f\x7f-\x9f\u2028\u2029{_BIDI}]")


def trim_text(text: str, limit: int = TEXT_LIMIT) -> str:
    """``text`` cut to ``limit`` characters, with a note of how much was cut."""
    if len(text) <= limit:
        return text
    return text[:limit] + f"... [{len(text) - limit} more characters cut; {len(text)} in all]"


def printable(text: object, *, newlines: bool = False) -> str:
    """``text`` for a terminal or log: control characters escaped (``\\x1b``, ``\\r``); newlines too
    unless ``newlines`` (multi-line messages whose lines the harness wrote)."""
    pattern = _CONTROL if newlines else _CONTROL_AND_NEWLINE
    return pattern.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), str(text))


def trim_values(value: Any, limit: int = TEXT_LIMIT) -> Any:
    """``value`` (JSON-like) with every string longer than ``limit`` trimmed; the same object when none
    is."""
    if isinstance(value, str):
        return trim_text(value, limit)
    if isinstance(value, list):
        out = [trim_values(v, limit) for v in value]
        return value if all(a is b for a, b in zip(out, value)) else out
    if isinstance(value, dict):
        new = {k: trim_values(v, limit) for k, v in value.items()}
        return value if all(new[k] is value[k] for k in value) else new
    return value
