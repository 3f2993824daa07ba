"""Every default an ability's parameter grammar declares (``Field.default``, ``Omittable.default``;
oracle/core/params.py) is what the reference engine does when the part is left out: each golden case whose
cards leave a defaulted part out is played again with the default written, and each that writes the default
is played again without it; the replies must be the same. Every declared default must be so exercised by
some golden case (or by a case below)."""

from __future__ import annotations

import copy
from typing import Any, Iterator

import pytest

from oracle import registry
from oracle.core.params import (
    Alternatives,
    Context,
    Keyed,
    ListOf,
    Mapping,
    Named,
    Noted,
    Omittable,
    Param,
)
from oracle.harness.request import make_request
from oracle.loader import load_suite

Key = tuple[str, str]
"""A declared default: (where in the grammar -- the ability, or ``effect <name>`` inside an effect table --,
the field path)."""


def declared(game: str) -> set[Key]:
    """Every default with a value that the game's grammars declare."""
    out: set[Key] = set()

    def walk(p: Param, owner: str, path: str) -> None:
        if isinstance(p, (Named, Noted)):
            walk(p.inner, owner, path)
        elif isinstance(p, Omittable):
            if p.default is not None:
                out.add((owner, path or "(omitted)"))
            walk(p.inner, owner, path)
        elif isinstance(p, Mapping):
            for f in p.fields:
                sub = f"{path}.{f.name}" if path else f.name
                if not f.required and f.default is not None:
                    out.add((owner, sub))
                walk(f.param, owner, sub)
        elif isinstance(p, Alternatives):
            for o in p.options:
                walk(o, owner, path)
        elif isinstance(p, ListOf):
            walk(p.item, owner, path)
        elif isinstance(p, Keyed):
            for name, part in p.parts:
                walk(part, f"{p.kind} {name}", "")

    for name, spec in registry.get(game).vocabulary.abilities.items():
        walk(spec.schema, name, "")
    return out


def variants(p: Param, value: Any, owner: str, path: str, ctx: Context, strip: bool = False
             ) -> Iterator[tuple[Key, Any]]:
    """``value`` with one defaulted part flipped: left out -> written as its default, or written as its default
    -> left out; each with the default it exercises. ``strip``: instead, one defaulted part that is written with
    another value left out (a golden card made to rely on the default, whose flip is then played)."""
    if isinstance(p, (Named, Noted)):
        yield from variants(p.inner, value, owner, path, ctx, strip)
    elif isinstance(p, Omittable):
        if p.default is not None and value is None and not strip:
            yield (owner, path or "(omitted)"), copy.deepcopy(p.default)
        elif p.default is not None and value is not None and (value == p.default) != strip:
            yield (owner, path or "(omitted)"), None
        if value is not None:
            yield from variants(p.inner, value, owner, path, ctx, strip)
    elif isinstance(p, Mapping) and isinstance(value, dict):
        for f in p.fields:
            sub = f"{path}.{f.name}" if path else f.name
            if not f.required and f.default is not None:
                if f.name not in value and not strip:
                    yield (owner, sub), {**value, f.name: copy.deepcopy(f.default)}
                elif f.name in value and (value[f.name] == f.default) != strip:
                    yield (owner, sub), {k: v for k, v in value.items() if k != f.name}
            if f.name in value:
                for key, new in variants(f.param, value[f.name], owner, sub, ctx, strip):
                    yield key, {**value, f.name: new}
    elif isinstance(p, Alternatives):
        option = next((o for o in p.options if o.fits(value) and not o.check(value, (), ctx)), None)
        if option is not None:
            yield from variants(option, value, owner, path, ctx, strip)
    elif isinstance(p, ListOf) and isinstance(value, list):
        for i, item in enumerate(value):
            for key, new in variants(p.item, item, owner, path, ctx, strip):
                yield key, [*value[:i], new, *value[i + 1:]]
    elif isinstance(p, Keyed):
        table = dict(p.parts)
        if isinstance(value, list):
            for i, item in enumerate(value):
                for key, new in variants(p, item, owner, path, ctx, strip):
                    yield key, [*value[:i], new, *value[i + 1:]]
        elif isinstance(value, str):
            for key, new in variants(table[value], None, f"{p.kind} {value}", "", ctx, strip):
                yield key, {value: new}
        elif isinstance(value, dict):
            for name, param in value.items():
                for key, new in variants(table[name], param, f"{p.kind} {name}", "", ctx, strip):
                    yield key, {**value, name: new}


def ability_variants(refs: list[Any], game: str, strip: bool = False) -> Iterator[tuple[Key, list[Any]]]:
    voc = registry.get(game).vocabulary
    for i, ref in enumerate(refs):
        name, params = (ref, None) if isinstance(ref, str) else next(iter(ref.items()))
        for key, new in variants(voc.abilities[name].schema, params, name, "", voc.ability_context, strip):
            yield key, [*refs[:i], {name: new}, *refs[i + 1:]]


def request_variants(request, strip: bool = False) -> Iterator[tuple[Key, Any]]:
    """The request with one default flipped in one card of its pool (either face) or one card of its setup
    (``strip``: with one defaulted part written otherwise left out)."""
    game = request.game
    for name, card in request.cards.items():
        for face in ("front", "back"):
            where = card if face == "front" else card.get("back")
            if not where:
                continue
            for key, refs in ability_variants(where.get("abilities", []), game, strip):
                cards = copy.deepcopy(request.cards)
                (cards[name] if face == "front" else cards[name]["back"])["abilities"] = refs
                yield key, request.model_copy(update={"cards": cards})
    for pid, player in request.setup["players"].items():
        for zone, content in player.items():
            if not isinstance(content, list):
                continue
            for j, cs in enumerate(content):
                if not isinstance(cs, dict):
                    continue
                for key, refs in ability_variants(cs.get("abilities", []), game, strip):
                    setup = copy.deepcopy(request.setup)
                    setup["players"][pid][zone][j]["abilities"] = refs
                    yield key, request.model_copy(update={"setup": setup})


def observed(game, request) -> Any:
    """What the engine does with ``request``: its reply, or the error it raised."""
    try:
        data = game.run(request).model_dump(mode="json")
    except Exception as exc:  # noqa: BLE001 - an error is an outcome to compare too
        return ("error", type(exc).__name__, str(exc))
    return {k: v for k, v in data.items() if k not in ("duration", "elapsed")}


@pytest.mark.parametrize("game", registry.names())
def test_every_declared_default_is_what_the_engine_does(game):
    g = registry.get(game)
    exercised: set[Key] = set()
    differ = []
    for lc in load_suite(games=[game]).cases:
        request = make_request(lc.case, lc.case.rulesets[0])
        plays = [(request, None)] + [(r, key) for key, r in request_variants(request, strip=True)]
        for played, stripped in plays:
            base = None
            for key, changed in request_variants(played):
                if stripped is not None and key != stripped:
                    continue                      # the stripped part's flip only (the others are played above)
                base = observed(g, played) if base is None else base
                if observed(g, changed) != base:
                    differ.append((lc.case.id, key, "stripped" if stripped else "as written"))
                elif not (isinstance(base, tuple) and base[0] == "error"):
                    exercised.add(key)
    assert not differ, f"leaving out a part is not the same as writing its declared default: {differ}"
    missing = declared(game) - exercised
    assert not missing, f"defaults no golden case exercises: {sorted(missing)}"


def test_the_flips_are_real():
    """Left out becomes the default written, and the default written becomes left out; inside effects too."""
    assert list(ability_variants(["voyage_draw", {"block_draw": 1}, {"block_draw": 2}], "ijinden")) == [
        (("voyage_draw", "(omitted)"), [{"voyage_draw": 1}, {"block_draw": 1}, {"block_draw": 2}]),
        (("block_draw", "(omitted)"), ["voyage_draw", {"block_draw": None}, {"block_draw": 2}]),
    ]
    flips = dict(ability_variants([{"on_attack": {"destroy_target": {"max_power": 3000}}}], "duelmasters"))
    assert flips[("effect destroy_target", "controller")] == [
        {"on_attack": {"destroy_target": {"max_power": 3000, "controller": "opponent"}}}]
    assert flips[("effect destroy_target", "other")] == [
        {"on_attack": {"destroy_target": {"max_power": 3000, "other": False}}}]
