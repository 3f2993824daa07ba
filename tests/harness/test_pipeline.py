"""The runner's requests ahead (capability ``pipeline``): which requests are written before a reply is read."""

from __future__ import annotations

from oracle.harness.engine import ReferenceEngine
from oracle.harness.runner import run_suite
from oracle.loader import load_suite


class Recording(ReferenceEngine):
    """The reference, with the ``prefetch``/``window`` of a pipelining engine; every call noted in order."""

    def __init__(self, window: int) -> None:
        super().__init__()
        self.window = window
        self.calls: list[tuple[str, str]] = []
        self.in_flight: list[str] = []

    def prefetch(self, request, timeout=None) -> bool:  # never full: the runner keeps to the window it reads
        if request.id in self.in_flight:
            return True
        self.in_flight.append(request.id)
        self.calls.append(("send", request.id))
        return True

    def run_case(self, request, timeout=None):
        if request.id not in self.in_flight:
            self.calls.append(("send", request.id))
        else:
            self.in_flight.remove(request.id)
        self.calls.append(("answer", request.id))
        return super().run_case(request, timeout)


def test_requests_ahead_are_written_in_case_order_within_the_window_and_never_for_a_skipped_case():
    suite = load_suite(None, games=["mtg"])
    engine = Recording(window=4)
    res = run_suite(engine, suite, ruleset="cr-20260807")
    skipped = {c.id for c in res.cases if c.status == "skip"}
    ran = [c.id for c in res.cases if c.status != "skip"]
    assert skipped and res.summary["fail"] == res.summary["error"] == 0
    sent = [cid for what, cid in engine.calls if what == "send"]
    assert sent == ran  # each case written once, in the order of the run; no skipped case written
    answered = [cid for what, cid in engine.calls if what == "answer"]
    assert answered == ran
    most = 0  # requests written and not yet answered, at most the window
    done: set[str] = set()
    written: set[str] = set()
    for what, cid in engine.calls:
        (written if what == "send" else done).add(cid)
        most = max(most, len(written - done))
    assert most == 4


def test_an_engine_without_prefetch_is_sent_one_request_at_a_time():
    engine = Recording(window=4)
    engine.prefetch = None  # type: ignore[assignment]  # not a pipelining engine
    res = run_suite(engine, load_suite(None, games=["ijinden"]))
    assert res.summary["pass"] == len(res.cases)
    assert all(a[0] == "send" and b == ("answer", a[1]) for a, b in zip(engine.calls[::2], engine.calls[1::2]))
