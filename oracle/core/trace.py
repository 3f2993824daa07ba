"""The trace: every observable event, tagged with the clause that produced it, grouped in moments.

Simultaneity is explicit: what the rules make simultaneous is emitted inside one
:meth:`Trace.simultaneous` block and shares one moment number.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(slots=True)
class Entry:
    moment: int
    kind: str
    args: dict[str, Any]
    clause: str


class Trace:
    __slots__ = ("entries", "_moment", "_depth")

    def __init__(self) -> None:
        self.entries: list[Entry] = []
        self._moment = 0
        self._depth = 0

    def emit(self, kind: str, clause: str, /, **args: Any) -> Entry:
        """Record one event; outside a ``simultaneous`` block it is a moment of its own."""
        if self._depth == 0:
            self._moment += 1
        entry = Entry(self._moment, kind, args, clause)
        self.entries.append(entry)
        return entry

    def simultaneous(self) -> "_Simultaneous":
        """Everything emitted inside happens at one moment (A3, B3, D2, D4 ...). Nesting joins the outer."""
        return _Simultaneous(self)


class _Simultaneous:
    """The block of :meth:`Trace.simultaneous` (a plain context manager: engines open thousands a second)."""

    __slots__ = ("trace",)

    def __init__(self, trace: Trace) -> None:
        self.trace = trace

    def __enter__(self) -> None:
        t = self.trace
        if t._depth == 0:
            t._moment += 1
        t._depth += 1

    def __exit__(self, *exc: object) -> None:
        self.trace._depth -= 1
