"""``--junit FILE``: JUnit XML for CI. One ``testsuite`` per game, one ``testcase`` per case; a failure's
message is the first divergence, its text the ruling and the expected and actual moments.

With a baseline, a case that fails (or errs) as its baseline expects is not a ``<failure>``: it is
``<skipped type="expected-failure" message="expected fail: REASON (BUG)">`` holding the failure's detail, as
pytest's junitxml writes an xfail (``<skipped type="pytest.xfail">``), and counts as skipped. A case
that passes although the baseline expects it to fail passes (as a non-strict XPASS does), with a property
``tcg-oracle.baseline`` saying what was expected."""

from __future__ import annotations

import io
import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

from typing import TYPE_CHECKING

from ..model import CaseResult, Results
from ..outputs import write_atomic

if TYPE_CHECKING:
    from ..baseline import Baseline

_BAD_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def _clean(text: str) -> str:
    return _BAD_XML.sub("\ufffd", text)


def _detail(c: CaseResult) -> str:
    lines = [f"{c.id}: {c.title or ''}", f"file: {c.file}:{c.line}" if c.file else "",
             f"rules: {', '.join(c.rules)}"]
    src = (c.case or {}).get("source") or {}
    if src.get("quote"):
        lines.append(f"ruling ({src.get('document', '')}): {src['quote']}")
    d = c.divergence
    if d is not None:
        lines += [f"first divergence ({d.what}): {d.message}",
                  f"expected: {json.dumps(d.expected, ensure_ascii=False, default=str)}",
                  f"actual:   {json.dumps(d.actual, ensure_ascii=False, default=str)}"]
        lines += [f"  {e.moment:>3} {e.kind} {json.dumps(e.args, ensure_ascii=False, default=str)}"
                  + (f" [{e.clause}]" if e.clause else "") for e in d.context]
    if c.error:
        lines.append(f"error: {c.error}")
    return _clean("\n".join(x for x in lines if x))


def not_checkable_reason(c: CaseResult) -> str:
    """Why a ``not_checkable`` case was not checked: each expectation with the level it needs."""
    parts = [f"{u.what} needs {u.needs}" for u in c.unchecked]
    return (f"not checkable at level {c.level or '?'}: " + "; ".join(parts)) if parts else \
        f"not checkable at level {c.level or '?'}"


def to_xml(results: Results, baseline: Baseline | None = None) -> ET.Element:
    root = ET.Element("testsuites", name=f"tcg-oracle {results.engine.name} {results.engine.version}")
    games: dict[str, list[CaseResult]] = {}
    for c in results.cases:
        games.setdefault(c.game, []).append(c)
    seen: dict[str, int] = {}
    for c in results.cases:
        seen[c.id] = seen.get(c.id, 0) + 1

    def expected(c: CaseResult):
        return baseline.expected_failure(c.id, c.status) if baseline is not None else None

    totals = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    for game, cases in games.items():
        counts = {"tests": len(cases), "failures": sum(c.status == "fail" and not expected(c) for c in cases),
                  "errors": sum(c.status == "error" and not expected(c) for c in cases),
                  "skipped": sum(c.status in ("skip", "not_checkable") or bool(expected(c)) for c in cases)}
        for k, v in counts.items():
            totals[k] += v
        suite = ET.SubElement(root, "testsuite", name=f"tcg-oracle.{game}",
                              time=f"{sum(c.duration for c in cases):.6f}",
                              **{k: str(v) for k, v in counts.items()})
        for c in cases:
            name = c.id if seen[c.id] == 1 or not c.ruleset else f"{c.id} [{c.ruleset}]"  # one per edition
            tc = ET.SubElement(suite, "testcase", classname=f"tcg-oracle.{game}", name=_clean(name),
                               time=f"{c.duration:.6f}")
            if c.file:
                tc.set("file", _clean(c.file))
                if c.line:
                    tc.set("line", str(c.line))
            exp = expected(c)
            if exp is not None:
                ET.SubElement(tc, "skipped", type="expected-failure", message=_clean(exp.describe())
                              ).text = _detail(c)
            elif c.status == "pass" and baseline is not None and \
                    (was := baseline.expectation(c.id)) is not None and was.status in ("fail", "error"):
                props = ET.SubElement(tc, "properties")
                ET.SubElement(props, "property", name="tcg-oracle.baseline",
                              value=_clean(f"newly passing; {was.describe()}"))
            elif c.status == "fail":
                msg = c.divergence.message if c.divergence else "failed"
                ET.SubElement(tc, "failure", message=_clean(msg), type=c.divergence.what if c.divergence else "fail"
                              ).text = _detail(c)
            elif c.status == "error":
                ET.SubElement(tc, "error", message=_clean((c.error or "error").splitlines()[0]),
                              type="error").text = _detail(c)
            elif c.status == "skip":
                ET.SubElement(tc, "skipped", message=_clean(c.skip_reason or "skipped"))
            elif c.status == "not_checkable":
                ET.SubElement(tc, "skipped", message=_clean(not_checkable_reason(c)))
    for k, v in totals.items():
        root.set(k, str(v))
    for el in root.iter():  # every attribute and text: characters XML 1.0 forbids never reach the file
        for k, v in el.attrib.items():
            el.set(k, _clean(v))
        if el.text:
            el.text = _clean(el.text)
    return root


def write_junit(results: Results, path: Path, baseline: Baseline | None = None) -> Path:
    tree = ET.ElementTree(to_xml(results, baseline))
    ET.indent(tree)
    buf = io.BytesIO()
    tree.write(buf, encoding="utf-8", xml_declaration=True)
    return write_atomic(path, buf.getvalue())
