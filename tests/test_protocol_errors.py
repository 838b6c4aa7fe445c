"""A bot that misbehaves gets an error naming the entrant, its command, what it did and what
was expected; a crash or a timeout costs that deal only, and the next deal restarts it.

The misbehaving bot is one small Python script (no whist_sim import, so it starts in a
few milliseconds), told how to misbehave by its arguments.
"""

from __future__ import annotations

import os
import pickle
import random
import shlex
import sys
import time
from collections import deque
from pathlib import Path

import pytest

from whist_sim.games import make_game
from whist_sim.play import StrategyFailure, play_deal
from whist_sim.protocol import (
    BotCrashed,
    BotError,
    BotHandshakeError,
    BotReplyError,
    BotStartError,
    BotTimeout,
    BotUnsupportedGame,
    ProcessStrategy,
    process_strategy,
)
from whist_sim.strategy import build_strategy

BAD_BOT = r'''
import json, os, sys, time

mode = sys.argv[1]
at = int(sys.argv[2]) if len(sys.argv) > 2 else 1
marker = sys.argv[3] if len(sys.argv) > 3 else None
GAMES = ["german_whist", "solo_whist", "minnesota_whist", "knockout_whist"]
HELLO = {"type": "hello", "name": "bad_bot", "version": "1", "protocol": "1.0", "games": GAMES}
CARDS = [r + s for s in "SHDC" for r in "23456789TJQKA"]


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def first_time():
    """True the first time any process of this test asks (a marker file remembers)."""
    if marker is None:
        return True
    if os.path.exists(marker):
        return False
    open(marker, "w").close()
    return True


decisions = 0
for line in sys.stdin:
    message = json.loads(line)
    kind = message["type"]
    if kind == "hello":
        if mode == "silent":
            time.sleep(60)
        elif mode == "hello_not_json":
            print("hi there, I am a bot", flush=True)
        elif mode == "major_2":
            send({**HELLO, "protocol": "2.0"})
        elif mode == "german_only":
            send({**HELLO, "games": ["german_whist"]})
        elif mode == "exits_at_hello":
            print("cannot start: the weights file is missing", file=sys.stderr, flush=True)
            sys.exit(4)
        elif mode == "drives_the_terminal":  # a window title, a reset, a forged line start
            print("x\x1b]0;PWNED\x07\x1bc\rcomplete: all bots healthy", file=sys.stderr,
                  flush=True)
            sys.exit(4)
        elif mode == "capitals":
            send({**HELLO, "type": "Hello"})
        elif mode == "early":  # an action in the same write as its hello
            sys.stdout.write(json.dumps(HELLO) + "\n"
                             + json.dumps({"type": "action", "action": "AS"}) + "\n")
            sys.stdout.flush()
        elif mode == "forged_game":
            send({**HELLO, "games": ["solo_whist\n\x1b[31mpassed: all checks OK\x1b[0m"]})
        elif mode == "many_games":
            send({**HELLO, "games": [7] * 300_000})
        else:
            send(HELLO)
    elif kind == "decide":
        decisions += 1
        legal, hand = message["legal"], message["hand"]
        action = legal[0]
        if mode == "not_legal" and decisions >= at:  # the first chance: a held card not legal
            action = next((c for c in hand if c not in legal), action)
        if decisions == at:
            if mode == "not_json":
                print("QS please", flush=True)
                continue
            if mode == "explains_then_not_json":
                print("no model loaded, guessing", file=sys.stderr, flush=True)
                time.sleep(0.3)  # the engine's reader has it before the reply
                print("QS please", flush=True)
                continue
            if mode == "not_held":
                action = next(c for c in CARDS if c not in hand)
            if mode == "exits_leaving_a_child":  # the child keeps stdout open
                if os.fork() == 0:
                    time.sleep(60)
                    os._exit(0)
                os._exit(3)
            if mode == "crash" or (mode == "crash_once" and first_time()):
                print("Traceback: IndexError in my_search()", file=sys.stderr, flush=True)
                os._exit(3)
            if mode == "hang" or (mode == "hang_once" and first_time()):
                time.sleep(60)
            if mode == "replies_twice":  # in one write: both are there before the next decide
                line = json.dumps({"type": "action", "action": action}) + "\n"
                sys.stdout.write(line * 2)
                sys.stdout.flush()
                continue
            if mode == "closes_stdout":
                os.close(1)
                time.sleep(60)
        if mode == "capitals_in_play":  # every reply's type misspelt: never an action
            send({"type": "Action", "action": action, "decision": message["decision"]})
            continue
        if mode == "chatty":
            send({"type": "log", "text": f"thinking about decision {decisions}"})
            send({"type": "a_message_of_protocol_1_9", "extra": [1, 2]})
            print("x" * 300, file=sys.stderr, flush=True)
        send({"type": "action", "action": action, "decision": message["decision"]})
    elif kind == "quit":
        break
if mode == "stubborn":  # ignores quit and the end of its input
    time.sleep(60)
'''


@pytest.fixture
def bad_bot(tmp_path: Path):
    """The command of the misbehaving bot in a given mode."""
    script = tmp_path / "bad_bot.py"
    script.write_text(BAD_BOT)

    def command(mode: str, at: int = 1, marker: bool = False) -> list[str]:
        parts = [sys.executable, str(script), mode, str(at)]
        return [*parts, str(tmp_path / f"{mode}.marker")] if marker else parts

    return command


def first_decision(name: str = "german_whist", seed: int = 5):
    state = make_game(name).new_deal(seed, 0)
    return state.view(state.to_act)


def failure_in_play(bot: ProcessStrategy, name: str = "german_whist", seed: int = 5) -> BotError:
    """The BotError that ends a deal with ``bot`` in seat 0 and ``random`` elsewhere."""
    game = make_game(name)
    others = build_strategy("random", {}, name)
    with pytest.raises(StrategyFailure) as caught:
        play_deal(game, [bot, *[others] * (game.players - 1)], seed, on_error="abort")
    error = caught.value.__cause__
    assert isinstance(error, BotError), caught.value
    return error


def assert_names(error: BotError, entrant: str, command: list[str], message: str,
                 expected: str) -> None:
    text = str(error)
    assert error.entrant == entrant and f"({entrant})" in text
    assert error.command == tuple(command) and shlex.join(command) in text
    assert message in error.message and message in text
    assert expected in error.expected and f"expected {error.expected}" in text


# -- starting ------------------------------------------------------------------------------


def test_a_command_that_does_not_exist_is_named(tmp_path, monkeypatch):
    command = [str(tmp_path / "no_such_bot")]
    bot = ProcessStrategy(command, label="ghost")
    with pytest.raises(BotStartError) as caught:
        bot.start()
    assert_names(caught.value, "ghost", command, "was not found", "an executable program")
    attempts: list[object] = []
    real = process_strategy.BotProcess
    monkeypatch.setattr(process_strategy, "BotProcess",
                        lambda *a, **k: attempts.append(a) or real(*a, **k))
    with pytest.raises(BotStartError):  # the next deal fails at once, without trying again
        bot.choose(first_decision(), random.Random(1))
    assert attempts == []


def test_a_command_that_is_not_executable_is_named(tmp_path):
    script = tmp_path / "bot.sh"
    script.write_text("#!/bin/sh\n")
    script.chmod(0o644)
    with pytest.raises(BotStartError) as caught:
        ProcessStrategy([str(script)], label="noexec").start()
    assert_names(caught.value, "noexec", [str(script)], "is not executable",
                 "execute permission")


def test_a_missing_working_folder_is_named(tmp_path):
    with pytest.raises(BotStartError) as caught:
        ProcessStrategy(["true"], label="lost", cwd=tmp_path / "gone").start()
    assert "working folder" in caught.value.message and "gone" in caught.value.message


def test_a_relative_working_folder_or_program_names_where_it_was_looked_for(tmp_path,
                                                                            monkeypatch):
    """A config's relative ``cwd`` and program are taken from the folder the engine runs
    in, not the config's: a newcomer whose ``bots/`` sits beside the config is told
    where it was looked for, not only that it is missing."""
    monkeypatch.chdir(tmp_path)
    with pytest.raises(BotStartError) as caught:
        ProcessStrategy(["./bot.sh"], label="lost", cwd="bots").start()
    assert str(tmp_path / "bots") in caught.value.message
    assert "the folder whist-sim runs in" in caught.value.message
    with pytest.raises(BotStartError) as caught:
        ProcessStrategy(["bots/bot.sh"], label="lost").start()
    assert str(tmp_path / "bots" / "bot.sh") in caught.value.message
    assert "the folder whist-sim runs in" in caught.value.message
    (tmp_path / "bots").mkdir()  # with a working folder, the program is found from it
    with pytest.raises(BotStartError) as caught:
        ProcessStrategy(["./bot.sh"], label="lost", cwd="bots").start()
    assert str(tmp_path / "bots" / "bot.sh") in caught.value.message
    assert "taken from the working folder" in caught.value.message


def test_a_command_that_is_not_a_list_of_strings_is_refused():
    with pytest.raises(ValueError, match="list of"):
        ProcessStrategy("python bot.py")  # type: ignore[arg-type]


# -- the handshake -------------------------------------------------------------------------


def test_a_bot_that_never_says_hello_times_out_at_the_handshake(bad_bot):
    command = bad_bot("silent")
    bot = ProcessStrategy(command, label="mute", handshake_timeout=0.5)
    started = time.perf_counter()
    with pytest.raises(BotHandshakeError) as caught:
        bot.start()
    assert time.perf_counter() - started < 3
    assert_names(caught.value, "mute", command, "did not complete the handshake within 0.5 s",
                 "a hello reply within 0.5 s")
    # what to change: a bot that runs but never answers usually buffers its lines (a probe's
    # `awk -f bot.awk`, mawk, sat on hello and the timeout did not say why)
    assert "mawk only with -W interactive" in str(caught.value)
    assert "flush stdout after each line" in str(caught.value)


def test_the_time_spent_starting_processes_is_counted_failed_starts_included(bad_bot):
    """``start_seconds``: what the run's timing sample takes off the time a deal takes."""
    with ProcessStrategy(bad_bot("plays"), label="quick") as bot:
        assert bot.start_seconds == 0.0
        bot.start()
        assert bot.start_seconds > 0.0
    with ProcessStrategy(bad_bot("silent"), label="mute", handshake_timeout=0.3) as bot:
        with pytest.raises(BotHandshakeError):
            bot.start()
        assert bot.start_seconds >= 0.3


def test_a_hello_that_is_not_json_fails_the_handshake(bad_bot):
    command = bad_bot("hello_not_json")
    with pytest.raises(BotHandshakeError) as caught:
        ProcessStrategy(command, label="banner").start()
    assert_names(caught.value, "banner", command,
                 "replied 'hi there, I am a bot' to hello: not JSON", "one JSON object per line")


def test_another_major_version_is_refused_at_the_handshake(bad_bot):
    command = bad_bot("major_2")
    with pytest.raises(BotHandshakeError) as caught:
        ProcessStrategy(command, label="future").start()
    assert_names(caught.value, "future", command, "protocol 2.0, a different MAJOR version",
                 "protocol 1.x")


def test_a_reply_that_breaks_the_protocol_shows_the_bots_stderr(bad_bot):
    """docs/protocol.md: a bad reply forfeits with the last lines of the bot's stderr;
    only a timeout or a crash carried them."""
    with ProcessStrategy(bad_bot("explains_then_not_json"), label="noisy") as bot:
        error = failure_in_play(bot)
    assert "no model loaded, guessing" in error.stderr_tail
    assert "no model loaded, guessing" in str(error)


def test_a_bot_that_exits_at_the_handshake_shows_its_stderr(bad_bot):
    command = bad_bot("exits_at_hello")
    with pytest.raises(BotHandshakeError) as caught:
        ProcessStrategy(command, label="quitter").start()
    assert_names(caught.value, "quitter", command, "exited with code 4", "hello reply")
    assert "cannot start: the weights file is missing" in caught.value.stderr_tail
    assert "weights file is missing" in str(caught.value)


def test_a_bot_entered_for_a_game_it_does_not_list_is_refused_at_the_handshake(bad_bot):
    command = bad_bot("german_only")
    with pytest.raises(BotUnsupportedGame) as caught:
        ProcessStrategy(command, label="narrow", game="solo_whist").start()
    assert_names(caught.value, "narrow", command, "it plays german_whist, not solo_whist",
                 "solo_whist among the games of its hello")


def test_a_bot_asked_to_deal_in_a_game_it_does_not_list_is_refused_then_too(bad_bot):
    command = bad_bot("german_only")
    bot = ProcessStrategy(command, label="narrow")
    with pytest.raises(BotUnsupportedGame, match="not solo_whist"):
        bot.choose(first_decision("solo_whist"), random.Random(1))
    assert bot.choose(first_decision("german_whist"), random.Random(1)) >= 0
    bot.close()


# -- replies -------------------------------------------------------------------------------


def test_a_reply_that_is_not_json_names_it(bad_bot):
    command = bad_bot("not_json", at=3)
    with ProcessStrategy(command, label="x") as bot:
        error = failure_in_play(bot)
    assert isinstance(error, BotReplyError)
    assert_names(error, "x", command, "replied 'QS please' to decide: not JSON",
                 'such as {"type": "action", "action": "QS"}')


def test_an_action_naming_a_card_not_held_names_it_and_the_legal_actions(bad_bot):
    command = bad_bot("not_held", at=2)
    with ProcessStrategy(command, label="x") as bot:
        error = failure_in_play(bot)
    assert isinstance(error, BotReplyError)
    assert_names(error, "x", command, "names a card not held: ", "one of the legal actions: ")


def test_a_second_reply_to_one_decide_is_named_as_such(bad_bot):
    """A probe's bot that answered twice read "names a card not held": its second reply
    had been taken for the answer to the next decide."""
    command = bad_bot("replies_twice", at=2)
    with ProcessStrategy(command, label="x") as bot:
        error = failure_in_play(bot)
    assert isinstance(error, BotReplyError)
    assert_names(error, "x", command, "with no decide waiting: a second reply to decision 1",
                 "one action per decide")


def test_an_action_before_any_decide_is_not_called_a_second_reply(bad_bot):
    """"a second reply to the last decide" was said of a process that had been sent no
    decide at all (an adversarial probe)."""
    command = bad_bot("early")
    with ProcessStrategy(command, label="x") as bot:
        error = failure_in_play(bot)
    assert isinstance(error, BotReplyError)
    assert_names(error, "x", command, "with no decide waiting: an action before any decide"
                 " was sent to it", "one action per decide")


def test_an_action_held_but_not_legal_names_it(bad_bot):
    command = bad_bot("not_legal", at=2)
    with ProcessStrategy(command, label="x") as bot:
        error = failure_in_play(bot)
    assert_names(error, "x", command, "[rule: follow suit]", "one of the legal actions: ")


def test_log_lines_and_unknown_message_types_are_kept_or_ignored(bad_bot, tmp_path):
    log = tmp_path / "logs" / "chatty.stderr"
    bot = ProcessStrategy(bad_bot("chatty"), label="chatty", stderr_path=log)
    played = play_deal(make_game("german_whist"), [bot, bot], 7, on_error="abort")
    bot.close()
    assert played.outcome.forfeit_seat is None
    assert any("thinking about decision 1" in line for line in bot.logs)
    text = log.read_text()
    assert "[seat 0] " in text and "[seat 1] " in text and "x" * 300 in text


def test_stderr_is_capped_in_its_file(bad_bot, tmp_path):
    log = tmp_path / "chatty.stderr"
    bot = ProcessStrategy(bad_bot("chatty"), label="chatty", stderr_path=log, stderr_limit=3000)
    play_deal(make_game("german_whist"), [bot, bot], 7, on_error="abort")
    bot.close()
    text = log.read_text()
    assert len(text) < 3100 and "[capped at 3,000 characters]" in text


# -- crashes and timeouts ------------------------------------------------------------------


def test_a_crash_mid_deal_names_the_exit_and_shows_the_stderr_tail(bad_bot):
    command = bad_bot("crash", at=4)
    with ProcessStrategy(command, label="fragile") as bot:
        error = failure_in_play(bot)
    assert isinstance(error, BotCrashed)
    assert_names(error, "fragile", command, "exited with code 3 while the engine waited",
                 "an action reply")
    assert error.stderr_tail == ("Traceback: IndexError in my_search()",)
    assert "last lines of the bot's stderr:\n  Traceback: IndexError" in str(error)


def test_a_bot_that_closes_its_stdout_is_reported(bad_bot):
    command = bad_bot("closes_stdout", at=2)
    with ProcessStrategy(command, label="mute") as bot:
        error = failure_in_play(bot)
    assert isinstance(error, BotCrashed)
    assert "closed its pipes" in error.message


def test_a_bot_that_overruns_its_time_is_ended_and_named(bad_bot):
    command = bad_bot("hang", at=3)
    with ProcessStrategy(command, label="slow", time_limit=0.3) as bot:
        started = time.perf_counter()
        error = failure_in_play(bot)
        assert time.perf_counter() - started < 5
        assert not bot._seats  # the process was ended: it is out of step with the deal
    assert isinstance(error, BotTimeout)
    assert_names(error, "slow", command, "did not reply to decide 2 within 0.3 s",
                 "an action within the time limit of 0.3 s per decision")


def test_a_timeout_names_the_runs_limit_and_the_share_a_bot_had_of_it(bad_bot):
    """With time_limit = 2.0 every timeout said "within the time limit of 1.9 s", a limit
    nobody had set (an adversarial probe): a tournament's bot has 95% of it."""
    command = bad_bot("hang", at=1)
    with ProcessStrategy(command, label="slow", time_limit=0.38, run_limit=0.4) as bot:
        error = failure_in_play(bot)
    assert_names(error, "slow", command,
                 "did not reply to decide 0 within 0.38 s (95% of the time limit of 0.4 s,"
                 " the rest kept for the engine)",
                 "an action within the time limit of 0.4 s per decision")


def test_the_play_loop_records_a_bot_failure_as_the_seats_forfeit(bad_bot):
    bot = ProcessStrategy(bad_bot("crash", at=2), label="fragile")
    played = play_deal(make_game("german_whist"),
                       [build_strategy("random", {}, "german_whist"), bot], 3)
    bot.close()
    assert played.outcome.forfeit_seat == 1
    assert played.outcome.error.startswith("seat 1 (fragile) exited with code 3")


@pytest.mark.parametrize(("mode", "cause"), [("crash_once", "(flaky) exited with code 3"),
                                           ("hang_once", "(flaky) did not reply to decide 2")])
def test_the_next_deal_restarts_a_bot_that_crashed_or_hung(bad_bot, mode, cause):
    bot = ProcessStrategy(bad_bot(mode, at=3, marker=True), label="flaky", time_limit=0.5)
    game = make_game("german_whist")
    others = build_strategy("random", {}, "german_whist")
    first = play_deal(game, [bot, others], 11)
    assert first.outcome.forfeit_seat == 0 and cause in first.outcome.error
    assert 0 not in bot._seats  # its process ended with the failure
    second = play_deal(game, [bot, others], 12)
    assert second.outcome.forfeit_seat is None
    assert bot._seats[0].process.alive  # a new process played the next deal
    bot.close()


def test_a_bot_error_survives_pickling(bad_bot):
    command = bad_bot("crash", at=2)
    with ProcessStrategy(command, label="fragile") as bot:
        error = failure_in_play(bot)
    again = pickle.loads(pickle.dumps(error))
    assert type(again) is type(error) and str(again) == str(error)


def test_close_ends_every_bot_process(bad_bot):
    bot = ProcessStrategy(bad_bot("fine"), label="fine")
    play_deal(make_game("solo_whist"), [bot] * 4, 2, on_error="abort")
    processes = [seat.process.popen for seat in bot._seats.values()]
    assert len(processes) == 4  # one process per seat
    bot.close()
    assert all(p.poll() is not None for p in processes)
    for process in processes:
        with pytest.raises(ProcessLookupError):
            os.kill(process.pid, 0)


def test_a_bot_that_ignores_quit_is_ended_after_the_quit_timeout(bad_bot):
    bot = ProcessStrategy(bad_bot("stubborn"), label="stubborn", quit_timeout=0.3)
    play_deal(make_game("solo_whist"), [bot] * 4, 2, on_error="abort")
    processes = [seat.process.popen for seat in bot._seats.values()]
    started = time.perf_counter()
    bot.close()
    assert time.perf_counter() - started < 1.5  # one wait for all four, not one each
    assert all(p.poll() is not None for p in processes)


def test_a_bots_stderr_quoted_in_an_error_cannot_drive_the_terminal(bad_bot):
    """Only colour codes were taken out: an OSC sequence set the window's title, ESC c
    reset the screen and a carriage return forged a line's start (an adversarial probe)."""
    with pytest.raises(BotHandshakeError) as caught:
        ProcessStrategy(bad_bot("drives_the_terminal"), label="loud").start()
    text = str(caught.value)
    assert "\x1b" not in text and "\r" not in text and "\x07" not in text
    assert r"x\x1b]0;PWNED\x07\x1bc\rcomplete: all bots healthy" in text


@pytest.mark.parametrize(("mode", "fragment"), [
    ("forged_game", r"hello has games ['solo_whist\n\x1b[31mpassed: all checks OK\x1b[0m']"),
    ("many_games", "hello has games [7, 7, 7, 7, 7, 7, ...]"),
])
def test_a_hellos_games_are_names_of_one_line_and_a_few(bad_bot, mode, fragment):
    """A name with a newline forged a "passed:" line in a run's warning, and 300,000
    entries made a warning of 900 KB (an adversarial probe)."""
    with pytest.raises(BotHandshakeError) as caught:
        ProcessStrategy(bad_bot(mode), label="odd").start()
    text = str(caught.value)
    assert fragment in text and len(text) < 1_000, text[:2_000]
    assert "\n" not in text.split(" [bot command:")[0]


def test_a_timeout_names_a_message_type_the_engine_passed_over(bad_bot):
    """A reply typed "Action" waited out the whole limit and read as slowness: "it is too
    slow" (an adversarial probe); the engine passes over types it does not know (a later
    version's), so the timeout now says it saw one."""
    with ProcessStrategy(bad_bot("capitals_in_play"), label="x", time_limit=0.3) as bot:
        error = failure_in_play(bot)
    assert isinstance(error, BotTimeout)
    assert ("meanwhile it sent a message of type 'Action', which the engine does not know and"
            " passed over (the types a bot sends: hello, action, log, error)") in error.message
    with pytest.raises(BotHandshakeError) as caught:
        ProcessStrategy(bad_bot("capitals"), label="x", handshake_timeout=0.5).start()
    assert "message of type 'Hello'" in caught.value.message


def test_a_bot_that_exits_while_its_child_holds_its_output_is_a_crash_not_a_timeout(bad_bot):
    """Its pipe never closed, so it was found at the deadline and charged as too slow
    (an adversarial probe); the wait now checks that the bot still runs."""
    command = bad_bot("exits_leaving_a_child")
    with ProcessStrategy(command, label="x", time_limit=30.0) as bot:
        started = time.perf_counter()
        error = failure_in_play(bot)
        took = time.perf_counter() - started
    assert isinstance(error, BotCrashed), error
    assert "exited with code 3 while the engine waited for its reply to" in error.message
    assert took < 15.0  # found within a slice of 0.1 s, not at the 30 s limit



def test_a_capped_log_keeps_the_start_of_the_line_it_cuts_and_says_what_it_dropped():
    """A bot writing 1 MiB lines to stderr left a log of four "[capped at ...]" lines and
    nothing else: each line was longer than the whole cap, so none was kept, with no seat
    and no word of how much was dropped (a probe). The line that passes the cap keeps its
    start, tagged; the log ends saying how much went."""
    from whist_sim.protocol.bot_process import LineLog

    log = LineLog(None, 100, in_memory=True)
    log.write("seat 0", "short line")
    log.write("seat 1", "x" * 1000)
    log.write("seat 0", "y" * 10)
    lines = log.take().splitlines()
    assert lines[0] == "[seat 0] short line"
    assert lines[1].startswith("[seat 1] xxx") and lines[1].endswith(" [...]")
    assert len(lines[0]) + len(lines[1]) + 2 <= 100
    assert lines[2] == "[capped at 100 characters]"
    cut = 1000 - (len(lines[1]) - len("[seat 1] ") - len(" [...]"))
    assert lines[3] == f"[dropped: {cut + 10:,} characters, in 2 lines]"
    assert log.take() == ""  # the cap starts again for the next task's lines
    log.write("seat 0", "again")
    assert log.take() == "[seat 0] again\n"


def test_a_capped_log_file_ends_saying_what_it_dropped(tmp_path):
    from whist_sim.protocol.bot_process import LineLog

    log = LineLog(tmp_path / "bot.stderr", 50)
    for n in range(10):
        log.write("seat 0", f"line {n} " + "z" * 20)
    log.close()
    text = (tmp_path / "bot.stderr").read_text().splitlines()
    assert text[0] == "[seat 0] line 0 " + "z" * 20
    assert text[-2] == "[capped at 50 characters]"
    assert text[-1].startswith("[dropped: ") and text[-1].endswith(" in 9 lines]")


def _flood(lines):
    return [line.encode() for line in lines]


@pytest.mark.parametrize("flood", [
    [""] * 5000,
    [f"debug {n} é\r" for n in range(3000)],
    ["x" * 300] * 400 + ["last words"],
])
def test_a_full_log_counts_a_flood_in_bulk_as_line_by_line(flood):
    """A red-team probe: a bot writing empty lines to stderr without end slowed the whole
    engine, its opponent's decisions 1.6 to 1.8 times, because the reader looked at every
    line after its log was full. Past the cap, the lines are counted in bulk: the same
    log, the same dropped counts and the same tail as line by line."""
    from whist_sim.protocol.bot_process import LineLog, kept_lines

    bulk, each = LineLog(None, 200, in_memory=True), LineLog(None, 200, in_memory=True)
    bulk_tail, each_tail = deque(maxlen=20), deque(maxlen=20)
    for start in range(0, len(flood), 700):  # as chunks come
        chunk = _flood(flood[start:start + 700])
        kept_lines(chunk, "seat 1", bulk, bulk_tail)
        for raw in chunk:
            kept_lines([raw], "seat 1", each, each_tail)
    assert bulk.full("seat 1")  # the reader waits between reads from here on
    assert bulk.take() == each.take()
    assert list(bulk_tail) == list(each_tail)
    assert not bulk.full("seat 1")  # a task's take starts the cap again


def test_a_log_with_room_keeps_every_line_of_a_chunk():
    from whist_sim.protocol.bot_process import LineLog, kept_lines

    log, tail = LineLog(None, 10_000, in_memory=True), deque(maxlen=2)
    kept_lines(_flood(["a", "b", "c"]), "seat 0", log, tail)
    assert log.take() == "[seat 0] a\n[seat 0] b\n[seat 0] c\n"
    assert list(tail) == ["b", "c"]
