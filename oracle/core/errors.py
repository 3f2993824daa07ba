"""Re-export of :mod:`oracle.errors` (where every error of tcg-oracle is defined) for the modules that
import the errors from here (the games). New code imports :mod:`oracle.errors`."""

from ..errors import (CaseFileError, EngineError, EngineStartError, LeftoverDecisions, MissingDecision,
                      OracleError, ScriptError)

__all__ = ["CaseFileError", "EngineError", "EngineStartError", "LeftoverDecisions", "MissingDecision",
           "OracleError", "ScriptError"]
