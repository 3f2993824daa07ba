"""The kill matrix of ``tcg-oracle mutants --results FILE`` as the report shows it: per clause, its
mutants and how many the cases kill (a clause with a survivor is *weakly tested*, shown beside asserted
coverage); per case, the mutants it kills."""

from __future__ import annotations

from typing import Any


def kill_view(matrices: list[dict[str, Any]], games: list[str]) -> dict[str, Any] | None:
    """One view of one or more kill-matrix files (the later file wins for a mutant named twice)."""
    if not matrices:
        return None
    mutants: dict[str, dict[str, Any]] = {}
    rules_of: dict[str, str] = {}
    for m in matrices:
        for row in m.get("mutants", []):
            mutants[row["name"]] = row
    clauses: dict[str, dict[str, Any]] = {}
    cases: dict[str, list[str]] = {}
    for row in mutants.values():
        c = clauses.setdefault(row["clause"], {"mutants": [], "killed": 0, "survivors": [], "own": 0})
        c["mutants"].append(row["name"])
        if row.get("killed_by"):
            c["killed"] += 1
        else:
            c["survivors"].append(row["name"])
        for cid in row.get("kills", []):
            cases.setdefault(cid, []).append(row["name"])
        rules_of[row["name"]] = row["clause"]
    for m in matrices:  # killed by the clause's own cases, as the mutants command counted it
        for cid, row in m.get("clauses", {}).items():
            if cid in clauses:
                clauses[cid]["own"] = max(clauses[cid]["own"], int(row.get("killed_by_own_cases", 0)))
    per_game = []
    for g in games + sorted({r["game"] for r in mutants.values()} - set(games)):
        rows = [r for r in mutants.values() if r["game"] == g]
        if not rows:
            continue
        killed = sum(1 for r in rows if r.get("killed_by"))
        per_game.append({"game": g, "mutants": rows, "killed": killed, "total": len(rows),
                         "rate": 100.0 * killed / len(rows),
                         "cases": sorted(((cid, ms) for cid, ms in cases.items()
                                          if any(mutants[x]["game"] == g for x in ms)), key=lambda t: t[0])})
    return {"clauses": clauses, "games": per_game,
            "weak": sorted(c for c, row in clauses.items() if row["survivors"]),
            "total": len(mutants), "killed": sum(1 for r in mutants.values() if r.get("killed_by"))}
