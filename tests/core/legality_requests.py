"""Requests for the hand-counted legal-decision tests (``test_legality.py``, ``test_legality_counts_mtg.py``): a setup
of cards of the game's pool, and playing on to the point that asks a kind of decision."""

from __future__ import annotations

from oracle.core import legality as L
from oracle.loader import load_cards
from oracle.model import Setup


def request(game: str, ruleset: str, setup: dict, script: list | tuple = ()) -> dict:
    pool = load_cards(game)
    setup = Setup.model_validate(setup).model_dump(mode="json", exclude_none=True)
    names = {c["card"] for p in setup["players"].values() for z in p.values() if isinstance(z, list) for c in z}
    cards = {n: pool[n].model_dump(mode="json", exclude_none=True) for n in names}
    return {"game": game, "ruleset": ruleset, "setup": setup, "script": list(script), "cards": cards}


def advance_to(request: dict, kind: str) -> L.Pending:
    """Play on to the point asking ``kind``, passing priority where a priority point comes first."""
    while True:
        p = L.legal_decisions(request, len(request["script"]))
        if kind in p.kinds or p.point is None or "pass" not in p.kinds:
            return p
        request["script"].append({p.player: "pass"})
