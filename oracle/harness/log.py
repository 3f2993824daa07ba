"""``run --log FILE``: a structured log streamed as the run goes, one JSON object a line (wptrunner's
mozlog style): ``suite_start``, then ``test_end`` as each case finishes, then ``suite_end``. Each line is
flushed when written, so a run that is killed (a CI timeout, SIGKILL) leaves a log of every case it
finished; a log without ``suite_end`` is a run that did not end.

Lines::

    {"action": "suite_start", "time": 1764633600000, "command": "tcg-oracle run ...", "cases": 412}
    {"action": "test_end", "time": ..., "id": "ijinden.attack.single-unblocked-wins", "game": "ijinden",
     "status": "pass", "duration": 0.004}
    {"action": "test_end", ..., "status": "fail", "message": "winner is ...", "expected": "fail"}
    {"action": "suite_end", "time": ..., "engine": "my-engine", "summary": {"pass": 410, "fail": 2},
     "partial": false}

``expected`` is the baseline's status of the case (with ``--baseline``), ``message`` the first line of a
failure's divergence or an error; ``aborted`` in ``suite_end`` says why a run stopped early.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any, TextIO

from ..model import CaseResult, Results


class StructuredLog:
    """The log file, open for the run; every line flushed as written."""

    def __init__(self, path: str | Path, expected: dict[str, str] | None = None) -> None:
        self.path = Path(path)
        self.expected = expected or {}
        self.path.parent.mkdir(parents=True, exist_ok=True)  # as every output: its folders are made
        self._out: TextIO | None = open(self.path, "w", encoding="utf-8")  # noqa: SIM115 - open for the run

    def _line(self, action: str, **fields: Any) -> None:
        if self._out is None:
            return
        record = {"action": action, "time": int(time.time() * 1000), **fields}
        self._out.write(json.dumps(record, ensure_ascii=False, default=str) + "\n")
        self._out.flush()

    def suite_start(self, *, command: str | None, cases: int) -> None:
        self._line("suite_start", command=command, cases=cases)

    def test_end(self, result: CaseResult) -> None:
        fields: dict[str, Any] = {"id": result.id, "game": result.game, "status": result.status,
                                  "duration": round(result.duration, 6)}
        message = (result.divergence.message if result.divergence else None) or result.error or result.skip_reason
        if message and result.status != "pass":
            fields["message"] = message.splitlines()[0][:2000]
        if result.id in self.expected:
            fields["expected"] = self.expected[result.id]
        self._line("test_end", **fields)

    def suite_end(self, results: Results) -> None:
        fields: dict[str, Any] = {"engine": results.engine.name, "summary": results.summary,
                                  "partial": results.partial}
        if results.aborted:
            fields["aborted"] = results.aborted
        self._line("suite_end", **fields)

    def close(self) -> None:
        if self._out is not None:
            self._out.close()
            self._out = None
