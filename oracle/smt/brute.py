"""Block legality by brute force, in plain Python, read from the rule text independently of the z3
models (``solver.py``): the twin the solver's enumeration is checked against.

``legal(board, decl)`` judges one declaration; ``count(board)`` tries every declaration
(:meth:`BlockBoard.declarations`).
"""

from __future__ import annotations

from collections import Counter

from .block_board import BlockBoard, Declaration


def _ijinden(board: BlockBoard, decl: Declaration) -> bool:
    # B1: アタックされたプレイヤーは防御側になり、ブロッカーにするイジンまたはガーディアンを0体以上、
    #     それぞれアタッカーを指定して選ぶ。寝ている状態のイジンやガーディアンは選べない。
    defender = next(p for p in board.players if p != board.active)
    for blocker, attacker in decl:
        card = board.card(blocker)
        # ウォッチャー (イジンデン コラム 第12廻): 寝ていてもブロッカーになれる
        if card.controller != defender or card.kind not in ("ijin", "guardian") or (
                card.tapped and "watcher" not in card.keywords):
            return False
        # イジンにブロックされない (イジンデンQ&A_240216's card text): no Ijin blocks that attacker
        if card.kind == "ijin" and "unblockable_by_ijin" in board.card(attacker).keywords:
            return False
    # B1 / TRIPLE-PRESSURE: pressure N needs N or more blockers (or none)
    per_attacker = Counter(a for _, a in decl)
    return all(n >= board.card(a).pressure for a, n in per_attacker.items())


def _dm_can_block(board: BlockBoard, card, defender: str) -> bool:
    # A3: 相手バトルゾーンにブロッカー; X-blocker-taps: a tapped ブロッカー cannot block
    return card.controller == defender and card.kind == "creature" and "blocker" in card.keywords and not card.tapped


def _duelmasters(board: BlockBoard, decl: Declaration) -> bool:
    # U3: シールドが決められた後ではブロックすることはできません
    if board.shield_chosen and decl:
        return False
    # A3: one ブロッカー intercepts the attack (代わりにバトルを行う): one blocker per attack
    if len(decl) > 1:
        return False
    (attack,) = board.attacks
    defender = attack.target if attack.target in board.players else board.card(attack.target).controller
    for blocker, _attacker in decl:
        if not _dm_can_block(board, board.card(blocker), defender):
            return False
    # 「可能であればブロックする」 (CR507.1b; the seed's one blocker, X-blocks-if-able-seed): when a creature that
    # must block if able can block this attack, the one blocker is one of them
    required = {c for c in board.candidates if "blocks_if_able" in board.card(c).keywords
                and _dm_can_block(board, board.card(c), defender)}
    if required and not board.shield_chosen:
        return any(b in required for b, _ in decl)
    return True


def _mtg(board: BlockBoard, decl: Declaration) -> bool:
    for blocker, attacker in decl:
        attack = next(a for a in board.attacks if a.attacker == attacker)
        if attack.target in board.players:
            defender = attack.target
        else:  # 310.8c: only the battle's protector's creatures block its attackers
            target = board.card(attack.target)
            defender = target.protector if target.kind == "battle" else target.controller
        card = board.card(blocker)
        # 509.1a untapped creatures the defending player controls; battles can't block (summary.no-combat)
        if card.kind != "creature" or card.tapped or card.controller != defender:
            return False
        # flying (CR 702.9b): blocked only by creatures with flying or reach (reach, CR 702.17b)
        if "flying" in board.card(attacker).keywords and not {"flying", "reach"} & card.keywords:
            return False
    # menace (CR 702.111b): can't be blocked except by two or more creatures
    per_attacker = Counter(a for _, a in decl)
    return all(n >= 2 for a, n in per_attacker.items() if "menace" in board.card(a).keywords)


_RULES = {"ijinden": _ijinden, "duelmasters": _duelmasters, "mtg": _mtg}


def legal(board: BlockBoard, decl: Declaration) -> bool:
    return _RULES[board.game](board, decl)


def legal_declarations(board: BlockBoard) -> list[Declaration]:
    return [d for d in board.declarations() if legal(board, d)]


def count(board: BlockBoard) -> int:
    return len(legal_declarations(board))


def divide(board: BlockBoard) -> dict[str, int]:
    """Per attacker (perft's divide): how many legal declarations block it."""
    out = {a: 0 for a in board.attackers}
    for d in legal_declarations(board):
        for a in {a for _, a in d}:
            out[a] += 1
    return out


# ------------------------------------------------------------------------------------------------
# Magic block requirements (CR 509.1c): the declaration must obey as many requirements as possible
# without breaking a restriction. Requirements, as keywords: an attacker that "must be blocked if able"
# (must_be_blocked: obeyed when something blocks it); "all creatures able to block it do so" (lure: one
# requirement per potential blocker, obeyed when that creature blocks it); a creature that "blocks each
# combat if able" (blocks_each_combat: obeyed when it blocks).

REQUIREMENTS = ("must_be_blocked", "lure", "blocks_each_combat")


def obeyed(board: BlockBoard, decl: Declaration) -> int:
    """How many requirements ``decl`` obeys."""
    blocked = {a for _, a in decl}
    blocking = {b for b, _ in decl}
    n = 0
    for a in board.attackers:
        kw = board.card(a).keywords
        n += "must_be_blocked" in kw and a in blocked
        if "lure" in kw:
            n += sum((c, a) in decl for c in board.candidates)
    n += sum("blocks_each_combat" in board.card(c).keywords and c in blocking for c in board.candidates)
    return n


def legal_with_requirements(board: BlockBoard) -> list[Declaration]:
    """The declarations that break no restriction and obey the most requirements (509.1c)."""
    ok = legal_declarations(board)
    best = max(obeyed(board, d) for d in ok)  # the empty declaration always breaks no restriction
    return [d for d in ok if obeyed(board, d) == best]
