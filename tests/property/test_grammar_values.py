"""Every ability grammar of every game, drawn from (generators.grammar): each value drawn is accepted by the
grammar's own check, and one broken value of each mapping (an unknown field) is refused where it was broken --
what the vocabulary pages say is what the loader checks, on values nobody wrote by hand."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from oracle.generators.grammar import context, values
from oracle import registry
from oracle.core import compose

GRAMMARS = [(game, name) for game in registry.names() if game != "toy"
            for name in sorted(registry.get(game).vocabulary.abilities)]


@pytest.mark.parametrize("game, name", GRAMMARS, ids=[f"{g}.{n}" for g, n in GRAMMARS])
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(data=st.data())
def test_every_value_drawn_from_an_ability_grammar_is_accepted(game, name, data):
    ctx = context(game)
    grammar = registry.get(game).vocabulary.abilities[name].schema
    value = data.draw(values(grammar, ctx), label=f"{game} {name}")
    assert grammar.check(value, (name,), ctx) == []
    if isinstance(value, dict) and value and all(isinstance(k, str) for k in value):
        broken = {**value, "no_such_field": 1}
        found = grammar.check(broken, (name,), ctx)
        assert found, f"{name}: {broken} was accepted"


def test_a_composed_ability_can_be_drawn_for_a_grammar_built_from_parts():
    """The composition grammar itself (oracle.core.compose) is drawn from, with several targets and effects."""
    from oracle.core.params import Context, Field, Int, Keyed, Mapping, Nothing, OneOf

    grammar = compose.triggered_grammar(
        events=("became_blocker",), effects=Keyed("effect", "Toy", (("destroy", Nothing()), ("draw", Int(minimum=1)))),
        filter=Mapping((Field("controller", OneOf(("you", "opponent")), "you"),)))
    ctx = Context("toy", {})

    @settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
    @given(values(grammar, ctx))
    def check(value):
        ab = compose.parse_triggered(value)
        assert ab.when.event == "became_blocker" and ab.effects
        assert all(e.on in (None, compose.THIS, compose.SUBJECT) or ab.target(e.on) for e in ab.effects)

    check()
