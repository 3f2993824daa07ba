"""Boards: Hypothesis strategies for a game's setup, from the game's facts (:mod:`.facts`).

A board has the players the game allows (fewest first), every zone of its vocabulary, cards of its pool
(plain ones first), the card states its golden cases write (sleeping/tapped, placed this turn, counters,
protectors, power), abilities added from the vocabulary, and teams where the game has them. Everything
shrinks towards the small and plain: two players, the first the active one, empty zones but one card on
the battlefield, no flags. A board the reference engine cannot set up is rejected by the caller (the
engine, not this module, knows what a legal start is).
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any, Iterable

from hypothesis import strategies as st

from oracle import registry

from .facts import NAMES, GameFacts, ability_name, card_abilities, facts

MAIN_ZONE = "battlefield"
ZONE_SIZE = {MAIN_ZONE: 3}
"""Most cards a generated zone holds (the battlefield more than the others)."""
OTHER_ZONE_SIZE = 2
MAX_CARDS = 10
"""Most cards with ids on a generated board."""
TEAM_NAMES = ("sun", "moon")


@cache
def pick(items: tuple[Any, ...]) -> st.SearchStrategy[Any]:
    """``sampled_from``, built once per choice list (building and validating strategies is not free)."""
    return st.sampled_from(items)


@cache
def ints(low: int, high: int) -> st.SearchStrategy[int]:
    return st.integers(low, high)


def index(draw, n: int) -> int:
    """An index below ``n`` (shrinks to 0)."""
    return draw(ints(0, n - 1))


def one_in(draw, n: int) -> bool:
    """True about once in ``n`` draws; shrinks to False."""
    return draw(ints(0, n - 1)) == n - 1


def allowed_cards(f: GameFacts, abilities: Iterable[str] | None) -> tuple[str, ...]:
    """Pool cards whose every ability (both faces) is in ``abilities`` (None: every card)."""
    if abilities is None:
        return f.cards
    allowed = set(abilities)
    return tuple(n for n in f.cards if card_abilities(f.pool[n]) <= allowed)


def settable(f: GameFacts, name: str, stat: str) -> bool:
    """Whether a generated board sets this stat on this card: the pool leaves it empty (DESIGN: "A stat the
    source does not give is left empty and set by the case"; a printed one stays as printed -- an engine under
    test plays real cards, and phase.rs cannot be given another power), and golden setups set it on cards of
    the same types (an Ijin's power; never a Magic sorcery's, which has none)."""
    card = f.pool.get(name)
    return card is not None and getattr(card, stat, None) is None and (stat, tuple(sorted(card.types))) in f.stat_kinds


def _card(draw, f: GameFacts, cid: str, zone: str, players: list[str], cards: tuple[str, ...],
          extra: tuple[Any, ...]) -> dict[str, Any]:
    card: dict[str, Any] = {"id": cid, "card": draw(pick(cards))}
    fields = f.card_fields
    on_field = zone == MAIN_ZONE
    if "power" in fields and settable(f, card["card"], "power") and not one_in(draw, 4):
        card["power"] = draw(pick(f.powers))
    if "toughness" in fields and settable(f, card["card"], "toughness") and one_in(draw, 6):
        card["toughness"] = draw(pick(f.powers))
    if on_field and "tapped" in fields and one_in(draw, 5):
        card["tapped"] = True
    if on_field and "entered_this_turn" in fields and one_in(draw, 4):
        card["entered_this_turn"] = True
    if on_field and f.counter_kinds and one_in(draw, 5):
        card["counters"] = {draw(pick(f.counter_kinds)): draw(ints(0, 5))}
    if on_field and "protector" in fields and one_in(draw, 3):
        card["protector"] = draw(pick(tuple(players)))
    if extra and "abilities" in fields and one_in(draw, 3):
        picked = {draw(ints(0, len(extra) - 1)) for _ in range(1 + one_in(draw, 3))}
        chosen = {ability_name(extra[i]): extra[i] for i in sorted(picked)}  # one of each name on a card
        card["abilities"] = [a for n, a in chosen.items() if n not in card_abilities(f.pool[card["card"]])]
        if not card["abilities"]:
            del card["abilities"]
    return card


def boards(game: str, abilities: Iterable[str] | None = None, seeds: bool = True) -> st.SearchStrategy[dict[str, Any]]:
    """A setup (plain JSON data, as a case writes it) of ``game``; only cards and added abilities within
    ``abilities`` when given (an engine's declared abilities); with ``seeds`` some start from a golden
    case's setup, mutated."""
    return _boards(game, None if abilities is None else frozenset(abilities), seeds)


@cache
def _boards(game: str, abilities: frozenset[str] | None, seeds: bool) -> st.SearchStrategy[dict[str, Any]]:
    return st.composite(lambda draw: draw_board(draw, game, abilities, seeds))()


SEED_ONE_IN = 2
MUTATE_ONE_IN = 8
PLAIN_FIELDS = {"id", "card", "power", "toughness", "abilities", "tapped", "sleeping", "entered_this_turn", "counters"}
"""A seed's card with only these may be dropped; one with more (``attacking`` in a later-step setup) stays."""
"""A seed's card is dropped, or has a flag or its power changed, about once in this many each."""
"""About one board in this many starts from a golden case's setup, mutated (``seeds=False``: never)."""


def _usable(f: GameFacts, setup: dict[str, Any], cards: tuple[str, ...], allowed: set[str] | None) -> bool:
    """Every card of the seed is one this campaign may use (an engine's declared abilities)."""
    listed = [c for p in setup["players"].values() for z in p.values() if isinstance(z, list) for c in z]
    return all(c["card"] in cards and (allowed is None or {ability_name(a) for a in c.get("abilities", ())} <= allowed)
               for c in listed)


@cache
def _usable_seeds(game: str, abilities: frozenset[str] | None) -> tuple[int, ...]:
    f = facts(game)
    cards = allowed_cards(f, abilities)
    allowed = None if abilities is None else set(abilities)
    return tuple(i for i, seed in enumerate(f.seeds) if _usable(f, seed, cards, allowed))


@cache
def _seed_strata(game: str, abilities: frozenset[str] | None) -> tuple[tuple[int, ...], ...]:
    """The usable seeds grouped by the scenario-testable clause their case exercises (a case in each of its
    clauses' groups; one exercising none in a last group), in clause order. A seed board is drawn group
    first: every clause the golden cases show gets as many boards as any other, however few cases show it
    (three cases of トリプルプレッシャー among a hundred)."""
    f = facts(game)
    by: dict[str | None, list[int]] = {}
    for i in _usable_seeds(game, abilities):
        for clause in sorted(f.seed_rules[i]) or [None]:
            by.setdefault(clause, []).append(i)
    return tuple(tuple(by[k]) for k in sorted(by, key=lambda k: (k is None, k or "")))


def mutate(draw, f: GameFacts, seed: dict[str, Any], cards: tuple[str, ...], extra: tuple[Any, ...]) -> dict[str, Any]:
    """A golden setup, changed: cards dropped, flags flipped, powers changed, new cards added."""
    setup = json.loads(json.dumps(seed))
    players = list(setup["players"])
    listed = [c for p in setup["players"].values() for z in p.values() if isinstance(z, list) for c in z]
    named = {v for c in listed for k, v in c.items() if k not in ("id", "card") and isinstance(v, str)}
    # a card another names (attached_to) stays
    for p in players:
        for zone, content in list(setup["players"][p].items()):
            if not isinstance(content, list):
                continue
            kept = []
            for card in content:
                keeps = card["id"] in named or set(card) - PLAIN_FIELDS  # what a later-step setup relies on
                if not keeps and one_in(draw, MUTATE_ONE_IN):
                    continue  # dropped
                if zone == MAIN_ZONE and not keeps and "tapped" in f.card_fields and one_in(draw, MUTATE_ONE_IN):
                    card["tapped"] = not card.get("tapped", card.pop("sleeping", False))
                if "power" in f.card_fields and ("power" in card or settable(f, card["card"], "power")) \
                        and one_in(draw, MUTATE_ONE_IN):  # a power the golden case set, or one a fresh card may get
                    card["power"] = draw(pick(f.powers))
                kept.append(card)
            setup["players"][p][zone] = kept
    taken = {c["id"] for p in setup["players"].values() for z in p.values() if isinstance(z, list) for c in z}
    fresh = (f"new{n}" for n in range(1, 100) if f"new{n}" not in taken)
    for _ in range(draw(ints(0, 2))):
        owner = players[index(draw, len(players))]
        zone = f.used_zones[index(draw, len(f.used_zones))]
        content = setup["players"][owner].setdefault(zone, [])
        if isinstance(content, list):
            content.append(_card(draw, f, next(fresh), zone, players, cards, extra))
    return setup


def draw_board(draw, game: str, abilities: frozenset[str] | None = None, seeds: bool = True) -> dict[str, Any]:
    """:func:`boards` inside another strategy."""
    return draw_board_and_hint(draw, game, abilities, seeds)[0]


def draw_board_and_hint(draw, game: str, abilities: frozenset[str] | None = None, seeds: bool = True
                        ) -> tuple[dict[str, Any], tuple[dict[str, Any], ...], tuple[str, ...]]:
    """A board, and when it mutates a golden setup, that case's script as a hint for the generated one and
    its rulesets (else none: every ruleset of the game fits)."""
    f = facts(game)
    allowed = None if abilities is None else set(abilities)
    cards = allowed_cards(f, allowed)
    if not cards:
        raise ValueError(f"no {game} card of the pool has only the abilities {sorted(allowed or ())}")
    extra = tuple(r for name, refs in f.ability_refs.items() if allowed is None or name in allowed for r in refs)
    strata = _seed_strata(game, abilities) if seeds else ()
    if strata and one_in(draw, SEED_ONE_IN):
        stratum = strata[index(draw, len(strata))]
        chosen = stratum[index(draw, len(stratum))]
        return mutate(draw, f, f.seeds[chosen], cards, extra), f.seed_scripts[chosen], f.seed_rulesets[chosen]
    low, high = f.players
    n = draw(ints(low, high))
    players = list(NAMES[:n])
    active = draw(pick(tuple(players[1:]))) if one_in(draw, 4) else players[0]
    setup: dict[str, Any] = {"active": active, "players": {}}
    phase = draw(pick(f.phases))
    if phase != "main":
        setup["phase"] = phase
    teams = f.teams and n > 2 and one_in(draw, 2)
    board: dict[str, dict[str, Any]] = {p: {} for p in players}
    for p in players:
        if teams:
            board[p]["team"] = draw(pick(TEAM_NAMES))
        if f.life and one_in(draw, 5):
            board[p]["life"] = draw(ints(1, 20))
        for zone in sorted(f.counted_zones):
            if one_in(draw, 4):
                board[p][zone] = draw(ints(1, 5))
    # Cards one at a time, each with its owner and zone: deleting one while shrinking leaves the others as
    # they were. The active player has one on the battlefield; the battlefield comes first in the zones.
    zones = (MAIN_ZONE, *[z for z in f.zones if z != MAIN_ZONE])
    # swarm testing: this board's cards and added abilities come from a small palette, so that boards
    # gather several cards of one kind (three blockers for a triple pressure) rather than one of each
    cards = tuple(dict.fromkeys(cards[index(draw, len(cards))] for _ in range(draw(ints(1, 4)))))
    if extra:
        extra = tuple(extra[index(draw, len(extra))] for _ in range(draw(ints(1, 3))))
    extra += composed(draw, game, allowed)
    size = ZONE_SIZE.get(MAIN_ZONE, OTHER_ZONE_SIZE) if n == 2 else OTHER_ZONE_SIZE  # enumerations stay small
    placed: list[tuple[str, str]] = [(active, MAIN_ZONE)]
    while len(placed) < MAX_CARDS and draw(ints(0, 4)) > 0:
        owner = players[draw(ints(0, n - 1))]
        how = draw(ints(0, 7))  # the battlefield half the time, else mostly a zone the golden cases use
        zone = zones[0] if how < 4 else f.used_zones[index(draw, len(f.used_zones))] if how < 7 \
            else zones[index(draw, len(zones))]
        placed.append((owner, zone))
    for number, (owner, zone) in enumerate(placed, 1):
        content = board[owner].get(zone)
        if isinstance(content, int) or len(content or ()) >= (size if zone == MAIN_ZONE else OTHER_ZONE_SIZE):
            continue
        board[owner].setdefault(zone, []).append(_card(draw, f, f"c{number}", zone, players, cards, extra))
    setup["players"] = board
    return setup, (), ()


COMPOSED_ONE_IN = 3
"""How often a board also gets an ability drawn from the game's composition grammar (:mod:`.grammar`)."""


def composed(draw, game: str, allowed: set[str] | None) -> tuple[Any, ...]:
    """Now and then one ability no card or case wrote: a ``triggered`` or ``static`` composition drawn from the
    game's own grammar (DESIGN: abilities composed of parts, each checked when loaded), so that generated boards
    reach trigger, target and effect combinations beyond the golden cases'."""
    kinds = [k for k in ("triggered", "static") if k in registry.get(game).vocabulary.abilities
             and (allowed is None or k in allowed)]
    if not kinds or not one_in(draw, COMPOSED_ONE_IN):
        return ()
    kind = draw(pick(tuple(kinds)))
    return ({kind: draw(_composition(game, kind))},)


@cache
def _composition(game: str, kind: str) -> st.SearchStrategy[Any]:
    """The strategy of a ``kind`` ability's parameters of ``game``, built once (every board that gets one draws
    from it)."""
    from .grammar import context, values

    ctx = context(game)
    return values(ctx.abilities[kind], ctx)


def rulesets(game: str, among: tuple[str, ...] = ()) -> st.SearchStrategy[str]:
    """The game's rulesets, its default first (those of ``among`` only, when given: a seed case's)."""
    every = facts(game).rulesets
    return pick(tuple(r for r in every if r in among) or every if among else every)
