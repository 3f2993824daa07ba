"""The command line, driven as a subprocess: exit codes, files written, errors that say where."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

BROKEN = textwrap.dedent("""\
    id: cli.broken
    game: ijinden
    rulesets: [ijinden-rulecard-2.0-231225]
    title: a case naming a card that does not exist
    source: {kind: external, document: test, edition: "1", page: "1", quote: test}
    rules: ["ijinden:A1"]
    setup:
      active: alice
      players:
        alice:
          battlefield:
            - {id: a, card: NoSuchCard}
        bob: {}
    script: []
    expect:
      winner: null
""")


def cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    return subprocess.run([sys.executable, "-m", "oracle", *args], capture_output=True, text=True, cwd=cwd,
                          env=env, timeout=300)


def test_version():
    r = cli("--version")
    assert r.returncode == 0 and r.stdout.startswith("tcg-oracle ")


@pytest.mark.parametrize("name", ["case", "results", "protocol", "catalog", "cards"])
def test_schema_is_json(name):
    r = cli("schema", name)
    assert r.returncode == 0
    assert isinstance(json.loads(r.stdout), dict)


def test_validate_the_shipped_cases():
    r = cli("validate")
    assert r.returncode == 0, r.stderr


def test_validate_names_file_line_and_field(tmp_path):
    bad = tmp_path / "broken.yaml"
    bad.write_text(BROKEN, encoding="utf-8")
    r = cli("validate", str(bad))
    assert r.returncode == 2
    assert f"{bad}:12: case cli.broken: field setup.players.alice.battlefield[0].card" in r.stderr
    assert "NoSuchCard" in r.stderr


def test_run_writes_results_and_report_and_a_broken_file_costs_only_its_case(tmp_path):
    cases = tmp_path / "cases"
    cases.mkdir()
    (cases / "broken.yaml").write_text(BROKEN, encoding="utf-8")
    good = Path(__file__).resolve().parents[1] / "cases" / "ijinden"
    results, report = tmp_path / "r.json", tmp_path / "r.html"
    r = cli("run", "--cases", str(cases), "--cases", str(good), "--results", str(results),
            "--report", str(report))
    assert r.returncode == 2, r.stdout + r.stderr
    data = json.loads(results.read_text(encoding="utf-8"))
    statuses = {c["id"]: c["status"] for c in data["cases"]}
    assert statuses.pop("cli.broken") == "error"
    assert statuses and set(statuses.values()) == {"pass"}
    assert data["summary"]["error"] == 1 and data["summary"]["pass"] == len(statuses)
    assert report.read_text(encoding="utf-8").startswith("<!doctype html>")
    assert "invalid case file" in r.stderr and "broken.yaml:12" in r.stderr


def test_run_one_game_passes_and_exits_0(tmp_path):
    r = cli("run", "--game", "ijinden", "--results", str(tmp_path / "r.json"), "--report", "")
    assert r.returncode == 0, r.stdout + r.stderr
    data = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    assert data["summary"]["pass"] >= 45 and data["summary"]["fail"] == 0
    assert {c["game"] for c in data["cases"]} == {"ijinden"}
    assert data["schema_version"] == 1 and data["engine"]["name"] == "reference"


def test_run_selects_with_k(tmp_path):
    r = cli("run", "--game", "ijinden", "-k", "refus", "--results", str(tmp_path / "r.json"), "--report", "")
    data = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    assert r.returncode == 0 and data["cases"]
    assert all("refus" in (c["id"] + c["title"]).lower() or any("refus" in x for x in c["rules"])
               for c in data["cases"])


def test_an_unknown_ruleset_is_bad_usage(tmp_path):
    r = cli("run", "--game", "ijinden", "--ruleset", "no-such-edition", "--results", str(tmp_path / "r.json"),
            "--report", "")
    assert r.returncode == 2 and "unknown ruleset" in r.stderr and "ijinden-rulecard-2.0-231225" in r.stderr
    assert not (tmp_path / "r.json").exists(), "bad usage is said before the run"


@pytest.mark.parametrize("args, words", [
    (["run", "--game", "nosuchgame"], "unknown game"),
    (["run", "-k", "a and (b"], "missing ')'"),
    (["run", "--shard", "5/4"], "--shard"),
])
def test_bad_usage_exits_2_with_a_message(args, words, tmp_path):
    r = cli(*args, "--results", str(tmp_path / "r.json"), "--report", "")
    assert r.returncode == 2 and words in r.stderr


def test_run_imports_neither_z3_nor_hypothesis(tmp_path):
    code = ("import sys; from oracle.cli import main; "
            f"main(['run', '--game', 'ijinden', '--quiet', '--report', '', '--results', {str(tmp_path / 'r.json')!r}]); "
            "print(sorted(m for m in ('z3', 'hypothesis') if m in sys.modules))")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert r.stdout.strip().endswith("[]"), r.stdout + r.stderr


def test_the_recorded_command_reproduces_the_run(tmp_path):
    """results.json's command is shell-quoted, names no path of this machine (the interpreter of a cmd:
    engine by its name) and leaves out where the run wrote: run again, it gives the same results."""
    import shlex

    python = Path(sys.executable)
    selection = ["run", "--game", "ijinden", "-k", "d1.tie or d1.zero"]
    r = cli(*selection, "--engine", "cmd:" + shlex.join([str(python), "-m", "oracle", "serve"]),
            "--results", str(tmp_path / "r.json"), "--report", "", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    first = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    argv = shlex.split(first["command"])
    assert argv == ["tcg-oracle", *selection, "--engine", f"cmd:{python.name} -m oracle serve"]

    env = {**os.environ, "PATH": f"{python.parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    again = subprocess.run([sys.executable, "-m", "oracle", *argv[1:], "--results", "again.json", "--report", ""],
                           capture_output=True, text=True, cwd=tmp_path, env=env, timeout=300)
    assert again.returncode == 0, again.stderr
    second = json.loads((tmp_path / "again.json").read_text(encoding="utf-8"))
    assert second["command"] == first["command"]
    assert [(c["id"], c["status"]) for c in second["cases"]] == [(c["id"], c["status"]) for c in first["cases"]]
    assert len(first["cases"]) >= 2


def test_k_matches_the_abilities_a_case_uses(tmp_path):
    r = cli("run", "--game", "ijinden", "-k", "arena", "--results", str(tmp_path / "r.json"), "--report", "")
    data = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    assert r.returncode == 0 and data["cases"]
    from oracle.harness.request import used_abilities
    from oracle.loader import load_suite

    uses_arena = {lc.case.id for lc in load_suite(games=["ijinden"]).cases
                  if "arena" in used_abilities(lc.case) or "arena" in lc.case.id or "arena" in lc.case.title.lower()}
    assert {c["id"] for c in data["cases"]} == uses_arena


def test_a_negative_timeout_is_bad_usage(tmp_path):
    r = cli("run", "--timeout", "-1", "--results", str(tmp_path / "r.json"), "--report", "")
    assert r.returncode == 2 and "--timeout -1" in r.stderr


def test_the_summary_names_the_level_at_every_level_and_keeps_the_nearest_moment(tmp_path, capsys):
    """The summary's title says '· level trace' as it says '· level final'; a failure's terminal line keeps
    the nearest actual moment (what the engine did) even when the expected part is long."""
    from oracle.cli import _short, main

    out = tmp_path / "r.json"
    assert main(["run", "--game", "duelmasters", "-k", "dm.refuse.malformed-and-unknown-attack",
                 "--results", str(out), "--report", ""]) == 0
    assert "· level trace" in capsys.readouterr().out
    msg = "expected moment 3 " + "x" * 900 + "; nearest: [{\"tapped\": \"a\"}]"
    line = _short(msg)
    assert line.endswith("; nearest: [{\"tapped\": \"a\"}]") and "more characters cut" in line
    assert _short("plain") == "plain"


def test_help_says_what_the_tool_is_the_exit_codes_and_examples(capsys):
    """`tcg-oracle --help` opened with "The ``tcg-oracle`` command." and listed no exit code."""
    from oracle.cli import main

    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    description = out.split("\n\n")[1]
    assert description.startswith("tcg-oracle: a rules test-oracle and conformance suite") and "``" not in out
    for code, words in (("0", "as expected"), ("1", "failed or erred"), ("2", "bad usage"), ("3", "engine")):
        assert any(line.strip().startswith(code + " ") and words in line for line in out.splitlines()), code
    examples = out.split("examples:\n")[1].split("\n\n")[0].splitlines()
    assert len(examples) == 3 and all(line.strip().startswith("tcg-oracle run") for line in examples)


@pytest.mark.parametrize("command, option, words", [
    ("merge", "--out FILE", "the merged results file"),
    ("explain", "--engine SPEC", "the engine whose play is narrated"),
    ("run", "--last-failed", "failed or erred"),
    ("validate", "--seeds DIR", "verbatim"),
])
def test_every_option_has_help(capsys, command, option, words):
    from oracle.cli import main

    with pytest.raises(SystemExit):
        main([command, "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert option in out and words in out
