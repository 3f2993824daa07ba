"""Fault injection, outputs: every output path checked before the run (a folder, a file as a parent, the
same file twice), every writer atomic (concurrent writers, an interrupt mid-write), a baseline updated
by a subset run keeps the rest, and nothing-tested runs are never green."""

from __future__ import annotations

import json
import threading

import pytest
from helpers_faults import run

from oracle.cli import main


@pytest.mark.usefixtures("toy")
@pytest.mark.parametrize("flag", ["--results", "--report", "--junit", "--baseline"])
@pytest.mark.parametrize("kind, words", [("dir", "is a directory"), ("under-file", "is a file, not a folder")])
def test_an_unwritable_output_is_bad_usage_before_the_run(tmp_path, capsys, flag, kind, words):
    """Defect 14: a folder as --results ended in a traceback after the run, leaving DIR.tmp."""
    target = tmp_path / "target"
    if kind == "dir":
        target.mkdir()
    else:
        target.write_text("a file")
        target = target / "out.json"
    args = {"--results": str(tmp_path / "r.json"), "--report": "", "--junit": None, "--baseline": None}
    args[flag] = str(target)
    argv = ["run", "--game", "toy", "--quiet"] + [x for f, v in args.items() if v is not None for x in (f, v)]
    if flag == "--baseline":
        argv.append("--update-baseline")
    code = main(argv)
    err = capsys.readouterr().err
    assert code == 2 and f"{flag} {target}: " in err and words in err and "Traceback" not in err
    assert not (tmp_path / "r.json").exists() or flag == "--results", "nothing is run"
    assert not list(tmp_path.glob("*.tmp")) and not list(tmp_path.glob(".*.tmp"))


@pytest.mark.usefixtures("toy")
def test_two_outputs_naming_one_file_is_bad_usage(tmp_path, capsys):
    same = str(tmp_path / "same")
    assert main(["run", "--game", "toy", "--results", same, "--report", same]) == 2
    assert "two outputs name the same file" in capsys.readouterr().err


def test_merge_and_report_refuse_a_folder_as_out(tmp_path, capsys):
    results = tmp_path / "r.json"
    results.write_text(json.dumps({"engine": {"name": "x", "version": "1"}, "suite_version": "1",
                                   "started": "2024-01-01T00:00:00+00:00", "cases": [], "summary": {}}))
    folder = tmp_path / "folder"
    folder.mkdir()
    assert main(["merge", str(results), "--out", str(folder)]) == 2
    assert "is a directory" in capsys.readouterr().err
    assert main(["report", str(results), "--out", str(folder)]) == 2
    assert "is a directory" in capsys.readouterr().err


def test_concurrent_writers_of_one_path_never_corrupt_it(tmp_path):
    """Defect 5: every writer used <path>.tmp; concurrent runs corrupted the file or crashed."""
    from oracle.outputs import write_json

    path = tmp_path / "out" / "results.json"
    errors: list[BaseException] = []

    def writer(n: int) -> None:
        try:
            for i in range(30):
                write_json(path, {"writer": n, "i": i, "pad": "x" * (20_000 * (n + 1))})
        except BaseException as exc:  # noqa: BLE001
            errors.append(exc)

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(6)]
    for t in threads:
        t.start()
    seen = 0
    while any(t.is_alive() for t in threads):
        if path.exists():
            data = json.loads(path.read_text())  # a reader always sees one whole document
            assert len(data["pad"]) == 20_000 * (data["writer"] + 1)
            seen += 1
    for t in threads:
        t.join()
    assert not errors, errors
    assert [p.name for p in path.parent.iterdir()] == ["results.json"], "no temporary is left behind"


def test_an_interrupt_mid_write_leaves_the_old_file_and_no_temporary(tmp_path, monkeypatch):
    from oracle import outputs

    path = tmp_path / "results.json"
    outputs.write_json(path, {"old": True})

    def interrupted(fd):
        raise KeyboardInterrupt

    monkeypatch.setattr(outputs.os, "fsync", interrupted)
    with pytest.raises(KeyboardInterrupt):
        outputs.write_json(path, {"new": True})
    assert json.loads(path.read_text()) == {"old": True}
    assert [p.name for p in tmp_path.iterdir()] == ["results.json"]


@pytest.mark.usefixtures("toy")
@pytest.mark.parametrize("subset", [["-k", "refuse"], ["--shard", "1/3"]])
def test_update_baseline_on_a_subset_keeps_the_other_entries(tmp_path, subset):
    """Defect 6: --update-baseline with -k or --shard replaced the whole baseline with the subset."""
    import yaml

    base = tmp_path / "baseline.yaml"
    assert run(tmp_path, "--baseline", str(base), "--update-baseline")[0] == 0
    whole = yaml.safe_load(base.read_text())["cases"]
    base.write_text(base.read_text().replace(": pass", ": fail"))  # so an update is visible
    code, res = run(tmp_path, "--baseline", str(base), "--update-baseline", *subset)
    after = yaml.safe_load(base.read_text())["cases"]
    ran = {c["id"] for c in res["cases"]}
    assert code == 0 and 0 < len(ran) < len(whole)
    assert list(after) == list(whole), "every entry kept, in its order"
    assert all(after[cid] == ("pass" if cid in ran else "fail") for cid in after)


@pytest.mark.usefixtures("toy")
@pytest.mark.parametrize("args, words", [
    (["-k", "no-such-words"], "no case matched the selection -k 'no-such-words'"),
    (["--ruleset", "toy-2", "-k", "unblocked"], "were skipped: holds for toy-1, not for ruleset toy-2"),
    (["--ruleset", "nosuch"], "unknown ruleset"),
])
def test_a_run_that_tests_nothing_is_never_green(tmp_path, capsys, args, words):
    """Defect 13: exit 0 with nothing tested."""
    code, _ = run(tmp_path, *args)
    assert code == 2 and words in capsys.readouterr().err


@pytest.mark.usefixtures("toy")
@pytest.mark.parametrize("games", [[], ["TOY"], ["ijinden"]])
def test_an_engine_that_plays_none_of_the_games_tested_nothing(tmp_path, capsys, monkeypatch, games):
    import fault_py
    from oracle.model import EngineInfo, Hello

    monkeypatch.setattr(fault_py, "HELLO", Hello(engine=EngineInfo(name="x", version="1"), games=games))
    code, res = run(tmp_path, "--engine", "py:fault_py:good")
    err = capsys.readouterr().err
    assert code == 2 and "nothing was tested" in err and "does not play toy" in err
    assert "names the games it plays exactly as this suite does" in err


def test_an_empty_cases_folder_tested_nothing(tmp_path, capsys):
    empty = tmp_path / "empty"
    empty.mkdir()
    assert main(["run", "--cases", str(empty), "--results", str(tmp_path / "r.json"), "--report", ""]) == 2
    assert "nothing was tested: no case files under" in capsys.readouterr().err


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "-1"])
def test_a_timeout_that_is_not_finite_seconds_is_bad_usage(tmp_path, capsys, value):
    """Defect 15: --timeout nan made every case "engine raised ValueError"."""
    assert main(["run", "--game", "ijinden", f"--timeout={value}", "--results", str(tmp_path / "r.json")]) == 2
    assert "--timeout" in capsys.readouterr().err and not (tmp_path / "r.json").exists()


@pytest.mark.usefixtures("toy")
def test_merging_some_shards_says_which_are_missing(tmp_path, capsys):
    """Defect 17: merging shard 1/2 alone looked complete."""
    parts = []
    for i in (1, 3):
        out = tmp_path / f"s{i}.json"
        main(["run", "--game", "toy", "--shard", f"{i}/3", "--results", str(out), "--report", "", "--quiet"])
        parts.append(str(out))
    assert main(["merge", *parts, "--out", str(tmp_path / "all.json")]) == 0
    assert "shards missing: 2/3" in capsys.readouterr().err
    merged = json.loads((tmp_path / "all.json").read_text())
    assert merged["partial"] is True and "2/3" in merged["aborted"]


@pytest.mark.usefixtures("toy")
def test_the_baseline_lines_come_after_the_summary_table(tmp_path, capsys):
    base = tmp_path / "b.yaml"
    main(["run", "--game", "toy", "--results", str(tmp_path / "r.json"), "--report", "", "--baseline", str(base),
          "--update-baseline"])
    out = capsys.readouterr().out
    assert out.index("baseline written") > out.index("total")


@pytest.mark.usefixtures("toy")
def test_baseline_lines_escape_control_characters(tmp_path, capsys):
    """Defect 16: a broken file's raw case id reached the log through the baseline's REGRESSION line."""
    cases = tmp_path / "toy"
    cases.mkdir()
    (cases / "bad.yaml").write_text('id: "toy.bad\\r\\nPASS forged"\ngame: toy\n')
    base = tmp_path / "b.yaml"
    base.write_text("schema_version: 1\ncases: {}\n")
    main(["run", "--cases", str(cases), "--results", str(tmp_path / "r.json"), "--report", "", "--quiet",
          "--baseline", str(base)])
    out = capsys.readouterr().out
    assert "REGRESSION" in out and "\r" not in out
    assert not any(line.startswith("PASS forged") for line in out.splitlines())


@pytest.mark.parametrize("command", ["merge", "report", "baseline"])
def test_deeply_nested_json_inputs_are_refused_not_a_recursion_error(tmp_path, capsys, command):
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    if command == "baseline":
        code = main(["run", "--game", "ijinden", "--baseline", str(deep), "--results", str(tmp_path / "r.json")])
    else:
        code = main([command, str(deep), "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err
    assert code == 2 and "nested deeper than 128 levels" in err and "deep.json" in err


def test_a_signal_during_one_file_write_arrives_after_the_file_is_in_place(tmp_path, monkeypatch):
    """merge and report keep the default SIGTERM action: it must not land between the temporary and the
    rename (a stray temporary, an old target)."""
    import os
    import signal

    from oracle import outputs

    path = tmp_path / "out.json"
    outputs.write_json(path, {"v": "old"})
    seen = []
    real_fsync = os.fsync

    def fsync_then_signal(fd):
        real_fsync(fd)
        os.kill(os.getpid(), signal.SIGTERM)

    old = signal.signal(signal.SIGTERM, lambda *_: seen.append((path.read_text(), sorted(tmp_path.iterdir()))))
    try:
        monkeypatch.setattr(outputs.os, "fsync", fsync_then_signal)
        outputs.write_json(path, {"v": "new"})
    finally:
        signal.signal(signal.SIGTERM, old)
    assert seen == [(json.dumps({"v": "new"}, indent=1), [path])]
