"""What of an engine's reply is stored in a case result: its text trimmed (``oracle.text``), so a reply
holding a 60 MB string costs kilobytes in the results, the report and JUnit. Compared before trimming."""

from __future__ import annotations

from typing import Iterable

from typing import Any

from ..limits import TRACE_KEEP
from ..model import Divergence, TraceEntry
from ..text import trim_text, trim_values


def stored_trace(trace: Iterable[TraceEntry], keep: int | None = None) -> list[TraceEntry]:
    """The entries kept of an engine's trace: the first ``keep`` (all when ``None``), their text trimmed."""
    out = []
    for i, e in enumerate(trace):
        if keep is not None and i >= keep:
            break
        args = trim_values(e.args)
        out.append(e if args is e.args else e.model_copy(update={"args": args}))
    return out


def stored_divergence(d: Divergence | None) -> Divergence | None:
    if d is None:
        return None
    update = {"message": trim_text(d.message), "expected": trim_values(d.expected), "actual": trim_values(d.actual),
              "context": stored_trace(d.context)}
    return d.model_copy(update=update)


def kept_trace(trace: list[TraceEntry]) -> dict[str, Any]:
    """A case result's ``trace`` and ``trace_cut`` fields: the first :data:`~oracle.limits.TRACE_KEEP`
    entries of the reply's trace (the whole trace was compared; the divergence keeps its own context), and
    how many were left out (docs/faults.md)."""
    cut = max(0, len(trace) - TRACE_KEEP)
    return {"trace": stored_trace(trace, TRACE_KEEP), **({"trace_cut": cut} if cut else {})}
