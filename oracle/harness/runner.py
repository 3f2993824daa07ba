"""Run cases on an engine and collect results.

A broken case file costs its cases (status ``error``), never the run; an engine error on one case
costs that case. Ctrl-C (or a stop signal, :mod:`oracle.signals`) stops the run: :func:`run_suite` raises the
``KeyboardInterrupt`` on, carrying what was run so far as ``exc.results`` (marked ``partial``), so a script
embedding it stops as Ctrl-C asks and the CLI writes those partial results.
"""

from __future__ import annotations

import sys
import time
from contextlib import nullcontext
from datetime import datetime, timezone
from typing import Callable, Iterable

from .. import CONTRACT_VERSION, __version__
from ..errors import (CannotSetUp, CaseFileError, EngineAborted, EngineError, EngineStartError, MissingDecision,
                      OracleError, ScriptError)
from ..loader import LoadedCase, Suite, load_catalog
from ..model import (ALL_RULESETS, Asked, CaseRequest, CaseResult, Divergence, EngineInfo, Hello, LegalityReply,
                     LegalityRequest,
                     Results)
from ..text import trim_text
from .compare import compare, reads, vocabulary_problems
from .engine import Engine
from .request import make_request, used_abilities, views_read
from .select import select_cases
from .stored import kept_trace, stored_divergence


def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def choose_rulesets(lc: LoadedCase, wanted: str | None) -> tuple[list[str], str | None]:
    """The editions to play the case under, and the skip reason when none: ``--ruleset all``, each edition
    the case holds for; else the one :func:`choose_ruleset` picks."""
    if wanted == ALL_RULESETS:
        return list(lc.case.rulesets), None
    rs, skip = choose_ruleset(lc, wanted)
    return ([rs] if rs is not None else []), skip


def choose_ruleset(lc: LoadedCase, wanted: str | None) -> tuple[str | None, str | None]:
    """(ruleset, skip reason). Without ``--ruleset`` a case runs under its game's default edition when
    it holds for it, else under the first edition it lists."""
    case = lc.case
    if wanted is not None:
        if wanted in case.rulesets:
            return wanted, None
        return None, f"holds for {', '.join(case.rulesets)}, not for ruleset {wanted}"
    default = load_catalog(case.game, None, lc.extra).default_ruleset
    return (default if default in case.rulesets else case.rulesets[0]), None


def error_text(exc: BaseException) -> str:
    """How an exception raised inside an engine reads in a result (the same in process and over serve)."""
    return f"engine raised {type(exc).__name__}: {trim_text(str(exc))}"



def legality_query(engine: Engine, request: CaseRequest, timeout: float | None = None):
    """``ask(N)``: the engine's answer whether it would accept script entry N after entries 0..N-1."""

    def ask(at: int) -> LegalityReply:
        query = LegalityRequest(id=f"{request.id}#legality-{at}", game=request.game, ruleset=request.ruleset,
                                setup=request.setup, script=request.script[:at], cards=request.cards,
                                decision=request.script[at])
        try:
            return engine.legality(query, timeout=timeout)  # type: ignore[attr-defined]
        except EngineStartError:
            raise
        except Exception as exc:  # a broken answer costs the check, never the run
            return LegalityReply(id=query.id, error=error_text(exc) if not isinstance(exc, OracleError) else str(exc))

    return ask


def case_request(lc: LoadedCase, ruleset: str, hello: Hello) -> CaseRequest:
    """The request the engine is sent for ``lc`` (with the views its checks read, when it asks for them)."""
    return make_request(lc.case, ruleset, lc.extra, views=views_read(lc.case, hello))


def run_case(engine: Engine, lc: LoadedCase, ruleset: str, engine_name: str,
             timeout: float | None = None, keep_trace: bool = True, order: int | None = None,
             hello: Hello | None = None, request: CaseRequest | None = None, unshown: bool = False) -> CaseResult:
    """One case on the engine, checked at the engine's observation level (its ``hello``; asked of the
    engine when not given). ``request``: made already (and maybe sent ahead, :func:`run_suite`);
    ``unshown``: state fields the engine lacks are not checkable (:func:`compare`)."""
    from ..core.game import observing

    case = lc.case
    hello = hello or engine.hello()
    base = dict(id=case.id, game=case.game, rules=list(case.rules), file=lc.path, line=lc.line,
                title=case.title, ruleset=ruleset, engine=engine_name,
                case=case.model_dump(mode="json", exclude_none=True), order=order, level=hello.observation)
    start = time.perf_counter()
    request = request or case_request(lc, ruleset, hello)
    try:
        # in-process reference engines compute checkpoints only for a case whose checks read them
        with observing(checkpoints=True) if "checkpoints" in reads(case) else nullcontext():
            reply = engine.run_case(request, timeout=timeout)
    except EngineStartError:
        raise
    except CannotSetUp as exc:  # the engine cannot be given this case: not checkable there, with the reason
        return CaseResult(status="skip", skip_reason=f"cannot be set up on {engine_name}: {trim_text(str(exc))}",
                          duration=time.perf_counter() - start, **base)
    except MissingDecision as exc:  # an in-process engine asked for a decision past the script's end
        asked = Asked(at=exc.at, player=exc.player, decisions=list(exc.kinds))
        return asked_beyond_script(lc, ruleset, asked, f"script: {exc}", time.perf_counter() - start, base)
    except ScriptError as exc:
        return CaseResult(status="error", error=f"script: {exc}", duration=time.perf_counter() - start, **base)
    except OracleError as exc:
        return CaseResult(status="error", error=trim_text(str(exc)), duration=time.perf_counter() - start, **base)
    except Exception as exc:  # an in-process engine's bug costs its case, not the run
        return CaseResult(status="error", error=error_text(exc), duration=time.perf_counter() - start, **base)
    duration = time.perf_counter() - start
    skip = getattr(reply, "skip", None)  # in-process engines may build replies without the field
    if skip and not reply.error:  # the engine cannot be set up for the case: skip with its reason
        return CaseResult(status="skip", skip_reason=trim_text(skip), duration=duration, **base)
    if reply.asked is not None:
        return asked_beyond_script(lc, ruleset, reply.asked, reply.error or "", duration, base,
                                   trace=kept_trace(reply.trace) if keep_trace else {})
    if reply.error:
        return CaseResult(status="error", error=trim_text(reply.error), duration=duration,
                          **(kept_trace(reply.trace) if keep_trace else {}), **base)
    broken = vocabulary_problems(reply, case.game)
    if broken:
        return CaseResult(status="error", error=trim_text(broken), duration=duration,
                          **(kept_trace(reply.trace) if keep_trace else {}), **base)
    ask = legality_query(engine, request, timeout) if callable(getattr(engine, "legality", None)) else None
    shown = list(reply.decisions) if reply.decisions is not None and hello.observation != "trace" else None
    try:
        verdict = compare(case, reply, hello, ask, unshown=unshown)
    except EngineStartError:
        raise
    except EngineError as exc:  # a legality query the engine crashed on or answered garbage to
        return CaseResult(status="error", error=trim_text(str(exc)), duration=duration,
                          **(kept_trace(reply.trace) if keep_trace else {}), **base)
    return CaseResult(status=verdict.status, executed=verdict.executed, asserted=verdict.asserted,
                      divergence=stored_divergence(verdict.divergence), duration=duration,
                      unchecked=verdict.unchecked, decisions=shown,
                      **(kept_trace(reply.trace) if keep_trace else {}), **base)


def asked_beyond_script(lc: LoadedCase, ruleset: str, asked: Asked, said: str, duration: float,
                        base: dict, trace: dict | None = None) -> CaseResult:
    """The engine asked ``asked.player`` for a decision the script does not have. When the reference plays the
    case through with the script as written, the rules give no such decision there: the engine decided
    differently, a ``fail`` with that divergence. When the reference needs a decision there too, the script is
    short: the case's ``error``."""
    from .engine import ReferenceEngine

    try:
        ReferenceEngine().run_case(make_request(lc.case, ruleset, lc.extra))
    except ScriptError as exc:
        return CaseResult(status="error", error=trim_text(said or f"script: {exc}"), duration=duration,
                          **(trace or {}), **base)
    kinds = " or ".join(f"`{k}`" for k in asked.decisions)
    where = (f"after the script's last entry (decision {asked.at - 1})" if asked.at >= len(lc.case.script)
             else f"at decision {asked.at}")
    message = (f"the engine asked {asked.player} for {kinds} {where}; the rules give no such decision here "
               f"(the reference plays the case through with the script as written)")
    divergence = Divergence(what="decision", index=asked.at, expected="no decision", message=message,
                            actual={"player": asked.player, "decisions": list(asked.decisions)})
    return CaseResult(status="fail", divergence=divergence, duration=duration, **(trace or {}), **base)


def run_suite(engine: Engine, suite: Suite, *, ruleset: str | None = None, k: str | None = None,
              games: Iterable[str] | None = None, timeout: float | None = None,
              shard: tuple[int, int] | None = None, command: str | None = None,
              on_result: Callable[[CaseResult], None] | None = None) -> Results:
    hello = engine.hello()
    info = EngineInfo(name=hello.engine.name, version=hello.engine.version, level=hello.observation,
                      reason_codes=hello.reason_codes, contract_version=hello.contract_version)
    _note_contract(hello)
    started = now()
    cases = list(enumerate(select_cases(suite, k, games)))  # the order is kept through shards (merge sorts by it)
    if shard is not None:
        from .shards import in_shard

        cases = [(n, lc) for n, lc in cases if in_shard(lc.case.id, *shard)]
    results: list[CaseResult] = []
    partial = False
    aborted: str | None = None
    for errs in _per_case(suite.errors):  # one result per broken case, however many errors it has
        err = errs[0]
        game = next((g for g in (games or []) if f"/{g}/" in err.path), None) or _game_of(err.path)
        results.append(CaseResult(id=err.case_id or f"{err.path}:{err.line or 0}", game=game or "?",
                                  status="error", error="\n".join(map(str, errs)), file=err.path, line=err.line))
    plan = []
    for n, lc in cases:
        editions, skip = choose_rulesets(lc, ruleset)
        for rs in editions or [ruleset if skip else None]:  # a skip for the ruleset: that ruleset's result
            plan.append((n, lc, rs, skip or _unsupported(lc, hello, info.name), bool(skip)))
    ahead = Ahead(engine, lambda i: None if plan[i][3] else case_request(plan[i][1], plan[i][2], hello),
                  len(plan), timeout)
    try:
        for at, (n, lc, rs, skip, not_held) in enumerate(plan):
            if skip:
                res = CaseResult(id=lc.case.id, game=lc.case.game, status="skip", skip_reason=skip,
                                 rules=list(lc.case.rules), file=lc.path, line=lc.line, title=lc.case.title,
                                 engine=info.name, order=n, ruleset=rs,
                                 holds_for=list(lc.case.rulesets) if not_held else None)
            else:
                try:
                    request = ahead.send_after(at)
                    res = run_case(engine, lc, rs, info.name, timeout, order=n, hello=hello, request=request)
                except EngineStartError as exc:  # could not restart after a crash or hang: stop, keep results
                    aborted = str(exc)
                    results.append(CaseResult(id=lc.case.id, game=lc.case.game, status="error", error=aborted,
                                              rules=list(lc.case.rules), file=lc.path, line=lc.line,
                                              title=lc.case.title, engine=info.name, order=n))
                    partial = True
                    break
            results.append(res)
            if on_result:
                on_result(res)
    except KeyboardInterrupt as exc:  # raised on, with the cases run so far: the caller decides what to keep
        exc.results = Results(contract_version=CONTRACT_VERSION, engine=info,  # type: ignore[attr-defined]
                              ruleset=ruleset, suite_version=__version__, started=started, finished=now(),
                              partial=True, command=command, cases=results, summary=Results.count(results))
        raise
    out = Results(contract_version=CONTRACT_VERSION, engine=info, ruleset=ruleset, suite_version=__version__,
                  started=started, finished=now(),
                  partial=partial, command=command, cases=results, summary=Results.count(results))
    if aborted is not None:
        raise EngineAborted(aborted, out)
    return out


def _note_contract(hello: Hello) -> None:
    """An engine written against an older contract is told, once, on stderr, where the changes are listed."""
    declared = hello.contract_version
    if declared is not None and declared < CONTRACT_VERSION:
        print(f"tcg-oracle: engine {hello.engine.name} declares contract version {declared}; this suite's is "
              f"{CONTRACT_VERSION}: see CHANGELOG.md for what changed (refusal codes, fields, rulesets)",
              file=sys.stderr)


class Ahead:
    """The requests after the current one, written before its reply is checked, to an engine that pipelines
    (``prefetch``, capability ``pipeline``): the engine plays them while the harness compares. ``make(i)`` is
    the request of item ``i`` of ``count`` (``None``: an item not sent, a skipped case); each is made once."""

    def __init__(self, engine: Engine, make: Callable[[int], CaseRequest | None], count: int,
                 timeout: float | None = None) -> None:
        self.prefetch = getattr(engine, "prefetch", None)
        self.timeout = timeout  # each write is bounded like a reply
        self.window = getattr(engine, "window", 1) if callable(self.prefetch) else 1
        self.make, self.count = make, count
        self.made: dict[int, CaseRequest | None] = {}
        self.sent = -1  # the last index considered for sending

    def request(self, at: int) -> CaseRequest | None:
        if at not in self.made:
            self.made[at] = self.make(at)
        return self.made[at]

    def send_after(self, at: int) -> CaseRequest:
        """The request of item ``at``; and the next items' requests written while there is room."""
        request = self.request(at)
        assert request is not None, "a skipped item is never sent"
        if self.window > 1:
            self.prefetch(request, self.timeout)  # type: ignore[misc]  # first: its reply is the next one read
            self.sent = max(self.sent, at)
            while self.sent + 1 < self.count and self.sent + 1 - at < self.window:
                nxt = self.sent + 1
                try:
                    ahead = self.request(nxt)
                except Exception:  # said when that case runs, by run_case
                    break
                if ahead is not None and not self.prefetch(ahead, self.timeout):  # type: ignore[misc]
                    break
                self.sent = nxt
        self.made.pop(at, None)
        return request


def _unsupported(lc: LoadedCase, hello: Hello, engine: str) -> str | None:
    """Why the engine cannot be asked this case: it does not play the game, or the case's cards use an
    ability the engine declared it does not implement (``hello.abilities``)."""
    game = lc.case.game
    if game not in hello.games:
        return f"engine {engine} does not play {game}"
    if hello.abilities is not None and game in hello.abilities:
        missing = sorted(used_abilities(lc.case, lc.extra) - set(hello.abilities[game]))
        if missing:
            return f"needs abilities engine {engine} does not declare: {', '.join(missing)}"
    return None


def _per_case(errors: list[CaseFileError]) -> list[list[CaseFileError]]:
    """Case-file errors grouped by the case they belong to (by file and case id; the errors of a file's
    cases without a usable id are one group), in order."""
    groups: dict[tuple[str, str | None], list[CaseFileError]] = {}
    for err in errors:
        groups.setdefault((err.path, err.case_id or None), []).append(err)
    return list(groups.values())


def _game_of(path: str) -> str | None:
    from .. import registry

    return next((g for g in registry.names() if f"/{g}/" in path.replace("\\", "/")), None)
