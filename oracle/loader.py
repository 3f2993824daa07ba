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
from pydantic import Field, ValidationError, model_validator

from . import paths, registry
from .errors import CaseFileError, InputError, YamlSyntaxError
from .limits import check_case_sizes
from .model import AbsentEvents, CardDef, CardPool, Case, Catalog, Clause, ExpectedMoment, Ruleset
from .yamlfile import compose, read_yaml_file

CATALOG_FILE = "rules.yaml"
CARDS_FILE = "cards.yaml"
BLOCK_COUNTS_FILE = "block_counts.yaml"
"""Block counts of the z3 agreement checks (``oracle/smt/counts.py``), not cases."""
NOT_CASES = {CATALOG_FILE, CARDS_FILE, BLOCK_COUNTS_FILE}


@dataclass(frozen=True)
class LoadedCase:
    case: Case
    path: str
    line: int
    extra: tuple[Path, ...] = ()
    """The suite's own rules.yaml / cards.yaml for the case's game (``--cases DIR/<game>/...``)."""


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
                       prefix: tuple[Any, ...] = (), schema: str = "case") -> list[CaseFileError]:
    out = []
    for err in exc.errors():
        loc = _clean_loc(tuple(err["loc"]))
        msg = err["msg"]
        if err["type"] == "extra_forbidden":
            msg = f"unknown field (check its spelling against `tcg-oracle schema {schema}`)"
        out.append(CaseFileError(path, msg, line=_line_of(node, loc), case_id=case_id,
                                 field=_field(prefix + loc) or None))
    return out


# --------------------------------------------------------------------------------------------
# Catalog and card pool


def game_dir(game: str, root: Path | None = None) -> Path:
    return (root or paths.cases_dir()) / game


def _read(path: Path, within: Path | None = None) -> str:
    """A YAML file's text (:func:`~oracle.yamlfile.read_yaml_file`); what refuses it, a located error."""
    try:
        return read_yaml_file(path, within=within)
    except InputError as exc:
        raise CaseFileError(str(path), str(exc)) from None


def _load_model(path: Path, model: type, what: str, schema: str | None = None, within: Path | None = None):
    text = _read(path, within)
    data, node = _compose(text, str(path))
    if data is None:
        raise CaseFileError(str(path), f"the file is empty; a {what} is a mapping"
                            + (f" (`tcg-oracle schema {schema}`)" if schema else ""), line=1)
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        errors = _validation_errors(exc, str(path), node, None, schema=schema or "case")
        raise CaseFileError(str(path), f"invalid {what}: " + "; ".join(
            ", ".join(x for x in (e.line and f"line {e.line}", e.field and f"field {e.field}") if x)
            + f": {e.message}" for e in errors), line=errors[0].line) from None


Extra = tuple[Path, ...]
"""A suite's own ``rules.yaml`` / ``cards.yaml`` files for one game, extending the built-in ones."""


def _stamps(extra: Extra) -> tuple[Any, ...]:
    """What the cache of a suite's own files is keyed on besides their paths (they are edited in place)."""
    out = []
    for p in extra:
        try:
            st = p.stat()
            out.append((st.st_mtime_ns, st.st_size))
        except OSError:
            out.append(None)
    return tuple(out)


def load_catalog(game: str, root: Path | None = None, extra: Extra = ()) -> Catalog:
    """``cases/<game>/rules.yaml``, extended by the ``rules.yaml`` files among ``extra`` (a suite's own
    clauses, rulesets, documents and assumptions)."""
    return _load_catalog(game, root, extra, _stamps(extra))


def load_cards(game: str, root: Path | None = None, extra: Extra = ()) -> dict[str, CardDef]:
    """``cases/<game>/cards.yaml``, by card name, extended by the ``cards.yaml`` files among ``extra``."""
    return _load_cards(game, root, extra, _stamps(extra))


@cache
def _load_catalog(game: str, root: Path | None, extra: Extra, _stamps: tuple[Any, ...]) -> Catalog:
    base = _load_model(game_dir(game, root) / CATALOG_FILE, Catalog, "clause catalog", "catalog")
    for path in extra:
        if path.name == CATALOG_FILE:
            base = _extend_catalog(base, path)
    return base


@cache
def _load_cards(game: str, root: Path | None, extra: Extra, _stamps: tuple[Any, ...]) -> dict[str, CardDef]:
    out: dict[str, CardDef] = {}
    builtin = game_dir(game, root) / CARDS_FILE
    for path in (builtin, *(p for p in extra if p.name == CARDS_FILE)):
        pool: CardPool = _load_model(path, CardPool, "card pool", "cards",
                                     within=None if path == builtin else path.parent)
        _same_game(pool.game, game, path)
        _check_pool_abilities(pool, game, path)
        for i, card in enumerate(pool.cards):
            if card.name in out:
                node = _compose(_read(path), str(path))[1]
                raise CaseFileError(str(path), f"card {card.name!r} is defined twice (a suite's cards.yaml adds "
                                               f"cards; it cannot redefine one)",
                                    line=_line_of(node, ("cards", i, "name")), field=f"cards[{i}].name")
            out[card.name] = card
    return out


load_catalog.cache_clear = _load_catalog.cache_clear  # type: ignore[attr-defined]
load_cards.cache_clear = _load_cards.cache_clear  # type: ignore[attr-defined]


class CatalogExtension(Catalog):
    """A suite's own ``<game>/rules.yaml``: more clauses (and rulesets, documents, assumptions) for the
    built-in catalog of its game; the default ruleset stays the built-in one's."""

    rulesets: list[Ruleset] = Field(default_factory=list)  # type: ignore[assignment]
    clauses: list[Clause] = Field(default_factory=list)  # type: ignore[assignment]

    @model_validator(mode="after")
    def _one_default(self) -> "CatalogExtension":  # type: ignore[override]
        if any(r.default for r in self.rulesets):
            raise ValueError("a suite's rules.yaml extends the built-in catalog, whose default ruleset stays "
                             "the default: drop default: true")
        return self


def _same_game(declared: str, game: str, path: Path) -> None:
    if declared != game:
        raise CaseFileError(str(path), f"the file says game {declared!r}, but it extends {game!r} (it is in the "
                                       f"suite's {game}/ folder)", line=1, field="game")


def _extend_catalog(base: Catalog, path: Path) -> Catalog:
    ext: CatalogExtension = _load_model(path, CatalogExtension, "clause catalog (a suite's extension)", "catalog",
                                        within=path.parent)
    _same_game(ext.game, base.game, path)
    node = _compose(_read(path), str(path))[1]
    for part, items, have in (("documents", ext.documents, base.documents), ("rulesets", ext.rulesets, base.rulesets),
                              ("clauses", ext.clauses, base.clauses), ("assumptions", ext.assumptions,
                                                                       base.assumptions)):
        known = {x.id for x in have}
        for i, x in enumerate(items):
            if x.id in known:
                raise CaseFileError(str(path), f"{part[:-1]} {x.id!r} is already in the catalog of {base.game} "
                                               f"(a suite's rules.yaml adds; it cannot redefine)",
                                    line=_line_of(node, (part, i, "id")), field=f"{part}[{i}].id")
            if part in ("clauses", "assumptions") and not x.id.startswith(base.game + ":"):
                raise CaseFileError(str(path), f"{part[:-1]} id {x.id!r} must start with the game: {base.game}:...",
                                    line=_line_of(node, (part, i, "id")), field=f"{part}[{i}].id")
            known.add(x.id)
    return base.model_copy(update={
        "documents": [*base.documents, *ext.documents], "rulesets": [*base.rulesets, *ext.rulesets],
        "clauses": [*base.clauses, *ext.clauses], "assumptions": [*base.assumptions, *ext.assumptions]})


def suite_extras(path: Path, game: str, root: Path | None = None) -> Extra:
    """The files a suite folder brings for ``game``: ``PATH/<game>/rules.yaml`` and ``cards.yaml`` (or
    ``PATH/rules.yaml`` ... when PATH is itself the game's folder; a case file: its folder). The built-in
    ones are not extensions of themselves."""
    folder = path if path.is_dir() else path.parent
    here = folder if folder.name == game else folder / game
    builtin = {(game_dir(game, root) / f).resolve() for f in NOT_CASES}
    out = [here / name for name in (CATALOG_FILE, CARDS_FILE)
           if (here / name).is_file() and (here / name).resolve() not in builtin]
    return tuple(out)
def _check_pool_abilities(pool: CardPool, game: str, path: Path) -> None:
    """Every ability of the pool's cards (both faces) is in the game's vocabulary, with parameters its grammar
    accepts (else a located error: the first problem, with every other one of the file after it)."""
    voc = registry.get(game).vocabulary if game in registry.names() else None
    if voc is None:
        return
    found: list[tuple[tuple[Any, ...], str]] = []
    for i, card in enumerate(pool.cards):
        problems = _check_abilities(card.abilities, voc, ("cards", i, "abilities"))
        if card.back is not None:
            problems += _check_abilities(card.back.abilities, voc, ("cards", i, "back", "abilities"))
        if voc.card_props is not None and card.props:
            problems += [(("cards", i) + where, msg)
                         for where, msg in voc.card_props.check(dict(card.props), ("props",), voc.ability_context)]
        found += [(loc, f"card {card.name!r}: {msg}") for loc, msg in problems]
    if found:
        _, node = _compose(_read(path), str(path))
        (loc, msg), rest = found[0], found[1:]
        more = "".join(f"; line {_line_of(node, at)}, field {_field(at)}: {m}" for at, m in rest)
        raise CaseFileError(str(path), msg + (f" (and {len(rest)} more problem(s) in this file{more})" if rest else ""),
                            line=_line_of(node, loc), field=_field(loc))


# --------------------------------------------------------------------------------------------
# Cases


def load_case_file(path: Path, *, root: Path | None = None, extras: dict[str, Extra] | None = None,
                   within: Path | None = None) -> Suite:
    """Every case of one file; the invalid ones as errors. ``extras``: per game, the suite's own catalog
    and card-pool files the cases are checked against; ``within``: the suite folder the file was found in
    (a file resolving outside it is refused unread)."""
    suite = Suite()
    spath = str(path)
    try:
        data, node = _compose(_read(path, within), spath)
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
        case_id = raw.get("id") if isinstance(raw, dict) and isinstance(raw.get("id"), str) else None
        if not isinstance(raw, dict):
            suite.errors.append(CaseFileError(spath, "a case must be a mapping", line=line))
            continue
        try:
            case = Case.model_validate(raw)
        except ValidationError as exc:
            suite.errors.extend(_validation_errors(exc, spath, n, case_id))
            suite.errors.extend(_past_unknown_fields(raw, exc, spath, n, root, extras))
            continue
        extra = (extras or {}).get(case.game, ())
        problems = check_case(case, root=root, extra=extra)
        if problems:
            suite.errors.extend(
                CaseFileError(spath, msg, line=_line_of(n, loc), case_id=case.id, field=_field(loc))
                for loc, msg in problems
            )
            continue
        suite.cases.append(LoadedCase(case, spath, line, extra))
    return suite


def _past_unknown_fields(raw: dict[str, Any], exc: ValidationError, path: str, node: yaml.Node | None,
                         root: Path | None, extras: dict[str, Extra] | None) -> list[CaseFileError]:
    """When a case's only schema errors are unknown fields (misspelt), the case without them is checked
    too, so that ``validate`` says its other problems in the same run (not after the spelling is fixed)."""
    import copy

    errors = exc.errors()
    if any(e["type"] != "extra_forbidden" for e in errors):
        return []
    pruned = copy.deepcopy(raw)
    dropped = [_clean_loc(tuple(e["loc"])) for e in errors]
    for loc in dropped:
        *parents, last = loc
        at: Any = pruned
        try:
            for part in parents:
                at = at[part]
            del at[last]
        except (KeyError, IndexError, TypeError):
            return []  # a location that does not follow the file (a short form): only the schema errors
    try:
        case = Case.model_validate(pruned)
    except ValidationError:
        return []
    return [CaseFileError(path, msg, line=_line_of(node, loc), case_id=case.id, field=_field(loc))
            for loc, msg in check_case(case, root=root, extra=(extras or {}).get(case.game, ()))
            if not any(d[:len(loc)] == tuple(loc) for d in dropped)]  # not the mapping that lost the field


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
    """Load cases from paths (default: every registered game's folder); duplicate ids are errors. A
    folder's own ``<game>/rules.yaml`` and ``<game>/cards.yaml`` extend the built-in catalog and pool for
    the cases under it; a broken one is a located error."""
    wanted = list(games) if games else registry.names()
    if paths_ is None:
        paths_ = [game_dir(g, root) for g in wanted if game_dir(g, root).is_dir()]
    suite = Suite()
    seen: dict[str, LoadedCase] = {}
    done: set[Path] = set()
    reported: set[str] = set()
    for given in list(paths_):
        extras = {g: suite_extras(given, g, root) for g in registry.names()} if given.exists() else {}
        suite.errors.extend(_unused_extensions(given, extras, root))
        for g, extra in extras.items():
            for err in _extension_errors(g, root, extra):
                if str(err) not in reported:
                    reported.add(str(err))
                    suite.errors.append(err)
        for f in case_files([given]):
            if f.resolve() in done:  # a file named twice (a folder and a file in it) is one file, loaded once
                continue
            done.add(f.resolve())
            if not f.exists():
                suite.errors.append(CaseFileError(str(f), "no such file"))
                continue
            part = load_case_file(f, root=root, extras=extras, within=given if given.is_dir() else None)
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


def suite_catalogs(paths_: Iterable[Path] | None, root: Path | None = None) -> dict[str, Catalog]:
    """The catalogs of the games whose clauses the given suite folders extend (for the report's coverage);
    raises :class:`CaseFileError` for a broken one."""
    extras: dict[str, list[Path]] = {}
    for given in paths_ or []:
        for g in registry.names():
            extras.setdefault(g, []).extend(suite_extras(given, g, root))
    for g, x in extras.items():  # a broken card pool of the suite is said too, not only a broken catalog
        if any(p.name == CARDS_FILE for p in x):
            load_cards(g, root, tuple(dict.fromkeys(x)))
    return {g: load_catalog(g, root, tuple(dict.fromkeys(x))) for g, x in extras.items()
            if any(p.name == CATALOG_FILE for p in x)}


def _unused_extensions(given: Path, extras: dict[str, Extra], root: Path | None) -> list[CaseFileError]:
    """A rules.yaml or cards.yaml under a suite folder that extends nothing (not in ``<suite>/<game>/``):
    said, never silently ignored."""
    if not given.is_dir():
        return []
    used = {p.resolve() for x in extras.values() for p in x}
    builtin = {(game_dir(g, root) / f).resolve() for g in registry.names() for f in NOT_CASES}
    out = []
    for f in sorted(given.rglob("*.y*ml")):
        if f.name in NOT_CASES and f.resolve() not in used | builtin:
            out.append(CaseFileError(str(f), f"this {f.name} extends nothing: a suite's own {f.name} goes in "
                                             f"<suite>/<game>/{f.name} (games: {', '.join(registry.names())})"))
    return out


def _extension_errors(game: str, root: Path | None, extra: Extra) -> list[CaseFileError]:
    """A suite's own rules.yaml / cards.yaml that cannot be loaded: its located error (never ignored)."""
    out = []
    for loader_ in (load_catalog, load_cards):
        if not extra:
            break
        try:
            loader_(game, root, extra)
        except CaseFileError as exc:
            out.append(exc)
        except (OSError, UnicodeDecodeError) as exc:
            out.append(CaseFileError(str(extra[0]), f"cannot read: {exc}"))
    return out


# --------------------------------------------------------------------------------------------
# Semantic checks against the game's catalog, card pool and vocabulary

Problem = tuple[tuple[Any, ...], str]


def check_case(case: Case, *, root: Path | None = None, extra: Extra = ()) -> list[Problem]:
    """What pydantic cannot know: clause ids, cards, zones, decisions, events, reasons of the game
    (its catalog and card pool extended by ``extra``, a suite's own files)."""
    problems: list[Problem] = check_case_sizes(case)  # first: a huge count must not be expanded below
    if problems:
        return problems
    try:
        game = registry.get(case.game)
    except KeyError as exc:
        return [(("game",), str(exc.args[0]))]
    try:
        catalog = load_catalog(case.game, root, extra)
        pool = load_cards(case.game, root, extra)
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
            problems.append((("rules", i), f"unknown clause id {c!r} (not in cases/{case.game}/rules.yaml"
                                           + (" nor the suite's own" if extra else "") + ")"))
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
                    problems.append((loc + (j, "card"), f"unknown card {cs.card!r} (not in cases/{case.game}/cards.yaml"
                                                        + (" nor the suite's own" if extra else "") + ")"))
                elif cs.face == "back" and pool[cs.card].back is None:
                    problems.append((loc + (j, "face"), f"face: back, but {cs.card!r} has no back face (a single-faced "
                                                        f"card is set up face up: leave face out)"))
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
    """Each ability is in the game's vocabulary and its parameters follow that ability's grammar
    (``AbilitySpec.schema``, :mod:`oracle.core.params`): the problems located down into the parameters."""
    out: list[Problem] = []
    for k, ref in enumerate(refs):
        if isinstance(ref, dict) and len(ref) != 1:
            out.append((loc + (k,), "an ability is a name or one mapping {name: params}"))
            continue
        name, params = (ref, None) if isinstance(ref, str) else next(iter(ref.items()))
        if name not in voc.abilities:
            out.append((loc + (k,), f"unknown ability {name!r}; see the README's {voc.game} ability vocabulary"))
            continue
        at = loc + (k,) if isinstance(ref, str) else loc + (k, name)
        spec = voc.abilities[name]
        problems = spec.schema.check(params, (name,), voc.ability_context)
        if problems and params is None:
            out.append((at, f"{name} needs a parameter: write {{{name}: {spec.params}}}"))
            continue
        out += [(at + where[1:], msg) for where, msg in problems]
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
    """``setup.step``: one of the later steps the game's vocabulary lets a case start at, with the battle
    state that step holds (``attacking`` / ``blocking`` cards) and nothing the step does not hold."""
    cards = [(("setup", "players", pid, zone, j), pid, zone, cs)
             for pid, p in setup.players.items() for zone, content in p.zones.items()
             if not isinstance(content, int) for j, cs in enumerate(content)]
    attackers = {cs.id: (pid, zone, cs) for _, pid, zone, cs in cards if cs.attacking not in (None, False)}
    spec = voc.steps.get(setup.step) if setup.step is not None else None
    if setup.step is not None and spec is None:
        allowed = sorted(voc.steps) or "none (every case starts at the turn's beginning)"
        return [(("setup", "step"), f"unknown step {setup.step!r}; {voc.game} setups may start at {allowed}")]
    out: list[Problem] = []
    low, high = spec.attackers if spec else (0, 0)
    if spec is not None and len(attackers) < low:
        out.append((("setup", "step"), f"step {setup.step!r} starts with {low} or more attacking cards: mark them "
                                       f"attacking: {'<target>' if spec.target else 'true'}"))
    for loc, pid, zone, cs in cards:
        ctrl = cs.controller or pid
        if cs.attacking not in (None, False):
            if spec is None or high == 0:
                out.append((loc + ("attacking",), "attacking cards need a setup.step that starts in the battle"
                                                  + (f"; {voc.game} steps: {sorted(voc.steps)}" if voc.steps else "")))
                continue
            if high is not None and len(attackers) > high:
                out.append((loc + ("attacking",), f"step {setup.step!r} holds at most {high} attacking card(s)"))
            if zone != "battlefield" or ctrl != setup.active:
                out.append((loc + ("attacking",), "an attacking card is on the active player's battlefield"))
            if spec.attackers_tapped and not cs.tapped:
                out.append((loc + ("attacking",), "an attacking card has been tapped (put to sleep) by its "
                                                  "attack: write tapped: true (sleeping: true)"))
            if spec.target and (cs.attacking is True or not isinstance(cs.attacking, str)):
                out.append((loc + ("attacking",), "name what the card attacks: attacking: <player or card id>"))
            elif spec.target and not _a_target(setup, cs.attacking):
                out.append((loc + ("attacking",), f"attacking {cs.attacking!r}: not an opponent nor a card on an "
                                                  f"opponent's battlefield"))
            elif not spec.target and cs.attacking is not True:
                out.append((loc + ("attacking",), f"in {voc.game} an attacker is marked attacking: true"))
        if cs.blocking is not None:
            if spec is None or not spec.blockers:
                out.append((loc + ("blocking",), "blocking cards need a setup.step after the blockers are declared"
                                                 + (f" ({[s for s, x in voc.steps.items() if x.blockers]})"
                                                    if any(x.blockers for x in voc.steps.values()) else "")))
                continue
            if cs.blocking not in attackers:
                out.append((loc + ("blocking",), f"blocking {cs.blocking!r}: not an attacking card of the setup"))
            if zone != "battlefield" or ctrl == setup.active:
                out.append((loc + ("blocking",), "a blocking card is on a defending player's battlefield"))
    return out


def _a_target(setup, target: str) -> bool:
    if target in setup.players:
        return target != setup.active
    # a card an opponent controls, or one an opponent protects (Magic 310.8b: a Siege's controller may attack it)
    return any(cs.id == target and ((cs.controller or pid) != setup.active
                                    or cs.protector not in (None, setup.active))
               for pid, p in setup.players.items() for zone, content in p.zones.items()
               if zone == "battlefield" and not isinstance(content, int) for cs in content)


def _derived(cid: str, card_ids: set[str]) -> bool:
    """An object that appears during the case with an id derived from a setup card's (DESIGN.md, "What is compared"):
    ``<card id>.token<n>``, the n-th token that card's abilities create (Magic 111.2)."""
    base, dot, n = cid.rpartition(".token")
    return bool(dot) and base in card_ids and n.isdigit() and not n.startswith("0")


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
        if cid not in card_ids and not _derived(cid, card_ids):
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
