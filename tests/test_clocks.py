"""Chess clocks in a tournament, and the time of every decision in results and report."""

from __future__ import annotations

import polars as pl
import pytest

from tests.tournament_helpers import write_config
from whist_sim.reports.build import build_report
from whist_sim.store import RunFolder
from whist_sim.tournament.config import ConfigError, load_config
from whist_sim.tournament.runner import run_tournament

CONFIG = """
[tournament]
game = "german_whist"
deals = 3
seed = 2
deals_per_task = 3
{clock}

[[strategies]]
use = "tests.plugins.faulty:SteadilySlow"
label = "slow"
params = {{ seconds = 0.02 }}

[[strategies]]
use = "random"
"""


def _run(tmp_path, clock: str):
    config = load_config(write_config(tmp_path, CONFIG.format(clock=clock)))
    return run_tournament(config, tmp_path / "run", workers=0, progress=False).path


@pytest.mark.slow
def test_a_deal_clock_forfeits_the_slow_seat_on_time_and_the_report_counts_it(tmp_path):
    run = _run(tmp_path, "clock = { base = 0.3, increment = 0.0, per = \"deal\" }")
    folder = RunFolder.open(run)
    deals = folder.scan("deals").collect()
    slow = deals.filter(pl.col("strategies").list.contains("slow"))
    assert (slow["status"] == "forfeit").all()
    assert slow["error"].str.contains("lost on time").all()
    actions = folder.scan("actions").collect()
    chosen = actions.filter(pl.col("chosen"))
    assert chosen["seconds"].is_not_null().all() and (chosen["seconds"] >= 0).all()
    assert actions.filter(~pl.col("chosen"))["seconds"].is_null().all()
    text = build_report(run).markdown.read_text()
    section = text[text.index("## Time per decision"):]
    row = next(line for line in section.splitlines() if line.startswith("| slow "))
    assert row.split("|")[-2].strip() == str(slow.height)  # forfeits on time
    median_ms = float(row.split("|")[3])
    assert 15 < median_ms < 200  # it sleeps 20 ms a decision


@pytest.mark.slow
def test_an_increment_keeps_it_in_time(tmp_path):
    run = _run(tmp_path, "clock = { base = 0.3, increment = 0.05 }")
    deals = RunFolder.open(run).scan("deals").collect()
    assert (deals["status"] == "ok").all()


@pytest.mark.parametrize(("clock", "fragment"), [
    ("clock = { base = 0 }", "tournament.clock.base"),
    ("clock = { base = 1, increment = -1 }", "tournament.clock.increment"),
    ("clock = { base = 1, per = \"hour\" }", "tournament.clock.per"),
    ("clock = { base = 1, extra = 2 }", "extra"),
])
def test_a_bad_clock_is_one_line(tmp_path, clock, fragment):
    with pytest.raises(ConfigError, match=fragment):
        load_config(write_config(tmp_path, CONFIG.format(clock=clock)))


CLOCK_BOT = '''
import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m["type"] == "hello":
        print(json.dumps({"type": "hello", "name": "told", "version": "1", "protocol": "1.0",
                          "games": ["german_whist"]}), flush=True)
    elif m["type"] == "decide":
        print("remaining_ms", m["clock"]["remaining_ms"], file=sys.stderr, flush=True)
        print(json.dumps({"type": "action", "action": m["legal"][0]}), flush=True)
'''


def test_a_bot_is_told_the_time_left_on_its_chess_clock(tmp_path):
    """A probe: under a clock of 0.5 s a deal and a limit of 5 s a decision, a bot was told
    ``remaining_ms`` 4750 at every decision, and lost on time believing it had 4.75 s."""
    import sys

    bot = tmp_path / "told.py"
    bot.write_text(CLOCK_BOT)
    body = f"""
[tournament]
game = "german_whist"
deals = 1
seed = 3
time_limit = 5.0
clock = {{ base = 0.5, increment = 0.0, per = "deal" }}

[[strategies]]
use = "random"

[[strategies]]
use = "process"
label = "told"
command = [{str(sys.executable)!r}, {str(bot)!r}]
"""
    config = load_config(write_config(tmp_path, body))
    run = run_tournament(config, tmp_path / "run", workers=0, progress=False).path
    log = (run / "logs" / "output" / "told (stderr).log").read_text()
    told = [int(line.rsplit(" ", 1)[1]) for line in log.splitlines() if "remaining_ms" in line]
    assert told and max(told) <= 0.95 * 500  # the bot's share of its clock, never the limit's
    assert told[-1] <= told[0]  # and it runs down


def test_a_flag_fall_says_how_much_time_was_left_when_the_decision_began(tmp_path):
    """A probe: under ``per = "match"`` a seat whose clock had run out in hand 2 forfeited
    hand 3 at its first decision with "ran out during a decision of 0.001 s", as if that
    decision had used up its clock; the time left when it began says what happened."""
    run = _run(tmp_path, 'clock = { base = 0.3, per = "match" }\n\n[variant]\n'
                         'match = "best_of_3"')
    errors = pl.read_parquet(run / "data" / "deals").filter(
        pl.col("error").str.contains("lost on time"))["error"].to_list()
    assert errors
    assert all(" s were left on it when this decision began" in e for e in errors), errors


def test_a_match_clock_that_ran_out_stays_out_for_the_next_hand(tmp_path):
    """A probe: a seat that lost hand 2 of a best-of-3 on time came to hand 3 with the
    time it had when that decision began (0.007 s), as the decision that ran the clock
    out was never taken off it: an empty clock was refilled by its own flag fall."""
    run = _run(tmp_path, 'clock = { base = 0.3, per = "match" }\n\n[variant]\n'
                         'match = "best_of_3"')
    deals = pl.read_parquet(run / "data" / "deals").sort("deal_key")
    later = deals.filter((pl.col("hand") > 0) & pl.col("error").str.contains("lost on time"))
    assert later.height  # the slow seat's clock ran out in hand 0, so it has none in hand 1
    assert all("; 0.000 s were left on it" in e for e in later["error"]), later["error"]


def test_the_time_left_a_strategy_reads_is_its_own_threads():
    """A notebook may play deals in threads (budget's docstring): the time left on the
    clock of the seat deciding (``ClockLeft``, which a bot is told) is each thread's own,
    so a bot deciding in one thread is never told another thread's clock."""
    import threading

    from whist_sim.budget import ClockLeft

    seen: dict[str, float] = {}

    def other_thread() -> None:
        seen["before"] = ClockLeft.seconds
        ClockLeft.seconds = 2.0
        seen["after"] = ClockLeft.seconds

    ClockLeft.seconds = 1.0
    try:
        thread = threading.Thread(target=other_thread)
        thread.start()
        thread.join()
        assert seen == {"before": float("inf"), "after": 2.0}
        assert ClockLeft.seconds == 1.0
    finally:
        ClockLeft.seconds = float("inf")
