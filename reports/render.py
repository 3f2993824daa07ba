"""Render results into one self-contained HTML report (inline CSS and JS, nothing fetched at view time).

The summary, the regressions and the rules-coverage matrix are rendered by jinja2 (autoescaped). The
cases — which may be tens of thousands — travel as one JSON blob inside ``<script
type="application/json">`` (``|tojson`` escapes ``<``, ``>``, ``&`` and ``'``), and the inline script
draws the visible page of the case list and, on demand, a case's board and traces, with DOM text nodes
only (never ``innerHTML``). Identical traces (most passing engines agree) are stored once.
"""

from __future__ import annotations

import base64
import gc
import gzip
import secrets
from datetime import datetime, timezone
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import Any, Iterable, Iterator, Mapping

from jinja2 import Environment, PackageLoader, select_autoescape
from markupsafe import Markup
from pydantic_core import to_json

from oracle import __version__
from oracle.baseline import Baseline

from .proofs import load_proofs
from oracle.model import STATUSES, Catalog, Results
from oracle.portable import Portable

from . import regressions
from .board_view import board_view, script_view
from .decisions import decision_rows
from .coverage import game_coverage, load_catalogs
from .engines_view import engines_view, view_dict
from .history import histories
from .kill import kill_view
from .runs import split_runs, summary
from .traces import align, expected_shown

_STATIC = Path(__file__).resolve().parent / "templates"


@cache
def _env() -> Environment:
    env = Environment(loader=PackageLoader("oracle.reports", "templates"),
                      autoescape=select_autoescape(default=True, default_for_string=True),
                      trim_blocks=True, lstrip_blocks=True)
    env.policies["json.dumps_kwargs"] = {"sort_keys": False, "ensure_ascii": False, "separators": (",", ":")}
    env.filters["pct"] = lambda v: f"{v:.1f}".removesuffix(".0") + "%"
    return env


@cache
def _static(name: str) -> Markup:
    """Our own CSS/JS, inlined verbatim (no user data in them)."""
    return Markup(_STATIC.joinpath(name).read_text(encoding="utf-8"))


def _pools(games: Iterable[str]) -> dict[str, Any]:
    out = {}
    for g in games:
        try:
            from oracle.loader import load_cards

            out[g] = load_cards(g)
        except Exception:  # no card pool: the board shows what the setup gives
            out[g] = None
    return out


def _source(case: Mapping[str, Any] | None) -> dict[str, Any] | None:
    src = (case or {}).get("source")
    return dict(src) if isinstance(src, Mapping) else None


def _expect(case: Mapping[str, Any] | None, moments: list, shown: list | None = None) -> dict[str, Any]:
    ex = (case or {}).get("expect") or {}
    out: dict[str, Any] = {"moments": [[[k, f] for k, f in m] for m in moments]}
    notes = {i: s.note for i, s in enumerate(expected_shown(case) if shown is None else shown) if s.note}
    if notes:
        out["notes"] = notes  # contains, unordered group members, absences between moments
    if ex.get("absent"):
        out["absent"] = [{e.get("kind"): e.get("fields") or {}} if isinstance(e, dict) and "kind" in e else e
                         for e in ex["absent"]]
    if ex.get("after"):
        out["after"] = ex["after"]
    if ex.get("exact"):
        out["exact"] = True
    if "winner" in ex:
        out["winner"] = ex["winner"]
    if ex.get("rejected"):
        rej = ex["rejected"]
        out["rejected"] = rej if isinstance(rej, list) else [rej]
    if ex.get("final"):
        out["final"] = ex["final"]
    return out


class _Traces:
    """Traces referred to by index; a case's identical traces on several engines are stored once.
    Entries are ``[moment, kind, args, clause]`` with kind and clause as indices into ``names``."""

    def __init__(self) -> None:
        self.items: list[list[list[Any]]] = []
        self.names: list[str] = []
        self._name: dict[str, int] = {}
        self._case: list[tuple[list[Any], int]] = []

    def next_case(self) -> None:
        self._case = []

    def _n(self, s: str | None) -> int | None:
        if s is None:
            return None
        i = self._name.get(s)
        if i is None:
            i = self._name[s] = len(self.names)
            self.names.append(s)
        return i

    def add(self, trace: list[Any] | None) -> int | None:
        if trace is None:
            return None
        for seen, i in self._case:
            if seen == trace:
                return i
        i = len(self.items)
        n, index = self._n, self._name
        rows = []
        for e in trace:  # the names looked up inline: this loop runs once per trace entry of the report
            if isinstance(e, dict):
                rows.append([e.get("moment"), n(e.get("kind")), e.get("args") or {}, n(e.get("clause"))])
                continue
            kind, clause = index.get(e.kind), e.clause
            if kind is None:
                kind = n(e.kind)
            if clause is not None:
                clause = index.get(clause) if clause in index else n(clause)
            rows.append([e.moment, kind, e.args, clause])
        self.items.append(rows)
        self._case.append((trace, i))
        return i


def _run_view(res, traces: _Traces, regressed: bool, was: str | None, expected: list,
              shown: list | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"s": res.status, "ms": round(res.duration * 1000, 3)}
    if res.divergence is not None:
        div = res.divergence.model_dump(mode="json", exclude_none=True)
        ctx = div.pop("context", None)
        out["div"] = div
        if ctx and res.trace is None:
            out["ctx"] = traces.add(ctx)
    if res.error:
        out["err"] = res.error
    if res.skip_reason:
        out["skip"] = res.skip_reason
    if res.unchecked:
        out["unc"] = [[u.what, u.needs, u.why] for u in res.unchecked]
    if res.level and res.level != "trace":
        out["lv"] = res.level
    if res.trace is not None:
        out["tr"] = traces.add(res.trace)
        if res.case:
            out["al"] = align(res.case, res.trace, out.get("div"), expected, shown)
    if res.decisions is not None:  # an engine below level trace: each decision as it reported it
        out["dec"] = [list(row) for row in decision_rows(res.case, res.decisions)]
    if res.ruleset:
        out["rs"] = res.ruleset
    if was is not None:
        out["was"] = was
    if regressed:
        out["reg"] = True
    return out


def _expected_failure(view: dict[str, Any], expectation: Any) -> dict[str, Any]:
    """A fail or error the baseline expects: ``xf`` [reason, bug] (the report says "expected fail", not red)."""
    if expectation is not None:
        view["xf"] = [expectation.reason, expectation.bug]
    return view


def _editions(view: dict[str, Any], editions: Mapping[str | None, Any] | None) -> dict[str, Any]:
    """A case played under several editions: each edition's status (and what failed there); the view's own
    status is the worst of them, its trace that result's."""
    if editions and len(editions) > 1:
        view["eds"] = [[rs, c.status] + ([c.divergence.message if c.divergence else c.error or c.skip_reason]
                                         if c.status != "pass" else [])
                       for rs, c in editions.items()]
    return view


def build(results: list[Results], baseline: str | Path | Baseline | None = None,
          catalogs: Mapping[str, Catalog] | None = None, proofs: str | Path | None = None,
          kill_matrices: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """Everything the template needs."""
    runs = split_runs(results)
    games: list[str] = []
    for run in runs:
        for c in run.cases.values():
            if c.game not in games:
                games.append(c.game)
    cats = load_catalogs(games, catalogs)
    proved = load_proofs(proofs) if proofs is not None else None
    pools = _pools(games)
    diff = regressions.diff(regressions.resolve(baseline), runs) if baseline is not None else None
    regressed = {(ch.engine, ch.id) for ch in diff.regressions} if diff is not None else set()

    ids: list[str] = []
    seen: set[str] = set()
    by_game: dict[str, list[str]] = {g: [] for g in games}
    for run in runs:
        for cid, c in run.cases.items():
            if cid not in seen:
                seen.add(cid)
                by_game[c.game].append(cid)
    for g in games:
        ids.extend(by_game[g])

    traces = _Traces()
    cases = []
    for cid in ids:
        first = next(r.cases[cid] for r in runs if cid in r.cases)
        case = next((r.cases[cid].case for r in runs if cid in r.cases and r.cases[cid].case), None)
        item: dict[str, Any] = {"id": cid, "game": first.game, "title": first.title or (case or {}).get("title") or "",
                                "rules": list(first.rules)}
        if first.file:
            item["file"] = f"{first.file}:{first.line}" if first.line else first.file
        shown = expected_shown(case)  # once per case: the expected moments, their notes, the alignments
        expected = [x.events for x in shown]
        if case:
            item["source"] = _source(case)
            item["board"] = board_view(case, pools.get(first.game))
            item["script"] = script_view(case)
            item["expect"] = _expect(case, expected, shown)
            for k in ("features", "assumptions", "ambiguity", "rulesets"):
                if case.get(k):
                    item[k] = case[k]
        traces.next_case()
        item["runs"] = [
            _expected_failure(
                _editions(_run_view(r.cases[cid], traces, (r.key, cid) in regressed,
                                    diff.expected(r.key, cid) if diff is not None else None, expected, shown),
                          r.editions.get(cid)),
                diff.expected_failure(r.key, cid, r.cases[cid].status) if diff is not None else None)
            if cid in r.cases else None
            for r in runs
        ]
        cases.append(item)

    clause_text: dict[str, list[Any]] = {}
    coverage = []
    for g in games:
        cat, err = cats[g]
        err = err and Portable().text(err)  # the catalog's path: relative to its suite, as in results
        cov = game_coverage(g, cat, err, runs, proved)
        coverage.append(cov)
        for row in cov.clauses:
            if row.in_catalog:
                clause_text[row.id] = [row.text, row.summary] + ([] if row.testable else [row.reason or ""])
    blob = {
        "version": __version__,
        "engines": [{"key": r.key, "name": r.name, "version": r.version, "spec": r.spec, "partial": r.partial,
                     "level": r.level or "trace"}
                    for r in runs],
        "games": games,
        "statuses": list(STATUSES),
        "cases": cases,
        "traces": traces.items,
        "names": traces.names,
        "clauses": clause_text,
        "baseline": diff is not None,
    }
    return {
        "nonce": secrets.token_urlsafe(16),
        "generated": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "version": __version__,
        "runs": runs,
        "games": games,
        "statuses": STATUSES,
        "summary": summary(runs, games),
        "coverage": coverage,
        "has_proofs": proved is not None,
        "diff": diff,
        "has_baseline": diff is not None,
        "histories": histories(runs, games),
        "engines_view": view_dict(engines_view(runs, games)),
        "n_cases": len(ids),
        "n_results": sum(1 for r in runs for _ in r.results()),  # a case under several editions: each
        "blob": blob,
        "kill": kill_view(kill_matrices or [], games),
        "css": _static("report.css"),
        "js": _static("report.js"),
    }


PACK_ABOVE = 2_000_000
"""A report whose data (JSON, UTF-8) is larger than this many bytes embeds it gzip-compressed in base64 (the
inline script unpacks it with the browser's ``DecompressionStream``): ten thousand results with their traces
are about 21 MB of JSON, 1.7 MB packed."""

_HTML_SAFE = str.maketrans({"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "'": "\\u0027"})


def embed(blob: dict[str, Any], pack_above: int = PACK_ABOVE) -> dict[str, Any]:
    """The template's ``blob_json`` (JSON safe inside ``<script>``: ``<``, ``>``, ``&``, ``'`` escaped, as
    jinja's ``tojson``) or, above ``pack_above`` characters, ``packed`` (gzip, base64)."""
    data = to_json(blob)  # compact UTF-8 JSON, as json.dumps(ensure_ascii=False), in half the time
    if len(data) <= pack_above:
        return {"blob_json": Markup(data.decode("utf-8").translate(_HTML_SAFE)), "packed": None}
    packed = base64.b64encode(gzip.compress(data, compresslevel=6, mtime=0)).decode("ascii")
    return {"blob_json": None, "packed": packed}


def render_html(results: list[Results], baseline: str | Path | Baseline | None = None,
                catalogs: Mapping[str, Catalog] | None = None, proofs: str | Path | None = None,
                kill_matrices: list[dict[str, Any]] | None = None, pack_above: int = PACK_ABOVE) -> str:
    with _no_gc():
        context = build(results, baseline, catalogs, proofs, kill_matrices)
        context.update(embed(context.pop("blob"), pack_above))
        return _env().get_template("report.html.j2").render(**context)


@contextmanager
def _no_gc() -> Iterator[None]:
    """Rendering allocates millions of small objects and frees none of them cyclically: the cycle collector
    would walk every live result again and again (a third of the time for 10,000 results)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def render_report(results: list[Results], out: Path, baseline: str | Path | Baseline | None = None,
                  catalogs: Mapping[str, Catalog] | None = None, proofs: str | Path | None = None,
                  kill_matrices: list[dict[str, Any]] | None = None) -> Path:
    """Write the report for one or more :class:`~oracle.model.Results` (each one engine run, or a
    merged file of several); ``baseline`` (a path to a baseline file, or an
    :class:`oracle.baseline.Baseline`) adds the regressions view; ``catalogs`` overrides the games'
    clause catalogs (tests); ``proofs`` (a ``tcg-oracle prove --json`` file) adds the clauses proved by a
    bounded property to the coverage table."""
    out = Path(out)
    html = render_html(list(results), baseline, catalogs, proofs, kill_matrices)
    from oracle.outputs import write_atomic

    return write_atomic(out, html)
