"""Replay a recorded deal from a run folder through the engine, trick by trick.

The deal is rebuilt from its seed, checked against the recorded hands, and the
chosen actions of the log are applied again: a replay that diverges from the
record (another engine version, a corrupt file) is reported, not papered over.
A run played from a deal set (``tournament.deals_file``) dealt its cards from the
file, not the seed, so its deals are rebuilt from the recorded cards instead.

The action log is the record the rest follows from: the outcome the replay
reaches is checked against the deal's ``seats`` rows (tricks, score, net,
result) and its ``tricks`` rows (leader, cards, winner), and any disagreement
raises RunFolderError naming the deal and the seat or trick. Raising rather than
printing the replay with a note: a seats row that contradicts its own action log
means the run's tables cannot all be trusted (an edited file, or a strategy that
tampered with the outcome in the process that recorded it), and a replay shown
as if nothing were wrong is how a forged winner goes unnoticed.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl

from whist_sim.cards import SUIT_NAMES, SUITS, card_str, cards_str
from whist_sim.games import make_game
from whist_sim.games.base import DealState
from whist_sim.games.knockout_whist import ROUND_FIELDS
from whist_sim.play import EVERY_SEAT_FORFEITS
from whist_sim.store import RunFolder, RunFolderError
from whist_sim.store.lock import shown_status


@dataclass
class Replay:
    """A replayed deal: its record, the engine state at the end, and a text rendering."""

    deal_key: str
    record: dict
    state: DealState
    text: str


def replay_deal(run: Path | str, deal_key: str) -> Replay:
    """Replay deal ``deal_key`` (as in the ``deal_key`` column, e.g. ``0-12-1-0``)."""
    folder = RunFolder.open(run)
    if not isinstance(deal_key, str):
        raise TypeError(f"deal_key = {deal_key!r} is not a deal key: keys are text,"
                        " pairing-deal-rotation-hand, e.g. '0-12-1-0'")
    numbers = _key_numbers(deal_key)
    if numbers is None:
        raise RunFolderError(
            f"{folder.path}: {deal_key!r} is not a deal key: a key is four whole numbers,"
            " pairing-deal-rotation-hand, e.g. 0-12-1-0 (the deal_key column of the deals"
            " table)"
        )
    deal_key = "-".join(map(str, numbers))  # ' 0-012-1-0 ' is 0-12-1-0
    deals = folder.scan("deals").filter(pl.col("deal_key") == deal_key).collect()
    if deals.height == 0:
        status = str(folder.meta().get("status") or "complete")
        unfinished = "" if status == "complete" else (
            f"; the run is {shown_status(folder.path, status)}, so deals it has not played"
            f" yet have no record: whist-sim run --resume {folder.path} plays them")
        raise RunFolderError(
            f"{folder.path}: no deal {deal_key!r} (pairing-deal-rotation-hand):"
            f" {_what_is_missing(folder, numbers)}{unfinished}"
        )
    record = deals.row(0, named=True)
    actions = (
        folder.scan("actions").filter(pl.col("deal_key") == deal_key).sort("step").collect()
    )
    game = make_game(record["game"], json.loads(record["variant"]), len(record["hands"]))
    context = {"score": tuple(record["score_before"])} if record.get("score_before") else {}
    if _from_deal_set(folder):
        state = game.deal_from_record(record, record["dealer"], record["seed"], **context)
    else:
        state = game.new_deal(record["seed"], record["dealer"], **context)
    if state.deal_record()["hands"] != record["hands"]:
        raise RunFolderError(
            f"deal {deal_key}: seed {record['seed']} no longer deals the recorded hands"
            f" (recorded with game version {record['game_version']}, engine is {game.version})"
        )
    for row in actions.iter_rows(named=True):
        if row["chosen"] and state.to_act >= 0:
            state.apply(game.parse_action(row["action"]))
    seats = folder.scan("seats").filter(pl.col("deal_key") == deal_key).collect()
    if record["status"] == "forfeit":
        # every entrant benched: the runner's words and every seat's forfeit, not the words
        # alone, which a strategy's own error could hold
        if (EVERY_SEAT_FORFEITS in (record["error"] or "")
                and seats.height and (seats["result"] == "forfeit").all()):
            state.forfeit_by_every_seat(record["forfeit_seat"], record["error"])
        else:
            state.forfeit(record["forfeit_seat"], record["error"])
    if state.log != [
        (r["seat"], r["phase"], game.parse_action(r["action"]), r["chosen"])
        for r in actions.iter_rows(named=True)
    ] and record["status"] == "ok":
        raise RunFolderError(f"deal {deal_key}: the replay diverges from the recorded log")
    tricks = folder.scan("tricks").filter(pl.col("deal_key") == deal_key).collect()
    notes = disagreements(state, list(seats.iter_rows(named=True)),
                          list(tricks.iter_rows(named=True)))
    if notes:
        others = len(notes) - 1
        more = f" (and {others} more disagreement{'s' * (others > 1)})" if others else ""
        raise RunFolderError(
            f"deal {deal_key} of {folder.path}: the record disagrees with its own action log:"
            f" {notes[0]}{more}; the seats or tricks table was altered after play, or a"
            " strategy tampered with the outcome where it was recorded"
        )
    return Replay(deal_key, record, state, render(record, state, game))


def disagreements(
    state: DealState, seats: list[dict[str, Any]], tricks: list[dict[str, Any]]
) -> list[str]:
    """Where the recorded ``seats`` and ``tricks`` rows of a deal differ from its replay
    (``state``, the deal replayed to its end): one note per seat or trick, empty if none."""
    outcome = state.outcome()
    notes: list[str] = []
    by_seat = {row["seat"]: row for row in seats}
    for seat in range(len(outcome.tricks)):
        replayed = (outcome.tricks[seat], outcome.score[seat], outcome.net[seat],
                    outcome.result[seat])
        row = by_seat.pop(seat, None)
        if row is None:
            notes.append(f"seat {seat} has no seats row")
            continue
        recorded = (row["tricks"], row["score"], row["net"], row["result"])
        if recorded != replayed:
            notes.append(f"seat {seat} ({row['strategy']}) is recorded with"
                         f" {_outcome(*recorded)}, the replay gives {_outcome(*replayed)}")
    notes += [f"a seats row names seat {seat}, which the deal does not have" for seat in by_seat]
    played = state.completed_tricks()
    recorded_tricks = sorted(tricks, key=lambda row: row["trick"])
    if len(recorded_tricks) != len(played):
        notes.append(f"{len(recorded_tricks)} tricks are recorded, the replay plays {len(played)}")
    for row, trick in zip(recorded_tricks, played, strict=False):
        cards = [card_str(c) for c in trick.cards]
        if (row["trick"], row["leader"], list(row["cards"]), row["winner"]) != (
                trick.number, trick.leader, cards, trick.winner):
            notes.append(
                f"trick {row['trick']} is recorded as led by seat {row['leader']}"
                f" ({' '.join(row['cards'])}) and won by seat {row['winner']}, the replay"
                f" has trick {trick.number} led by seat {trick.leader} ({' '.join(cards)})"
                f" and won by seat {trick.winner}")
    return notes


def _key_numbers(deal_key: str) -> tuple[int, int, int, int] | None:
    """The four numbers of a deal key, or None when it is not four whole numbers."""
    parts = deal_key.strip().split("-")
    if len(parts) != 4 or not all(part.isascii() and part.isdigit() for part in parts):
        return None
    pairing, deal, rotation, hand = map(int, parts)
    return pairing, deal, rotation, hand


KEY_PARTS = ("pairing", "deal", "rotation", "hand")


def _what_is_missing(folder: RunFolder, numbers: tuple[int, int, int, int]) -> str:
    """Which part of a well-formed key the run does not have, and the values it does.

    Saying only "no deal" left a reader guessing whether the pairing, the deal index, the
    rotation or the hand was wrong (a probe's finding); the first part that matches no
    recorded deal is named with the values recorded under the parts before it.
    """
    rows = folder.scan("deals").select(*KEY_PARTS)
    for depth, (part, wanted) in enumerate(zip(KEY_PARTS, numbers, strict=True)):
        known = rows.select(pl.col(part).unique()).collect()[part].sort().to_list()
        if wanted not in known:
            under = ", ".join(f"{name} {n}" for name, n in zip(KEY_PARTS, numbers[:depth],
                                                            strict=False))
            where = f"the run's {part}s" if not depth else f"the {part}s of {under}"
            return f"{part} {wanted} is not recorded; {where} are {_values(known)}"
        rows = rows.filter(pl.col(part) == wanted)
    return "it is not recorded"


def _values(numbers: list[int]) -> str:
    """``0..39`` for a run of consecutive numbers, else the numbers (the first 10)."""
    if not numbers:
        return "none"
    if numbers == list(range(numbers[0], numbers[-1] + 1)) and len(numbers) > 2:
        return f"{numbers[0]}..{numbers[-1]}"
    shown = ", ".join(map(str, numbers[:10]))
    return shown + (f" ... ({len(numbers)} in all)" if len(numbers) > 10 else "")


def _outcome(tricks: int, score: float, net: float, result: str) -> str:
    return f"tricks {tricks}, score {score:g}, net {net:+g}, {result}"


def _from_deal_set(folder: RunFolder) -> bool:
    config = folder.meta().get("config")
    tournament = config.get("tournament") if isinstance(config, dict) else None
    return isinstance(tournament, dict) and bool(tournament.get("deals_file"))


def render(record: dict, state: DealState, game) -> str:
    """A human-readable account: who sat where, the cards, then each trick."""
    names = record["strategies"]
    lines = [
        f"Deal {record['deal_key']}  game {record['game']}  seed {record['seed']}",
        f"Variant {record['variant']}",
        f"Dealer: seat {record['dealer']} ({names[record['dealer']]})   "
        f"Trump: {_suit_name(record['trump'])}   Upcard: {record.get('upcard') or '-'}",
    ]
    for seat, hand in enumerate(record["hands"]):
        lines.append(f"Seat {seat} ({names[seat]}): {hand}")
    if record.get("stock"):
        lines.append(f"Stock (top first): {record['stock']}")
    lines.append("")
    log = state.log
    completed = state.completed_tricks()  # every round's, in Knock-out Whist
    trick_rounds = getattr(state, "all_trick_rounds", None)
    headers = _round_headers(state) if trick_rounds is not None else {}
    shown_round = 0
    i = 0
    trick_no = 0
    while i < len(log):
        seat, phase, action, chosen = log[i]
        if trick_rounds is not None:  # the round the next trick belongs to
            upcoming = trick_rounds[trick_no] if trick_no < len(trick_rounds) else state.round
            if upcoming != shown_round:
                shown_round = upcoming
                lines.append(headers.get(upcoming, f"Round {upcoming} (unfinished)"))
        if phase == "play":
            # a trick is as many plays as its record holds (Knock-out tables shrink as
            # players go out, and a dog that knocked plays no card); the last, unfinished
            # trick is the plays left in a row
            record_ = completed[trick_no] if trick_no < len(completed) else None
            size = len(record_.cards) if record_ is not None else len(log)
            trick_no += 1
            plays, cards = [], 0
            # a dog's knock is its turn in the trick, wherever the trick's order puts it:
            # after the last card too (a dog never leads, so a knock never starts one)
            while i < len(log) and ((cards < size and log[i][1] in ("play", "knock"))
                                    or log[i][1] == "knock"):
                who, kind, card, _ = log[i]
                if kind == "play":
                    plays.append(f"seat {who} {card_str(card)}")
                    cards += 1
                else:
                    plays.append(f"seat {who} knocks")
                i += 1
            won = f" -> seat {record_.winner} wins" if record_ else " (unfinished)"
            lines.append(f"Trick {trick_no:2d}: " + ", ".join(plays) + won)
            continue
        how = "" if chosen or phase == "draw" else " (forced)"
        verbs = {"take": "takes face-up", "draw": "draws", "bid": "calls", "trump": "names",
                 "lay": "lays face down", "turn": "turns up"}
        verb = verbs.get(phase, phase)
        lines.append(f"          seat {seat} {verb} {game.action_str(action)}{how}")
        i += 1
    if record["status"] == "ok" and record["game"] == "solo_whist" and state.contract < 0:
        lines.append(_throw_in(state))
    lines.append("")
    outcome = state.outcome()
    for seat in range(game.players):
        lines.append(
            f"Seat {seat} ({names[seat]}): {outcome.tricks[seat]} tricks,"
            f" score {outcome.score[seat]:g}, net {outcome.net[seat]:+g}, {outcome.result[seat]}"
        )
    if record["status"] != "ok":
        lines.append(f"Forfeited by seat {record['forfeit_seat']}: {record['error']}")
    return "\n".join(lines)


def _throw_in(state: Any) -> str:
    """Why a Solo Whist hand ended after its auction: the calls were followed by every
    seat's "draw" with no word on why (a probe)."""
    why = "all four passed" if state.level < 0 else "the Prop stood uncopped"
    return (f"Throw-in: {why}, so no card is played: no contract, no payment, a draw for"
            " every seat.")


def _round_headers(state: Any) -> dict[int, str]:
    """Knock-out Whist: per finished round, the line that opens it in a replay: its dealer,
    who was dealt how many cards (a dog one), and its trump and how it was fixed. The
    tricks' numbers run on through the game, so without these a reader could not tell
    where a round began, or why a seat stopped playing (a probe's finding)."""
    dealers, hands = state.round_masks()
    by_round: dict[int, list[tuple[Any, ...]]] = {}
    for record in state.round_records:
        by_round.setdefault(record[0], []).append(record)
    headers = {}
    for number, records in sorted(by_round.items()):
        fields = [dict(zip(ROUND_FIELDS, record, strict=True)) for record in records]
        full = sorted(f["seat"] for f in fields if not f["dog"])
        dogs = sorted(f["seat"] for f in fields if f["dog"])
        cards = max(f["cards_dealt"] for f in fields)  # a dog's is 1
        # "6 cards each to seat 1" read oddly where one seat and the dogs are in
        dealt = (f"{cards} cards each to seats " if len(full) > 1
                 else f"{cards} cards to seat ") + ", ".join(map(str, full))
        if dogs:
            dealt += ("; 1 card to the dog, seat " if len(dogs) == 1
                      else "; 1 card to the dogs, seats ") + ", ".join(map(str, dogs))
        chooser = fields[0]["trump_chooser"]
        trump = _suit_name(fields[0]["trump"])
        how = "turned up" if chooser < 0 else f"named by seat {chooser}"
        dealer = f" (dealer seat {dealers[number - 1]})" if number <= len(dealers) else ""
        headers[number] = f"Round {number}{dealer}: {dealt}; trump {trump}, {how}"
        if number > 1 and number <= len(hands):
            # round 1's hands head the replay; the later rounds are shuffled from the seed, and
            # without their cards a reader could not check that a seat followed suit (a probe)
            headers[number] += "".join(
                f"\n          seat {seat} is dealt {cards_str(mask)}"
                for seat, mask in sorted(hands[number - 1].items()))
    return headers


def _suit_name(symbol: str | None) -> str:
    if symbol and symbol in SUITS:
        return SUIT_NAMES[SUITS.index(symbol)]
    return "none"
