"""The grammar of an ability's parameters (DESIGN.md, "Card pool": "composable parts ... each checked when
loaded"), stated once for every game: a few frozen descriptions that each *check* a value written in a card
file (problems as ``(location, message)``, the loader's ``Problem``) and *render* the grammar the vocabulary
pages show (``AbilitySpec.params`` is that rendering), so what is documented is what is checked.

- :class:`Nothing` -- no parameter (the ability's name alone, or ``name: null``);
- :class:`Int` (with bounds), :class:`Bool`, :class:`OneOf`
  a literal (``you | opponent``), :class:`ListOf`;
- :class:`Mapping` -- fields, each :class:`Field` required or optional with its default; no other key;
- :class:`Alternatives` -- one of several shapes, told apart by the value's shape (``self | {filter}``);
- :class:`Keyed` -- a table of named parts, each with its own parameter (a game's effects:
  ``{power: -2000}``);
- :class:`AbilityName` -- an ability of the game (``gain: double_pressure``); :class:`Other` with
  :func:`params_of` -- the parameters of the ability another field names;
- :class:`Omittable` -- a parameter that may be left out, with what leaving it out means;
- :class:`Named` -- a sub-grammar named once (``FILTER``) and defined after the grammar that uses it;
  :class:`Noted` -- a grammar with a note after it.

Written by hand rather than as pydantic models: pydantic would check the values, but its union errors list
every branch ("Input should be a valid integer; Input should be a valid dictionary ...") and its models
carry no rendering as a grammar line (``{draw?: int >= 1 = 1, discard?: ...}``); here each description renders
itself in the vocabulary's own notation and each message names the field and the accepted forms.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping as MappingType

Loc = tuple[Any, ...]
Problem = tuple[Loc, str]
"""A located problem: the path inside the ability (``('legacy', 'target', 'types', 0)``) and its message."""


@dataclass(frozen=True, slots=True)
class Context:
    """What a check needs beyond the value: the game's abilities and their parameter grammars (for
    :class:`AbilityName` and for a field whose grammar is another ability's)."""

    game: str
    abilities: MappingType[str, "Param"] = field(default_factory=dict)


def label(loc: Loc) -> str:
    """``('legacy', 'target', 'types', 0)`` -> ``legacy.target.types[0]``: the field a message names."""
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else ("." if out else "") + str(part)
    return out


def shown(value: Any) -> str:
    """A value as a card file writes it (YAML-ish): ``null``, ``true``, ``'haikei'``."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    return repr(value)


def plain(value: Any) -> str:
    """A value as a grammar line writes it, YAML's flow style unquoted: ``{count: 1, player: you}``."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {plain(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(plain(v) for v in value) + "]"
    return value if isinstance(value, str) else shown(value)


class Param:
    """A parameter grammar. ``check`` returns the problems of ``value`` at ``loc`` (empty: accepted);
    ``grammar`` is its one-line rendering; ``fits`` says whether the value has this grammar's shape (how
    :class:`Alternatives` chooses the one to check against); ``sample`` is one accepted value."""

    def check(self, value: Any, loc: Loc, ctx: Context) -> list[Problem]:
        raise NotImplementedError

    def grammar(self) -> str:
        raise NotImplementedError

    def fits(self, value: Any) -> bool:
        raise NotImplementedError

    def sample(self, ctx: Context) -> Any:
        raise NotImplementedError

    def named(self) -> list["Named"]:
        """The named sub-grammars used inside (defined after the grammar by :func:`render`)."""
        return []

    def expected(self, value: Any, loc: Loc) -> list[Problem]:
        return [(loc, f"{label(loc)}: expected {self.grammar() or 'no parameter'}, got {shown(value)}")]


def render(p: Param) -> str:
    """The whole grammar: ``p``'s line, then ``NAME = definition`` for each named sub-grammar, once."""
    return p.grammar() + definitions(p.named()) + (f"; {p.note}" if isinstance(p, Noted) else "")


def definitions(named: list["Named"]) -> str:
    """``; NAME = definition`` for each of these named sub-grammars and those inside them, once each."""
    out, seen, todo = "", set(), list(named)
    while todo:
        n = todo.pop(0)
        if n.name in seen:
            continue
        seen.add(n.name)
        out += f"; {n.name} = {n.inner.grammar()}"
        todo += n.inner.named()
    return out


@dataclass(frozen=True, slots=True)
class Nothing(Param):
    """No parameter: the ability's name alone (``flying``) or ``name: null``."""

    def check(self, value, loc, ctx):
        if value is None:
            return []
        return [(loc, f"{label(loc)} takes no parameter (write the name alone), got {shown(value)}")]

    def grammar(self):
        return ""

    def fits(self, value):
        return value is None

    def sample(self, ctx):
        return None


@dataclass(frozen=True, slots=True)
class Int(Param):
    """An integer (not a boolean), ``minimum`` and ``maximum`` included when given."""

    minimum: int | None = None
    maximum: int | None = None

    def check(self, value, loc, ctx):
        if not self.fits(value):
            return self.expected(value, loc)
        if (self.minimum is not None and value < self.minimum) or (self.maximum is not None and value > self.maximum):
            return [(loc, f"{label(loc)}: expected {self.grammar()}, got {value}")]
        return []

    def grammar(self):
        low, high = self.minimum, self.maximum
        if low is not None and high is not None:
            return f"int {low}..{high}"
        return "int" + (f" >= {low}" if low is not None else "") + (f" <= {high}" if high is not None else "")

    def fits(self, value):
        return isinstance(value, int) and not isinstance(value, bool)

    def sample(self, ctx):
        return self.minimum if self.minimum is not None else 1000 if self.maximum is None else self.maximum


@dataclass(frozen=True, slots=True)
class Bool(Param):
    def check(self, value, loc, ctx):
        return [] if self.fits(value) else self.expected(value, loc)

    def grammar(self):
        return "bool"

    def fits(self, value):
        return isinstance(value, bool)

    def sample(self, ctx):
        return True


@dataclass(frozen=True, slots=True)
class OneOf(Param):
    """One of these literal words: ``you | opponent``."""

    values: tuple[str, ...]

    def check(self, value, loc, ctx):
        if isinstance(value, str) and value in self.values:
            return []
        return [(loc, f"{label(loc)}: {shown(value)} is not one of {self.grammar()}")]

    def grammar(self):
        return " | ".join(self.values)

    def fits(self, value):
        return isinstance(value, str)

    def sample(self, ctx):
        return self.values[0]


@dataclass(frozen=True, slots=True)
class ListOf(Param):
    """A list of ``item``, at least ``min_items`` long."""

    item: Param
    min_items: int = 0

    def check(self, value, loc, ctx):
        if not isinstance(value, list):
            return self.expected(value, loc)
        if len(value) < self.min_items:
            return [(loc, f"{label(loc)}: expected {self.grammar()} with at least {self.min_items} item(s), "
                          f"got {len(value)}")]
        return [p for i, v in enumerate(value) for p in self.item.check(v, loc + (i,), ctx)]

    def grammar(self):
        return f"[{self.item.grammar()}, ...]"

    def fits(self, value):
        return isinstance(value, list)

    def sample(self, ctx):
        return [self.item.sample(ctx)] * max(1, self.min_items)

    def named(self):
        return self.item.named()


REQUIRED = object()
"""The default of a :class:`Field` that must be written."""


@dataclass(frozen=True, slots=True)
class Field:
    """A field of a :class:`Mapping`: required, or optional with ``default`` (what the engine does when it is
    left out; ``meaning`` says it in words when it is no value, e.g. "any type")."""

    name: str
    param: Param
    default: Any = REQUIRED
    meaning: str = ""

    @property
    def required(self) -> bool:
        return self.default is REQUIRED

    def grammar(self) -> str:
        if self.required:
            return f"{self.name}: {self.param.grammar()}"
        dflt = self.meaning or plain(self.default)
        return f"{self.name}?: {self.param.grammar()} = {dflt}"


@dataclass(frozen=True, slots=True)
class Mapping(Param):
    """A mapping of these fields and no other; ``also`` checks what one field says of another (an ability
    named by one field, its parameters given by another)."""

    fields: tuple[Field, ...]
    also: Callable[[dict, Loc, Context], list[Problem]] | None = None

    def check(self, value, loc, ctx):
        if not isinstance(value, dict):
            return [(loc, f"{label(loc)}: expected a mapping {self.grammar()}, got {shown(value)}")]
        known = {f.name: f for f in self.fields}
        out: list[Problem] = []
        for key in value:
            if key not in known:
                out.append((loc + (key,), f"{label(loc)}: unknown field {shown(key)}; the fields are "
                                          f"{self.grammar()}"))
        for f in self.fields:
            if f.name in value:
                out += f.param.check(value[f.name], loc + (f.name,), ctx)
            elif f.required:
                out.append((loc, f"{label(loc)}: missing field {f.name!r} ({self.grammar()})"))
        if not out and self.also is not None:
            out += self.also(value, loc, ctx)
        return out

    def grammar(self):
        return "{" + ", ".join(f.grammar() for f in self.fields) + "}"

    def fits(self, value):
        return isinstance(value, dict)

    def sample(self, ctx):
        return {f.name: f.param.sample(ctx) for f in self.fields if f.required}

    def named(self):
        return [n for f in self.fields for n in f.param.named()]


@dataclass(frozen=True, slots=True)
class Alternatives(Param):
    """One of several grammars, told apart by the value's shape (a word, a mapping, a list ...): the value
    is checked against the ones of its shape; of none, the message lists every form."""

    options: tuple[Param, ...]

    def check(self, value, loc, ctx):
        fitting = [o for o in self.options if o.fits(value)]
        if not fitting:
            return self.expected(value, loc)
        first: list[Problem] | None = None
        for o in fitting:
            problems = o.check(value, loc, ctx)
            if not problems:
                return []
            first = problems if first is None else first
        assert first is not None
        return first

    def grammar(self):
        return " | ".join(o.grammar() or "null" for o in self.options)

    def fits(self, value):
        return any(o.fits(value) for o in self.options)

    def sample(self, ctx):
        return self.options[-1].sample(ctx)

    def named(self):
        return [n for o in self.options for n in o.named()]


@dataclass(frozen=True, slots=True)
class Omittable(Param):
    """A parameter that may be left out (the ability's name alone, or ``null``), meaning ``default`` (the value
    the engine then uses: ``1``; None where no value says it) or, in words, ``meaning`` (``any civilization``)."""

    inner: Param
    default: Any = None
    meaning: str = ""

    def check(self, value, loc, ctx):
        return [] if value is None else self.inner.check(value, loc, ctx)

    def grammar(self):
        return f"{self.inner.grammar()} (omitted: {self.meaning or plain(self.default)})"

    def fits(self, value):
        return value is None or self.inner.fits(value)

    def sample(self, ctx):
        return self.inner.sample(ctx)

    def named(self):
        return self.inner.named()


@dataclass(frozen=True, slots=True)
class Named(Param):
    """``inner``, written as ``name`` where it is used and defined once after the grammar (:func:`render`)."""

    name: str
    inner: Param

    def check(self, value, loc, ctx):
        return self.inner.check(value, loc, ctx)

    def grammar(self):
        return self.name

    def fits(self, value):
        return self.inner.fits(value)

    def sample(self, ctx):
        return self.inner.sample(ctx)

    def named(self):
        return [self]


@dataclass(frozen=True, slots=True)
class Wrapped(Param):
    """``inner`` with something added: checks, renders, fits, samples and names as ``inner`` does; a subclass
    overrides what it adds to."""

    inner: Param

    def check(self, value, loc, ctx):
        return self.inner.check(value, loc, ctx)

    def grammar(self):
        return self.inner.grammar()

    def fits(self, value):
        return self.inner.fits(value)

    def sample(self, ctx):
        return self.inner.sample(ctx)

    def named(self):
        return self.inner.named()


@dataclass(frozen=True, slots=True)
class Noted(Wrapped):
    """``inner``, with what its grammar line cannot say (a default that depends on where it is used), written
    after the grammar by :func:`render`."""

    note: str = ""


@dataclass(frozen=True, slots=True)
class Other(Param):
    """A field whose grammar another field decides (``params`` of the ability named by ``ability``): anything
    here, checked by its :class:`Mapping`'s ``also``; ``what`` names it in the grammar."""

    what: str

    def check(self, value, loc, ctx):
        return []

    def grammar(self):
        return self.what

    def fits(self, value):
        return True

    def sample(self, ctx):
        return None


def params_of(ability_field: str, params_field: str) -> Callable[[dict, Loc, Context], list[Problem]]:
    """A :class:`Mapping` ``also``: the value of ``params_field`` is checked with the grammar of the ability
    that ``ability_field`` names (an ability granted with its parameters)."""
    def check(value: dict, loc: Loc, ctx: Context) -> list[Problem]:
        grammar = ctx.abilities.get(value.get(ability_field))
        return [] if grammar is None else grammar.check(value.get(params_field), loc + (params_field,), ctx)
    return check


@dataclass(frozen=True, slots=True)
class AbilityName(Param):
    """The name of an ability of the game (:attr:`Context.abilities`); ``bare``: one that takes no parameter or
    may leave it out (it is gained with none)."""

    bare: bool = False

    def check(self, value, loc, ctx):
        if not isinstance(value, str):
            return self.expected(value, loc)
        if value not in ctx.abilities:
            return [(loc, f"{label(loc)}: {shown(value)} is not an ability of {ctx.game}; see its ability "
                          f"vocabulary")]
        if self.bare and ctx.abilities[value].check(None, loc, ctx):
            return [(loc, f"{label(loc)}: {value!r} needs a parameter ({ctx.abilities[value].grammar()}), but "
                          f"an ability gained here has none; name one that takes no parameter")]
        return []

    def grammar(self):
        return "ability"

    def fits(self, value):
        return isinstance(value, str)

    def sample(self, ctx):
        return next((n for n, p in ctx.abilities.items() if not p.check(None, (), ctx)), "")


def article(word: str) -> str:
    return "an" if word[:1].lower() in "aeiou" else "a"


@dataclass(frozen=True, slots=True)
class Keyed(Param):
    """A table of named parts, each with its own parameter: a game's effects. Written ``{name: param}``
    (``{name}`` / ``{name: null}`` for one with none); ``bare``: also the name alone; ``several``: a mapping
    may hold several, done in order; ``listed``: also a list of them, done in order. ``kind`` and ``owner``
    name the table in messages ("effect 'mana_charge' is not an Ijinden effect")."""

    kind: str
    owner: str
    parts: tuple[tuple[str, Param], ...]
    bare: bool = False
    several: bool = False
    listed: bool = False

    def _table(self) -> dict[str, Param]:
        return dict(self.parts)

    def _forms(self) -> str:
        return ", ".join(n if not p.grammar() else f"{n}: {p.grammar()}" for n, p in self.parts)

    def check(self, value, loc, ctx):
        if self.listed and isinstance(value, list):
            if not value:
                return [(loc, f"{label(loc)}: an empty list does nothing; write one or more {self.kind}s")]
            return [p for i, v in enumerate(value) for p in self._one(v, loc + (i,), ctx)]
        return self._one(value, loc, ctx)

    def _one(self, value, loc, ctx) -> list[Problem]:
        table = self._table()
        if self.bare and isinstance(value, str):
            return self._part(value, None, loc, loc, ctx, table)
        if not isinstance(value, dict) or not value:
            return [(loc, f"{label(loc)}: expected {article(self.kind)} {self.kind}, {self.grammar()}; got "
                          f"{shown(value)}")]
        if len(value) > 1 and not self.several:
            return [(loc, f"{label(loc)}: one {self.kind} per mapping, got {len(value)} ({', '.join(map(str, value))})")]
        return [p for name, param in value.items() for p in self._part(name, param, loc, loc + (name,), ctx, table)]

    def _part(self, name, param, at, inner, ctx, table) -> list[Problem]:
        if name not in table:
            return [(at, f"{label(at)}: {self.kind} {shown(name)} is not {article(self.owner)} {self.owner} "
                         f"{self.kind}; the {self.kind}s are {self._forms()}{definitions(self.named())}")]
        return table[name].check(param, inner, ctx)

    def grammar(self):
        forms = " | ".join(n if not p.grammar() else f"{n}: {p.grammar()}" for n, p in self.parts)
        one = forms if self.bare else "{" + forms + "}"
        if self.several or self.listed:
            more = " or ".join(x for x, on in (("a mapping of several", self.several),
                                                ("a list of them, done in order", self.listed)) if on)
            return f"{one} (one, {more})"
        return one

    def fits(self, value):
        return isinstance(value, dict) or (self.bare and isinstance(value, str)) or (self.listed and isinstance(value, list))

    def sample(self, ctx):
        name, p = self.parts[0]
        return {name: p.sample(ctx)}

    def named(self):
        return [n for _, p in self.parts for n in p.named()]
