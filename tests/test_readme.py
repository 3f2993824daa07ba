"""The README keeps its promises: the quick-start commands, the complete `final`-level exchange it shows (replayed
live: the starter engine's hello and reply, the harness's request, the reference behind `serve --observation final`,
and the harness's verdict), links to files that exist, and the example case of docs/guide/cases.md."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PATH = ROOT / "README.md"
STARTER = ROOT / "examples" / "starter-engine" / "engine.py"


def readme() -> str:
    return PATH.read_text(encoding="utf-8")


def test_quick_start_is_the_two_commands_and_your_engine():
    quick = re.search(r"## Quick start\n(.*?)\n## ", readme(), re.S).group(1)
    commands = re.search(r"```sh\n(.*?)```", quick, re.S).group(1).splitlines()
    assert commands[:2] == ["pip install -e . && tcg-oracle run", "pip install -e '.[test]' && pytest"]
    assert commands[2] == 'tcg-oracle run --engine cmd:"python examples/starter-engine/engine.py" --game ijinden'


def test_the_readme_is_a_front_door():
    assert len(readme().splitlines()) <= 300


def exchange() -> tuple[dict, dict, dict]:
    """The README's hello, case request and result, in the order it shows them."""
    section = re.search(r"## Your engine in ten minutes\n(.*?)\n## ", readme(), re.S).group(1)
    blocks = [json.loads(b) for b in re.findall(r"```json\n(.*?)```", section, re.S)]
    assert [b["type"] for b in blocks] == ["hello", "case", "result"]
    return blocks[0], blocks[1], blocks[2]


def test_the_docs_show_the_same_exchange():
    """docs/authors/index.md (the site's ten-minute path) shows the README's exchange, block for block."""
    page = (ROOT / "docs" / "authors" / "index.md").read_text(encoding="utf-8")
    section = re.search(r"## 3\. The exchange.*?\n## ", page, re.S).group(0)
    assert [json.loads(b) for b in re.findall(r"```json\n(.*?)```", section, re.S)] == list(exchange())


def _lines(command: list[str], stdin: str) -> list[dict]:
    done = subprocess.run(command, input=stdin, capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines() if line.strip()]


def test_the_exchange_is_valid_protocol():
    from oracle.model import CaseReply, CaseRequest, Hello

    hello, request, result = exchange()
    assert Hello.model_validate(hello).observation == "final"
    CaseRequest.model_validate(request)
    assert CaseReply.model_validate(result).id == request["id"]


def test_the_request_is_what_the_harness_writes():
    hello, request, _ = exchange()
    (written,) = _lines([sys.executable, "-m", "oracle", "explain", request["id"], "--request"], "")
    assert written == request


def test_the_hello_and_the_reply_are_the_starter_engines_own():
    hello, request, result = exchange()
    said = _lines([sys.executable, str(STARTER)], json.dumps(request, ensure_ascii=False) + '\n{"type": "bye"}\n')
    assert said == [hello, result]


def test_the_reply_is_the_reference_engines_at_level_final():
    from oracle.model import CaseReply

    _, request, result = exchange()
    _, reply = _lines([sys.executable, "-m", "oracle", "serve", "--observation", "final"],
                      json.dumps(request, ensure_ascii=False) + '\n{"type": "bye"}\n')
    ours, reference = CaseReply.model_validate(result), CaseReply.model_validate(reply)
    assert (ours.final, ours.winner, ours.decisions) == (reference.final, reference.winner, reference.decisions)


def test_the_harness_passes_the_reply_shown():
    from oracle.harness.runner import run_case
    from oracle.loader import load_suite
    from oracle.model import CaseReply, Hello

    hello, request, result = exchange()

    class Shown:  # an engine that says what the README shows
        def hello(self):
            return Hello.model_validate(hello)

        def run_case(self, req, timeout=None):
            return CaseReply.model_validate(result)

    (lc,) = [c for c in load_suite(None, games=["ijinden"]).cases if c.case.id == request["id"]]
    verdict = run_case(Shown(), lc, request["ruleset"], "readme")
    assert verdict.status == "pass", verdict.divergence
    assert verdict.level == "final"


def _links(text: str) -> list[str]:
    return [t for t in re.findall(r"\]\(([^)\s]+)\)", text) if not re.match(r"[a-z]+:", t)]


def _slug(heading: str) -> str:
    """The anchor MkDocs (and GitHub) give a heading, for the plain headings the docs use."""
    text = re.sub(r"[`*]", "", heading).strip().lower()
    return re.sub(r"[\s]+", "-", re.sub(r"[^\w\s-]", "", text))


@pytest.mark.parametrize("link", _links(PATH.read_text(encoding="utf-8")))
def test_each_readme_link_names_a_file_that_exists(link):
    target, _, anchor = link.partition("#")
    path = ROOT / target
    assert path.exists(), f"README links to {target}, which does not exist"
    if anchor:
        headings = re.findall(r"^#+ (.*)$", path.read_text(encoding="utf-8"), re.M)
        assert anchor in {_slug(h) for h in headings}, f"{target} has no heading #{anchor}"


def test_the_case_shown_in_the_docs_is_valid_and_passes(tmp_path):
    """docs/guide/cases.md's example case is a real case: it loads and passes on the reference engine."""
    from oracle.harness.engine import ReferenceEngine
    from oracle.harness.runner import run_case
    from oracle.loader import load_case_file

    page = (ROOT / "docs" / "guide" / "cases.md").read_text(encoding="utf-8")
    block = re.search(r"# Golden cases.*?```yaml\n(.*?)```", page, re.S).group(1)
    path = tmp_path / "readme_case.yaml"
    path.write_text(block.replace("id: ijinden.qa.yoshimitsu-attack-plus", "id: readme.example"), encoding="utf-8")
    suite = load_case_file(path)
    assert not suite.errors, [str(e) for e in suite.errors]
    (lc,) = suite.cases
    result = run_case(ReferenceEngine(), lc, lc.case.rulesets[0], "reference")
    assert result.status == "pass", result.divergence
