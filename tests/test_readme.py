"""The README keeps its promises: the two quick-start commands, and the example case."""

from __future__ import annotations

import re
from pathlib import Path



PATH = Path(__file__).resolve().parents[1] / "README.md"


def section(text: str, game: str) -> str | None:
    m = re.search(rf"<!-- vocabulary:{game} -->\n(.*?)\n<!-- /vocabulary:{game} -->", text, re.S)
    return m.group(1) if m else None


def test_quick_start_is_the_two_commands():
    readme = PATH.read_text(encoding="utf-8")
    assert "pip install -e . && tcg-oracle run" in readme
    assert "pip install -e '.[test]' && pytest" in readme


def test_the_case_shown_in_the_readme_is_valid_and_passes(tmp_path):
    """The README's example case is a real case: it loads and passes on the reference engine."""
    from oracle.harness.engine import ReferenceEngine
    from oracle.harness.runner import run_case
    from oracle.loader import load_case_file

    readme = PATH.read_text(encoding="utf-8")
    block = re.search(r"## Golden cases.*?```yaml\n(.*?)```", readme, re.S).group(1)
    path = tmp_path / "readme_case.yaml"
    path.write_text(block.replace("id: ijinden.qa.yoshimitsu-attack-plus", "id: readme.example"), encoding="utf-8")
    suite = load_case_file(path)
    assert not suite.errors, [str(e) for e in suite.errors]
    (lc,) = suite.cases
    result = run_case(ReferenceEngine(), lc, lc.case.rulesets[0], "reference")
    assert result.status == "pass", result.divergence
