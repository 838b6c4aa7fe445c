"""Checking a solver position before any search: every error names the parameter at fault."""

from __future__ import annotations

from collections.abc import Sequence

from whist_sim.cards import FULL_DECK, SUIT_MASKS, SUIT_NAMES, card_str, cards_str

OBJECTIVES = ("most", "none")
"""``most``: side 0 takes as many tricks as it can; ``none``: as few as it can."""


class SolverInputError(ValueError):
    """A position or setting the solver cannot work on (the message says which and why)."""


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def check_target(target: object) -> None:
    """``takes_at_least``'s ``target`` must be a whole number (a text failed inside the
    search comparing it with an int; the compiled twin, inside numba's typing)."""
    if not _is_int(target):
        raise SolverInputError(
            f"target = {target!r} is not allowed; allowed: a whole number of tricks (side 0"
            " takes at least that many); 0 or less is always reached")


def check_position(
    hands: Sequence[int],
    leader: int,
    trump: int,
    sides: Sequence[int],
    objective: str,
    trick: Sequence[int],
) -> None:
    """Raise ``SolverInputError`` unless the arguments describe a legal position.

    The seats that already played to ``trick`` (the leader and those after it) hold one
    card fewer than the others; a card played off the suit led while its player still
    holds that suit is a revoke and is refused too.
    """
    players = len(hands)
    if not 2 <= players <= 4:
        raise SolverInputError(
            f"hands has {players} hands; allowed: 2, 3 or 4 hands, one per seat in seat order"
        )
    seen = 0
    for seat, hand in enumerate(hands):
        if not _is_int(hand) or not 0 <= hand <= FULL_DECK:
            raise SolverInputError(
                f"hands[{seat}] = {hand!r} is not a card mask; allowed: an int with bits 0..51"
            )
        if seen & hand:
            raise SolverInputError(
                f"hands overlap: seat {seat} holds {cards_str(seen & hand)}, already in an"
                " earlier hand"
            )
        seen |= hand
    if not _is_int(leader) or not 0 <= leader < players:
        raise SolverInputError(
            f"leader = {leader!r} is not a seat; allowed: 0..{players - 1}"
        )
    if not _is_int(trump) or not -1 <= trump <= 3:
        raise SolverInputError(
            f"trump = {trump!r} is not allowed; allowed: 0..3 (S H D C) or -1 for no trump"
        )
    if len(sides) != players or any(not _is_int(s) or s not in (0, 1) for s in sides):
        raise SolverInputError(
            f"sides = {list(sides)!r} is not allowed; allowed: one 0 or 1 per seat"
            f" ({players} values), e.g. [0, 1, 0, 1]"
        )
    if objective not in OBJECTIVES:
        raise SolverInputError(
            f"objective = {objective!r} is not allowed; allowed: 'most' (side 0 takes as"
            " many tricks as it can) or 'none' (as few as it can)"
        )
    _check_trick(hands, leader, trick, seen)


def _check_trick(hands: Sequence[int], leader: int, trick: Sequence[int], held: int) -> None:
    players = len(hands)
    if len(trick) > players - 1:
        raise SolverInputError(
            f"trick has {len(trick)} cards; allowed: 0..{players - 1} (a complete trick is"
            " no longer current)"
        )
    played = 0
    for card in trick:
        if not _is_int(card) or not 0 <= card < 52:
            raise SolverInputError(f"trick holds {card!r}; allowed: card numbers 0..51")
        if (held | played) >> card & 1:
            raise SolverInputError(
                f"trick card {card_str(card)} is also in a hand or played twice"
            )
        played |= 1 << card
    if trick:
        led = trick[0] // 13
        for i, card in enumerate(trick[1:], 1):
            seat = (leader + i) % players
            if card // 13 != led and hands[seat] & SUIT_MASKS[led]:
                raise SolverInputError(
                    f"trick: seat {seat} played {card_str(card)} but must follow"
                    f" {SUIT_NAMES[led]} (holds {cards_str(hands[seat] & SUIT_MASKS[led])})"
                )
    to_move = (leader + len(trick)) % players
    size = hands[to_move].bit_count()
    for seat, hand in enumerate(hands):
        expected = size - 1 if (seat - leader) % players < len(trick) else size
        if hand.bit_count() != expected:
            raise SolverInputError(
                f"hands[{seat}] holds {hand.bit_count()} cards but seat {to_move} (to move)"
                f" holds {size}; allowed: every hand the same size, one card fewer for each"
                f" seat that already played to trick ({len(trick)} cards)"
            )
