"""Bad input gets one clear line naming the file, the key and what is allowed; no traceback."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.tournament_helpers import make_run_without_ray, quick_config, write_config
from whist_sim.cli import app

pytestmark = pytest.mark.slow  # the whole module: seconds to minutes on 2 cores

runner = CliRunner()


def _run(*args: str):
    return runner.invoke(app, list(args))


def _assert_clean_error(result, *fragments: str) -> None:
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    for fragment in fragments:
        assert fragment in result.output, result.output


@pytest.mark.parametrize(
    ("change", "fragments"),
    [
        (("deals = 12", "deals = 12\ndealz = 3"),
         ["unknown key 'tournament.dealz'", "allowed keys here: game, deals"]),
        (('use = "heuristic"', 'use = "no_such_strategy"'),
         ["strategies[1]", "unknown strategy 'no_such_strategy'", "registered strategies:",
          "heuristic", "random"]),
        (('use = "heuristic"', 'use = "heuristic"\nparams = { nonsense = 1 }'),
         ["strategies[1]", "unknown parameter 'nonsense'", "allowed parameters:"]),
        (("[[strategies]]", '[variant]\ncount = "most"\n\n[[strategies]]'),
         ['variant.count = "most"', 'allowed values: "stage2", "all", "weighted"']),
        (("[[strategies]]", "[variant]\nopen_stock = 0\n\n[[strategies]]"),
         ["variant.open_stock = 0", "allowed values: whole numbers 1..26"]),
        (("[[strategies]]", '[variant]\nmatch = "best_of_4"\n\n[[strategies]]'),
         ['variant.match = "best_of_4"', '"best_of_3"']),
        (("[[strategies]]", "[variant]\nrace_to = 14\n\n[[strategies]]"),
         ["variant.race_to = 14", "1..13"]),
        (("[[strategies]]", "[variant]\nstake = 2\n\n[[strategies]]"),
         ["unknown key 'stake'", "allowed keys: count, match, open_stock, race_to, trumps"]),
        (("deals = 12", "deals = 12\nplayers = 3"),
         ["german_whist is played by 2 players, not 3"]),
        (('game = "german_whist"', 'game = "bridge"'),
         ['tournament.game = "bridge": not a game whist_sim knows',
          "allowed values: german_whist"]),
        (("deals = 12", "deals = 0"),
         ["tournament.deals = 0", "allowed values: whole numbers 1..1,000,000,000"]),
        (("deals = 12", 'deals = 12\nformat = "gauntlt"'),
         ['tournament.format = "gauntlt": not allowed (did you mean \'gauntlet\'?);',
          'allowed values: "round_robin" or "gauntlet"']),
        (("deals = 12", 'deals = 12\non_error = "ignore"'),
         ['tournament.on_error = "ignore"', 'allowed values: "forfeit" or "abort"']),
        (("deals = 12", 'deals = 12\nclock = { base = 5, per = "hand" }'),
         ['tournament.clock.per = "hand"', 'allowed values: "deal" or "match"']),
        (('use = "heuristic"', 'use = "heuristic"\nlabel = " "'),
         ['strategies[1].label = " ": an empty label;', "or leave label out"]),
        (('use = "heuristic"', 'use = "heuristic"\nlabel = "a\\nb"'),
         ['strategies[1].label = "a\\nb": it holds the control character \'\\n\'; allowed'
          " values: a name on one line"]),
        (('use = "heuristic"', 'use = "heuristic"\nlabel = "x\\u0000y"'),
         ["it holds the control character '\\x00'"]),
        (('use = "heuristic"', 'use = "heuristic"\nlabel = 5'),
         ["strategies[1].label = 5: not a text (a whole number)", 'e.g. label = "bold"']),
        (('use = "heuristic"', 'use = "heuristic"\nisolate = "yes"'),
         ['strategies[1].isolate = "yes": not true or false (a string); allowed values:'
          " true, false"]),
        (('use = "heuristic"', 'use = "heuristic"\nisolate = 1'),
         ["strategies[1].isolate = 1: not true or false"]),
        (('use = "heuristic"', 'use = "process"\ncommand = ["/bin/true"]\nenv = { X = 1 }'),
         ["strategies[1].env.X = 1: not a text"]),
    ],
)
def test_bad_config_fails_before_any_work_naming_file_key_and_allowed(tmp_path, change, fragments):
    config = write_config(tmp_path, quick_config().replace(*change, 1))
    out = tmp_path / "out"
    result = _run("run", str(config), "--out", str(out), "--no-progress")
    _assert_clean_error(result, str(config), *fragments)
    assert not out.exists()  # nothing started


def test_every_mistake_of_the_variant_and_the_entrants_is_named_at_once(tmp_path):
    """A variant's bad value, an unknown strategy, a parameter no strategy takes and a
    label used twice: one error, a line for each, not one run per mistake."""
    body = (quick_config()
            .replace("[[strategies]]", '[variant]\ncount = "most"\n\n[[strategies]]', 1)
            .replace('use = "heuristic"', 'use = "heuristic"\nparams = { nonsense = 1 }', 1)
            .replace('label = "random_b"', 'label = "random"')
            + '\n[[strategies]]\nuse = "no_such_strategy"\n')
    config = write_config(tmp_path, body)
    result = _run("run", str(config), "--out", str(tmp_path / "out"), "--no-progress")
    _assert_clean_error(result, 'variant.count = "most"', "strategies[1] (heuristic(nonsense=1))",
                        "unknown parameter 'nonsense'", "label 'random' is used twice",
                        "strategies[3] (no_such_strategy)",
                        "unknown strategy 'no_such_strategy'")
    assert not (tmp_path / "out").exists()


def test_every_bad_rule_setting_and_sprt_value_is_named_at_once(tmp_path):
    """A misspelt key, two refused values and two [sprt] values that break its rules: one
    error, a line each. ``race_to = 20`` fits the refused ``count = "al"``'s intent
    (``all``), and is not blamed for the default that stands in for it."""
    body = (quick_config()
            .replace("[[strategies]]", '[variant]\ntrump = "none"\ncount = "al"\n'
                     'open_stock = 30\nrace_to = 20\n\n[sprt]\nalpha = 2\nelo0 = 10\n'
                     'elo1 = 0\n\n[[strategies]]', 1))
    config = write_config(tmp_path, body)
    result = _run("run", str(config), "--out", str(tmp_path / "out"), "--no-progress")
    _assert_clean_error(result, "unknown key 'trump' (did you mean 'trumps'?)",
                        'variant.count = "al" is not allowed',
                        "variant.open_stock = 30 is not allowed",
                        "sprt.alpha = 2 is not allowed", "sprt.elo0 = 10 must be below elo1",
                        "[sprt] compares two entrants")
    assert "variant.race_to" not in result.output


def test_config_that_is_not_toml_is_one_line(tmp_path):
    config = write_config(tmp_path, "[tournament\n")
    _assert_clean_error(_run("run", str(config)), str(config), "not valid TOML")


def test_missing_config_file(tmp_path):
    _assert_clean_error(_run("run", str(tmp_path / "nope.toml")), "no such config file")


@pytest.fixture(scope="module")
def good_run(tmp_path_factory):
    return make_run_without_ray(tmp_path_factory.mktemp("good"), quick_config(deals=2))


def _copy(run: Path, tmp_path: Path) -> Path:
    target = tmp_path / "copy"
    shutil.copytree(run, target)
    return target


def test_resuming_a_complete_run_says_there_was_nothing_left_to_play(tmp_path, good_run):
    """It read "complete: 0 matches (0 hands) in 0.0 s", then the standings of every hand
    (a newcomer's probe), as if the run had been played, and played nothing."""
    run = _copy(good_run, tmp_path)
    result = _run("run", "--resume", str(run), "--workers", "0", "--no-progress")
    assert result.exit_code == 0, result.output
    first = result.output.splitlines()[0]
    assert first == (f"complete: nothing was left to play, every task was committed already"
                     f" -> {run}")


@pytest.mark.parametrize("command", ["report", "replay", "resume"])
def test_missing_run_folder_is_one_line(tmp_path, command):
    missing = str(tmp_path / "no-run")
    args = {"report": ["report", missing], "replay": ["replay", missing, "0-0-0-0"],
            "resume": ["run", "--resume", missing]}[command]
    _assert_clean_error(_run(*args), missing, "no such run folder")


@pytest.mark.parametrize("command", ["report", "replay", "resume"])
def test_a_config_file_given_for_a_run_folder_is_named_a_file(tmp_path, command):
    """`whist-sim report configs/quickstart.toml` said "no such run folder" of a file that
    exists (a docs probe)."""
    config = tmp_path / "quickstart.toml"
    config.write_text(quick_config(deals=2))
    args = {"report": ["report", str(config)], "replay": ["replay", str(config), "0-0-0-0"],
            "resume": ["run", "--resume", str(config)]}[command]
    _assert_clean_error(_run(*args), str(config), "a file, not a run folder")


def test_an_entrant_in_no_partnership_is_refused(tmp_path):
    """It got a row of standings, and a verdict, with no hand played."""
    body = GAME_CONFIG.format(game="minnesota_whist", variant="",
                              extra='partnerships = [["random", "random"], ["random", "h"]]')
    config = write_config(tmp_path, body + '\n[[strategies]]\nuse = "heuristic"\nlabel = "h"\n')
    _assert_clean_error(_run("run", str(config), "--workers", "0"),
                        "entrant 'random_b' is in no partnership")


@pytest.mark.parametrize("option", [["--deals", "100"], ["--seed", "9"], ["--out", "elsewhere"]])
def test_resume_refuses_options_it_would_ignore(tmp_path, good_run, option):
    """They were dropped without a word: the run resumed as planned, into its own folder."""
    run = _copy(good_run, tmp_path)
    _assert_clean_error(_run("run", "--resume", str(run), *option, "--workers", "0"),
                        f"{option[0]} cannot go with --resume", "start a new run")


def _bot_config(tmp_path: Path, command: list[str]) -> Path:
    body = quick_config(deals=2).replace(
        '[[strategies]]\nuse = "random"\nlabel = "random_b"\n',
        f'[[strategies]]\nuse = "process"\nlabel = "ghost"\ncommand = {json.dumps(command)}\n')
    assert "ghost" in body
    return write_config(tmp_path, body)


def _run_config(config: Path, out: Path):
    return CliRunner().invoke(app, ["run", str(config), "--workers", "0", "--no-progress",
                                    "--out", str(out)])


@pytest.mark.parametrize("command", [
    ["/nonexistent/bot"],                                   # no such program
    [sys.executable, "no_such_folder/bot.py"],              # a path from another folder
])
def test_a_bot_that_cannot_start_stops_the_run_before_any_deal(tmp_path, command):
    """It was a warning, easily lost in a log: the run played every deal as the bot's
    forfeit, ended with status 0 and a "decided" verdict against it (a newcomer's probe:
    a bot's relative path, run from another folder)."""
    result = _run_config(_bot_config(tmp_path, command), tmp_path / "run")
    _assert_clean_error(result, "(ghost)", command[-1])
    assert ("it failed both times" in result.output
            or "expected an executable program" in result.output), result.output
    assert not (tmp_path / "run").exists()


FLAKY_BOT = """
import json, sys
from pathlib import Path
starts = Path(sys.argv[1])
count = int(starts.read_text()) if starts.exists() else 0
starts.write_text(str(count + 1))
if count == 0:
    sys.exit(3)  # its first start fails; every later one plays
from whist_sim.protocol.client import registry_factory, run_bot
sys.exit(run_bot(registry_factory("strategies.random_play:RandomStrategy"), name="flaky",
                 version="1", games=["german_whist"]))
"""


def test_a_bot_that_fails_its_handshake_once_is_a_warning_before_the_run(tmp_path):
    """A bot that fails only sometimes plays the deals its later starts reach (a probe's
    flaky bot forfeited none): one failure is a warning, and the run goes on."""
    script = tmp_path / "flaky.py"
    script.write_text(FLAKY_BOT)
    config = _bot_config(tmp_path, [sys.executable, str(script), str(tmp_path / "starts")])
    result = _run_config(config, tmp_path / "run")
    assert result.exit_code == 0, result.output
    warning = next(line for line in result.stderr.splitlines()
                   if line.startswith("warning:") and "tournament.seed" not in line)
    assert "(ghost)" in warning and "exited with code 3" in warning, warning
    assert ("the run goes on: each deal it cannot be started for is its forfeit, and after"
            " tournament.bench_after of them (10 for a bot unless set) it is benched") in warning


@pytest.mark.parametrize("command", ["report", "replay", "resume"])
def test_corrupt_run_json_is_one_line(tmp_path, good_run, command):
    run = _copy(good_run, tmp_path)
    (run / "run.json").write_text("{ not json")
    args = {"report": ["report", str(run)], "replay": ["replay", str(run), "0-0-0-0"],
            "resume": ["run", "--resume", str(run)]}[command]
    _assert_clean_error(_run(*args), "run.json: corrupt")


@pytest.mark.parametrize("command", ["report", "replay", "resume"])
def test_corrupt_parquet_file_is_named_with_the_way_out(tmp_path, good_run, command):
    run = _copy(good_run, tmp_path)
    victim = next((run / "data" / "seats").glob("*.parquet"))
    victim.write_bytes(victim.read_bytes()[:100])
    args = {"report": ["report", str(run)], "replay": ["replay", str(run), "0-0-0-0"],
            "resume": ["run", "--resume", str(run)]}[command]
    _assert_clean_error(_run(*args), str(victim), "unreadable", "--resume")


def test_run_json_without_required_keys_is_corrupt(tmp_path, good_run):
    run = _copy(good_run, tmp_path)
    meta = json.loads((run / "run.json").read_text())
    del meta["root_seed"]
    (run / "run.json").write_text(json.dumps(meta))
    _assert_clean_error(_run("report", str(run)), "corrupt (no 'root_seed' key)")


def test_run_json_whose_config_is_not_a_table_names_config(tmp_path, good_run):
    """It read "run.json:  = None: not a table", the key's name empty (a probe)."""
    run = _copy(good_run, tmp_path)
    meta = json.loads((run / "run.json").read_text())
    meta["config"] = None
    meta["status"] = "interrupted"
    (run / "run.json").write_text(json.dumps(meta))
    _assert_clean_error(_run("run", "--resume", str(run), "--no-progress"),
                        "run.json: corrupt (config = null: not the table of the config")


def test_folder_that_is_not_a_run(tmp_path):
    (tmp_path / "plain").mkdir()
    _assert_clean_error(_run("report", str(tmp_path / "plain")), "not a run folder")


def test_new_run_refuses_to_overwrite_an_existing_folder(tmp_path, good_run):
    config = write_config(tmp_path, quick_config())
    _assert_clean_error(
        _run("run", str(config), "--out", str(good_run), "--no-progress"),
        "already exists", "--resume",
    )


GAME_CONFIG = """
[tournament]
game = "{game}"
deals = 2
{extra}

[variant]
{variant}

[[strategies]]
use = "random"

[[strategies]]
use = "random"
label = "random_b"
"""


@pytest.mark.parametrize(
    ("game", "extra", "variant", "fragments"),
    [
        ("solo_whist", "", "overtricks = true\nplay_out = false",
         ["overtricks = true needs every trick played", "play_out"]),
        ("solo_whist", "", "stake = 0", ["variant.stake = 0", "a number > 0"]),
        ("solo_whist", "", 'payments = "modern"', ['variant.payments = "modern"', '"classic"']),
        ("solo_whist", "", "target = 50", ["session_hands must cap it above 1"]),
        ("minnesota_whist", "", 'scoring = "bridge"', ['variant.scoring = "bridge"', '"pagat"']),
        ("minnesota_whist", 'partnerships = [["random", "nobody"], ["random_b", "random_b"]]', "",
         ["tournament.partnerships: unknown label 'nobody'", "random_b"]),
        ("minnesota_whist", 'partnerships = [["random", "random_b"]]', "",
         ["at least two partnerships"]),
        ("minnesota_whist", 'partnerships = [["random", "random"], ["random", "random"]]', "",
         ["tournament.partnerships: ['random', 'random'] is given twice"]),

        ("minnesota_whist", "partnerships = [[0, 1], [2, 3]]", "",
         ["tournament.partnerships = [[0, 1], [2, 3]]: not a list of pairs of strategy labels",
          "allowed values: pairs of labels"]),
        ("german_whist", 'partnerships = [["random", "random"], ["random_b", "random_b"]]', "",
         ["partnerships applies only to partnership games"]),
        ("knockout_whist", "players = 8", "", ["knockout_whist is played by 2..7 players, not 8"]),
        ("knockout_whist", "players = [4, 4]", "", ["list each table size once"]),
        # named the 4 given twice, and the 9 only once that was mended (a newcomer's probe)
        ("knockout_whist", "players = [4, 4, 9]", "",
         ["list each table size once (4 is given twice)", "played by 2..7 players, not 9"]),
        ("knockout_whist", "", 'dogs_life = "always"',
         ['variant.dogs_life = "always"', '"first_round"', '"first_knockout"']),
        ("knockout_whist", "", 'tie_break = "coin"', ['variant.tie_break = "coin"', '"cut"']),
    ],
)
def test_bad_game_settings_fail_before_any_work(tmp_path, game, extra, variant, fragments):
    config = write_config(tmp_path, GAME_CONFIG.format(game=game, extra=extra, variant=variant))
    out = tmp_path / "out"
    result = _run("run", str(config), "--out", str(out), "--no-progress")
    _assert_clean_error(result, str(config), *fragments)
    assert not out.exists()


def test_two_runs_started_in_the_same_second_get_their_own_default_folders(
        tmp_path, monkeypatch):
    """The second was refused and told to resume the first's folder."""
    from whist_sim import cli

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(cli.time, "strftime", lambda _format: "20261203-142600")
    first = cli._new_folder("duel")
    assert first == Path("results/duel-20261203-142600")
    (first / "run.json").write_text("{}")
    second = cli._new_folder("duel")
    assert second == Path("results/duel-20261203-142600-2")
    assert cli._new_folder("duel").name == "duel-20261203-142600-3"


def test_two_runs_choosing_their_default_folders_at_once_get_their_own(tmp_path, monkeypatch):
    """Two runs of one config started together (``&``) both found the name free, and the
    second was refused when it came to write there, told to resume the first's run (a
    newcomer's probe). The name is taken as it is chosen."""
    from whist_sim import cli

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(cli.time, "strftime", lambda _format: "20261203-142600")
    first, second = cli._new_folder("quickstart"), cli._new_folder("quickstart")
    assert first != second and first.is_dir() and second.is_dir()


def test_sprt_settings_separated_by_semicolons_are_told_the_separators(tmp_path, monkeypatch):
    """``--sprt "elo0=0;elo1=10"`` read as elo0 = "0;elo1=10": "not a finite number", with
    nothing of how settings are separated (a newcomer's probe)."""
    monkeypatch.chdir(tmp_path)
    result = _run("duel", "random", "heuristic", "--game", "german_whist",
                  "--sprt", "elo0=0;elo1=10", "--no-progress")
    _assert_clean_error(result, "--sprt 'elo0=0;elo1=10': separate its settings by spaces or"
                                " commas, not ';' (e.g. --sprt 'elo0=0 elo1=10')")


@pytest.mark.parametrize(("args", "said"), [
    (["random", "nosuch"], "error: B (nosuch): unknown strategy 'nosuch'"),
    (["nosuch", "random"], "error: A (nosuch): unknown strategy 'nosuch'"),
    (["random", "heuristic", "--sprt", "net0=0 net1=1"],
     "error: --sprt: net0/net1 (points per hand) apply to solo_whist and minnesota_whist"),
])
def test_a_duels_errors_name_a_and_b_and_its_options(tmp_path, monkeypatch, args, said):
    """They said "duel: strategies[1] (nosuch)" and "duel: sprt: net0/net1 ...", the words
    of a config the command line never showed (a newcomer's probe)."""
    monkeypatch.chdir(tmp_path)
    result = _run("duel", *args, "--game", "german_whist", "--no-progress")
    _assert_clean_error(result, said)


def test_a_duels_hypotheses_beyond_the_games_largest_net_are_refused(tmp_path, monkeypatch):
    """No seat wins more than 24 units in a hand of Solo Whist, so no entrant's mean can
    reach net1 = 40; the duel ran, and its test could only end "inconclusive"."""
    monkeypatch.chdir(tmp_path)
    result = _run("duel", "random", "heuristic", "--game", "solo_whist",
                  "--sprt", "net0=30 net1=40", "--no-progress")
    _assert_clean_error(result, "error: --sprt: net0 = 30 and net1 = 40 units per hand",
                        "between -24 and 24")
    assert not any((tmp_path / "results").glob("duel-*"))


def test_a_command_that_stops_before_writing_leaves_no_default_folder(tmp_path, monkeypatch):
    """The default folder is made as its name is chosen; a command refused after that
    (here a duel's --sprt, read after the folder is named) takes it away again."""
    monkeypatch.chdir(tmp_path)
    result = _run("duel", "random", "heuristic", "--game", "german_whist",
                  "--sprt", "elo0=10 elo1=5", "--no-progress")
    _assert_clean_error(result, "elo0", "elo1")
    assert not any((tmp_path / "results").glob("duel-*"))


def test_a_report_out_that_is_a_file_is_one_line_naming_it(tmp_path, good_run):
    """It read "afile: File exists"."""
    afile = tmp_path / "afile"
    afile.write_text("")
    _assert_clean_error(_run("report", str(good_run), "--out", str(afile)),
                        f"--out {afile}: is a file, not a folder")


def test_build_report_refuses_an_out_inside_a_runs_data(good_run):
    """A data analyst's probe: the report's files landed among the tables of data/."""
    from whist_sim.reports.build import ReportError, build_report

    with pytest.raises(ReportError, match=r"lies in .*data, a run's own folder whose every"
                       " file its manifest names"):
        build_report(good_run, out=good_run / "data")
    assert not (good_run / "data" / "report.md").exists()


def test_resuming_a_complete_run_keeps_when_it_ended(tmp_path, good_run):
    """A data analyst's probe: "ended" moved to the time of a resume that played nothing."""
    from whist_sim.tournament.runner import resume_tournament

    run = _copy(good_run, tmp_path)
    meta = json.loads((run / "run.json").read_text())
    meta["ended"] = "2026-01-01T00:00:00+0000"  # long before this resume, whatever its second
    (run / "run.json").write_text(json.dumps(meta))
    assert resume_tournament(run, workers=0, progress=False).status == "complete"
    assert json.loads((run / "run.json").read_text())["ended"] == "2026-01-01T00:00:00+0000"


def test_build_report_refuses_an_out_that_is_a_file_as_the_command_does(tmp_path, good_run):
    """build_report raised a bare "FileExistsError: [Errno 17] File exists"."""
    from whist_sim.reports.build import ReportError, build_report

    afile = tmp_path / "afile"
    afile.write_text("")
    with pytest.raises(ReportError, match="is a file, not a folder; the report is a folder"):
        build_report(good_run, out=afile)
    with pytest.raises(ReportError, match="afile is a file, so no folder can be made under it"):
        build_report(good_run, out=afile / "report")
    assert afile.read_text() == ""


def test_ray_failing_under_a_run_is_one_line_and_says_how_to_resume(tmp_path, monkeypatch):
    """A killed raylet ended the command with Ray's state dump and a traceback, and no word
    of the run's committed tasks or of --resume (an operator probe)."""
    import ray.exceptions

    from whist_sim.tournament import runner as runner_module

    def lost(*args, **kwargs):
        raise ray.exceptions.LocalRayletDiedError()

    monkeypatch.setattr(runner_module, "run_tournament", lost)
    config = tmp_path / "quick.toml"
    config.write_text(quick_config(deals=2))
    out = tmp_path / "run"
    result = _run("run", str(config), "--out", str(out), "--no-progress")
    _assert_clean_error(result, "Ray failed during the run (LocalRayletDiedError: The task's"
                        " local raylet died", "every task committed so far is kept",
                        f"continue with: whist-sim run --resume {out}")


def test_an_address_with_workers_0_is_said_to_be_unused(tmp_path):
    """--workers 0 plays in process; an --address beside it was dropped without a word."""
    config = tmp_path / "quick.toml"
    config.write_text(quick_config(deals=2))
    result = _run("run", str(config), "--out", str(tmp_path / "r"), "--workers", "0",
                  "--address", "127.0.0.9:6379", "--no-progress")
    assert result.exit_code == 0, result.output
    assert ("warning: --workers 0 plays in this process: the Ray address 127.0.0.9:6379"
            " (--address or RAY_ADDRESS) is not used") in result.output
    assert result.output.count("is not used") == 1  # the Python API's own warning not again


def test_a_bad_value_given_on_the_command_line_is_named_as_such(tmp_path):
    """`run use.toml --deals 0` blamed the file ("use.toml: tournament.deals = 0")."""
    config = tmp_path / "quick.toml"
    config.write_text(quick_config(deals=2))
    _assert_clean_error(_run("run", str(config), "--deals", "0", "--out", str(tmp_path / "r")),
                        "tournament.deals = 0", "(given on the command line: --deals 0)")


@pytest.mark.parametrize(("args", "fragments"), [
    (["run", "x.toml", "--workers", "2,5"],
     ["'2,5' is not a whole number (a decimal comma? write a point)",
      "it takes a number of workers, 0..100,000"]),
    (["run", "x.toml", "--deals", "1.5"], ["'1.5' is not a whole number; it takes a number of"
                                           " deal indices"]),
    (["duel", "random", "heuristic", "--game", "german_whist", "--time-limit", "0,5"],
     ["'0,5' is not a number (a decimal comma? write a point)", "e.g. 0.5"]),
    (["check", "random", "--deals", "many"], ["'many' is not a whole number"]),
])
def test_a_number_option_that_is_not_a_number_says_what_it_takes(args, fragments):
    """Typer's own types said "Input should be a valid integer, unable to parse string as an
    integer", nothing of the decimal comma nor of what the option takes (a newcomer probe)."""
    result = CliRunner().invoke(app, args, terminal_width=200)
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    text = " ".join(result.output.replace("│", " ").split())
    for fragment in fragments:
        assert fragment in text, text


@pytest.mark.parametrize("deals", ["0", "100000000000"])
def test_checks_deals_out_of_range_are_named_as_the_option(deals):
    """``check random --deals 0`` said "deals = 0 is not allowed", the Python argument's
    name, where the command line's is --deals (a newcomer's probe)."""
    from whist_sim.checking import MAX_CHECK_DEALS

    result = _run("check", "random", "--deals", deals)
    _assert_clean_error(result, f"--deals {deals}: not allowed; allowed values: whole numbers"
                                f" from 1 to {MAX_CHECK_DEALS:,}")


def test_a_bad_address_from_the_environment_is_named_ray_address(tmp_path):
    """`RAY_ADDRESS=auto whist-sim run ...` said "--address 'auto' is not an address",
    an option nobody had typed."""
    config = tmp_path / "quick.toml"
    config.write_text(quick_config(deals=2))
    result = CliRunner().invoke(app, ["run", str(config), "--no-progress"],
                                env={"RAY_ADDRESS": "auto"})
    _assert_clean_error(result, "RAY_ADDRESS 'auto' is not an address")
    typed = CliRunner().invoke(app, ["run", str(config), "--address", "auto", "--no-progress"])
    _assert_clean_error(typed, "--address 'auto' is not an address")


def test_a_failed_runs_error_in_run_json_carries_no_terminal_colour_codes(tmp_path, monkeypatch):
    """Ray's task errors come coloured (`\\x1b[36mray::play_and_store()\\x1b[39m`); run.json
    kept the codes, which read as noise in the file and in reports (a probe)."""
    from whist_sim.tournament import runner as runner_module

    assert runner_module.plain_text("\x1b[36mray::play_and_store()\x1b[39m failed") == (
        "ray::play_and_store() failed")

    def coloured(*args, **kwargs):
        raise RuntimeError("\x1b[31mboom\x1b[0m in a worker")

    monkeypatch.setattr(runner_module._Console, "update", coloured)  # fails mid-run
    config = tmp_path / "quick.toml"
    config.write_text(quick_config(deals=2))
    out = tmp_path / "run"
    result = _run("run", str(config), "--out", str(out), "--workers", "0", "--no-progress")
    assert result.exit_code != 0
    error = json.loads((out / "run.json").read_text())["error"]
    assert "boom in a worker" in error and "\x1b" not in error


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="needs Linux's /proc")
def test_an_out_no_folder_can_be_made_in_is_refused_before_any_warning(tmp_path):
    """As root, /proc passes the permission check, and the run printed a disk warning
    ("/proc has 0 bytes free ... make room, then resume") before a bare "No such file or
    directory" (a newcomer probe)."""
    config = write_config(tmp_path, quick_config(deals=2))
    result = _run("run", str(config), "--workers", "0", "--no-progress", "--out",
                  "/proc/whist-sim-nope")
    _assert_clean_error(result, "--out /proc/whist-sim-nope: no folder can be made in /proc")
    assert "warning" not in result.output


def test_the_way_to_continue_a_cluster_run_keeps_its_address(tmp_path, capsys):
    """It printed "whist-sim run --resume RUN", which resumes on an embedded Ray on the
    driver's machine instead of the cluster (a newcomer probe)."""
    from types import SimpleNamespace

    import typer

    from whist_sim import cli

    summary = SimpleNamespace(where="ray", workers=2, status="interrupted", matches=4, hands=4,
                              wall_seconds=1.0, path=tmp_path, standings=[],
                              verdict_text=lambda: "", forfeit_lines=lambda: [])
    with pytest.raises(typer.Exit):
        cli._finish(summary, report=False, address="127.0.0.5:6385")
    assert (f"continue with: whist-sim run --resume {tmp_path} --address 127.0.0.5:6385"
            in capsys.readouterr().out)
    assert cli._resume_command(tmp_path, None) == f"whist-sim run --resume {tmp_path}"


def test_the_way_to_continue_a_run_asked_for_its_report_keeps_report(tmp_path, capsys):
    """An operator's probe: a run given --report and interrupted printed a command that
    finished the run without writing the report."""
    from types import SimpleNamespace

    import typer

    from whist_sim import cli

    summary = SimpleNamespace(where="in process", workers=0, status="interrupted", matches=4,
                              hands=4, wall_seconds=1.0, path=tmp_path, standings=[],
                              verdict_text=lambda: "", forfeit_lines=lambda: [])
    with pytest.raises(typer.Exit):
        cli._finish(summary, report=True)
    assert f"continue with: whist-sim run --resume {tmp_path} --report" in capsys.readouterr().out


@pytest.mark.parametrize(("seed", "warned"), [(None, True), (17, True), (2**40, False)])
def test_a_small_root_seed_with_an_isolated_entrant_is_warned_of(tmp_path, seed, warned):
    """A bot tried root seeds from 0 against its own hand, found the default at once and
    rebuilt its opponent's hand (a hostile bot author's probe)."""
    from whist_sim.tournament.config import load_config

    body = ('[tournament]\ngame = "german_whist"\ndeals = 2\n'
            + ("" if seed is None else f"seed = {seed}\n")
            + '\n[[strategies]]\nuse = "random"\nisolate = true\n\n[[strategies]]\n'
            'use = "random"\nlabel = "r2"\n')
    warnings = load_config(write_config(tmp_path, body)).warnings
    seed_warnings = [line for line in warnings if "tournament.seed" in line]
    assert bool(seed_warnings) == warned
    if warned:
        shown = "0 (the default)" if seed is None else str(seed)
        assert f"tournament.seed = {shown} is a small number, and random plays" in (
            seed_warnings[0])
        assert "secrets.randbits(63)" in seed_warnings[0]


@pytest.mark.parametrize(("option", "value", "said"), [
    ("--sprt", "elo0=0 elo1=5 batch=0", "--sprt batch = 0: out of range"),
    ("--sprt", "alpha=0.7", "--sprt alpha = 0.7 is not allowed"),
    ("--variant", "count=bogus", '--variant count = "bogus" is not allowed'),
])
def test_a_duels_bad_option_value_is_named_as_the_option_it_was_given_in(tmp_path, option,
                                                                        value, said):
    """It read "duel: sprt.batch = 0", a config key the command line never showed."""
    result = _run("duel", "random", "heuristic", "--game", "german_whist", option, value,
                  "--workers", "0", "--out", str(tmp_path / "duel"))
    _assert_clean_error(result, f"error: {said}")
    assert "duel: " not in result.output


def test_every_unknown_key_of_a_config_gets_the_same_suggestion(tmp_path):
    """A probe: ``[tournamnet]`` and ``bacth`` under [sprt] got no "did you mean", a
    misspelt variant key did."""
    body = (quick_config().replace("[tournament]", "[tournamnet]", 1)
            .replace("[[strategies]]", "[sprt]\nbacth = 3\n\n[[strategies]]", 1)
            .replace('use = "heuristic"', 'use = "heuristic"\nparams = { contest_margn = 1 }',
                     1))
    config = write_config(tmp_path, body)
    result = _run("run", str(config), "--out", str(tmp_path / "out"), "--no-progress")
    _assert_clean_error(result, "unknown key 'tournamnet' (did you mean 'tournament'?)",
                        "unknown key 'sprt.bacth' (did you mean 'batch'?)")
    # the same slip once: no second line for the section it leaves missing (a probe);
    # a section simply left out is still named
    assert "missing key 'tournament'" not in result.output, result.output
    left_out = write_config(tmp_path, body.replace("[tournamnet]", "[notes]"))
    result = _run("run", str(left_out), "--out", str(tmp_path / "out"), "--no-progress")
    assert "missing key 'tournament'" in result.output, result.output
    fixed = body.replace("[tournamnet]", "[tournament]").replace("bacth", "batch")
    result = _run("run", str(write_config(tmp_path, fixed)), "--out", str(tmp_path / "out"),
                  "--no-progress")
    _assert_clean_error(result, "unknown parameter 'contest_margn' (did you mean"
                                " 'contest_margin'?)")


def test_an_unknown_sprt_key_on_the_command_line_gets_a_suggestion(tmp_path):
    from whist_sim.inference import SprtError, SprtSettings

    with pytest.raises(SprtError, match=r"unknown key 'aplha' \(did you mean 'alpha'\?\)"):
        SprtSettings.parse("elo0=0 elo1=10 aplha=0.01")
    result = _run("duel", "heuristic", "random", "--game", "german_whist", "--sprt",
                  "bacth=3", "--max-deals", "10", "--workers", "0", "--out",
                  str(tmp_path / "out"), "--no-progress")
    _assert_clean_error(result, "'bacth' (did you mean 'batch'?)")


def test_an_empty_sprt_is_refused_with_the_defaults_it_would_have_run(tmp_path):
    """``--sprt ""`` (an empty shell variable, say) ran silently at the defaults."""
    for empty in ("", " , "):
        result = _run("duel", "heuristic", "random", "--game", "german_whist", "--sprt", empty,
                      "--max-deals", "10", "--workers", "0", "--out", str(tmp_path / "out"),
                      "--no-progress")
        _assert_clean_error(result, "gives no settings", "elo0=0 elo1=10 alpha=0.05 beta=0.05"
                            " batch=20", "leave --sprt out")
        assert not (tmp_path / "out").exists()


def test_sprt_settings_may_be_separated_by_commas_as_the_help_says(tmp_path):
    from whist_sim.cli import app as cli_app

    duel_help = runner.invoke(cli_app, ["duel", "--help"], terminal_width=200).output
    assert "spaces or commas" in " ".join(duel_help.split())
    result = _run("duel", "heuristic", "random", "--game", "german_whist", "--sprt",
                  "elo0=0,elo1=300,batch=5", "--max-deals", "10", "--workers", "0", "--out",
                  str(tmp_path / "out"), "--no-progress")
    assert result.exit_code == 0, result.output
    sprt = json.loads((tmp_path / "out" / "run.json").read_text())["config"]["sprt"]
    assert (sprt["elo0"], sprt["elo1"], sprt["batch"]) == (0, 300, 5)


def test_a_misspelt_strategy_name_or_class_gets_a_suggestion():
    """A probe: "unknown strategy 'polcy'" and "has no 'RandomStrategi'" listed what there
    is but suggested nothing, where a misspelt config key gets "did you mean"."""
    from whist_sim.strategy import StrategyError, resolve_strategy

    with pytest.raises(StrategyError, match=r"unknown strategy 'heuristik' \(did you mean"
                                            r" 'heuristic'\?\); registered strategies:"):
        resolve_strategy("heuristik")
    with pytest.raises(StrategyError, match=r"strategies\.random_play has no 'RandomStrategi'"
                                            r" \(did you mean 'RandomStrategy'\?\)"):
        resolve_strategy("strategies.random_play:RandomStrategi")


@pytest.mark.parametrize("option,value,said", [
    ("--time-limit", "0", "--time-limit 0.0: out of range; allowed values: numbers 0.001..3,600"),
    ("--players", "3", "--players 3: german_whist is played by 2 players, not 3"),
])
def test_a_duels_option_is_named_as_given_not_as_its_config_key(tmp_path, option, value, said):
    """A probe: ``--time-limit 0`` was refused as "duel: tournament.time_limit = 0.0"."""
    result = _run("duel", "heuristic", "random", "--game", "german_whist", option, value,
                  "--max-deals", "4", "--workers", "0", "--out", str(tmp_path / "duel"))
    _assert_clean_error(result, f"error: {said}")
    assert "tournament." not in result.output


def test_a_duels_players_out_of_range_does_not_offer_a_list_it_cannot_take(tmp_path):
    """A probe: ``duel --players 8`` for Knock-out Whist was refused with "allowed values:
    whole numbers 2..7, or a list of distinct sizes", but ``--players`` takes one size and
    refuses ``[4, 7]``."""
    result = _run("duel", "heuristic", "random", "--game", "knockout_whist", "--players", "8",
                  "--max-deals", "4", "--workers", "0", "--out", str(tmp_path / "duel"))
    _assert_clean_error(result, "error: --players 8: knockout_whist is played by 2..7 players,"
                                " not 8; allowed values: whole numbers 2..7")
    assert "list" not in result.output


def test_several_sprt_options_are_read_together_and_a_key_given_twice_is_refused(tmp_path):
    """A probe: of ``--sprt elo0=0 --sprt elo1=5`` the last alone was read, which was then
    refused as "elo0 is missing"."""
    result = _run("duel", "heuristic", "random", "--game", "german_whist", "--sprt", "elo0=0",
                  "--sprt", "elo1=5", "--max-deals", "4", "--workers", "0", "--no-progress",
                  "--out", str(tmp_path / "duel"))
    assert result.exit_code == 0, result.output
    assert "heuristic stronger by at least 5 rather than at most 0" in result.output
    twice = _run("duel", "heuristic", "random", "--game", "german_whist", "--sprt", "elo0=0",
                 "--sprt", "elo0=5", "--max-deals", "4", "--workers", "0", "--out",
                 str(tmp_path / "twice"))
    _assert_clean_error(twice, "--sprt 'elo0=5': 'elo0' is given twice")


def test_a_text_where_a_list_belongs_is_shown_as_the_list_it_may_have_meant(tmp_path):
    """A probe: ``candidates = "heuristic"`` read "not a list (a string)", with no allowed
    values."""
    body = quick_config().replace('[tournament]\n', '[tournament]\nformat = "gauntlet"\n'
                                  'candidates = "heuristic"\n', 1)
    result = _run("run", str(write_config(tmp_path, body)), "--out", str(tmp_path / "out"),
                  "--no-progress")
    _assert_clean_error(result, 'tournament.candidates = "heuristic": not a list (a string);'
                                " allowed values: a list in brackets, e.g. candidates ="
                                ' ["heuristic"]')


def test_running_a_config_again_names_its_unfinished_run(tmp_path, monkeypatch):
    """After a Ctrl-C a newcomer ran the same command again: it started from nothing in a
    new folder, with no word of the run it had stopped (a probe). A run started in a
    default folder names an unfinished run of the same config beside it, and how to go
    on with it instead; a finished one, or one of another config, is not named."""
    monkeypatch.chdir(tmp_path)
    config = write_config(tmp_path, quick_config(deals=4, per_task=2))
    for name, status, seed in (("stopped", "interrupted", None), ("done", "complete", None),
                               ("other", "interrupted", "99")):
        args = ["run", str(config), "--out", f"results/{name}", "--workers", "0",
                "--no-progress"] + (["--seed", seed] if seed else [])
        assert _run(*args).exit_code == 0
        meta_path = tmp_path / "results" / name / "run.json"
        meta_path.write_text(json.dumps({**json.loads(meta_path.read_text()),
                                         "status": status}))
    result = _run("run", str(config), "--workers", "0", "--no-progress")
    assert result.exit_code == 0, result.output
    assert ("note: results/stopped holds an unfinished run of this config (status"
            " interrupted); this command starts a new one. To go on with that one instead:"
            " whist-sim run --resume results/stopped") in result.output
    assert "results/done" not in result.output and "results/other" not in result.output


def test_a_folder_of_runs_given_as_a_run_names_the_runs_inside(tmp_path):
    """`whist-sim report results` said only "results: not a run folder (no run.json)" (a
    newcomer's probe): the runs it holds are named, the newest first."""
    results = tmp_path / "results"
    for name, started in (("first", "2026-12-01T10:00:00"), ("second", "2026-12-02T10:00:00")):
        (results / name).mkdir(parents=True)
        (results / name / "run.json").write_text(json.dumps({"started": started}))
    (results / "notes").mkdir()
    _assert_clean_error(
        _run("report", str(results)),
        f"{results}: not a run folder (no run.json); it holds run folders: give one of"
        f" them, e.g. {results / 'second'}, {results / 'first'}")


def test_a_variant_without_a_value_is_shown_the_duels_own_games_keys(tmp_path):
    """A Knock-out probe: ``--variant tie_break`` was told "e.g. --variant count=all", a
    German Whist key, with nothing of the keys Knock-out Whist has."""
    result = _run("duel", "heuristic", "random", "--game", "knockout_whist", "--variant",
                  "tie_break", "--max-deals", "4", "--workers", "0",
                  "--out", str(tmp_path / "duel"))
    _assert_clean_error(result, "--variant 'tie_break': write key=value, e.g. --variant"
                                " tie_break=cut; knockout_whist's keys: tie_break, dogs_life")
    assert "count=all" not in result.output
