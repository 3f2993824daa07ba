"""The limits page (docs/authors/limits.md) states the limits the code enforces (``oracle/limits.py``)."""

from __future__ import annotations

import re
from pathlib import Path

from oracle import limits

LIMITS = Path(__file__).resolve().parents[2] / "docs" / "authors" / "limits.md"


def test_the_limits_page_states_each_limit():
    table = re.search(r"# Limits\n(.*?)\Z", LIMITS.read_text(encoding="utf-8"), re.S).group(1)
    for value in (limits.YAML_MAX_CHARS, limits.YAML_MAX_DEPTH, limits.YAML_MAX_NODES, limits.YAML_MAX_SCALAR,
                  limits.ZONE_MAX_CARDS, limits.SETUP_MAX_PLAYERS, limits.SCRIPT_MAX_DECISIONS,
                  limits.FREEFORM_MAX_VALUES, limits.JSON_MAX_DEPTH, limits.TEXT_LIMIT):
        assert f"| {value:,}" in table or f" {value:,} " in table, value
    assert limits.INT_MAX == 2 ** 53 and "2**53" in table
    assert limits.LINE_MAX_BYTES == 64 * 1024 * 1024 and "64 MiB" in table
