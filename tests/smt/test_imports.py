"""oracle/smt never imports a game module, and only the solver's users import z3 (issue 12, DESIGN)."""

from __future__ import annotations

import ast
from pathlib import Path

SMT = Path(__file__).resolve().parents[2] / "oracle" / "smt"
Z3_USERS = {"solver.py", "battle.py", "prove.py", "order_explain.py", "requirements.py"}
"""The models and the proofs, and the ordering explanation; everything else stays z3-free at import."""


def imports(path: Path) -> set[str]:
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = "." * node.level + (node.module or "")
            out |= {base} | {f"{base}.{a.name}" for a in node.names}
    return out


def test_smt_never_imports_a_game():
    for path in SMT.glob("*.py"):
        for name in imports(path):
            assert "games" not in name.split("."), f"{path.name} imports {name}"


def test_z3_only_where_the_solver_is_needed():
    for path in SMT.glob("*.py"):
        uses_z3 = any(n == "z3" or n.startswith("z3.") for n in imports(path))
        assert uses_z3 == (path.name in Z3_USERS), path.name
