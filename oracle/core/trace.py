"""The trace: every observable event, tagged with the clause that produced it, grouped in moments.

Simultaneity is explicit: what the rules make simultaneous is emitted inside one
:meth:`Trace.simultaneous` block and shares one moment number.
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Iterator


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

    @contextmanager
    def simultaneous(self) -> Iterator[None]:
        """Everything emitted inside happens at one moment (A3, B3, D2, D4 ...). Nesting joins the outer."""
        if self._depth == 0:
            self._moment += 1
        self._depth += 1
        try:
            yield
        finally:
            self._depth -= 1
