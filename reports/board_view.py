"""A case's setup as a board to draw: players in turn order, their zones, the cards with their state.

Plain data (dicts and lists) so that the HTML report can embed it as JSON and ``tcg-oracle explain``
can print it. Stats the setup leaves empty are read from the game's card pool when it loads.
"""

from __future__ import annotations

from typing import Any, Mapping

# How each game names the turned-sideways state (Ijinden: 寝かせる / sleeping; the others: tapped).
TAPPED_WORD = {"ijinden": "sleeping"}

_STATS = ("power", "toughness", "defense")
_FLAGS = ("attacker", "blocker", "destroyed", "summoning_sick")


def tapped_word(game: str) -> str:
    return TAPPED_WORD.get(game, "tapped")


def ability_label(ref: Any) -> str:
    """``'double_pressure'`` or ``{'attack_plus': 1000}`` -> ``attack_plus 1000``."""
    if isinstance(ref, dict) and len(ref) == 1:
        (name, params), = ref.items()
        if isinstance(params, dict):
            params = ", ".join(f"{k} {v}" for k, v in params.items())
        return f"{name} {params}" if params not in (None, "") else str(name)
    return str(ref)


def card_view(cs: Mapping[str, Any], pool: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """One card of the setup: id, name, stats, badges (sleeping, counters, attacker, ...)."""
    name = str(cs.get("card", "?"))
    base = pool.get(name) if pool else None
    view: dict[str, Any] = {"id": str(cs.get("id", "?")), "name": name}
    for stat in _STATS:
        v = cs.get(stat)
        if v is None and base is not None:
            v = getattr(base, stat, None) if not isinstance(base, dict) else base.get(stat)
        if v is not None:
            view[stat] = v
    if cs.get("tapped") or cs.get("sleeping"):
        view["tapped"] = True
    abilities = list(cs.get("abilities") or [])
    if base is not None:
        own = getattr(base, "abilities", None) if not isinstance(base, dict) else base.get("abilities")
        abilities = list(own or []) + abilities
    if abilities:
        view["abilities"] = [ability_label(a) for a in abilities]
    badges = []
    if cs.get("entered_this_turn"):
        badges.append("entered this turn")
    props = dict(cs.get("props") or {})
    for flag in _FLAGS:
        if props.pop(flag, None):
            badges.append(flag)
    for k in ("protector", "attached_to", "face", "owner", "controller"):
        if cs.get(k) is not None:
            badges.append(f"{k.replace('_', ' ')} {cs[k]}")
    for k, v in (cs.get("counters") or {}).items():
        badges.append(f"{v}× {k} counter")
    for k, v in props.items():
        badges.append(f"{k} {v}" if v is not True else str(k))
    if base is not None and getattr(base, "synthetic", False):
        badges.append("synthetic")
    if badges:
        view["badges"] = badges
    return view


def board_view(case: Mapping[str, Any] | None, pool: Mapping[str, Any] | None = None) -> dict[str, Any] | None:
    """The setup of a case (as dumped in results) as a board; None when the case is not known."""
    setup = (case or {}).get("setup")
    if not isinstance(setup, dict):
        return None
    players = []
    for pid, p in (setup.get("players") or {}).items():
        p = p or {}
        zones = []
        for zone, content in p.items():
            if zone in ("life", "team"):
                continue
            if isinstance(content, int):
                zones.append({"zone": zone, "count": content})
            elif isinstance(content, list):
                zones.append({"zone": zone, "cards": [card_view(c, pool) for c in content if isinstance(c, dict)]})
        player: dict[str, Any] = {"id": str(pid), "zones": zones}
        if p.get("life") is not None:
            player["life"] = p["life"]
        if p.get("team") is not None:
            player["team"] = p["team"]
        player["active"] = pid == setup.get("active")
        players.append(player)
    out: dict[str, Any] = {"active": setup.get("active"), "turn": setup.get("turn", 1),
                           "phase": setup.get("phase", "main"), "players": players,
                           "tapped_word": tapped_word(str(case.get("game", "")))}
    if setup.get("props"):
        out["props"] = {str(k): v for k, v in setup["props"].items()}
    return out


def script_view(case: Mapping[str, Any] | None) -> list[list[Any]]:
    """The script as ``[index, player, kind, args]`` rows."""
    out = []
    for i, d in enumerate((case or {}).get("script") or []):
        if isinstance(d, dict) and "player" in d:
            out.append([i, d.get("player"), d.get("kind"), d.get("args")])
        elif isinstance(d, dict) and len(d) == 1:
            (player, body), = d.items()
            if isinstance(body, dict) and len(body) == 1:
                (kind, args), = body.items()
            else:
                kind, args = body, None
            out.append([i, player, kind, args])
    return out
