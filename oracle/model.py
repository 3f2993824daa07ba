"""Typed, frozen data at the boundaries: cases, catalogs, card pools, protocol messages, results.

Every file and message carries ``schema_version``. The models are pydantic v2 so that errors carry
locations and the JSON Schemas (``tcg-oracle schema case|protocol|results``) come from one place.
Game-specific meaning (zone names, ability names, event kinds, decision kinds) is checked by the game's
own vocabulary, looked up through :mod:`oracle.registry`; these models only fix the shape.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, Union

from pydantic import (
    AliasChoices,
    BaseModel,
    ConfigDict,
    Discriminator,
    Field,
    Tag,
    field_validator,
    model_validator,
)

from . import CONTRACT_VERSION

SCHEMA_VERSION = 1
PROTOCOL_VERSION = 2
PROTOCOL_VERSIONS: tuple[int, ...] = (1, 2)
"""The protocol versions the harness speaks: a version-1 engine is a ``trace``-level engine with reason codes."""

ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_.:\-]*$"
CLAUSE_PATTERN = r"^[a-z]+:[A-Za-z0-9_.\-]+$"

Status = Literal["pass", "fail", "error", "skip", "not_checkable"]
STATUSES: tuple[str, ...] = ("pass", "fail", "error", "skip", "not_checkable")
"""``not_checkable``: no expectation of the case can be checked at the engine's observation level."""

Level = Literal["final", "checkpoints", "steps", "trace"]
LEVELS: tuple[str, ...] = ("final", "checkpoints", "steps", "trace")
"""Observation levels, weakest first; each includes everything below it (protocol version 2)."""


class Frozen(BaseModel):
    """Base of every boundary model: immutable, and unknown fields are errors (typos are caught)."""

    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)


# --------------------------------------------------------------------------------------------
# Sources and assumptions


class SeedSource(Frozen):
    """A ruling quoted verbatim from one of the seed texts in ``shared/seeds`` (checked by a test)."""

    kind: Literal["seed"]
    document: str = Field(description="The document the seed quotes, e.g. イジンデンQ&A_240216")
    quote: str = Field(min_length=1, description="A verbatim substring of the seed file")
    seed: str | None = Field(default=None, description="Seed file name; defaults to the game's seed")


class ExternalSource(Frozen):
    """A ruling from a document that is not among the seeds: which document, which edition, where to find
    it (URL or page) and the quote."""

    kind: Literal["external"]
    document: str = Field(min_length=1)
    edition: str = Field(min_length=1)
    url: str | None = None
    page: str | None = None
    quote: str = Field(min_length=1)

    @model_validator(mode="after")
    def _where(self) -> "ExternalSource":
        if not (self.url or self.page):
            raise ValueError("an external source says where to find it: give url or page")
        return self


class GeneratedSource(Frozen):
    """A case written out by a generator (Hypothesis shrinking, fuzzing)."""

    kind: Literal["generated"]
    seed: int | str
    command: str
    date: str


Source = Annotated[Union[SeedSource, ExternalSource, GeneratedSource], Field(discriminator="kind")]


class Assumption(Frozen):
    """A documented reading where the source is silent or two texts meet."""

    id: str = Field(pattern=CLAUSE_PATTERN)
    reading: str = Field(description="The reading the reference engine follows")
    weighed: list[str] = Field(default_factory=list, description="The texts weighed, quoted")
    clauses: list[str] = Field(default_factory=list)
    sources: list[ExternalSource] = Field(
        default_factory=list, description="Texts outside the seed that settle the reading or part of it (official "
                                          "Q&A, card texts), each with document, edition, URL and verbatim quote")


# --------------------------------------------------------------------------------------------
# Clause catalog and card pool


class Document(Frozen):
    id: str
    title: str
    edition: str | None = None
    seed: str | None = Field(default=None, description="Seed file name when the document is a seed")
    url: str | None = None


class Ruleset(Frozen):
    """One edition of a game's rules; cases list the rulesets they hold for."""

    id: str = Field(pattern=ID_PATTERN)
    title: str
    documents: list[str] = Field(default_factory=list)
    default: bool = False


class Clause(Frozen):
    id: str = Field(pattern=CLAUSE_PATTERN)
    text: str = Field(min_length=1, description="The original text")
    summary: str = Field(min_length=1, description="English summary")
    document: str
    edition: str | None = None
    rulesets: list[str] = Field(default_factory=list, description="Editions the clause exists in; empty = all")
    testable: bool = True
    reason: str | None = Field(default=None, description="Why a clause is not scenario-testable")

    @model_validator(mode="after")
    def _untestable_needs_reason(self) -> "Clause":
        if not self.testable and not self.reason:
            raise ValueError("a clause marked testable: false needs a reason")
        return self


class Catalog(Frozen):
    """``cases/<game>/rules.yaml``."""

    schema_version: Literal[1] = SCHEMA_VERSION
    game: str
    documents: list[Document] = Field(default_factory=list)
    rulesets: list[Ruleset] = Field(min_length=1)
    clauses: list[Clause] = Field(min_length=1)
    assumptions: list[Assumption] = Field(default_factory=list)

    @model_validator(mode="after")
    def _one_default(self) -> "Catalog":
        defaults = [r.id for r in self.rulesets if r.default]
        if len(defaults) != 1:
            raise ValueError(f"exactly one ruleset must be default: true (found {defaults or 'none'})")
        return self

    @property
    def default_ruleset(self) -> str:
        return next(r.id for r in self.rulesets if r.default)

    def clause(self, clause_id: str) -> Clause | None:
        return next((c for c in self.clauses if c.id == clause_id), None)


AbilityRef = Union[str, dict[str, Any]]
"""An ability in the game's vocabulary: ``double_pressure`` or ``{attack_plus: 1000}``."""


class CardDef(Frozen):
    """One card of ``cases/<game>/cards.yaml``: its printed name and rules text, in engine vocabulary."""

    name: str = Field(min_length=1)
    synthetic: bool = False
    text: str | None = Field(default=None, description="Rules text as the source gives it")
    source: Source | None = None
    types: list[str] = Field(default_factory=list)
    subtypes: list[str] = Field(default_factory=list)
    cost: int | str | None = None
    level: int | None = Field(default=None, ge=0, description="Ijinden: the card's レベル")
    power: int | None = None
    toughness: int | None = None
    defense: int | None = None
    abilities: list[AbilityRef] = Field(default_factory=list)
    back: "CardDef | None" = Field(default=None, description="Back face of a double-faced card")
    props: dict[str, Any] = Field(default_factory=dict, description="Game-specific characteristics")


class CardPool(Frozen):
    schema_version: Literal[1] = SCHEMA_VERSION
    game: str
    cards: list[CardDef]


# --------------------------------------------------------------------------------------------
# Setups


class CardSetup(Frozen):
    """A card on the board at the start of a case, named by the case's own id."""

    id: str = Field(pattern=ID_PATTERN)
    card: str = Field(description="Name of a card in the game's card pool")
    owner: str | None = None
    controller: str | None = None
    level: int | None = Field(default=None, ge=0, description="Ijinden: the card's レベル (overrides the card pool's)")
    power: int | None = None
    toughness: int | None = None
    defense: int | None = None
    abilities: list[AbilityRef] = Field(default_factory=list, description="Added to the card's own")
    tapped: bool = Field(default=False, validation_alias=AliasChoices("tapped", "sleeping"))
    entered_this_turn: bool = False
    counters: dict[str, int] = Field(default_factory=dict)
    protector: str | None = None
    attached_to: str | None = None
    face: Literal["front", "back"] | None = None
    attacking: bool | str | None = Field(default=None, description="With a later setup.step: the card is attacking "
                                                              "(true, or what it attacks where the game names it)")
    blocking: str | None = Field(default=None, description="With a later setup.step: the attacker this card blocks")
    props: dict[str, Any] = Field(default_factory=dict, description="Game-specific state")


ZoneContent = Union[int, list[CardSetup]]
"""A zone is a list of cards, or a count of anonymous cards (a deck of 10)."""


class PlayerSetup(BaseModel):
    """A player: ``life`` and ``team`` plus any zones of the game, e.g. ``battlefield: [...]``."""

    model_config = ConfigDict(frozen=True, extra="allow")
    __pydantic_extra__: dict[str, ZoneContent] = Field(init=False)  # type: ignore[assignment]

    life: int | None = None
    team: str | None = None

    @property
    def zones(self) -> dict[str, ZoneContent]:
        return dict(self.__pydantic_extra__ or {})


class Setup(Frozen):
    active: str = Field(description="The player whose turn it is")
    turn: int = Field(default=1, ge=1)
    phase: str = "main"
    step: str | None = Field(default=None, description="Start at this later step of the turn (the game's "
                                                       "vocabulary lists the steps and what the setup holds)")
    players: dict[str, PlayerSetup] = Field(min_length=1, description="In turn order")
    props: dict[str, Any] = Field(default_factory=dict, description="Game-specific board state")

    @model_validator(mode="after")
    def _active_is_a_player(self) -> "Setup":
        if self.active not in self.players:
            raise ValueError(f"active player {self.active!r} is not one of the players {list(self.players)}")
        return self


# --------------------------------------------------------------------------------------------
# Scripts


class ScriptEntry(Frozen):
    """One entry of a case's script, as written: ``{alice: {declare_attackers: [a]}}`` or ``{bob: pass}``
    (the reference engines parse it into :class:`oracle.core.script.Decision`)."""

    player: str
    kind: str
    args: Any = None

    @model_validator(mode="before")
    @classmethod
    def _from_short_form(cls, data: Any) -> Any:
        if isinstance(data, dict) and "player" not in data:
            if len(data) != 1:
                raise ValueError(
                    "a decision is one mapping {player: {kind: args}}, e.g. {alice: {declare_attackers: [a]}}"
                )
            (player, body), = data.items()
            if isinstance(body, str):
                return {"player": player, "kind": body, "args": None}
            if isinstance(body, dict) and len(body) == 1:
                (kind, args), = body.items()
                return {"player": player, "kind": kind, "args": args}
            raise ValueError(
                f"decision of {player!r} must be a kind or one mapping {{kind: args}}, got {body!r}"
            )
        return data


# --------------------------------------------------------------------------------------------
# Expectations


class ExpectedEvent(Frozen):
    """One event pattern; compared on the fields written."""

    kind: str
    fields: dict[str, Any] = Field(default_factory=dict)

    @model_validator(mode="before")
    @classmethod
    def _from_short_form(cls, data: Any) -> Any:
        if isinstance(data, dict) and "kind" not in data:
            if len(data) != 1:
                raise ValueError("an event is one mapping {kind: fields}, e.g. {became_attacker: a}")
            (kind, body), = data.items()
            return {"kind": kind, "fields": body if isinstance(body, dict) else {"_primary": body}}
        if isinstance(data, str):
            return {"kind": data, "fields": {}}
        return data


class ExpectedMoment(Frozen):
    """Events that happen at one moment (simultaneously). ``match: equals`` (the default): the actual
    moment holds exactly these events; ``contains`` (written ``{contains: [ev, ...]}``): at least these."""

    events: list[ExpectedEvent] = Field(min_length=1)
    match: Literal["equals", "contains"] = "equals"

    @model_validator(mode="before")
    @classmethod
    def _from_short_form(cls, data: Any) -> Any:
        if isinstance(data, list):
            return {"events": data}
        if isinstance(data, dict) and set(data) == {"contains"}:
            return {"events": data["contains"], "match": "contains"}
        if isinstance(data, dict) and "events" not in data:
            return {"events": [data]}
        return data

    @property
    def contains(self) -> bool:
        return self.match == "contains"


class AbsentEvents(Frozen):
    """``{absent: [ev, ...]}`` inside ``expect.events``: none of these events happens between the
    neighbouring expected items (after the one before, before the one after)."""

    absent: list[ExpectedEvent] = Field(min_length=1)


class UnorderedGroup(Frozen):
    """``{unordered: [moment, moment, ...]}``: each moment matched once, in any order, after the previous
    expected item and before the next."""

    unordered: list[ExpectedMoment] = Field(min_length=2)


def _item_tag(data: Any) -> str:
    if isinstance(data, AbsentEvents):
        return "absent-item"
    if isinstance(data, UnorderedGroup):
        return "unordered-item"
    if isinstance(data, dict) and len(data) == 1:
        key = next(iter(data))
        if key in ("absent", "unordered"):
            return f"{key}-item"
    return "moment-item"


ExpectedItem = Annotated[
    Union[Annotated[ExpectedMoment, Tag("moment-item")], Annotated[AbsentEvents, Tag("absent-item")],
          Annotated[UnorderedGroup, Tag("unordered-item")]],
    Discriminator(_item_tag),
]
"""An item of ``expect.events``: a moment (equals or contains), an absence, or an unordered group."""


class StateCheck(Frozen):
    """``expect.after: [{decision: N, state: {players: ..., cards: ...}}]``: the observable state after
    decision N of the script (and what it caused, before the next decision); the projection is
    ``final``'s."""

    decision: int = Field(ge=0, description="Index (from 0) of the decision in the script")
    state: dict[str, Any] = Field(description="Projection: players.<p>.<zone|field>, cards.<id>.<field>")


class Rejection(Frozen):
    at: int = Field(ge=0, description="Index (from 0) of the refused decision in the script")
    reason: str


class Expect(Frozen):
    events: list[ExpectedItem] = Field(default_factory=list)
    exact: bool = False
    absent: list[ExpectedEvent] = Field(default_factory=list,
                                        description="Events that must happen nowhere in the trace")
    final: dict[str, Any] | None = Field(
        default=None, description="Projection of the end state: players.<p>.<zone|life>, cards.<id>.<field>"
    )
    winner: str | None = None
    rejected: list[Rejection] = Field(default_factory=list)
    after: list[StateCheck] = Field(default_factory=list, description="State checks after decision N")

    @field_validator("rejected", mode="before")
    @classmethod
    def _one_or_many(cls, v: Any) -> Any:
        return [v] if isinstance(v, dict) else v

    @property
    def asserts_winner(self) -> bool:
        return "winner" in self.model_fields_set

    def asserts_anything(self) -> bool:
        return bool(self.events or self.absent or self.final or self.rejected or self.after or self.asserts_winner)


class Case(Frozen):
    """A golden case (test262-style metadata + setup + script + expectations)."""

    schema_version: Literal[1] = SCHEMA_VERSION
    id: str = Field(pattern=ID_PATTERN)
    game: str
    rulesets: list[str] = Field(min_length=1)
    title: str = Field(min_length=1)
    source: Source
    rules: list[str] = Field(min_length=1, description="Clause ids exercised")
    features: list[str] = Field(default_factory=list, description="Free tags the suite chooses: matched by -k and "
                                "pytest keywords, shown in the report")
    assumptions: list[str] = Field(default_factory=list, description="Ids of catalog assumptions relied on")
    ambiguity: str | None = Field(default=None, description="Where the source is ambiguous, said so")
    setup: Setup
    script: list[ScriptEntry] = Field(default_factory=list)
    expect: Expect

    @field_validator("rules")
    @classmethod
    def _clause_ids(cls, v: list[str]) -> list[str]:
        import re

        for c in v:
            if not re.match(CLAUSE_PATTERN, c):
                raise ValueError(f"clause id {c!r} must look like game:ID, e.g. ijinden:A3")
        return v


# --------------------------------------------------------------------------------------------
# Protocol (engine <-> harness)


class EngineInfo(Frozen):
    name: str
    version: str = "0"
    level: Level | None = Field(
        default=None, description="In results only: the observation level the engine declared in its hello "
                                  "(`observation`); an engine leaves it out of its hello")
    reason_codes: bool | None = Field(
        default=None, description="In results only: whether the engine declared that its refusals carry the "
                                  "vocabulary's reason codes")
    contract_version: int | None = Field(
        default=None, description="In results only: the contract version the engine's hello declared")


class Hello(Frozen):
    type: Literal["hello"] = "hello"
    protocol_version: int = PROTOCOL_VERSION
    schema_version: int = SCHEMA_VERSION
    engine: EngineInfo
    games: list[str]
    contract_version: int | None = Field(
        default=None, description="Any protocol, optional: the version of tcg-oracle's contract (refusal codes, "
                                  "event and decision fields, abilities, rulesets: docs/contract.md) the engine "
                                  "was written against; the reference says `oracle.CONTRACT_VERSION`. Recorded in "
                                  "the results; an engine that declares an older one is told what changed since "
                                  "(CHANGELOG.md)")
    capabilities: list[str] = Field(
        default_factory=list,
        description="Optional protocol features: `legality` (answers legality queries), `legal_blocks` (counts "
                    "legal block declarations), `views` (reads a request's `views`), `pipeline` (reads one "
                    "request line at a time and answers in the order read: the harness then writes up to 8 "
                    "requests before reading their replies)")
    abilities: dict[str, list[str]] | None = Field(
        default=None,
        description="Per game, the abilities of the game's vocabulary this engine implements; a case whose "
                    "cards use any other is skipped (an engine grows feature by feature). A game left out, "
                    "or no `abilities` at all: every ability.")
    observation: Level = Field(
        default="trace",
        description="Protocol 2: what the engine reports, weakest first -- `final` (end state, winner, and "
                    "per script entry its outcome in `decisions`), `checkpoints` (+ the observable state after "
                    "each decision), `steps` (+ the events each decision caused, unordered), `trace` (+ events "
                    "in ordered moments). Each expectation is checked at the strongest level offered; one that "
                    "needs more is reported not checkable, never failed. Default (and protocol 1): `trace`.")
    reason_codes: bool = Field(
        default=True,
        description="Protocol 2: refusals carry the game vocabulary's reason codes. `false`: a refusal is "
                    "checked as refused, its reason is not checked. Default (and protocol 1): true.")
    events: dict[str, list[str]] | None = Field(
        default=None,
        description="Protocol 2: per game, the event kinds the engine reports; an expectation naming another "
                    "kind is not checkable (never a fail). A game left out, or no `events`: every kind.")

    @property
    def v1(self) -> bool:
        """Protocol 1: level trace with reason codes, and an entry absent from the trace was never reached
        (protocol 2: never asked, when later entries were)."""
        return self.protocol_version < 2


View = Literal["trace", "final", "decisions", "checkpoints", "steps"]
VIEWS: tuple[str, ...] = ("trace", "final", "decisions", "checkpoints", "steps")
"""The views of a reply (``final`` includes ``winner``), as a request's ``views`` names them."""


class CaseRequest(Frozen):
    """One case as an engine sees it: setup, script and the definitions of the cards used."""

    type: Literal["case"] = "case"
    schema_version: int = SCHEMA_VERSION
    id: str
    game: str
    ruleset: str
    setup: dict[str, Any]
    script: list[dict[str, Any]]
    cards: dict[str, dict[str, Any]] = Field(description="Card pool entries used by the setup, by name")
    views: list[View] | None = Field(
        default=None,
        description="Protocol 2, optional, sent only to an engine whose hello lists the capability `views`: the "
                    "views of the reply the harness reads for this case at the engine's level (`final` includes "
                    "`winner`). The engine may leave out any view not listed (e.g. skip computing `checkpoints`) "
                    "or send every view of its level. Absent: the harness may read every view of the engine's "
                    "level.")


class TraceEntry(Frozen):
    """One observable event. ``moment`` groups simultaneous events; ``clause`` is optional for engines
    under test (coverage comes from the reference engine)."""

    moment: int
    kind: str
    args: dict[str, Any] = Field(default_factory=dict)
    clause: str | None = None


Outcome = Literal["accepted", "refused", "automatic", "not_asked"]


class DecisionOutcome(Frozen):
    """What the engine did with one script entry (protocol 2)."""

    at: int = Field(ge=0, description="Index (from 0) of the script entry")
    outcome: Outcome = Field(
        description="`accepted`; `refused` (with `reason` when the engine declares `reason_codes`); "
                    "`automatic` -- the engine took this decision itself because it had exactly one legal "
                    "option (the script entry names that option; it counts as accepted); `not_asked` -- the "
                    "engine never asked for this decision (an attempt at a decision it took automatically)")
    reason: str | None = Field(default=None, description="The refusal's reason code (refused only)")


class Checkpoint(Frozen):
    """The observable state after one script entry: everything that entry caused, up to the engine asking
    for the next one (a refused entry's checkpoint equals the one before it)."""

    after: int = Field(ge=-1, description="Index of the script entry; -1: the state before the first one")
    state: dict[str, Any] = Field(description="Same shape as `final`: {players: ..., cards: ...}")


class StepEvent(Frozen):
    kind: str
    args: dict[str, Any] = Field(default_factory=dict)


class Step(Frozen):
    """The events one script entry caused, as an unordered bag (protocol 2, level `steps`)."""

    after: int = Field(ge=-1, description="Index of the script entry; -1: events before the first decision")
    events: list[StepEvent] = Field(default_factory=list)


class Asked(Frozen):
    """A decision the engine asked for that the script does not have (protocol: ``result.asked``)."""

    at: int = Field(description="The script index it would have been (the script's length: after its last entry)")
    player: str
    decisions: list[str] = Field(description="The decision kinds the engine asked for")


class CaseReply(Frozen):
    type: Literal["result"] = "result"
    id: str
    trace: list[TraceEntry] = Field(default_factory=list, description="Level `trace`: events in ordered moments")
    final: dict[str, Any] = Field(default_factory=dict)
    winner: str | None = None
    decisions: list[DecisionOutcome] | None = Field(
        default=None, description="Protocol 2 (every level): per script entry its outcome. Derived from the "
                                  "`trace` (decided / rejected events) when left out at level `trace`")
    checkpoints: list[Checkpoint] | None = Field(
        default=None, description="Protocol 2, level `checkpoints` and above: the observable state after "
                                  "each script entry")
    steps: list[Step] | None = Field(
        default=None, description="Protocol 2, level `steps`: the events each script entry caused, unordered. "
                                  "Derived from the `trace` when left out at level `trace`")
    error: str | None = Field(default=None, description="The engine could not run the case (not a rules answer)")
    skip: str | None = Field(default=None, description="The engine cannot be set up for this case (a card or a setup it has no way to express): the case is `skip` with this reason, not a rules answer")
    asked: Asked | None = Field(
        default=None, description="Any protocol, optional: the engine stopped because it asked for a decision "
                                  "the script does not have (after its last entry). When the reference plays the "
                                  "case through, the case fails (the engine decided differently from the rules); "
                                  "when it also needs that decision, the case's script is short (`error`). The "
                                  "reply may also carry `error` saying the same, for older harnesses")


class LegalityRequest(Frozen):
    """Capability `legality`: would the engine accept `decision` after playing `script` from `setup`?
    The harness asks this for a `rejected` expectation on an entry the engine took automatically or
    never asked for."""

    type: Literal["legality"] = "legality"
    schema_version: int = SCHEMA_VERSION
    id: str
    game: str
    ruleset: str
    setup: dict[str, Any]
    script: list[dict[str, Any]] = Field(description="Script entries 0..N-1, played first")
    cards: dict[str, dict[str, Any]] = Field(description="Card pool entries used by the setup, by name")
    decision: dict[str, Any] = Field(description="Script entry N: the decision asked about")


class LegalityReply(Frozen):
    type: Literal["legality"] = "legality"
    id: str
    accepted: bool = False
    reason: str | None = Field(default=None, description="The refusal's reason code (when not accepted)")
    error: str | None = Field(default=None, description="The engine could not answer (not a rules answer)")


class Bye(Frozen):
    """The harness is done: the engine exits (end of input means the same)."""

    type: Literal["bye"] = "bye"


# --------------------------------------------------------------------------------------------
# Optional capability ``legal_blocks`` (issue 12: the z3 agreement checks against any engine).
# Kept in its own block: an engine that lists "legal_blocks" in hello.capabilities answers these.


class LegalBlocksRequest(Frozen):
    """The board at the block step -- a case setup and the decisions up to the block (the attack) --
    asking how many block declarations are legal there."""

    type: Literal["legal_blocks"] = "legal_blocks"
    schema_version: int = SCHEMA_VERSION
    id: str
    game: str
    ruleset: str
    setup: dict[str, Any]
    script: list[dict[str, Any]] = Field(description="The decisions up to the block step: the attack")
    cards: dict[str, dict[str, Any]] = Field(description="Card pool entries used by the setup, by name")
    enumerate: bool = Field(default=False, description="Also list the legal declarations, not only count them")


class LegalBlocksReply(Frozen):
    type: Literal["legal_blocks"] = "legal_blocks"
    id: str
    count: int = Field(ge=0, description="How many legal block declarations (declaring no block is one)")
    divide: dict[str, int] | None = Field(
        default=None, description="Per attacker, in how many legal declarations it is blocked (perft's divide)")
    declarations: list[list[tuple[str, str]]] | None = Field(
        default=None, description="With enumerate: each legal declaration as [blocker, attacker] pairs")


# --------------------------------------------------------------------------------------------
# Results


class Unchecked(Frozen):
    """An expectation (or a part of one) that could not be checked at the engine's level."""

    what: str = Field(description="The expectation: `events[3]`, `rejected[0].reason`, `final`, ...")
    needs: str = Field(description="The level it needs (final | checkpoints | steps | trace), or the missing "
                                   "capability: `reason_codes`, `legality`, `events:KIND`")
    why: str


class Divergence(Frozen):
    """The first place where the engine under test parts from the expectation."""

    what: Literal["moment", "exact", "absent", "final", "after", "winner", "rejection", "order", "decision"]
    message: str
    index: int | None = Field(default=None, description="Index of the expected item")
    expected: Any = None
    actual: Any = None
    context: list[TraceEntry] = Field(default_factory=list, description="Trace around the divergence")


class CaseResult(Frozen):
    id: str
    game: str
    status: Status
    rules: list[str] = Field(default_factory=list)
    executed: list[str] = Field(default_factory=list)
    asserted: list[str] = Field(default_factory=list)
    duration: float = 0.0
    divergence: Divergence | None = None
    error: str | None = None
    skip_reason: str | None = None
    level: Level | None = Field(default=None, description="The engine's observation level for this case")
    unchecked: list[Unchecked] = Field(
        default_factory=list, description="What could not be checked at the engine's level (a `pass` or `fail` "
                                          "case: the rest was checked; `not_checkable`: all of it)")
    file: str | None = None
    line: int | None = None
    title: str | None = None
    ruleset: str | None = None
    engine: str | None = None
    trace: list[TraceEntry] | None = None
    trace_cut: int | None = Field(default=None, description="Entries of the engine's trace left out of `trace` "
                                                            "(only the first 2,000 are kept; all were compared)")
    case: dict[str, Any] | None = Field(default=None, description="The case as loaded, for reports")
    order: int | None = Field(default=None, description="Position of the case in the run's selection before "
                                                        "sharding; merge sorts by it")
    decisions: list[DecisionOutcome] | None = Field(
        default=None, description="An engine below level `trace`: its outcome of each script entry, as it reported "
                                  "them (at level `trace` the trace holds them)")
    holds_for: list[str] | None = Field(
        default=None, description="On a case skipped because it does not hold for the run's `ruleset`: the editions "
                                  "it holds for. `merge` drops such a skip when the case was played under another "
                                  "edition (one case, with its per-edition results)")


ALL_RULESETS = "all"
"""``--ruleset all``: each case under each edition it holds for (a result per case and edition)."""


class RunPart(Frozen):
    """One run a merged results file joins (an engine, or an engine under one edition): what the report needs
    to show it and reproduce it."""

    engine: EngineInfo
    ruleset: str | None = None
    suite_version: str
    command: str | None = None
    started: str
    finished: str | None = None
    partial: bool = False


class Results(Frozen):
    schema_version: Literal[1] = SCHEMA_VERSION
    contract_version: int = Field(default=CONTRACT_VERSION, description="The contract version of the tcg-oracle "
                                                                       "that wrote the file (`oracle.CONTRACT_VERSION`)")
    engine: EngineInfo
    ruleset: str | None = Field(default=None, description="The run's `--ruleset` (`all`: each case under each "
                                                          "edition it holds for; each case result names its own)")
    suite_version: str
    started: str
    finished: str | None = None
    partial: bool = False
    aborted: str | None = Field(default=None, description="Why the run stopped before its end (engine failure)")
    command: str | None = None
    cases: list[CaseResult] = Field(default_factory=list)
    summary: dict[str, int] = Field(default_factory=dict)
    parts: list[RunPart] = Field(
        default_factory=list, description="A merge of several engines or editions: each run joined, with its own "
                                          "engine version, edition and command (empty for one run or its shards)")

    @staticmethod
    def count(cases: list[CaseResult]) -> dict[str, int]:
        """One count per status; ``not_checkable`` is listed only when some case has it (results of
        trace-level engines read as before)."""
        out = {s: 0 for s in STATUSES}
        for c in cases:
            out[c.status] += 1
        if not out["not_checkable"]:
            del out["not_checkable"]
        return out


SCHEMAS: dict[str, Any] = {
    "case": Case,
    "catalog": Catalog,
    "cards": CardPool,
    "results": Results,
}


def json_schema(name: str) -> dict[str, Any]:
    """The JSON Schema of ``case``, ``catalog``, ``cards``, ``results`` or ``protocol``."""
    from pydantic import TypeAdapter

    if name == "protocol":
        adapter = TypeAdapter(Union[Hello, CaseRequest, CaseReply, LegalityRequest, LegalityReply, Bye,
                                    LegalBlocksRequest, LegalBlocksReply])
        schema = adapter.json_schema()
        schema["title"] = f"tcg-oracle protocol v{PROTOCOL_VERSION}"
        return schema
    try:
        model = SCHEMAS[name]
    except KeyError:
        raise KeyError(f"unknown schema {name!r}; choose one of {sorted([*SCHEMAS, 'protocol'])}") from None
    return model.model_json_schema()
