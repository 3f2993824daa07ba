"""``--shard I/N``: a deterministic split of cases by a stable hash of their id."""

from __future__ import annotations

import hashlib


def parse_shard(text: str) -> tuple[int, int]:
    """``"2/4"`` -> ``(2, 4)``; shards count from 1."""
    try:
        i, n = (int(x) for x in text.split("/"))
    except ValueError:
        raise ValueError(f"--shard {text!r}: write I/N, e.g. 1/4") from None
    if not (n >= 1 and 1 <= i <= n):
        raise ValueError(f"--shard {text!r}: I must be between 1 and N, and N at least 1")
    return i, n


def in_shard(case_id: str, i: int, n: int) -> bool:
    h = int.from_bytes(hashlib.sha256(case_id.encode()).digest()[:8], "big")
    return h % n == i - 1


def shard_of(case_id: str, n: int) -> int:
    """The shard (from 1) of ``n`` that runs ``case_id``."""
    return next(i for i in range(1, n + 1) if in_shard(case_id, i, n))
