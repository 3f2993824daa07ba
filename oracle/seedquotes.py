"""Seed quotes verbatim: a case or card whose ``source.kind`` is ``seed`` quotes its seed text exactly
(``tcg-oracle validate --seeds DIR``; the seed is ``source.seed``, else the game's seed file)."""

from __future__ import annotations

from pathlib import Path

from . import registry
from .errors import CaseFileError
from .loader import LoadedCase, _compose, _line_of, load_cards


def seed_quote_errors(cases: list[LoadedCase], seeds: Path) -> tuple[int, list[CaseFileError]]:
    """(how many seed quotes were checked, the located errors of those that are not verbatim): the cases',
    and the cards' of the built-in pools and of the suites' own pools the cases use."""
    texts: dict[str, str | None] = {}

    def text(seed: str) -> str | None:
        if seed not in texts:
            f = seeds / seed
            texts[seed] = f.read_text(encoding="utf-8") if f.is_file() else None
        return texts[seed]

    checked = 0
    errors: list[CaseFileError] = []
    missing: dict[str, int] = {}  # a seed file not in the folder: said once, with how many quotes need it
    for lc in cases:
        src = lc.case.source
        if src.kind != "seed":
            continue
        checked += 1
        seed = getattr(src, "seed", None) or registry.get(lc.case.game).seed
        if text(seed) is None:
            missing[seed] = missing.get(seed, 0) + 1
            continue
        why = _why(src.quote, seed, text(seed))
        if why:
            errors.append(CaseFileError(lc.path, why, line=_quote_line(lc), case_id=lc.case.id, field="source.quote"))
    pools = {(lc.case.game, lc.extra) for lc in cases}
    seen: set[tuple[str, str]] = set()
    for game, extra in sorted(pools, key=lambda p: (p[0], len(p[1]))):
        for card in load_cards(game, None, extra).values():
            src = card.source
            if src is None or src.kind != "seed" or (game, card.name) in seen:
                continue
            seen.add((game, card.name))
            checked += 1
            seed = getattr(src, "seed", None) or registry.get(game).seed
            if text(seed) is None:
                missing[seed] = missing.get(seed, 0) + 1
                continue
            why = _why(src.quote, seed, text(seed))
            if why:
                errors.append(CaseFileError(_pool_of(game, extra, card.name), f"card {card.name!r}: {why}",
                                            field="source.quote"))
    for seed, n in missing.items():
        errors.append(CaseFileError(str(seeds), f"the seed text {seed} is not in this folder: {n} seed quote(s) "
                                                f"cannot be checked"))
    return checked - sum(missing.values()), errors


def _why(quote: str, seed: str, text: str) -> str | None:
    if quote not in text:
        return f"the quote is not verbatim in the seed {seed}: {quote[:80]!r}" + ("..." if len(quote) > 80 else "")
    return None


def _quote_line(lc: LoadedCase) -> int | None:
    """The line of the case's ``source.quote`` (the case's own line when it cannot be found)."""
    try:
        data, node = _compose(Path(lc.path).read_text(encoding="utf-8"), lc.path)
    except (CaseFileError, OSError, UnicodeDecodeError):
        return lc.line
    nodes = node.value if isinstance(data, list) else [node]
    for n in nodes:
        if n.start_mark.line + 1 == lc.line:
            return _line_of(n, ("source", "quote")) or lc.line
    return lc.line


def _pool_of(game: str, extra: tuple[Path, ...], name: str) -> str:
    """The card pool file that defines ``name``: the suite's own cards.yaml when it does, else the game's."""
    from .loader import CARDS_FILE, game_dir

    for f in extra:
        if f.name == CARDS_FILE and name in f.read_text(encoding="utf-8"):
            return str(f)
    return str(game_dir(game) / CARDS_FILE)
