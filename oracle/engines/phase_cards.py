"""Magic card-pool entries -> MTGJSON-shaped card data for phase.rs (``phase.build_oracle_face``).

phase.rs reads a card's rules from its Oracle text, parsed by its own parser. This module writes that
text from the card's abilities in the suite's Magic vocabulary (``cases/mtg/cards.yaml``), each in the
Oracle wording of real cards with the same ability ("Flying", "Double strike, trample", "~ deals 3 damage to any
target.", "Whenever ~ attacks, defending player loses 1 life.", "~ must be blocked if able.", "All creatures able
to block ~ do so.", "~ blocks each combat if able.", "Put two +1/+1 counters on target creature.", "Proliferate.",
"Draw two cards.", "Return target permanent to its owner's hand."), so it works for any card of the pool, suite-local
pools included. Text a card-pool entry lists as unmodelled (``props.unmodeled``) is not given: no case
depends on it. A Siege needs no text: phase.rs gives every Siege its intrinsic abilities (CR 310.11).

Mana is not modelled (assumption ``mtg:A-no-mana``): every face costs ``{0}``.

No phase import here: the data is plain JSON, checked against phase's parse by ``phase_rs``.
"""

from __future__ import annotations

import hashlib
from typing import Any

from ..errors import UnsupportedCard  # re-exported: the adapter and its tests name it here

KEYWORDS = {"flying": "Flying", "reach": "Reach", "menace": "Menace", "haste": "Haste", "vigilance": "Vigilance",
            "first_strike": "First strike", "double_strike": "Double strike", "trample": "Trample"}
NUMBER_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")

FILLER = "Plains"
"""The library filler: a real basic land with its real Oracle text."""


def _word(n: int) -> str:
    return NUMBER_WORDS[n] if 0 <= n < len(NUMBER_WORDS) else str(n)


def _counters(n: int) -> str:
    """"a +1/+1 counter", "two +1/+1 counters"."""
    return f"{'a' if n == 1 else _word(n)} +1/+1 counter{'s' if n != 1 else ''}"


def _ability(ref: Any) -> tuple[str, Any]:
    if isinstance(ref, str):
        return ref, None
    (name, param), = ref.items()
    return name, param


def ability_text(name: str, param: Any, card: str) -> str | None:
    """The Oracle wording of one ability of the vocabulary (``None`` for a keyword: see :func:`keywords`)."""
    if name in KEYWORDS:
        return None
    if name == "deal_damage":
        return f"{card} deals {int(param)} damage to any target."
    if name == "gain_control":
        return "Gain control of target permanent."
    if name == "become_copy":
        return "Target permanent becomes a copy of another target battle."
    if name == "become_battle":
        return "Target creature becomes a battle in addition to its other types."
    if name == "become_creature":
        return (f"Target permanent becomes a {int(param['power'])}/{int(param['toughness'])} creature in addition "
                f"to its other types.")
    if name == "become_artifact_creature":
        return (f"Target permanent becomes a {int(param['power'])}/{int(param['toughness'])} artifact creature "
                f"and loses all other card types.")
    if name == "add_defense":
        n = int(param)
        return f"Put {_word(n)} defense counter{'s' if n != 1 else ''} on target battle."
    if name == "attack_drain":
        return f"Whenever {card} attacks, defending player loses {int(param)} life."
    if name == "must_be_blocked":
        return f"{card} must be blocked if able."
    if name == "lure":
        return f"All creatures able to block {card} do so."
    if name == "blocks_each_combat":
        return f"{card} blocks each combat if able."
    if name == "put_p1p1_counters":
        return f"Put {_counters(int(param))} on target creature."
    if name == "proliferate":
        return ("Proliferate. (Choose any number of permanents and/or players, then give each another counter of each "
                "kind already there.)")
    if name == "draw":
        n = int(param)
        return "Draw a card." if n == 1 else f"Draw {_word(n)} cards."
    if name == "return_to_hand":
        return "Return target permanent to its owner's hand."
    raise UnsupportedCard(f"{card}: no Oracle wording for ability {name!r}")


_KIND_NOUN = {"creature": "creature", "permanent": "permanent", "battle": "battle", "planeswalker": "planeswalker"}
_BLOCK_GRANTS = {"must_be_blocked": "must be blocked if able", "lure": None, "blocks_each_combat": "block each combat if able"}


def _target_phrase(filter_: dict[str, Any] | None) -> str:
    """"target creature an opponent controls", "target opponent", "any target" (a target's filter, 115.1)."""
    f = filter_ or {}
    kind, who = f.get("is", "permanent"), f.get("controller", "any")
    if kind == "any_target":
        return "any target"
    if kind == "player":
        return {"opponent": "target opponent", "any": "target player"}.get(who) or _unsupported(f"target player {who}")
    noun = ("another target " if f.get("other") else "target ") + _KIND_NOUN[kind]
    return noun + {"you": " you control", "opponent": " an opponent controls", "any": ""}[who]


def _each_phrase(filter_: dict[str, Any] | None) -> str:
    """"each creature your opponents control" (a filter with ``count: all``)."""
    f = filter_ or {}
    kind, who = f.get("is", "permanent"), f.get("controller", "any")
    if kind not in _KIND_NOUN:
        _unsupported(f"each {kind}")
    noun = ("each other " if f.get("other") else "each ") + _KIND_NOUN[kind]
    return noun + {"you": " you control", "opponent": " your opponents control", "any": ""}[who]


def _unsupported(what: str) -> Any:
    raise UnsupportedCard(f"no Oracle wording for a composition with {what}")


def _count_word(n: int, noun: str) -> str:
    return f"a {noun}" if n == 1 else f"{_word(n)} {noun}s"


def _token_phrase(param: dict[str, Any], pool: dict[str, Any] | None) -> str:
    """"create a 1/1 Soldier creature token" from the pool card that defines the token (111.3)."""
    d = (pool or {}).get(param["card"])
    if d is None:
        _unsupported(f"a token card {param['card']!r} outside the request's cards")
    n = int(param.get("count", 1))
    what = f"{d.get('power', 0)}/{d.get('toughness', 0)} " + " ".join([*d.get("subtypes", []), *d.get("types", [])])
    return f"create {'a' if n == 1 else _word(n)} {what} token{'s' if n != 1 else ''}"


def _effect_phrase(kind: str, param: Any, on: str | None, targets: dict[str, dict[str, Any]], card: str,
                   pool: dict[str, Any] | None) -> str:
    """One effect of a composed ability in Oracle wording (``on``: this, subject or a target's name)."""
    def obj(default: str = card) -> str:
        if on in (None, "this"):
            return default
        t = targets.get(on)
        if t is None:
            _unsupported(f"an effect on {on!r}")
        return _each_phrase(t.get("filter")) if t.get("count", 1) == "all" else _target_phrase(t.get("filter"))
    if kind == "deal_damage":
        return f"it deals {int(param)} damage to {obj()}"
    if kind == "lose_life":
        return f"{obj()} loses {int(param)} life"
    if kind == "draw":
        return f"{obj()} draws {_count_word(int(param), 'card')}" if on else f"draw {_count_word(int(param), 'card')}"
    if kind == "discard":
        return f"{obj()} discards {_count_word(int(param), 'card')}"
    if kind == "discard_at_random":
        return f"{obj()} discards {_count_word(int(param), 'card')} at random"
    if kind == "put_p1p1_counters":
        return f"put {_counters(int(param))} on {obj()}"
    if kind == "create_token":
        return _token_phrase(param, pool)
    if kind == "defending_player_loses_life" and on in (None, "this"):
        return f"defending player loses {int(param)} life"
    return _unsupported(f"the effect {kind}")


def _trigger_phrase(when: dict[str, Any], card: str) -> str:
    event, watch, cond = when["event"], when.get("watch", "this"), when.get("condition") or {}
    if event == "entered":
        if watch == "this" and not cond:
            return f"When {card} enters"
        if watch == "another_yours":
            return f"Whenever another {cond.get('is', 'permanent')} you control enters"
    if event == "put_into_graveyard" and cond.get("is", "creature") == "creature" and set(cond) <= {"is"}:
        if watch == "this":
            return f"When {card} dies"
        if watch == "another_yours":
            return "Whenever another creature you control dies"
    if event == "became_attacker" and watch == "this":
        n = int(cond.get("attackers_at_least", 1))
        if n == 1:
            return f"Whenever {card} attacks"
        return f"Whenever {card} and at least {_word(n - 1)} other creature{'s' if n > 2 else ''} attack"
    return _unsupported(f"the trigger {when}")


def composed_text(kind: str, param: dict[str, Any], card: str, pool: dict[str, Any] | None = None) -> str:
    """A ``triggered`` or ``static`` composition (oracle.core.compose) in the Oracle wording of real cards:
    "When ~ enters, it deals 2 damage to target creature an opponent controls.", "Other creatures you control
    have vigilance." A part with no wording here is :class:`UnsupportedCard`."""
    if kind == "static":
        affects, grants = param.get("affects", "this"), list(param.get("grants") or [])
        if param.get("rules") or param.get("condition") or not grants or affects == "this":
            return _unsupported(f"the static {param}")
        words = []
        for g in grants:
            if g not in KEYWORDS:
                _unsupported(f"the grant {g}")
            words.append(KEYWORDS[g].lower())
        f = affects
        subject = ("Other " if f.get("other") else "") + ("creatures" if f.get("is") == "creature" else "permanents")
        subject = subject[0].upper() + subject[1:]
        subject += {"you": " you control", "opponent": " your opponents control", "any": ""}[f.get("controller", "any")]
        return f"{subject} have {' and '.join(words)}."
    if param.get("cost") or set(param.get("condition") or {}) - {"you_control"}:
        _unsupported("a condition or a cost")
    targets = {t["name"]: t for t in param.get("targets") or []}
    if any(isinstance(t.get("count", 1), int) and t.get("count", 1) != 1 for t in targets.values()):
        _unsupported("a target of several objects")
    effects = []
    for e in param["effects"]:
        (k, v), = ((k, v) for k, v in e.items() if k != "on")
        effects.append(_effect_phrase(k, v, e.get("on"), targets, card, pool))
    body = " and ".join(effects)
    if param.get("optional"):
        if not body.startswith(("create", "draw", "put")):
            _unsupported("an optional effect not done by the ability's controller")
        body = "you may " + body
    return f"{_trigger_phrase(param['when'], card)}, {_if_phrase(param.get('condition'))}{body}."


def _if_phrase(condition: dict[str, Any] | None) -> str:
    """603.4's intervening "if": "if you control three or more creatures, " (empty without a condition)."""
    control = (condition or {}).get("you_control")
    if not control:
        return ""
    return f"if you control {_word(int(control['at_least']))} or more {_KIND_NOUN[control.get('is', 'permanent')]}s, "


def rules_text(card: dict[str, Any], pool: dict[str, Any] | None = None) -> str:
    """The card's rules text in Oracle wording: keywords on the first line, then one line per ability."""
    refs = [_ability(a) for a in card.get("abilities", [])]
    kws = [KEYWORDS[n] for n, _ in refs if n in KEYWORDS]
    lines = [", ".join([kws[0], *[k.lower() for k in kws[1:]]])] if kws else []
    lines += [t for n, p in refs
              if (t := (composed_text(n, p, card["name"], pool) if n in ("triggered", "static")
                        else ability_text(n, p, card["name"]))) is not None]
    return "\n".join(lines)


def keywords(card: dict[str, Any]) -> list[str]:
    return [KEYWORDS[n] for n, _ in (_ability(a) for a in card.get("abilities", [])) if n in KEYWORDS]


def oracle_id(name: str) -> str:
    """A stable UUID-shaped oracle id for a card (one per card: both faces of a transforming card share it)."""
    h = hashlib.md5(name.encode("utf-8")).hexdigest()
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:32]}"


def _type_line(types: list[str], subtypes: list[str], supertypes: list[str] = ()) -> str:
    line = " ".join([*supertypes, *types])
    return line + (" — " + " ".join(subtypes) if subtypes else "")


def face(card: dict[str, Any], *, name: str | None = None, supertypes: tuple[str, ...] = (),
         pool: dict[str, Any] | None = None) -> dict[str, Any]:
    """One face as an MTGJSON atomic card (the fields phase's ``build_oracle_face`` reads)."""
    types = [t.capitalize() for t in card.get("types", [])]
    subtypes = list(card.get("subtypes", []))
    out: dict[str, Any] = {
        "name": name or card["name"], "manaCost": "{0}", "manaValue": 0.0, "colors": [], "colorIdentity": [],
        "text": rules_text(card, pool), "layout": "normal", "type": _type_line(types, subtypes, list(supertypes)),
        "types": types, "subtypes": subtypes, "supertypes": list(supertypes), "keywords": keywords(card),
        "legalities": {}, "identifiers": {"scryfallOracleId": oracle_id(name or card["name"])},
    }
    if card.get("power") is not None:
        out["power"], out["toughness"] = str(card["power"]), str(card.get("toughness") or 0)
    if card.get("defense") is not None:
        out["defense"] = str(card["defense"])
    loyalty = (card.get("props") or {}).get("loyalty")
    if loyalty is not None:
        out["loyalty"] = str(loyalty)
    return out


def transform_faces(card: dict[str, Any], pool: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """A transforming double-faced card: both faces named ``Front // Back``, ``faceName``/``side`` a and b."""
    full = f"{card['name']} // {card['back']['name']}"
    faces = []
    for side, d in (("a", card), ("b", card["back"])):
        f = face(d, name=full, pool=pool)
        f.update(faceName=d["name"], side=side, layout="transform",
                 identifiers={"scryfallOracleId": oracle_id(full)})
        faces.append(f)
    return faces


def filler() -> dict[str, Any]:
    f = face({"name": FILLER, "types": ["land"], "subtypes": ["Plains"]}, supertypes=("Basic",))
    f["text"] = "({T}: Add {W}.)"
    return f
