"""An engine that asks for a decision the script does not have, while the reference plays the case through,
decided differently from the rules: ``fail`` with that divergence, never ``error`` (DESIGN: statuses mean one
thing each). When the reference needs that decision too, the script is short: ``error``."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from oracle.cli import main  # noqa: E402

SIEGE = "mtg.siege.trigger-controlled-by-controller-not-owner"


@pytest.mark.parametrize("spec", ["py:owner_siege_engine:make"])
def test_a_decision_asked_of_the_wrong_player_past_the_script_is_a_fail(tmp_path, spec):
    """CR 310.11b, 603.3a: the Siege's trigger is controlled by the battle's controller; an engine giving it to
    the owner asks bob for cast_transformed, which the script (and the rules) do not give."""
    out = tmp_path / "r.json"
    code = main(["run", "--engine", spec, "-k", SIEGE, "--results", str(out), "--report", "", "--quiet",
                 "--timeout", "0"])
    (case,) = json.loads(out.read_text())["cases"]
    assert code == 1 and case["status"] == "fail", case.get("error")
    assert case["divergence"]["what"] == "decision"  # before: error "script: the script ended at decision 8 ..."
    assert "the engine asked bob for `cast_transformed`" in case["divergence"]["message"]
    assert "the rules give no such decision here" in case["divergence"]["message"]


def test_the_same_over_the_protocol(tmp_path):
    """serve answers a MissingDecision with ``asked`` (and the old ``error`` text); the harness judges it."""
    from oracle.harness.runner import asked_beyond_script
    from oracle.loader import load_suite
    from oracle.model import Asked

    lc = next(x for x in load_suite(games=["mtg"]).cases if x.case.id == SIEGE)
    res = asked_beyond_script(lc, lc.case.rulesets[0], Asked(at=len(lc.case.script), player="bob",
                                                             decisions=["cast_transformed"]), "", 0.0,
                              dict(id=lc.case.id, game="mtg"))
    assert res.status == "fail" and "asked bob for `cast_transformed` after the script's last entry" in \
        res.divergence.message


def test_a_script_the_reference_also_finds_short_is_the_cases_error(tmp_path):
    from oracle.harness.engine import ReferenceEngine
    from oracle.harness.runner import run_suite
    from oracle.loader import load_suite

    import yaml

    src = next(x for x in load_suite(games=["mtg"]).cases if x.case.id == SIEGE)
    data = src.case.model_dump(mode="json", exclude_none=True)
    data["script"] = data["script"][:5]  # up to the cast_transformed choice the reference needs
    data["id"] = "user.short-script"
    (tmp_path / "short.yaml").write_text(yaml.safe_dump([data], allow_unicode=True), encoding="utf-8")
    (case,) = run_suite(ReferenceEngine(), load_suite([tmp_path])).cases
    assert case.status == "error" and case.error.startswith("script:")


def test_serve_says_asked():
    from oracle.harness.serve import answer
    from oracle.harness.request import make_request
    from oracle.loader import load_suite

    src = next(x for x in load_suite(games=["mtg"]).cases if x.case.id == SIEGE)
    req = make_request(src.case, src.case.rulesets[0])
    short = req.model_copy(update={"script": req.script[:5]})
    reply = answer(short.model_dump_json().encode(), ["mtg"])
    assert reply.asked is not None and reply.asked.at == len(short.script) and reply.error.startswith("script:")
