"""No bot process is dealt the same cards twice: duplicate play deals each deal to an
entrant once per line-up and seating, and a process that had played it would remember
the cards it saw (a probe's bot named 240 of 240 face-down stock cards before they were
turned). Each seat keeps a pool of processes; these tests read, from a bot that writes
down every hand it is dealt, that no process saw one twice and that processes are
reused, not started per deal."""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import pytest

from tests.tournament_helpers import write_config
from whist_sim.games import make_game
from whist_sim.play import play_match
from whist_sim.protocol import ProcessStrategy
from whist_sim.protocol import process_strategy as bots
from whist_sim.strategy import build_strategy
from whist_sim.tournament.config import load_config
from whist_sim.tournament.runner import run_tournament

REMEMBERING_BOT = r'''
import json, os, sys
record = open(sys.argv[1], "a")
seen = set()
for line in sys.stdin:
    message = json.loads(line)
    kind = message["type"]
    if kind == "hello":
        print(json.dumps({"type": "hello", "name": "remembers", "version": "1",
                          "protocol": "1.0", "games": ["german_whist", "solo_whist",
                          "minnesota_whist", "knockout_whist"]}), flush=True)
    elif kind == "decide":
        if message["decision"] == 0:
            hand = " ".join(sorted(message["hand"]))
            again = "again" if hand in seen else "new"
            seen.add(hand)
            record.write(f"{os.getpid()} {message['seat']} {again} {hand}\n")
            record.flush()
        print(json.dumps({"type": "action", "action": message["legal"][0]}), flush=True)
    elif kind == "quit":
        break
'''


def _bot(tmp_path: Path) -> tuple[list[str], Path]:
    script = tmp_path / "remembers.py"
    script.write_text(REMEMBERING_BOT)
    return [sys.executable, str(script), str(tmp_path / "dealt.txt")], tmp_path / "dealt.txt"


def _dealt(record: Path) -> list[tuple[str, str, str, str]]:
    return [tuple(line.split(" ", 3)) for line in record.read_text().splitlines()]


def _duplicate_schedule(bot: ProcessStrategy, deals: int) -> int:
    """German Whist as a round robin of the bot and two others plays it: deal-major, each
    deal against each opponent, in both seatings. The matches played."""
    game = make_game("german_whist")
    opponents = [build_strategy("random", {}, game.name), build_strategy("heuristic", {},
                                                                         game.name)]
    played = 0
    for seed in range(deals):
        for other in opponents:
            for seats in ([bot, other], [other, bot]):
                played += len(play_match(game, seats, seed, on_error="abort")[0])
    return played


def test_no_bot_process_is_dealt_the_same_hand_twice(tmp_path):
    command, record = _bot(tmp_path)
    with ProcessStrategy(command, label="remembers") as bot:
        played = _duplicate_schedule(bot, deals=4)
    dealt = _dealt(record)
    assert len(dealt) == played == 16
    assert [d for d in dealt if d[2] == "again"] == []
    assert max(Counter((pid, hand) for pid, _, _, hand in dealt).values()) == 1
    # each hand came twice (once per opponent); each process is reused across deals
    assert set(Counter(hand for *_, hand in dealt).values()) == {2}
    processes = {pid for pid, *_ in dealt}
    assert len(processes) <= 4, "a process per seat and line-up, not one per deal"


def test_past_the_pool_s_cap_a_fresh_process_takes_the_deal(tmp_path, monkeypatch):
    """The cap bounds the processes a seat keeps; a deal none of them may play goes to a
    fresh process, so the rule holds at any cap (at a cost in start-ups)."""
    monkeypatch.setattr(bots, "PROCESSES_PER_SEAT", 1)
    command, record = _bot(tmp_path)
    with ProcessStrategy(command, label="remembers") as bot:
        played = _duplicate_schedule(bot, deals=2)
        running = len(bot.pids())
    dealt = _dealt(record)
    assert len(dealt) == played == 8
    assert [d for d in dealt if d[2] == "again"] == []
    assert running <= 3  # a process for each seat, and the spare


def test_an_entrant_keeps_at_most_its_cap_of_processes_across_all_its_seats(tmp_path,
                                                                           monkeypatch):
    """Sixteen a seat at a table of seven were 112 processes: ``whist-sim check --isolate
    random`` ran 88 at once, about 160 MB each. Here the bot holds all four Solo Whist
    seats and meets each deal three times, so every seat's pool would fill to its cap of
    two (eight resting in all); the cap in all, five, ends the least recently used of any
    seat, and still no process meets a hand twice."""
    monkeypatch.setattr(bots, "PROCESSES_PER_SEAT", 2)
    monkeypatch.setattr(bots, "PROCESSES_IN_ALL", 5)
    command, record = _bot(tmp_path)
    most = 0
    with ProcessStrategy(command, label="remembers") as bot:
        game = make_game("solo_whist")
        for _ in range(3):
            for seed in range(2):
                play_match(game, [bot] * 4, seed, on_error="abort")
                most = max(most, len(bot.pids()))
    assert [d for d in _dealt(record) if d[2] == "again"] == []
    assert most <= 5 + 4  # the cap, and a spare started for each seat


@pytest.mark.slow
def test_in_a_round_robin_no_bot_process_sees_a_deal_twice(tmp_path):
    """The probe's case: an isolated entrant in a three-entrant round robin, whose bots a
    worker keeps across tasks, met every deal again in the next line-up."""
    command, record = _bot(tmp_path)
    body = f"""
[tournament]
game = "german_whist"
deals = 6
seed = 5
deals_per_task = 6

[[strategies]]
use = "process"
command = {command!r}
label = "remembers"

[[strategies]]
use = "random"

[[strategies]]
use = "heuristic"
""".replace("'", '"')
    config = load_config(write_config(tmp_path, body, "remembers.toml"))
    summary = run_tournament(config, tmp_path / "run", workers=0, progress=False)
    assert summary.status == "complete"
    dealt = _dealt(record)
    assert len(dealt) >= 6 * 2 * 2  # two line-ups, two seatings (and the checks' deals)
    assert [d for d in dealt if d[2] == "again"] == []


DEAL_LOGGING_BOT = r'''
import json, os, sys
record = open(sys.argv[1], "a")
for line in sys.stdin:
    message = json.loads(line)
    kind = message["type"]
    if kind == "hello":
        print(json.dumps({"type": "hello", "name": "logs", "version": "1",
                          "protocol": "1.0", "games": ["knockout_whist"]}), flush=True)
    elif kind == "deal":
        record.write(f"{os.getpid()}\n")
        record.flush()
    elif kind == "decide":
        print(json.dumps({"type": "action", "action": message["legal"][0]}), flush=True)
    elif kind == "quit":
        break
'''


def test_no_bot_process_meets_a_knock_out_deal_again_at_another_table_size(tmp_path):
    """A Knock-out deal index is dealt from one deck at every table size: a process that
    had played the table of three was handed the table of four of the same deck (another
    hand, so the hand did not tell) and named 15-17 of its opponents' 21 cards (an
    adversarial bot author's probe). The deal's identity now goes with the hand."""
    script = tmp_path / "logs.py"
    script.write_text(DEAL_LOGGING_BOT)
    record = tmp_path / "deals.txt"
    order = []
    with ProcessStrategy([sys.executable, str(script), str(record)], label="logs") as bot:
        for seed in range(3):
            for players in (3, 4):
                game = make_game("knockout_whist", None, players)
                others = [build_strategy("random", {}, game.name)] * (players - 1)
                play_match(game, [bot, *others], seed, on_error="abort")
                order.append(seed)
    pids = record.read_text().split()
    assert len(pids) == len(order) == 6
    for seed in range(3):
        same_deal = [pid for pid, dealt in zip(pids, order, strict=True) if dealt == seed]
        assert len(set(same_deal)) == 2, f"deal {seed}: one process played both tables"
    assert len(set(pids)) < 6, "processes are still reused across deals"
