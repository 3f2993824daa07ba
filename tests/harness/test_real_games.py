"""On the real games: ``serve`` equals the in-process reference, and the example engine passes its subset."""

from __future__ import annotations

import shlex
import sys

import pytest

from helpers import ENGINES, by_id
from oracle.cli import main
from oracle.loader import load_suite

EXAMPLE_SUBSET = (
    "single-unblocked or attackers-one-moment or refuse.attacker or refuse.no-attackers or refuse.second-battle "
    "or refuse.blocker or d1.blocker-greater or d1.tie-single or d1.zero-vs-zero")


def _run(tmp_path, name, *args):
    import json

    out = tmp_path / f"{name}.json"
    code = main(["run", "--results", str(out), "--report", "", "--quiet", *args])
    return code, json.loads(out.read_text())


@pytest.mark.slow
def test_serve_gives_the_reference_statuses_and_traces_on_every_game(tmp_path):
    if not load_suite().cases:
        pytest.skip("no golden cases yet")
    _, direct = _run(tmp_path, "direct")
    serve = "cmd:" + shlex.join([sys.executable, "-m", "oracle", "serve"])
    _, served = _run(tmp_path, "served", "--engine", serve)
    a, b = by_id(direct), by_id(served)
    assert list(a) == list(b) and len(a) == len(direct["cases"])
    for cid in a:
        assert (a[cid]["status"], a[cid].get("trace"), a[cid].get("error")) == \
               (b[cid]["status"], b[cid].get("trace"), b[cid].get("error")), cid
    assert {c["game"] for c in direct["cases"]} == {c["game"] for c in served["cases"]}


@pytest.mark.slow
def test_example_engine_passes_its_named_subset(tmp_path):
    engine = "cmd:" + shlex.join([sys.executable, str(ENGINES / "example_engine.py")])
    code, res = _run(tmp_path, "example", "--engine", engine, "--game", "ijinden", "-k", EXAMPLE_SUBSET)
    statuses = {c["id"]: c["status"] for c in res["cases"]}
    assert len(statuses) >= 14 and "ijinden.d1.tie-single-both-lose" in statuses
    assert set(statuses.values()) == {"pass"}, {k: v for k, v in statuses.items() if v != "pass"}
    assert code == 0


def test_example_engine_uses_only_the_protocol():
    source = (ENGINES / "example_engine.py").read_text()
    assert "import oracle" not in source and "from oracle" not in source
