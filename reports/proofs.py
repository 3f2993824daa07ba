"""Bounded proofs in the coverage table: ``tcg-oracle prove --json FILE`` read back, clause by clause.

A clause is *proved* (for boards of up to K cards) when a property tied to it was proved; a property with
a counterexample or an unknown result proves nothing and is listed as such, so the column never claims
more than the prove run showed.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class ProofRow:
    property: str
    statement: str
    status: str  # proved | counterexample | unknown
    max_cards: int


def load_proofs(path: str | Path) -> dict[str, list[ProofRow]]:
    """clause id -> the properties tied to it, from a ``prove --json`` file; ``ValueError`` naming the file
    and what is wrong otherwise."""
    p = Path(path)
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ValueError(f"{p}: cannot read the proofs file: {exc.strerror or exc}") from None
    except ValueError as exc:
        raise ValueError(f"{p}: the proofs file is not JSON: {exc}") from None
    if not isinstance(data, dict) or data.get("schema_version") != 1 or not isinstance(data.get("properties"), list):
        raise ValueError(f"{p}: not the output of 'tcg-oracle prove --json' (a mapping with schema_version 1 and "
                         f"a list of properties)")
    out: dict[str, list[ProofRow]] = {}
    for i, prop in enumerate(data["properties"]):
        try:
            row = ProofRow(str(prop["property"]), str(prop.get("statement", "")), str(prop["status"]),
                           int(prop.get("max_cards", data.get("max_cards", 0))))
            clauses = [str(c) for c in prop["clauses"]]
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"{p}: properties[{i}] lacks or mistypes a field ({exc})") from None
        for c in clauses:
            out.setdefault(c, []).append(row)
    return out
