"""``merge``: each engine keeps its version and command; shards of one run must agree (suite version, engine
version, command) or are refused naming the two files and the field; a file that is not a results object
is refused; a whole run merged with one of its own shards is whole; runs under several rulesets join into
one run whose cases carry their per-edition results."""

from __future__ import annotations

import json

import pytest

from helpers import run_cli, toy_cmd
from oracle.cli import main
from oracle.harness.merge import read_results, split_engines
from oracle.reports import render

pytestmark = pytest.mark.usefixtures("toy")


def _merge(tmp_path, *names: str) -> int:
    return main(["merge", *(str(tmp_path / f"{n}.json") for n in names), "--out", str(tmp_path / "out.json")])


def test_two_engines_keep_their_versions_and_commands(tmp_path):
    run_cli(tmp_path, name="ref")
    run_cli(tmp_path, "--engine", toy_cmd("--misread", "toy.unblocked-wins"), name="toy")
    assert _merge(tmp_path, "ref", "toy") == 0
    (merged,) = read_results(tmp_path / "out.json")
    toy = json.loads((tmp_path / "toy.json").read_text())
    ref = json.loads((tmp_path / "ref.json").read_text())
    parts = {p.engine.name: p for p in split_engines(merged)}
    assert parts["toy-engine"].engine.version == toy["engine"]["version"]
    assert parts["toy-engine"].command == toy["command"] and parts["reference"].command == ref["command"]
    runs = {r.name: r for r in render.build([merged])["runs"]}
    assert runs["toy-engine"].version == toy["engine"]["version"] != "?"
    assert runs["toy-engine"].commands == [toy["command"]]
    assert runs["toy-engine"].spec.startswith("cmd:")  # the reproduce command runs the engine, not its name


@pytest.mark.parametrize("field,change", [
    ("suite_version", lambda d: d.update(suite_version="0.0.1")),
    ("engine.version", lambda d: d["engine"].update(version="9.9")),
    ("command", lambda d: d.update(command=d["command"] + " -k unblocked")),
])
def test_shards_of_different_runs_are_refused(tmp_path, capsys, field, change):
    run_cli(tmp_path, "--shard", "1/2", name="a")
    run_cli(tmp_path, "--shard", "2/2", name="b")
    data = json.loads((tmp_path / "b.json").read_text())
    change(data)
    (tmp_path / "b.json").write_text(json.dumps(data))
    assert _merge(tmp_path, "a", "b") == 2
    err = capsys.readouterr().err
    assert f"{tmp_path / 'a.json'} and {tmp_path / 'b.json'} differ in {field}" in err
    assert not (tmp_path / "out.json").exists()


@pytest.mark.parametrize("text,found", [("[]", "an empty list"), ('"x"', "a JSON string"), ("[{}]", "a JSON array")])
def test_a_file_that_is_not_a_results_object_is_refused(tmp_path, capsys, text, found):
    run_cli(tmp_path, name="a")
    (tmp_path / "b.json").write_text(text)
    assert _merge(tmp_path, "a", "b") == 2
    err = capsys.readouterr().err
    assert f"{tmp_path / 'b.json'}: not a results file: its top level is {found}" in err


def test_a_whole_run_with_one_of_its_shards_is_the_whole_run(tmp_path, capsys):
    run_cli(tmp_path, name="whole")
    run_cli(tmp_path, "--shard", "1/2", name="half")
    assert _merge(tmp_path, "whole", "half") == 0
    assert "missing" not in capsys.readouterr().err
    merged = json.loads((tmp_path / "out.json").read_text())
    whole = json.loads((tmp_path / "whole.json").read_text())
    assert not merged.get("partial") and [c["id"] for c in merged["cases"]] == [c["id"] for c in whole["cases"]]
    assert merged["command"] == whole["command"]


def test_runs_under_two_rulesets_are_one_run_with_per_edition_results(tmp_path):
    run_cli(tmp_path, "--ruleset", "toy-1", name="one")
    run_cli(tmp_path, "--ruleset", "toy-2", name="two")
    run_cli(tmp_path, "--ruleset", "all", name="all")
    one = {c["id"]: c for c in json.loads((tmp_path / "one.json").read_text())["cases"]}
    assert one["toy.more.edition-2-only"]["status"] == "skip"  # it does not hold for toy-1
    assert _merge(tmp_path, "one", "two") == 0
    merged = json.loads((tmp_path / "out.json").read_text())
    everything = json.loads((tmp_path / "all.json").read_text())
    key = lambda d: sorted((c["id"], c.get("ruleset"), c["status"]) for c in d["cases"])  # noqa: E731
    assert key(merged) == key(everything)  # merged editions equal one run --ruleset all
    only2 = [c for c in merged["cases"] if c["id"] == "toy.more.edition-2-only"]
    assert [(c["ruleset"], c["status"]) for c in only2] == [("toy-2", "pass")]  # no skip left beside it
    assert [p["ruleset"] for p in merged["parts"]] == ["toy-1", "toy-2"]
    assert all("--ruleset" in p["command"] for p in merged["parts"])
    (merged_results,) = read_results(tmp_path / "out.json")
    ctx = render.build([merged_results])
    (run,) = ctx["runs"]  # one column, no history of two dates
    assert not ctx["histories"] and run.rulesets == ["toy-1", "toy-2"]
    assert run.cases["toy.more.edition-2-only"].status == "pass"
    # the two files given to the report directly are one column too
    ctx = render.build([read_results(tmp_path / "one.json")[0], read_results(tmp_path / "two.json")[0]])
    assert len(ctx["runs"]) == 1 and not ctx["histories"]
    assert ctx["runs"][0].cases["toy.more.edition-2-only"].status == "pass"
