"""``tcg-oracle explain CASE_ID [--engine SPEC]``: a case's board and its trace, narrated clause by clause.

For rules teams: every step of the reference engine with the clause that produced it, in the original
text and in English. For engine authors chasing a failure: with ``--engine``, where the engine under
test parts from the reference, and what the case expected there.

Exit codes: 0 the case passes (on the engine under test, when one is given); 1 it fails or errs;
2 unknown case id; 3 the engine could not be started.
"""

from __future__ import annotations

import argparse
from typing import Any

from rich.console import Console
from rich.markup import escape as _markup_escape
from rich.padding import Padding
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from .text import printable

EXIT_OK, EXIT_FAIL, EXIT_USAGE, EXIT_ENGINE = 0, 1, 2, 3
STYLE = {"pass": "bold green", "fail": "bold red", "error": "bold dark_orange", "skip": "dim"}


def escape(text: str) -> str:
    """Text for the console: control characters and line breaks escaped (an engine's or a case's text
    cannot forge a line or a colour), then rich markup escaped."""
    return _markup_escape(printable(text))

def _fmt_args(args: dict[str, Any]) -> str:
    return " ".join(f"{k}={_short(v)}" for k, v in args.items())


def _event(kind: str, args: dict[str, Any]) -> str:
    return f"[bold]{escape(kind)}[/bold] {escape(_fmt_args(args))}"


def find_case(case_id: str, suite) -> tuple[Any, list[str]]:
    """The loaded case with this id (or the only one whose id contains it), else the near ids: those
    containing it, or else the closest spellings (a typo: ``ijinden.atack.single-unblocked-wins``)."""
    exact = [lc for lc in suite.cases if lc.case.id == case_id]
    if exact:
        return exact[0], []
    near = [lc for lc in suite.cases if case_id.lower() in lc.case.id.lower()]
    if len(near) == 1:
        return near[0], []
    if near:
        return None, sorted(lc.case.id for lc in near)[:20]
    import difflib

    ids = {lc.case.id.lower(): lc.case.id for lc in suite.cases}
    return None, [ids[i] for i in difflib.get_close_matches(case_id.lower(), list(ids), n=5, cutoff=0.6)]


def _catalog(game: str, extra=()):
    try:
        from .loader import load_catalog

        return load_catalog(game, None, extra)
    except Exception:  # explain still narrates without clause texts
        return None


def print_board(console: Console, case, extra=()) -> None:
    from .loader import load_cards
    from .reports.board_view import board_view

    try:
        pool = load_cards(case.game, None, extra)
    except Exception:
        pool = None
    board = board_view(case.model_dump(mode="json", exclude_none=True), pool)
    if board is None:
        return
    table = Table(title=f"Board · turn {board['turn']} · {board['phase']} phase · active player {board['active']}",
                  show_lines=True, expand=False, title_justify="left")
    table.add_column("player", style="bold")
    table.add_column("zone")
    table.add_column("cards")
    players = [p for p in board["players"] if not p["active"]] + [p for p in board["players"] if p["active"]]
    for p in players:
        label = escape(p["id"]) + (" (active)" if p["active"] else "")
        if "life" in p:
            label += f"\nlife {p['life']}"
        for i, z in enumerate(p["zones"]):
            if "count" in z:
                cards = f"{z['count']} cards"
            else:
                cards = "\n".join(_card(k, board["tapped_word"]) for k in z["cards"]) or "[dim]empty[/dim]"
            table.add_row(label if i == 0 else "", escape(z["zone"]), cards)
    console.print(table)


def _card(k: dict[str, Any], tapped_word: str) -> str:
    stats = " ".join(f"{s} {k[s]}" for s in ("power", "toughness", "defense") if s in k)
    bits = [f"[bold]{escape(k['name'])}[/bold] [dim]({escape(k['id'])})[/dim]"]
    if stats:
        bits.append(stats)
    if k.get("tapped"):
        bits.append(f"[yellow]{tapped_word}[/yellow]")
    if k.get("abilities"):
        bits.append("· " + escape(", ".join(k["abilities"])))
    if k.get("badges"):
        bits.append("[cyan]" + escape(", ".join(k["badges"])) + "[/cyan]")
    return " ".join(bits)


def _original(text: str, width: int) -> Text:
    """Japanese has no spaces to wrap at: word wrapping would push a whole sentence after a lone ASCII
    space (「A1. ターン…」) to the next line. Japanese text is folded by display width instead."""
    if not any("\u3040" <= ch <= "\u9fff" for ch in text):
        return Text(text)
    from rich.cells import cell_len

    lines: list[str] = []
    for line in text.splitlines():
        current = ""
        for ch in line:
            if current and cell_len(current + ch) > width:
                lines.append(current)
                current = ""
            current += ch
        lines.append(current)
    return Text("\n".join(lines))


def _clause_text(console: Console, catalog, clause: str | None, shown: set[str]) -> None:
    """The clause id, then its original text and English summary (the summary only once shown)."""
    if not clause:
        return
    c = catalog.clause(clause) if catalog is not None else None
    console.print(Padding(Text(clause, style="magenta"), (0, 0, 0, 4)))
    if c is None:
        console.print(Padding(Text("(not in the clause catalog)", style="dim"), (0, 0, 0, 6)))
        return
    if clause not in shown:
        shown.add(clause)
        console.print(Padding(_original(c.text.strip(), max(20, console.width - 7)), (0, 0, 0, 6)))
    console.print(Padding(Text(c.summary.strip(), style="dim italic"), (0, 0, 0, 6)))


def narrate(console: Console, case, result, catalog) -> None:
    """The reference trace moment by moment; consecutive moments of one clause form a step."""
    from .core.moments import moments
    from .reports.traces import align, expected_shown

    case_dict = result.case or case.model_dump(mode="json", exclude_none=True)
    al = align(case_dict, result.trace, result.divergence.model_dump(mode="json") if result.divergence else None)
    notes = [s.note for s in expected_shown(case_dict)]
    expected_at: dict[int, list[int]] = {}
    for i, j in enumerate(al["match"]):
        if j >= 0:
            expected_at.setdefault(j, []).append(i)
    shown: set[str] = set()
    step, last_clauses = 0, None
    for j, m in enumerate(moments(result.trace or [])):
        clauses = list(dict.fromkeys(e.clause for e in m if e.clause))
        if clauses != last_clauses:
            step += 1
            console.print(f"\n[bold]Step {step}[/bold] · " + ", ".join(escape(c) for c in clauses or ["(no clause)"]))
            for c in clauses:
                _clause_text(console, catalog, c, shown)
            last_clauses = clauses
        mark = "".join(f"  [green]✓ expected #{i}{escape(f' ({notes[i]})') if notes[i] else ''}[/green]"
                       for i in expected_at.get(j, []))
        if j in al["rejected"]:
            mark += "  [green]✓ expected refusal[/green]" if any(
                r.at == al["rejected"][j] for r in case.expect.rejected) else "  [red]✗ unexpected refusal[/red]"
        simultaneous = " [dim](at once)[/dim]" if len(m) > 1 else ""
        console.print(f"  moment {m[0].moment}{simultaneous}{mark}", highlight=False)
        for e in m:
            line = f"    {_event(e.kind, e.args)}"
            if e.kind == "decided" and isinstance(e.args.get("at"), int) and e.args["at"] < len(case.script):
                d = case.script[e.args["at"]]
                line += f"  [dim]← script #{e.args['at']}: {escape(d.player)}: {escape(d.kind)} {escape(_short(d.args))}[/dim]"
            console.print(line, highlight=False)
    _other_expectations(console, case, result)


def _other_expectations(console: Console, case, result) -> None:
    """What the case expects beyond moments: absences (between moments and anywhere) and the state after
    decision N, each marked with the verdict."""
    div = result.divergence
    ex = case.expect
    between = [(i, it) for i, it in enumerate(ex.events) if hasattr(it, "absent")]
    if not (between or ex.absent or ex.after):
        return
    console.print("\n[bold]Also expected[/bold]")

    def mark(bad: bool) -> str:
        return "[red]✗[/red]" if bad else ("[green]✓[/green]" if result.status == "pass" else "[dim]·[/dim]")

    for i, it in between:
        bad = div is not None and div.what == "absent" and div.index == i
        pats = ", ".join(f"{ev.kind} {_short(ev.fields)}" for ev in it.absent)
        console.print(f"  {mark(bad)} #{i}: none of {escape(pats)} between its neighbours", highlight=False)
    if ex.absent:
        bad = div is not None and div.what == "absent" and div.index is None
        pats = ", ".join(f"{ev.kind} {_short(ev.fields)}" for ev in ex.absent)
        console.print(f"  {mark(bad)} none of {escape(pats)} anywhere", highlight=False)
    for check in ex.after:
        bad = div is not None and div.what == "after" and div.index == check.decision
        console.print(f"  {mark(bad)} after decision {check.decision}: {escape(_short(check.state))}", highlight=False)


def _short(v: Any) -> str:
    return "" if v is None else (v if isinstance(v, str) else repr(v))


def _moment_key(m) -> list[tuple[str, str]]:
    return sorted((e.kind, repr(sorted(e.args.items()))) for e in m)


def parting(console: Console, ref, res, catalog, engine: str) -> None:
    """Where the engine's trace first differs from the reference trace (compared as moments), and
    whether the case asserts that moment."""
    from .core.moments import moments
    from .reports.traces import align

    level = getattr(res, "level", None) or "trace"
    if level != "trace":  # no trace to set beside the reference's: the verdict compares what the level shows
        console.print(f"[dim]{escape(engine)} reports at level {escape(level)}: it sends no trace, so its moments "
                      f"cannot be set beside the reference's; the verdict below compares what level {escape(level)} "
                      f"shows (each decision accepted or refused"
                      + (", the state after each decision" if level in ("checkpoints", "steps") else "")
                      + (", the events of each decision" if level == "steps" else "")
                      + ", the final state and the winner).[/dim]")
        decision_table(console, res, engine)
        return
    a, b = moments(ref.trace or []), moments(res.trace or [])
    for j in range(max(len(a), len(b))):
        ma = a[j] if j < len(a) else None
        mb = b[j] if j < len(b) else None
        if ma is not None and mb is not None and _moment_key(ma) == _moment_key(mb):
            continue
        where = f"the reference's moment {ma[0].moment}" if ma else "the end of the reference trace"
        table = Table(title=f"{escape(engine)} parts from the reference at {where}", title_justify="left",
                      show_lines=True)
        table.add_column("reference")
        table.add_column(escape(engine))
        table.add_row("\n".join(_event(e.kind, e.args) for e in ma) if ma else "[dim](the trace has ended)[/dim]",
                      "\n".join(_event(e.kind, e.args) for e in mb) if mb else "[dim](the trace has ended)[/dim]")
        console.print(table)
        if ma:
            shown: set[str] = set()
            console.print("  The reference follows:")
            for c in dict.fromkeys(e.clause for e in ma if e.clause):
                _clause_text(console, catalog, c, shown)
            matched = align(ref.case, ref.trace)["match"]
            if j in matched:
                console.print(f"  The case expects this moment (expected #{matched.index(j)}).")
            else:
                console.print("  [dim]The case does not assert this moment; the engine may still pass.[/dim]")
        return
    console.print(f"[green]{escape(engine)}'s trace is the reference trace, moment for moment.[/green]")


def decision_table(console: Console, res, engine: str) -> None:
    """Each decision of the script: what the case expects and what the engine reported (its ``decisions``)."""
    from .reports.decisions import decision_rows

    if getattr(res, "decisions", None) is None:
        return
    table = Table(title=f"Decisions · what the case expects and what {escape(engine)} reported", title_justify="left")
    for col in ("decision", "who", "what", "expected", escape(engine)):
        table.add_column(col)
    for row in decision_rows(res.case, res.decisions):
        mark = "[red]✗ " if row.differs else ""
        table.add_row(str(row.at), escape(row.player), escape(row.what), escape(row.expected),
                      mark + escape(row.engine) + ("[/red]" if row.differs else ""))
    console.print(table)
    if res.case and (res.case.get("expect") or {}).get("events"):
        console.print(f"[dim]The case's expected events are not checkable at level {escape(res.level or '?')}"
                      + (" as moments: each is checked as events of one step, steps in order"
                         if res.level == "steps" else ": the engine reports no events") + ".[/dim]")


def verdict(console: Console, res, who: str) -> None:
    style = STYLE.get(res.status, "bold")
    console.print(f"\n{escape(who)}: [{style}]{res.status}[/{style}]", highlight=False)
    if res.divergence is not None:
        console.print(f"  {escape(res.divergence.message)}", highlight=False)
    if res.error:
        console.print(f"  {escape(res.error)}", highlight=False)
    if res.skip_reason:
        console.print(f"  {escape(res.skip_reason)}", highlight=False)
    for u in getattr(res, "unchecked", None) or []:
        console.print(f"  not checked at level {escape(res.level or 'trace')}: {escape(u.what)} needs "
                      f"{escape(u.needs)} ({escape(u.why)})", highlight=False)


def explain(case_id: str, engine_spec: str = "reference", console: Console | None = None, engine=None,
            cases=None, timeout: float | None = 10.0) -> int:
    """Narrate one case; ``engine`` (an Engine object) overrides ``engine_spec`` (tests); ``cases``: the
    case files or folders to look in (default: the built-in suite)."""
    from .errors import EngineStartError
    from .harness.adapters import make_engine
    from .harness.engine import ReferenceEngine
    from .harness.runner import choose_ruleset, run_case
    from .loader import load_suite

    console = console or Console(highlight=False)
    suite = load_suite(cases or None)
    lc, near = find_case(case_id, suite)
    if lc is None:
        msg = _not_loaded(case_id, suite) or f"tcg-oracle explain: no case {case_id!r}" + (
            (". Did you mean: " + ", ".join(near)) if near else "; `tcg-oracle run -k WORD` selects by words")
        console.print(escape(msg), highlight=False)
        for err in suite.errors[:5]:  # the case may be among the invalid ones (a broken suite catalog ...)
            console.print(escape(f"  invalid: {err}"), highlight=False)
        return EXIT_USAGE
    case = lc.case
    ruleset, _ = choose_ruleset(lc, None)
    catalog = _catalog(case.game, lc.extra)

    src = case.source
    quote = getattr(src, "quote", None)
    where = getattr(src, "document", None) or (f"generated (seed {src.seed})" if src.kind == "generated" else "")
    body = f"[bold]{escape(case.title)}[/bold]\n[dim]{escape(case.id)} · {escape(case.game)} · {escape(lc.path)}:{lc.line}" \
           f" · ruleset {escape(ruleset or '?')}[/dim]\nclauses: {escape(', '.join(case.rules))}"
    if case.assumptions:
        body += f"\nassumptions: {escape(', '.join(case.assumptions))}"
    if quote:
        body += f"\n\n「{escape(quote)}」\n[dim]— {escape(where)}[/dim]"
    console.print(Panel(body, expand=False))
    print_board(console, case, lc.extra)
    if case.script:
        console.print("[bold]Script[/bold]")
        for i, d in enumerate(case.script):
            console.print(f"  {i}. {escape(d.player)}: {escape(d.kind)} {escape(_short(d.args))}", highlight=False)

    ref = run_case(ReferenceEngine(), lc, ruleset, "reference")
    console.print("\n[bold underline]The reference engine, step by step[/bold underline]")
    if ref.trace:
        narrate(console, case, ref, catalog)
    verdict(console, ref, "reference")
    order_check(console, case.game, ref.trace)
    if engine is None and engine_spec == "reference":
        return EXIT_OK if ref.status == "pass" else EXIT_FAIL

    try:
        eng = engine or make_engine(engine_spec)
    except EngineStartError as exc:
        console.print(escape(f"tcg-oracle explain: the engine could not be started: {exc}"))
        return EXIT_ENGINE
    except ValueError as exc:
        console.print(escape(f"tcg-oracle explain: {exc}"))
        return EXIT_USAGE
    try:
        name = eng.hello().engine.name
        res = run_case(eng, lc, ruleset, name, timeout=timeout or None)
    except EngineStartError as exc:
        console.print(escape(f"tcg-oracle explain: the engine could not be started: {exc}"))
        return EXIT_ENGINE
    finally:
        eng.close()
    console.print(f"\n[bold underline]{escape(name)} against the reference[/bold underline]")
    parting(console, ref, res, catalog, name)
    verdict(console, res, name)
    order_check(console, case.game, res.trace)
    return EXIT_OK if res.status in ("pass", "not_checkable") else EXIT_FAIL


def order_check(console: Console, game: str, trace) -> None:
    """The procedure's ordering constraints on a trace (``oracle.smt.order``); when one is broken, z3's
    unsat core names the smallest set of clauses broken (``oracle.smt.order_explain``)."""
    from .smt.order import check_order

    if not trace or not check_order(game, trace):
        return
    try:
        from .smt.order_explain import describe, explain_order
    except ImportError:  # z3 not installed: the plain check still names every broken pair
        console.print(escape("\n".join(v.message for v in check_order(game, trace))), highlight=False)
        return
    console.print("\n[bold]Ordering constraints[/bold]")
    console.print(escape(describe(explain_order(game, trace))), highlight=False)


def _not_loaded(case_id: str, suite) -> str | None:
    """When the case exists but does not load (its file, or its game's catalog or card pool, is broken):
    why, instead of "no case"."""
    errors = [e for e in suite.errors if e.case_id == case_id]
    if not errors:
        return None
    return f"tcg-oracle explain: case {case_id!r} does not load:\n" + "\n".join(f"  {e}" for e in errors)


def main(args: argparse.Namespace) -> int:
    cases = getattr(args, "cases", None)
    if getattr(args, "request", False):
        return print_request(args.case_id, cases)
    return explain(args.case_id, getattr(args, "engine", "reference") or "reference", cases=cases,
                   timeout=getattr(args, "timeout", 10.0))


def print_request(case_id: str, cases=None) -> int:
    """The request line the harness sends an engine for this case, exactly (JSON lines protocol)."""
    import sys

    from .harness.request import make_request
    from .harness.runner import choose_ruleset
    from .loader import load_suite

    suite = load_suite(cases or None)
    lc, near = find_case(case_id, suite)
    if lc is None:
        print(_not_loaded(case_id, suite) or f"tcg-oracle explain: no case {case_id!r}"
              + (". Did you mean: " + ", ".join(near) if near else ""), file=sys.stderr)
        return EXIT_USAGE
    ruleset, _ = choose_ruleset(lc, None)
    print(make_request(lc.case, ruleset, lc.extra).model_dump_json())
    return 0
