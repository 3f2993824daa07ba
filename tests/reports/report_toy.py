"""A tiny invented game for the report and explain tests (not a real card game).

rtoy:ATTACK the active player attacks with one untapped card of theirs; it taps and attacks (one moment);
rtoy:BLOCK  the other player blocks with one untapped card of theirs, or not (args null);
rtoy:WIN    an unblocked attack wins the game;
rtoy:FIGHT  a blocked attack: the card with less power is destroyed; equal powers: both, at once.
rtoy:TERMS  a definition (not scenario-testable).
"""

from __future__ import annotations

from pathlib import Path

import yaml

from oracle.core.board import Board, Card
from oracle.core.game import run_procedure
from oracle.core.script import GameOver, Refusal
from oracle.core.vocabulary import CORE_EVENTS, CORE_REASONS, DecisionSpec, EventSpec, Vocabulary, specs
from oracle.model import CaseReply, EngineInfo, Hello, TraceEntry

GAME_NAME = "rtoy"
ZONES = ("battlefield", "deck", "graveyard")
XSS = "<script>alert(1)</script>"

VOCABULARY = Vocabulary(
    game=GAME_NAME,
    events=specs(*CORE_EVENTS,
                 EventSpec("tapped", ("card",), "the attacker taps", "card"),
                 EventSpec("attacked", ("card", "player"), "a card attacks", "card"),
                 EventSpec("blocked", ("card", "by"), "the attacker is blocked", "card"),
                 EventSpec("destroyed", ("card",), "a card is destroyed", "card")),
    decisions=specs(DecisionSpec("attack", "card", "rtoy:ATTACK"), DecisionSpec("block", "card | null", "rtoy:BLOCK")),
    reasons={**CORE_REASONS, "attacker_tapped": "rtoy:ATTACK"},
    zones=ZONES,
    abilities={},
    card_fields={"zone": "zone", "tapped": "bool"},
)


def _build(req, trace) -> Board:
    board = Board(list(req.setup["players"]), req.setup["active"], ZONES, trace)
    for pid, p in req.setup["players"].items():
        for zone in ZONES:
            content = p.get(zone)
            if isinstance(content, int):
                board.fill_anonymous(pid, zone, content)
            for cs in content if isinstance(content, list) else []:
                d = req.cards[cs["card"]]
                board.place(Card(id=cs["id"], name=cs["card"], owner=pid, controller=pid, zone=zone, definition=d,
                                 tapped=cs.get("tapped", False), power=cs.get("power", d.get("power"))))
    return board


def _play(board: Board, script) -> None:
    active = board.active
    other = board.opponents(active)[0]
    trace = board.trace

    def attacker(d):
        card = board.cards.get(d.args) if isinstance(d.args, str) else None
        if card is None or card.controller != active:
            raise Refusal("unknown_object")
        if card.tapped:
            raise Refusal("attacker_tapped")
        return card

    _, a = script.decide(active, ("attack",), "rtoy:ATTACK", attacker)
    with trace.simultaneous():
        a.tapped = True
        trace.emit("tapped", "rtoy:ATTACK", card=a.id)
        trace.emit("attacked", "rtoy:ATTACK", card=a.id, player=active)

    def blocker(d):
        if d.args is None:
            return None
        card = board.cards.get(d.args) if isinstance(d.args, str) else None
        if card is None or card.controller != other:
            raise Refusal("unknown_object")
        return card

    _, b = script.decide(other, ("block",), "rtoy:BLOCK", blocker)
    if b is None:
        trace.emit("won", "rtoy:WIN", player=active)
        raise GameOver(active)
    trace.emit("blocked", "rtoy:BLOCK", card=a.id, by=b.id)
    losers = [c for c in (a, b) if c.power <= max(a.power, b.power) and (c.power < max(a.power, b.power) or a.power == b.power)]
    with trace.simultaneous():
        for c in losers:
            trace.emit("destroyed", "rtoy:FIGHT", card=c.id)
    with trace.simultaneous():
        for c in losers:
            board.move(c.id, "graveyard", "rtoy:FIGHT")


def _project(board: Board) -> dict:
    return {"players": board.project_zones(),
            "cards": {c.id: {"zone": c.zone, "tapped": c.tapped} for c in board.cards.values()}}


class RToy:
    name = GAME_NAME
    title = "Report toy"
    seed = "none"
    vocabulary = VOCABULARY

    def run(self, request):
        return run_procedure(request, _build, _play, _project)


GAME = RToy()


class OneAtATime:
    """An engine under test with one misreading of rtoy:FIGHT: losers are destroyed one at a time."""

    def hello(self) -> Hello:
        return Hello(engine=EngineInfo(name="one-at-a-time", version="1"), games=[GAME_NAME])

    def run_case(self, request, timeout=None) -> CaseReply:
        reply = GAME.run(request)
        out, shift, seen = [], 0, set()
        for e in reply.trace:
            if e.kind == "destroyed" and e.moment in seen:
                shift += 1
            seen.add(e.moment)
            out.append(TraceEntry(moment=e.moment + shift, kind=e.kind, args=e.args, clause=e.clause))
        return CaseReply(id=reply.id, trace=out, final=reply.final, winner=reply.winner)

    def close(self) -> None:
        pass


CATALOG = {
    "game": GAME_NAME,
    "documents": [{"id": "rtoy-rules", "title": "Report toy rules"}],
    "rulesets": [{"id": "rtoy-1", "title": "first edition", "default": True}],
    "clauses": [
        {"id": "rtoy:ATTACK", "text": "アタックする。", "summary": "The active player attacks with one card.", "document": "rtoy-rules"},
        {"id": "rtoy:BLOCK", "text": "ブロックする。", "summary": "The other player may block.", "document": "rtoy-rules"},
        {"id": "rtoy:WIN", "text": "勝つ。", "summary": "An unblocked attack wins.", "document": "rtoy-rules"},
        {"id": "rtoy:FIGHT", "text": "同時に破壊する。", "summary": "Losers are destroyed at once.", "document": "rtoy-rules"},
        {"id": "rtoy:UNUSED", "text": "使われない。", "summary": "A clause no case covers.", "document": "rtoy-rules"},
        {"id": "rtoy:TERMS", "text": "用語。", "summary": "Definitions.", "document": "rtoy-rules", "testable": False,
         "reason": "definitional"},
    ],
    "assumptions": [{"id": "rtoy:assume.ties", "reading": "Equal powers: both lose.", "weighed": ["同時に破壊する。"],
                     "clauses": ["rtoy:FIGHT"]}],
}


def _case(cid: str, title: str, alice_card: str, script: list, expect: dict, **extra) -> dict:
    return {"id": cid, "game": GAME_NAME, "rulesets": ["rtoy-1"], "title": title,
            "source": {"kind": "external", "document": "Report toy rules", "edition": "1", "url": "https://example.org/rtoy",
                       "quote": f"Quote of {title}"},
            "rules": extra.pop("rules", ["rtoy:ATTACK", "rtoy:FIGHT"]),
            "setup": {"active": "alice", "players": {
                "alice": {"battlefield": [{"id": "a1", "card": alice_card, "power": 2000},
                                          {"id": "a2", "card": "soldier", "tapped": True, "counters": {"shield": 1}}],
                          "deck": 5},
                "bob": {"battlefield": [{"id": "b1", "card": "soldier", "power": 2000}], "deck": 5}}},
            "script": script, "expect": expect, **extra}


def write_toy(root: Path) -> Path:
    """The toy game's catalog, card pool and cases under ``root/rtoy``: a tie (the misreading fails
    it), an unblocked win, a refused attack, and a case whose title and card name hold a script tag."""
    game = root / GAME_NAME
    game.mkdir(parents=True, exist_ok=True)
    (game / "rules.yaml").write_text(yaml.safe_dump(CATALOG, allow_unicode=True), encoding="utf-8")
    cards = {"game": GAME_NAME, "cards": [{"name": "soldier", "synthetic": True, "power": 1000},
                                          {"name": f"evil {XSS}", "synthetic": True, "power": 1000}]}
    (game / "cards.yaml").write_text(yaml.safe_dump(cards, allow_unicode=True), encoding="utf-8")
    tie_events = [[{"tapped": "a1"}, {"attacked": "a1"}], {"blocked": {"card": "a1", "by": "b1"}},
                  [{"destroyed": "a1"}, {"destroyed": "b1"}]]
    cases = [
        _case("rtoy.fight.tie", "Equal powers: both are destroyed at once", "soldier",
              [{"alice": {"attack": "a1"}}, {"bob": {"block": "b1"}}],
              {"events": tie_events, "final": {"players": {"alice": {"graveyard": ["a1"]}}}},
              assumptions=["rtoy:assume.ties"]),
        _case("rtoy.win.unblocked", "An unblocked attack wins", "soldier",
              [{"alice": {"attack": "a1"}}, {"bob": {"block": None}}],
              {"events": [{"won": "alice"}], "winner": "alice"}, rules=["rtoy:ATTACK", "rtoy:WIN"]),
        _case("rtoy.attack.tapped-refused", "A tapped card cannot attack", "soldier",
              [{"alice": {"attack": "a2"}}, {"alice": {"attack": "a1"}}, {"bob": {"block": None}}],
              {"rejected": {"at": 0, "reason": "attacker_tapped"}, "winner": "alice"},
              rules=["rtoy:ATTACK", "rtoy:WIN"]),
        _case("rtoy.xss.title", f"Title {XSS} here", f"evil {XSS}",
              [{"alice": {"attack": "a1"}}, {"bob": {"block": "b1"}}], {"events": tie_events}),
    ]
    (game / "cases.yaml").write_text(yaml.safe_dump(cases, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return game
