"""A ``py:`` engine for the harness tests: the reference with one misreading -- a Siege's trigger given to the
battle's owner instead of its controller (mutant ``mtg-siege-trigger-owner-controls``'s patch) -- played the
way a real engine plays it: where its misreading needs a decision the script does not have, it asks for it
(``MissingDecision``), as the reference itself would."""

from __future__ import annotations

from oracle.harness.engine import ReferenceEngine
from oracle.model import EngineInfo, Hello
from oracle.mutants import get
from oracle.mutants.patch import applied


class OwnerControlsSiegeTrigger(ReferenceEngine):
    def hello(self):
        return Hello(engine=EngineInfo(name="owner-controls-siege-trigger", version="1"), games=["mtg"])

    def run_case(self, request, timeout=None):
        with applied(get("mtg-siege-trigger-owner-controls")):
            return super().run_case(request, timeout)


def make():
    return OwnerControlsSiegeTrigger()
