"""The differential test as a plain Hypothesis test: an engine (``TCG_ORACLE_FUZZ_ENGINE``, default the
reference itself) against the reference on generated cases, at the engine's level and within its declared
abilities -- what ``tcg-oracle fuzz`` runs, in a form HypoFuzz can run over many processes and machines:

    TCG_ORACLE_FUZZ_ENGINE='cmd:node tests/engines/example_engine.mjs' TCG_ORACLE_HYPOTHESIS_DB=/shared/db \\
        hypothesis fuzz -n 8 -- tests/property/test_differential.py -k ijinden
"""

from __future__ import annotations

import os

import pytest
from hypothesis import given, strategies as st

from oracle import registry
from oracle.fuzz import full_case, verdict
from oracle.generators.cases import Play, plays
from oracle.harness.adapters import make_engine

ENGINE = os.environ.get("TCG_ORACLE_FUZZ_ENGINE", "reference")
_ENGINES: dict[str, tuple] = {}


def _engine():
    if ENGINE not in _ENGINES:
        engine = make_engine(ENGINE)
        _ENGINES[ENGINE] = (engine, engine.hello())
    return _ENGINES[ENGINE]


@pytest.mark.parametrize("game", registry.names())
@given(data=st.data())
def test_the_engine_agrees_with_the_reference(game, data):
    engine, hello = _engine()
    if game not in hello.games:
        pytest.skip(f"{hello.engine.name} does not play {game}")
    play: Play = data.draw(plays(game, (hello.abilities or {}).get(game)), label="play")
    result = verdict(engine, hello, full_case(play, "hypothesis", "pytest tests/property/test_differential.py"))
    # a disagreement is a fail (as tcg-oracle fuzz counts it): what the engine cannot show or its adapter
    # cannot set up (not_checkable, error) is not one
    assert result.status != "fail", result.divergence.message if result.divergence else result.error
