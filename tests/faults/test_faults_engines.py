"""Fault injection, engines: each phase -- start, handshake, each case, close -- of a ``cmd:`` and a ``py:``
engine, broken in each way. What it costs: a start or handshake failure stops the run with exit 3 and
the results written (partial); a broken case costs that case (``error``, saying why, with the engine's
text trimmed) and the run goes on; a broken close costs nothing."""

from __future__ import annotations

import sys

import pytest
from helpers_faults import FAULT_CASE, by_id, fault_cmd, run

from oracle.errors import EngineError

pytestmark = pytest.mark.usefixtures("toy")


# -- start and handshake ----------------------------------------------------------------------------

@pytest.mark.parametrize("spec, words", [
    (fault_cmd("start=crash"), "exited (code 7) before its hello line"),
    (fault_cmd("start=garbage"), "first line is not JSON"),
    (fault_cmd("start=close-stdout"), "before its hello line"),
    ("py:fault_py:factory_raises", "factory_raises() raised ImportError"),
    ("py:fault_py:hello_raises", "hello() raised RuntimeError: no licence file"),
    ("py:fault_py:hello_list", "hello() returned list, not a Hello or a mapping"),
    ("py:fault_py:hello_invalid", "hello() returned an invalid hello"),
    ("py:fault_py:hello_exits", "hello() raised SystemExit (sys.exit(4))"),
    ("py:no_such_module_anywhere:make", "cannot import"),
])
def test_an_engine_that_fails_to_start_stops_the_run_with_exit_3_and_partial_results(tmp_path, capsys, spec, words):
    code, res = run(tmp_path, "--engine", spec, junit=True)
    err = capsys.readouterr().err
    assert code == 3, err
    assert words in err and "Traceback" not in err
    assert res["partial"] is True and res["cases"] == [] and words in res["aborted"]
    assert (tmp_path / "junit.xml").is_file()


BAD_HELLOS = [  # (the hello, words both paths say, the fix they give)
    ({"type": "hello", "protocol_version": 2, "engine": {"name": "x", "version": "1"}, "games": "toy"},
     "field games", "see `tcg-oracle schema protocol`"),
    ({"type": "hello", "protocol_version": 2, "games": ["toy"]}, "field engine", "see `tcg-oracle schema protocol`"),
    ({"type": "hello", "protocol_version": 99, "engine": {"name": "x", "version": "1"}, "games": ["toy"]},
     "protocol version 99", "speaks version 1 or 2"),
    ({"type": "hello", "protocol_version": 1, "engine": {"name": "x", "version": "1"}, "games": ["toy"],
      "observation": "final"}, "declares observation", "say protocol_version 2"),
]


@pytest.mark.parametrize("hello, words, fix", BAD_HELLOS, ids=["games", "engine", "version", "v1-with-v2-field"])
def test_a_malformed_hello_is_said_alike_by_py_and_cmd_engines(tmp_path, capsys, monkeypatch, hello, words, fix):
    """The same bad hello from an in-process engine and from a process: exit 3, the problem and its fix,
    no traceback, and the (partial) results and JUnit written -- one path for both."""
    import json

    monkeypatch.setenv("FAULT_HELLO", json.dumps(hello))
    for spec in ("py:fault_py:hello_from_env", fault_cmd()):
        out = tmp_path / spec[:3]
        out.mkdir()
        code, res = run(out, "--engine", spec, junit=True)
        err = capsys.readouterr().err
        assert code == 3, (spec, err)
        assert words in err and fix in err and "Traceback" not in err, (spec, err)
        assert res["partial"] is True and res["cases"] == [] and words in res["aborted"], spec
        assert (out / "junit.xml").is_file()


def test_a_py_hello_that_hangs_is_bounded(tmp_path, capsys, monkeypatch):
    from oracle.harness.adapters import PythonEngine

    monkeypatch.setattr(PythonEngine, "start_timeout", 0.3)
    code, res = run(tmp_path, "--engine", "py:fault_py:hello_hangs")
    assert code == 3 and "hello() did not return within 0.3 s" in capsys.readouterr().err


def test_a_cmd_engine_that_writes_no_hello_is_bounded():
    from oracle.core.errors import EngineStartError
    from oracle.harness.adapters import SubprocessEngine
    from helpers_faults import FAULT_ENGINE

    engine = SubprocessEngine([sys.executable, str(FAULT_ENGINE), "--fault=start=hang"], start_timeout=0.5)
    with pytest.raises(EngineStartError, match="wrote no hello line within 0.5 s"):
        engine.hello()


# -- each case ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("how, words", [
    ("crash", "exited (code 7) during the case"),
    ("garbage", "malformed JSON: 'oops, not JSON'"),
    ("close-stdout", "closed its stdout (it was still running, and was stopped)"),
    ("deep", "JSON nested too deeply"),
    ("bignum", "JSON with a number too large"),
    ("bad-utf8", "the engine answered"),
    ("half-line", "exited (code 0) during the case"),
])
def test_a_cmd_engine_broken_during_a_case_costs_that_case_only(tmp_path, how, words):
    code, res = run(tmp_path, "--engine", fault_cmd(f"case:{FAULT_CASE}={how}"))
    cases = by_id(res)
    assert cases[FAULT_CASE]["status"] == "error" and words in cases[FAULT_CASE]["error"]
    others = [c for cid, c in cases.items() if cid != FAULT_CASE]
    assert others and all(c["status"] == "pass" for c in others), "the engine is restarted for the next case"
    assert code == 1 and res["partial"] is False


def test_a_hang_during_a_case_costs_that_case_only(tmp_path):
    code, res = run(tmp_path, "--engine", fault_cmd(f"case:{FAULT_CASE}=hang"), "--timeout", "1")
    cases = by_id(res)
    assert cases[FAULT_CASE]["status"] == "error" and cases[FAULT_CASE]["error"].startswith("timeout")
    assert sum(c["status"] == "pass" for c in cases.values()) == len(cases) - 1


def test_a_reply_line_past_the_limit_is_a_protocol_error_not_a_memory_bill(tmp_path, monkeypatch):
    from oracle.harness import adapters

    monkeypatch.setattr(adapters, "LINE_MAX_BYTES", 1_000_000)
    monkeypatch.setenv("FAULT_SIZE", "3000000")
    code, res = run(tmp_path, "--engine", fault_cmd(f"case:{FAULT_CASE}=long-line"))
    assert "a line longer than 1,000,000 bytes" in by_id(res)[FAULT_CASE]["error"]


@pytest.mark.parametrize("spec", [fault_cmd(f"case:{FAULT_CASE}=huge-error"), "py:fault_py:case_huge_error",
                                  "py:fault_py:case_raises_huge"])
def test_a_huge_engine_text_is_trimmed_where_stored_and_shown(tmp_path, capsys, spec):
    """Defect 7: a 5 MB error string was stored and printed whole."""
    from oracle.limits import TEXT_LIMIT
    from oracle.cli import main

    out = tmp_path / "r.json"
    code = main(["run", "--game", "toy", "--engine", spec, "--results", str(out), "--report",
                 str(tmp_path / "r.html"), "--junit", str(tmp_path / "j.xml")])
    assert code == 1
    error = by_id(__import__("json").loads(out.read_text()))[FAULT_CASE]["error"]
    assert len(error) < TEXT_LIMIT + 200 and "more characters cut" in error
    for f in ("r.json", "r.html", "j.xml"):
        assert (tmp_path / f).stat().st_size < 1_000_000, f
    assert len(capsys.readouterr().out) < 20_000


@pytest.mark.parametrize("factory, words", [
    ("case_exits", "the engine called sys.exit(5) during the case"),
    ("case_returns_none", "run_case() returned NoneType, not a CaseReply"),
    ("case_returns_invalid", "run_case() returned a reply that does not match the protocol"),
])
@pytest.mark.parametrize("timeout", ["0", "5"])  # unbounded (called directly), bounded (a worker thread)
def test_a_py_engine_broken_during_a_case_costs_that_case_only(tmp_path, factory, words, timeout):
    """Defect 8: sys.exit(5) inside run_case ended the whole run with exit 5 and no results."""
    code, res = run(tmp_path, "--engine", f"py:fault_py:{factory}", "--timeout", timeout)
    cases = by_id(res)
    assert cases[FAULT_CASE]["status"] == "error" and words in cases[FAULT_CASE]["error"]
    assert all(c["status"] == "pass" for cid, c in cases.items() if cid != FAULT_CASE)
    assert code == 1


def test_control_characters_from_an_engine_are_escaped_on_the_console(tmp_path, capsys):
    """Defect 16: a CR/LF or an ANSI escape in engine text could forge a line in a CI log."""
    from oracle.cli import main

    main(["run", "--game", "toy", "--engine", fault_cmd(f"case:{FAULT_CASE}=escape"), "--results",
          str(tmp_path / "r.json"), "--report", ""])
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\r" not in out
    assert not any(line.startswith("PASS toy.fake") for line in out.splitlines())
    assert "\\r\\nPASS toy.fake\\x1b[32m" in out


# -- close -------------------------------------------------------------------------------------------

@pytest.mark.parametrize("spec, words", [
    ("py:fault_py:close_raises", "closing the engine failed"),
    ("py:fault_py:close_exits", "close() raised SystemExit (sys.exit(9))"),
])
def test_a_py_engine_whose_close_fails_keeps_every_result(tmp_path, capsys, spec, words):
    """Defect 8: close() raising lost all results."""
    code, res = run(tmp_path, "--engine", spec)
    assert words in capsys.readouterr().err
    assert res["partial"] is False and all(c["status"] == "pass" for c in res["cases"])
    assert code == 0


def test_a_cmd_engine_that_hangs_or_crashes_at_bye_costs_nothing(tmp_path):
    for how in ("hang", "crash"):
        code, res = run(tmp_path, "--engine", fault_cmd(f"bye={how}"))
        assert code == 0 and all(c["status"] == "pass" for c in res["cases"]), how


def test_a_huge_string_in_an_event_is_compared_whole_and_stored_trimmed(tmp_path):
    """Defect 7, in a trace: the case fails on the real value; results hold the value trimmed."""
    out = tmp_path / "r.json"
    from oracle.cli import main

    main(["run", "--game", "toy", "--engine", "py:fault_py:case_huge_event", "--results", str(out), "--report",
          str(tmp_path / "r.html"), "--junit", str(tmp_path / "j.xml"), "--quiet"])
    case = by_id(__import__("json").loads(out.read_text()))["toy.unblocked-wins"]
    assert case["status"] == "fail"
    for f in ("r.json", "r.html", "j.xml"):
        assert (tmp_path / f).stat().st_size < 1_000_000, f


def test_a_huge_engine_name_is_trimmed(tmp_path, capsys):
    code, res = run(tmp_path, "--engine", "py:fault_py:huge_name")
    assert code == 0 and len(res["engine"]["name"]) < 300 and "more characters cut" in res["engine"]["name"]


def test_explain_escapes_an_engines_control_characters(capsys):
    from oracle.cli import main

    main(["explain", FAULT_CASE, "--engine", fault_cmd(f"case:{FAULT_CASE}=escape")])
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\r" not in out and "\\x1b[32m" in out
    assert not any(line.startswith("PASS toy.fake") for line in out.splitlines())


DEAF_ENGINE = r'''
import json, sys, time
sys.stdout.write(json.dumps({"type": "hello", "protocol_version": 1, "schema_version": 1,
                             "engine": {"name": "deaf", "version": "1"}, "games": ["toy"],
                             "capabilities": ["pipeline"]}) + "\n")
sys.stdout.flush()
time.sleep(3600)  # never reads its stdin
'''


@pytest.mark.parametrize("pipelined", [True, False])
def test_a_request_to_an_engine_that_never_reads_is_bounded_by_the_timeout(pipelined):
    """Defect 2: an engine declaring ``pipeline`` that never reads its stdin, sent a request bigger than
    the pipe's buffer, hung the run forever: --timeout did not apply to writes."""
    import time

    from oracle.harness.adapters import SubprocessEngine
    from oracle.model import CaseRequest

    engine = SubprocessEngine([sys.executable, "-c", DEAF_ENGINE])
    big = CaseRequest(id="toy.big", game="toy", ruleset="r", setup={"pad": "x" * 400_000}, script=[], cards={})
    try:
        assert engine.window > 1
        start = time.monotonic()
        if pipelined:
            engine.prefetch(big, 1.0)
        with pytest.raises(EngineError, match="timeout"):
            engine.run_case(big, timeout=1.0)
        assert time.monotonic() - start < 30
    finally:
        engine.close()
