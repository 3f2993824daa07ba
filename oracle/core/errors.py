"""The error hierarchy. Every error says what was wrong and where."""

from __future__ import annotations


class OracleError(Exception):
    """Base of every error tcg-oracle raises on purpose."""


class CaseFileError(OracleError):
    """A case, catalog or card-pool file is invalid. Names file, line, case id and field."""

    def __init__(self, path: str, message: str, *, line: int | None = None,
                 case_id: str | None = None, field: str | None = None) -> None:
        self.path, self.line, self.case_id, self.field, self.message = path, line, case_id, field, message
        super().__init__(str(self))

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else self.path
        parts = [where]
        if self.case_id:
            parts.append(f"case {self.case_id}")
        if self.field:
            parts.append(f"field {self.field}")
        return ": ".join(parts) + f": {self.message}"


class ScriptError(OracleError):
    """The case's script cannot drive the engine (a needed decision is missing, or one is left over).

    A case error, not a rules answer: the case is reported as ``error``."""


class MissingDecision(ScriptError):
    def __init__(self, player: str, kinds: tuple[str, ...], clause: str, at: int) -> None:
        self.player, self.kinds, self.clause, self.at = player, kinds, clause, at
        super().__init__(
            f"the script ended at decision {at}, but the engine needed a decision of {player!r} "
            f"({' or '.join(kinds)}) at {clause}; add it to the case's script"
        )


class LeftoverDecisions(ScriptError):
    def __init__(self, at: int, count: int, why: str) -> None:
        self.at, self.count = at, count
        super().__init__(f"{count} decision(s) from index {at} were never used: {why}")


class EngineError(OracleError):
    """The engine under test broke: could not start, broke the protocol, crashed or hung."""


class EngineStartError(EngineError):
    """The engine could not be started or failed its handshake (exit code 3)."""
