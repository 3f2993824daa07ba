"""The closed, namespaced vocabulary a game declares: events, decisions, refusal reasons, zones,
abilities and the fields of the final-state projection. Cases are checked against it when loaded."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from .params import Context, Param, render


@dataclass(frozen=True, slots=True)
class EventSpec:
    """An observable event. ``primary`` is the field a short form names: ``{became_attacker: a}``."""

    kind: str
    fields: tuple[str, ...]
    doc: str
    primary: str | None = None


@dataclass(frozen=True, slots=True)
class DecisionSpec:
    kind: str
    args: str
    doc: str
    any_time: bool = False
    """The rules let a player make it at any time (Magic's concede, 104.3a): where a script may give it is a
    reading of the suite (an assumption), so a generated script never makes it an illegal entry on purpose."""


@dataclass(frozen=True, slots=True)
class AbilitySpec:
    """An ability a card may have: ``schema`` is the grammar of its parameters (:mod:`oracle.core.params`),
    checked when a card pool or a case's setup is loaded; :attr:`params` is that grammar rendered, as the
    vocabulary pages show it."""

    name: str
    schema: Param
    doc: str
    source: str = ""

    @property
    def params(self) -> str:
        """The parameter grammar as one line (``""``: no parameter)."""
        return render(self.schema)


@dataclass(frozen=True, slots=True)
class StepSpec:
    """A later step a case's setup may start at (``setup.step``) and the battle state it then holds:
    how many cards may be ``attacking`` (each tapped / asleep when ``attackers_tapped``; naming what it
    attacks when ``target``), and whether cards may be ``blocking`` an attacker."""

    name: str
    doc: str
    attackers: tuple[int, int | None] = (1, None)
    target: bool = False
    blockers: bool = False
    attackers_tapped: bool = True


@dataclass(frozen=True)
class Vocabulary:
    game: str
    events: dict[str, EventSpec]
    decisions: dict[str, DecisionSpec]
    reasons: dict[str, str]
    zones: tuple[str, ...]
    abilities: dict[str, AbilitySpec]
    player_fields: dict[str, str] = field(default_factory=dict)
    card_fields: dict[str, str] = field(default_factory=dict)
    steps: dict[str, StepSpec] = field(default_factory=dict)
    """The later steps a case's setup may start at (``setup.step``), each with what the setup then holds."""
    players: tuple[int, int | None] = (2, None)
    """How many players a setup may have (at least, at most; None = no limit)."""
    refines: dict[str, str] = field(default_factory=dict)
    """Refusal code -> the broader code it is a kind of (``several_attackers`` -> ``malformed_decision``): a
    case expecting the broader code passes on an engine that refuses with the narrower one (docs/contract.md)."""
    field_events: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Final-state field -> the event kinds that change it. A ``final`` expectation on that field credits
    (asserted coverage) the clause of the last such event of the card or player; a field no event changed
    credits none."""
    card_props: Param | None = None
    """The grammar of a pool card's ``props`` (a :class:`~oracle.core.params.Param`, e.g. a Mapping of the
    characteristics the engine reads: Duel Masters' ``civ``), checked when the pool loads; None: not checked."""
    waiting: dict[str, str] = field(default_factory=dict)
    """Zone -> why an object left in it at the end of a case is waiting (Magic's stack: nobody passed over
    it): said when an expected moment is missing and the trace ended (``harness.compare``)."""

    @cached_property
    def ability_context(self) -> Context:
        """What an ability's parameters are checked with: the game's abilities and their grammars."""
        return Context(self.game, {n: a.schema for n, a in self.abilities.items()})

    def reason_satisfies(self, actual: str | None, expected: str | None) -> bool:
        """Whether refusal code ``actual`` is ``expected`` or refines it (through :attr:`refines`, any depth)."""
        seen: set[str] = set()
        while actual is not None and actual not in seen:
            if actual == expected:
                return True
            seen.add(actual)
            actual = self.refines.get(actual)
        return False

    def narrower(self, code: str) -> frozenset[str]:
        """``code`` and every code that refines it."""
        return frozenset(c for c in {code, *self.refines} if self.reason_satisfies(c, code))

    def events_changing(self, field_name: str) -> tuple[str, ...]:
        return self.field_events.get(field_name, CORE_FIELD_EVENTS.get(field_name, ()))


def specs(*items):
    """Index specs by their kind or name."""
    return {getattr(i, "kind", None) or i.name: i for i in items}


# Events every game shares. Games add their own; the names are namespaced by the case's game.
CORE_EVENTS: tuple[EventSpec, ...] = (
    EventSpec("decided", ("at", "player", "decision", "automatic"),
              "A decision of the script was accepted (`automatic: true`: the engine took it itself, as the "
              "only legal option)", "at"),
    EventSpec("rejected", ("at", "player", "reason"), "A decision was refused; nothing changed", "at"),
    EventSpec("won", ("player",), "A player wins the game", "player"),
    EventSpec("lost", ("player",), "A player loses the game", "player"),
    EventSpec("drew", ("player", "count"), "A player draws cards", "player"),
    EventSpec("moved", ("card", "from", "to", "player"), "A card changes zones", "card"),
    EventSpec("triggered", ("card", "ability", "player"), "A triggered ability triggers", "card"),
    EventSpec("resolved", ("card", "ability", "player"), "A triggered ability resolves", "card"),
)

CORE_FIELD_EVENTS: dict[str, tuple[str, ...]] = {"zone": ("moved",)}

CORE_REASONS: dict[str, str] = {
    "not_your_decision": "the decision belongs to another player",
    "unexpected_decision": "the engine is not asking for a decision of this kind now",
    "unknown_object": "the decision names a card or player that is not in the game",
    "malformed_decision": "the decision's arguments do not have the shape its kind needs",
}


def _shared_grammars(voc: Vocabulary) -> dict[str, str]:
    """The params grammars several abilities share (a long one written once), each with the name its rows use:
    ``EFFECT``, then ``EFFECT_2`` ..., in the order the abilities are listed."""
    uses: dict[str, int] = {}
    for a in voc.abilities.values():
        if len(a.params) >= _SHARED_MIN_CHARS:
            uses[a.params] = uses.get(a.params, 0) + 1
    shared = [params for params, n in uses.items() if n >= 2]
    return {params: "EFFECT" if i == 0 else f"EFFECT_{i + 1}" for i, params in enumerate(shared)}


_SHARED_MIN_CHARS = 80  # a params grammar this long, used by two abilities or more, is stated once


def markdown(voc: Vocabulary) -> str:
    """The vocabulary as Markdown tables: the page ``docs/vocabulary/<game>.md`` (``tests/test_vocabulary_docs.py``
    keeps each page in step). A long params grammar several abilities share is stated once, above the table,
    and their rows name it."""
    def cell(text: object) -> str:
        return str(text).replace("|", "\\|")

    grammars = _shared_grammars(voc)
    out = []
    for params, name in grammars.items():
        users = ", ".join(f"`{a.name}`" for a in voc.abilities.values() if a.params == params)
        out += [f"**`{name}`**, the params of {users}: {cell(params)}", ""]
    out += ["| ability | params | meaning |", "|---|---|---|"]
    out += [f"| `{a.name}` | {cell(f'`{grammars[a.params]}` (above)' if a.params in grammars else a.params or '—')} "
            f"| {cell(a.doc)} |" for a in voc.abilities.values()]
    out += ["", "| decision | args | meaning |", "|---|---|---|"]
    out += [f"| `{d.kind}` | {cell(d.args)} | {cell(d.doc)} |" for d in voc.decisions.values()]
    out += ["", "| event | fields | meaning |", "|---|---|---|"]
    out += [f"| `{e.kind}` | {', '.join(e.fields)} | {cell(e.doc)} |" for e in voc.events.values()]
    out += ["", "| refusal reason | meaning |", "|---|---|"]
    out += [f"| `{r}` | {cell(doc)} |" for r, doc in voc.reasons.items()]
    if voc.steps:
        out += ["", "| `setup.step` | the setup holds | what happens first |", "|---|---|---|"]
        for s in voc.steps.values():
            low, high = s.attackers
            held = ("no attacking card" if high == 0 else
                    f"{low}{'' if high == low else ' or more' if high is None else f' to {high}'} card(s) marked "
                    f"`attacking: {'<player or card id>' if s.target else 'true'}`"
                    + (" (tapped)" if s.attackers_tapped else "")
                    + ("; cards marked `blocking: <attacker id>`" if s.blockers else ""))
            out += [f"| `{s.name}` | {cell(held)} | {cell(s.doc)} |"]
    out += ["", "| final-state field | type and meaning |", "|---|---|"]
    out += [f"| `players.<p>.{z}` | list of card ids (or a count, in a case) |" for z in voc.zones]
    out += [f"| `players.<p>.{f}` | {cell(doc)} |" for f, doc in voc.player_fields.items()]
    out += [f"| `cards.<id>.{f}` | {cell(doc)} |" for f, doc in voc.card_fields.items()]
    return "\n".join(out)


def refinements_markdown(voc: Vocabulary) -> str:
    """The game's refusal-code hierarchy as a Markdown table (docs/contract.md holds one per game)."""
    rows = [f"| `{narrow}` | `{broad}` |" for narrow, broad in sorted(voc.refines.items())]
    return "\n".join(["| refusal code | is a kind of |", "|---|---|", *rows]) if rows else "(none)"


class RefusalCode(str):
    """An expected refusal code that equals every code refining it (:meth:`Vocabulary.narrower`): what the
    event matcher compares a ``rejected`` event's ``reason`` with. Written and shown as the code itself."""

    accepted: frozenset[str]

    def __new__(cls, code: str, accepted: frozenset[str]) -> "RefusalCode":
        obj = super().__new__(cls, code)
        obj.accepted = accepted
        return obj

    def __eq__(self, other: object) -> bool:
        return other in self.accepted if isinstance(other, str) else NotImplemented

    def __ne__(self, other: object) -> bool:
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    __hash__ = str.__hash__
