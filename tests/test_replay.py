"""The action log replays every deal exactly, with or without whist_sim."""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

from tests.tournament_helpers import make_run_without_ray, quick_config
from whist_sim.cli import app
from whist_sim.replay import _suit_name, replay_deal
from whist_sim.store import RunFolder, RunFolderError

ROOT = Path(__file__).resolve().parents[1]
STANDALONE = ROOT / "docs" / "examples" / "replay_standalone.py"


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    body = quick_config(deals=4, extra="").replace(
        "[[strategies]]", '[variant]\nopen_stock = 2\n\n[[strategies]]', 1
    )
    return make_run_without_ray(tmp_path_factory.mktemp("replay"), body)


def test_replay_reproduces_every_recorded_deal_exactly(run):
    folder = RunFolder.open(run)
    seats = folder.scan("seats").collect()
    for key in folder.scan("deals").select("deal_key").collect()["deal_key"]:
        replayed = replay_deal(run, key)
        outcome = replayed.state.outcome()
        recorded = seats.filter(pl.col("deal_key") == key).sort("seat")
        assert list(outcome.tricks) == recorded["tricks"].to_list()
        assert list(outcome.net) == recorded["net"].to_list()


def test_replay_command_prints_the_deal_trick_by_trick(run):
    result = CliRunner().invoke(app, ["replay", str(run), "1-2-1-0"])
    assert result.exit_code == 0, result.output
    assert "Trick 26:" in result.output
    assert "takes face-up" in result.output and "draws" in result.output
    assert "Dealer: seat 0" in result.output


def test_replay_of_an_unknown_deal_names_the_key_format(run):
    result = CliRunner().invoke(app, ["replay", str(run), "9-9-9-9"])
    assert result.exit_code == 2
    assert "no deal '9-9-9-9'" in result.output and "pairing-deal-rotation-hand" in result.output


@pytest.mark.parametrize(("key", "said"), [
    ("9-0-0-0", "pairing 9 is not recorded; the run's pairings are 0..2"),
    ("0-999-0-0", "deal 999 is not recorded; the deals of pairing 0 are 0..3"),
    ("0-1-5-0", "rotation 5 is not recorded; the rotations of pairing 0, deal 1 are 0, 1"),
    ("0-1-0-7", "hand 7 is not recorded; the hands of pairing 0, deal 1, rotation 0 are 0"),
])
def test_an_unknown_deal_names_the_part_of_its_key_that_is_not_recorded(run, key, said):
    """Every missing key said only "no deal ...; keys look like 0-0-0-0, ...", leaving a
    reader to guess which of the four numbers was wrong (a probe's finding)."""
    with pytest.raises(RunFolderError, match=re.escape(said)):
        replay_deal(run, key)


@pytest.mark.parametrize("key", ["0-0-0", "a-b-c-d", "-1-0-0-0", "0-0-0-0-0", "0_1_0_0"])
def test_a_malformed_deal_key_is_named_as_such(run, key):
    with pytest.raises(RunFolderError, match=re.escape(
            f"{key!r} is not a deal key: a key is four whole numbers,"
            " pairing-deal-rotation-hand, e.g. 0-12-1-0")):
        replay_deal(run, key)


def test_a_deal_key_with_spaces_or_leading_zeros_is_read_as_its_numbers(run):
    assert replay_deal(run, " 0-01-0-0 ").deal_key == "0-1-0-0"


def test_a_deal_key_that_is_not_text_is_named(run):
    with pytest.raises(TypeError, match="deal_key = 5 is not a deal key: keys are text,"
                                        " pairing-deal-rotation-hand"):
        replay_deal(run, 5)


def test_standalone_replay_needs_no_whist_sim_and_agrees(run):
    tree = ast.parse(STANDALONE.read_text())
    imported = {
        alias.name.split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.Import | ast.ImportFrom)
        for alias in (node.names if isinstance(node, ast.Import) else [ast.alias(node.module)])
    }
    assert "whist_sim" not in imported and "strategies" not in imported
    result = subprocess.run(
        [sys.executable, "-I", str(STANDALONE), str(run), "0-1-0-0"],
        capture_output=True, text=True, cwd="/", check=True,
    )
    seats = RunFolder.open(run).scan("seats").filter(pl.col("deal_key") == "0-1-0-0").collect()
    expected = seats.sort("seat")["tricks"].to_list()
    assert result.stdout.strip().endswith(f"tricks: seat 0 {expected[0]}, seat 1 {expected[1]}")


@pytest.mark.parametrize(("arguments", "said"), [
    ([], "Usage: python replay_standalone.py RUN_FOLDER DEAL_KEY"),
    (["{run}", "9-9-9-9"], "no deal '9-9-9-9'; a deal key is pairing-deal-rotation-hand"),
    (["{missing}", "0-1-0-0"], "no deals table here (data/deals/*.parquet); give a run folder"),
])
def test_standalone_replay_says_what_is_wrong_in_one_line(run, tmp_path, arguments, said):
    """It raised IndexError with no arguments (and for --help), and ArrowInvalid for a
    folder that is not a run (a newcomer probe)."""
    given = [a.format(run=run, missing=tmp_path / "nothing") for a in arguments]
    result = subprocess.run([sys.executable, "-I", str(STANDALONE), *given],
                            capture_output=True, text=True, cwd="/")
    assert result.returncode == 2 and said in result.stderr
    assert "Traceback" not in result.stderr and len(result.stderr.splitlines()) == 1


def test_replay_of_a_missing_folder_is_a_clear_error(tmp_path):
    with pytest.raises(RunFolderError, match="no such run folder"):
        replay_deal(tmp_path / "nope", "0-0-0-0")


SOLO = """
[tournament]
game = "solo_whist"
deals = 3
seed = 9

[variant]
session_hands = 2

[[strategies]]
use = "random"

[[strategies]]
use = "random"
label = "random_b"
"""


def test_solo_whist_deals_replay_exactly_auction_and_all(tmp_path):
    run = make_run_without_ray(tmp_path, SOLO)
    folder = RunFolder.open(run)
    seats = folder.scan("seats").collect()
    keys = folder.scan("deals").select("deal_key").collect()["deal_key"].to_list()
    assert len(keys) == 3 * 2 * 2
    for key in keys:
        outcome = replay_deal(run, key).state.outcome()
        recorded = seats.filter(pl.col("deal_key") == key).sort("seat")
        assert list(outcome.net) == recorded["net"].to_list()
    text = CliRunner().invoke(app, ["replay", str(run), keys[0]]).output
    assert "calls" in text and "Seat 3" in text


def test_a_solo_throw_in_replays_with_why_no_card_was_played(tmp_path):
    """A hand every seat passed read its calls, then every seat "draw" with no word on why
    (a probe)."""
    cautious = SOLO.replace("deals = 3", "deals = 6").replace('use = "random"', 'use = "heuristic"')
    run = make_run_without_ray(tmp_path, cautious)
    deals = RunFolder.open(run).scan("deals").select("deal_key", "contract", "bids").collect()
    thrown = deals.filter(pl.col("contract").is_null())
    assert thrown.height, "heuristic bidders pass or stay with an uncopped Prop"
    for key, bids in thrown.select("deal_key", "bids").iter_rows():
        text = CliRunner().invoke(app, ["replay", str(run), key]).output
        why = "all four passed" if "prop" not in bids else "the Prop stood uncopped"
        assert f"Throw-in: {why}, so no card is played" in text
        assert "Trick" not in text
    played = deals.filter(pl.col("contract").is_not_null())["deal_key"][0]
    assert "Throw-in" not in CliRunner().invoke(app, ["replay", str(run), played]).output


OTHER_GAMES = {
    "knockout at 4 seats": '[tournament]\ngame = "knockout_whist"\nplayers = 4\n',
    "minnesota, hands after the first": '[tournament]\ngame = "minnesota_whist"\n'
                                        '[variant]\ntarget = 5\n',
}


@pytest.mark.parametrize("head", OTHER_GAMES.values(), ids=OTHER_GAMES.keys())
def test_every_game_replays_exactly(tmp_path, head):
    tournament, _, variant = head.partition("[variant]")
    body = (tournament + "deals = 2\nseed = 3\n" + (f"[variant]{variant}" if variant else "")
            + '\n[[strategies]]\nuse = "heuristic"\n\n[[strategies]]\nuse = "random"\n')
    run = make_run_without_ray(tmp_path, body)
    _assert_replays(run)


def test_deals_played_from_a_deal_set_replay_from_their_cards(tmp_path):
    from whist_sim.deal_sets import export_deal_set

    source = make_run_without_ray(tmp_path / "a", quick_config(deals=3))
    deal_set = export_deal_set(source, tmp_path / "set.parquet")
    body = quick_config(deals=3, seed=77).replace(
        "deals = 3", f'deals_file = "{deal_set}"')
    _assert_replays(make_run_without_ray(tmp_path / "b", body))


def _assert_replays(run: Path) -> None:
    folder = RunFolder.open(run)
    seats = folder.scan("seats").collect()
    keys = folder.scan("deals").select("deal_key").collect()["deal_key"].to_list()
    for key in keys:
        outcome = replay_deal(run, key).state.outcome()
        recorded = seats.filter(pl.col("deal_key") == key).sort("seat")
        assert list(outcome.net) == recorded["net"].to_list(), key


def test_a_knockout_replay_prints_each_trick_with_its_recorded_winner(tmp_path):
    """It grouped plays by the full table and credited every trick to the game's winner;
    players go out and dogs knock, so a trick is as many cards as its record holds."""
    import re

    body = ('[tournament]\ngame = "knockout_whist"\nplayers = 4\ndeals = 2\nseed = 3\n'
            '[variant]\ndogs_life = "first_round"\n'
            '\n[[strategies]]\nuse = "heuristic"\n\n[[strategies]]\nuse = "random"\n')
    run = make_run_without_ray(tmp_path, body)
    tricks = RunFolder.open(run).scan("tricks").collect()
    for key in tricks["deal_key"].unique().sort().to_list()[:4]:
        text = replay_deal(run, key).text
        printed = [(int(n), len([p for p in plays.split(", ") if not p.endswith("knocks")]),
                    int(w)) for n, plays, w in re.findall(
            r"Trick +(\d+): (.*) -> seat (\d+) wins", text)]
        rows = tricks.filter(pl.col("deal_key") == key).sort("trick")
        assert printed == list(zip(rows["trick"].to_list(), rows["cards"].list.len().to_list(),
                                   rows["winner"].to_list(), strict=True)), key
        assert "knock knock" not in text and "(unfinished)" not in text


def test_replay_of_a_deal_an_unfinished_run_has_not_played_says_so(run):
    """A partial run's unplayed key read like a typo: 'no deal ...; keys look like'."""
    meta_path = run / "run.json"
    meta = json.loads(meta_path.read_text())
    meta_path.write_text(json.dumps({**meta, "status": "interrupted"}))
    try:
        result = CliRunner().invoke(app, ["replay", str(run), "9-9-9-9"])
    finally:
        meta_path.write_text(json.dumps(meta))
    assert result.exit_code == 2
    assert ("the run is interrupted, so deals it has not played yet have no record:"
            f" whist-sim run --resume {run} plays them") in " ".join(result.output.split())


def test_a_dog_that_knocks_last_in_a_trick_is_shown_in_that_trick(tmp_path):
    """A dog whose turn came after the trick's last card was printed on a line of its own
    after the trick's result, as if between tricks (a data analyst's probe)."""
    body = ('[tournament]\ngame = "knockout_whist"\nplayers = 4\ndeals = 12\nseed = 5\n'
            '[variant]\ndogs_life = "first_round"\n'
            '\n[[strategies]]\nuse = "random"\n\n[[strategies]]\nuse = "heuristic"\n')
    run = make_run_without_ray(tmp_path, body)
    keys = RunFolder.open(run).scan("deals").select("deal_key").collect()["deal_key"]
    texts = [replay_deal(run, key).text for key in keys.to_list()]
    assert any(re.search(r"knocks -> seat \d+ wins", text) for text in texts), \
        "no dog knocked last in a trick: play more deals"
    for text in texts:
        assert "(a dog's life: no card this trick)" not in text  # every knock within a trick


def test_a_knockout_replay_opens_each_round_with_its_dealer_players_and_trump(tmp_path):
    """Trick numbers run on through a Knock-out game, so a replay gave no sign of where a
    round began, who was still dealt in or why a seat stopped playing (a probe's finding).
    Each round now opens with a line read off the game's own record; it must agree with
    the rounds table."""
    body = ('[tournament]\ngame = "knockout_whist"\nplayers = 4\ndeals = 6\nseed = 5\n'
            '[variant]\ndogs_life = "first_round"\n'
            '\n[[strategies]]\nuse = "random"\n\n[[strategies]]\nuse = "heuristic"\n')
    run = make_run_without_ray(tmp_path, body)
    rounds = RunFolder.open(run).scan("rounds").collect()
    saw_dog = False
    for key in rounds["deal_key"].unique().sort().to_list():
        text = replay_deal(run, key).text
        headers = re.findall(r"^Round (\d+) \(dealer seat (\d+)\): (\d+) cards"
                             r" (each to seats|to seat) ([\d, ]+?)"
                             r"(?:; 1 card to the dogs?, seats? ([\d, ]+?))?; trump (\w+),",
                             text, re.MULTILINE)
        table = rounds.filter(pl.col("deal_key") == key)
        assert [int(h[0]) for h in headers] == sorted(table["round"].unique().to_list()), key
        for number, dealer, cards, each, full, dogs, trump in headers:
            # "each" only where several seats are dealt in ("6 cards each to seat 1")
            assert (each == "each to seats") == ("," in full), (key, number, each, full)
            rows = table.filter(pl.col("round") == int(number))
            assert {int(dealer)} == set(rows["dealer"].to_list()), (key, number)
            full_rows = rows.filter(~pl.col("dog"))
            assert [int(s) for s in full.split(", ")] == sorted(full_rows["seat"].to_list())
            assert {int(cards)} == set(full_rows["cards_dealt"].to_list())
            dog_seats = [int(s) for s in re.findall(r"\d+", dogs)]
            assert dog_seats == sorted(rows.filter(pl.col("dog"))["seat"].to_list())
            saw_dog = saw_dog or bool(dog_seats)
            assert trump == _suit_name(rows["trump"][0])
        # each round's line comes before its first trick: the trick numbers after a header
        # are that round's
        lines = text.splitlines()
        starts = [i for i, line in enumerate(lines) if line.startswith("Round ")]
        firsts = [next(int(m.group(1)) for line in lines[i:]
                       if (m := re.match(r"Trick +(\d+):", line))) for i in starts]
        tricks = RunFolder.open(run).scan("tricks").filter(pl.col("deal_key") == key).collect()
        expected = tricks.group_by("round").agg(pl.col("trick").min()).sort("round")
        assert firsts == expected["trick"].to_list(), key
    assert saw_dog, "no dog in these games: play more deals"


def test_a_strategy_using_the_benched_tables_words_replays_as_its_own_forfeit(tmp_path):
    """A replay knows a table of benched entrants by the runner's words and every seat's
    forfeit: a strategy whose error held the words alone was replayed as every seat's
    forfeit and its honest record called tampered (a review's hostile try)."""
    body = ('[tournament]\ngame = "german_whist"\ndeals = 8\nseed = 3\n'
            '\n[[strategies]]\nuse = "tests.plugins.hostile:MimicsTheBench"\n'
            '\n[[strategies]]\nuse = "random"\n')
    run = make_run_without_ray(tmp_path, body)
    deals = RunFolder.open(run).scan("deals").filter(pl.col("status") == "forfeit").collect()
    assert deals.height, "no deal forfeited: play more deals"
    for key in deals["deal_key"].to_list():
        outcome = replay_deal(run, key).state.outcome()
        assert outcome.result.count("forfeit") == 1, key


def test_a_knockout_replay_shows_the_cards_each_later_round_dealt(tmp_path):
    """Only round 1's hands were printed; rounds 2 on are shuffled from the seed, so a
    reader could not check that a seat followed suit there (a probe's finding). Each later
    round's header is followed by every seat's dealt cards, as the rounds table has them."""
    body = ('[tournament]\ngame = "knockout_whist"\nplayers = 4\ndeals = 2\nseed = 5\n'
            '[variant]\ndogs_life = "first_round"\n'
            '\n[[strategies]]\nuse = "random"\n\n[[strategies]]\nuse = "heuristic"\n')
    run = make_run_without_ray(tmp_path, body)
    rounds = RunFolder.open(run).scan("rounds").filter(pl.col("round") > 1).collect()
    assert rounds.height, "no game went past round 1: play more deals"
    for key in rounds["deal_key"].unique().to_list():
        text = replay_deal(run, key).text
        lines = text.splitlines()
        dealt: dict[tuple[int, int], set[str]] = {}
        number = 0
        for line in lines:
            if m := re.match(r"Round (\d+) ", line):
                number = int(m.group(1))
            elif m := re.match(r" +seat (\d+) is dealt (.*)", line):
                dealt[(number, int(m.group(1)))] = set(m.group(2).split())
        expected = {(row["round"], row["seat"]): set(row["dealt_cards"].split())
                    for row in rounds.filter(pl.col("deal_key") == key).iter_rows(named=True)}
        assert dealt == expected, key


def test_a_knockout_round_dealt_to_one_seat_and_its_dog_reads_without_each():
    """Two seats left, one on a dog's life: the round's line read "2 cards each to seat
    1", as if several seats were dealt in (a probe's finding)."""
    from strategies.random_play import RandomStrategy
    from whist_sim.games import make_game
    from whist_sim.play import play_deal
    from whist_sim.replay import _round_headers

    game = make_game("knockout_whist", {"dogs_life": "first_knockout"}, 2)
    lines = [header.splitlines()[0] for seed in range(20)
             for header in _round_headers(
                 play_deal(game, [RandomStrategy()] * 2, seed, 0).state).values()]
    lone = [line for line in lines if "the dog, seat" in line]
    assert lone, "no round dealt to one seat and a dog in these games: play more"
    for line in lone:
        assert re.search(r": \d+ cards to seat \d; 1 card to the dog, seat \d;", line), line
    assert not any("each to seat " in line for line in lines)
