"""YAML -> models. Every error names the file, the line, the case id and the field.

YAML is read with PyYAML's C safe loader when available (the pure-Python safe loader otherwise); the
composed node tree keeps line marks, so a pydantic error location (``setup.players.alice.battlefield.0``)
is turned back into the line it came from. A broken case costs that case only: the loader returns the
good cases and the errors side by side.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, Iterable

import yaml
from pydantic import ValidationError

from . import paths, registry
from .core.errors import CaseFileError
from .model import AbsentEvents, CardDef, CardPool, Case, Catalog, ExpectedMoment
from .yamlfile import YamlSyntaxError, compose

CATALOG_FILE = "rules.yaml"
CARDS_FILE = "cards.yaml"
NOT_CASES = {CATALOG_FILE, CARDS_FILE}


@dataclass(frozen=True)
class LoadedCase:
    case: Case
    path: str
    line: int


@dataclass
class Suite:
    cases: list[LoadedCase] = field(default_factory=list)
    errors: list[CaseFileError] = field(default_factory=list)


# --------------------------------------------------------------------------------------------
# YAML with line numbers


def _compose(text: str, path: str) -> tuple[Any, yaml.Node | None]:
    try:
        return compose(text)
    except YamlSyntaxError as exc:
        raise CaseFileError(path, exc.message, line=exc.line) from None


def _line_of(node: yaml.Node | None, loc: Iterable[Any]) -> int | None:
    """The line of the deepest node along ``loc`` (1-based)."""
    line = node.start_mark.line + 1 if node is not None else None
    for part in loc:
        if isinstance(node, yaml.MappingNode):
            nxt = None
            for k, v in node.value:
                if k.value == str(part):
                    nxt = v
                    line = k.start_mark.line + 1
                    break
            if nxt is None:
                return line
            node = nxt
        elif isinstance(node, yaml.SequenceNode) and isinstance(part, int) and part < len(node.value):
            node = node.value[part]
            line = node.start_mark.line + 1
        else:
            return line
    return line


def _field(loc: Iterable[Any]) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out


# Tags pydantic puts in locations for unions and short forms; not fields of the file.
_UNION_TAGS = re.compile(r"^(seed|external|generated|int|list\[.*\]|str|dict\[.*\]|function-.*|[a-z]+-item)$")


def _clean_loc(loc: tuple[Any, ...]) -> tuple[Any, ...]:
    loc = tuple(p for p in loc if not (isinstance(p, str) and _UNION_TAGS.match(p)))
    # a moment's short form (a list, or one event) is wrapped as {events: [...]}: not a field of the file
    if loc[:2] == ("expect", "events") and len(loc) > 3 and isinstance(loc[2], int) and loc[3] == "events":
        loc = loc[:3] + loc[4:]
    # likewise each moment of an unordered group
    if loc[:2] == ("expect", "events") and len(loc) > 5 and loc[3] == "unordered" and loc[5] == "events":
        loc = loc[:5] + loc[6:]
    return loc


def _validation_errors(exc: ValidationError, path: str, node: yaml.Node | None, case_id: str | None,
                       prefix: tuple[Any, ...] = ()) -> list[CaseFileError]:
    out = []
    for err in exc.errors():
        loc = _clean_loc(tuple(err["loc"]))
        msg = err["msg"]
        if err["type"] == "extra_forbidden":
            msg = "unknown field (check its spelling against `tcg-oracle schema case`)"
        out.append(CaseFileError(path, msg, line=_line_of(node, loc), case_id=case_id,
                                 field=_field(prefix + loc) or None))
    return out


# --------------------------------------------------------------------------------------------
# Catalog and card pool


def game_dir(game: str, root: Path | None = None) -> Path:
    return (root or paths.cases_dir()) / game


def _load_model(path: Path, model: type, what: str):
    text = path.read_text(encoding="utf-8")
    data, node = _compose(text, str(path))
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        errors = _validation_errors(exc, str(path), node, None)
        raise CaseFileError(str(path), f"invalid {what}: " + "; ".join(
            f"line {e.line} field {e.field}: {e.message}" for e in errors), line=errors[0].line) from None


@cache
def load_catalog(game: str, root: Path | None = None) -> Catalog:
    """``cases/<game>/rules.yaml``."""
    return _load_model(game_dir(game, root) / CATALOG_FILE, Catalog, "clause catalog")


@cache
def load_cards(game: str, root: Path | None = None) -> dict[str, CardDef]:
    """``cases/<game>/cards.yaml``, by card name."""
    path = game_dir(game, root) / CARDS_FILE
    pool: CardPool = _load_model(path, CardPool, "card pool")
    out: dict[str, CardDef] = {}
    for card in pool.cards:
        if card.name in out:
            raise CaseFileError(str(path), f"card {card.name!r} is defined twice", field="cards")
        out[card.name] = card
    return out


# --------------------------------------------------------------------------------------------
# Cases


def load_case_file(path: Path, *, root: Path | None = None) -> Suite:
    """Every case of one file; the invalid ones as errors."""
    suite = Suite()
    spath = str(path)
    try:
        data, node = _compose(path.read_text(encoding="utf-8"), spath)
    except CaseFileError as exc:
        suite.errors.append(exc)
        return suite
    except (OSError, UnicodeDecodeError) as exc:
        suite.errors.append(CaseFileError(spath, f"cannot read: {exc}"))
        return suite
    if data is None:
        suite.errors.append(CaseFileError(spath, "the file holds no case"))
        return suite
    items = data if isinstance(data, list) else [data]
    nodes = node.value if isinstance(node, yaml.SequenceNode) else [node]
    for raw, n in zip(items, nodes):
        line = n.start_mark.line + 1
        case_id = raw.get("id") if isinstance(raw, dict) else None
        if not isinstance(raw, dict):
            suite.errors.append(CaseFileError(spath, "a case must be a mapping", line=line))
            continue
        try:
            case = Case.model_validate(raw)
        except ValidationError as exc:
            suite.errors.extend(_validation_errors(exc, spath, n, case_id))
            continue
        problems = check_case(case, root=root)
        if problems:
            suite.errors.extend(
                CaseFileError(spath, msg, line=_line_of(n, loc), case_id=case.id, field=_field(loc))
                for loc, msg in problems
            )
            continue
        suite.cases.append(LoadedCase(case, spath, line))
    return suite


def case_files(paths_: Iterable[Path]) -> list[Path]:
    """YAML case files under the given files or folders, sorted; catalogs and card pools excluded."""
    out: list[Path] = []
    for p in paths_:
        if p.is_dir():
            out.extend(f for f in sorted(p.rglob("*.y*ml")) if f.name not in NOT_CASES)
        elif p.name not in NOT_CASES:
            out.append(p)
    seen: set[Path] = set()  # a file named twice (a folder and a file in it) is one file, loaded once
    return [f for f in out if not (f.resolve() in seen or seen.add(f.resolve()))]


def load_suite(paths_: Iterable[Path] | None = None, *, games: Iterable[str] | None = None,
               root: Path | None = None) -> Suite:
    """Load cases from paths (default: every registered game's folder); duplicate ids are errors."""
    wanted = list(games) if games else registry.names()
    if paths_ is None:
        paths_ = [game_dir(g, root) for g in wanted if game_dir(g, root).is_dir()]
    suite = Suite()
    seen: dict[str, LoadedCase] = {}
    for f in case_files(list(paths_)):
        if not f.exists():
            suite.errors.append(CaseFileError(str(f), "no such file"))
            continue
        part = load_case_file(f, root=root)
        for lc in part.cases:
            if games and lc.case.game not in wanted:
                continue
            if lc.case.id in seen:
                first = seen[lc.case.id]
                suite.errors.append(CaseFileError(lc.path, f"duplicate case id (first at {first.path}:{first.line})",
                                                  line=lc.line, case_id=lc.case.id, field="id"))
                continue
            seen[lc.case.id] = lc
            suite.cases.append(lc)
        suite.errors.extend(part.errors)
    return suite


# --------------------------------------------------------------------------------------------
# Semantic checks against the game's catalog, card pool and vocabulary

Problem = tuple[tuple[Any, ...], str]


def check_case(case: Case, *, root: Path | None = None) -> list[Problem]:
    """What pydantic cannot know: clause ids, cards, zones, decisions, events, reasons of the game."""
    problems: list[Problem] = []
    try:
        game = registry.get(case.game)
    except KeyError as exc:
        return [(("game",), str(exc.args[0]))]
    try:
        catalog = load_catalog(case.game, root)
        pool = load_cards(case.game, root)
    except (CaseFileError, OSError) as exc:
        return [(("game",), f"the game's catalog or card pool cannot be loaded: {exc}")]
    voc = game.vocabulary
    rulesets = {r.id for r in catalog.rulesets}
    for i, r in enumerate(case.rulesets):
        if r not in rulesets:
            problems.append((("rulesets", i), f"unknown ruleset {r!r}; the game's rulesets are {sorted(rulesets)}"))
    clause_ids = {c.id for c in catalog.clauses}
    for i, c in enumerate(case.rules):
        if c not in clause_ids:
            problems.append((("rules", i), f"unknown clause id {c!r} (not in cases/{case.game}/rules.yaml)"))
    assumption_ids = {a.id for a in catalog.assumptions}
    for i, a in enumerate(case.assumptions):
        if a not in assumption_ids:
            problems.append((("assumptions", i), f"unknown assumption {a!r} (list it in the catalog's assumptions)"))

    players = set(case.setup.players)
    low, high = voc.players
    if len(players) < low or (high is not None and len(players) > high):
        many = f"{low}" if low == high else f"{low} or more" if high is None else f"{low} to {high}"
        problems.append((("setup", "players"), f"{case.game} is played by {many} players; the setup has {len(players)}"))
    card_ids: set[str] = set()
    for pid, p in case.setup.players.items():
        for zone, content in p.zones.items():
            loc = ("setup", "players", pid, zone)
            if zone not in voc.zones:
                problems.append((loc, f"unknown zone {zone!r}; {case.game} zones are {list(voc.zones)}"))
                continue
            if isinstance(content, int):
                card_ids.update(f"{pid}.{zone}.{n}" for n in range(1, content + 1))
                continue
            for j, cs in enumerate(content):
                if cs.id in card_ids:
                    problems.append((loc + (j, "id"), f"card id {cs.id!r} is used twice"))
                card_ids.add(cs.id)
                if cs.card not in pool:
                    problems.append((loc + (j, "card"), f"unknown card {cs.card!r} (not in cases/{case.game}/cards.yaml)"))
                for who in ("owner", "controller", "protector"):
                    v = getattr(cs, who)
                    if v is not None and v not in players:
                        problems.append((loc + (j, who), f"{who} {v!r} is not a player"))
                problems.extend(_check_abilities(cs.abilities, voc, loc + (j, "abilities")))

    for i, d in enumerate(case.script):
        if d.player not in players:
            problems.append((("script", i), f"decision by {d.player!r}, who is not a player"))
        if d.kind not in voc.decisions:
            problems.append((("script", i), f"unknown decision {d.kind!r}; {case.game} decisions are {sorted(voc.decisions)}"))
        elif voc.decisions[d.kind].args == "null" and d.args is not None:
            # e.g. {alice: {pass: declare_blockers}}: a pass is one pass; later ones are implied where the game says so
            problems.append((("script", i), f"{d.kind} takes no argument (write {{{d.player}: {d.kind}}}); "
                             f"got {d.args!r}" + (f". {voc.decisions[d.kind].doc}" if d.kind == "pass" else "")))

    ex = case.expect
    if ex.exact and not ex.events:
        problems.append((("expect", "exact"), "exact: true compares the whole trace: write its moments under events"))
    if not ex.asserts_anything():
        problems.append((("expect",), "the case asserts nothing: give events, final, winner or rejected"))
    problems.extend(_check_items(ex, voc))
    for i, ev in enumerate(ex.absent):
        problems.extend(_check_event(ev.kind, ev.fields, voc, ("expect", "absent", i)))
    for i, check in enumerate(ex.after):
        loc = ("expect", "after", i)
        if check.decision >= len(case.script):
            problems.append((loc + ("decision",), f"decision {check.decision} does not exist (the script has "
                                                  f"{len(case.script)}: give an index from 0 to {len(case.script) - 1})"))
        problems.extend(_check_final(check.state, voc, players, card_ids, loc + ("state",), "a state check"))
    problems.extend(_check_step(case.setup, voc))
    if getattr(game, "setup_problems", None) is not None:
        problems.extend(game.setup_problems(case.setup))
    for i, r in enumerate(ex.rejected):
        if r.reason not in voc.reasons:
            problems.append((("expect", "rejected", i, "reason"), f"unknown reason {r.reason!r}; {case.game} reasons are {sorted(voc.reasons)}"))
        if r.at >= len(case.script):
            problems.append((("expect", "rejected", i, "at"), f"decision {r.at} does not exist (the script has {len(case.script)})"))
    if ex.winner is not None and ex.winner not in players:
        problems.append((("expect", "winner"), f"winner {ex.winner!r} is not a player"))
    if ex.final:
        problems.extend(_check_final(ex.final, voc, players, card_ids, ("expect", "final"), "final"))
    return problems


def _check_abilities(refs: list[Any], voc, loc: tuple[Any, ...]) -> list[Problem]:
    out = []
    for k, ref in enumerate(refs):
        if isinstance(ref, dict) and len(ref) != 1:
            out.append((loc + (k,), "an ability is a name or one mapping {name: params}"))
            continue
        name = ref if isinstance(ref, str) else next(iter(ref))
        if name not in voc.abilities:
            out.append((loc + (k,), f"unknown ability {name!r}; see the README's {voc.game} ability vocabulary"))
    return out


def _check_event(kind: str, fields: dict[str, Any], voc, loc: tuple[Any, ...]) -> list[Problem]:
    spec = voc.events.get(kind)
    if spec is None:
        return [(loc, f"unknown event {kind!r}; {voc.game} events are {sorted(voc.events)}")]
    out = []
    for f in fields:
        if f == "_primary":
            if spec.primary is None:
                out.append((loc, f"event {kind!r} has no short form; write its fields {list(spec.fields)}"))
        elif f not in spec.fields:
            out.append((loc + (kind,), f"event {kind!r} has no field {f!r}; its fields are {list(spec.fields)}"))
    return out


def _check_items(ex, voc) -> list[Problem]:
    """The items of ``expect.events``: their events in the vocabulary, and each kind of item where it
    means something (an absence between two expected moments; no contains, absence or group with
    ``exact: true``, which compares every moment whole)."""
    out: list[Problem] = []
    n = len(ex.events)
    for i, item in enumerate(ex.events):
        loc = ("expect", "events", i)
        if isinstance(item, ExpectedMoment):
            sub = loc + ("contains",) if item.contains else loc
            for j, ev in enumerate(item.events):
                out.extend(_check_event(ev.kind, ev.fields, voc, sub + (j,)))
            if item.contains and ex.exact:
                out.append((loc, "contains matches part of a moment, but exact: true compares every moment whole; "
                                 "list the whole moment, or drop exact"))
        elif isinstance(item, AbsentEvents):
            for j, ev in enumerate(item.absent):
                out.extend(_check_event(ev.kind, ev.fields, voc, loc + ("absent", j)))
            if ex.exact:
                out.append((loc, "an absence inside exact: true means nothing (the whole trace is listed); drop it"))
            elif i == 0 or i == n - 1:
                where = "first" if i == 0 else "last"
                out.append((loc, f"an absence is checked between the expected items around it, and this one is "
                                 f"{where}; for \"nowhere in the trace\" write it under expect.absent"))
            elif isinstance(ex.events[i - 1], AbsentEvents):
                out.append((loc, "two absences in a row: write their events in one {absent: [...]}"))
        else:
            if ex.exact:
                out.append((loc, "an unordered group inside exact: true: list the moments in the order they happen"))
            for k, m in enumerate(item.unordered):
                sub = loc + ("unordered", k) + (("contains",) if m.contains else ())
                for j, ev in enumerate(m.events):
                    out.extend(_check_event(ev.kind, ev.fields, voc, sub + (j,)))
    return out


def _check_step(setup, voc) -> list[Problem]:
    """``setup.step``: one of the later steps the game's vocabulary lets a case start at."""
    if setup.step is None:
        return []
    if setup.step not in voc.steps:
        allowed = sorted(voc.steps) or "none (every case starts at the turn's beginning)"
        return [(("setup", "step"), f"unknown step {setup.step!r}; {voc.game} setups may start at {allowed}")]
    return []


def _check_final(final: dict[str, Any], voc, players: set[str], card_ids: set[str],
                 at: tuple[Any, ...] = ("expect", "final"), what: str = "final") -> list[Problem]:
    out: list[Problem] = []
    for key in final:
        if key not in ("players", "cards"):
            out.append((at + (key,), f"{what} has two parts: players and cards"))
    for pid, fields in (final.get("players") or {}).items():
        if pid not in players:
            out.append((at + ("players", pid), f"{pid!r} is not a player"))
            continue
        for f in fields or {}:
            if f not in voc.zones and f not in voc.player_fields:
                out.append((at + ("players", pid, f),
                            f"unknown player field {f!r}; use a zone {list(voc.zones)} or {sorted(voc.player_fields)}"))
    for cid, fields in (final.get("cards") or {}).items():
        if cid not in card_ids:
            out.append((at + ("cards", cid), f"card {cid!r} is not in the setup"))
            continue
        for f in fields or {}:
            if f not in voc.card_fields:
                out.append((at + ("cards", cid, f),
                            f"unknown card field {f!r}; the fields are {sorted(voc.card_fields)}"))
    return out


def resolve_primary(kind: str, fields: dict[str, Any], game: str) -> dict[str, Any]:
    """``{'_primary': 'a'}`` -> ``{'card': 'a'}`` using the event's primary field."""
    if "_primary" not in fields:
        return fields
    spec = registry.get(game).vocabulary.events[kind]
    out = {k: v for k, v in fields.items() if k != "_primary"}
    out[spec.primary] = fields["_primary"]
    return out
