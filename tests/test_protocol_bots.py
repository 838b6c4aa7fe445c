"""Bots in other languages and processes play every game legally; a Python strategy behind the
protocol plays exactly as in process; a bot is sent nothing hidden.

The C bot is built with gcc here (skipped, saying so, only where gcc is missing), the
Node bot runs with ``node``; the Python bots are examples/bots/*.py through
``whist_sim.protocol.client``.
"""

from __future__ import annotations

import json
import re
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from whist_sim.cards import parse_card
from whist_sim.games import make_game
from whist_sim.play import play_deal, play_match
from whist_sim.protocol import BotHandshakeError, ProcessStrategy
from whist_sim.protocol.announce import play_match_announced
from whist_sim.protocol.errors import ProtocolError
from whist_sim.strategy import build_strategy

pytestmark = pytest.mark.slow  # the whole module: seconds to minutes on 2 cores

ROOT = Path(__file__).resolve().parents[1]
BOTS = ROOT / "examples" / "bots"
PYTHON_BOTS = {
    "heuristic": [sys.executable, str(BOTS / "python_heuristic_bot.py")],
    "random": [sys.executable, str(BOTS / "python_random_bot.py")],
}
GAMES = [
    ("german_whist", {}, None),
    ("german_whist", {"open_stock": 3, "match": "best_of_3"}, None),
    ("solo_whist", {"session_hands": 4}, None),
    ("solo_whist", {"upcard": False, "overtricks": True}, None),
    ("minnesota_whist", {"target": 7}, None),
    ("minnesota_whist", {"bid": "spoken", "target": 5}, None),
    ("knockout_whist", {}, 3),
    ("knockout_whist", {"dogs_life": "first_round"}, 6),
]
GAME_IDS = [f"{name}-{'-'.join(f'{k}={v}' for k, v in variant.items()) or 'default'}"
            for name, variant, _ in GAMES]


@pytest.fixture(scope="module")
def c_bot(tmp_path_factory) -> list[str]:
    gcc = shutil.which("gcc")
    if gcc is None:
        pytest.skip("gcc is not installed: the C bot (examples/bots/c) cannot be built here")
    out = tmp_path_factory.mktemp("c_bot") / "simple_bot"
    subprocess.run([gcc, "-O2", "-std=c99", "-Wall", "-Wextra", "-Werror", "-o", str(out),
                    str(BOTS / "c" / "simple_bot.c")], check=True)
    return [str(out)]


@pytest.fixture(scope="module")
def js_bot() -> list[str]:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed: the Node bot (examples/bots/js) cannot run here")
    return [node, str(BOTS / "js" / "simple_bot.js")]


def play_against_heuristics(command: list[str], name: str, variant: dict, players: int | None,
                            matches: int = 6) -> int:
    """Matches with the bot in alternate seats and ``heuristic`` in the others; every deal
    must finish without a forfeit. Returns the number of decisions the bot made."""
    game = make_game(name, variant, players)
    heuristic = build_strategy("heuristic", {}, name)
    with ProcessStrategy(command, game=name, variant=variant, time_limit=5.0) as bot:
        for seed in range(matches):
            seats = [bot if (s + seed) % 2 == 0 else heuristic for s in range(game.players)]
            played, _ = play_match_announced(game, seats, seed)
            for deal in played:
                assert deal.outcome.forfeit_seat is None, deal.outcome.error
        return bot.exchanges


@pytest.mark.parametrize(("name", "variant", "players"), GAMES, ids=GAME_IDS)
def test_the_c_bot_plays_every_game_legally(c_bot, name, variant, players):
    assert play_against_heuristics(c_bot, name, variant, players) > 0


@pytest.mark.parametrize(("name", "variant", "players"), GAMES, ids=GAME_IDS)
def test_the_node_bot_plays_every_game_legally(js_bot, name, variant, players):
    assert play_against_heuristics(js_bot, name, variant, players) > 0


@pytest.mark.parametrize("name", ["german_whist", "solo_whist", "minnesota_whist",
                                  "knockout_whist"])
def test_external_bots_fill_a_whole_table_through_play_match(c_bot, js_bot, name):
    game = make_game(name, {}, 4 if name == "knockout_whist" else None)
    with ProcessStrategy(c_bot) as c, ProcessStrategy(js_bot) as js:
        for seed in range(3):
            played, result = play_match(game, [c, js] * (game.players // 2), seed)
            assert all(deal.outcome.forfeit_seat is None for deal in played)
            assert len(result["match_result"]) == game.players


# -- the same strategy in process and behind the protocol ----------------------------------


def logs_and_outcomes(game: Any, seats: list[Any], seed: int) -> tuple[list, list]:
    played, result = play_match(game, seats, seed)
    return [deal.state.log for deal in played], [deal.outcome for deal in played] + [result]


@pytest.mark.parametrize("strategy", ["heuristic", "random"])
@pytest.mark.parametrize(("name", "variant", "players"), GAMES, ids=GAME_IDS)
def test_a_python_strategy_through_the_client_plays_exactly_as_in_process(
    strategy, name, variant, players
):
    game = make_game(name, variant, players)
    in_process = build_strategy(strategy, {}, name)
    with ProcessStrategy(PYTHON_BOTS[strategy], game=name, variant=variant) as bot:
        for seed in range(2):  # the bot in the even seats of one mixed table, the odd of the other
            expected = logs_and_outcomes(game, [in_process] * game.players, seed)
            assert logs_and_outcomes(game, [bot] * game.players, seed) == expected
            mixed = [bot if s % 2 == seed % 2 else in_process for s in range(game.players)]
            assert logs_and_outcomes(game, mixed, seed) == expected


def test_without_exact_rng_a_python_bot_is_still_reproducible_and_legal():
    game = make_game("solo_whist")
    with ProcessStrategy(PYTHON_BOTS["random"], exact_rng=False) as bot:
        first = [play_deal(game, [bot] * 4, seed).state.log for seed in range(4)]
        again = [play_deal(game, [bot] * 4, seed).state.log for seed in range(4)]
    assert first == again


def test_the_deal_message_carries_the_match_state(tmp_path):
    transcript = tmp_path / "t.txt"
    game = make_game("german_whist", {"match": "best_of_3"})
    heuristic = build_strategy("heuristic", {}, "german_whist")
    with ProcessStrategy(PYTHON_BOTS["heuristic"], transcript_path=transcript) as bot:
        played, _ = play_match_announced(game, [bot, heuristic], 4)
    deals = [json.loads(line.split("> ", 1)[1]) for line in transcript.read_text().splitlines()
             if '> {"type":"deal"' in line]
    results = [json.loads(line.split("> ", 1)[1]) for line in transcript.read_text().splitlines()
               if '> {"type":"result"' in line]
    assert [d["hand"] for d in deals] == list(range(len(played)))
    assert deals[0]["match"] == {"hand": 0, "best_of": 3, "hands_won": [0, 0],
                                 "points": [0.0, 0.0]}
    won = sum(deal.outcome.result[0] == "win" for deal in played[:-1])
    assert deals[-1]["match"]["hands_won"][0] == won
    assert [r["net"] for r in results] == [deal.outcome.net[0] for deal in played]


# -- nothing hidden reaches a bot ----------------------------------------------------------

HOSTILE_BOT = r'''
"""Plays randomly through the client, keeps every line it is sent, and looks for the deal."""
import gc, sys

from whist_sim.games.base import DealState
from whist_sim.protocol.client import registry_factory, run_bot

record = open(sys.argv[1], "ab")


class Tee:
    """stdin, with a copy of every line kept for the test to read."""

    def __iter__(self):
        for line in sys.stdin.buffer:
            record.write(line)
            record.flush()
            states = [o for o in gc.get_objects() if isinstance(o, DealState)]
            frames, frame = [], sys._getframe()
            while frame is not None:
                frames += [k for k in frame.f_locals if k in ("state", "deal", "hands")]
                frame = frame.f_back
            record.write(("PROBE " + repr((len(states), frames)) + "\n").encode())
            yield line


sys.exit(run_bot(registry_factory("strategies.random_play:RandomStrategy"), "hostile", "1",
                 stdin=Tee()))
'''
CARD_TOKEN = re.compile(r'"([2-9TJQKA][SHDC])"')


def hidden_cards(state: Any, seat: int) -> int:
    """The cards ``seat`` may not know now, read from the state itself."""
    others = 0
    for other, hand in enumerate(state.hands):
        if other != seat:
            others |= hand
    name = state.game.name
    if name == "german_whist":
        stock = 0
        for card in state.stock[state.next_stock:]:
            stock |= 1 << card
        return (others & ~state.taken_faceup[1 - seat]) | stock
    if name == "solo_whist":
        public = state.hands[state.declarer] if state.exposed else 0
        if state.upcard >= 0:
            public |= 1 << state.upcard
        return others & ~public
    if name == "minnesota_whist":
        turned = 0
        for _, card in state.turned:
            turned |= 1 << card
        return others & ~turned
    return others


def hidden_at_each_decision(game: Any, played: Any, seat: int) -> list[int]:
    """Replay the deal; before each of ``seat``'s decisions, the cards hidden from it."""
    state = game.new_deal(played.seed, played.dealer)
    found = []
    for who, _, action, chosen in played.state.log:
        if not chosen:
            continue
        if who == seat:
            found.append(hidden_cards(state, seat))
        state.apply(action)
    return found


@pytest.mark.parametrize(("name", "players"), [("german_whist", None), ("solo_whist", None),
                                               ("minnesota_whist", None), ("knockout_whist", 5)])
def test_a_hostile_bot_is_sent_no_hidden_card_and_finds_no_deal(tmp_path, name, players):
    script = tmp_path / "hostile_bot.py"
    script.write_text(HOSTILE_BOT)
    game = make_game(name, {"open_stock": 3} if name == "german_whist" else {}, players)
    others = build_strategy("random", {}, name)
    checked = 0
    for seed in range(6):
        seat = seed % game.players
        record = tmp_path / f"seen-{seed}.jsonl"
        with ProcessStrategy([sys.executable, str(script), str(record)], label="hostile") as bot:
            played = play_deal(game, [bot if s == seat else others for s in range(game.players)],
                               seed, seed % game.players, on_error="abort")
        lines = record.read_text().splitlines()
        probes = [line for line in lines if line.startswith("PROBE ")]
        assert all(probe == "PROBE (0, [])" for probe in probes), probes
        decides = [line for line in lines if line.startswith('{"type":"decide"')]
        hidden = hidden_at_each_decision(game, played, seat)
        assert len(decides) == len(hidden) > 0
        deal_line = next(line for line in lines if line.startswith('{"type":"deal"'))
        assert not CARD_TOKEN.findall(deal_line)  # a deal message names no card at all
        for line, secret in zip(decides, hidden, strict=True):
            shown = {parse_card(token) for token in CARD_TOKEN.findall(line)}
            leaked = [card for card in shown if secret >> card & 1]
            assert not leaked, f"seat {seat} was sent hidden cards {leaked}: {line}"
            checked += 1
    assert checked > 10


# -- speed ---------------------------------------------------------------------------------


def median_round_trip(command: list[str], deals: int = 30) -> float:
    """Median seconds of one ``choose`` (encode, decide, action, decode) in German Whist."""
    times: list[float] = []
    game = make_game("german_whist")
    with ProcessStrategy(command) as bot:

        class Timed:
            def choose(self, view: Any, rng: Any) -> int:
                started = time.perf_counter()
                action = bot.choose(view, rng)
                times.append(time.perf_counter() - started)
                return action

        timed = Timed()
        for seed in range(deals):
            bot.end_deal(play_deal(game, [timed, timed], seed, on_error="abort").outcome)
    return statistics.median(times[26:])  # after the first deal: processes started


def test_a_decide_action_round_trip_is_fast(c_bot, js_bot):
    medians = {
        "c": median_round_trip(c_bot),
        "node": median_round_trip(js_bot),
        "python random": median_round_trip(PYTHON_BOTS["random"]),
    }
    print("median round trip per decision:",
          ", ".join(f"{bot} {seconds * 1e6:.0f} us" for bot, seconds in medians.items()))
    assert medians["c"] < 0.005


# -- the Python client -------------------------------------------------------------------------

RAISING_BOT = r'''
import sys

from strategies.random_play import RandomStrategy
from whist_sim.protocol.client import run_bot


class FailsOnTrick3(RandomStrategy):
    def choose(self, view, rng):
        if len(view.tricks) == 2:
            print("about to fail")  # goes to stderr: stdout is the protocol's
            raise ValueError("no idea what to play")
        return super().choose(view, rng)


sys.exit(run_bot(lambda game, params: FailsOnTrick3(**params), "fails", "1",
                 games=["german_whist"]))
'''


def test_params_reach_the_strategy_behind_the_client():
    game = make_game("german_whist")
    params = {"contest_margin": -2.0, "trump_worth": 3.0}
    in_process = build_strategy("heuristic", params, "german_whist")
    with ProcessStrategy(PYTHON_BOTS["heuristic"], params=params, game="german_whist") as bot:
        for seed in range(4):
            assert (play_deal(game, [bot, in_process], seed).state.log
                    == play_deal(game, [in_process, in_process], seed).state.log)


def test_bad_params_are_refused_at_the_handshake():
    bot = ProcessStrategy(PYTHON_BOTS["heuristic"], label="h", params={"boldness": 1},
                          game="german_whist")
    with pytest.raises(BotHandshakeError, match="unknown parameter 'boldness'"):
        bot.start()


def test_a_strategy_that_raises_behind_the_client_forfeits_the_deal_only(tmp_path):
    script = tmp_path / "fails.py"
    script.write_text(RAISING_BOT)
    log = tmp_path / "fails.stderr"
    game = make_game("german_whist")
    others = build_strategy("random", {}, "german_whist")
    with ProcessStrategy([sys.executable, str(script)], label="fails", stderr_path=log) as bot:
        played = play_deal(game, [bot, others], 1)
        assert played.outcome.forfeit_seat == 0
        line = RAISING_BOT.splitlines().index(
            '            raise ValueError("no idea what to play")') + 1
        assert ("(fails) reported an error in reply to decide: strategy raised ValueError:"
                f" no idea what to play (at {script}:{line})") in played.outcome.error
        assert "expected an action" not in played.outcome.error  # the bot said why
        assert "QS" not in played.outcome.error  # no example card beside the bot's account
    text = log.read_text()
    assert "about to fail" in text and "Traceback" in text


def test_a_failure_names_the_same_exception_and_line_in_process_and_isolated():
    """The report's Forfeits table showed an in-process failure in one line and the same
    failure isolated as a wall of the bot's stderr with no line of the strategy's own."""
    spec = "tests.plugins.faulty:RaisesOnTrick5"
    game = make_game("german_whist")
    others = build_strategy("random", {}, "german_whist")
    in_process = play_deal(game, [build_strategy(spec, {}, "german_whist"), others], 1)
    said = in_process.outcome.error.split(" strategy raised ", 1)[1]
    assert said.startswith("ValueError: deliberate failure at trick 5 (at ")
    assert said.endswith(" [phase play]")  # in both: the phase it was deciding in
    said = said.removesuffix(" [phase play]")
    with ProcessStrategy([sys.executable, "-m", "whist_sim.protocol", spec],
                         label="faulty") as bot:
        isolated = play_deal(game, [bot, others], 1)
    first_line = isolated.outcome.error.split("\n", 1)[0]
    assert f"reported an error in reply to decide: strategy raised {said} [bot command:" \
        in first_line
    assert first_line.endswith("] [phase play]")


def test_any_registered_strategy_runs_isolated_with_python_m_whist_sim_protocol():
    game = make_game("knockout_whist", {}, 4)
    in_process = build_strategy("random", {}, "knockout_whist")
    command = [sys.executable, "-m", "whist_sim.protocol", "random"]
    with ProcessStrategy(command, game="knockout_whist") as bot:
        assert bot.start().version == "1" and bot.start().name == "random"
        for seed in range(3):
            assert (play_deal(game, [bot, in_process] * 2, seed).state.log
                    == play_deal(game, [in_process] * 4, seed).state.log)


def test_a_bot_says_where_it_came_from_for_the_run_record(c_bot):
    with ProcessStrategy(c_bot) as bot:
        bot.start()
        assert len(bot.pids()) == 1
        source = bot.source()
    assert source["name"] == "c_simple" and source["version"] == "1"
    assert source["protocol"] == "1.0" and source["command"] == c_bot
    assert len(source["sha256"][c_bot[0]]) == 64


@pytest.mark.parametrize("name", ["evil\npassed: evil plays everything", "x" * 101, "\x1b[32m"])
def test_a_hello_name_that_could_forge_a_line_of_output_is_refused(name):
    from whist_sim.protocol.messages import read_bot_hello

    hello = {"type": "hello", "name": name, "version": "1", "protocol": "1.0",
             "games": ["german_whist"]}
    with pytest.raises(ProtocolError, match="at most 100 printable characters"):
        read_bot_hello(hello)


@pytest.mark.parametrize("version", ["1\n\x1b[2J\x1b[Hpassed: every check", "V" * 101, ""])
def test_a_hello_version_that_could_forge_output_is_refused(version):
    """The version went raw into run.json, report.md and the console (an attacker's probe:
    escape sequences and a forged "passed:" line)."""
    from whist_sim.protocol.messages import read_bot_hello

    hello = {"type": "hello", "name": "bot", "version": version, "protocol": "1.0",
             "games": ["german_whist"]}
    with pytest.raises(ProtocolError, match="one line of at most 100 printable characters"):
        read_bot_hello(hello)
    hello["version"] = 3  # a number is still read as its text
    assert read_bot_hello(hello).version == "3"


def test_a_bots_error_text_is_shown_on_one_line():
    from whist_sim.protocol.messages import one_line

    assert one_line("I give up\npassed: evil") == "I give up\\npassed: evil"
    assert one_line("plain text") == "plain text"


def test_a_misspelt_variant_key_in_hello_is_refused_with_the_keys_there_are():
    from whist_sim.protocol.messages import read_bot_hello

    hello = {"type": "hello", "name": "b", "version": "1", "protocol": "1.0",
             "games": ["german_whist"], "variants": {"german_whist": {"open_stok": [1]}}}
    with pytest.raises(ProtocolError, match=re.escape("variants.german_whist.open_stok")) as raised:
        read_bot_hello(hello)
    assert "open_stock" in str(raised.value)


def test_a_bot_that_never_says_hello_is_not_started_again_after_two_timeouts(
    tmp_path, monkeypatch
):
    """Each start waited the whole handshake time, in every deal the bot sat in: a run
    with one silent bot among five took 7 minutes to forfeit 120 matches."""
    from whist_sim.protocol import BotHandshakeTimeout, process_strategy
    from whist_sim.protocol.process_strategy import HANDSHAKE_TIMEOUTS

    starts: list[object] = []
    real = process_strategy.BotProcess
    monkeypatch.setattr(process_strategy, "BotProcess",
                        lambda *a, **k: starts.append(a) or real(*a, **k))

    silent = tmp_path / "silent.sh"
    silent.write_text("#!/bin/sh\nexec sleep 30\n")
    silent.chmod(0o755)
    with ProcessStrategy([str(silent)], label="silent", handshake_timeout=0.3) as bot:
        for _ in range(HANDSHAKE_TIMEOUTS):
            with pytest.raises(BotHandshakeTimeout, match=re.escape("within 0.3 s")):
                bot.start()
        with pytest.raises(BotHandshakeTimeout, match="2 times in a row: not started again"):
            bot.start()
        assert len(starts) == HANDSHAKE_TIMEOUTS  # no third process, so no third wait


def test_a_bot_that_exits_leaving_a_child_on_its_output_is_named_as_exited(tmp_path):
    """A bot that forked a child holding its pipes and exited was reported as 'did not
    reply within 0.95 s', as if it were thinking: it had exited."""
    import random as random_module

    from whist_sim.games import make_game
    from whist_sim.protocol import BotCrashed

    script = tmp_path / "forker.py"
    script.write_text(
        "import json, os, sys, time\n"
        "sys.stdin.readline()\n"
        "print(json.dumps({'type': 'hello', 'name': 'forker', 'version': '1',"
        " 'protocol': '1.0', 'games': ['german_whist']}), flush=True)\n"
        "if os.fork() == 0:\n"
        "    time.sleep(30)\n"
        "    os._exit(0)\n"
        "os._exit(0)\n")
    state = make_game("german_whist").new_deal(3, 0)
    with (ProcessStrategy([sys.executable, str(script)], label="forker", time_limit=5.0)
          as bot, pytest.raises(BotCrashed) as raised):
        bot.choose(state.view(state.to_act), random_module.Random(1))
    # found as it exited, not at the end of the limit as a timeout. When: its keeper ends the
    # child as the bot exits, so a bot that exits before the engine has written the deal is
    # found in that write (a loaded machine: one run of the suite read this), else while
    # the engine waits for the reply; both are true
    assert re.search(r"exited with code 0 while the engine (was sending it the deal|waited"
                     r" for its reply to)", str(raised.value)), str(raised.value)
    assert "did not reply" not in str(raised.value)
