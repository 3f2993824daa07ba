"""What the generators know of a game, read from the registry, its card pool, catalog and golden cases.

Nothing here states a rule: the vocabulary gives the zones, decision kinds, abilities and how many
players the game allows; the card pool gives the cards; the golden cases give the *shapes* setups take in
that game (which card fields they write, the phases they start in, counter kinds, ability parameters),
so that generated boards are boards the game's loader and engine know how to read.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import cache
from typing import Any

from oracle import registry
from oracle.core.vocabulary import AbilitySpec, Vocabulary
from oracle.errors import OracleError
from oracle.harness.request import make_request
from oracle.loader import load_cards, load_catalog, load_suite
from oracle.model import CardDef, Catalog

NAMES = ("alice", "bob", "carol", "dave", "erin", "frank")
"""Player names, in turn order (the golden cases' own)."""
MAX_PLAYERS = 4
"""A game with no upper limit gets at most this many players (small boards shrink and run fast)."""


def ability_name(ref: Any) -> str:
    return ref if isinstance(ref, str) else next(iter(ref))


def card_abilities(card: CardDef | None) -> set[str]:
    """Every ability a pool card has, both faces."""
    names: set[str] = set()
    while card is not None:
        names.update(ability_name(a) for a in card.abilities)
        card = card.back
    return names


@dataclass(frozen=True)
class GameFacts:
    game: str
    zones: tuple[str, ...]
    players: tuple[int, int]
    decisions: tuple[str, ...]
    abilities: tuple[str, ...]
    pool: dict[str, CardDef]
    cards: tuple[str, ...]
    """Pool card names, plain ones first (fewest abilities, then synthetic, then by name): shrinking goes there."""
    ability_refs: dict[str, tuple[Any, ...]]
    """Ability name -> the forms the pool and the golden cases write it in (parameters included)."""
    catalog: Catalog
    rulesets: tuple[str, ...]
    """Default first."""
    testable: frozenset[str]
    phases: tuple[str, ...]
    card_fields: frozenset[str]
    """The card-setup fields the golden cases write (``power``, ``tapped``, ``protector``, ...)."""
    counted_zones: frozenset[str]
    """Zones the golden cases give as a count of anonymous cards (a deck of 10)."""
    counter_kinds: tuple[str, ...]
    used_zones: tuple[str, ...]
    """Zones the golden cases put cards in, most used first."""
    teams: bool
    life: bool
    powers: tuple[int, ...]
    """Power (and toughness) values the golden cases write, smallest first."""
    legality: str
    """The module of the game's candidate decisions (the registry's name for it)."""
    seeds: tuple[dict[str, Any], ...] = ()
    """The golden cases' setups (plain JSON data): boards a campaign may start from and mutate, as a fuzzer
    starts from a corpus."""
    seed_scripts: tuple[tuple[dict[str, Any], ...], ...] = ()
    """Their scripts: hints a generated script may follow where they fit (never their expectations)."""
    seed_rules: tuple[frozenset[str], ...] = ()
    """Each golden case's scenario-testable clauses (its ``rules`` that the catalog marks testable)."""
    seed_rulesets: tuple[tuple[str, ...], ...] = ()
    """Each golden case's rulesets (its board is played under one of them)."""
    any_time: frozenset[str] = frozenset()
    """Decisions the rules allow at any time (Magic's concede): never drawn as an illegal entry."""
    stat_kinds: frozenset[tuple[str, tuple[str, ...]]] = frozenset()
    """(stat, card types) of each stat a golden setup sets on a pool card that leaves it empty: the kinds of
    card a generated board sets that stat on (an Ijin's power; never a Magic sorcery's)."""
    shorthand: bool = False
    """The game reads some scripts with decisions left out (Magic's implied passes): the registry writes a
    golden script out otherwise than it is written."""

    def testable_in(self, ruleset: str) -> set[str]:
        return {c.id for c in self.catalog.clauses if c.testable and (not c.rulesets or ruleset in c.rulesets)}


def _param_forms(spec: AbilitySpec, voc: Vocabulary) -> list[Any]:
    """Sample parameters for an ability no card or case writes: one value its grammar accepts
    (``AbilitySpec.schema``, oracle/core/params.py); none when the sample does not check (then the ability is
    not added to generated boards)."""
    sample = spec.schema.sample(voc.ability_context)
    return [] if spec.schema.check(sample, (spec.name,), voc.ability_context) else [sample]


@cache
def facts(game: str) -> GameFacts:
    g = registry.get(game)
    voc = g.vocabulary
    pool = load_cards(game)
    catalog = load_catalog(game)
    cases = [lc.case for lc in load_suite(games=[game]).cases]
    refs: dict[str, list[Any]] = {a: [] for a in voc.abilities}

    def note(ref: Any) -> None:
        name = ability_name(ref)
        if name in refs and ref not in refs[name]:
            refs[name].append(ref)

    for card in pool.values():
        c: CardDef | None = card
        while c is not None:
            for a in c.abilities:
                note(a)
            c = c.back
    phases: Counter[str] = Counter()
    fields: set[str] = set()
    counted: set[str] = set()
    used: Counter[str] = Counter()
    counters: set[str] = set()
    powers: set[int] = set()
    stat_kinds: set[tuple[str, tuple[str, ...]]] = set()
    teams = life = False
    for case in cases:
        phases[case.setup.phase] += 1
        for p in case.setup.players.values():
            teams |= p.team is not None
            life |= p.life is not None
            for zone, content in p.zones.items():
                if isinstance(content, int):
                    counted.add(zone)
                    continue
                used[zone] += 1
                for cs in content:
                    fields.update(cs.model_fields_set - {"id", "card"})
                    counters.update(cs.counters)
                    for a in cs.abilities:
                        note(a)
                    for stat, v in (("power", cs.power), ("toughness", cs.toughness)):
                        if isinstance(v, int) and v >= 0:
                            powers.add(v)
                        card = pool.get(cs.card)
                        if v is not None and card is not None and getattr(card, stat) is None:
                            stat_kinds.add((stat, tuple(sorted(card.types))))
    for name, spec in voc.abilities.items():
        if not refs[name]:
            refs[name] = [name if v is None else {name: v} for v in _param_forms(spec, voc)]

    def plain(name: str) -> tuple[int, int, str]:
        card = pool[name]
        return len(card_abilities(card)) + (card.back is not None), 0 if card.synthetic else 1, name

    # the golden scripts written out (every decision the engine asks an entry: the points a generated script
    # is drawn at), as the registry writes them
    explicit, shorthand = [], False
    for case in cases:
        written = [d.model_dump(mode="json") for d in case.script]
        try:
            out = g.explicit_script(make_request(case, case.rulesets[0]))
        except OracleError:
            out = written
        shorthand |= len(out) != len(written)
        explicit.append(out)
    low, high = voc.players
    testable = frozenset(c.id for c in catalog.clauses if c.testable)
    default = catalog.default_ruleset
    rulesets = (default, *[r.id for r in catalog.rulesets if r.id != default])
    return GameFacts(
        game=game, zones=voc.zones, players=(low, min(high or MAX_PLAYERS, MAX_PLAYERS, len(NAMES))),
        decisions=tuple(voc.decisions), abilities=tuple(voc.abilities), pool=pool,
        cards=tuple(sorted(pool, key=plain)), ability_refs={k: tuple(v) for k, v in refs.items() if v},
        catalog=catalog, rulesets=rulesets, testable=testable,
        phases=tuple(p for p, _ in sorted(phases.items(), key=lambda kv: (kv[0] != "main", -kv[1]))) or ("main",),
        card_fields=frozenset(fields), counted_zones=frozenset(counted), counter_kinds=tuple(sorted(counters)),
        used_zones=tuple(z for z, _ in used.most_common()) or voc.zones[:1],
        teams=teams, life=life, powers=tuple(sorted(powers)) or (1000,), legality=g.legality,
        seeds=tuple(c.setup.model_dump(mode="json", exclude_none=True, exclude_defaults=True) for c in cases),
        seed_scripts=tuple(tuple(s) for s in explicit), shorthand=shorthand,
        seed_rules=tuple(frozenset(c.rules) & testable for c in cases),
        seed_rulesets=tuple(tuple(c.rulesets) for c in cases), stat_kinds=frozenset(stat_kinds),
        any_time=frozenset(k for k, d in voc.decisions.items() if d.any_time))
