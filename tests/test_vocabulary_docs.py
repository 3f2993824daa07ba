"""Every game's vocabulary page, docs/vocabulary/<game>.md, is generated from the code: its tables between the
``<!-- vocabulary:<game> -->`` markers are ``oracle.core.vocabulary.markdown`` of the game's vocabulary. Run
``python tests/test_vocabulary_docs.py`` to rewrite them."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from oracle import registry
from oracle.core.vocabulary import markdown

DOCS = Path(__file__).resolve().parents[1] / "docs" / "vocabulary"


def page(game: str) -> Path:
    return DOCS / f"{game}.md"


def section(text: str, game: str) -> str | None:
    m = re.search(rf"<!-- vocabulary:{game} -->\n(.*?)\n<!-- /vocabulary:{game} -->", text, re.S)
    return m.group(1) if m else None


@pytest.mark.parametrize("game", registry.names())
def test_vocabulary_page_is_current(game):
    assert page(game).exists(), f"no vocabulary page {page(game)} for {game}"
    got = section(page(game).read_text(encoding="utf-8"), game)
    assert got is not None, f"{page(game)} has no <!-- vocabulary:{game} --> section"
    assert got == markdown(registry.get(game).vocabulary), \
        f"{page(game)} is stale: run `python tests/test_vocabulary_docs.py`"


def test_a_shared_params_grammar_is_stated_once():
    """Duel Masters' eleven effect abilities share one effect grammar: the page states it once, each row names it."""
    text = markdown(registry.get("duelmasters").vocabulary)
    assert text.count("destroy_target: FILTER") == 1, "the effect grammar is repeated"
    rows = [line for line in text.splitlines() if line.startswith("| `") and "`EFFECT` (above)" in line]
    assert {r.split("`")[1] for r in rows} >= {"spell", "on_attack", "end_of_turn", "creature_wins_battle"}
    assert len(rows) == 11


if __name__ == "__main__":
    for game in registry.names():
        text = page(game).read_text(encoding="utf-8")
        if section(text, game) is None:
            print(f"{page(game)}: add the markers <!-- vocabulary:{game} --> and <!-- /vocabulary:{game} -->",
                  file=sys.stderr)
            continue
        block = f"<!-- vocabulary:{game} -->\n{markdown(registry.get(game).vocabulary)}\n<!-- /vocabulary:{game} -->"
        text = re.sub(rf"<!-- vocabulary:{game} -->\n.*?\n<!-- /vocabulary:{game} -->", lambda _: block, text,
                      flags=re.S)
        page(game).write_text(text, encoding="utf-8")
