"""Functions a notebook calls refuse a bad argument with a message that names it and the
allowed values, and take a game's name wherever they take a game."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from strategies.random_play import RandomStrategy
from whist_sim.env import layout_for
from whist_sim.env.encoders import encoder_for
from whist_sim.games import make_game
from whist_sim.games.base import VariantError
from whist_sim.play import play_deal, play_match

TWO = [RandomStrategy(), RandomStrategy()]


@pytest.mark.parametrize("players", ["4", 4.0, True])
def test_a_table_size_that_is_not_a_whole_number_is_refused_with_the_sizes(players):
    with pytest.raises(VariantError, match=rf"players = {players!r} is not a whole number;"
                                           r" allowed values: 2\.\.7"):
        make_game("knockout_whist", None, players)


def test_a_numpy_table_size_is_a_table_size():
    game = make_game("knockout_whist", None, np.int64(4))
    assert game.players == 4 and type(game.players) is int


def test_a_variant_written_as_text_is_refused_naming_the_keys():
    with pytest.raises(VariantError, match=r"variant = 'count=all' is not a table of settings;"
                                           r".*allowed keys: count, match, open_stock"):
        make_game("german_whist", "count=all")


def test_a_numpy_dealer_is_a_seat():
    assert make_game("solo_whist").checked_dealer(np.int64(2)) == 2


def test_a_game_is_taken_by_name_where_a_game_is_taken():
    by_name = play_deal("german_whist", TWO, 5)
    assert by_name.outcome == play_deal(make_game("german_whist"), TWO, 5).outcome
    assert layout_for("german_whist").size == layout_for(make_game("german_whist")).size
    assert encoder_for("solo_whist").layout.game == "solo_whist"


def test_something_that_is_not_a_game_is_refused_naming_the_games():
    with pytest.raises(VariantError, match="game = 3 is not a game; give a name"
                                           r" \(german_whist, knockout_whist"):
        play_deal(3, TWO, 5)


@pytest.mark.parametrize(("keyword", "fragment"), [
    ({"on_error": "ABORT"}, "on_error = 'ABORT' is not allowed; allowed values: 'forfeit',"
                            " 'abort'"),
    ({"time_limit": "1"}, "time_limit = '1' is not allowed; allowed values: seconds > 0"),
    ({"time_limit": 0}, "time_limit = 0 is not allowed"),
    ({"time_limit": -1.5}, "time_limit = -1.5 is not allowed"),
])
def test_play_deal_refuses_an_option_outside_its_values(keyword, fragment):
    """Before: an unknown on_error read as "forfeit", a text limit as the strategy's fault."""
    with pytest.raises(ValueError, match=fragment):
        play_deal(make_game("german_whist"), TWO, 5, **keyword)


@pytest.mark.parametrize("seed", ["1", 1.5])
def test_play_match_refuses_a_seed_that_is_not_a_whole_number(seed):
    """play_deal refused these; play_match played "1" as 1 and accepted 1.5."""
    with pytest.raises(TypeError, match=f"seed = {seed!r} is not a whole number"):
        play_match(make_game("german_whist"), TWO, seed)


def test_an_information_state_tensor_for_a_seat_not_at_the_table_is_refused():
    state = make_game("german_whist").new_deal(1, 0)
    with pytest.raises(ValueError, match=r"seat = 5 is not at this table; allowed values: 0\.\.1"):
        state.information_state_tensor(5)


def test_an_unknown_segment_name_lists_the_segments():
    with pytest.raises(KeyError, match="no segment 'hands'; segments: hand, played"):
        layout_for("german_whist").slice("hands")


def test_run_tournament_takes_a_config_file_path_and_refuses_what_is_not_a_config(tmp_path):
    """A path raised AttributeError: 'str' object has no attribute 'game'."""
    from tests.tournament_helpers import quick_config, write_config
    from whist_sim.tournament.config import ConfigError
    from whist_sim.tournament.runner import run_tournament

    path = write_config(tmp_path, quick_config(deals=2, per_task=2))
    assert run_tournament(str(path), tmp_path / "run", workers=0, progress=False).status == (
        "complete")
    with pytest.raises(ConfigError, match="config = 5 is not a config; give the path"):
        run_tournament(5, tmp_path / "other", workers=0, progress=False)


def test_load_config_overrides_must_be_a_mapping():
    from pathlib import Path

    from whist_sim.tournament.config import ConfigError, load_config

    quickstart = Path(__file__).resolve().parents[1] / "configs" / "quickstart.toml"
    with pytest.raises(ConfigError, match=r"overrides = \[\('deals', 5\)\] is not a mapping"):
        load_config(quickstart, [("deals", 5)])


@pytest.mark.parametrize(("given", "fragment"), [
    ({"tournament": {"game": "german_whist"}},
     "; a config already read into a table is validated by"
     " whist_sim.tournament.config.validate_config(table)"),
    (None, "path = None is not a config file's path; give a str or a pathlib.Path"),
])
def test_load_config_refuses_what_is_not_a_path_naming_the_types(given, fragment):
    """A table or None raised pathlib's "expected str, bytes or os.PathLike object"."""
    from whist_sim.tournament.config import ConfigError, load_config

    with pytest.raises(ConfigError) as refused:
        load_config(given)
    assert fragment in str(refused.value)


def test_run_tournament_refuses_an_out_that_is_not_a_path(tmp_path):
    """out = None raised pathlib's TypeError from inside the run folder's code."""
    from tests.tournament_helpers import quick_config, write_config
    from whist_sim.store import RunFolderError
    from whist_sim.tournament.config import load_config
    from whist_sim.tournament.runner import run_tournament

    config = load_config(write_config(tmp_path, quick_config(deals=2, per_task=2)))
    with pytest.raises(RunFolderError, match=r"run folder = None is not a folder's path; give"
                                             r" a str or a pathlib\.Path"):
        run_tournament(config, None, workers=0, progress=False)


def test_wrong_kinds_of_argument_from_a_notebook_are_one_line_each(tmp_path):
    """A data analyst's probe: each of these raised Python's own TypeError or
    AttributeError, or advised resuming a plain file."""
    from whist_sim.games import make_game
    from whist_sim.play import play_deal
    from whist_sim.store import RunFolderError
    from whist_sim.tournament.config import ConfigError, load_config
    from whist_sim.tournament.runner import run_tournament

    with pytest.raises(ValueError, match="strategies = None is not a list of strategies"):
        play_deal(make_game("german_whist"), None, seed=1)
    config = Path(__file__).resolve().parents[1] / "configs" / "quickstart.toml"
    with pytest.raises(ConfigError, match="override 1 is not a key"):
        load_config(config, {1: 2})
    afile = tmp_path / "afile.txt"
    afile.write_text("notes")
    with pytest.raises(RunFolderError, match=r"afile\.txt is a file, not a folder"):
        run_tournament(load_config(config, {"deals": 2}), afile, workers=0, progress=False)


def test_run_and_resume_refuse_a_progress_that_is_not_true_or_false(tmp_path):
    """progress = "no" was taken as true, and the bar drawn (a probe)."""
    from tests.tournament_helpers import quick_config, write_config
    from whist_sim.tournament.config import ConfigError
    from whist_sim.tournament.runner import resume_tournament, run_tournament

    path = write_config(tmp_path, quick_config(deals=2, per_task=2))
    with pytest.raises(ConfigError, match=r"progress = 'no' is not allowed; allowed values:"
                                          r" True, False"):
        run_tournament(path, tmp_path / "run", workers=0, progress="no")
    assert not (tmp_path / "run").exists()  # refused before the run folder is made
    run_tournament(path, tmp_path / "run", workers=0, progress=False)
    with pytest.raises(ConfigError, match=r"progress = 1 is not allowed"):
        resume_tournament(tmp_path / "run", workers=0, progress=1)


def test_an_address_beside_workers_0_is_said_to_go_unused(tmp_path, capsys):
    """run_tournament(..., workers=0, address="10.0.0.1:6379") dropped the address without
    a word, where the console warns (a probe); it plays in process, connecting nowhere."""
    from tests.tournament_helpers import quick_config, write_config
    from whist_sim.tournament.runner import resume_tournament, run_tournament

    path = write_config(tmp_path, quick_config(deals=2, per_task=2))
    said = ("warning: workers = 0 plays in this process, without Ray: address ="
            " '10.0.0.1:6379' is not used")
    summary = run_tournament(path, tmp_path / "run", workers=0, address="10.0.0.1:6379",
                             progress=False)
    assert summary.status == "complete"
    assert said in capsys.readouterr().err
    resume_tournament(tmp_path / "run", workers=0, address="10.0.0.1:6379", progress=False)
    assert said in capsys.readouterr().err
