"""A newcomer's file in the folder whist-sim runs from, named like a module that is
already taken: the error names the file to rename (a newcomer's probe)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import strategies
import whist_sim
from whist_sim.strategy import StrategyError, build_strategy, resolve_strategy

PLUGIN = '''
class HighCard:
    games = frozenset({"german_whist"})

    def choose(self, view, rng):
        return view.legal.bit_length() - 1
'''


def test_a_random_py_of_ones_own_is_named_as_not_the_module_imported(tmp_path, monkeypatch):
    """``random.py`` beside the config read "random has no 'HighCard'": Python's random had
    been imported first, and nothing said that the newcomer's file was never read."""
    (tmp_path / "random.py").write_text(PLUGIN)
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(StrategyError) as refused:
        resolve_strategy("random:HighCard")
    message = str(refused.value)
    assert "random has no 'HighCard'" in message
    assert f"so {tmp_path.resolve() / 'random.py'} is not it: rename random.py" in message


def test_no_note_without_a_file_of_that_name_in_the_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(StrategyError) as refused:
        resolve_strategy("random:HighCard")
    assert str(refused.value) == "strategy 'random:HighCard': random has no 'HighCard'"


def test_a_strategies_py_of_ones_own_is_named_as_hiding_the_built_ins(tmp_path):
    """``strategies.py`` in the working folder hid whist-sim's own ``strategies`` package:
    every built-in failed with "'strategies' is not a package", naming no file."""
    (tmp_path / "strategies.py").write_text(PLUGIN)
    shown = subprocess.run([sys.executable, "-m", "whist_sim", "strategies"], cwd=tmp_path,
                           capture_output=True, text=True, timeout=120)
    line = next(line for line in shown.stdout.splitlines() if line.startswith("random "))
    assert (f"'strategies' was imported from {Path(tmp_path).resolve() / 'strategies.py'}, in"
            " the folder whist-sim runs from, which hides the installed 'strategies'") in line
    assert "rename it (e.g. my_strategies)" in line


class Misspelt:
    games = frozenset({"german_whist"})

    def chose(self, view, rng):
        return view.legal.bit_length() - 1


class SelfLeftOut:
    games = frozenset({"german_whist"})

    def choose(view, rng):  # the newcomer's slip under test: no self
        return 0


def test_a_misspelt_choose_is_named():
    """``def chose(...)`` read "Bot has no choose method of its own", naming nothing of
    the newcomer's own code (a newcomer's probe)."""
    with pytest.raises(StrategyError, match=r"Misspelt has no choose method of its own \(it"
                                            r" has 'chose': choose misspelt\?\); a strategy's"):
        build_strategy(f"{__name__}:Misspelt", {}, "german_whist")


def test_a_choose_without_self_says_so():
    """``def choose(view, rng)`` read "Bot.choose(rng) cannot be called as choose(view,
    rng)", a signature the newcomer never wrote."""
    with pytest.raises(StrategyError, match=r"SelfLeftOut\.choose\(rng\) cannot be called as"
                                            r" choose\(view, rng\) \(def choose\(view, rng\):"
                                            r" its first parameter, 'view', receives the"
                                            r" strategy itself; write choose\(self, view,"
                                            r" rng\)\)"):
        build_strategy(f"{__name__}:SelfLeftOut", {}, "german_whist")


class NamesAGameWrongly:
    games = frozenset({"german"})

    def choose(self, view, rng):
        return 0


def test_a_games_entry_that_is_no_game_is_named():
    """``games = frozenset({"german"})`` read "does not play german_whist; it supports:
    german" in a run and a duel, never saying that "german" is no game's name."""
    from whist_sim.games import make_game

    with pytest.raises(StrategyError) as refused:
        build_strategy(f"{__name__}:NamesAGameWrongly", {}, make_game("german_whist"))
    assert ("('german' is not a game; the games: german_whist, knockout_whist,"
            in str(refused.value))


class GamesOfNoText:
    games = frozenset({1, "german_whist"})

    def choose(self, view, rng):
        return 0


class GamesAsANumber:
    games = 5

    def choose(self, view, rng):
        return 0


@pytest.mark.parametrize("name", ["GamesOfNoText", "GamesAsANumber"])
def test_a_games_attribute_that_is_no_set_of_names_is_refused_in_one_line(name):
    """``games = frozenset({1, "german_whist"})`` ended `whist-sim check` in a TypeError
    sorting them, and ``games = 5`` in "'int' object is not iterable" (a hostile reading)."""
    from whist_sim.checking import check_strategy
    from whist_sim.games import make_game

    with pytest.raises(StrategyError, match="write a set of game names"):
        build_strategy(f"{__name__}:{name}", {}, make_game("german_whist"))
    with pytest.raises(StrategyError, match="write a set of game names"):
        check_strategy(f"{__name__}:{name}", deals=1)


def test_a_working_folder_removed_under_the_process_leaves_the_error_as_it_was(
        tmp_path, monkeypatch):
    """The note on a file of one's own read the working folder, and a folder removed under
    the process raised FileNotFoundError in place of the error it was explaining."""
    gone = tmp_path / "gone"
    gone.mkdir()
    monkeypatch.chdir(gone)
    gone.rmdir()
    with pytest.raises(StrategyError, match="cannot import 'nosuchmodule'"):
        resolve_strategy("nosuchmodule:X")


def _whist_sim_in(folder: Path, *args: str) -> subprocess.CompletedProcess:
    """The installed ``whist-sim`` command, run from ``folder``."""
    command = str(Path(sys.executable).with_name("whist-sim"))
    return subprocess.run([command, *args], cwd=folder, capture_output=True, text=True,
                          timeout=120)


def _copy_of(package, folder: Path) -> Path:
    copy = folder / package.__name__
    shutil.copytree(Path(package.__file__).parent, copy,
                    ignore=shutil.ignore_patterns("__pycache__"))
    return copy


@pytest.mark.parametrize("package", [whist_sim, strategies], ids=lambda p: p.__name__)
def test_another_copy_in_the_folder_whist_sim_runs_from_stops_it_naming_both(tmp_path,
                                                                              package):
    """From a checkout of another version, the command ran the installed whist_sim while
    the isolated entrants' bots and Ray's workers imported the checkout's (a newcomer's
    probe): one run, two versions of the code, and nothing said so."""
    copy = _copy_of(package, tmp_path)
    init = copy / "__init__.py"
    init.write_text(init.read_text() + "\n# another version\n")
    shown = _whist_sim_in(tmp_path, "strategies")
    assert shown.returncode == 2, shown.stdout + shown.stderr
    assert "Traceback" not in shown.stderr
    installed = Path(package.__file__).resolve().parent
    assert (f"{copy.resolve()} is another copy of {package.__name__} than the one whist-sim"
            f" runs ({installed})") in shown.stderr
    assert "run whist-sim from another folder, or install this one (pip install -e .)" in (
        shown.stderr)


def test_a_copy_the_same_as_the_installed_one_is_no_problem(tmp_path):
    _copy_of(whist_sim, tmp_path)
    shown = _whist_sim_in(tmp_path, "strategies")
    assert shown.returncode == 0, shown.stderr
    assert any(line.startswith("random ") for line in shown.stdout.splitlines())


def test_a_copy_that_cannot_be_read_whole_is_named_not_a_traceback(tmp_path):
    """A dangling link among the copy's files ended the command in a FileNotFoundError
    traceback (a hostile probe)."""
    copy = _copy_of(whist_sim, tmp_path)
    (copy / "broken.py").symlink_to(tmp_path / "nowhere.py")
    shown = _whist_sim_in(tmp_path, "strategies")
    assert shown.returncode == 2, shown.stdout + shown.stderr
    assert "Traceback" not in shown.stderr
    assert f"{copy.resolve()} is another copy of whist_sim" in shown.stderr
