"""The trace: every observable event, tagged with the clause that produced it, grouped in moments.

Simultaneity is explicit: what the rules make simultaneous is emitted inside one
:meth:`Trace.simultaneous` block and shares one moment number.
"""

from __future__ import annotations

from typing import Any

from ..model import TraceEntry

Entry = TraceEntry
"""A trace entry is the protocol's :class:`~oracle.model.TraceEntry` from the start (built as
:func:`oracle.core.game.built` builds the reference's output: every field named, nothing to validate), so a
reply carries the entries as they were emitted."""

_new = TraceEntry.__new__
_setattr = object.__setattr__


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
        entry = _new(TraceEntry)
        _setattr(entry, "__dict__", {"moment": self._moment, "kind": kind, "args": args, "clause": clause})
        _setattr(entry, "__pydantic_fields_set__", {"moment", "kind", "args", "clause"})
        _setattr(entry, "__pydantic_extra__", None)
        _setattr(entry, "__pydantic_private__", None)
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
