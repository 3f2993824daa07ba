"""Abilities composed of parts (DESIGN.md, "Card pool"; Forge's card scripts): a *triggered* ability is a
trigger (an event of the game's vocabulary, and whose card it watches), a condition, optional or mandatory, a
cost, targets (none, one, several each with its own filter, or every card matching a filter) and effects done
in order; a *static* ability is a condition, the cards it affects, and what they get while it holds
(abilities granted, rules changed). A game states its parts once -- its events, effects, filters, conditions,
costs and static rules, as :mod:`oracle.core.params` grammars -- and :func:`triggered_grammar` and
:func:`static_grammar` build the two abilities' grammars from them; :func:`parse_triggered` and
:func:`parse_static` read a checked value into the frozen data below, which the game's engine interprets.

A card file writes one as ``{triggered: {...}}`` or ``{static: {...}}``; a game's named abilities
(``block_unattack``, ``legacy_draw`` ...) are shorthand for such compositions (each game's ``SHORTHAND``).

    - triggered:
        name: 迎撃                                 # optional: how traces name it (default: triggered)
        when: {event: became_blocker, watch: this}  # watch: this | another_yours | yours | opponents | any
        optional: true                            # 発動できる / "may"; default false (発動する)
        targets: [{name: t, filter: {role: attacker}}]
        effects: [{unattack: null, on: t}, {destroy: null, on: this}]   # a bare on: key is on (oracle.yamlfile)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable, Mapping as MappingType

from .params import (Alternatives, Bool, Context, Field, Int, Keyed, ListOf, Loc, Mapping, Named, OneOf, Param,
                     Problem, Wrapped, label, shown)

WATCHES = ("this", "another_yours", "yours", "opponents", "any")
"""Whose card a trigger's event must be about: this card; another card of its controller's; any card of its
controller's (this one included); an opponent's card; any card."""

THIS, SUBJECT = "this", "subject"
"""What an effect's ``on`` may name besides a target: the ability's own card; the card the event was about."""


@dataclass(frozen=True, slots=True)
class When:
    """The trigger: ``event`` (of the game's vocabulary) about a card ``watch`` allows, and the game's
    ``condition`` on the event (e.g. how many attacked), if any."""

    event: str
    watch: str = THIS
    condition: Any = None


@dataclass(frozen=True, slots=True)
class Target:
    """A target: chosen as the ability resolves (``count`` cards, or ``"all"``: every card the filter allows,
    nothing chosen), named ``name`` by the effects; ``filter`` is the game's filter (None: any card)."""

    name: str
    filter: Any = None
    count: int | str = 1

    @property
    def every(self) -> bool:
        return self.count == "all"


@dataclass(frozen=True, slots=True)
class Effect:
    """One effect: its ``kind`` in the game's effect table, its parameter, and what it acts on (``this``,
    ``subject``, a target's name, or None: the effect's own default, e.g. its controller for a draw)."""

    kind: str
    param: Any = None
    on: str | tuple[str, ...] | None = None
    """A tuple (a game that allows ``on: [a, b]``): the cards of those targets together, in one effect."""


@dataclass(frozen=True, slots=True)
class Triggered:
    """A triggered ability: what triggers it, whether its controller may decline it, the condition that must
    hold for it to do anything (checked as it resolves), its cost (paid as it resolves), its targets, and its
    effects in order."""

    name: str
    when: When
    optional: bool = False
    condition: Any = None
    cost: Any = None
    targets: tuple[Target, ...] = ()
    effects: tuple[Effect, ...] = ()

    def target(self, name: str) -> Target | None:
        return next((t for t in self.targets if t.name == name), None)


@dataclass(frozen=True, slots=True)
class Static:
    """A static ability: while ``condition`` holds, the cards ``affects`` names (``this``, or the game's
    filter, read from the controller's side) have the abilities ``grants`` and the game's rule changes
    ``rules`` (``{kind: param}`` each); it applies while its card is in ``zone`` (「この能力は墓地で効果を発揮す
    る」: graveyard)."""

    name: str
    affects: Any = THIS
    condition: Any = None
    grants: tuple[tuple[str, Any], ...] = ()
    rules: tuple[tuple[str, Any], ...] = ()
    zone: str = "battlefield"


# -- grammars -------------------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Word(Param):
    """A name the case chooses (a target's name): letters, digits and ``_``, not a word the grammar keeps."""

    reserved: tuple[str, ...] = (THIS, SUBJECT)

    def check(self, value, loc, ctx):
        if not self.fits(value) or not value.replace("_", "a").isalnum():
            return [(loc, f"{label(loc)}: expected a name (letters, digits, _), got {shown(value)}")]
        if value in self.reserved:
            return [(loc, f"{label(loc)}: {value!r} is reserved (it names {value} card already); choose another")]
        return []

    def grammar(self):
        return "name"

    def fits(self, value):
        return isinstance(value, str)

    def sample(self, ctx):
        return "t"


@dataclass(frozen=True, slots=True)
class EffectItem(Param):
    """One effect of a list: ``{<effect>: param, on?: this | subject | <target name>}`` (a file's bare ``on:`` key is
    ``on``: :func:`oracle.yamlfile.compose` reads keys as spelled); with ``several``, also ``on: [<target name>,
    ...]``: the cards of those targets together (「それらのイジンすべてを破壊する」)."""

    effects: Keyed
    several: bool = False

    def check(self, value, loc, ctx):
        if not isinstance(value, dict):
            return self.expected(value, loc)
        rest = {k: v for k, v in value.items() if k != "on"}
        out: list[Problem] = []
        on = value.get("on")
        if "on" in value and not isinstance(on, str):
            names = (self.several and isinstance(on, list) and len(on) >= 2 and all(isinstance(n, str) for n in on)
                     and len(set(on)) == len(on) and not {THIS, SUBJECT} & set(on))
            if not names:
                out.append((loc + ("on",), f"{label(loc + ('on',))}: expected this | subject | a target's name"
                                           + (", or a list of two or more different target names" if self.several
                                              else "") + f", got {shown(on)}"))
        return out + self.effects.check(rest, loc, ctx)

    def grammar(self):
        several = " | [<target name>, ...]" if self.several else ""
        return f"{{EFFECT, on?: {THIS} | {SUBJECT} | <target name>{several} = the effect's default}}"

    def fits(self, value):
        return isinstance(value, dict)

    def sample(self, ctx):
        return self.effects.sample(ctx)

    def named(self):
        return [Named("EFFECT", self.effects)]


@dataclass(frozen=True, slots=True)
class AbilityRef(Param):
    """An ability of the game as a card lists it: its name, or ``{name: params}`` checked by that ability's own
    grammar (:attr:`~oracle.core.params.Context.abilities`) -- what a static ability grants."""

    def check(self, value, loc, ctx):
        if isinstance(value, dict) and len(value) == 1:
            ((name, params),) = value.items()
        elif isinstance(value, str):
            name, params = value, None
        else:
            return self.expected(value, loc)
        if name not in ctx.abilities:
            return [(loc, f"{label(loc)}: {shown(name)} is not an ability of {ctx.game}; see its ability vocabulary")]
        return ctx.abilities[name].check(params, loc + ((name,) if isinstance(value, dict) else ()), ctx)

    def grammar(self):
        return "ability | {ability: params}"

    def fits(self, value):
        return isinstance(value, (str, dict))

    def sample(self, ctx):
        return next((n for n, p in ctx.abilities.items() if not p.check(None, (), ctx)), "")


@dataclass(frozen=True, slots=True)
class Example(Wrapped):
    """``inner`` with ``example`` as its sample: a composition's grammar whose own sample (its required fields'
    samples) a game's checks refuse -- e.g. an effect that must name its card, a static that grants nothing."""

    example: Any = None

    def sample(self, ctx):
        return self.example


def _names_known(value: dict, loc: Loc, ctx: Context) -> list[Problem]:
    """Every effect's ``on`` names ``this``, ``subject`` or a declared target; target names are distinct."""
    out: list[Problem] = []
    names = [t.get("name") for t in value.get("targets") or []]
    for i, n in enumerate(names):
        if names.index(n) != i:
            out.append((loc + ("targets", i, "name"), f"{label(loc + ('targets', i, 'name'))}: target name {n!r} "
                                                      f"is used twice"))
    for i, e in enumerate(value.get("effects") or []):
        on = e.get("on") if isinstance(e, dict) else None
        for j, one in enumerate(on if isinstance(on, list) else [on]):
            if isinstance(one, str) and one not in (THIS, SUBJECT, *names):
                at = loc + ("effects", i, "on") + ((j,) if isinstance(on, list) else ())
                out.append((at, f"{label(at)}: {one!r} names no target of this ability; write {THIS}, {SUBJECT} or "
                                f"one of {names}"))
    return out


def triggered_grammar(*, events: tuple[str, ...], effects: Keyed, filter: Param, condition: Param | None = None,
                      event_condition: Param | None = None, cost: Param | None = None,
                      watches: tuple[str, ...] = WATCHES, several_on: bool = False,
                      also: Callable[[dict, Loc, Context], list[Problem]] | None = None) -> Param:
    """The grammar of ``{triggered: {...}}`` from a game's parts (each stated once in its vocabulary). ``also``:
    the game's own check of the whole ability (what one part says of another, e.g. an event condition that only
    one event has), run after the core's and only on a value whose parts are each well formed. ``several_on``: an
    effect may name several targets (``on: [a, b]``), which the game's interpreter does as one effect."""
    when = Mapping(tuple(f for f in (
        Field("event", OneOf(events)),
        Field("watch", OneOf(watches), THIS),
        Field("condition", event_condition, None, "none") if event_condition is not None else None,
    ) if f is not None))
    target = Mapping((
        Field("name", Word()),
        Field("filter", filter, None, "any card"),
        Field("count", Alternatives((Int(minimum=1), OneOf(("all",)))), 1),
    ))
    fields = [Field("name", Word(reserved=()), "triggered"), Field("when", when),
              Field("optional", Bool(), False)]
    if condition is not None:
        fields.append(Field("condition", condition, None, "none"))
    if cost is not None:
        fields.append(Field("cost", cost, None, "none"))
    fields += [Field("targets", ListOf(target), [], "none"), Field("effects", ListOf(EffectItem(effects, several_on), 1))]
    if also is None:
        return Mapping(tuple(fields), also=_names_known)
    game_check = also

    def both(value: dict, loc: Loc, ctx: Context) -> list[Problem]:
        return _names_known(value, loc, ctx) or game_check(value, loc, ctx)

    return Mapping(tuple(fields), also=both)


def static_grammar(*, affects: Param, grants: Param, rules: Keyed | None = None,
                   condition: Param | None = None, zones: tuple[str, ...] = (),
                   also: Callable[[dict, Loc, Context], list[Problem]] | None = None) -> Param:
    """The grammar of ``{static: {...}}``: the cards it affects, what they get, while the condition holds;
    ``zones`` (a game's zones other than the battlefield where a static may apply, 「…で効果を発揮する」) adds the
    field ``zone``. ``also``: the game's own check of the whole ability, after the core's."""
    fields = [Field("name", Word(reserved=()), "static"),
              Field("affects", Alternatives((OneOf((THIS,)), affects)), THIS)]
    if zones:
        fields.append(Field("zone", OneOf(("battlefield", *zones)), "battlefield"))
    if condition is not None:
        fields.append(Field("condition", condition, None, "always"))
    fields.append(Field("grants", ListOf(grants), [], "none"))
    if rules is not None:
        fields.append(Field("rules", ListOf(rules), [], "none"))

    def something(value: dict, loc: Loc, ctx: Context) -> list[Problem]:
        if not value.get("grants") and not value.get("rules"):
            return [(loc, f"{label(loc)}: a static ability that grants nothing and changes no rule does nothing; "
                          f"write grants or rules")]
        return also(value, loc, ctx) if also is not None else []

    return Mapping(tuple(fields), also=something)


# -- reading a checked value -----------------------------------------------------------------------------------

def _one(item: Any) -> tuple[str, Any]:
    """``{kind: param}`` or a bare ``kind`` -> (kind, param)."""
    if isinstance(item, str):
        return item, None
    ((kind, param),) = item.items()
    return kind, param


def parse_triggered(params: dict[str, Any]) -> Triggered:
    """A checked ``triggered`` value as data (defaults filled in)."""
    when = params["when"]
    targets = tuple(Target(t["name"], t.get("filter"), t.get("count", 1)) for t in params.get("targets") or ())
    effects = []
    for e in params["effects"]:
        rest = {k: v for k, v in e.items() if k != "on"}
        on = e.get("on")
        for kind, param in rest.items():
            effects.append(Effect(kind, param, tuple(on) if isinstance(on, list) else on))
    return Triggered(name=params.get("name", "triggered"),
                     when=When(when["event"], when.get("watch", THIS), when.get("condition")),
                     optional=bool(params.get("optional", False)), condition=params.get("condition"),
                     cost=params.get("cost"), targets=targets, effects=tuple(effects))


def parse_static(params: dict[str, Any]) -> Static:
    """A checked ``static`` value as data (defaults filled in)."""
    return Static(name=params.get("name", "static"), affects=params.get("affects", THIS),
                  condition=params.get("condition"),
                  grants=tuple(_one(g) for g in params.get("grants") or ()),
                  rules=tuple(_one(r) for r in params.get("rules") or ()),
                  zone=params.get("zone", "battlefield"))


def compositions(abilities: Iterable[tuple[str, Any]],
                 shorthand: MappingType[str, Callable[[Any], Triggered]]) -> list[Triggered]:
    """A card's triggered abilities as compositions, in the order the card lists them: its ``triggered`` ones,
    and its named ones that are a game's shorthand (``shorthand[name](params)``)."""
    out: list[Triggered] = []
    for name, params in abilities:
        if name == "triggered":
            out.append(parse_triggered(params))
        elif name in shorthand:
            out.append(shorthand[name](params))
    return out


def watched(watch: str, card_controller: str, this_card: str, about: str, about_controller: str) -> bool:
    """Whether an event about card ``about`` (controlled by ``about_controller``) is one a trigger of
    ``this_card`` (controlled by ``card_controller``) watches."""
    if watch == THIS:
        return about == this_card
    if watch == "another_yours":
        return about != this_card and about_controller == card_controller
    if watch == "yours":
        return about_controller == card_controller
    if watch == "opponents":
        return about_controller != card_controller
    return True
