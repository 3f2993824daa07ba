"""What of an engine's reply is stored in a case result: its text trimmed (``oracle.text``), so a reply
holding a 60 MB string costs kilobytes in the results, the report and JUnit. Compared before trimming."""

from __future__ import annotations

from typing import Iterable

from ..model import Divergence, TraceEntry
from ..text import trim_text, trim_values


def stored_trace(trace: Iterable[TraceEntry]) -> list[TraceEntry]:
    out = []
    for e in trace:
        args = trim_values(e.args)
        out.append(e if args is e.args else e.model_copy(update={"args": args}))
    return out


def stored_divergence(d: Divergence | None) -> Divergence | None:
    if d is None:
        return None
    update = {"message": trim_text(d.message), "expected": trim_values(d.expected), "actual": trim_values(d.actual),
              "context": stored_trace(d.context)}
    return d.model_copy(update=update)
