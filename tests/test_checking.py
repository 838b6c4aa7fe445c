"""``check_strategy``: good strategies pass, broken ones fail with a message naming the problem."""

from __future__ import annotations

import random
import sys

import pytest

from strategies.german_heuristic import GermanHeuristic
from strategies.random_play import RandomStrategy
from whist_sim.checking import (
    CHECK_VARIANTS,
    CheckArgumentError,
    CheckReport,
    StrategyCheckError,
    check_entrant,
    check_strategy,
)
from whist_sim.games import GAMES
from whist_sim.games.base import WhistSimError
from whist_sim.strategy import StrategyError


class PlaysAnIllegalCard(RandomStrategy):
    """Revokes: plays a card of another suit when it could follow."""

    def choose(self, view, rng):
        if view.trick and view.phase == "play":
            other = view.hand & ~view.legal
            if other:
                return other.bit_length() - 1
        return super().choose(view, rng)


class UsesTheGlobalRandom(RandomStrategy):
    """Draws from the global ``random`` module instead of its rng: not reproducible."""

    def choose(self, view, rng):
        return super().choose(view, random)


class ChangesTheView(RandomStrategy):
    """Tampers with the (frozen) variant in its view."""

    def choose(self, view, rng):
        object.__setattr__(view.variant, "race_to", view.variant.race_to)  # harmless
        if view.stage == 2:
            object.__setattr__(view.variant, "open_stock", 2)
        return super().choose(view, rng)


class Crashes(RandomStrategy):
    def choose(self, view, rng):
        if view.stage == 2:
            raise KeyError("no such card")
        return super().choose(view, rng)


@pytest.mark.parametrize("strategy", ["random", "heuristic"])
def test_builtin_strategies_pass(strategy):
    report = check_strategy(strategy, games=["german_whist"], deals=4)
    assert isinstance(report, CheckReport)
    assert report.games == ("german_whist",)
    assert report.variants == len(CHECK_VARIANTS["german_whist"])
    assert report.deals == report.variants * 2 * 4  # every variant, both seats
    assert report.decisions > report.deals


def test_a_strategy_is_checked_on_every_game_it_claims():
    report = check_strategy("random", deals=2)
    assert report.games == tuple(sorted(RandomStrategy.games & set(GAMES)))
    assert report.variants == sum(len(CHECK_VARIANTS[g]) for g in report.games)


def test_accepts_an_instance_a_class_and_a_module_reference():
    assert check_strategy(GermanHeuristic(endgame_cards=2), deals=1).strategy == "GermanHeuristic"
    assert check_strategy(RandomStrategy, games="german_whist", deals=1).games == ("german_whist",)
    spec = "strategies.german_heuristic:GermanHeuristic"
    assert check_strategy(spec, games=["german_whist"], deals=1).strategy == spec


def test_an_illegal_card_fails_naming_game_variant_seed_and_rule():
    with pytest.raises(StrategyCheckError) as failure:
        check_strategy(PlaysAnIllegalCard(), deals=2)
    message = str(failure.value)
    assert "german_whist" in message and "seed 0" in message and "seat 0" in message
    assert "illegal action" in message and "must follow" in message


def test_the_global_random_module_fails_as_nondeterministic():
    with pytest.raises(StrategyCheckError, match=r"not deterministic.*global random module"):
        check_strategy(UsesTheGlobalRandom(), deals=3)


def test_changing_the_view_fails():
    with pytest.raises(StrategyCheckError, match=r"mutated the view .*changed: variant"):
        check_strategy(ChangesTheView(), deals=2)


def test_an_exception_fails_naming_it():
    with pytest.raises(StrategyCheckError, match="KeyError"):
        check_strategy(Crashes(), deals=2)


def test_the_error_is_an_assertion_and_a_whist_sim_error():
    assert issubclass(StrategyCheckError, AssertionError)
    assert issubclass(StrategyCheckError, WhistSimError)


def test_a_game_the_strategy_does_not_play_is_refused_as_bad_input():
    """Not a verdict on the strategy: the caller asked for a game it does not claim."""
    with pytest.raises(CheckArgumentError, match="game 'solo_whist': strategy 'GermanHeuristic'"
                                                 " cannot be checked on it; allowed values"
                                                 r" \(the games it plays\): german_whist"):
        check_strategy(GermanHeuristic, games=["solo_whist"])


def test_a_game_asked_for_that_does_not_exist_is_named_as_unknown_not_as_the_strategys():
    """``check ... --game german`` said the strategy "cannot be checked on it" (a
    newcomer's probe), as if the strategy were at fault."""
    with pytest.raises(CheckArgumentError, match="game 'german' is not a game whist_sim knows;"
                                                 " allowed values: german_whist, knockout_whist,"):
        check_strategy(RandomStrategy, games=["german"])


def test_no_deals_is_refused_as_bad_input():
    with pytest.raises(CheckArgumentError, match="deals = 0 is not allowed"):
        check_strategy(RandomStrategy, deals=0)
    assert issubclass(CheckArgumentError, ValueError)


def test_more_deals_than_a_check_can_play_are_refused_before_any():
    """``check random --deals 100000000000`` was taken, and played without a word until
    it was stopped (a newcomer's probe)."""
    from whist_sim.checking import MAX_CHECK_DEALS

    with pytest.raises(CheckArgumentError,
                       match=f"deals = {MAX_CHECK_DEALS + 1} is not allowed; allowed values:"
                             f" whole numbers from 1 to {MAX_CHECK_DEALS:,}"):
        check_strategy(RandomStrategy, deals=MAX_CHECK_DEALS + 1)


def test_a_strategy_claiming_no_known_game_is_refused():
    class NoGames(RandomStrategy):
        games = frozenset({"bridge"})

    with pytest.raises(StrategyCheckError, match="claims no game whist_sim knows"):
        check_strategy(NoGames())


class ExitsQuietly(RandomStrategy):
    """Calls sys.exit(0) at its first decision: a check must not read that as success."""

    def choose(self, view, rng):
        raise SystemExit(0)


def test_a_strategy_that_calls_sys_exit_fails_the_check():
    with pytest.raises(StrategyCheckError, match="SystemExit"):
        check_strategy(ExitsQuietly(), deals=1)


def _cli_check_of(tmp_path, module: str, source: str, spec: str):
    """``whist-sim check SPEC --deals 1`` of a plug-in written to ``module``.py, run as a
    user runs it, from the folder the file is in."""
    import os
    import subprocess
    from pathlib import Path

    (tmp_path / f"{module}.py").write_text(source)
    root = Path(__file__).resolve().parents[1]
    return subprocess.run(
        [sys.executable, "-m", "whist_sim", "check", spec, "--deals", "1"],
        cwd=tmp_path, capture_output=True, text=True, timeout=120,
        env={**os.environ, "PYTHONPATH": f"{tmp_path}:{root}"})


def test_the_cli_check_of_a_strategy_that_calls_sys_exit_says_failed(tmp_path):
    """`whist-sim check` ended with status 0 and no word: a CI job read it as passing."""
    result = _cli_check_of(tmp_path, "quits",
                           "from strategies.random_play import RandomStrategy\n"
                           "class Quits(RandomStrategy):\n"
                           "    def choose(self, view, rng):\n"
                           "        raise SystemExit(0)\n", "quits:Quits")
    assert result.returncode == 1, result.stdout + result.stderr
    assert "failed:" in result.stdout + result.stderr
    assert "SystemExit" in result.stdout + result.stderr


def test_no_games_to_check_is_refused_as_bad_input():
    with pytest.raises(CheckArgumentError, match=r"games = \[\]: nothing to check"):
        check_strategy(RandomStrategy, games=[])


def test_a_seed_that_is_not_a_whole_number_is_refused_as_bad_input():
    with pytest.raises(CheckArgumentError, match="seed = 'x' is not allowed"):
        check_strategy(RandomStrategy, seed="x")


def test_a_games_attribute_written_as_one_text_is_refused_naming_the_fix():
    class OneText(RandomStrategy):
        games = "german_whist"

    with pytest.raises(WhistSimError, match=r"games attribute is the text 'german_whist';"
                                            r" write a set of game names"):
        check_strategy(OneText())


def test_an_entrant_with_parameters_is_checked_isolated_too_and_named_as_asked():
    from whist_sim.checking import check_entrant

    report = check_entrant("heuristic(compiled=false)", isolate=True, deals=1,
                           games=["german_whist"])
    assert report.games == ("german_whist",) and report.decisions > 0
    assert check_entrant("heuristic(compiled=false)", deals=1, games=["german_whist"]
                         ).strategy == "heuristic(compiled=false)"


def test_an_isolated_entrant_with_a_bad_parameter_is_refused_in_one_line_as_in_process():
    """A plug-in author's probe: isolated, it failed the check at its first decision
    with twelve lines of the serving process's traceback."""
    from whist_sim.checking import check_entrant

    for isolate in (False, True):
        with pytest.raises(StrategyError) as refused:
            check_entrant("random(x=1)", isolate=isolate, deals=1, games=["german_whist"])
        assert "strategy 'random': unknown parameter 'x'" in str(refused.value)
        assert "\n" not in str(refused.value)


def test_the_whist_sim_command_finds_a_plug_in_in_the_folder_it_runs_from(tmp_path):
    """As `python -m whist_sim` does, and Ray's workers: the console script found it only
    in the commands that restart themselves, and its hint said to run from that folder."""
    import subprocess
    import sys
    from pathlib import Path

    (tmp_path / "here_bot.py").write_text(
        "from strategies.random_play import RandomStrategy\n"
        "class HereBot(RandomStrategy):\n"
        "    games = frozenset({'german_whist'})\n")
    command = Path(sys.executable).parent / "whist-sim"
    assert command.exists(), "the package's console script is installed beside python"
    root = Path(__file__).resolve().parents[1]
    result = subprocess.run(
        [str(command), "check", "here_bot:HereBot", "--deals", "1"],
        cwd=tmp_path, capture_output=True, text=True, timeout=120,
        env={**__import__("os").environ, "PYTHONPATH": str(root)})
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.startswith("passed: here_bot:HereBot plays german_whist")


def test_a_bot_command_with_an_unclosed_quote_is_bad_input():
    """shlex's ValueError reached the console as a traceback."""
    from whist_sim.checking import check_entrant

    with pytest.raises(CheckArgumentError, match="No closing quotation"):
        check_entrant("process", command="./bot 'unterminated")


class Slow(RandomStrategy):
    """Takes a fifth of a second over every decision."""

    def choose(self, view, rng):
        import time

        time.sleep(0.2)
        return super().choose(view, rng)


def test_a_time_limit_fails_a_strategy_too_slow_for_it():
    """Without one, a strategy slow per decision passed the check and forfeited in the
    tournament whose time_limit it could not keep."""
    with pytest.raises(StrategyCheckError,
                       match=r"DecisionTimeout: .* past its budget of 0\.05 s"):
        check_strategy(Slow(), games=["german_whist"], deals=1, time_limit=0.05)
    with pytest.raises(CheckArgumentError, match="time_limit = 0 is not allowed"):
        check_strategy(RandomStrategy, deals=1, time_limit=0)


def test_an_isolated_check_gives_the_bot_the_limit_it_was_given_to_name(monkeypatch):
    """``check --isolate --time-limit 1`` said "did not reply within 0.95 s ... expected an
    action within the time limit of 0.95 s": the bot's share, never the limit given (a
    probe). The bot gets its share and the limit given, whose timeout message names both
    (test_protocol_errors: a timeout names the run's limit and the share)."""
    import whist_sim.protocol as protocol
    from whist_sim.checking import check_entrant
    from whist_sim.tournament.bots import BOT_TIME_SHARE

    made = []

    class Recorded(protocol.ProcessStrategy):
        def __init__(self, *args, **kwargs):
            made.append(kwargs)
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(protocol, "ProcessStrategy", Recorded)
    check_entrant("random", isolate=True, deals=1, games=["german_whist"], time_limit=5)
    assert made and made[0]["run_limit"] == 5
    assert made[0]["time_limit"] == pytest.approx(5 * BOT_TIME_SHARE)


@pytest.mark.parametrize("limit", [0.0001, 5000])
def test_a_time_limit_a_tournament_refuses_is_refused_by_the_check_too(limit):
    """A plug-in author's probe: 5,000 s and 0.0001 s passed, the second then failing the
    strategy with "had not decided after 0.000 s"."""
    with pytest.raises(CheckArgumentError, match=rf"time_limit = {limit} is not allowed;"
                       r" allowed values: 0\.001 to 3600 seconds a decision"):
        check_strategy(RandomStrategy, deals=1, time_limit=limit)


class LoopsAtTrick5(RandomStrategy):
    """Never returns from its decision after four tricks: a bug, not a slow search."""

    def choose(self, view, rng):
        if len(view.tricks) == 4:
            while True:
                pass
        return super().choose(view, rng)


def test_the_default_time_limit_is_the_tournaments():
    """A strategy that passes a check with no --time-limit keeps a default run's limit."""
    import inspect

    from whist_sim.checking import CHECK_TIME_LIMIT, check_entrant
    from whist_sim.tournament.config import TournamentSection

    assert TournamentSection.model_fields["time_limit"].default == CHECK_TIME_LIMIT
    for function in (check_strategy, check_entrant):
        default = inspect.signature(function).parameters["time_limit"].default
        assert default == CHECK_TIME_LIMIT, function.__name__


def test_a_strategy_that_loops_fails_as_too_slow_naming_seat_and_decision():
    with pytest.raises(StrategyCheckError) as caught:
        check_strategy(LoopsAtTrick5(), games=["german_whist"], deals=1, time_limit=0.2)
    message = str(caught.value)
    assert "seat 0: it is too slow: its play decision after 4 tricks took longer than 0.2 s"\
        in message, message


def test_the_cli_check_without_a_time_limit_reports_a_loop_rather_than_hang(monkeypatch):
    """With no --time-limit the check waited on such a strategy for ever, printing
    nothing. The default (10 s) is shortened here to keep the test quick; the CLI reads
    it when called."""
    from typer.testing import CliRunner

    from whist_sim import checking
    from whist_sim.cli import app

    monkeypatch.setattr(checking, "CHECK_TIME_LIMIT", 0.2)
    result = CliRunner().invoke(
        app, ["check", "tests.test_checking:LoopsAtTrick5", "--deals", "1",
              "--game", "german_whist"])
    assert result.exit_code == 1, result.output
    assert "failed: tests.test_checking:LoopsAtTrick5 does not pass the check" in result.output
    assert "seat 0: it is too slow: its play decision after 4 tricks" in result.output


def test_the_cli_check_names_its_default_time_limit_in_its_help():
    import typer.main

    from whist_sim.cli import app

    check = typer.main.get_command(app).commands["check"]
    option = next(param for param in check.params if param.name == "time_limit")
    assert "default: 10 s" in option.help


@pytest.mark.slow  # waits out the real default, 10 s
def test_the_whist_sim_check_of_a_loop_ends_within_its_default_time_limit():
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    result = subprocess.run(
        [sys.executable, "-m", "whist_sim", "check", "tests.test_checking:LoopsAtTrick5",
         "--deals", "1", "--game", "german_whist"],
        cwd=root, capture_output=True, text=True, timeout=120)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "it is too slow: its play decision after 4 tricks took longer than 10 s" \
        in result.stderr, result.stderr


@pytest.mark.parametrize(("name", "said"), [
    ("RaisesUnprintable", "raised _Unprintable: (its message could not be read: str() raised"
                          " RuntimeError)"),
    ("RaisesGeneratorExit", "raised GeneratorExit"),
    ("RaisesBaseException", "it raised _Escape: not an Exception, a BaseException that is not"
                            " an Exception: played in process it would end the whole"
                            " tournament"),
])
def test_a_strategy_raising_what_cannot_be_printed_or_a_base_exception_fails_in_one_line(
    name, said
):
    """Each ended `whist-sim check` in a traceback (a probe's plug-ins)."""
    from tests.plugins import hostile

    with pytest.raises(StrategyCheckError) as failed:
        check_strategy(getattr(hostile, name)(), games=["german_whist"], deals=4)
    assert said in str(failed.value)


class _Returns(RandomStrategy):
    """Returns ``value`` at its first decision."""

    games = frozenset({"german_whist"})
    value: object = None

    def choose(self, view, rng):
        return self.value


class _ReturnsTrue(_Returns):
    value = True


class _ReturnsFloat(_Returns):
    value = 6.0


class _ReturnsNone(_Returns):
    value = None


@pytest.mark.parametrize("kind", [_ReturnsTrue, _ReturnsFloat, _ReturnsNone])
def test_an_isolated_strategy_returning_what_is_not_an_action_fails_as_in_process(kind):
    """Isolated, a bool was sent as the card it indexes (True: 3S) and passed the check
    that the same strategy failed in process; a float or None failed inside the notation
    with a message about tuple indices."""
    from whist_sim.checking import check_entrant

    spec = f"tests.test_checking:{kind.__name__}"
    with pytest.raises(StrategyCheckError) as in_process:
        check_entrant(spec, deals=1, games=["german_whist"])
    with pytest.raises(StrategyCheckError) as isolated:
        check_entrant(spec, isolate=True, deals=1, games=["german_whist"])
    assert f"returned {kind.value!r}" in str(in_process.value)
    assert (f"strategy returned {kind.value!r}, which is not a german_whist action: an action"
            " number, a whole number (a bool, a float or None is refused)"
            ) in str(isolated.value)


def test_a_strategy_checked_with_parameters_is_named_with_them_as_a_config_names_it():
    """``check_strategy("policy", params=...)`` said "passed: policy plays ...", which did
    not say which of several policies checked one after another had passed."""
    report = check_strategy("heuristic", games=["german_whist"], deals=1,
                            params={"compiled": False})
    assert report.strategy == "heuristic(compiled=False)"


def test_a_bot_is_checked_on_the_variants_its_hello_lists_only(tmp_path):
    """A bot may list the variant values it plays in its hello; check played it every
    setting anyway and failed it on the first it had said it does not play."""
    from whist_sim.checking import check_entrant

    bot = tmp_path / "stock_of_one.py"
    bot.write_text(
        "import sys\n"
        "from whist_sim.protocol.client import registry_factory, run_bot\n"
        "sys.exit(run_bot(registry_factory('strategies.random_play:RandomStrategy'),"
        " name='stock_of_one', version='1', games=['german_whist'],"
        " variants={'german_whist': {'open_stock': [1], 'trumps': ['upcard']}}))\n")
    report = check_entrant("process", command=f"{sys.executable} {bot}", deals=1)
    assert report.games == ("german_whist",)
    assert report.not_played == ("german_whist (open_stock = 3)", "german_whist (trumps = 'none')")
    assert report.variants == len(CHECK_VARIANTS["german_whist"]) - 2
    assert "not checked, as its hello lists other variants: german_whist (open_stock = 3);" \
        in report.verdict


def test_a_misspelt_game_among_the_claimed_ones_fails_the_check():
    """A plug-in author's probe: games = {"german_whist", "solo_wist"} passed, and the
    strategy could then never be entered for Solo Whist."""

    class Misspelt(RandomStrategy):
        games = frozenset({"german_whist", "solo_wist"})

    with pytest.raises(StrategyCheckError, match=r"claims 'solo_wist', which is not a game"
                       r" whist_sim knows \(a misspelling\?\); known games: german_whist,"):
        check_strategy(Misspelt, deals=1)


def test_params_build_a_class_as_they_build_a_name_and_are_refused_for_an_instance():
    """A plug-in author's probe: given a class, a parameter it refused came out as its raw
    ValueError; given an instance, the parameters were ignored without a word."""

    class Picky(RandomStrategy):
        def __init__(self, lead="high"):
            if lead not in ("high", "low"):
                raise ValueError(f"lead = {lead!r} is not allowed; allowed values: high, low")

    with pytest.raises(StrategyError, match=r"strategy Picky\(lead='bogus'\) cannot be built"
                       r" for german_whist: ValueError: lead = 'bogus' is not allowed"):
        check_strategy(Picky, games=["german_whist"], deals=1, params={"lead": "bogus"})
    with pytest.raises(CheckArgumentError, match=r"this one is an instance \(Picky\), built"
                       " already"):
        check_strategy(Picky(), games=["german_whist"], deals=1, params={"lead": "low"})
    assert check_strategy(Picky, games=["german_whist"], deals=1,
                          params={"lead": "low"}).decisions > 0


class _HostileAdvice(RandomStrategy):
    """Chooses from the global generator, and its ``randomness_advice`` ends the process."""

    games = frozenset({"german_whist"})

    @property
    def randomness_advice(self):
        raise SystemExit("gotcha")

    def choose(self, view, rng):
        legal = [a for a in range(52) if view.legal >> a & 1]
        return random.choice(legal)


def test_a_strategys_randomness_advice_is_read_without_running_its_code():
    """The check read a plug-in's ``randomness_advice`` with getattr: a property that
    raised SystemExit ended ``whist-sim check`` with the plug-in's word and no verdict."""
    with pytest.raises(StrategyCheckError, match=r"it is not deterministic: .* Draw randomness"
                       r" only from the rng argument"):
        check_strategy(_HostileAdvice(), games=["german_whist"], deals=2)


class Listening(RandomStrategy):
    """Records the play loop's calls around its decisions, as a bot's ProcessStrategy hears them."""

    def __init__(self) -> None:
        self.heard: list[str] = []

    def ready_seats(self, seats):
        self.heard.append("ready_seats")

    def begin_deal(self, *, hand=None, match=None, deal=None):
        self.heard.append("begin_deal")

    def end_deal(self, outcome):
        self.heard.append("end_deal")


def test_the_check_passes_the_play_loops_calls_around_decisions_to_the_strategy():
    """The check's wrapper hid ready_seats: an isolated strategy's processes then started
    inside its decisions, and `check --isolate --time-limit 1` failed a strategy taking
    1 ms as "too slow" (a probe). It now hears what a tournament's play loop says."""
    strategy = Listening()
    check_strategy(strategy, games=["german_whist"], deals=1)
    assert {"ready_seats", "begin_deal", "end_deal"} <= set(strategy.heard)
    assert strategy.heard.index("ready_seats") < strategy.heard.index("end_deal")


def test_an_isolated_check_starts_no_process_inside_a_decision(monkeypatch):
    """Every process an isolated check needs is started by ready_seats, outside the clock."""
    import whist_sim.protocol.process_strategy as process_strategy
    from whist_sim.checking import check_entrant

    inside = []
    original_choose = process_strategy.ProcessStrategy.choose
    original_open = process_strategy.ProcessStrategy._open
    deciding = [False]

    def choose(self, view, rng):
        deciding[0] = True
        try:
            return original_choose(self, view, rng)
        finally:
            deciding[0] = False

    def opened(self, *args, **kwargs):
        inside.append(deciding[0])
        return original_open(self, *args, **kwargs)

    monkeypatch.setattr(process_strategy.ProcessStrategy, "choose", choose)
    monkeypatch.setattr(process_strategy.ProcessStrategy, "_open", opened)
    check_entrant("random", isolate=True, deals=1, games=["german_whist"], time_limit=5)
    assert inside and not any(inside)


def test_the_cli_check_names_its_option_when_the_time_limit_is_out_of_range():
    """A probe: ``whist-sim check X --time-limit -1`` said "time_limit = -1.0 is not
    allowed ... or None for no limit", a Python name and a value the command line cannot
    give, where ``duel --time-limit -1`` names its option."""
    from typer.testing import CliRunner

    from whist_sim.cli import app

    result = CliRunner().invoke(app, ["check", "random", "--deals", "1", "--game",
                                      "german_whist", "--time-limit", "-1"])
    assert result.exit_code == 2, result.output
    assert ("error: --time-limit -1.0: out of range; allowed values: numbers 0.001..3,600"
            in result.output)
    assert "None" not in result.output


def test_check_entrant_names_the_command_argument_for_a_python_caller():
    """check_entrant("process") without a command said only "process needs --command", a
    console flag a notebook user cannot pass (and was not a CheckArgumentError)."""
    from whist_sim.checking import check_entrant

    with pytest.raises(CheckArgumentError, match=r"command = None: process needs the bot's"
                                                 r" command line \(--command; check_entrant's"
                                                 r" command\)"):
        check_entrant("process", deals=1)
    with pytest.raises(CheckArgumentError, match=r"command = 'bot' goes with the strategy"
                                                 r" process .*, not 'random' \(--command;"):
        check_entrant("random", deals=1, command="bot")


def test_the_cli_check_of_a_run_folder_names_it_as_one_and_the_commands_that_check_it(
        tmp_path):
    """``whist-sim check RUN`` said "unknown strategy 'RUN'", with the strategies: a reader
    who wanted a run's files checked had no way on (a probe)."""
    from typer.testing import CliRunner

    from whist_sim.cli import app

    run = tmp_path / "run"
    run.mkdir()
    (run / "run.json").write_text("{}")
    result = CliRunner().invoke(app, ["check", str(run)])
    assert result.exit_code == 2, result.output
    assert f"{run}: is a run folder, and whist-sim check checks a strategy" in result.output
    assert f"whist-sim report {run}" in result.output
    assert "unknown strategy" not in result.output


class TakesTheHighestAction(RandomStrategy):
    """A card-only author's mistake: the highest legal action, in every phase. In a Solo
    Whist auction the highest is abundance declared, the top call."""

    games = frozenset({"solo_whist"})

    def choose(self, view, rng):
        return view.legal.bit_length() - 1


def test_the_check_reports_the_calls_a_strategy_made_in_each_phase():
    """A card-only plug-in bid abundance declared every hand and the check said only
    "passed" (a probe): what it called is part of what it plays."""
    report = check_strategy(TakesTheHighestAction, deals=2)
    bids = dict(report.calls)[("solo_whist", "bid")]
    assert [name for name, _ in bids] == ["abundance_declared"]
    assert any("solo_whist, bid: abundance_declared" in line for line in report.call_lines)


def test_the_check_notes_a_strategy_that_makes_one_bid_at_every_turn():
    report = check_strategy(TakesTheHighestAction, deals=2)
    (note,) = report.notes
    assert "abundance_declared at every one of its" in note
    assert "view.phase" in note and "PASS" in note


def test_a_strategy_that_bids_as_the_cards_fall_has_its_bids_counted_and_no_note():
    report = check_strategy("random", games=["solo_whist"], deals=2)
    bids = dict(dict(report.calls)[("solo_whist", "bid")])
    assert len(bids) > 1 and sum(bids.values()) > 0
    assert report.notes == ()


def test_a_game_without_calls_reports_none():
    report = check_strategy("random", games=["german_whist"], deals=1)
    assert report.calls == () and report.call_lines == ()


def test_the_cli_check_prints_the_calls_and_the_note(tmp_path):
    result = _cli_check_of(tmp_path, "highest",
                           "class Highest:\n"
                           "    games = frozenset({'solo_whist'})\n"
                           "    def choose(self, view, rng):\n"
                           "        return view.legal.bit_length() - 1\n", "highest:Highest")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "passed:" in result.stdout
    assert "solo_whist, bid: abundance_declared" in result.stdout
    assert "note:" in result.stdout + result.stderr


def test_a_rare_call_shows_its_share_to_one_decimal_not_as_none():
    report = CheckReport("x", ("solo_whist",), 1, 1, 1,
                         calls=((("solo_whist", "bid"), (("pass", 908), ("cop", 2))),))
    assert report.call_lines == ("solo_whist, bid: pass 908 (100%), cop 2 (0.2%)",)


class ForgetsToNameTrumps(RandomStrategy):
    """A newcomer's Solo Whist plug-in: passes in the auction, plays cards, and has no
    answer for the "trump" phase (it would raise there)."""

    games = frozenset({"solo_whist"})

    def choose(self, view, rng):
        if view.phase == "bid":
            return 52  # solo_whist.PASS
        cards = [a for a in range(52) if (view.legal & view.hand) >> a & 1]
        return max(cards)  # the "trump" phase has no card: max() of nothing raises


def test_the_check_notes_a_phase_the_strategy_was_never_asked():
    """A plug-in that forgot the "trump" phase passed the check with no word, since random
    opponents overcalled every Abundance it bid, and then forfeited each one it won in a
    duel with heuristic (a probe): a phase only its opponents met is code never run."""
    report = check_strategy(ForgetsToNameTrumps, deals=2)
    assert report.unasked == (("solo_whist", ("trump",)),)
    (note,) = report.notes
    assert "never asked a 'trump' decision" in note and "view.phase == 'trump'" in note


def test_a_strategy_asked_every_phase_has_no_phase_note():
    report = check_strategy(TakesTheHighestAction, deals=2)
    assert report.unasked == ()
    assert not any("never asked" in note for note in report.notes)


def test_a_call_made_under_one_in_two_thousand_reads_below_a_tenth_not_zero():
    report = CheckReport("x", ("solo_whist",), 1, 1, 1,
                         calls=((("solo_whist", "bid"), (("pass", 8202), ("abundance", 2))),))
    assert report.call_lines == ("solo_whist, bid: pass 8,202 (100%), abundance 2 (<0.1%)",)


class BidsAbundanceButCannotNameTrumps(RandomStrategy):
    """Bids Abundance now and then (on a strong hand, say), and has no answer for the
    "trump" phase: against random opponents, who overcall nearly every bid, it was never
    asked to name one."""

    games = frozenset({"solo_whist"})

    def choose(self, view, rng):
        if view.phase == "bid":
            return 57 if view.legal >> 57 & 1 and rng.random() < 0.02 else 52
        if view.phase == "trump":
            raise ValueError("no trump code")
        return super().choose(view, rng)


def test_a_bidder_that_cannot_name_trumps_fails_the_check():
    """The check's opponents pass often enough in the auction for the strategy's bids to
    stand, so its trump code runs: a probe's plug-in without it passed, then forfeited
    each Abundance it won in a duel."""
    with pytest.raises(StrategyCheckError, match="no trump code"):
        check_strategy(BidsAbundanceButCannotNameTrumps, deals=3)


def test_the_built_in_bidders_are_asked_every_phase_of_solo_whist():
    for spec in ("heuristic", "simulation_bidder(worlds=2)"):
        report = check_entrant(spec, games=["solo_whist"], deals=3)
        assert report.unasked == (), spec


class DecidesItsStyleOnce(RandomStrategy):
    """Settles its style from the first hand it ever sees and keeps it: both plays of a
    later deal use the same style, so playing them with one object showed nothing, while
    in a run the style comes from whichever deal a process happens to see first, and a
    run's rows depended on its task size (a probe: win rate 0.071 with one deal a task,
    0.317 with 60)."""

    games = frozenset({"german_whist"})

    def __init__(self):
        self.high = None

    def choose(self, view, rng):
        if self.high is None:
            self.high = bool(view.hand & 1)
        legal = view.legal
        return legal.bit_length() - 1 if self.high else (legal & -legal).bit_length() - 1


def test_state_kept_between_deals_fails_the_check_as_not_deterministic():
    """Each deal is played twice, the second time by a fresh copy of the strategy as it
    was built: state that has changed since fails the check, where playing both with the
    same object showed nothing once the state had stopped changing."""
    with pytest.raises(StrategyCheckError, match="not deterministic"):
        check_strategy(DecidesItsStyleOnce, games=["german_whist"], deals=3)


class SaysPassInWords(RandomStrategy):
    games = frozenset({"solo_whist"})

    def choose(self, view, rng):
        return "pass" if view.phase == "bid" else super().choose(view, rng)


def test_an_action_returned_by_its_name_is_told_its_number():
    """A Solo plug-in author's probe: "seat 0 returned 'pass', which is not an action
    number" said what was wrong but not what to return."""
    with pytest.raises(StrategyCheckError) as raised:
        check_strategy(SaysPassInWords, deals=1)
    assert ("returned 'pass', which is not an action number: 'pass' is action 52 here"
            " (game.action_str(52)); return 52") in str(raised.value)


class PlaysCardsByName(RandomStrategy):
    games = frozenset({"german_whist"})

    def choose(self, view, rng):
        return "AS"


def test_a_german_card_returned_by_its_name_is_told_its_number():
    with pytest.raises(StrategyCheckError) as raised:
        check_strategy(PlaysCardsByName, deals=1)
    assert ("returned 'AS', which is not a card number (an int 0..51): 'AS' is action 12"
            " here") in str(raised.value)
