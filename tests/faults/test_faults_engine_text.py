"""Fault injection, engine text in outputs: an engine name holding ESC, BEL, NUL or a right-to-left
override never makes the JUnit XML malformed nor reaches the console, results or report raw; ``-k``
expressions of any size are parsed without recursion."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest
from helpers_faults import run

from oracle.cli import main

pytestmark = pytest.mark.usefixtures("toy")


def _hello(name: str, version: str = "1") -> str:
    return json.dumps({"type": "hello", "protocol_version": 1, "schema_version": 1,
                       "engine": {"name": name, "version": version}, "games": ["toy"]})


@pytest.mark.parametrize("spec", ["py:fault_py:hello_from_env", "cmd"])
def test_control_characters_in_an_engine_name_keep_the_junit_well_formed(tmp_path, monkeypatch, spec):
    """Defect 8: an engine name or version holding ESC, BEL or NUL made the JUnit XML not well-formed."""
    from helpers_faults import fault_cmd

    monkeypatch.setenv("FAULT_HELLO", _hello("bad\x1b[31m\x07\x00name", "1\x00"))
    code, res = run(tmp_path, "--engine", fault_cmd() if spec == "cmd" else spec, junit=True)
    root = ET.parse(tmp_path / "junit.xml").getroot()  # raises on a malformed file
    assert "\\x1b[31m\\x07\\x00name" in root.get("name")
    assert "\x1b" not in res["engine"]["name"] and "\x00" not in res["engine"]["version"]


def test_a_right_to_left_override_in_an_engine_name_is_escaped_everywhere(tmp_path, monkeypatch, capsys):
    """Defect 26: U+202E in an engine name was printed raw in the console and the report."""
    monkeypatch.setenv("FAULT_HELLO", _hello("evil\u202etxt.exe"))
    out = tmp_path / "results.json"
    report = tmp_path / "r.html"
    main(["run", "--game", "toy", "--engine", "py:fault_py:hello_from_env", "--results", str(out),
          "--report", str(report)])
    console = capsys.readouterr().out
    for text in (console, out.read_text(encoding="utf-8"), report.read_text(encoding="utf-8")):
        assert "\u202e" not in text
    assert "evil\\u202etxt.exe" in console


def test_printable_escapes_every_bidi_control():
    from oracle.text import printable

    for ch in "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069":
        assert ch not in printable(f"a{ch}b")


def test_deeply_nested_parentheses_in_k_are_bad_usage_not_a_recursion_error(tmp_path, capsys):
    """Defect 19: -k with 400 nested parentheses crashed with RecursionError (exit 1, not 2)."""
    code, _ = run(tmp_path, "-k", "(" * 400 + "toy" + ")" * 400)
    err = capsys.readouterr().err
    assert code == 2 and "nested deeper than 32 levels" in err and "Traceback" not in err


def test_a_long_chain_of_not_folds(tmp_path):
    code, res = run(tmp_path, "-k", "not " * 5001 + "bigger-blocker")
    assert res and "toy.bigger-blocker" not in [c["id"] for c in res["cases"]] and res["cases"]


def test_a_k_of_a_thousand_or_terms_selects(tmp_path):
    """Defect 19: -k with 1,000 ``or`` terms crashed with RecursionError."""
    expr = " or ".join([f"nomatch{i}" for i in range(999)] + ["bigger-blocker"])
    code, res = run(tmp_path, "-k", expr)
    assert [c["id"] for c in res["cases"]] == ["toy.bigger-blocker"]
