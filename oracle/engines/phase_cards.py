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
        n = int(param)
        return f"Put {_word(n) if n != 1 else 'a'} +1/+1 counter{'s' if n != 1 else ''} on target creature."
    if name == "proliferate":
        return ("Proliferate. (Choose any number of permanents and/or players, then give each another counter of each "
                "kind already there.)")
    if name == "draw":
        n = int(param)
        return "Draw a card." if n == 1 else f"Draw {_word(n)} cards."
    if name == "return_to_hand":
        return "Return target permanent to its owner's hand."
    raise UnsupportedCard(f"{card}: no Oracle wording for ability {name!r}")


def rules_text(card: dict[str, Any]) -> str:
    """The card's rules text in Oracle wording: keywords on the first line, then one line per ability."""
    refs = [_ability(a) for a in card.get("abilities", [])]
    kws = [KEYWORDS[n] for n, _ in refs if n in KEYWORDS]
    lines = [", ".join([kws[0], *[k.lower() for k in kws[1:]]])] if kws else []
    lines += [t for n, p in refs if (t := ability_text(n, p, card["name"])) is not None]
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


def face(card: dict[str, Any], *, name: str | None = None, supertypes: tuple[str, ...] = ()) -> dict[str, Any]:
    """One face as an MTGJSON atomic card (the fields phase's ``build_oracle_face`` reads)."""
    types = [t.capitalize() for t in card.get("types", [])]
    subtypes = list(card.get("subtypes", []))
    out: dict[str, Any] = {
        "name": name or card["name"], "manaCost": "{0}", "manaValue": 0.0, "colors": [], "colorIdentity": [],
        "text": rules_text(card), "layout": "normal", "type": _type_line(types, subtypes, list(supertypes)),
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


def transform_faces(card: dict[str, Any]) -> list[dict[str, Any]]:
    """A transforming double-faced card: both faces named ``Front // Back``, ``faceName``/``side`` a and b."""
    full = f"{card['name']} // {card['back']['name']}"
    faces = []
    for side, d in (("a", card), ("b", card["back"])):
        f = face(d, name=full)
        f.update(faceName=d["name"], side=side, layout="transform",
                 identifiers={"scryfallOracleId": oracle_id(full)})
        faces.append(f)
    return faces


def filler() -> dict[str, Any]:
    f = face({"name": FILLER, "types": ["land"], "subtypes": ["Plains"]}, supertypes=("Basic",))
    f["text"] = "({T}: Add {W}.)"
    return f
