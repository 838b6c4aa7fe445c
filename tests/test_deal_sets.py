"""Fixed deal sets: a run's deals exported, replayed from the file exactly, and bad files refused.

The round trip is the promise users rely on: a hand played from a deal set plays
exactly as the seeded hand it was exported from (same deal record, same play, same
outcome), so a benchmark set or a replay of real hands gives the run's own rows.
Each refusal rule has its test, on a hand-built bad file, checking the one-line
message names the file, the row and the problem.
"""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from strategies.random_play import RandomStrategy
from tests.tournament_helpers import (
    assert_same_rows,
    make_run_without_ray,
    run_rows,
    write_config,
)
from whist_sim.deal_sets import DealSet, DealSetError, export_deal_set, load_deal_set
from whist_sim.games import make_game
from whist_sim.games.base import DealError, Game
from whist_sim.play import play_deal, play_match, seat_seed
from whist_sim.rng import strategy_rng
from whist_sim.store import RunFolder, RunFolderError, tables_for
from whist_sim.strategy import build_strategy
from whist_sim.tournament.schedule import match_seed

pytestmark = pytest.mark.slow  # the whole module: seconds to minutes on 2 cores

ROOT_SEED = 17

CASES: dict[str, dict[str, Any]] = {
    "german_single": {"game": "german_whist", "deals": 4, "variant": {}},
    "german_best_of_3": {"game": "german_whist", "deals": 3, "variant": {"match": "best_of_3"}},
    "solo_session": {"game": "solo_whist", "deals": 2, "variant": {"session_hands": 3}},
    "minnesota_game": {"game": "minnesota_whist", "deals": 2, "variant": {}},
    "knockout_3": {"game": "knockout_whist", "deals": 3, "variant": {}, "players": 3},
    "knockout_5": {
        "game": "knockout_whist", "deals": 3, "variant": {"dogs_life": "first_knockout"},
        "players": 5,
    },
}


def config_text(game: str, deals: int, variant: dict[str, Any], players: Any = None) -> str:
    lines = ["[tournament]", f'game = "{game}"', f"deals = {deals}", f"seed = {ROOT_SEED}"]
    if players is not None:
        lines.append(f"players = {json.dumps(players)}")
    lines.append("[variant]")
    lines += [f"{key} = {json.dumps(value)}" for key, value in variant.items()]
    for use in ("random", "heuristic"):
        lines += ["[[strategies]]", f'use = "{use}"']
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """One small run per case, played in this process, and its exported deal set beside it."""
    made = {}
    for name, case in CASES.items():
        folder = tmp_path_factory.mktemp(name)
        body = config_text(case["game"], case["deals"], case["variant"], case.get("players"))
        run = make_run_without_ray(folder, body)
        export_deal_set(run, folder / "deals.parquet")
        made[name] = run
    return made


def game_of(name: str) -> Game:
    case = CASES[name]
    return make_game(case["game"], case["variant"], case.get("players"))


def set_file(run: Path) -> Path:
    return run.parent / "deals.parquet"


def run_table(run: Path, table: str) -> pl.DataFrame:
    return RunFolder.open(run).scan(table).collect()


# -- the round trip: export, then play the file exactly as the run did --------------------

def replay_from_set(run: Path, game: Game, deal_set: DealSet) -> None:
    """Play every match of the run from the deal set and check each hand against its rows."""
    deals = run_table(run, "deals")
    seats = run_table(run, "seats")
    matches = deals.select("pairing", "deal", "rotation", "strategies").unique(
        ["pairing", "deal", "rotation"]
    )
    assert matches.height > 0
    for match in matches.iter_rows(named=True):
        strategies = [build_strategy(label, {}, game.name) for label in match["strategies"]]
        seed = match_seed(ROOT_SEED, match["deal"])
        played, _ = play_match(
            game, strategies, seed, deal_source=deal_set.source(game, match["deal"], seed)
        )
        key = (pl.col("pairing") == match["pairing"]) & (pl.col("deal") == match["deal"]) & (
            pl.col("rotation") == match["rotation"])
        rows = deals.filter(key).sort("hand")
        assert len(played) == rows.height, match
        for hand, (result, row) in enumerate(zip(played, rows.iter_rows(named=True),
                                                 strict=True)):
            assert result.seed == row["seed"]
            record = result.state.deal_record()
            assert record == {name: row[name] for name in record}, (match, hand)
            for fact, value in result.outcome.facts.items():
                assert row[fact] == value, (match, hand, fact)
            seat_rows = seats.filter(key & (pl.col("hand") == hand)).sort("seat")
            assert list(result.outcome.net) == seat_rows["net"].to_list()
            assert list(result.outcome.tricks) == seat_rows["tricks"].to_list()
            assert list(result.outcome.result) == seat_rows["result"].to_list()


@pytest.mark.parametrize("name", list(CASES))
def test_a_deal_set_replays_its_run_exactly(runs: dict[str, Path], name: str) -> None:
    game = game_of(name)
    deal_set = load_deal_set(set_file(runs[name]), game)
    assert deal_set.deals == CASES[name]["deals"]
    replay_from_set(runs[name], game, deal_set)


@pytest.mark.parametrize("name", list(CASES))
def test_export_writes_one_row_per_deal_and_hand(runs: dict[str, Path], name: str) -> None:
    exported = pl.read_parquet(set_file(runs[name]))
    played = run_table(runs[name], "deals").select("deal", "hand").unique().sort("deal", "hand")
    assert exported.select("deal", "hand").equals(played)
    assert pq.read_schema(set_file(runs[name])).names == [
        "deal", "hand", "dealer", "hands", "stock", "upcard", "seed", "game", "variant"
    ]


def test_null_seeds_derive_the_seeds_a_run_without_a_file_uses(
    runs: dict[str, Path], tmp_path: Path
) -> None:
    table = pq.read_table(set_file(runs["knockout_5"]))
    seedless = tmp_path / "seedless.parquet"
    pq.write_table(table.drop_columns(["seed"]), seedless)
    game = game_of("knockout_5")
    replay_from_set(runs["knockout_5"], game, load_deal_set(seedless, game))


def test_hands_beyond_the_file_are_dealt_from_their_seeds(
    runs: dict[str, Path], tmp_path: Path
) -> None:
    first_only = tmp_path / "first.parquet"
    pl.read_parquet(set_file(runs["minnesota_game"])).filter(pl.col("hand") == 0).write_parquet(
        first_only
    )
    game = game_of("minnesota_game")
    deal_set = load_deal_set(first_only, game)
    assert deal_set.row_count == CASES["minnesota_game"]["deals"]
    replay_from_set(runs["minnesota_game"], game, deal_set)


def test_the_files_cards_are_played_not_the_seeds(runs: dict[str, Path], tmp_path: Path) -> None:
    frame = pl.read_parquet(set_file(runs["german_single"]))
    swapped = frame.with_columns(pl.col("hands").list.reverse())
    path = tmp_path / "swapped.parquet"
    swapped.write_parquet(path)
    game = game_of("german_single")
    deal_set = load_deal_set(path, game)
    seed = match_seed(ROOT_SEED, 0)
    played, _ = play_match(game, [RandomStrategy()] * 2, seed,
                           deal_source=deal_set.source(game, 0, seed))
    assert played[0].state.deal_record()["hands"] == swapped["hands"][0].to_list()
    assert played[0].seed == frame["seed"][0]


def test_a_deal_set_plays_under_another_variant_of_its_game(runs: dict[str, Path]) -> None:
    """The cards serve every variant that accepts them: ``variant`` is informative."""
    game = make_game("german_whist", {"count": "all", "open_stock": 3})
    deal_set = load_deal_set(set_file(runs["german_single"]), game)
    seed = match_seed(ROOT_SEED, 1)
    played, _ = play_match(game, [RandomStrategy()] * 2, seed,
                           deal_source=deal_set.source(game, 1, seed))
    assert played[0].state.deal_record()["stock"] == deal_set.row(1, 0).stock


def test_a_source_is_only_for_its_game_and_deals(runs: dict[str, Path]) -> None:
    game = game_of("knockout_3")
    deal_set = load_deal_set(set_file(runs["knockout_3"]), game)
    assert deal_set.row(3, 0) is None and deal_set.record(0, 1) is None
    with pytest.raises(DealSetError, match=r"holds deals 0\.\.2; there is no deal 3"):
        deal_set.source(game, 3, 0)
    with pytest.raises(DealSetError, match="knockout_whist at 3 seats cannot be played as"
                                           " knockout_whist at 5 seats"):
        deal_set.source(game_of("knockout_5"), 0, 0)


# -- the property: any seeded deal's record rebuilds the same deal --------------------------

ROUND_TRIP_GAMES = [
    ("german_whist", {}, None),
    ("german_whist", {"open_stock": 3, "trumps": "none"}, None),
    ("solo_whist", {}, None),
    ("solo_whist", {"upcard": False}, None),
    ("minnesota_whist", {}, None),
    *(("knockout_whist", {"dogs_life": "first_round"}, n) for n in range(2, 8)),
]


@settings(max_examples=60, deadline=None)
@given(
    case=st.sampled_from(ROUND_TRIP_GAMES),
    seed=st.integers(0, 2**63 - 1),
    dealer=st.integers(0, 6),
)
def test_any_seeded_deal_rebuilds_from_its_record(
    case: tuple[str, dict[str, Any], int | None], seed: int, dealer: int
) -> None:
    name, variant, players = case
    game = make_game(name, variant, players)
    dealer %= game.players
    seeded = game.new_deal(seed, dealer)
    rebuilt = game.deal_from_record(seeded.deal_record(), dealer, seed)
    assert rebuilt.deal_record() == seeded.deal_record()
    strategies = [RandomStrategy()] * game.players
    first = play_deal(game, strategies, seed, dealer, on_error="abort")
    again = play_deal(game, strategies, seed, dealer, on_error="abort", dealt=rebuilt)
    assert again.state.log == first.state.log
    assert again.outcome == first.outcome


def test_play_deal_seeds_the_strategies_from_the_seed_given_with_a_built_deal() -> None:
    game = make_game("solo_whist")
    seen: list[float] = []

    class Spy(RandomStrategy):
        def choose(self, view: Any, rng: random.Random) -> int:
            seen.append(rng.random())
            return super().choose(view, rng)

    dealt = game.deal_from_record(game.new_deal(5, 0).deal_record(), 0, 99)
    play_deal(game, [Spy()] * 4, 99, 0, dealt=dealt)
    assert seen[0] == strategy_rng(seat_seed(99, 1)).random()  # eldest, seat 1, bids first


# -- refusals: one line naming the file, the row and the problem --------------------------

def write_rows(path: Path, frame: pl.DataFrame) -> Path:
    frame.write_parquet(path)
    return path


def edited(run: Path, tmp_path: Path, row: int, **changes: Any) -> Path:
    """The run's deal set with row ``row`` changed (column -> new value)."""
    frame = pl.read_parquet(set_file(run))
    for column, value in changes.items():
        values = frame[column].to_list()
        values[row] = value
        frame = frame.with_columns(pl.Series(column, values, dtype=frame.schema[column]))
    return write_rows(tmp_path / "bad.parquet", frame)


def refused(path: Path, game: Game) -> str:
    with pytest.raises(DealSetError) as caught:
        load_deal_set(path, game)
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith(f"{path}: ")
    return message


def hands_of(run: Path, row: int) -> list[str]:
    return pl.read_parquet(set_file(run))["hands"][row].to_list()


def where(run: Path, row: int) -> str:
    """How a message names row ``row`` of the run's deal set."""
    found = pl.read_parquet(set_file(run)).row(row, named=True)
    return f"row {row} (deal {found['deal']}, hand {found['hand']})"


def test_a_card_dealt_twice_is_refused(runs: dict[str, Path], tmp_path: Path) -> None:
    hands = hands_of(runs["german_single"], 2)
    doubled = hands[0].split()[0]
    hands[1] = " ".join([doubled, *hands[1].split()[1:]])
    path = edited(runs["german_single"], tmp_path, 2, hands=hands)
    message = refused(path, game_of("german_single"))
    assert f"row 2 (deal 2, hand 0): {doubled} is dealt twice: in seat 0 and in seat 1" in message


def test_a_seat_with_the_wrong_number_of_cards_is_refused(
    runs: dict[str, Path], tmp_path: Path
) -> None:
    hands = hands_of(runs["solo_session"], 4)
    hands[2] = " ".join(hands[2].split()[:12])
    path = edited(runs["solo_session"], tmp_path, 4, hands=hands)
    message = refused(path, game_of("solo_session"))
    assert "row 4 (deal 1, hand 1): seat 2 holds 12 cards; a Solo Whist hand is 13" in message


def test_a_solo_upcard_not_in_the_dealers_hand_is_refused(
    runs: dict[str, Path], tmp_path: Path
) -> None:
    other = hands_of(runs["solo_session"], 0)[1].split()[0]  # dealer 0 deals hand 0
    path = edited(runs["solo_session"], tmp_path, 0, upcard=other)
    message = refused(path, game_of("solo_session"))
    assert (f"row 0 (deal 0, hand 0): the upcard {other} is not in the dealer's (seat 0) hand"
            in message)


def test_a_solo_upcard_is_required_when_the_variant_turns_one(
    runs: dict[str, Path], tmp_path: Path
) -> None:
    path = edited(runs["solo_session"], tmp_path, 1, upcard=None)
    assert "row 1 (deal 0, hand 1): Solo Whist with upcard = true needs the upcard" in refused(
        path, game_of("solo_session"))
    load_deal_set(path, make_game("solo_whist", {"upcard": False, "session_hands": 3}))


def test_a_german_stock_of_the_wrong_size_is_refused(
    runs: dict[str, Path], tmp_path: Path
) -> None:
    stock = pl.read_parquet(set_file(runs["german_single"]))["stock"][1]
    path = edited(runs["german_single"], tmp_path, 1, stock=" ".join(stock.split()[:25]))
    message = refused(path, game_of("german_single"))
    assert "row 1 (deal 1, hand 0): the stock holds 25 cards; a German Whist stock is 26" in message


def test_a_german_upcard_other_than_the_top_stock_card_is_refused(
    runs: dict[str, Path], tmp_path: Path
) -> None:
    stock = pl.read_parquet(set_file(runs["german_single"]))["stock"][0].split()
    path = edited(runs["german_single"], tmp_path, 0, upcard=stock[5])
    message = refused(path, game_of("german_single"))
    assert f"the upcard {stock[5]} is not the top stock card {stock[0]}" in message


def test_text_that_is_not_a_card_is_refused(runs: dict[str, Path], tmp_path: Path) -> None:
    hands = hands_of(runs["minnesota_game"], 3)
    hands[0] = " ".join(["1X", *hands[0].split()[1:]])
    path = edited(runs["minnesota_game"], tmp_path, 3, hands=hands)
    message = refused(path, game_of("minnesota_game"))
    assert f"{where(runs['minnesota_game'], 3)}: seat 0: '1X' is not a card" in message


def test_a_stock_or_upcard_the_game_does_not_have_is_refused(
    runs: dict[str, Path], tmp_path: Path
) -> None:
    path = edited(runs["minnesota_game"], tmp_path, 0, stock="2C")
    assert "row 0 (deal 0, hand 0): Minnesota Whist has no stock" in refused(
        path, game_of("minnesota_game"))


def test_a_knockout_table_of_another_size_is_refused(runs: dict[str, Path]) -> None:
    message = refused(set_file(runs["knockout_3"]), game_of("knockout_5"))
    assert "row 0 (deal 0, hand 0): hands lists 3 seats; this Knock-out Whist table has 5" in (
        message)


def test_a_knockout_upcard_in_a_hand_is_refused(runs: dict[str, Path], tmp_path: Path) -> None:
    held = hands_of(runs["knockout_3"], 1)[2].split()[3]
    path = edited(runs["knockout_3"], tmp_path, 1, upcard=held)
    message = refused(path, game_of("knockout_3"))
    assert f"row 1 (deal 1, hand 0): {held} is dealt twice: in seat 2 and in the upcard" in message


def test_another_game_is_refused(runs: dict[str, Path]) -> None:
    message = refused(set_file(runs["german_single"]), game_of("solo_session"))
    assert "row 0 (deal 0, hand 0): game 'german_whist' is not this run's game, 'solo_whist'" in (
        message)
    assert "(and 3 more problems)" in message


def test_a_gap_in_the_deal_indices_is_refused(runs: dict[str, Path], tmp_path: Path) -> None:
    frame = pl.read_parquet(set_file(runs["german_best_of_3"]))
    path = write_rows(tmp_path / "gap.parquet", frame.filter(pl.col("deal") != 1))
    message = refused(path, game_of("german_best_of_3"))
    assert "deal indices must run 0..N-1, each with a hand 0; they run up to 2 but deal 1 has" \
        " no hand 0" in message


def test_a_deal_without_its_hand_0_is_refused(runs: dict[str, Path], tmp_path: Path) -> None:
    frame = pl.read_parquet(set_file(runs["minnesota_game"]))
    path = write_rows(tmp_path / "gap.parquet",
                      frame.filter((pl.col("deal") != 1) | (pl.col("hand") != 0)))
    assert "deal 1 has no hand 0" in refused(path, game_of("minnesota_game"))


def test_a_repeated_deal_and_hand_is_refused(runs: dict[str, Path], tmp_path: Path) -> None:
    frame = pl.read_parquet(set_file(runs["german_single"]))
    path = write_rows(tmp_path / "twice.parquet", pl.concat([frame, frame.head(1)]))
    message = refused(path, game_of("german_single"))
    assert "row 4 (deal 0, hand 0): repeats row 0; each (deal, hand) may appear once" in message


def test_a_dealer_other_than_the_matchs_is_refused(runs: dict[str, Path], tmp_path: Path) -> None:
    path = edited(runs["german_best_of_3"], tmp_path, 1, dealer=0)  # hand 1: seat 1 deals
    message = refused(path, game_of("german_best_of_3"))
    assert "row 1 (deal 0, hand 1): dealer 0, but the match gives hand 1 to seat 1" in message


def test_a_hand_no_match_reaches_is_refused(runs: dict[str, Path]) -> None:
    message = refused(set_file(runs["german_best_of_3"]), game_of("german_single"))
    assert ("row 1 (deal 0, hand 1): hand 1 is never played: a German Whist match under this"
            " variant is one hand (hand 0); the set was dealt under match = \"best_of_3\" (its"
            " variant column): give the run the same variant") in message


def test_a_missing_column_is_refused(runs: dict[str, Path], tmp_path: Path) -> None:
    path = write_rows(tmp_path / "no_hands.parquet",
                      pl.read_parquet(set_file(runs["german_single"])).drop("hands"))
    message = refused(path, game_of("german_single"))
    assert message == (
        f"{path}: no column 'hands'; a deal set has columns deal, hand, dealer, hands, game"
        " (required) and stock, upcard, seed, variant (optional)"
    )


@pytest.mark.parametrize(("written", "meant"), [("Seed", "seed"), ("stocks", "stock")])
def test_a_column_one_slip_from_a_missing_one_is_refused_not_ignored(
    runs: dict[str, Path], tmp_path: Path, written: str, meant: str
) -> None:
    """A set whose ``seed`` column was written ``Seed`` played every hand from the seed it
    has without a file, with no word: other columns are notes (a probe)."""
    frame = pl.read_parquet(set_file(runs["german_single"])).rename({meant: written})
    path = write_rows(tmp_path / f"{written}.parquet", frame)
    message = refused(path, game_of("german_single"))
    assert message.startswith(
        f"{path}: column {written!r} is not read (did you mean {meant!r}?); a deal set has"
        " columns deal, hand, dealer, hands, game (required)")
    assert message.endswith(f": rename it {meant!r}")
    notes = write_rows(tmp_path / "notes.parquet", frame.rename({written: meant}).with_columns(
        pl.lit("x").alias("Seeds of doubt"), pl.lit("y").alias("notes")))
    assert load_deal_set(notes, game_of("german_single")).deals > 0  # notes still pass


def test_a_mistyped_column_is_refused(runs: dict[str, Path], tmp_path: Path) -> None:
    frame = pl.read_parquet(set_file(runs["german_single"]))
    path = write_rows(tmp_path / "text_deal.parquet", frame.with_columns(pl.col("deal").cast(str)))
    message = refused(path, game_of("german_single"))
    assert "column 'deal' is large_string; it must hold integers (the deal index" in message


def test_a_null_where_a_value_is_needed_is_refused(runs: dict[str, Path], tmp_path: Path) -> None:
    path = edited(runs["german_single"], tmp_path, 3, dealer=None)
    assert "row 3 (deal 3, hand 0): dealer is null; every row needs dealer" in refused(
        path, game_of("german_single"))


def test_a_column_given_twice_is_refused_naming_it(runs: dict[str, Path], tmp_path: Path) -> None:
    """A probe's file with two 'deal' columns was called "not a readable Parquet file" with
    Arrow's FieldRef text, though it reads well: the problem is the repeated name."""
    table = pq.read_table(set_file(runs["german_single"]))
    twice = pa.Table.from_arrays([*table.columns, table["deal"]],
                                 names=[*table.column_names, "deal"])
    path = tmp_path / "twice.parquet"
    pq.write_table(twice, path)
    assert refused(path, game_of("german_single")) == (
        f"{path}: column 'deal' appears 2 times; each column may appear once")


def test_a_runs_own_deals_table_is_refused_saying_how_to_export_it(
        runs: dict[str, Path]) -> None:
    """A probe gave a run's data/deals file as deals_file and read only "repeats row 0":
    each deal is there once per line-up and rotation, which export folds into one."""
    table = next((runs["german_single"] / "data" / "deals").glob("*.parquet"))
    message = refused(table, game_of("german_single"))
    assert "repeats row 0" in message
    assert message.endswith(
        "; this is a run's deals table (it has run_id, pairing and rotation), not a deal set:"
        " write one with: whist-sim deals export RUN --out FILE")


def test_a_file_that_is_not_parquet_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "deals.parquet"
    path.write_text("deal,hand\n0,0\n")
    assert "not a readable Parquet file" in refused(path, game_of("german_single"))


def test_a_truncated_parquet_file_is_refused(runs: dict[str, Path], tmp_path: Path) -> None:
    data = set_file(runs["german_single"]).read_bytes()
    path = tmp_path / "cut.parquet"
    path.write_bytes(data[: len(data) // 2])
    assert "not a readable Parquet file" in refused(path, game_of("german_single"))


def test_a_missing_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "nowhere.parquet"
    assert refused(path, game_of("german_single")) == f"{path}: no such file"


def test_a_folder_is_refused(tmp_path: Path) -> None:
    assert "is a folder; a deal set is one Parquet file" in refused(
        tmp_path, game_of("german_single"))


def test_an_empty_file_is_refused(runs: dict[str, Path], tmp_path: Path) -> None:
    frame = pl.read_parquet(set_file(runs["german_single"])).head(0)
    path = write_rows(tmp_path / "empty.parquet", frame)
    assert refused(path, game_of("german_single")) == f"{path}: holds no deals (no rows)"


def test_every_bad_row_is_listed_and_the_first_shown(
    runs: dict[str, Path], tmp_path: Path
) -> None:
    frame = pl.read_parquet(set_file(runs["german_single"]))
    dealers = frame["dealer"].to_list()
    dealers[1] = dealers[3] = 1
    path = write_rows(tmp_path / "two.parquet",
                      frame.with_columns(pl.Series("dealer", dealers, dtype=pl.Int8)))
    with pytest.raises(DealSetError) as caught:
        load_deal_set(path, game_of("german_single"))
    assert str(caught.value).endswith("(and 1 more problem)")
    assert [p.split(": ")[1] for p in caught.value.problems] == [
        "row 1 (deal 1, hand 0)", "row 3 (deal 3, hand 0)"]


def test_a_hand_written_file_needs_only_the_required_columns(tmp_path: Path) -> None:
    game = make_game("minnesota_whist")
    hands = game.new_deal(3, 0).deal_record()["hands"]
    table = pa.table({"deal": [0], "hand": [0], "dealer": [0], "hands": [hands],
                      "game": ["minnesota_whist"], "note": ["a slam hand"]})
    path = tmp_path / "mine.parquet"
    pq.write_table(table, path)
    deal_set = load_deal_set(path, game)
    assert deal_set.record(0, 0) == {
        "dealer": 0, "hands": hands, "stock": None, "upcard": None, "seed": None}


def test_deals_that_deal_the_same_cards_twice_are_named_in_a_warning(tmp_path: Path) -> None:
    """Two deals of the same cards are not independent evidence; the run plays them, as
    asked, and warns before it starts. Spelling (order, case) does not hide a repeat."""
    from whist_sim.tournament.config import validate_config

    game = make_game("minnesota_whist")
    hands = [game.new_deal(seed, 0).deal_record()["hands"] for seed in (3, 4)]
    respelled = [" ".join(reversed(cards.lower().split())) for cards in hands[0]]
    table = pa.table({"deal": [0, 1, 2], "hand": [0, 0, 0], "dealer": [0, 0, 0],
                      "hands": [hands[0], hands[1], respelled],
                      "game": ["minnesota_whist"] * 3})
    path = tmp_path / "twice.parquet"
    pq.write_table(table, path)
    assert load_deal_set(path, game).repeated_deals() == [(0, 2)]
    raw = {"tournament": {"game": "minnesota_whist", "deals_file": str(path)},
           "strategies": [{"use": "random"}, {"use": "heuristic"}]}
    warnings = validate_config(raw).warnings
    assert len(warnings) == 1
    assert "twice.parquet: deals that deal the same cards as an earlier one: 2 repeats 0" in (
        warnings[0])
    raw["tournament"]["deals"] = 2  # the repeat is not played: nothing to warn of
    assert validate_config(raw).warnings == []


def test_a_card_error_is_a_deal_error_naming_the_seat() -> None:
    game = make_game("solo_whist")
    record = {**game.new_deal(1, 2).deal_record(), "hands": ["AS"] * 4}
    with pytest.raises(DealError, match="seat 0 holds 1 cards; a Solo Whist hand is 13"):
        game.deal_from_record(record, 2, 1)


# -- export refusals ------------------------------------------------------------------------

def test_export_refuses_a_folder_or_a_missing_folder(runs: dict[str, Path], tmp_path: Path) -> None:
    run = runs["german_single"]
    with pytest.raises(DealSetError, match="is a folder; --out names the deal set file"):
        export_deal_set(run, tmp_path)
    with pytest.raises(DealSetError, match=r"no folder .* to write it in"):
        export_deal_set(run, tmp_path / "absent" / "deals.parquet")


def test_export_replaces_a_file_whole(runs: dict[str, Path], tmp_path: Path) -> None:
    out = tmp_path / "deals.parquet"
    out.write_text("old")
    assert export_deal_set(runs["german_single"], out) == out
    assert pl.read_parquet(out).height == CASES["german_single"]["deals"]
    assert [p.name for p in tmp_path.iterdir()] == ["deals.parquet"]


def test_export_picks_one_table_size_of_a_knockout_run(tmp_path: Path) -> None:
    run = make_run_without_ray(tmp_path, config_text("knockout_whist", 2, {}, [3, 4]))
    with pytest.raises(DealSetError, match="plays tables of 3, 4 players; a deal set holds one"
                       r".*choose one with --players \(3, 4; players= in Python\)"):
        export_deal_set(run, tmp_path / "both.parquet")
    with pytest.raises(DealSetError, match="has no table of 5 players"):
        export_deal_set(run, tmp_path / "five.parquet", players=5)
    with pytest.raises(DealSetError, match=r"has no table of '4' \(not a whole number\) players"):
        export_deal_set(run, tmp_path / "text.parquet", players="4")
    out = export_deal_set(run, tmp_path / "four.parquet", players=4)
    deal_set = load_deal_set(out, make_game("knockout_whist", {}, 4))
    assert (deal_set.deals, deal_set.players) == (2, 4)


def copy_run(run: Path, to: Path, keep: pl.Expr, edit: Any = None) -> Path:
    """A copy of run folder ``run`` holding only the rows ``keep`` selects, deals edited."""
    source = RunFolder.open(run)
    copy = RunFolder.create(to, source.meta())
    tables = {}
    for table in tables_for(source.meta()["game"]):
        frame = source.scan(table).filter(keep).collect()
        if table == "deals" and edit is not None:
            frame = edit(frame)
        tables[table] = frame.to_arrow()
    copy.commit_task(0, tables)
    return to


def test_export_refuses_a_run_with_missing_deals(runs: dict[str, Path], tmp_path: Path) -> None:
    partial = copy_run(runs["german_single"], tmp_path / "partial", pl.col("deal") != 2)
    with pytest.raises(DealSetError, match=r"deal 2 has no hand 0 .*whist-sim run --resume"):
        export_deal_set(partial, tmp_path / "deals.parquet")


def test_export_refuses_rows_that_disagree(runs: dict[str, Path], tmp_path: Path) -> None:
    def reseed(frame: pl.DataFrame) -> pl.DataFrame:
        changed = (pl.col("deal") == 1) & (pl.col("rotation") == 1)
        return frame.with_columns(pl.when(changed).then(pl.col("seed") + 1).otherwise(
            pl.col("seed")).alias("seed"))

    odd = copy_run(runs["german_single"], tmp_path / "odd", pl.lit(True), reseed)
    with pytest.raises(DealSetError, match=r"deal 1, hand 0 differs \(seed\) between pairing"):
        export_deal_set(odd, tmp_path / "deals.parquet")


def test_a_negative_hand_or_a_far_off_deal_is_refused(
    runs: dict[str, Path], tmp_path: Path
) -> None:
    path = edited(runs["minnesota_game"], tmp_path, 0, hand=-1)
    assert "row 0 (deal 0, hand -1): hand -1 is negative" in refused(
        path, game_of("minnesota_game"))
    path = edited(runs["german_single"], tmp_path, 3, deal=10**12)
    assert (f"they run up to {10**12} but deals 3, 4, 5, 6, 7, ... ({10**12 - 3} in all) have"
            " no hand 0") in refused(path, game_of("german_single"))


# -- a tournament played from a deal set ----------------------------------------------------


def _run_from(tmp_path: Path, name: str, body: str) -> Path:
    from whist_sim.tournament.config import load_config
    from whist_sim.tournament.runner import run_tournament

    config = load_config(write_config(tmp_path, body, f"{name}.toml"))
    return run_tournament(config, tmp_path / name, workers=0, progress=False).path


SOLO_SET = """
[tournament]
game = "solo_whist"
seed = {seed}
deals_per_task = 2
{deals}

[variant]
session_hands = 2

[[strategies]]
use = "heuristic"

[[strategies]]
use = "random"
"""


def test_a_tournament_from_an_exported_set_repeats_the_run(tmp_path: Path) -> None:
    original = _run_from(tmp_path, "original", SOLO_SET.format(seed=4, deals="deals = 5"))
    exported = tmp_path / "set.parquet"
    result = subprocess.run(
        [sys.executable, "-m", "whist_sim", "deals", "export", str(original), "--out",
         str(exported)], capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 0, result.stderr
    body = SOLO_SET.format(seed=99, deals=f'deals_file = "{exported.name}"')
    again = _run_from(tmp_path, "again", body)
    assert_same_rows(run_rows(original), run_rows(again))
    meta = json.loads((again / "run.json").read_text())
    assert meta["config"]["tournament"]["deals"] == 5  # every deal of the file
    assert len(meta["deals_file_sha256"]) == 64


def test_a_set_file_that_changed_under_a_run_stops_its_resume(tmp_path: Path) -> None:
    from whist_sim.tournament.runner import resume_tournament

    original = _run_from(tmp_path, "original", SOLO_SET.format(seed=4, deals="deals = 3"))
    exported = export_deal_set(original, tmp_path / "set.parquet")
    again = _run_from(tmp_path, "again",
                      SOLO_SET.format(seed=1, deals=f'deals_file = "{exported.name}"'))
    frame = pl.read_parquet(exported)
    frame.head(2).write_parquet(exported)
    with pytest.raises(RunFolderError, match="deal set changed"):
        resume_tournament(again, workers=0, progress=False)


@pytest.mark.parametrize(
    ("deals", "fragments"),
    [
        ("deals = 9", ["tournament.deals = 9", "holds 3 deals", "1..3"]),
        ('deals_file = "missing.parquet"', ["tournament.deals_file", "missing.parquet"]),
        ('deals_file = ""', ['tournament.deals_file = "" is empty', "a Parquet file",
                             "leave deals_file out"]),
        ('deals_file = "  "', ['tournament.deals_file = "  " is empty']),
    ],
)
def test_a_bad_deals_file_setting_fails_before_any_work(
    tmp_path: Path, deals: str, fragments: list[str]
) -> None:
    from whist_sim.tournament.config import ConfigError, load_config

    original = _run_from(tmp_path, "original", SOLO_SET.format(seed=4, deals="deals = 3"))
    export_deal_set(original, tmp_path / "set.parquet")
    extra = deals if "deals_file" in deals else f'deals_file = "set.parquet"\n{deals}'
    path = write_config(tmp_path, SOLO_SET.format(seed=1, deals=extra), "bad.toml")
    with pytest.raises(ConfigError) as error:
        load_config(path)
    message = str(error.value)
    assert "\n" not in message and str(path) in message
    for fragment in fragments:
        assert fragment in message


def test_a_deal_set_with_several_knockout_table_sizes_names_the_sizes_allowed(
        tmp_path: Path) -> None:
    from whist_sim.tournament.config import ConfigError, load_config

    body = config_text("knockout_whist", 2, {}, [4, 7]).replace(
        "deals = 2", 'deals_file = "set.parquet"')
    with pytest.raises(ConfigError) as error:
        load_config(write_config(tmp_path, body, "sizes.toml"))
    assert str(error.value).endswith(
        "tournament.deals_file holds deals for one table size; tournament.players = [4, 7]"
        " lists several: give one of them, players = 4 or players = 7")


def test_an_illegal_row_in_a_tournament_set_names_the_row(tmp_path: Path) -> None:
    from whist_sim.tournament.config import ConfigError, load_config

    original = _run_from(tmp_path, "original", SOLO_SET.format(seed=4, deals="deals = 3"))
    exported = export_deal_set(original, tmp_path / "set.parquet")
    frame = pl.read_parquet(exported)
    hands = frame["hands"].to_list()
    hands[1][0] = hands[1][1]  # row 1: seat 0 gets seat 1's cards: every one of them twice
    frame.with_columns(pl.Series("hands", hands)).write_parquet(exported)
    path = write_config(tmp_path, SOLO_SET.format(seed=1, deals='deals_file = "set.parquet"'),
                        "dup.toml")
    with pytest.raises(ConfigError, match=r"row 1 \(deal 0, hand 1\)"):
        load_config(path)


@pytest.mark.slow
def test_a_process_that_loaded_a_deal_set_exits_cleanly(runs: dict[str, Path]) -> None:
    """Loading a deal set left the process to abort at exit about one time in two
    ("terminate called without an active exception", exit 134) when Arrow's threads read
    it through a Python file object; eight processes in a row now all exit with 0."""
    name = next(iter(CASES))
    case = CASES[name]
    deals = runs[name].parent / "deals.parquet"
    code = ("import sys; from whist_sim.deal_sets import load_deal_set;"
            " from whist_sim.games import make_game;"
            f" load_deal_set(sys.argv[1], make_game({case['game']!r}, {case['variant']!r},"
            f" {case.get('players')!r}))")
    for _ in range(8):
        done = subprocess.run([sys.executable, "-c", code, str(deals)], capture_output=True,
                              text=True, timeout=120)
        assert done.returncode == 0, done.stderr


def test_the_docs_list_the_columns_in_the_order_export_writes_them() -> None:
    """docs/deal-sets.md says "exactly the nine columns above, in that order"."""
    import re

    from whist_sim.deal_sets import SCHEMA

    text = (Path(__file__).resolve().parents[1] / "docs" / "deal-sets.md").read_text()
    table = text[text.index("| column | type | required | meaning |"):]
    table = table[:table.index("\n\n")]
    assert re.findall(r"^\| `(\w+)` \|", table, re.MULTILINE) == SCHEMA.names


def test_a_run_from_a_deal_set_resumes_from_any_folder(tmp_path: Path, monkeypatch) -> None:
    """run.json named the set by a path relative to the folder the run started in: a resume
    from anywhere else said the set "cannot be read" (a reproducibility probe)."""
    import json

    from whist_sim.tournament.config import load_config
    from whist_sim.tournament.runner import resume_tournament, run_tournament

    original = _run_from(tmp_path, "original", SOLO_SET.format(seed=4, deals="deals = 3"))
    export_deal_set(original, tmp_path / "set.parquet")
    write_config(tmp_path, SOLO_SET.format(seed=1, deals='deals_file = "set.parquet"'),
                 "again.toml")
    monkeypatch.chdir(tmp_path.parent)  # the config given by a path relative to here
    config = load_config(Path(tmp_path.name) / "again.toml")
    again = run_tournament(config, tmp_path / "again", workers=0, progress=False).path
    recorded = json.loads((again / "run.json").read_text())["config"]["tournament"]["deals_file"]
    assert Path(recorded).is_absolute() and Path(recorded) == tmp_path / "set.parquet"
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    assert resume_tournament(again, workers=0, progress=False).status == "complete"


def test_a_run_that_did_not_complete_is_exported_only_when_asked(
        tmp_path: Path, monkeypatch) -> None:
    """A stopped run's deals are a prefix of its plan: exported quietly they made a set of
    750 deals from a run of 3,000 with no hint of it (a reproducibility probe)."""
    from whist_sim.tournament import executors

    real, calls = executors.play_task, []

    def stop_at_the_third(spec):
        calls.append(spec.task)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(spec)

    monkeypatch.setattr(executors, "play_task", stop_at_the_third)
    stopped = _run_from(tmp_path, "stopped", SOLO_SET.format(seed=4, deals="deals = 8"))
    with pytest.raises(DealSetError, match="the run is interrupted, not complete: its deals"
                       " are only those played of the 8 it planned"):
        export_deal_set(stopped, tmp_path / "set.parquet")
    written = export_deal_set(stopped, tmp_path / "set.parquet", partial=True)
    assert 0 < pl.read_parquet(written)["deal"].n_unique() < 8


def test_export_refuses_a_partial_that_is_not_true_or_false(
        runs: dict[str, Path], tmp_path: Path) -> None:
    """partial="no" was taken as True: a stopped run would be exported while asked not to."""
    with pytest.raises(DealSetError, match=r"partial = 'no' is not true or false; give"
                       r" partial=True or partial=False"):
        export_deal_set(runs["german_single"], tmp_path / "set.parquet", partial="no")
    assert not (tmp_path / "set.parquet").exists()


def test_export_refuses_an_out_inside_a_runs_data(runs: dict[str, Path]) -> None:
    """A data analyst's probe: a deal set written into data/seats/ made every reader refuse
    the run, its file not in the manifest."""
    run = runs["german_single"]
    with pytest.raises(DealSetError, match=r"lies in .*data, a run's own folder"):
        export_deal_set(run, run / "data" / "seats" / "set.parquet")
    RunFolder.open(run)  # untouched
    with pytest.raises(DealSetError, match="out = None is not a file's path"):
        export_deal_set(run, None)
    with pytest.raises(DealSetError, match="path = 5 is not a file's path"):
        load_deal_set(5, "german_whist")


def test_a_seed_column_pandas_made_floats_is_refused_saying_how_to_keep_it_whole(
        runs: dict[str, Path], tmp_path: Path) -> None:
    """Nulling one seed in pandas turns the column into floats: the refusal said only
    "column 'seed' is double", though the docs accept pandas files and null seeds."""
    exported = export_deal_set(runs["german_single"], tmp_path / "set.parquet")
    table = pq.read_table(exported)
    seeds = table["seed"].to_pylist()
    floats = pa.array([None] + [float(s) for s in seeds[1:]], pa.float64())
    pq.write_table(table.set_column(table.schema.get_field_index("seed"), "seed", floats),
                   tmp_path / "floats.parquet")
    with pytest.raises(DealSetError, match=r"column 'seed' is double; .*"
                       r"df\['seed'\] = df\['seed'\]\.astype\('Int64'\)"):
        load_deal_set(tmp_path / "floats.parquet", make_game("german_whist"))


def test_a_deal_set_taken_out_of_run_json_stops_its_resume(tmp_path: Path) -> None:
    """With deals_file removed from run.json's config, a resume dealt the rest of the run
    from the seed beside the deal set's deals, and ended "complete" (a probe's finding)."""
    from whist_sim.tournament.runner import resume_tournament

    original = _run_from(tmp_path, "original", SOLO_SET.format(seed=4, deals="deals = 3"))
    exported = export_deal_set(original, tmp_path / "set.parquet")
    again = _run_from(tmp_path, "again",
                      SOLO_SET.format(seed=1, deals=f'deals_file = "{exported.name}"'))
    meta = json.loads((again / "run.json").read_text())
    meta["config"]["tournament"]["deals_file"] = None
    (again / "run.json").write_text(json.dumps(meta))
    with pytest.raises(RunFolderError, match=re.escape(
            "tournament.deals_file is 'none', but the run was started with 'a deal set'"
            " according to its record play_rules['tournament.deals_file'] (run.json was"
            " edited")):
        resume_tournament(again, workers=0, progress=False)
