"""The Python API as docs/python-api.md lists it: every function named there is importable
from the module named beside it; config overrides take plain keys or name the forms
allowed; ``check`` ends in a verdict line and hands Python the report object."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from whist_sim.checking import CheckReport, check_strategy
from whist_sim.cli import app
from whist_sim.tournament.config import ConfigError, load_config

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "python-api.md"
QUICKSTART = ROOT / "configs" / "quickstart.toml"


def _listed() -> list[tuple[str, str]]:
    """(function, module) of every table row of the page: | `name(...)` | `module` | ..."""
    rows = re.findall(r"^\| `([A-Za-z_][\w.]*)[(`][^|]*\| `([\w.]+)` \|", PAGE.read_text(),
                      re.MULTILINE)
    return [(name.split(".")[0], module) for name, module in rows]


def test_the_page_lists_the_functions_the_issue_names():
    names = {name for name, _ in _listed()}
    for wanted in ("load_config", "run_tournament", "resume_tournament", "run_duel",
                   "duel_config", "build_report", "replay_deal", "check_strategy", "evaluate"):
        assert wanted in names, wanted


@pytest.mark.parametrize(("name", "module"), _listed())
def test_every_listed_function_is_in_its_module(name, module):
    listed = getattr(importlib.import_module(module), name)
    assert callable(listed) or name.isupper(), f"{module}.{name}: not a function or constant"


def test_the_readme_names_full_module_paths():
    """Every Python cell of README's task table is a dotted path from whist_sim."""
    table = [line for line in (ROOT / "README.md").read_text().splitlines()
             if line.startswith("| ") and "whist-sim" in line]
    assert table
    for line in table:
        python = line.split("|")[3]
        for name in re.findall(r"`([^`]+)`", python):
            assert name.startswith("whist_sim."), (name, line)
            module, _, attribute = name.rpartition(".")
            assert hasattr(importlib.import_module(module), attribute), name


def test_plain_and_dotted_overrides():
    plain = load_config(QUICKSTART, {"deals": 50, "seed": 7, "variant.count": "all"})
    dotted = load_config(QUICKSTART, {"tournament.deals": 50, "tournament.seed": 7,
                                      "variant.count": "all"})
    assert plain.tournament.deals == dotted.tournament.deals == 50
    assert plain.tournament.seed == 7 and plain.variant["count"] == "all"


def test_one_key_given_twice_as_plain_and_dotted_overrides_is_refused():
    """Whichever came last won, without a word (a probe: deals 5 or 6 by the dict's order)."""
    with pytest.raises(ConfigError, match=r"overrides 'deals' and 'tournament.deals' name the"
                       r" same key, tournament.deals; give it once"):
        load_config(QUICKSTART, {"deals": 5, "tournament.deals": 6})


@pytest.mark.parametrize("key", ["bogus", "nosection.deals"])
def test_an_unknown_override_names_the_forms_allowed(key):
    with pytest.raises(ConfigError) as caught:
        load_config(QUICKSTART, {key: 1})
    message = str(caught.value)
    assert message.startswith(f"{QUICKSTART}: override '{key}'")
    assert "section.key" in message and "plain tournament key" in message
    assert "deals" in message and "variant" in message


def test_check_prints_its_verdict_then_the_calls_and_python_gets_the_report():
    result = CliRunner().invoke(app, ["check", "random", "--deals", "1"])
    assert result.exit_code == 0, result.output
    lines = result.output.strip().splitlines()
    assert "CheckReport(" not in result.output
    report = check_strategy("random", deals=1)
    assert isinstance(report, CheckReport)
    assert lines[0] == report.verdict == str(report)
    assert lines[1:] == ["what it chose where a call was among its choices:",
                         *(f"  {line}" for line in report.call_lines)]
    assert re.match(r"passed: random plays german_whist, knockout_whist, minnesota_whist,"
                    r" solo_whist by the rules: \d+ matches under \d+ variant settings",
                    lines[0])


def test_a_failing_check_says_failed_with_the_reason():
    result = CliRunner().invoke(app, ["check", "tests.test_checking:PlaysAnIllegalCard",
                                      "--deals", "2"])
    assert result.exit_code == 1
    line = result.output.strip().splitlines()[-1]
    assert line.startswith("failed: tests.test_checking:PlaysAnIllegalCard does not pass the"
                           " check: ")


@pytest.mark.parametrize(("strategies", "seed", "error", "message"), [
    (1, 3, ValueError, "german_whist is played by 2 players here: give one strategy a seat,"
                       " 2, not 1"),
    (3, 3, ValueError, "give one strategy a seat, 2, not 3"),
    (2, "3", TypeError, "seed = '3' is not a whole number"),
    (2, 3.0, TypeError, "seed = 3.0 is not a whole number"),
    (2, True, TypeError, "seed = True is not a whole number"),
    (2, -1, ValueError, "seed = -1 is out of range; allowed values: whole numbers"
                        " 0..2**63 - 1, the seeds a tournament deals from"),
    (2, 2**64 + 5, ValueError, "seed = 18446744073709551621 is out of range"),
])
def test_play_deal_says_what_is_wrong_with_its_arguments(strategies, seed, error, message):
    """From a notebook: the wrong number of strategies or a seed that is not a whole
    number is named, not an IndexError or a TypeError from deep in the shuffle. A seed
    out of range was played: the shuffle reads it modulo 2**64, so -1 dealt the cards of
    2**64 - 1, and 2**64 + 5 those of 5."""
    from strategies.random_play import RandomStrategy
    from whist_sim.games import make_game
    from whist_sim.play import play_deal

    with pytest.raises(error, match=re.escape(message)):
        play_deal(make_game("german_whist"), [RandomStrategy()] * strategies, seed)


def test_a_given_deal_plays_with_any_seed_a_deal_set_may_hold():
    """The range above is for a seed that is shuffled: a deal set's row gives its cards and
    may carry any int64 seed (for the seats' generators), negative ones too."""
    from strategies.random_play import RandomStrategy
    from whist_sim.games import make_game
    from whist_sim.play import play_deal

    game = make_game("german_whist")
    record = game.new_deal(3, 0).deal_record()
    played = play_deal(game, [RandomStrategy()] * 2, -5, dealt=game.deal_from_record(record, 0, -5))
    assert played.seed == -5 and played.outcome.error is None


def test_play_deal_takes_a_numpy_seed_and_names_a_seat_that_is_not_a_strategy():
    import numpy as np

    from strategies.random_play import RandomStrategy
    from whist_sim.games import make_game
    from whist_sim.play import play_deal

    game = make_game("german_whist")
    by_numpy = play_deal(game, [RandomStrategy()] * 2, np.int64(3))
    assert by_numpy.state.log == play_deal(game, [RandomStrategy()] * 2, 3).state.log
    with pytest.raises(TypeError, match=r"strategies\[1\] = 'random' is not a strategy: it has"
                                        r" no choose\(view, rng\) method"):
        play_deal(game, [RandomStrategy(), "random"], 3)


def test_play_deal_refuses_a_strategy_whose_games_leave_the_game_out():
    """The solver in a Solo Whist seat read a view it did not know and the seat forfeited
    with "'SoloWhistView' object has no attribute 'stage'"."""
    from whist_sim.play import play_deal
    from whist_sim.strategy import StrategyError, build_strategy

    seats = [build_strategy("solver", {}, "german_whist")]
    seats += [build_strategy("random", {}, "solo_whist") for _ in range(3)]
    with pytest.raises(StrategyError, match=r"seat 0: strategy strategies\.german_solver:"
                                            r"GermanSolver plays german_whist, not solo_whist"):
        play_deal("solo_whist", seats, 1)


def test_build_strategy_takes_a_game_as_well_as_its_name():
    """Given make_game's object it said the strategy "does not play <...GermanWhist object
    at 0x...>" (an RL user's probe)."""
    from whist_sim.games import make_game
    from whist_sim.strategy import StrategyError, build_strategy

    game = make_game("knockout_whist", {}, 4)
    assert type(build_strategy("heuristic", {}, game)) is type(
        build_strategy("heuristic", {}, "knockout_whist"))
    with pytest.raises(StrategyError, match="strategy 'solver' does not play knockout_whist;"):
        build_strategy("solver", {}, game)


def test_play_deal_refuses_a_strategy_class_in_a_seat():
    """The class's unbound choose failed as "missing 1 required positional argument: 'rng'",
    and the seat forfeited every hand."""
    from whist_sim.play import play_deal
    from whist_sim.strategy import StrategyError, resolve_strategy

    with pytest.raises(StrategyError, match=r"seat 0: strategies\.random_play:RandomStrategy is"
                                            r" a strategy class, not an instance; build it"
                                            r" with RandomStrategy\(\.\.\.\)"):
        play_deal("german_whist", [resolve_strategy("random")] * 2, 1)


def test_a_run_into_a_used_folder_names_the_ways_on_in_pythons_words_too(tmp_path):
    """From a notebook it said "choose another --out or continue it with --resume",
    options a Python caller does not have (a newcomer's probe)."""
    from whist_sim.store import RunFolderError
    from whist_sim.tournament.runner import run_tournament

    used = tmp_path / "used"
    used.mkdir()
    (used / "notes.txt").write_text("mine")
    config = load_config(Path(__file__).resolve().parents[1] / "configs" / "quickstart.toml",
                         {"deals": 2})
    with pytest.raises(RunFolderError) as refused:
        run_tournament(config, used, workers=0, progress=False)
    assert "run_tournament's out" in str(refused.value)
    assert "resume_tournament" not in str(refused.value)  # it holds no run to resume
    run = run_tournament(config, tmp_path / "run", workers=0, progress=False).path
    with pytest.raises(RunFolderError) as again:
        run_tournament(config, run, workers=0, progress=False)
    assert "run_tournament's out" in str(again.value)
    assert f"resume_tournament({str(run)!r})" in str(again.value)


def test_the_pages_evaluate_example_runs_as_written():
    """It used a ``view`` it never made: NameError, as a data analyst's probe ran it."""
    block = PAGE.read_text().split("A call of `evaluate`", 1)[1]
    code = block.split("```python\n", 1)[1].split("```", 1)[0]
    scope: dict[str, object] = {}
    exec(compile(code, str(PAGE), "exec"), scope)
    state = scope["state"]
    assert scope["choice"] in [a for a in range(64) if state.legal >> a & 1]  # type: ignore


def test_build_strategy_names_a_misspelt_game_as_unknown():
    """A misspelt game was blamed on the strategy: "strategy 'heuristic' does not play
    german_wist" (and default_policy said the same of 'strategies.heuristic:Heuristic')."""
    from whist_sim.search.policy import default_policy
    from whist_sim.strategy import StrategyError, build_strategy

    expected = (r"game = 'german_wist' is not a game whist_sim knows \(did you mean"
                r" 'german_whist'\?\); allowed values: german_whist, knockout_whist,")
    with pytest.raises(StrategyError, match=expected):
        build_strategy("heuristic", {}, "german_wist")
    with pytest.raises(StrategyError, match=expected):
        default_policy("german_wist")
    with pytest.raises(StrategyError, match="game = 3 is not a game whist_sim knows"):
        build_strategy("heuristic", {}, 3)
