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


def shard_of_command(command: str | None) -> tuple[int, int] | None:
    """The ``--shard I/N`` of a recorded command line (``Results.command``), or ``None``."""
    import shlex  # noqa: PLC0415

    try:
        words = shlex.split(command or "")
    except ValueError:
        return None
    for k, w in enumerate(words):
        text = words[k + 1] if w == "--shard" and k + 1 < len(words) else w[8:] if w.startswith("--shard=") else None
        if text is not None:
            try:
                return parse_shard(text)
            except ValueError:
                return None
    return None


def missing_shards(commands: list[str | None]) -> str | None:
    """Which shards a set of sharded runs lacks (``"2/4, 4/4"``), or ``None`` when none is missing or
    the runs were not sharded. Runs sharded in different counts are said too."""
    shards = [s for s in map(shard_of_command, commands) if s is not None]
    if not shards:
        return None
    counts = sorted({n for _, n in shards})
    if len(counts) > 1:
        return f"the runs were split in different shard counts ({', '.join(map(str, counts))})"
    n = counts[0]
    missing = sorted(set(range(1, n + 1)) - {i for i, _ in shards})
    return ", ".join(f"{i}/{n}" for i in missing) or None
