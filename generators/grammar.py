"""Values drawn from an ability-parameter grammar (:mod:`oracle.core.params`, :mod:`oracle.core.compose`): the
Hypothesis strategy of any grammar a game's vocabulary states, so that generated boards can carry abilities the
golden cases never wrote -- composed ones included -- and so that the grammar's own check is tested against
what it describes (every drawn value is accepted: :func:`values`)."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from oracle.core import compose, params as P

INT_SPAN = 3000
"""How far an unbounded integer may be drawn from 0 (power amounts are thousands)."""


def values(grammar: P.Param, ctx: P.Context, depth: int = 3) -> st.SearchStrategy[Any]:
    """Values of ``grammar``; ``ctx`` gives the game's abilities (for ability names and the parameters of a
    granted one). ``depth`` bounds nesting through abilities that name abilities. Values that a mapping's
    cross-field check (``also``) refuses are filtered out, so every value drawn is one ``grammar.check``
    accepts."""
    return _values(grammar, ctx, depth).filter(lambda v: not grammar.check(v, (), ctx))


def _values(g: P.Param, ctx: P.Context, depth: int) -> st.SearchStrategy[Any]:
    if isinstance(g, P.Nothing):
        return st.none()
    if isinstance(g, P.Int):
        lo = g.minimum if g.minimum is not None else -INT_SPAN
        hi = g.maximum if g.maximum is not None else max(lo, 0) + INT_SPAN
        return st.integers(lo, hi)
    if isinstance(g, P.Bool):
        return st.booleans()
    if isinstance(g, P.OneOf):
        return st.sampled_from(g.values)
    if isinstance(g, P.ListOf):
        item = _values(g.item, ctx, depth)
        if item.is_empty:  # a list whose items the game accepts none of yet: only the empty list
            return st.just([]) if g.min_items == 0 else st.nothing()
        return st.lists(item, min_size=g.min_items, max_size=max(g.min_items, 3))
    if isinstance(g, P.Mapping):
        return _mapping(g, ctx, depth)
    if isinstance(g, P.Alternatives):
        return st.one_of([_values(o, ctx, depth) for o in g.options])
    if isinstance(g, P.Omittable):
        return st.none() | _values(g.inner, ctx, depth)
    if isinstance(g, (P.Named, P.Noted)):
        return _values(g.inner, ctx, depth)
    if isinstance(g, P.Other):
        return st.none()
    if isinstance(g, P.AbilityName):
        names = [n for n, p in ctx.abilities.items() if not (g.bare and p.check(None, (), ctx))]
        return st.sampled_from(sorted(names)) if names else st.nothing()
    if isinstance(g, P.Keyed):
        return _keyed(g, ctx, depth)
    if isinstance(g, compose.Word):
        return st.sampled_from([w for w in ("t", "u", "v", "first", "second") if w not in g.reserved])
    if isinstance(g, compose.EffectItem):
        on: st.SearchStrategy[Any] = st.sampled_from([None, compose.THIS, compose.SUBJECT])
        if g.several:  # on: [a, b] -- the names a composition's targets are drawn with (compose.Word above)
            on = on | st.lists(st.sampled_from(["t", "u", "v", "first", "second"]), min_size=2, max_size=2,
                               unique=True)
        effect = _keyed(g.effects, ctx, depth).map(lambda e: {e: None} if isinstance(e, str) else e)
        return st.tuples(effect, on).map(lambda pair: pair[0] if pair[1] is None else {**pair[0], "on": pair[1]})
    if isinstance(g, compose.AbilityRef):
        return _ability(ctx, depth)
    inner = getattr(g, "inner", None)
    if isinstance(inner, P.Param):  # a game's wrapper that checks more of a value (its cross-field rules)
        return _values(inner, ctx, depth)
    sample = g.sample(ctx)  # a game's own grammar part: the one value it gives, or nothing it accepts
    return st.just(sample) if not g.check(sample, (), ctx) else st.nothing()


def _mapping(g: P.Mapping, ctx: P.Context, depth: int) -> st.SearchStrategy[dict[str, Any]]:
    required = {f.name: _values(f.param, ctx, depth) for f in g.fields if f.required}
    optional = {f.name: _values(f.param, ctx, depth) for f in g.fields if not f.required}
    return st.fixed_dictionaries(required, optional=optional)


def _keyed(g: P.Keyed, ctx: P.Context, depth: int) -> st.SearchStrategy[Any]:
    def one(part: tuple[str, P.Param]) -> st.SearchStrategy[Any]:
        name, p = part
        whole = _values(p, ctx, depth).map(lambda v, n=name: {n: v})
        return (st.just(name) | whole) if g.bare and not p.check(None, (), ctx) else whole
    return st.sampled_from(g.parts).flatmap(one)


def _ability(ctx: P.Context, depth: int) -> st.SearchStrategy[Any]:
    """An ability as a card lists it: a name, or ``{name: params}`` drawn from that ability's grammar."""
    names = sorted(n for n in ctx.abilities if depth > 0 or n not in ("triggered", "static"))
    if not names:
        return st.nothing()

    def of(name: str) -> st.SearchStrategy[Any]:
        grammar = ctx.abilities[name]
        drawn = _values(grammar, ctx, depth - 1).map(lambda v, n=name: n if v is None else {n: v})
        return drawn.filter(lambda v, n=name: not grammar.check(None if isinstance(v, str) else v[n], (), ctx))
    return st.sampled_from(names).flatmap(of)


def context(game: str) -> P.Context:
    """The grammar context of ``game``: its abilities and their parameter grammars."""
    from oracle import registry

    return registry.get(game).vocabulary.ability_context
