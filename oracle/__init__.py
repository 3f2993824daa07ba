"""tcg-oracle: a rules test-oracle and conformance suite for trading-card-game battle rules.

The engine-author API, imported from here (each name is loaded on first use, so ``import oracle`` -- and
the ``tcg-oracle`` command's start -- stays light)::

    from oracle import Engine, CaseRequest, CaseReply, Hello, EngineInfo   # the protocol, in process
    from oracle import load_suite, make_engine, run_suite                  # load cases, run them on an engine
    from oracle import legal_decisions, check                              # the legal decisions at a point
    from oracle import OracleError, EngineError, CaseFileError             # the errors (all of oracle.errors)
"""

from __future__ import annotations

import importlib
from typing import Any

__version__ = "0.1.0"
CONTRACT_VERSION = 2
"""The version of the contract between the suite and an engine -- refusal codes and their hierarchy, event
and decision fields, abilities, ruleset ids, protocol messages (docs/contract.md, CHANGELOG.md). 1 was the
contract of release 0.1.0; it grows by one with every change an engine or a case file may notice. In the
reference's hello and in every results file."""

_ERRORS = ("OracleError", "CaseFileError", "InputError", "LimitError", "YamlSyntaxError", "YamlLimitError",
           "BaselineError", "MergeError", "SelectError", "EngineSpecError", "ShardError", "OutputError",
           "CaseFailure", "ScriptError", "MissingDecision", "LeftoverDecisions", "EngineError", "CannotSetUp", "MutantHang", "ProtocolError",
           "EngineStartError", "EngineAborted", "Signal", "Refusal", "Stopped", "OpenPoint", "GameOver", "Unreachable",
           "UnsupportedCard", "Disagreement", "PatchError", "EngineBuildError")

_EXPORTS: dict[str, str] = {
    "Engine": "oracle.harness.engine",
    "ReferenceEngine": "oracle.harness.engine",
    "make_engine": "oracle.harness.adapters",
    "CaseRequest": "oracle.model",
    "CaseReply": "oracle.model",
    "Hello": "oracle.model",
    "EngineInfo": "oracle.model",
    "LegalityRequest": "oracle.model",
    "LegalityReply": "oracle.model",
    "Results": "oracle.model",
    "load_suite": "oracle.loader",
    "run_suite": "oracle.harness.runner",
    "legal_decisions": "oracle.core.legality",
    "check": "oracle.core.legality",
    **dict.fromkeys(_ERRORS, "oracle.errors"),
}

__all__ = ["__version__", "CONTRACT_VERSION", *_EXPORTS]


def __getattr__(name: str) -> Any:
    """The public names, imported from their modules on first use (PEP 562)."""
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'oracle' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # later look-ups skip this function
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS))
