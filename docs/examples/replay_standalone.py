"""Replay a German Whist deal from a run folder with nothing but pyarrow.

Usage: python replay_standalone.py RUN_FOLDER DEAL_KEY

This file deliberately does not import whist_sim: it shows that the `deals` and
`actions` tables are enough to follow a deal and recompute its trick counts.
It knows German Whist's rules only: given another game's run it says so in one
line and exits with status 2.
"""

from __future__ import annotations

import glob
import os
import sys

import pyarrow.compute as pc
import pyarrow.dataset as ds

SUITS = "SHDC"
RANKS = "23456789TJQKA"


def load(run: str, table: str, deal_key: str) -> list[dict]:
    files = glob.glob(f"{run}/data/{table}/*.parquet")
    if not files:
        fail(f"{run}: no {table} table here (data/{table}/*.parquet); give a run folder,"
             " e.g. results/quickstart-20260101-120000")
    data = ds.dataset(files, format="parquet").to_table(filter=pc.field("deal_key") == deal_key)
    return data.to_pylist()


def fail(message: str) -> None:
    print(message, file=sys.stderr)
    sys.exit(2)


def beats(card: str, best: str, trump: str) -> bool:
    if card[1] == best[1]:
        return RANKS.index(card[0]) > RANKS.index(best[0])
    return card[1] == trump


def replay(run: str, deal_key: str) -> tuple[int, int]:
    found = load(run, "deals", deal_key)
    if len(found) != 1:
        fail(f"{run}: no deal {deal_key!r}; a deal key is pairing-deal-rotation-hand, e.g."
             " 0-12-1-0 (the deals table's deal_key column)")
    (deal,) = found
    if deal["game"] != "german_whist":
        fail(f"{run} is a {deal['game']} run; replay_standalone.py reads German Whist"
             " runs only")
    actions = sorted(load(run, "actions", deal_key), key=lambda a: a["step"])
    hands = [set(h.split()) for h in deal["hands"]]
    trump = deal["trump"]
    tricks = [0, 0]
    trick: list[tuple[int, str]] = []
    for action in actions:
        seat, card = action["seat"], action["action"]
        if action["phase"] == "play":
            if trick and card[1] != trick[0][1][1]:
                led = trick[0][1][1]
                assert not any(c[1] == led for c in hands[seat]), f"revoke: {card}"
            hands[seat].remove(card)
            trick.append((seat, card))
            if len(trick) == 2:
                (lead_seat, lead), (other, follow) = trick
                winner = other if beats(follow, lead, trump) else lead_seat
                tricks[winner] += 1
                print(f"{lead_seat}:{lead} {other}:{follow} -> seat {winner}")
                trick = []
        else:  # take or draw: the card joins the seat's hand
            hands[seat].add(card)
            print(f"   seat {seat} {action['phase']}s {card}")
    print(f"tricks: seat 0 {tricks[0]}, seat 1 {tricks[1]}")
    return tricks[0], tricks[1]


if __name__ == "__main__":
    usage = __doc__.split("\n\n")[1].strip()
    if len(sys.argv) == 2 and sys.argv[1] in ("-h", "--help"):
        print(usage)
        sys.exit(0)
    if len(sys.argv) != 3:
        fail(usage)
    try:
        replay(sys.argv[1], sys.argv[2])
        sys.stdout.flush()
    except BrokenPipeError:  # `... | head` closed the pipe: stop quietly, as `cat` does
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(1)
