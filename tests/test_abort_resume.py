"""A run stopped by ``on_error = "abort"``: it says which hand failed, what is kept and how
to go on; resumed as it was it stops on the same hand, and resumed with
``on_error = "forfeit"`` it finishes with the rows of a run started that way."""

from __future__ import annotations

import json
import re
import tomllib

import pytest
from typer.testing import CliRunner

from tests.tournament_helpers import assert_same_rows, quick_config, run_rows
from whist_sim.cli import app
from whist_sim.play import StrategyFailure
from whist_sim.tournament.config import ConfigError, validate_config
from whist_sim.tournament.runner import RunAborted, resume_tournament, run_tournament

RARE = "tests.plugins.faulty:RaisesHoldingTwoAces"
ALWAYS = "tests.plugins.faulty:RaisesOnTrick5"


def _config(strategy: str, on_error: str, deals: int = 12):
    body = quick_config(deals=deals, per_task=2, seed=2, extra=f'on_error = "{on_error}"')
    body = body.replace('use = "heuristic"', f'use = "{strategy}"\nlabel = "failer"')
    return validate_config(tomllib.loads(body))


def _aborted(tmp_path, strategy=RARE):
    with pytest.raises(RunAborted) as raised:
        run_tournament(_config(strategy, "abort"), tmp_path / "run", workers=0, progress=False)
    return raised.value


def test_an_aborted_run_names_the_hand_what_is_kept_and_how_to_finish(tmp_path):
    failure = _aborted(tmp_path)
    message = str(failure)
    meta = json.loads((tmp_path / "run" / "run.json").read_text())
    assert meta["status"] == "aborted"
    kept = len(list((tmp_path / "run" / "data" / "deals").glob("*.parquet")))
    assert kept >= 1, "the failure this test needs comes after the first task"
    assert re.match(r"deal \d+-\d+-\d+-\d+ \([^)]*failer[^)]*\): seat [01] \(failer\)",
                    message), message
    assert "deliberate failure holding two aces" in message
    assert f"{tmp_path / 'run'}: the run stopped there" in message
    assert "plays the same hand with the same seeds and stops again" in message
    assert f"whist-sim run --resume {tmp_path / 'run'} --on-error forfeit" in message
    assert isinstance(failure, StrategyFailure) and failure.seat in (0, 1)


def test_an_aborted_run_resumed_as_it_was_stops_on_the_same_hand(tmp_path):
    first = _aborted(tmp_path)
    with pytest.raises(RunAborted) as again:
        resume_tournament(tmp_path / "run", workers=0, progress=False)
    assert str(first).splitlines()[0] == str(again.value).splitlines()[0]


def test_an_aborted_run_resumed_with_forfeit_has_the_rows_of_a_forfeit_run(tmp_path):
    _aborted(tmp_path)
    summary = resume_tournament(tmp_path / "run", workers=0, progress=False,
                                on_error="forfeit")
    assert summary.status == "complete"
    meta = json.loads((tmp_path / "run" / "run.json").read_text())
    assert meta["config"]["tournament"]["on_error"] == "forfeit"
    assert meta["error"] is None
    straight = run_tournament(_config(RARE, "forfeit"), tmp_path / "straight", workers=0,
                              progress=False)
    rows = run_rows(tmp_path / "run")
    assert (rows["deals"]["status"] == "forfeit").any()
    assert_same_rows(rows, run_rows(straight.path))


def test_a_strategy_failing_on_every_hand_still_leaves_a_run_folder(tmp_path):
    """The timing sample before a run plays its own deals: a failure there stopped the run
    before it had a folder, under abort, with no word of where."""
    failure = _aborted(tmp_path, ALWAYS)
    assert (tmp_path / "run" / "run.json").is_file()
    assert "0 of" in str(failure) and "tasks kept" in str(failure)


def test_the_report_of_a_run_aborted_before_any_task_says_how_to_finish_it(tmp_path):
    """``whist-sim report`` of such a run said "the run has no results yet", as of a run
    still being played, and nothing of how to finish it (a newcomer's probe)."""
    _aborted(tmp_path, ALWAYS)
    run = tmp_path / "run"
    result = CliRunner().invoke(app, ["report", str(run)], terminal_width=400)
    assert result.exit_code == 2, result.output
    text = " ".join(result.output.split())
    assert f"{run}: the run was aborted before it committed any task, so it has no" in text
    assert "strategy raised" in text  # why it was aborted, from run.json
    assert (f"finish it with whist-sim run --resume {run} --on-error forfeit (its failing"
            " hands forfeited)") in text


def test_resume_refuses_an_on_error_it_does_not_know(tmp_path):
    _aborted(tmp_path)
    with pytest.raises(ConfigError, match="allowed values: 'forfeit', 'abort'"):
        resume_tournament(tmp_path / "run", workers=0, progress=False, on_error="skip")


def test_the_command_line_finishes_an_aborted_run_with_on_error(tmp_path):
    _aborted(tmp_path)
    result = CliRunner().invoke(app, ["run", "--resume", str(tmp_path / "run"), "--on-error",
                                      "forfeit", "--workers", "0", "--no-progress"])
    assert result.exit_code == 0, result.output
    assert "on_error = 'forfeit' from this session on (it was 'abort')" in result.output


def test_a_complete_run_resumed_with_another_on_error_keeps_the_one_it_was_played_under(
        tmp_path, capsys):
    """Resuming a finished forfeit run with --on-error abort played nothing yet recorded
    "abort" in its config, which every row had been played without (a cluster probe)."""
    done = run_tournament(_config(RARE, "forfeit"), tmp_path / "run", workers=0,
                          progress=False)
    before = json.loads((done.path / "run.json").read_text())["config"]
    again = resume_tournament(done.path, workers=0, progress=False, on_error="abort")
    assert again.status == "complete"
    assert json.loads((done.path / "run.json").read_text())["config"] == before
    assert ("on_error = 'abort' not recorded: the run is complete, every hand played under"
            " 'forfeit'") in capsys.readouterr().err


def test_a_finished_run_names_each_forfeiting_entrants_first_reason(tmp_path):
    """The closing standings gave only a count of forfeits: a newcomer whose policy forfeited
    every hand learned why only from the report or the Parquet files (a probe)."""
    summary = run_tournament(_config(ALWAYS, "forfeit"), tmp_path / "run", workers=0,
                             progress=False)
    [line] = summary.forfeit_lines()
    count = int(re.search(r"failer forfeited (\d+) of \d+ hands", line)[1])
    assert count > 0
    assert re.search(r"first \(\d+-\d+-\d+-\d+\): seat [01] \(failer\) strategy raised"
                     r" ValueError: deliberate failure at trick 5 \(at .*faulty\.py:\d+\)"
                     r" \[phase play\]$", line)
    clean = run_tournament(_config("random", "forfeit"), tmp_path / "clean", workers=0,
                           progress=False)
    assert clean.forfeit_lines() == []
    shown = CliRunner().invoke(app, ["run", "--resume", str(tmp_path / "run")])
    assert f"forfeits: {line}" in shown.output, shown.output


FAILER = """
[tournament]
game = "{game}"
deals = {deals}
seed = 3
{extra}

[[strategies]]
use = "tests.plugins.faulty:RaisesEveryDecision"
label = "failer"

[[strategies]]
use = "random"
"""
"""A plug-in that raises at every decision against ``random``: it holds two seats of
every hand (A B A B)."""


def _failer_run(tmp_path, game: str, deals: int, extra: str = ""):
    """The summary of ``FAILER``'s run, and its report's Forfeits section."""
    from whist_sim.reports.forfeits_section import forfeits_section
    from whist_sim.reports.run_facts import RunFacts
    from whist_sim.store import RunFolder

    body = FAILER.format(game=game, deals=deals, extra=extra)
    summary = run_tournament(validate_config(tomllib.loads(body)), tmp_path / "run",
                             workers=0, progress=False)
    folder = RunFolder.open(summary.path)
    [section] = forfeits_section(folder, tmp_path, RunFacts.of(folder))
    return summary, section


def test_a_forfeit_line_counts_the_hands_an_entrant_sat_in_at_a_table_of_four(tmp_path):
    """A newcomer's probe: a Solo Whist plug-in that raised at every decision read
    "forfeited 100 of 200 hands", as if it had played half of them: it holds two seats of
    each A B A B hand, and the first of them to act forfeits the hand for both."""
    summary, section = _failer_run(tmp_path, "solo_whist", 4, "deals_per_task = 2")
    [line] = summary.forfeit_lines()
    assert line.startswith("failer forfeited 8 of the 8 hands it sat in (8 of its 16"
                           " seat-hands); first"), line
    # the report's Forfeits section counts the hands too: its rate by seat-hands read 0.5
    table = section.tables[0]
    rows = {row[0]: dict(zip(table.header, row, strict=True)) for row in table.rows}
    assert (rows["failer"]["rate"], rows["failer"]["hands sat in"],
            rows["failer"]["hands forfeited"], rows["failer"]["rate (hands)"]) == (
        "0.5000", "8", "8", "1.0000")
    assert "the first of its seats to act forfeits the hand and the game scores its other" \
        " seat as it scores the other players (paid, or drawn)" in section.paragraphs[0]


def test_a_minnesota_forfeiters_partner_is_said_to_lose_with_their_side(tmp_path):
    """The Forfeits section said a forfeiter's other seat was "paid, or drawn" as Solo and
    Knock-out Whist score it, in a Minnesota report where that seat, its partner, loses the
    hand with their side (a probe)."""
    _, section = _failer_run(tmp_path, "minnesota_whist", 2, "\n[variant]\ntarget = 5")
    said = section.paragraphs[0]
    assert "forfeits the hand and its other seat, its partner, loses it with their side" in said
    assert "paid, or drawn" not in said
    assert "Forfeits count as losses of the forfeiter's partnership, partner included" in said
