"""Every exception tcg-oracle defines, in one tree under :class:`OracleError` (as Hypothesis's ``errors.py``).

Catch :class:`OracleError` for "anything tcg-oracle raised on purpose". Where callers already expect a
builtin, the error is one too: the errors of bad input on the command line or in a file are
``ValueError``\\ s, an output that cannot be written is an ``OSError``. Every error says what was wrong and
where (file, line, field; the engine spec; the path)::

    OracleError
    ├── CaseFileError               a case, catalog or card-pool file is invalid (file, line, case, field)
    ├── InputError (ValueError)     bad input given to a command
    │   ├── YamlSyntaxError           not YAML (line, column)
    │   │   └── YamlLimitError          past a size / nesting / alias limit
    │   ├── LimitError                a limit of oracle.limits passed (line, field)
    │   ├── BaselineError             a baseline file that cannot be read
    │   ├── MergeError                results files that cannot be merged
    │   ├── SelectError               a malformed ``-k`` expression
    │   ├── EngineSpecError           a malformed ``--engine`` spec (exit 2)
    │   └── ShardError                a malformed ``--shard I/N``
    ├── OutputError (OSError)       an output that cannot be written
    ├── CaseFailure                 a case failed as a pytest item (the plugin's report)
    ├── ScriptError                 the case's script cannot drive the engine
    │   ├── MissingDecision
    │   └── LeftoverDecisions
    ├── CannotSetUp                 the engine under test cannot be given this case's board or decision (skip)
    ├── EngineError                 the engine under test broke (costs one case)
    │   ├── ProtocolError             it answered something that is not a valid reply
    │   └── EngineStartError          it could not start or failed its handshake (exit 3)
    │       └── EngineAborted           it could not be restarted mid-run (the results so far attached)
    └── Signal                      control flow, never an error (caught inside tcg-oracle)
        ├── Refusal                   a validator refuses a decision (a rules answer)
        ├── GameOver                  a player has won
        ├── Stopped                   a legality query's decision was taken
        ├── OpenPoint                 the script ended at an open point: the case ends there (Magic's priority)
        └── Unreachable               a board whose attack the engine refuses (Z3 agreement)

The one exception outside the tree is :class:`oracle.signals.Interrupted`, a ``KeyboardInterrupt`` on
purpose (a stop signal must not be caught by ``except Exception``).

This module imports nothing of tcg-oracle: any module may import it.
"""

from __future__ import annotations

from typing import Any


class OracleError(Exception):
    """Base of every error tcg-oracle raises on purpose."""


# -- bad input -----------------------------------------------------------------------------------

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


class InputError(OracleError, ValueError):
    """Bad input given to a command (a file, an option): exit code 2. A ``ValueError`` too."""


class LimitError(InputError):
    """A limit of :mod:`oracle.limits` was passed; ``line`` (from 1) where, when known; ``field`` the
    path to it."""

    def __init__(self, message: str, line: int | None = None, field: str | None = None) -> None:
        self.message, self.line, self.field = message, line, field
        super().__init__(message)


class YamlSyntaxError(InputError):
    """Not YAML. ``line`` and ``column`` count from 1; ``message`` says what and, when known, where the
    construct that is left open started."""

    def __init__(self, problem: str, line: int | None, column: int | None, context: str | None,
                 context_line: int | None) -> None:
        self.problem, self.line, self.column = problem, line, column
        notes = [f"column {column}"] if column else []
        if context and context_line:
            notes.append(f"{context} started at line {context_line}")
        self.message = f"YAML syntax error: {problem}" + (f" ({'; '.join(notes)})" if notes else "")
        super().__init__(self.message)


class YamlLimitError(YamlSyntaxError):
    """A file past one of :mod:`oracle.limits`' limits (size, nesting, alias expansion, value length).
    A subclass of :class:`YamlSyntaxError` so every reader that reports one reports the other."""

    def __init__(self, exc: LimitError) -> None:
        super().__init__(exc.message, exc.line, None, None, None)
        self.message = f"{exc.message} (see the README's limits)"
        self.args = (self.message,)


class BaselineError(InputError):
    """A baseline file that cannot be read; the message names the file (and the line when known)."""


class MergeError(InputError):
    """Results files that cannot be read or merged; the message names the file."""


class SelectError(InputError):
    """A malformed ``-k`` expression; the message quotes it and says what is wrong."""


class EngineSpecError(InputError):
    """A malformed ``--engine`` spec (bad usage, exit 2); the message says how to write one."""


class ShardError(InputError):
    """A malformed ``--shard I/N``; the message says how to write one."""


class OutputError(OracleError, OSError):
    """An output that cannot be written; the message names the path and the reason. An ``OSError`` too."""


class CaseFailure(OracleError):
    """A case failed or erred as a pytest item (the plugin); the message is the whole report."""


# -- the case's script ---------------------------------------------------------------------------

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


# -- the engine under test -----------------------------------------------------------------------

class CannotSetUp(OracleError):
    """An in-process adapter cannot give its engine this case: a board it has no way to place (a zone the engine
    lacks), or a decision it has no action for. Not a rules answer and not a breakage: the runner reports the case
    as ``skip`` with this message as the reason (``oracle.engines.kit``)."""


class EngineError(OracleError):
    """The engine under test broke: could not start, broke the protocol, crashed or hung."""


class MutantHang(EngineError):
    """A mutant engine (in process) played one case past its time limit: its misreading never settles."""


class ProtocolError(EngineError):
    """The engine answered something that is not a valid reply (costs one case)."""


class EngineStartError(EngineError):
    """The engine could not be started or failed its handshake (exit code 3)."""


class EngineAborted(EngineStartError):
    """The engine could not be restarted mid-run; ``results`` holds what was run (partial)."""

    def __init__(self, message: str, results: Any) -> None:
        super().__init__(message)
        self.results = results


# -- control flow --------------------------------------------------------------------------------

class Signal(OracleError):
    """Control flow, not an error: raised and caught inside tcg-oracle (one that escapes is a bug)."""


class Refusal(Signal):
    """Raised by a validator: the decision is illegal. ``reason`` is a code of the game's vocabulary;
    ``clause`` the rule it breaks, when that is not the clause at which the decision was asked."""

    def __init__(self, reason: str, detail: str = "", clause: str | None = None) -> None:
        self.reason, self.detail, self.clause = reason, detail, clause
        super().__init__(f"{reason}: {detail}" if detail else reason)


class Stopped(Signal):
    """A legality query's decision has been taken (accepted or refused): play stops there."""

    def __init__(self, at: int) -> None:
        self.at = at
        super().__init__(f"stopped after decision {at}")


class OpenPoint(Signal):
    """The script ended at an open point (a priority decision, or the active player's move in a main phase, with
    no script entry left): the case ends there (Magic, assumption mtg:A-priority)."""


class GameOver(Signal):
    """Raised when a player has won; the engine stops."""

    def __init__(self, winner: str | None) -> None:
        self.winner = winner
        super().__init__(f"game over, winner {winner}")


class Unreachable(Signal):
    """Z3 agreement: the engine refuses the board's attack itself, so there is no block to judge."""


# -- engines under test and fuzzing ----------------------------------------------------------------------


class UnsupportedCard(CannotSetUp):
    """A card-pool entry the phase.rs adapter cannot give phase.rs: an ability with no Oracle wording there,
    or a text phase.rs does not parse to the intended effect (a :class:`CannotSetUp`: its cases are skipped,
    never failed)."""


class Disagreement(OracleError, AssertionError):
    """``tcg-oracle fuzz``: the engine and the reference disagree on a generated case (an AssertionError, so
    Hypothesis shrinks it as a failing test)."""


class PatchError(InputError):
    """A mutant names a patch point the game does not have (renamed or removed)."""


class EngineBuildError(OracleError):
    """Building an engine under test from a source tree failed: a missing toolchain, source tree or dependency,
    or a failed build step; the message says what to install or pass (``python -m oracle.engines.shobu build``)."""
