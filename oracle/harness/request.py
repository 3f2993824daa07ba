"""A loaded case -> the request an engine sees (plain JSON data: setup, script, card definitions)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..loader import load_cards
from ..model import LEVELS, Case, CaseRequest, Hello
from .compare import reads


def used_cards(case: Case) -> set[str]:
    names = set()
    for p in case.setup.players.values():
        for content in p.zones.values():
            if not isinstance(content, int):
                names.update(cs.card for cs in content)
    return names


def setup_abilities(case: Case) -> list[Any]:
    """The abilities a case's setup adds to its cards."""
    return [cs.abilities for p in case.setup.players.values() for content in p.zones.values()
            if not isinstance(content, int) for cs in content]


def with_referenced(names: set[str], pool, added: Any = ()) -> set[str]:
    """``names`` and every card of the pool their abilities (and ``added``: abilities a setup gives its cards) name as
    ``card: <name>`` (a token an ability creates, Magic 111.3: its characteristics are that card's), transitively:
    the request carries their definitions."""
    out, todo = set(names), list(names)

    def walk(x) -> None:
        if isinstance(x, dict):
            for k, v in x.items():
                if k == "card" and isinstance(v, str) and v in pool and v not in out:
                    out.add(v)
                    todo.append(v)
                else:
                    walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)

    walk(added)
    while todo:
        card = pool.get(todo.pop())
        while card is not None:
            walk(card.abilities)
            card = card.back
    return out


def used_abilities(case: Case, extra: tuple[Path, ...] = ()) -> set[str]:
    """The ability names the case's cards use: their card-pool entries (both faces) and what the setup
    adds (``extra``: the suite's own card pool, see :func:`oracle.loader.load_cards`)."""
    pool = load_cards(case.game, None, extra)
    names: set[str] = set()

    def add(refs) -> None:
        names.update(r if isinstance(r, str) else next(iter(r)) for r in refs)

    for n in with_referenced(used_cards(case), pool, setup_abilities(case)):
        card = pool.get(n)
        while card is not None:
            add(card.abilities)
            card = card.back
    for p in case.setup.players.values():
        for content in p.zones.values():
            if not isinstance(content, int):
                for cs in content:
                    add(cs.abilities)
    return names


VIEWS_CAPABILITY = "views"
"""The hello capability of an engine that reads the request's ``views``: only such an engine is sent it."""


def views_read(case: Case, hello: Hello | None) -> list[str] | None:
    """The reply views the harness reads for ``case`` at the level of the engine's ``hello`` (the request's
    optional ``views``); ``None`` -- the field is not sent -- for an engine whose hello does not list the
    capability ``views`` (every engine written before it: no request carries a field it does not know), a
    protocol-1 engine, or no hello.

    ``final`` (with ``winner``) and ``decisions`` always; ``trace`` at level ``trace``, ``steps`` at level
    ``steps``; ``checkpoints`` from level ``checkpoints`` up when a check reads them
    (:func:`oracle.harness.compare.reads`: a state after decision N), and below level ``trace`` also when
    the case expects a refusal (that it changed nothing is read from the checkpoints there; at level
    ``trace`` it is read from the trace)."""
    if hello is None or hello.v1 or VIEWS_CAPABILITY not in hello.capabilities:
        return None
    level = hello.observation
    views = ["final", "decisions"]
    if level in ("trace", "steps"):
        views.append(level)
    if LEVELS.index(level) >= LEVELS.index("checkpoints") and (
            "checkpoints" in reads(case) or (level != "trace" and case.expect.rejected)):
        views.append("checkpoints")
    return views


def make_request(case: Case, ruleset: str, extra: tuple[Path, ...] = (), views: list[str] | None = None
                 ) -> CaseRequest:
    """The request of ``case``; ``views``: what the harness will read of the reply (:func:`views_read`)."""
    pool = load_cards(case.game, None, extra)
    cards = {n: pool[n].model_dump(mode="json", exclude_none=True) for n in sorted(with_referenced(used_cards(case), pool,
                                                                                       setup_abilities(case)))}
    setup = case.setup.model_dump(mode="json", exclude_none=True)
    script = [d.model_dump(mode="json") for d in case.script]
    return CaseRequest(id=case.id, game=case.game, ruleset=ruleset, setup=setup, script=script, cards=cards,
                       views=views)
