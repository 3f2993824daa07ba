"""Shared fixtures. Hypothesis profiles are sized for a 2-core machine."""

from __future__ import annotations

import pytest

try:
    # tcg-fast by default; tcg-ci (Hypothesis's own ci profile, sized for our budget) when CI is set; deep or
    # any other by TCG_ORACLE_HYPOTHESIS_PROFILE; the example database by TCG_ORACLE_HYPOTHESIS_DB
    from oracle.generators.profiles import register

    register()
except ImportError:  # pragma: no cover - hypothesis is a test dependency
    pass



@pytest.fixture
def pool_error(tmp_path):
    """``pool_error(game, text)``: write ``text`` as a suite's ``<game>/cards.yaml`` and return (its path, the
    located :class:`~oracle.errors.CaseFileError` loading it raises) -- the error must be raised."""
    from oracle.errors import CaseFileError
    from oracle.loader import load_cards

    def load(game: str, text: str):
        cards = tmp_path / game / "cards.yaml"
        cards.parent.mkdir()
        cards.write_text(text, encoding="utf-8")
        with pytest.raises(CaseFileError) as exc:
            load_cards(game, extra=(cards,))
        return cards, exc.value

    return load
